"""``sphinx/multi-column-arithmetic`` (paper B.4.6, spec T20): three panels of C framed columns (C = 2..6), each
column a bottom-aligned stack of one motif whose count changes by its own constant step (zero or negative
allowed) from panel to panel, and a blank fourth panel; which of four option panels is the fourth?

The paper's wrong options each edit exactly one column of the true panel, so the majority count of every
column over the four options is the truth: the options alone give the answer away.  Here the four options
are a *centre* panel and three one-column edits of it (by +-1 or +-2 copies; on two columns, the same column
edited up and down plus the other), and the truth is each of the four roles equally often (balanced over the
items): the centre one time in four, else one of the edits.  The options are made first and the row is then
built backwards from the truth (per-column steps drawn among those that keep every count in 0..cap, the first
column's step never zero), so nothing about the options depends on which one is right.  No retry loop: every
count is constructed directly.

Every column has its own motif family and colour (symmetric mode); a draw that is not one bold blob at stack
size is redrawn at most ``ATTEMPTS`` times, then a plain dot of the column's colour stands in.  All panels
share one copy size, set by the largest count of the item (the paper's within-column scale).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from PIL import Image

from bench_core import Problem
from bench_plugin_sphinx import sequence_words as words
from bench_plugin_sphinx import sets
from bench_plugin_sphinx.descriptions.multi_column_arithmetic import STACK_FAMILIES
from bench_plugin_sphinx.kit import channels, complexity, indexed, layout, sequences
from bench_plugin_sphinx.kit.palette import PALETTE
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.verifiers import multi_column_arithmetic as verifier

COLUMNS = words.COLUMNS
#: The largest count of a column, by the number of columns (fewer for narrow columns, spec T20).
CAP = {2: 9, 3: 9, 4: 7, 5: 7, 6: 6}
STEPS = (-2, -1, 0, 1, 2)
ATTEMPTS = 6
FILL = 0.7
REACH = 2
MIN_INK = 0.12
DOT = {"square": False, "radius": 0.8, "hole": 0.0, "hole_angle": 0.0}
#: The labels (a)-(d) are anti-aliased in this many steps: fully anti-aliased they bring 236 greys, and with up
#: to six motifs' anti-aliased edges the picture would exceed the 256 colours of a palette PNG (about twice as
#: fast to encode and four times as fast to decode as RGB here); in 16 steps it keeps 27-81 colours.
LABEL_LEVELS = 16


def _bold(tile) -> bool:
    return sequences.blob_count(tile, reach=REACH) == 1 and float((channels.darkest(tile) < 215).mean()) >= MIN_INK


def _motif(family: str, colour: str, rng, params, cell: int) -> tuple[dict[str, Any], np.ndarray]:
    """A symmetric motif of ``family`` in ``colour``, bold at ``cell`` px (at most ATTEMPTS draws, then a dot),
    and its tile at that size."""
    for _attempt in range(ATTEMPTS):
        spec = sequences.sample_motif(family, rng, "sym", sets.icon_split(params), colour)
        tile = sequences.render_motif(spec, cell, FILL)
        if _bold(tile):
            return spec, tile
    spec = {"family": "dot", "mode": "sym", "colour": colour, "params": dict(DOT)}
    return spec, sequences.render_motif(spec, cell, FILL)


def centre_and_edits(columns: int, cap: int, rng) -> tuple[list[int], list[tuple[int, int]]]:
    """A centre panel's counts (each in 2..cap - 2) and three one-column edits (column, change) of it, every
    change +-1 or +-2; with two columns, one column is edited both up and down."""
    centre = [int(rng.integers(2, cap - 1)) for _ in range(columns)]
    if columns == 2:
        first = int(rng.integers(2))
        targets = [first, first, 1 - first]
    else:
        targets = [int(c) for c in rng.permutation(columns)[:3]]
    edits = []
    for k, column in enumerate(targets):
        size = int(rng.integers(1, 3))
        sign = 1 if rng.random() < 0.5 else -1
        if columns == 2 and k == 1:
            sign = -edits[0][1] // abs(edits[0][1])
        edits.append((column, sign * size))
    return centre, edits


def _backwards(truth: list[int], cap: int, rng) -> list[int]:
    """Per-column steps that keep truth - 3 * step in 0..cap; the first column's never zero."""
    steps = []
    for c, value in enumerate(truth):
        allowed = [s for s in STEPS if 0 <= value - 3 * s <= cap and (c > 0 or s != 0)]
        steps.append(allowed[int(rng.integers(len(allowed)))])
    return steps


def compose(scene: dict[str, Any], tiles: list[np.ndarray] | None = None):
    """The item's picture from its scene (``tiles``: the columns' motif tiles at the cell size, when drawn)."""
    if tiles is None:
        tiles = [sequences.render_motif(spec, scene["cell"], FILL) for spec in scene["motifs"]]
    panels = [sequences.stacks_panel(tiles, counts, scene["cell"]) for counts in scene["panel_counts"]]
    options = [sequences.stacks_panel(tiles, counts, scene["cell"]) for counts in scene["option_counts"]]
    return sequences.compose([*panels, None], options, LABEL_LEVELS)


@functools.cache
def _backdrop() -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """The picture with blank panels (``kit.sequences.compose``: borders, arrows, labels in LABEL_LEVELS greys),
    ``kit.indexed.kept_backdrop``."""
    return indexed.kept_backdrop(sequences.compose([None] * 4, [None] * 4, LABEL_LEVELS))


@functools.cache
def _frames(columns: int) -> tuple[np.ndarray, np.ndarray]:
    """A panel of ``columns`` empty column frames (``kit.sequences.stacks_panel`` of no copies) as (its colours'
    keys ascending, each pixel's index among them), neither to be changed."""
    return indexed.kept(sequences.stacks_panel([None] * columns, [0] * columns, 0))


def palette_compose(scene: dict[str, Any], tiles: list[np.ndarray] | None = None) -> Image.Image:
    """``compose``'s picture as the palette image the core writes for it (its colours ascending and nothing else,
    so the same PNG bytes), put together as palette indices: the kept backdrop's and column frames', and every
    shown column's tile found on the tile alone, its copies written where ``stacks_panel`` puts them (into the
    frames' white inside, so the copy's pixels are the tile's).  Every colour of the palette is shown: the
    backdrop's outside the panels, the frames' in every shown panel, a tile's wherever its column holds a copy.
    An RGB picture (the core converts it) in the unexpected case of a tile or picture over 256 colours."""
    if tiles is None:
        tiles = [sequences.render_motif(spec, scene["cell"], FILL) for spec in scene["motifs"]]
    rows = [*scene["panel_counts"], *scene["option_counts"]]
    shown = [c for c in range(scene["columns"]) if any(row[c] for row in rows)]
    pieces = {c: indexed.indexed(tiles[c]) for c in shown}
    if any(piece is None for piece in pieces.values()):
        return Image.fromarray(compose(scene, tiles))
    backdrop = _backdrop()
    frame_keys, frames = _frames(scene["columns"])
    palette = np.unique(np.concatenate([backdrop[0], frame_keys, *(keys for keys, _ in pieces.values())]))
    if len(palette) > 256:
        return Image.fromarray(compose(scene, tiles))
    canvas = indexed.backdrop_in_palette(backdrop, palette)
    panel = indexed.in_palette(frame_keys, frames, palette)
    copies = {c: indexed.in_palette(keys, indices, palette) for c, (keys, indices) in pieces.items()}
    boxes = [*(sequences.panel_box(k) for k in range(3)), *(sequences.option_box(k) for k in range(4))]
    cell, inset = scene["cell"], sequences.BORDER
    for (left, top, _right, _bottom), counts in zip(boxes, rows, strict=True):
        inside = canvas[top + inset: top + inset + sequences.CONTENT, left + inset: left + inset + sequences.CONTENT]
        inside[...] = panel
        for c, x, y in sequences.stack_corners(counts, cell):
            inside[y: y + cell, x: x + cell] = copies[c]
    return indexed.palette_picture(canvas, palette)


class MultiColumnArithmetic(sets.PaperSets, task="multi-column-arithmetic"):
    def check_params(self, params):
        complexity.refuse_knob_with_level(params, "columns", "the number of columns")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        if params.get("columns") is not None:
            columns = int(params["columns"])
        elif level is not None:
            columns = complexity.knob_for_level(level, COLUMNS, 2, 6, rng)
        else:
            columns = int(cyclic(random, COLUMNS, "columns-order"))
        cap = CAP[columns]
        position = random.balanced(4, "answer")
        role = random.balanced(4, "role")  # 0: the truth is the centre; k: the truth is the k-th edit
        centre, edits = centre_and_edits(columns, cap, rng)
        made = [centre]
        for column, change in edits:
            edited = list(centre)
            edited[column] += change
            made.append(edited)
        truth = made[role]
        steps = _backwards(truth, cap, rng)
        panel_counts = [[v - (3 - t) * s for v, s in zip(truth, steps, strict=True)] for t in range(3)]
        wrong = [made[k] for k in range(4) if k != role]
        wrong = [wrong[int(k)] for k in rng.permutation(3)]
        option_counts = [*wrong[:position], truth, *wrong[position:]]
        most = max(max(max(c) for c in panel_counts), max(max(c) for c in option_counts), 1)
        cell = sequences.stack_cell(columns, most)
        families = [STACK_FAMILIES[int(k)] for k in rng.permutation(len(STACK_FAMILIES))[:columns]]
        colours = [list(PALETTE)[int(k)] for k in rng.permutation(len(PALETTE))[:columns]]
        motifs, tiles = zip(*(_motif(f, c, rng, params, cell) for f, c in zip(families, colours, strict=True)),
                            strict=True)
        stem = words.MULTI_COLUMN_STEMS[int(rng.integers(len(words.MULTI_COLUMN_STEMS)))]
        question = f"{stem} {words.MULTI_COLUMN_RULE.format(columns=columns)} Answer with one letter (a–d)."
        record = complexity.record("columns", columns, 2, 6)
        scene = {"image_size": list(sequences.SIZE), "columns": columns, "cap": cap, "motifs": list(motifs),
                 "cell": cell, "fill": FILL, "steps": steps, "panel_counts": panel_counts, "mask": 3,
                 "option_counts": option_counts, "role": "centre" if role == 0 else "edit",
                 "edits": [list(e) for e in edits], "column_boxes": sequences.column_boxes(columns),
                 "frame_grey": list(sequences.FRAME_GREY), "content": sequences.CONTENT,
                 "border": sequences.BORDER, **sequences.boxes()}
        metadata = {"scene": scene, "columns": columns, "complexity": record, "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"columns": columns}})}
        return Problem(question=question, answer="ABCD"[position], image_size=sequences.SIZE,
                       params={**params, "columns": columns}, options=("A", "B", "C", "D"), answer_type="option",
                       metadata=metadata, structure=palette_compose(scene, list(tiles)))

    def render(self, problem):
        return [problem.structure if problem.structure is not None else palette_compose(problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The number of columns."""
        return float(item.metadata["scene"]["columns"])


TASK = MultiColumnArithmetic()
