"""Issue 16: a bounded instance's solver never crosses the seam, and a wrapping one does when the instance needs
it.  The paths are enumerated with the solvers' own topology (``kit.grid.Board``: the moves the DPs count),
each move tagged with ``Board.crosses_seam``; the DP counts are the number of paths enumerated."""

from __future__ import annotations

from bench_plugin_polaris import knight_paths as kp
from bench_plugin_polaris import path_counting as pc
from bench_plugin_polaris.kit.grid import KNIGHT, ORTHOGONAL, Board
from polaris_helpers import build_run, task_of


def _walks(board: Board, start, moves, length: int):
    """Every walk of ``length`` moves from ``start`` on ``board`` as (cells, crossed the seam?)."""
    out = []

    def go(cells, crossed):
        if len(cells) == length + 1:
            out.append((cells, crossed))
            return
        r, c = cells[-1]
        for dr, dc in moves:
            nxt = board.move(r, c, dr, dc)
            if nxt is not None:
                go([*cells, nxt], crossed or board.crosses_seam(c, dc))

    go([start], False)
    return out


def test_knight_solvers_cross_the_seam_only_when_wrapping_and_then_when_needed():
    items = [b.item for b in build_run(task_of("bounded_knight_paths"), 6, {"variant": "polar"}, seed=1)]
    items += [b.item for b in build_run(task_of("knight_paths"), 6, {"variant": "polar"}, seed=1)]
    for item in items:
        scene = item.metadata["scene"]
        start, target, k = tuple(scene["start"]), tuple(scene["target"]), scene["moves"]
        for wrap in (False, True):
            board = Board(scene["rows"], scene["cols"], wrap)
            arriving = [(cells, crossed) for cells, crossed in _walks(board, start, KNIGHT, k) if cells[-1] == target]
            assert len(arriving) == kp.count_walks(board, start, target, k)
            if not wrap:
                assert not any(crossed for _, crossed in arriving), f"{item.id}: a bounded path crosses the seam"
            else:  # every pair needs the wrap (the counts differ): some counted path crosses the seam
                assert item.metadata["wrap_count"] != item.metadata["bounded_count"]
                assert any(crossed for _, crossed in arriving), f"{item.id}: the wrap count has no seam crossing"


def test_shortest_path_solver_crosses_the_seam_only_when_wrapping_and_then_when_needed():
    items = [b.item for b in build_run(task_of("path_counting"), 10, {"variant": "polar"}, seed=3)]
    needed = 0
    for item in items:
        scene = item.metadata["scene"]
        blocked = {tuple(b) for b in scene["blocked"]}
        start, goal = tuple(scene["start"]), tuple(scene["goal"])
        for wrap in (False, True):
            board = Board(scene["rows"], scene["cols"], wrap, blocked)
            distance, count = pc.shortest_paths(board, start, goal)
            shortest = [(cells, crossed) for cells, crossed in _walks(board, start, ORTHOGONAL, distance)
                        if cells[-1] == goal]
            assert len(shortest) == count
            if not wrap:
                assert not any(crossed for _, crossed in shortest), f"{item.id}: a bounded path crosses the seam"
            elif item.metadata["seam_decides"]:
                needed += 1
                assert any(crossed for _, crossed in shortest), f"{item.id}: the wrap reading never uses the seam"
    assert needed >= 2
