"""Shared helpers for the Polaris tests: a private host with the plugin's tasks (finished or not), item building,
and the conformance suite bound to one task."""

from __future__ import annotations

import importlib
from pathlib import Path

from bench_core import build_item, create_host, hookimpl, plan

#: Every task module of the plugin with a description, registered or still in progress (add yours here).
ALL_TASKS = ("path_counting", "bounded_knight_paths", "knight_paths",
             "bounded_diagonal_paths", "checkpoint_paths", "lattice_paths", "wrapping_diagonal_paths",
             "edge_counting", "random_walk",
             "n_queens", "sudoku", "minimum_flips", "maximum_collection", "collision_detection", "bouncing_point")


def task_of(name: str):
    return importlib.import_module(f"bench_plugin_polaris.descriptions.{name}").TASK


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        found = []
        for name in ALL_TASKS:
            try:
                found.append(task_of(name))
            except ModuleNotFoundError as exc:  # a description not written yet; any other import error shows
                if exc.name != f"bench_plugin_polaris.descriptions.{name}":
                    raise
        return found


HOST = create_host(entry_points=False, plugins=[("polaris-tests", _Plugin())])


def build(task, settings=None, seed: int = 0, index: int = 0):
    job = plan(task, settings or {}, seed, index + 1)[index]
    return build_item(HOST, task, job.seed, job.index, job.params, job.suffix)


def build_run(task, count: int, settings=None, seed: int = 0):
    jobs = plan(task, settings or {}, seed, count)
    return [build_item(HOST, task, j.seed, j.index, j.params, j.suffix) for j in jobs]


def redraw(impl, built, **scene):
    """``impl``'s drawing of ``built``'s item with its scene changed by ``scene`` (a planted rendering fault for
    a mutation test: the record stays as written, the picture differs)."""
    import attrs

    instance, letters, contents = built.problem.structure
    return impl.draw(attrs.evolve(instance, scene={**instance.scene, **scene}), built.item.variant, letters, contents)


def seam_line(impl, built, fill, width):
    """A copy of ``built``'s polar image with a line of ``fill`` and ``width`` along the 12 o'clock seam (a
    wall planted where the grid wraps, or a bounded seam wall erased with white)."""
    from PIL import ImageDraw

    image = built.images[0].copy()
    ImageDraw.Draw(image).line(list(impl.layout_of(built.item).seam()), fill=fill, width=width)
    return image


def conformance_suite(task):
    """The core's conformance suite over ``task`` on this private host, its golden digests in ``golden/``;
    a test module binds it as ``TestConformance = conformance_suite(TASK)``."""
    from bench_core import ConformanceSuite

    class TestConformance(ConformanceSuite):
        family = "polaris"
        golden_dir = Path(__file__).parent / "golden"

        def bench_host(self):
            return HOST

        def pytest_generate_tests(self, metafunc):
            if "task" in metafunc.fixturenames:
                metafunc.parametrize("task", [task], ids=[task.id])

    return TestConformance
