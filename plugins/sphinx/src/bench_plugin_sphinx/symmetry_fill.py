"""``sphinx/symmetry-fill`` (paper B.3.2, spec T12): a 2 x 2 grid of tiles with one tile blacked out; which of
four option tiles completes the grid so that the *whole grid* has the named mirror symmetry?

Rules and tiles (cells TL, TR, BL, BR; A is an asymmetric motif tile in a random D4 orientation, M/F/T/V
its mirror across a vertical line, a horizontal line, the main and the anti-diagonal, R its half-turn):

- vertical: A, M(A), A, M(A);  horizontal: A, A, F(A), F(A);  both axes: A, M(A), F(A), R(A);
- main diagonal: D1, A, T(A), D2;  anti-diagonal: A, E1, E2, V(A), where D (E) tiles are themselves
  symmetric across the main (anti-) diagonal: a second motif and its mirror image.

The paper's released code relates the diagonal tiles cell by cell only (spec T12 notes); we follow the paper,
which asks for the grid's symmetry, so the completed grid is symmetric as a picture, and the blacked-out tile
of a diagonal rule is one the symmetry determines (off the axis).  The four options are the answer tile under
the four operations {identity, M, F, R}: no option is the odd one out by its relation to the others, and each
is strongly distinct from the others (``kit.compare.distinct``).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from PIL import Image

from bench_core import GenerationError, ParameterError, Problem
from bench_plugin_sphinx import symmetry_words as words
from bench_plugin_sphinx.descriptions.common import FILL_FAMILIES
from bench_plugin_sphinx.kit import compare, complexity, indexed, layout, motifs, probe
from bench_plugin_sphinx.kit.distractors import other_letters
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import symmetry_fill as verifier

SIZE = (1376, 920)
TILE, BORDER, GUTTER = 300, 8, 16
CONTENT = TILE - 2 * BORDER
GRID_LEFT, OPTIONS_LEFT, LABEL_BAND, ROW_GAP = 40, 720, 90, 30
#: The option labels' size (pixels) and grey levels: a picture with at most 256 colours is written as a palette
#: PNG, several times faster to encode and decode than RGB, and 256 anti-aliasing greys alone would fill it.
LABEL_SIZE, LABEL_LEVELS = 60, 16
GRID_TOP = (SIZE[1] - (2 * TILE + GUTTER)) // 2
OPTIONS_TOP = (SIZE[1] - 2 * (TILE + LABEL_BAND) - ROW_GAP) // 2
#: Cells in reading order: TL, TR, BL, BR.
CELLS = ((0, 0), (0, 1), (1, 0), (1, 1))
#: The tile operations of each rule (None marks a tile symmetric across the rule's diagonal).
RULE_TILES: dict[str, tuple[str | None, ...]] = {
    "vertical": ("identity", "mirror", "identity", "mirror"),
    "horizontal": ("identity", "identity", "flip", "flip"),
    "both-axes": ("identity", "mirror", "flip", "rot180"),
    "main-diagonal": (None, "identity", "transpose", None),
    "anti-diagonal": ("identity", None, None, "transverse"),
}
#: The options: the answer tile under the Klein four-group, so they stand in the same relation to each other.
OPTION_OPS = ("identity", "mirror", "flip", "rot180")
#: Complexity (ours; the paper measures none): 0 for one straight axis, 1 for both, 2 for a diagonal.
TIERS = {"vertical": 0, "horizontal": 0, "both-axes": 1, "main-diagonal": 2, "anti-diagonal": 2}
#: Motif draws before giving up.  Star polygons pass the symmetry and distinctness checks in ~5 % of draws (the
#: next-worst family ~14 %), so 200 failed ~3.5e-5 of their items; 2,000 fail ~1e-45.  The draws are the same up
#: to the first success, so every item 200 draws found is unchanged.
ATTEMPTS = 2000


def grid_box(cell: int) -> list[int]:
    r, c = CELLS[cell]
    left, top = GRID_LEFT + c * (TILE + GUTTER), GRID_TOP + r * (TILE + GUTTER)
    return [left, top, left + TILE, top + TILE]


def option_box(k: int) -> list[int]:
    r, c = divmod(k, 2)
    left, top = OPTIONS_LEFT + c * (TILE + GUTTER), OPTIONS_TOP + r * (TILE + LABEL_BAND + ROW_GAP)
    return [left, top, left + TILE, top + TILE]


def _diagonal_tile(spec: dict[str, Any], op: str) -> np.ndarray:
    """A tile symmetric across the diagonal ``op`` (transpose or transverse): a small motif on one side of it
    and its mirror image on the other."""
    small = int(CONTENT * 0.42)
    tile = np.full((CONTENT, CONTENT, 3), 255, np.uint8)
    top = CONTENT - 16 - small if op == "transpose" else 16
    tile[top: top + small, 16: 16 + small] = motifs.render(spec, small)
    return np.minimum(tile, probe.view(op, tile))


def motif_tile(scene: dict[str, Any]) -> np.ndarray:
    """The motif tile A: the motif drawn to fill 80 % of a cell's content, in the scene's D4 orientation (a view of
    the drawing)."""
    return probe.view(scene["orientation"], motifs.render(scene["motif"], CONTENT, fill=0.8))


def cell_contents(scene: dict[str, Any], base: np.ndarray | None = None) -> list[np.ndarray]:
    """The four cells' contents (CONTENT x CONTENT), the masked one included; ``base`` is ``motif_tile``."""
    base = motif_tile(scene) if base is None else base
    diagonal = "transpose" if scene["rule"] == "main-diagonal" else "transverse"
    extras = iter(scene["axis_motifs"])
    return [probe.view(op, base) if op else _diagonal_tile(next(extras), diagonal) for op in RULE_TILES[scene["rule"]]]


def _bordered(content: np.ndarray) -> np.ndarray:
    tile = np.zeros((TILE, TILE, 3), np.uint8)
    tile[BORDER:-BORDER, BORDER:-BORDER] = content
    return tile


def _place(canvas: np.ndarray, box: list[int], content: np.ndarray | None) -> None:
    """The tile ``_bordered(content)`` (all black when ``content`` is None) written into ``canvas`` at ``box``."""
    left, top, right, bottom = box
    canvas[top:bottom, left:right] = 0
    if content is not None:
        canvas[top + BORDER: bottom - BORDER, left + BORDER: right - BORDER] = content


def compose(scene: dict[str, Any], base: np.ndarray | None = None) -> np.ndarray:
    """The item's picture: the grid with its masked cell black on the left, the labelled options on the right
    (``base``: the scene's ``motif_tile``, when already drawn).  The tiles are written into a white canvas (the
    pixels PIL's paste gives) and the labels are ``kit.layout.caption_patch`` bands under the options, their
    edges in LABEL_LEVELS greys."""
    canvas = np.full((SIZE[1], SIZE[0], 3), 255, np.uint8)
    cells = cell_contents(scene, base)
    for k, content in enumerate(cells):
        _place(canvas, grid_box(k), None if k == scene["mask"] else content)
    answer = cells[scene["mask"]]
    for k, op in enumerate(scene["option_ops"]):
        left, top, right, bottom = option_box(k)
        _place(canvas, [left, top, right, bottom], probe.view(op, answer))
        canvas[bottom: bottom + LABEL_BAND, left:right] = layout.caption_patch(
            layout.label(k), LABEL_SIZE, right - left, LABEL_BAND, LABEL_LEVELS)
    return canvas


@functools.cache
def _caption_indexed(k: int) -> tuple[np.ndarray, np.ndarray]:
    """``kit.indexed.indexed`` of option k's caption band (kept; read-only)."""
    return indexed.kept(layout.caption_patch(layout.label(k), LABEL_SIZE, TILE, LABEL_BAND, LABEL_LEVELS))


def picture(scene: dict[str, Any], base: np.ndarray | None = None) -> Image.Image:
    """``compose``'s picture drawn straight into a palette image: its palette is the colours the picture shows in
    ascending (r, g, b) order and nothing else (white and black, the motif tile's, which every cell and option
    drawn from it shares, the diagonal tiles' and the captions'), the palette the core gives the RGB picture,
    so the PNG bytes are the same.  The motif tile's colours are looked up once and its cells and options are
    views of its indices.  A picture of more than 256 colours (a few motifs' anti-aliasing) is ``compose``'s
    RGB picture, as the core writes it."""
    base = motif_tile(scene) if base is None else base
    diagonal = "transpose" if scene["rule"] == "main-diagonal" else "transverse"
    extras = iter(scene["axis_motifs"])
    drawn = [(op, None if op else _diagonal_tile(next(extras), diagonal)) for op in RULE_TILES[scene["rule"]]]
    parts = [indexed.indexed(base), *(indexed.indexed(tile) for _op, tile in drawn if tile is not None)]
    parts += [_caption_indexed(k) for k in range(4)]
    if any(part is None for part in parts):
        return Image.fromarray(compose(scene, base))
    palette = np.unique(np.concatenate([[0, 0xFFFFFF], *(keys for keys, _index in parts)]).astype(np.int32))
    if len(palette) > 256:
        return Image.fromarray(compose(scene, base))
    index = [indexed.in_palette(keys, local, palette) for keys, local in parts]
    extra_index = iter(index[1:])
    cells = [probe.view(op, index[0]) if op else next(extra_index) for op, _tile in drawn]
    white, black = np.searchsorted(palette, [0xFFFFFF, 0]).astype(np.uint8)
    mask = scene["mask"]
    canvas = np.full((SIZE[1], SIZE[0]), white, np.uint8)
    for k in range(4):
        left, top, right, bottom = grid_box(k)
        canvas[top:bottom, left:right] = black
        if k != mask:
            canvas[top + BORDER: bottom - BORDER, left + BORDER: right - BORDER] = cells[k]
    for k, op in enumerate(scene["option_ops"]):
        left, top, right, bottom = option_box(k)
        canvas[top:bottom, left:right] = black
        canvas[top + BORDER: bottom - BORDER, left + BORDER: right - BORDER] = probe.view(op, cells[mask])
        canvas[bottom: bottom + LABEL_BAND, left:right] = index[-4 + k]
    return indexed.palette_picture(canvas, palette)


def _distinct(tiles: list[np.ndarray]) -> bool:
    return compare.all_distinct(tiles)


class SymmetryFill(PaperSets, task="symmetry-fill"):
    def check_params(self, params):
        if params.get("rule") is not None and params.get("difficulty") is not None:
            raise ParameterError("parameter 'difficulty': the difficulty level chooses the rule (straight axes are "
                                 "easy, diagonals hard); set either rule or difficulty, not both")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        if params["rule"] is not None:
            rule = params["rule"]
        elif level is not None:
            tier = complexity.knob_for_level(level, sorted(set(TIERS.values())), 0, 2, rng)
            choices = [r for r in words.RULES if TIERS[r] == tier]
            rule = choices[int(rng.integers(len(choices)))]
        else:
            rule = cyclic(random, words.RULES, "rule-order")
        family = params["motif"] or cyclic(random, FILL_FAMILIES, "motif-order")
        masks = [k for k, op in enumerate(RULE_TILES[rule]) if op is not None] if "diagonal" in rule else [0, 1, 2, 3]
        mask = masks[random.balanced(len(masks), "mask")]
        position = random.balanced(4, "answer")
        for _attempt in range(ATTEMPTS):
            scene, base = self._draw(rule, family, mask, position, rng)
            if scene is not None:
                break
        else:
            raise GenerationError(f"symmetry-fill: no {family} motif with four distinct options in {ATTEMPTS} draws")
        drawn = picture(scene, base)
        record = complexity.record("rule_tier", TIERS[rule], 0, 2, source="ours")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        question = stem.format(rule=words.PHRASES[rule]) + " Answer with one letter (a–d)."
        metadata = {"scene": scene, "rule": rule, "motif": family, "complexity": record,
                    "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"rule_tier": TIERS[rule]}})}
        return Problem(question=question, answer="ABCD"[position], image_size=SIZE,
                       params={**params, "rule": rule, "motif": family}, options=("A", "B", "C", "D"),
                       answer_type="option", metadata=metadata, structure=drawn)

    def _draw(self, rule, family, mask, position, rng) -> tuple[dict[str, Any] | None, np.ndarray | None]:
        """One draw of the scene and its motif tile, or (None, None) when the motif is degenerate: symmetric
        under some D4 operation, or giving options that are not strongly distinct."""
        spec = motifs.sample(family, rng, "asym")
        small = motifs.render(spec, 96, fill=0.8)
        if probe.invariant_ops(small) or not _distinct([probe.apply(op, small) for op in OPTION_OPS]):
            return None, None
        orientation = probe.D4[int(rng.integers(8))]
        extras = [motifs.sample(family, rng, "asym") for _ in range(2)] if "diagonal" in rule else []
        ops = [op for op in OPTION_OPS if op != "identity"]
        ops = [ops[int(k)] for k in rng.permutation(3)]
        ops.insert(position, "identity")
        scene = {"image_size": list(SIZE), "rule": rule, "mask": mask, "motif": spec, "orientation": orientation,
                 "axis_motifs": extras, "option_ops": ops, "tile": TILE, "border": BORDER,
                 "grid_boxes": [grid_box(k) for k in range(4)], "option_boxes": [option_box(k) for k in range(4)],
                 "grid_region": [GRID_LEFT, GRID_TOP, GRID_LEFT + 2 * TILE + GUTTER, GRID_TOP + 2 * TILE + GUTTER]}
        base = motif_tile(scene)
        answer = probe.view(RULE_TILES[rule][mask], base)
        if not _distinct([_bordered(probe.view(op, answer)) for op in ops]):  # as shown, frames included
            return None, None
        return scene, base

    def render(self, problem):
        return [problem.structure if problem.structure is not None else picture(problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return other_letters(problem.answer, count)

    def hardness(self, item):
        """The rule's tier: 0 for one straight axis, 1 for both, 2 for a diagonal."""
        return float(TIERS[item.metadata["scene"]["rule"]])


TASK = SymmetryFill()
