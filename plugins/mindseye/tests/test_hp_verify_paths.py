"""HPE fast paths held to the code they replaced: the pixel checks on tiles cut and darkened by Pillow, the
search's nearest drawn part found among those near in x, the verdicts and centre lines shared inside one verify,
and the generator's reductions over the two coordinates written out."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from PIL import Image

from bench_core import build_item, create_host, hookimpl, plan
from bench_plugin_mindseye import recursion
from bench_plugin_mindseye.descriptions.hierarchical_patterns import TASK
from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier
from bench_plugin_mindseye.verifiers import line_raster


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-hp-verify-paths", _Plugin())])


def _built(seed: int, count: int, size: str):
    return [build_item(_HOST, TASK, job.seed, job.index, job.params, job.suffix)
            for job in plan(TASK, {"size": size}, seed, count)]


def _pixel_failures_from_the_whole_array(scene, image) -> list[str]:
    """``verifier.pixel_failures`` as it was: the whole picture made an RGB array, each tile sliced from it and its
    darkness measured by ``line_raster.darkness``."""
    pixels = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    failures = []
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        left, top, right, bottom = box
        tile = pixels[top:bottom, left:right]
        if tile.shape[:2] != (scene["tile"], scene["tile"]):
            failures.append(f"figure {chr(ord('A') + k)}: box {box} is not a {scene['tile']} px tile")
            continue
        failures += verifier.panel_pixel_failures(tile, description, chr(ord("A") + k))
    return failures


@pytest.mark.parametrize("size", ["1024x1024", "600x800"])
def test_pixel_checks_on_tiles_cut_by_pillow_find_what_the_whole_array_finds(size):
    """On written items, with planted faults (a dot, a coloured dot, a part left out of the record, a panel shifted),
    with a box partly off the picture and on an RGBA picture, both routes report the same failures."""
    rng = np.random.default_rng(4)
    seen = set()
    for built in _built(7, 3, size):
        scene = built.item.metadata["scene"]
        image = built.images[0].convert("RGB")
        cases = [(scene, image), (scene, image.convert("RGBA"))]
        pixels = np.asarray(image).copy()
        for colour in ((20, 20, 20), (200, 30, 30)):
            marked = pixels.copy()
            left, top, right, bottom = scene["option_boxes"][int(rng.integers(4))]
            x, y = int(rng.integers(left + 10, right - 10)), int(rng.integers(top + 10, bottom - 10))
            marked[y - 2:y + 2, x - 2:x + 2] = colour
            cases.append((scene, Image.fromarray(marked)))
        dropped = copy.deepcopy(scene)
        for key in ("segments", "polygons", "circles"):
            if dropped["options"][1][key]:
                dropped["options"][1][key] = dropped["options"][1][key][1:]
                break
        cases.append((dropped, image))
        moved = copy.deepcopy(scene)
        moved["option_boxes"][2] = [v + 2 for v in moved["option_boxes"][2]]
        cases.append((moved, image))
        off = copy.deepcopy(scene)
        off["option_boxes"][3] = [image.size[0] - 50, 10, image.size[0] - 50 + scene["tile"], 10 + scene["tile"]]
        cases.append((off, image))
        for record, picture in cases:
            found = verifier.pixel_failures(record, picture)
            assert found == _pixel_failures_from_the_whole_array(record, picture)
            seen.add(bool(found))
    assert seen == {True, False}


def _act_all_pairs(parts, a, b) -> np.ndarray:
    """``_Parts.act`` as it was: every moved part against every drawn part of its type."""
    out = np.full(len(parts), -1)
    for code, (members, table) in parts.groups.items():
        moved = a * table + b
        centres = moved.mean(axis=1)
        gap = np.maximum(np.abs(centres[:, None] - parts.centre[None, members]),
                         np.abs(abs(a) * parts.size[members][:, None] - parts.size[None, members]))
        best = np.argmin(gap, axis=1)
        close = gap[np.arange(len(members)), best] < verifier.TOLERANCE
        if code and close.any():
            rows = np.flatnonzero(close)
            d = np.abs(moved[rows][:, :, None] - table[best[rows]][:, None, :])
            far = np.maximum(d.min(axis=2).max(axis=1), d.min(axis=1).max(axis=1))
            close[rows] = far < verifier.TOLERANCE
        out[members[close]] = members[best[close]]
    return out


def test_nearest_part_found_near_in_x_is_the_all_pairs_choice():
    """On written figures (every map root -> part the search tries, and moves near them) and on crowded random
    records (parts a tolerance apart, equal gaps), ``act`` gives what the all-pairs table gives."""
    rng = np.random.default_rng(5)
    descriptions = [d for built in _built(3, 4, "1024x1024") for d in built.item.metadata["scene"]["options"]]
    for _ in range(30):
        n = int(rng.integers(verifier._DENSE + 1, 160))
        ends = np.round(rng.uniform(0.1, 0.9, (n, 4)) / 1e-3) * 1e-3  # on a lattice a tolerance wide: equal gaps
        ends[: n // 3, 2:] = ends[: n // 3, :2] + 0.05
        descriptions.append({"segments": ends.tolist(), "polygons": [], "circles": rng.uniform(0.2, 0.4, (n, 3))
                             .round(3).tolist()})
    tried = 0
    for description in descriptions:
        parts = verifier._Parts(description)
        maps = []
        for target in rng.choice(len(parts), size=min(6, len(parts)), replace=False).tolist():
            for root in (int(np.argmax(parts.size)), int(rng.integers(len(parts)))):
                maps += verifier._maps(parts, root, target, None)
        maps += [(complex(1.0), complex(0.0)), (complex(1.0), complex(5e-4, -5e-4)),
                 (complex(np.exp(0.3j)), complex(0.1, 0.2))]
        for a, b in maps:
            assert np.array_equal(parts.act(a, b), _act_all_pairs(parts, a, b))
            tried += 1
    assert tried > 200 and any(verifier._Parts(d).by_x for d in descriptions)


def test_verdicts_and_lines_shared_inside_one_verify_are_those_made_afresh():
    built = _built(9, 2, "600x800")
    for item in (b.item for b in built):
        scene = item.metadata["scene"]
        plain = [verifier.figure_verdict(d) for d in scene["options"]]
        with verifier.shared_lines():
            assert verifier.verdicts(scene) == plain
            assert verifier.verdicts(scene) is verifier.verdicts(scene)
            for description in scene["options"]:
                (segments, owner), fine = verifier._prepared(description, scene["tile"])
                again = verifier._polylines(description, scene["tile"])
                assert np.array_equal(segments, again[0]) and np.array_equal(owner, again[1])
                assert all(np.array_equal(u, v) for u, v in zip(fine, line_raster.samples(segments, 0.7),
                                                                strict=True))
        assert verifier.verdicts(scene) == plain and not verifier._open_blocks()


def _gap_summed(groups, within=np.inf):
    """``recursion.gap`` with the reductions over the two coordinates as numpy's ``sum`` and ``max`` made them."""
    def point_segment(p, a, b):
        d = b - a
        length = (d ** 2).sum(axis=-1)
        t = np.clip(((p - a) * d).sum(axis=-1) / np.where(length > 0, length, 1.0), 0.0, 1.0)
        off = a + t[..., None] * d - p
        return np.hypot(off[..., 0], off[..., 1])

    edges, owner = recursion._edges(groups)
    if np.isfinite(within):
        low, high = np.minimum(edges[:, 0], edges[:, 1]), np.maximum(edges[:, 0], edges[:, 1])
        i, j = np.triu_indices(len(edges), k=1)
        apart = np.maximum(low[i] - high[j], low[j] - high[i]).max(axis=1)
        i, j = i[apart < within], j[apart < within]
    else:
        i, j = np.triu_indices(len(edges), k=1)
    ends = np.abs(edges[i][:, :, None, :] - edges[j][:, None, :, :]).max(axis=3)
    keep = ~(ends < 1e-6).any(axis=(1, 2)) & ((owner[i] < 0) | (owner[i] != owner[j]))
    a, b = edges[i[keep]], edges[j[keep]]
    if not len(a):
        return np.inf
    points = np.concatenate([b[:, 0], b[:, 1], a[:, 0], a[:, 1]])
    strokes = np.concatenate([a, a, b, b])
    near = point_segment(points, strokes[:, 0], strokes[:, 1]).reshape(4, -1).min(axis=0)
    p, q = np.concatenate([a[:, 0], a[:, 0], b[:, 0], b[:, 0]]), np.concatenate([a[:, 1], a[:, 1], b[:, 1], b[:, 1]])
    side = np.sign((q[:, 0] - p[:, 0]) * (points[:, 1] - p[:, 1]) - (q[:, 1] - p[:, 1]) * (points[:, 0] - p[:, 0]))
    side = side.reshape(4, -1)
    crossing = (side[0] * side[1] < 0) & (side[2] * side[3] < 0)
    return float(np.where(crossing, 0.0, near).min())


def test_generator_reductions_written_out_are_numpys_to_the_bit():
    """``gap`` (all pairs and within a reach), ``fit`` and ``sizes`` of real constructions of every generator equal
    the same computed with numpy's reductions over the two coordinates."""
    rng = np.random.default_rng(7)
    for k in range(60):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        violation = (None, "scale", "angle", "missing")[k % 4]
        panel = recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2], violation=violation)
        groups = panel.groups
        assert recursion.gap(groups) == _gap_summed(groups)
        for within in (1e-3, recursion.CLEARANCE + 1e-9, 0.05):
            found, expected = recursion.gap(groups, within), _gap_summed(groups, within)
            assert found == expected or (found >= within and expected >= within)
        for g in groups:
            if g.kind == "poly":
                rel = g.data - g.data.mean(axis=1, keepdims=True)
                assert recursion.sizes(g).tobytes() == np.sqrt((rel ** 2).sum(axis=2).mean(axis=1)).tobytes()
        # ``fit`` of the drawing moved off the panel: the box found coordinate by coordinate
        shifted = tuple(recursion.Group(g.kind, g.data * 1.7 + 0.3 if g.kind != "circle" else
                                        np.concatenate([g.data[:, :2] * 1.7 + 0.3, g.data[:, 2:] * 1.7], axis=1))
                        for g in groups)
        lo, hi = np.full(2, np.inf), np.full(2, -np.inf)
        for g in shifted:
            if g.kind == "circle":
                lo = np.minimum(lo, (g.data[:, :2] - g.data[:, 2:]).min(axis=0))
                hi = np.maximum(hi, (g.data[:, :2] + g.data[:, 2:]).max(axis=0))
            else:
                lo, hi = np.minimum(lo, g.data.min(axis=(0, 1))), np.maximum(hi, g.data.max(axis=(0, 1)))
        scale = (1 - 2 * recursion.MARGIN) / float(max(hi - lo))
        centre = (lo + hi) / 2
        for g, f in zip(shifted, recursion.fit(shifted), strict=True):
            xy = g.data[..., :2] if g.kind == "circle" else g.data
            out = (xy - centre) * scale
            moved = np.stack([0.5 + out[..., 0], 0.5 - out[..., 1]], axis=-1)
            assert (f.data[..., :2] if g.kind == "circle" else f.data).tobytes() == moved.tobytes()


def test_a_shared_lines_block_is_seen_only_in_its_own_thread():
    """``shared_lines`` memos are per thread: a block open in one thread leaves another thread's lookups alone."""
    import threading

    seen = []
    with verifier.shared_lines():
        worker = threading.Thread(target=lambda: seen.append(len(verifier._open_blocks())))
        worker.start()
        worker.join()
        assert len(verifier._open_blocks()) == 1
    assert seen == [0] and not verifier._open_blocks()
