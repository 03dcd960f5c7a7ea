"""Tests for bench_core.scoring: per-answer-type default scorers and sequence metrics."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench_core.parsing import INVALID
from bench_core.scoring import ANSWER_TYPES, score_response, sequence_metrics

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VOCAB = ["red square", "blue circle", "green", "yellow star", "purple", "plus"]
SYNONYMS = {"violet": "purple", "cross": "plus", "+": "plus"}
OPTIONS = ["a red square", "a blue circle", "a green triangle", "nothing"]

CHATTER_WORDS = [
    "hmm",
    "let",
    "me",
    "think",
    "about",
    "this",
    "picture",
    "so",
    "we",
    "see",
    "that",
    "it",
    "is",
]
chatter = st.lists(st.sampled_from(CHATTER_WORDS), max_size=25).map(" ".join)
trailers = st.sampled_from(["", "Hope this helps!", "Other guesses like (A) or 42 were wrong."])
WRAPPERS = ["boxed", "answer_tags", "final_tags", "answer_line", "bold"]


def wrap(kind: str, gold: str, before: str, after: str) -> str:
    if kind == "boxed":
        return f"{before}\n$\\boxed{{{gold}}}$\n{after}"
    if kind == "answer_tags":
        return f"{before}\n<answer>{gold}</answer>\n{after}"
    if kind == "final_tags":
        return f"{before}\n<final_answer>{gold}</final_answer>\n{after}"
    if kind == "answer_line":
        return f"{before}\nAnswer: {gold}\n{after}"
    if kind == "bold":
        return f"{before}\n**Answer:** **{gold}**\n{after}"
    raise AssertionError(kind)


GOLDS = {
    "option": "C",
    "integer": "7",
    "number": "3.25",
    "coordinate": "(3, 5)",
    "sequence": "red square, green",
    "string": "Hello World",
}


def score(answer_type: str, gold: str, response: object, **kwargs: object) -> tuple[float, dict]:
    if answer_type == "sequence":
        kwargs.setdefault("vocabulary", VOCAB)
    result, details = score_response(answer_type, gold, response, **kwargs)
    assert 0.0 <= result <= 1.0
    assert "parsed" in details and isinstance(details["answered"], bool)
    json.dumps(details, allow_nan=False)
    return result, details


# ---------------------------------------------------------------------------------------------------
# sequence_metrics
# ---------------------------------------------------------------------------------------------------


def test_sequence_metrics_examples() -> None:
    assert sequence_metrics(["a", "b", "c"], ["a", "b", "c"]) == {
        "exact": 1.0,
        "token_accuracy": 1.0,
        "prefix_length": 3,
        "edit_similarity": 1.0,
        "answered": True,
        "length": 3,
    }
    m = sequence_metrics(["a", "x", "c", "d"], ["a", "b", "c"])
    assert m["exact"] == 0.0
    assert m["token_accuracy"] == pytest.approx(2 / 3)  # extra item ignored
    assert m["prefix_length"] == 1
    assert m["edit_similarity"] == pytest.approx(1 - 2 / 4)
    assert m["length"] == 4
    m = sequence_metrics(["a"], ["a", "b", "c"])
    assert m["token_accuracy"] == pytest.approx(1 / 3)  # missing positions wrong
    assert m["edit_similarity"] == pytest.approx(1 / 3)
    assert sequence_metrics([], [])["edit_similarity"] == 1.0
    assert sequence_metrics([], [])["exact"] == 1.0
    assert sequence_metrics([], ["a"])["answered"] is False
    assert sequence_metrics([INVALID, INVALID], ["a"])["answered"] is False
    assert sequence_metrics([INVALID, "a"], ["a"])["answered"] is True
    assert sequence_metrics(["b", "a"], ["a", "b"])["edit_similarity"] == 0.0
    assert sequence_metrics(("a", "b"), ["a", "b"])["exact"] == 1.0  # any sequence type


tokens = st.lists(st.sampled_from(["a", "b", "c", INVALID]), max_size=12)


@PROPERTY
@given(predicted=tokens, gold=tokens)
def test_sequence_metrics_properties(predicted: list[str], gold: list[str]) -> None:
    m = sequence_metrics(predicted, gold)
    for key in ("exact", "token_accuracy", "edit_similarity"):
        assert 0.0 <= m[key] <= 1.0
    assert 0 <= m["prefix_length"] <= len(gold)
    assert m["prefix_length"] <= m["token_accuracy"] * len(gold) + 1e-9
    assert m["length"] == len(predicted)
    assert m["answered"] == any(t != INVALID for t in predicted)
    if m["exact"] == 1.0:
        assert m["token_accuracy"] == 1.0
        assert m["prefix_length"] == len(gold)
        assert m["edit_similarity"] == 1.0
    assert (m["exact"] == 1.0) == (list(predicted) == list(gold))
    assert sequence_metrics(gold, gold)["exact"] == 1.0
    json.dumps(m)


# ---------------------------------------------------------------------------------------------------
# score_response examples
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer_type", "gold", "response", "expected"),
    [
        ("option", "C", "Answer: (C)", 1.0),
        ("option", "C", "\\boxed{c}", 1.0),
        ("option", "C", "B", 0.0),
        ("option", "C", "B or C", 0.0),
        ("option", "E", "I choose E", 1.0),
        ("integer", "7", "There are seven.", 1.0),
        ("integer", "7", "Answer: 7.0", 1.0),
        ("integer", "7", "Answer: 7.5", 0.0),
        ("integer", "1234", "1,234", 1.0),
        ("integer", "-3", "\u22123", 1.0),
        ("number", "3.25", "about 3.25", 1.0),
        ("number", "3.25", "13/4", 1.0),
        ("number", "3.25", "3.2500000001", 1.0),
        ("number", "3.25", "3.26", 0.0),
        ("number", "0.75", "75%", 0.0),  # percentages stay the number before %
        ("number", "1e-9", "0", 1.0),  # absolute tolerance
        ("coordinate", "(3, 5)", "x=3, y=5", 1.0),
        ("coordinate", "(3, 5)", "(5, 3)", 0.0),
        ("coordinate", "(3, 5)", "(3, 5, 0)", 0.0),
        ("coordinate", "(1, 2, 3)", "[1,2,3]", 1.0),
        ("sequence", "red square, green", "1. the red square\n2. Green", 1.0),
        ("sequence", "red square, green", "red square", 0.0),
        ("sequence", "purple, plus", "violet, +", 1.0),
        ("string", "Hello World", "Answer: **hello  world**.", 1.0),
        ("string", "Hello World", "hello", 0.0),
    ],
)
def test_score_examples(answer_type: str, gold: str, response: str, expected: float) -> None:
    result, details = score(answer_type, gold, response, synonyms=SYNONYMS)
    assert result == expected, details


def test_option_letters_follow_options() -> None:
    assert score("option", "D", "D", options=OPTIONS)[0] == 1.0
    result, details = score("option", "A", "E", options=OPTIONS)  # E is not an option here
    assert result == 0.0 and details["parsed"] is None
    with pytest.raises(ValueError, match="not one of"):
        score_response("option", "E", "E", options=OPTIONS)
    assert score("option", "H", "H")[0] == 1.0  # default letters A-H
    assert score("option", "H", "H", options=())[0] == 1.0  # empty options: unknown, defaults apply
    with pytest.raises(ValueError, match="at most 26"):
        score_response("option", "A", "A", options=["x"] * 27)


def test_option_quoting_the_option_text() -> None:
    result, details = score("option", "B", "The answer is: A Blue Circle.", options=OPTIONS)
    assert result == 1.0 and details["parsed"] == "B" and details["via"] == "text"
    assert score("option", "B", "a red square", options=OPTIONS)[0] == 0.0
    # Ambiguous text (matches two options) is not an answer.
    result, details = score("option", "A", "same", options=["same", "same", "other"])
    assert result == 0.0 and details["parsed"] is None
    # Without options there is no text matching.
    assert score("option", "B", "a blue circle")[1]["parsed"] is None


def test_sequence_details_and_errors() -> None:
    result, details = score("sequence", "red square, green, purple", "red square, purple, green, plus")
    assert result == 0.0
    assert details["parsed"] == ["red square", "purple", "green", "plus"]
    assert details["token_accuracy"] == pytest.approx(1 / 3)
    assert details["prefix_length"] == 1
    assert details["answered"] is True and details["length"] == 4
    with pytest.raises(ValueError, match="vocabulary"):
        score_response("sequence", "red, green", "red, green")
    with pytest.raises(ValueError, match="vocabulary"):
        score_response("sequence", "pink", "pink", vocabulary=VOCAB)
    assert score("sequence", "Red Square", "red square")[0] == 1.0  # gold matched case-insensitively


def test_unknown_answer_type() -> None:
    with pytest.raises(ValueError, match="option, integer, number, coordinate, sequence, string"):
        score_response("multiple-choice", "A", "A")


@pytest.mark.parametrize(
    ("answer_type", "gold"),
    [
        ("option", "AB"),
        ("integer", "3.5"),
        ("number", "abc"),
        ("coordinate", "none"),
        ("string", " "),
    ],
)
def test_malformed_gold_raises(answer_type: str, gold: str) -> None:
    with pytest.raises(ValueError):
        score_response(answer_type, gold, "A", vocabulary=VOCAB)


def test_answer_types_constant() -> None:
    assert ANSWER_TYPES == ("option", "integer", "number", "coordinate", "sequence", "string")


# ---------------------------------------------------------------------------------------------------
# Properties: gold round-trips through every wrapper; garbage never raises
# ---------------------------------------------------------------------------------------------------

gold_values = {
    "option": st.sampled_from("ABCDEFGH"),
    "integer": st.integers(-(10**9), 10**9).map(str),
    "number": st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False).map(repr),
    "coordinate": st.lists(st.integers(-500, 500), min_size=2, max_size=3).map(
        lambda v: "(" + ", ".join(map(str, v)) + ")"
    ),
    "sequence": st.lists(st.sampled_from(VOCAB), min_size=1, max_size=6).map(", ".join),
    "string": st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 ", min_size=1).filter(
        lambda s: s.strip() and "answer" not in s
    ),
}


@PROPERTY
@given(
    data=st.data(),
    answer_type=st.sampled_from(ANSWER_TYPES),
    kind=st.sampled_from(WRAPPERS),
    before=chatter,
    after=trailers,
)
def test_gold_in_any_wrapper_scores_one(
    data: st.DataObject, answer_type: str, kind: str, before: str, after: str
) -> None:
    gold = data.draw(gold_values[answer_type])
    result, details = score(answer_type, gold, wrap(kind, gold, before, after))
    assert result == 1.0, details
    assert details["answered"] is True


FRAGMENTS = [
    "<answer>", "</answer>", "\\boxed{", "}", "(", ")", "[", "]", "Answer:", "**", "```", "\n", " ", ",",
    "->", "1", "2.5", "-", "e", "/", "%", "A", "B", "or", "x=", "one", "\x00", "\ud800", "中", "red square",
    "9" * 40, "1e999", "nan",
]  # fmt: skip
garbage = st.one_of(
    st.text(),
    st.lists(st.sampled_from(FRAGMENTS), max_size=50).map("".join),
    st.binary(max_size=200).map(lambda b: b.decode("utf-8", errors="surrogateescape")),
    st.none(),
    st.binary(),
    st.integers(),
    st.floats(),
)


@PROPERTY
@given(answer_type=st.sampled_from(ANSWER_TYPES), response=garbage)
def test_arbitrary_response_never_raises(answer_type: str, response: object) -> None:
    result, details = score(answer_type, GOLDS[answer_type], response, options=None, synonyms=SYNONYMS)
    if not isinstance(response, str):
        assert result == 0.0 and details["answered"] is False and details["parsed"] in (None, [])


@PROPERTY
@given(response=garbage)
def test_arbitrary_response_with_options_never_raises(response: object) -> None:
    score("option", "B", response, options=OPTIONS)


@pytest.mark.parametrize("answer_type", ANSWER_TYPES)
@pytest.mark.parametrize(
    "response", [None, b"C", 7, 3.25, "", "\x00" * 100, "\ud800\udfff", "Answer:", "<answer></answer>"]
)
def test_degenerate_responses_score_zero(answer_type: str, response: object) -> None:
    result, details = score(answer_type, GOLDS[answer_type], response)
    assert result == 0.0
    assert details["answered"] is False


@pytest.mark.parametrize("answer_type", ANSWER_TYPES)
def test_huge_response_scores(answer_type: str) -> None:
    """2 MB of noise followed by the right answer still scores (no timing assertion)."""
    noise = "A or B (1, 2) 3/4 \\boxed{ <answer> red square, " * (2 * 1024 * 1024 // 48)
    result, _ = score(answer_type, GOLDS[answer_type], noise)
    assert result == 0.0
    result, details = score(
        answer_type, GOLDS[answer_type], noise + f"</answer><answer>{GOLDS[answer_type]}</answer>"
    )
    assert result == 1.0, details


def test_tolerance() -> None:
    assert score("number", "100", "100.5", tolerance=0.01)[0] == 1.0
    assert score("number", "100", "102", tolerance=0.01)[0] == 0.0
    assert score("coordinate", "(1, 2)", "(1.001, 2)", tolerance=0.01)[0] == 1.0
    assert math.isclose(score("number", "0.1", "1/10")[1]["parsed"], 0.1)


def test_by_field_falls_back_to_metadata_for_a_drawn_parameter():
    from bench_core.report import field_value
    from bench_core.types import Item

    item = Item(id="t.x.0.000000", family="t", task="x", version="1.0.0", plugin={}, seed=0, index=0,
                params={"tort_bin": None, "vertices": 9}, variant=None, pair=None, question="q", options=None,
                answer="1", answer_type="integer", images=(), image_sha256=(), metadata={"tort_bin": 3})
    assert field_value(item, "tort_bin", "c") == "3"
    assert field_value(item, "vertices", "c") == "9"
    assert field_value(item, "params.tort_bin", "c") == "null"
