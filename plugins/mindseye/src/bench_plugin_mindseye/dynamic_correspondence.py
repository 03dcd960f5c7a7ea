"""Dynamic Structural Correspondence (DSC): two shapes move, each by its own continuous rule; predict t = 1.

Paper §3 ("Dynamic Structural Correspondence"; Table 11): the top row shows the scene at t = 0, 0.25, 0.5 and
0.75, the bottom row four candidates for t = 1.  Shape A is a blue solid outline and shape B a red dashed one,
as in the release (spec §2.3).  Motions come from ``motion`` and are inferable from the four frames (spec
§7.2).  The wrong options come from the templates of spec §7.1 item 3, each tied to one reasoning error (paper
App. "Distractor taxonomy": "similar transformations applied to the opposite shape", "similar shapes with a
different transformation"):

* ``swap_shapes``: each shape moved by the other's transformation;
* ``wrong_time``: both shapes at a wrong time, one step too far (t = 1.25) or a repeat of t = 0.75;
* ``swap_wrong_time``: both errors at once, the swapped transformations at that wrong time;
* ``wrong_function``: one shape's motion read with the wrong model family (a steady change read as turning
  back, a swing read as carrying on, an orbit left along its tangent);
* ``frozen``: one shape left at its t = 0.75 pose (spec's "half-right");
* ``overshoot``: one shape one or two steps too far (t = 1.25 or 1.5), the other right;
* ``out_of_step``: one shape a step behind (t = 0.75) and the other too far;
* ``misread_mistimed``: one shape's motion misread and the other too far.

The options alone must not tell which one is right.  Foils that each move one or both shapes away from the
truth in their own direction make the truth the *typical* option: it would share poses with most foils, sit
in the middle of their ink, size and position, and be a near-twin of the nearest foil more often than any
foil is (a blind classifier picked it 38% of the time, chance 25%).  The foils therefore come from one of two
2 x 2 factorial designs, in which the truth is just one corner of the square:

* slips: shape A at its right pose or one slip away, crossed with shape B at its right pose or one slip away
  (the foils: each slip alone, and both together), one shape's slip ahead of the truth (an overshoot) and the
  other's behind it (frozen or misread).  Every option shares each shape's pose with exactly one other option.
* swap: the right time or one wrong time, crossed with each shape's own motion or the other's.

A design is used only when it can be built both ways round (shape A's slip ahead of the truth or behind it;
the wrong time early or late), and the way round is then drawn 50/50, so the truth is each shape's earlier
pose as often as its later one, and its size, place and likeness to the other options carry no information.
The design itself is chosen from the motions only (the slips design needs a visible slip on either side of
the truth for both shapes), at random when both are possible.  A foil set must keep every foil on the canvas
with its two shapes apart (as every frame is), make all four options differ visibly (compared as vertex sets,
so a polygon's own symmetry cannot hide a difference), and leave the truth neither the pose-voting favourite
nor an outlier in a nuisance feature.  One foil is the designated confound, a one-shape slip when there is
one, else the swap.  Outlines are rounded to ``QUANTUM_DECIMALS`` before drawing, and the scene record holds
every panel's two shapes as drawn (name, colour, style, pose, vertices).  The generator keeps a draw only if
its own solver (``motion.predict`` on the exact outlines) reads the truth and nothing else; verification
(``verifiers.dynamic_correspondence``) fits the motions again from the record by code of its own and checks
on the pixels that every panel shows its recorded outlines.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any, ClassVar

import numpy as np
from PIL import Image, ImageChops

from bench_core import Item, Problem, option_letters, palette_indices
from bench_plugin_mindseye import motion
from bench_plugin_mindseye.base import MindsEyeTask, TierValues, follows
from bench_plugin_mindseye.layout import SUPERSAMPLE, Box, Layout, Tile, colour_keys, grey_ranks
from bench_plugin_mindseye.nuisance import FRAME, INK_THRESHOLD, plane_features, singled_out
from bench_plugin_mindseye.options import Option, SizePlan, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.verifiers import dynamic_correspondence as verifier

TIMES = (0.0, 0.25, 0.5, 0.75)
CAPTIONS = tuple(f"t = {t:.2f}" for t in TIMES)
TEMPLATES = ("swap_shapes", "wrong_time", "wrong_function", "frozen", "overshoot", "out_of_step", "misread_mistimed",
             "swap_wrong_time")
#: One-shape errors ("slips") of the slips design as (template, time; None for the misread), by the side of the
#: truth they leave the shape on: behind it (stuck at t = 0.75, or the motion misread, which for a steady change
#: is its t = 0.5 pose) or ahead of it (one or two steps too far).
BEHIND = (("frozen", 0.75), ("wrong_function", None))
AHEAD = (("overshoot", 1.25), ("overshoot", 1.5))
#: Share of the items whose foils come from the swap design (when the slips design is possible too).
SWAP_SHARE = 0.3
#: Which template is designated the confound when a set has several (lowest first): a near miss with one shape
#: wrong, then the opposite-shape swap, then both shapes at a wrong time.
_CONFOUND_RANK = {"wrong_function": 0, "frozen": 0, "overshoot": 0, "swap_shapes": 1, "wrong_time": 2,
                  "out_of_step": 3, "misread_mistimed": 3, "swap_wrong_time": 3}
#: A drawn panel: its pixels (RGB array), the boxes outside which it shows the bare axes, and per box the pixels
#: drawn on it (``_draw_panel``).
Panel = tuple[np.ndarray, list[Box], list[np.ndarray]]
#: A foil set: three (template, latent, scene).
Foils = list[tuple[str, dict[str, Any], "Scene"]]
#: A priori knob values per difficulty (spec §7.1 item 4: DSC motion class and speed).
MOTION_CLASS = {"easy": "linear", "medium": "periodic", "hard": "compound"}
SPEED = {"easy": "fast", "medium": "medium", "hard": "slow"}
#: Two options must differ by this much (Hausdorff distance of a shape's vertex sets, canvas is [-1, 1]^2):
#: 6% of the canvas width, the spec's suggestion (§2.3).
VISIBLE = 0.12
#: Every vertex of every drawn pose stays inside this box (the panel shows [-1, 1]^2).
LIMIT = 0.93
BLUE = (35, 95, 225)
RED = (215, 45, 45)
AXIS = (208, 208, 208)
#: Pen width and dash pattern as fractions of the panel side (>= 2 px on the 128 px panels of 600x800).
STROKE = 0.02
DASH, GAP = 0.045, 0.03
#: Panel margin around the [-1, 1]^2 canvas.
PAD = 0.04
#: Decimal places (world units) every drawn vertex is rounded to: 1/1000 px on the largest panel, so the
#: drawing is a function of the recorded values and float noise cannot move a pixel.
QUANTUM_DECIMALS = 5
#: Slack of the in-build nuisance audit (a little stricter than the base class's final audit).
_AUDIT_FACTOR = 1.6
_AUDIT_FLOOR_SCALE = 0.8
_ATTEMPTS = 80
#: Places tried for the two shapes' paths per draw of shapes and motions.
_PLACEMENTS = 4
#: Nuisance features of an option panel (``base.option_features``) and the shortcuts over them that the foil
#: choice is balanced against (the test suite's "answer balance and shortcuts" solvers).
FEATURES = ("ink", "extent", "saturation")
SHORTCUTS = tuple(f"{rule}_{name}" for rule in ("max", "min", "odd", "typical") for name in FEATURES)
#: Log-weight penalty per unit of each shortcut's hit rate when drawing a foil set among the sets of one way round
#: of a design (order of ``SHORTCUTS``).  Zero: the factorial designs leave every shortcut at chance by
#: construction (the old design needed a calibrated tilt because the truth sat in the middle of its foils).
TILT = np.zeros(12)

TEXTS = PromptTexts(
    question=(
        "The top row shows two shapes at t = 0.00, 0.25, 0.50 and 0.75; each shape changes over time by its own "
        "continuous transformation. Follow both transformations and decide which of the options A, B, C and D "
        "shows the scene at t = 1.00."
    ),
    hint=(
        "Track the blue solid shape and the red dashed shape separately. For each, note how its position, "
        "orientation, size and slant change from one frame to the next, then continue that change by one more "
        "step."
    ),
    puzzle_type="dynamic transformation",
    elimination=(
        "infer each shape's rule from t = 0.00 to t = 0.75 and predict both shapes at t = 1.00; reject an "
        "option if either shape has the wrong position, angle, size or slant, went a step too far, stopped "
        "early, or moves the way the other shape should."
    ),
)


def _to_px(points: np.ndarray, scale: float) -> list[tuple[float, float]]:
    u = (points[:, 0] + 1) / 2 * (1 - 2 * PAD) + PAD
    v = (1 - (points[:, 1] + 1) / 2) * (1 - 2 * PAD) + PAD
    return list(zip((u * scale).tolist(), (v * scale).tolist(), strict=True))


@functools.lru_cache(maxsize=8)
def _axes(side: int, supersample: int) -> np.ndarray:
    """The faint x and y axes on their own (an RGB array of the panel), identical on every panel."""
    tile = Tile(side, supersample)
    s = tile.scale
    half = s / 2
    axis = tile.width(0.006)
    tile.draw.line((PAD * s, half, (1 - PAD) * s, half), fill=AXIS, width=axis)
    tile.draw.line((half, PAD * s, half, (1 - PAD) * s), fill=AXIS, width=axis)
    return np.asarray(tile.finish())


def _draw_scene(scene: Mapping[str, np.ndarray], side: int, supersample: int) -> Image.Image:
    """The panel of ``_draw_panel`` as an image."""
    return Image.fromarray(_draw_panel(scene, side, supersample)[0])


def _draw_panel(scene: Mapping[str, np.ndarray], side: int, supersample: int) -> Panel:
    """Faint axes, shape A as a blue solid outline, shape B as a red dashed outline whose dashes start and end
    at every corner (so the drawing does not depend on which vertex comes first) with gaps no shorter than
    ``GAP``.  The axes show only on blank paper: a stroke's anti-aliased edge is blended with white wherever it
    lies, so crossing an axis changes no stroke pixel (otherwise a shape near the centre would draw more ink
    than the same shape elsewhere, a cue to where it is).

    Returns the panel (RGB array), the boxes (x0, y0, x1, y1; tile pixels, not overlapping) outside which it is
    the bare axes (``_axes``), and per box the pixels on it that are drawn (elsewhere it is the bare axes too).
    The strokes are drawn supersampled on the whole panel, but only the boxes that hold them are reduced (box
    filter, so a box whose corner lies on a multiple of the supersampling gives exactly those pixels of the whole
    panel reduced): the rest is blank paper.  When the two shapes' boxes are apart, no pixel of the panel mixes
    them, and each shape is drawn on its own (``_layer``, kept for the panels that share its pose)."""
    layers = _layers(scene, side, supersample)
    if layers is not None:
        panel = _axes(side, supersample).copy()
        for box, part, drawn, _ in layers:
            x0, y0, x1, y1 = box
            np.copyto(panel[y0:y1, x0:x1], part, where=drawn[:, :, None])
        return panel, [layer[0] for layer in layers], [layer[2] for layer in layers]
    tile = _canvas(side, supersample)
    width = tile.width(STROKE)
    a, b = (_to_px(scene[key], tile.scale) for key in ("A", "B"))
    boxes = _stroke_boxes([a, b], width + 2 * supersample, side, supersample)
    panel = _axes(side, supersample).copy()
    masks = []
    try:
        _stroke(tile, "A", a, width)
        _stroke(tile, "B", b, width)
        # the axes differ from white only on their own pixels: the strokes' pixels replace them where drawn
        for box in boxes:
            x0, y0, x1, y1 = box
            part, drawn = _reduced(tile, box, supersample)
            np.copyto(panel[y0:y1, x0:x1], part, where=drawn[:, :, None])
            masks.append(drawn)
    finally:
        _blank(tile, boxes, supersample)
    return panel, boxes, masks


#: One shape drawn alone (``_layer``): its box (tile pixels), the reduced pixels on it, which of them are drawn,
#: and what it adds to the panel's nuisance features inside the frame: (ink pixels, the ink's bounding box
#: (x0, y0, x1, y1) or None, the sum of the saturation spreads).
Layer = tuple[Box, np.ndarray, np.ndarray, tuple[int, tuple[int, int, int, int] | None, int]]


def _layers(scene: Mapping[str, np.ndarray], side: int, supersample: int) -> list[Layer] | None:
    """Shape A's and shape B's ``_layer`` when their boxes are apart (no pixel of the panel then mixes the two),
    else None (worked out once per ``Scene`` and size)."""
    memo = getattr(scene, "__dict__", None)
    if memo is None:
        return _layers_now(scene, side, supersample)
    cache = memo.setdefault("_layers", {})
    if (side, supersample) not in cache:
        cache[side, supersample] = _layers_now(scene, side, supersample)
    return cache[side, supersample]


def _layers_now(scene: Mapping[str, np.ndarray], side: int, supersample: int) -> list[Layer] | None:
    scale = side * supersample
    width = max(supersample, round(STROKE * scale))  # ``Tile.width(STROKE)``
    a, b = (_to_px(scene[key], scale) for key in ("A", "B"))
    if len(_stroke_boxes([a, b], width + 2 * supersample, side, supersample)) < 2:
        return None
    return [_layer(key, tuple(points), side, supersample) for key, points in (("A", a), ("B", b))]


@functools.lru_cache(maxsize=256)
def _layer(key: str, points: tuple[tuple[float, float], ...], side: int, supersample: int) -> Layer:
    """Shape ``key`` ("A" solid, "B" dashed) alone along ``points`` (supersampled pixels), reduced on its box:
    a pure function of its arguments, so the panels that share a shape's pose share its drawing."""
    tile = _canvas(side, supersample)
    width = tile.width(STROKE)
    box = _stroke_boxes([list(points)], width + 2 * supersample, side, supersample)[0]
    try:
        _stroke(tile, key, list(points), width)
        part, drawn = _reduced(tile, box, supersample)
    finally:
        _blank(tile, [box], supersample)
    # its share of the nuisance features (``plane_features``) inside the panel's frame: the rest of the box is
    # blank paper or bare axes, whose neutral grey (lighter than ink) adds neither ink nor saturation
    x0, y0 = max(box[0], FRAME), max(box[1], FRAME)
    x1, y1 = min(box[2], side - FRAME), min(box[3], side - FRAME)
    inner = part[y0 - box[1]:max(y0, y1) - box[1], x0 - box[0]:max(x0, x1) - box[0]]
    red, green, blue = inner[..., 0], inner[..., 1], inner[..., 2]
    darkest = np.minimum(np.minimum(red, green), blue)
    spread = np.maximum(np.maximum(red, green), blue)
    spread -= darkest  # the largest channel is never below the smallest: no wrap-around
    spread = int(spread.sum(dtype=np.int64))
    ink = darkest < 255 - INK_THRESHOLD
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    bounds = (x0 + int(cols[0]), y0 + int(rows[0]), x0 + int(cols[-1]) + 1, y0 + int(rows[-1]) + 1) if rows.size \
        else None
    return box, part, drawn, (int(np.count_nonzero(ink)), bounds, spread)


def _stroke(tile: Tile, key: str, points: Sequence[tuple[float, float]], width: int) -> None:
    """Shape A as a solid outline, or shape B as a dashed one, along ``points`` on ``tile``."""
    if key == "A":
        tile.draw.line([*points, points[0], points[1]], fill=BLUE, width=width, joint="curve")
        return
    # the dashes straight through Pillow's drawing core: ``ImageDraw.line`` with no joint and
    # ``ImageDraw.ellipse`` with a fill only make exactly these calls
    core, ink = tile.draw.draw, tile.draw.draw.draw_ink(RED)
    dash, gap = DASH * tile.scale, GAP * tile.scale
    for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True):
        length = float(np.hypot(x1 - x0, y1 - y0))
        # at least two dashes per edge (one at each corner) so even a short edge shows a gap; every gap is at
        # least ``gap`` long (the dashes shorten instead), so the outline looks dashed however the count rounds
        count = max(2, round((length + gap) / (dash + gap)))
        piece = min(dash, (length - (count - 1) * gap) / count)
        stride = (length - piece) / (count - 1)
        for k in range(count):
            f0, f1 = k * stride / length, (k * stride + piece) / length
            core.draw_lines((x0 + f0 * (x1 - x0), y0 + f0 * (y1 - y0), x0 + f1 * (x1 - x0), y0 + f1 * (y1 - y0)),
                            ink, width)
        r = width / 2  # round the corner so dashes meeting there join cleanly
        core.draw_ellipse((x0 - r, y0 - r, x0 + r, y0 + r), ink, 1)


def _reduced(tile: Tile, box: Box, supersample: int) -> tuple[np.ndarray, np.ndarray]:
    """The drawing on ``box`` (tile pixels) reduced, and which of its pixels are drawn (not white)."""
    x0, y0, x1, y1 = (v * supersample for v in box)
    part = np.asarray(tile.image.crop((x0, y0, x1, y1)).reduce(supersample))
    return part, np.minimum(np.minimum(part[..., 0], part[..., 1]), part[..., 2]) != 255


def _blank(tile: Tile, boxes: Sequence[Box], supersample: int) -> None:
    """Every stroke lies inside its box: blank the boxes and the canvas is blank paper again."""
    for box in boxes:
        tile.image.paste((255, 255, 255), tuple(v * supersample for v in box))


#: The canvases of ``_canvas``, per thread.
_CANVASES = threading.local()


def _canvas(side: int, supersample: int) -> Tile:
    """The supersampled canvas panels are drawn on, one per panel size (the last 8 sizes) and thread, blank between
    drawings (``_draw_panel`` blanks what it drew): items built at once in several threads never share one."""
    kept = getattr(_CANVASES, "tiles", None)
    if kept is None:
        kept = _CANVASES.tiles = {}
    if (side, supersample) not in kept:
        if len(kept) >= 8:
            del kept[next(iter(kept))]
        kept[side, supersample] = Tile(side, supersample)
    return kept[side, supersample]


def _stroke_boxes(outlines: Sequence[Sequence[tuple[float, float]]], reach: float, side: int,
                  supersample: int) -> list[Box]:
    """Boxes (tile pixels, clipped to the tile) around each outline's points (supersampled pixels) widened by
    ``reach`` (supersampled pixels), boxes that overlap merged into one."""
    boxes: list[Box] = []
    for points in outlines:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        box = (max(0, math.floor((min(xs) - reach) / supersample)),
               max(0, math.floor((min(ys) - reach) / supersample)),
               min(side, math.ceil((max(xs) + reach) / supersample)),
               min(side, math.ceil((max(ys) + reach) / supersample)))
        while True:
            touching = [o for o in boxes if o[0] < box[2] and box[0] < o[2] and o[1] < box[3] and box[1] < o[3]]
            if not touching:
                break
            for o in touching:
                boxes.remove(o)
                box = (min(box[0], o[0]), min(box[1], o[1]), max(box[2], o[2]), max(box[3], o[3]))
        boxes.append(box)
    return boxes


_WHITE = 0xFFFFFF


class _Backdrop:
    """What ``Layout.compose`` makes of an item's frame, captions and labels, and of panels that all show the
    bare axes (``blank``), as the core's palette PNG holds it: ``keys`` (its colours, ``_keys`` ascending),
    ``indices`` (each pixel's place among them, uint8) and ``counts`` (pixels per colour); ``shows`` is where
    the composite shows a panel's own pixel (found by composing white panels and black ones: everywhere else
    the frame, a caption or the paper covers it); ``boxes`` the panels' boxes, query panels first."""

    def __init__(self, layout: Layout, blank: np.ndarray, captions: tuple[str, ...], labels: tuple[str, ...]):
        side = layout.tile
        queries, options = layout.query_count, layout.option_count

        def composed(panel: Image.Image) -> Image.Image:
            return layout.compose([panel] * queries, [panel] * options, captions, labels)[0]

        white = composed(Image.new("RGB", (side, side), (255, 255, 255)))
        black = composed(Image.new("RGB", (side, side), (0, 0, 0)))
        empty = composed(Image.fromarray(blank))
        query_boxes, option_boxes = layout.boxes()
        self.boxes = [*query_boxes, *option_boxes]
        # a panel's pixels show only inside its box (``compose`` pastes it there): there, where they show the
        # composite of white panels differs from that of black ones; everywhere else the three composites agree
        self.shows = np.zeros((white.size[1], white.size[0]), dtype=bool)
        valid = True
        blank_keys = colour_keys(blank)
        for box in self.boxes:
            x0, y0, x1, y1 = box
            w, b, e = (colour_keys(np.asarray(image.crop(box))) for image in (white, black, empty))
            shows = w != b
            self.shows[y0:y1, x0:x1] = shows
            # nothing mixed: a pixel that shows the panel shows it as it is, one that does not is the backdrop's
            valid = valid and bool(np.array_equal(np.where(shows, w, _WHITE), np.full(w.shape, _WHITE))
                                   and not np.where(shows, b, 0).any()
                                   and np.array_equal(np.where(shows, blank_keys, w), e))
        covered = [black.copy(), empty.copy()]
        for image in covered:
            for box in self.boxes:
                image.paste(white.crop(box), box[:2])
        valid = valid and all(ImageChops.difference(white, image).getbbox() is None for image in covered)
        self.valid = valid
        if not valid:
            return
        grey = empty.convert("L")
        if ImageChops.difference(grey.convert("RGB"), empty).getbbox() is None:
            # all greys (as the axes, frame and captions are): the palette is the grey levels shown, ascending
            # (``palette_indices`` gives the same), and a pixel's index its level's rank
            histogram = grey.histogram()
            levels = [v for v, count in enumerate(histogram) if count]
            self.image = grey_ranks(grey, levels)
            self.indices = np.asarray(self.image)
            colours = [(v, v, v) for v in levels]
            self.counts = np.array([histogram[v] for v in levels])
        else:
            found = palette_indices(empty)
            self.valid = found is not None
            if not self.valid:
                return
            colours, self.indices = found
            self.image = Image.fromarray(self.indices)
            self.counts = np.array(self.image.histogram()[:len(colours)])
        self.keys = np.array([r << 16 | g << 8 | b for r, g, b in colours], dtype=np.uint32)


@functools.lru_cache(maxsize=8)
def _backdrop(layout: Layout, captions: tuple[str, ...], labels: tuple[str, ...]) -> _Backdrop:
    return _Backdrop(layout, _axes(layout.tile, SUPERSAMPLE), captions, labels)


def _indexed_composite(backdrop: _Backdrop, size: tuple[int, int], panels: Sequence[Panel]) -> Image.Image | None:
    """The composite of ``panels`` (query panels first; ``Panel``: each the bare axes but for the pixels drawn on
    its boxes) on ``backdrop`` as the palette image (mode "P") the core makes of it (``palette_image``: exactly the
    colours it shows, ascending, and each pixel's index among them), built from the backdrop's indices by
    recolouring only the drawn pixels; None if it shows more colours than a palette holds."""
    removed = np.zeros(len(backdrop.keys), dtype=np.int64)
    writes = []
    for (pixels, boxes, masks), (left, top, _, _) in zip(panels, backdrop.boxes, strict=True):
        for (x0, y0, x1, y1), drawn in zip(boxes, masks, strict=True):
            where = (slice(top + y0, top + y1), slice(left + x0, left + x1))
            drawn = drawn & backdrop.shows[where]
            keys = colour_keys(pixels[y0:y1, x0:x1])[drawn]
            removed += np.bincount(backdrop.indices[where][drawn], minlength=len(backdrop.keys))
            writes.append(((left + x0, top + y0), drawn, keys))
    kept = backdrop.keys[backdrop.counts > removed]
    keys = np.union1d(kept, np.concatenate([w[2] for w in writes])) if writes else kept
    if len(keys) > 256:
        return None
    # a backdrop colour no longer shown keeps no pixel, so where its index points does not matter
    lut = np.zeros(256, dtype=np.uint8)
    lut[:len(backdrop.keys)] = np.minimum(np.searchsorted(keys, backdrop.keys), len(keys) - 1)
    image = backdrop.image.point(lut.tolist())  # mode "L": one pass of Pillow's lookup over the backdrop
    for corner, drawn, part in writes:
        indices = np.zeros(drawn.shape, dtype=np.uint8)
        indices[drawn] = np.searchsorted(keys, part)
        image.paste(Image.fromarray(indices), corner, Image.fromarray(drawn))
    # the palette makes the "L" image a "P" one
    image.putpalette(np.stack([keys >> 16, keys >> 8 & 255, keys & 255], axis=1).astype(np.uint8).tobytes())
    return image


class Scene(dict):
    """What a panel shows: the outline of shape "A" and of shape "B" (world units, rounded: what is drawn and
    recorded), and its drawing per panel side.  ``exact`` holds the unrounded outlines (for the generator's own
    solver), ``poses`` and ``shapes`` what made them, ``time`` the time of a query frame (None for an option).
    Drawing is deterministic, so the in-build audit and the final render share one drawing."""

    def panel(self, side: int) -> Panel:
        """The panel at ``side`` pixels (RGB array) and the boxes outside which it is the bare axes
        (``_draw_panel``), drawn once."""
        cache = self.__dict__.setdefault("_images", {})
        if side not in cache:
            cache[side] = _draw_panel(self, side, SUPERSAMPLE)
        return cache[side]

    def image(self, side: int) -> Image.Image:
        """The panel at ``side`` pixels."""
        return Image.fromarray(self.panel(side)[0])

    def features(self, side: int) -> list[float]:
        """The panel's nuisance ``FEATURES`` at ``side`` pixels (those ``option_features`` measures on ``image``),
        measured once: from the two shapes' ``_layer`` when they are apart (the panel is the bare axes but for
        their drawn pixels, so the ink and saturation add up and the ink's box is the box of both), else on the
        part of the panel inside its frame that holds the boxes of ``panel`` (the rest is the bare axes, whose
        neutral grey, lighter than ink, adds neither ink nor saturation)."""
        cache = self.__dict__.setdefault("_features", {})
        if side not in cache:
            pixels = (side - 2 * FRAME) ** 2
            layers = _layers(self, side, SUPERSAMPLE)
            if layers is not None:
                ink = sum(layer[3][0] for layer in layers)
                bounds = [layer[3][1] for layer in layers if layer[3][1] is not None]
                area = ((max(b[2] for b in bounds) - min(b[0] for b in bounds))
                        * (max(b[3] for b in bounds) - min(b[1] for b in bounds))) if bounds else 0
                measured = {"ink": ink / pixels, "extent": float(area / pixels if bounds else 0.0),
                            "saturation": sum(layer[3][2] for layer in layers) / pixels / 255.0}
            else:
                image, boxes, _ = self.panel(side)
                x0, y0 = max(FRAME, min(b[0] for b in boxes)), max(FRAME, min(b[1] for b in boxes))
                x1, y1 = min(side - FRAME, max(b[2] for b in boxes)), min(side - FRAME, max(b[3] for b in boxes))
                part = image[y0:max(y0, y1), x0:max(x0, x1)]
                measured = plane_features([part[..., c] for c in range(3)], pixels)
            cache[side] = [measured[name] for name in FEATURES]
        return cache[side]

    def describe(self, side: int) -> dict[str, Any]:
        """The panel as drawn: the view (tile pixels = centre + scale * (x, -y)), the pen width in tile pixels,
        and per shape its name, colour, style, pose and rounded vertices; a query frame also gives its time."""
        out: dict[str, Any] = {}
        if self.time is not None:
            out["t"] = self.time
        out["view"] = {"centre": [side / 2, side / 2], "scale": round(side * (1 - 2 * PAD) / 2, 4)}
        out["pen"] = round(max(SUPERSAMPLE, round(STROKE * side * SUPERSAMPLE)) / SUPERSAMPLE, 4)
        out["shapes"] = {}
        for key, colour, style in (("A", BLUE, "solid"), ("B", RED, "dashed")):
            x, y, angle, log_a, log_c, shear = (float(v) for v in self.poses[key])
            shape = {"shape": self.shapes[key], "colour": list(colour), "style": style,
                     "pose": {"position": [x, y], "angle": angle, "scale": [math.exp(log_a), math.exp(log_c)],
                              "shear": shear},
                     "vertices": self[key].tolist()}
            if style == "dashed":
                shape["dash"] = [round(DASH * side, 4), round(GAP * side, 4)]
            out["shapes"][key] = shape
        return out


def _scene(shapes: Mapping[str, str], poses: Mapping[str, np.ndarray], time: float | None = None) -> Scene:
    exact = {key: motion.outline(shapes[key], poses[key]) for key in ("A", "B")}
    scene = Scene({key: np.round(v, QUANTUM_DECIMALS) for key, v in exact.items()})
    scene.exact, scene.time = exact, time
    scene.poses = {key: np.asarray(poses[key], dtype=float) for key in ("A", "B")}
    scene.shapes = dict(shapes)
    return scene


def _distance(one: Mapping[str, np.ndarray], other: Mapping[str, np.ndarray]) -> float:
    return max(motion.set_distance(one[k], other[k]) for k in ("A", "B"))


def _inside(scene: Mapping[str, np.ndarray]) -> bool:
    """Every vertex inside ``LIMIT`` (worked out once per ``Scene``)."""
    memo = getattr(scene, "__dict__", None)
    if memo is None:
        return all(float(np.abs(v).max()) <= LIMIT for v in scene.values())
    if "_inside" not in memo:
        memo["_inside"] = all(float(np.abs(v).max()) <= LIMIT for v in scene.values())
    return memo["_inside"]


def _apart(scene: Mapping[str, np.ndarray]) -> bool:
    """The two shapes do not sit on each other: their centres are further apart than 0.8 of the sum of their
    circumradii (worked out once per ``Scene``)."""
    memo = getattr(scene, "__dict__", None)
    if memo is None:
        return _apart_now(scene)
    if "_apart" not in memo:
        memo["_apart"] = _apart_now(scene)
    return memo["_apart"]


def _apart_now(scene: Mapping[str, np.ndarray]) -> bool:
    ra = float(np.hypot(*(scene["A"] - scene["A"].mean(axis=0)).T).max())
    rb = float(np.hypot(*(scene["B"] - scene["B"].mean(axis=0)).T).max())
    return bool(np.hypot(*(scene["A"].mean(axis=0) - scene["B"].mean(axis=0))) >= 0.8 * (ra + rb))


def _slip(m: motion.Motion, t: float | None) -> np.ndarray:
    """The pose change of a slip: the motion at time ``t``, or misread (``t`` None)."""
    return m.misread() if t is None else m.delta(t)


def _visible(truth: Mapping[str, np.ndarray], foils: Foils, distances: Sequence[np.ndarray] | None = None) -> bool:
    """Whether the truth and the foils all differ visibly from each other (``distances``: their
    ``_pair_distances``, if already worked out)."""
    distance = np.maximum(*(distances if distances is not None else _pair_distances([truth, *(f[2] for f in foils)])))
    return bool((distance[np.triu_indices(len(distance), 1)] >= VISIBLE).all())


def _pair_distances(scenes: Sequence[Mapping[str, np.ndarray]]) -> list[np.ndarray]:
    """Per shape ("A", "B"), the ``motion.set_distance`` of its outlines in every two of ``scenes`` (a matrix)."""
    return [motion.set_distances(np.stack([scene[key] for scene in scenes])) for key in ("A", "B")]


def _votes_for(scenes: Sequence[Mapping[str, np.ndarray]], distances: Sequence[np.ndarray] | None = None) -> bool:
    """Whether voting for each shape's most common pose across the options picks ``scenes[0]`` alone
    (``distances``: the scenes' ``_pair_distances``, if already worked out)."""
    distances = distances if distances is not None else _pair_distances(scenes)
    votes = [int(v) for v in sum((d < 1e-9).sum(axis=1) for d in distances)]
    return votes[0] == max(votes) and votes.count(votes[0]) == 1


def shortcut_hits(features: np.ndarray) -> np.ndarray:
    """How often each shortcut of ``SHORTCUTS`` picks option 0 (the truth), ties split evenly (the answer's
    place among the options is random).  ``features``: (sets, 4 options, len(FEATURES)); returns (sets,
    len(SHORTCUTS)).  The rules are those of the test suite: the largest value, the smallest, the one
    furthest from the median (the upper middle value) and the one closest to it."""
    v = np.moveaxis(np.asarray(features, dtype=float), 2, 1)  # sets x features x options
    median = np.sort(v, axis=2)[:, :, v.shape[2] // 2, None]
    distance = np.abs(v - median)
    out = []
    for score in (v, -v, distance, -distance):
        best = score == score.max(axis=2, keepdims=True)
        out.append(best[:, :, 0] / best.sum(axis=2))
    return np.concatenate(out, axis=1)


class DynamicCorrespondence(MindsEyeTask):
    """DSC: 4 query frames (t = 0 ... 0.75) and 4 options A-D for t = 1."""

    code = "DSC"
    art = "relation"
    texts = TEXTS
    option_count = 4
    option_columns = 4
    query_count = 4
    tier_values: ClassVar[TierValues] = {"motion": follows(MOTION_CLASS), "speed": follows(SPEED)}

    def knob_hardness(self, knobs: Mapping[str, Any]) -> float:
        """Motion class (linear 0, periodic 1, compound 2) plus speed (fast 0, medium 1, slow 2)."""
        return ("linear", "periodic", "compound").index(knobs["motion"]) + ("fast", "medium", "slow").index(
            knobs["speed"])

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any],
              plan: SizePlan | None = None) -> Stimulus:
        """Two shapes, two motions of the requested class and speed, and three foils, redrawn until every check
        of ``_attempt`` passes."""
        motion_class = params.get("motion") or MOTION_CLASS[difficulty]
        speed_name = params.get("speed") or SPEED[difficulty]
        side = self.layout(params.get("size") or "1024x1024").tile
        for _ in range(_ATTEMPTS):
            stimulus = self._attempt(rng, motion_class, speed_name, side)
            if stimulus is not None:
                return stimulus
        raise RuntimeError(f"DSC: no acceptable item in {_ATTEMPTS} draws (motion={motion_class}, speed={speed_name})")

    def _attempt(
        self, rng: np.random.Generator, motion_class: str, speed_name: str, side: int = 218
    ) -> Stimulus | None:
        """One draw of shapes and motions, placed up to ``_PLACEMENTS`` times, or None if every placement fails a
        check (off the canvas, a shape that hardly moves, shapes on top of each other, no foil set of the design
        both ways round, a solver disagreement) or neither design can make visibly different options."""
        speed = motion.SPEEDS[speed_name]
        names = [str(n) for n in rng.choice(list(motion.SHAPES), size=2, replace=False)]
        shapes = {"A": names[0], "B": names[1]}
        kinds = self._motion_names(rng, motion_class)
        motions = {key: motion.make_motion(kinds[key], shapes[key], speed, rng) for key in ("A", "B")}
        growing = {key: any(c.law == "grow" for c in motions[key].components) for key in ("A", "B")}
        draws = {key: (rng.uniform(0, 1), rng.uniform(0, 2 * np.pi)) for key in ("A", "B")}
        coin = rng.random()

        def sized(grows: Mapping[str, bool]) -> dict[str, np.ndarray]:
            """Start poses at the origin: a random angle, and a size small enough to grow if the shape grows."""
            poses = {}
            for key, (u, angle) in draws.items():
                size = 0.16 + 0.03 * u if grows[key] else 0.25 + 0.06 * u
                poses[key] = np.array([0.0, 0.0, angle, math.log(size), math.log(size), 0.0])
            return poses

        # the design is chosen from the motions alone, never from where the truth would fall among the foils: a
        # design is possible when all four options differ visibly both ways round (which does not depend on where
        # the shapes are); the slips design also needs a visible slip on each side of the truth for each shape.
        # In the swap design each shape is moved by the other's motion in half the options, so the two shapes get
        # the same size range and the paths are centred halfway between the two motions: the truth and the swap
        # foil are then mirror images (neither sits nearer the shapes' usual places)
        slips = {key: self._slips(shapes[key], pose, motions[key]) for key, pose in sized(growing).items()}
        swap_growing = dict.fromkeys(growing, any(growing.values()))
        start = sized(swap_growing)
        unplaced = _scene(shapes, {key: start[key] + motions[key].delta(1.0) for key in ("A", "B")})
        possible = {"slips": lambda: all(all(sides.values()) for sides in slips.values()),
                    "swap": lambda: all(_visible(unplaced, foils) for sets in self._swap_sets(shapes, start, motions)
                                        for foils in sets)}
        preferred = ("swap", "slips") if coin < SWAP_SHARE else ("slips", "swap")
        design = next((d for d in preferred if possible[d]()), None)  # the second is looked at only if needed
        if design is None:
            return None
        centre = {key: motions[key].delta(0.625)[:2] for key in ("A", "B")}
        if design == "swap":
            growing = swap_growing
            centre = dict.fromkeys(centre, (centre["A"] + centre["B"]) / 2)
        for _ in range(_PLACEMENTS):
            base = sized(growing)
            for key in ("A", "B"):
                # A sits on the left, B on the right, so the two rarely run into each other; the path is centred
                # over t = 0 ... 1.25
                spot = np.array([(0.4 if key == "B" else -0.4) + rng.uniform(-0.1, 0.1), rng.uniform(-0.3, 0.3)])
                base[key][:2] = spot - centre[key]
            frames = [_scene(shapes, {k: base[k] + motions[k].delta(t) for k in ("A", "B")}, t) for t in TIMES]
            truth = _scene(shapes, {k: base[k] + motions[k].delta(1.0) for k in ("A", "B")})
            if not all(_inside(f) for f in [*frames, truth]) or not self._legible([*frames, truth]):
                continue
            groups = (self._slip_sets(shapes, base, motions, slips) if design == "slips"
                      else self._swap_sets(shapes, base, motions))
            foils = self._choose(rng, truth, groups, side)
            if foils is not None:
                break
        else:
            return None
        ranks = [_CONFOUND_RANK[template] for template, _, _ in foils]
        eligible = [k for k, r in enumerate(ranks) if r == min(ranks)]
        confound = eligible[int(rng.integers(len(eligible)))]
        options = [Option("correct", "truth", {"t": 1.0}, truth)]
        options += [Option("confound" if k == confound else "filler", *foil) for k, foil in enumerate(foils)]
        facts = {
            "knobs": {"motion": motion_class, "speed": speed_name},
            "shapes": shapes,
            "motions": {key: motions[key].describe() for key in ("A", "B")},
            "styles": {"A": "blue solid outline", "B": "red dashed outline"},
            "rule": f"A ({shapes['A']}) moves by {kinds['A']}, B ({shapes['B']}) by {kinds['B']}",
        }
        stimulus = Stimulus(tuple(frames), CAPTIONS, options, facts)
        # safety net: keep only items the generator's own solver reads the same way (tests show it always does)
        if self._reads_back(stimulus) != [0]:
            return None
        return stimulus

    @staticmethod
    def _motion_names(rng: np.random.Generator, motion_class: str) -> dict[str, str]:
        """Two different motions: both linear (easy); one periodic and one linear (medium; two period-1 motions
        would both be back at their start at t = 1, leaving the swap foil equal to the truth); one compound or
        deforming motion and one from any class (hard)."""
        if motion_class == "linear":
            first, second = rng.choice(motion.LINEAR, size=2, replace=False)
        elif motion_class == "periodic":
            first, second = rng.choice(motion.PERIODIC), rng.choice(motion.LINEAR)
        else:
            first = rng.choice(motion.COMPOUND)
            second = rng.choice([m for m in motion.LINEAR + motion.PERIODIC + motion.COMPOUND if m != first])
        pair = [str(first), str(second)]
        if rng.random() < 0.5:
            pair.reverse()
        return {"A": pair[0], "B": pair[1]}

    @staticmethod
    def _legible(scenes: Sequence[Mapping[str, np.ndarray]]) -> bool:
        """Both shapes visibly change between consecutive frames, and the two shapes never sit on each other."""
        for key in ("A", "B"):
            steps = [motion.set_distance(scenes[i][key], scenes[i + 1][key]) for i in range(len(scenes) - 1)]
            if min(steps) < 0.045:
                return False
        return all(_apart(scene) for scene in scenes)

    @staticmethod
    def _slips(shape: str, pose: np.ndarray, m: motion.Motion) -> dict[str, list[tuple[str, float | None]]]:
        """The slips of ``BEHIND`` and ``AHEAD`` that move the shape visibly away from its pose at t = 1 (``pose``:
        its start pose; the place does not matter)."""
        truth = motion.outline(shape, pose + m.delta(1.0))
        return {side: [(name, t) for name, t in slips
                       if motion.set_distance(truth, motion.outline(shape, pose + _slip(m, t))) >= VISIBLE]
                for side, slips in (("behind", BEHIND), ("ahead", AHEAD))}

    @staticmethod
    def _slip_sets(shapes: Mapping[str, str], base: Mapping[str, np.ndarray], motions: Mapping[str, motion.Motion],
                   slips: Mapping[str, Mapping[str, Sequence[tuple[str, float | None]]]]) -> list[list[Foils]]:
        """The slips design, a 2 x 2 factorial: one slip per shape, the two foils with one slip each and the foil
        with both, so that every option shares each shape's pose with exactly one other option and the four are
        alike in how they resemble each other.  One shape's slip is ahead of the truth and the other's behind it:
        two groups of sets, shape A ahead and shape A behind."""
        truth = {key: base[key] + motions[key].delta(1.0) for key in ("A", "B")}
        alone: dict[tuple[str, float | None], Scene] = {}  # (shape, slip time): the scene of that slip alone

        def pose(key: str, t: float | None) -> np.ndarray:
            return base[key] + _slip(motions[key], t)

        def slip_alone(key: str, other: str, t: float | None) -> Scene:
            """The foil with only ``key`` slipped: one scene per slip, shared by the sets that hold it (so it is
            drawn and measured once)."""
            if (key, t) not in alone:
                alone[key, t] = _scene(shapes, {key: pose(key, t), other: truth[other]})
            return alone[key, t]

        groups = []
        for ahead, behind in (("A", "B"), ("B", "A")):
            sets = []
            for ahead_slip, behind_slip in product(slips[ahead]["ahead"], slips[behind]["behind"]):
                chosen = {ahead: ahead_slip, behind: behind_slip}
                poses = {key: pose(key, chosen[key][1]) for key in ("A", "B")}
                foils: Foils = []
                for key, other in (("A", "B"), ("B", "A")):
                    name, t = chosen[key]
                    latent = {"shape": key} if t is None else {"shape": key, "t": t}
                    foils.append((name, latent, slip_alone(key, other, t)))
                t_ahead = ahead_slip[1]
                if behind_slip[0] == "frozen":
                    template, latent = "out_of_step", {"behind": behind, "ahead": ahead, "t": t_ahead}
                else:
                    template, latent = "misread_mistimed", {"misread": behind, "shape": ahead, "t": t_ahead}
                foils.append((template, latent, _scene(shapes, poses)))
                sets.append(foils)
            groups.append(sets)
        return groups

    @staticmethod
    def _swap_sets(shapes: Mapping[str, str], base: Mapping[str, np.ndarray],
                   motions: Mapping[str, motion.Motion]) -> list[list[Foils]]:
        """The swap design, a 2 x 2 factorial: both shapes at a wrong time, both moved by each other's motion, and
        both errors together.  Two groups of one set each: the wrong time one step early (t = 0.75) and one step
        late (t = 1.25)."""
        swapped = _scene(shapes, {"A": base["A"] + motions["B"].delta(1.0), "B": base["B"] + motions["A"].delta(1.0)})
        return [[[
            ("wrong_time", {"t": t}, _scene(shapes, {k: base[k] + motions[k].delta(t) for k in ("A", "B")})),
            ("swap_shapes", {"A": "B's motion at t=1", "B": "A's motion at t=1"}, swapped),
            ("swap_wrong_time", {"t": t}, _scene(shapes, {"A": base["A"] + motions["B"].delta(t),
                                                          "B": base["B"] + motions["A"].delta(t)})),
        ]] for t in (0.75, 1.25)]

    def _choose(self, rng: np.random.Generator, truth: Scene, groups: Sequence[Sequence[Foils]],
                side: int) -> Foils | None:
        """A foil set from one of the two ``groups`` (the two ways round of a design), or None if a group has no
        qualifying set.

        A set qualifies when every foil is on the canvas with its two shapes apart (the rule every query frame and
        the truth obey), all four options differ visibly, voting for each shape's most common pose does not single
        out the truth, and no nuisance feature does either (the base class's final audit, a little stricter, on
        the very panels the item will show).  Requiring both ways round to qualify before drawing one 50/50 keeps
        the way round independent of how the item looks: the truth is each shape's earlier pose as often as its
        later one, whatever the canvas edge or the nuisance audit would have allowed.  Within the group the set is
        drawn with weights ``exp(-TILT . hits)``, where ``hits`` says how often each nuisance shortcut
        (``SHORTCUTS``: the option with the most / least ink, ink extent or saturation, the one furthest from or
        closest to the median) would pick the truth in that set."""
        # the geometric checks of every group first: a group with no set passing them fails the draw before any
        # panel is drawn for the nuisance audit
        def geometric(foils: Foils) -> bool:
            if not all(_inside(f[2]) and _apart(f[2]) for f in foils):
                return False
            scenes = [truth, *(f[2] for f in foils)]
            distances = _pair_distances(scenes)  # shared by the two checks
            return _visible(truth, foils, distances) and not _votes_for(scenes, distances)

        passing = [[foils for foils in sets if geometric(foils)] for sets in groups]
        if not all(passing):
            return None

        def audited(foils: Foils) -> np.ndarray | None:
            """The features (4 options x ``FEATURES``) of the set's panels, or None if one singles out the truth."""
            values = np.array([s.features(side) for s in [truth, *(f[2] for f in foils)]])
            if any(singled_out(list(values[:, f]), 0, _AUDIT_FACTOR, self.nuisance_floor[name] * _AUDIT_FLOOR_SCALE)
                   for f, name in enumerate(FEATURES)):
                return None
            return values

        # only the chosen group's sets are drawn from: the other group need only show that one of its sets
        # qualifies, so its panels are drawn only until one does (the same choice as auditing every set of both
        # groups, for fewer panels drawn and measured)
        firsts = []
        for sets in passing:
            first = next(((k, values) for k, values in ((k, audited(foils)) for k, foils in enumerate(sets))
                          if values is not None), None)
            if first is None:
                return None
            firsts.append(first)
        chosen = int(rng.integers(len(passing)))
        sets, (first, values) = passing[chosen], firsts[chosen]
        good, features = [sets[first]], [values]
        for foils in sets[first + 1:]:
            values = audited(foils)
            if values is not None:
                good.append(foils)
                features.append(values)
        logits = -shortcut_hits(np.stack(features)) @ TILT
        weights = np.exp(logits - logits.max())
        return good[int(rng.choice(len(good), p=weights / weights.sum()))]

    def render(self, problem: Problem) -> list[Image.Image]:
        """The base class's composite, handed to the core as the palette image it would make of it (the same
        PNG): the frame, captions and labels come from one backdrop per layout, and only the boxes that hold
        the shapes are recoloured."""
        stimulus, shown = problem.structure
        layout = self.layout(problem.params["size"])
        backdrop = _backdrop(layout, tuple(stimulus.query_captions), tuple(option_letters(self.option_count)))
        if backdrop.valid:
            side = layout.tile
            panels = [content.panel(side) for content in stimulus.query] + [o.content.panel(side) for o in shown]
            image = _indexed_composite(backdrop, layout.size, panels)
            if image is not None:
                return [image]
        return super().render(problem)

    def draw_query(self, content: Scene, side: int) -> Image.Image:
        return content.image(side)

    def draw_option(self, content: Scene, side: int) -> Image.Image:
        return content.image(side)

    @staticmethod
    def _reads_back(stimulus: Stimulus) -> list[int]:
        """The generator's own acceptance: the options (in stimulus order) whose two exact outlines both equal
        the extrapolation of the shapes' motions fitted by ``motion.predict`` to the exact query outlines."""
        predictions = {}
        for key in ("A", "B"):
            frames = [np.asarray(frame.exact[key]) for frame in stimulus.query]
            shape = motion.recognise(frames[0])
            if shape is None:
                return []
            predictions[key] = motion.predict(shape, frames)
        return [k for k, option in enumerate(stimulus.options)
                if all(motion.matches(predictions[key], np.asarray(option.content.exact[key])) for key in ("A", "B"))]

    def describe(self, content: Scene, side: int) -> dict[str, Any]:
        return content.describe(side)

    def solve_scene(self, scene: Mapping[str, Any]) -> list[int]:
        return verifier.solve_scene(scene)

    def sketch(self, description: Mapping[str, Any], side: int) -> np.ndarray:
        return verifier.sketch(description, side)

    def sketches(self, descriptions: Sequence[Mapping[str, Any]], side: int) -> list[np.ndarray]:
        """The panels' sketches made together (``verifier.sketches``: their strokes grown in one pass)."""
        return verifier.sketches(descriptions, side)

    def verify(self, item: Item, images: Sequence[Image.Image]) -> list[str]:
        """The base class's checks, then the record's own consistency and, on the pixels, both outlines of every
        panel drawn where recorded, in their colours and styles, and no ink elsewhere."""
        scene = item.metadata["scene"]
        failures = super().verify(item, images)
        failures += verifier.record_failures(scene)
        failures += verifier.pixel_failures(scene, images[0])
        return failures


TASK = DynamicCorrespondence()
