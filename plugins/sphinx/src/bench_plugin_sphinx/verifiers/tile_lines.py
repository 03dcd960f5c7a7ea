"""Verifier of ``sphinx/tiles-line-length`` and ``sphinx/tiles-line-intersections``: the lines are traced on
the picture.

The scene records the board's corner points in pixels and the lines' colour names (nothing of the lines'
courses is read).  The tile edges are found as the pairs of corners at the shortest corner-to-corner
distance; an edge belongs to a line when the picture shows the line's exact colour all along the middle of
the edge (40 % of its length, clear of the corners where lines meet).  Each colour's edges must form one
vertex-simple path (connected, no corner with three or more of its edges, two ends), and no pixel of a line
colour may lie off the edges found.  The length is that path's edge count; the intersections are the
corners on both paths.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx import line_words as words
from bench_plugin_sphinx.verifiers.pixels import NAMED, hex_rgb, image_keys
from bench_plugin_sphinx.verifiers.records import guarded

#: Fractions of an edge's length sampled for its colour (the middle, away from the corners).
SAMPLES = np.linspace(0.3, 0.7, 7)
#: Corner pairs within this share of the shortest distance are edges.
EDGE_TOLERANCE = 0.04


def phrase(name: str) -> str:
    return f"{name} ({NAMED[name]})"


def candidate_edges(xy: np.ndarray) -> np.ndarray:
    """Pairs (i, j), i < j, of corners at the shortest corner-to-corner distance (k x 2)."""
    i, j = _pairs(len(xy))
    dist = np.hypot(xy[i, 0] - xy[j, 0], xy[i, 1] - xy[j, 1])
    unit = float(dist[dist > 1.0].min())
    keep = np.abs(dist - unit) <= EDGE_TOLERANCE * unit
    return np.stack([i[keep], j[keep]], axis=1)


@lru_cache(maxsize=64)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j) of ``range(n)`` with i < j, in ``np.triu_indices`` order (read-only)."""
    i, j = np.triu_indices(n, 1)
    i.setflags(write=False)
    j.setflags(write=False)
    return i, j


def edge_colours(keys: np.ndarray, xy: np.ndarray, pairs: np.ndarray, names: list[str],
                 offset=(0.0, 0.0)) -> dict[str, list[tuple[int, int]]]:
    """For each colour of ``names``: the candidate edges whose middle shows exactly that colour throughout
    (``keys`` from ``colour_keys``)."""
    a, b = xy[pairs[:, 0]] + offset, xy[pairs[:, 1]] + offset
    xs = np.rint(a[:, :1] + SAMPLES * (b[:, :1] - a[:, :1])).astype(int)
    ys = np.rint(a[:, 1:] + SAMPLES * (b[:, 1:] - a[:, 1:])).astype(int)
    h, w = keys.shape
    inside = (xs >= 0).all(axis=1) & (xs < w).all(axis=1) & (ys >= 0).all(axis=1) & (ys < h).all(axis=1)
    samples = keys[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]  # k x 7
    out = {}
    for name in names:
        hit = inside & (samples == key(name)).all(axis=1)
        out[name] = [(int(p), int(q)) for p, q in pairs[hit]]
    return out


def path_problems(edges: list[tuple[int, int]]) -> list[str]:
    """Why ``edges`` are not one vertex-simple path (empty when they are)."""
    if not edges:
        return ["it has no edge in the picture"]
    graph: dict[int, set[int]] = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
        graph[b].add(a)
    problems = []
    if any(len(n) > 2 for n in graph.values()):
        problems.append("it branches (a corner with three or more of its edges)")
    seen, stack = {edges[0][0]}, [edges[0][0]]
    while stack:
        for nxt in graph[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    if len(seen) != len(graph):
        problems.append("it falls apart into separate pieces")
    ends = sum(len(n) == 1 for n in graph.values())
    if ends != 2:
        problems.append(f"it has {ends} ends, not 2 (a closed loop or a branch)")
    return problems


def colour_keys(image) -> np.ndarray:
    """Each pixel's colour as one integer 0xBBGGRR (h x w)."""
    return image_keys(image if image.mode == "RGB" else image.convert("RGB"))


def key(name: str) -> int:
    r, g, b = (int(v) for v in hex_rgb(NAMED[name]))
    return r | g << 8 | b << 16


def stray_pixels(keys: np.ndarray, xy: np.ndarray, found: dict[str, list[tuple[int, int]]], width: int,
                 offset=(0.0, 0.0)) -> int:
    """Pixels of any colour but white and black (the board's) farther than the line's half width (+2 px)
    from every edge found for some line."""
    ox, oy = offset
    mask = Image.new("L", (keys.shape[1], keys.shape[0]), 0)
    draw = ImageDraw.Draw(mask)
    r = width / 2 + 2
    for edges in found.values():
        for a, b in edges:
            draw.line((xy[a][0] + ox, xy[a][1] + oy, xy[b][0] + ox, xy[b][1] + oy), fill=255, width=width + 4)
        for v in {v for e in edges for v in e}:
            draw.ellipse((xy[v][0] + ox - r, xy[v][1] + oy - r, xy[v][0] + ox + r, xy[v][1] + oy + r), fill=255)
    coloured = (keys != 0xFFFFFF) & (keys != 0)
    return int(np.count_nonzero(coloured & (np.asarray(mask) == 0)))


def trace(item, images) -> tuple[dict[str, list[tuple[int, int]]], list[str]]:
    """Each recorded line colour's edges as read from the picture, and the failures found on the way."""
    scene = item.metadata["scene"]
    keys = colour_keys(images[0])
    xy = np.array(scene["vertices"], dtype=float)
    names = [line["colour"] for line in scene["lines"]]
    failures = []
    if len(set(names)) != len(names) or any(n not in NAMED for n in names):
        failures.append(f"the line colours {names} are not distinct named colours")
        return {}, failures
    found = edge_colours(keys, xy, candidate_edges(xy), names)
    for name, edges in found.items():
        failures += [f"the {name} line is not one simple path along tile edges: {p}" for p in path_problems(edges)]
    stray = stray_pixels(keys, xy, found, int(scene["line_width"]))
    if stray:
        failures.append(f"{stray} pixels of the lines' colours lie off the tile edges the lines cover")
    return found, failures


def _claimed(item) -> int | None:
    try:
        return int(str(item.answer).strip())
    except ValueError:
        return None


@guarded
def verify_length(item, images) -> list[str]:
    scene = item.metadata["scene"]
    asked = scene["asked"]
    failures = []
    if phrase(asked) not in item.question or words.LENGTH_RULE not in item.question:
        failures.append(f"the question does not ask for the {phrase(asked)} line's length with its rule")
    found, problems = trace(item, images)
    failures += problems
    if asked not in found:
        return [*failures, f"no {asked} line is recorded"]
    length = len(found[asked])
    if _claimed(item) != length:
        failures.append(f"the {asked} line covers {length} tile edges in the picture, but the answer is {item.answer}")
    return failures


@guarded
def verify_meetings(item, images) -> list[str]:
    scene = item.metadata["scene"]
    a, b = scene["asked"]
    failures = []
    if phrase(a) not in item.question or phrase(b) not in item.question or words.MEET_RULE not in item.question:
        failures.append(f"the question does not ask about the {phrase(a)} and {phrase(b)} lines with its rule")
    found, problems = trace(item, images)
    failures += problems
    if a not in found or b not in found or a == b:
        return [*failures, f"the asked lines {a}, {b} are not two recorded lines"]
    corners_a = {v for e in found[a] for v in e}
    corners_b = {v for e in found[b] for v in e}
    shared = len(corners_a & corners_b)
    if _claimed(item) != shared:
        failures.append(f"the {a} and {b} lines share {shared} corners in the picture, but the answer is "
                        f"{item.answer}")
    return failures
