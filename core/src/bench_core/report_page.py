"""``bench report``: a predictions file scored against a dataset, written as a page people look at.

:func:`write_report` writes ``OUT/index.html`` (self-contained: CSS inline, every image a base64 data URL,
nothing fetched), ``OUT/report.md`` (the same tables in markdown), the figures as PNG under
``OUT/figures/`` and the example items' images under ``OUT/examples/`` (for the markdown).  The tables are
``bench score``'s numbers (:func:`bench_core.report.score_dataset`); each family's figures are the ones its
paper draws (:mod:`bench_core.report_families`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from bench_core.errors import DatasetError
from bench_core.report_data import Cell, Row, group, pick_examples
from bench_core.report_figures import Chart, Table

#: Marks a folder as written by bench report: only such a folder (or an empty one) is written into.
MARKER = ".bench-report"
FIGURES = "figures"
EXAMPLES = "examples"


@attrs.frozen
class Section:
    """A part of the report: figures (each with its PNG's path in the report folder) and tables."""

    anchor: str
    title: str
    intro: str
    charts: tuple[tuple[str, Chart], ...] = ()
    tables: tuple[Table, ...] = ()


@attrs.frozen
class Example:
    """One example item: the row, whether the model got it right, and its images (PNG bytes, or None with
    the reason it cannot be shown), with their paths in the report folder."""

    row: Row
    right: bool
    images: tuple[tuple[str, bytes | None, str], ...]  # (path in the report folder, PNG, problem)


@attrs.frozen
class Page:
    """Everything a report shows, ready for :mod:`bench_core.report_render`."""

    dataset: str
    predictions: str
    summary: Mapping[str, Any]
    notes: tuple[str, ...]
    sections: tuple[Section, ...]
    examples: tuple[tuple[str, tuple[Example, ...]], ...]


def check_out_dir(out: Path, dataset: Path) -> None:
    """Refuse a report folder that would mix with other files: the dataset folder itself, or an existing
    non-empty folder not written by bench report."""
    if out.exists() and not out.is_dir():
        raise DatasetError(f"--out {out} is a file; name a new folder, an empty one or an earlier report's")
    if out.resolve() == dataset.resolve() or (out / "items.jsonl").exists():
        raise DatasetError(f"--out {out} holds a dataset; write the report to a folder of its own")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise DatasetError(f"--out {out} is not empty and holds no earlier bench report ({MARKER}); name a new "
                           "folder, an empty one or an earlier report's")


def build_page(root: str | os.PathLike[str], predictions: str | os.PathLike[str], by: Sequence[str] = (),
               host: Any = None) -> Page:
    """Score ``predictions`` against the dataset ``root`` and lay out the report: a summary, each family's
    figures, each task's accuracy by every ``by`` field, ``bench score``'s tables with chance levels, and a
    right and a wrong example per task.  DatasetError for an empty dataset or a ``by`` field no item has."""
    from bench_core.dataset import read_items
    from bench_core.host import default_host
    from bench_core.report import load_predictions, score_dataset, trace_notes
    from bench_core.report_data import score_rows

    host = host or default_host()
    by = [f for f in dict.fromkeys(by) if f]
    summary = score_dataset(root, predictions, by, host=host)
    responses, _ = load_predictions(predictions)
    rows = score_rows(read_items(root), responses, host)
    numbering = _Numbering()
    sections = [_overview(summary, rows)]
    for family, members in group(rows, lambda r: r.family).items():
        sections.append(_family_section(family, members, numbering))
    if by:
        sections.append(_fields_section(by, rows, numbering))
    sections.append(_tables_section(summary, rows))
    examples = tuple((task, _examples(Path(root), members)) for task, members in group(rows, lambda r: r.task).items())
    return Page(str(root), str(predictions), summary, tuple(trace_notes(summary)), tuple(sections), examples)


class _Numbering:
    """Figure paths ``figures/NN-slug.png`` in report order, each slug once."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def place(self, chart: Chart) -> tuple[str, Chart]:
        name = chart.slug
        suffix = 2
        while name in self.used:
            name, suffix = f"{chart.slug}-{suffix}", suffix + 1
        self.used.add(name)
        return f"{FIGURES}/{len(self.used):02d}-{name}.png", chart


def _overview(summary: Mapping[str, Any], rows: Sequence[Row]) -> Section:
    from bench_core.report_families import CELL_HEADER, fmt

    chance = {t: Cell.of(g).chance for t, g in group(rows, lambda r: r.task).items()}
    family = {r.task: r.family for r in rows}
    body = [(task, family.get(task, ""), str(s["n"]), fmt(s["accuracy"]), fmt(chance.get(task, 0.0)),
             fmt(s.get("mean_answered", 0.0))) for task, s in summary["by"]["task"].items()]
    table = Table("accuracy by task", ("task", "family", *CELL_HEADER), body)
    return Section("overview", "Accuracy by task", "Each task's accuracy (as bench score gives it), the accuracy "
                   "a random guesser would reach, and the share of responses with a final answer that could be "
                   "parsed.", tables=(table,))


def _family_section(family: str, rows: Sequence[Row], numbering: _Numbering) -> Section:
    from bench_core.report_families import FAMILY_TITLES, family_charts, slug

    charts = tuple(numbering.place(c) for c in family_charts(family, rows))
    name = FAMILY_TITLES.get(family, family)
    tasks = len({r.task for r in rows})
    return Section(f"family-{slug(family)}", f"{name} ({family})",
                   f"{len(rows)} items of {tasks} task{'s' if tasks != 1 else ''}.", charts)


def _fields_section(by: Sequence[str], rows: Sequence[Row], numbering: _Numbering) -> Section:
    from bench_core.report import field_value
    from bench_core.report_families import field_chart

    charts, tables = [], []
    for task, members in group(rows, lambda r: r.task).items():
        for field in by:
            made = field_chart(task, field, members, lambda r, f=field: field_value(r.item, f, r.category))
            if isinstance(made, Chart):
                charts.append(numbering.place(made))
            elif made is not None:
                tables.append(made)
    return Section("by-field", f"Accuracy by {', '.join(by)}", "Each task's accuracy for every value of the "
                   "fields given with --by (a task without the field is left out), with its chance level beside "
                   "it.", tuple(charts), tuple(tables))


def _tables_section(summary: Mapping[str, Any], rows: Sequence[Row]) -> Section:
    from bench_core.report import field_value
    from bench_core.report_families import CELL_HEADER, fmt

    tables = []
    for field, table in summary["by"].items():
        chance = {k: Cell.of(g).chance for k, g in group(rows, lambda r, f=field: field_value(r.item, f,
                                                                                             r.category)).items()}
        body = [(key, str(s["n"]), fmt(s["accuracy"]), fmt(chance.get(key, 0.0)), fmt(s.get("mean_answered", 0.0)))
                for key, s in table.items()]
        tables.append(Table(f"by {field}", (field, *CELL_HEADER), body))
    return Section("tables", "Tables", "The breakdowns of bench score over every item, with the chance level of "
                   "each group (the mean over its items).", tables=tuple(tables))


def _examples(root: Path, rows: Sequence[Row]) -> tuple[Example, ...]:
    from bench_core.report_families import slug

    examples = []
    for right, row in zip((True, False), pick_examples(rows), strict=True):
        if row is None:
            continue
        images = tuple((f"{EXAMPLES}/{slug(row.item.id)}-{k}.png", *_image(root, rel))
                       for k, rel in enumerate(row.item.images))
        examples.append(Example(row, right, images))
    return tuple(examples)


def _image(root: Path, rel: str) -> tuple[bytes | None, str]:
    """An item's image as PNG bytes that decode, or None and why not (missing, outside the dataset folder,
    not a PNG); never raises."""
    from bench_core.images import decode_png

    base = root.resolve()
    path = (root / rel).resolve()
    if base not in path.parents:
        return None, f"{rel} lies outside the dataset folder"
    try:
        data = path.read_bytes()
        decode_png(data)
    except OSError:
        return None, f"{rel} cannot be read"
    except Exception as exc:  # a file Pillow cannot decode is shown as a note, not a broken image
        return None, f"{rel} is not a readable PNG ({type(exc).__name__})"
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return None, f"{rel} is not a PNG"
    return data, ""


def write_report(root: str | os.PathLike[str], predictions: str | os.PathLike[str], out: str | os.PathLike[str],
                 by: Iterable[str] = (), host: Any = None) -> Page:
    """Write the report of ``predictions`` on the dataset ``root`` into the folder ``out`` (see the module
    docstring) and return what it shows.  Nothing is written when the input is bad (BenchError: matplotlib
    missing, an empty dataset, an unknown ``by`` field, an ``out`` folder holding other files); files are
    written whole (through a temporary file renamed into place), and figures of an earlier report in ``out``
    that this one does not draw are removed."""
    from bench_core.dataset import _atomic_write
    from bench_core.report_figures import require_matplotlib
    from bench_core.report_render import render_html, render_markdown

    require_matplotlib()
    out_dir = Path(out)
    check_out_dir(out_dir, Path(root))
    page = build_page(root, predictions, list(by), host=host)
    files: dict[str, bytes] = {}
    for section in page.sections:
        files.update((path, chart.png) for path, chart in section.charts)
    for _, examples in page.examples:
        files.update((path, data) for example in examples for path, data, _ in example.images if data)
    files["report.md"] = render_markdown(page).encode("utf-8")
    files["index.html"] = render_html(page).encode("utf-8")
    _atomic_write(out_dir / MARKER, b"written by bench report; the figures/ and examples/ PNGs are rewritten\n")
    for folder in (FIGURES, EXAMPLES):
        for stale in sorted((out_dir / folder).glob("*.png")):
            if f"{folder}/{stale.name}" not in files:
                stale.unlink()
    for path, data in files.items():
        _atomic_write(out_dir / path, data)
    return page
