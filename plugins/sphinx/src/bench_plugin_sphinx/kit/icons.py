"""The icon motif family (paper A.2 #12, spec 2.1 and 2.5): curated pictorial symbols, drawn here by our own
code (the released generator ships 320 third-party SVG icons), with a fixed train/test split as the paper has
one, so that an evaluation set can use icons never seen in training.

Each of the ``ICONS`` is a silhouette built from a few shapely primitives in unit coordinates (x right, y
down, inside the unit disc).  ``SPLITS`` fixes every fifth icon, in the order listed, as ``test`` and the rest
as ``train`` (50 icons: 40 train, 10 test, the paper's 80/20).  ``ASYMMETRIC`` lists the icons drawn with no
mirror line and no rotation symmetry (a handle on one side, an offset eye ...): the ones ``mode="asym"``
draws, for tasks that need a motif whose mirror image and turns differ from it.  Checked with
``kit.probe`` every 5 degrees of turn: each changes on at least 13 % of its ink under every mirror and
rotation of the square (the probe's limit is 12 %); tasks still probe what they draw, as for every motif.

The interface follows ``kit.motifs``: ``sample(rng, mode, split, colour)`` gives a JSON spec ``{"family":
"icons", "mode", "colour", "params": {"name", "split", "rotation"}}`` drawn from the item's generator (the
rotation uniform in 0-360 degrees, counterclockwise on screen, as the paper rotates its icons), and
``render(spec, size, fill)`` draws it as an RGB tile on white, at 3x and box-filtered, a function of the spec.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image, ImageDraw
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from bench_plugin_sphinx.kit.palette import PALETTE, rgb

SUPERSAMPLE = 3
MODES = ("asym", "sym")


# -- primitives (unit coordinates, y down) ------------------------------------------------------------------
def _disc(x: float, y: float, r: float):
    return Point(x, y).buffer(r, quad_segs=16)


def _poly(*points: tuple[float, float]):
    return Polygon(points)


def _stroke(points: list[tuple[float, float]], width: float, cap: str = "round"):
    return LineString(points).buffer(width / 2, cap_style=cap, join_style="round")


def _ring(x: float, y: float, outer: float, inner: float):
    return _disc(x, y, outer).difference(_disc(x, y, inner))


def _ellipse(x: float, y: float, a: float, b: float, turn: float = 0.0):
    """An ellipse of semi-axes a (along x) and b, turned ``turn`` degrees counterclockwise on screen."""
    shape = affinity.rotate(affinity.scale(_disc(0, 0, 1), a, b, origin=(0, 0)), -turn, origin=(0, 0))
    return affinity.translate(shape, x, y)


def _star(points: int, outer: float, inner: float, x: float = 0.0, y: float = 0.0):
    corners = []
    for k in range(2 * points):
        r = outer if k % 2 == 0 else inner
        a = math.pi * k / points
        corners.append((x + r * math.sin(a), y - r * math.cos(a)))
    return Polygon(corners)


# -- the icons ----------------------------------------------------------------------------------------------
def _heart():
    return unary_union([_disc(-0.38, -0.3, 0.42), _disc(0.38, -0.3, 0.42), _poly((-0.78, -0.18), (0.78, -0.18),
                                                                                 (0, 0.85))])


def _star5():
    return _star(5, 0.9, 0.38)


def _moon():
    return _disc(0, 0, 0.8).difference(_disc(0.38, -0.1, 0.68))


def _sun():
    rays = [_stroke([(0.55 * math.sin(a), -0.55 * math.cos(a)), (0.9 * math.sin(a), -0.9 * math.cos(a))], 0.13)
            for a in (math.pi * k / 4 for k in range(8))]
    return unary_union([_disc(0, 0, 0.42), *rays])


def _cloud():
    return unary_union([_disc(-0.68, 0.32, 0.14), _disc(-0.4, 0.12, 0.26), _disc(0.18, -0.28, 0.56),
                        _disc(0.6, 0.22, 0.24), box(-0.68, 0.22, 0.6, 0.46)])


def _house():
    body = unary_union([box(-0.6, -0.1, 0.6, 0.75), _poly((-0.85, -0.05), (0, -0.8), (0.85, -0.05))])
    return body.difference(box(0.15, 0.3, 0.4, 0.75)).difference(box(-0.42, 0.12, -0.12, 0.4))


def _pine():
    return unary_union([_poly((0, -0.9), (-0.45, -0.25), (0.45, -0.25)), _poly((0, -0.55), (-0.65, 0.3), (0.65, 0.3)),
                        box(-0.12, 0.3, 0.12, 0.85)])


def _leaf():
    blade = _ellipse(0, -0.1, 0.42, 0.78)
    return unary_union([blade, _stroke([(0, 0.6), (0, 0.9)], 0.1)]).difference(_stroke([(0, -0.6), (0, 0.5)], 0.05))


def _key():
    head = _ring(-0.5, 0, 0.35, 0.16)
    shaft = box(-0.2, -0.08, 0.85, 0.08)
    return unary_union([head, shaft, box(0.45, 0.08, 0.58, 0.32), box(0.7, 0.08, 0.83, 0.24)])


def _lock():
    shackle = _ring(0, -0.35, 0.42, 0.27).difference(box(-1, -0.3, 1, 1))
    legs = unary_union([box(-0.42, -0.35, -0.27, 0.0), box(0.27, -0.35, 0.42, 0.0)])
    body = box(-0.6, -0.05, 0.6, 0.8).difference(unary_union([_disc(0, 0.3, 0.12), box(-0.05, 0.3, 0.05, 0.6)]))
    return unary_union([shackle, legs, body])


def _bell():
    cup = unary_union([_disc(0, -0.25, 0.42), _poly((-0.42, -0.25), (0.42, -0.25), (0.7, 0.5), (-0.7, 0.5))])
    return unary_union([cup, _disc(0, 0.66, 0.16), _disc(0, -0.72, 0.1)])


def _mug():
    body = box(-0.6, -0.55, 0.35, 0.7)
    handle = _ring(0.4, 0.05, 0.38, 0.2).difference(box(-1, -1, 0.35, 1))
    return unary_union([body, handle]).difference(box(-0.48, -0.45, 0.23, -0.3))


def _bottle():
    return unary_union([box(-0.38, -0.15, 0.38, 0.85), _poly((-0.38, -0.15), (0.38, -0.15), (0.14, -0.45),
                                                             (-0.14, -0.45)), box(-0.14, -0.85, 0.14, -0.45)])


def _umbrella():
    canopy = _disc(0, 0, 0.85).difference(box(-1, 0, 1, 1))
    shaft = box(-0.05, -0.05, 0.05, 0.62)
    hook = _ring(-0.17, 0.62, 0.22, 0.12).difference(box(-1, -1, 1, 0.62))
    return unary_union([canopy, shaft, hook])


def _anchor():
    arc = _ring(0, 0.1, 0.7, 0.56).difference(box(-1, -1, 1, 0.25))
    flukes = [_poly((-0.86, 0.3), (-0.58, 0.2), (-0.62, 0.48)), _poly((0.86, 0.3), (0.58, 0.2), (0.62, 0.48))]
    return unary_union([arc, box(-0.07, -0.6, 0.07, 0.8), box(-0.4, -0.45, 0.4, -0.32), _ring(0, -0.72, 0.18, 0.08),
                        *flukes])


def _bolt():
    return _poly((0.15, -0.9), (-0.5, 0.12), (-0.02, 0.12), (-0.25, 0.9), (0.55, -0.2), (0.05, -0.2), (0.35, -0.9))


def _drop():
    return unary_union([_disc(0, 0.3, 0.5), _poly((-0.47, 0.15), (0.47, 0.15), (0, -0.85))])


def _fish():
    body = _ellipse(-0.1, 0, 0.6, 0.38)
    tail = _poly((0.4, 0), (0.9, -0.4), (0.9, 0.4))
    fin = _poly((-0.25, -0.3), (0.15, -0.68), (0.3, -0.25))
    return unary_union([body, tail, fin]).difference(_disc(-0.38, -0.08, 0.09))


def _envelope():
    return box(-0.8, -0.5, 0.8, 0.5).difference(_stroke([(-0.72, -0.42), (0, 0.1), (0.72, -0.42)], 0.08))


def _magnifier():
    return unary_union([_ring(-0.2, -0.25, 0.5, 0.36), _stroke([(0.12, 0.12), (0.72, 0.55)], 0.2)])


def _flag():
    return unary_union([box(-0.62, -0.85, -0.5, 0.85), _poly((-0.5, -0.8), (0.75, -0.5), (-0.5, -0.15))])


def _trophy():
    cup = unary_union([_disc(0, -0.35, 0.45).difference(box(-1, -1, 1, -0.35)), box(-0.45, -0.7, 0.45, -0.35)])
    handles = unary_union([_ring(-0.5, -0.45, 0.2, 0.1), _ring(0.5, -0.45, 0.2, 0.1)])
    return unary_union([cup, handles, box(-0.08, 0.05, 0.08, 0.5), box(-0.4, 0.5, 0.4, 0.7)])


def _crown():
    return _poly((-0.8, 0.55), (-0.8, -0.45), (-0.4, 0.0), (0, -0.65), (0.4, 0.0), (0.8, -0.45), (0.8, 0.55))


def _hourglass():
    return unary_union([box(-0.6, -0.85, 0.6, -0.7), box(-0.6, 0.7, 0.6, 0.85),
                        _poly((-0.48, -0.7), (0.48, -0.7), (0.06, 0), (0.48, 0.7), (-0.48, 0.7), (-0.06, 0))])


def _bulb():
    return unary_union([_disc(0, -0.25, 0.55), _poly((-0.3, 0.15), (0.3, 0.15), (0.22, 0.55), (-0.22, 0.55)),
                        box(-0.22, 0.6, 0.22, 0.72), box(-0.14, 0.76, 0.14, 0.86)])


def _pencil():
    return _poly((-0.2, -0.9), (0.2, -0.9), (0.2, 0.45), (0, 0.9), (-0.2, 0.45))


def _note():
    return unary_union([_ellipse(-0.3, 0.55, 0.3, 0.22, 20), box(-0.04, -0.85, 0.08, 0.5),
                        _poly((0.08, -0.85), (0.6, -0.45), (0.6, -0.25), (0.08, -0.6))])


def _camera():
    body = unary_union([box(-0.85, -0.4, 0.85, 0.6), box(-0.35, -0.6, 0.15, -0.4)])
    return body.difference(_ring(-0.1, 0.1, 0.36, 0.2)).difference(box(0.5, -0.28, 0.72, -0.14))


def _phone():
    return box(-0.42, -0.85, 0.42, 0.85).difference(box(-0.32, -0.65, 0.32, 0.55)).difference(_disc(0, 0.7, 0.07))


def _book():
    cover = box(-0.55, -0.75, 0.6, 0.75).difference(box(-0.35, -0.6, 0.45, 0.6))
    ribbon = _poly((0.15, -0.75), (0.35, -0.75), (0.35, 0.05), (0.25, -0.08), (0.15, 0.05))
    return unary_union([cover, box(-0.7, -0.75, -0.55, 0.75), box(-0.25, 0.25, 0.3, 0.37), ribbon])


def _shield():
    return unary_union([box(-0.65, -0.8, 0.65, 0.1), _disc(0, 0.1, 0.65).difference(box(-1, -1, 1, 0.1))])


def _rocket():
    return unary_union([_ellipse(0, -0.1, 0.3, 0.75), _poly((-0.3, 0.2), (-0.6, 0.75), (-0.2, 0.55)),
                        _poly((0.3, 0.2), (0.6, 0.75), (0.2, 0.55))]).difference(_disc(0, -0.25, 0.12))


def _tent():
    return _poly((-0.85, 0.6), (0, -0.7), (0.85, 0.6)).difference(_poly((-0.2, 0.6), (0, 0.1), (0.2, 0.6)))


def _mountain():
    return unary_union([_poly((-0.9, 0.6), (-0.3, -0.7), (0.2, 0.6)), _poly((-0.1, 0.6), (0.45, -0.2), (0.9, 0.6))])


def _cactus():
    return unary_union([_stroke([(0, 0.8), (0, -0.7)], 0.3), _stroke([(0, 0.2), (-0.45, 0.2), (-0.45, -0.25)], 0.22),
                        _stroke([(0, -0.1), (0.45, -0.1), (0.45, -0.5)], 0.22)])


def _mushroom():
    cap = _disc(0, 0, 0.8).difference(box(-1, 0, 1, 1))
    return unary_union([cap, box(-0.2, -0.02, 0.2, 0.7)])


def _apple():
    fruit = unary_union([_disc(-0.22, 0.12, 0.52), _disc(0.22, 0.12, 0.52)]).difference(_disc(0.78, 0.2, 0.3))
    return unary_union([fruit, _stroke([(0, -0.3), (0.08, -0.72)], 0.08), _ellipse(0.3, -0.62, 0.22, 0.1, -30)])


def _cherry():
    return unary_union([_disc(-0.4, 0.45, 0.3), _disc(0.35, 0.55, 0.27), _stroke([(-0.4, 0.2), (0.05, -0.75)], 0.07),
                        _stroke([(0.35, 0.3), (0.05, -0.75)], 0.07), _ellipse(0.3, -0.7, 0.25, 0.1, 15)])


def _boot():
    return unary_union([box(-0.5, -0.85, 0.1, 0.55), box(-0.5, 0.3, 0.75, 0.75), _disc(0.55, 0.52, 0.23)])


def _paw():
    toes = [_ellipse(x, y, 0.15, 0.2) for x, y in ((-0.5, -0.25), (-0.18, -0.55), (0.18, -0.55), (0.5, -0.25))]
    return unary_union([_ellipse(0, 0.35, 0.42, 0.35), *toes])


def _snail():
    shell = _ring(0.1, -0.1, 0.55, 0.38).union(_ring(0.1, -0.1, 0.26, 0.12))
    body = _stroke([(-0.8, 0.55), (0.7, 0.55)], 0.2)
    return unary_union([shell, body, _stroke([(-0.6, 0.5), (-0.75, 0.05)], 0.07)])


def _sailboat():
    return unary_union([_poly((-0.75, 0.45), (0.75, 0.45), (0.5, 0.75), (-0.5, 0.75)), box(-0.05, -0.85, 0.05, 0.45),
                        _poly((0.1, -0.8), (0.1, 0.35), (0.7, 0.35))])


def _teapot():
    body = _ellipse(0, 0.15, 0.5, 0.45)
    spout = _poly((0.35, 0.1), (0.88, -0.35), (0.92, -0.25), (0.45, 0.4))
    handle = _ring(-0.5, 0.12, 0.3, 0.16).difference(box(-0.4, -1, 1, 1))
    return unary_union([body, spout, handle, box(-0.22, -0.4, 0.22, -0.28), _disc(0, -0.45, 0.08)])


def _hammer():
    return unary_union([box(-0.07, -0.45, 0.07, 0.9), box(-0.5, -0.8, 0.35, -0.45),
                        _poly((0.35, -0.8), (0.75, -0.9), (0.35, -0.6))])


def _chair():
    return unary_union([box(-0.45, -0.85, -0.3, 0.85), box(-0.45, 0.05, 0.5, 0.2), box(0.38, 0.05, 0.5, 0.85)])


def _hat():
    return unary_union([box(-0.85, 0.35, 0.85, 0.5), box(-0.45, -0.55, 0.45, 0.4)]).difference(
        box(-0.45, 0.1, 0.45, 0.2))


def _bird():
    body = _ellipse(0, 0.1, 0.55, 0.35, -10)
    return unary_union([body, _disc(0.5, -0.3, 0.22), _poly((0.68, -0.35), (0.92, -0.25), (0.68, -0.2)),
                        _poly((-0.45, 0.0), (-0.95, -0.3), (-0.8, 0.15))]).difference(_disc(0.55, -0.35, 0.05))


def _sword():
    return unary_union([_poly((-0.07, -0.9), (0.07, -0.9), (0.07, 0.35), (-0.07, 0.35)), box(-0.35, 0.35, 0.35, 0.45),
                        box(-0.06, 0.45, 0.06, 0.8), _disc(0, 0.85, 0.08)])


def _glasses():
    return unary_union([_ring(-0.45, 0.1, 0.32, 0.22), _ring(0.45, 0.1, 0.32, 0.22), box(-0.15, 0.02, 0.15, 0.1)])


def _plane():
    return unary_union([_ellipse(0, 0, 0.12, 0.85), _poly((-0.85, 0.05), (0.85, 0.05), (0.1, -0.3), (-0.1, -0.3)),
                        _poly((-0.35, 0.75), (0.35, 0.75), (0.05, 0.55), (-0.05, 0.55))])


def _kite():
    body = _poly((0, -0.85), (0.5, -0.2), (0, 0.45), (-0.5, -0.2))
    return unary_union([body, _stroke([(0, 0.45), (0.15, 0.65), (-0.1, 0.8), (0.1, 0.92)], 0.06)])


#: The icons in a fixed order (the split is taken from it): name -> (drawing, has no symmetry).
ICONS: dict[str, tuple[Callable, bool]] = {
    "heart": (_heart, False), "star": (_star5, False), "moon": (_moon, False), "sun": (_sun, False),
    "cloud": (_cloud, False), "house": (_house, True), "pine": (_pine, False), "leaf": (_leaf, False),
    "key": (_key, True), "lock": (_lock, False), "bell": (_bell, False), "mug": (_mug, True),
    "bottle": (_bottle, False), "umbrella": (_umbrella, False), "anchor": (_anchor, False), "bolt": (_bolt, False),
    "drop": (_drop, False), "fish": (_fish, True), "envelope": (_envelope, False), "magnifier": (_magnifier, False),
    "flag": (_flag, True), "trophy": (_trophy, False), "crown": (_crown, False), "hourglass": (_hourglass, False),
    "bulb": (_bulb, False), "pencil": (_pencil, False), "note": (_note, True), "camera": (_camera, True),
    "phone": (_phone, False), "book": (_book, True), "shield": (_shield, False), "rocket": (_rocket, False),
    "tent": (_tent, False), "mountain": (_mountain, True), "cactus": (_cactus, True), "mushroom": (_mushroom, False),
    "apple": (_apple, True), "cherry": (_cherry, True), "boot": (_boot, True), "paw": (_paw, False),
    "snail": (_snail, True), "sailboat": (_sailboat, True), "teapot": (_teapot, True), "hammer": (_hammer, True),
    "chair": (_chair, True), "hat": (_hat, False), "bird": (_bird, True), "sword": (_sword, False),
    "glasses": (_glasses, False), "kite": (_kite, False),
}
#: The fixed split: every fifth icon in ``ICONS`` order is a test icon.
SPLITS: dict[str, tuple[str, ...]] = {
    "train": tuple(name for k, name in enumerate(ICONS) if k % 5 != 4),
    "test": tuple(name for k, name in enumerate(ICONS) if k % 5 == 4),
}
ASYMMETRIC = tuple(name for name, (_draw, asym) in ICONS.items() if asym)


def split_of(name: str) -> str:
    """``train`` or ``test``."""
    return "test" if name in SPLITS["test"] else "train"


def geometry(name: str):
    """The icon's silhouette (shapely) in unit coordinates."""
    if name not in ICONS:
        raise ValueError(f"unknown icon {name!r}; known: {', '.join(ICONS)}")
    return ICONS[name][0]()


def sample(rng: np.random.Generator, mode: str = "asym", split: str = "train", colour: str | None = None) -> dict[
        str, Any]:
    """An icon spec drawn from ``rng``: an icon of ``split`` (``train`` or ``test``; in ``asym`` mode one with no
    symmetry), a palette colour (``colour`` when given) and a rotation uniform in 0-360 degrees."""
    if mode not in MODES:
        raise ValueError(f"unknown motif mode {mode!r}; known: {', '.join(MODES)}")
    if split not in SPLITS:
        raise ValueError(f"unknown icon split {split!r}; known: train, test")
    names = [n for n in SPLITS[split] if mode == "sym" or n in ASYMMETRIC]
    name = names[int(rng.integers(len(names)))]
    colour = colour or list(PALETTE)[int(rng.integers(len(PALETTE)))]
    return {"family": "icons", "mode": mode, "colour": colour,
            "params": {"name": name, "split": split_of(name), "rotation": round(float(rng.uniform(0, 360)), 4)}}


def render(spec: dict[str, Any], size: int, fill: float = 0.86) -> np.ndarray:
    """The icon as an RGB uint8 array (size, size, 3) on white: its unit disc scaled to ``fill`` of the tile,
    turned ``rotation`` degrees counterclockwise, in its colour (holes white)."""
    params = spec["params"]
    shape = affinity.rotate(geometry(params["name"]), -params["rotation"], origin=(0, 0))
    big = size * SUPERSAMPLE
    half = big * fill / 2
    canvas = Image.new("RGB", (big, big), (255, 255, 255))
    draw = ImageDraw.Draw(canvas)
    colour = rgb(PALETTE[spec["colour"]])

    def to_pixels(coords) -> list[tuple[float, float]]:
        return [(big / 2 + x * half, big / 2 + y * half) for x, y in coords]

    for part in getattr(shape, "geoms", [shape]):
        draw.polygon(to_pixels(part.exterior.coords), fill=colour)
        for hole in part.interiors:
            draw.polygon(to_pixels(hole.coords), fill=(255, 255, 255))
    return np.asarray(canvas.reduce(SUPERSAMPLE))
