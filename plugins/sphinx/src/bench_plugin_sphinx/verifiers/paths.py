"""Verifier of ``sphinx/tiles-shortest-path``: the fewest moves re-derived by breadth-first search on the
picture's own cell graph (``topology.read_board``: colours at cell centres, edge neighbours by probing beyond
every drawn edge, disks by their centres one diameter apart).

Start and End are the two colours the question names, in that order; each must fill exactly one cell.  Every
other cell must be a neutral gray: dark (at most #2c2c2c, an obstacle) or light (#e6e6e6 to #f9f9f9, free).
The answer is the number of moves from Start to End through free cells, or -1 when End is not reached.
"""

from __future__ import annotations

from bench_plugin_sphinx import topology_words as words
from bench_plugin_sphinx.verifiers import topology
from bench_plugin_sphinx.verifiers.records import guarded

DARK_MAX, LIGHT_RANGE = 0x2C, (0xE6, 0xF9)


def _gray(colour: str) -> int | None:
    r, g, b = (int(colour[k: k + 2], 16) for k in (1, 3, 5))
    return r if r == g == b else None


@guarded
def verify(item, images) -> list[str]:
    scene = item.metadata["scene"]
    adjacency = words.TOUCH_ADJACENCY if scene["tiling"] == "circles" else words.EDGE_ADJACENCY
    failures = [f"the question does not state {text!r}" for text in (adjacency, words.PATH_RULE)
                if text not in item.question]
    named = list(dict.fromkeys(topology.question_colours(item.question)))
    if len(named) != 2:
        return [*failures, f"the question names {len(named)} colours, not a Start and an End"]
    board, problems = topology.read_board(scene, images[0])
    if board is None:
        return [*failures, *problems]
    marks = []
    for role, colour in zip(("Start", "End"), named, strict=True):
        cells = board.cells_of(colour)
        if len(cells) != 1:
            failures.append(f"{len(cells)} cells of the picture show the {role} colour {colour}, not one")
        marks.append(min(cells) if cells else -1)
    free = set()
    for cell, colour in enumerate(board.colours):
        if cell in marks:
            continue
        level = _gray(colour)
        if level is None or not (level <= DARK_MAX or LIGHT_RANGE[0] <= level <= LIGHT_RANGE[1]):
            failures.append(f"cell {cell} shows {colour}, neither an obstacle nor a free gray")
            break
        if level >= LIGHT_RANGE[0]:
            free.add(cell)
    if failures:
        return failures
    derived = topology.moves(board, free | set(marks), marks[0], marks[1])
    claimed, problems = topology.claimed_integer(item)
    if claimed is None:
        return problems
    if derived != claimed:
        return [f"the picture gives {derived} moves from Start to End, but the answer is {claimed}"]
    return []
