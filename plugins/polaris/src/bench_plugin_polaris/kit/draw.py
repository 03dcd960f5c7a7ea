"""One composite image per item: the main panel (grid), an option strip, and a legend / command box.

``frame`` places the parts (the same canvas size in both renderings: the legend box is light yellow above the
panel in the Cartesian image and light cyan at the bottom in the polar one, spec 2.4); ``calibrate`` chooses
the polar inner radius, the font px and the icon radius once per logical instance so both renderings use the
same letter size and icon area (spec 5.1-5.2: the Cartesian cells keep white space around them), raising
``Illegible`` when no inner radius up to the limit gives the innermost cells the clearance the font needs;
``Canvas`` draws grids, thick walls, the bounded seam wall, dashed wrap edges, filled cells, paths with
arrowheads, icons, labels (with anti-collision through ``Placer``), index labels, the legend and the option
labels.  Drawing is never anti-aliased (text too), so an image has few colours and encodes as a palette PNG.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import attrs
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from bench_plugin_polaris.kit.layouts import Box, CartesianLayout, Layout, Point, PolarLayout, densify, layout_for

#: Side of the main (square) panel, px (spec 5.2).
PANEL = 1024
#: Default label font size, px: the same in both renderings.
FONT_PX = 24
#: Px kept free around the grid (index labels, sector numbers).
MARGIN = 56.0
#: Side of one option panel, px (shrunk to fit the width when there are many).
OPTION_SIDE = 300
GAP = 16
#: Spare px around a text mask (see ``text_mask``).
TEXT_PAD = 4

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
GRID = (140, 140, 140)
#: Grid lines where they must read clearly apart from thick black walls (Maximum Collection's maze).
GRID_LIGHT = (195, 195, 195)
#: Grid lines drawn over grey cells (Path Counting), so two adjacent grey cells still show their border.
GRID_DARK = (95, 95, 95)
SHADE = (170, 170, 170)  # the grey of "grey cells"
WATER = (110, 170, 235)
LEGEND_CARTESIAN = (255, 247, 190)  # light yellow
LEGEND_POLAR = (200, 242, 250)  # light cyan
#: Distinct marker colours (Okabe-Ito without black and yellow), name -> RGB.
MARKER_COLOURS = {"orange": (230, 159, 0), "sky blue": (86, 180, 233), "green": (0, 158, 115),
                  "blue": (0, 114, 178), "vermilion": (213, 94, 0), "purple": (204, 121, 167)}

GRID_WIDTH = 2
WALL_WIDTH = 6
DASH_WIDTH = 3
DASH = (10, 7)
PATH_WIDTH = 4
#: A polyline turning by more than this many degrees at a vertex gets a round joint there (``Canvas.line``).
JOINT_TURN = 12.0

#: Innermost-cell clearance the font needs (spec 5.2): max(1.4 * font px, 24 px).
CLEARANCE_FACTOR = 1.4
CLEARANCE_MIN = 24.0
#: Px kept free between an icon and its cell's border, beyond the half width of a wall drawn on it.
ICON_MARGIN = 3.0
#: How far any icon reaches from its centre, in icon radii (the corners of the square, the crown and the knight
#: stand out of the unit disc; tests check every icon against it).
ICON_REACH = 1.2
#: Largest inner radius fraction the legibility guard may raise r0 to.
R0_MAX = 0.5
R0_STEP = 0.02


class Illegible(ValueError):
    """The polar grid cannot give its innermost cells the clearance the font needs (raise r0 failed)."""


@functools.lru_cache(maxsize=32)
def font(px: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font at ``px`` (the same face and size on every machine with this Pillow)."""
    return ImageFont.load_default(size=int(px))


def text_box(text: str, at: Point, px: int = FONT_PX, anchor: str = "mm") -> Box:
    """The pixel box ``text`` covers when drawn at ``at`` (whole pixels) with ``anchor``."""
    (left, top, right, bottom), _ = text_mask(text, px, anchor)
    x, y = round(at[0]), round(at[1])
    return x + left, y + top, x + right, y + bottom


@functools.lru_cache(maxsize=512)
def text_mask(text: str, px: int, anchor: str = "mm") -> tuple[Box, Image.Image]:
    """The box of ``text`` relative to its anchor point and its binary glyph mask (no anti-aliasing; ``TEXT_PAD``
    px larger than the box on every side), made once per (text, px, anchor): labels repeat from item to item,
    and rasterising a font is slow."""
    f = font(px)
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    # the binary rasteriser may ink a pixel or two beyond the anti-aliased box: the mask keeps TEXT_PAD px spare
    mask = Image.new("L", (right - left + 2 * TEXT_PAD, bottom - top + 2 * TEXT_PAD), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((TEXT_PAD - left, TEXT_PAD - top), text, fill=255, font=f, anchor=anchor)
    return (left, top, right, bottom), mask


# --- frame ---------------------------------------------------------------------------------------------

@attrs.frozen
class Frame:
    """Where the parts of one composite image go: ``size`` (w, h), ``panel`` (the main grid's box),
    ``legend`` (the legend / command box, or None), ``options`` (one box per option panel) and
    ``option_labels`` (the centre of each "(A)" label)."""

    variant: str
    size: tuple[int, int]
    panel: Box
    legend: Box | None
    options: tuple[Box, ...]
    option_labels: tuple[Point, ...]
    font_px: int


def frame(variant: str, *, panel: int = PANEL, legend_lines: int = 0, options: int = 0,
          option_side: int = OPTION_SIDE, font_px: int = FONT_PX) -> Frame:
    """The frame of a composite image: the canvas is ``panel`` px wide and its height is the same in both
    renderings.  Cartesian: legend (if any) on top, then the panel, then the option strip; polar: panel,
    option strip, legend at the bottom.  ``legend_lines`` lines of text at ``font_px``; ``options`` panels
    of ``option_side`` px (smaller when they do not fit the width) with a label row above them."""
    if variant not in ("cartesian", "polar"):
        raise ValueError(f"variant {variant!r} is not one of cartesian, polar")
    line = round(font_px * 1.45)
    legend_h = legend_lines * line + 2 * GAP if legend_lines else 0
    side = min(option_side, (panel - GAP * (options + 1)) // max(1, options)) if options else 0
    label_h = line + GAP // 2 if options else 0
    strip_h = side + label_h + GAP if options else 0
    height = panel + strip_h + (legend_h + 2 * GAP if legend_lines else 0)
    y = 0
    legend = None
    if variant == "cartesian" and legend_lines:
        legend = (GAP, GAP, panel - GAP, GAP + legend_h)
        y = legend_h + 2 * GAP
    panel_box = (0, y, panel, y + panel)
    y += panel
    boxes, labels = [], []
    if options:
        total = options * side + (options - 1) * GAP
        x0 = (panel - total) // 2
        for k in range(options):
            bx = x0 + k * (side + GAP)
            labels.append((bx + side / 2, y + line / 2))
            boxes.append((bx, y + label_h, bx + side, y + label_h + side))
        y += strip_h
    if variant == "polar" and legend_lines:
        legend = (GAP, height - GAP - legend_h, panel - GAP, height - GAP)
    return Frame(variant, (panel, height), panel_box, legend, tuple(boxes), tuple(labels), font_px)


# --- calibration -----------------------------------------------------------------------------------------

@attrs.frozen
class Calibration:
    """What both renderings of one instance share: the polar inner radius fraction ``r0`` (after the
    legibility guard), the font px and the icon radius px (area parity: the same px in both)."""

    r0: float
    font_px: int
    icon_radius: float
    #: The icon radius per row: ``icon_fill`` times the smaller inscribed radius of that row's polar and
    #: Cartesian cells (at most ``icon_max``): bigger icons where the rings are roomier, the same px in both.
    icon_radii: tuple[float, ...] = ()

    def record(self) -> dict:
        return {"r0": round(self.r0, 4), "font_px": self.font_px, "icon_radius": round(self.icon_radius, 3),
                "icon_radii": [round(v, 3) for v in self.icon_radii]}


def calibrate(rows: int, cols: int, *, r0: float = 0.25, orientation: str = "out", rings: str = "uniform",
              extra_sectors: int = 0, font_px: int = FONT_PX, panel: int = PANEL, margin: float = MARGIN,
              r0_max: float = R0_MAX, icon_fill: float = 0.85, icon_max: float = 40.0) -> Calibration:
    """The shared calibration of a ``rows`` x ``cols`` instance: raise ``r0`` in steps of ``R0_STEP`` until
    the innermost polar cell's clearance (``PolarLayout.clearance``) is at least
    max(CLEARANCE_FACTOR * font_px, CLEARANCE_MIN), else ``Illegible``; the icon radius of a row is
    ``icon_fill`` times the smaller inscribed radius of its polar and Cartesian cells, at most ``icon_max`` and
    at most that inscribed radius less half a wall (``WALL_WIDTH``) and ``ICON_MARGIN``, divided by
    ``ICON_REACH``, so an icon stays inside its cell clear of a thick wall, the outer circle or the hub drawn on
    the cell's border
    (``icon_radius`` the smallest of them: one size for icons anywhere; the same px in both renderings)."""
    need = max(CLEARANCE_FACTOR * font_px, CLEARANCE_MIN)
    box = (0.0, 0.0, float(panel), float(panel))
    value = r0
    while True:
        polar = PolarLayout(rows, cols, box, r0=value, orientation=orientation, rings=rings,
                            extra_sectors=extra_sectors, margin=margin)
        if polar.clearance() >= need:
            break
        value = round(value + R0_STEP, 6)
        if value > r0_max + 1e-9:
            raise Illegible(f"a polar grid of {rows} rings and {cols + extra_sectors} sectors leaves its innermost "
                            f"cells under {need:.0f} px even at r0 = {r0_max}")
    cart = CartesianLayout(rows, cols, box, margin=margin)
    inscribed = [min(polar.inscribed_radius(r, 0), cart.inscribed_radius(r, 0)) for r in range(rows)]
    per_row = tuple(min(icon_max, icon_fill * v, (v - WALL_WIDTH / 2 - ICON_MARGIN) / ICON_REACH) for v in inscribed)
    return Calibration(value, font_px, min(per_row), per_row)


def make_layout(variant: str, rows: int, cols: int, fr: Frame, geometry: dict) -> Layout:
    """The main panel's layout of ``variant`` in frame ``fr`` from a recorded ``geometry`` (keys r0,
    orientation, rings, extra_sectors, margin, wrap: what ``pairs`` stores in the scene)."""
    settings = {"margin": MARGIN, **geometry}
    return layout_for(variant, rows, cols, fr.panel, **settings)


# --- anti-collision --------------------------------------------------------------------------------------

def boxes_overlap(a: Box, b: Box, gap: float = 0.0) -> bool:
    """Whether boxes ``a`` and ``b`` (x0, y0, x1, y1) come closer than ``gap`` px."""
    return not (a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1])


@attrs.define
class Placer:
    """Boxes already taken by labels and icons; ``place`` picks the first candidate box clear of them all
    by ``gap`` px (spec B.3 anti-collision), or None when every candidate collides."""

    gap: float = 3.0
    boxes: list[Box] = attrs.field(factory=list)

    def fits(self, box: Box) -> bool:
        return not any(boxes_overlap(box, other, self.gap) for other in self.boxes)

    def add(self, box: Box) -> Box:
        self.boxes.append(tuple(box))
        return tuple(box)

    def place(self, candidates: Sequence[Box]) -> Box | None:
        for box in candidates:
            if self.fits(box):
                return self.add(box)
        return None


# --- icons -----------------------------------------------------------------------------------------------

def _circle(n: int = 28, radius: float = 1.0) -> list[Point]:
    return [(radius * math.cos(2 * math.pi * k / n), radius * math.sin(2 * math.pi * k / n)) for k in range(n)]


def _star(points: int = 5, inner: float = 0.45) -> list[Point]:
    out = []
    for k in range(2 * points):
        rad = 1.0 if k % 2 == 0 else inner
        a = math.pi / 2 + math.pi * k / points
        out.append((rad * math.cos(a), rad * math.sin(a)))
    return out


#: Our own icon set: name -> polygons in the unit disc (x right, y up), each (points, role) with role "fill"
#: (the icon's colour) or "ink" (black details).  Heading-bearing icons point along +x.
ICONS: dict[str, list[tuple[list[Point], str]]] = {
    "disc": [(_circle(), "fill")],
    "square": [([(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)], "fill")],
    "diamond": [([(0, -1), (1, 0), (0, 1), (-1, 0)], "fill")],
    "triangle": [([(0, 1), (0.93, -0.62), (-0.93, -0.62)], "fill")],
    "star": [(_star(), "fill")],
    "cross": [([(-0.3, 0.9), (0.3, 0.9), (0.3, 0.3), (0.9, 0.3), (0.9, -0.3), (0.3, -0.3), (0.3, -0.9), (-0.3, -0.9),
                (-0.3, -0.3), (-0.9, -0.3), (-0.9, 0.3), (-0.3, 0.3)], "fill")],
    "flag": [([(-0.55, -0.95), (-0.4, -0.95), (-0.4, 0.95), (-0.55, 0.95)], "ink"),
             ([(-0.4, 0.95), (0.8, 0.55), (-0.4, 0.15)], "fill")],
    "knight": [([(-0.6, -0.9), (0.65, -0.9), (0.65, -0.62), (0.45, -0.55), (0.5, -0.1), (0.62, 0.35), (0.45, 0.72),
                 (0.12, 0.95), (0.0, 0.78), (-0.2, 0.86), (-0.3, 0.62), (-0.72, 0.28), (-0.78, 0.02), (-0.55, -0.1),
                 (-0.3, 0.05), (-0.05, 0.05), (-0.4, -0.3), (-0.45, -0.55), (-0.6, -0.62)], "fill"),
               ([(-0.2, 0.42), (-0.06, 0.42), (-0.06, 0.56), (-0.2, 0.56)], "ink")],
    "target": [(_circle(), "fill"), (_circle(radius=0.62), "ring"), (_circle(radius=0.3), "fill")],
    "arrow": [([(1.0, 0.0), (0.1, 0.75), (0.1, 0.3), (-0.9, 0.3), (-0.9, -0.3), (0.1, -0.3), (0.1, -0.75)], "fill")],
}
#: Icons whose drawing shows a heading (rotated to the local direction in polar, spec 2.5).
HEADING_ICONS = frozenset({"arrow"})


def icon_polygons(name: str, at: Point, radius: float, angle: float = 0.0) -> list[tuple[list[Point], str]]:
    """The pixel polygons of icon ``name`` centred at ``at``, scaled to ``radius`` px and turned by
    ``angle`` degrees counter-clockwise on screen."""
    try:
        parts = ICONS[name]
    except KeyError:
        raise KeyError(f"no icon {name!r}; the set: {', '.join(sorted(ICONS))}") from None
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    out = []
    for points, role in parts:
        pixels = [(at[0] + radius * (x * ca - y * sa), at[1] - radius * (x * sa + y * ca)) for x, y in points]
        out.append((pixels, role))
    return out


def icon_area(name: str, radius: float) -> float:
    """The filled area (px^2, shoelace over the icon's first polygon) of icon ``name`` at ``radius``: the same
    in both renderings when the radius is (area parity)."""
    points = ICONS[name][0][0]
    s = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))
    return abs(s) / 2 * radius * radius


# --- canvas ----------------------------------------------------------------------------------------------

def dashes(points: Sequence[Point], on: float = DASH[0], off: float = DASH[1]) -> list[list[Point]]:
    """The "on" pieces of a dashed pixel polyline (``on`` px drawn, ``off`` px skipped, from the start)."""
    pieces: list[list[Point]] = []
    period = on + off
    travelled = 0.0
    current: list[Point] = []
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        t = 0.0
        while t < length - 1e-9:
            phase = travelled % period
            if phase < on:
                step = min(on - phase, length - t)
                start = (x0 + (x1 - x0) * t / length, y0 + (y1 - y0) * t / length)
                end = (x0 + (x1 - x0) * (t + step) / length, y0 + (y1 - y0) * (t + step) / length)
                if not current:
                    current = [start]
                current.append(end)
                if phase + step >= on - 1e-9:
                    pieces.append(current)
                    current = []
            else:
                step = min(period - phase, length - t)
            t += step
            travelled += step
    if len(current) >= 2:
        pieces.append(current)
    return pieces


def drawn_points(points: Sequence[Point], layout: Layout) -> list[Point]:
    """``points`` (index space) densified as far as drawing needs: not at all in Cartesian (the map is affine),
    and in polar every segment but a radial one (constant ``x``: a straight line) to ``layouts.DENSIFY``."""
    pts = [(float(x), float(y)) for x, y in points]
    if layout.kind == "cartesian" or len(pts) < 2:
        return pts
    out = [pts[0]]
    for a, b in itertools.pairwise(pts):
        out.extend(densify([a, b])[1:] if a[0] != b[0] else [b])
    return out


def sharp_turns(pts: Sequence[tuple[int, int]], limit: float | None = None) -> list[tuple[int, int]]:
    """The inner vertices of a pixel polyline where its direction turns by more than ``limit`` degrees (default
    ``JOINT_TURN``; a vertex between two segments of zero length is skipped)."""
    limit = JOINT_TURN if limit is None else limit
    a = np.asarray(pts, float)
    d = np.diff(a, axis=0)
    before, after = d[:-1], d[1:]
    cross = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]
    dot = (before * after).sum(axis=1)
    turn = np.degrees(np.abs(np.arctan2(cross, dot)))
    return [pts[k + 1] for k in np.nonzero(turn > limit)[0]]


class Canvas:
    """A composite image being drawn: ``frame`` places its parts, ``layout`` maps the main panel's index
    space.  Every method draws without anti-aliasing; ``placer`` holds the boxes of labels and icons."""

    def __init__(self, fr: Frame, layout: Layout, background: tuple[int, int, int] = WHITE) -> None:
        self.frame = fr
        self.layout = layout
        self.image = Image.new("RGB", fr.size, background)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"
        self.placer = Placer()

    @property
    def polar(self) -> bool:
        return self.layout.kind == "polar"

    # cells and lines
    def fill_cell(self, r: int, c: int, colour: tuple[int, int, int], layout: Layout | None = None) -> None:
        """Fill cell ``(r, c)`` (of ``layout``, default the main one) with ``colour``."""
        layout = layout or self.layout
        self.draw.polygon([(round(x), round(y)) for x, y in layout.cell_polygon(r, c)], fill=colour)

    def line(self, points: Sequence[Point], colour=BLACK, width: int = PATH_WIDTH) -> None:
        """A pixel polyline (whole pixels) with a round joint (a disc ``width`` px across) wherever it turns by more
        than ``JOINT_TURN`` degrees; a densified curve turns less at every vertex and its segments already meet
        without a gap."""
        pts = [(round(x), round(y)) for x, y in points]
        if len(pts) < 2:
            return
        self.draw.line(pts, fill=colour, width=width)
        if width > 2 and len(pts) > 2:
            half = (width - 1) / 2
            for x, y in sharp_turns(pts):
                self.draw.ellipse((x - half, y - half, x + half, y + half), fill=colour)

    def polyline(self, points: Sequence[Point], colour=BLACK, width: int = PATH_WIDTH, wrap: bool = False,
                 layout: Layout | None = None) -> list[list[Point]]:
        """An index-space polyline, densified and mapped (cut at the edge in a wrapping Cartesian picture);
        returns the pixel pieces drawn.  Only the segments that map to curves are densified (``drawn_points``)."""
        layout = layout or self.layout
        pieces = layout.map_path(drawn_points(points, layout), densify_step=math.inf, wrap=wrap)
        for piece in pieces:
            self.line(piece, colour, width)
        return pieces

    def dashed(self, points: Sequence[Point], colour=BLACK, width: int = DASH_WIDTH) -> None:
        """A dashed pixel polyline."""
        for piece in dashes(points):
            self.line(piece, colour, width)

    def circle(self, radius: float, colour=BLACK, width: int = GRID_WIDTH, layout: PolarLayout | None = None) -> None:
        """A circle about the polar centre, its stroke centred on ``radius``."""
        layout = layout or self.layout
        cx, cy = layout.center
        half = width / 2
        box = (round(cx - radius - half), round(cy - radius - half), round(cx + radius + half) - 1,
               round(cy + radius + half) - 1)
        self.draw.ellipse(box, outline=colour, width=width)

    def grid_lines(self, colour=GRID, width: int = GRID_WIDTH, layout: Layout | None = None) -> None:
        """Every cell boundary: the Cartesian lines, or the polar circles and radials (extra sectors too)."""
        layout = layout or self.layout
        if layout.kind == "polar":
            for k in range(layout.rows + 1):
                self.circle(layout.ring_radius(k), colour, width, layout)
            for j in range(layout.columns_drawn):
                self.line([layout.lattice_point(0, j), layout.lattice_point(layout.rows, j)], colour, width)
            return
        for i in range(layout.rows + 1):
            self.line([layout.lattice_point(i, 0), layout.lattice_point(i, layout.cols)], colour, width)
        for j in range(layout.cols + 1):
            self.line([layout.lattice_point(0, j), layout.lattice_point(layout.rows, j)], colour, width)

    def seam_wall(self, width: int = WALL_WIDTH, layout: PolarLayout | None = None) -> None:
        """The bounded polar seam: a thick radial wall at 12 o'clock (between the last sector and sector 1)."""
        layout = layout or self.layout
        inner, outer = layout.seam()
        self.line([inner, outer], BLACK, width)

    def boundary(self, boundary: str, wraps: bool | None = None, layout: Layout | None = None,
                 width: int = WALL_WIDTH) -> None:
        """The picture's outer walls for ``boundary``: polar: thick inner and outer circles, plus the seam
        wall when bounded (an invariant picture has none: nothing in it touches the seam, so no wall is drawn
        there; a task whose own structure has a border at the seam draws it itself); Cartesian: a thick border,
        its left and right sides dashed when the picture wraps (``wraps`` defaults to boundary == "wrapping")."""
        layout = layout or self.layout
        wraps = boundary == "wrapping" if wraps is None else wraps
        if layout.kind == "polar":
            self.circle(layout.inner, BLACK, width, layout)
            self.circle(layout.outer, BLACK, width, layout)
            if boundary == "bounded":
                self.seam_wall(width, layout)
            return
        x0, y0, x1, y1 = layout.grid_box()
        self.line([(x0 - width / 2 + 1, y0), (x1 + width / 2 - 1, y0)], BLACK, width)
        self.line([(x0 - width / 2 + 1, y1), (x1 + width / 2 - 1, y1)], BLACK, width)
        if wraps:
            self.dashed([(x0, y0), (x0, y1)])
            self.dashed([(x1, y0), (x1, y1)])
        else:
            self.line([(x0, y0), (x0, y1)], BLACK, width)
            self.line([(x1, y0), (x1, y1)], BLACK, width)

    def wall(self, a: tuple[int, int], b: tuple[int, int], width: int = WALL_WIDTH, layout: Layout | None = None
             ) -> None:
        """A thick wall on the edge between orthogonally adjacent cells ``a`` and ``b`` (across the wrap
        too): an arc between rings, a radial line between sectors."""
        layout = layout or self.layout
        (r1, c1), (r2, c2) = a, b
        if r1 == r2:
            cols = layout.cols
            j = max(c1, c2) if abs(c1 - c2) == 1 else (0 if layout.kind == "polar" else cols)
            self.polyline([(j, r1), (j, r1 + 1)], BLACK, width, layout=layout)
        else:
            i = max(r1, r2)
            self.polyline([(c1, i), (c1 + 1, i)], BLACK, width, layout=layout)

    def row_line(self, i: float, colour=BLACK, width: int = WALL_WIDTH, layout: Layout | None = None) -> None:
        """The whole lattice line ``y = i`` in one stroke: a circle in polar, a horizontal line in Cartesian (a
        wall along every edge of a row boundary, as ``wall`` would draw it edge by edge)."""
        layout = layout or self.layout
        if layout.kind == "polar":
            self.circle(float(layout.radius(i)), colour, width, layout)
        else:
            self.line([layout.lattice_point(i, 0), layout.lattice_point(i, layout.cols)], colour, width)

    def column_line(self, j: float, colour=BLACK, width: int = WALL_WIDTH, layout: Layout | None = None) -> None:
        """The whole lattice line ``x = j`` in one stroke: a radial in polar, a vertical line in Cartesian."""
        layout = layout or self.layout
        self.line([layout.lattice_point(0, j), layout.lattice_point(layout.rows, j)], colour, width)

    def arrow(self, points: Sequence[Point], colour=BLACK, width: int = PATH_WIDTH, head: float = 16.0,
              wrap: bool = False, layout: Layout | None = None) -> None:
        """An index-space path with an arrowhead at its end (``head`` px long)."""
        pieces = self.polyline(points, colour, width, wrap, layout)
        last = pieces[-1]
        tip = last[-1]
        back = tip
        travelled = 0.0
        for k in range(len(last) - 1, 0, -1):
            travelled += math.hypot(last[k][0] - last[k - 1][0], last[k][1] - last[k - 1][1])
            back = last[k - 1]
            if travelled >= head:
                break
        ang = math.atan2(tip[1] - back[1], tip[0] - back[0])
        left = (tip[0] - head * math.cos(ang - 0.45), tip[1] - head * math.sin(ang - 0.45))
        right = (tip[0] - head * math.cos(ang + 0.45), tip[1] - head * math.sin(ang + 0.45))
        self.draw.polygon([(round(p[0]), round(p[1])) for p in (tip, left, right)], fill=colour)

    # icons and text
    def icon_at(self, name: str, at: Point, colour, radius: float, angle: float = 0.0, outline=BLACK,
                reserve: bool = True) -> Box:
        """Icon ``name`` centred at pixel ``at`` (rounded to a whole pixel, so an icon rasterises the same
        wherever it stands: area parity between the renderings); returns (and reserves in ``placer``) its box."""
        at = (round(at[0]), round(at[1]))
        for points, role in icon_polygons(name, at, radius, angle):
            fill = {"fill": colour, "ink": BLACK, "ring": WHITE}[role]
            self.draw.polygon([(round(x), round(y)) for x, y in points], fill=fill,
                              outline=outline if role == "fill" else None)
        box = (at[0] - radius, at[1] - radius, at[0] + radius, at[1] + radius)
        if reserve:
            self.placer.add(box)
        return box

    def icon(self, name: str, r: int, c: int, colour, radius: float, heading: tuple[int, int] | None = None,
             layout: Layout | None = None) -> Box:
        """Icon ``name`` at the centre of cell ``(r, c)``; a heading icon is turned to the index direction
        ``heading`` (dr, dc) as drawn there (the local radial / tangent in polar)."""
        layout = layout or self.layout
        angle = 0.0
        if heading is not None:
            angle = layout.direction(c + 0.5, r + 0.5, heading[1], heading[0])
        return self.icon_at(name, layout.cell_center(r, c), colour, radius, angle)

    def text(self, text: str, at: Point, colour=BLACK, px: int | None = None, anchor: str = "mm",
             background=None, pad: int = 3, reserve: bool = True) -> Box:
        """``text`` at pixel ``at`` (upright, ``px`` default the frame's font px); an optional background box
        ``pad`` px around it.  Returns (and reserves) the box it covers."""
        px = px or self.frame.font_px
        box = text_box(text, at, px, anchor)
        if background is not None:
            self.draw.rectangle((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad), fill=background)
        _, mask = text_mask(text, px, anchor)
        self.image.paste(colour, (box[0] - TEXT_PAD, box[1] - TEXT_PAD), mask)
        if reserve:
            self.placer.add(box)
        return box

    def marker(self, letter: str, r: int, c: int, colour, radius: float, layout: Layout | None = None) -> Box:
        """A lettered disc (P, Q, S, T ...) at the centre of cell ``(r, c)``: the disc ``radius`` px, the letter
        at the frame's font px, black on the colour."""
        layout = layout or self.layout
        at = layout.cell_center(r, c)
        box = self.icon_at("disc", at, colour, radius)
        self.text(letter, at, BLACK, reserve=False)
        return box

    def place_label(self, text: str, candidates: Sequence[Point], colour=BLACK, background=WHITE) -> Box | None:
        """``text`` at the first candidate point where its box is clear of every reserved box (spec B.3); None
        (nothing drawn) when all collide."""
        for at in candidates:
            box = text_box(text, at, self.frame.font_px)
            if self.placer.fits(box):
                return self.text(text, at, colour, background=background)
        return None

    def index_labels(self, orientation: str = "out", colour=BLACK, px: int | None = None) -> None:
        """Row and column numbers (Cartesian: rows on the left, columns on top) or ring and sector numbers
        (polar: ring numbers 1.., innermost first, on white just counter-clockwise of the 12 o'clock radial and
        clear of it, so a bounded picture's seam wall stays one unbroken thick line (numbers drawn on the radial
        would cut it into what looks like a dashed wrap edge); sector numbers outside the rim at mid-angle),
        1-based, all reserved in the placer.  ``colour`` and ``px`` (default black at the frame's font px) set
        them apart from numbers that are part of the puzzle (Sudoku's digits)."""
        layout = self.layout
        px = px or self.frame.font_px
        if layout.kind == "cartesian":
            x0, y0, _, _ = layout.grid_box()
            for r in range(layout.rows):
                self.text(str(r + 1), (x0 - px, layout.cell_center(r, 0)[1]), colour, px)
            for c in range(layout.cols):
                self.text(str(c + 1), (layout.cell_center(0, c)[0], y0 - px), colour, px)
            return
        cx, cy = layout.center
        for ring in range(layout.rows):
            mid = (layout.ring_radius(ring) + layout.ring_radius(ring + 1)) / 2
            self.text(str(ring + 1), (cx - WALL_WIDTH / 2 - 4, cy - mid), colour, px, anchor="rm", background=WHITE,
                      pad=1)
        for s in range(layout.sectors):
            theta = float(layout.angle(s + 0.5))
            rho = layout.outer + self.frame.font_px
            self.text(str(s + 1), (cx + rho * math.cos(theta), cy - rho * math.sin(theta)), colour, px)

    def legend(self, entries: Sequence[str | tuple[str, tuple[int, int, int], str]], title: str | None = None
               ) -> None:
        """The legend / command box: light yellow in the Cartesian image, light cyan in the polar one; one
        line per entry, an entry either text or (icon name, colour, text)."""
        box = self.frame.legend
        if box is None:
            raise ValueError("this frame has no legend box (frame(..., legend_lines=n))")
        fill = LEGEND_CARTESIAN if self.frame.variant == "cartesian" else LEGEND_POLAR
        self.draw.rectangle(box, fill=fill, outline=BLACK, width=2)
        px = self.frame.font_px
        line = round(px * 1.45)
        x, y = box[0] + GAP, box[1] + GAP + line / 2
        lines = ([title] if title else []) + list(entries)
        for entry in lines:
            if isinstance(entry, tuple):
                name, colour, words = entry
                self.icon_at(name, (x + px / 2, y), colour, px * 0.55, reserve=False)
                self.text(words, (x + px * 1.5, y), anchor="lm", reserve=False)
            else:
                self.text(entry, (x, y), anchor="lm", reserve=False)
            y += line

    def option_labels(self, letters: Sequence[str]) -> None:
        """"(A)", "(B)" ... above the option panels."""
        for letter, at in zip(letters, self.frame.option_labels, strict=True):
            self.text(f"({letter})", at, reserve=False)

    def option_layout(self, k: int, rows: int, cols: int, geometry: dict) -> Layout:
        """The layout of option panel ``k`` (same variant and geometry as the main one, its own box)."""
        settings = {**geometry, "margin": geometry.get("option_margin", 8.0)}
        return layout_for(self.frame.variant, rows, cols, self.frame.options[k], **settings)
