"""Which figures ``bench report`` draws for a family: the picture its paper draws.

:data:`FAMILY_FIGURES` maps a family name to a maker ``(family, rows) -> [Chart, ...]``;
:func:`register_family_figures` adds one (a plugin can call it from its module).  A family without a maker
gets :func:`task_charts` (accuracy per task, chance beside it), or the Cartesian-vs-Polar figure when its
items come in ``cartesian``/``polar`` variants with a category (Polaris-Bench, whatever its family is
named).  Every maker returns [] rather than fail when the fields it needs are absent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from bench_core.report_data import Cell, Row, group, metadata_value
from bench_core.report_figures import (
    PALETTE,
    Chart,
    Grid,
    Panel,
    Series,
    Table,
    accuracy_bars,
    curves,
    heatmaps,
    paired_bars,
    percent,
)

FigureMaker = Callable[[str, Sequence[Row]], list[Chart]]

#: The families' own names, for headings.
FAMILY_TITLES = {
    "traversal": "TraversalBench",
    "mindseye": "Mind's Eye",
    "marvl": "MaRVL-QA",
    "sphinx": "SPHINX",
    "polaris": "Polaris-Bench",
}

CHANCE_NOTE = ("Grey hatched bars: the chance level (1/k for an item with k options, 0 for an open answer, "
               "or the task's declared baseline); black ticks: 95% Wilson intervals.")


def slug(text: str) -> str:
    """``text`` as a file-name stem: lower case, runs of other characters as one ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "figure"


def fmt(value: float) -> str:
    """An accuracy or chance as ``bench score`` prints it: 4 decimals."""
    return f"{value:.4f}"


def cell_row(label: str, cell: Cell) -> tuple[str, ...]:
    return (label, str(cell.n), fmt(cell.accuracy), fmt(cell.chance), fmt(cell.answered))


CELL_HEADER = ("n", "accuracy", "chance", "answered")


def category_of(row: Row) -> str:
    """The item's category: its task's, or ``metadata["category"]`` when the task is not installed."""
    if row.category != "unknown":
        return row.category
    value = row.item.metadata.get("category")
    return str(value) if value is not None else "unknown"


# -- the default: accuracy per task ---------------------------------------------------------------------
def task_charts(family: str, rows: Sequence[Row]) -> list[Chart]:
    """Accuracy per task of ``family`` beside its chance level, bars coloured by category when the family has
    more than one (Mind's Eye's abstraction / relation / transformation)."""
    tasks = group(rows, lambda r: r.task)
    categories = list(dict.fromkeys(sorted(category_of(r) for r in rows)))
    order = sorted(tasks, key=lambda t: (categories.index(category_of(tasks[t][0])), t))
    cells = [Cell.of(tasks[t]) for t in order]
    colours = legend = None
    if len(categories) > 1:
        colour_of = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(categories)}
        colours = [colour_of[category_of(tasks[t][0])] for t in order]
        legend = [(c, colour_of[c]) for c in categories]
    labels = [t.split("/", 1)[-1] for t in order]
    title = f"{FAMILY_TITLES.get(family, family)}: accuracy per task"
    png = accuracy_bars(labels, cells, title=title, axis_label="task", colours=colours, legend=legend or ())
    table = Table(title, ("task", "category", *CELL_HEADER),
                  [(t, category_of(tasks[t][0]), *cell_row(t, c)[1:]) for t, c in zip(order, cells, strict=True)])
    return [Chart(f"{slug(family)}-tasks", title, f"Accuracy of each {family} task. {CHANCE_NOTE}", png, table)]


# -- TraversalBench ---------------------------------------------------------------------------------------
#: The paper's bins: tortuosity (path length / end-to-end distance) and self-intersection counts.
TORTUOSITY_BINS = ("1.0-1.3", "1.3-2", "2-3", "3-4.5", "4.5-6.5", "6.5+")
CROSSING_BINS = ("0", "1", "2-3", "4-5", "6-8", "9-12", "13+")


def _bin_label(index: int, names: Sequence[str], letter: str) -> str:
    """``t2 (2-3)``: the paper's bin name and its range."""
    return f"{letter}{index} ({names[index]})" if 0 <= index < len(names) else f"{letter}{index}"


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def traversal_charts(family: str, rows: Sequence[Row]) -> list[Chart]:
    """Per-task bars, then for the items that carry tortuosity and crossing bins (``traversal/path``): exact
    match and token accuracy over the tortuosity x crossing grid (the paper's Fig. 2 and 11), and curves over
    tortuosity bin, crossing bin and vertex count, confounded conditions dashed (Fig. 3)."""
    charts = task_charts(family, rows)
    binned = [r for r in rows if _int(metadata_value(r, "tort_bin")) is not None
              and _int(metadata_value(r, "cross_bin")) is not None]
    if not binned:
        return charts
    return [*charts, _traversal_grid(binned), _traversal_curves(binned)]


def _is_base(row: Row) -> bool:
    return row.item.variant in (None, "base")


def _traversal_grid(rows: Sequence[Row]) -> Chart:
    """The grid over the base (unconfounded) items, as the paper draws it, when there are any."""
    base = [r for r in rows if _is_base(r)]
    which = "unconfounded items" if len(base) == len(rows) else "unconfounded items only, as in the paper"
    if not base:
        base, which = list(rows), "confounded items (there are no unconfounded ones)"
    cells = group(base, lambda r: (metadata_value(r, "cross_bin"), metadata_value(r, "tort_bin")))
    t_bins = range(max(len(TORTUOSITY_BINS) - 1, *(t for _, t in cells)) + 1)
    s_bins = range(max(len(CROSSING_BINS) - 2, *(s for s, _ in cells)) + 1)
    stats = {key: (Cell.of(g), Cell.of(g, "token_accuracy")) for key, g in cells.items()}
    counts = tuple(tuple(stats[s, t][0].n if (s, t) in stats else 0 for t in t_bins) for s in s_bins)

    def values(which: int) -> tuple[tuple[float | None, ...], ...]:
        return tuple(tuple((stats[s, t][0].accuracy if which == 0 else stats[s, t][1].metric)
                           if (s, t) in stats else None for t in t_bins) for s in s_bins)

    title = "TraversalBench: accuracy over tortuosity x self-intersection bins"
    png = heatmaps([Grid("exact match", values(0), counts), Grid("token accuracy", values(1), counts)],
                   columns=[_bin_label(t, TORTUOSITY_BINS, "t").replace(" ", "\n") for t in t_bins],
                   rows=[_bin_label(s, CROSSING_BINS, "s") for s in s_bins],
                   column_label="tortuosity bin (path length / end-to-end distance)",
                   row_label="self-intersection bin (crossings)", title=f"{title} ({which})")
    header = ("crossings \\ tortuosity", *(_bin_label(t, TORTUOSITY_BINS, "t") for t in t_bins))
    body = [(_bin_label(s, CROSSING_BINS, "s"),
             *(f"{percent(stats[s, t][0].accuracy)} / {percent(stats[s, t][1].metric)} (n={stats[s, t][0].n})"
               if (s, t) in stats else "-" for t in t_bins)) for s in s_bins]
    return Chart("traversal-heatmap", title,
                 f"Exact match (left) and token accuracy (right) in each cell of the paper's joint grid, over the "
                 f"{which}; each cell gives its value and item count, hatched cells hold no item. Table cells: "
                 "exact match / token accuracy (items).", png,
                 Table(title + " (exact match / token accuracy)", header, body))


def _traversal_curves(rows: Sequence[Row]) -> Chart:
    conditions = group(rows, lambda r: "base" if _is_base(r) else "confounded")
    factors = (("tort_bin", "tortuosity bin", TORTUOSITY_BINS), ("cross_bin", "self-intersection bin", CROSSING_BINS),
               ("vertices", "vertex count", ()))
    panels, body = [], []
    for field, axis_label, names in factors:
        keys = sorted({_int(metadata_value(r, field)) for r in rows} - {None})
        series = []
        for condition, members in conditions.items():
            by_key = group(members, lambda r, f=field: _int(metadata_value(r, f)))
            cells = [Cell.of(by_key[k]) if k in by_key else None for k in keys]
            tokens = [Cell.of(by_key[k], "token_accuracy").metric if k in by_key else None for k in keys]
            dashed = condition != "base"
            suffix = "" if len(conditions) == 1 else f" ({condition})"
            band = () if series else ([c.low if c else 0.0 for c in cells], [c.high if c else 0.0 for c in cells])
            series.append(Series(f"exact match{suffix}", [c.accuracy if c else None for c in cells], PALETTE[0],
                                 dashed, *band))
            series.append(Series(f"token accuracy{suffix}", tokens, PALETTE[2], dashed))
            body += [(axis_label, str(k), condition, str(c.n), fmt(c.accuracy), fmt(t or 0.0))
                     for k, c, t in zip(keys, cells, tokens, strict=True) if c]
        ticks = [names[k] if names and 0 <= k < len(names) else str(k) for k in keys]
        panels.append(Panel(f"by {axis_label}", axis_label, ticks, series))
    title = "TraversalBench: accuracy by tortuosity, crossings and vertex count"
    png = curves(panels, title=title)
    return Chart("traversal-curves", title,
                 "Exact match (shaded: its 95% interval, for the first condition) and token accuracy along each "
                 "controlled factor; dashed lines are items with confounding spurs.", png,
                 Table(title, ("factor", "value", "condition", "n", "exact match", "token accuracy"), body))


# -- Polaris-Bench ---------------------------------------------------------------------------------------
def layout_of(row: Row) -> str | None:
    """``"cartesian"`` or ``"polar"`` for an item in one of Polaris' two layouts (by its variant), else None."""
    variant = (row.item.variant or "").lower()
    if variant.startswith("cart"):
        return "cartesian"
    if variant.startswith("polar"):
        return "polar"
    return None


def is_cartesian_polar(rows: Sequence[Row]) -> bool:
    """True when the rows hold both layouts."""
    return {layout_of(r) for r in rows} >= {"cartesian", "polar"}


def polaris_charts(family: str, rows: Sequence[Row]) -> list[Chart]:
    """Per-task bars, then Cartesian vs Polar accuracy per category and overall with Δ = P − C (the paper's
    Table 1), for items whose variant names the layout."""
    charts = task_charts(family, rows)
    paired = [r for r in rows if layout_of(r)]
    if not is_cartesian_polar(paired):
        return charts
    by_category = group(paired, category_of)
    labels = [*by_category, "overall"]
    members = [*by_category.values(), paired]
    first = [Cell.macro([r for r in m if layout_of(r) == "cartesian"]) for m in members]
    second = [Cell.macro([r for r in m if layout_of(r) == "polar"]) for m in members]
    title = f"{FAMILY_TITLES.get(family, family)}: Cartesian vs Polar accuracy per category"
    png = paired_bars(labels, first, second, names=("Cartesian", "Polar"), title=title, axis_label="category")
    body = [(label, str(c.n), fmt(c.accuracy), str(p.n), fmt(p.accuracy), f"{100 * (p.accuracy - c.accuracy):+.1f}")
            for label, c, p in zip(labels, first, second, strict=True)]
    table = Table(title, ("category", "n C", "Cartesian", "n P", "Polar", "Δ P − C (points)"), body)
    return [*charts, Chart(f"{slug(family)}-cartesian-polar", title,
                           "Accuracy of the same tasks drawn on a Cartesian grid and on a polar grid: the mean of "
                           "the task accuracies in each category and overall, as the paper scores; "
                           "Δ = Polar − Cartesian in points; dashed: chance.", png, table)]


# -- SPHINX ---------------------------------------------------------------------------------------------
def sphinx_charts(family: str, rows: Sequence[Row]) -> list[Chart]:
    """Per-task bars, then accuracy per category (the paper's Table 1: the mean of its task accuracies), chance
    beside it."""
    charts = task_charts(family, rows)
    by_category = group(rows, category_of)
    cells = [Cell.macro(g) for g in by_category.values()]
    title = f"{FAMILY_TITLES.get(family, family)}: accuracy per category"
    png = accuracy_bars(list(by_category), cells, title=title, axis_label="category")
    table = Table(title, ("category", "tasks", *CELL_HEADER),
                  [(c, str(len({r.task for r in g})), *cell_row(c, cell)[1:])
                   for (c, g), cell in zip(by_category.items(), cells, strict=True)])
    return [*charts, Chart(f"{slug(family)}-categories", title,
                           f"Accuracy per category: the mean of its task accuracies (the paper's way). {CHANCE_NOTE}",
                           png, table)]


# -- MaRVL-QA --------------------------------------------------------------------------------------------
def marvl_charts(family: str, rows: Sequence[Row]) -> list[Chart]:
    """Per-task bars, then counting accuracy by the number of extrema (the paper's bins 1-5 ... 16-20, from
    ``count_bucket``) and transformation accuracy by the transformation applied (``transformation``)."""
    charts = task_charts(family, rows)
    counting = [r for r in rows if metadata_value(r, "count_bucket") is not None]
    if counting:
        charts.append(_by_field_chart(
            f"{slug(family)}-by-count", "MaRVL-QA counting: accuracy by number of extrema",
            counting, lambda r: str(metadata_value(r, "count_bucket")), "extrema in the plot (gold count)",
            "Counting accuracy in the paper's count bins. "))
    transforms = [r for r in rows if metadata_value(r, "transformation") is not None]
    if transforms:
        charts.append(_by_field_chart(
            f"{slug(family)}-by-transformation", "MaRVL-QA transformation: accuracy by transformation",
            transforms, _transformation_label, "transformation from plot A to plot B",
            "Transformation accuracy by the transformation applied. "))
    return charts


def _transformation_label(row: Row) -> str:
    text = row.item.metadata.get("transformation_text")
    return str(text) if text else str(metadata_value(row, "transformation"))


def _by_field_chart(name: str, title: str, rows: Sequence[Row], key: Callable[[Row], str], axis_label: str,
                    caption: str) -> Chart:
    groups = group(rows, key)
    cells = [Cell.of(g) for g in groups.values()]
    png = accuracy_bars(list(groups), cells, title=title, axis_label=axis_label)
    table = Table(title, (axis_label, *CELL_HEADER), [cell_row(k, c) for k, c in zip(groups, cells, strict=True)])
    return Chart(name, title, caption + CHANCE_NOTE, png, table)


#: Family name -> figure maker; Mind's Eye's paper draws accuracy per task, which is the default.
FAMILY_FIGURES: dict[str, FigureMaker] = {
    "traversal": traversal_charts,
    "polaris": polaris_charts,
    "sphinx": sphinx_charts,
    "marvl": marvl_charts,
    "mindseye": task_charts,
}


def register_family_figures(family: str, maker: FigureMaker) -> None:
    """Make ``maker`` draw ``family``'s figures in every later report (replacing any maker it had)."""
    FAMILY_FIGURES[family] = maker


def family_charts(family: str, rows: Sequence[Row]) -> list[Chart]:
    """The figures of one family: its registered maker's, else Polaris' when its items come in Cartesian and
    Polar layouts, else accuracy per task."""
    maker = FAMILY_FIGURES.get(family)
    if maker is None:
        maker = polaris_charts if is_cartesian_polar(rows) else task_charts
    return maker(family, rows)


#: A ``--by`` field with more values than this in one task gets a table but no figure.
MAX_BARS = 40


def field_chart(task: str, field: str, rows: Sequence[Row], key: Callable[[Row], str]) -> Chart | Table | None:
    """Accuracy of one task's rows by ``key`` (a ``--by`` field's value, as ``bench score`` groups it) beside
    the chance level; a Table alone when the field takes more than ``MAX_BARS`` values, None when no row of
    the task has the field."""
    groups = group(rows, key)
    if set(groups) <= {"null"}:
        return None
    cells = [Cell.of(g) for g in groups.values()]
    title = f"{task}: accuracy by {field}"
    table = Table(title, (field, *CELL_HEADER), [cell_row(k, c) for k, c in zip(groups, cells, strict=True)])
    if len(groups) > MAX_BARS:
        return Table(f"{title} ({len(groups)} values: too many to draw)", table.header, table.rows)
    png = accuracy_bars([str(k) for k in groups], cells, title=title, axis_label=field)
    return Chart(f"{slug(task)}-by-{slug(field)}", title, CHANCE_NOTE, png, table)
