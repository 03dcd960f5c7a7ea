"""sphinx/tiles-composition: the exact-cover search, the options, the pixel verifier and planted faults."""

from __future__ import annotations

import collections
import copy
from pathlib import Path

import numpy as np
import pytest
from bench_plugin_sphinx import composition_words as words
from bench_plugin_sphinx import tiles_composition as tc
from bench_plugin_sphinx.descriptions import tiles_composition as description
from bench_plugin_sphinx.kit import complexity, polyforms
from bench_plugin_sphinx.verifiers import assembly
from PIL import ImageDraw
from sphinx_helpers import HOST, build, build_run, task_of

from bench_core import ConformanceSuite, assert_rejected

TASK = task_of("tiles_composition")


class TestConformance(ConformanceSuite):
    family = "sphinx"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return HOST

    def pytest_generate_tests(self, metafunc):
        if "task" in metafunc.fixturenames:
            metafunc.parametrize("task", [TASK], ids=[TASK.id])


def test_description_keeps_step_with_the_implementation():
    assert description.TILINGS == tc.TILINGS == tuple(dict.fromkeys(tc.TILING_CYCLE))
    assert description.MODES == tc.MODES == words.MODES
    assert description.COLOURINGS == tc.COLOURINGS == tuple(dict.fromkeys(tc.COLOURING_CYCLE))


def _squares(cells):
    return [((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)) for x, y in cells]


KNOWN = [
    # four T tetrominoes tile the 4 x 4 square
    ([[(0, 0), (1, 0), (2, 0), (1, 1)]] * 4, [(x, y) for x in range(4) for y in range(4)], True),
    # two L trominoes tile a 2 x 3 rectangle
    ([[(0, 0), (0, 1), (1, 1)]] * 2, [(x, y) for x in range(3) for y in range(2)], True),
    # a straight tromino and a single cell never tile a 2 x 2 square
    ([[(0, 0), (1, 0), (2, 0)], [(0, 0)]], [(x, y) for x in range(2) for y in range(2)], False),
    # two S tetrominoes never tile a 2 x 4 rectangle
    ([[(0, 0), (1, 0), (1, 1), (2, 1)]] * 2, [(x, y) for x in range(4) for y in range(2)], False),
    # five of the 2 x 1 dominoes never tile a 3 x 3 square less its centre's neighbour... areas differ
    ([[(0, 0), (1, 0)]] * 4, [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)], True),
    # the mutilated board: corners removed, dominoes fail (parity)
    ([[(0, 0), (1, 0)]] * 7, [(x, y) for x in range(4) for y in range(4) if (x, y) not in ((0, 0), (3, 3))], False),
]


@pytest.mark.parametrize(("pieces", "target", "expected"), KNOWN)
def test_both_searches_solve_known_tilings(pieces, target, expected):
    bag = [_squares(p) for p in pieces]
    goal = _squares(target)
    assert (polyforms.assemble(bag, goal, "square") is not None) is expected
    assert assembly.assemblable([assembly.cells_of(p) for p in bag], assembly.cells_of(goal)) is expected


@pytest.mark.parametrize("name", tc.TILINGS)
def test_the_two_searches_agree_on_random_bags(name):
    graph, polys = tc.patch(name)
    rng = np.random.default_rng(7)
    agree = collections.Counter()
    for _ in range(25):
        region = polyforms.grow(graph, 10, rng)
        other = tc.near_miss(region, graph, rng, 1)
        pieces = polyforms.split(region, graph, [3, 3, 4], rng)
        if other is None or pieces is None or len(region) != 10:
            continue
        bag = [[polys[c] for c in sorted(p)] for p in pieces]
        for target in (region, other):
            goal = [polys[c] for c in sorted(target)]
            kit = polyforms.assemble(bag, goal, name) is not None
            agree[kit] += 1
            assert kit == assembly.assemblable([assembly.cells_of(p) for p in bag], assembly.cells_of(goal))
    assert agree[True] >= 10 and agree[False] >= 3


def _kit_placements_cell_by_cell(piece, target, name):
    """``polyforms.placements`` as it was written before its array passes: each group element, each target
    cell, the piece's cell means looked up one by one, then every cell's ``cell_key``."""
    x0, y0, _, _ = polyforms.bounds(target)
    target = polyforms.shift(target, -x0, -y0)
    keys = [polyforms.cell_key(p, name) for p in target]
    centres = [polyforms._centroid(p) for p in target]
    index = {polyforms._centre_key(x, y, name): k for k, (x, y) in enumerate(centres)}
    found = set()
    for turn, flip in polyforms.GROUPS[name]:
        moved = polyforms.transform_all(piece, turn, flip)
        means = [polyforms._centroid(p) for p in moved]
        for cx, cy in centres:
            dx, dy = cx - means[0][0], cy - means[0][1]
            hit = [index.get(polyforms._centre_key(mx + dx, my + dy, name)) for mx, my in means]
            if None in hit or len(set(hit)) != len(hit):
                continue
            moved_cells = polyforms.shift(moved, dx, dy)
            if all(polyforms.cell_key(p, name) == keys[k] for p, k in zip(moved_cells, hit, strict=True)):
                found.add(sum(1 << k for k in hit))
    return sorted(found)


def _verifier_placements_cell_by_cell(piece, target):
    """``assembly.placements`` as it was written before its array passes: every view and anchor, the cells'
    means looked up on the grid one by one, then every cell's ``_key`` set."""
    where = {spot: k for k, cell in enumerate(target) for spot in assembly._spots(assembly._mean(cell))}
    shapes = [assembly._key(cell) for cell in target]
    found = set()
    for mirror in (False, True):
        base = [[p.conjugate() for p in cell] for cell in piece] if mirror else piece
        for turn in assembly.TURNS:
            turned = [[p * turn for p in cell] for cell in base]
            means = [assembly._mean(cell) for cell in turned]
            for anchor in (assembly._mean(cell) for cell in target):
                d = anchor - means[0]
                hit = [where.get((round((m + d).real * assembly.SPOT), round((m + d).imag * assembly.SPOT)))
                       for m in means]
                if None in hit or len(set(hit)) != len(hit):
                    continue
                if all(assembly._key([p + d for p in cell]) == shapes[k] for cell, k in zip(turned, hit, strict=True)):
                    found.add(frozenset(hit))
    return found


def _random_shapes(name, count, seed):
    """(piece, target) pairs of cell polygons on ``name``'s working patch: pieces cut from grown regions,
    targets that are those regions or near misses of them, shown in random views of the tiling's group."""
    graph, polys = tc.patch(name)
    rng = np.random.default_rng(seed)
    group = polyforms.GROUPS[name]
    pairs = []
    while len(pairs) < count:
        region = polyforms.grow(graph, int(rng.integers(6, 16)), rng)
        piece = polyforms.grow(graph, int(rng.integers(1, 6)), rng, allowed=region)
        target = tc.near_miss(region, graph, rng, 1) if rng.random() < 0.5 else region
        if target is None:
            continue
        views = [group[int(rng.integers(len(group)))] for _ in range(2)]
        pairs.append((polyforms.transform_all([polys[c] for c in sorted(piece)], *views[0]),
                      polyforms.transform_all([polys[c] for c in sorted(target)], *views[1])))
    return pairs


@pytest.mark.parametrize("name", tc.TILINGS)
def test_placements_equal_the_cell_by_cell_search(name):
    """Both placement searches test every view and anchor in array passes: the same placements as looking
    the cells up one by one (the float operations are the same)."""
    for piece, target in _random_shapes(name, 60, 11):
        assert polyforms.placements(piece, target, name) == _kit_placements_cell_by_cell(piece, target, name)
        cells, goal = assembly.cells_of(piece), assembly.cells_of(target)
        assert assembly.placements(cells, goal) == _verifier_placements_cell_by_cell(cells, goal)


def test_placements_of_mixed_and_repeated_vertices_take_the_cell_by_cell_path():
    """Cells with different vertex counts (kit and verifier) or a vertex listed twice (verifier: ``_key`` is a
    set) are compared one by one, with the same results."""
    square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    triangle = [(1.0, 0.0), (2.0, 0.0), (1.0, 1.0)]
    target = [square, triangle, [(x + 2.0, y) for x, y in square]]
    for piece in ([square, triangle], [triangle], [square]):
        assert polyforms.placements(piece, target, "square") == _kit_placements_cell_by_cell(piece, target, "square")
        cells, goal = assembly.cells_of(piece), assembly.cells_of(target)
        assert assembly.placements(cells, goal) == _verifier_placements_cell_by_cell(cells, goal)
    diamond = [(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)]  # a square's mean, not its vertices
    for piece, target in (([diamond], [square]), ([square, triangle], [square, [(1.0, 0.0), (2.0, 0.0), (1.5, 1.0)]])):
        assert polyforms.placements(piece, target, "square") == []
        assert _kit_placements_cell_by_cell(piece, target, "square") == []
        assert assembly.placements(assembly.cells_of(piece), assembly.cells_of(target)) == set()
    doubled = [[*square, *square]]  # every vertex twice: the same mean and the same vertex set
    cells, goal = assembly.cells_of(doubled), assembly.cells_of([square, [(x + 1.0, y) for x, y in square]])
    assert assembly.placements(cells, goal) == _verifier_placements_cell_by_cell(cells, goal)
    assert len(assembly.placements(cells, goal)) == 2


@pytest.mark.parametrize("name", tc.TILINGS)
def test_leavers_are_the_cells_whose_removal_keeps_the_region_connected(name):
    """``polyforms.move`` finds the cells that may leave by cut vertices: the same cells as testing each."""
    graph, _ = tc.patch(name)
    rng = np.random.default_rng(5)
    for k in range(80):
        region = polyforms.grow(graph, int(rng.integers(1, 25)), rng)
        if k % 4 == 0:  # two pieces, maybe apart
            region |= polyforms.grow(graph, 3, rng)
        expected = [c for c in sorted(region) if polyforms.connected(region - {c}, graph)]
        assert polyforms._leavers(region, graph) == expected


def _split_step_by_step(region, graph, sizes, rng, tries=30):
    """``polyforms.split`` as it was written before its neighbour lists and seed rings were kept: the region's
    distances found afresh for every seed, the frontier read from the graph at every step."""
    cells = sorted(region)
    for _ in range(tries):
        seeds = [cells[int(rng.integers(len(cells)))]]
        while len(seeds) < len(sizes):
            dist, queue = dict.fromkeys(seeds, 0), list(seeds)
            for c in queue:
                for n in graph[c]:
                    if n in region and n not in dist:
                        dist[n] = dist[c] + 1
                        queue.append(n)
            best = max(dist.get(c, 0) for c in cells if c not in seeds)
            ring = [c for c in cells if c not in seeds and dist.get(c, 0) >= best - 1]
            seeds.append(ring[int(rng.integers(len(ring)))])
        order = rng.permutation(len(sizes))
        pieces = [{seed} for seed in seeds]
        want = [int(sizes[int(order[k])]) for k in range(len(sizes))]
        owner = {seed: k for k, seed in enumerate(seeds)}
        while len(owner) < len(cells):
            moves = [(k, n) for k, piece in enumerate(pieces) if len(piece) < want[k]
                     for c in sorted(piece) for n in sorted(graph[c]) if n in region and n not in owner]
            if not moves:
                break
            k, n = moves[int(rng.integers(len(moves)))]
            pieces[k].add(n)
            owner[n] = k
        if len(owner) == len(cells) and all(len(p) == w for p, w in zip(pieces, want, strict=True)):
            return pieces
    return None


@pytest.mark.parametrize("name", tc.TILINGS)
def test_split_draws_as_the_step_by_step_growth(name):
    """``polyforms.split`` keeps each cell's neighbours in the region and the seed rings it has found: the same
    pieces from the same draws, and the generator left in the same state."""
    graph, _ = tc.patch(name)
    rng = np.random.default_rng(3)
    for k in range(60):
        region = polyforms.grow(graph, int(rng.integers(6, 25)), rng)
        parts = int(rng.integers(2, 5))
        sizes = polyforms.balanced_sizes(len(region), parts, rng, 1)
        if sizes is None:
            continue
        ours, theirs = np.random.default_rng(k), np.random.default_rng(k)
        tries = 5 if k % 2 else 30
        assert polyforms.split(region, graph, sizes, ours, tries) == _split_step_by_step(region, graph, sizes, theirs,
                                                                                          tries)
        assert ours.integers(1 << 30) == theirs.integers(1 << 30)


@pytest.mark.parametrize("name", tc.TILINGS)
@pytest.mark.parametrize("mode", tc.MODES)
def test_exactly_one_option_assembles(name, mode):
    for built in build_run(TASK, 3, {"tiling": name, "mode": mode}, seed=4):
        scene = built.item.metadata["scene"]
        answer = "ABCD".index(built.item.answer)
        p = built.item.metadata["pieces"]
        if mode == "decompose":
            target = scene["top"][0]["unit"]
            assert all(len(o) == p for o in scene["options"])
            sizes = {tuple(sorted(len(s["unit"]) for s in o)) for o in scene["options"]}
            assert len(sizes) == 1 and min(next(iter(sizes))) >= tc.SMALLEST
            fits = [polyforms.assemble([s["unit"] for s in o], target, name) is not None for o in scene["options"]]
        else:
            bag = [s["unit"] for s in scene["top"]]
            assert len(bag) == p and len({len(o[0]["unit"]) for o in scene["options"]}) == 1
            fits = [polyforms.assemble(bag, o[0]["unit"], name) is not None for o in scene["options"]]
        assert fits.count(True) == 1 and fits.index(True) == answer


def test_random_per_cell_colours_follow_the_cells():
    built = build(TASK, {"colouring": "random_per_cell", "mode": "decompose"}, seed=2)
    scene = built.item.metadata["scene"]
    answer = "ABCD".index(built.item.answer)
    top = sorted(scene["top"][0]["colours"])
    assert sorted(c for s in scene["options"][answer] for c in s["colours"]) == top
    uniform = build(TASK, {"colouring": "uniform"}, seed=2).item.metadata["scene"]
    assert len({c for s in uniform["top"] for c in s["colours"]}) == 1


def test_orders_follow_the_released_weights():
    items = [b.item for b in build_run(TASK, 20, seed=1)]
    assert collections.Counter(i.metadata["pieces"] for i in items) == {2: 10, 3: 7, 4: 3}
    assert collections.Counter(i.metadata["colouring"] for i in items) == {"uniform": 10, "random_per_cell": 10}
    assert collections.Counter(i.metadata["tiling"] for i in items) == {"square": 10, "triangular": 10}
    assert len({(i.metadata["tiling"], i.metadata["mode"], i.metadata["colouring"]) for i in items[:8]}) == 8
    assert collections.Counter(i.answer for i in items) == dict.fromkeys("ABCD", 5)


def _scene(built) -> dict:
    return copy.deepcopy(built.item.metadata["scene"])


def answer_cell_dropped(scene, answer, wrong):
    shape = scene["options"][answer][0]
    shape["unit"], shape["colours"] = shape["unit"][1:], shape["colours"][1:]
    return tc.compose(scene)


def top_cell_dropped(scene, answer, wrong):
    shape = scene["top"][-1]
    shape["unit"], shape["colours"] = shape["unit"][1:], shape["colours"][1:]
    return tc.compose(scene)


def wrong_option_drawn_as_the_answer(scene, answer, wrong):
    shift = scene["option_boxes"][wrong][0] - scene["option_boxes"][answer][0]
    scene["options"][wrong] = [{**s, "offset": [s["offset"][0] + shift, s["offset"][1]]}
                               for s in scene["options"][answer]]
    return tc.compose(scene)


def stray_mark_in_a_card(scene, answer, wrong):
    image = tc.compose(scene).convert("RGB")
    left, top = scene["option_boxes"][wrong][:2]
    ImageDraw.Draw(image).rectangle((left + 10, top + 10, left + 17, top + 17), fill=(0, 0, 0))
    return image


def answer_recoloured(scene, answer, wrong):
    for s in scene["options"][answer]:
        s["colours"] = ["gray" if c != "gray" else "red" for c in s["colours"]]
    return tc.compose(scene)


FAULTS = (answer_cell_dropped, top_cell_dropped, wrong_option_drawn_as_the_answer, stray_mark_in_a_card,
          answer_recoloured)


@pytest.mark.parametrize("mode", tc.MODES)
@pytest.mark.parametrize("name", tc.TILINGS)
def test_planted_rendering_faults_are_caught(mode, name):
    built = build(TASK, {"tiling": name, "mode": mode}, seed=6)
    answer = "ABCD".index(built.item.answer)
    for fault in FAULTS:
        image = fault(_scene(built), answer, (answer + 1) % 4)
        assert_rejected(HOST, TASK, built.item, [image], f"{mode}/{name}: {fault.__name__}")


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 6, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == built.item.metadata["pieces"]
