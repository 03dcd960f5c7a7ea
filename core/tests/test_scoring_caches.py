"""What the scorers remember (matchers, option profiles, statements, scored responses) never changes a score:
a response scored again, or after the caches are emptied, gives the same result, and a caller that changes a
result it was given changes nothing remembered."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bench_core import parsing, reward, score_record, scoring, statements
from bench_core.rewards import format_reward
from bench_core.scoring import _levenshtein, score_response

FIXTURES = Path(__file__).parent / "fixtures"
VOCABULARY = ["red square", "blue circle", "green star", "red circle", "yellow plus"]
SYNONYMS = {"crimson": "red", "ring": "circle"}


def _graded() -> list[tuple[dict, str]]:
    records = json.loads((FIXTURES / "graded_records.json").read_text())
    rows = [json.loads(line) for line in (FIXTURES / "graded_responses.jsonl").read_text().splitlines() if line]
    return [(records[r["item"]], r["response"]) for r in rows if r["item"] in records]


def _forget() -> None:
    scoring._MEMO.clear()
    statements._RECENT.clear()
    parsing._cached_matcher.cache_clear()
    from bench_core import choices

    choices._cached_profile.cache_clear()
    choices._cached_table.cache_clear()


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_scores_are_the_same_cold_warm_and_after_forgetting(mode):
    pairs = _graded()
    _forget()
    cold = [score_record(record, response, mode=mode).details for record, response in pairs]
    warm = [score_record(record, response, mode=mode).details for record, response in pairs]
    _forget()
    again = [score_record(record, response, mode=mode).details for record, response in reversed(pairs)][::-1]
    assert cold == warm == again
    assert [reward(record, response) for record, response in pairs] == [
        reward(record, response) for record, response in pairs]


def test_statements_found_once_for_both_modes_are_those_each_mode_finds():
    """The candidates remembered for a text are, in each mode, the ones that mode finds by itself."""
    for _, response in _graded():
        text = statements.strip_reasoning(response) or ""
        for mode in ("lenient", "strict"):
            remembered = statements._window_candidates(text, mode)
            found = statements._candidates(text, mode, 0, len(text))
            assert [c[:3] for c in remembered] == [c[:3] for c in found], (mode, response)


def test_a_changed_result_changes_nothing_remembered():
    text = "Answer: red square, crimson ring, green star"
    first = parsing.parse_sequence(text, VOCABULARY, SYNONYMS)
    assert first == ["red square", "red circle", "green star"]
    first.append("spoilt")
    assert parsing.parse_sequence(text, VOCABULARY, SYNONYMS) == ["red square", "red circle", "green star"]
    for _ in range(2):  # the second call is answered from the memo
        value, details = score_response("sequence", "red square, red circle", text, vocabulary=VOCABULARY,
                                        synonyms=SYNONYMS)
    details["parsed"].append("spoilt")
    details["gold"].clear()
    details["exact"] = 7
    _, again = score_response("sequence", "red square, red circle", text, vocabulary=VOCABULARY, synonyms=SYNONYMS)
    assert again["parsed"] == ["red square", "red circle", "green star"] and again["gold"] == ["red square",
                                                                                             "red circle"]
    assert again["exact"] == 0.0 and value == 0.0


def test_vocabularies_and_synonyms_that_cannot_be_hashed_still_score():
    text = "red square -> green star"
    assert parsing.parse_sequence(text, VOCABULARY, {"crimson": ["red"]}) == ["red square", "green star"]
    assert parsing.parse_sequence(text, [VOCABULARY[0], ["x"], VOCABULARY[2]]) == ["red square", "green star"]
    assert parsing.parse_sequence(text, 5) == []  # not a sequence: no answer, as before
    options = ["a rotation", ["not", "text"], "a translation"]
    assert parsing.parse_option("Answer: a translation", "ABC", options=options) == "C"


def test_a_synonym_set_in_another_order_is_its_own_matcher():
    """Synonyms are cached by their items in order: two mappings that differ only in order may match phrases
    differently (longest key first, then insertion order), so they are never confused."""
    forward = parsing._matcher(VOCABULARY, {"ring": "circle", "crimson ring": "red circle"})
    backward = parsing._matcher(VOCABULARY, {"crimson ring": "red circle", "ring": "circle"})
    assert forward is not backward
    assert forward is parsing._matcher(tuple(VOCABULARY), {"ring": "circle", "crimson ring": "red circle"})


def test_edit_distance_is_the_full_tables():
    def table(a, b):
        previous = list(range(len(b) + 1))
        for i, x in enumerate(a, 1):
            current = [i]
            for j, y in enumerate(b, 1):
                current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
            previous = current
        return previous[-1]

    rng = random.Random(4)
    for _ in range(3000):
        a = [rng.choice("abc") for _ in range(rng.randrange(9))]
        b = [rng.choice("abc") for _ in range(rng.randrange(9))]
        assert _levenshtein(a, b) == table(a, b), (a, b)


def test_format_reward_drops_the_whitespace_around_tag_characters_as_one_substitution_did():
    around = re.compile(r"\s*([<>/])\s*")
    rng = random.Random(5)
    alphabet = ["<", ">", "/", " ", "\n", "\t", "\u00a0", "think", "boxed{B}", "}", "x"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(14)))
        normalised = around.sub(r"\1", text)
        expected = 0.0
        if normalised.startswith("<think>"):
            close = normalised.rfind("</think>")
            if close >= len("<think>") and "<think>" not in normalised[close:]:
                expected = 1.0 if re.search(r"\\boxed\{.*\}", normalised[close + 8:], re.DOTALL) else 0.0
        assert format_reward(text) == expected, repr(text)
    assert format_reward("< think > a </ think > \\boxed{1}") == 1.0


def test_the_phrase_pattern_finds_what_the_plain_alternation_finds():
    """The lookahead in front of the answer phrases only turns down positions no phrase can start at."""
    plain = re.compile("|".join(f"(?:{p})" for p in statements._PHRASES), re.IGNORECASE)
    rng = random.Random(6)
    pieces = ["the answer is", "So", "\u017fo", "\u0130 choose", "\u0131 think", "; it is", "in total", "yes, 7",
              "which is option", "for a total of", "Total:", "final answer: B", "I'll go with", "thus there are",
              "3answer: 5", "that gives", "x", " ", "\n", ","]
    texts = [response for _, response in _graded()]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(14))) for _ in range(3000)]
    for text in texts:
        assert [m.span() for m in statements._PHRASE_RE.finditer(text)] == [m.span() for m in plain.finditer(text)]
