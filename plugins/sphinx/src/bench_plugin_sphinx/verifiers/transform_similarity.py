"""Verifier of ``sphinx/transform-similarity-identify``: the answer is found from the question's words and the
picture alone, by another route than the generator's checker (which aligns principal axes).

Every tile's motif layer is cut from the PNG (the pixels that differ from the blank graph paper the scene
describes).  Each motif is normalised for the moves and scales a similarity allows: centred on its ink's
centroid and measured in its radius of gyration; it is averaged over boxes as wide as its samples are apart
(``box_width``), so that a hairline stroke counts by its ink, not by whether a sample happens to fall on it.  The
source is then tried at every turn in steps of ``COARSE_DEGREES`` (refined in 1° steps around the best three),
mirrored or not, against each option, and the best soft intersection over union of the coverages is the option's
similarity.  The odd option the question's variant asks for is the one score set apart from the other three in
its direction (the highest for ``one_similar``, the lowest for ``one_dissimilar``) by at least ``GAP``; similar
options must score at least ``SIMILAR`` and dissimilar ones at most ``DISSIMILAR``; the odd option must be at the
answer letter.  (The score of two similar drawings is not 1: each is drawn at its own size and turn, and thin
strokes alias on the grid; a gap within the item is a steadier test than a single cut.)
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import similarity_words as words
from bench_plugin_sphinx.verifiers import transforms as px
from bench_plugin_sphinx.verifiers.records import guarded

COARSE_DEGREES = 6
GRID, FINE, REACH = 24, 3, 3.0
SIMILAR, DISSIMILAR, GAP = 0.72, 0.80, 0.08
#: Views sampled at a time (``_sampled``).
CHUNK = 8


def _frame(mask: np.ndarray) -> tuple[np.ndarray, float]:
    """(the centroid (x, y) of ``mask``'s True pixels, their radius of gyration); the pixels' rows and columns are
    ``np.nonzero``'s, read off the flat positions (the same arrays, several times faster)."""
    rows, cols = np.divmod(np.flatnonzero(mask), mask.shape[1])
    centre = np.array([cols.mean(), rows.mean()])
    radius = float(np.sqrt(((cols - centre[0]) ** 2 + (rows - centre[1]) ** 2).mean()))
    return centre, radius


def box_width(radius: float) -> int:
    """The side of the box a mask of radius of gyration ``radius`` is averaged over before it is sampled: the odd
    width nearest below the spacing of its fine samples (2 REACH radius / (GRID FINE - 1)), at least 1.  Samples
    that far apart would otherwise hit or miss a stroke a pixel or two wide by where it falls between them, and
    a turn of a degree would change a score by a tenth."""
    spacing = 2 * REACH * radius / (GRID * FINE - 1)
    return 2 * int(spacing // 2) + 1


def box_counts(mask: np.ndarray, width: int) -> np.ndarray:
    """For every pixel within ``width // 2`` of ``mask`` (the mask grown by that much on every side, shape (h + 2 half,
    w + 2 half)), how many True pixels of ``mask`` lie in the ``width`` x ``width`` box centred on it, uint16: exact
    integers, from the grown mask's integral image."""
    half = width // 2
    integral = np.zeros((mask.shape[0] + 4 * half + 1, mask.shape[1] + 4 * half + 1), np.int32)
    integral[1:, 1:] = np.pad(mask, 2 * half).cumsum(axis=0, dtype=np.int32).cumsum(axis=1, dtype=np.int32)
    corners = integral[width:, width:] - integral[:-width, width:]
    counts = corners - integral[width:, :-width] + integral[:-width, :-width]
    return counts.astype(np.uint16)


class Sampling:
    """What every view of one mask shares: its centroid (x, y), the GRID * FINE sample offsets along one axis in
    pixels (float32, REACH radii of gyration either way), and the mask's ``box_counts`` over ``box_width`` pixels
    padded with PAD empty pixels on every side, enough that every sample of any view lands on the padded array: a
    sample's distance from the centroid along an axis, |cos m - sin q| (m, q offsets, cos² + sin² = 1), is at most
    √2 times the largest offset."""

    def __init__(self, mask: np.ndarray):
        self.shape = mask.shape
        self.centre, radius = _frame(mask)
        self.width = box_width(radius)
        self.offsets = (radius * np.linspace(-REACH, REACH, GRID * FINE)).astype(np.float32)
        self.pad = int(np.ceil(1.5 * float(np.abs(self.offsets).max()))) + 2
        self.padded = np.zeros((mask.shape[0] + 2 * self.pad, mask.shape[1] + 2 * self.pad), np.uint16)
        # the counts are 0 farther than width // 2 from every True pixel: only the box around them is counted
        rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
        top, left = self.pad + int(rows[0]) - self.width // 2, self.pad + int(cols[0]) - self.width // 2
        counts = box_counts(mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1], self.width)
        self.padded[top : top + counts.shape[0], left : left + counts.shape[1]] = counts


def _turns(degrees) -> tuple[np.ndarray, np.ndarray]:
    """The float32 (cos, sin) of each of ``degrees``: the sampling frame's turn as the samples use it."""
    t = np.radians(np.asarray(degrees, dtype=np.float64))
    return np.cos(t).astype(np.float32), np.sin(t).astype(np.float32)


def coverage(mask: np.ndarray, degrees, mirrored) -> np.ndarray:
    """``mask`` sampled on a GRID x GRID square of REACH radii of gyration about its centroid (FINE x finer,
    block-averaged), the sampling frame turned by each of ``degrees`` and mirrored left-right where
    ``mirrored``: shape (len(degrees), GRID, GRID).  Samples off the mask count as empty."""
    return _sampled(Sampling(mask), *_turns(degrees), np.where(np.asarray(mirrored), -1.0, 1.0).astype(np.float32))


def _sampled(sampling: Sampling, cos: np.ndarray, sin: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """``coverage`` of a mask (its ``sampling``) in the frames with float32 ``cos`` and ``sin`` of their turns,
    columns mirrored where ``signs`` is -1.  The fine samples are laid out block by block, (view, row in block,
    column in block, block row, block column), so a block's FINE x FINE samples are summed as whole slabs; each
    sample's coordinates are the same floating-point expressions as on the plain fine grid (x = cx + cos m -
    sin q, y = cy + sin m + cos q, m the mirrored column offset, q the row offset), and a block's sum of its
    whole-number samples (``box_counts``) is exact in any order.  A sample off the mask reads the padding's zeros
    (``Sampling``), as the clipped coordinates of the first form read the one-pixel border's."""
    centre, pad, flat = sampling.centre, sampling.pad, sampling.padded.ravel()
    width = sampling.padded.shape[1]
    blocked = sampling.offsets.reshape(GRID, FINE).T[None]  # [0, a, I] = q[I * FINE + a]
    cos, sin = cos[:, None, None], sin[:, None, None]
    mx = signs[:, None, None] * blocked
    # columns (b, J) from mx, rows (a, I) from the row offsets, broadcast to (view, a, b, I, J)
    xs, xq = (centre[0] + cos * mx)[:, None, :, None, :], (sin * blocked)[:, :, None, :, None]
    ys, yq = (centre[1] + sin * mx)[:, None, :, None, :], (cos * blocked)[:, :, None, :, None]
    out = np.empty((len(signs), GRID, GRID), np.float32)
    for start in range(0, len(signs), CHUNK):  # a few views at a time, their samples' coordinates kept in cache
        views = slice(start, start + CHUNK)
        x = np.subtract(xs[views], xq[views])
        y = np.add(ys[views], yq[views])
        np.rint(x, out=x)
        np.rint(y, out=y)
        y *= width
        y += x
        y += pad * width + pad  # (y + pad) width + x + pad: the padded array's flat index, exact in float64
        samples = flat.take(y.astype(np.intp)).reshape(-1, FINE * FINE, GRID, GRID)
        out[views] = samples.sum(axis=1, dtype=np.uint16)
    out /= FINE * FINE * sampling.width * sampling.width
    return out


class SourceViews:
    """``coverage`` of one mask at any turns, each distinct sampling drawn once and kept.

    When the mask's sample offsets are exactly symmetric about 0 (q[-1 - k] == -q[k], as they are for nearly
    every radius), two views share one sampling: a mirrored view is the plain view with its columns reversed,
    and a frame whose float32 (cos, sin) are exactly the negatives of another's (a half turn more) is that view
    with its rows and columns reversed, because every sample's coordinates are then the same floating-point
    expressions, taken at the reversed offsets (negating a float is exact).  Otherwise every view is sampled
    as it is."""

    def __init__(self, mask: np.ndarray):
        self.sampling = Sampling(mask)
        q = self.sampling.offsets
        self.symmetric = bool(np.array_equal(q[::-1], -q))
        self.kept: dict[tuple[float, float, bool], np.ndarray] = {}

    def _key(self, cos: float, sin: float, mirrored: bool) -> tuple[tuple[float, float, bool], slice, slice]:
        """(the sampling a view is read from, its row and column order)."""
        if not self.symmetric:
            return (cos, sin, mirrored), slice(None), slice(None)
        half_turn = cos < 0 or (cos == 0 and sin < 0)
        base = (-cos, -sin) if half_turn else (cos, sin)
        rows = slice(None, None, -1) if half_turn else slice(None)
        cols = slice(None, None, -1) if half_turn != mirrored else slice(None)
        return (*base, False), rows, cols

    def _keys(self, cos: np.ndarray, sin: np.ndarray, mirrored: np.ndarray):
        """``_key`` of every view (float32 ``cos`` and ``sin``, boolean ``mirrored``), the tests taken on the arrays:
        the same keys (the float32 values as Python floats, negated exactly) and the same orders."""
        if not self.symmetric:
            return [((c, s, m), slice(None), slice(None))
                    for c, s, m in zip(cos.tolist(), sin.tolist(), mirrored.tolist(), strict=True)]
        half_turn = (cos < 0) | ((cos == 0) & (sin < 0))
        cos, sin = np.where(half_turn, -cos, cos).tolist(), np.where(half_turn, -sin, sin).tolist()
        forward, backward = slice(None), slice(None, None, -1)
        return [((c, s, False), backward if h else forward, backward if h != m else forward)
                for c, s, h, m in zip(cos, sin, half_turn.tolist(), mirrored.tolist(), strict=True)]

    def __call__(self, degrees, mirrored) -> np.ndarray:
        """``coverage(mask, degrees, mirrored)``."""
        wanted = self._keys(*_turns(degrees), np.asarray(mirrored, dtype=bool))
        missing = sorted({key for key, _, _ in wanted} - self.kept.keys())
        if missing:
            cs, ss, ms = (np.array(v, dtype=np.float32) for v in zip(*missing, strict=True))
            self.kept.update(zip(missing, _sampled(self.sampling, cs, ss, np.where(ms, -1.0, 1.0).astype(np.float32)),
                                 strict=True))
        return np.stack([self.kept[key][rows, cols] for key, rows, cols in wanted])


def scorer(source: np.ndarray):
    """A function giving an option mask's similarity to ``source``: the best soft intersection over union of the
    option's coverage with the source's, over the source turned in COARSE_DEGREES steps, plain and mirrored,
    then refined in 1° steps around the three best turns (every view of the source is sampled once for all
    options, ``SourceViews``)."""
    angles = [float(a) for _ in (False, True) for a in range(0, 360, COARSE_DEGREES)]
    mirrored = [m for m in (False, True) for _ in range(0, 360, COARSE_DEGREES)]
    source_views = SourceViews(source)
    coarse_views = source_views(angles, mirrored)

    def iou(views, target):
        union = np.maximum(views, target).sum(axis=(1, 2))
        return np.minimum(views, target).sum(axis=(1, 2)) / np.maximum(union, 1e-9)

    def similarity(option: np.ndarray) -> float:
        target = coverage(option, [0.0], [False])
        coarse = iou(coarse_views, target)
        fine_angles, fine_mirrored = [], []
        for k in np.argsort(coarse)[-3:]:
            for step in range(-(COARSE_DEGREES // 2), COARSE_DEGREES // 2 + 1):
                fine_angles.append(angles[k] + step)
                fine_mirrored.append(mirrored[k])
        return float(max(coarse.max(), iou(source_views(fine_angles, fine_mirrored), target).max()))

    return similarity


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    variants = words.variant_of(item.question)
    if len(variants) != 1:
        return [f"the question states {len(variants)} variants ({variants}), not exactly one"]
    variant = variants[0]
    if words.DEFINITION not in item.question:
        failures.append("the question does not define similarity")
    border, blank = scene["border"], px.blank_keys(scene["paper"])
    boxes = [scene["source_box"], *scene["option_boxes"]]
    tiles = px.box_keys(images[0], boxes)
    if not all(px.ring_is_black(tile, border) for tile in tiles):
        failures.append("a tile's frame is not black")
    masks = []
    for tile in tiles:
        content = px.tile_content(tile, [0, 0, tile.shape[1], tile.shape[0]], border)
        if content.shape != blank.shape:
            return [*failures, "a tile is not the size of the recorded graph paper"]
        # the motif: pixels that are neither the blank paper nor white
        mask = (content != blank) & (content != px.WHITE_KEY)
        if np.count_nonzero(mask) < 50:
            return [*failures, "a tile shows no motif"]
        masks.append(mask)
    similarity = scorer(masks[0])
    scores = [similarity(mask) for mask in masks[1:]]
    letters = "ABCD"[: len(scores)]
    shown = [round(s, 3) for s in scores]
    order = sorted(range(len(scores)), key=lambda k: scores[k], reverse=variant == "one_similar")
    odd, nearest = order[0], order[1]
    similar = {odd} if variant == "one_similar" else set(order[1:])
    if abs(scores[odd] - scores[nearest]) < GAP:
        failures.append(f"no option is set apart from the others by {GAP} ({variant}; scores {shown})")
    unclear = [letters[k] for k in range(len(scores))
               if (scores[k] < SIMILAR if k in similar else scores[k] > DISSIMILAR)]
    if unclear:
        failures.append(f"option(s) {unclear} are not clearly similar or clearly not (scores {shown}; similar at "
                        f"least {SIMILAR}, not similar at most {DISSIMILAR})")
    if not failures and letters[odd] != item.answer:
        failures.append(f"option {letters[odd]} is the odd one ({variant}), but the answer is {item.answer}")
    return failures
