"""``build_item``'s ``timings`` hook (CPU time per stage for benchmarks) and ``verify=False``: the item unchanged."""

from __future__ import annotations

import pytest

from bench_core.errors import VerifyDisagreement
from bench_core.generation import build_item


def test_timings_add_up_each_stage_and_leave_the_item_unchanged(toy_host):
    task = toy_host.task("toy/dots")
    plain = build_item(toy_host, task, 3, 1, {})
    timings: dict[str, float] = {}
    timed = build_item(toy_host, task, 3, 1, {}, timings=timings)
    assert timed.item == plain.item and timed.pngs == plain.pngs
    assert set(timings) == {"generate", "render", "encode", "verify"}
    assert all(seconds >= 0.0 for seconds in timings.values())
    before = dict(timings)
    build_item(toy_host, task, 3, 2, {}, timings=timings)
    assert all(timings[stage] >= before[stage] for stage in before)


def test_without_png_encoding_the_encode_stage_is_still_reported(toy_host):
    timings: dict[str, float] = {}
    built = build_item(toy_host, toy_host.task("toy/dots"), 0, 0, {}, encode=False, timings=timings)
    assert built.pngs == () and set(timings) == {"generate", "render", "encode", "verify"}


def test_without_verification_the_item_and_pngs_are_the_same_and_verify_does_not_run(toy_host, monkeypatch):
    from bench_core import generation

    task = toy_host.task("toy/dots")
    verified = build_item(toy_host, task, 5, 3, {})
    calls = []
    monkeypatch.setattr(generation, "verify_item", lambda *args: calls.append(args) or ["planted failure"])
    unverified = build_item(toy_host, task, 5, 3, {}, verify=False)
    assert unverified.item == verified.item and unverified.pngs == verified.pngs and calls == []
    with pytest.raises(VerifyDisagreement, match="planted failure"):  # the same call verifying: it runs
        build_item(toy_host, task, 5, 3, {})
