"""``kit.spatial.draw_scene`` filters only the parts of its drawing that shapes and tokens reach: the picture
must be exactly the whole drawing box-filtered, for real scenes and for random ones up to the canvas edges."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx import positional_count, stack_count
from bench_plugin_sphinx.kit import spatial
from bench_plugin_sphinx.kit.palette import GEOMETRIC
from sphinx_helpers import build_run, task_of

from bench_core import encode_png


def _same_as_whole(size, shapes, tokens, outline) -> None:
    whole = spatial.drawing(size, shapes, tokens, outline).reduce(spatial.SUPERSAMPLE)
    drawn = spatial.draw_scene(size, shapes, tokens, outline)
    assert np.array_equal(np.asarray(drawn.convert("RGB")), np.asarray(whole))
    assert encode_png(drawn) == encode_png(whole)


@pytest.mark.parametrize(
    ("name", "key", "outline"),
    [("stack_count", "sheets", stack_count.OUTLINE), ("positional_count", "shapes", positional_count.OUTLINE)],
)
def test_real_scenes_match_the_whole_drawing_filtered(name, key, outline):
    for built in build_run(task_of(name), 40, seed=3):
        scene = built.item.metadata["scene"]
        size = tuple(scene["image_size"])
        _same_as_whole(size, [(s, s["hex"]) for s in scene[key]], scene["tokens"], outline)


def test_random_scenes_reaching_the_edges_match_the_whole_drawing_filtered():
    rng = np.random.default_rng(11)
    colours = list(GEOMETRIC.values())
    for _ in range(60):
        size = (int(rng.integers(60, 300)), int(rng.integers(60, 300)))
        shapes = []
        for _ in range(int(rng.integers(0, 4))):
            x, y = (float(v) for v in rng.uniform(-20, size[0] + 20, 2))
            kind = spatial.SHAPE_KINDS[int(rng.integers(3))]
            if kind == "rectangle":
                shape = spatial.rectangle_at(x, y, float(rng.uniform(5, 120)), float(rng.uniform(5, 120)))
            elif kind == "circle":
                shape = spatial.circle(x, y, float(rng.uniform(3, 70)))
            else:
                shape = spatial.triangle(x, y, float(rng.uniform(5, 140)), float(rng.uniform(0, 360)))
            shapes.append((shape, colours[int(rng.integers(len(colours)))]))
        tokens = [
            [
                spatial.TOKEN_KINDS[int(rng.integers(5))],
                round(float(rng.uniform(-10, size[0] + 10)), 2),
                round(float(rng.uniform(-10, size[1] + 10)), 2),
                round(float(rng.uniform(2, 18)), 2),
                round(float(rng.uniform(0, 360)), 2),
            ]
            for _ in range(int(rng.integers(0, 30)))
        ]
        _same_as_whole(size, shapes, tokens, float(rng.choice([1.0, 2.0, 3.0, 4.5])))


def test_a_scene_past_256_colours_is_the_whole_drawing_filtered_in_rgb():
    """Past 256 colours met while filtering (many overlapping sheets of distinct colours, their edges blended)
    the indexed drawing gives way to the RGB one: the same pixels and PNG."""
    rng = np.random.default_rng(5)
    shapes = [
        (
            spatial.triangle(float(x), float(y), float(rng.uniform(40, 160)), float(rng.uniform(0, 360))),
            f"#{int(rng.integers(0, 1 << 24)):06x}",
        )
        for x, y in rng.uniform(20, 280, (80, 2))
    ]
    drawn = spatial.draw_scene((300, 300), shapes, [], 1.0)
    assert drawn.mode == "RGB"
    _same_as_whole((300, 300), shapes, [], 1.0)
