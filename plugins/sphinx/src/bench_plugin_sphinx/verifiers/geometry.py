"""Verifier of ``sphinx/tiles-geometry``: the measure re-derived from the picture.

The board is read by ``topology.read_board`` (cell colours at their centres, neighbours and border edges by
probing beyond every drawn edge).  The asked regions are the cells showing the colours the question names
(``#rrggbb``); each must be one connected group.  Area counts cells; perimeter counts, over the shape's cells,
the edges whose far side is not in the shape (another cell or the board's border); holes are the groups of
cells outside the shape, joined through shared edges, with no edge on the border, and every one of them must
be drawn near-black while every near-black cell lies in one.  The recorded fills are never read.
"""

from __future__ import annotations

from bench_plugin_sphinx import topology_words as words
from bench_plugin_sphinx.verifiers import topology
from bench_plugin_sphinx.verifiers.records import guarded

HOLE_MAX = 0x2C


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[k: k + 2], 16) for k in (1, 3, 5))
    return r == g == b and r <= HOLE_MAX


def _perimeter(board: topology.Board, shape: set[int]) -> int:
    return sum(1 for c in shape for n in board.sides[c] if n not in shape)


@guarded
def verify(item, images) -> list[str]:
    query = item.metadata.get("query")
    if query not in words.GEOMETRY_RULES:
        return [f"unknown query {query!r}"]
    failures = [f"the question does not state the rule {rule!r}" for rule in words.GEOMETRY_RULES[query]
                if rule not in item.question]
    board, problems = topology.read_board(item.metadata["scene"], images[0])
    if board is None:
        return [*failures, *problems]
    named = list(dict.fromkeys(topology.question_colours(item.question)))
    wanted = 1 if query in ("area", "perimeter", "holes") else 2
    if len(named) != wanted:
        return [*failures, f"the question names {len(named)} colours, a {query} query asks about {wanted}"]
    regions = []
    for colour in named:
        cells = board.cells_of(colour)
        groups = topology.flood(cells, board)
        if len(groups) != 1:
            failures.append(f"the {colour} cells form {len(groups)} groups in the picture, not one region")
        regions.append(cells)
    if failures:
        return failures
    if query == "area":
        derived = len(regions[0])
    elif query == "perimeter":
        derived = _perimeter(board, regions[0])
    elif query == "area_difference":
        derived = abs(len(regions[0]) - len(regions[1]))
    elif query == "union_perimeter":
        union = regions[0] | regions[1]
        if len(topology.flood(union, board)) != 1:
            return [f"the {named[0]} and {named[1]} regions share no edge in the picture"]
        derived = _perimeter(board, union)
    else:
        outside = set(range(len(board.colours))) - regions[0]
        holes = [g for g in topology.flood(outside, board) if not any(board.border_edges[c] for c in g)]
        dark = {c for c, colour in enumerate(board.colours) if _dark(colour)}
        if set().union(set(), *holes) != dark:
            return ["the near-black cells of the picture are not exactly the cells of the enclosed holes"]
        derived = len(holes)
    claimed, problems = topology.claimed_integer(item)
    if claimed is None:
        return problems
    if derived != claimed:
        return [f"the picture gives {derived} for the {query} query, but the answer is {claimed}"]
    return []
