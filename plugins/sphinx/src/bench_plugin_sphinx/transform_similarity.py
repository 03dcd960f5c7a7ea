"""``sphinx/transform-similarity-identify`` (paper B.4.3, spec T17): a motif tile at the top and four option tiles;
either exactly one option is similar to the top motif (``one_similar``) or exactly one is not
(``one_dissimilar``), similar meaning the same shape up to uniform scaling, rotation, reflection and moving.

Every tile is one *version* of the motif under a random similarity (a turn by any angle, a mirror or not, a
uniform scale in 0.55-1.35 and a small move), drawn through one pipeline (``kit.transforms.mapped_tile``).  The
versions are the motif under the maps ``S R(θ) S⁻¹`` (``kit.transforms.moment_breaker``: S the square root of a
covariance, R a turn by θ), an orbit of linear maps of area 1 in which two versions θ and θ' are not similar to
each other: one is the other stretched and sheared by a distortion (singular-value ratio) that grows with
|θ - θ'|.  The top tile shows one version; similar options show that version, the others other versions:

- ``one_dissimilar``: two versions θ and θ ± Δ, with S from the covariance of the motif (first stretched along
  its long axis when too round, ``prestretch``), so both have the same area and second moments (ink, spread and
  elongation are no cue); Δ gives the tier's distortion.  The two versions' tiles must also look alike at a
  glance (``glance``: edge energy, dark pixels, elongation, spread), since three options show one and the odd
  option the other.
- ``one_similar``: four versions 45° apart (θ, θ + 45°, θ + 90°, θ + 135°), S a stretch whose anisotropy gives
  the tier's distortion at 45°; the top tile shows one of the four, chosen at random.

Which version is shown at the top is chosen at random after the versions are drawn, so no option-only statistic
(ink, edge length, moments) tells the versions apart: a stretch lengthens a shape's outline, but the top version
is as often the longer as the shorter one.  Among a few starting angles θ (``candidate_turns``: those keeping the
versions off each other's mirror images) the generator tries first the ones whose versions' outline lengths
(predicted from the motif's edge elements) lie closest together.  (The paper's breakers, a plain anisotropic
scale, a shear or a keystone applied to the shown motif, lengthen the odd option's outline and change its
elongation; and its similar options turn by multiples of 90° only, which keeps the edge directions.  Both would
point at the odd option without looking at the top motif, so both are changed here.)

Every two versions must be clearly not similar by the canonical checker run on the motif's ink points
(``quick_similarity``: principal-axis frames); every option's scale comes from one range per item
(``scale_range``: no stroke thinner than THINNEST pixels, every version fitting the tile), and the four option
tiles must be distinct.  None of these tests depends on which version goes on top or on an option's own draw, so
none of them singles the answer out.  Last, on the drawn tiles, the same checker must read every similar option
clearly similar to the top tile and every other clearly not (``drawn_similarity``): a test of every option alike
against the top tile, which refuses the whole item.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from PIL import Image

from bench_core import PNG_LEVEL, GenerationError, ParameterError, Problem
from bench_plugin_sphinx import similarity_words as words
from bench_plugin_sphinx.kit import channels, compare, complexity, indexed, layout, motifs
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.transform_layout import BORDER, LABEL_SIZE, SIZE, SOURCE_BOX, option_box, place_framed
from bench_plugin_sphinx.verifiers import transform_similarity as verifier

#: Families drawn: those a stretch clearly distorts (round motifs, convex polygons and pictograms mostly stay
#: near-similar), with strokes that survive resampling for the checker.
FAMILIES = ("arc", "bitgrid", "clock", "glyph", "ladder", "pictogram", "pinwheel")
#: The resampling of every tile (``kit.transforms.mapped_tile``; drawn at twice the size and reduced, so nearest
#: is as smooth as bicubic here, and several times faster).
RESAMPLE = "nearest"
#: The motif's box at 1x, and the options' scale range (the spec's; ``scale_range`` narrows it per item).
MOTIF_SIDE, SCALES = 120, (0.55, 1.35)
#: Largest move of an option off the tile centre (pixels per axis), and the margin kept to the tile edge.
OFFSET, MARGIN = 12, 10
#: The thinnest stroke an option may show (1x pixels), and the least ratio of an item's largest to its smallest
#: option scale.
THINNEST, MIN_RANGE = 2.2, 1.3
#: Tiers: the range of the distortion (singular-value ratio) between the top version and the least distorted
#: other version; tier 2 is the subtlest (the paper's |sx - sy| >= 0.12 is ~1.13).
TIERS = {0: (2.2, 2.7), 1: (1.85, 2.2), 2: (1.55, 1.85)}
#: one_dissimilar: the least eigenvalue ratio of the motif's covariance, over the tier's distortion (a motif below
#: it is first stretched along its long axis, ``prestretch``), so the turn between the two versions stays below 90°.
LEAST_ANISOTROPY = 1.1
#: one_similar: the four versions' turns, degrees apart (the orbit's period is 180°).
SPACING = 45.0
#: one_dissimilar: starting angles tried (evenly spaced from a random one) when matching the versions' outline lengths.
STARTS = 12
#: The quick checker on point clouds (``quick_similarity``): its grid, reach (radii of gyration), the ink points it
#: uses, and the most it may find between two versions.
QUICK_GRID, QUICK_REACH, QUICK_POINTS, QUICK_DISSIMILAR = 32, 3.0, 1500, 0.56
#: The same checker on the drawn tiles (``drawn_similarity``: the ink each tile shows against the top tile's): a
#: similar option must read at least DRAWN_SIMILAR, the others at most DRAWN_DISSIMILAR.  (A stretch of a long thin
#: motif, a ladder's rails, can keep most of its ink where the top version has it, so that a reader comparing the
#: pictures finds the options less apart than the versions' maps are.)
DRAWN_SIMILAR, DRAWN_DISSIMILAR = 0.7, 0.5
#: Turn sets drawn per motif (by variant), candidates of each tried (best matched first), and motifs drawn per item.
#: one_dissimilar draws one turn set a motif: measured on 300 items of 0.1.2 (seeds 44-46), 131 of its motifs passed
#: on their first turn set, 29 on one of the next seven and 91 on none, a failed motif costing ~29 ms; a fresh motif
#: passes about half the time for ~7 ms.  A drawn motif passes in ~1 of 4 draws of the hardest families (arc,
#: pictogram), so ATTEMPTS leaves ~1e-10 of items without one.  one_similar's later turn sets pass often: it keeps 8.
VERSION_TRIES, RANKED, ATTEMPTS = {"one_dissimilar": 1, "one_similar": 8}, 3, 80
#: How far below an option tile its label's centre lies (pixels), and the label's grey levels: a picture with at most
#: 256 colours is written as a palette PNG, several times faster to encode and decode than RGB, and 256
#: anti-aliasing greys alone would nearly fill it.
CAPTION_DROP, LABEL_LEVELS = 38, 16
#: ``glance``: dark pixels (darkest channel below DARK, as a blind reader counts ink); one_dissimilar: the most
#: the two versions' glances may differ (log edge energy, log dark pixels, elongation, log spread).
DARK, GLANCE_TOLERANCE = 195, np.array([0.018, 0.05, 0.018, 0.02])
#: The zlib level of the item's PNG (``bench_core.PNG_LEVEL``; the core's palette default is 6), chosen by
#: measurement on 40 items (seed 77): level 2 encodes these 1290 x 774 pictures in ~4.1 ms where level 6 takes
#: ~7.1 ms (levels 1 and 3: ~4.2-4.3 ms), writing ~22 KiB instead of ~15 KiB; decoding takes ~1 ms at either.
ZLIB_LEVEL = 2


def distortion(matrix: np.ndarray) -> float:
    """The ratio of the singular values of a 2 x 2 map (1 for a similarity)."""
    values = np.linalg.svd(matrix, compute_uv=False)
    return float(values[0] / values[1])


def _stretch_gap(value: float) -> float:
    """sqrt(x) - 1 / sqrt(x): for S R(θ) S⁻¹, S with eigenvalue ratio a, sin θ = gap(distortion) / gap(a)."""
    return float(np.sqrt(value) - 1 / np.sqrt(value))


def turn_for(anisotropy: float, target: float) -> float | None:
    """The turn θ in (0°, 90°] for which ``moment_breaker`` of a covariance with eigenvalue ratio ``anisotropy``
    distorts by ``target`` (None when even 90°, a distortion of ``anisotropy``, is not enough)."""
    ratio = _stretch_gap(target) / _stretch_gap(anisotropy) if anisotropy > 1 else 2.0
    return None if ratio > 1 else float(np.degrees(np.arcsin(ratio)))


def anisotropy_for(target: float, degrees: float = SPACING) -> float:
    """The eigenvalue ratio a for which ``moment_breaker`` with a turn of ``degrees`` distorts by ``target``."""
    gap = _stretch_gap(target) / np.sin(np.radians(degrees))
    root = (gap + np.sqrt(gap * gap + 4)) / 2
    return float(root * root)


def stretch_covariance(anisotropy: float, degrees: float) -> np.ndarray:
    """A covariance with eigenvalue ratio ``anisotropy``, its long axis at ``degrees``."""
    rotation = tf.turn(degrees)
    return rotation @ np.diag([anisotropy, 1.0]) @ rotation.T


def edge_elements(art: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The edges of ``art`` (RGB on white) as weighted line elements: the grey level's gradient magnitude where
    it changes, and the unit tangent there (the gradient turned by 90°), shape (2, n).  Under a linear map M an
    element's length grows by |M t|."""
    grey = channels.mean(art)
    gx, gy = np.diff(grey, axis=1)[:-1, :], np.diff(grey, axis=0)[:, :-1]
    magnitude = np.hypot(gx, gy)
    keep = magnitude > 1.0
    return magnitude[keep], np.stack([-gy[keep], gx[keep]]) / magnitude[keep]


def outline_logs(edges: tuple[np.ndarray, np.ndarray], maps: np.ndarray) -> np.ndarray:
    """The log of the outline length of the motif under each map of ``maps`` (shape (..., 2, 2)), relative to the
    motif's own (from ``edge_elements``)."""
    weights, tangents = edges
    moved = maps @ tangents
    # the Euclidean norm over axis -2 (length 2), as np.linalg.norm computes it: sqrt(x0 * x0 + x1 * x1)
    lengths = np.sqrt(moved[..., 0, :] * moved[..., 0, :] + moved[..., 1, :] * moved[..., 1, :])
    return np.log(lengths @ weights / weights.sum())


def versions(covariance: np.ndarray, turns: np.ndarray, base: np.ndarray | None = None) -> np.ndarray:
    """The version maps S R(θ) S⁻¹ B (``kit.transforms.moment_breaker``: S the square root of ``covariance``; B
    ``base``, the identity when None) for every θ of ``turns`` (degrees), shape turns.shape + (2, 2)."""
    values, vectors = np.linalg.eigh(covariance)
    root = vectors @ np.diag(np.sqrt(values)) @ vectors.T
    t = np.radians(np.asarray(turns, dtype=np.float64))
    c, s = np.cos(t), np.sin(t)
    rotations = np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)
    return root @ rotations @ np.linalg.inv(root) @ (np.eye(2) if base is None else base)


def ranked_versions(covariance: np.ndarray, turns: np.ndarray, base: np.ndarray, edges) -> np.ndarray:
    """The version maps (``versions``) of the candidate turn sets ``turns`` (one set a row, degrees), those whose
    predicted outline lengths lie closest together first."""
    maps = versions(covariance, turns, base)
    return maps[np.argsort(np.ptp(outline_logs(edges, maps), axis=1), kind="stable")]


def _glance_sums(tile: np.ndarray) -> np.ndarray:
    """(edge energy, dark pixels, and the sums of x, y, x², y², xy over them) of ``tile``, where the edge energy
    is the grey level's gradient magnitude (forward differences) summed and a pixel is dark when its darkest
    channel is below DARK."""
    return _sums(_edge_magnitudes(tile), channels.darkest(tile) < DARK)


def _edge_magnitudes(tile: np.ndarray) -> np.ndarray:
    """The grey level's gradient magnitude (forward differences) of ``tile``, shape (h - 1, w - 1)."""
    grey = channels.mean(tile)
    return np.hypot(np.diff(grey, axis=1)[:-1, :], np.diff(grey, axis=0)[:, :-1])


def nonzero(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero`` of a 2-D ``mask`` (the rows and the columns of its True pixels in row order, int64), from the
    flat positions: the same arrays, several times faster with numpy 2."""
    return np.divmod(np.flatnonzero(mask), mask.shape[1])


def covariance_of(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``kit.transforms.moments(mask)[1]`` (the 2 x 2 covariance of the True pixels) from the mask's ``nonzero``:
    the kit's own arithmetic on the same arrays."""
    points = np.stack([cols, rows]).astype(np.float64)
    delta = points - points.mean(axis=1)[:, None]
    return delta @ delta.T / points.shape[1]


def _sums(edges: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """``_glance_sums`` from the edge magnitudes (summed as they are laid out) and the dark pixels."""
    rows, cols = nonzero(dark)
    x, y = cols.astype(np.float64), rows.astype(np.float64)
    return np.array([float(edges.sum()), len(x), x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum()])


@lru_cache(maxsize=1)
def _paper_reads() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The blank paper's ``_glance_sums``, edge magnitudes and dark pixels, whole."""
    paper = tf.paper()
    return _glance_sums(paper), _edge_magnitudes(paper), channels.darkest(paper) < DARK


def _paper_window_sums(top: int, left: int, bottom: int, right: int) -> np.ndarray:
    """``_glance_sums(tf.paper()[top:bottom, left:right])``, read from the whole paper's edge magnitudes and dark
    pixels: a window's forward differences and darkest channels are the whole's at the same places, and the
    magnitudes are summed from a contiguous copy, in the order the window's own array would be."""
    _, edges, dark = _paper_reads()
    return _sums(np.ascontiguousarray(edges[top: bottom - 1, left: right - 1]), dark[top:bottom, left:right])


def glance(tile: np.ndarray, drawn: tuple[slice, slice] | None = None) -> np.ndarray:
    """What a glance takes from a tile without comparing shapes: the log of its edge energy, the log of its count
    of dark pixels (the axes included), and their elongation and log spread (radius of gyration).  Only the
    window where the tile differs from the blank paper (and a pixel around it) is measured; the rest is the
    paper's.  ``drawn``: the window outside which the tile is known to be the blank paper (``kit.transforms.
    mapped_window``), where the changed pixels are looked for; the whole tile when None."""
    drawn = (slice(0, tf.SIDE), slice(0, tf.SIDE)) if drawn is None else drawn
    return _glance_changed(tile, drawn, channels.differs(tile[drawn], tf.paper()[drawn]))


def glance_drawn(piece: Drawn) -> np.ndarray:
    """``glance(piece.tile, piece.drawn)`` of a ``Drawn`` tile, its changed pixels found among those it wrote."""
    return _glance_changed(piece.tile, piece.drawn, piece.ink())


def _glance_changed(tile: np.ndarray, drawn: tuple[slice, slice], changed: np.ndarray) -> np.ndarray:
    """``glance`` of ``tile`` with the pixels of its window ``drawn`` that differ from the blank paper."""
    rows = np.nonzero(changed.any(axis=1))[0] + drawn[0].start
    cols = np.nonzero(changed.any(axis=0))[0] + drawn[1].start
    top, left = max(int(rows[0]) - 1, 0), max(int(cols[0]) - 1, 0)
    bottom, right = min(int(rows[-1]) + 2, tf.SIDE), min(int(cols[-1]) + 2, tf.SIDE)
    window = (slice(top, bottom), slice(left, right))

    def shifted(sums: np.ndarray) -> np.ndarray:
        energy, n, sx, sy, sxx, syy, sxy = sums
        return np.array([energy, n, sx + left * n, sy + top * n, sxx + 2 * left * sx + left * left * n,
                         syy + 2 * top * sy + top * top * n, sxy + left * sy + top * sx + left * top * n])

    energy, n, sx, sy, sxx, syy, sxy = (_paper_reads()[0] - shifted(_paper_window_sums(top, left, bottom, right))
                                        + shifted(_glance_sums(tile[window])))
    cxx, cyy, cxy = sxx / n - (sx / n) ** 2, syy / n - (sy / n) ** 2, sxy / n - sx * sy / (n * n)
    spread = cxx + cyy
    return np.array([np.log(energy), np.log(n), np.hypot(cxx - cyy, 2 * cxy) / spread, 0.5 * np.log(spread)])


def candidate_turns(offsets: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Turn sets θ + ``offsets`` (one a row) whose versions are as far as can be from mirror images of each other.

    Mirroring across an axis of S turns S R(θ) S⁻¹ into S R(-θ) S⁻¹, so for a motif that is (nearly) mirror
    symmetric two versions θ and θ' look alike when θ + θ' is near a multiple of 180°.  Two versions (Δ apart):
    starts θ with θ + θ' within 45° of 90° (mod 180°), STARTS of them from a random one.  Four versions 45° apart
    (their pair sums cover a 45° grid): the two sets with every pair sum at least 22.5° off a multiple of 180°."""
    if len(offsets) == 2:
        step = 90 / STARTS
        low = 22.5 - offsets.sum() / 2 + float(rng.uniform(0, step))
        starts = low + np.arange(STARTS // 2) * step
        starts = np.concatenate([starts, starts + 90])
    else:
        starts = np.array([11.25, 33.75])
    return starts[:, None] + offsets[None, :]


def prestretch(covariance: np.ndarray, least: float) -> np.ndarray:
    """A map of area 1 that stretches a shape of ``covariance`` along its long axis (and squeezes it across) just
    enough for its eigenvalue ratio to reach ``least`` (the identity when it does already)."""
    values, vectors = np.linalg.eigh(covariance)
    ratio = values[1] / max(values[0], 1e-9)
    k = max(1.0, float(np.sqrt(np.sqrt(least / ratio))))
    return vectors @ np.diag([1 / k, k]) @ vectors.T


def centred(moved: np.ndarray) -> np.ndarray:
    """``moved - moved.mean(axis=1, keepdims=True)`` for a C-contiguous (maps, points, 2) float64 array, computed on
    its (x, y) pairs read as complex numbers: numpy sums a middle axis point by point in order, as the running sum
    (``np.add.accumulate``) does, each part divided by the count, and a complex subtraction subtracts the parts."""
    pairs = moved.view(np.complex128)[..., 0]
    total = np.add.accumulate(pairs, axis=1)[:, -1]
    mean = np.empty(len(total), np.complex128)
    mean.real, mean.imag = total.real / moved.shape[1], total.imag / moved.shape[1]
    return (pairs - mean[:, None]).view(np.float64).reshape(moved.shape)


def canonical_coverage(points: np.ndarray, maps: np.ndarray, weight: float) -> np.ndarray:
    """The ink points (n x 2, each standing for ``weight`` pixels) under each map of ``maps``, in their principal-axis
    frame measured in radii of gyration: the share of every cell of a QUICK_GRID square of QUICK_REACH radii they
    cover, in the four sign choices of the axes; shape (len(maps), 4, QUICK_GRID ** 2)."""
    moved = centred(points[None] @ np.swapaxes(maps, 1, 2))
    values, vectors = np.linalg.eigh(np.swapaxes(moved, 1, 2) @ moved / points.shape[0])
    radius2 = values.sum(axis=1)
    frame = moved @ vectors / np.sqrt(radius2)[:, None, None]
    cells = np.floor((frame + QUICK_REACH) / (2 * QUICK_REACH) * QUICK_GRID).astype(np.intp)
    valid = (cells >= 0) & (cells < QUICK_GRID)
    inside = valid[..., 0] & valid[..., 1]
    base = np.arange(len(maps))[:, None] * QUICK_GRID ** 2
    share = weight * np.abs(np.linalg.det(maps)) / radius2 / (2 * QUICK_REACH / QUICK_GRID) ** 2
    # the coverage of the axes as they are, read reversed for the flips (``flipped_counts``): the share of a
    # flipped grid's cell is the plain share of the mirrored cell, the same number
    plain = np.minimum(flipped_counts(cells, inside, base)[0] * share[:, None, None], 1.0)
    return np.stack([plain[:, ::flip_y, ::flip_x].reshape(len(maps), -1) for flip_x in (1, -1) for flip_y in (1, -1)],
                    axis=1)


def flipped_counts(cells: np.ndarray, inside: np.ndarray, base: np.ndarray) -> list[np.ndarray]:
    """The points' counts per cell (``cells``: (map, point, x/y) grid cells, kept where ``inside``; ``base``: each
    map's first flat index), shape (maps, QUICK_GRID rows y, QUICK_GRID columns x), with the axes as they are,
    x flipped, y flipped, and both (a flip sends cell c to QUICK_GRID - 1 - c).  Counted once and read reversed:
    a flipped grid's count in a cell is the plain count in the mirrored cell, the same integer."""
    flat = (base + cells[..., 1] * QUICK_GRID + cells[..., 0])[inside]
    plain = np.bincount(flat, minlength=base.size * QUICK_GRID ** 2).reshape(base.size, QUICK_GRID, QUICK_GRID)
    return [plain[:, ::flip_y, ::flip_x] for flip_x in (1, -1) for flip_y in (1, -1)]


def _thinned(points: np.ndarray) -> tuple[np.ndarray, float]:
    """(the ink ``points``, every one standing for one pixel) or, past QUICK_POINTS of them, (every k-th, each standing
    for k pixels)."""
    if len(points) <= QUICK_POINTS:
        return points, 1.0
    step = len(points) // QUICK_POINTS
    return points[::step], float(step)


def quick_similarity(points: np.ndarray, maps: np.ndarray) -> np.ndarray:
    """The canonical checker on point clouds, without drawing: for every two of ``maps`` (i, j), the best soft
    intersection over union of the principal-frame coverage of the ink ``points`` under map i with theirs under
    map j, over the four sign choices of j's axes (1 for a similarity, up to binning); shape (len(maps),) * 2."""
    points, weight = _thinned(points)
    views = canonical_coverage(points, maps, weight)
    plain = views[:, None, None, 0]
    return (np.minimum(plain, views[None]).sum(axis=3) / np.maximum(plain, views[None]).sum(axis=3)).max(axis=2)


def quick_worst(points: np.ndarray, maps: np.ndarray) -> float:
    """The largest score ``quick_similarity`` gives two different maps of ``maps`` (i != j), computed for those
    pairs alone: the same sums of the same numbers."""
    points, weight = _thinned(points)
    views = canonical_coverage(points, maps, weight)
    first, second = np.nonzero(~np.eye(len(maps), dtype=bool))
    plain, other = views[first, None, 0], views[second]
    return float((np.minimum(plain, other).sum(axis=2) / np.maximum(plain, other).sum(axis=2)).max())


def ink_points(piece: Drawn) -> np.ndarray:
    """The (x, y) of the pixels where a ``Drawn`` tile differs from the blank paper, float64, shape (n, 2)."""
    rows, cols = nonzero(piece.ink())
    return np.stack([cols + piece.drawn[1].start, rows + piece.drawn[0].start], axis=1).astype(np.float64)


def drawn_coverage(piece: Drawn) -> np.ndarray:
    """``canonical_coverage`` of the ink a drawn tile shows, as drawn (the identity map): shape (4, QUICK_GRID ** 2),
    one row per sign choice of its principal axes."""
    points, weight = _thinned(ink_points(piece))
    return canonical_coverage(points, np.eye(2)[None], weight)[0]


def drawn_similarity(source: np.ndarray, option: Drawn) -> float:
    """``quick_similarity`` of the ink a drawn option tile shows against the top tile's (``source``: its
    ``drawn_coverage``): the best soft intersection over union of their principal-frame coverages over the four
    sign choices of the option's axes (1 for the same picture)."""
    plain, other = source[0], drawn_coverage(option)
    return float((np.minimum(plain, other).sum(axis=1) / np.maximum(plain, other).sum(axis=1)).max())


def stroke_width(mask: np.ndarray) -> float:
    """The mean stroke width of the ink in ``mask`` (a drawing at ``kit.transforms.SUPER`` times the 1x size), in 1x
    pixels: twice its area over its outline (boundary pixels), over SUPER."""
    inner = mask.copy()
    inner[1:-1, 1:-1] = mask[1:-1, 1:-1] & mask[:-2, 1:-1] & mask[2:, 1:-1] & mask[1:-1, :-2] & mask[1:-1, 2:]
    return 2 * float(mask.sum()) / max(int((mask & ~inner).sum()), 1) / tf.SUPER


def scale_range(maps: np.ndarray, points: np.ndarray, width: float) -> tuple[float, float]:
    """The options' uniform scales for the version ``maps`` of a motif with ink ``points`` (1x, about its centre)
    and mean stroke ``width``: SCALES, raised so that every version's thinnest strokes stay THINNEST pixels wide
    and lowered so that every version fits the tile at any turn and move.  The same range for every option of
    the item, whatever its version."""
    squeeze = float(np.linalg.svd(maps, compute_uv=False)[:, -1].min())
    moved = points @ np.swapaxes(maps, 1, 2)
    # the longest |M p|: the square root of the largest x * x + y * y (sqrt is monotonic and correctly rounded, so
    # this is the largest of np.linalg.norm's values exactly)
    reach = float(np.sqrt((moved[..., 0] * moved[..., 0] + moved[..., 1] * moved[..., 1]).max()))
    return max(SCALES[0], THINNEST / (width * squeeze)), min(SCALES[1], (tf.SIDE / 2 - MARGIN - OFFSET) / reach)


def option_map(rng: np.random.Generator, version: np.ndarray, scales: tuple[float, float],
               similar: bool) -> dict[str, Any]:
    """A random turn, mirror, scale (in ``scales``) and move of the ``version`` map."""
    matrix = float(rng.uniform(*scales)) * tf.turn(float(rng.uniform(0, 360)), bool(rng.integers(2))) @ version
    offset = [round(float(v), 3) for v in rng.uniform(-OFFSET, OFFSET, 2)]
    return {"matrix": _rounded(matrix), "offset": offset, "similar": similar}


def _rounded(matrix: np.ndarray) -> list[list[float]]:
    return [[round(float(v), 6) for v in row] for row in matrix]


def art_of(spec: dict[str, Any]) -> np.ndarray:
    return motifs.render(spec, MOTIF_SIDE * tf.SUPER)


def tile_of(art: np.ndarray, option: dict[str, Any]) -> np.ndarray:
    """The tile of ``art`` under an option's (or the source's) matrix and offset."""
    return tf.mapped_tile(art, np.array(option["matrix"]), tuple(option["offset"]), resample=RESAMPLE)


class Drawn(NamedTuple):
    """One tile as ``drawn_tile`` draws it: the tile (``tile_of``'s pixels, an (h, w, 3) view of 4-byte pixels), the
    window it drew in (rows, columns; the blank paper outside), which pixels of the window it wrote (the rest are
    the paper's) and the drawing's 4-byte pixels over the window (``_words``)."""

    tile: np.ndarray
    drawn: tuple[slice, slice]
    written: np.ndarray
    words: np.ndarray

    @property
    def window(self) -> np.ndarray:
        """The drawing's pixels over the window, (h, w, 3)."""
        return _rgb_view(self.words)

    def ink(self) -> np.ndarray:
        """The pixels of the window where the tile differs from the blank paper (``channels.differs(tile[drawn],
        paper[drawn])``): written pixels of another colour than the paper's there (the pad bytes left out)."""
        return self.written & ((self.words ^ _paper_words()[self.drawn]) & 0xFFFFFF != 0)

    def ink_keys(self) -> np.ndarray:
        """The colours of the written pixels (in row order) as ``kit.indexed.colour_keys``, r << 16 | g << 8 | b."""
        words = self.words[self.written]
        return ((words & 0xFF) << 16 | (words & 0xFF00) | (words >> 16 & 0xFF)).astype(np.int32)


def _words(picture: Image.Image) -> np.ndarray:
    """An RGB picture's pixels as Pillow keeps them: one little-endian 4-byte word each (r, g, b, a pad byte),
    shape (h, w)."""
    return np.frombuffer(picture.tobytes("raw", "RGBX"), "<u4").reshape(picture.height, picture.width)


def _rgb_view(words: np.ndarray) -> np.ndarray:
    """The (h, w, 3) view of the colour bytes of ``_words`` pixels."""
    return words.view(np.uint8).reshape(*words.shape, 4)[..., :3]


@lru_cache(maxsize=1)
def _paper_words() -> np.ndarray:
    """The blank graph paper (``kit.transforms.paper``) as ``_words`` (read-only)."""
    return _words(Image.fromarray(tf.paper()))


def drawn_tile(art: Image.Image, matrix, offset=(0.0, 0.0)) -> Drawn:
    """``kit.transforms.mapped_window(art, matrix, offset, resample=RESAMPLE)`` for the motif's picture ``art`` (an
    RGB ``art_of`` made a Pillow image once per motif): the same warp, reduction and window, the same pixels (a test
    holds it to the kit's), with the drawing copied onto the paper as whole 4-byte pixels (where any of its channels
    lies below 250, as the kit copies) rather than channel by channel."""
    big = tf.SIDE * tf.SUPER
    inverse = np.linalg.inv(np.asarray(matrix, dtype=np.float64))
    w, h = art.size
    c_in = (w / 2, h / 2)
    c_out = (big / 2 + offset[0] * tf.SUPER, big / 2 + offset[1] * tf.SUPER)
    a, b, d, e = inverse[0, 0], inverse[0, 1], inverse[1, 0], inverse[1, 1]
    corners = np.asarray(matrix, dtype=np.float64) @ (np.array([[0, w, 0, w], [0, 0, h, h]]) - np.array(c_in)[:, None])
    x0, y0 = (int(np.floor((corners[k].min() + c_out[k] - 2) / tf.SUPER)) * tf.SUPER for k in (0, 1))
    x1, y1 = (int(np.ceil((corners[k].max() + c_out[k] + 2) / tf.SUPER)) * tf.SUPER for k in (0, 1))
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, big), min(y1, big)
    tile = _paper_words().copy()
    if x1 <= x0 or y1 <= y0:
        empty = np.zeros((0, 0), bool)
        return Drawn(_rgb_view(tile), (slice(0, 0), slice(0, 0)), empty, np.zeros((0, 0), "<u4"))
    c = c_in[0] - a * c_out[0] - b * c_out[1] + a * x0 + b * y0
    f = c_in[1] - d * c_out[0] - e * c_out[1] + d * x0 + e * y0
    warped = art.transform((x1 - x0, y1 - y0), Image.Transform.AFFINE, (a, b, c, d, e, f),
                           resample=Image.Resampling[RESAMPLE.upper()], fillcolor=(255, 255, 255))
    words = _words(warped.reduce(tf.SUPER))
    written = channels.darkest(_rgb_view(words)) < 250
    drawn = (slice(y0 // tf.SUPER, y1 // tf.SUPER), slice(x0 // tf.SUPER, x1 // tf.SUPER))
    np.copyto(tile[drawn], words, where=written)
    return Drawn(_rgb_view(tile), drawn, written, words)


def ink_box(piece: Drawn) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) of the pixels where a ``Drawn`` tile differs from the blank paper (bottom and
    right exclusive), None where it does not: looked for among the pixels it wrote, the only ones that can."""
    rows, cols = piece.drawn
    ink = piece.ink()
    if not ink.any():
        return None
    found_rows, found_cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    return (rows.start + int(found_rows[0]), rows.start + int(found_rows[-1]) + 1,
            cols.start + int(found_cols[0]), cols.start + int(found_cols[-1]) + 1)


def pairwise_distinct(drawn: list[Drawn]) -> bool:
    """``kit.transforms.pairwise_distinct`` of the ``Drawn`` tiles: every two strongly distinct on the box around
    the union of their inks (the box around both inks' boxes), the whole tiles where neither has any."""
    boxes = [ink_box(piece) for piece in drawn]
    for a in range(len(drawn)):
        for b in range(a + 1, len(drawn)):
            found = [box for box in (boxes[a], boxes[b]) if box is not None]
            window = (slice(None), slice(None))
            if found:
                window = (slice(min(box[0] for box in found), max(box[1] for box in found)),
                          slice(min(box[2] for box in found), max(box[3] for box in found)))
            if not compare.distinct(drawn[a].tile[window], drawn[b].tile[window]):
                return False
    return True


def drawn_of(art: Image.Image, option: dict[str, Any]) -> Drawn:
    """``drawn_tile`` of an option's (or the source's) matrix and offset: ``tile_of``'s tile."""
    return drawn_tile(art, np.array(option["matrix"]), tuple(option["offset"]))


def compose(scene: dict[str, Any], tiles: list[np.ndarray] | None = None) -> np.ndarray:
    """The item's picture: the source tile at the top, the four labelled options below (``tiles``: the source's
    and the options' tiles in that order, when already drawn).  The framed tiles are written into a white canvas
    (the pixels PIL's paste gives) and the labels are ``kit.layout.caption_patch`` bands under the options, their
    edges in LABEL_LEVELS greys."""
    if tiles is None:
        art = art_of(scene["motif"])
        tiles = [tile_of(art, scene["source"]), *(tile_of(art, option) for option in scene["options"])]
    canvas = np.full((SIZE[1], SIZE[0], 3), 255, np.uint8)
    place_framed(canvas, SOURCE_BOX, tiles[0])
    for k in range(len(scene["options"])):
        left, top, right, bottom = option_box(k)
        place_framed(canvas, [left, top, right, bottom], tiles[1 + k])
        canvas[bottom: bottom + 2 * CAPTION_DROP, left:right] = layout.caption_patch(
            layout.label(k), LABEL_SIZE, right - left, 2 * CAPTION_DROP, LABEL_LEVELS)
    return canvas


def palette_compose(tiles: list[np.ndarray]) -> Image.Image | None:
    """``compose``'s picture of the source's and the options' ``tiles`` as the palette image the core would write
    for it (its colours ascending, nothing else: the same PNG bytes), put together as palette indices: the
    backdrop's (frames and labels) kept, each tile's found on the tile alone.  None when the picture shows more
    than 256 colours (the caller then composes in RGB)."""
    backdrop = _backdrop()
    pieces = [indexed.indexed(tile) for tile in tiles]
    if any(piece is None for piece in pieces):
        return None
    palette = np.unique(np.concatenate([backdrop[0], *(keys for keys, _ in pieces)]))
    if len(palette) > 256:
        return None
    canvas = indexed.backdrop_in_palette(backdrop, palette)
    for (left, top, right, bottom), (keys, indices) in zip(_boxes(), pieces, strict=True):
        inside = canvas[top + BORDER : bottom - BORDER, left + BORDER : right - BORDER]
        inside[...] = indexed.in_palette(keys, indices, palette)
    return indexed.palette_picture(canvas, palette)  # every colour shows: the backdrop's outside the tiles


def drawn_palette_compose(drawn: list[Drawn]) -> Image.Image | None:
    """``palette_compose`` of the ``Drawn`` tiles (the source's and the options'), put together from their written
    pixels alone: the backdrop with blank graph paper in every tile (``_paper_backdrop``) is laid in, then each
    tile's written pixels, whose colours are the only ones a tile adds to the paper's.  Every colour listed shows:
    the backdrop's outside the tiles, the paper's where some tile leaves a pixel of that colour unwritten
    (``_paper_shows``), the written ones.  None when a paper colour is hidden in every tile or the picture shows more
    than 256 colours (the caller then composes in RGB)."""
    if not _paper_shows(drawn):
        return None
    backdrop = _paper_backdrop()
    inks = [piece.ink_keys() for piece in drawn]
    keys = np.concatenate(inks)
    palette = np.union1d(backdrop[0], keys)
    if len(palette) > 256:
        return None
    canvas = indexed.backdrop_in_palette(backdrop, palette)
    indices = np.searchsorted(palette, keys).astype(np.uint8)
    start = 0
    for (left, top, _right, _bottom), piece, ink in zip(_boxes(), drawn, inks, strict=True):
        rows, cols = piece.drawn
        top, left = top + BORDER + rows.start, left + BORDER + cols.start
        canvas[top : top + piece.written.shape[0], left : left + piece.written.shape[1]][piece.written] = \
            indices[start : start + len(ink)]
        start += len(ink)
    return indexed.palette_picture(canvas, palette)


def _paper_shows(drawn: list[Drawn]) -> bool:
    """Whether every colour of the blank paper (white aside, which the canvas shows around the tiles) shows in some
    tile: at its first pixel (``_paper_spots``), unless the tile wrote over it."""
    for row, col in _paper_spots():
        for piece in drawn:
            rows, cols = piece.drawn
            if not (rows.start <= row < rows.stop and cols.start <= col < cols.stop) or \
                    not piece.written[row - rows.start, col - cols.start]:
                break
        else:
            return False
    return True


@lru_cache(maxsize=1)
def _paper_spots() -> tuple[tuple[int, int], ...]:
    """(row, column) of the first pixel of each colour of the blank paper but white."""
    keys = indexed.colour_keys(tf.paper()).ravel()
    found = [divmod(int(np.argmax(keys == key)), tf.SIDE) for key in np.unique(keys) if key != indexed.WHITE_KEY]
    return tuple(found)


@lru_cache(maxsize=1)
def _paper_backdrop() -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """``compose``'s picture with blank graph paper in every tile, kept as a backdrop
    (``kit.indexed.kept_backdrop``)."""
    return indexed.kept_backdrop(compose({"options": [None] * 4}, [tf.paper()] * 5))


def _boxes() -> list[list[int]]:
    """The framed tiles' boxes (left, top, right, bottom): the source's, then the options'."""
    return [SOURCE_BOX, *(option_box(k) for k in range(4))]


@lru_cache(maxsize=1)
def _backdrop() -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """``compose``'s picture with white tiles (``kit.indexed.kept_backdrop``): every pixel outside the tiles is the
    same in every item."""
    return indexed.kept_backdrop(_blank_picture())


def _blank_picture() -> np.ndarray:
    """``compose``'s picture with white tiles."""
    blank = np.full((tf.SIDE, tf.SIDE, 3), 255, np.uint8)
    return compose({"options": [None] * 4}, [blank] * 5)


class TransformSimilarityIdentify(PaperSets, task="transform-similarity-identify"):
    def check_params(self, params):
        if params.get("variant") is not None and params.get("difficulty") is not None:
            raise ParameterError("parameter 'difficulty': the difficulty level sets the distortion's strength, not "
                                 "the variant; set variant or difficulty, not both")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        variant = params["variant"] or cyclic(random, words.VARIANTS, "variant-order")
        if level is not None:
            tier = complexity.knob_for_level(level, sorted(TIERS), 0, 2, rng)
        else:
            tier = int(cyclic(random, tuple(TIERS), "tier-order"))
        family = params["motif"] or cyclic(random, FAMILIES, "motif-order")
        position = random.balanced(4, "answer")
        for _attempt in range(ATTEMPTS):
            found = self._draw(variant, family, tier, rng)
            if found is not None:
                break
        else:
            raise GenerationError(f"transform-similarity-identify: no {family} motif with clear options in {ATTEMPTS} "
                                  "draws")
        spec, source, answer, others, strength = found
        others = [others[int(k)] for k in rng.permutation(3)]
        options = [*others[:position], answer, *others[position:]]
        tiles = [source.pop("tile"), *(option.pop("tile") for option in options)]
        scene = {"image_size": list(SIZE), "motif": spec, "variant": variant, "source": source, "options": options,
                 "distortion": round(strength, 4), "source_box": SOURCE_BOX,
                 "option_boxes": [option_box(k) for k in range(4)], "border": BORDER,
                 "paper": {"side": tf.SIDE, "minor": tf.MINOR, "step": tf.STEP, "minor_rgb": list(tf.MINOR_RGB),
                           "axis_rgb": list(tf.AXIS_RGB)}}
        stem = words.STEMS[variant][int(rng.integers(len(words.STEMS[variant])))]
        question = f"{stem} {words.DEFINITION} Answer with one letter (a–d)."
        record = complexity.record("distortion_tier", tier, 0, 2, source="ours")
        metadata = {"scene": scene, "variant": variant, "motif": family, "complexity": record,
                    "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"distortion_tier": tier}})}
        return Problem(question=question, answer="ABCD"[position], image_size=SIZE,
                       params={**params, "variant": variant, "motif": family}, options=("A", "B", "C", "D"),
                       answer_type="option", metadata=metadata, structure=self._picture(scene, tiles))

    @staticmethod
    def _picture(scene: dict[str, Any], tiles: list[Drawn]) -> Image.Image:
        """The item's picture: a palette image where it can be (``drawn_palette_compose``), else RGB (``compose``)."""
        picture = drawn_palette_compose(tiles)
        return picture if picture is not None else Image.fromarray(compose(scene, [piece.tile for piece in tiles]))

    def _draw(self, variant, family, tier, rng):
        """(spec, the source, the answer option, the three others, the least distortion between two versions; the
        source and options with their drawn "tile"), or None when the motif cannot be distorted enough or an
        option does not pass the canonical checker."""
        spec = motifs.sample(family, rng, "asym")
        art = art_of(spec)
        picture = Image.fromarray(art)
        mask = channels.differs(art, 255)
        rows, cols = nonzero(mask)
        own = covariance_of(rows, cols)
        points = (np.stack([cols, rows], axis=1) - np.array([art.shape[1], art.shape[0]]) / 2) / tf.SUPER
        found = self._versions(variant, tier, art, own, points, stroke_width(mask), rng)
        if found is None:
            return None
        maps, scales = found
        shown = int(rng.integers(len(maps)))
        others = [k for k in range(len(maps)) if k != shown]
        source = {"matrix": _rounded(maps[shown]), "offset": [0.0, 0.0]}
        source["tile"] = drawn_of(picture, source)
        if variant == "one_dissimilar":
            answer = option_map(rng, maps[others[0]], scales, False)
            rest = [option_map(rng, maps[shown], scales, True) for _ in range(3)]
        else:
            answer = option_map(rng, maps[shown], scales, True)
            rest = [option_map(rng, maps[k], scales, False) for k in others]
        group = [answer, *rest]
        for option in group:
            option["tile"] = drawn_of(picture, option)
        if not pairwise_distinct([option["tile"] for option in group]):
            return None
        top = drawn_coverage(source["tile"])
        for option in group:  # on the pictures too, every option clearly similar to the top one or clearly not
            score = drawn_similarity(top, option["tile"])
            if (score < DRAWN_SIMILAR) if option["similar"] else (score > DRAWN_DISSIMILAR):
                return None
        strength = min(distortion(maps[k] @ np.linalg.inv(maps[shown])) for k in others)
        return spec, source, answer, rest, strength

    @staticmethod
    def _versions(variant, tier, art, own, points, width, rng):
        """(the version maps of one item, two for one_dissimilar and four for one_similar, the options' scale
        range) for the motif ``art`` with covariance ``own``, ink ``points``
        and stroke ``width``: every two versions clearly not similar to each other by the quick checker, a scale
        range of at least MIN_RANGE, and (one_dissimilar) the two versions' tiles alike at a glance (``glance``
        within GLANCE_TOLERANCE: the three similar options show one version and the odd option the other, so
        the odd one must not stand out by its edges or moments).  All tests are blind to which version goes on
        top.  Up to VERSION_TRIES[variant] turn sets are drawn, RANKED of each tried; None when none passes."""
        edges = edge_elements(art)
        picture = Image.fromarray(art)
        for _ in range(VERSION_TRIES[variant]):
            target = float(rng.uniform(*TIERS[tier]))
            if variant == "one_dissimilar":
                base = prestretch(own, LEAST_ANISOTROPY * target)
                covariance = base @ own @ base.T
                delta = float(turn_for(tf.anisotropy(covariance), target))
                offsets = np.array([0.0, delta if rng.integers(2) else -delta])
            else:
                base = np.eye(2)
                covariance = stretch_covariance(anisotropy_for(target), float(rng.uniform(0, 180)))
                offsets = np.arange(4) * SPACING
            for maps in ranked_versions(covariance, candidate_turns(offsets, rng), base, edges)[:RANKED]:
                # the quick checker first (it turns most candidates away): no test draws from rng, so their order
                # changes nothing but the time
                if quick_worst(points, maps) > QUICK_DISSIMILAR:
                    continue
                scales = scale_range(maps, points, width)
                if scales[1] < scales[0] * MIN_RANGE:
                    continue
                if variant == "one_similar":
                    return maps, scales
                first, second = (glance_drawn(drawn_tile(picture, m)) for m in maps)
                if (np.abs(first - second) <= GLANCE_TOLERANCE).all():
                    return maps, scales
        return None

    def render(self, problem):
        """The picture generate composed (a palette image, when it could) or, without it, the scene's; written at
        ZLIB_LEVEL."""
        picture = problem.structure
        if picture is None:
            picture = Image.fromarray(compose(problem.metadata["scene"]))
        picture.info[PNG_LEVEL] = ZLIB_LEVEL
        return [picture]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The distortion tier: 0 a distortion of 2.1-2.6 between the top version and the nearest other (strong),
        1 1.75-2.1, 2 1.45-1.75 (subtle)."""
        return float(item.metadata["complexity"]["raw"])


TASK = TransformSimilarityIdentify()
