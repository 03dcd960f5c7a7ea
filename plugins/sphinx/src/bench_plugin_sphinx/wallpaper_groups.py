"""``sphinx/wallpaper-groups`` (paper B.3.4, spec T14): a 2 x 2 grid of square patches, each a wallpaper
pattern of one asymmetric motif; three share a wallpaper group and one does not.  Which patch is the odd one?

Construction (all seventeen groups, built as the paper describes rather than the released code's per-cell
parity tables, spec 7.2 #2): each patch is the orbit of one seed copy under its group's true generators
(turns, mirrors and glides, ``kit.groups``) on the group's own lattice (oblique, rectangular, centred
rectangular, square or hexagonal), closed modulo the lattice and repeated by its translations, then cropped to
the patch.  The seed lies far from every symmetry element (``best_seeds``), so copies never touch one another.

What no patch gives away: the four patches give each copy about the same area (each its own scale within
``AREA_SPREAD``, so no shared period) and draw the motif at one size (a heavy draw smaller, so that every copy
carries at most its family's ``INK_CAP`` of ink: how much of a patch is inked does not follow its group), each patch
cropped with its copies' centre near its own (``_crop``) and seen through a random D4 view; the pictures keep
under 256 colours (``COLOUR_STEP``); each patch has its own motif (same family,
its own shape and colour) in its own orientation and its own lattice shape; lattices have exactly their kind's
symmetry (an oblique lattice is never by chance rectangular, rhombic or hexagonal, nor a rectangle a square)
and show their period more than once across and down, and the motif has no symmetry of its own and changes
clearly under every turn and mirror of its patch's lattice.  On the oblique, rectangular, centred
and square lattices every copy sits on whole pixels and every operation maps the pixel grid onto itself, so
the patch is exactly symmetric; hexagonal patches turn their copies by a sixth of a turn from a drawing at
three times the size and are symmetric to within a pixel.

What the generator checks before it accepts a patch (its own measurement, ``symmetry_readings``, sharing no code
with the verifier): the drawn pattern, on its pixels, against the isometries the construction knows.  Every
element of the group must hold with a margin (HOLDS), the lattice's translations all but exactly (REPEATS), and
every other turn, mirror or translation of the lattice must fail with a margin (FAILS) at its best shift.  A patch
that misses a margin is drawn again with another motif: on the hexagonal lattice a motif's hairline strokes
can lose or gain darkness on the copies turned by a sixth, so that an element the group has holds only
roughly; a motif that is nearly symmetric (an arc, a blob of cells) can nearly hold a map the group lacks.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import PNG_LEVEL, GenerationError, ParameterError, Problem
from bench_plugin_sphinx import wallpaper_words as words
from bench_plugin_sphinx.descriptions.wallpaper_groups import COPIES, WALLPAPER_FAMILIES
from bench_plugin_sphinx.kit import channels, compare, complexity, groups, indexed, layout, motifs, probe
from bench_plugin_sphinx.kit.distractors import other_letters
from bench_plugin_sphinx.kit.palette import PALETTE
from bench_plugin_sphinx.kit.sampling import cyclic, matched_order
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import wallpaper as verifier

PATCH, FRAME, GUTTER, TOP, LABEL_BAND, LABEL_SIZE = 500, 6, 40, 30, 80, 56
INNER = PATCH - 2 * FRAME
SIZE = (3 * GUTTER + 2 * PATCH, TOP + 2 * (PATCH + LABEL_BAND) + GUTTER // 2)
#: Random places for the pattern's origin tried per patch (``_crop``).
CROPS = 12
#: Each patch's area per copy is the item's times a factor drawn (log-uniformly) from this range (never more:
#: a patch must show its lattice's period more than once across and down, see LONGEST).  As wide as 0.4 (0.6 until
#: version 0.1.5) so that patches of one group differ in density: a group whose copies cluster (mirror pairs, the
#: rings of p4m and p6m) leaves blocks of the patch empty, and at one density three such patches looked alike at a
#: glance (a perceptual hash's nearest-twin distance picked the odd patch; the blind audit read 0.319 at seed 3031,
#: 1,000 items, against chance 0.25 + 3 sd = 0.291, and 0.280 with this range).
AREA_SPREAD = (0.4, 1.0)
#: No translation of a lattice's reduced basis may be longer than this share of the patch's side.
LONGEST = 0.64
#: Cells of the lattice a patch shows at least (a group with k motif orientations gets CELLS_SHOWN * k copies).
CELLS_SHOWN = 3
#: The motif's radius as a share of the smallest clearance among the four patches (half of it would touch).
RADIUS_SHARE = 0.45
#: A copy must change on at least this share of its ink under every turn and mirror of its lattice about its ink
#: centroid (a screen on the motif alone, before its patch is drawn and measured: ``symmetry_readings``).
CHANGE_MIN = 0.15
#: The most ink a copy may have, in px per squared radius, per motif family (about the lightest quarter of the
#: family's draws): a heavier draw is drawn smaller until it has that much (``_motif``).  Every patch's copies then
#: carry about the same ink whatever their group, so how much of a patch is inked says nothing about its group
#: (the draws a group's checks keep are not the same as another's: some groups keep heavier motifs than others).
INK_CAP = {"arc": 0.39, "arrow": 0.55, "bars": 1.16, "bitgrid": 0.96, "fractal": 0.46, "glyph": 0.75,
           "pictogram": 0.61, "polyhex": 1.07, "polyiamond": 1.04, "polyline": 0.36, "polyomino": 1.08}
#: Measured ink over ``kit.motifs.ink_estimate`` per family where it is not about 1 (median of 30 draws; strokes that
#: cross or overlap count twice in the estimate), so that a heavy draw is sized for INK_CAP before it is drawn.
INK_SHARE = {"arc": 0.9, "fractal": 0.63, "polyline": 0.84}
#: The share of INK_CAP a heavy draw is sized for from its estimate (the estimate's spread is a few per cent for most
#: families, so the draw then seldom exceeds the cap and needs drawing again).
AIM = 0.93
SUPERSAMPLE = 3
#: Every channel of the sprites and of the frames' and labels' greys is rounded to a multiple of this (16 levels,
#: black and white kept): the motifs and labels look the same, and the picture keeps under 256 colours, so it is
#: written as a palette PNG (encoded and decoded several times faster than 800-odd anti-aliased colours).
COLOUR_STEP = 17
#: The zlib level of the item's PNG (``bench_core.PNG_LEVEL``; the core's palette default is 6), chosen by
#: measurement on 20 items: levels 1-3 encode these 1120 x 1210 pictures, mostly white, in ~3.7-3.9 ms and 4-6 in
#: ~5.5-7.0 ms; level 3 writes ~50 KiB, level 6 ~35 KiB.  The encode is a ninth of an item's time at level 6.
ZLIB_LEVEL = 3
ATTEMPTS = 60
#: Layouts of the four patches (each patch's colour, lattice, scale and seed) tried in turn while a patch of one
#: finds no motif in its draws (ATTEMPTS in the first layout, RETRY_ATTEMPTS in each later one).  Some layouts and
#: families leave few draws that keep the margins: p3 patches of polyiamonds (triangles that nearly bear a third of
#: a turn, so a translation carrying a copy onto its turned neighbour nearly holds) read 0.13-0.19 against FAILS on
#: every usable draw of seed 603 item 20, and of seeds 9 items 76 and 78 with majority p3 and motif polyiamond.
LAYOUTS = 6
RETRY_ATTEMPTS = 150
#: The generator's own margins on the drawn patch, measured on its pixels (the share of ink an isometry does not
#: carry onto ink of like darkness), well inside the bands a reader of the pixels uses (an element there at a
#: mismatch of at most 0.05, absent at 0.10 or more, the lattice's translations there at 0.005): every element of
#: the patch's group must leave at most HOLDS of the ink unmatched, the lattice's translations at most REPEATS,
#: and every turn, mirror or translation of the lattice that is no element at least FAILS at its best shift.
HOLDS, REPEATS, FAILS = 0.025, 0.002, 0.2
#: The best shift of a map that is no element is looked for at the PEAKS best overlays of a copy's image on the ink
#: (``groups.PatternInk.overlays``) and every whole-pixel shift within NEAR of them, then, for a map reading below
#: twice FAILS there, by up to CLIMB steps of a pixel to the best neighbour (the search can still miss the best
#: shift by a few hundredths: FAILS is twice the verifier's band, not 1.5 times); a translation shorter than
#: SHORTEST px is none a reader can tell from no shift (the verifier looks for none shorter either).
PEAKS, NEAR, CLIMB, SHORTEST = 3, 1, 8, 6
STEPS = np.array([(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], float)
#: Inked pixels an element is measured on (NEAR_POINTS while the overlays are compared, CLIMB_POINTS while a map's
#: shift is followed from neighbour to neighbour).
CHECK_POINTS, NEAR_POINTS, CLIMB_POINTS = 2000, 150, 300
#: Inked pixels a hexagonal patch's own elements are measured on (``held_readings``): the sampling's spread at HOLDS
#: is about 0.006, far inside the verifier's band (it holds an element at 0.05 or less).
ELEMENT_POINTS = 600


@functools.lru_cache(maxsize=32)
def features(group: str) -> tuple[int, int]:
    """(motif orientations shown, largest turn order), read off the group's own point group."""
    parts = groups.point_group_of(group)
    return len(parts), groups.rotation_order(parts)


def tier(majority: str, odd: str) -> int:
    """0: the groups show the motif in different numbers of orientations; 1: the same number, but their largest
    turns differ; 2: the same number and the same turns."""
    a, b = features(majority), features(odd)
    if a[0] != b[0]:
        return 0
    return 1 if a[1] != b[1] else 2


def patch_boxes(k: int) -> tuple[list[int], list[int]]:
    """(outer box with frame, inner box) of patch ``k`` in reading order: [left, top, right, bottom]."""
    r, c = divmod(k, 2)
    left, top = GUTTER + c * (PATCH + GUTTER), TOP + r * (PATCH + LABEL_BAND)
    outer = [left, top, left + PATCH, top + PATCH]
    return outer, [left + FRAME, top + FRAME, left + PATCH - FRAME, top + PATCH - FRAME]


def _lattice(kind: str, area: float, rng) -> groups.Lattice:
    """A lattice of ``kind`` with exactly its kind's symmetry (within a generous tolerance) and no translation of
    its reduced basis longer than LONGEST of the patch: redrawn while it happens to be more symmetric (an
    oblique one rhombic, a rectangle a square ...) or too long one way."""
    for _attempt in range(ATTEMPTS):
        lattice = groups.make_lattice(kind, area, rng)
        longest = max(float(np.hypot(*vec)) for vec in lattice.basis)
        if longest <= LONGEST * INNER and len(groups.lattice_symmetries(lattice)) == groups.HOLOHEDRY_ORDER[kind]:
            return lattice
    raise GenerationError(f"wallpaper-groups: no {kind} lattice without extra symmetry and short enough for the "
                          f"patch in {ATTEMPTS} draws")


_EYE = np.eye(2)


def _linear_identity(a: np.ndarray) -> bool:
    """``np.allclose(a, np.eye(2))`` (its tolerances, for a finite 2 x 2 ``a``), without its overhead."""
    return bool(np.all(np.abs(a - _EYE) <= 1e-08 + 1e-05 * _EYE))


def _exact(kind: str) -> bool:
    return kind != "hexagonal"


def patch_sprites(patch: dict[str, Any], base: np.ndarray | None = None) -> list[np.ndarray]:
    """The sprite of each of the patch's linear parts.  A part is written as D Q, D a D4 operation (done exactly,
    by array operations on the seed sprite) and Q the identity or, on the hexagonal lattice, a sixth or third
    turn (done once each, by turning the motif drawn at SUPERSAMPLE x).  ``base``: the seed sprite, when drawn."""
    parts = [np.array(p, float) for p in patch["parts"]]
    big = None
    if not all(groups.d4_name(part) for part in parts):
        # the motif's shapes drawn at SUPERSAMPLE x (the scale ``kit.motifs`` draws at before reducing); a glyph,
        # which is text, drawn at SUPERSAMPLE x its size and turned as a picture
        linear = placement(patch["orientation"], patch["turn"])
        big = motifs.render_mapped(patch["motif"], patch["sprite"], patch["fill"], linear, supersampled=True)
        if big is None:
            big = draw_motif(patch, SUPERSAMPLE)
        base = groups.reduce(big, SUPERSAMPLE)
    elif base is None:
        base = draw_motif(patch, 1)
    turns = {0: snapped(base)}  # snapped once per turn: rounding each channel commutes with moving whole pixels
    out = []
    for part in parts:
        for degrees in (0, 60, 120):
            name = groups.d4_name(part @ groups.rotation(-degrees)[:2, :2])
            if name is not None:
                break
        else:
            raise ValueError(f"part {part.tolist()} is neither a D4 operation nor one after a sixth or third turn")
        if degrees not in turns:
            turns[degrees] = snapped(groups.transformed_sprite(big, groups.rotation(degrees)[:2, :2], SUPERSAMPLE))
        out.append(probe.apply(name, turns[degrees]))
    return out


def snapped(rgb: np.ndarray) -> np.ndarray:
    """``rgb`` with every channel rounded to the nearest multiple of COLOUR_STEP (white and black stay)."""
    return ((rgb.astype(np.uint16) + COLOUR_STEP // 2) // COLOUR_STEP * COLOUR_STEP).astype(np.uint8)


def turned(rgb: np.ndarray, degrees: float) -> np.ndarray:
    """``rgb`` turned ``degrees`` counterclockwise about its centre (bicubic, white outside)."""
    image = Image.fromarray(rgb).rotate(degrees, resample=Image.Resampling.BICUBIC, fillcolor=layout.WHITE)
    return np.asarray(image)


def draw_motif(patch: dict[str, Any], factor: int) -> np.ndarray:
    """The patch's seed copy drawn at ``factor`` x its sprite side: its motif at its fill, in its D4 orientation,
    turned by its ``turn`` (``oriented_drawing``)."""
    return oriented_drawing(patch["motif"], patch["sprite"] * factor, patch["fill"], patch["orientation"],
                            patch["turn"])


def oriented_drawing(spec: dict[str, Any], side: int, fill: float, orientation: str, turn: float) -> np.ndarray:
    """The motif ``spec`` drawn ``side`` px square at ``fill``, put in the D4 ``orientation``, then turned ``turn``
    degrees counterclockwise: its shapes mapped so before they are drawn (``motifs.render_mapped``: as sharp as
    an upright drawing, and no resampling); a glyph (text) is drawn upright, its pixels then mapped and turned
    (bicubic, ``turned``)."""
    drawn = motifs.render_mapped(spec, side, fill, placement(orientation, turn))
    if drawn is None:
        drawn = turned(probe.apply(orientation, motifs.render(spec, side, fill=fill)), turn)
    return drawn


def placement(orientation: str, turn: float) -> np.ndarray:
    """The linear map (2 x 2, pixel axes) putting a motif in its D4 ``orientation``, then turning it ``turn`` degrees
    counterclockwise."""
    return groups.rotation(turn)[:2, :2] @ groups.D4_LINEAR[orientation]


def pattern_canvas(patch: dict[str, Any], sprites: list | None = None) -> np.ndarray:
    """One patch's pattern (INNER x INNER) from its record, in the pattern's own frame: every copy stamped with
    the sprite of its part."""
    sprites = sprites if sprites is not None else patch_sprites(patch)
    canvas = np.full((INNER, INNER, 3), 255, np.uint8)
    for x, y, k in patch["copies"]:
        groups.stamp(canvas, sprites[k], x, y)
    return canvas


def pattern_darkest(patch: dict[str, Any], sprites: list[np.ndarray]) -> np.ndarray:
    """``channels.darkest(pattern_canvas(patch, sprites))`` (uint8, INNER x INNER), stamped from each sprite's
    darkest channels: the canvas keeps the darker value per channel, so its darkest channel is the darkest of the
    sprites' darkest channels."""
    lows = [channels.darkest(sprite) for sprite in sprites]
    canvas = np.full((INNER, INNER), 255, np.uint8)
    for x, y, k in patch["copies"]:
        groups.stamp(canvas, lows[k], x, y)
    return canvas


def render_patch(patch: dict[str, Any], sprites: list | None = None) -> np.ndarray:
    """One patch's pixels (INNER x INNER) from its record: its pattern (``pattern_canvas``) seen through its
    ``view`` (a D4 operation: the lattice's rows may run across or down, either way round)."""
    return viewed(patch["view"], pattern_canvas(patch, sprites))


#: PIL's transposes of the D4 operations that move pixels across rows (``probe.apply`` of them on an RGB array).
_TRANSPOSES = {"mirror": Image.Transpose.FLIP_LEFT_RIGHT, "transpose": Image.Transpose.TRANSPOSE,
               "transverse": Image.Transpose.TRANSVERSE, "rot90": Image.Transpose.ROTATE_90,
               "rot180": Image.Transpose.ROTATE_180, "rot270": Image.Transpose.ROTATE_270}


def viewed(view: str, rgb: np.ndarray) -> np.ndarray:
    """``probe.apply(view, rgb)`` for an RGB picture or an (h, w) uint8 one (a new array, only to be read), faster:
    PIL moves whole pixels where numpy would copy a reordered RGB array channel byte by channel byte."""
    if view not in _TRANSPOSES:
        return probe.apply(view, rgb)
    return np.asarray(Image.fromarray(rgb).transpose(_TRANSPOSES[view]))


def symmetry_readings(canvas: np.ndarray, lattice: groups.Lattice, reps, seed, origin, radius: float
                      ) -> dict[str, float]:
    """How the drawn pattern (``canvas``, in its own frame, the pattern's origin at ``origin``, its copies' ink
    within ``radius`` of their centres) bears the group it was built from, measured on its pixels with the
    isometries the construction knows (``groups.PatternInk``).  ``elements``: the largest mismatch of a group
    element (coset representatives ``reps``) other than a translation; ``translations``: the larger of the
    lattice's two basis translations'; ``others``: the smallest of any turn, mirror or translation of the lattice
    that is no element, at its best shift.  A map that lays copies on copies can be moved by elements of the
    group (which change nothing) to one that lays a chosen copy on itself, so every turn and mirror of the lattice
    (and every translation at least SHORTEST px long) is tried about one copy: at the shifts where its image of
    that copy lies best over the ink (``PatternInk.overlays``) and every whole-pixel shift within NEAR of them,
    then (where that reads near the margin) downhill from the best of them (``_descend``).

    On every lattice but the hexagonal the elements and the translations are not measured: they read 0 there by
    construction (``held_readings``; every copy on whole pixels, drawn from one sprite by array operations, and
    every element a map of the pixel grid onto itself), so only the hexagonal lattice's are."""
    ink = groups.PatternInk(canvas, 0 if _exact(lattice.kind) else 1)
    basis, origin = lattice.matrix, np.asarray(origin, float)
    centre = np.full(2, (INNER - 1) / 2)

    def central(pairs: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
        """For each (a, t), t moved by the lattice vector that keeps the canvas's centre nearest itself under
        x -> a x + t (``_central``: all of them in one solve)."""
        return _central(basis, centre, pairs)

    elements, translations = ([0.0], [0.0]) if _exact(lattice.kind) else held_readings(ink, lattice, reps, origin)
    anchor = np.asarray(seed, float) + origin
    anchor = anchor + basis @ np.rint(np.linalg.solve(basis, centre - anchor))  # the seed's copy nearest the middle
    offsets = np.array([(dx, dy) for dy in range(-NEAR, NEAR + 1) for dx in range(-NEAR, NEAR + 1)], float)
    maps = list(_reading_maps(lattice))
    excludes = [SHORTEST if _linear_identity(a) else 0.0 for a in maps]
    tried, owners, found = [], [], []
    for k, (a, peaks) in enumerate(zip(maps, ink.overlays(maps, anchor, radius, PEAKS, excludes), strict=True)):
        found += [(k, (a, anchor - a @ anchor + peak)) for peak in peaks]
    for (k, _pair), moved in zip(found, central([pair for _k, pair in found]), strict=True):
        shifts = moved + offsets
        if excludes[k]:  # each translation in its shortest form, modulo the lattice: none of the lattice's own
            shifts = shifts[np.hypot(*shifts.T) >= SHORTEST]
        tried.append(shifts)
        owners += [k] * len(shifts)
    others = [1.0]
    if tried:
        shifts, owners = np.concatenate(tried), np.array(owners)
        quick = ink.changes(np.array(maps), shifts, NEAR_POINTS, owners)
        for k in np.unique(owners):
            mine = np.flatnonzero(owners == k)
            best = mine[np.argmin(quick[mine])]
            if quick[best] >= 2 * FAILS:  # far from the margin: neither sampling nor a better shift brings it near
                others.append(float(quick[best]))
            else:
                others.append(_descend(ink, maps[k], shifts[best], excludes[k]))
    return {"elements": float(max(elements)), "translations": float(max(translations)), "others": float(min(others))}


@functools.lru_cache(maxsize=64)
def _reading_maps(lattice: groups.Lattice) -> tuple[np.ndarray, ...]:
    """The lattice's symmetries ``symmetry_readings`` measures: a turn and its inverse read alike (both ways), so one
    of each (the first met), every involution (kept: a patch's draws share their lattice)."""
    maps: list[np.ndarray] = []
    for a in groups.lattice_symmetries(lattice):
        if not any(_linear_identity(a @ b) for b in maps) or _linear_identity(a @ a):
            maps.append(a)
    return tuple(maps)


def held_readings(ink: groups.PatternInk, lattice: groups.Lattice, reps, origin) -> tuple[list[float], list[float]]:
    """(the mismatch of every element of the group (coset representatives ``reps``) other than a translation, of
    each of the lattice's two basis translations) on the drawn pattern's ``ink`` (its origin at ``origin``), each
    at its shift moved by the lattice vector that keeps the canvas's centre nearest itself."""
    basis, origin = lattice.matrix, np.asarray(origin, float)
    centre = np.full(2, (INNER - 1) / 2)
    turning = [op for op in reps if not _linear_identity(op[:2, :2])]  # every element but the translations
    elements = [0.0]
    if turning:
        shifts = _central(basis, centre, [(op[:2, :2], op[:2, 2] + origin - op[:2, :2] @ origin) for op in turning])
        elements = ink.changes(np.array([op[:2, :2] for op in turning]), shifts, ELEMENT_POINTS)
    return list(elements), list(ink.changes(np.eye(2), lattice.basis, CHECK_POINTS))


def _central(basis: np.ndarray, centre: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """For each (a, t) of ``pairs``, ``t + basis @ np.rint(np.linalg.solve(basis, centre - a @ centre - t))``: t
    moved by the lattice vector (of ``basis``'s columns) that keeps ``centre`` nearest itself under x -> a x + t,
    the very values of one solve each, with every solve done in one batched call (the same LAPACK solve of the
    same 2 x 2 system per pair)."""
    if not pairs:
        return []
    rights = np.array([centre - a @ centre - t for a, t in pairs])[:, :, None]
    steps = np.rint(np.linalg.solve(np.broadcast_to(basis, (len(pairs), 2, 2)), rights)[:, :, 0])
    return [t + basis @ step for (_a, t), step in zip(pairs, steps, strict=True)]


def _descend(ink: groups.PatternInk, a: np.ndarray, shift: np.ndarray, exclude: float) -> float:
    """The mismatch of x -> a x + t on CHECK_POINTS inked pixels at the t reached from ``shift`` by steps of one
    pixel to the best neighbour (on CLIMB_POINTS pixels, at most CLIMB steps; every t at least ``exclude`` long):
    the overlay a correlation peak points at is often a few pixels from the map's best shift."""
    current = ink.changes(a, shift, CLIMB_POINTS)[0]
    for _step in range(CLIMB):
        trials = shift + STEPS
        if exclude:
            trials = trials[np.hypot(*trials.T) >= exclude]
        scores = ink.changes(a, trials, CLIMB_POINTS)
        k = int(np.argmin(scores))
        if scores[k] >= current:
            break
        shift, current = trials[k], scores[k]
    return float(ink.changes(a, shift, CHECK_POINTS)[0])


def clearly_symmetric(readings: dict[str, float]) -> bool:
    """Whether a patch's ``symmetry_readings`` keep their margins: its elements hold (HOLDS), its lattice repeats
    (REPEATS) and nothing else of its lattice comes near holding (FAILS)."""
    return (readings["elements"] <= HOLDS and readings["translations"] <= REPEATS
            and readings["others"] >= FAILS)


@functools.lru_cache(maxsize=2)
def _chrome() -> np.ndarray:
    """The white canvas with the four frames and labels (a)-(d), their greys ``snapped``."""
    image = Image.new("RGB", SIZE, layout.WHITE)
    draw = ImageDraw.Draw(image)
    for k in range(4):
        outer, _ = patch_boxes(k)
        layout.frame(draw, tuple(outer), FRAME)
        layout.caption(draw, ((outer[0] + outer[2]) / 2, outer[3] + LABEL_BAND / 2), layout.label(k), LABEL_SIZE)
    chrome = snapped(np.asarray(image))
    chrome.flags.writeable = False
    return chrome


def compose(scene: dict[str, Any], pictures: list[np.ndarray] | None = None) -> np.ndarray:
    """The item's picture from its scene record (``pictures``: the four patches, when already drawn)."""
    canvas = _chrome().copy()
    for k, patch in enumerate(scene["patches"]):
        left, top, right, bottom = patch["box"]
        canvas[top:bottom, left:right] = pictures[k] if pictures is not None else render_patch(patch)
    return canvas


@functools.lru_cache(maxsize=2)
def _chrome_backdrop():
    """``_chrome`` kept as a backdrop (``kit.indexed.kept_backdrop``: its colours' keys ascending, white's the last,
    and its pixels that are not white), read-only."""
    return indexed.kept_backdrop(_chrome())


def palette_compose(scene: dict[str, Any], sprites: list[list[np.ndarray]]) -> Image.Image | None:
    """``compose``'s picture as the palette image the core would write for it (its colours ascending, nothing
    else: the same PNG bytes), put together as palette indices from each patch's sprites (``sprites[k]``: patch
    k's, one per part, as ``patch_sprites`` draws them); None when the picture shows more than 256 colours or a
    copy's non-white pixel falls on another's (there ``pattern_canvas`` keeps the darker channel, which indices
    cannot): the caller then composes in RGB.

    The chrome (frames and labels, mostly white) is laid in from its pixels that are not white
    (``kit.indexed.backdrop_in_palette``), and a copy lying whole inside its pattern is written on its ink
    pixels alone.  Which colours the picture shows is known without counting its pixels when every sprite has
    a copy lying whole inside its pattern (copies never overlap, so such a copy shows every colour of its
    sprite; the chrome's colours lie outside the patterns, and white shows in the gutters); otherwise the
    pixels are counted (``kit.indexed.shown_palette_picture``)."""
    backdrop = _chrome_backdrop()
    chrome_keys = backdrop[0]
    found = _palette_stamps(chrome_keys, sprites)
    if found is None:
        return None
    palette, all_stamps = found
    white = len(palette) - 1  # the chrome is white around its frames, and white's key is the largest
    canvas = indexed.backdrop_in_palette(backdrop, palette)
    every_sprite_whole = True
    for patch, stamps in zip(scene["patches"], all_stamps, strict=True):
        pattern = np.full((INNER, INNER), white, np.uint8)
        flat = pattern.reshape(-1)  # a view: writes land in ``pattern``
        inks = [None] * len(stamps)  # per part: its ink's flat offsets in the pattern and its indices there
        whole = [False] * len(stamps)
        written = 0
        for x, y, k in patch["copies"]:
            stamp = stamps[k]
            half = stamp.shape[0] // 2
            top, left = y - half, x - half
            if 0 <= top <= INNER - stamp.shape[0] and 0 <= left <= INNER - stamp.shape[1]:
                if inks[k] is None:
                    rows, cols = np.nonzero(stamp != white)
                    inks[k] = (rows * INNER + cols, stamp[rows, cols])
                offsets, ink = inks[k]
                flat[offsets + (top * INNER + left)] = ink  # ``_stamp_indices`` of a copy lying whole inside
                written += len(offsets)
                whole[k] = True
            else:
                written += _stamp_indices(pattern, stamp, white, x, y)
        if np.count_nonzero(pattern != white) != written:  # some pixel was written twice
            return None
        every_sprite_whole = every_sprite_whole and all(whole)
        left, top, right, bottom = patch["box"]
        canvas[top:bottom, left:right] = viewed(patch["view"], pattern)
    if every_sprite_whole:
        return indexed.palette_picture(canvas, palette)
    return indexed.shown_palette_picture(canvas, palette)  # a sprite's colour may lie where the patch clips it


def _palette_stamps(chrome_keys: np.ndarray, sprites: list[list[np.ndarray]]
                    ) -> tuple[np.ndarray, list[list[np.ndarray]]] | None:
    """(the palette: the ascending ``kit.indexed.colour_keys`` of the chrome's and every sprite's colours; each
    sprite as indices into it, uint8), or None when they are more than 256.  Every channel being ``snapped`` (a
    multiple of COLOUR_STEP, 16 levels), a colour is one of 4096 codes that sort as its key does, so the colours
    are found by marking codes, not by sorting pixels; a sprite not snapped is read by ``np.unique``."""
    levels = 255 // COLOUR_STEP + 1
    coded, present = [], np.zeros(levels ** 3, bool)
    for own in sprites:
        row = []
        for sprite in own:
            steps, rest = np.divmod(sprite, COLOUR_STEP)
            if rest.any():
                row.append(None)
                continue
            steps = steps.astype(np.uint16)
            code = (steps[:, :, 0] * levels + steps[:, :, 1]) * levels + steps[:, :, 2]
            present[code.ravel()] = True
            row.append(code)
        coded.append(row)
    codes = np.flatnonzero(present)
    keys = ((codes // (levels * levels) * COLOUR_STEP) << 16 | (codes // levels % levels * COLOUR_STEP) << 8
            | codes % levels * COLOUR_STEP).astype(np.int32)
    unsnapped = [np.unique(indexed.colour_keys(sprite), return_inverse=True)
                 for own, row in zip(sprites, coded, strict=True) for sprite, code in zip(own, row, strict=True)
                 if code is None]
    palette = np.unique(np.concatenate([chrome_keys, keys, *(found for found, _ in unsnapped)]))
    if len(palette) > 256:
        return None
    # each code's index in the palette (codes absent from every sprite are never read)
    table = np.zeros(levels ** 3, np.uint8)
    table[codes] = np.searchsorted(palette, keys).astype(np.uint8)
    unsnapped_iter = iter(unsnapped)
    stamps = []
    for own, row in zip(sprites, coded, strict=True):
        out = []
        for sprite, code in zip(own, row, strict=True):
            if code is None:
                found, inverse = next(unsnapped_iter)
                out.append(np.searchsorted(palette, found).astype(np.uint8).take(inverse.reshape(sprite.shape[:2])))
            else:
                out.append(table.take(code))
        stamps.append(out)
    return palette, stamps


def _stamp_indices(pattern: np.ndarray, sprite: np.ndarray, white: int, x: int, y: int) -> int:
    """``groups.stamp`` on palette indices: the sprite's (odd side) pixels other than ``white`` written with its
    centre pixel at (x, y), clipped to the pattern; returns how many were written."""
    half = sprite.shape[0] // 2
    top, left = y - half, x - half
    t0, l0 = max(0, top), max(0, left)
    t1, l1 = min(pattern.shape[0], top + sprite.shape[0]), min(pattern.shape[1], left + sprite.shape[1])
    if t0 >= t1 or l0 >= l1:
        return 0
    piece = sprite[t0 - top: t1 - top, l0 - left: l1 - left]
    ink = piece != white
    pattern[t0:t1, l0:l1][ink] = piece[ink]
    return int(np.count_nonzero(ink))


def _crop(reps, lattice: groups.Lattice, seed, radius: float, rng) -> np.ndarray:
    """Where the pattern's origin goes in the patch: of CROPS random places in a cell, the one whose visible copies
    (each weighted by how much of it the patch shows) are centred and spread most evenly (their centre nearest
    the patch's, their second moments nearest round), so that where a patch's ink sits and how it spreads say
    nothing about its group's cell size."""
    basis = lattice.matrix
    reach = float(np.abs(basis).sum(axis=1).max()) + radius + 2
    points = groups.pattern_centres(reps, lattice, seed, (-reach, -reach, INNER + reach, INNER + reach), 0)[0]
    centre = (INNER - 1) / 2
    origins = []
    for _ in range(CROPS):
        origin = basis @ rng.random(2)
        origins.append(np.rint(origin) if _exact(lattice.kind) else origin)
    # every place at once: the same sums, each over its own copies in the same order as one place at a time
    moved = points[None, :, :] + np.array(origins)[:, None, :]  # (places, copies, 2)
    lo, hi = np.clip(moved - radius, 0, INNER), np.clip(moved + radius, 0, INNER)
    weight = np.prod(hi - lo, axis=2)
    total = weight.sum(axis=1)
    # every place's centre and second moments at once, each the same sum over its copies in the same order as one
    # place at a time (the sums run along the copies for every place alike); a place showing nothing is skipped
    shown = total > 0
    share = np.where(shown, total, 1.0)
    mean = (moved * weight[:, :, None]).sum(axis=1) / share[:, None]  # (places, 2)
    dx, dy = (moved - mean[:, None, :]).transpose(2, 0, 1)  # (places, copies) each
    cxx, cyy, cxy = ((np.stack([dx * dx, dy * dy, dx * dy], axis=1) * weight[:, None, :]).sum(axis=2)
                     / share[:, None]).T
    best, best_score = None, np.inf
    for k, origin in enumerate(origins):
        if not shown[k]:
            continue
        spread = cxx[k] + cyy[k]
        elongation = float(np.hypot(cxx[k] - cyy[k], 2 * cxy[k]) / spread) if spread > 0 else 1.0
        score = float(np.hypot(*(mean[k] - centre))) / (0.05 * INNER) + elongation / 0.05
        if score < best_score:
            best, best_score = origin, score
    return best


class WallpaperGroups(PaperSets, task="wallpaper-groups"):
    def check_params(self, params):
        majority, odd = params.get("majority"), params.get("odd")
        if params.get("difficulty") is not None and (majority is not None or odd is not None):
            raise ParameterError("parameter 'difficulty': the difficulty level chooses the pair of groups; set "
                                 "majority/odd or difficulty, not both")
        if majority is not None and majority == odd:
            raise ParameterError(f"parameter 'odd': {odd!r} is the majority group too; allowed: any other of "
                                 f"{', '.join(words.GROUPS)}")

    def _pair(self, params, random) -> tuple[str, str, bool]:
        rng, level = random.rng, params.get("difficulty")
        majority, odd = params.get("majority"), params.get("odd")
        if level is not None:
            t = complexity.knob_for_level(level, [0, 1, 2], 0, 2, rng)
            able = tuple(g for g in words.GROUPS if any(tier(g, o) == t for o in words.GROUPS if o != g))
            majority = cyclic(random, able, f"majority-order-{t}")
            choices = [o for o in words.GROUPS if o != majority and tier(majority, o) == t]
            return majority, choices[int(rng.integers(len(choices)))], True
        if majority is None and odd is None:  # both spread over the indices, never the same group
            firsts, seconds = matched_order(random, tuple(words.GROUPS), lambda a, b: a != b, "majority-order")
            return firsts[random.index % len(firsts)], seconds[random.index % len(seconds)], False
        if majority is None:
            majority = cyclic(random, tuple(g for g in words.GROUPS if g != odd), "majority-order")
        if odd is None:
            odd = cyclic(random, tuple(g for g in words.GROUPS if g != majority), "odd-order")
        return majority, odd, False

    def generate(self, params, random):
        rng = random.rng
        majority, odd, levelled = self._pair(params, random)
        family = params.get("motif") or cyclic(random, WALLPAPER_FAMILIES, "motif-order")
        count = params.get("copies") or int(rng.integers(COPIES[0], COPIES[1] + 1))
        slot = random.balanced(4, "answer")
        names = [odd if k == slot else majority for k in range(4)]
        # every copy's share of the plane: about count x count copies, or as many as show CELLS_SHOWN cells of
        # the more ornate group, each patch on its own scale within AREA_SPREAD of that (so that patches of one
        # group do not share the period of their rows, which would make them look alike at a glance)
        copies = max(count * count, CELLS_SHOWN * max(features(majority)[0], features(odd)[0]))
        for tried in range(LAYOUTS):
            drawn = self._patches(names, copies, family, rng, ATTEMPTS if tried == 0 else RETRY_ATTEMPTS)
            if drawn is not None:
                break
        else:
            raise GenerationError(f"wallpaper-groups: no {family} motif drawing {majority} and {odd} patches that show "
                                  f"their groups clearly in {LAYOUTS} layouts (up to {RETRY_ATTEMPTS} draws a patch)")
        radius, patches, sprites = drawn
        scene = {"image_size": list(SIZE), "copies": count, "copies_per_patch": copies, "radius": round(radius, 3),
                 "frame": FRAME,
                 "family": family, "majority": majority, "odd": odd, "patches": patches,
                 "option_boxes": [patch_boxes(k)[0] for k in range(4)]}
        picture = palette_compose(scene, sprites)
        if picture is None:
            pictures = [render_patch(patch, own) for patch, own in zip(patches, sprites, strict=True)]
            picture = Image.fromarray(compose(scene, pictures))
        t = tier(majority, odd)
        record = complexity.record("pair_tier", t, 0, 2, source="ours")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        question = f"{words.DEFINITION} {stem} Answer with one letter (a–d)."
        metadata = {"scene": scene, "majority": majority, "odd": odd, "motif": family, "copies": count,
                    "complexity": record, "paper_answer": layout.label(slot),
                    **({"difficulty_knobs": {"pair_tier": t}} if levelled else {})}
        return Problem(question=question, answer="ABCD"[slot], image_size=SIZE,
                       params={**params, "majority": majority, "odd": odd, "motif": family, "copies": count},
                       options=("A", "B", "C", "D"), answer_type="option", metadata=metadata, structure=picture)

    def _patches(self, names, copies, family, rng, attempts):
        """(radius, records, sprites) of the four patches of groups ``names`` (each its own colour, a
        lattice on its own scale, about ``copies`` copies of the motif to a patch, the motif's radius a share of
        the smallest clearance), or None when a patch finds no motif that shows its group clearly in ``attempts``
        draws (``_patch``):
        the caller lays the patches out again, colours too (a p3 patch of grey polyiamonds failed on every
        layout tried where the same patch in cyan or orange passed on the first)."""
        colours = [list(PALETTE)[int(i)] for i in rng.permutation(len(PALETTE))[:4]]
        area = INNER * INNER / copies
        plans = []
        for name in names:
            kind = groups.WALLPAPER_GROUPS[name].lattice
            share = area * float(np.exp(rng.uniform(*np.log(AREA_SPREAD))))
            lattice = _lattice(kind, groups.conventional_area(name, share), rng)
            reps = groups.coset_representatives(name, lattice)
            seed, clearance = groups.best_seeds(reps, lattice, rng)
            if _exact(kind):  # on whole pixels, so that every copy does
                seed = np.rint(seed)
                clearance = float(groups.seed_clearance(reps, lattice, seed[None, :])[0])
            plans.append((name, lattice, reps, seed, clearance))
        radius = RADIUS_SHARE * min(p[4] for p in plans)
        patches, sprites, shapes = [], [], []
        for k, (name, lattice, reps, seed, _clearance) in enumerate(plans):
            drawn = self._patch(name, lattice, reps, seed, radius, family, colours[k], k, rng, shapes, attempts)
            if drawn is None:
                return None
            patches.append(drawn[0])
            sprites.append(drawn[1])
        return radius, patches, sprites

    def _patch(self, name, lattice, reps, seed, radius, family, colour, k, rng, shapes, attempts):
        """One patch's record and sprites (``patch_sprites``): a
        motif from ``_motif`` that differs in shape from the other patches' (``shapes``, appended to), the copies in
        the patch, the most evenly centred crop (``_crop``) and a random view; redrawn while the drawn pattern does
        not show its group clearly (``clearly_symmetric``: the generator's own margins, measured on the pixels with
        the isometries the construction knows, on the pattern's darkest channels, ``pattern_darkest``); None when
        no motif of ``attempts`` draws does (a motif without symmetry,
        changing clearly under the lattice's turns and mirrors, distinct from the other patches' and drawing a
        patch that shows its group clearly)."""
        checks = [p for p in groups.lattice_symmetries(lattice) if not _linear_identity(p)]
        side = 2 * math.ceil(radius) + 5  # room for anti-aliasing and the turn around the motif's reach
        parts = [op[:2, :2].round(9) + 0.0 for op in reps]
        keys = [groups.as_json(p) for p in parts]
        for _attempt in range(attempts):
            drawn = self._motif(family, colour, radius, side, checks, rng)
            if drawn is None:
                continue
            spec, orientation, turn, fill, trial = drawn
            shape = np.where(probe.ink_mask(trial)[:, :, None], 0, 255).astype(np.uint8).repeat(3, axis=2)
            if not all(compare.distinct(shape, other) for other in shapes):
                continue
            patch = {"group": name, "lattice": lattice.kind, "motif": spec, "orientation": orientation, "turn": turn,
                     "sprite": side, "fill": fill, "parts": keys}
            origin = _crop(reps, lattice, seed, radius, rng)
            window = (-origin[0], -origin[1], INNER - origin[0], INNER - origin[1])
            centres, owners = groups.pattern_centres(reps, lattice, seed, window, radius + 2)
            placed = [[x, y, part] for (x, y), part in
                      zip(np.rint(centres + origin).astype(int).tolist(), owners.tolist(), strict=True)]
            # the patch is shown through a random D4 view (exact on the pixels): same-group patches do not share the
            # direction of their rows, which would make them look alike at a glance whatever their group
            view = probe.D4[int(rng.integers(8))]
            basis = [groups.D4_LINEAR[view] @ np.array(vec) for vec in lattice.basis]
            patch.update(box=patch_boxes(k)[1], view=view,
                         basis=[[round(float(v), 4) + 0.0 for v in vec] for vec in basis],
                         origin=[round(float(v), 4) for v in origin], seed=[round(float(v), 4) for v in seed],
                         copies=placed)
            sprites = patch_sprites(patch, trial)
            lows = pattern_darkest(patch, sprites)  # all the measure reads of ``pattern_canvas``
            if clearly_symmetric(symmetry_readings(lows, lattice, reps, seed, origin, radius)):
                shapes.append(shape)
                return patch, sprites
        return None

    @staticmethod
    def _motif(family, colour, radius, side, checks, rng):
        """(spec, D4 orientation, turn, fill, sprite) of a motif of ``family`` with no symmetry of its own
        (``groups.self_symmetries``) that changes on CHANGE_MIN of its ink under every turn and mirror of the
        lattice (``checks``) about its centroid, turned to a random angle and sized so that its ink reaches
        ``radius`` from the sprite's centre, or less where it would carry more ink than INK_CAP; None when the draw
        fails."""
        spec = motifs.sample(family, rng, "asym", colour=colour)
        if motifs.cells_symmetric(spec):  # refused undrawn (its drawing would be symmetric), after drawing the
            _orientation, _turn = rng.integers(8), rng.uniform(0, 90)  # orientation and turn a drawing draws
            return None
        reach = groups.unit_reach(spec)
        if reach <= 0:
            return None
        fill = round(2 * radius / (reach * side), 4)  # the motif's farthest point at ``radius`` px
        orientation, turn = probe.D4[int(rng.integers(8))], round(float(rng.uniform(0, 90)), 2)
        cap = INK_CAP[family] * radius * radius
        estimate = motifs.ink_estimate(spec, side, fill)
        expected = None if estimate is None else estimate * INK_SHARE.get(family, 1.0)
        if expected is not None and expected > cap:  # sized from its shapes, a little under the cap
            fill = round(fill * math.sqrt(AIM * cap / expected), 4)
        trial = oriented_drawing(spec, side, fill, orientation, turn)
        ink = int(np.count_nonzero(probe.ink_mask(trial)))
        if ink > cap:  # (still) too heavy: its ink grows as the square of its size
            fill = round(fill * math.sqrt(cap / ink), 4)
            trial = oriented_drawing(spec, side, fill, orientation, turn)
        if groups.ink_radius(trial) > side // 2 or not groups.usable_motif(trial, checks, CHANGE_MIN):
            return None
        return spec, orientation, turn, fill, trial

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
        return other_letters(problem.answer, count)

    def hardness(self, item):
        """The majority/odd pair's tier (0, 1, 2)."""
        return float(tier(item.metadata["majority"], item.metadata["odd"]))


TASK = WallpaperGroups()
