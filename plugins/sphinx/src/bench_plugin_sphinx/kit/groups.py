"""Frieze and wallpaper groups built from their true generators (spec T13, T14, 7.2 #2).

Isometries of the plane are 3 x 3 homogeneous matrices in image coordinates (x right, y down; a rotation
by +theta turns counterclockwise *on screen*, as PIL's ``rotate``).  A group is given by generators (mirrors,
half-turns, quarter-turns, glide reflections and, for friezes, translations); its copies of a motif are the
orbit of one seed copy under the group, found by closing the generators, never from a table of per-cell
operations.

- Friezes: the seven frieze groups (``FRIEZE_GROUPS``: IUC name, Conway name) on a horizontal axis; a strip
  places its copies either in one ``row`` on the axis or in ``columns`` of two (above and below the axis),
  one copy (or column) per unit step, so that every strip of one layout has its copies at the same places
  and only their orientations tell the groups apart.  ``frieze_copies`` lists a strip's copies.
- Wallpapers: the seventeen wallpaper groups (``WALLPAPER_GROUPS``) on their lattices (oblique,
  rectangular, centred rectangular, square, hexagonal).  ``coset_representatives`` closes the generators
  modulo the lattice (one element per point-group element), ``best_seeds`` finds seed points far from every
  symmetry element, and ``pattern_copies`` lists the copies that reach a window.
- Lattices: ``make_lattice`` (whole even pixels but for the hexagonal one), ``reduce_basis``,
  ``lattice_symmetries`` (the maps that carry a lattice onto itself).
- Drawn patterns: ``PatternInk`` measures on a pattern's pixels how far an isometry is from a symmetry of it
  (the share of ink it does not carry onto ink of like darkness) and finds where a copy's image lies best over
  the ink, so a generator can check the finished picture against the group it built.
- Motifs: ``motif_changes`` measures how much a rendered motif changes under arbitrary linear maps about its
  ink centroid (turns by 60 or 120 degrees, mirrors at any angle), extending ``kit.probe`` beyond D4;
  ``self_symmetries`` and ``usable_motif`` reject a motif with any symmetry of its own or too little change
  under a pattern's maps;
  ``centred_sprite`` draws a motif with its ink centred on the sprite's centre pixel, ``transformed_sprite``
  turns or mirrors a sprite and ``stamp`` draws copies.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from PIL import Image

from bench_plugin_sphinx.kit import channels, motifs, probe

# -- isometries --------------------------------------------------------------------------------------------


def linear(matrix: Sequence[Sequence[float]]) -> np.ndarray:
    """The 3 x 3 isometry with linear part ``matrix`` and no translation."""
    out = np.eye(3)
    out[:2, :2] = np.asarray(matrix, dtype=float)
    return out


def translation(dx: float, dy: float) -> np.ndarray:
    out = np.eye(3)
    out[:2, 2] = (dx, dy)
    return out


def rotation(degrees: float) -> np.ndarray:
    """Rotation about the origin by ``degrees`` counterclockwise on screen (y down)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return linear(((c, s), (-s, c)))


def reflection(axis_degrees: float) -> np.ndarray:
    """Reflection across the line through the origin at ``axis_degrees`` (counterclockwise on screen from +x):
    0 is a horizontal line (top and bottom swap), 90 a vertical one (left and right swap)."""
    a = math.radians(2 * axis_degrees)
    c, s = math.cos(a), math.sin(a)
    return linear(((c, -s), (-s, -c)))


def about(op: np.ndarray, x: float, y: float) -> np.ndarray:
    """``op`` conjugated to act about the point (x, y) instead of the origin."""
    return translation(x, y) @ op @ translation(-x, -y)


def glide(axis_degrees: float, step: float, x: float = 0.0, y: float = 0.0) -> np.ndarray:
    """Reflection across the line through (x, y) at ``axis_degrees``, then a shift of ``step`` along it."""
    a = math.radians(axis_degrees)
    return translation(step * math.cos(a), -step * math.sin(a)) @ about(reflection(axis_degrees), x, y)


#: The linear parts of the D4 operations of ``kit.probe`` (image conventions: ``mirror`` swaps left and right,
#: ``transpose`` reflects across the main diagonal, ``rot90`` turns a quarter counterclockwise).
D4_LINEAR: dict[str, np.ndarray] = {
    "identity": np.array(((1, 0), (0, 1))),
    "mirror": np.array(((-1, 0), (0, 1))),
    "flip": np.array(((1, 0), (0, -1))),
    "transpose": np.array(((0, 1), (1, 0))),
    "transverse": np.array(((0, -1), (-1, 0))),
    "rot90": np.array(((0, 1), (-1, 0))),
    "rot180": np.array(((-1, 0), (0, -1))),
    "rot270": np.array(((0, -1), (1, 0))),
}


_D4_BY_ENTRIES = {tuple(int(v) for v in ref.ravel()): name for name, ref in D4_LINEAR.items()}


def d4_name(matrix: np.ndarray) -> str | None:
    """The ``kit.probe`` operation whose linear part is ``matrix`` (2 x 2 or 3 x 3), or None."""
    part = np.asarray(matrix, dtype=float)[:2, :2].ravel()
    whole = np.rint(part)
    if np.abs(part - whole).max() > 1e-6:
        return None
    return _D4_BY_ENTRIES.get(tuple(int(v) for v in whole))


def _key(op: np.ndarray, decimals: int = 6) -> tuple:
    return (*np.round(op[:2, :3], decimals).ravel().tolist(), 0.0)


def _close(generators: Sequence[np.ndarray], keep, limit: int = 4000) -> list[np.ndarray]:
    """The elements reachable from the identity by generators and their inverses, kept while ``keep(op)``
    holds (a window, or reduction modulo a lattice: ``keep`` returns the element to store or None).  Steps
    multiply on the right (g -> g s): the seed's image moves to a neighbouring copy, so a walk confined to a
    window still reaches every copy inside it."""
    steps = [*generators, *(np.linalg.inv(g) for g in generators)]
    start = keep(np.eye(3))
    found = {_key(start): start}
    frontier = [start]
    while frontier:
        if len(found) > limit:
            raise ValueError(f"group closure exceeded {limit} elements: are the generators or the window wrong?")
        nxt = []
        for element in frontier:
            for step in steps:
                candidate = keep(element @ step)
                if candidate is None:
                    continue
                key = _key(candidate)
                if key not in found:
                    found[key] = candidate
                    nxt.append(candidate)
        frontier = nxt
    return list(found.values())


def point_group(elements: Iterable[np.ndarray]) -> list[np.ndarray]:
    """The distinct linear parts (2 x 2) of ``elements``."""
    seen: dict[tuple, np.ndarray] = {}
    for op in elements:
        part = np.round(op[:2, :2], 6) + 0.0
        seen.setdefault(tuple(part.ravel().tolist()), part)
    return list(seen.values())


def rotation_order(parts: Iterable[np.ndarray]) -> int:
    """The largest order of a rotation among the linear parts ``parts`` (1 when none but the identity)."""
    best = 1
    for part in parts:
        if np.linalg.det(part) < 0:
            continue
        angle = math.degrees(math.atan2(part[0, 1], part[0, 0])) % 360
        if angle > 1e-6 and 360 - angle > 1e-6:
            best = max(best, round(360 / math.gcd(round(angle), 360)))
    return best


# -- friezes -----------------------------------------------------------------------------------------------

#: Strip layouts: ``row`` puts every copy on the axis (y = 0); ``columns`` puts a copy above (y = -1) and one
#: below (y = +1) the axis at every step.  Copies sit at x = k + 1/2 for k = 0 .. count - 1 in both.
FRIEZE_LAYOUTS = ("row", "columns")
_SEEDS = {"row": (0.5, 0.0), "columns": (0.5, -1.0)}


@dataclass(frozen=True)
class FriezeGroup:
    """A frieze group: its IUC and Conway names and, per layout it can be drawn in, its generators (units:
    one step between copies along x, the axis at y = 0, rows at y = -1 and +1)."""

    iuc: str
    conway: str
    generators: dict[str, tuple[np.ndarray, ...]] = field(hash=False, compare=False)


def _frieze_groups() -> dict[str, FriezeGroup]:
    mirror = reflection(90)  # x -> -x
    flip = reflection(0)  # y -> -y
    half = rotation(180)

    def v(x):  # vertical mirror line at x
        return about(mirror, x, 0)

    def r(x):  # half-turn about (x, 0)
        return about(half, x, 0)

    return {
        "p1": FriezeGroup("p1", "hop", {"row": (translation(1, 0),)}),
        "p11g": FriezeGroup("p11g", "step", {"row": (glide(0, 1),)}),
        "p1m1": FriezeGroup("p1m1", "sidle", {"row": (v(1), v(2))}),
        "p11m": FriezeGroup("p11m", "jump", {"columns": (flip, translation(1, 0))}),
        "p2": FriezeGroup("p2", "spinning hop", {"row": (r(1), r(2)), "columns": (r(0.5), r(1))}),
        "p2mg": FriezeGroup("p2mg", "spinning sidle", {"row": (v(1), r(2)), "columns": (r(0.5), v(1))}),
        "p2mm": FriezeGroup("p2mm", "spinning jump", {"columns": (flip, v(1), v(2))}),
    }


#: The seven frieze groups by IUC name (the task uses the paper's six: every one but p1, "hop").
FRIEZE_GROUPS: dict[str, FriezeGroup] = _frieze_groups()


@dataclass(frozen=True)
class Copy:
    """One drawn copy of the motif: its centre and the linear part (2 x 2) applied to the seed copy."""

    x: float
    y: float
    part: np.ndarray = field(compare=False)

    @property
    def op(self) -> str | None:
        """The ``kit.probe`` operation of the linear part, when it is one of D4."""
        return d4_name(self.part)


@functools.lru_cache(maxsize=256)
def _frieze_copies(iuc: str, layout: str, count: int) -> tuple[Copy, ...]:
    sx, sy = _SEEDS[layout]
    seed = np.array((sx, sy, 1.0))
    copies = []
    for op in frieze_elements(iuc, layout, count):
        x, y, _ = op @ seed
        copies.append(Copy(round(float(x), 6) + 0.0, round(float(y), 6) + 0.0, op[:2, :2].round(6) + 0.0))
    return tuple(sorted(copies, key=lambda c: (c.x, c.y)))


def frieze_elements(iuc: str, layout: str, count: int) -> list[np.ndarray]:
    """The group elements of frieze ``iuc`` (drawn in ``layout``) that carry the seed copy to a copy inside
    a strip of ``count`` steps, found by closing the generators over the strip (and one period beyond)."""
    group = FRIEZE_GROUPS[iuc]
    if layout not in group.generators:
        raise ValueError(f"frieze {iuc} cannot be drawn in layout {layout!r}; it can in {sorted(group.generators)}")
    sx, sy = _SEEDS[layout]
    seed = np.array((sx, sy, 1.0))

    def keep(op):
        x = (op @ seed)[0]
        return op if -4.5 <= x <= count + 4.5 else None

    elements = _close(group.generators[layout], keep)
    return [op for op in elements if 0 <= (op @ seed)[0] <= count]


def frieze_copies(iuc: str, layout: str, count: int) -> list[Copy]:
    """The copies of a strip of ``count`` steps of frieze ``iuc`` in ``layout``, sorted by x then y: each one
    the image of the seed copy (at x = 1/2, on the axis or above it) under a group element."""
    return list(_frieze_copies(iuc, layout, count))


@functools.lru_cache(maxsize=64)
def frieze_period(iuc: str, layout: str) -> int:
    """The frieze's translation period in steps: the smallest shift mapping the copies to themselves."""
    copies = frieze_copies(iuc, layout, 12)
    table = {(c.x, c.y): d4_name(c.part) for c in copies}
    for shift in range(1, 7):
        if all(table.get((x + shift, y), name) == name for (x, y), name in table.items()):
            return shift
    raise ValueError(f"no period found for frieze {iuc} in layout {layout}")


# -- wallpapers --------------------------------------------------------------------------------------------

LATTICES = ("oblique", "rectangular", "centred", "square", "hexagonal")


@dataclass(frozen=True)
class WallpaperGroup:
    """A wallpaper group: its IUC name, lattice kind and generators as (linear part, fractional shift in the
    conventional cell (a, b))."""

    name: str
    lattice: str
    generators: tuple[tuple[np.ndarray, tuple[float, float]], ...] = field(hash=False, compare=False)


def _wallpaper_groups() -> dict[str, WallpaperGroup]:
    m, f = reflection(90), reflection(0)  # mirror lines along y (x -> -x) and along x (y -> -y)
    r2, r4, r3, r6 = rotation(180), rotation(90), rotation(120), rotation(60)
    o = (0.0, 0.0)
    table = {
        "p1": ("oblique", ()),
        "p2": ("oblique", ((r2, o),)),
        "pm": ("rectangular", ((m, o),)),
        "pg": ("rectangular", ((m, (0.0, 0.5)),)),
        "cm": ("centred", ((m, o),)),
        "pmm": ("rectangular", ((m, o), (f, o))),
        "pmg": ("rectangular", ((r2, o), (m, (0.5, 0.0)))),
        "pgg": ("rectangular", ((r2, o), (m, (0.5, 0.5)))),
        "cmm": ("centred", ((m, o), (f, o))),
        "p4": ("square", ((r4, o),)),
        "p4m": ("square", ((r4, o), (m, o))),
        "p4g": ("square", ((r4, o), (m, (0.5, 0.5)))),
        "p3": ("hexagonal", ((r3, o),)),
        "p3m1": ("hexagonal", ((r3, o), (m, o))),  # mirror lines perpendicular to the shortest translations
        "p31m": ("hexagonal", ((r3, o), (f, o))),  # mirror lines along the shortest translations
        "p6": ("hexagonal", ((r6, o),)),
        "p6m": ("hexagonal", ((r6, o), (m, o))),
    }
    return {name: WallpaperGroup(name, kind, gens) for name, (kind, gens) in table.items()}


#: The seventeen wallpaper groups by IUC name, in the usual order.
WALLPAPER_GROUPS: dict[str, WallpaperGroup] = _wallpaper_groups()


@dataclass(frozen=True)
class Lattice:
    """A lattice in pixels: the conventional cell (a, b) and a reduced primitive basis of the translations."""

    kind: str
    a: tuple[float, float]
    b: tuple[float, float]
    basis: tuple[tuple[float, float], tuple[float, float]]

    @property
    def matrix(self) -> np.ndarray:
        """The primitive basis as columns (2 x 2)."""
        return np.array(self.basis, dtype=float).T

    @property
    def cell_area(self) -> float:
        return abs(float(np.linalg.det(self.matrix)))


def reduce_basis(u: Sequence[float], v: Sequence[float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """A Lagrange-Gauss reduced basis of the lattice spanned by ``u`` and ``v`` (shortest vector first; the
    second at most as long as any other lattice vector independent of the first)."""
    u, v = np.asarray(u, float), np.asarray(v, float)
    if u @ u > v @ v:
        u, v = v, u
    for _ in range(64):
        k = round(float(u @ v) / float(u @ u))
        v = v - k * u
        if v @ v >= u @ u - 1e-9:
            break
        u, v = v, u
    if float(u[0] * v[1] - u[1] * v[0]) < 0:
        v = -v
    return (float(u[0]), float(u[1])), (float(v[0]), float(v[1]))


def make_lattice(kind: str, area: float, rng: np.random.Generator) -> Lattice:
    """A lattice of ``kind`` whose conventional cell has about ``area`` px^2, its shape drawn from ``rng``.
    Lengths are even whole pixels except on the hexagonal lattice, so every symmetry element of the groups
    on the other four lies on whole or half pixels and their patterns can be drawn exactly."""
    def even(x: float) -> int:
        return max(8, 2 * round(x / 2))

    if kind == "hexagonal":
        alpha = math.sqrt(area / (math.sqrt(3) / 2))
        a, b = (alpha, 0.0), (alpha / 2, -alpha * math.sqrt(3) / 2)
        return Lattice(kind, a, b, reduce_basis(a, b))
    if kind == "square":
        alpha = even(math.sqrt(area))
        a, b = (alpha, 0), (0, alpha)
    elif kind in ("rectangular", "centred"):
        ratio = float(np.exp(rng.uniform(math.log(0.7), math.log(1.45))))
        alpha = even(math.sqrt(area / ratio))
        a, b = (alpha, 0), (0, even(alpha * ratio))
    elif kind == "oblique":
        ratio = float(np.exp(rng.uniform(math.log(0.8), math.log(1.25))))
        angle = math.radians(float(rng.uniform(62, 80)))
        side = math.sqrt(area / (ratio * math.sin(angle)))
        lean = 1 if rng.random() < 0.5 else -1
        a = (even(side), 0)
        b = (lean * round(side * ratio * math.cos(angle)), -round(side * ratio * math.sin(angle)))
    else:
        raise ValueError(f"unknown lattice kind {kind!r}; known: {', '.join(LATTICES)}")
    a = (float(a[0]), float(a[1]))
    b = (float(b[0]), float(b[1]))
    if kind == "centred":
        centre = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        return Lattice(kind, a, b, reduce_basis(a, centre))
    return Lattice(kind, a, b, reduce_basis(a, b))


#: How many linear maps preserve a lattice of each kind (its holohedry): 2, 4, 4, 8, 12.
HOLOHEDRY_ORDER = {"oblique": 2, "rectangular": 4, "centred": 4, "square": 8, "hexagonal": 12}


_UNIMODULAR = np.array([m for m in (np.array(e, float).reshape(2, 2) - 1 for e in np.ndindex(3, 3, 3, 3))
                        if abs(abs(np.linalg.det(m)) - 1) < 1e-9])


def lattice_symmetries(lattice: Lattice, tolerance: float = 0.06) -> list[np.ndarray]:
    """The linear maps (2 x 2, pixels) that carry the lattice onto itself within ``tolerance``: integer matrices
    M with entries -1, 0, 1 in the reduced basis whose B M B^-1 is orthogonal to within ``tolerance`` (read-only
    arrays, kept for the lattices met lately: a patch's generator asks for its lattice's several times)."""
    return list(_lattice_symmetries(lattice, tolerance))


@functools.lru_cache(maxsize=64)
def _lattice_symmetries(lattice: Lattice, tolerance: float) -> tuple[np.ndarray, ...]:
    basis = lattice.matrix
    parts = basis @ _UNIMODULAR @ np.linalg.inv(basis)  # (k, 2, 2)
    error = np.abs(parts @ np.swapaxes(parts, 1, 2) - np.eye(2)).max(axis=(1, 2))
    return tuple(_read_only(part) for part in parts[error <= tolerance])


def conventional_area(group: str, fundamental_area: float) -> float:
    """The conventional cell's area that gives each motif copy ``fundamental_area`` px^2 in ``group``."""
    order = len(point_group_of(group))
    centred = WALLPAPER_GROUPS[group].lattice == "centred"
    return fundamental_area * order * (2 if centred else 1)


def _generators(group: str, lattice: Lattice) -> list[np.ndarray]:
    a, b = np.array(lattice.a), np.array(lattice.b)
    out = []
    for part, (fa, fb) in WALLPAPER_GROUPS[group].generators:
        shift = fa * a + fb * b
        out.append(translation(*shift) @ part)
    return out


def coset_representatives(group: str, lattice: Lattice) -> list[np.ndarray]:
    """One element of ``group`` per element of its point group, its translation reduced into the primitive
    cell: the generators closed modulo the lattice."""
    basis = lattice.matrix
    inverse = np.linalg.inv(basis)

    def keep(op):
        frac = inverse @ op[:2, 2]
        frac = frac - np.floor(frac + 1e-7)
        out = op.copy()
        out[:2, 2] = basis @ frac
        return out

    return _close(_generators(group, lattice), keep, limit=64)


def point_group_of(group: str) -> list[np.ndarray]:
    """The point group (distinct linear parts) of wallpaper ``group``."""
    if group not in _POINT_GROUPS:
        lattice = make_lattice(WALLPAPER_GROUPS[group].lattice, 10000.0, np.random.default_rng(0))
        _POINT_GROUPS[group] = point_group(coset_representatives(group, lattice))
    return _POINT_GROUPS[group]


_POINT_GROUPS: dict[str, list[np.ndarray]] = {}


def seed_clearance(reps: Sequence[np.ndarray], lattice: Lattice, points: np.ndarray) -> np.ndarray:
    """For each candidate seed point (rows of ``points``, px), the distance to the nearest other copy of it
    under the group (coset representatives ``reps``, all lattice shifts): twice the room a copy has."""
    basis = lattice.matrix
    shifts = _SEED_STEPS @ basis.T  # (25, 2)
    ops = np.asarray(reps, float)  # every representative at once: (r, 3, 3)
    images = np.einsum("nj,rij->rni", points, ops[:, :2, :2]) + ops[:, None, :2, 2]  # (r, k, 2)
    moved = images - points[None, :, :]  # (r, k, 2): each image's offset from its point, then every lattice step's
    squares = np.square(moved[:, :, None, 0] + shifts[None, None, :, 0])  # squared distances, (r, k, 25)
    squares += np.square(moved[:, :, None, 1] + shifts[None, None, :, 1])
    own = [r for r, op in enumerate(ops) if _near_identity(op[:2, :2])]
    mine = squares[own]
    mine[mine < 1e-12] = np.inf  # the copy itself
    squares[own] = mine
    return np.sqrt(squares.min(axis=(0, 2)))


#: The lattice steps (i, j), i and j in -2 .. 2, ``seed_clearance`` looks for copies at.
_SEED_STEPS = np.array([(i, j) for i in range(-2, 3) for j in range(-2, 3)], float)
_SEED_STEPS.flags.writeable = False
_EYE2 = np.eye(2)


def _near_identity(part: np.ndarray) -> bool:
    """``np.allclose(part, np.eye(2))`` (its tolerances) for a finite 2 x 2 ``part``, without its overhead."""
    return bool(np.all(np.abs(part - _EYE2) <= 1e-08 + 1e-05 * _EYE2))


def best_seeds(reps: Sequence[np.ndarray], lattice: Lattice, rng: np.random.Generator, candidates: int = 96,
               keep: float = 0.92) -> tuple[np.ndarray, float]:
    """A seed point (px) far from every symmetry element: among ``candidates`` random points of the cell, one
    drawn from those within ``keep`` of the best clearance; returns (point, its clearance)."""
    frac = rng.random((candidates, 2))
    points = frac @ lattice.matrix.T
    clearance = seed_clearance(reps, lattice, points)
    good = np.nonzero(clearance >= keep * clearance.max())[0]
    pick = int(good[int(rng.integers(len(good)))])
    return points[pick], float(clearance[pick])


def pattern_copies(reps: Sequence[np.ndarray], lattice: Lattice, seed: Sequence[float], window: Sequence[float],
                   reach: float) -> list[Copy]:
    """The copies of the pattern whose centre lies within ``reach`` px of the window (left, top, right, bottom):
    the seed's images under the coset representatives, shifted by every lattice translation that matters."""
    centres, owners = pattern_centres(reps, lattice, seed, window, reach)
    parts = [op[:2, :2].round(9) + 0.0 for op in reps]
    return [Copy(x, y, parts[k]) for (x, y), k in zip(centres.tolist(), owners.tolist(), strict=True)]


def pattern_centres(reps: Sequence[np.ndarray], lattice: Lattice, seed: Sequence[float], window: Sequence[float],
                    reach: float) -> tuple[np.ndarray, np.ndarray]:
    """(centres (n, 2), the coset representative of each): the centres of ``pattern_copies``, in its order (by
    y, then x), as arrays."""
    left, top, right, bottom = window
    basis = lattice.matrix
    inverse = np.linalg.inv(basis)
    corners = np.array([(left - reach, top - reach), (right + reach, top - reach), (left - reach, bottom + reach),
                        (right + reach, bottom + reach)])
    seed = np.array((float(seed[0]), float(seed[1]), 1.0))
    ops = np.asarray(reps, float)
    centres = ops[:, :2, :] @ seed  # each representative's image of the seed: (r, 2)
    # the lattice steps that can reach the window from any of them (one range for all), each representative's
    # copies kept where they lie within ``reach`` of the window
    frac = (corners[None, :, :] - centres[:, None, :]) @ inverse.T  # (r, 4, 2)
    lo, hi = np.floor(frac.min(axis=(0, 1))).astype(int), np.ceil(frac.max(axis=(0, 1))).astype(int)
    i, j = np.arange(lo[0], hi[0] + 1, dtype=float), np.arange(lo[1], hi[1] + 1, dtype=float)
    ij = np.stack([np.repeat(i, len(j)), np.tile(j, len(i))], axis=1)  # i slow, j fast
    points = centres[:, None, :] + (ij @ basis.T)[None, :, :]  # (r, steps, 2)
    inside = ((points[..., 0] >= left - reach) & (points[..., 0] <= right + reach) & (points[..., 1] >= top - reach)
              & (points[..., 1] <= bottom + reach))
    found, owners = points[inside], np.nonzero(inside)[0]
    order = np.lexsort((found[:, 0], found[:, 1]))  # by (y, x): copies never share a centre
    return found[order], owners[order]


# -- patterns on their pixels -------------------------------------------------------------------------------

#: A pixel of a drawn pattern is ink when its darkness (1 - darkest channel / 255) exceeds this.
PATTERN_INK = 0.25
#: Two darknesses are alike within this step when compared within a pixel, and within the second in place.
LIKE_NEAR, LIKE_IN_PLACE = 0.3, 0.1
#: The golden ratio's fractional part: k * GOLDEN modulo 1 spreads indices evenly (``PatternInk``).
GOLDEN = (math.sqrt(5) - 1) / 2


def _ink_max() -> int:
    """The largest darkest-channel byte whose ``PatternInk`` darkness (its formula, on every byte value) is ink:
    those at most it are ink, the others not (checked on all 256)."""
    dark = (255 - np.arange(256, dtype=np.uint8)).astype(np.float32) / np.float32(255)
    inked = dark > PATTERN_INK
    top = int(np.flatnonzero(inked).max())
    if not np.array_equal(inked, np.arange(256) <= top):
        raise AssertionError("PatternInk's ink is not the bytes up to one value")
    return top


#: Darkest-channel bytes up to this are ink in ``PatternInk`` (darkness above PATTERN_INK), the others not.
_PATTERN_INK_MAX = _ink_max()


def _alike_in_place() -> int:
    """The largest difference of two darkest-channel bytes whose ``PatternInk`` darknesses are alike in place (the
    float32 difference at most LIKE_IN_PLACE): bytes are alike exactly when they differ by at most it (checked on
    every pair of the 256)."""
    dark = (255 - np.arange(256, dtype=np.uint8)).astype(np.float32) / np.float32(255)
    alike = np.abs(dark[:, None] - dark[None, :]) <= np.float32(LIKE_IN_PLACE)
    gap = np.abs(np.arange(256)[:, None] - np.arange(256)[None, :])
    most = int(gap[alike].max())
    if not np.array_equal(alike, gap <= most):
        raise AssertionError("PatternInk's in-place likeness is not a byte difference")
    return most


#: Two darkest-channel bytes are alike in place (``PatternInk``) when they differ by at most this.
_ALIKE_BYTES = _alike_in_place()


def _byte_darkness(low: np.ndarray) -> np.ndarray:
    """``PatternInk``'s darkness of darkest-channel bytes: 1 - byte / 255 as (255 - byte) / 255, float32 steps."""
    dark = (255 - low).astype(np.float32)
    dark /= np.float32(255)
    return dark


class PatternInk:
    """A drawn pattern's darkness and inked pixels, for measuring how far an isometry x -> A x + t (pixels, x
    right, y down) is from being a symmetry of the picture.  ``reach`` 0 compares pixels in place (a pattern
    drawn exactly on the pixel grid), 1 within one pixel (one whose copies sit to the nearest pixel).  An (h, w)
    picture is taken as the darkest channels themselves."""

    def __init__(self, rgb: np.ndarray, reach: int):
        # darkness in float32: it is k / 255, and no two such values lie LIKE_NEAR or LIKE_IN_PLACE apart exactly
        picture = np.asarray(rgb)
        low = picture if picture.ndim == 2 else channels.darkest(picture[:, :, :3])  # (h, w): the darkest channels
        self._dark: np.ndarray | None = None
        self._padded: np.ndarray | None = None
        self._padded_bytes: np.ndarray | None = None
        if low.dtype == np.uint8:  # ink read off the bytes (``_PATTERN_INK_MAX``); the darkness made when asked for
            inked = low <= _PATTERN_INK_MAX
        else:
            self._dark = (255 - low).astype(np.float32) / np.float32(255)
            inked = self._dark > PATTERN_INK
        self._low = low if low.dtype == np.uint8 else None  # the darkest channels' bytes (``_levels``)
        self._level_state: tuple[np.ndarray, np.ndarray] | bool | None = False  # not yet known
        self.reach = reach
        self.h, self.w = low.shape
        flat = np.flatnonzero(inked)
        self._chosen: dict[int | None, tuple[np.ndarray, np.ndarray]] = {}  # (points, values) per sample size
        self.count = len(flat)  # inked pixels
        self._windows: dict[tuple, tuple[np.ndarray, ...]] = {}
        self._flat_ink = flat

    @property
    def dark(self) -> np.ndarray:
        """The darkness (1 - darkest channel / 255, float32, (h, w)), made once when asked for."""
        if self._dark is None:
            self._dark = _byte_darkness(self._low)
        return self._dark

    @property
    def padded(self) -> np.ndarray:
        """``dark`` padded by ``reach`` + 1 pixels of white (darkness 0), made once when asked for."""
        if self._padded is None:
            r = self.reach
            self._padded = np.zeros((self.h + 2 * r + 2, self.w + 2 * r + 2), np.float32)  # np.pad's, faster
            self._padded[r + 1: r + 1 + self.h, r + 1: r + 1 + self.w] = self.dark
        return self._padded

    def _bytes_padded(self) -> np.ndarray:
        """The darkest channels' bytes padded as ``padded`` is (white: 255), made once."""
        if self._padded_bytes is None:
            r = self.reach
            self._padded_bytes = np.full((self.h + 2 * r + 2, self.w + 2 * r + 2), 255, np.uint8)
            self._padded_bytes[r + 1: r + 1 + self.h, r + 1: r + 1 + self.w] = self._low
        return self._padded_bytes

    def _levels(self) -> tuple[np.ndarray, np.ndarray] | None:
        """For comparing within ``reach`` > 0 in one gather: (per padded pixel, flat, a bit for each darkness level
        of the inked pixels that some pixel within ``reach`` of it is alike to, within LIKE_NEAR by the float32
        difference ``_compared`` takes; per inked pixel, the bit of its own level), or None when the picture is not
        bytes or its inked pixels show more than 64 levels (a pattern's snapped colours show 16 at most)."""
        if self._level_state is not False:
            return self._level_state
        self._level_state = None
        if self._low is None or self.reach == 0:
            return None
        inked = self._low.ravel().take(self._flat_ink)
        levels = np.flatnonzero(np.bincount(inked, minlength=256))
        if len(levels) > 64:
            return None
        kind = np.uint16 if len(levels) <= 16 else np.uint32 if len(levels) <= 32 else np.uint64
        bits = np.left_shift(kind(1), np.arange(len(levels), dtype=kind))
        every = (255 - np.arange(256)).astype(np.float32) / np.float32(255)  # each byte's darkness, as ``dark``'s
        own = every[levels]
        alike = np.abs(every[:, None] - own[None, :]) <= np.float32(LIKE_NEAR)  # [byte found, inked level]
        table = np.bitwise_or.reduce(np.where(alike, bits[None, :], kind(0)), axis=1).astype(kind)
        r = self.reach
        one = np.full((self.h + 2 * r + 2, self.w + 2 * r + 2), table[255], kind)  # the padding is white
        one[r + 1: r + 1 + self.h, r + 1: r + 1 + self.w] = table.take(self._low)
        # the bits within reach, one axis at a time (every pixel a gather can centre on lies reach from the rim)
        rows = one.copy()
        for d in range(1, r + 1):
            rows[:, d:-d] |= one[:, : -2 * d] | one[:, 2 * d:]
        spread = rows.copy()
        for d in range(1, r + 1):
            spread[d:-d] |= rows[: -2 * d] | rows[2 * d:]
        index = np.zeros(256, np.intp)
        index[levels] = np.arange(len(levels))
        self._level_state = spread.ravel(), bits.take(index.take(inked))
        return self._level_state

    def _spread(self, points: int | None) -> slice | np.ndarray:
        """Which inked pixels to compare: all (``points`` None or at least as many), else ``points`` of them
        picked by the golden-ratio sequence, spread evenly over the picture without following its rows (a
        stride through a periodic picture can fall in step with the pattern)."""
        if points is None or points >= self.count:
            return slice(None)
        return _golden_spread(points, self.count)

    def sample(self, chosen: slice | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(x, y) of the ``chosen`` inked pixels (float, (n, 2), in ``np.nonzero``'s order) and their darkness,
        made once per sample size: only the pixels compared are ever located."""
        key = None if isinstance(chosen, slice) else len(chosen)
        found = self._chosen.get(key)
        if found is None:
            flat = self._flat_ink[chosen]
            ys, xs = np.divmod(flat, self.w)
            if self._dark is None:  # each value as ``dark``'s own: the same float32 steps on the bytes read
                values = _byte_darkness(self._low.ravel().take(flat))
            else:
                values = self._dark.ravel().take(flat)
            found = np.stack([xs, ys], axis=1).astype(np.float64), values
            self._chosen[key] = found
        return found

    @property
    def points(self) -> np.ndarray:
        """(x, y) of every inked pixel (float, (n, 2), in ``np.nonzero``'s order)."""
        return self.sample(slice(None))[0]

    @property
    def values(self) -> np.ndarray:
        """The darkness of every inked pixel, in ``points``' order."""
        return self.sample(slice(None))[1]

    def _unchanged(self, maps: np.ndarray, shifts: np.ndarray, chosen: slice | np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """(changed, compared) per map x -> A x + t (``maps`` (n, 2, 2), ``shifts`` (n, 2)): each ``chosen`` inked
        pixel whose image lies at least ``reach`` inside the picture is compared; it is changed when no pixel
        within ``reach`` of its image is alike in darkness."""
        return self._compared(*self._images(maps, shifts, chosen), chosen)

    def _images(self, maps: np.ndarray, shifts: np.ndarray, chosen: slice | np.ndarray,
                out: tuple[np.ndarray, np.ndarray] | None = None, owners: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
        """(x, y) of the ``chosen`` inked pixels' images under each map x -> A x + t, whole pixels (as floats):
        (maps, points) each, written into ``out`` when given.  ``owners``: the row of ``maps`` each shift's A is
        (each distinct A's product with the pixels taken once), else one row of ``maps`` per shift."""
        image = self.sample(chosen)[0] @ np.swapaxes(maps, 1, 2)  # (maps, points, 2)
        n = len(shifts)
        if out is None:
            out = np.empty((n, image.shape[1])), np.empty((n, image.shape[1]))
        for k, plane in enumerate(out):  # the sum, then its rounding, in place
            if owners is None:
                np.add(image[..., k], shifts[:, k, None], out=plane)
            else:
                np.take(image[..., k], owners, axis=0, out=plane)
                plane += shifts[:, k, None]
            np.rint(plane, out=plane)
        return out

    def _compared(self, x: np.ndarray, y: np.ndarray, chosen: slice | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(changed, compared) per row of images (x, y) of the ``chosen`` inked pixels (``_unchanged``); ``y`` is
        overwritten."""
        values = self.sample(chosen)[1]
        r = self.reach
        inside = x >= r
        inside &= x < self.w - r
        inside &= y >= r
        inside &= y < self.h - r
        step = np.float32(LIKE_NEAR if r else LIKE_IN_PLACE)  # what the float32 darkness is compared with
        width = self.w + 2 * r + 2
        # an image outside reads a clipped index, uncounted; inside, x and y are whole and small, so y * width + x
        # is exact, the padding's offset added per neighbour
        y *= width
        y += x
        at = y.astype(np.int64)
        levels = self._levels() if r else None
        if levels is not None:  # one gather of the levels within reach (``_levels``): the same verdicts
            found = levels[0].take(at + ((r + 1) * width + r + 1), mode="clip")
            found &= levels[1][chosen]
            compared = np.count_nonzero(inside, axis=1)
            inside &= found == 0
            return np.count_nonzero(inside, axis=1), compared
        if r == 0 and self._low is not None:  # in place, on the bytes: alike exactly when they differ by at most
            # _ALIKE_BYTES
            found = self._bytes_padded().ravel().take(at + (width + 1), mode="clip").astype(np.int16)
            found -= self._low.ravel().take(self._flat_ink[chosen])
            alike = np.abs(found, out=found) <= _ALIKE_BYTES
            compared = np.count_nonzero(inside, axis=1)
            inside &= ~alike
            return np.count_nonzero(inside, axis=1), compared
        flat = self.padded.ravel()
        alike = None
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                found = flat.take(at + ((dy + r + 1) * width + dx + r + 1), mode="clip")
                found -= values
                near = np.abs(found, out=found) <= step
                alike = near if alike is None else np.logical_or(alike, near, out=alike)
        compared = np.count_nonzero(inside, axis=1)
        inside &= ~alike
        return np.count_nonzero(inside, axis=1), compared

    def changes(self, maps: np.ndarray, shifts: Sequence[Sequence[float]], points: int | None = None,
                owners: np.ndarray | None = None) -> np.ndarray:
        """For each isometry x -> A x + t (A a row of ``maps``, 2 x 2 each, or one A for every t; t a row of
        ``shifts``), the share of inked pixels (at most ``points`` of them, spread over the picture; all when None)
        that it or its inverse does not carry onto ink of like darkness: 0 for an exact symmetry, 1 when nothing
        lands inside the picture.  The maps' images and their inverses' are compared in one pass.  ``owners``: for
        each t, the row of ``maps`` that is its A (``changes(maps[owners], shifts)``, each A's products taken once)."""
        shifts = np.atleast_2d(np.asarray(shifts, np.float64))
        maps = np.asarray(maps, np.float64).reshape(-1, 2, 2)
        n = len(shifts)
        if owners is None:
            owners = np.zeros(n, np.intp) if len(maps) == 1 else None
        inverse = np.linalg.inv(maps)
        moved = -((inverse if owners is None else inverse[owners]) @ shifts[:, :, None])[:, :, 0]
        chosen = self._spread(points)
        count = self.count if isinstance(chosen, slice) else len(chosen)
        x, y = np.empty((2 * n, count)), np.empty((2 * n, count))  # the maps' images, then their inverses'
        self._images(maps, shifts, chosen, (x[:n], y[:n]), owners)
        self._images(inverse, moved, chosen, (x[n:], y[n:]), owners)
        changed, compared = self._compared(x, y, chosen)
        total = compared[:n] + compared[n:]
        return np.where(total > 0, (changed[:n] + changed[n:]) / np.maximum(total, 1), 1.0)

    def overlays(self, maps: Sequence[np.ndarray], centre: Sequence[float], radius: float, count: int,
                 excludes: Sequence[float]) -> list[list[np.ndarray]]:
        """For each linear map A of ``maps``, shifts t (whole pixels, to within one) at which the copy whose ink lies
        within ``radius`` of ``centre`` c, mapped by x -> A (x - c) + c + t, lies best over the picture's ink, by
        their cross-correlation (on darkness at half size): the ``count`` highest local peaks with |t| at most 2
        ``radius`` and at least the map's ``excludes`` and, where that rules out the shifts around none, the
        ``count`` best within a pixel of that limit (where the correlation's central peak is cut off, as a reader
        looking past it would find)."""
        target, spectrum, grid, own, middle = self._window(tuple(centre), radius)
        maps = np.asarray(maps, np.float64).reshape(-1, 2, 2)
        side, half = target.shape[0], target.shape[0] // 2
        names = [d4_name(a) for a in maps]
        if all(names):  # every map moves whole pixels of the square window: the same cells, moved as an array
            templates = np.where(own.reshape(side, side), np.stack([probe.apply(name, target) for name in names]),
                                 0.0)
        else:
            source = np.rint(np.linalg.inv(maps) @ grid).astype(np.int64)  # (n, 2, cells)
            source += half
            np.clip(source, 0, 2 * half, out=source)
            source[:, 1] *= side  # the flat cell (row * side + column) each template cell reads
            source[:, 1] += source[:, 0]
            templates = np.where(own, target.ravel().take(source[:, 1]), 0.0).reshape(-1, side, side)
        size = (_fft_length(side),) * 2  # zeros beyond the window: no shift wraps onto another
        corr = np.fft.irfft2(spectrum * np.conj(np.fft.rfft2(templates, s=size)), s=size)
        around = np.arange(-half, half + 1) % size[0]
        corr = corr.take(around, axis=1).take(around, axis=2)  # shift (0, 0) in the middle
        inner = corr[:, 1:-1, 1:-1]
        # the half-size picture turns about its own middle pixel, not about c: every shift moves accordingly
        offset = middle - np.asarray(centre)
        moves = np.array([(np.eye(2) - a) @ offset for a in maps]).reshape(-1, 2)  # one product per map, as before
        # peaks are looked for only where a shift can be kept (each coordinate of 2 (i + 1 - half) + moved within
        # 2 radius: inner cells lo .. hi - 1 each way); np.nonzero's order there is its order on the whole window
        reach = math.ceil(radius + float(np.abs(moves).max(initial=0.0)) / 2) + 1
        lo, hi = max(0, half - 1 - reach), min(side - 2, half + reach)
        # a local peak: at least each of its eight neighbours, i.e. at least the largest (the figures are finite)
        around_max = None
        for dy in (0, 1, 2):
            for dx in (0, 1, 2):
                if dy != 1 or dx != 1:
                    neighbour = corr[:, lo + dy: hi + dy, lo + dx: hi + dx]
                    around_max = neighbour.copy() if around_max is None else np.maximum(around_max, neighbour,
                                                                                          out=around_max)
        peak = inner[:, lo:hi, lo:hi] >= around_max
        out = []
        for k, exclude in enumerate(excludes):
            moved = moves[k]
            ys, xs = np.nonzero(peak[k])
            places = [(ys + lo, xs + lo)] + ([_rim(half, exclude)] if exclude else [])
            found = []
            for ys, xs in places:
                shifts = 2 * np.stack([xs + 1 - half, ys + 1 - half], axis=1) + moved
                length = np.hypot(*shifts.T)
                keep = (length <= 2 * radius) & (length >= exclude)
                order = np.argsort(inner[k][ys, xs][keep], kind="stable")[::-1][:count]
                found += list(np.rint(shifts[keep][order]))
            out.append(found)
        return out

    @staticmethod
    @functools.lru_cache(maxsize=8)
    def _lengths(half: int) -> np.ndarray:
        """Each inner cell's shift length in full pixels, for a window of ``half`` half-size pixels each way (kept:
        an item's patches share their copies' radius, so their windows' size)."""
        dy, dx = np.mgrid[1 - half: half, 1 - half: half]
        return _read_only(2 * np.hypot(dx, dy))

    def _window(self, centre: tuple[float, ...], radius: float) -> tuple[np.ndarray, ...]:
        """(darkness at half size around ``centre``, as far as a copy's image can reach; its spectrum; the window's
        pixel offsets (x, y) from its middle; which of them lie on the copy itself; the middle in full pixels),
        kept for the next map about the same copy."""
        key = (centre, radius)
        if key not in self._windows:
            half = math.ceil(1.5 * radius) + 2
            side = 2 * half + 1
            if self._dark is None:  # ``dark[::2, ::2]``, its values made on the bytes read alone
                small = _byte_darkness(self._low[::2, ::2])
            else:
                small = self._dark[::2, ::2]
            mx, my = (round(v / 2) for v in centre)
            target = np.zeros((side, side), small.dtype)  # the half-size picture around (mx, my), zeros beyond it
            top, left = my - half, mx - half
            rows = slice(max(top, 0), min(top + side, small.shape[0]))
            cols = slice(max(left, 0), min(left + side, small.shape[1]))
            if rows.start < rows.stop and cols.start < cols.stop:
                target[rows.start - top: rows.stop - top, cols.start - left: cols.stop - left] = small[rows, cols]
            grid, own = _window_cells(half, radius)
            spectrum = np.fft.rfft2(target, s=(_fft_length(target.shape[0]),) * 2)
            self._windows[key] = target, spectrum, grid, own, 2 * np.array((mx, my), np.float64)
        return self._windows[key]


@functools.lru_cache(maxsize=16)
def _rim(half: int, exclude: float) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero(np.abs(lengths - exclude) <= 1)`` of ``PatternInk._lengths(half)``: the inner cells whose shift
    lies within a pixel of ``exclude`` (kept: read only)."""
    found = np.nonzero(np.abs(PatternInk._lengths(half) - exclude) <= 1)
    for part in found:
        part.flags.writeable = False
    return found


@functools.lru_cache(maxsize=64)
def _golden_spread(points: int, total: int) -> np.ndarray:
    """``points`` indices among ``total`` by the golden-ratio sequence (``PatternInk._spread``; kept: a pattern is
    measured on a few sample sizes many times)."""
    return _read_only((np.arange(points) * GOLDEN % 1.0 * total).astype(np.int64))


@functools.lru_cache(maxsize=8)
def _window_cells(half: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """(the offsets (x, y) of a window of ``half`` half-size pixels each way from its middle, which of them lie on
    a copy of ``radius`` full pixels: its own ink only, not its neighbours'), kept: an item's patches share both."""
    grid = np.mgrid[-half: half + 1, -half: half + 1][::-1].reshape(2, -1).astype(np.float64)
    return _read_only(grid), _read_only(np.hypot(*grid) <= radius / 2 + 1)


def _read_only(array: np.ndarray) -> np.ndarray:
    """``array``, made read-only (it is kept and shared)."""
    array.flags.writeable = False
    return array


def _fft_length(n: int) -> int:
    """The smallest length at least ``n`` with no prime factor above 5 (fast for the FFT)."""
    while True:
        m = n
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1


# -- motifs under arbitrary linear maps ----------------------------------------------------------------------


def ink_centroid(rgb: np.ndarray) -> tuple[float, float]:
    """The centroid (x, y) of the inked pixels (``kit.probe.ink_mask``) weighted by darkness."""
    dark = 1.0 - np.minimum(np.minimum(rgb[:, :, 0], rgb[:, :, 1]), rgb[:, :, 2]).astype(np.float64) / 255.0
    dark[~probe.ink_mask(rgb)] = 0.0
    total = dark.sum()
    if total <= 0:
        h, w = dark.shape
        return (w - 1) / 2, (h - 1) / 2
    ys, xs = np.indices(dark.shape)
    return float((xs * dark).sum() / total), float((ys * dark).sum() / total)


def ink_radius(rgb: np.ndarray, centre: tuple[float, float] | None = None) -> float:
    """The largest distance of an inked pixel's centre from ``centre`` (default: the array's centre)."""
    ink = probe.ink_mask(rgb)
    if not ink.any():
        return 0.0
    h, w = ink.shape
    cx, cy = centre if centre is not None else ((w - 1) / 2, (h - 1) / 2)
    ys, xs = np.nonzero(ink)
    return float(np.hypot(xs - cx, ys - cy).max())


#: Inked pixels ``motif_changes`` follows at most (every k-th in reading order).
SAMPLE_POINTS = 600


def _median(values: np.ndarray) -> float:
    """``float(np.median(values))`` of a non-empty 1-D float array without NaNs: the middle value, or the mean of
    the middle two, found by one partition (the very values, and their mean taken as ``np.median`` takes it)."""
    n = len(values)
    half = n // 2
    if n % 2:
        return float(np.partition(values, half)[half])
    middle = np.partition(values, (half - 1, half))[half - 1: half + 1]
    return float(middle.mean())


def _sampled(rgb: np.ndarray, points: int | None) -> dict[str, Any] | None:
    """What ``motif_changes`` compares: the ink centroid, a sample of inked pixels, darkness in units of the
    motif's own colour and the colours, padded by two pixels of white."""
    rgb = np.asarray(rgb)[:, :, :3]
    h, w = rgb.shape[:2]
    ys, xs = np.nonzero(probe.ink_mask(rgb))
    if not len(xs):
        return None
    cx, cy = ink_centroid(rgb)
    stride = -(-len(xs) // (points or SAMPLE_POINTS))  # every stride-th inked pixel, in reading order
    ys, xs = ys[::stride], xs[::stride]
    pad = 2
    colour = np.full((h + 2 * pad, w + 2 * pad, 3), 255, np.int16)  # np.pad's, faster
    colour[pad: pad + h, pad: pad + w] = rgb
    dark = 1.0 - channels.darkest(colour) / 255.0
    dark /= max(_median(dark[ys + pad, xs + pad]), 0.25)  # the motif's own colour at 1, however light
    d0, c0 = dark[ys + pad, xs + pad], colour[ys + pad, xs + pad]
    solid = c0[d0 > 0.8]  # the motif's solid colours (its anti-aliased edges left out)
    several = bool(len(solid)) and int(np.abs(solid - solid[0]).max()) > 100  # e.g. black and blue
    return {"h": h, "w": w, "cx": cx, "cy": cy, "xs": xs, "ys": ys, "pad": pad, "colour": colour, "dark": dark,
            "d0": d0, "c0": c0, "several": several}


def _changed(m: dict[str, Any], stack: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each map x -> A (x - c) + c + t (rows of ``stack`` and ``offsets``), the share of the sampled inked
    pixels whose image has no pixel of like darkness and colour within one pixel."""
    pad, h, w = m["pad"], m["h"], m["w"]
    rx, ry = m["xs"] - m["cx"], m["ys"] - m["cy"]
    # each image c + t + A (x - c), rounded: the sums of the one-line formula ((c + t) + a rx) + b ry, in place
    # (adding a term on the left or the right gives the same float)
    where, term = [], np.empty((len(stack), len(rx)))
    for row, (centre, limit) in enumerate(((m["cx"], w), (m["cy"], h))):
        image = np.multiply(stack[:, row, 0, None], rx)
        image += centre + offsets[:, row, None]
        image += np.multiply(stack[:, row, 1, None], ry, out=term)
        whole = np.rint(image, out=image).astype(int)
        np.clip(whole, -1, limit, out=whole)
        whole += pad
        where.append(whole)
    px, py = where
    width = m["dark"].shape[1]
    py *= width
    py += px
    base = py  # (maps, points): flat gathers, one neighbour of the 3 x 3 block at a time
    flat, d0 = m["dark"].ravel(), m["d0"]
    dark0 = d0 > 0.5
    planes = [(np.ascontiguousarray(m["colour"][:, :, c]).ravel(), m["c0"][:, c]) for c in range(3) if m["several"]]
    same = np.zeros(base.shape, bool)
    for dy, dx in _NEIGHBOURS.tolist():
        at = base + (dy * width + dx)
        d1 = flat.take(at)
        if m["several"]:  # where both are dark, the colour must match too (every channel, one plane at a time)
            near = functools.reduce(np.logical_and, (np.abs(plane.take(at) - c0) <= 100 for plane, c0 in planes))
            both_dark = d1 > 0.5
            both_dark &= dark0
        d1 -= d0
        hit = np.abs(d1, out=d1) <= 0.3
        if m["several"]:
            hit &= ~both_dark | near
        same |= hit
    return 1.0 - same.mean(axis=1)


def motif_changes(rgb: np.ndarray, parts: Sequence[np.ndarray], shifts: Sequence[Sequence] | None = None,
                  points: int | None = None) -> list[float]:
    """For each linear map (2 x 2) in ``parts``, the fraction of the motif's inked pixels that change when the
    motif is mapped by it about its ink centroid: a pixel is unchanged when a pixel within one pixel of its
    image has nearly its darkness (1 - darkest channel / 255, in units of the motif's own colour's, within 0.3:
    so a light colour such as yellow or grey stands out from white as well as a dark one) and, where both are
    dark, nearly its colour (every channel within 100: blue is not black).  Counted both ways (the motif's ink
    into its image's, and back), so a part and its inverse give the same figure, on at most ``points``
    (default ``SAMPLE_POINTS``) inked pixels spread evenly over the motif.  ``shifts``: for each part, the
    shifts (x, y) to move its image by as well; the smallest change among them counts."""
    m = _sampled(rgb, points)
    if m is None:
        return [0.0 for _ in parts]
    maps, offsets, owner = [], [], []
    for k, part in enumerate(parts):
        a = np.asarray(part, float)[:2, :2]
        inverse = _inverse(a)
        for shift in (shifts[k] if shifts is not None else [(0, 0)]):
            t = np.asarray(shift, float)
            maps += [a, inverse]  # x -> A x + t, and back: x -> A^-1 (x - t)
            offsets += [t, -inverse @ t]
            owner.append(k)
    if not maps:
        return []
    # an involution (a mirror, a half-turn) with no shift is its own inverse: each distinct map is measured once
    stack, shifts = np.array(maps), np.array(offsets)
    rows = np.concatenate([stack.reshape(len(stack), 4), shifts], axis=1)
    distinct, where = _distinct_rows(rows)
    measured = _changed(m, distinct[:, :4].reshape(-1, 2, 2), distinct[:, 4:])
    changed = measured[where].reshape(-1, 2).max(axis=1)  # both ways
    out = [1.0] * len(parts)
    for k, value in zip(owner, changed, strict=True):
        out[k] = min(out[k], float(value))
    return out


def _distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct rows of a 2-D float array in order of first appearance, each row's index among them): what
    ``np.unique(rows, axis=0, return_inverse=True)`` finds up to the order of the distinct rows (and a row with a
    -0.0 kept apart from one with 0.0, which ``_changed`` measures alike), for a few dozen rows without its sort."""
    index: dict[bytes, int] = {}
    firsts, where = [], []
    for k, row in enumerate(np.ascontiguousarray(rows)):
        key = row.tobytes()
        if key not in index:
            index[key] = len(firsts)
            firsts.append(k)
        where.append(index[key])
    return rows[firsts], np.array(where, np.intp)


_NEIGHBOURS = np.array([(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)])


def _inverse(part: np.ndarray) -> np.ndarray:
    """``np.linalg.inv(part)`` (2 x 2 float), the very same array values: computed once for each of the maps
    met lately (``self_symmetry_candidates``' fixed turns and mirrors recur in every motif)."""
    return _inverse_of(part.tobytes())


@functools.lru_cache(maxsize=128)
def _inverse_of(data: bytes) -> np.ndarray:
    """The inverse of the 2 x 2 float64 matrix stored in ``data`` (read-only: it is kept and shared)."""
    return _read_only(np.linalg.inv(np.frombuffer(data, np.float64).reshape(2, 2)))


#: Turns a motif must not have (any order a lattice allows, and five-fold): degrees.
SELF_TURNS = (60, 72, 90, 120, 180)
#: Mirror lines a motif must not have: every this many degrees, besides its two principal axes.
SELF_MIRROR_STEP = 15


def principal_axes(rgb: np.ndarray) -> tuple[float, float]:
    """The angles (degrees, counterclockwise on screen) of the two principal axes of the motif's ink (any mirror
    line of a motif whose ink is not round in the second moments is one of them)."""
    ink = probe.ink_mask(np.asarray(rgb)[:, :, :3])
    ys, xs = np.nonzero(ink)
    if len(xs) < 3:
        return 0.0, 90.0
    dx, dy = xs - xs.mean(), ys - ys.mean()
    angle = 0.5 * math.degrees(math.atan2(2 * float((dx * dy).mean()), float((dx * dx).mean() - (dy * dy).mean())))
    return (-angle) % 180, (90 - angle) % 180  # y runs down: the on-screen angle has the opposite sign


def self_symmetry_candidates(rgb: np.ndarray) -> dict[str, np.ndarray]:
    """The maps (2 x 2) a motif without any symmetry of its own must change under: turns by ``SELF_TURNS``
    and mirrors across lines every ``SELF_MIRROR_STEP`` degrees and along its principal axes."""
    maps = dict(_fixed_candidates())
    maps.update({f"mirror {a:.1f}": reflection(a)[:2, :2] for a in principal_axes(rgb)})
    return maps


@functools.cache
def _fixed_candidates() -> tuple[tuple[str, np.ndarray], ...]:
    """The candidates every motif shares, in ``self_symmetry_candidates``' order: the turns by ``SELF_TURNS``,
    then the mirrors every ``SELF_MIRROR_STEP`` degrees (read-only: kept and shared)."""
    turns = [(f"turn {d}", rotation(d)[:2, :2]) for d in SELF_TURNS]
    mirrors = [(f"mirror {float(a):.1f}", reflection(float(a))[:2, :2]) for a in range(0, 180, SELF_MIRROR_STEP)]
    return tuple((name, _read_only(np.array(part))) for name, part in turns + mirrors)


def self_symmetries(rgb: np.ndarray, fraction: float = probe.INVARIANT_FRACTION) -> list[str]:
    """The candidate self-symmetries (``self_symmetry_candidates``) under which the rendered motif changes on
    fewer than ``fraction`` of its ink (``motif_changes``): empty for a motif with no symmetry of its own, at
    any angle, the probe of spec 7.2 #1 beyond D4."""
    maps = self_symmetry_candidates(rgb)
    changes = motif_changes(rgb, list(maps.values()))
    return [name for name, change in zip(maps, changes, strict=True) if change < fraction]


def usable_motif(rgb: np.ndarray, parts: Sequence[np.ndarray], minimum: float,
                 fraction: float = probe.INVARIANT_FRACTION) -> bool:
    """Whether a rendered motif can seed a pattern whose copies are turned and mirrored by ``parts``: it changes
    on at least ``minimum`` of its ink under each of them and has no symmetry of its own (``self_symmetries``),
    measured in one pass."""
    candidates = list(self_symmetry_candidates(rgb).values())
    # a part that is a candidate (or its inverse: both are measured both ways) is the same map: measured once
    same = [None] * len(parts)
    if len(parts):
        stack = np.asarray(parts, float).reshape(-1, 2, 2)
        known = np.asarray(candidates, float)
        alike = np.zeros((len(stack), len(known)), bool)
        for maps in (stack, np.linalg.inv(stack)):
            alike |= np.abs(maps[:, None] - known[None]).max(axis=(2, 3)) <= 1e-9
        same = [int(np.argmax(row)) if row.any() else None for row in alike]
    own = [part for part, k in zip(parts, same, strict=True) if k is None]
    changes = motif_changes(rgb, [*own, *candidates])
    mine, theirs = iter(changes[: len(own)]), changes[len(own):]
    measured = [next(mine) if k is None else theirs[k] for k in same]
    return min(measured, default=1.0) >= minimum and min(theirs) >= fraction


def centred_sprite(spec: dict[str, Any], radius: float, probe_side: int = 61) -> tuple[np.ndarray, float]:
    """The motif drawn so that its ink centroid sits on the centre pixel of an odd square sprite and its ink
    reaches ``radius`` px from it; returns (sprite, fill used).  Copies drawn from it by any map about the centre
    keep their ink centred on the copy's place, so a copy's orientation never moves its ink's centre."""
    first = motifs.render(spec, probe_side)
    cx, cy = ink_centroid(first)
    centre = (probe_side - 1) / 2
    reach = ink_radius(first, (cx, cy))
    if reach <= 0:
        raise ValueError(f"motif {spec['family']} draws no ink")
    scale = radius / reach  # final px per probe px
    side = 2 * math.ceil(radius) + 5
    offset = (scale * (cx - centre), scale * (cy - centre))
    big = side + 2 * math.ceil(max(abs(offset[0]), abs(offset[1]))) + 2
    big += 1 - big % 2
    fill = 0.86 * probe_side * scale / big
    drawn = motifs.render(spec, big, fill=fill)
    middle = (big - 1) // 2
    left, top = middle + round(offset[0]) - side // 2, middle + round(offset[1]) - side // 2
    return np.ascontiguousarray(drawn[top: top + side, left: left + side]), fill


def unit_reach(spec: dict[str, Any]) -> float:
    """How far the motif reaches from its centre, in the unit coordinates of ``kit.motifs`` (``render`` draws a
    unit at ``fill * size / 2`` px): the farthest polygon vertex or stroke end (with half its width); a text
    motif is measured on a drawing."""
    reach, polygons = 0.0, []
    for prim in motifs.kept_primitives(spec):  # the ones render draws next: computed once
        if prim[0] == "poly":
            polygons += [geometry for geometry in getattr(prim[1], "geoms", [prim[1]])
                         if not geometry.is_empty and hasattr(geometry, "exterior")]
        elif prim[0] == "line":
            xy = np.asarray(prim[1], float)
            reach = max(reach, float(np.hypot(xy[:, 0], xy[:, 1]).max()) + prim[2] / 2)
        else:
            size = 97
            return max(reach, _vertex_reach(polygons), ink_radius(motifs.render(spec, size, fill=1.0)) / (size / 2))
    return max(reach, _vertex_reach(polygons))


def _vertex_reach(polygons: list) -> float:
    """The farthest vertex of the polygons' outer rings from the origin (0 for none): every ring's coordinates read
    in one call."""
    if not polygons:
        return 0.0
    xy = shapely.get_coordinates(shapely.get_exterior_ring(polygons))
    return float(np.hypot(xy[:, 0], xy[:, 1]).max())


def transformed_sprite(big: np.ndarray, part: np.ndarray, factor: int) -> np.ndarray:
    """A square RGB sprite (odd side, its centre pixel the motif's centre) transformed by the linear map
    ``part`` about its centre: D4 maps exactly (array operations on the reduced sprite), any other map by
    turning the ``factor`` x larger drawing ``big`` (nearest pixel) and reducing it with a box filter."""
    name = d4_name(part)
    if name is not None:
        return probe.apply(name, reduce(big, factor))
    part = np.asarray(part, float)[:2, :2]
    image = Image.fromarray(big)
    if np.linalg.det(part) < 0:  # part = rotation . mirror
        image = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        part = part @ np.array(((-1.0, 0.0), (0.0, 1.0)))
    degrees = math.degrees(math.atan2(part[0, 1], part[0, 0]))
    turned = image.rotate(degrees, resample=Image.Resampling.NEAREST, fillcolor=(255, 255, 255))
    return reduce(np.asarray(turned), factor)


def reduce(big: np.ndarray, factor: int) -> np.ndarray:
    """``big`` (side divisible by ``factor``) reduced by a box filter."""
    if factor == 1:
        return np.ascontiguousarray(big)
    return np.asarray(Image.fromarray(np.ascontiguousarray(big)).reduce(factor))


def stamp(canvas: np.ndarray, sprite: np.ndarray, x: int, y: int) -> None:
    """Draw ``sprite`` (odd side) with its centre pixel at (x, y) on ``canvas`` (RGB, white background), keeping
    the darker value per channel (copies never overlap, so this is exact), clipped to the canvas."""
    side = sprite.shape[0]
    half = side // 2
    top, left = y - half, x - half
    h, w = canvas.shape[:2]
    t0, l0 = max(0, top), max(0, left)
    t1, l1 = min(h, top + side), min(w, left + side)
    if t0 >= t1 or l0 >= l1:
        return
    region = canvas[t0:t1, l0:l1]
    np.minimum(region, sprite[t0 - top: t1 - top, l0 - left: l1 - left], out=region)


def as_json(part: np.ndarray) -> list[list[float]]:
    """A 2 x 2 linear part as plain JSON (rounded to 6 places)."""
    return [[round(float(v), 6) + 0.0 for v in row] for row in np.asarray(part)[:2, :2]]
