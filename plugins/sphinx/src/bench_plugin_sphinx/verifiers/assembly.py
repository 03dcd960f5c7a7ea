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


def _spots(p: complex) -> set[tuple[int, int]]:
    x, y = p.real * SPOT, p.imag * SPOT
    return {(round(x + dx), round(y + dy)) for dx in (-SLACK, SLACK) for dy in (-SLACK, SLACK)}


def placements(piece: list[list[complex]], target: list[list[complex]],
               index: _Target | None = None) -> set[frozenset[int]]:
    """Every set of target cells that ``piece`` covers exactly under some placement: the cells' vertex means
    must land on target cells' (``_mean_hits``, every placement at once), then every vertex set must equal the
    target cell's.  ``index`` is ``_Target(target)`` when the caller already has it."""
    found: set[frozenset[int]] = set()
    for cover in _covers(piece, index or _Target(target), found):
        found.add(cover)
    return found


class _Target:
    """What the placement search reads of a target, found once however many pieces are placed on it: its cells'
    vertex means (``anchors``), the grid spots filed under each mean (sorted ``filed`` codes and their
    ``owners``), and, when every cell has the same number of vertices, all distinct once rounded, each cell's
    sorted packed vertices (``packed``, else None and the cells' ``_key`` sets in ``shapes``)."""

    def __init__(self, target: list[list[complex]]) -> None:
        self.cells = target
        self.anchors = [_mean(cell) for cell in target]
        where = {spot: k for k, cell_mean in enumerate(self.anchors) for spot in _spots(cell_mean)}
        spots = np.array(list(where), dtype=np.int64)
        filed = spots[:, 0] << 32 | (spots[:, 1] & 0xFFFFFFFF)
        order = np.argsort(filed)
        self.filed, self.owners = filed[order], np.array(list(where.values()), dtype=np.int64)[order]
        self.packed = None
        if len({len(cell) for cell in target}) == 1:
            packed = np.sort(_packed(np.array(target)), axis=1)
            if (np.diff(packed, axis=1) != 0).all():
                self.packed = packed
        self._shapes: list[frozenset] | None = None

    @property
    def shapes(self) -> list[frozenset[tuple[int, int]]]:
        """Each cell's ``_key`` set (made when first asked for)."""
        if self._shapes is None:
            self._shapes = [_key(cell) for cell in self.cells]
        return self._shapes


def _covers(piece: list[list[complex]], target: _Target, known: set[frozenset[int]]):
    """The sets of target cells ``piece`` covers exactly, as ``placements`` finds them one placement after
    another (a set already in ``known`` is not checked or given again)."""
    views, means = _views(piece)
    anchors = target.anchors
    moves = [(v, anchors[a] - complex(means[v, 0]), hit) for v, a, hit in _mean_hits(means, target)]
    same = _same_vertices(views, target, moves)
    shapes = target.shapes if same is None else []
    for n, (v, d, hit) in enumerate(moves):
        cover = frozenset(hit)
        if len(cover) == len(hit) and cover not in known and (
                same[n] if same is not None
                else all(_key([p + d for p in cell]) == shapes[k] for cell, k in zip(views[v], hit, strict=True))):
            yield cover


def _views(piece: list[list[complex]]) -> tuple[np.ndarray | list, np.ndarray]:
    """(the piece's 24 views: its points times each of ``TURNS``, as given and then mirrored (conjugated); the
    vertex mean of every cell of every view, (24, cells)).  The views are one array (24, cells, vertices) when
    every cell has the same number of vertices, else lists."""
    if len({len(cell) for cell in piece}) != 1:
        views = []
        for mirror in (False, True):
            base = [[p.conjugate() for p in cell] for cell in piece] if mirror else piece
            views += [[[p * turn for p in cell] for cell in base] for turn in TURNS]
        return views, np.array([[_mean(cell) for cell in view] for view in views], dtype=np.complex128)
    points = np.array(piece, dtype=np.complex128)
    turns = np.array(TURNS)[:, None, None]
    views = np.concatenate([points[None] * turns, np.conj(points)[None] * turns])
    total = np.zeros(views.shape[:2], np.complex128)
    for k in range(views.shape[2]):  # summed point after point, as ``_mean`` does
        total = total + views[:, :, k]
    return views, total / views.shape[2]


def _mean_hits(means: np.ndarray, target: _Target):
    """(view, anchor, target cells) for every view v of the piece (its cells' vertex means ``means[v]``) and
    target cell anchor such that the translation d taking the view's first mean onto the anchor's puts every
    mean m + d on a target cell's mean (m + d rounded to the grid of 1 / ``SPOT`` unit is one of that mean's
    ``_spots``), in the order view, then anchor: all views and anchors in one array pass."""
    filed, owners = target.filed, target.owners
    m = np.array(means, dtype=np.complex128)  # (views, piece cells)
    d = np.array(target.anchors, dtype=np.complex128)[None, :] - m[:, :1]  # (views, anchors)
    moved = m[:, None, :] + d[:, :, None]  # (views, anchors, piece cells)
    wanted = np.rint(moved.real * SPOT).astype(np.int64) << 32 | (np.rint(moved.imag * SPOT).astype(np.int64)
                                                                 & 0xFFFFFFFF)
    at = np.minimum(np.searchsorted(filed, wanted), len(filed) - 1)
    for v, a in zip(*np.nonzero((filed[at] == wanted).all(axis=2)), strict=True):
        yield int(v), int(a), owners[at[v, a]].tolist()


def _same_vertices(views: np.ndarray | list, target: _Target,
                   moves: list[tuple[int, complex, list[int]]]) -> list[bool] | None:
    """For each move (view v, translation d, the target cell each of its cells lands on), whether every cell of
    view v moved by d has exactly its target cell's vertex set (``_key``: points to 1 / ``PRECISION``), all
    moves measured at once and the sets compared as sorted arrays; None (compare ``_key`` sets one by one)
    unless every cell has the same number of vertices, all distinct once rounded (then sets and sorted arrays
    agree)."""
    wanted = target.packed
    if not moves or not isinstance(views, np.ndarray) or wanted is None or wanted.shape[1] != views.shape[2]:
        return None
    moved = views[[v for v, _, _ in moves]] + np.array([d for _, d, _ in moves])[:, None, None]
    keys = np.sort(_packed(moved), axis=2)
    if not (np.diff(keys, axis=2) != 0).all():
        return None
    return (keys == wanted[np.array([hit for _, _, hit in moves])]).all(axis=(1, 2)).tolist()


def _packed(points: np.ndarray) -> np.ndarray:
    """Each complex point as one integer: its ``_key`` pair (x and y in units of 1 / ``PRECISION``, rounded)
    packed x << 32 | y (low 32 bits)."""
    x = np.rint(points.real * PRECISION).astype(np.int64)
    y = np.rint(points.imag * PRECISION).astype(np.int64)
    return x << 32 | (y & 0xFFFFFFFF)


def congruent(a: list[list[complex]], b: list[list[complex]]) -> bool:
    """Whether ``a`` can be turned, mirrored and moved onto ``b`` exactly (one placement that covers every cell
    of ``b`` is enough).  Shapes whose cells' vertex means lie at different distances from each other (an
    isometry keeps every distance) are told apart before the search of placements."""
    return len(a) == len(b) and _same_spread(a, b) and any(len(c) == len(b) for c in _covers(a, _Target(b), set()))


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
    index = _Target(target) if pieces else None
    for i, piece in enumerate(pieces):
        for k, cover in enumerate(placements(piece, target, index)):
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
