"""Rewards for RL training (issue 11): scoring records, components and combinations, the TRL / verl / EasyR1
adapters, scoring without the owning plugin, and ``bench_core.reward`` staying a function."""

from __future__ import annotations

import importlib
import json
import pkgutil

import pytest

import bench_core
from bench_core import (
    REWARD_COMBINATIONS,
    Item,
    completion_text,
    easyr1_compute_score,
    format_reward,
    make_trl_reward,
    reward_components,
    score,
    score_record,
    scoring_record,
    trl_reward,
    verl_compute_score,
)

MINIMAL = {"answer": "B", "answer_type": "option", "options": ["A", "B", "C", "D"]}
SEQUENCE = {"answer": "red square, blue star, green circle, purple plus", "answer_type": "sequence"}
NUMBERED = {"answer": "2", "answer_type": "integer", "options": ["Rotation 90 degrees clockwise",
                                                                  "Rotation 180 degrees", "No Change"]}
GOOD = "<think>The arm turns a quarter.</think>\nThe answer is \\boxed{B}."


def test_bench_core_reward_stays_a_function_whatever_is_imported():
    """Importing every submodule (as building an item does) leaves ``bench_core.reward`` the function."""
    for module in pkgutil.iter_modules(bench_core.__path__):
        importlib.import_module(f"bench_core.{module.name}")
    assert callable(bench_core.reward) and not isinstance(bench_core.reward, type(bench_core))
    assert bench_core.reward(MINIMAL, GOOD) == 1.0
    assert bench_core.reward(MINIMAL, GOOD) == 1.0  # the second call of the issue raised TypeError
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("bench_core.reward")


def test_a_minimal_record_is_enough():
    assert bench_core.reward(MINIMAL, "Answer: B") == 1.0
    assert bench_core.reward(MINIMAL, "The answer is B.") == 0.0  # strict by default: a phrase is not enough
    assert bench_core.reward(MINIMAL, "The answer is B.", mode="lenient") == 1.0
    assert score_record({"answer": "7", "answer_type": "integer"}, "\\boxed{7}").value == 1.0


@pytest.mark.parametrize(("record", "message"), [
    ({"answer_type": "option"}, r"scoring record lacks \['answer'\]"),
    ({"answer": "B", "answer_type": "choice"}, "answer_type 'choice'; allowed: option, integer"),
    ("not json", "must be JSON"),
    (42, "a scoring record is a mapping"),
])
def test_a_malformed_record_is_a_clear_error(record, message):
    with pytest.raises(ValueError, match=message):
        score_record(record, "B")


def test_responses_never_raise():
    for response in (None, 42, b"B", ["B"], "", "\x00" * 10, "<think>", "\\boxed{" * 1000):
        assert score_record(MINIMAL, response).value == 0.0
        assert reward_components(MINIMAL, response)["format"] == 0.0


def test_a_sequence_record_without_vocabulary_is_scored_against_its_answer():
    """Without the owning plugin, a sequence item used to raise (no vocabulary)."""
    assert score_record(SEQUENCE, "\\boxed{red square, blue star, green circle, purple plus}").value == 1.0
    result = score_record(SEQUENCE, "Answer: red square, blue star, pink hexagon, purple plus")
    assert result.value == 0.0 and result.details["edit_similarity"] == 0.75


def test_a_numbered_record_reads_words():
    """Without the owning plugin, a transformation item answered in words used to score 0 silently."""
    assert score_record(NUMBERED, "Answer: a rotation of 180\u00b0").value == 1.0
    assert score_record(NUMBERED, "Answer: 180").value == 1.0  # only option 2 has 180
    assert score_record(NUMBERED, "Answer: 90 degrees clockwise").value == 0.0


def test_score_falls_back_to_the_record_when_the_task_is_not_installed(toy_host):
    item = Item(id="gone.seq.0.000000", family="gone", task="seq", version="1.0.0", plugin={}, seed=0, index=0,
                params={}, variant=None, pair=None, question="q", options=None, answer=SEQUENCE["answer"],
                answer_type="sequence", images=(), image_sha256=(), metadata={})
    assert score(item, "red square, blue star, green circle, purple plus").value == 1.0


# ---------------------------------------------------------------------------------------------------------
# Components and combinations
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("response", "expected"), [
    ("<think>reasoning</think>\\boxed{B}", 1.0),
    ("<think>\nreasoning\n</think>\n\nThe answer is $\\boxed{B}$.", 1.0),
    ("< think >reasoning< /think >\\boxed{B}", 1.0),  # Qwen2.5-VL's spacing, as EasyR1 normalises it
    ("reasoning</think>\\boxed{B}", 0.0),  # no opening <think>
    ("<think>reasoning</think>B", 0.0),  # no box
    ("<think>\\boxed{B}</think>B", 0.0),  # the box inside the reasoning
    ("<think>a</think><think>b\\boxed{B}", 0.0),  # a block reopened after the last close
    (None, 0.0),
])
def test_format_reward_is_think_then_boxed(response, expected):
    assert format_reward(response) == expected


def test_partial_credit_is_edit_similarity_which_a_repetition_loop_cannot_max_out():
    gold = SEQUENCE["answer"].split(", ")
    loop = "Answer: " + ", ".join(gold * 5)  # every token in place for the first four positions, then repeats
    parts = reward_components(SEQUENCE, loop)
    details = score_record(SEQUENCE, loop).details
    assert details["token_accuracy"] == 1.0  # what token accuracy would have paid
    assert parts["correct"] == 0.0 and parts["partial"] == pytest.approx(0.2)
    one_off = "Answer: red square, blue star, purple plus, green circle"
    assert reward_components(SEQUENCE, one_off)["partial"] == pytest.approx(0.5)
    assert reward_components(SEQUENCE, "red square, blue star, green circle, purple plus")["partial"] == 0.0  # bare
    assert reward_components(MINIMAL, "Answer: C")["partial"] == 0.0  # other types: partial is correct


def test_named_combinations():
    parts = reward_components(MINIMAL, GOOD)
    assert parts == {"correct": 1.0, "format": 1.0, "partial": 1.0}
    assert bench_core.reward(MINIMAL, GOOD, combination="sphinx") == pytest.approx(1.0)
    assert bench_core.reward(MINIMAL, "Answer: B", combination="sphinx") == pytest.approx(0.9)
    assert bench_core.reward(MINIMAL, "<think>x</think>\\boxed{C}", combination="sphinx") == pytest.approx(0.1)
    assert bench_core.reward(MINIMAL, GOOD, combination={"correct": 0.5, "format": 0.5}) == 1.0
    assert REWARD_COMBINATIONS["sphinx"] == {"correct": 0.9, "format": 0.1}
    with pytest.raises(ValueError, match="unknown reward combination 'sphinks'; allowed: correct, sphinx"):
        bench_core.reward(MINIMAL, GOOD, combination="sphinks")
    with pytest.raises(ValueError, match="unknown reward components"):
        bench_core.reward(MINIMAL, GOOD, combination={"style": 1.0})


# ---------------------------------------------------------------------------------------------------------
# Adapters
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("completion", "text"), [
    ("plain", "plain"),
    ([{"role": "assistant", "content": "Answer: B"}], "Answer: B"),
    ([{"role": "user", "content": "q"}, {"role": "assistant", "content": "a1"}, {"role": "assistant",
                                                                                  "content": "a2"}], "a2"),
    ([{"role": "assistant", "content": [{"type": "text", "text": "Answer: "}, {"type": "image"},
                                        {"type": "text", "text": "B"}]}], "Answer: B"),
    ({"role": "assistant", "content": "x"}, "x"),
    ([], ""), (None, ""), ([1, 2], ""),
])
def test_completion_text_unwraps_conversations(completion, text):
    assert completion_text(completion) == text


def test_trl_reward_scores_strings_and_conversations():
    completions = ["\\boxed{B}", [{"role": "assistant", "content": "Answer: B"}], "The answer is B.",
                   [{"role": "assistant", "content": [{"type": "text", "text": "<answer>C</answer>"}]}]]
    records = [json.dumps(MINIMAL), MINIMAL, MINIMAL, MINIMAL]
    assert trl_reward(prompts=["p"] * 4, completions=completions, bench=records) == [1.0, 1.0, 0.0, 0.0]
    flat = {"answer": ["B"] * 4, "answer_type": ["option"] * 4, "options": [MINIMAL["options"]] * 4}
    assert trl_reward(["p"] * 4, completions, **flat) == [1.0, 1.0, 0.0, 0.0]
    assert trl_reward.__name__ == "bench_correct_strict"
    lenient = make_trl_reward(mode="lenient", combination="sphinx", column="record")
    assert lenient.__name__ == "bench_sphinx_lenient"
    assert lenient(None, [GOOD, "The answer is B."], record=[MINIMAL] * 2) == pytest.approx([1.0, 0.9])


def test_trl_reward_needs_the_record_column():
    with pytest.raises(ValueError, match=r"a dataset column 'bench' holding bench_core\.scoring_record"):
        trl_reward(["p"], ["B"], solution=["B"])
    with pytest.raises(ValueError, match="2 scoring records for 1 completions"):
        trl_reward(["p"], ["B"], bench=[MINIMAL, MINIMAL])
    with pytest.raises(ValueError, match="unknown scoring mode"):
        make_trl_reward(mode="loose")


def test_verl_compute_score_takes_the_record_as_ground_truth():
    assert verl_compute_score("bench", GOOD, MINIMAL) == 1.0
    assert verl_compute_score("bench", GOOD, json.dumps(MINIMAL), None) == 1.0
    assert verl_compute_score("bench", GOOD, "B", {"answer_type": "option", "options": ["A", "B"]}) == 1.0
    assert verl_compute_score("bench", GOOD, "B", {"bench": MINIMAL}) == 1.0
    assert verl_compute_score("bench", "Answer: B", MINIMAL, combination="sphinx") == pytest.approx(0.9)
    assert verl_compute_score(data_source="bench", solution_str=None, ground_truth=MINIMAL) == 0.0
    with pytest.raises(ValueError, match="verl_compute_score needs the scoring record"):
        verl_compute_score("bench", GOOD, "B", {"split": "train"})


def test_verl_reads_records_back_from_parquet_style_arrays():
    class Array(list):  # what parquet gives back for a list column: something with tolist()
        def tolist(self):
            return list(self)

    record = {**MINIMAL, "options": Array(MINIMAL["options"])}
    assert verl_compute_score("bench", GOOD, record) == 1.0


def test_easyr1_compute_score_batches_with_overall():
    inputs = [{"response": GOOD, "response_length": 20, "ground_truth": json.dumps(MINIMAL)},
              {"response": "Answer: B", "response_length": 3, "ground_truth": MINIMAL},
              {"response": "<think>x</think>\\boxed{A}", "response_length": 5, "ground_truth": MINIMAL}]
    scores = easyr1_compute_score(inputs)
    assert [set(s) for s in scores] == [{"overall", "format", "accuracy", "partial"}] * 3
    assert [s["overall"] for s in scores] == pytest.approx([1.0, 0.9, 0.1])
    assert [s["accuracy"] for s in scores] == [1.0, 1.0, 0.0]
    assert easyr1_compute_score(inputs[1], format_weight=0.5)["overall"] == pytest.approx(0.5)
    assert easyr1_compute_score(inputs, combination="correct")[0]["overall"] == 1.0
    with pytest.raises(ValueError, match="'response' and 'ground_truth'"):
        easyr1_compute_score([{"response": "B"}])


def test_scoring_record_of_an_item(toy_host):
    from bench_core import build_item

    built = build_item(toy_host, toy_host.task("toy/dots"), 0, 3, {})
    record = scoring_record(built.item)
    assert record == {"answer": built.item.answer, "answer_type": "integer", "options": None, "task": "toy/dots",
                      "version": "1.0.0"}
    json.dumps(record)
    assert bench_core.reward(built.item, f"\\boxed{{{built.item.answer}}}") == 1.0
    assert bench_core.reward(json.loads(built.item.to_json()), f"Answer: {built.item.answer}") == 1.0


def test_plain_records_reward_as_the_general_path():
    """A plain scoring record (the common case, read by ``reward`` without copying it) gets the reward the general
    path gives (``as_record``, then the components): every graded response, in both modes, and records whose values
    the general path converts (a tuple of options, empty options) or refuses."""
    from pathlib import Path

    from bench_core.rewards import _components, as_record, combine

    fixtures = Path(__file__).parent / "fixtures"
    records = list(json.loads((fixtures / "graded_records.json").read_text()).values())
    records += [MINIMAL, SEQUENCE, NUMBERED, {**MINIMAL, "options": ()}, {**MINIMAL, "options": tuple("ABCD")},
                {**MINIMAL, "options": []}, {"answer": 7, "answer_type": "integer"},
                {**SEQUENCE, "vocabulary": ["red square", "blue star", "green circle", "purple plus", "cyan tri"],
                 "synonyms": {"crimson square": "red square"}},
                {"answer": "red, blue", "answer_type": "sequence", "options": ["red, blue", "blue, green"]},
                {"answer": "(3, 5)", "answer_type": "coordinate", "keywords": [["row"], ["column", "col"]]}]
    responses = [row["response"] for row in map(json.loads, (fixtures / "graded_responses.jsonl").read_text()
                                                .splitlines()[::7])]
    responses += [GOOD, "\\boxed{3}", "Answer: 2", "row 5, col 3", "crimson square, blue star",
                  "Answer: green, red, blue", None, 3, ["A"]]
    for record in records:
        for response in responses:
            for mode in ("strict", "lenient"):
                expected = combine(_components(as_record(record), response, mode, ("correct",)), "correct")
                got = bench_core.reward(record, response, mode=mode)
                assert type(got) is float and repr(got) == repr(expected), (record, response, mode)
    for bad, message in [({"answer": "B", "answer_type": "odd"}, "answer_type"), ({"answer_type": "option"}, "lacks"),
                         ({"answer": None, "answer_type": "option"}, "lacks")]:
        with pytest.raises(ValueError, match=message):
            bench_core.reward(bad, "B")
    with pytest.raises(ValueError, match="mode"):
        bench_core.reward(MINIMAL, "B", mode="loose")
