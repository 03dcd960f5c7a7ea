"""Data types validate at construction; seeding depends only on (task, version, seed, index)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench_core import Parameter, Problem, Score, Task
from bench_core.errors import ParameterError
from bench_core.seeding import ItemRandom, derive_seed


def test_parameter_conversion_and_errors():
    p = Parameter("vertices", "int", None, choices=(9, 11))
    assert p.convert("11") == 11
    with pytest.raises(ParameterError, match="allowed: 9, 11"):
        p.convert("10")
    with pytest.raises(ParameterError, match="not a valid int"):
        p.convert("nine")
    r = Parameter("most", "float", 1.0, minimum=0, maximum=2)
    with pytest.raises(ParameterError, match=r"allowed: float in \[0, 2\]"):
        r.convert("3")
    assert Parameter("flag", "bool", False).convert("yes") is True


def test_invalid_objects_cannot_exist():
    with pytest.raises(ValueError):
        Task("Bad Family", "x", "1.0.0", "integer", "c", "d", "m:a")
    with pytest.raises(ValueError):
        Task("f", "x", "1.0", "integer", "c", "d", "m:a")
    with pytest.raises(ValueError):
        Task("f", "x", "1.0.0", "colour", "c", "d", "m:a")
    with pytest.raises(ValueError):
        Score(1.5)
    with pytest.raises(ValueError, match="not one of the option letters"):
        Problem("q", "E", (10, 10), options=("a", "b"), answer_type="option")


@given(st.text(max_size=20), st.integers(0, 2**40), st.integers(0, 10**6))
def test_item_random_is_a_pure_function_of_identity(task, seed, index):
    a = ItemRandom(task, "1.0.0", seed, index).rng.integers(0, 2**62, 4)
    b = ItemRandom(task, "1.0.0", seed, index).rng.integers(0, 2**62, 4)
    assert np.array_equal(a, b)
    c = ItemRandom(task, "1.0.1", seed, index).rng.integers(0, 2**62, 4)
    assert not np.array_equal(a, c)


def test_streams_ignore_the_index_but_not_the_key():
    one, two = ItemRandom("t/x", "1.0.0", 1, 0), ItemRandom("t/x", "1.0.0", 1, 5)
    assert one.stream("backbone", 3).random() == two.stream("backbone", 3).random()
    assert one.stream("backbone", 3).random() != one.stream("backbone", 4).random()
    assert derive_seed("a", 1) != derive_seed("a1")


@given(st.integers(2, 7), st.integers(0, 50))
def test_balanced_choices_are_exactly_uniform_per_block(count, block):
    random = ItemRandom("t/x", "1.0.0", 3, 0)
    values = [random.balanced(count, "answer", position=block * count + k) for k in range(count)]
    assert sorted(values) == list(range(count))
