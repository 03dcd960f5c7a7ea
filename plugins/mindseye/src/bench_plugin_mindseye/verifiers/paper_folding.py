"""The artefact verifier of Paper Folding (PF): re-derives the answer from the scene record and checks the
pixels, with no code of the generator (``paper_folding``, ``folding``).

The record (``describe``) gives, in tile units (the panel is the unit square, y down): for each query panel
the unfolded sheet outline, the stack as drawn (each layer's outline and whether it is the flap just turned
over), the fold made in that step (a point on its line, the line's direction in degrees and which side moves:
``side * n . (x - anchor) > 0`` with ``n = (-sin, cos)``), the dashed outline of where the paper was before
the fold, the arrow, and on the final view the punches and their radius; for each option the sheet outline,
its creases and its holes.

The solver does not track layers.  Folding maps every point ``x`` of the plane: a point on a fold's moving side
is mirrored across the fold line, any other point stays.  A punch at ``p`` makes a hole at every sheet point
``x`` that the folds carry to ``p``.  Walking the folds backwards, a point ``y`` after a fold comes from ``y``
itself and from its mirror image if ``y`` lies on the staying side, and from nothing if it lies on the moving
side (that half-plane is empty once folded); the candidates that lie on the sheet are the holes.

The pixel checks find the black discs in each panel by themselves (pixels whose whole neighbourhood of about
the hole's inscribed square is black: lines and the arrow are too thin or too light) and match them one to one
with the recorded holes and punches; they compare the fill of every fold panel away from all lines with the
recorded layers (flap grey #D3D3D3, paper and background white); every hole and punch must be a whole disc of
its radius centred where recorded (``hole_failures``) and every option panel nothing but its record: paper away
from its outline, creases and holes, and an unbroken outline (``mark_failures``); and ``sketch`` draws each
description crudely for the base class's panel identity check.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely
from PIL import Image, ImageDraw
from shapely.geometry import LineString, Polygon

Point = tuple[float, float]

#: Two hole positions (tile units) closer than this are the same hole (holes are 0.09 apart or more).
MATCH = 0.01
#: A solver candidate must stay this far (tile units) from every fold line and the sheet edge: no hole straddles
#: a crease or the edge, so a candidate that close means the record is broken.
AMBIGUOUS = 1e-4
#: Area (tile units squared) by which a recorded silhouette may differ from the folded sheet (quantisation).
AREA_SLACK = 2e-3
#: A disc pixel: every channel darker than this (holes are drawn in ink 20; the arrow, 70, is not a disc).
DISC_DARK = 50
#: A detected disc must lie this close (output pixels) to a recorded hole centre.
DISC_MATCH_PX = 1.6
#: Fold panels: grey-level difference allowed between a pixel and its recorded fill, and the share of pixels
#: (away from all lines) that may exceed it.
FILL_TOLERANCE = 14
FILL_BAD_SHARE = 0.01
FLAP_GREY = 211
#: Sketch colours: ink for outlines and holes, the arrow's grey, and a neutral grey for the dashed lines (ghost
#: outline, creases) that lies within the identity check's colour match of both the dashes and the gaps.
SKETCH_INK = (20, 20, 20)
SKETCH_ARROW = (70, 70, 70)
SKETCH_NEUTRAL = (205, 205, 205)


# -- plane geometry (own code) -------------------------------------------------------------------------------
def _normal(fold: Mapping[str, Any]) -> Point:
    t = math.radians(float(fold["angle"]))
    s = float(fold["side"])
    return (-math.sin(t) * s, math.cos(t) * s)


def side_of(point: Sequence[float], fold: Mapping[str, Any]) -> float:
    """Signed distance of ``point`` from the fold line, positive on the moving side."""
    nx, ny = _normal(fold)
    ax, ay = fold["anchor"]
    return (point[0] - ax) * nx + (point[1] - ay) * ny


def mirror(point: Sequence[float], fold: Mapping[str, Any]) -> Point:
    """``point`` mirrored across the fold line."""
    nx, ny = _normal(fold)
    s = side_of(point, fold)
    return (point[0] - 2.0 * s * nx, point[1] - 2.0 * s * ny)


def forward(point: Sequence[float], folds: Sequence[Mapping[str, Any]]) -> Point:
    """Where the folds carry ``point`` (a point on a fold's moving side is mirrored, others stay)."""
    x: Point = (float(point[0]), float(point[1]))
    for fold in folds:
        if side_of(x, fold) > 0:
            x = mirror(x, fold)
    return x


def edge_distance(ring: Sequence[Sequence[float]], point: Sequence[float]) -> float:
    """Signed distance from ``point`` to the boundary of the convex polygon ``ring``: positive inside."""
    cx = sum(p[0] for p in ring) / len(ring)
    cy = sum(p[1] for p in ring) / len(ring)
    best = math.inf
    for (ax, ay), (bx, by) in zip(ring, [*ring[1:], ring[0]], strict=True):
        length = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / length, (bx - ax) / length
        if (cx - ax) * nx + (cy - ay) * ny < 0:
            nx, ny = -nx, -ny
        best = min(best, (point[0] - ax) * nx + (point[1] - ay) * ny)
    return best


def unfold(sheet: Sequence[Sequence[float]], folds: Sequence[Mapping[str, Any]], punches: Sequence[Sequence[float]]
           ) -> tuple[list[Point], list[str]]:
    """The holes on the unfolded sheet (every sheet point the folds carry onto a punch), and the problems met
    (a candidate on a fold line or on the sheet edge)."""
    holes: list[Point] = []
    problems: list[str] = []
    for p in punches:
        candidates: list[Point] = [(float(p[0]), float(p[1]))]
        for fold in reversed(folds):
            earlier: list[Point] = []
            for y in candidates:
                s = side_of(y, fold)
                if abs(s) < AMBIGUOUS:
                    problems.append(f"punch {list(p)} lies on a fold line")
                if s < 0:
                    earlier += [y, mirror(y, fold)]
            candidates = earlier
        for x in candidates:
            d = edge_distance(sheet, x)
            if abs(d) < AMBIGUOUS:
                problems.append(f"a hole of punch {list(p)} lies on the sheet edge")
            if d > 0:
                holes.append(x)
    return holes, problems


def same_holes(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], tolerance: float = MATCH) -> bool:
    """True if the two hole sets pair up one to one within ``tolerance``."""
    if len(a) != len(b):
        return False
    left = [tuple(map(float, p)) for p in b]
    for p in a:
        near = [k for k, q in enumerate(left) if math.dist(p, q) < tolerance]
        if len(near) != 1:
            return False
        left.pop(near[0])
    return not left


def _steps(scene: Mapping[str, Any]) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    steps = list(scene["query"])
    folds = [s["fold"] for s in steps[1:-1]]
    return steps, folds


def solve(scene: Mapping[str, Any]) -> list[int]:
    """Indices of the options whose holes are exactly the unfolded punches (same positions, the punch's radius,
    on the same sheet)."""
    steps, folds = _steps(scene)
    final = steps[-1]
    sheet = steps[0]["sheet"]
    truth, problems = unfold(sheet, folds, final["punches"])
    if problems or not truth:
        return []
    out = []
    for k, option in enumerate(scene["options"]):
        if (same_holes(option["holes"], truth) and abs(float(option["radius"]) - float(final["radius"])) < 1e-9
                and same_holes(option["outline"], sheet, 1e-6)):
            out.append(k)
    return out


# -- consistency of the record --------------------------------------------------------------------------------
def _reflect_ring(ring: Sequence[Point], fold: Mapping[str, Any]) -> list[Point]:
    return [mirror(p, fold) for p in ring]


def _halfplanes(fold: Mapping[str, Any], reach: float = 10.0) -> tuple[Polygon, Polygon]:
    """(staying, moving) half-planes of a fold as large polygons."""
    t = math.radians(float(fold["angle"]))
    dx, dy = math.cos(t) * reach, math.sin(t) * reach
    nx, ny = _normal(fold)
    ax, ay = fold["anchor"]
    a, b = (ax - dx, ay - dy), (ax + dx, ay + dy)
    moving = Polygon([a, b, (b[0] + nx * reach, b[1] + ny * reach), (a[0] + nx * reach, a[1] + ny * reach)])
    staying = Polygon([a, b, (b[0] - nx * reach, b[1] - ny * reach), (a[0] - nx * reach, a[1] - ny * reach)])
    return staying, moving


def folded_pieces(sheet: Sequence[Sequence[float]], folds: Sequence[Mapping[str, Any]]
                  ) -> list[tuple[Polygon, int | None]]:
    """The sheet cut along the folds: per piece its polygon after the folds and the last fold that moved it (None
    if none did)."""
    pieces: list[tuple[Polygon, int | None]] = [(Polygon(sheet), None)]
    for index, fold in enumerate(folds):
        pieces = _fold_pieces(pieces, fold, index)
    return pieces


def _fold_pieces(pieces: Sequence[tuple[Polygon, int | None]], fold: Mapping[str, Any], index: int
                 ) -> list[tuple[Polygon, int | None]]:
    """``folded_pieces`` one fold further: the pieces cut along ``fold`` (the ``index``-th), the moving parts
    mirrored across it."""
    staying, moving = _halfplanes(fold)
    out = []
    for polygon, last in pieces:
        for part in shapely.get_parts(polygon.intersection(staying)):
            if isinstance(part, Polygon) and part.area > 1e-9:
                out.append((part, last))
        for part in shapely.get_parts(polygon.intersection(moving)):
            if isinstance(part, Polygon) and part.area > 1e-9:
                out.append((Polygon(_reflect_ring(list(part.exterior.coords)[:-1], fold)), index))
    return out


def _fold_key(fold: Mapping[str, Any]) -> tuple[float, float, float, float]:
    return (float(fold["anchor"][0]), float(fold["anchor"][1]), float(fold["angle"]), float(fold["side"]))


def _union(rings: Sequence[Sequence[Sequence[float]]]) -> Any:
    """The union of the polygons (each cleaned by a zero buffer), made in one call per step (a ring shapely cannot
    make a polygon of goes the one-by-one way, which raises as it always did)."""
    if not rings:
        return Polygon()
    try:
        counts = [len(r) for r in rings]
        flat = np.array([xy for r in rings for xy in r], dtype=float).reshape(-1, 2)
        polygons = shapely.polygons(shapely.linearrings(flat, indices=np.repeat(np.arange(len(rings)), counts)))
    except Exception:  # the plain way below raises the error a malformed ring gives
        return shapely.union_all([Polygon(r).buffer(0) for r in rings])
    return shapely.union_all(shapely.buffer(polygons, 0))


def _differs(a: Any, b: Any) -> bool:
    return float(a.symmetric_difference(b).area) > AREA_SLACK


def record_failures(scene: Mapping[str, Any]) -> list[str]:
    """Where the record contradicts itself: the stacks drawn are not the sheet folded by the recorded folds, the
    grey flap is not the part the step's fold turned over, the dashed outline is not the paper before the fold,
    the final view's fold is not the last fold, an option's sheet or creases are not the sheet's."""
    failures = []
    steps, folds = _steps(scene)
    if len(steps) < 3:
        return [f"paper folding needs the sheet, the folds and a final view; the record has {len(steps)} panels"]
    sheet = steps[0]["sheet"]
    if steps[0].get("fold") is not None:
        failures.append("the unfolded sheet panel records a fold")
    if any(f is None for f in folds):
        return [*failures, "a fold panel records no fold"]
    final = steps[-1].get("fold")
    if final is None or _fold_key(final) != _fold_key(folds[-1]):
        failures.append("the final view's fold is not the last fold")
    # the sheet after the first n folds, cut once per n
    stages: dict[int, list[tuple[Polygon, int | None]]] = {}
    unions: dict[tuple[int, bool], Any] = {}

    def folded(n: int) -> list[tuple[Polygon, int | None]]:
        if n not in stages:  # the stage before, one fold further: ``folded_pieces(sheet, folds[:n])``
            stages[n] = folded_pieces(sheet, []) if n == 0 else _fold_pieces(folded(n - 1), folds[n - 1], n - 1)
        return stages[n]

    def paper(n: int, flap: bool = False) -> Any:
        """The sheet after the first n folds (``flap``: only the part the n-th fold turned over), once per n."""
        if (n, flap) not in unions:
            last = n - 1 if n else None
            unions[n, flap] = shapely.union_all([p for p, moved_last in folded(n)
                                                 if not flap or (last is not None and moved_last == last)])
        return unions[n, flap]

    for k, step in enumerate(steps):
        done = folds[:k] if k < len(steps) - 1 else folds
        name = f"query {k + 1}"
        if not same_holes(step["sheet"], sheet, 1e-9):
            failures.append(f"{name} records another sheet")
        if _differs(_union([layer["ring"] for layer in step["layers"]]), paper(len(done))):
            failures.append(f"{name}: the stack drawn is not the sheet folded by the recorded folds")
        drawn_flap = _union([layer["ring"] for layer in step["layers"] if layer["flap"]])
        if _differs(drawn_flap, paper(len(done), flap=True)):
            failures.append(f"{name}: the grey flap is not the part the fold turned over")
        if 0 < k < len(steps) - 1:
            before = paper(len(folds[: k - 1]))
            if _differs(_union(step["ghost"]), before):
                failures.append(f"{name}: the dashed outline is not where the paper was before the fold")
    crease_total = 0.0
    for index, fold in enumerate(folds):
        t = math.radians(float(fold["angle"]))
        (ax, ay), dx, dy = fold["anchor"], 10 * math.cos(t), 10 * math.sin(t)
        line = LineString([(ax - dx, ay - dy), (ax + dx, ay + dy)])
        for polygon, _ in folded(len(folds[:index])):
            crease_total += float(polygon.intersection(line).length)
    for k, option in enumerate(scene["options"]):
        if not same_holes(option["outline"], sheet, 1e-6):
            failures.append(f"option {k + 1} is drawn on another sheet")
        length = 0.0
        for a, b in option["creases"]:
            length += math.dist(a, b)
            middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            on = any(abs(side_of(forward(middle, folds[:i]), fold)) < 2e-3 for i, fold in enumerate(folds))
            if not on:
                failures.append(f"option {k + 1} has a crease where no fold line runs")
                break
        if abs(length - crease_total) > 5e-3:
            failures.append(f"option {k + 1}: creases of total length {length:.3f}, the folds make {crease_total:.3f}")
        for hole in option["holes"]:
            if edge_distance(sheet, hole) < float(option["radius"]):
                failures.append(f"option {k + 1} has a hole off the sheet or across its edge")
                break
    return failures


# -- pixels -----------------------------------------------------------------------------------------------------
def _eroded(mask: np.ndarray, k: int, axis: int) -> np.ndarray:
    """``out[i] = mask[i] & mask[i + 1] & ... & mask[i + k - 1]`` along ``axis`` (``k - 1`` shorter there): the
    windows of ``k`` that are wholly set, by doubling runs (k ANDs in about log2(k) steps)."""
    def part(array: np.ndarray, start: int, length: int) -> np.ndarray:
        return array[start:start + length] if axis == 0 else array[:, start:start + length]

    run, have = mask, 1  # run[i]: mask[i : i + have] all set
    while 2 * have <= k:
        n = run.shape[axis] - have
        run = part(run, 0, n) & part(run, have, n)
        have *= 2
    if have < k:  # top up with a run of the remaining length from the start of what is still missing
        n = mask.shape[axis] - k + 1
        run = part(run, 0, n) & part(_eroded(mask, k - have, axis), have, n)
    return run


def find_discs(tile: np.ndarray, radius_px: float) -> list[Point]:
    """Centres (output pixels, x right, y down) of the black discs of about ``radius_px`` in an RGB tile: the
    pixels whose whole inscribed square is black, grouped into blobs."""
    red, green, blue = _channels(tile)
    dark = np.maximum(np.maximum(red, green), blue) < DISC_DARK
    a = max(1, int(radius_px / math.sqrt(2.0) - 0.8))
    k = 2 * a + 1
    if dark.shape[0] < k or dark.shape[1] < k:
        return []
    # the k x k windows wholly black: rows of k dark pixels, then columns of k such rows; looked for on the box
    # of the dark pixels only (a window wholly black lies inside it)
    rows, cols = np.flatnonzero(dark.any(axis=1)), np.flatnonzero(dark.any(axis=0))
    if rows.size == 0 or rows[-1] - rows[0] + 1 < k or cols[-1] - cols[0] + 1 < k:
        return []
    y0, x0 = int(rows[0]), int(cols[0])
    whole = _eroded(_eroded(dark[y0:int(rows[-1]) + 1, x0:int(cols[-1]) + 1], k, 1), k, 0)
    ys, xs = np.nonzero(whole)
    ys, xs = ys + y0, xs + x0
    points = np.column_stack([xs + a + 0.5, ys + a + 0.5]).astype(float)
    centres: list[Point] = []
    while len(points):
        near = np.hypot(points[:, 0] - points[0, 0], points[:, 1] - points[0, 1]) <= 1.2 * radius_px
        group = points[near]
        centres.append((float(group[:, 0].mean()), float(group[:, 1].mean())))
        points = points[~near]
    return centres


def disc_failures(tile: np.ndarray, recorded: Sequence[Sequence[float]], radius: float, side: int, name: str
                  ) -> list[str]:
    """The black discs found in ``tile`` must be exactly the recorded ones (tile units), one to one."""
    found = find_discs(tile, radius * side)
    wanted = [(float(x) * side, float(y) * side) for x, y in recorded]
    if same_holes(found, wanted, DISC_MATCH_PX):
        return []
    return [f"{name}: the picture shows {len(found)} holes at {[(round(x), round(y)) for x, y in found]}, the record "
            f"{len(wanted)} at {[(round(x), round(y)) for x, y in wanted]} (pixels)"]


def _px(points: Sequence[Sequence[float]], side: int) -> list[Point]:
    return [(float(x) * side, float(y) * side) for x, y in points]


def fill_failures(tile: np.ndarray, description: Mapping[str, Any], side: int, name: str) -> list[str]:
    """Away from every line, each pixel of a query panel must have the fill its recorded layers give it (the
    topmost layer's: grey for the flap, white for paper; white off the paper)."""
    expected = Image.new("L", (side, side), 255)
    draw = ImageDraw.Draw(expected)
    for layer in description["layers"]:
        draw.polygon(_px(layer["ring"], side), fill=FLAP_GREY if layer["flap"] else 255)
    keep_out = Image.new("L", (side, side), 0)
    mask = ImageDraw.Draw(keep_out)
    width = 7
    lines = [layer["ring"] for layer in description["layers"]] + list(description.get("ghost") or [])
    for ring in lines:
        points = _px(ring, side)
        mask.line([*points, points[0]], fill=255, width=width)
    arrow = description.get("arrow")
    if arrow:
        mask.line(_px(arrow["shaft"], side), fill=255, width=width)
        mask.polygon(_px(arrow["head"], side), fill=255, outline=255, width=width)
    r = float(description.get("radius", 0.0)) * side + 3
    for x, y in _px(description.get("punches") or [], side):
        mask.ellipse((x - r, y - r, x + r, y + r), fill=255)
    valid = np.asarray(keep_out) == 0
    valid[:4], valid[-4:], valid[:, :4], valid[:, -4:] = False, False, False, False
    red, green, blue = _channels(tile)
    grey = red.astype(np.int16) + green + blue
    bad = np.abs(grey - 3 * np.asarray(expected, dtype=np.int16)) > 3 * FILL_TOLERANCE
    kept = np.count_nonzero(valid)
    share = np.count_nonzero(bad & valid) / kept if kept else 0.0  # the mean of bad over valid
    if share > FILL_BAD_SHARE:
        return [f"{name}: {share:.1%} of the paper and background away from the lines do not have the recorded fill "
                f"(flap grey / white)"]
    return []


#: Small marks (``hole_failures``, ``mark_failures``).  A hole is drawn centred on an output pixel, at most half
#: a pixel from its recorded centre in x and in y: the centre of its ink must lie within ``HOLE_SHIFT`` pixels of
#: the record (a hole moved 2 px is 1.29 px off at least) and every pixel within ``HOLE_INSET`` of that centre
#: must be at least half ink (beyond the hole the option panels must be paper, ``mark_failures``).
HOLE_SHIFT = 1.0
HOLE_INSET = 1.25
#: Ink weight of a pixel when finding a hole's centre: its darkness (255 minus the darkest channel) above
#: ``HOLE_FLOOR`` (the flap grey, 44, and the crease grey, 70, weigh nothing), out of the ink's 235.
HOLE_FLOOR = 80
HALF_INK = 117
#: Away from every recorded mark an option panel is paper: pixels farther than ``CLEAR_OF_HOLE`` pixels beyond a
#: hole's radius, ``CLEAR_OF_OUTLINE`` from the outline's centre line (beyond an edge's line, outside the sheet)
#: and ``FRAME_MARGIN`` from the panel's edge must be white (darkest channel within ``PAPER_SLACK``), or within
#: ``CREASE_NEAR`` of a crease (a band ``2 ceil(CREASE_NEAR) + 1`` pixels wide) no darker than
#: its grey (185) less ``PAPER_SLACK``; and the pixel under every point of the outline's centre line (but near a
#: crease's end, which is drawn over it) must be at least half ink.
CLEAR_OF_HOLE = 1.5
CLEAR_OF_OUTLINE = 2.0
CREASE_NEAR = 2.0
CREASE_GREY = 185
PAPER_SLACK = 40
FRAME_MARGIN = 4


def darkest_channel(tile: np.ndarray) -> np.ndarray:
    """The darkest channel of every pixel of an RGB tile (int16): 255 on paper, low on ink of any colour."""
    red, green, blue = _channels(tile)
    return np.minimum(np.minimum(red, green), blue).astype(np.int16)


def _channels(tile: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three channel planes of an RGB tile (``tile[..., c]``), as column slices of its rows when the tile is
    contiguous (numpy works through those faster)."""
    if tile.flags.c_contiguous and tile.ndim == 3 and tile.shape[2] == 3:
        rows = tile.reshape(tile.shape[0], -1)
        return rows[:, 0::3], rows[:, 1::3], rows[:, 2::3]
    return tile[..., 0], tile[..., 1], tile[..., 2]


def _inside_depth(ring: Sequence[Point], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """For the convex polygon ``ring`` (pixels): the distance of every point to its boundary inside it, and
    outside it the largest distance beyond one of its edge lines (negative; never more than the true
    distance)."""
    cx = sum(p[0] for p in ring) / len(ring)
    cy = sum(p[1] for p in ring) / len(ring)
    depth = np.full(np.broadcast(xs, ys).shape, np.inf, dtype=np.float32)
    for (ax, ay), (bx, by) in zip(ring, [*ring[1:], ring[0]], strict=True):
        length = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / length, (bx - ax) / length
        if (cx - ax) * nx + (cy - ay) * ny < 0:
            nx, ny = -nx, -ny
        depth = np.minimum(depth, (xs - ax) * nx + (ys - ay) * ny)
    return depth


def hole_failures(darkest: np.ndarray, holes: Sequence[Sequence[float]], radius: float, side: int, name: str
                  ) -> list[str]:
    """Every recorded hole (tile units) is drawn at its place, whole, in a tile whose ``darkest_channel`` is
    ``darkest``: the centre of the ink around it lies within ``HOLE_SHIFT`` pixels of the record, and about that
    centre the disc is whole to ``HOLE_INSET`` inside its radius (no bite, no gap)."""
    r = radius * side
    reach = math.ceil(r + 3)
    failures = []
    for px, py in _px(holes, side):
        x0, y0 = max(int(px) - reach, 0), max(int(py) - reach, 0)
        # the ink weight of the pixels round the hole only (each pixel's weight depends on that pixel alone)
        darkness = (255 - darkest[y0:int(py) + reach + 1, x0:int(px) + reach + 1]).astype(np.float32)
        window = np.clip((darkness - HOLE_FLOOR) / (235 - HOLE_FLOOR), 0.0, 1.0)
        # pixel centres as a column (y) and a row (x), broadcast to the window by every expression below
        ys = (np.arange(y0, y0 + window.shape[0]) + 0.5)[:, None]
        xs = (np.arange(x0, x0 + window.shape[1]) + 0.5)[None, :]
        around = window * ((xs - px) ** 2 + (ys - py) ** 2 <= (r + 2) ** 2)
        ink = float(around.sum())
        where = f"{name}: the hole at ({px:.0f}, {py:.0f}) px"
        if ink < 1.0:
            failures.append(f"{where} is missing")
            continue
        cx, cy = float((around * xs).sum()) / ink, float((around * ys).sum()) / ink
        if math.hypot(cx - px, cy - py) > HOLE_SHIFT:
            failures.append(f"{where} is drawn at ({cx:.1f}, {cy:.1f})")
            continue
        rho = np.hypot(xs - cx, ys - cy)
        light = int(np.count_nonzero((rho <= r - HOLE_INSET) & (darkness < HALF_INK)))
        if light:
            failures.append(f"{where} is not a whole disc ({light} pixels inside it light)")
    return failures


@functools.lru_cache(maxsize=16)
def _sheet_masks(outline: tuple[tuple[float, float], ...], creases: tuple[tuple[tuple[float, float], ...], ...],
                 side: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For an option's sheet (tile units): the pixels near a crease, the pixels clear of the outline and of the
    panel's edge, the darkest level allowed at each pixel clear of every mark (paper, or a crease's grey near a
    crease), and the rows and columns of the pixels under the outline's centre line that must be ink (all but
    near a crease's end) (``mark_failures``; the options of an item share their sheet, so it is worked out
    once)."""
    masks = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(masks)
    for a, b in creases:
        draw.line(_px([a, b], side), fill=255, width=2 * math.ceil(CREASE_NEAR) + 1)
    near_crease = np.asarray(masks) > 0
    xs = (np.arange(side, dtype=np.float32) + np.float32(0.5))[None, :]
    ys = (np.arange(side, dtype=np.float32) + np.float32(0.5))[:, None]
    clear = np.abs(_inside_depth(_px(outline, side), xs, ys)) > CLEAR_OF_OUTLINE
    clear[:FRAME_MARGIN], clear[-FRAME_MARGIN:] = False, False
    clear[:, :FRAME_MARGIN], clear[:, -FRAME_MARGIN:] = False, False
    floor = np.where(near_crease, CREASE_GREY - PAPER_SLACK, 255 - PAPER_SLACK)
    ring = _px(outline, side)
    edges = list(zip(ring, [*ring[1:], ring[0]], strict=True))
    points = np.concatenate([np.linspace(a, b, max(2, math.ceil(math.dist(a, b) / 0.5) + 1)) for a, b in edges])
    ends = np.asarray([p for c in creases for p in _px(c, side)], dtype=float).reshape(-1, 2)
    if len(ends):
        gap = np.hypot(points[:, None, 0] - ends[None, :, 0], points[:, None, 1] - ends[None, :, 1]).min(axis=1)
        points = points[gap > CREASE_NEAR + 1]
    cols = np.clip(points[:, 0].astype(int), 0, side - 1)
    rows = np.clip(points[:, 1].astype(int), 0, side - 1)
    for array in (near_crease, clear, floor, rows, cols):
        array.flags.writeable = False
    return near_crease, clear, floor, rows, cols


def mark_failures(darkest: np.ndarray, option: Mapping[str, Any], side: int, name: str) -> list[str]:
    """An option panel (its ``darkest_channel``) shows nothing but its record: paper away from the outline, creases
    and holes (so no dot, line or extra hole), and the sheet's outline without a gap."""
    r = float(option["radius"]) * side
    _, clear, floor, rows, cols = _sheet_masks(tuple(map(tuple, option["outline"])),
                                               tuple(tuple(map(tuple, c)) for c in option["creases"]), side)
    clear = clear.copy()
    # pixel centres as a row (x) and a column (y): every expression below broadcasts them to the grid
    xs = (np.arange(side, dtype=np.float32) + np.float32(0.5))[None, :]
    ys = (np.arange(side, dtype=np.float32) + np.float32(0.5))[:, None]
    reach = math.ceil(r + CLEAR_OF_HOLE)
    for hx, hy in _px(option["holes"], side):
        x0, y0 = max(int(hx) - reach, 0), max(int(hy) - reach, 0)
        wx, wy = xs[:, x0:int(hx) + reach + 1], ys[y0:int(hy) + reach + 1]
        clear[y0:y0 + wy.shape[0], x0:x0 + wx.shape[1]] &= (wx - hx) ** 2 + (wy - hy) ** 2 > (r + CLEAR_OF_HOLE) ** 2
    failures = []
    marks = int(np.count_nonzero(clear & (darkest < floor)))
    if marks:
        failures.append(f"{name}: {marks} pixels away from the recorded outline, creases and holes are dark")
    gaps = int(np.count_nonzero(255 - darkest[rows, cols] < HALF_INK))
    if gaps:
        failures.append(f"{name}: the sheet's outline is broken ({gaps} points of its centre line not inked)")
    return failures


def _cut(image: Any, box: Sequence[int]) -> np.ndarray:
    """The pixels of ``image`` (an RGB array, or an RGB picture) in ``box``, as a slice of the whole array gives
    them: a picture's box on the canvas is cut before its pixels are converted (only the panel's), one off the
    canvas from the whole array."""
    if isinstance(image, np.ndarray):
        return image[box[1]:box[3], box[0]:box[2]]
    width, height = image.size
    if 0 <= box[0] <= box[2] <= width and 0 <= box[1] <= box[3] <= height:
        return np.asarray(image.crop(tuple(box)))
    return np.asarray(image)[box[1]:box[3], box[0]:box[2]]


def pixel_failures(scene: Mapping[str, Any], image: Any) -> list[str]:
    """The picture's holes and punches are the recorded ones, each whole at its place and size, the fold panels
    are filled as recorded, and the option panels show no mark beyond their record (``image``: an RGB array, or
    an RGB picture whose panels are cut one at a time)."""
    side = int(scene["tile"])
    failures = []
    letters = [chr(ord("A") + k) for k in range(len(scene["options"]))]
    for k, (box, step) in enumerate(zip(scene["query_boxes"], scene["query"], strict=True)):
        tile = _cut(image, box)
        failures += disc_failures(tile, step.get("punches") or [], float(step["radius"]), side, f"query {k + 1}")
        failures += hole_failures(darkest_channel(tile), step.get("punches") or [], float(step["radius"]), side,
                                  f"query {k + 1}")
        failures += fill_failures(tile, step, side, f"query {k + 1}")
    for letter, box, option in zip(letters, scene["option_boxes"], scene["options"], strict=True):
        tile = _cut(image, box)
        failures += disc_failures(tile, option["holes"], float(option["radius"]), side, f"option {letter}")
        darkest = darkest_channel(tile)
        failures += hole_failures(darkest, option["holes"], float(option["radius"]), side, f"option {letter}")
        failures += mark_failures(darkest, option, side, f"option {letter}")
    return failures


# -- the crude sketch -------------------------------------------------------------------------------------------
def sketch(description: Mapping[str, Any], side: int) -> np.ndarray:
    """A crude drawing of one panel at ``side`` pixels: filled layers with 2-pixel outlines, the arrow, black
    holes; dashed lines (ghost outline, creases) as a solid neutral grey."""
    image = Image.new("RGB", (side, side), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    width = max(2, round(0.011 * side))
    radius = float(description.get("radius", 0.0)) * side
    if description["kind"] == "sheet":
        ring = _px(description["outline"], side)
        draw.polygon(ring, fill=(255, 255, 255), outline=SKETCH_INK, width=width)
        for a, b in description["creases"]:
            draw.line(_px([a, b], side), fill=SKETCH_NEUTRAL, width=max(1, width // 2))
        holes = description["holes"]
    else:
        for ring in description.get("ghost") or []:
            points = _px(ring, side)
            draw.line([*points, points[0]], fill=SKETCH_NEUTRAL, width=max(1, width // 2))
        for layer in description["layers"]:
            grey = FLAP_GREY if layer["flap"] else 255
            draw.polygon(_px(layer["ring"], side), fill=(grey, grey, grey), outline=SKETCH_INK, width=width)
        arrow = description.get("arrow")
        if arrow:
            draw.line(_px(arrow["shaft"], side), fill=SKETCH_ARROW, width=width)
            draw.polygon(_px(arrow["head"], side), fill=SKETCH_ARROW)
        holes = description.get("punches") or []
    for x, y in _px(holes, side):
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=SKETCH_INK)
    return np.asarray(image)
