"""The independent solver of the verify hook.

It does not trust the generator's vertex order: it takes the glyphs as an unordered set of (position,
token), projects every glyph centre onto the drawn polyline with shapely, and reads the tokens off in
arc-length order from the START end.  It also recounts crossings and tortuosity with shapely, and reads
the glyph colours back from the rendered pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from PIL.Image import Image

from bench_plugin_traversal.glyphs import COLOURS, split_token


def solve_order(points: np.ndarray, glyphs: Sequence[tuple[tuple[float, float], str]], start: str) -> list[str]:
    """The token sequence met walking the polyline ``points`` from the glyph ``start`` to the far end.

    ``glyphs`` is an unordered collection of (centre, token).  Raises ValueError if a glyph is off the
    line, two glyphs project to the same place, or the START glyph is not at an end of the line.
    """
    line = shapely.LineString(points)
    centres = shapely.points([c for c, _ in glyphs])
    off = shapely.distance(line, centres)
    if float(np.max(off)) > 1e-6:
        raise ValueError(f"a glyph lies {float(np.max(off)):.3f} px off the line")
    along = shapely.line_locate_point(line, centres)
    order = np.argsort(along, kind="stable")
    if np.any(np.diff(along[order]) < 1.0):
        raise ValueError("two glyphs sit at the same place along the line")
    tokens = [glyphs[int(i)][1] for i in order]
    if tokens[0] == start:
        return tokens
    if tokens[-1] == start:
        return tokens[::-1]
    raise ValueError(f"the START glyph {start!r} is not at an end of the line")


def count_crossings_shapely(points: np.ndarray) -> int:
    """Proper crossings between non-adjacent segments, counted with shapely segment intersections.

    A crossing counts when two non-adjacent segments meet in a single point that is an endpoint of
    neither.
    """
    n = len(points) - 1
    segments = shapely.linestrings(np.stack([points[:-1], points[1:]], axis=1))
    i, j = np.triu_indices(n, k=2)
    meet = shapely.intersection(segments[i], segments[j])
    count = 0
    for geometry, a, b in zip(meet, i, j, strict=True):
        if geometry.is_empty:
            continue
        if geometry.geom_type != "Point":
            raise ValueError(f"segments {a} and {b} overlap along a line")
        ends = np.array([points[a], points[a + 1], points[b], points[b + 1]])
        if np.min(np.hypot(*(ends - [geometry.x, geometry.y]).T)) > 1e-7:
            count += 1
    return count


def tortuosity_shapely(points: np.ndarray) -> float:
    """Path length over end-to-end distance, measured with shapely."""
    return shapely.LineString(points).length / shapely.Point(points[0]).distance(shapely.Point(points[-1]))


def glyph_colour_errors(
    image: Image, glyphs: Sequence[tuple[tuple[float, float], str]], tolerance: float = 60.0
) -> list[str]:
    """Glyphs whose centre pixel in ``image`` is not their declared colour (each is a failure message)."""
    pixels = np.asarray(image.convert("RGB"), dtype=float)
    height, width = pixels.shape[:2]
    failures = []
    for (x, y), token in glyphs:
        col, row = round(x), round(y)
        if not (0 <= col < width and 0 <= row < height):
            failures.append(f"glyph {token!r} at ({x:.1f}, {y:.1f}) is outside the image")
            continue
        seen = pixels[row, col]
        want = np.array(COLOURS[split_token(token)[0]], dtype=float)
        if float(np.linalg.norm(seen - want)) > tolerance:
            failures.append(f"glyph {token!r} at ({x:.1f}, {y:.1f}) shows colour {tuple(int(v) for v in seen)}")
    return failures
