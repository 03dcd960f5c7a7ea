"""Paths along tile edges for the line tasks (spec T8, T9, 7.2 #9): random walks on a tiling's vertex graph
that never revisit a vertex (vertex-simple, so a line never crosses or touches itself and its two ends are
plain to see) and never use an edge another line already uses (lines of different colours may meet only at
vertices).

A path is a list of vertex indices; its length is its number of edges.  Everything is drawn from the ``rng``
passed in, and neighbours are visited in sorted order, so a path is a function of the graph and the draws.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Mapping

import numpy as np

Edge = tuple[int, int]


def edge(a: int, b: int) -> Edge:
    return (a, b) if a < b else (b, a)


def path_edges(path: list[int]) -> list[Edge]:
    """The edges of ``path`` in order."""
    return [edge(a, b) for a, b in itertools.pairwise(path)]


def walk(graph: Mapping[int, Iterable[int]], start: int, length: int, used: set[Edge],
         rng: np.random.Generator, avoid: frozenset[int] = frozenset(), prefer: frozenset[int] = frozenset(),
         bias: float = 1.0) -> list[int]:
    """A vertex-simple walk from ``start`` of at most ``length`` edges, none of them in ``used``, avoiding the
    vertices ``avoid``; it stops early where it is stuck.  Each step picks uniformly among the free
    neighbours, or, with ``prefer``, those in ``prefer`` ``bias`` times as likely as the others (the draw of
    ``rng.choice`` with those weights, ``weighted_index``)."""
    path, seen = [start], {start}
    while len(path) - 1 < length:
        here = path[-1]
        options = [v for v in sorted(graph[here]) if v not in seen and v not in avoid
                   and ((here, v) if here < v else (v, here)) not in used]
        if not options:
            break
        if prefer:
            step = options[weighted_index(rng, [bias if v in prefer else 1.0 for v in options])]
        else:
            step = options[int(rng.integers(len(options)))]
        path.append(step)
        seen.add(step)
    return path


#: Most weights ``weighted_index`` sums in plain Python: numpy sums shorter arrays one term after another, as
#: Python does, and longer ones pairwise.
PLAIN_SUM_LIMIT = 8


def weighted_index(rng: np.random.Generator, weights: list[float]) -> int:
    """The index ``rng.choice(len(weights), p=w / w.sum())`` draws (``w`` the weights as an array), drawing the
    same single uniform, with the same arithmetic: the probabilities' running sum divided by its last value,
    searched for the uniform (rightmost place); without ``choice``'s checks, which cost several times the draw."""
    if len(weights) >= PLAIN_SUM_LIMIT:
        array = np.array(weights)
        return int(rng.choice(len(weights), p=array / array.sum()))
    total = sum(weights)
    cumulative, run = [], 0.0
    for w in weights:
        run += w / total
        cumulative.append(run)
    last = cumulative[-1]
    return bisect.bisect_right([c / last for c in cumulative], rng.random())


def sample_path(graph: Mapping[int, Iterable[int]], length: int, used: set[Edge], rng: np.random.Generator,
                minimum: int = 2, tries: int = 30, avoid: frozenset[int] = frozenset(),
                ends_apart: bool = False, prefer: frozenset[int] = frozenset(), bias: float = 1.0) -> list[int] | None:
    """The longest of up to ``tries`` walks toward ``length`` edges from random start vertices (stopping at
    the first that reaches it); None when none reaches ``minimum`` edges.  With ``ends_apart``, a walk whose
    two ends are joined by a tile edge (a loop short of one edge, whose ends are hard to see) is refused;
    ``prefer`` and ``bias`` steer the steps as in ``walk``."""
    vertices = sorted(v for v in graph if v not in avoid)
    best: list[int] | None = None
    for _ in range(tries):
        start = vertices[int(rng.integers(len(vertices)))]
        path = walk(graph, start, length, used, rng, avoid, prefer, bias)
        if ends_apart and len(path) > 2 and path[-1] in graph[path[0]]:
            continue
        if best is None or len(path) > len(best):
            best = path
        if len(best) - 1 >= length:
            break
    if best is None or len(best) - 1 < minimum:
        return None
    return best


def is_simple(path: list[int]) -> bool:
    return len(set(path)) == len(path)
