"""Tests for bench_core.parsing: answer extraction and per-type parsers.

Example-based tests pin the supported formats; hypothesis properties check that a gold answer wrapped in
any supported way (boxed, tags, "Answer:" line, bold) surrounded by chatter parses back to the gold, and
that arbitrary, binary-looking or huge text never raises and yields a value of the right type or None.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bench_core.parsing import (
    INVALID,
    MAX_REGION_CHARS,
    coordinate_numbers,
    extract_final_answer,
    normalise_string,
    parse_coordinate,
    parse_integer,
    parse_number,
    parse_option,
    parse_sequence,
    parse_string,
)

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VOCAB = [
    "red square",
    "blue circle",
    "green triangle",
    "red",
    "blue",
    "green",
    "yellow",
    "plus",
    "light-blue",
]
SYNONYMS = {"triangle": "tri", "violet": "purple", "cross": "plus", "+": "plus", "sky blue": "light-blue"}
SHAPES = ["red", "blue", "green", "tri", "purple", "plus", "red tri", "light-blue"]

# ---------------------------------------------------------------------------------------------------
# Shared strategies: chatter that holds no answer-like material, and the supported wrappers.
# ---------------------------------------------------------------------------------------------------

CHATTER_WORDS = [
    "hmm", "let", "me", "think", "carefully", "about", "this", "picture", "shows", "several", "shapes",
    "so", "looking", "closely", "we", "see", "that", "it", "is", "clear", "now", "okay", "first",
]  # fmt: skip
chatter = st.lists(st.sampled_from(CHATTER_WORDS), max_size=30).map(" ".join)
# Text after the answer: may hold letters, numbers and brackets that must NOT be picked up.
trailers = st.sampled_from(
    [
        "",
        "Hope this helps!",
        "Other guesses like (A) or 42 were wrong.",
        "Note: 3.5, 7 and [1, 2] are distractors; B is tempting.",
        "Blue circle, red square? No.",
    ]
)


def wrap(kind: str, gold: str, before: str, after: str) -> str:
    """Embed ``gold`` in a response using one of the supported answer conventions."""
    if kind == "boxed":
        return f"{before}\nThe result is $\\boxed{{{gold}}}$.\n{after}"
    if kind == "answer_tags":
        return f"{before}\n<answer>{gold}</answer>\n{after}"
    if kind == "final_tags":
        return f"{before}\n<final_answer>\n{gold}\n</final_answer>\n{after}"
    if kind == "answer_line":
        return f"{before}\nAnswer: {gold}\n{after}"
    if kind == "bold":
        return f"{before}\n**Final answer:** **{gold}**\n{after}"
    raise AssertionError(kind)


WRAPPERS = ["boxed", "answer_tags", "final_tags", "answer_line", "bold"]
wrappers = st.sampled_from(WRAPPERS)

# Inputs that must never make a parser raise.
FRAGMENTS = [
    "<answer>", "</answer>", "<final_answer>", "</final_answer>", "\\boxed{", "\\fbox{", "{", "}", "(", ")",
    "[", "]", "Answer:", "**", "```", "\n", " ", ",", ";", "->", "→", "1", "2.5", "-", "−", "e", "E", "/",
    "%", "A", "a", "B", "or", "x=", "y=", "one", "twenty", "\x00", "\ud800", "é", "中", "\u200b", "$",
    "\\frac{", "10^", "×", ".", "'", '"', "red", "red square", "+", "9" * 50,
]  # fmt: skip
fragment_text = st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join)
binaryish = st.binary(max_size=300).map(lambda b: b.decode("utf-8", errors="surrogateescape"))
any_text = st.one_of(st.text(), fragment_text, binaryish, st.text(alphabet=st.characters(codec="utf-8")))
non_strings = st.one_of(st.none(), st.binary(), st.integers(), st.floats(), st.lists(st.text()))


def check_types(response: object) -> None:
    region = extract_final_answer(response)
    assert isinstance(region, str)
    assert len(region) <= MAX_REGION_CHARS
    option = parse_option(response, "ABCDEF")
    assert option is None or option in "ABCDEF"
    integer = parse_integer(response)
    assert integer is None or (isinstance(integer, int) and not isinstance(integer, bool))
    number = parse_number(response)
    assert number is None or (isinstance(number, float) and math.isfinite(number))
    point = parse_coordinate(response)
    assert point is None or (
        len(point) == 2 and all(isinstance(v, float) and math.isfinite(v) for v in point)
    )
    sequence = parse_sequence(response, VOCAB, SYNONYMS)
    assert isinstance(sequence, list) and all(t in VOCAB or t == INVALID for t in sequence)
    text = parse_string(response)
    assert text is None or (isinstance(text, str) and text)
    json.dumps([option, integer, number, point, sequence, text])


# ---------------------------------------------------------------------------------------------------
# extract_final_answer
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("<answer>C</answer>", "C"),
        ("<answer>A</answer> on reflection <answer>B</answer>", "B"),
        ("<final_answer>B</final_answer> <answer>C</answer>", "C"),  # the last statement wins (issue 11)
        ("<answer>C</answer> <final_answer>D</final_answer> <answer>E</answer>", "E"),
        ("<ANSWER> yes </Answer>", "yes"),
        ("< final_answer >42</ final_answer >", "42"),
        ("reasoning... <final_answer> 42 apples", "42 apples"),
        ("reasoning <answer>", ""),  # an empty tag is no answer
        ("<answer> </answer> so \\boxed{5}", "5"),
        ("Use <answer></answer> tags. Answer: 7", "7"),
        ("<answer>The answer is \\boxed{B}</answer>", "B"),
        ("<answer>I believe the answer is D.</answer>", "D"),
        ("so $\\boxed{12}$", "12"),
        ("\\boxed{3} then \\boxed{4}", "4"),
        ("\\boxed{\\frac{1}{2}}", "\\frac{1}{2}"),
        ("\\boxed{ {a}, {b} }", "{a}, {b}"),
        ("\\fbox{7}", "7"),
        ("\\boxed{\\text{red}}", "red"),
        ("unbalanced \\boxed{5", "5"),
        ("Answer: 5", "5"),
        ("Thinking.\nFinal answer: (3, 4)\nDone.", "(3, 4)"),
        ("**Answer:** B", "B"),
        ("**Answer**: B", "B"),
        ("The answer is D.", "D"),
        ("Some text\nFinal Answer - c", "c"),
        ("ANSWER = 12", "12"),
        ("- answer: blue", "blue"),
        ("## Final Answer\n\nred, blue", "red, blue"),
        ("Answer:\n1. red\n2. blue", "1. red\n2. blue"),
        ("Answer: 1\nAnswer: 2", "2"),
        ("Answer: The answer is 9", "9"),
        ("So the answer is 4, clearly.", "4, clearly"),
        ("Let me think about the answer: it is ... final answer: 8", "8"),
        ("```\nred, blue\n```", "red, blue"),
        ('```json\n["a", "b"]\n```', '["a", "b"]'),
        ("```B```", "B"),
        ('"B"', "B"),
        ("\u201cB\u201d", "B"),
        ("**B**.", "B"),
        ("*italic*", "italic"),
        ("  plain text.  ", "plain text"),
        ("$x = 3$", "x = 3"),
        ("", ""),
    ],
)
def test_extract_final_answer_examples(response: str, expected: str) -> None:
    assert extract_final_answer(response) == expected


@pytest.mark.parametrize("response", [None, b"Answer: B", 42, 3.5, ["B"], object()])
def test_extract_non_string_is_empty(response: object) -> None:
    assert extract_final_answer(response) == ""


def test_extract_caps_region_to_tail() -> None:
    text = "x" * (3 * MAX_REGION_CHARS) + " END"
    region = extract_final_answer(text)
    assert len(region) <= MAX_REGION_CHARS and region.endswith("END")


@PROPERTY
@given(before=chatter, after=trailers, first=st.integers(0, 99), second=st.integers(100, 999))
def test_last_of_two_boxed_answers_wins(before: str, after: str, first: int, second: int) -> None:
    response = f"{before} \\boxed{{{first}}} hmm, correction: \\boxed{{{second}}} {after}"
    assert extract_final_answer(response) == str(second)
    assert parse_integer(response) == second
    assert parse_number(response) == float(second)


@PROPERTY
@given(first=st.sampled_from("ABCD"), second=st.sampled_from("ABCD"), before=chatter)
def test_last_of_two_boxed_options_wins(first: str, second: str, before: str) -> None:
    assert parse_option(f"{before} \\boxed{{{first}}} or rather \\boxed{{{second}}}") == second


# ---------------------------------------------------------------------------------------------------
# parse_option
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("B", "B"),
        ("b", "B"),
        ("(b)", "B"),
        ("b)", "B"),
        ("[B]", "B"),
        ("B.", "B"),
        ("Option B", "B"),
        ("option (d)", "D"),
        ("Choice: C", "C"),
        ("Answer: (C)", "C"),
        ("the answer is D.", "D"),
        ("**B**", "B"),
        ("B. the red one", "B"),
        ("C) 42 shapes", "C"),
        ("(A) because (B) is wrong", "A"),
        ("\\boxed{C}", "C"),
        ("\\boxed{\\text{C}}", "C"),
        ("<answer>E</answer>", "E"),
        ("Answer: F", "F"),
        ("I think it is E", "E"),
        ("Looking at the image, I see a red square. The answer must be C.", "C"),
        ("A", "A"),
        ("A.", "A"),
        ("(a)", "A"),
        ("A is correct", "A"),
        ("Final answer: a", "A"),
        ("C (the blue one)", "C"),
        ("A square is drawn. Answer: B", "B"),
    ],
)
def test_parse_option_examples(response: str, expected: str) -> None:
    assert parse_option(response, "ABCDEF") == expected


@pytest.mark.parametrize(
    "response",
    [
        "A or B",
        "Answer: A or B",
        "(A) or (B)",
        "A/B",
        "Options A and B are both wrong",
        "A square is drawn",
        "A triangle and a circle",
        "I think so",
        "Not sure, maybe B but possibly C",
        "",
        "   ",
        "Answer: ",
        "42",
        "none of them",
    ],
)
def test_parse_option_rejects(response: str) -> None:
    assert parse_option(response, "ABCDEF") is None


def test_parse_option_respects_letters() -> None:
    assert parse_option("E", "ABCD") is None
    assert parse_option("Answer: (E)", "ABCDEF") == "E"
    assert parse_option("F", "abcdef") == "F"
    assert parse_option("B", "") is None
    assert parse_option("B", ["A", "B"]) == "B"
    assert parse_option("I", "ABCDEFGHI") == "I"
    assert parse_option("I think the answer is H", "ABCDEFGHI") == "H"


OPTION_FORMS = ["{L}", "({L})", "{l})", "[{L}]", "Option {L}", "{L}. the one in the middle", "({l})", "{l}"]


@PROPERTY
@given(
    n=st.integers(2, 8),
    data=st.data(),
    form=st.sampled_from(OPTION_FORMS),
    kind=wrappers,
    before=chatter,
    after=trailers,
)
def test_option_roundtrip_in_every_wrapper(
    n: int, data: st.DataObject, form: str, kind: str, before: str, after: str
) -> None:
    letters = "ABCDEFGH"[:n]
    gold = data.draw(st.sampled_from(letters))
    response = wrap(kind, form.format(L=gold, l=gold.lower()), before, after)
    assert parse_option(response, letters) == gold


@PROPERTY
@given(gold=st.sampled_from("BCDEFGH"), before=chatter)
def test_option_bare_bold_at_end(gold: str, before: str) -> None:
    assert parse_option(f"{before}\n\n**{gold}**", "ABCDEFGH") == gold


# ---------------------------------------------------------------------------------------------------
# parse_integer / parse_number
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("7", 7),
        ("-7", -7),
        ("+7", 7),
        ("\u22127", -7),
        ("1,234", 1234),
        ("1,234,567", 1234567),
        ("three", 3),
        ("Twelve", 12),
        ("TWENTY", 20),
        ("zero", 0),
        ("twenty-one", 21),
        ("3.0", 3),
        ("3.5", None),
        ("3/4", None),
        ("There are 3 circles and 4 squares, 7 in total", None),  # not "the last number anywhere" (issue 11)
        ("I counted 5 at first. Answer: 6", 6),
        ("Answer: 5 (five)", 5),
        ("\\boxed{1{,}234}", 1234),
        ("the red one", None),
        ("Answer: 4, the big one", 4),
        ("one of them", None),
        ("Answer: one", 1),
        ("50%", 50),
        ("1e3", 1000),
        ("no numbers here", None),
        ("", None),
        ("9" * 1000, None),
    ],
)
def test_parse_integer_examples(response: str, expected: int | None) -> None:
    assert parse_integer(response) == expected


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("3.25", 3.25),
        (".5", 0.5),
        ("-0.5", -0.5),
        ("\u22122.5", -2.5),
        ("+3", 3.0),
        ("1,234.5", 1234.5),
        ("1.5e-3", 0.0015),
        ("2E5", 200000.0),
        ("3 \\times 10^{5}", 300000.0),
        ("3\u00d710^5", 300000.0),
        ("3/4", 0.75),
        ("-3/4", -0.75),
        ("\\frac{3}{4}", 0.75),
        ("$-\\dfrac{1}{2}$", -0.5),
        ("75%", 75.0),
        ("about 3.14159", 3.14159),
        ("first 2 then 3.5", None),  # no statement, not a bare number (issue 11)
        ("seven", 7.0),
        ("nan", None),
        ("inf", None),
        ("1e999", None),
        ("1/0", None),
        ("", None),
    ],
)
def test_parse_number_examples(response: str, expected: float | None) -> None:
    assert parse_number(response) == expected


INTEGER_FORMS = ["{n}", "{n:,}", "{n}.0", "{n} items"]
NUMBER_WORDS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen",
]  # fmt: skip


@PROPERTY
@given(
    n=st.integers(-(10**12), 10**12),
    form=st.sampled_from(INTEGER_FORMS),
    kind=wrappers,
    before=chatter,
    after=trailers,
)
def test_integer_roundtrip_in_every_wrapper(n: int, form: str, kind: str, before: str, after: str) -> None:
    assert parse_integer(wrap(kind, form.format(n=n), before, after)) == n


@PROPERTY
@given(n=st.integers(0, 14), kind=wrappers, before=chatter, after=trailers, upper=st.booleans())
def test_integer_words_roundtrip(n: int, kind: str, before: str, after: str, upper: bool) -> None:
    word = NUMBER_WORDS[n].upper() if upper else NUMBER_WORDS[n]
    assert parse_integer(wrap(kind, word, before, after)) == n


@PROPERTY
@given(n=st.integers(-(10**6), 10**6), frac=st.integers(1, 9), before=chatter)
def test_integer_rejects_non_integral_decimal(n: int, frac: int, before: str) -> None:
    assert parse_integer(f"{before} Answer: {n}.{frac}") is None


@PROPERTY
@given(
    x=st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False),
    kind=wrappers,
    before=chatter,
    after=trailers,
)
def test_number_roundtrip_in_every_wrapper(x: float, kind: str, before: str, after: str) -> None:
    parsed = parse_number(wrap(kind, repr(x), before, after))
    assert parsed is not None and math.isclose(parsed, x, rel_tol=1e-12, abs_tol=1e-300)


@PROPERTY
@given(p=st.integers(-50, 50), q=st.integers(1, 50), kind=wrappers, before=chatter)
def test_number_fraction_roundtrip(p: int, q: int, kind: str, before: str) -> None:
    parsed = parse_number(wrap(kind, f"{p}/{q}", before, ""))
    assert parsed is not None and math.isclose(parsed, float(Fraction(p, q)))


@PROPERTY
@given(x=st.floats(min_value=1e-300, max_value=1e300), kind=wrappers)
def test_number_scientific_roundtrip(x: float, kind: str) -> None:
    parsed = parse_number(wrap(kind, f"{x:.6e}", "", ""))
    assert parsed is not None and math.isclose(parsed, float(f"{x:.6e}"))


# ---------------------------------------------------------------------------------------------------
# parse_coordinate
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "dims", "expected"),
    [
        ("(3, 5)", 2, (3.0, 5.0)),
        ("[3,5]", 2, (3.0, 5.0)),
        ("3, 5", 2, (3.0, 5.0)),
        ("x=3, y=5", 2, (3.0, 5.0)),
        ("y = 5, x = 3", 2, (3.0, 5.0)),
        ("(3; 5)", 2, (3.0, 5.0)),
        ("(-1.5, \u22122)", 2, (-1.5, -2.0)),
        ("(100,200)", 2, (100.0, 200.0)),
        ("\u27e83, 5\u27e9", 2, (3.0, 5.0)),
        ("\\left(3, 5\\right)", 2, (3.0, 5.0)),
        ("From (1, 2) we move to (3, 5).", 2, (3.0, 5.0)),
        ("Answer: (3, 5) (approximately)", 2, (3.0, 5.0)),
        ("(1, 2, 3)", 3, (1.0, 2.0, 3.0)),
        ("x=1, y=2, z=3", 3, (1.0, 2.0, 3.0)),
        ("(1/2, 3/4)", 2, (0.5, 0.75)),
        ("(1, 2, 3)", 2, None),
        ("(3)", 2, None),
        ("3", 2, None),
        ("x=3, y=5, and then 7", 2, (3.0, 5.0)),
        ("no coordinate", 2, None),
        ("(3, 5)", 0, None),
        ("", 2, None),
    ],
)
def test_parse_coordinate_examples(response: str, dims: int, expected: tuple[float, ...] | None) -> None:
    assert parse_coordinate(response, dims) == expected


def test_coordinate_numbers() -> None:
    assert coordinate_numbers("(3, -5.5)") == [3.0, -5.5]
    assert coordinate_numbers(None) == []


coordinate_values = st.one_of(
    st.integers(-1000, 1000).map(float),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False),
)
COORD_FORMS = ["({})", "[{}]", "{}"]


@PROPERTY
@given(
    values=st.lists(coordinate_values, min_size=2, max_size=3),
    form=st.sampled_from(COORD_FORMS),
    sep=st.sampled_from([", ", ",", "; "]),
    kind=wrappers,
    before=chatter,
    after=st.sampled_from(["", "Hope this helps!", "Other guesses like (9, 9) were wrong."]),
)
def test_coordinate_roundtrip_in_every_wrapper(
    values: list[float], form: str, sep: str, kind: str, before: str, after: str
) -> None:
    text = form.format(sep.join(repr(v) for v in values))
    parsed = parse_coordinate(wrap(kind, text, before, after), dims=len(values))
    assert parsed is not None and all(
        math.isclose(p, v, rel_tol=1e-12) for p, v in zip(parsed, values, strict=True)
    )


# ---------------------------------------------------------------------------------------------------
# parse_sequence
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("red, blue, green", ["red", "blue", "green"]),
        ("Red, BLUE , green.", ["red", "blue", "green"]),
        ("red square, blue, the green triangle", ["red square", "blue", "green triangle"]),
        ('["red", "blue"]', ["red", "blue"]),
        ("['red', 'blue']", ["red", "blue"]),
        ('```json\n["red", "blue"]\n```', ["red", "blue"]),
        ("1. red\n2. blue\n3. green", ["red", "blue", "green"]),
        ("1) red\n2) blue", ["red", "blue"]),
        ("(1) red\n(2) blue", ["red", "blue"]),
        ("- red\n- blue\n* green", ["red", "blue", "green"]),
        ("Answer:\n1. **red**\n2. blue", ["red", "blue"]),
        ("red; blue; green", ["red", "blue", "green"]),
        ("red -> blue -> green", ["red", "blue", "green"]),
        ("red \u2192 blue\u2192green", ["red", "blue", "green"]),
        ("red, blue,", ["red", "blue"]),
        ("red, , blue", ["red", "blue"]),
        ("red, pink, blue", ["red", INVALID, "blue"]),
        ("red and blue, green", [INVALID, "green"]),
        ("light-blue, light blue", ["light-blue", "blue"]),  # "light" alone is not a token
        ("Answer: red, blue", ["red", "blue"]),
        ("\\boxed{red, blue}", ["red", "blue"]),
        ("<answer>yellow, red</answer>", ["yellow", "red"]),
        ("", []),
        ("   ", []),
    ],
)
def test_parse_sequence_examples(response: str, expected: list[str]) -> None:
    assert parse_sequence(response, VOCAB) == expected


def test_parse_sequence_synonyms() -> None:
    response = "red triangle, violet, +, cross, sky blue, Triangle"
    assert parse_sequence(response, SHAPES, SYNONYMS) == [
        "red tri",
        "purple",
        "plus",
        "plus",
        "light-blue",
        "tri",
    ]


def test_parse_sequence_keeps_vocabulary_spelling() -> None:
    assert parse_sequence("RED, blue", ["Red", "Blue"]) == ["Red", "Blue"]


def test_parse_sequence_numbers_as_vocabulary() -> None:
    digits = [str(i) for i in range(10)]
    assert parse_sequence("1. 3\n2. 5\n3. 7", digits) == ["3", "5", "7"]
    assert parse_sequence("[3, 5, 7]", digits) == ["3", "5", "7"]


def test_parse_sequence_length_is_not_enforced() -> None:
    assert parse_sequence("red, blue, green", VOCAB, length=2) == ["red", "blue", "green"]
    assert parse_sequence("red", VOCAB, length=3) == ["red"]


@pytest.mark.parametrize("response", [None, b"red, blue", 7])
def test_parse_sequence_non_string(response: object) -> None:
    assert parse_sequence(response, VOCAB) == []


SEQ_VOCAB = ["red square", "blue circle", "green", "yellow star", "purple", "plus"]


def render_sequence(tokens: list[str], style: str) -> str:
    if style == "comma":
        return ", ".join(tokens)
    if style == "json":
        return json.dumps(tokens)
    if style == "arrow":
        return " -> ".join(tokens)
    if style == "numbered":
        return "\n".join(f"{i}. {t}" for i, t in enumerate(tokens, 1))
    if style == "fancy":
        return ", ".join(f"the {t.upper()}" for t in tokens)
    raise AssertionError(style)


@PROPERTY
@given(
    tokens=st.lists(st.sampled_from(SEQ_VOCAB), min_size=2, max_size=8),
    style=st.sampled_from(["comma", "json", "arrow", "numbered", "fancy"]),
    kind=wrappers,
    before=chatter,
    after=trailers,
)
def test_sequence_roundtrip_in_every_wrapper(
    tokens: list[str], style: str, kind: str, before: str, after: str
) -> None:
    # Multi-line answers cannot follow an "Answer:" label on the same line.
    assume(not (style == "numbered" and kind in ("answer_line", "bold")))
    assert parse_sequence(wrap(kind, render_sequence(tokens, style), before, after), SEQ_VOCAB) == tokens


@PROPERTY
@given(tokens=st.lists(st.sampled_from(SEQ_VOCAB), min_size=2, max_size=8), before=chatter)
def test_sequence_bare_bold_at_end(tokens: list[str], before: str) -> None:
    assert parse_sequence(f"{before}\n\n**{', '.join(tokens)}**", SEQ_VOCAB) == tokens


# ---------------------------------------------------------------------------------------------------
# parse_string
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ('  **"Hello   World"**. ', "hello world"),
        ("Answer: Paris!", "paris"),
        ("\\boxed{Zebra}", "zebra"),
        ("ﬁne", "fine"),  # NFKC
        ("a\x00b\u200bc", "abc"),
        ("C++", "c++"),
        ("", None),
        ("  ...  ", None),
        ("\x00\ud800", None),
    ],
)
def test_parse_string_examples(response: str, expected: str | None) -> None:
    assert parse_string(response) == expected


string_golds = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ", min_size=1
).filter(lambda s: s.strip() and "answer" not in s.casefold())


@PROPERTY
@given(gold=string_golds, kind=wrappers, before=chatter, after=trailers)
def test_string_roundtrip_in_every_wrapper(gold: str, kind: str, before: str, after: str) -> None:
    assert parse_string(wrap(kind, gold, before, after)) == normalise_string(gold)


# ---------------------------------------------------------------------------------------------------
# Robustness
# ---------------------------------------------------------------------------------------------------


@PROPERTY
@given(response=any_text)
def test_arbitrary_text_never_raises(response: str) -> None:
    check_types(response)


@FEW
@given(response=non_strings)
def test_non_strings_are_no_answer(response: object) -> None:
    assert extract_final_answer(response) == ""
    assert parse_option(response) is None
    assert parse_integer(response) is None
    assert parse_number(response) is None
    assert parse_coordinate(response) is None
    assert parse_sequence(response, VOCAB) == []
    assert parse_string(response) is None


@FEW
@given(unit=fragment_text.filter(bool), repeat=st.integers(1000, 20000))
def test_long_repetitive_text_never_raises(unit: str, repeat: int) -> None:
    check_types(unit * repeat)


HUGE = 2 * 1024 * 1024


@pytest.mark.parametrize(
    "unit",
    [
        "a",
        "\n",
        "9",
        "1,",
        "(",
        "{",
        "\\boxed{",
        "<answer>",
        "<final_answer> ",
        "Answer:\n",
        "answer is ",
        "A or B ",
        "x=",
        "\ud800\x00\u200b\u4e2d",
        "<answer>\\boxed{ (1, 2) Answer: A or B, red -> blue; 3/4 1e5 \u2212 ",
    ],
)
def test_huge_input_completes(unit: str) -> None:
    """A 2 MB response of one repeated unit is handled (no timing assertion; catastrophic backtracking
    would make this test hang)."""
    response = unit * (HUGE // len(unit))
    check_types(response)
    check_types(response + "\nAnswer: (C)")
    assert parse_option(response + "\n<answer>C</answer>", "ABCD") == "C"


SEQUENCE_VOCABULARY = ["red square", "blue star", "green circle", "purple plus"]


@pytest.mark.parametrize("preamble", [
    "Following the line from the start, the markers are: ",
    "Final sequence:\n",
    "Answer: Following the path, I pass: ",
    "The order, from START to the far end: ",
    "Sequence (start to end):\n\n",
])
def test_a_sequence_after_a_preamble_keeps_every_token_in_place(preamble):
    from bench_core.parsing import parse_sequence

    gold = ["red square", "blue star", "green circle", "purple plus"]
    assert parse_sequence(preamble + ", ".join(gold), SEQUENCE_VOCABULARY) == gold
    if not preamble.startswith("Answer:"):  # an inline "Answer:" label ends its answer at the line's end
        assert parse_sequence(preamble + "\n".join(gold), SEQUENCE_VOCABULARY) == gold


# Preambles models write before a sequence answer (issue 10): an opener, a clause introducing the list, and
# what ends it (a colon, a line break, a dash, or nothing), before a list in any supported layout.
PREAMBLE_COLOURS = ["red", "blue", "green", "orange", "yellow", "cyan", "purple", "brown"]
PREAMBLE_VOCABULARY = [f"{c} {s}" for c in PREAMBLE_COLOURS for s in ("circle", "square", "tri", "star", "plus")]
PREAMBLE_OPENERS = [
    "", "Sure! ", "Okay. ", "Looking at the image, ", "Here is my answer.\n",
    "Let me trace the path carefully.\n\n", "I followed the line from the START marker to the far end.\n\n",
]  # fmt: skip
PREAMBLE_CLAUSES = [
    "Following the line from the start, the markers are", "The sequence of markers from start to end is",
    "Tracing the path, the glyphs in order are", "In order", "From start to finish", "The markers, in order, are",
    "Order of markers", "Starting at the START marker and following the line, I encounter", "Sequence",
    "**Sequence**", "The path goes through the following markers",
]  # fmt: skip
# Clauses that name the first token (the START marker) need a colon to tell them from the list.
PREAMBLE_NAMING_CLAUSES = [
    "Starting from the {first} (the START marker), the path visits", "Beginning at the {first}, I pass",
]  # fmt: skip
PREAMBLE_ENDS = [": ", ":\n", ":\n\n", ":** ", " ", " - ", " \u2014 "]
LIST_LAYOUTS = {
    "commas": ", ".join,
    "lines": "\n".join,
    "numbered": lambda gold: "\n".join(f"{i}. {g}" for i, g in enumerate(gold, 1)),
    "bullets": lambda gold: "\n".join(f"- {g}" for g in gold),
    "arrows": " \u2192 ".join,
    "semicolons": "; ".join,
}


@st.composite
def preambled_sequences(draw) -> tuple[str, list[str]]:
    gold = draw(st.lists(st.sampled_from(PREAMBLE_VOCABULARY), min_size=2, max_size=17, unique=True))
    layout = draw(st.sampled_from(sorted(LIST_LAYOUTS)))
    if draw(st.booleans()):
        clause, end = draw(st.sampled_from(PREAMBLE_CLAUSES)), draw(st.sampled_from(PREAMBLE_ENDS))
    else:
        clause = draw(st.sampled_from(PREAMBLE_NAMING_CLAUSES)).format(first=gold[0])
        end = draw(st.sampled_from([e for e in PREAMBLE_ENDS if ":" in e]))
    if layout in ("lines", "numbered", "bullets") and ":" not in end:
        end = end.rstrip() + "\n"  # a list on lines starts on its own line
    text = draw(st.sampled_from(PREAMBLE_OPENERS)) + clause + end + LIST_LAYOUTS[layout](gold)
    return text + draw(st.sampled_from(["", ".", "\n"])), gold


@PROPERTY
@given(case=preambled_sequences())
def test_a_sequence_wrapped_in_a_preamble_parses_to_every_token_in_place(case):
    text, gold = case
    assert parse_sequence(text, PREAMBLE_VOCABULARY) == gold


@PROPERTY
@given(case=preambled_sequences(), kind=st.sampled_from(["answer_tags", "final_tags", "boxed"]))
def test_a_preambled_sequence_inside_answer_markers_parses_too(case, kind):
    text, gold = case
    assert parse_sequence(wrap(kind, text.strip(), "Let me look.", ""), PREAMBLE_VOCABULARY) == gold


def test_the_issue_10_response_scores_token_accuracy_1():
    from bench_core.scoring import score_response

    gold = ["red square", "blue star", "green circle", "purple plus", "orange tri"]
    response = "Following the line from the start, the markers are: " + ", ".join(gold)
    value, details = score_response("sequence", ", ".join(gold), response, vocabulary=PREAMBLE_VOCABULARY)
    assert (value, details["token_accuracy"], details["parsed"]) == (1.0, 1.0, gold)


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("From start to end, the markers are red square, blue star", ["red square", "blue star"]),
        ("I traced it.\n1. red square\n2. blue star", ["red square", "blue star"]),
        ("The order, as I see it: red square \u2192 blue star \u2192 green circle",
         ["red square", "blue star", "green circle"]),
        ("Starting at the red square, the path visits: red square, blue star", ["red square", "blue star"]),
        # not preambles: a list ending in a note, a one-token answer with a note, a placeholder mid-list
        ("red square, blue star, green circle. Note: the last one is faint",
         ["red square", "blue star", "green circle"]),
        ("red square\nNote: green circle is faint", ["red square", "green circle"]),  # one token: no list follows
        ("red square, no idea, green circle", ["red square", INVALID, "green circle"]),
        ("no marker is visible", []),
    ],
)
def test_preamble_examples(response, expected):
    assert parse_sequence(response, [*SEQUENCE_VOCABULARY, "orange tri"]) == expected
