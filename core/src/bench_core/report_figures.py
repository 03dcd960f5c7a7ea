"""Drawing for ``bench report``: accuracy bars with the chance level beside them, heatmaps and curves, each
returned as PNG bytes.

matplotlib is an optional dependency (``pip install 'bench-core[report]'``) and is imported only when a
figure is drawn; :func:`require_matplotlib` says how to install it.  Figures are made with
``matplotlib.figure.Figure`` (no pyplot, no global state) and saved without a timestamp or version in the
PNG, so equal numbers give equal bytes on one installation.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

import attrs

from bench_core.errors import BenchError
from bench_core.report_data import Cell

DPI = 110
ACCURACY = "#3b6ea8"
CHANCE = "#b8b8b8"
#: Series colours (colour-blind safe order: blue, orange, green, red, purple, brown, pink, grey, olive, cyan).
PALETTE = ("#3b6ea8", "#e08a3c", "#4f9a59", "#c44e52", "#8172b3", "#93785f", "#d684bd", "#7f7f7f", "#b5ac4f",
           "#4fa7c4")
#: Labels longer than this, or more bars than ``_MAX_UPRIGHT``, turn a bar chart on its side.
_LONG_LABEL = 14
_MAX_UPRIGHT = 9


@attrs.frozen
class Table:
    """A table of a report: a title, a header row and rows of cell texts."""

    title: str
    header: tuple[str, ...] = attrs.field(converter=tuple)
    rows: tuple[tuple[str, ...], ...] = attrs.field(converter=lambda rows: tuple(tuple(r) for r in rows))


@attrs.frozen
class Chart:
    """One figure of a report: ``slug`` names its PNG file, ``png`` holds it, ``table`` the numbers drawn."""

    slug: str
    title: str
    caption: str
    png: bytes = attrs.field(repr=False)
    table: Table | None = None


def require_matplotlib() -> None:
    """Raise a BenchError naming the extra to install when matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise BenchError("bench report draws its figures with matplotlib, which is not installed: "
                         "pip install 'bench-core[report]'") from exc


def percent(value: float) -> str:
    """``0.625`` as ``"62%"`` (whole percent; ``"<1%"`` for a small non-zero value)."""
    if 0 < value < 0.005:
        return "<1%"
    return f"{100 * value:.0f}%"


def _new(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    figure.set_facecolor("white")
    return figure


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()


def _percent_axis(axis: Any, which: str = "y", top: float = 1.08) -> None:
    """0-100% ticks on ``which`` axis, room above 100% up to ``top`` for labels, light grid, no top/right
    frame."""
    from matplotlib.ticker import PercentFormatter

    getattr(axis, f"set_{which}lim")(0, top)
    getattr(axis, f"set_{which}ticks")([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    getattr(axis, f"{which}axis").set_major_formatter(PercentFormatter(1.0, decimals=0))
    axis.grid(axis=which, color="#e4e4e4", linewidth=0.8)
    axis.set_axisbelow(True)
    for side in ("top", "right"):
        axis.spines[side].set_visible(False)


def _upright(labels: Sequence[str]) -> bool:
    return len(labels) <= _MAX_UPRIGHT and max((len(s) for s in labels), default=0) <= _LONG_LABEL


def accuracy_bars(labels: Sequence[str], cells: Sequence[Cell], *, title: str, axis_label: str,
                  colours: Sequence[str] | None = None, legend: Sequence[tuple[str, str]] = ()) -> bytes:
    """Bars of accuracy (with 95% Wilson intervals and the value written on each) and, beside each, a grey
    bar of the group's chance level; a chart of open answers only (chance 0 everywhere) says so in its legend
    instead.  ``colours`` colour the accuracy bars one by one, ``legend`` names those colours.  Upright bars
    for a few short labels, bars on their side otherwise."""
    from matplotlib.patches import Patch

    upright = _upright(labels)
    count = len(labels)
    if upright:
        figure = _new(max(4.8, 1.0 * count + 2.2), 4.0)
    else:
        figure = _new(8.0, max(2.4, 0.42 * count + 1.5))
    axis = figure.add_subplot()
    colours = list(colours or [ACCURACY] * count)
    positions = list(range(count))
    any_chance = any(c.chance > 0 for c in cells)
    width = 0.56 if any_chance else 0.7
    shift = 0.16 if any_chance else 0.0
    ticks = [f"{label}\nn={cell.n}" if upright else f"{label}  (n={cell.n})"
             for label, cell in zip(labels, cells, strict=True)]
    values = [c.accuracy for c in cells]
    errors = [[c.accuracy - c.low for c in cells], [c.high - c.accuracy for c in cells]]
    bar = axis.bar if upright else axis.barh
    size = {"width": width} if upright else {"height": width}
    places = [p - shift for p in positions]
    bars = bar(places, values, color=colours, edgecolor="none", **size)
    if upright:
        axis.errorbar(places, values, yerr=errors, fmt="none", ecolor="#333333", elinewidth=1, capsize=3)
    else:
        axis.errorbar(values, places, xerr=errors, fmt="none", ecolor="#333333", elinewidth=1, capsize=3)
    if any_chance:
        chance_size = {"width": 0.26} if upright else {"height": 0.26}
        bar([p + 0.43 - shift for p in positions], [c.chance for c in cells], color=CHANCE, hatch="///",
            edgecolor="white", linewidth=0, **chance_size)
    for rect, cell in zip(bars, cells, strict=True):
        if upright:
            axis.annotate(percent(cell.accuracy), (rect.get_x() + rect.get_width() / 2, cell.high),
                          xytext=(0, 3), textcoords="offset points", ha="center", va="bottom", fontsize=9)
        else:
            axis.annotate(percent(cell.accuracy), (cell.high, rect.get_y() + rect.get_height() / 2),
                          xytext=(4, 0), textcoords="offset points", ha="left", va="center", fontsize=9)
    if upright:
        spare = max(0, 3 - count) * 0.4  # one or two bars stay bars, not slabs
        axis.set_xlim(-0.6 - spare, count - 0.4 + spare)
        axis.set_xticks(positions, ticks, fontsize=9)
        axis.set_ylabel("accuracy")
        axis.set_xlabel(axis_label)
        _percent_axis(axis, "y", 1.13)
    else:
        axis.set_yticks(positions, ticks, fontsize=9)
        axis.invert_yaxis()
        axis.set_xlabel("accuracy")
        axis.set_ylabel(axis_label)
        _percent_axis(axis, "x", 1.13)
    handles = [Patch(color=c, label=name) for name, c in legend] or [Patch(color=colours[0], label="accuracy")]
    if any_chance:
        handles.append(Patch(facecolor=CHANCE, hatch="///", edgecolor="white", label="chance (random guess)"))
    else:
        handles.append(Patch(facecolor="none", edgecolor="none", label="chance 0 (open answers)"))
    figure.legend(handles=handles, fontsize=8, frameon=False, loc="outside lower center",
                  ncols=min(len(handles), 5))
    axis.set_title(title, fontsize=11, loc="left")
    return _png(figure)


def paired_bars(labels: Sequence[str], first: Sequence[Cell], second: Sequence[Cell], *, names: tuple[str, str],
                title: str, axis_label: str) -> bytes:
    """Two bars per group (``names`` say which is which: Cartesian and Polar, say) with 95% intervals, the
    chance level as a dashed tick over each pair and the difference second minus first written above it in
    points."""
    figure = _new(max(5.5, 1.35 * len(labels) + 2.0), 4.3)
    axis = figure.add_subplot()
    width = 0.36
    for offset, cells, colour, name in ((-width / 2, first, PALETTE[0], names[0]),
                                        (width / 2, second, PALETTE[1], names[1])):
        places = [i + offset for i in range(len(labels))]
        values = [c.accuracy for c in cells]
        axis.bar(places, values, width=width * 0.95, color=colour, label=name)
        axis.errorbar(places, values, yerr=[[c.accuracy - c.low for c in cells], [c.high - c.accuracy for c in cells]],
                      fmt="none", ecolor="#333333", elinewidth=1, capsize=2.5)
    for i, (a, b) in enumerate(zip(first, second, strict=True)):
        chance = (a.chance + b.chance) / 2
        if chance > 0:
            axis.hlines(chance, i - width, i + width, colors="#555555", linestyles="--", linewidth=1.2,
                        label="chance" if i == 0 else None)
        delta = round(100 * (b.accuracy - a.accuracy), 1)
        colour = PALETTE[3] if delta < 0 else PALETTE[2] if delta > 0 else "#555555"
        axis.annotate(f"Δ {delta:+.1f} pts".replace("-", "−"), (i, max(a.high, b.high)), xytext=(0, 4),
                      textcoords="offset points", ha="center", va="bottom", fontsize=9, fontweight="bold",
                      color=colour)
    if len(labels) > 1 and labels[-1] == "overall":  # set the pooled pair apart from the categories
        axis.axvline(len(labels) - 1.5, color="#cccccc", linewidth=1)
    ticks = [f"{label}\nn={a.n}/{b.n}" for label, a, b in zip(labels, first, second, strict=True)]
    axis.set_xticks(range(len(labels)), ticks, fontsize=9)
    axis.set_xlabel(axis_label)
    axis.set_ylabel("accuracy")
    _percent_axis(axis, "y", 1.16)
    handles, names = axis.get_legend_handles_labels()
    order = sorted(range(len(names)), key=lambda k: names[k] == "chance")  # the two layouts first
    figure.legend([handles[k] for k in order], [names[k] for k in order], fontsize=8, frameon=False,
                  loc="outside lower center", ncols=3)
    axis.set_title(title, fontsize=11, loc="left")
    return _png(figure)


@attrs.frozen
class Grid:
    """One heatmap panel: ``values[r][c]`` (None for an empty cell) and the item count of each cell."""

    title: str
    values: tuple[tuple[float | None, ...], ...]
    counts: tuple[tuple[int, ...], ...]


def heatmaps(panels: Sequence[Grid], *, columns: Sequence[str], rows: Sequence[str], column_label: str,
             row_label: str, title: str) -> bytes:
    """Heatmaps side by side on one 0-100% colour scale, each cell showing its value and item count; cells
    without items are hatched grey."""
    import numpy as np

    figure = _new(min(6.0, 0.8 * len(columns) + 2.2) * len(panels) + 0.9, 0.62 * len(rows) + 2.0)
    axes = figure.subplots(1, len(panels), squeeze=False)[0]
    image = None
    for axis, panel in zip(axes, panels, strict=True):
        data = np.array([[np.nan if v is None else v for v in row] for row in panel.values], dtype=float)
        axis.set_facecolor("#efefef")
        image = axis.imshow(np.ma.masked_invalid(data), cmap="viridis", vmin=0.0, vmax=1.0, aspect="auto",
                            origin="upper")
        for r in range(data.shape[0]):
            for c in range(data.shape[1]):
                n = panel.counts[r][c]
                if not n:
                    axis.add_patch(_hatched(c, r))
                    continue
                value = data[r, c]
                colour = "black" if value > 0.6 else "white"
                axis.text(c, r, f"{percent(value)}\nn={n}", ha="center", va="center", fontsize=8, color=colour,
                          linespacing=1.1)
        axis.set_xticks(range(len(columns)), columns, fontsize=8)
        axis.set_yticks(range(len(rows)), rows, fontsize=8)
        axis.set_xlabel(column_label, fontsize=9)
        axis.set_ylabel(row_label, fontsize=9)
        axis.set_title(panel.title, fontsize=10)
        for spine in axis.spines.values():
            spine.set_visible(False)
    if image is not None:
        bar = figure.colorbar(image, ax=list(axes), shrink=0.85, pad=0.02)
        from matplotlib.ticker import PercentFormatter

        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        bar.ax.tick_params(labelsize=8)
    figure.suptitle(title, fontsize=11, x=0.02, ha="left")
    return _png(figure)


def _hatched(column: int, row: int) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((column - 0.5, row - 0.5), 1, 1, facecolor="#efefef", edgecolor="#c8c8c8", hatch="xx",
                     linewidth=0)


@attrs.frozen
class Series:
    """One line of a curve panel: a value per x position (None where there is no item)."""

    label: str
    values: tuple[float | None, ...] = attrs.field(converter=tuple)
    colour: str = ACCURACY
    dashed: bool = False
    low: tuple[float, ...] = attrs.field(default=(), converter=tuple)
    high: tuple[float, ...] = attrs.field(default=(), converter=tuple)


@attrs.frozen
class Panel:
    """One panel of curves over categorical x positions."""

    title: str
    axis_label: str
    ticks: tuple[str, ...] = attrs.field(converter=tuple)
    series: tuple[Series, ...] = attrs.field(converter=tuple)


def curves(panels: Sequence[Panel], *, title: str) -> bytes:
    """Panels of lines with markers over evenly spaced categories (bins, counts), one shared 0-100% axis; a
    series with ``low``/``high`` gets a shaded 95% band; a gap where a position has no items.  The legend
    (one for the figure) lists every series label once."""
    figure = _new(max(4.2, 3.4 * len(panels)) + 0.4, 3.9)
    axes = figure.subplots(1, len(panels), squeeze=False, sharey=True)[0]
    seen: dict[str, Any] = {}
    for axis, panel in zip(axes, panels, strict=True):
        for series in panel.series:
            xs = list(range(len(series.values)))
            ys = [math.nan if v is None else v for v in series.values]
            (line,) = axis.plot(xs, ys, marker="o", markersize=4.5, linewidth=1.8, color=series.colour,
                                linestyle="--" if series.dashed else "-", label=series.label)
            if series.low and series.high:
                lows = [math.nan if v is None else lo for v, lo in zip(series.values, series.low, strict=True)]
                highs = [math.nan if v is None else hi for v, hi in zip(series.values, series.high, strict=True)]
                axis.fill_between(xs, lows, highs, color=series.colour, alpha=0.12, linewidth=0)
            seen.setdefault(series.label, line)
        axis.set_xticks(range(len(panel.ticks)), panel.ticks, fontsize=8)
        axis.set_xlim(-0.4, max(len(panel.ticks) - 0.6, 0.4))
        axis.set_xlabel(panel.axis_label, fontsize=9)
        axis.set_title(panel.title, fontsize=10)
        _percent_axis(axis, "y")
    axes[0].set_ylabel("accuracy")
    figure.legend(list(seen.values()), list(seen), loc="outside lower center", ncols=min(len(seen), 4), fontsize=8,
                  frameon=False)
    figure.suptitle(title, fontsize=11, x=0.02, ha="left")
    return _png(figure)
