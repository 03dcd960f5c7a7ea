"""Thin strokes: verify must see small faults planted in the rendered option panels of real items.

Relation-abstraction figures are strokes 3-4 px wide and symmetric-structures polylines 4.7-7 px, so a check
that looks only along the centre line, or allows 2 px of slack beside a stroke, misses a short gap (a closed
figure drawn open, a symmetric one broken) and a piece of stroke moved by two pixels.  Each fault here is made
on the pixels of a generated panel, at places picked on its ink with a seeded generator: a gap (a disc of
paper a little wider than the stroke), a piece of stroke moved 2 px across itself, and a small extra dot."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from PIL import Image, ImageDraw

from bench_core import assert_rejected, build_item, create_host, decode_png, hookimpl, plan, verify_item
from bench_plugin_mindseye.descriptions.dynamic_correspondence import TASK as DYNAMIC_CORRESPONDENCE
from bench_plugin_mindseye.descriptions.relation_abstraction import TASK as RELATION_ABSTRACTION
from bench_plugin_mindseye.descriptions.symmetric_structures import TASK as SYMMETRIC_STRUCTURES
from bench_plugin_mindseye.symmetric_structures import TASK as SS_TASK
from bench_plugin_mindseye.verifiers import symmetric_structures as ss_verifier


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


# -- symmetric structures: one panel check where there were two ---------------------------------------------------
#: The retired checks' constants: ink could lie this far beyond a stroke's edge, and this many pixels further out.
RETIRED_SLACK_PX, RETIRED_STRAY_PIXELS = 2.0, 3


def _retired_near(points, side, radius):
    """The last version's band: the pixels whose centres lie within ``radius`` of one of ``points`` (px)."""
    offsets = np.arange(-math.ceil(radius), math.ceil(radius) + 2)
    base = np.floor(points).astype(int)
    cols, rows = base[:, 0, None] + offsets, base[:, 1, None] + offsets
    fx, fy = cols + 0.5 - points[:, 0, None], rows + 0.5 - points[:, 1, None]
    close = (fy * fy)[:, :, None] + (fx * fx)[:, None, :] <= radius * radius
    on = ((rows >= 0) & (rows < side))[:, :, None] & ((cols >= 0) & (cols < side))[:, None, :]
    mask = np.zeros((side, side), dtype=bool)
    rows, cols = np.broadcast_to(rows[:, :, None], close.shape), np.broadcast_to(cols[:, None, :], close.shape)
    mask[rows[close & on], cols[close & on]] = True
    return mask


def _retired_bands(description, side):
    """The regions the two retired checks of a symmetric-structures panel looked at, as they were: ``stray``, the
    pixels beyond a stroke's edge plus 2 px (a drawn line and discs at the corners), and the last version's
    ``inside`` and ``outside`` bands (distances to points every 0.7 px along the strokes); frames left out."""
    width = float(description["stroke"]) * side
    half, reach = width / 2, width / 2 + RETIRED_SLACK_PX
    allowed = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(allowed)
    for line in description["polylines"]:
        points = [(float(x) * side, float(y) * side) for x, y in line]
        draw.line(points, fill=255, width=max(1, math.ceil(2 * reach)))
        for x, y in points:
            draw.ellipse((x - reach, y - reach, x + reach, y + reach), fill=255)
    centre = ss_verifier.samples(ss_verifier.segments(description), 0.7 / side) * side
    ends = np.asarray([p for line in description["polylines"] for p in (line[0], line[-1])], dtype=float) * side
    inside = _retired_near(centre, side, max(half - 1.0, 0.0)) & ~_retired_near(ends, side, half)
    stray, outside = np.asarray(allowed) == 0, ~_retired_near(centre, side, half + 1.0)
    for band in (stray, outside):
        band[:3], band[-3:], band[:, :3], band[:, -3:] = False, False, False, False
    return {"stray": stray, "inside": inside, "outside": outside}


#: What the panel check says for each kind of fault a retired check saw.
SAYS = {
    "stray": "off the recorded strokes",
    "outside": "off the recorded strokes",
    "inside": "not ink",
    "centre line": "not drawn",
}


def _retired_verdicts(low, description, side):
    """The kinds of fault the retired checks saw on a panel (its darkest channel ``low``): more than 3 ink pixels
    2 px beyond the strokes (``stray``), a pixel of the last version's ``inside`` or ``outside`` band on the wrong
    side, or over 2 % of the centre line light (``centre line``, the one part the panel check keeps as it was)."""
    bands = _retired_bands(description, side)
    centre = ss_verifier.samples(ss_verifier.segments(description), 1.0 / side) * side
    cols = np.clip(np.floor(centre[:, 0]).astype(int), 0, side - 1)
    rows = np.clip(np.floor(centre[:, 1]).astype(int), 0, side - 1)
    seen = {
        "stray": int(np.count_nonzero(bands["stray"] & (low < ss_verifier.INK_LEVEL))) > RETIRED_STRAY_PIXELS,
        "inside": bool((bands["inside"] & (low >= ss_verifier.CORE_LEVEL)).any()),
        "outside": bool((bands["outside"] & (low < ss_verifier.INK_LEVEL)).any()),
        "centre line": float((low[rows, cols] >= ss_verifier.CORE_LEVEL).mean()) > 0.02,
    }
    return {kind for kind, fired in seen.items() if fired}


@pytest.mark.parametrize(("seed", "size"), [(3, "1024x1024"), (4, "600x800"), (5, "1024x1024"), (6, "600x800")])
def test_the_panel_check_sees_every_planted_fault_the_retired_checks_saw(seed, size):
    item, image = _built(SYMMETRIC_STRUCTURES, seed, size)
    scene = item.metadata["scene"]
    side = scene["tile"]
    rng = np.random.default_rng(seed)
    seen = set()
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        left, top, right, bottom = box
        panel = image[top:bottom, left:right]
        assert not _retired_verdicts(panel.min(axis=2), description, side)
        for name, faulty in _faults(panel, _stroke_width(SYMMETRIC_STRUCTURES, description, side), rng):
            said = ss_verifier.panel_failures(faulty.min(axis=2), description, side, "panel")
            for kind in _retired_verdicts(faulty.min(axis=2), description, side):
                seen.add(kind)
                assert any(SAYS[kind] in f for f in said), (k, name, kind, said)
    assert seen >= {"stray", "inside", "outside"}  # the comparison saw the retired checks reject, not only pass


@pytest.mark.slow
def test_the_panel_bands_hold_every_pixel_the_retired_checks_looked_at_on_real_figures():
    # with the same ink levels, a panel the retired checks rejected has a wrong pixel in a band of the panel check
    # (the retired stray check needed 4 ink pixels, the panel check needs one): 400 items' figures, both canvases
    stimuli = [
        SS_TASK.build(np.random.default_rng(seed), ("easy", "medium", "hard")[seed % 3], {}) for seed in range(400)
    ]
    for size in ("1024x1024", "600x800"):
        side = SS_TASK.layout(size).tile
        for seed, stimulus in enumerate(stimuli):
            for option in stimulus.options:
                description = json.loads(json.dumps(SS_TASK.describe(option.content, side)))
                inside, outside = ss_verifier.panel_bands(description, side)
                retired = _retired_bands(description, side)
                assert not (retired["inside"] & ~inside).any(), (size, seed, option.template)
                assert not (retired["outside"] & ~outside).any(), (size, seed, option.template)
                assert not (retired["stray"] & ~outside).any(), (size, seed, option.template)
                low = np.asarray(SS_TASK.draw_option(option.content, side)).min(axis=2)
                assert not ss_verifier.panel_failures(low, description, side, "panel"), (size, seed, option.template)


def test_a_figure_drawn_short_at_every_free_end_is_seen_by_the_centre_line_alone():
    # the inside band leaves out half a stroke width at a free end: the centre-line share, kept from the retired
    # checks, is what sees two strokes each drawn 1.8 px short at both ends (8 of about 160 samples light)
    side = 271
    description = {
        "kind": "figure",
        "stroke": 0.0172,
        "polylines": [[[0.4, 0.4], [0.5, 0.3], [0.6, 0.4]], [[0.4, 0.6], [0.5, 0.7], [0.6, 0.6]]],
    }
    drawn = ss_verifier.sketch(description, side).min(axis=2)
    assert not ss_verifier.panel_failures(drawn, description, side, "panel")
    short = drawn.copy()
    rows, cols = np.mgrid[:side, :side] + 0.5
    for line in description["polylines"]:
        for end, before in ((line[0], line[1]), (line[-1], line[-2])):
            (x, y), (bx, by) = np.multiply(end, side), np.multiply(before, side)
            ux, uy = (x - bx) / math.hypot(x - bx, y - by), (y - by) / math.hypot(x - bx, y - by)
            cut = ((cols - x) * ux + (rows - y) * uy > -1.8) & (np.hypot(cols - x, rows - y) <= side * 0.0172)
            short[cut] = 255
    failures = ss_verifier.panel_failures(short, description, side, "panel")
    assert len(failures) == 1 and "not drawn" in failures[0], failures
    assert _retired_verdicts(short, description, side) == {"centre line"}
