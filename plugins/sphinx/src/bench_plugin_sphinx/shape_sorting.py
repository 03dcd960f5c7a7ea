"""``sphinx/shape-sorting`` (paper B.1.2, spec T2): k lettered outline shapes of one family on graph paper;
which of four orderings of the letters sorts them by the asked metric, ascending or descending?

Families and metrics (the paper's): regular polygons (one side count n = 3..8 per item, each turned its own
way) by area or perimeter, ellipses (one axis ratio 0.6-0.9 and one tilt per item) by area or perimeter,
angles (one arm length per item, each opening 15-170 degrees, turned its own way) by angle measure, and line
segments by length.  The k values form a geometric sequence v_max * r^i with r <= 0.9, so every two differ by
at least 10 % (the paper's minimum relative gap), and are dealt to the letters at random; each shape gets its
own palette colour (3 px outline) and a capital letter of one size (inside a polygon or ellipse, beside an
angle's vertex or a segment's middle).  Shapes are scattered at random without overlapping on a canvas sized
to hold them.  The options are orderings of the letters made by swapping pairs (``kit.orderings``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import sorting_words as words
from bench_plugin_sphinx.kit import complexity, indexed, orderings, spatial
from bench_plugin_sphinx.kit.canvas import graph_paper_counts, graph_paper_indices, text_coverage
from bench_plugin_sphinx.kit.distractors import other_letters
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import shape_sorting as verifier

ITEM_RANGE = (3, 10)
STROKE, LABEL_SIZE = 3, 30
#: Room kept around a letter inside a shape (its inradius at least this), and between shapes on the canvas.
INNER, GAP = 28.0, 14.0
UPPERCASE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_RATIO, MIN_RATIO = 0.9, 0.55
ATTEMPTS = 40


#: (cos t, sin t) of the 180 parameters t = 2 pi k / 180 an ellipse's outline runs through.
_TURNS = tuple((math.cos(t), math.sin(t)) for t in (2 * math.pi * k / 180 for k in range(180)))


def _dir(degrees: float) -> tuple[float, float]:
    """The unit vector ``degrees`` clockwise from straight up (screen coordinates)."""
    a = math.radians(degrees)
    return math.sin(a), -math.cos(a)


def outline(shape: dict[str, Any]) -> list[tuple[float, float]]:
    """The points the shape's stroke runs through (closed shapes repeat their first point)."""
    kind = shape["kind"]
    if kind == "polygon":
        (x, y), r, turn, n = shape["centre"], shape["radius"], shape["rotation"], shape["sides"]
        points = [(x + r * _dir(turn + 360 * k / n)[0], y + r * _dir(turn + 360 * k / n)[1]) for k in range(n)]
        return [*points, points[0]]
    if kind == "ellipse":
        (x, y), a, b, turn = shape["centre"], shape["a"], shape["b"], math.radians(shape["rotation"])
        c, s = math.cos(turn), math.sin(turn)
        points = [(x + a * cos_t * c - b * sin_t * s, y + a * cos_t * s + b * sin_t * c) for cos_t, sin_t in _TURNS]
        return [*points, points[0]]
    if kind == "angle":
        (x, y), arm, middle, measure = shape["vertex"], shape["arm"], shape["bisector"], shape["measure"]
        (ax, ay), (bx, by) = _dir(middle - measure / 2), _dir(middle + measure / 2)
        return [(x + arm * ax, y + arm * ay), (x, y), (x + arm * bx, y + arm * by)]
    return [tuple(p) for p in shape["ends"]]


def metric_value(shape: dict[str, Any], metric: str) -> float:
    """The shape's exact metric: area or perimeter (Ramanujan's formula for an ellipse), measure, length."""
    kind = shape["kind"]
    if kind == "polygon":
        r, n = shape["radius"], shape["sides"]
        return n / 2 * r * r * math.sin(2 * math.pi / n) if metric.endswith("area") else 2 * n * r * math.sin(
            math.pi / n)
    if kind == "ellipse":
        a, b = shape["a"], shape["b"]
        if metric.endswith("area"):
            return math.pi * a * b
        return math.pi * (3 * (a + b) - math.sqrt((3 * a + b) * (a + 3 * b)))
    if kind == "angle":
        return shape["measure"]
    (x0, y0), (x1, y1) = shape["ends"]
    return math.hypot(x1 - x0, y1 - y0)


def _size_for(metric: str, value: float, common: dict[str, float]) -> float:
    """The size parameter (circumradius, semi-major axis, opening, length) giving ``value``."""
    if metric.startswith("polygon"):
        n = common["sides"]
        if metric.endswith("area"):
            return math.sqrt(2 * value / (n * math.sin(2 * math.pi / n)))
        return value / (2 * n * math.sin(math.pi / n))
    if metric.startswith("ellipse"):
        q = common["ratio"]
        if metric.endswith("area"):
            return math.sqrt(value / (math.pi * q))
        return value / (math.pi * (3 * (1 + q) - math.sqrt((3 + q) * (1 + 3 * q))))
    return value


def _size_range(metric: str, common: dict[str, float]) -> tuple[float, float]:
    """The sizes a shape may take: big enough to hold its letter, small enough for the canvas."""
    if metric.startswith("polygon"):
        return INNER / math.cos(math.pi / common["sides"]), 150.0
    if metric.startswith("ellipse"):
        return INNER / common["ratio"], 160.0
    if metric == "angle":
        return 15.0, 170.0
    return 60.0, 380.0


def _shape(metric: str, size: float, common: dict[str, float], rng) -> dict[str, Any]:
    """A shape of the metric's family with the given size, placed at the origin (moved later)."""
    r2 = lambda v: round(float(v), 2)  # noqa: E731
    if metric.startswith("polygon"):
        return {"kind": "polygon", "centre": [0.0, 0.0], "radius": r2(size), "sides": int(common["sides"]),
                "rotation": r2(rng.uniform(0, 360))}
    if metric.startswith("ellipse"):
        return {"kind": "ellipse", "centre": [0.0, 0.0], "a": r2(size), "b": r2(size * common["ratio"]),
                "rotation": r2(common["tilt"])}
    if metric == "angle":
        return {"kind": "angle", "vertex": [0.0, 0.0], "arm": r2(common["arm"]), "bisector": r2(rng.uniform(0, 360)),
                "measure": r2(size)}
    dx, dy = _dir(float(rng.uniform(0, 180)))
    half = size / 2
    return {"kind": "segment", "ends": [[r2(-dx * half), r2(-dy * half)], [r2(dx * half), r2(dy * half)]]}


def _label_at(shape: dict[str, Any]) -> tuple[float, float]:
    """Where the shape's letter goes (its middle): a polygon's or ellipse's centre, 30 px behind an angle's
    vertex (away from its opening), 26 px to the side of a segment's middle."""
    kind = shape["kind"]
    if kind in ("polygon", "ellipse"):
        return tuple(shape["centre"])
    if kind == "angle":
        (x, y), (dx, dy) = shape["vertex"], _dir(shape["bisector"])
        return x - 30 * dx, y - 30 * dy
    (x0, y0), (x1, y1) = shape["ends"]
    length = math.hypot(x1 - x0, y1 - y0)
    return (x0 + x1) / 2 + 26 * (y1 - y0) / length, (y0 + y1) / 2 - 26 * (x1 - x0) / length


def _moved(shape: dict[str, Any], dx: float, dy: float) -> dict[str, Any]:
    out = dict(shape)
    for key in ("centre", "vertex"):
        if key in out:
            out[key] = [round(out[key][0] + dx, 2), round(out[key][1] + dy, 2)]
    if "ends" in out:
        out["ends"] = [[round(x + dx, 2), round(y + dy, 2)] for x, y in out["ends"]]
    return out


def _footprint(shape: dict[str, Any]) -> tuple[float, float, float]:
    """(centre x, centre y, radius) of a circle holding the shape's stroke and its letter."""
    points = outline(shape)
    lx, ly = _label_at(shape)
    points += [(lx - 22, ly - 19), (lx + 22, ly - 19), (lx - 22, ly + 19), (lx + 22, ly + 19)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return cx, cy, max(math.hypot(x - cx, y - cy) for x, y in points) + STROKE


def _layout(shapes: list[dict[str, Any]], rng) -> tuple[list[dict[str, Any]], tuple[int, int]] | None:
    """The shapes moved to random places on a canvas sized to hold them, their footprints ``GAP`` apart."""
    prints = [_footprint(s) for s in shapes]
    side = math.sqrt(sum(math.pi * (r + GAP) ** 2 for _, _, r in prints) / 0.42)
    aspect = float(rng.uniform(0.85, 1.2))
    for _grow in range(14):
        width = int(min(1800, max(2 * max(r for *_, r in prints) + 40, side * aspect)))
        height = int(min(1800, max(2 * max(r for *_, r in prints) + 40, side / aspect)))
        placed: list[tuple[float, float, float]] = []
        moved = []
        for shape, (fx, fy, fr) in zip(shapes, prints, strict=True):
            for _try in range(300):
                x, y = float(rng.uniform(fr + 12, width - fr - 12)), float(rng.uniform(fr + 12, height - fr - 12))
                if all(math.hypot(x - a, y - b) >= fr + c + GAP for a, b, c in placed):
                    placed.append((x, y, fr))
                    moved.append(_moved(shape, round(x - fx, 2), round(y - fy, 2)))
                    break
            else:
                break
        if len(moved) == len(shapes):
            return moved, (width, height)
        side *= 1.08
    return None


def _blend(under: np.ndarray, coverage: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    """``colour`` laid over the (n, 3) int32 colours ``under`` through ``coverage`` (n, 0..255), rounded as Pillow's
    paste through a mask rounds: (under (255 - a) + colour a + 128) / 255 by two shifts ((n, 3) int32)."""
    a = coverage[:, None]
    mixed = under * (255 - a) + np.array(colour, np.int32) * a + 128
    return ((mixed >> 8) + mixed) >> 8


class _Layers:
    """The picture being composed, as each pixel's index into the colours laid so far (every colour once, with
    the number of pixels showing it) while there are at most 256 of them, as (h, w, 3) RGB pixels after that;
    starts as the picture of ``indices`` (h, w uint8, kept and changed) into distinct colour ``keys`` (r << 16 |
    g << 8 | b) that ``counts`` pixels show each."""

    def __init__(self, keys: Sequence[int], indices: np.ndarray, counts: Sequence[int]) -> None:
        self.keys = [int(key) for key in keys]
        self.where = {key: k for k, key in enumerate(self.keys)}
        if len(self.where) != len(self.keys) or len(counts) != len(self.keys) or len(self.keys) > 256:
            raise ValueError("layers start from at most 256 distinct colours, each with its count")
        self.indices = indices
        self.counts = np.zeros(256, np.int64)
        self.counts[: len(self.keys)] = counts
        self.rgb: np.ndarray | None = None

    @classmethod
    def on_paper(cls, width: int, height: int) -> _Layers:
        """Layers starting as the graph paper of ``kit.canvas``."""
        keys, indices = graph_paper_indices(width, height)
        return cls(keys, indices, graph_paper_counts(width, height))

    def lay(self, left: int, top: int, coverage: np.ndarray, colour: tuple[int, int, int]) -> None:
        """Lay ``colour`` through ``coverage`` (h, w, 0..255) with its top-left pixel at (left, top), cut to the
        picture, rounded as Pillow's paste through a mask rounds: (pixel (255 - a) + colour a + 128) / 255 by two
        shifts.  Only the pixels the coverage touches are read (an outline's box is mostly empty)."""
        height, width = self.indices.shape
        x0, y0 = max(0, -left), max(0, -top)
        coverage = coverage[y0: max(y0, height - top), x0: max(x0, width - left)]
        rows, cols = np.divmod(np.flatnonzero(coverage), coverage.shape[1])  # np.nonzero's order, read faster
        a = coverage[rows, cols].astype(np.int32)
        rows, cols = rows + top + y0, cols + left + x0
        if self.rgb is None:
            under = self.indices[rows, cols]
            # each (colour under, coverage) pair blended once
            pairs, inverse = np.unique(under.astype(np.int32) << 8 | a, return_inverse=True)
            mixed = _blend(self._palette()[pairs >> 8], pairs & 255, colour)
            keys = (mixed[:, 0] << 16 | mixed[:, 1] << 8 | mixed[:, 2]).tolist()
            for key in keys:
                if self.where.setdefault(key, len(self.keys)) == len(self.keys):
                    self.keys.append(key)
            if len(self.keys) <= 256:
                laid = np.array([self.where[key] for key in keys], np.uint8)[inverse.ravel()]
                self.counts -= np.bincount(under, minlength=256)
                self.counts += np.bincount(laid, minlength=256)
                self.indices[rows, cols] = laid
                return
            self.rgb = self._palette().astype(np.uint8)[self.indices]
        self.rgb[rows, cols] = _blend(self.rgb[rows, cols].astype(np.int32), a, colour)

    def _palette(self) -> np.ndarray:
        """The colours laid so far as an (n, 3) int32 array, in the order of their indices."""
        keys = np.array(self.keys, np.int32)
        return np.stack([keys >> 16, keys >> 8 & 255, keys & 255], axis=1)

    def picture(self) -> Image.Image:
        """The picture: while it shows at most 256 colours, the palette image the core would write for its RGB
        pixels (the colours it shows, ascending, and nothing else), else RGB."""
        if self.rgb is not None:
            return Image.fromarray(self.rgb)
        return indexed.ascending_palette_picture(self.indices, self.keys, np.flatnonzero(self.counts[: len(self.keys)]))


def compose(scene: dict[str, Any]) -> Image.Image:
    """The item's picture: graph paper, each shape's 3 px outline in its colour, its letter in black (the
    16-level mask of ``kit.canvas.stamp_text``).  Each outline is drawn at twice the size into a coverage mask of
    its own box and laid on the paper through it (smooth edges, the inside of the stroke in the exact colour).
    Composed as palette indices (``_Layers``), so the core writes it without converting RGB pixels."""
    width, height = scene["image_size"]
    s = spatial.SUPERSAMPLE
    layers = _Layers.on_paper(width, height)
    for shape in scene["shapes"]:
        points = outline(shape)
        x0 = max(0, int(min(p[0] for p in points)) - 2 * STROKE)
        y0 = max(0, int(min(p[1] for p in points)) - 2 * STROKE)
        x1 = min(width, int(max(p[0] for p in points)) + 2 * STROKE + 1)
        y1 = min(height, int(max(p[1] for p in points)) + 2 * STROKE + 1)
        mask = Image.new("L", ((x1 - x0) * s, (y1 - y0) * s), 0)
        ImageDraw.Draw(mask).line([((x - x0) * s - 0.5, (y - y0) * s - 0.5) for x, y in points], fill=255,
                                  width=STROKE * s, joint="curve")
        layers.lay(x0, y0, np.asarray(mask.reduce(s)), rgb(shape["hex"]))
    for shape in scene["shapes"]:
        left, top, coverage = text_coverage(shape["label"], shape["letter"], scene["label_size"], anchor="mm")
        layers.lay(left, top, coverage, (0, 0, 0))
    return layers.picture()


class ShapeSorting(PaperSets, task="shape-sorting"):
    def check_params(self, params):
        complexity.refuse_knob_with_level(params, "items", "the number of shapes")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        low, high = ITEM_RANGE
        k = complexity.knob_value(params, "items", low, high, rng)
        metric = params["metric"] or cyclic(random, words.METRICS, "metric-order")
        direction = params["direction"] or cyclic(random, words.DIRECTIONS, "direction-order")
        for _attempt in range(ATTEMPTS):
            scene = self._scene(metric, k, rng)
            if scene is not None:
                break
        else:
            raise GenerationError(f"shape-sorting: no layout of {k} shapes for {metric} in {ATTEMPTS} draws")
        truth = [s["letter"] for s in sorted(scene["shapes"], key=lambda s: metric_value(s, metric),
                                               reverse=direction == "descending")]
        position = random.balanced(4, "answer")
        made, roles = orderings.swap_options(truth, position, rng)
        options = [words.option_text(o) for o in made]
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        scene.update(direction=direction, options=roles)
        size = tuple(scene["image_size"])
        metadata = {"scene": scene, "metric": metric, "direction": direction, "items": k,
                    "complexity": complexity.record("items", k, low, high), "paper_answer": "abcd"[position],
                    **({} if level is None else {"difficulty_knobs": {"items": k}})}
        return Problem(question=words.question(words.phrase(stem, metric, direction), options),
                       answer="ABCD"[position], image_size=size,
                       params={**params, "metric": metric, "items": k, "direction": direction}, options=options,
                       answer_type="option", metadata=metadata)

    def _scene(self, metric, k, rng) -> dict[str, Any] | None:
        common = {"sides": int(rng.integers(3, 9)), "ratio": float(rng.uniform(0.6, 0.9)),
                  "tilt": float(rng.uniform(0, 180)), "arm": float(rng.uniform(80, 120))}
        low, high = _size_range(metric, common)
        top_value = metric_value(_shape(metric, high, common, rng), metric) * float(rng.uniform(0.75, 1.0))
        floor_value = metric_value(_shape(metric, low, common, rng), metric)
        lowest_ratio = (floor_value / top_value) ** (1 / (k - 1))
        if lowest_ratio > MAX_RATIO:
            return None
        ratio = float(rng.uniform(max(lowest_ratio, MIN_RATIO), MAX_RATIO))
        values = [top_value * ratio ** i for i in range(k)]
        shapes = [_shape(metric, _size_for(metric, v, common), common, rng) for v in values]
        shapes = [shapes[int(i)] for i in rng.permutation(k)]
        placed = _layout(shapes, rng)
        if placed is None:
            return None
        shapes, size = placed
        letters = [UPPERCASE[int(i)] for i in rng.permutation(26)[:k]]
        names = [list(PALETTE)[int(i)] for i in rng.permutation(len(PALETTE))[:k]]
        records = []
        for shape, letter, name in zip(shapes, letters, names, strict=True):
            x, y = _label_at(shape)
            records.append({**shape, "letter": letter, "colour": name, "hex": PALETTE[name],
                            "label": [round(x), round(y)]})
        return {"image_size": list(size), "metric": metric, "stroke": STROKE, "label_size": LABEL_SIZE,
                "shapes": records}

    def render(self, problem):
        return [compose(problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return other_letters(problem.answer, count)

    def hardness(self, item):
        """The number of shapes k."""
        return float(len(item.metadata["scene"]["shapes"]))


TASK = ShapeSorting()
