"""Transformation tiles of the sequence-and-transformation tasks (paper B.4, spec T15-T17): a motif drawn in
the middle of a square of graph paper with its centre axes, and that tile under one of the eight
transformation families.

Conventions (spec 7.2 #3; image rows run downwards, the same as ``kit.probe``):

- ``mirror``: reflection across the vertical centre line (left and right swap);
- ``flip``: reflection across the horizontal centre line (top and bottom swap);
- ``transpose``: reflection across the main diagonal ↘ (top-left corner to bottom-right corner);
- ``transverse``: reflection across the anti-diagonal ↙ (top-right corner to bottom-left corner);
- ``rot90``: a quarter turn counterclockwise (PIL's ``rotate(90)``); ``rot180``: a half turn;
  ``rot270``: a quarter turn clockwise;
- ``translate``: a move without turning or flipping by one of the eight king moves of ``STEP`` pixels (a
  sixth of the tile, two minor grid squares), given as ``(dx, dy)`` in grid steps with dy > 0 downwards.

The graph paper is symmetric under all eight D4 maps of the tile (grid lines two pixels wide, placed in
mirror pairs about the centre), so a D4 map of the whole tile equals the tile drawn with the mapped motif:
tasks draw every option from the motif itself, verifiers map the drawn source tile's pixels.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bench_plugin_sphinx.kit import channels, compare, motifs, probe

#: The eight transformation families (spec T15), in the paper's order.
TRANSFORMS = ("mirror", "flip", "transpose", "transverse", "rot90", "rot180", "rot270", "translate")
D4_MAPS = TRANSFORMS[:-1]
#: The tile's drawable square (pixels, even), the minor grid pitch and the translation step (a sixth).
SIDE, MINOR = 264, 22
STEP = SIDE // 6
#: The king moves as (dx, dy) in steps, y downwards.
KING_MOVES = ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1))
#: Grid colours: minor lines, and the two centre axes.
MINOR_RGB, AXIS_RGB = (226, 226, 226), (178, 178, 178)
#: Motif box side as a fraction of the tile (the spec's 45-65 %, capped so every king move stays inside).
MOTIF_FRACTION = (0.45, 0.62)


@lru_cache(maxsize=4)
def _paper(side: int, minor: int) -> bytes:
    tile = np.full((side, side, 3), 255, np.uint8)
    centre = side // 2
    for k in range(-(centre // minor), centre // minor + 1):
        colour = AXIS_RGB if k == 0 else MINOR_RGB
        for c in (centre + k * minor - 1, centre + k * minor):
            if 0 <= c < side:
                tile[:, c] = np.minimum(tile[:, c], colour)
                tile[c, :] = np.minimum(tile[c, :], colour)
    return tile.tobytes()


def paper(side: int = SIDE, minor: int = MINOR) -> np.ndarray:
    """A fresh (side, side, 3) tile of graph paper: two-pixel grid lines every ``minor`` pixels in mirror pairs
    about the centre, the two centre lines darker (the axes).  Invariant under every D4 map."""
    return np.frombuffer(_paper(side, minor), np.uint8).reshape(side, side, 3).copy()


def motif_side(rng: np.random.Generator) -> int:
    """An even motif box side within ``MOTIF_FRACTION`` of the tile."""
    low, high = (int(f * SIDE) // 2 for f in MOTIF_FRACTION)
    return 2 * int(rng.integers(low, high + 1))


def place(motif: np.ndarray, vector: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The tile: ``motif`` (an RGB array on white, even side) drawn over the graph paper (every pixel that is
    not pure white covers the paper, so the motif looks the same wherever it is moved), centred and then moved
    by ``vector`` grid steps."""
    tile = paper()
    window = tile[motif_window(motif.shape[0], vector)]
    inked = channels.differs(motif, 255)
    window[inked] = motif[inked]
    return tile


def motif_window(side: int, vector: tuple[int, int] = (0, 0)) -> tuple[slice, slice]:
    """The (rows, columns) of a tile that ``place`` draws a motif of ``side`` px into: centred, then moved by
    ``vector`` grid steps (a ValueError if it leaves the tile)."""
    left = (SIDE - side) // 2 + vector[0] * STEP
    top = (SIDE - side) // 2 + vector[1] * STEP
    if left < 0 or top < 0 or left + side > SIDE or top + side > SIDE:
        raise ValueError(f"a {side} px motif moved by {vector} leaves the {SIDE} px tile")
    return slice(top, top + side), slice(left, left + side)


def transformed(motif: np.ndarray, op: str, vector: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The tile of ``motif`` under ``op`` (a D4 map of ``kit.probe`` about the tile centre, or ``translate`` by
    ``vector``)."""
    if op == "translate":
        return place(motif, vector)
    return place(probe.apply(op, motif))


def framed(content: np.ndarray, border: int) -> np.ndarray:
    """``content`` inside a black frame ``border`` pixels wide."""
    h, w = content.shape[:2]
    out = np.zeros((h + 2 * border, w + 2 * border, 3), np.uint8)
    out[border: border + h, border: border + w] = content
    return out


def degenerate(motif: np.ndarray) -> list[str]:
    """The D4 maps (besides the identity) that leave ``motif`` looking unchanged (``kit.probe``): any of them
    would make two transformations look alike (g and h agree on the motif when g⁻¹h fixes it)."""
    return probe.invariant_ops(motif, probe.D4[1:])


def ink_window(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a`` and ``b`` (tiles on the graph paper) cropped to the bounding box of the pixels where either differs
    from the blank paper: the comparison window of ``distinct_tiles``."""
    blank = paper(a.shape[0])
    ink = channels.differs(a, blank) | channels.differs(b, blank)
    if not ink.any():
        return a, b
    rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    window = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
    return a[window], b[window]


def distinct_tiles(a: np.ndarray, b: np.ndarray) -> bool:
    """``kit.compare.distinct`` on the window where the motifs of the two tiles lie (the blank paper around
    them would dilute every difference)."""
    return compare.distinct(*ink_window(a, b))


def pairwise_distinct(tiles: list[np.ndarray]) -> bool:
    """Every two of ``tiles`` (of one size) strongly distinct (``distinct_tiles``), each tile's ink (its pixels that
    differ from the blank paper) found once: a pair's window is the bounding box of the union of their inks, the
    whole tiles where neither has any (``ink_window``)."""
    blank = paper(tiles[0].shape[0])
    inks = [channels.differs(tile, blank) for tile in tiles]
    for a in range(len(tiles)):
        for b in range(a + 1, len(tiles)):
            ink = inks[a] | inks[b]
            window = (slice(None), slice(None))
            if ink.any():
                rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
                window = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
            if not compare.distinct(tiles[a][window], tiles[b][window]):
                return False
    return True


#: The side (px) of the first, small rendering ``draw_motif`` probes a drawn spec on by default.
PROBE_SIDE = 96


def draw_motif(family: str, rng: np.random.Generator, tries: int = 40,
               probe_side: int | None = PROBE_SIDE) -> tuple[dict, np.ndarray] | None:
    """An asymmetric motif of ``family`` and its rendering (even side within ``MOTIF_FRACTION``) that no D4
    map leaves looking unchanged, or None after ``tries`` draws.  A drawn spec must first pass the same test
    rendered ``probe_side`` px wide (None: only the rendering at the motif's side is probed, the one shown)."""
    side = motif_side(rng)
    for _ in range(tries):
        spec = motifs.sample(family, rng, "asym")
        if probe_side is not None and degenerate(motifs.render(spec, probe_side)):
            continue
        art = motifs.render(spec, side)
        if not degenerate(art):
            return spec, art
    return None


# -- similarity (spec T17): a motif under a 2x2 linear map, drawn at 2x and reduced ------------------------------
#: Supersampling factor of ``mapped_tile``.
SUPER = 2


def mapped_tile(art: np.ndarray, matrix: np.ndarray, offset: tuple[float, float] = (0.0, 0.0),
                resample: str = "bicubic") -> np.ndarray:
    """The tile of ``art`` (a motif rendered at ``SUPER`` times its size, RGB on white) under the linear map
    ``matrix`` (2 x 2, x right and y down, about the motif's centre), its centre moved to the tile centre plus
    ``offset`` pixels; drawn at ``SUPER`` x with bicubic resampling, reduced by a box filter and laid over the
    graph paper.  Every option of the similarity task, the source included (the identity), goes through this
    one pipeline, so resampling marks are no cue.  ``resample``: PIL's filter by name (``bicubic``, ``bilinear``
    or ``nearest``; the supersampling and box reduction stay)."""
    return mapped_window(art, matrix, offset, resample)[0]


def mapped_window(art: np.ndarray, matrix: np.ndarray, offset: tuple[float, float] = (0.0, 0.0),
                  resample: str = "bicubic") -> tuple[np.ndarray, tuple[slice, slice]]:
    """(``mapped_tile``, the window of the tile (rows, columns) it drew in): outside the window the tile is the
    blank graph paper."""
    from PIL import Image

    big = SIDE * SUPER
    inverse = np.linalg.inv(np.asarray(matrix, dtype=np.float64))
    c_in = (art.shape[1] / 2, art.shape[0] / 2)
    c_out = (big / 2 + offset[0] * SUPER, big / 2 + offset[1] * SUPER)
    # x_in = inverse @ (x_out - c_out) + c_in
    a, b, d, e = inverse[0, 0], inverse[0, 1], inverse[1, 0], inverse[1, 1]
    # only the window (aligned to SUPER) that the art's square lands on is drawn: every output pixel is sampled
    # at its own coordinates, so the window holds exactly the pixels a full-size drawing would
    h, w = art.shape[:2]
    corners = np.asarray(matrix, dtype=np.float64) @ (np.array([[0, w, 0, w], [0, 0, h, h]]) - np.array(c_in)[:, None])
    x0, y0 = (int(np.floor((corners[k].min() + c_out[k] - 2) / SUPER)) * SUPER for k in (0, 1))
    x1, y1 = (int(np.ceil((corners[k].max() + c_out[k] + 2) / SUPER)) * SUPER for k in (0, 1))
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, big), min(y1, big)
    tile = paper()
    if x1 <= x0 or y1 <= y0:
        return tile, (slice(0, 0), slice(0, 0))
    c = c_in[0] - a * c_out[0] - b * c_out[1] + a * x0 + b * y0
    f = c_in[1] - d * c_out[0] - e * c_out[1] + d * x0 + e * y0
    warped = Image.fromarray(art).transform((x1 - x0, y1 - y0), Image.Transform.AFFINE, (a, b, c, d, e, f),
                                            resample=Image.Resampling[resample.upper()], fillcolor=(255, 255, 255))
    small = np.asarray(warped.reduce(SUPER))
    drawn = (slice(y0 // SUPER, y1 // SUPER), slice(x0 // SUPER, x1 // SUPER))
    np.copyto(tile[drawn], small, where=(channels.darkest(small) < 250)[..., None])
    return tile, drawn


def turn(degrees: float, mirrored: bool = False) -> np.ndarray:
    """The 2 x 2 matrix of a turn by ``degrees`` counterclockwise on the screen (y down), after a mirror across
    the vertical axis when ``mirrored``."""
    t = np.radians(degrees)
    rotation = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    return rotation @ np.diag([-1.0, 1.0]) if mirrored else rotation


def moments(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(centroid (x, y), 2 x 2 covariance) of the True pixels of ``mask``."""
    rows, cols = np.nonzero(mask)
    points = np.stack([cols, rows]).astype(np.float64)
    centre = points.mean(axis=1)
    delta = points - centre[:, None]
    return centre, delta @ delta.T / points.shape[1]


def moment_breaker(covariance: np.ndarray, degrees: float) -> np.ndarray:
    """A non-similar linear map that keeps the shape's second moments: S R S⁻¹, S the square root of the
    covariance and R a turn by ``degrees``.  Area, spread and elongation stay those of the motif (so they are no
    cue), while the shape is sheared and stretched by up to the ratio of the covariance's eigenvalues."""
    values, vectors = np.linalg.eigh(covariance)
    root = vectors @ np.diag(np.sqrt(values)) @ vectors.T
    return root @ turn(degrees) @ np.linalg.inv(root)


def anisotropy(covariance: np.ndarray) -> float:
    """The ratio of the covariance's eigenvalues (1 for an isotropic shape)."""
    values = np.linalg.eigvalsh(covariance)
    return float(values[1] / max(values[0], 1e-9))


def motif_mask(tile: np.ndarray) -> np.ndarray:
    """The pixels of ``tile`` that differ from the blank graph paper."""
    return channels.differs(tile, paper())


def principal_canonical(tile: np.ndarray, grid: int = 32, reach: float = 3.0, fine: int = 4) -> list[np.ndarray]:
    """The motif of ``tile`` in its principal-axis frame: its mask's coverage on a ``grid`` x ``grid`` square of
    ``reach`` radii of gyration about the centroid, along the covariance's eigenvectors (sampled ``fine`` x
    finer and block-averaged, so thin strokes keep a soft trace), in the four sign choices of the axes (the
    frame is fixed up to them).  Similar motifs give one matching image among the four."""
    mask = motif_mask(tile)
    centre, covariance = moments(mask)
    values, vectors = np.linalg.eigh(covariance)
    radius = float(np.sqrt(values.sum()))
    q = np.linspace(-reach, reach, grid * fine)
    qx, qy = np.meshgrid(q, q)
    out = []
    for sx in (1, -1):
        for sy in (1, -1):
            axes = vectors @ np.diag([sx, sy])
            x = centre[0] + radius * (axes[0, 0] * qx + axes[0, 1] * qy)
            y = centre[1] + radius * (axes[1, 0] * qx + axes[1, 1] * qy)
            xi, yi = np.rint(x).astype(int), np.rint(y).astype(int)
            inside = (xi >= 0) & (yi >= 0) & (xi < mask.shape[1]) & (yi < mask.shape[0])
            sample = np.zeros(inside.shape, np.float32)
            sample[inside] = mask[yi[inside], xi[inside]]
            out.append(sample.reshape(grid, fine, grid, fine).mean(axis=(1, 3)))
    return out


def similarity_score(a: np.ndarray, b: np.ndarray, reference: np.ndarray | None = None) -> float:
    """The generator's canonical checker: the best soft intersection over union (sum of minima over sum of
    maxima) of the two tiles' motif coverages in their principal-axis frames (near 1 for similar motifs).
    ``reference``: ``principal_canonical(a)[0]`` when already computed."""
    reference = principal_canonical(a)[0] if reference is None else reference
    best = 0.0
    for view in principal_canonical(b):
        union = float(np.maximum(reference, view).sum())
        best = max(best, float(np.minimum(reference, view).sum()) / union if union else 1.0)
    return best
