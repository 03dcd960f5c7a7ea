"""The concepts of conceptual slippage (Mind's Eye kit): for each concept (spacing, alignment, number, enclosure,
symmetry, topology, border, hollowness, word) a builder that draws a conforming panel and, from the same draw,
its violating twin, at a strength (how far the violator departs) and with a majority (which side of a
two-valued concept the conformers take).  ``Unbuildable`` says a draw cannot be made; the task draws again.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import attrs
import numpy as np
import shapely
from shapely.geometry import Polygon

from bench_plugin_mindseye.attributes import (
    GLYPH_HEIGHT,
    GLYPH_WIDTH,
    GLYPHS,
    inradius,
    marks_bounds,
    mirror_letter_table,
)
from bench_plugin_mindseye.slippage_panels import (
    HOLLOW_WIDTH,
    MIN_HOLE,
    MIN_WIDTH,
    WIDTH,
    Look,
    Mark,
    Panel,
    affine_chain,
    open_outline,
    rotation,
    rows_residual,
    scatter,
    shape_outline,
    shape_polygon,
)

#: How many violating versions a builder draws (where the violation has freedom: which object, where to).
VERSIONS = 12


class Unbuildable(Exception):
    """This draw cannot carry the concept (no room, an outline too thick...): draw again."""


class Versions:
    """The violating versions of one draw, in the order drawn, each made when first asked for: a recipe gives a
    version's marks, or None where that version cannot be made.  Recipes draw nothing (the builder has drawn
    every version's random values before it returns), so asking for the first version that can be made (the
    proof that the draw carries the concept, ``first``) or for every one (``every``) leaves the generator where
    it is.  No version that can be made: ``Unbuildable``.  ``sure``: the builder knows that every version can
    be made whenever its conforming panel can, so no proof is needed (``ConceptualSlippage._made``)."""

    def __init__(self, recipes: Sequence[Callable[[], list[Mark] | None]], reason: str, sure: bool = False):
        self._recipes = list(recipes)
        self._made: list[list[Mark] | None] = []
        self.reason = reason
        #: every version can be made whenever the conforming panel can: making one proves nothing
        self.sure = sure

    @classmethod
    def of(cls, versions: Sequence[list[Mark]], reason: str) -> Versions:
        """Versions made already."""
        return cls([functools.partial(_given, marks) for marks in versions], reason)

    def _version(self, k: int) -> list[Mark] | None:
        """The k-th version's marks (None: it cannot be made), made once."""
        while len(self._made) <= k:
            self._made.append(self._recipes[len(self._made)]())
        return self._made[k]

    def first(self) -> list[Mark]:
        """The first version that can be made (the later ones are not made)."""
        for k in range(len(self._recipes)):
            marks = self._version(k)
            if marks is not None:
                return marks
        raise Unbuildable(self.reason)

    def every(self) -> list[list[Mark]]:
        """Every version that can be made, in the order drawn."""
        made = [marks for marks in map(self._version, range(len(self._recipes))) if marks is not None]
        if not made:
            raise Unbuildable(self.reason)
        return made


def _given(marks: list[Mark]) -> list[Mark]:
    """A version made already."""
    return marks


#: A conforming panel's marks and the violating versions of them (the violation drawn again, the rest kept):
#: ``ConceptualSlippage._pair`` keeps the version whose ink is laid out most like the conformer's; a draw wanted
#: for its conformer alone makes only the first version that can be made (``Versions.first``).
Twins = tuple[list[Mark], Versions]


def _marks(look: Look, centres: Sequence[np.ndarray], styles: Sequence[str], widths: Sequence[float],
           gaps: Sequence[float | None] = ()) -> list[Mark]:
    """Marks of the look at ``centres``; style 'solid' or 'hollow' (``widths`` relative to each shape's
    inradius), optionally cut open by a gap."""
    out = []
    for i, c in enumerate(centres):
        hollow = styles[i] == "hollow"
        gap = gaps[i] if hollow and i < len(gaps) else None
        try:
            shape = _mark_shape(look.kind(i), float(c[0]), float(c[1]), look.radius, look.rotation,
                                float(widths[i]) if hollow else None, None if gap is None else float(gap),
                                None if gap is None else look.rotation + 0.3 + i * 2.1)
        except ValueError as exc:
            raise Unbuildable(str(exc)) from exc
        out.append(Mark(shape, look.colour(i), look.kind(i)))
    return out


@functools.lru_cache(maxsize=2048)
def _mark_shape(kind: str, x: float, y: float, radius: float, rotation: float, width: float | None,
                gap: float | None, angle: float | None) -> Polygon:
    """One mark's polygon: the shape at (x, y), drawn as an outline when ``width`` (relative to the shape's
    inradius) is given, cut open by ``gap`` on the side at ``angle`` when that is given too.  Candidate panels
    share most of their marks, so each is made once (shapely geometries never change); ValueError if the
    outline cannot be made."""
    shape = shape_polygon(kind, (x, y), radius, rotation)
    if width is None:
        return shape
    shape = shape_outline(kind, (x, y), radius, rotation, max(MIN_WIDTH, width * inradius(shape)))
    if gap is not None:
        shape = open_outline(shape, (x, y), angle, gap)
    return shape


def _row(rng: np.random.Generator, look: Look, gaps: Sequence[float]) -> tuple[list[np.ndarray], np.ndarray, Look]:
    """Centres along a line through the panel (horizontal, vertical or diagonal) with the given gaps, and the
    look with its shapes turned to point along the line (so every row is exactly mirror symmetric about its
    own line, never nearly so)."""
    angle = float(rng.choice([0.0, np.pi / 2, np.pi / 4, -np.pi / 4]))
    direction = np.array([np.cos(angle), np.sin(angle)])
    along = np.concatenate([[0.0], np.cumsum(gaps)])
    along -= along.mean()
    centre = np.array([0.5, 0.5]) + rng.uniform(-0.05, 0.05, size=2)
    pts = [centre + t * direction for t in along]
    limit = 0.93 - look.radius
    if any(p.min() < 1 - limit or p.max() > limit for p in pts):
        raise Unbuildable("row does not fit")
    # shapes point along the line, so the row is mirror symmetric about its own line
    turned = attrs.evolve(look, rotation=angle + np.pi / 2 + float(rng.choice([0.0, np.pi])))
    return pts, np.array([-direction[1], direction[0]]), turned


def _row_look(rng: np.random.Generator, look: Look) -> tuple[Look, float]:
    """The row's span (first to last centre) and the look with a radius small enough for uneven gaps."""
    total = float(rng.uniform(0.62, 0.78))
    mean = total / (look.count - 1)
    radius = max(0.045, min(look.radius, (0.62 * mean - 0.015) / 2.2))  # >= 5 px objects even at 600x800
    return attrs.evolve(look, radius=radius), total


def _gaps(rng: np.random.Generator, look: Look, total: float, even: bool, spread: float) -> np.ndarray:
    """Gaps between neighbours along a row: all equal, or uneven with coefficient of variation >= spread
    (and never so small that neighbours touch) and, of those, the ones whose centres spread along the row
    (their variance) most nearly as much as evenly spaced ones do: uneven gaps over the same span otherwise
    spread the ink further, which a solver that sees only the options could measure."""
    n = look.count
    if even:
        return np.full(n - 1, total / (n - 1))
    floor = 2.2 * look.radius + 0.015
    w = rng.uniform(0.2, 1.8, size=(600, n - 1))  # many candidates at once; keep the best that qualifies
    g = w / w.sum(axis=1, keepdims=True) * total
    ok = (g.std(axis=1) / g.mean(axis=1) >= spread) & (g.min(axis=1) > floor)
    along = np.concatenate([np.zeros((len(g), 1)), np.cumsum(g, axis=1)], axis=1)
    evenly = np.linspace(0.0, total, n)
    mismatch = np.abs(along.var(axis=1) / evenly.var() - 1.0)
    ok &= mismatch <= 0.02
    if not ok.any():
        raise Unbuildable("no uneven gaps")
    return g[int(np.argmin(np.where(ok, mismatch, np.inf)))]


def build_spacing(rng: np.random.Generator, look: Look, strength: str, majority: str) -> Twins:
    """Equal gaps between neighbours on a line vs unequal gaps (same count, kinds, line)."""
    look, total = _row_look(rng, look)
    even = _gaps(rng, look, total, True, 0.0)
    uneven = _gaps(rng, look, total, False, 0.36 if strength == "strong" else 0.27)
    seed = int(rng.integers(2**31))
    centres, _, turned = _row(np.random.default_rng(seed), look, even)
    centres_v, _, _ = _row(np.random.default_rng(seed), look, uneven)
    solid = ["solid"] * look.count
    return _marks(turned, centres, solid, []), Versions.of([_marks(turned, centres_v, solid, [])], "no uneven row")


def build_alignment(rng: np.random.Generator, look: Look, strength: str, majority: str) -> Twins:
    """Objects standing in two parallel rows vs the same objects with one of them pushed off its row.  Two rows
    rather than one: a single row is as elongated as ink can be, and any object off it makes the panel
    visibly rounder to a solver that measures only the ink's spread; two rows some way apart are as round or
    as long as their lengths and distance make them, and one object off its row (towards the other row or
    away from it) changes that by much less than panels differ anyway."""
    counts = (look.count // 2, look.count - look.count // 2)
    angle = float(rng.choice([0.0, np.pi / 2, np.pi / 4, -np.pi / 4]))
    direction = np.array([np.cos(angle), np.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    apart = float(rng.uniform(0.3, 0.4))  # rows well apart, objects closer within a row: two rows, not a grid
    middle = np.array([0.5, 0.5]) + rng.uniform(-0.04, 0.04, size=2)
    rows = []
    for side, n in zip((-1, 1), counts, strict=True):
        weights = rng.uniform(0.75, 1.25, size=n - 1)
        gaps = weights / weights.sum() * (n - 1) * rng.uniform(0.15, 0.21)
        along = np.concatenate([[0.0], np.cumsum(gaps)])
        along += rng.uniform(-0.05, 0.05) - along.mean()
        rows.append((gaps, [middle + side * apart / 2 * normal + t * direction for t in along]))
    radius = min(look.radius, min(float(g.min()) for g, _ in rows) / 2.2 - 0.01)
    if radius < 0.04:
        raise Unbuildable("rows too crowded")
    centres = [p for _, row in rows for p in row]
    if any(p.min() < 0.06 + radius or p.max() > 0.94 - radius for p in centres):
        raise Unbuildable("rows do not fit")
    # shapes point along the rows (every row is mirror symmetric about its own line, as the objects are)
    turned = attrs.evolve(look, radius=radius, rotation=angle + np.pi / 2 + float(rng.choice([0.0, np.pi])))
    # one object off its row, towards the other row or away from it, by more than any row allows; a few
    # versions (which object, which way, how far), each pushed off when it is asked for
    points = np.array(centres)
    recipes = []
    for _ in range(VERSIONS):
        row = int(rng.integers(2))
        first = 0 if row == 0 else counts[0]
        k = first + int(rng.integers(1, counts[row] - 1))  # not at an end: the row's line cannot turn to meet it
        target = float(rng.uniform(0.085, 0.11) if strength == "strong" else rng.uniform(0.07, 0.08))
        sign = float(rng.choice([-1.0, 1.0]))
        recipes.append(functools.partial(_pushed_off, turned, points, k, sign, normal, target))
    return _marks(turned, centres, ["solid"] * len(centres), []), Versions(recipes, "no object can leave its row")


def _pushed_off(look: Look, points: np.ndarray, k: int, sign: float, normal: np.ndarray, target: float
                ) -> list[Mark] | None:
    """The marks of ``look`` at ``points`` with object ``k`` pushed off its row along ``sign`` times the rows'
    ``normal`` until the layout's ``rows_residual`` reaches about ``target``, or None if the push does not take it
    clearly off its row or there is no room for it there."""
    radius = look.radius
    step = 1.5 * target
    for _ in range(2):  # the residual grows about in proportion to the push
        moved = points.copy()
        moved[k] = points[k] + sign * step * normal
        reached = rows_residual(moved)
        if abs(reached - target) < 0.003 or not math.isfinite(reached):
            break
        step *= target / reached
    if not target - 0.004 <= reached < 0.2:
        return None  # the push does not take the object clearly off its row
    if moved[k].min() < 0.06 + radius or moved[k].max() > 0.94 - radius or any(
            np.linalg.norm(moved[k] - q) < 2.2 * radius + 0.02 for j, q in enumerate(points) if j != k):
        return None  # no room off the row
    return _marks(look, list(moved), ["solid"] * len(points), [])


def build_number(rng: np.random.Generator, look: Look, strength: str, majority: str) -> Twins:
    """The item's count of objects vs a different count (by two, or by one when weak), never fewer than three
    (two objects always make a long panel, which a solver that sees only the options could spot)."""
    n = look.count
    step = 2 if strength == "strong" else 1
    other = n + step if n + step <= 7 and (n - step < 3 or rng.random() < 0.5) else n - step
    centres = scatter(rng, n, look.radius)
    if centres is None:
        raise Unbuildable("no room")
    solid = ["solid"] * max(n, other)
    recipes = []
    for _ in range(VERSIONS):  # objects added at random places, or random ones left out
        if other > n:
            extra = scatter(rng, other - n, look.radius, avoid=[(c, 1.4 * look.radius - 0.01) for c in centres])
            if extra is None:
                continue
            placed = [*centres, *extra]
        else:
            keep = sorted(rng.choice(n, size=other, replace=False).tolist())
            placed = [centres[i] for i in keep]
        recipes.append(functools.partial(_marks, look, placed, solid, []))
    if not recipes:
        raise Unbuildable("no room")
    return _marks(look, centres, solid, []), Versions(recipes, "no room")


def build_enclosure(rng: np.random.Generator, look: Look, strength: str, majority: str) -> Twins:
    """A hollow container with one object inside (one or two when strong) and the others loose round it, vs
    the same panel with the enclosed objects moved out round the container too: loose objects outside are
    every panel's, so the violator differs from its conformer draw by one or two objects' places, not by a
    layout of its own (its ink would otherwise spread much further than any conformer's)."""
    enclosed = 1 if strength == "weak" else int(rng.integers(1, 3))
    big = rng.uniform(0.21, 0.25)
    centre = np.array([0.5, 0.5]) + rng.uniform(-0.05, 0.05, size=2)
    container_kind = str(rng.choice(["circle", "square", "hexagon", "pentagon"]))
    container = shape_polygon(container_kind, centre, big, look.rotation)
    try:
        band = shape_outline(container_kind, centre, big, look.rotation,
                             max(MIN_WIDTH, rng.uniform(*WIDTH["medium"]) * inradius(container)))
    except ValueError as exc:
        raise Unbuildable(str(exc)) from exc
    # inside: well within the container's hole, spread round its centre
    room = Polygon(band.interiors[0]).buffer(-(look.radius * 1.1 + 0.02))
    inside = _enclosed_spots(rng, room, centre, enclosed, 2.4 * look.radius + 0.02)
    if not inside:
        raise Unbuildable("no room inside")
    # outside: round the container, near its outline (nearer when weak); the loose objects first, then a few
    # versions of where the enclosed ones go
    reach = big + look.radius + (0.03 if strength == "weak" else 0.06)

    def round_about(count: int, taken: Sequence[np.ndarray]) -> list[np.ndarray] | None:
        spots: list[np.ndarray] = []
        for _ in range(300):
            angle = rng.uniform(0, 2 * np.pi)
            p = centre + np.array([np.cos(angle), np.sin(angle)]) * (reach + rng.uniform(0, 0.04))
            if (p.min() > 0.05 + look.radius and p.max() < 0.95 - look.radius
                    and all(np.linalg.norm(p - q) > 2.4 * look.radius + 0.02 for q in [*taken, *spots])):
                spots.append(p)
                if len(spots) == count:
                    return spots
        return None

    loose = round_about(look.count - enclosed, [])
    if loose is None:
        raise Unbuildable("no room outside")
    holder = Mark(band, look.colour(1), container_kind)
    solid = ["solid"] * look.count
    recipes = []
    for _ in range(VERSIONS):
        moved = round_about(enclosed, loose)
        if moved is not None:
            recipes.append(functools.partial(_held, holder, look, [*moved, *loose], solid))
    if not recipes:
        raise Unbuildable("no room outside")
    return _held(holder, look, [*inside, *loose], solid), Versions(recipes, "no room outside")


#: How many places ``_enclosed_spots`` tries for the enclosed objects.
ENCLOSED_TRIES = 60


def _enclosed_spots(rng: np.random.Generator, room: Polygon, centre: np.ndarray, enclosed: int, apart: float
                    ) -> list[np.ndarray]:
    """Places for the ``enclosed`` objects in ``room`` (where a centre keeps an object clear of the container),
    spread round ``centre``: of ENCLOSED_TRIES random tries (a turn, and per object a distance and an angle), the
    first whose places all lie in the room and further than ``apart`` from each other; none if no try fits.  An
    empty room fits no try: its tries are drawn all the same, so the generator ends where it would."""
    if room.is_empty:
        rng.random(ENCLOSED_TRIES * (1 + 2 * enclosed))  # each try draws 1 + 2 * enclosed uniform doubles
        return []
    reach_in = float(np.sqrt(room.area / np.pi))
    shapely.prepare(room)
    for _ in range(ENCLOSED_TRIES):
        turn = rng.uniform(0, 2 * np.pi)
        rho = rng.uniform(0.0 if enclosed == 1 else 0.45, 1.0, size=enclosed) * reach_in
        angles = turn + np.pi * np.arange(enclosed) + rng.uniform(-0.6, 0.6, size=enclosed)
        spots = [centre + r * np.array([np.cos(a), np.sin(a)]) for r, a in zip(rho, angles, strict=True)]
        if all(shapely.contains_xy(room, *p.tolist()) for p in spots) and all(
                np.linalg.norm(p - q) > apart for i, p in enumerate(spots) for q in spots[:i]):
            return spots
    return []


def _held(holder: Mark, look: Look, centres: Sequence[np.ndarray], styles: Sequence[str]) -> list[Mark]:
    """The container and the marks of ``look`` at ``centres``."""
    return [holder, *_marks(look, centres, styles, [])]


def build_symmetry(rng: np.random.Generator, look: Look, strength: str, majority: str) -> Twins:
    """Pairs of objects mirrored about an axis through the panel centre vs one or two of them moved.  With a
    strong violation (easy, medium) the axis is vertical or horizontal, which people see most readily; a
    weak one (hard) may also use a diagonal axis."""
    axes = [0.0, 90.0] if strength == "strong" else [0.0, 45.0, 90.0, 135.0]
    axis = float(rng.choice(axes))
    u = np.array([np.cos(np.radians(axis)), np.sin(np.radians(axis))])
    centre = np.array([0.5, 0.5])
    marks: list[Mark] = []
    originals: list[np.ndarray] = []
    for i in range(look.count):
        for _ in range(200):
            p = rng.uniform(0.12 + look.radius, 0.88 - look.radius, size=2)
            q = p - centre
            mirror = centre + 2 * (q @ u) * u - q
            if abs(q @ np.array([-u[1], u[0]])) < look.radius + 0.04:
                continue  # too close to the axis: the pair would touch
            if mirror.min() < 0.1 + look.radius or mirror.max() > 0.9 - look.radius:
                continue
            clear = 2.4 * look.radius + 0.03
            if all(np.linalg.norm(p - o) > clear and np.linalg.norm(mirror - o) > clear for o in originals):
                break
        else:
            raise Unbuildable("no room for a pair")
        shape = shape_polygon(look.kind(i), p, look.radius, look.rotation)
        image = _mirrored(shape, axis)
        marks += [Mark(shape, look.colour(i), look.kind(i)), Mark(image, look.colour(i), look.kind(i))]
        originals += [p, mirror]
    # the moved objects stay within the box of the symmetric layout (moving out of it would enlarge the ink's
    # box, which moving in seldom shrinks)
    x0, y0, x1, y1 = marks_bounds([m.polygon for m in marks])
    boxes = [m.polygon.bounds for m in marks]
    recipes = []
    for _ in range(VERSIONS):  # which objects move, which way: every try's shift drawn now, tried when asked for
        movers = [int(rng.integers(len(marks)))]
        if strength == "strong":
            movers.append((movers[0] + 3) % len(marks))
        lengths = rng.uniform(0.1, 0.14, size=(len(movers), SHIFT_TRIES))
        angles = rng.uniform(0, 2 * np.pi, size=(len(movers), SHIFT_TRIES))
        recipes.append(functools.partial(_moved_off_mirror, marks, boxes, (x0, y0, x1, y1), movers, lengths,
                                         angles))
    return marks, Versions(recipes, "nowhere to move")


#: How many shifts ``build_symmetry`` draws for each object it moves (the first that fits is taken).
SHIFT_TRIES = 100


def _moved_off_mirror(marks: Sequence[Mark], boxes: Sequence[tuple[float, float, float, float]],
                      bounds: tuple[float, float, float, float], movers: Sequence[int], lengths: np.ndarray,
                      angles: np.ndarray) -> list[Mark] | None:
    """``marks`` with each of ``movers`` moved by the first of its drawn shifts (row of ``lengths`` and ``angles``)
    that keeps it within ``bounds`` (the box of the symmetric layout, 0.04 to spare) and more than 0.025 from every
    other mark; None if some mover has no such shift."""
    x0, y0, x1, y1 = bounds
    broken, broken_boxes = list(marks), list(boxes)
    for row, k in enumerate(movers):
        u0, v0, u1, v1 = boxes[k]
        for length, angle in zip(lengths[row].tolist(), angles[row].tolist(), strict=True):
            dx, dy = length * math.cos(angle), length * math.sin(angle)
            # a translation moves the box by the shift exactly (adding is monotone), so the box is tested
            # before the mark is moved; the marks' boxes are measured once
            if u0 + dx < x0 - 0.04 or v0 + dy < y0 - 0.04 or u1 + dx > x1 + 0.04 or v1 + dy > y1 + 0.04:
                continue
            box = (u0 + dx, v0 + dy, u1 + dx, v1 + dy)
            moved = affine_chain(marks[k].polygon, ((1.0, 0.0, 0.0, 1.0, dx, dy),))
            if not all(_box_gap(box, broken_boxes[j]) > 0.025 + 1e-12 or moved.distance(m.polygon) > 0.025
                       for j, m in enumerate(broken) if j != k):
                continue
            broken[k] = Mark(moved, marks[k].colour, marks[k].kind)
            broken_boxes[k] = moved.bounds
            break
        else:
            return None
    return broken


def _mirrored(shape: Polygon, axis: float) -> Polygon:
    """``shape`` (no holes) mirrored about the line through the panel centre at ``axis`` degrees: turned by
    -``axis``, flipped top to bottom, turned back (the maps of ``shapely.affinity.rotate`` and ``scale`` about the
    centre, applied in turn, ``affine_chain``)."""
    return affine_chain(shape, (rotation(-axis * math.pi / 180.0, (0.5, 0.5)), (1.0, 0.0, 0.0, -1.0, 0.0, 1.0),
                                rotation(axis * math.pi / 180.0, (0.5, 0.5))))


def _box_gap(a: Sequence[float], b: Sequence[float]) -> float:
    """The distance between two boxes (x0, y0, x1, y1), a floor on the distance between what they hold."""
    return math.hypot(max(0.0, a[0] - b[2], b[0] - a[2]), max(0.0, a[1] - b[3], b[1] - a[3]))


def _style_centres(rng: np.random.Generator, look: Look) -> list[np.ndarray]:
    """Scattered centres for the style concepts (topology, border, hollowness)."""
    centres = scatter(rng, look.count, look.radius)
    if centres is None:
        raise Unbuildable("no room")
    return centres


def _chosen(n: int, strength: str) -> list[set[int]]:
    """Which marks of the violating panel may change: all of them (strong), or any one (weak)."""
    return [set(range(n))] if strength == "strong" else [{i} for i in range(n)]


def build_topology(rng: np.random.Generator, look: Look, strength: str, majority: str) -> Twins:
    """Closed outlines vs outlines with a gap (or the reverse when the majority is open)."""
    centres = _style_centres(rng, look)
    widths = [rng.uniform(*WIDTH["medium"])] * look.count
    gap = rng.uniform(0.04, 0.055)
    choices = _chosen(look.count, strength)
    changed = choices[int(rng.integers(len(choices)))]
    hollow = ["hollow"] * look.count
    closed_gaps = [None] * look.count
    other_gaps = [gap if i in changed else None for i in range(look.count)]
    if majority == "open":
        closed_gaps, other_gaps = [gap] * look.count, [None if i in changed else gap for i in range(look.count)]
    return (_marks(look, centres, hollow, widths, closed_gaps),
            Versions.of([_marks(look, centres, hollow, widths, other_gaps)], "no gap"))


def build_border(rng: np.random.Generator, look: Look, strength: str, majority: str) -> Twins:
    """Outlines with thick borders vs thin ones (or the reverse), three times thinner at least."""
    centres = _style_centres(rng, look)
    minority = "thin" if majority == "thick" else "thick"
    same = rng.uniform(*WIDTH[majority])
    other = rng.uniform(*WIDTH[minority])
    hollow = ["hollow"] * look.count
    # every outline of these widths can be made on the border's shapes (circles, pentagons, hexagons of radius
    # 0.095 or more: the hole keeps (1 - 0.6)^2 of the area, well above ``outline``'s 0.12), so the versions are
    # made only when they are asked for
    recipes = [functools.partial(_marks, look, centres, hollow, [other if i in changed else same
                                                                 for i in range(look.count)])
               for changed in _chosen(look.count, strength)]
    return _marks(look, centres, hollow, [same] * look.count), Versions(recipes, "no border", sure=True)


def build_hollowness(rng: np.random.Generator, look: Look, strength: str, majority: str) -> Twins:
    """Filled shapes vs outlines (or the reverse)."""
    centres = _style_centres(rng, look)
    width = rng.uniform(*HOLLOW_WIDTH)
    # every mark must take a hole that stays open at 600x800 whether or not this draw shows it hollow (a check
    # on the hollow version alone would make the violator's shapes larger than the conformers' when it is hollow)
    # (mark by mark, the draw refused at the first that fails; the hollow marks made stay memoised for below)
    for i, c in enumerate(centres):
        try:
            shape = _mark_shape(look.kind(i), float(c[0]), float(c[1]), look.radius, look.rotation, float(width),
                                None, None)
        except ValueError as exc:
            raise Unbuildable(str(exc)) from exc
        if any(2 * Polygon(ring).area / Polygon(ring).length < 1.2 * MIN_HOLE for ring in shape.interiors):
            raise Unbuildable("the hole would close up")
    minority = "hollow" if majority == "solid" else "solid"
    # every mark can be drawn filled and (as just made) hollow, so the versions are made only when asked for
    recipes = [functools.partial(_marks, look, centres, [minority if i in changed else majority
                                                         for i in range(look.count)], [width] * look.count)
               for changed in _chosen(look.count, strength)]
    return (_marks(look, centres, [majority] * look.count, [width] * look.count),
            Versions(recipes, "no fill", sure=True))


#: Letters whose mirror image is themselves (A H I M O T U V W X Y), from the glyphs.
_SAME_IN_MIRROR = {k for k, v in mirror_letter_table().items() if v}


_ASYMMETRIC = sorted(set(GLYPHS) - _SAME_IN_MIRROR)


_SYMMETRIC = sorted(_SAME_IN_MIRROR)


def random_word(rng: np.random.Generator, length: int, asymmetric: int) -> str:
    """A random uppercase string with exactly ``asymmetric`` letters that change in a mirror (so the word
    can never read the same mirrored: spec §2.4)."""
    slots = set(rng.choice(length, size=asymmetric, replace=False).tolist())
    return "".join(str(rng.choice(_ASYMMETRIC if i in slots else _SYMMETRIC)) for i in range(length))


def word_strokes(word: str, height: float, centre: Sequence[float], mirrored: bool) -> list[np.ndarray]:
    """The word in stroke letters, ``height`` the letter height; mirrored = reflected left-right as a whole
    (letter order reversed and every letter flipped)."""
    unit = height / GLYPH_HEIGHT
    advance = (GLYPH_WIDTH + 1.6) * unit
    width = len(word) * advance - 1.6 * unit
    left = centre[0] - width / 2
    top = centre[1] - height / 2
    strokes = []
    for i, letter in enumerate(word):
        for s in GLYPHS[letter]:
            pts = np.asarray(s, dtype=float) * unit + [left + i * advance, top]
            strokes.append(pts)
    if mirrored:
        strokes = [np.column_stack([2 * centre[0] - p[:, 0], p[:, 1]]) for p in strokes]
    return strokes


def build_word(rng: np.random.Generator, look: Look, strength: str, majority: str) -> tuple[Panel, Panel]:
    """A word written normally vs the same kind of word mirrored (spec §2.4 word symmetry)."""
    length = look.count
    asym = int(rng.integers(2, length + 1)) if strength == "strong" else 1
    word = random_word(rng, length, asym)
    height = min(look.radius, 0.82 / (length * (GLYPH_WIDTH + 1.6) / GLYPH_HEIGHT))
    centre = (0.5 + rng.uniform(-0.03, 0.03), 0.5 + rng.uniform(-0.15, 0.15))
    plain = Panel(word=tuple(word_strokes(word, height, centre, False)), word_colour=look.colour(0), text=word)
    flipped = Panel(word=tuple(word_strokes(word, height, centre, True)), word_colour=look.colour(0), text=word)
    return plain, flipped


BUILDERS = {"spacing": build_spacing, "alignment": build_alignment, "number": build_number,
            "enclosure": build_enclosure, "symmetry": build_symmetry, "topology": build_topology,
            "border": build_border, "hollowness": build_hollowness, "word": build_word}


#: The measured attribute that carries each concept.
CONCEPT_ATTRIBUTE = {"spacing": "spacing", "alignment": "aligned", "number": "number", "enclosure": "enclosure",
                     "symmetry": "symmetric", "topology": "topology", "border": "border", "hollowness": "fill",
                     "word": "mirrored"}
