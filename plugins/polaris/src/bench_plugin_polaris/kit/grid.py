"""Index-space boards, moves and the heading algebra shared by the Cartesian and the Polar rendering.

A logical instance lives in index space: cells ``(r, c)`` with ``r`` in ``[0, rows)`` (row 0 is the top row
in the Cartesian picture) and ``c`` in ``[0, cols)`` (column 0 is the left column; in the polar picture the
sector that starts at 12 o'clock).  A board is *bounded* (no move leaves the rectangle; in polar the seam at
12 o'clock is a wall) or wraps the columns (``c`` taken mod ``cols``; in polar the natural angular wrap).  The
rows never wrap (the inner and outer circles are walls).

Headings are indices 0..3 of one clockwise cycle in index space: 0 = row - 1, 1 = column + 1, 2 = row + 1,
3 = column - 1.  Their names are Up/Right/Down/Left in the Cartesian rendering and, under the navigation
convention (polar orientation ``"out"``: the top row is the outermost ring), Out/CW/In/CCW in the polar one,
the same clockwise cycle, so ``turn_right`` is +1 and ``turn_left`` -1 (mod 4) in both (spec 2.5).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

#: The three boundary conditions of the paper's tables: bounded (the seam is a wall), wrapping (the angular
#: wrap; the Cartesian twin of a fully aligned task wraps left/right too), invariant (nothing touches the seam).
BOUNDARIES = ("bounded", "wrapping", "invariant")
#: Alignment classes: the same answer in both renderings, or a recorded other answer.
ALIGNMENTS = ("full", "partial")
#: The two renderings of one logical instance, in pair order.
VARIANTS = ("cartesian", "polar")

#: Index-space steps of the four headings, one clockwise cycle starting at "towards row 0".
HEADING_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
#: Heading names per rendering (polar under the navigation orientation "out"; see ``heading_name``).
CARTESIAN_HEADINGS = ("Up", "Right", "Down", "Left")
POLAR_HEADINGS = ("Out", "CW", "In", "CCW")

#: Move sets as (dr, dc) steps in index space.
ORTHOGONAL = HEADING_STEPS
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))
#: Forward diagonals (row + 1, column -1 / +1): a checker moving down the rows (towards the centre in polar
#: orientation "out").
FORWARD_DIAGONAL = ((1, -1), (1, 1))
KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
KING = ORTHOGONAL + DIAGONAL

Cell = tuple[int, int]


def check_boundary(boundary: str) -> str:
    """``boundary`` if it is one of ``BOUNDARIES``, else ValueError naming the allowed ones."""
    if boundary not in BOUNDARIES:
        raise ValueError(f"boundary {boundary!r} is not one of {', '.join(BOUNDARIES)}")
    return boundary


@attrs.frozen
class Board:
    """A ``rows`` x ``cols`` board in index space; ``wrap`` makes column ``cols - 1`` adjacent to column 0.

    ``blocked`` cells cannot be entered; ``walls`` are blocked orthogonal edges, each a frozenset of its two
    cells (across the wrap too: ``{(r, cols - 1), (r, 0)}``).  Both only matter to ``move`` and the
    neighbour functions; ``step`` is the bare topology."""

    rows: int
    cols: int
    wrap: bool = False
    blocked: frozenset[Cell] = attrs.field(default=frozenset(), converter=frozenset)
    walls: frozenset[frozenset[Cell]] = attrs.field(
        default=frozenset(), converter=lambda ws: frozenset(frozenset(w) for w in ws))

    def __attrs_post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"a board needs at least one row and one column, got {self.rows} x {self.cols}")

    def inside(self, r: int, c: int) -> bool:
        """Whether ``(r, c)`` is a cell of the board (no wrap applied)."""
        return 0 <= r < self.rows and 0 <= c < self.cols

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row."""
        for r in range(self.rows):
            for c in range(self.cols):
                yield r, c

    def step(self, r: int, c: int, dr: int, dc: int) -> Cell | None:
        """The cell ``(r + dr, c + dc)``, the column taken mod ``cols`` on a wrapping board; None when the
        step leaves the rows, or the columns of a bounded board (a bounded polar board's seam is a wall)."""
        nr, nc = r + dr, c + dc
        if not 0 <= nr < self.rows:
            return None
        if self.wrap:
            return nr, nc % self.cols
        return (nr, nc) if 0 <= nc < self.cols else None

    def crosses_seam(self, c: int, dc: int) -> bool:
        """Whether a step of ``dc`` columns from column ``c`` passes between column ``cols - 1`` and column 0
        (the polar seam at 12 o'clock; the Cartesian left/right edge)."""
        return not 0 <= c + dc < self.cols

    def move(self, r: int, c: int, dr: int, dc: int) -> Cell | None:
        """``step``, also None when the target is blocked or a wall lies on the (orthogonal unit) edge."""
        target = self.step(r, c, dr, dc)
        if target is None or target in self.blocked:
            return None
        if self.walls and abs(dr) + abs(dc) == 1 and frozenset(((r, c), target)) in self.walls:
            return None
        return target

    def neighbours(self, r: int, c: int, moves: Iterable[tuple[int, int]] = ORTHOGONAL) -> list[Cell]:
        """The cells ``move`` reaches from ``(r, c)`` with each of ``moves``, in the order of ``moves``;
        distinct targets only (on a narrow wrapping board two moves may land on one cell)."""
        seen: list[Cell] = []
        for dr, dc in moves:
            target = self.move(r, c, dr, dc)
            if target is not None and target not in seen:
                seen.append(target)
        return seen

    def with_wrap(self, wrap: bool) -> Board:
        """The same board read with or without the column wrap."""
        return attrs.evolve(self, wrap=wrap)


def moves_distinct(moves: Iterable[tuple[int, int]], cols: int) -> bool:
    """Whether every pair of ``moves`` with the same row step stays distinct mod ``cols`` (on a wrapping
    board of ``cols`` columns two moves would otherwise reach the same cell: spec 9.2 "knight/diagonal
    wraps on small S create duplicate moves")."""
    seen = set()
    for dr, dc in moves:
        key = (dr, dc % cols)
        if key in seen:
            return False
        seen.add(key)
    return True


# --- heading algebra -------------------------------------------------------------------------------------

def turn_right(heading: int) -> int:
    """The heading a quarter turn clockwise (viewed from above) of ``heading``: +1 mod 4."""
    return (heading + 1) % 4


def turn_left(heading: int) -> int:
    """The heading a quarter turn counter-clockwise of ``heading``: -1 mod 4."""
    return (heading - 1) % 4


def reverse(heading: int) -> int:
    """The opposite heading: +2 mod 4."""
    return (heading + 2) % 4


def heading_step(heading: int) -> tuple[int, int]:
    """The index-space step (dr, dc) of ``heading``."""
    return HEADING_STEPS[heading % 4]


def heading_of(dr: int, dc: int) -> int:
    """The heading whose step is (dr, dc); ValueError for anything else."""
    try:
        return HEADING_STEPS.index((dr, dc))
    except ValueError:
        raise ValueError(f"({dr}, {dc}) is not an orthogonal unit step") from None


def heading_name(heading: int, variant: str, orientation: str = "out") -> str:
    """The name of ``heading`` in ``variant``: Up/Right/Down/Left in the Cartesian rendering, Out/CW/In/CCW
    in the polar one.  Under orientation ``"in"`` (row 0 = the innermost ring) the radial names swap: row - 1
    is In and row + 1 is Out (tasks with turns use ``"out"``, where the clockwise cycles agree)."""
    heading %= 4
    if variant == "cartesian":
        return CARTESIAN_HEADINGS[heading]
    if variant != "polar":
        raise ValueError(f"variant {variant!r} is not one of {', '.join(VARIANTS)}")
    if orientation == "in" and heading in (0, 2):
        return POLAR_HEADINGS[reverse(heading)]
    return POLAR_HEADINGS[heading]


def heading_from_name(name: str, variant: str, orientation: str = "out") -> int:
    """The heading called ``name`` (case-insensitive) in ``variant``: the inverse of ``heading_name``."""
    for heading in range(4):
        if heading_name(heading, variant, orientation).lower() == name.strip().lower():
            return heading
    raise ValueError(f"{name!r} is not a {variant} heading")


def translate_heading(name: str, source: str, target: str, orientation: str = "out") -> str:
    """A heading name of rendering ``source`` in the words of rendering ``target`` (Up <-> Out ...)."""
    return heading_name(heading_from_name(name, source, orientation), target, orientation)
