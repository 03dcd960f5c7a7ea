"""Shared helpers for the SPHINX tests: a private host with the plugin's tasks (finished or not), and
item building."""

from __future__ import annotations

import importlib

from bench_core import build_item, create_host, hookimpl, plan

#: Every task module of the plugin with a description, registered or still in progress.
ALL_TASKS = ("mirror_identification", "symmetry_fill", "shape_counting", "pie_chart", "tiles_line_length",
             "chart_comparison", "frieze_groups", "tiles_line_intersections", "positional_count", "tiles_recoloring",
             "stack_count", "venn_diagram", "wallpaper_groups", "shape_sorting", "tiles_geometry",
             "tiles_connected_component", "tiles_shortest_path", "sequence_rotation",
             "sequence_arithmetic", "multi_column_arithmetic",
             "transform_result_identify", "transform_pair_infer",
             "transform_similarity_identify", "missing_tiles", "tiles_composition")


def task_of(name: str):
    return importlib.import_module(f"bench_plugin_sphinx.descriptions.{name}").TASK


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [task_of(name) for name in ALL_TASKS]


HOST = create_host(entry_points=False, plugins=[("sphinx-tests", _Plugin())])


def build(task, settings=None, seed: int = 0, index: int = 0):
    job = plan(task, settings or {}, seed, index + 1)[index]
    return build_item(HOST, task, job.seed, job.index, job.params, job.suffix)


def build_run(task, count: int, settings=None, seed: int = 0):
    jobs = plan(task, settings or {}, seed, count)
    return [build_item(HOST, task, j.seed, j.index, j.params, j.suffix) for j in jobs]



def conformance_suite(task):
    """The core's conformance suite over ``task`` on this private host, its golden digests in ``golden/``;
    a test module binds it as ``TestConformance = conformance_suite(TASK)``."""
    from pathlib import Path

    from bench_core import ConformanceSuite

    class TestConformance(ConformanceSuite):
        family = "sphinx"
        golden_dir = Path(__file__).parent / "golden"

        def bench_host(self):
            return HOST

        def pytest_generate_tests(self, metafunc):
            if "task" in metafunc.fixturenames:
                metafunc.parametrize("task", [task], ids=[task.id])

    return TestConformance


def kept_backdrop_by_definition(rgb):
    """``kit.indexed.kept_backdrop`` by its definition, from the palette conversion of the whole picture
    (``kit.indexed.kept``): its keys, the flat positions whose index is not white's (the last), their indices and
    the picture's shape."""
    import numpy as np
    from bench_plugin_sphinx.kit import indexed

    keys, indices = indexed.kept(rgb)
    flat = indices.ravel()
    positions = np.flatnonzero(flat != len(keys) - 1)
    return keys, positions, flat[positions], indices.shape


def operations_found(left, right) -> tuple[list[str], list[str]]:
    """The transform-pair verifier's reading by definition, on the RGB motif layers (``verifiers.transforms``):
    (operations mapping the left layer onto the right one, D4 maps neither matching nor clearly apart).  The
    verifier finds the same verdicts on the layers' luminance (``layer_operations_found``)."""
    from bench_plugin_sphinx.verifiers import transforms as px

    found, unclear = [], []
    a, b = px.ink_box(left), px.ink_box(right)
    for op in px.FORMULAS:
        kind = px.relation_mapped(left, op, right, (a, b))
        if kind == "same":
            found.append(op)
        elif kind == "unclear":
            unclear.append(op)
    movable = a is not None and b is not None and (a[0], a[1]) != (b[0], b[1]) and (
        a[2] - a[0], a[3] - a[1]) == (b[2] - b[0], b[3] - b[1])
    if movable and px.looks_same(px.shifted(left, b[0] - a[0], b[1] - a[1]), right):
        found.append("translate")
    return found, unclear


def coverage_by_definition(points, maps, weight, counts_per_flip):
    """transform-similarity's ``canonical_coverage`` as first written: each version of ``points`` under ``maps``
    centred by numpy's mean and put in its principal frame, its cells counted per flip by ``counts_per_flip(cells,
    inside, base)``, and each flip's counts scaled by its share (``weight`` times the map's area over the spread)
    and clipped to 1 on their own."""
    import numpy as np
    from bench_plugin_sphinx import transform_similarity as ts

    moved = points[None] @ np.swapaxes(maps, 1, 2)
    moved = moved - moved.mean(axis=1, keepdims=True)
    values, vectors = np.linalg.eigh(np.swapaxes(moved, 1, 2) @ moved / points.shape[0])
    radius2 = values.sum(axis=1)
    frame = moved @ vectors / np.sqrt(radius2)[:, None, None]
    cells = np.floor((frame + ts.QUICK_REACH) / (2 * ts.QUICK_REACH) * ts.QUICK_GRID).astype(np.intp)
    valid = (cells >= 0) & (cells < ts.QUICK_GRID)
    inside = valid[..., 0] & valid[..., 1]
    base = np.arange(len(maps))[:, None] * ts.QUICK_GRID ** 2
    share = weight * np.abs(np.linalg.det(maps)) / radius2 / (2 * ts.QUICK_REACH / ts.QUICK_GRID) ** 2
    return np.stack([np.minimum(counts.reshape(len(maps), -1) * share[:, None], 1.0)
                     for counts in counts_per_flip(cells, inside, base)], axis=1)
