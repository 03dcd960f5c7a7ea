"""The glyph vocabulary of TraversalBench: 8 colours x 5 shapes, and how each glyph is drawn.

Colours and shapes are the paper's (App. A.6 lists them in the prompt); the RGB values are ours, chosen
to stay far apart for colour-deficient and normal vision alike (see ``tests/test_glyphs.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (220, 30, 40),
    "blue": (30, 80, 220),
    "green": (30, 160, 50),
    "orange": (255, 140, 0),
    "yellow": (250, 225, 0),
    "cyan": (0, 215, 235),
    "purple": (150, 60, 200),
    "brown": (125, 70, 25),
}
SHAPES = ("circle", "square", "tri", "star", "plus")
#: Every token "<colour> <shape>", in a fixed order.
VOCABULARY: tuple[str, ...] = tuple(f"{c} {s}" for c in COLOURS for s in SHAPES)
#: Words models use for our words (TraversalBench §3.2 parsing: triangle->tri, violet->purple, cross->plus).
SYNONYMS: dict[str, str] = {
    "triangle": "tri",
    "triangles": "tri",
    "violet": "purple",
    "magenta": "purple",
    "cross": "plus",
    "+": "plus",
    "plus sign": "plus",
    "squares": "square",
    "circles": "circle",
    "stars": "star",
    "grey": "gray",
}
DEFAULT_START = "red square"
OUTLINE = (32, 32, 32)


def split_token(token: str) -> tuple[str, str]:
    """``"red square"`` -> ``("red", "square")``."""
    colour, shape = token.split(" ")
    return colour, shape


def shape_polygon(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The outline of a polygonal glyph of radius ``r`` centred at (cx, cy) (not for circles).

    Sizes are tuned so every shape covers a similar area, so no shape stands out by size.
    """
    if shape == "square":
        h = r * 0.86
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    if shape == "tri":
        rr = r * 1.22
        return [(cx + rr * math.cos(a), cy + rr * 0.12 - rr * math.sin(a)) for a in _angles(3, 90)]
    if shape == "star":
        outer, inner = r * 1.25, r * 0.55
        points = []
        for k, a in enumerate(_angles(10, 90)):
            radius = outer if k % 2 == 0 else inner
            points.append((cx + radius * math.cos(a), cy - radius * math.sin(a)))
        return points
    if shape == "plus":
        a, b = r * 1.05, r * 0.38
        return [
            (cx - b, cy - a), (cx + b, cy - a), (cx + b, cy - b), (cx + a, cy - b), (cx + a, cy + b), (cx + b, cy + b),
            (cx + b, cy + a), (cx - b, cy + a), (cx - b, cy + b), (cx - a, cy + b), (cx - a, cy - b), (cx - b, cy - b),
        ]
    raise ValueError(f"unknown glyph shape {shape!r}; shapes are {', '.join(SHAPES)}")


def _angles(count: int, start_deg: float) -> Sequence[float]:
    return [math.radians(start_deg + 360.0 * k / count) for k in range(count)]
