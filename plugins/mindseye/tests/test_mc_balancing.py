"""``balancing._small_end_spacings_of`` (every candidate order of ``balanced_scales`` at once) held to the code it
replaced: ``_small_end_spacings`` called order by order, one after another, on the same generator; and MC items
built with it to the same items built with the order-by-order search."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bench_core import build_item, default_host, encode_png, plan
from bench_plugin_mindseye import balancing
from bench_plugin_mindseye.balancing import _small_end_spacings, _small_end_spacings_of

_HOST = default_host()


def _one_by_one(rng, base, power, step, factor, floors, reach, draws):
    """The replaced search: one ``_small_end_spacings`` call per order."""
    return [_small_end_spacings(rng, base[k], power, step, factor, floors, reach[k], draws) for k in range(len(base))]


def _random_case(rng: np.random.Generator, count: int, spread: float):
    values = np.exp(rng.normal(-3.0, spread, size=(count, 3)))
    reach = rng.normal(0.0, spread / 2, size=count)
    orders = np.array([[*p[:1], 0, *p[1:]] for p in itertools.permutations(range(1, count))])
    return np.log(values)[orders], reach[orders]


@pytest.mark.parametrize("count", [4, 5])
@pytest.mark.parametrize("spread", [0.05, 0.3, 1.5])
def test_all_orders_at_once_equal_the_orders_one_by_one(count, spread):
    power = np.array([2.0, 2.0, 2.0])
    floors = np.array([0.001, 0.002, 0.0])
    case = np.random.default_rng(int(100 * spread) + count)
    seen = {True: 0, False: 0}
    for trial in range(12):
        base, reach = _random_case(case, count, spread)
        draws = int(case.integers(1, 60)) if trial % 3 else 200
        seed = int(case.integers(2**31))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        got = _small_end_spacings_of(a, base, power, 0.05, 2.7, floors, reach, draws)
        expected = _one_by_one(b, base, power, 0.05, 2.7, floors, reach, draws)
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            seen[e is None] += 1
            assert (g is None) == (e is None)
            if e is not None:
                assert g[0] == e[0]
                assert np.array_equal(g[1], e[1])
        assert a.random() == b.random()  # the generator is left where the one-by-one calls leave it
    if spread == 1.5:
        assert seen[True]  # orders where no spacing fits were among the cases
    else:
        assert seen[False]


def test_mc_items_equal_the_items_of_the_order_by_order_search(monkeypatch):
    task = _HOST.task("mindseye/mental-composition")
    jobs = list(plan(task, {}, 44, 6))

    def pngs():
        return [encode_png(build_item(_HOST, task, j.seed, j.index, j.params, j.suffix, verify=False).images[0])
                for j in jobs]

    fast = pngs()
    monkeypatch.setattr(balancing, "_small_end_spacings_of", _one_by_one)
    assert pngs() == fast
