"""Small marks: verify must see small faults planted in the rendered option panels of paper folding, mental
rotation and mental composition.

An audit planted small faults into real panels and found these three verifiers blind to several: paper folding
read holes only where a whole inscribed square is black, so a small dot, a short line, a gap in the sheet's outline
and most bites out of a hole passed; the two solid tasks compared silhouettes (overlap 0.88) and let 15 % of a
face's pixels differ, so a dot, a short line, a bite out of the rim, a gap in an edge or a piece of the rim moved
2 px went unnoticed.  Caught by the verifiers before this test, on 20 items of seed 11 (1024x1024, 4 options):
paper folding: hole-size dot 80/80, hole removed 80/80, hole moved 2 px 73/80, small dot 0/80, short line 0/80,
rim bite 67/80, outline gap 0/80; mental rotation 0 of 80 of every kind; mental composition 0 of every kind.
Each fault here is made on the pixels of a generated panel at a place picked with a seeded generator; every kind
must be caught on every panel that offers a place for it.

Paper folding: a dark dot the size of a punched hole on the sheet, a hole removed, a hole moved 2 px, a small dot
(radius about 1.4 px), a short dark line, a bite out of a hole's rim, a gap in the sheet's outline.
Mental rotation and composition: a small dot on a face and one beside the object, a short dark line on a face, a
bite out of the rim, a gap in an edge between two faces, a piece of a straight stretch of the rim moved outwards
by 2 px or a little more across it (the smallest whole-pixel step that does; at a corner a 2 px move along an
axis shifts each side by less, within the 1 px and antialiasing the rule beside the silhouette must allow).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image
from shapely.geometry import Point, Polygon

from bench_core import assert_rejected, build_item, create_host, decode_png, hookimpl, plan, verify_item
from bench_plugin_mindseye.descriptions.mental_composition import TASK as MENTAL_COMPOSITION
from bench_plugin_mindseye.descriptions.mental_rotation import TASK as MENTAL_ROTATION
from bench_plugin_mindseye.descriptions.paper_folding import TASK as PAPER_FOLDING


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [PAPER_FOLDING, MENTAL_ROTATION, MENTAL_COMPOSITION]


HOST = create_host(entry_points=False, plugins=[("test-small-mark-faults", _Plugin())])
#: Dark ink of the marks (the panels' own ink and outline colours), white paper, and how far from the panel's
#: edge a mark may lie (px).
INK, EDGE, PAPER = (20, 20, 20), (35, 35, 35), (255, 255, 255)
MARGIN = 12
PF_KINDS = ("hole-size dot", "hole removed", "hole moved 2 px", "small dot", "short line", "rim bite", "outline gap")
SOLID_KINDS = ("dot on a face", "dot beside", "short line", "rim bite", "edge gap", "rim moved 2 px")


def built_items(task, size, seed, count):
    """``count`` items of ``seed`` at ``size`` as generated: (item, RGB array) pairs."""
    out = []
    for job in plan(task, {"size": size}, seed, count):
        built = build_item(HOST, task, job.seed, job.index, job.params, job.suffix)
        out.append((built.item, np.asarray(decode_png(built.pngs[0]).convert("RGB"))))
    return out


# -- drawing the marks ---------------------------------------------------------------------------------------
def _grid(panel):
    return np.mgrid[: panel.shape[0], : panel.shape[1]]


def disc(panel, y, x, radius, colour):
    """``panel`` with the pixels whose centres lie within ``radius`` of (x, y) (pixel centres) set to ``colour``."""
    rows, cols = _grid(panel)
    out = panel.copy()
    out[(rows - y) ** 2 + (cols - x) ** 2 <= radius**2] = colour
    return out


def short_line(panel, y, x, rng, colour, length=9.0, width=2.0):
    """``panel`` with a dark line ``length`` px long and ``width`` wide through (x, y) at a random angle."""
    t = rng.uniform(0, math.pi)
    dx, dy = math.cos(t), math.sin(t)
    rows, cols = _grid(panel)
    along = (cols - x) * dx + (rows - y) * dy
    across = -(cols - x) * dy + (rows - y) * dx
    out = panel.copy()
    out[(np.abs(along) <= length / 2) & (np.abs(across) <= width / 2)] = colour
    return out


def moved_patch(panel, y, x, dy, dx, half=6):
    """``panel`` with the (2 half + 1)-px square around (x, y) moved by (dx, dy)."""
    out = panel.copy()
    out[y - half + dy : y + half + 1 + dy, x - half + dx : x + half + 1 + dx] = panel[
        y - half : y + half + 1, x - half : x + half + 1
    ]
    return out


def _pick(places, rng):
    """One (y, x) of ``places`` (k x 2) picked by ``rng``, or None."""
    return None if not len(places) else tuple(int(v) for v in places[rng.integers(len(places))])


def _inside_margin(mask):
    mask = mask.copy()
    mask[:MARGIN], mask[-MARGIN:], mask[:, :MARGIN], mask[:, -MARGIN:] = False, False, False, False
    return mask


def _near(mask, reach):
    """Pixels within ``reach`` of ``mask`` in squares (Chebyshev distance: diagonal neighbours count as one step,
    as the verifiers' pen and paper zones are measured).  Until Mind's Eye 0.2.13 this grew by edge neighbours only
    (a diamond), so a mark "3 px beside" a diagonal rim could touch the rim's antialiased pixels, within the pen's
    reach, where no rule can tell it from the outline."""
    out = mask.copy()
    for _ in range(reach):
        grown = out.copy()
        grown[1:] |= out[:-1]
        grown[:-1] |= out[1:]
        grown[:, 1:] |= grown[:, :-1].copy()
        grown[:, :-1] |= grown[:, 1:].copy()
        out = grown
    return out


# -- paper folding ---------------------------------------------------------------------------------------------
def paper_folding_faults(panel, description, side, rng):
    """(kind, faulty panel) for each kind in ``PF_KINDS`` the option panel offers a place for."""
    radius = float(description["radius"]) * side
    holes = [(float(y) * side, float(x) * side) for x, y in description["holes"]]
    sheet = Polygon([(float(x) * side, float(y) * side) for x, y in description["outline"]])
    white = panel.min(axis=2) >= 250
    clear = ~_near(~white, math.ceil(radius) + 3)
    inside = np.zeros(white.shape, dtype=bool)
    inside_core = sheet.buffer(-radius - 4)
    for y, x in np.argwhere(clear):
        inside[y, x] = inside_core.contains(Point(x + 0.5, y + 0.5))
    free = np.argwhere(_inside_margin(inside))
    out = []
    spot = _pick(free, rng)
    if spot is not None:
        y, x = spot
        out.append(("hole-size dot", disc(panel, y + 0.5, x + 0.5, radius, INK)))
        out.append(("small dot", disc(panel, y + 0.5, x + 0.5, math.sqrt(2.0), INK)))
        out.append(("short line", short_line(panel, y + 0.5, x + 0.5, rng, INK)))
    if holes:
        hy, hx = holes[rng.integers(len(holes))]
        out.append(("hole removed", disc(panel, hy, hx, radius + 1.5, PAPER)))
        step = ((2, 0), (0, 2), (-2, 0), (0, -2))[rng.integers(4)]
        half = math.ceil(radius) + 2
        out.append(("hole moved 2 px", moved_patch(panel, int(hy), int(hx), *step, half=half)))
        t = rng.uniform(0, 2 * math.pi)
        out.append(("rim bite", disc(panel, hy + radius * math.sin(t), hx + radius * math.cos(t), radius / 2, PAPER)))
    ink = _inside_margin(panel.max(axis=2) < 60)
    rim = sheet.exterior
    spot = _pick(np.array([[y, x] for y, x in np.argwhere(ink) if rim.distance(Point(x + 0.5, y + 0.5)) < 1.0]), rng)
    if spot is not None:
        width = max(2.0, round(0.011 * side * 2) / 2)
        out.append(("outline gap", disc(panel, spot[0] + 0.5, spot[1] + 0.5, width / 2 + 1.5, PAPER)))
    return out


# -- the solids ------------------------------------------------------------------------------------------------
def _across(panel, y, x, edge):
    """A step (dy, dx) of about 2 px across a straight piece of outline through (y, x), away from the object
    (the smallest whole-pixel step that moves the line by 2 px or more along its normal), or None where the
    outline pixels around (y, x) do not lie along one line (a corner)."""
    ink = np.argwhere(edge[y - 6 : y + 7, x - 6 : x + 7]).astype(float)
    ink -= ink.mean(axis=0)
    values, vectors = np.linalg.eigh(ink.T @ ink)
    if values[0] > 0.08 * values[1]:
        return None
    normal = vectors[:, 0]
    paper = panel[y - 6 : y + 7, x - 6 : x + 7].min(axis=2) >= 250
    offsets = np.argwhere(paper).astype(float) - 6
    if (offsets @ normal).sum() < 0:
        normal = -normal
    steps = [(dy, dx) for dy in range(-3, 4) for dx in range(-3, 4) if dy * normal[0] + dx * normal[1] >= 2]
    return min(steps, key=lambda v: v[0] ** 2 + v[1] ** 2)


def solid_faults(panel, description, side, rng):
    """(kind, faulty panel) for each kind in ``SOLID_KINDS`` the panel offers a place for."""
    width = float(description.get("edge", 2.0))
    level = panel.astype(int)
    edge = _inside_margin(np.abs(level - EDGE).max(axis=2) <= 12)
    paper = panel.min(axis=2) >= 254
    body = ~paper
    face = _inside_margin(body & ~_near(edge | paper, 4))
    out = []
    spot = _pick(np.argwhere(face), rng)
    if spot is not None:
        out.append(("dot on a face", disc(panel, spot[0] + 0.5, spot[1] + 0.5, math.sqrt(2.0), EDGE)))
    spot = _pick(np.argwhere(face), rng)
    if spot is not None:
        out.append(("short line", short_line(panel, spot[0] + 0.5, spot[1] + 0.5, rng, EDGE)))
    beside = _inside_margin(paper & _near(body, 8) & ~_near(body, 3))
    spot = _pick(np.argwhere(beside), rng)
    if spot is not None:
        out.append(("dot beside", disc(panel, spot[0] + 0.5, spot[1] + 0.5, math.sqrt(2.0), EDGE)))
    rim = edge & _near(paper, 2)
    spot = _pick(np.argwhere(rim), rng)
    if spot is not None:
        out.append(("rim bite", disc(panel, spot[0] + 0.5, spot[1] + 0.5, width / 2 + 1.5, PAPER)))
    straight = [(y, x, step) for y, x in np.argwhere(rim) if (step := _across(panel, y, x, edge)) is not None]
    if straight:
        y, x, (dy, dx) = straight[rng.integers(len(straight))]
        out.append(("rim moved 2 px", moved_patch(panel, int(y), int(x), dy, dx)))
    inner = edge & ~_near(paper, 8)
    spot = _pick(np.argwhere(inner), rng)
    if spot is not None:
        y, x = spot
        window = level[y - 5 : y + 6, x - 5 : x + 6].reshape(-1, 3)
        colours = window[np.abs(window - EDGE).max(axis=1) > 60]
        if len(colours):
            fill = tuple(int(v) for v in np.median(colours, axis=0))
            out.append(("edge gap", disc(panel, y + 0.5, x + 0.5, width / 2 + 1.5, fill)))
    return out


FAULTS = {
    PAPER_FOLDING.id: (paper_folding_faults, PF_KINDS),
    MENTAL_ROTATION.id: (solid_faults, SOLID_KINDS),
    MENTAL_COMPOSITION.id: (solid_faults, SOLID_KINDS),
}


def planted(task, item, image, rng):
    """(option index, kind, faulty picture) for every fault planted in the option panels of one item."""
    scene = item.metadata["scene"]
    make, _ = FAULTS[task.id]
    out = []
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        left, top, right, bottom = box
        panel = image[top:bottom, left:right]
        for kind, faulty in make(panel, description, scene["tile"], rng):
            picture = image.copy()
            picture[top:bottom, left:right] = faulty
            out.append((k, kind, picture))
    return out


CASES = [
    (task, size, seed)
    for task in (PAPER_FOLDING, MENTAL_ROTATION, MENTAL_COMPOSITION)
    for size, seed in (("1024x1024", 3), ("600x800", 4))
]


@pytest.mark.parametrize(("task", "size", "seed"), CASES, ids=lambda v: getattr(v, "id", v))
def test_small_marks_in_option_panels_are_caught(task, size, seed):
    rng = np.random.default_rng(seed)
    kinds = set()
    for item, image in built_items(task, size, seed, 2):
        assert not verify_item(HOST, task, item, [Image.fromarray(image)])
        for k, kind, picture in planted(task, item, image, rng):
            assert_rejected(HOST, task, item, [Image.fromarray(picture)], f"{task.id} {size}: option {k} {kind}")
            kinds.add(kind)
    assert kinds == set(FAULTS[task.id][1])  # every kind was planted at least once
