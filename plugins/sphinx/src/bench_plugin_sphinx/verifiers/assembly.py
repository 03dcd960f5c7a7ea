"""Congruence and assembly of cell shapes, for the verifiers (written apart from ``kit.polyforms``).

A cell is its polygon as complex numbers (unit coordinates).  A shape is placed on a target by one of the 24
isometries fixing the origin that are multiples of 30 degrees, with or without complex conjugation (a mirror
in the x axis), and a translation that takes its first cell's vertex mean onto a target cell's: every square,
triangular, hexagonal and rhombille symmetry is among them, and a placement only counts when every cell lands
exactly (to 1e-3) on a target cell.  ``congruent`` asks for one placement of a shape onto another of the same
size; ``assemblable`` runs Knuth's Algorithm X over the placements of every piece (columns: the target's
cells and one per piece), so a bag that cannot tile its target is proved unable to.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Sequence

import numpy as np

TURNS = tuple(cmath.exp(1j * math.pi * k / 6) for k in range(12))
PRECISION = 1000


def cells_of(polys: Sequence[Sequence[Sequence[float]]]) -> list[list[complex]]:
    return [[complex(x, y) for x, y in poly] for poly in polys]


def _key(points: Sequence[complex]) -> frozenset[tuple[int, int]]:
    return frozenset((round(p.real * PRECISION), round(p.imag * PRECISION)) for p in points)


def _mean(points: Sequence[complex]) -> complex:
    return sum(points) / len(points)


#: Vertex means are looked up on a grid of 1/100 unit (cells' means lie at least 0.28 apart); a target's mean
#: is filed under every grid point within 1/1000 unit of it, so a lookup never misses by rounding.
SPOT, SLACK = 100, 0.1


def _spot(p: complex) -> tuple[int, int]:
    return round(p.real * SPOT), round(p.imag * SPOT)


def _spots(p: complex) -> set[tuple[int, int]]:
    x, y = p.real * SPOT, p.imag * SPOT
    return {(round(x + dx), round(y + dy)) for dx in (-SLACK, SLACK) for dy in (-SLACK, SLACK)}


def placements(piece: list[list[complex]], target: list[list[complex]]) -> set[frozenset[int]]:
    """Every set of target cells that ``piece`` covers exactly under some placement: the cells' vertex means
    must land on target cells' (checked cell by cell, stopping at the first miss), then every vertex set must
    equal the target cell's."""
    found: set[frozenset[int]] = set()
    for cover in _covers(piece, target, found):
        found.add(cover)
    return found


def _covers(piece: list[list[complex]], target: list[list[complex]], known: set[frozenset[int]]):
    """The sets of target cells ``piece`` covers exactly, as ``placements`` finds them one placement after
    another (a set already in ``known`` is not checked or given again)."""
    where = {spot: k for k, cell in enumerate(target) for spot in _spots(_mean(cell))}
    shapes = [_key(cell) for cell in target]
    anchors = [_mean(cell) for cell in target]
    for mirror in (False, True):
        base = [[p.conjugate() for p in cell] for cell in piece] if mirror else piece
        for turn in TURNS:
            turned = [[p * turn for p in cell] for cell in base]
            means = [_mean(cell) for cell in turned]
            for anchor in anchors:
                d = anchor - means[0]
                hit = []
                for m in means:
                    k = where.get(_spot(m + d))
                    if k is None:
                        break
                    hit.append(k)
                else:
                    cover = frozenset(hit)
                    if len(cover) == len(hit) and cover not in known and all(
                            _key([p + d for p in cell]) == shapes[k] for cell, k in zip(turned, hit, strict=True)):
                        yield cover


def congruent(a: list[list[complex]], b: list[list[complex]]) -> bool:
    """Whether ``a`` can be turned, mirrored and moved onto ``b`` exactly (one placement that covers every cell
    of ``b`` is enough).  Shapes whose cells' vertex means lie at different distances from each other (an
    isometry keeps every distance) are told apart before the search of placements."""
    return len(a) == len(b) and _same_spread(a, b) and any(len(c) == len(b) for c in _covers(a, b, set()))


def _spread(cells: list[list[complex]]) -> np.ndarray:
    """The distances between every two cells' vertex means, sorted."""
    means = np.array([_mean(cell) for cell in cells])
    i, j = np.triu_indices(len(means), 1)
    return np.sort(np.abs(means[i] - means[j]))


def _same_spread(a: list[list[complex]], b: list[list[complex]]) -> bool:
    """Whether the two shapes' sorted mean-to-mean distances agree to 1e-6 (a necessary condition for
    ``congruent``: every placement is an isometry, and the tolerance covers rounding)."""
    return bool(np.allclose(_spread(a), _spread(b), rtol=0.0, atol=1e-6))


def assemblable(pieces: Sequence[list[list[complex]]], target: list[list[complex]]) -> bool:
    """Whether the pieces, each used once, tile ``target`` exactly (Algorithm X)."""
    if sum(len(p) for p in pieces) != len(target):
        return False
    rows: dict[tuple, set] = {}
    for i, piece in enumerate(pieces):
        for k, cover in enumerate(placements(piece, target)):
            rows[(i, k)] = {("piece", i), *cover}
    columns: dict = {c: set() for c in [*(("piece", i) for i in range(len(pieces))), *range(len(target))]}
    for row, cols in rows.items():
        for c in cols:
            columns[c].add(row)
    return _search(columns, rows)


def _search(columns: dict, rows: dict) -> bool:
    if not columns:
        return True
    col = min(columns, key=lambda c: len(columns[c]))
    for row in list(columns[col]):
        removed = _select(columns, rows, row)
        if _search(columns, rows):
            _deselect(columns, rows, row, removed)
            return True
        _deselect(columns, rows, row, removed)
    return False


def _select(columns: dict, rows: dict, row) -> list:
    removed = []
    for c in rows[row]:
        for other in columns[c]:
            for c2 in rows[other]:
                if c2 != c:
                    columns[c2].discard(other)
        removed.append((c, columns.pop(c)))
    return removed


def _deselect(columns: dict, rows: dict, row, removed: list) -> None:
    for c, members in reversed(removed):
        columns[c] = members
        for other in members:
            for c2 in rows[other]:
                if c2 != c:
                    columns[c2].add(other)
