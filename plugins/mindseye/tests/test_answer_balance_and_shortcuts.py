"""Over every registered Mind's Eye task: answer letters are uniform, and a solver that looks only at
option features other than the task's concept (ink, ink extent, saturation, position) scores at chance."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from bench_core import ItemRandom, build_item, default_host, option_letters, plan
from bench_plugin_mindseye import tasks
from bench_plugin_mindseye.nuisance import option_features

TASKS = tasks()
SAMPLE = 150


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_answer_letters_are_uniform_over_a_thousand_items(task):
    from bench_core import implementation

    k = implementation(task).option_count
    letters = option_letters(k)
    # the answer position is ItemRandom.balanced over the stimulus source (base.MindsEyeTask.generate)
    counts = Counter(letters[ItemRandom(task.id, task.version, 9, i).balanced(k, "answer", position=i)]
                     for i in range(1000))
    for letter in letters:
        assert abs(counts[letter] / 1000 - 1 / k) <= 0.03, counts
    # and real items use exactly that position
    host = default_host()
    for job in plan(task, {}, 9, 6):
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix)
        expected = letters[ItemRandom(task.id, task.version, 9, job.index).balanced(k, "answer", position=job.index)]
        assert built.item.answer == expected


def _shortcut_solvers(features: list[dict[str, float]]) -> dict[str, int]:
    picks = {"first": 0, "last": len(features) - 1}
    for name in ("ink", "extent", "saturation"):
        values = [f[name] for f in features]
        median = sorted(values)[len(values) // 2]
        picks[f"max_{name}"] = max(range(len(values)), key=values.__getitem__)
        picks[f"min_{name}"] = min(range(len(values)), key=values.__getitem__)
        picks[f"odd_{name}"] = max(range(len(values)), key=lambda k: abs(values[k] - median))
        picks[f"typical_{name}"] = min(range(len(values)), key=lambda k: abs(values[k] - median))
    return picks


#: Known shortcuts (expected failures to fix next, not hidden): task id -> reason.  Remove a task when it passes.
NUISANCE_KNOWN: dict[str, str] = {}


@pytest.mark.slow
@pytest.mark.parametrize("task", [pytest.param(t, marks=pytest.mark.xfail(reason=NUISANCE_KNOWN[t.id]))
                                  if t.id in NUISANCE_KNOWN else t for t in TASKS], ids=[t.id for t in TASKS])
def test_nuisance_only_solvers_score_at_chance(task):
    host = default_host()
    hits: Counter[str] = Counter()
    k = None
    for job in plan(task, {"size": "600x800"}, 21, SAMPLE):
        # the options as drawn (the same item and pixels as written; its verifier runs in the conformance suite)
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix, encode=False, verify=False)
        image = built.images[0]
        tiles = [image.crop(tuple(o["bbox"])) for o in built.item.metadata["options"]]
        k = len(tiles)
        answer = option_letters(k).index(built.item.answer)
        for name, pick in _shortcut_solvers([option_features(t) for t in tiles]).items():
            hits[name] += pick == answer
    chance = 1 / k
    # three standard deviations of a binomial proportion above chance
    bound = chance + 3 * math.sqrt(chance * (1 - chance) / SAMPLE)
    features = ("ink", "extent", "saturation")
    for name in ["first", "last", *(f"{m}_{f}" for m in ("max", "min", "odd", "typical") for f in features)]:
        assert hits[name] / SAMPLE <= bound, f"{name} solver scores {hits[name] / SAMPLE:.2f} (chance {chance:.2f})"
