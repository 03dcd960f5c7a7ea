"""sphinx/tiles-geometry, tiles-connected-component and tiles-shortest-path: answers by their definitions, the
pixel verifier on its own graph, and planted faults."""

from __future__ import annotations

import collections
from pathlib import Path

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import tile_topology as topo
from bench_plugin_sphinx import tiles_connected_component as tcc
from bench_plugin_sphinx import tiles_geometry as tg
from bench_plugin_sphinx import tiles_shortest_path as tsp
from bench_plugin_sphinx import topology_words as words
from bench_plugin_sphinx.descriptions import tiles_connected_component as cc_description
from bench_plugin_sphinx.descriptions import tiles_geometry as geometry_description
from bench_plugin_sphinx.descriptions import tiles_shortest_path as path_description
from bench_plugin_sphinx.kit import boards, complexity, indexed, tilings
from bench_plugin_sphinx.kit.palette import rgb
from bench_plugin_sphinx.verifiers import topology
from PIL import ImageDraw
from sphinx_helpers import HOST, build, build_run, task_of

from bench_core import ConformanceSuite, assert_rejected, verify_item, with_answer

GEOMETRY = task_of("tiles_geometry")
COMPONENTS = task_of("tiles_connected_component")
PATHS = task_of("tiles_shortest_path")
TASKS = [GEOMETRY, COMPONENTS, PATHS]


class TestConformance(ConformanceSuite):
    family = "sphinx"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return HOST

    def pytest_generate_tests(self, metafunc):
        if "task" in metafunc.fixturenames:
            metafunc.parametrize("task", TASKS, ids=[t.id for t in TASKS])


def test_descriptions_keep_step_with_the_implementations():
    assert geometry_description.TILINGS == tg.TILINGS and geometry_description.QUERIES == tg.QUERIES
    assert cc_description.TILINGS == tcc.TILINGS and cc_description.MEASURES == tcc.MEASURES
    assert path_description.TILINGS == tsp.TILINGS


def _graph_and_fills(built):
    scene = built.item.metadata["scene"]
    tiling, graph, border = topo.patch(scene["tiling"], scene["width"], scene["height"])
    return scene, tiling, graph, border


def _perimeter_by_edges(tiling, cells):
    """Perimeter counted edge by edge from the pooled edges (a border edge has one cell)."""
    return sum(1 for edge, owners in tiling.edges().items() if len(set(owners) & cells) == 1)


@pytest.mark.parametrize("query", geometry_description.QUERIES)
def test_geometry_answers_follow_the_definitions(query):
    for built in build_run(GEOMETRY, 6, {"query": query}, seed=4):
        scene, tiling, graph, border = _graph_and_fills(built)
        fills = scene["fills"]
        asked = [tg.PALETTE[c] for c in built.item.metadata["asked"]]
        regions = [{k for k, f in enumerate(fills) if f == colour} for colour in asked]
        assert all(len(topo.components(r, graph)) == 1 for r in regions)
        answer = int(built.item.answer)
        if query == "area":
            assert answer == len(regions[0])
        elif query == "perimeter":
            assert answer == _perimeter_by_edges(tiling, regions[0])
        elif query == "area_difference":
            assert answer == abs(len(regions[0]) - len(regions[1]))
        elif query == "union_perimeter":
            assert any(graph[c] & regions[1] for c in regions[0])
            assert answer == _perimeter_by_edges(tiling, regions[0] | regions[1])
        else:
            dark = {k for k, f in enumerate(fills) if f == tg.HOLE_FILL}
            outside = set(range(len(fills))) - regions[0]
            holes = [h for h in topo.components(outside, graph) if not h & border]
            assert answer == len(holes) >= 1 and set().union(*holes) == dark
            inner = topo.inner_cells(scene["tiling"], scene["width"], scene["height"])
            assert dark <= inner
        for rule in words.GEOMETRY_RULES[query]:
            assert rule in built.item.question


def test_holes_meeting_at_a_corner_count_twice():
    """Two dark squares meeting only at a corner are two holes for the verifier as for the definition."""
    built = build(GEOMETRY, {"query": "holes", "tiling": "square", "difficulty": 1.0}, seed=1)
    scene = dict(built.item.metadata["scene"])
    width, height = scene["width"], scene["height"]
    colour = tg.PALETTE[built.item.metadata["asked"][0]]
    fills = [colour] * (width * height)
    for i, j in ((2, 2), (3, 3)):
        fills[j * width + i] = tg.HOLE_FILL
    scene["fills"] = fills
    image = topo.compose(scene)
    patched = attrs.evolve(built.item, answer="2", metadata={**built.item.metadata, "scene": scene})
    assert not verify_item(HOST, GEOMETRY, patched, [image])
    assert verify_item(HOST, GEOMETRY, with_answer(patched, "1"), [image])


def test_components_extremes_are_unique_and_counts_match():
    for measure in cc_description.MEASURES:
        for built in build_run(COMPONENTS, 8, {"measure": measure}, seed=5):
            scene, _tiling, graph, _border = _graph_and_fills(built)
            colour = tcc.PALETTE[built.item.metadata["asked"]]
            comps = topo.components({k for k, f in enumerate(scene["fills"]) if f == colour}, graph)
            sizes = sorted(len(c) for c in comps)
            assert len(comps) == built.item.metadata["components"]
            answer = int(built.item.answer)
            if measure == "count_components":
                assert answer == len(comps)
            else:
                assert len(comps) >= 2
                assert answer == (sizes[-1] if measure == "size_largest" else sizes[0])
                assert sizes.count(answer) == 1
            touch = scene["tiling"] == "circles"
            assert (words.TOUCH_ADJACENCY in built.item.question) is touch


def test_components_draw_one_board_per_stretch_of_colourings(monkeypatch):
    """A board (and its cell graph) is drawn once and recoloured up to BOARD_TRIES times, not drawn anew for every
    colouring the generator rejects."""
    boards, colourings = [], []
    pick, colour = topo.pick_board, tcc.TilesConnectedComponent._colour
    monkeypatch.setattr(topo, "pick_board", lambda *a, **k: boards.append(1) or pick(*a, **k))
    monkeypatch.setattr(tcc.TilesConnectedComponent, "_colour",
                        lambda self, *a, **k: colourings.append(1) or colour(self, *a, **k))
    for index in range(12):
        before = (len(boards), len(colourings))
        build(COMPONENTS, index=index, seed=9)
        drawn, tried = len(boards) - before[0], len(colourings) - before[1]
        assert drawn == -(-tried // tcc.BOARD_TRIES), (index, drawn, tried)
    assert len(colourings) > 2 * len(boards)  # colourings were rejected, and their board was kept


def test_shortest_paths_count_moves_and_one_in_ten_is_unreachable():
    items = [b.item for b in build_run(PATHS, 40, seed=7)]
    answers = [int(i.answer) for i in items]
    assert answers.count(-1) == 4
    assert all(a == -1 or a >= tsp.MIN_MOVES for a in answers)
    for item in items[:10]:
        scene = item.metadata["scene"]
        _tiling, graph, _border = topo.patch(scene["tiling"], scene["width"], scene["height"])
        fills = scene["fills"]
        start = fills.index(tsp.PALETTE[item.metadata["start"]])
        end = fills.index(tsp.PALETTE[item.metadata["end"]])
        free = {k for k, f in enumerate(fills) if f != tsp.OBSTACLE}
        assert topo.distances(graph, free, start).get(end, -1) == int(item.answer)
    assert collections.Counter(i.metadata["tiling"] for i in items[:5]) == dict.fromkeys(tsp.TILINGS, 1)


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_the_verifier_never_uses_the_generators_adjacency(task, monkeypatch):
    built = build(task, seed=9)
    images = [topo.compose(built.item.metadata["scene"])]

    def refuse(*_args, **_kwargs):
        raise AssertionError("the verifier called the kit's adjacency")

    topo.patch.cache_clear()
    monkeypatch.setattr(tilings.Tiling, "adjacency", refuse)
    monkeypatch.setattr(tilings.Tiling, "edges", refuse)
    monkeypatch.setattr(topo, "components", refuse)
    assert not verify_item(HOST, task, built.item, images)
    bad = str(int(built.item.answer) + 1)
    assert verify_item(HOST, task, with_answer(built.item, bad), images)
    topo.patch.cache_clear()


def _recoloured(scene, cell, colour):
    scene = {**scene, "fills": list(scene["fills"])}
    scene["fills"][cell] = colour
    return topo.compose(scene)


def _centre(scene, cell):
    xy, polygons = topo.unpack(scene)
    return np.array(xy)[polygons[cell]].mean(axis=0)


def test_planted_rendering_faults_are_caught():
    for query in ("area", "perimeter", "holes", "union_perimeter"):
        built = build(GEOMETRY, {"query": query}, seed=3)
        scene = built.item.metadata["scene"]
        colour = tg.PALETTE[built.item.metadata["asked"][0]]
        region = [k for k, f in enumerate(scene["fills"]) if f == colour]
        faults = {}
        if query == "holes":
            dark = scene["fills"].index(tg.HOLE_FILL)
            filled = {**scene, "fills": [colour if f == tg.HOLE_FILL else f for f in scene["fills"]]}
            faults["every hole drawn in the region colour"] = topo.compose(filled)
            faults["a hole cell drawn white"] = _recoloured(scene, dark, topo.WHITE)
        else:
            white = scene["fills"].index(topo.WHITE)
            touching = [k for k in range(len(scene["fills"])) if scene["fills"][k] == topo.WHITE
                        and any(scene["fills"][n] == colour for n in topo.patch(
                            scene["tiling"], scene["width"], scene["height"])[1][k])]
            faults["a cell next to the region drawn in its colour"] = _recoloured(scene, touching[0], colour)
            faults["a stray cell drawn in the region colour"] = _recoloured(scene, white, colour)
        image = topo.compose(scene).convert("RGB")
        x, y = _centre(scene, region[0])
        ImageDraw.Draw(image).rectangle((x - 2, y - 2, x + 3, y + 3), fill=(255, 255, 255))
        faults["half a cell painted over"] = image
        for name, picture in faults.items():
            assert_rejected(HOST, GEOMETRY, built.item, [picture], f"{query}: {name}")
    built = build(COMPONENTS, {"measure": "count_components"}, seed=3)
    scene = built.item.metadata["scene"]
    colour = tcc.PALETTE[built.item.metadata["asked"]]
    graph = topo.patch(scene["tiling"], scene["width"], scene["height"])[1]
    first = topo.components({k for k, f in enumerate(scene["fills"]) if f == colour}, graph)[0]
    other = next(f for f in scene["fills"] if f != colour)
    erased = {**scene, "fills": [other if k in first else f for k, f in enumerate(scene["fills"])]}
    assert_rejected(HOST, COMPONENTS, built.item, [topo.compose(erased)], "a component drawn in another colour")
    runs = build_run(PATHS, 10, {"tiling": "square"}, seed=3)
    built = next(b for b in runs if int(b.item.answer) > 0)
    scene = built.item.metadata["scene"]
    free = [k for k, f in enumerate(scene["fills"]) if f == tsp.FREE]
    blocked = [k for k, f in enumerate(scene["fills"]) if f == tsp.OBSTACLE]
    caught = 0
    for cell in free + blocked:
        flipped = tsp.OBSTACLE if cell in free else tsp.FREE
        if not verify_item(HOST, PATHS, built.item, [_recoloured(scene, cell, flipped)]):
            continue  # this cell is on no shortest path: flipping it changes nothing
        caught += 1
    assert caught >= 1
    cut_off = next(b for b in runs if int(b.item.answer) < 0)
    opened = {**cut_off.item.metadata["scene"]}
    opened["fills"] = [tsp.FREE if f == tsp.OBSTACLE else f for f in opened["fills"]]
    assert_rejected(HOST, PATHS, cut_off.item, [topo.compose(opened)], "every obstacle drawn free")
    assert_rejected(HOST, PATHS, with_answer(built.item, str(int(built.item.answer) + 1)),
                    [topo.compose(scene)], "the count of cells instead of moves")


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(task, alias, hard):
    for built in build_run(task, 6, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record


def _drawn_edge_by_edge(scene):
    """A board as drawn before cell maps: every cell filled in turn on a palette canvas, then every edge once,
    in sorted order, as a 1 px line from its lower corner to its higher one."""
    fills = scene["fills"]
    named = sorted(set(fills) - {topo.WHITE, topo.BLACK})
    colours = [topo.WHITE, topo.BLACK, *named]
    board = indexed.canvas(tuple(scene["image_size"]), [rgb(c) for c in colours])
    ink = {c: board.ink(rgb(c)) for c in colours}
    xy = [tuple(float(v) for v in p.split(",")) for p in scene["vertices"].split()]
    cells = [[int(v) for v in cell.split(",")] for cell in scene["polygons"].split()]
    edges = sorted({tuple(sorted((p[k], p[(k + 1) % len(p)]))) for p in cells for k in range(len(p))})
    boards.draw_cells(board.draw, xy, cells, [ink[c] for c in fills])
    boards.draw_outlines(board.draw, xy, edges, colour=ink[topo.BLACK])
    return board.image


@pytest.mark.parametrize("name", tsp.TILINGS)
def test_a_board_is_its_cell_map_coloured(name):
    """``compose`` colours one cached cell map per board; the picture is byte for byte the board drawn cell by
    cell and edge by edge, for every board the tasks draw (and one of more than 255 cells), and the scene's
    corner string is each corner written with ``format(x, "g")``."""
    rng = np.random.default_rng(len(name))
    shapes = [(w, h) for w, h, _ in topo.board_options(name, *topo.CELL_RANGE)]
    for width, height in [*shapes, (17, 16)] if name == "square" else shapes:
        cells = len(topo.patch(name, width, height)[0].cells)
        pool = [topo.WHITE, topo.BLACK, *(tcc.PALETTE[c] for c in topo.REGION_COLOURS)]
        fills = [pool[int(k)] for k in rng.integers(len(pool), size=cells)]
        scene = topo.scene(name, width, height, fills, tcc.EDGE_PX, tcc.SIDE_RANGE)
        picture, reference = topo.compose(scene), _drawn_edge_by_edge(scene)
        assert picture.tobytes() == reference.tobytes(), (width, height)
        assert picture.getpalette() == reference.getpalette() and picture.mode == reference.mode == "P"
        xy = boards.place(topo.patch(name, width, height)[0], scene["side"], topo.MARGIN)
        assert scene["vertices"] == " ".join(f"{x:g},{y:g}" for x, y in xy.tolist())


def _first_far_start_by_search(graph, free, starts, target):
    """``first_far_start`` by searching from every start in turn."""
    for start in starts:
        reach = topo.distances(graph, free, start)
        far = sorted(c for c, d in reach.items() if (d == target if target else d >= tsp.MIN_MOVES))
        if far:
            return start, reach, far
    return None


@pytest.mark.parametrize("name", tsp.TILINGS)
def test_passed_over_starts_have_no_cell_that_far(name):
    """The starts ``first_far_start`` passes over without a search (too small a component, or too near an
    earlier start whose eccentricity falls short) are starts the search would reject: it picks what searching
    every start in turn picks."""
    rng = np.random.default_rng(3)
    for width, height, cells in topo.board_options(name, *topo.CELL_RANGE)[::3]:
        graph = topo.patch(name, width, height)[1]
        for _ in range(25):
            free = set(np.flatnonzero(rng.random(cells) >= rng.uniform(0.1, 0.6)).tolist())
            if len(free) < 2:
                continue
            comps = topo.components(free, graph)
            starts = [sorted(free)[int(k)] for k in rng.permutation(len(free))]
            for target in (None, *range(tsp.MIN_MOVES, 13)):
                assert tsp.first_far_start(graph, free, comps, starts, target) == _first_far_start_by_search(
                    graph, free, starts, target), (width, height, target)


@pytest.mark.parametrize("task", [COMPONENTS, PATHS], ids=["components", "paths"])
def test_one_stray_pixel_inside_a_cell_is_caught(task):
    """The reader compares every covered pixel with its cell's colour (the cell map kept per board, expanded from
    its runs): one pixel of another colour off every outline fails the item, on a board the reader has seen."""
    for built in build_run(task, 5, seed=8):
        scene = built.item.metadata["scene"]
        picture = topo.compose(scene).convert("RGB")
        assert not verify_item(HOST, task, built.item, [picture])
        layout = topology._layout(scene["side"], scene["tiling"], scene["vertices"], scene["polygons"])
        values, lengths = layout.runs
        xy = np.array(scene["vertices"].replace(",", " ").split(), dtype=float).reshape(-1, 2)
        ids = topology._interior(scene["side"], xy.tolist(), topo.unpack(scene)[1])
        assert np.array_equal(np.repeat(values, lengths).reshape(ids.shape), ids)
        x, y = (int(v) for v in np.rint(_centre(scene, 0)))
        assert picture.getpixel((x + 3, y)) == picture.getpixel((x, y))  # inside cell 0, off its outline
        picture.putpixel((x + 3, y), (1, 2, 3))
        assert_rejected(HOST, task, built.item, [picture], "one stray pixel")


def test_an_edge_painted_over_is_caught():
    """An edge between two cells of one colour painted over at its midpoint (the 3 x 3 square the reader looks
    at, kept per board) is an edge the picture does not draw."""
    built = next(b for b in build_run(COMPONENTS, 6, {"tiling": "square"}, seed=2))
    scene = built.item.metadata["scene"]
    fills, (xy, cells) = scene["fills"], topo.unpack(scene)
    graph = topo.patch(scene["tiling"], scene["width"], scene["height"])[1]
    a, b = next((a, b) for a in range(len(cells)) for b in sorted(graph[a]) if a < b and fills[a] == fills[b])
    shared = sorted(set(cells[a]) & set(cells[b]))
    x, y = (int(v) for v in np.rint((np.array(xy[shared[0]]) + np.array(xy[shared[1]])) / 2))
    picture = topo.compose(scene).convert("RGB")
    assert not topology.read_board(scene, picture)[1]
    ImageDraw.Draw(picture).rectangle((x - 1, y - 1, x + 1, y + 1), fill=rgb(fills[a]))
    board, failures = topology.read_board(scene, picture)
    assert board is None and "not drawn in black" in failures[0], failures
