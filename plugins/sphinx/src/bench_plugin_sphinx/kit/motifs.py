"""The SPHINX motif library (paper A.2, spec 2.1): parameterised renderers of small pictures.

A motif is a JSON spec ``{"family", "mode", "colour", "params"}`` sampled by ``sample(family, rng, mode)``
from the item's own generator, and drawn by ``render(spec, size)`` as an RGB tile on white (drawn at 3x and
reduced with a box filter, so the bytes are a function of the spec).  ``mode="asym"`` asks for a variant
with no mirror or rotation symmetry (a perturbed tip, a notch, unequal parts ...), ``mode="sym"`` for the
plain symmetric one; ``kit.probe`` checks the rendered result, since a random draw can still come out
symmetric.  Every float in a spec is rounded to 4 decimals before drawing.

The shape of each family is built in unit coordinates (x right, y down, the motif within the unit disc) as a
list of primitives: filled polygons (with holes), stroked polylines, discs and text.  ``FAMILIES`` lists the
24 families implemented here in the paper's order; the 25th, icons, needs an asset set of our own drawing
with a train/test split and is not implemented yet.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import shapely
from PIL import Image, ImageDraw, ImageFont
from shapely import affinity
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.ops import unary_union

from bench_plugin_sphinx.kit.palette import PALETTE, rgb

SUPERSAMPLE = 3
MODES = ("asym", "sym")
_BLACK, _WHITE = (0, 0, 0), (255, 255, 255)

Primitive = tuple  # ("poly", geometry, colour) | ("line", points, width, colour) | ("text", char, turns, colour)


def _r(value: float) -> float:
    return round(float(value), 4)


def _rot(points: list[tuple[float, float]], degrees: float) -> list[tuple[float, float]]:
    """``points`` turned by ``degrees`` counterclockwise on screen (y runs down)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return [(x * c + y * s, -x * s + y * c) for x, y in points]


def _turn(geometry, degrees: float):
    # shapely's rotate is counterclockwise in y-up axes, which is clockwise on screen: negate
    return affinity.rotate(geometry, -degrees, origin=(0, 0))


def _regular(n: int, radius: float, phase: float = -90.0, cx: float = 0.0, cy: float = 0.0) -> list:
    return [(cx + radius * math.cos(math.radians(phase + 360 * k / n)),
             cy + radius * math.sin(math.radians(phase + 360 * k / n))) for k in range(n)]


def _away_from_axes(rng: np.random.Generator) -> float:
    """An angle at least 12 degrees from every multiple of 45 (so no D4 axis lines up with the motif's own)."""
    return _r(45 * int(rng.integers(8)) + float(rng.uniform(12, 33)))


# -- the families: each is (sample(rng, mode) -> params, shapes(params, colour) -> primitives) ----------------


def _arc_sample(rng, mode):
    sweep = float(rng.uniform(150, 290))
    p = {"start": float(rng.uniform(0, 360)), "sweep": sweep, "width": float(rng.uniform(0.09, 0.14))}
    if mode == "asym":
        p["growth"] = float(rng.choice([-1, 1]) * rng.uniform(0.35, 0.6))
    else:
        p.update(growth=0.0, start=90 + 90 * int(rng.integers(4)) - sweep / 2)
    return p


def _arc_shapes(p, c):
    n = 48
    pts = []
    for k in range(n + 1):
        t = k / n
        r = 0.72 * (1 + p["growth"] * (t - 0.5))
        a = math.radians(p["start"] + p["sweep"] * t)
        pts.append((r * math.cos(a), -r * math.sin(a)))
    shapes: list[Primitive] = [("line", pts, p["width"], c)]
    if p["growth"]:
        shapes.append(("poly", Point(pts[-1]).buffer(p["width"] * 1.3), c))
    return shapes


def _arrow_sample(rng, mode):
    p = {"angle": float(rng.uniform(0, 360)), "width": float(rng.uniform(0.1, 0.15)),
         "head": float(rng.uniform(0.3, 0.4))}
    if mode == "asym":
        p.update(angle=_away_from_axes(rng), left=float(rng.uniform(0.55, 0.7)), right=float(rng.uniform(0.2, 0.3)),
                 fin=1.0)
    else:
        p.update(angle=90.0 * int(rng.integers(4)), left=p["head"], right=p["head"], fin=0.0)
    return p


def _arrow_shapes(p, c):
    w, h = p["width"], p["head"]
    shaft = box(-0.85, -w / 2, 0.85 - h, w / 2)
    head = Polygon([(0.9, 0), (0.9 - h - 0.1, -p["left"]), (0.9 - h - 0.1, p["right"])])
    parts = [shaft, head]
    if p["fin"]:
        parts.append(Polygon([(-0.85, -w / 2), (-0.55, -w / 2), (-0.85, -0.42)]))
    return [("poly", _turn(unary_union(parts), p["angle"]), c)]


def _bars_sample(rng, mode):
    n = int(rng.integers(3, 8))
    heights = [float(v) for v in rng.uniform(0.25, 1.0, n)]
    if mode == "sym":
        heights = [heights[min(k, n - 1 - k)] for k in range(n)]
    elif all(abs(heights[k] - heights[n - 1 - k]) < 0.15 for k in range(n)):
        heights[0] = 1.0 if heights[-1] < 0.6 else 0.25
    return {"heights": heights}


def _bars_shapes(p, c):
    n = len(p["heights"])
    step = 1.7 / n
    return [("poly", box(-0.85 + k * step + 0.12 * step, 0.8 - 1.6 * hgt, -0.85 + (k + 1) * step - 0.12 * step, 0.8), c)
            for k, hgt in enumerate(p["heights"])]


def _bitgrid_sample(rng, mode):
    n = int(rng.integers(3, 6))
    bits = (rng.random((n, n)) < float(rng.uniform(0.4, 0.6))).astype(int)
    if mode == "sym":
        bits = np.maximum(bits, bits[:, ::-1])
    bits[int(rng.integers(n)), int(rng.integers(n))] = 1
    return {"bits": bits.tolist()}


def _bitgrid_shapes(p, c):
    n = len(p["bits"])
    cell = 1.6 / n
    frame = box(-0.84, -0.84, 0.84, 0.84).exterior.coords
    shapes: list[Primitive] = [("line", list(frame), 0.04, _BLACK)]
    for i, row in enumerate(p["bits"]):
        for j, on in enumerate(row):
            if on:
                shapes.append(("poly", box(-0.8 + j * cell + 0.03, -0.8 + i * cell + 0.03,
                                           -0.8 + (j + 1) * cell - 0.03, -0.8 + (i + 1) * cell - 0.03), c))
    return shapes


def _clock_sample(rng, mode):
    p = {"ticks": int(rng.choice([4, 8, 12])), "hour": 0.0, "minute": 0.0}
    if mode == "asym":
        hour = float(rng.uniform(20, 160))
        p.update(hour=_r(hour), minute=_r(hour + rng.choice([-1, 1]) * rng.uniform(70, 150)))
    return p


def _clock_shapes(p, c):
    shapes: list[Primitive] = [("line", [*_regular(64, 0.82), _regular(64, 0.82)[0]], 0.07, _BLACK)]
    for k in range(p["ticks"]):
        a = math.radians(360 * k / p["ticks"])
        shapes.append(("line", [(0.62 * math.sin(a), -0.62 * math.cos(a)), (0.74 * math.sin(a), -0.74 * math.cos(a))],
                       0.05, _BLACK))
    widths = (0.17, 0.11) if p["hour"] != p["minute"] else (0.11, 0.07)
    for angle, length, width in ((p["hour"], 0.45, widths[0]), (p["minute"], 0.66, widths[1])):
        a = math.radians(angle)
        shapes.append(("line", [(0, 0), (length * math.sin(a), -length * math.cos(a))], width, c))
    shapes.append(("poly", Point(0, 0).buffer(0.08), c))
    if p["hour"] != p["minute"]:  # asym: the hour hand ends in a disc
        a = math.radians(p["hour"])
        shapes.append(("poly", Point(0.45 * math.sin(a), -0.45 * math.cos(a)).buffer(0.14, 32), c))
    return shapes


def _concentric_sample(rng, mode):
    layers, sides = int(rng.integers(3, 6)), int(rng.integers(3, 8))
    if mode == "asym":
        turns = [float(rng.uniform(0, 360 / sides)) for _ in range(layers)]
        return {"layers": layers, "sides": sides, "turns": turns, "pull": float(rng.uniform(0.55, 0.7))}
    return {"layers": layers, "sides": sides, "turns": [0.0] * layers, "pull": 1.0}


def _concentric_shapes(p, c):
    shapes: list[Primitive] = []
    for k in range(p["layers"]):
        radius = 0.85 * (1 - k / (p["layers"] + 0.6))
        pts = _regular(p["sides"], radius, -90 + p["turns"][k])
        if k == 0:
            pts[1] = (pts[1][0] * p["pull"], pts[1][1] * p["pull"])
        shapes.append(("line", [*pts, pts[0]], 0.06, c if k % 2 == 0 else _BLACK))
    return shapes


def _crescent_sample(rng, mode):
    p = {"offset": float(rng.uniform(0.3, 0.5)), "inner": float(rng.uniform(0.62, 0.78))}
    if mode == "asym":
        p.update(angle=_away_from_axes(rng), skew=float(rng.choice([-1, 1]) * rng.uniform(0.28, 0.4)))
    else:
        p.update(angle=90.0 * int(rng.integers(4)), skew=0.0)
    return p


def _crescent_shapes(p, c):
    body = Point(0, 0).buffer(0.85, 64).difference(Point(p["offset"], p["skew"]).buffer(0.85 * p["inner"], 64))
    return [("poly", _turn(body, p["angle"]), c)]


def _dot_sample(rng, mode):
    p = {"square": bool(rng.integers(2)) and mode == "sym", "radius": float(rng.uniform(0.6, 0.85))}
    if mode == "asym":
        p.update(hole=float(rng.uniform(0.26, 0.34)), hole_angle=_away_from_axes(rng))
    else:
        p.update(hole=0.0, hole_angle=0.0)
    return p


def _dot_shapes(p, c):
    r = p["radius"]
    shape = box(-r, -r, r, r) if p["square"] else Point(0, 0).buffer(r, 64)
    if p["hole"]:
        a = math.radians(p["hole_angle"])
        shape = shape.difference(Point(0.5 * r * math.cos(a), -0.5 * r * math.sin(a)).buffer(p["hole"], 32))
        shape = shape.difference(_turn(box(r * 0.55, -0.11, r * 1.1, 0.11), p["hole_angle"] + 110))
    return [("poly", shape, c)]


def _fractal_sample(rng, mode):
    if mode == "sym":
        return {"kind": "sierpinski", "depth": int(rng.integers(2, 5)), "angle": 0.0}
    return {"kind": "tree", "depth": int(rng.integers(4, 6)), "left": float(rng.uniform(18, 32)),
            "right": float(rng.uniform(40, 60)), "shrink": float(rng.uniform(0.62, 0.72)),
            "angle": float(rng.choice([0, 90, 180, 270]))}


def _fractal_shapes(p, c):
    if p["kind"] == "sierpinski":
        tris = [_regular(3, 0.95, -90, 0, 0.15)]
        for _ in range(p["depth"]):
            nxt = []
            for a, b, d in tris:
                ab, bd, da = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), ((b[0] + d[0]) / 2, (b[1] + d[1]) / 2), \
                    ((d[0] + a[0]) / 2, (d[1] + a[1]) / 2)
                nxt += [(a, ab, da), (ab, b, bd), (da, bd, d)]
            tris = nxt
        return [("poly", Polygon(t), c) for t in tris]
    segments: list[Primitive] = []

    def grow(x, y, heading, length, depth):
        a = math.radians(heading)
        x2, y2 = x + length * math.cos(a), y - length * math.sin(a)
        segments.append(("line", _rot([(x, y), (x2, y2)], p["angle"]), 0.03 + 0.02 * depth, c))
        if depth > 0:
            grow(x2, y2, heading + p["left"], length * p["shrink"], depth - 1)
            grow(x2, y2, heading - p["right"], length * p["shrink"] * 0.85, depth - 1)

    grow(0.0, 0.85, 90.0, 0.5, p["depth"])
    return segments


def _gear_sample(rng, mode):
    p = {"teeth": int(rng.integers(7, 13)), "tip": float(rng.uniform(0.35, 0.55)), "missing": -1, "angle": 0.0,
         "key": 0.0}
    if mode == "asym":
        p.update(missing=int(rng.integers(p["teeth"])), angle=_away_from_axes(rng),
                 key=float(rng.choice([-1, 1]) * rng.uniform(50, 130)))
    return p


def _gear_shapes(p, c):
    n = p["teeth"]
    body = Point(0, 0).buffer(0.66, 64)
    teeth = []
    for k in range(n):
        if k == p["missing"]:
            continue
        half = 180 / n * p["tip"]
        teeth.append(Polygon(_rot([(0.6, -0.12), (0.88, -0.88 * math.tan(math.radians(half))),
                                   (0.88, 0.88 * math.tan(math.radians(half))), (0.6, 0.12)], 360 * k / n)))
    gear = unary_union([body, *teeth]).difference(Point(0, 0).buffer(0.22, 48))
    if p["key"]:
        gear = gear.difference(_turn(box(0.15, -0.07, 0.34, 0.07), p["key"]))
        gear = gear.difference(_turn(Point(0.45, 0).buffer(0.1, 24), p["key"] + 100))
    return [("poly", _turn(gear, p["angle"]), c)]


ASYM_GLYPHS = "FGJLPQR2457"
SYM_GLYPHS = "AHMOTUVWXY8"


def _glyph_sample(rng, mode):
    chars = ASYM_GLYPHS if mode == "asym" else SYM_GLYPHS
    return {"char": str(chars[int(rng.integers(len(chars)))]), "turns": int(rng.integers(4)) if mode == "asym" else 0}


def _glyph_shapes(p, c):
    return [("text", p["char"], p["turns"], c)]


def _keyhole_sample(rng, mode):
    p = {"head": float(rng.uniform(0.3, 0.38)), "top": float(rng.uniform(0.1, 0.14)),
         "bottom": float(rng.uniform(0.2, 0.3))}
    if mode == "asym":
        p.update(bend=float(rng.choice([-1, 1]) * rng.uniform(0.22, 0.32)), angle=_away_from_axes(rng))
    else:
        p.update(bend=0.0, angle=90.0 * int(rng.integers(4)))
    return p


def _keyhole_shapes(p, c):
    head = Point(0, -0.35).buffer(p["head"], 48)
    slot = Polygon([(-p["top"], -0.35), (p["top"], -0.35), (p["bottom"] + p["bend"], 0.85),
                    (-p["bottom"] + p["bend"], 0.85)])
    return [("poly", _turn(unary_union([head, slot]), p["angle"]), c)]


def _ladder_sample(rng, mode):
    rungs = int(rng.integers(3, 7))
    if mode == "asym":
        cuts = sorted(float(v) for v in rng.uniform(-0.7, 0.7, rungs))
        return {"rungs": cuts, "gap": float(rng.uniform(0.3, 0.4)), "extra": float(rng.uniform(0.25, 0.4)),
                "turns": int(rng.integers(4))}
    return {"rungs": [float(v) for v in np.linspace(-0.65, 0.65, rungs)], "gap": float(rng.uniform(0.3, 0.4)),
            "extra": 0.0, "turns": int(rng.integers(2))}


def _ladder_shapes(p, c):
    g = p["gap"]
    pts = [[(-g, -0.75 - p["extra"]), (-g, 0.75)], [(g, -0.75), (g, 0.75)]]
    pts += [[(-g, y), (g, y)] for y in p["rungs"]]
    return [("line", _rot(seg, 90 * p["turns"]), 0.08, c) for seg in pts]


PICTOGRAMS = ("person", "house", "boat", "candle", "kite")


def _pictogram_sample(rng, mode):
    kind = PICTOGRAMS[int(rng.integers(len(PICTOGRAMS)))]
    side = float(rng.choice([-1, 1])) if mode == "asym" else 0.0
    return {"kind": kind, "side": side, "pose": float(rng.uniform(0.6, 1.0)),
            "turns": int(rng.integers(4)) if side else 0}


def _pictogram_shapes(p, c):
    s, kind = p["side"], p["kind"]
    parts: list[Primitive] = []
    if kind == "person":
        parts.append(("poly", Point(0, -0.62).buffer(0.17, 32), c))
        parts.append(("line", [(0, -0.42), (0, 0.25)], 0.16, c))
        left = (-0.5, -0.55) if s < 0 else (-0.45, 0.0)
        right = (0.5, -0.55) if s > 0 else (0.45, 0.0)
        parts += [("line", [(0, -0.3), left], 0.11, c), ("line", [(0, -0.3), right], 0.11, c)]
        parts += [("line", [(0, 0.2), (-0.3, 0.85)], 0.12, c),
                  ("line", [(0, 0.2), (0.3 + 0.15 * abs(s), 0.85)], 0.12, c)]
    elif kind == "house":
        house = unary_union([box(-0.6, -0.1, 0.6, 0.8), Polygon([(-0.8, -0.1), (0, -0.8), (0.8, -0.1)])])
        house = house.difference(box(-0.12 + 0.3 * s, 0.35, 0.12 + 0.3 * s, 0.8))
        if s:
            house = house.difference(box(-0.4 * s - 0.12, 0.05, -0.4 * s + 0.12, 0.25))
        parts.append(("poly", house, c))
    elif kind == "boat":
        parts.append(("poly", Polygon([(-0.85, 0.4), (0.85, 0.4), (0.55, 0.75), (-0.55, 0.75)]), c))
        parts.append(("line", [(0, 0.4), (0, -0.85)], 0.07, _BLACK))
        if s:
            parts.append(("poly", Polygon([(0.06 * s, -0.8), (0.06 * s, 0.3), (0.7 * s * p["pose"], 0.3)]), c))
        else:
            parts += [("poly", Polygon([(0.06, -0.8), (0.06, 0.3), (0.6, 0.3)]), c),
                      ("poly", Polygon([(-0.06, -0.8), (-0.06, 0.3), (-0.6, 0.3)]), c)]
    elif kind == "candle":
        parts.append(("poly", box(-0.22, -0.2, 0.22, 0.85), c))
        parts.append(("line", [(0, -0.2), (0, -0.32)], 0.04, _BLACK))
        flame = affinity.scale(Point(0, 0).buffer(0.16, 32), 1.0, 1.9)
        flame = affinity.translate(affinity.rotate(flame, 25 * s, origin=(0, 0.25)), 0.12 * s, -0.6)
        parts.append(("poly", flame, c))
    else:  # kite
        parts.append(("poly", Polygon([(0, -0.85), (0.42, -0.3), (0, 0.3), (-0.42, -0.3)]), c))
        tail = [(0, 0.3), (0.15 * s + 0.05, 0.5), (0.3 * s - 0.05, 0.68), (0.45 * s + 0.05, 0.85)]
        parts.append(("line", tail, 0.04, _BLACK))
        for x, y in tail[1:]:
            parts.append(("poly", Polygon([(x - 0.09, y - 0.05), (x + 0.09, y + 0.05), (x + 0.09, y - 0.05),
                                           (x - 0.09, y + 0.05)]), c))
    if p["turns"]:
        parts = [_turn_primitive(prim, 90 * p["turns"]) for prim in parts]
    return parts


def _pinwheel_sample(rng, mode):
    blades = int(rng.integers(3, 7))
    p = {"blades": blades, "aperture": float(rng.uniform(25, 45)), "inner": float(rng.uniform(0.1, 0.22)),
         "chirality": float(rng.choice([-1, 1])), "angle": float(rng.uniform(0, 360)), "big": -1}
    if mode == "asym":
        p["big"] = int(rng.integers(blades))
    return p


def _pinwheel_shapes(p, c):
    parts = []
    for k in range(p["blades"]):
        base = 360 * k / p["blades"]
        reach = 0.92 if k == p["big"] else 0.62
        a0, a1 = math.radians(base), math.radians(base + p["chirality"] * p["aperture"])
        parts.append(Polygon([(p["inner"] * math.cos(a0), -p["inner"] * math.sin(a0)),
                              (reach * math.cos(a0), -reach * math.sin(a0)),
                              (reach * math.cos(a1), -reach * math.sin(a1))]))
    return [("poly", _turn(unary_union(parts), p["angle"]), c)]


def _polygon_sample(rng, mode):
    n = int(rng.integers(3, 9))
    if mode == "sym":
        return {"radii": [0.85] * n, "angles": [360 * k / n for k in range(n)], "phase": -90.0}
    return {"radii": [float(v) for v in rng.uniform(0.45, 0.9, n)],
            "angles": sorted(float((360 * k / n + rng.uniform(-0.3, 0.3) * 360 / n) % 360) for k in range(n)),
            "phase": float(rng.uniform(0, 360))}


def _polygon_shapes(p, c):
    pts = [(r * math.cos(math.radians(a + p["phase"])), r * math.sin(math.radians(a + p["phase"])))
           for r, a in zip(p["radii"], p["angles"], strict=True)]
    return [("poly", Polygon(pts), c)]


def _grow(rng, start, neighbours, count):
    """A connected set of ``count`` lattice cells grown from ``start`` by random frontier choices."""
    cells = [start]
    while len(cells) < count:
        frontier = sorted({n for cell in cells for n in neighbours(cell)} - set(cells))
        cells.append(frontier[int(rng.integers(len(frontier)))])
    return [list(cell) for cell in cells]


def _polyomino_sample(rng, mode):
    cells = _grow(rng, (0, 0), lambda c: [(c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)],
                  int(rng.integers(4, 9)))
    return {"cells": cells}


def _polyomino_shapes(p, c):
    return _cells_shapes([box(i, j, i + 1, j + 1) for i, j in p["cells"]], c)


def _polyhex_sample(rng, mode):
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    cells = _grow(rng, (0, 0), lambda c: [(c[0] + dq, c[1] + dr) for dq, dr in steps], int(rng.integers(4, 8)))
    return {"cells": cells}


def _polyhex_shapes(p, c):
    hexes = []
    for q, r in p["cells"]:
        x, y = 1.5 * q, math.sqrt(3) * (r + q / 2)
        hexes.append(Polygon(_regular(6, 1.0, 0, x, y)))
    return _cells_shapes(hexes, c)


def _polyiamond_sample(rng, mode):
    def neighbours(cell):
        i, j = cell
        up = (i + j) % 2 == 0
        return [(i - 1, j), (i + 1, j), (i, j + 1) if up else (i, j - 1)]

    return {"cells": _grow(rng, (0, 0), neighbours, int(rng.integers(4, 9)))}


def _polyiamond_shapes(p, c):
    h = math.sqrt(3) / 2
    tris = []
    for i, j in p["cells"]:
        x = i / 2
        if (i + j) % 2 == 0:  # pointing up: apex at the top of row j
            tris.append(Polygon([(x, (j + 1) * h), (x + 1, (j + 1) * h), (x + 0.5, j * h)]))
        else:
            tris.append(Polygon([(x, j * h), (x + 1, j * h), (x + 0.5, (j + 1) * h)]))
    return _cells_shapes(tris, c)


def _cell_centres(spec: dict[str, Any]) -> tuple[np.ndarray, int] | None:
    """(the centre of every cell of a polyomino, polyhex or polyiamond, in the unit coordinates of its
    ``_shapes`` before they are scaled, n), n the largest turn order of its cells' lattice (4: square, 6:
    hexagonal and triangular); None for any other family."""
    family, cells = spec["family"], spec["params"].get("cells")
    if family == "polyomino":
        return np.array([(i + 0.5, j + 0.5) for i, j in cells], float), 4
    if family == "polyhex":
        return np.array([(1.5 * q, math.sqrt(3) * (r + q / 2)) for q, r in cells], float), 6
    if family == "polyiamond":  # a triangle's centre lies a third of its height from its base
        h = math.sqrt(3) / 2
        return np.array([(i / 2 + 0.5, (j + (2 / 3 if (i + j) % 2 == 0 else 1 / 3)) * h) for i, j in cells], float), 6
    return None


@functools.cache
def _point_group(n: int) -> tuple[np.ndarray, ...]:
    """The turns and mirrors (2 x 2) of the regular n-gon other than the identity: the isometries of a square
    (n = 4) or triangular and hexagonal (n = 6) cell lattice that fix a point (read-only)."""
    maps = []
    for k in range(1, n):
        a = 2 * math.pi * k / n
        maps.append(np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]))
    for k in range(n):
        a = 2 * math.pi * k / n  # a mirror across the line at half this angle
        maps.append(np.array([[math.cos(a), math.sin(a)], [math.sin(a), -math.cos(a)]]))
    for m in maps:
        m.flags.writeable = False
    return tuple(maps)


def cells_symmetric(spec: dict[str, Any]) -> bool | None:
    """Whether a motif made of lattice cells is exactly symmetric: a polyomino, polyhex or polyiamond whose cells
    some turn or mirror of their lattice carries onto themselves (about their centre), or a bitgrid whose bits a
    turn or mirror of its square grid does (the grid's frame is square).  Such a motif draws symmetric whatever
    its size, orientation and turn.  None for the other families (nothing said)."""
    if spec["family"] == "bitgrid":
        bits = np.array(spec["params"]["bits"])
        return any(np.array_equal(bits, other) for other in (
            np.rot90(bits, 1), np.rot90(bits, 2), np.rot90(bits, 3), bits[::-1], bits[:, ::-1], bits.T,
            np.rot90(bits, 2).T))
    found = _cell_centres(spec)
    if found is None:
        return None
    points, n = found
    moved = points - points.mean(axis=0)
    for m in _point_group(n):  # the cells are distinct and the map is one to one: each image on some cell suffices
        images = moved @ m.T
        gaps = np.hypot(*(images[:, None, :] - moved[None, :, :]).transpose(2, 0, 1))
        if bool((gaps.min(axis=1) < 1e-6).all()):
            return True
    return False


def _cells_shapes(cells: list, c) -> list[Primitive]:
    """Lattice cells scaled into the unit disc, each drawn a little inset (the paper's small gaps)."""
    union = unary_union(cells)
    minx, miny, maxx, maxy = union.bounds
    scale = 1.6 / max(maxx - minx, maxy - miny, 1e-9)
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    out: list[Primitive] = []
    for cell in cells:
        placed = affinity.scale(affinity.translate(cell, -cx, -cy), scale, scale, origin=(0, 0))
        out.append(("poly", placed.buffer(-0.025 * scale, join_style=2), c))
    return out


def _polyline_sample(rng, mode):
    n = int(rng.integers(3, 7))
    pts = [[float(v) for v in rng.uniform(-0.8, 0.8, 2)] for _ in range(n)]
    return {"points": pts, "width": float(rng.uniform(0.07, 0.12))}


def _polyline_shapes(p, c):
    pts = [tuple(q) for q in p["points"]]
    return [("line", pts, p["width"], c), ("poly", Point(pts[0]).buffer(p["width"] * 1.4), _BLACK)]


def _rings_sample(rng, mode):
    count = int(rng.integers(1, 4))
    p = {"count": count, "width": float(rng.uniform(0.08, 0.13)), "notch": 0.0, "notch_at": 0.0}
    if mode == "asym":
        p.update(notch=float(rng.uniform(70, 110)), notch_at=_away_from_axes(rng), count=max(count, 2),
                 width=float(rng.uniform(0.15, 0.2)))
    return p


def _rings_shapes(p, c):
    shapes: list[Primitive] = []
    for k in range(p["count"]):
        r = 0.82 - k * (0.7 / max(p["count"], 1))
        ring = Point(0, 0).buffer(r, 64).difference(Point(0, 0).buffer(r - p["width"], 64))
        if p["notch"] and k < 2:
            a = p["notch_at"] + 150 * k
            notch = math.radians(p["notch"])
            wedge = Polygon([(0, 0), *_rot([(1.2, 0), (1.2 * math.cos(notch), -1.2 * math.sin(notch))], a)])
            ring = ring.difference(wedge)
        shapes.append(("poly", ring, c))
    return shapes


def _segment_sample(rng, mode):
    if mode == "asym":
        return {"angle": _away_from_axes(rng), "ends": ["disc", "triangle"], "width": float(rng.uniform(0.07, 0.11))}
    return {"angle": 90.0 * int(rng.integers(2)), "ends": ["disc", "disc"], "width": float(rng.uniform(0.07, 0.11))}


def _segment_shapes(p, c):
    parts = [box(-0.7, -p["width"] / 2, 0.7, p["width"] / 2)]
    for x, end in ((-0.7, p["ends"][0]), (0.7, p["ends"][1])):
        if end == "disc":
            parts.append(Point(x, 0).buffer(0.2, 32))
        else:
            parts.append(Polygon([(x - 0.1, -0.3), (x + 0.25, 0.0), (x - 0.1, 0.3)]))
    return [("poly", _turn(unary_union(parts), p["angle"]), c)]


def _star_sample(rng, mode):
    n = int(rng.integers(5, 9))
    p = {"points": n, "inner": float(rng.uniform(0.35, 0.5)), "tip": -1, "tip_scale": 1.0, "tip_turn": 0.0,
         "phase": -90.0}
    if mode == "asym":
        p.update(tip=int(rng.integers(n)), tip_scale=float(rng.choice([rng.uniform(0.4, 0.55), rng.uniform(1.4, 1.5)])),
                 tip_turn=float(rng.choice([-1, 1]) * rng.uniform(15, 24)), phase=float(rng.uniform(0, 360)))
    return p


def _star_shapes(p, c):
    n, pts = p["points"], []
    for k in range(2 * n):
        a = p["phase"] + 180 * k / n
        r = 0.62 if k % 2 == 0 else 0.62 * p["inner"]
        if k == 2 * p["tip"]:
            r, a = r * p["tip_scale"], a + p["tip_turn"]
        pts.append((r * math.cos(math.radians(a)), r * math.sin(math.radians(a))))
    return [("poly", Polygon(pts), c)]


def _stripes_sample(rng, mode):
    n = int(rng.integers(3, 6))
    if mode == "asym":
        widths = [float(v) for v in rng.uniform(0.5, 1.5, n)]
        widths[0], widths[-1] = 1.6, 0.5
        return {"widths": widths, "angle": _away_from_axes(rng), "disc": False}
    return {"widths": [1.0] * n, "angle": 90.0 * int(rng.integers(2)), "disc": bool(rng.integers(2))}


def _stripes_shapes(p, c):
    clip = Point(0, 0).buffer(0.85, 64) if p["disc"] else box(-0.7, -0.7, 0.7, 0.7)
    if not p["disc"]:
        clip = _turn(clip, p["angle"])
    total = sum(p["widths"]) * 2 - p["widths"][-1]
    x, shapes = -1.0, []
    for w in p["widths"]:
        band = _turn(box(x, -1.2, x + 2 * w / total, 1.2), p["angle"])
        shapes.append(("poly", band.intersection(clip), c))
        x += 4 * w / total
    shapes.append(("line", list(clip.exterior.coords), 0.035, _BLACK))
    return shapes


def _turn_primitive(prim: Primitive, degrees: float) -> Primitive:
    if prim[0] == "poly":
        return ("poly", _turn(prim[1], degrees), prim[2])
    if prim[0] == "line":
        return ("line", _rot(prim[1], degrees), prim[2], prim[3])
    return prim


#: family -> (sampler, shape builder), in the paper's order (A.2); icons (12) is not implemented yet.
FAMILIES: dict[str, tuple[Callable, Callable]] = {
    "arc": (_arc_sample, _arc_shapes),
    "arrow": (_arrow_sample, _arrow_shapes),
    "bars": (_bars_sample, _bars_shapes),
    "bitgrid": (_bitgrid_sample, _bitgrid_shapes),
    "clock": (_clock_sample, _clock_shapes),
    "concentric_polygon": (_concentric_sample, _concentric_shapes),
    "crescent": (_crescent_sample, _crescent_shapes),
    "dot": (_dot_sample, _dot_shapes),
    "fractal": (_fractal_sample, _fractal_shapes),
    "gear": (_gear_sample, _gear_shapes),
    "glyph": (_glyph_sample, _glyph_shapes),
    "keyhole": (_keyhole_sample, _keyhole_shapes),
    "ladder": (_ladder_sample, _ladder_shapes),
    "pictogram": (_pictogram_sample, _pictogram_shapes),
    "pinwheel": (_pinwheel_sample, _pinwheel_shapes),
    "polygon": (_polygon_sample, _polygon_shapes),
    "polyhex": (_polyhex_sample, _polyhex_shapes),
    "polyiamond": (_polyiamond_sample, _polyiamond_shapes),
    "polyline": (_polyline_sample, _polyline_shapes),
    "polyomino": (_polyomino_sample, _polyomino_shapes),
    "rings": (_rings_sample, _rings_shapes),
    "segment": (_segment_sample, _segment_shapes),
    "star_polygon": (_star_sample, _star_shapes),
    "stripes": (_stripes_sample, _stripes_shapes),
}
#: The paper's 25 families; ``icons`` is listed but not yet drawable (see the module docstring).
PAPER_FAMILIES = (*list(FAMILIES)[:11], "icons", *list(FAMILIES)[11:])


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return _r(value)
    if isinstance(value, np.floating):
        return _r(float(value))
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def sample(family: str, rng: np.random.Generator, mode: str = "asym", colour: str | None = None) -> dict[str, Any]:
    """A motif spec of ``family`` drawn from ``rng`` (the item's generator): plain JSON, floats to 4 places.
    ``colour`` (a palette name) is drawn from the palette when not given."""
    if family not in FAMILIES:
        raise ValueError(f"unknown motif family {family!r}; known: {', '.join(FAMILIES)}")
    if mode not in MODES:
        raise ValueError(f"unknown motif mode {mode!r}; known: {', '.join(MODES)}")
    names = list(PALETTE)
    colour = colour or names[int(rng.integers(len(names)))]
    params = _rounded(FAMILIES[family][0](rng, mode))
    return {"family": family, "mode": mode, "colour": colour, "params": params}


def primitives(spec: dict[str, Any]) -> list[Primitive]:
    """The drawing primitives of a spec, in unit coordinates."""
    return FAMILIES[spec["family"]][1](spec["params"], rgb(PALETTE[spec["colour"]]))


#: The primitives of the specs drawn lately, by ``repr(spec)``: tasks draw one motif at several sizes (a probe
#: tile, then the picture's), and ``render`` only reads them (shapely geometries are immutable).
_KEPT: dict[str, list[Primitive]] = {}
_KEPT_SPECS = 64


def kept_primitives(spec: dict[str, Any]) -> list[Primitive]:
    """``primitives(spec)``, computed once for each of the last ``_KEPT_SPECS`` specs drawn."""
    key = repr(spec)
    found = _KEPT.get(key)
    if found is None:
        found = primitives(spec)
        if len(_KEPT) >= _KEPT_SPECS:
            del _KEPT[next(iter(_KEPT))]
        _KEPT[key] = found
    return found


@functools.lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font at ``size`` px (at least 8), one object per size, kept (loading it anew decodes the
    font and starts its glyph cache cold); callers must not change it."""
    return ImageFont.load_default(size=max(8, size))


def _pixel_array(points, middle: float, half: float) -> np.ndarray:
    """Unit points as canvas pixels ``middle + p * half`` (an (n, 2) float array), each coordinate rounded to
    0.1 px exactly as Python's ``round(v, 1)`` rounds (numpy's rounding agrees but within a hair of a tie, where
    Python's is used)."""
    xy = middle + np.asarray(points, dtype=np.float64)[:, :2] * half
    out = np.round(xy, 1)
    scaled = xy * 10
    tie = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    if tie.any():
        out[tie] = [round(float(v), 1) for v in xy[tie]]
    return out


def _pixel_points(points, middle: float, half: float) -> list[tuple[float, float]]:
    """``_pixel_array`` as a list of (x, y) tuples, as ImageDraw takes them."""
    return list(map(tuple, _pixel_array(points, middle, half).tolist()))


#: Pixels of slack (on the supersampled canvas) kept around the drawn points when ``render`` bounds the ink:
#: a filled polygon inks at most the pixels its outline touches, a stroke at most half its width (its round
#: joints and end discs included) beyond its points, each within a pixel of rounding.
_INK_SLACK = 3


@functools.cache
def _white_block() -> int:
    """The value the box reduction gives a block of white canvas (255; computed, not assumed)."""
    white = Image.new("RGB", (SUPERSAMPLE, SUPERSAMPLE), _WHITE)
    return int(np.asarray(white.resize((1, 1), Image.Resampling.BOX))[0, 0, 0])


def _reduced(canvas: Image.Image, size: int, reach: list[float] | None) -> np.ndarray:
    """``canvas.resize((size, size), BOX)`` as an array, reduced only on the blocks of ``SUPERSAMPLE`` x
    ``SUPERSAMPLE`` canvas pixels that meet the box ``reach`` (left, top, right, bottom on the canvas; None for
    the whole canvas) and white elsewhere.  With a whole factor every output pixel is the box mean of its own
    block, by the same weights wherever the block lies, so reducing a block-aligned window gives the same bytes
    there; outside ``reach`` the canvas is white, and so is its reduction (``_white_block``)."""
    if reach is None:
        return np.asarray(canvas.resize((size, size), Image.Resampling.BOX))
    if not math.isfinite(reach[0]):  # nothing drawn
        return np.full((size, size, 3), _white_block(), np.uint8)
    left, top = (max(0, math.floor(v) // SUPERSAMPLE) for v in reach[:2])
    right, bottom = (min(size, -(-math.ceil(v) // SUPERSAMPLE)) for v in reach[2:])
    if right - left == size and bottom - top == size:
        return np.asarray(canvas.resize((size, size), Image.Resampling.BOX))
    out = np.full((size, size, 3), _white_block(), np.uint8)
    if right > left and bottom > top:
        window = tuple(SUPERSAMPLE * v for v in (left, top, right, bottom))
        out[top:bottom, left:right] = np.asarray(canvas.resize((right - left, bottom - top), Image.Resampling.BOX,
                                                               box=window))
    return out


def render(spec: dict[str, Any], size: int, fill: float = 0.86) -> np.ndarray:
    """The motif as an RGB uint8 array (size, size, 3) on white, its unit disc scaled to ``fill`` of the tile.
    The supersampled canvas is reduced only around the ink the primitives can reach (``_reduced``; all of it
    when a glyph is drawn)."""
    return _render(kept_primitives(spec), size, fill)


def render_mapped(spec: dict[str, Any], size: int, fill: float, linear: np.ndarray, supersampled: bool = False
                  ) -> np.ndarray | None:
    """``render`` of the motif with every shape first mapped by ``linear`` (2 x 2, in the tile's axes: x right, y
    down) about the tile's centre: the motif turned or mirrored as drawn shapes, with no resampling of pixels.
    ``supersampled``: the drawing at SUPERSAMPLE x the size, before it is reduced (RGB, (size * SUPERSAMPLE,) * 2).
    None for a motif drawn as text (a glyph): its caller maps the picture instead."""
    kept = kept_primitives(spec)
    if any(prim[0] == "text" for prim in kept):
        return None
    m = np.asarray(linear, float)
    a, b, d, e = float(m[0, 0]), float(m[0, 1]), float(m[1, 0]), float(m[1, 1])

    def moved(xy: np.ndarray) -> np.ndarray:  # ``affinity.affine_transform``'s sums, its zero offsets included
        x, y = xy.T
        return np.stack([a * x + b * y + 0.0, d * x + e * y + 0.0]).T

    mapped: list[Primitive] = []
    for prim in kept:
        if prim[0] == "poly":
            mapped.append(("poly", shapely.transform(prim[1], moved), prim[2]))
        else:
            points = np.asarray(prim[1], float)[:, :2] @ m.T
            mapped.append(("line", list(map(tuple, points.tolist())), prim[2], prim[3]))
    return _render(mapped, size, fill, supersampled)


#: Ink pixels counted per px of a shape's outline beyond its area (``ink_estimate``: anti-aliased edge pixels
#: dark enough to be ink), fitted on drawn motifs of the wallpaper families (measured / estimated ink: median 0.98-
#: 1.02 for polygon families, 0.67-0.91 for motifs whose strokes cross or overlap, where their areas add up twice).
EDGE_INK = 0.5


def ink_estimate(spec: dict[str, Any], size: int, fill: float) -> float | None:
    """About how many ink pixels (``kit.probe.ink_mask``) ``render(spec, size, fill)`` has, from its shapes alone:
    the area of every polygon and stroke (its drawn width, round ends) in px plus EDGE_INK px per px of outline.
    Shapes that overlap count twice, so it errs high there; None for a motif drawn as text (a glyph)."""
    half = size * fill / 2  # px per unit
    area = outline = 0.0
    for prim in kept_primitives(spec):
        if prim[0] == "poly":
            area += prim[1].area
            outline += prim[1].length
        elif prim[0] == "line":
            width = max(1, round(prim[2] * half * SUPERSAMPLE)) / (half * SUPERSAMPLE)  # as ``_render`` draws it
            xy = np.asarray(prim[1], float)[:, :2]
            length = float(np.hypot(*np.diff(xy, axis=0).T).sum())
            area += length * width + math.pi * width * width / 4
            outline += 2 * length + math.pi * width
        else:
            return None
    return area * half * half + EDGE_INK * outline * half


def _render(kept: list[Primitive], size: int, fill: float, supersampled: bool = False) -> np.ndarray:
    """``render``'s drawing of the primitives ``kept`` (``supersampled``: the canvas before it is reduced)."""
    big = size * SUPERSAMPLE
    canvas = Image.new("RGB", (big, big), _WHITE)
    draw = ImageDraw.Draw(canvas)
    half = big * fill / 2
    reach: list[float] | None = [math.inf, math.inf, -math.inf, -math.inf]

    def px(points, slack: float) -> list[tuple[float, float]]:
        xy = _pixel_array(points, big / 2, half)
        if reach is not None:
            low, high = xy.min(axis=0), xy.max(axis=0)
            reach[0], reach[1] = min(reach[0], low[0] - slack), min(reach[1], low[1] - slack)
            reach[2], reach[3] = max(reach[2], high[0] + slack), max(reach[3], high[1] + slack)
        return list(map(tuple, xy.tolist()))

    for prim in kept:
        kind = prim[0]
        if kind == "poly":
            geometries = prim[1].geoms if isinstance(prim[1], MultiPolygon) else [prim[1]]
            for geometry in geometries:
                if geometry.is_empty or not hasattr(geometry, "exterior"):
                    continue
                draw.polygon(px(geometry.exterior.coords, _INK_SLACK), fill=prim[2])
                for hole in geometry.interiors:
                    draw.polygon(_pixel_points(hole.coords, big / 2, half), fill=_WHITE)
        elif kind == "line":
            width = max(1, round(prim[2] * half))
            pts = px(prim[1], width / 2 + _INK_SLACK)
            draw.line(pts, fill=prim[3], width=width, joint="curve")
            for x, y in (pts[0], pts[-1]):
                r = width / 2
                draw.ellipse((x - r, y - r, x + r, y + r), fill=prim[3])
        elif kind == "text":
            reach = None
            char, turns, colour = prim[1], prim[2], prim[3]
            layer = Image.new("RGB", (big, big), _WHITE)
            face = _font(round(half * 1.9))
            ImageDraw.Draw(layer).text((big / 2, big / 2), char, fill=colour, font=face, anchor="mm")
            layer = layer.rotate(90 * turns)
            canvas = Image.fromarray(np.minimum(np.asarray(canvas), np.asarray(layer)))
            draw = ImageDraw.Draw(canvas)
    if supersampled:
        return np.asarray(canvas)
    return _reduced(canvas, size, reach)
