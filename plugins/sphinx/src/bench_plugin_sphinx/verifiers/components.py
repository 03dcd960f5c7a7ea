"""Verifier of ``sphinx/tiles-connected-component``: the components of the asked colour flood-filled on the
picture's own cell graph (``topology.read_board``: colours at cell centres, edge neighbours by probing beyond
every drawn edge, disks by their centres one diameter apart).  The question must state the adjacency the
picture's tiling uses and the measure; an asked extreme must be held by exactly one component."""

from __future__ import annotations

from bench_plugin_sphinx import topology_words as words
from bench_plugin_sphinx.verifiers import topology
from bench_plugin_sphinx.verifiers.records import guarded


@guarded
def verify(item, images) -> list[str]:
    scene, measure = item.metadata["scene"], item.metadata.get("measure")
    if measure not in words.MEASURE_PHRASES:
        return [f"unknown measure {measure!r}"]
    adjacency = words.TOUCH_ADJACENCY if scene["tiling"] == "circles" else words.EDGE_ADJACENCY
    failures = [f"the question does not state {text!r}" for text in (adjacency, words.COMPONENT_RULE)
                if text not in item.question]
    named = list(dict.fromkeys(topology.question_colours(item.question)))
    if len(named) != 1:
        failures.append(f"the question names {len(named)} colours, not one")
    elif words.MEASURE_PHRASES[measure].split("{c}")[0] not in item.question:
        failures.append(f"the question does not ask for the recorded measure {measure}")
    board, problems = topology.read_board(scene, images[0])
    if board is None or failures:
        return [*failures, *problems]
    groups = topology.flood(board.cells_of(named[0]), board)
    if not groups:
        return [f"no cell of the picture shows {named[0]}"]
    sizes = sorted(len(g) for g in groups)
    if measure == "count_components":
        derived = len(groups)
    else:
        derived = sizes[-1] if measure == "size_largest" else sizes[0]
        if sizes.count(derived) != 1:
            return [f"{sizes.count(derived)} components of {named[0]} share the asked extreme size {derived}"]
    claimed, problems = topology.claimed_integer(item)
    if claimed is None:
        return problems
    if derived != claimed:
        return [f"the picture gives {derived} for {measure} of {named[0]}, but the answer is {claimed}"]
    return []

