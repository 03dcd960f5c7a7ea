"""One final-answer extractor for every answer type (issue 11): reasoning blocks, the last answer statement,
retractions, bare answers only where the response is the answer, and the lenient / strict modes.

Every pattern the issue reports is a case here with the grade a careful reader gives; hypothesis properties
generate reasoning that mentions other candidates before the final answer, and reasoning cut off before any.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench_core import parse_numbered_option, score_record
from bench_core.parsing import extract_final_answer, parse_integer, parse_option, parse_sequence
from bench_core.statements import strip_reasoning

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

LETTERS = {"answer": "A", "answer_type": "option", "options": ["A", "B", "C", "D"]}
COUNT = {"answer": "2", "answer_type": "integer"}
TRANSFORM = {"answer": "1", "answer_type": "integer", "options": [
    "Rotation 90 degrees clockwise", "Rotation 180 degrees", "Translation in X", "Translation in Y", "No Change"]}
COUNT_CHOICE = {"answer": "B", "answer_type": "option", "options": ["8", "9", "10", "7"]}
SEQUENCE = {"answer": "red square, blue star, green circle", "answer_type": "sequence",
            "synonyms": {"triangle": "tri"}}
VOCABULARY = ["red square", "blue star", "green circle", "purple plus", "orange tri"]


def grade(record: dict, response: str, mode: str = "lenient") -> float:
    return score_record(record, response, mode=mode).value


# (record, response, the grade a careful reader gives, what strict mode gives)
ISSUE_CASES = [
    # <think> is read: only the text after the last </think> counts
    (LETTERS, "<think>Comparing the cubes... So the answer is A.</think>\n\nB", 0, 0),
    (LETTERS, "<think>Comparing the cubes... So the answer is B.</think>\n\nA", 1, 0),
    (LETTERS, "<think>The arms match.</think>\n\\boxed{A}", 1, 1),
    (LETTERS, "<think>Option A keeps every colour, so the answer is A", 0, 0),  # unclosed: no answer
    # self-corrections: the last statement wins
    (LETTERS, "The answer is B. Wait - the red face in B is on the wrong side. The answer is A.", 1, 0),
    (LETTERS, "The answer is A. Wait - the red face in A is on the wrong side. The answer is B.", 0, 0),
    (COUNT, "Answer: 1\nHmm, I double counted one.\nCorrected answer: 2", 1, 1),
    (COUNT, "Answer: 2\nHmm, I missed one.\nCorrected answer: 3", 0, 0),
    # truncated responses without an answer statement have no answer
    (LETTERS, "Let me analyze each option. Option A: the cube faces", 0, 0),
    (COUNT, "Let me count the local maxima one by one.\n1. top left\n2", 0, 0),
    # integers are not "the last number anywhere"
    (COUNT, "2\n\nI initially saw 1, but a second peak is visible near the edge.", 1, 0),
    (COUNT, "There are 2 local maxima at (1, 3) and (4, 1).\n\nAnswer: 2", 1, 1),
    (COUNT, "The peaks are at (0.2, 0.8) and (0.5, 0.5).", 0, 0),
    (COUNT, "I see peaks at (1, 2) and (3, 4), that is", 0, 0),
    # transformations in words name the option, not option 90
    (TRANSFORM, "a rotation 90 degrees clockwise", 1, 0),
    (TRANSFORM, "Answer: a rotation of 90\u00b0 clockwise", 1, 1),
    (TRANSFORM, "Answer: rotation 90 degrees counter-clockwise", 0, 0),  # names no option
    (TRANSFORM, "<final_answer>1</final_answer>", 1, 1),
    (TRANSFORM, "1. Translation in X", 0, 0),  # the number and its text disagree
    # a choice answered with the option's content instead of its letter
    (COUNT_CHOICE, "\\boxed{9}", 1, 1),
    (COUNT_CHOICE, "There are 9 local maxima.", 1, 0),
    (COUNT_CHOICE, "Answer: (B) 10", 0, 0),  # the letter and its content disagree
    # sequences: a list on the first line and a justification below; "Final sequence:" on its own line
    (SEQUENCE, "red square, blue star, green circle\n\nI followed the line from the start; at the crossing "
               "near the blue star, it goes straight on.", 1, 0),
    (SEQUENCE, "I traced the line, checking each crossing.\n\nFinal sequence:\nred square\nblue star\ngreen circle",
     1, 0),
    (SEQUENCE, "\\boxed{red square, blue star, green circle}", 1, 1),
    (SEQUENCE, "Answer: red square, blue star, green circle\n\nWait, I took the wrong branch.", 0, 0),
]


@pytest.mark.parametrize(("record", "response", "careful", "strict"), ISSUE_CASES)
def test_each_pattern_of_the_issue_gets_the_grade_a_careful_reader_gives(record, response, careful, strict):
    assert grade(record, response) == careful
    assert grade(record, response, "strict") == strict


@pytest.mark.parametrize(("response", "expected"), [
    ("<think>A</think>B", "B"),
    ("<THINK>A</THINK>\n<think>B</think> C", "C"),
    ("reasoning only, the template opened the block</think>\nD", "D"),
    ("<think>unfinished", None),
    ("<think>a</think> text <think>reopened", None),
    ("no reasoning block", "no reasoning block"),
])
def test_only_the_text_after_the_last_closed_reasoning_block_counts(response, expected):
    text = strip_reasoning(response)
    assert (text.strip() if text is not None else None) == expected


@pytest.mark.parametrize(("response", "lenient", "strict"), [
    ("\\boxed{C}", "C", "C"),
    ("<answer>C</answer>", "C", "C"),
    ("Reasoning.\nAnswer: C", "C", "C"),
    ("**Final answer:** C", "C", "C"),
    ("The answer is C.", "C", None),  # a phrase, not a box, tag or Answer: line
    ("C", "C", None),  # bare
    ("I choose C", "C", None),
    ("<answer>C", "C", None),  # an unclosed tag
    ("\\boxed{C", "C", None),  # unbalanced braces
    ("\\boxed{C}\n\nHmm, wait: the answer is B.", "B", None),  # a later statement disagrees
    ("\\boxed{C}\n\nSo the answer is C.", "C", "C"),  # a later statement agrees
    ("\\boxed{C}\n\nWait, let me reconsider figure B, since its top", None, None),  # retracted
    ("\\boxed{B or C}", None, None),
])
def test_strict_mode_reads_only_boxes_tags_and_answer_lines(response, lenient, strict):
    assert parse_option(response, "ABCD") == lenient
    assert parse_option(response, "ABCD", mode="strict") == strict


def test_an_unknown_mode_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown scoring mode 'loose'; allowed: lenient, strict"):
        parse_option("A", mode="loose")


def test_numbered_options_read_words_and_numbers():
    options = TRANSFORM["options"]
    assert parse_numbered_option("3", options) == 3
    assert parse_numbered_option("The plot was translated along the y axis.", options) == 4
    assert parse_numbered_option("90 degrees clockwise", options) == 1
    assert parse_numbered_option("90", options) == 1  # a part only one option has
    assert parse_numbered_option("rotation", options) is None  # two options rotate
    assert parse_numbered_option("7", options) is None  # out of range, names nothing
    assert parse_numbered_option("Answer: 2", options, mode="strict") == 2


def test_a_choice_of_letters_ignores_options_that_are_the_letters_themselves():
    assert parse_option("Option B: the cube faces", "ABCD", options=["A", "B", "C", "D"]) is None
    assert parse_option("Option B: 9", "ABCD", options=["8", "9", "10", "7"]) == "B"  # B's own content


# ---------------------------------------------------------------------------------------------------------
# Properties: reasoning that mentions other candidates, then the final answer
# ---------------------------------------------------------------------------------------------------------

FILLER = ["Looking at the image", "Let me compare the figures", "The top panel shows the original",
          "Hmm", "I need to be careful here", "Comparing the colours"]  # fmt: skip


@st.composite
def letter_reasoning(draw, final: str) -> str:
    """Sentences that mention letters other than ``final`` (as claims, descriptions, doubts), in any order."""
    others = [c for c in "ABCD" if c != final]
    forms = ["Option {x} looks plausible", "{x} is mirrored", "Maybe the answer is {x}", "Figure ({x}) has an "
             "extra cube", "At first I thought {x}", "So the answer is {x}", "\\boxed{{{x}}} was my first guess"]
    sentences = draw(st.lists(st.tuples(st.sampled_from(forms), st.sampled_from(others)), min_size=1, max_size=6))
    text = ". ".join(form.format(x=x) for form, x in sentences)
    return draw(st.sampled_from(FILLER)) + ". " + text + "."


FINAL_FORMS = {
    "think-bare": ("<think>{r}</think>\n\n{f}", True, False),
    "think-boxed": ("<think>{r}</think>\nThe answer is \\boxed{{{f}}}.", True, True),
    "boxed": ("{r}\n\n\\boxed{{{f}}}", True, True),
    "answer-line": ("{r}\n\nAnswer: {f}", True, True),
    "tags": ("{r}\n<answer>{f}</answer>", True, True),
    "correction": ("{r} Wait, that is wrong. The correct answer is {f}.", True, False),
    "corrected-label": ("{r}\n\nCorrected answer: {f}", True, True),
}


@PROPERTY
@given(data=st.data(), final=st.sampled_from("ABCD"), form=st.sampled_from(sorted(FINAL_FORMS)))
def test_the_final_letter_wins_over_every_candidate_mentioned_before(data, final, form):
    template, lenient, strict = FINAL_FORMS[form]
    response = template.format(r=data.draw(letter_reasoning(final)), f=final)
    assert parse_option(response, "ABCD") == (final if lenient else None)
    assert parse_option(response, "ABCD", mode="strict") == (final if strict else None)


@PROPERTY
@given(data=st.data(), final=st.integers(1, 20), form=st.sampled_from(sorted(FINAL_FORMS)))
def test_the_final_count_wins_over_every_number_mentioned_before(data, final, form):
    numbers = data.draw(st.lists(st.integers(0, 40).filter(lambda n: n != final), min_size=1, max_size=5))
    reasoning = " ".join(f"At ({n}, {n + 1}) I see a peak; maybe {n} in total." for n in numbers)
    template, lenient, strict = FINAL_FORMS[form]
    response = template.format(r=reasoning, f=final)
    assert parse_integer(response) == (final if lenient else None)
    assert parse_integer(response, mode="strict") == (final if strict else None)


@PROPERTY
@given(data=st.data(), form=st.sampled_from(sorted(FINAL_FORMS)))
def test_the_final_sequence_wins_over_lists_mentioned_before(data, form):
    final = data.draw(st.permutations(VOCABULARY).map(list))
    earlier = data.draw(st.permutations(VOCABULARY).map(list).filter(lambda s: s != final))
    reasoning = f"My first trace gave {', '.join(earlier)}. Let me check the crossings again"
    template, lenient, strict = FINAL_FORMS[form]
    response = template.format(r=reasoning, f=", ".join(final))
    assert parse_sequence(response, VOCABULARY) == (final if lenient else [])
    assert parse_sequence(response, VOCABULARY, mode="strict") == (final if strict else [])


@PROPERTY
@given(data=st.data(), final=st.sampled_from("ABCD"), cut=st.floats(0.05, 0.95))
def test_reasoning_cut_off_before_any_statement_has_no_answer(data, final, cut):
    """A response truncated mid-reasoning (mentions of every option, the gold among them, no statement) gives
    no answer in either mode: neither the last letter nor the last number anywhere."""
    descriptions = [f"Option {c} shows the shape turned {d} degrees and the arm at position {n}"
                    for c, d, n in zip("ABCD", (90, 180, 270, 45), (3, 1, 4, 2), strict=True)]
    order = data.draw(st.permutations(descriptions))
    text = "Let me look at each option in turn. " + ". ".join(order) + " and the next"
    truncated = text[: max(40, int(len(text) * cut))]
    truncated = truncated.rstrip(" .")  # cut mid-sentence, as a length limit does
    assert parse_option(truncated, "ABCD") is None
    assert parse_integer(truncated) is None
    assert parse_option("<think>" + truncated, "ABCD") is None


@PROPERTY
@given(data=st.data(), final=st.sampled_from("ABCD"))
def test_strict_mode_never_answers_what_lenient_mode_does_not(data, final):
    """Strict mode accepts a subset of what lenient mode accepts, with the same value."""
    form = data.draw(st.sampled_from(sorted(FINAL_FORMS)))
    response = FINAL_FORMS[form][0].format(r=data.draw(letter_reasoning(final)), f=final)
    strict = parse_option(response, "ABCD", mode="strict")
    assert strict is None or strict == parse_option(response, "ABCD")


def test_extract_final_answer_has_modes():
    assert extract_final_answer("The answer is 7.") == "7"
    assert extract_final_answer("The answer is 7.", mode="strict") == ""
    assert extract_final_answer("Reasoning.\nAnswer: 7", mode="strict") == "7"


@pytest.mark.parametrize(("response", "expected"), [
    ("Answer: B\n\nThe answer is correct because the cube in A is mirrored.", "B"),
    ("Answer: B\n\nThe answer is correct.", "B"),
    ("Answer: B\n\nThis answer is right: A is a reflection.", "B"),
])
def test_a_sentence_about_the_answer_is_no_new_answer(response, expected):
    assert parse_option(response, "ABCD") == expected


def test_a_word_that_often_opens_such_a_sentence_is_still_a_text_answer():
    from bench_core.parsing import parse_string

    assert parse_string("Answer: right") == "right"
    assert parse_string("The answer is above.") == "above"
