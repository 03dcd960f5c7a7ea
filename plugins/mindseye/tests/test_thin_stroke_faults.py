"""Thin strokes: verify must see small faults planted in the rendered option panels of real items.

Relation-abstraction figures are strokes 3-4 px wide and symmetric-structures polylines 4.7-7 px, so a check
that looks only along the centre line, or allows 2 px of slack beside a stroke, misses a short gap (a closed
figure drawn open, a symmetric one broken) and a piece of stroke moved by two pixels.  Each fault here is made
on the pixels of a generated panel, at places picked on its ink with a seeded generator: a gap (a disc of
paper a little wider than the stroke), a piece of stroke moved 2 px across itself, and a small extra dot."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from bench_core import assert_rejected, build_item, create_host, decode_png, hookimpl, plan, verify_item
from bench_plugin_mindseye.descriptions.dynamic_correspondence import TASK as DYNAMIC_CORRESPONDENCE
from bench_plugin_mindseye.descriptions.relation_abstraction import TASK as RELATION_ABSTRACTION
from bench_plugin_mindseye.descriptions.symmetric_structures import TASK as SYMMETRIC_STRUCTURES


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [RELATION_ABSTRACTION, SYMMETRIC_STRUCTURES, DYNAMIC_CORRESPONDENCE]


_HOST = create_host(entry_points=False, plugins=[("test-thin-stroke-faults", _Plugin())])
#: Places planted per option panel, and how far from the panel's edge they lie (px).
PLACES, MARGIN = 3, 12
CASES = [
    (task, seed, size)
    for task in (RELATION_ABSTRACTION, SYMMETRIC_STRUCTURES)
    for seed, size in ((3, "1024x1024"), (4, "600x800"))
]


def _built(task, seed, size):
    """Item 0 of ``seed`` at ``size``, as generated (verify accepts it)."""
    job = plan(task, {"size": size}, seed, 1)[0]
    built = build_item(_HOST, task, job.seed, job.index, job.params, job.suffix)
    image = np.asarray(decode_png(built.pngs[0]).convert("RGB"))
    assert not verify_item(_HOST, task, built.item, [Image.fromarray(image)])
    return built.item, image


def _ink_places(panel, rng):
    """``PLACES`` pixels on the darkest ink of a panel (RGB), away from its edge, picked by ``rng``."""
    low = panel.min(axis=2)
    low[:MARGIN], low[-MARGIN:], low[:, :MARGIN], low[:, -MARGIN:] = 255, 255, 255, 255
    places = np.argwhere(low < 40)
    return places[rng.choice(len(places), PLACES, replace=False)]


def _across(panel, y, x):
    """A 2 px step (dy, dx) across the stroke through (y, x): along the axis the ink around it spans least."""
    ink = np.argwhere(panel[y - 6 : y + 7, x - 6 : x + 7].min(axis=2) < 128).astype(float)
    ink -= ink.mean(axis=0)
    _, vectors = np.linalg.eigh(ink.T @ ink)
    normal = vectors[:, 0]
    return (2, 0) if abs(normal[0]) >= abs(normal[1]) else (0, 2)


def _faults(panel, width, rng):
    """(name, faulty panel) for every planted fault of a panel whose strokes are ``width`` px wide."""
    out = []
    rows, cols = np.mgrid[: panel.shape[0], : panel.shape[1]]
    for y, x in _ink_places(panel, rng):
        gap = panel.copy()
        gap[(rows - y) ** 2 + (cols - x) ** 2 <= (width / 2 + 1.5) ** 2] = 255
        out.append((f"gap at ({x}, {y})", gap))
        dy, dx = _across(panel, y, x)
        moved = panel.copy()
        moved[y - 6 + dy : y + 7 + dy, x - 6 + dx : x + 7 + dx] = panel[y - 6 : y + 7, x - 6 : x + 7]
        out.append((f"piece at ({x}, {y}) moved by ({dx}, {dy})", moved))
    paper = np.argwhere(panel[MARGIN:-MARGIN, MARGIN:-MARGIN].min(axis=2) == 255) + MARGIN
    far = paper[np.abs(paper - paper.mean(axis=0)).sum(axis=1).argmax()]
    dot = panel.copy()
    dot[(rows - far[0]) ** 2 + (cols - far[1]) ** 2 <= 2] = panel.min(axis=(0, 1))
    out.append((f"dot at ({far[1]}, {far[0]})", dot))
    return out


def _stroke_width(task, description, side):
    """The recorded stroke width of a figure in pixels."""
    if task is RELATION_ABSTRACTION:
        return float(description["width"])
    return float(description["stroke"]) * side


@pytest.mark.parametrize(("task", "seed", "size"), CASES, ids=lambda v: getattr(v, "id", v))
def test_small_faults_in_thin_strokes_are_caught(task, seed, size):
    item, image = _built(task, seed, size)
    scene = item.metadata["scene"]
    rng = np.random.default_rng(seed)
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        left, top, right, bottom = box
        panel = image[top:bottom, left:right]
        for name, faulty in _faults(panel, _stroke_width(task, description, scene["tile"]), rng):
            picture = image.copy()
            picture[top:bottom, left:right] = faulty
            assert_rejected(_HOST, task, item, [Image.fromarray(picture)], f"{task.id} {size}: panel {k} {name}")


def _solid_places(panel, description, rng):
    """``PLACES`` pixels in the colour of a solid outline of the panel, at least 12 px from any pixel of the
    other outline's colour, picked by ``rng`` (none when no outline is solid)."""
    places = []
    for key, other in (("A", "B"), ("B", "A")):
        if description["shapes"][key]["style"] != "solid":
            continue
        own = np.abs(panel.astype(int) - description["shapes"][key]["colour"]).max(axis=2) < 30
        theirs = np.abs(panel.astype(int) - description["shapes"][other]["colour"]).max(axis=2) < 80
        near = np.zeros_like(theirs)
        for y, x in np.argwhere(theirs):
            near[max(0, y - 12) : y + 13, max(0, x - 12) : x + 13] = True
        own[:MARGIN], own[-MARGIN:], own[:, :MARGIN], own[:, -MARGIN:] = False, False, False, False
        found = np.argwhere(own & ~near)
        places += [
            (int(p[0]), int(p[1])) for p in found[rng.choice(len(found), min(PLACES, len(found)), replace=False)]
        ]
    return places


@pytest.mark.parametrize(("seed", "size"), [(3, "1024x1024"), (4, "600x800")])
def test_a_short_gap_in_a_solid_outline_is_caught(seed, size):
    # dynamic correspondence let a fifth of a solid outline's centre line go unseen: a gap a little wider than
    # the pen must show
    item, image = _built(DYNAMIC_CORRESPONDENCE, seed, size)
    scene = item.metadata["scene"]
    rng = np.random.default_rng(seed)
    planted = 0
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        left, top, right, bottom = box
        panel = image[top:bottom, left:right]
        rows, cols = np.mgrid[: panel.shape[0], : panel.shape[1]]
        for y, x in _solid_places(panel, description, rng):
            gap = panel.copy()
            gap[(rows - y) ** 2 + (cols - x) ** 2 <= (float(description["pen"]) / 2 + 1.5) ** 2] = 255
            picture = image.copy()
            picture[top:bottom, left:right] = gap
            assert_rejected(_HOST, DYNAMIC_CORRESPONDENCE, item, [Image.fromarray(picture)], f"panel {k} gap at {x, y}")
            planted += 1
    assert planted >= 6
