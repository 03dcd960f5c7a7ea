"""A malformed scene record (a key missing, a value of the wrong type) is a verification failure that says
what is wrong, never an exception, for every registered SPHINX task's verifier."""

from __future__ import annotations

import copy
from functools import cache

import attrs
import pytest
from bench_plugin_sphinx import REGISTERED
from sphinx_helpers import build, task_of

from bench_core import implementation

#: Values of the wrong type put in place of a scene field (a string stands for every wrong container: it
#: indexes, iterates and has a length, so it reaches as far into a verifier as a wrong list or dict would).
WRONG = (None, "x")


@cache
def _built(name: str):
    return build(task_of(name), seed=4)


def _verify(name: str, metadata) -> list[str]:
    built = _built(name)
    item = attrs.evolve(built.item, metadata=metadata)
    return implementation(task_of(name)).verify(item, list(built.images))


def _failures(name: str, metadata) -> list[str]:
    result = _verify(name, metadata)
    assert isinstance(result, list) and all(isinstance(f, str) for f in result), result
    return result


@pytest.mark.parametrize("name", REGISTERED)
def test_a_record_without_its_scene_fails_by_name(name):
    metadata = copy.deepcopy(dict(_built(name).item.metadata))
    del metadata["scene"]
    failures = _failures(name, metadata)
    assert failures and any("scene" in f for f in failures), failures
    assert any("scene" in f for f in _failures(name, {**metadata, "scene": "not a scene"}))


@pytest.mark.parametrize("name", REGISTERED)
def test_every_scene_field_missing_or_mistyped_is_reported_not_raised(name):
    metadata = dict(_built(name).item.metadata)
    assert _failures(name, copy.deepcopy(metadata)) == []  # the record as written verifies
    for key in metadata["scene"]:
        missing = copy.deepcopy(metadata)
        del missing["scene"][key]
        failures = _failures(name, missing)
        assert all("Traceback" not in f for f in failures)
        for wrong in WRONG:
            mistyped = copy.deepcopy(metadata)
            mistyped["scene"][key] = wrong
            _failures(name, mistyped)


def test_the_failure_names_the_missing_key():
    metadata = copy.deepcopy(dict(_built("pie_chart").item.metadata))
    del metadata["scene"]["legend"]
    assert _failures("pie_chart", metadata) == [
        "the item's record is malformed: it lacks the key 'legend' (a required field of its scene)"]
