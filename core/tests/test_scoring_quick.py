"""The scorer's shortcuts (issue 12) give what the general parser gives.

* A final text that is only a letter or an integer -- bare, ``\\boxed{}``, ``<answer>`` tags, ``Answer:`` -- is
  read by one regular expression instead of the general parser.
* A response is remembered by its final text (what follows its reasoning, the only part any parser reads), so
  responses that differ in their reasoning alone are parsed once.
* ``reward()`` works out only the components its combination weighs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_core import reward, reward_components, scoring
from bench_core.rewards import REWARD_COMBINATIONS, combine
from bench_core.scoring import _prepare_gold, _quick, _score, final_text, score_response

FIXTURES = Path(__file__).parent / "fixtures"
LETTERS = [chr(c) for c in range(65, 91)] + [chr(c) for c in range(97, 123)]
INTEGERS = [str(i) for i in range(-12, 125)] + ["+5", "007", "-0", "00", "123456789012345678"]
FORMS = ["{x}", "\\boxed{{{x}}}", "\\boxed{{ {x} }}", "<answer>{x}</answer>", "<answer> {x}\t</answer>",
         "Answer: {x}", "Answer:{x}", "  \n{x}\n ", "\n\nAnswer: {x}\n", "\t\\boxed{{{x}}}\n\n",
         "\n<answer>{x}</answer>  "]


def _graded() -> list[tuple[dict, str]]:
    records = json.loads((FIXTURES / "graded_records.json").read_text())
    rows = [json.loads(line) for line in (FIXTURES / "graded_responses.jsonl").read_text().splitlines() if line]
    return [(records[r["item"]], r["response"]) for r in rows if r["item"] in records]


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_the_quick_reading_of_letters_is_the_parsers(mode):
    checked = 0
    for options in (None, ["x", "y"], ["p", "q", "r", "s"], ["A", "B", "C", "D"], [f"o{i}" for i in range(26)]):
        gold = _prepare_gold("option", "B", options, None)
        for x in LETTERS:
            for form in FORMS:
                response = form.format(x=x)
                quick = _quick("option", gold, response, options, mode)
                if quick is not None:
                    checked += 1
                    assert quick == _score("option", gold, response, options, None, None, 1e-6, mode), response
    assert checked > 900


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_the_quick_reading_of_integers_is_the_parsers(mode):
    checked = 0
    for options in (None, ["a", "b"]):
        for answer in ("7", "-2", "120", "1"):
            gold = _prepare_gold("integer", answer, options, None)
            for x in INTEGERS + LETTERS[:4]:
                for form in FORMS:
                    response = form.format(x=x)
                    quick = _quick("integer", gold, response, options, mode)
                    if quick is not None:
                        checked += 1
                        assert quick == _score("integer", gold, response, options, None, None, 1e-6, mode), response
    assert checked > 2000
    assert _quick("integer", 2, "2", ["a", "b"], "lenient") is None  # numbered options: their own parser


def test_what_the_quick_reading_leaves_to_the_parser():
    assert _quick("option", "B", "B.", None, "lenient") is None
    assert _quick("option", "B", "E", ["a", "b", "c"], "lenient") is None  # not a letter of these options
    assert _quick("option", "B", "7", None, "lenient") is None
    assert _quick("string", "b", "b", None, "lenient") is None
    assert _quick("option", "B", "Answer:  B" + " " * 80, None, "lenient") is None  # long: not worth a look


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_a_response_scores_as_its_final_text(mode):
    """Every graded response, behind reasoning of its own or not: ``score_response`` (which reads the final text
    and remembers it) gives what the general scorer gives on the whole response, remembered or not."""
    scoring._MEMO.clear()
    for record, response in _graded():
        options = record.get("options")
        vocabulary = record.get("vocabulary")
        if record["answer_type"] == "sequence" and not vocabulary:
            from bench_core.scorer import gold_vocabulary

            vocabulary = gold_vocabulary(record["answer"], options)
        args = dict(options=options, vocabulary=vocabulary, synonyms=record.get("synonyms"), mode=mode)
        plain = scoring._score_response(record["answer_type"], record["answer"], response, options, vocabulary,
                                        record.get("synonyms"), 1e-6, mode)
        for variant in (response, f"<think>draft of {len(response)}</think>{response}", response):
            assert score_response(record["answer_type"], record["answer"], variant, **args) == plain, variant


def test_final_text():
    assert final_text("<think>a</think>B") == "B"
    assert final_text("<think>a") == ""  # still reasoning: no answer
    assert final_text("no tags") == "no tags"
    assert final_text(None) is None and final_text(7) == 7
    assert final_text("\u25c1think\u25b7x\u25c1/think\u25b7 C") == " C"


@pytest.mark.parametrize("combination", [*REWARD_COMBINATIONS, {"format": 0.3, "partial": 0.7}, {"correct": 2.0}])
def test_rewards_weigh_only_what_they_need_and_agree_with_their_components(combination):
    for record, response in _graded()[::3]:
        for mode in ("strict", "lenient"):
            expected = combine(reward_components(record, response, mode=mode), combination)
            assert reward(record, response, mode=mode, combination=combination) == expected
