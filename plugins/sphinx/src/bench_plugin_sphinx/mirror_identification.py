"""``sphinx/mirror-identification`` (paper B.3.1, spec T11): which mirror symmetry does a square scene of motif
copies have: vertical, horizontal, main diagonal, anti-diagonal, vertical + horizontal, or none?

Construction: seed copies of one asymmetric motif, each copy in its own of the eight D4 orientations, are placed
inside the class's fundamental region (the left half, the top-left quadrant, the triangle below the main
diagonal, the triangle above the anti-diagonal, or anywhere for "none"), clear of the axis, and the seed layer
is completed by the class's mirrors.  The finished bitmap is then measured on every axis: each of the class's
axes must hold exactly and every other axis must fail clearly, or the scene is drawn again.  All six classes
are offered, in shuffled order, each in one of three phrasings.

The motif is drawn once, at the size the scene shows it, and that tile is both probed for self-symmetry (under
all seven D4 operations other than the identity, so every orientation of it passes too) and placed, turned or
mirrored per copy, with its mirror images, into the scene's palette indices (the item's PNG is written from
them as they are).  Boxes are drawn uniformly from the corners the fundamental region admits (``_region``), not
by trial and rejection, and the axis measures read only the inked pixels.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from PIL import Image

from bench_core import GenerationError, Problem, palette_indices
from bench_plugin_sphinx import mirror_words as words
from bench_plugin_sphinx.descriptions.mirror_identification import SCENE_FAMILIES
from bench_plugin_sphinx.kit import complexity, indexed, motifs, probe
from bench_plugin_sphinx.kit.distractors import other_letters
from bench_plugin_sphinx.kit.layout import LETTERS
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import mirror as verifier

#: The mirror operations (``kit.probe`` names) each class is closed under.
CLASS_OPS = {
    "vertical": ("mirror",), "horizontal": ("flip",), "main-diagonal": ("transpose",),
    "anti-diagonal": ("transverse",), "both-axes": ("mirror", "flip"), "none": (),
}
AXES = ("mirror", "flip", "transpose", "transverse")
#: Copies of one seed in the finished scene.
ORBIT = {"vertical": 2, "horizontal": 2, "main-diagonal": 2, "anti-diagonal": 2, "both-axes": 4, "none": 1}
#: Motif copies in a scene (the paper's 2..8): the complexity knob.
COUNT_RANGE = (2, 8)
BORDER = 4
#: Pixels kept free between a seed copy and the class's axis, and between two copies.
AXIS_PAD, GAP = 8, 8
#: Generator's acceptance: an axis holds when at most HOLD of the inked pixels change under its mirror, and
#: fails when at least FAIL change; anything between is too close to call and the scene is drawn again.
HOLD, FAIL = 0.02, 0.3
#: And among the pixels of exactly a palette colour or black (the colours a person and the verifier read), an
#: axis holds when at least SOLID_HOLD keep their colour under its mirror, and fails when at most SOLID_FAIL do
#: (the verifier's limits are 0.97 and 0.85: a scene the generator accepts is read back as drawn, with room).
SOLID_HOLD, SOLID_FAIL = 0.99, 0.8
ATTEMPTS = 80
#: The self-symmetries a seed motif must not have (spec 7.2 #1).
PROBED = probe.REFLECTIONS + probe.ROTATIONS


def allowed_counts(cls: str) -> list[int]:
    """Motif counts a class can show: multiples of its orbit within COUNT_RANGE."""
    return [n for n in range(COUNT_RANGE[0], COUNT_RANGE[1] + 1) if n % ORBIT[cls] == 0]


def canvas_side(count: int) -> int:
    """The scene's side: 300 px for two copies, growing with the count (the paper's 300-490)."""
    return 300 + 30 * (count - 2)


def _inside(cls: str, side: int, x: int, y: int, m: int) -> bool:
    """Whether the box (x, y, m) lies in the class's fundamental region, at least AXIS_PAD from its axes."""
    half, pad = side / 2, AXIS_PAD
    lo, hi = BORDER + pad, side - BORDER - pad
    if x < lo or y < lo or x + m > hi or y + m > hi:
        return False
    if cls == "vertical":
        return x + m <= half - pad
    if cls == "horizontal":
        return y + m <= half - pad
    if cls == "both-axes":
        return x + m <= half - pad and y + m <= half - pad
    if cls == "main-diagonal":  # below the ↘ diagonal: every point has row > column
        return y - (x + m) >= pad * 1.5
    if cls == "anti-diagonal":  # above the ↙ diagonal: every point has row + column < side
        return (x + m) + (y + m) <= side - pad * 1.5
    return True


def _region(cls: str, side: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The top-left corners (x, y) of the boxes of side ``m`` that ``_inside`` admits, column by column: (the
    columns x, the first row admitted in each, the running count of corners up to and including each column).
    A column with no corner counts zero."""
    lo, hi = BORDER + AXIS_PAD, side - BORDER - AXIS_PAD  # x, y >= lo and x + m, y + m <= hi
    xs = np.arange(lo, hi - m + 1)
    first = np.full(len(xs), lo)
    last = np.full(len(xs), hi - m)
    edge = math.floor(side / 2 - AXIS_PAD) - m  # x + m <= half - pad (or y + m)
    diagonal = math.ceil(AXIS_PAD * 1.5)
    if cls in ("vertical", "both-axes"):
        last[xs > edge] = lo - 1
    if cls in ("horizontal", "both-axes"):
        last = np.minimum(last, edge)
    if cls == "main-diagonal":  # y - (x + m) >= 1.5 pad
        first = np.maximum(first, xs + m + diagonal)
    if cls == "anti-diagonal":  # (x + m) + (y + m) <= side - 1.5 pad
        last = np.minimum(last, math.floor(side - AXIS_PAD * 1.5) - 2 * m - xs)
    return xs, first, np.cumsum(np.maximum(last - first + 1, 0))


#: Candidate corners drawn for each seed copy.
CANDIDATES = 200


def _place(cls: str, side: int, seeds: int, m: int, rng: np.random.Generator) -> list[list[int]] | None:
    """Top-left corners of ``seeds`` boxes of side ``m``: for each, CANDIDATES corners drawn uniformly from the
    fundamental region's (``_region``), the first GAP clear of the boxes before it kept; None when none is (or
    the region has no corner)."""
    xs, first, running = _region(cls, side, m)
    corners = int(running[-1]) if len(running) else 0
    if not corners:
        return None
    before = np.concatenate([[0], running[:-1]])  # corners in the columns before each
    boxes: list[list[int]] = []
    for _ in range(seeds):
        k = rng.integers(corners, size=CANDIDATES)
        column = np.searchsorted(running, k, side="right")
        x, y = xs[column], first[column] + k - before[column]
        clear = np.ones(CANDIDATES, bool)
        for bx, by in boxes:
            clear &= (x + m + GAP <= bx) | (bx + m + GAP <= x) | (y + m + GAP <= by) | (by + m + GAP <= y)
        found = np.flatnonzero(clear)
        if not found.size:
            return None
        boxes.append([int(x[found[0]]), int(y[found[0]])])
    return boxes


#: ``probe.compose``, kept: the D4 operation of one operation followed by another.
_then = functools.cache(probe.compose)


@functools.cache
def orbit(ops: tuple[str, ...]) -> tuple[str, ...]:
    """The D4 operations (``kit.probe`` names) of the group ``ops`` generate, identity first: each seed copy's
    images in the finished scene."""
    out = ["identity"]
    for op in ops:
        out += [_then(done, op) for done in out]
    return tuple(dict.fromkeys(out))


def _moved_box(op: str, side: int, x: int, y: int, m: int) -> tuple[int, int]:
    """Top-left corner of the box (x, y, m) of a ``side`` square after the D4 operation ``op`` on the square."""
    far_x, far_y = side - x - m, side - y - m
    return {"identity": (x, y), "mirror": (far_x, y), "flip": (x, far_y), "rot180": (far_x, far_y),
            "transpose": (y, x), "transverse": (far_y, far_x), "rot90": (y, far_x), "rot270": (far_y, x)}[op]


def scene_indices(scene: dict[str, Any], tile: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The scene as palette indices: (its colours as ascending ``indexed.colour_keys``, white's the last and
    black's the first; each pixel's index among them, (side, side) uint8), or None when the scene would show more
    than 256 colours.  The seed copies are drawn in place, completed by the class's mirrors, framed: every
    pixel takes the smallest index (white's is the largest) of the seed layer's pixels the orbit of the class's
    mirrors brings there, found copy by copy, each copy's image under each operation of the orbit written into its
    own box (``tile``: the motif as ``motifs.render`` draws it at the copies' size, when already drawn).  The
    copies' boxes never overlap, so this is the seed layer's darkest pixel wherever a mirror brings one."""
    side = scene["side"]
    drawn = {}
    for copy in scene["seeds"]:
        m = copy["box"][2]
        if m not in drawn:
            shown = tile if tile is not None and tile.shape[0] == m else motifs.render(scene["motif"], m)
            found = indexed.indexed(shown)
            if found is None:
                return None
            drawn[m] = found
    palette = np.unique(np.concatenate([_FRAME_AND_GROUND, *(keys for keys, _ in drawn.values())]))
    if len(palette) > 256:
        return None
    pieces = {m: indexed.in_palette(keys, indices, palette) for m, (keys, indices) in drawn.items()}
    canvas = np.full((side, side), len(palette) - 1, np.uint8)
    group = orbit(tuple(scene["ops"]))
    for copy in scene["seeds"]:
        x, y, m = copy["box"]
        for op in group:
            left, top = _moved_box(op, side, x, y, m)
            window = canvas[top: top + m, left: left + m]
            np.minimum(window, probe.view(_then(copy["turn"], op), pieces[m]), out=window)
    canvas[:BORDER], canvas[-BORDER:], canvas[:, :BORDER], canvas[:, -BORDER:] = 0, 0, 0, 0  # black
    return palette, canvas


#: The ``indexed.colour_keys`` of black (the frame) and white (the ground): the first and the last of all keys.
_FRAME_AND_GROUND = np.array([0, indexed.WHITE_KEY], np.int32)


def scene_picture(scene: dict[str, Any], tile: np.ndarray | None = None) -> Image.Image:
    """The scene as the palette image the item shows (``scene_indices``).  Its palette is the colours it shows,
    ascending (black in the frame, white around the copies, every colour of the motif's tile in each whole copy),
    so its PNG is the one the core writes for the same picture in RGB."""
    found = scene_indices(scene, tile)
    if found is None:
        raise GenerationError("mirror-identification: the scene would show more than 256 colours")
    palette, canvas = found
    return indexed.palette_picture(canvas, palette)


def compose(scene: dict[str, Any], tile: np.ndarray | None = None) -> np.ndarray:
    """The scene's pixels as a writable RGB array (side, side, 3): ``scene_picture``'s colours."""
    return np.array(scene_picture(scene, tile).convert("RGB"))


def _mirror_index(op: str, rows: np.ndarray, cols: np.ndarray, n: int) -> np.ndarray:
    """The flat index in an (n, n) array of the pixel ``probe.apply(op, ...)`` brings to each (row, col): the
    mirror image's pixel there is the original's at the index returned (each mirror is its own inverse)."""
    if op == "mirror":
        return rows * n + (n - 1 - cols)
    if op == "flip":
        return (n - 1 - rows) * n + cols
    if op == "transpose":
        return cols * n + rows
    if op == "transverse":
        return (n - 1 - cols) * n + (n - 1 - rows)
    raise ValueError(f"not a mirror of the square: {op!r}")


def picture_indices(picture: Image.Image) -> tuple[np.ndarray, np.ndarray]:
    """(each pixel's index into the picture's colours, (height, width) uint8; those colours, (k, 3) uint8): a
    palette picture's own indices and palette, or an RGB picture's as the core's ``palette_indices`` finds them
    (a ValueError when it shows more than 256 colours)."""
    if picture.mode == "P":
        colours = np.frombuffer(bytes(picture.getpalette() or ()), np.uint8).reshape(-1, 3)
        return np.asarray(picture), colours
    found = palette_indices(picture.convert("RGB"))
    if found is None:
        raise ValueError("the picture shows more than 256 colours")
    return found[1], np.array(found[0], np.uint8).reshape(-1, 3)


#: The colours a pixel must show exactly to count as solid: the motif palette's and black.
SOLID = np.array([rgb(hex_colour) for hex_colour in PALETTE.values()] + [(0, 0, 0)], np.uint8)


def axis_changes(picture: Image.Image, border: int = BORDER,
                 ops: tuple[str, ...] = AXES) -> dict[str, tuple[float, float]]:
    """For each mirror ``op`` of the square picture, inside the frame (``border`` wide):

    - the fraction of the inked pixels (not white, in the picture or its mirror image) whose colour the mirror
      changes.  Only the pixels inked in the picture are read: over those (P) and their mirror pixels, total =
      |P| + #(mirror pixel white) and changed = #(colours differ) + #(mirror pixel white), since a white pixel
      whose mirror pixel is inked is counted by that pixel (the mirrors are their own inverses, and map the
      inside of the frame onto itself);
    - the fraction of the solid pixels (exactly a ``SOLID`` colour) whose mirror pixel has the same colour (1.0
      when there are none)."""
    pixels, colours = picture_indices(picture)
    white = np.flatnonzero((colours == 255).all(axis=1))
    solid = (colours[:, None, :] == SOLID[None, :, :]).all(axis=2).any(axis=1)
    n = pixels.shape[0]
    flat = np.ascontiguousarray(pixels).ravel()
    inside = flat.reshape(n, n)[border: n - border, border: n - border]
    inked = inside != white[0] if white.size else np.ones(inside.shape, bool)
    rows, cols = np.divmod(np.flatnonzero(inked), n - 2 * border)
    if not rows.size:
        return dict.fromkeys(ops, (0.0, 1.0))
    rows += border
    cols += border
    seen = flat[rows * n + cols]
    is_solid = solid[seen]
    solids = np.count_nonzero(is_solid)
    out = {}
    for op in ops:
        mirrored = flat[_mirror_index(op, rows, cols, n)]
        blank = np.count_nonzero(mirrored == white[0]) if white.size else 0
        kept = mirrored == seen
        change = float((rows.size - np.count_nonzero(kept) + blank) / (rows.size + blank))
        agreement = float(np.count_nonzero(kept & is_solid) / solids) if solids else 1.0
        out[op] = (change, agreement)
    return out


def scene_holds(picture: Image.Image, cls: str) -> bool:
    """The construction's acceptance, measured on the finished picture: the class's axes hold, every other axis
    clearly fails (``axis_changes``: HOLD and FAIL on the inked pixels, SOLID_HOLD and SOLID_FAIL on the solid
    ones)."""
    changes = axis_changes(picture)
    for op in AXES:
        change, agreement = changes[op]
        if op in CLASS_OPS[cls]:
            if change > HOLD or agreement < SOLID_HOLD:
                return False
        elif change < FAIL or agreement > SOLID_FAIL:
            return False
    return True


class MirrorIdentification(PaperSets, task="mirror-identification"):
    def generate(self, params, random):
        rng = random.rng
        cls = params["symmetry"] or cyclic(random, words.CLASSES, "class-order")
        family = params["motif"] or cyclic(random, SCENE_FAMILIES, "motif-order")
        level = params.get("difficulty")
        counts = allowed_counts(cls)
        if level is None:
            count = int(counts[int(rng.integers(len(counts)))])
        else:
            count = complexity.knob_for_level(level, counts, *COUNT_RANGE, rng)
        side = canvas_side(count)
        seeds = count // ORBIT[cls]
        for _attempt in range(ATTEMPTS):
            drawn = self._draw(cls, family, count, side, seeds, rng)
            if drawn is not None:
                scene, tile = drawn
                found = scene_indices(scene, tile)
                if found is not None:
                    picture = indexed.palette_picture(found[1], found[0])
                    if scene_holds(picture, cls):
                        break
        else:
            raise GenerationError(f"mirror-identification: no valid {cls} scene of {family} in {ATTEMPTS} attempts")
        position = random.balanced(len(words.CLASSES), "answer")
        others = [c for c in words.CLASSES if c != cls]
        others = [others[int(k)] for k in rng.permutation(len(others))]
        keys = [*others[:position], cls, *others[position:]]
        texts = [words.LABELS[k][int(rng.integers(len(words.LABELS[k])))] for k in keys]
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        listed = ", ".join(f"({LETTERS[i]}) {t}" for i, t in enumerate(texts))
        question = f"{stem} {listed}. Answer with one letter (a–f)."
        record = complexity.record("motifs", count, *COUNT_RANGE, source="ours")
        scene.update(option_keys=keys, image_size=[side, side])
        metadata = {
            "scene": scene,
            "symmetry": cls,
            "motif": family,
            "complexity": record,
            "paper_answer": f"({LETTERS[position].lower()})",
            **({} if level is None else {"difficulty_knobs": {"motifs": count}}),
        }
        return Problem(question=question, answer="ABCDEF"[position], image_size=(side, side),
                       params={**params, "symmetry": cls, "motif": family}, options=texts, answer_type="option",
                       metadata=metadata, structure=picture)

    def _draw(self, cls, family, count, side, seeds, rng) -> tuple[dict[str, Any], np.ndarray] | None:
        """(the scene, the motif's tile), or None when the copies do not fit or no motif passes the probe."""
        m = int(side * (0.34 - 0.02 * (count - 2)))
        boxes = None
        while boxes is None and m >= 40:
            boxes = _place(cls, side, seeds, m, rng)
            if boxes is None:
                m = int(m * 0.92)
        if boxes is None:
            return None
        for _try in range(40):  # the motif is probed as the scene shows it
            spec = motifs.sample(family, rng, "asym")
            tile = motifs.render(spec, m)
            if not probe.any_invariant(tile, PROBED):
                break
        else:
            return None
        turns = rng.integers(len(probe.D4), size=len(boxes))
        copies = [{"box": [x, y, m], "turn": probe.D4[int(turn)]} for (x, y), turn in zip(boxes, turns, strict=True)]
        scene = {"class": cls, "family": family, "count": count, "side": side, "border": BORDER,
                 "ops": list(CLASS_OPS[cls]), "motif": spec, "seeds": copies}
        return scene, tile

    def render(self, problem):
        if problem.structure is not None:
            return [problem.structure]
        return [scene_picture(problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return other_letters(problem.answer, count, "ABCDEF")

    def categorical_coverage(self, name, params, start, count):
        """The motif family cycles over ``SCENE_FAMILIES`` when unset: every family but the gear and the ladder
        (``motif=`` still draws those two), so a run shows at most that many families."""
        if name == "motif" and params.get("motif") is None:
            return min(count, len(SCENE_FAMILIES)), "the default cycle leaves out the gear and the ladder"
        return None

    def hardness(self, item):
        """The number of motif copies in the scene (the knob)."""
        return float(item.metadata["scene"]["count"])


TASK = MirrorIdentification()
