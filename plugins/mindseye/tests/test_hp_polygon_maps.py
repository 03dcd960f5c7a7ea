"""HPE verifier fast path held to the code it replaced: the similarities sending a root polygon onto another,
every cyclic shift of its corners tried at once, are those found shift by shift -- the same shifts kept, the
same numbers up to the last bit of a sum taken in another order (1e-12; parts match within 1e-3)."""

from __future__ import annotations

import numpy as np
import pytest

from bench_core import build_item, default_host, plan
from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier


def _polygon_maps_shift_by_shift(parts, root, target):
    """``_maps`` of two polygons as it was: one shift of the target's corners at a time."""
    r, x = parts.verts[root], parts.verts[target]
    out = []
    rc = r - r.mean()
    for shift in range(int(parts.codes[root])):
        xs = np.roll(x, -shift)
        a = complex(np.sum((xs - xs.mean()) * rc.conj()) / np.sum(np.abs(rc) ** 2))
        b = complex(xs.mean() - a * r.mean())
        if np.abs(a * r + b - xs).max() < verifier.TOLERANCE:
            out.append((a, b))
    return out


def _check(description):
    parts = verifier._Parts(description)
    polygons = np.flatnonzero(parts.codes >= 3)
    root = int(np.argmax(parts.size))
    checked = 0
    for target in polygons.tolist():
        if parts.codes[target] != parts.codes[root] or parts.codes[root] < 3:
            continue
        got, want = verifier._maps(parts, root, target, None), _polygon_maps_shift_by_shift(parts, root, target)
        assert len(got) == len(want)
        assert all(abs(a - c) < 1e-12 and abs(b - d) < 1e-12 for (a, b), (c, d) in zip(got, want, strict=True))
        checked += 1
    return checked


def test_polygon_maps_of_written_figures_are_those_found_shift_by_shift():
    host = default_host()
    task = host.task("mindseye/hierarchical-patterns")
    checked = 0
    for job in plan(task, {"size": "600x800"}, 5, 16):
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix, encode=False, verify=False)
        for description in built.item.metadata["scene"]["options"]:
            checked += _check(description)
    assert checked > 50


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_polygon_maps_of_turned_and_noisy_copies_are_those_found_shift_by_shift(n):
    rng = np.random.default_rng(n)
    angles = 2 * np.pi * np.arange(n) / n
    root = np.stack([0.5 + 0.3 * np.cos(angles), 0.5 + 0.3 * np.sin(angles)], axis=1)
    polygons = [root.tolist()]
    for _ in range(10):
        turn, scale = rng.uniform(0, 2 * np.pi), rng.uniform(0.2, 0.9)
        c, s = np.cos(turn) * scale, np.sin(turn) * scale
        copy = (root - 0.5) @ np.array([[c, s], [-s, c]]) + rng.uniform(0.3, 0.7, 2)
        copy += rng.normal(0, rng.choice([0.0, 2e-4, 2e-3]), copy.shape)  # exact, near and off the tolerance
        polygons.append(np.roll(copy, int(rng.integers(n)), axis=0).tolist())
    assert _check({"polygons": polygons}) == len(polygons)
