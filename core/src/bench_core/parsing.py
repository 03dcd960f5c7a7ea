"""Robust extraction of answers from free-form model responses.

Vision-language models answer in free text: chatty explanations, markdown, LaTeX ``\\boxed{}``,
``<answer>`` tags, JSON, numbered lists, reasoning in ``<think>`` blocks, self-corrections.  This module
turns such text into a checkable value for each answer type (option letter, integer, number, coordinate,
token sequence, normalised string).

One final-answer extractor serves every type (:func:`bench_core.statements.final_value`): only the text
after the last ``</think>`` counts (an unclosed ``<think>`` has no answer); the LAST answer statement wins
(``\\boxed{}``, ``<answer>``/``<final_answer>`` tags, ``Answer:``/``Final answer:``/``Corrected answer:``
lines, "the answer is" and similar phrases), unless a retraction ("Wait, ...") follows it; and where a
response states nothing, only a bare answer counts (the whole response is the answer, or its first line
followed by a justification, or its last paragraph), never "the last number anywhere".  Each parser takes
``mode``: ``"lenient"`` (the default: every statement kind, then a bare answer) for evaluating models that
ignore the requested format, ``"strict"`` for training rewards (only ``\\boxed{}``, answer tags or an
``Answer:`` line, read as a bare answer, else no answer).

Guarantees shared by every public function here:

* Pure standard library, no state, no I/O.
* Never raises on the ``response`` argument, whatever it is: non-strings (``None``, ``bytes``, ints),
  empty, huge (megabytes), binary-looking or unicode-heavy text (lone surrogates, NUL bytes).  Input
  without a recognisable answer yields "no answer" (``None``, ``""`` or ``[]``, depending on the
  function); non-strings always do.  An unknown ``mode`` is a ValueError.
* Linear time: markers are located with non-backtracking patterns over the whole text, at most a fixed
  number of statements is examined from the end, and every region is capped to
  :data:`MAX_REGION_CHARS` characters before any finer parsing.
"""

from __future__ import annotations

import functools
import json
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from bench_core.statements import LENIENT, MAX_REGION_CHARS, STRICT, final_value

__all__ = [
    "INVALID",
    "MAX_REGION_CHARS",
    "coordinate_numbers",
    "extract_final_answer",
    "normalise_string",
    "parse_coordinate",
    "parse_integer",
    "parse_number",
    "parse_option",
    "parse_sequence",
    "parse_string",
]

INVALID = "<invalid>"
"""Placeholder produced by :func:`parse_sequence` for an item that maps to no single vocabulary token."""

_MAX_DIGITS = 400  # longer digit runs are not treated as numbers (int() would refuse or be slow)
_MAX_EXPONENT = 400
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _as_text(response: object) -> str:
    return response if isinstance(response, str) else ""


def _tail(text: str) -> str:
    return text[-MAX_REGION_CHARS:] if len(text) > MAX_REGION_CHARS else text


# ---------------------------------------------------------------------------------------------------
# Final-answer region
# ---------------------------------------------------------------------------------------------------

_LATEX_WRAPPER_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|texttt|mathrm|mathbf|mathit|mathsf|operatorname|emph|mbox)"
    r"[ \t]{0,3}\{([^{}]*)\}"
)
_FENCE_LANG_RE = re.compile(r"[A-Za-z0-9_+\-.]{0,20}")
_QUOTES = "\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e\u201a"
_EMPHASIS = "*_~"
# Words that may open a bare answer without being part of it ("So, B", "Yes - 7", "I think 4").
_LEADING_FILLER_RE = re.compile(
    r"(?:(?:so|thus|therefore|hence|clearly|yes|indeed|then|definitely|finally|ok(?:ay)?|well|but|and|i[ \t]{1,3}think"
    r"|i[ \t]{1,3}believe|i'd[ \t]{1,3}say|it(?:'s|\u2019s|[ \t]{1,3}is)|this[ \t]{1,3}is|that(?:'s|\u2019s)"
    r"|i[ \t]{1,3}conclude(?:[ \t]{1,3}that)?)\b"
    r"[ \t]*[,:\-\u2013\u2014]?[ \t]*)+",
    re.IGNORECASE,
)
_INNER_EMPHASIS_RE = re.compile(r"\*\*|__")
# A statement region that restates its label: "<answer>The answer is B</answer>".
_ANSWER_LEAD_RE = re.compile(
    r"(?:(?:the|my)[ \t]{1,3})?(?:(?:final|correct)[ \t]{1,3})?answer[ \t*_]*(?:is\b|:|=)[ \t*_:]*", re.IGNORECASE
)


def _strip_code_fence(s: str) -> str:
    if s.startswith("```"):
        newline = s.find("\n")
        if newline == -1:
            s = s[3:]
        else:
            first = s[3:newline].strip()
            rest = s[newline + 1 :]
            # "```json\n...": drop the language tag, but keep "```B\n```" content.
            if _FENCE_LANG_RE.fullmatch(first) and rest.replace("`", "").strip():
                s = rest
            else:
                s = s[3:]
    s = s.removesuffix("```")
    return s


def _clean(s: str) -> str:
    """Strip code fences, math delimiters, emphasis, quotes, a trailing period and whitespace."""
    for _ in range(12):
        before = s
        s = s.strip()
        if "`" in s:
            s = _strip_code_fence(s)
        if "\\" in s:  # every wrapper starts with a backslash
            s = _LATEX_WRAPPER_RE.sub(r"\1", s)
        if len(s) >= 2 and s.startswith("$") and s.endswith("$"):
            s = s.strip("$")
        if len(s) >= 4 and s[:2] in ("\\(", "\\[") and s[-2:] in ("\\)", "\\]"):
            s = s[2:-2]
        s = s.strip().strip(_EMPHASIS)
        if len(s) >= 2 and s[0] in _QUOTES and s[-1] in _QUOTES:
            s = s[1:-1]
        if s.endswith(".") and not s.endswith(".."):
            s = s[:-1]
        if s == before:
            break
    return s.strip()



def _answer_line(text: str, kind: str) -> str | None:
    """The one line a bare answer may take: the first line of a statement's region (``statement``) or of the
    response's first paragraph (``first``); for the whole response, its last paragraph and a phrase's region,
    the text itself, which must then be a single line.  Cleaned, leading fillers ("So, ", "I think ") and a
    restated "The answer is" removed."""
    text = _clean(_tail(text))
    if kind in ("whole", "last", "phrase") and "\n" in text.strip():
        return None
    line = _INNER_EMPHASIS_RE.sub("", text.strip().split("\n", 1)[0])  # "There are **7** maxima"
    for _ in range(3):
        before = line
        line = _clean(_LEADING_FILLER_RE.sub("", line, count=1) if _LEADING_FILLER_RE.match(line) else line)
        if len(line) > 2 and line[0] == "(" and line[-1] == ")" and "(" not in line[1:-1]:
            line = _clean(line[1:-1])  # "(Option B)"
        m = _ANSWER_LEAD_RE.match(line)
        if m and m.end() < len(line):
            line = _clean(line[m.end() :])
        if line == before:
            break
    return line


def extract_final_answer(response: object, *, mode: str = LENIENT) -> str:
    """Return the cleaned region of ``response`` that holds the final answer (``""`` if there is none).

    Only the text after the last ``</think>`` counts (an unclosed ``<think>`` leaves no answer).  The region
    is that of the LAST answer statement (see :mod:`bench_core.statements`): the content of a
    ``<final_answer>``/``<answer>`` block (an unclosed last tag takes everything after it) or of a
    ``\\boxed{...}``/``\\fbox{...}`` (balanced, nested braces), the rest of an answer-label line ("Answer:",
    "Final answer:", "Corrected answer:", "**Answer:**", "The answer is", "Final Answer -") or the lines
    after a label that ends its line ("## Final Answer"), or the text after an answer phrase ("... the
    answer is X", "I choose X").  A statement followed by a retraction ("Wait, ...") and no later statement
    leaves no answer.  Without any statement the whole response is the region in lenient mode -- unless it
    holds answer tags or labels that are all blank, which mean "no answer".  Strict mode reads only boxes,
    tags and ``Answer:`` lines.

    The region is truncated to its last :data:`MAX_REGION_CHARS` characters, then markdown code fences,
    ``$``/``\\(``/``\\[`` math delimiters, ``\\text{}``-style wrappers, surrounding bold/italic markers,
    surrounding quotes, one trailing period and whitespace are stripped.  Non-``str`` input gives ``""``.
    """

    def read(region: str, kind: str, mode: str) -> str:
        return _clean(_tail(region))

    def bare(text: str, kind: str) -> str | None:
        if kind == "closing":
            return None  # "x = 3" is the answer itself, not "3"
        return _clean(_tail(text)) or None

    return final_value(response, read, bare, mode) or ""


# ---------------------------------------------------------------------------------------------------
# Option letters
# ---------------------------------------------------------------------------------------------------

_BARE_LETTER_RE = re.compile(r"[(\[{<]?[ \t]{0,3}([A-Za-z])[ \t]{0,3}[)\]}>]?[ \t]{0,3}[.:)]?")
_LETTER_FORM = r"(?<![A-Za-z0-9])[(\[]?(?P<{name}>[A-Za-z])[)\]]?(?![A-Za-z0-9])"
_OR_RE = re.compile(
    _LETTER_FORM.format(name="first")
    + r"[ \t]{0,3},?[ \t]{0,3}(?:or|and/or|and|/|vs\.?|versus)[ \t]{0,3}(?:option[ \t]{1,3})?"
    + _LETTER_FORM.format(name="second"),
    re.IGNORECASE,
)
_START_LABEL_RE = re.compile(r"[ \t]{0,3}[(\[]?([A-Za-z])(?:[)\]]|[.:](?![A-Za-z0-9]))(?:\s|$)")
_OPTION_WORD_RE = re.compile(
    r"\b(?:option|choice|letter|answer)s?[ \t]{0,3}(?:is[ \t]{1,3})?[:#\-]?[ \t]{0,3}"
    r"(?P<open>[(\[])?(?P<letter>[A-Za-z])(?P<close>[)\]])?(?![A-Za-z0-9'\u2019])",
    re.IGNORECASE,
)
_PAREN_LETTER_RE = re.compile(r"(?<![A-Za-z0-9])[(\[]([A-Za-z])[)\]]")
_STANDALONE_RE = re.compile(r"(?<![\w'\u2019\-])([A-Z])(?![\w'\u2019\-])")
_NEXT_WORD_RE = re.compile(r"[ \t]{1,4}([^\W\d_]{2,})")
# Words that may follow an option letter "A" / "I" without making it an article / pronoun.
_LETTER_FOLLOWERS = frozenset(
    [
        "is",
        "was",
        "would",
        "will",
        "seems",
        "seem",
        "appears",
        "should",
        "must",
        "matches",
        "fits",
        "and",
        "or",
        "since",
        "because",
        "as",
        "then",
        "only",
        "too",
        "also",
        "has",
        "looks",
        "being",
        "remains",
        "represents",
        "corresponds",
        "shows",
        "gives",
        "best",
        "correct",
        "with",
    ]
)


def _letter_set(letters: object) -> str:
    if not isinstance(letters, str):
        try:
            letters = "".join(str(x) for x in letters)  # type: ignore[union-attr]
        except TypeError:
            return ""
    return "".join(dict.fromkeys(c for c in letters.upper() if "A" <= c <= "Z"))


def _is_word_use(text: str, start: int, end: int) -> bool:
    """True if the single letter text[start:end] is the article "a" or the pronoun "I"."""
    if text[start:end].upper() not in ("A", "I"):
        return False
    m = _NEXT_WORD_RE.match(text, end)
    return m is not None and m.group(1).casefold() not in _LETTER_FOLLOWERS


def _decide(found: set[str]) -> tuple[bool, str | None]:
    """(decided, letter) for the letters found by one rule: none -> undecided; several -> ambiguous."""
    if not found:
        return False, None
    if len(found) == 1:
        return True, next(iter(found))
    return True, None


# A bare option answer: the letter, perhaps introduced ("Option", "Choice:") or bracketed, then nothing, a
# label's text ("B. the red one"), a justification ("B, because ...") or a verb ("B is correct").
_BARE_OPTION_RE = re.compile(
    r"(?P<lead>(?:options?|choice|letter|answer|panel|figure)[ \t]{0,3}(?:is[ \t]{1,3})?[:#\-]?[ \t]{0,3})?"
    r"(?P<open>[(\[{<]|\*\*?|__)?[ \t]{0,2}(?P<letter>[A-Za-z])(?![A-Za-z0-9'\u2019])"
    r"(?:[ \t]{0,2}(?P<close>[)\]}>]|\*\*?|__))?"
    r"(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
_ALTERNATIVE_RE = re.compile(
    r"[ \t]*(?:,|/|&|\bor\b|\band\b|\bvs\.?|\bversus\b)[ \t]*(?:(?:option|choice)[ \t]{1,3})?[(\[]?"
    r"(?P<letter>[A-Za-z])[)\]]?(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_LABEL_TEXT_RE = re.compile(r"[.):][ \t]+(?P<text>.*)", re.DOTALL)
_FIRST_LINE_REST_RE = re.compile(r"[ \t.,]*(?:because|since|as)\b", re.IGNORECASE)
_JUSTIFY_RE = re.compile(
    r"[ \t]*(?:[,;(\u2013\u2014]|-[ \t]|:[ \t]|\b(?:because|since|as|given)\b)", re.IGNORECASE
)


def _conflicts(text: str, chosen: int, options: Sequence[str] | None, synonyms: Mapping[str, str] | None) -> bool:
    """True if ``text`` (what follows a chosen option's label) names another option exactly ("B. 10" where
    B is 9 and C is 10): such an answer contradicts itself."""
    if not options:
        return False
    from bench_core.choices import option_index

    named = option_index(text, options, synonyms, fuzzy=False)
    return named is not None and named != chosen


def _names(text: str, letter: str, options: Sequence[str] | None, synonyms: Mapping[str, str] | None) -> bool:
    """True if ``text`` is option ``letter``'s own content."""
    if not options:
        return False
    from bench_core.choices import option_index

    return option_index(text, options, synonyms, fuzzy=False) == _ALPHABET.index(letter)


def _bare_letter(line: str | None, valid: str, options: Sequence[str] | None = None,
                 synonyms: Mapping[str, str] | None = None, *, form: str = "statement") -> str | None:
    """The option letter ``line`` consists of (see :data:`_BARE_OPTION_RE`), or None: "B", "(b)", "Option B",
    "B. the red one", "(A) because (B) is wrong", "C (the blue one)", "A is correct".  Two letters ("A or B",
    "A/B") and an article or pronoun ("A square is drawn", "I think") give None; a label whose text names
    another option ("(C) 15" where 15 is D) gives ``""``, an answer that contradicts itself.  ``form`` is
    where the line comes from: a statement's region (anything above); the whole response or its last
    paragraph (a letter followed by a colon and text, "Option B: the cube faces", describes the option: a
    line of an analysis cut off there); the response's first line (only the letter, perhaps followed by
    "because ...": "C) mirrored" opens a list of descriptions)."""
    if not line:
        return None
    m = _BARE_OPTION_RE.match(line)
    if not m or m.group("letter").upper() not in valid:
        return None
    letter = m.group("letter").upper()
    rest = m.group("rest")
    if not rest.strip(" \t.:)!"):
        return letter
    if form == "first" and not _FIRST_LINE_REST_RE.match(rest):
        return None
    alternative = _ALTERNATIVE_RE.match(rest)
    if alternative and alternative.group("letter").upper() in valid and alternative.group("letter").upper() != letter:
        return None
    label = _LABEL_TEXT_RE.match(rest)
    described = form == "statement"
    if label and rest[0] == ":" and not described and not _names(label.group("text"), letter, options, synonyms):
        return None  # "Option B: the cube faces" describes B; "Option A: 6" (A's own text) answers
    if label or (m.group("close") and rest[:1] in " \t"):
        text = label.group("text") if label else rest
        return "" if _conflicts(text, _ALPHABET.index(letter), options, synonyms) else letter
    if _JUSTIFY_RE.match(rest):
        return None if rest.lstrip()[:1] == ":" and not described else letter
    word = _NEXT_WORD_RE.match(rest)
    marked = bool(m.group("lead") or m.group("open") or m.group("close"))
    if word and word.group(1).casefold() in _LETTER_FOLLOWERS and (marked or m.group("letter").isupper()):
        return letter
    return None


def _letter_in_region(region: str, valid: str) -> str | None:
    """The letter a statement's region names when it is not a bare answer (lenient mode): from the most to the
    least explicit rule, the first that finds something decides and two letters found by it give None --
    "X or Y" naming two valid letters (None), a leading label ("B. ...", "(B) ..."), "option / choice /
    letter X", a parenthesised letter, a standalone capital letter that is not the article "A" or the
    pronoun "I"."""
    for m in _OR_RE.finditer(region):
        first, second = m.group("first").upper(), m.group("second").upper()
        if first != second and first in valid and second in valid:
            return None
    m = _START_LABEL_RE.match(region)
    if m and m.group(1).upper() in valid:
        return m.group(1).upper()
    found: set[str] = set()
    for m in _OPTION_WORD_RE.finditer(region):
        letter = m.group("letter").upper()
        bracketed = m.group("open") is not None or m.group("close") is not None
        if letter in valid and (bracketed or not _is_word_use(region, m.start("letter"), m.end("letter"))):
            found.add(letter)
    decided, letter = _decide(found)
    if decided:
        return letter
    found = {m.group(1).upper() for m in _PAREN_LETTER_RE.finditer(region)} & set(valid)
    decided, letter = _decide(found)
    if decided:
        return letter
    found = {
        m.group(1)
        for m in _STANDALONE_RE.finditer(region)
        if m.group(1) in valid and not _is_word_use(region, m.start(1), m.end(1))
    }
    return _decide(found)[1]


def parse_option(
    response: object,
    letters: str = "ABCD",
    *,
    options: Sequence[str] | None = None,
    synonyms: Mapping[str, str] | None = None,
    mode: str = LENIENT,
) -> str | None:
    """Return the option letter (uppercase, one of ``letters``) that ``response`` answers, else None.

    The final answer is found as :func:`extract_final_answer` describes (the last statement wins; without
    one, a bare answer).  It is read as a bare letter: ``B``, ``(b)``, ``b)``, ``[B]``, ``Option B``,
    ``Choice: C``, ``**B**``, ``B. the red one``, ``(A) because (B) is wrong``, ``C (the blue one)``,
    ``A is correct`` -- two letters (``A or B``, ``A/B``) give None, and the article "a"/"A" or the pronoun
    "I" starting a sentence ("A square is drawn", "I think") is no letter.  Given ``options`` (the option
    texts, in order), an answer that gives an option's content instead of its letter ("9" for the option
    "9", "a rotation 90 degrees clockwise" for "Rotation 90 degrees clockwise") selects that option (see
    :func:`bench_core.choices.option_index`; ``synonyms`` map the words models use onto the options'), and a
    label whose text names another option ("B. 10" where C is "10") is no answer.

    In lenient mode a statement's region that is not a bare letter is read further (see
    :func:`_letter_in_region`: "Answer: I'd go with (C) here").  In strict mode only a bare answer (or an
    option's content) in a box, answer tags or an ``Answer:`` line counts.
    """
    valid = _letter_set(letters)
    if not valid:
        return None
    if options and all(isinstance(o, str) and o.strip().upper() == _ALPHABET[i] for i, o in enumerate(options)):
        options = None  # options that are their own letters (image panels) say nothing more than the letter

    def by_content(line: str | None, fuzzy: bool = True) -> str | None:
        if not options or not line:
            return None
        from bench_core.choices import option_index

        index = option_index(line, options, synonyms, fuzzy=fuzzy)
        return _ALPHABET[index] if index is not None and _ALPHABET[index] in valid else None

    def bare(text: str, kind: str) -> str | None:
        line = _answer_line(text, kind)
        form = kind if kind in ("whole", "first", "last") else "statement"
        found = _bare_letter(line, valid, options, synonyms, form="whole" if form == "last" else form)
        return found if found is not None else by_content(line)

    def read(region: str, kind: str, mode: str) -> str | None:
        found = bare(region, "statement")
        if found is not None or mode == STRICT:
            return found
        return _letter_in_region(_clean(_tail(region)), valid)

    return final_value(response, read, bare, mode) or None  # "": an answer that contradicts itself


# ---------------------------------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------------------------------

_UNIT_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS_WORDS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORD_VALUES = {w: i for i, w in enumerate(_UNIT_WORDS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS_WORDS)}

_NUM_CORE = r"(?:[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])|[0-9]+)(?:\.[0-9]+)?|\.[0-9]+"
_NUMBER_RE = re.compile(
    r"(?<![\w.])(?P<sign>[+\-](?=\.?[0-9]))?(?P<body>" + _NUM_CORE + r")"
    r"(?P<exp>[eE][+\-]?[0-9]{1,6})?"
    r"(?:[ \t]{0,2}/[ \t]{0,2}(?P<den>[0-9]+(?:\.[0-9]+)?))?"
    r"(?P<pct>[ \t]?%)?"
    r"|\b(?:(?P<tens>"
    + "|".join(_TENS_WORDS)
    + r")(?:[ \t\-]{1,2}(?P<tunit>"
    + "|".join(_UNIT_WORDS[1:10])
    + r")\b)?|(?P<unit>"
    + "|".join(sorted(_UNIT_WORDS, key=len, reverse=True))
    + r"))\b",
    re.IGNORECASE,
)
# Same, without thousands separators (so "(100,200)" is two numbers) and without words / percent.
_COORD_NUMBER_RE = re.compile(
    r"(?<![\w.])(?P<sign>[+\-](?=\.?[0-9]))?(?P<body>[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
    r"(?P<exp>[eE][+\-]?[0-9]{1,6})?"
    r"(?:[ \t]{0,2}/[ \t]{0,2}(?P<den>[0-9]+(?:\.[0-9]+)?))?"
)
# "one" used as a pronoun: "the red one", "which one", "one of them".
_PRONOUN_ONE_BEFORE_RE = re.compile(
    r"\b(?:the|this|that|which|each|every|any|another|some|no)[ \t]{1,3}(?:[^\W\d_]+[ \t]{1,3})?$",
    re.IGNORECASE,
)
_PRONOUN_ONE_AFTER_RE = re.compile(r"[ \t]{1,3}of\b", re.IGNORECASE)

_FRAC_RE = re.compile(
    r"\\[dt]?frac[ \t]{0,3}\{[ \t]{0,3}([^{}]{0,40}?)[ \t]{0,3}\}"
    r"[ \t]{0,3}\{[ \t]{0,3}([^{}]{0,40}?)[ \t]{0,3}\}"
)
_SCI_RE = re.compile(
    r"(?<=[0-9])[ \t]{0,3}(?:\\times|\\cdot|\u00d7|\u22c5|\u00b7|\*|x)[ \t]{0,3}10[ \t]{0,3}(?:\^|\*\*)"
    r"[ \t]{0,3}\{?[ \t]{0,3}([+\-]?[0-9]{1,4})[ \t]{0,3}\}?"
)
_POW10_RE = re.compile(r"(?<![\w.])10[ \t]{0,3}\^[ \t]{0,3}\{?[ \t]{0,3}([+\-]?[0-9]{1,4})[ \t]{0,3}\}?")
_LATEX_SPACING_RE = re.compile(r"\\[,!;: ]|\\left|\\right")


def _normalise_math(s: str) -> str:
    """Rewrite LaTeX / unicode number notation into plain ASCII the number patterns understand."""
    s = s.replace("\u2212", "-").replace("{,}", ",").replace("\\%", "%")
    s = _LATEX_SPACING_RE.sub("", s)
    s = _FRAC_RE.sub(r"\1/\2", s)
    s = _SCI_RE.sub(r"e\1", s)
    s = _POW10_RE.sub(r"1e\1", s)
    return s.replace("$", " ")


def _exact_value(m: re.Match[str]) -> Fraction | None:
    """Exact value of a number match (digits, exponent, fraction, words); None if unusable."""
    groups = m.groupdict()
    if groups.get("tens") or groups.get("unit"):
        if groups.get("unit"):
            return Fraction(_WORD_VALUES[groups["unit"].casefold()])
        value = _WORD_VALUES[groups["tens"].casefold()]
        if groups.get("tunit"):
            value += _WORD_VALUES[groups["tunit"].casefold()]
        return Fraction(value)
    body = groups["body"].replace(",", "")
    if len(body) > _MAX_DIGITS:
        return None
    value = Fraction(body)
    if groups.get("exp"):
        exponent = int(groups["exp"][1:])
        if abs(exponent) > _MAX_EXPONENT:
            return None
        value *= Fraction(10) ** exponent
    if groups.get("den"):
        den = groups["den"]
        if len(den) > _MAX_DIGITS or Fraction(den) == 0:
            return None
        value /= Fraction(den)
    if groups.get("sign") == "-":
        value = -value
    return value


def _is_pronoun_one(text: str, m: re.Match[str]) -> bool:
    if (m.group("unit") or "").casefold() != "one":
        return False
    before = text[max(0, m.start() - 40) : m.start()]
    return bool(_PRONOUN_ONE_BEFORE_RE.search(before) or _PRONOUN_ONE_AFTER_RE.match(text, m.end()))


# "There are 7 ...", "I count 7 ...", "The plot shows 7 ...": a one-sentence answer's opening.
_SENTENCE_LEAD_RE = re.compile(
    r"(?:there[ \t]{1,3}(?:are|is|were|(?:appear|seem)s?[ \t]{1,3}to[ \t]{1,3}be)"
    r"|(?:the[ \t]{1,3})?(?:number|count|total)(?:[ \t]{1,3}of[ \t]{1,3}[^\d:=\n]{1,40}?)?[ \t]*[:=]"
    r"|i[ \t]{1,3}(?:can[ \t]{1,3})?(?:count(?:ed)?|see|saw|find|found|get|got"
    r"|identify|identified)|we[ \t]{1,3}(?:have|get|see|count)|(?:the[ \t]{1,3})?(?:plot|image|figure|heatmap|graph)"
    r"[ \t]{1,3}(?:shows|has|contains))[ \t]{1,3}",
    re.IGNORECASE,
)
_APPROX_RE = re.compile(r"(?:about|approximately|approx\.?|around|roughly|exactly|~|\u2248|=)[ \t]*", re.IGNORECASE)
_UNIT_WORD_RE = re.compile(r"[ \t]*([^\W\d_][\w'\u2019\-]*)")
# Words that continue a sentence rather than name a unit: "3 circles and 4 squares", "3 in the top row".
_NOT_UNIT = frozenset({
    "and", "or", "but", "to", "from", "in", "at", "of", "on", "with", "than", "plus", "minus", "times", "then",
    "maybe", "if", "is", "are", "was", "were", "by", "per", "for", "near", "along", "above", "below", "left",
    "right", "top", "bottom", "so", "far", "more", "already", "now", "yet", "here", "there", "until", "remaining",
    "counted", "found", "seen", "each", "row", "column", "first", "second", "third",
})  # fmt: skip
_UNIT_END_RE = re.compile(
    r"[ \t]*(?:in[ \t]{1,3}total|in[ \t]{1,3}all|overall|altogether|total|visible|in[ \t]{1,3}(?:the|this)[ \t]{1,3}"
    r"(?:plot|image|figure|heatmap|graph|picture))\b",
    re.IGNORECASE,
)
_LIST_GOES_ON_RE = re.compile(r"[,;/][ \t]*[+\-]?[0-9]")
_HEDGE_RE = re.compile(r"\b(?:or|maybe|possibly|perhaps|might)\b[^.\n]{0,40}?[0-9]", re.IGNORECASE)
_JUSTIFICATION_WORD_RE = re.compile(r"\b(?:because|since|as|given|which|where|so)\b", re.IGNORECASE)
_PARENTHETICAL_RE = re.compile(r"\([^()]{0,400}\)")


def _number_tail_ok(rest: str) -> bool:
    """True if ``rest``, what follows a number that opens a bare answer, keeps it the answer: nothing, up to
    four unit words ("local maxima") and "in total", then the end of the sentence or a justification
    (``(...)``, ``, since ...``, ``- ...``) that does not hedge with another number ("or 8")."""
    pos = 0
    for _ in range(4):
        m = _UNIT_WORD_RE.match(rest, pos)
        if not m or m.group(1).casefold() in _NOT_UNIT:
            break
        pos = m.end()
    m = _UNIT_END_RE.match(rest, pos)
    if m:
        pos = m.end()
    after = rest[pos:].strip()
    if not after or after in (".", "!"):
        return True
    if not (after[0] in ".!" or _JUSTIFY_RE.match(rest[pos:])):
        return False
    if _LIST_GOES_ON_RE.match(after):
        return False  # "7, 7, 7": a list (or a loop), not a justification
    return _HEDGE_RE.search(after) is None


def _bare_number(line: str | None) -> Fraction | None:
    """The number ``line`` (one line, cleaned) consists of: "7", "-3.5", "seven", "7 local maxima", "about
    3.25", "There are 7 peaks.", "7 (3 + 4)", "12, since ...".  None for a sentence that merely holds numbers
    ("3 circles and 4 squares, 7 in total"), a hedge ("7 or 8") or a pronoun "one"."""
    if not line:
        return None
    text = _normalise_math(line).strip()
    m = _SENTENCE_LEAD_RE.match(text)
    if m:
        text = text[m.end() :]
    m = _APPROX_RE.match(text)
    if m:
        text = text[m.end() :]
    m = _NUMBER_RE.match(text)
    if not m or _is_pronoun_one(text, m) or not _number_tail_ok(text[m.end() :]):
        return None
    return _exact_value(m)


def _statement_number(region: str) -> Fraction | None:
    """The number a statement's region gives when it is not a bare number (lenient mode): in its first line,
    cut before a justification ("because", "since", "which") and without parentheticals, the number after
    the last ``=`` or else the last number ("3 peaks at the top and 4 below, 7 in total")."""
    line = _clean(_tail(region)).strip().split("\n", 1)[0]
    line = _normalise_math(_JUSTIFICATION_WORD_RE.split(line, maxsplit=1)[0])
    line = _PARENTHETICAL_RE.sub(" ", line).rsplit("=", 1)[-1]
    last = None
    for m in _NUMBER_RE.finditer(line):
        if not _is_pronoun_one(line, m):
            last = m
    return None if last is None else _exact_value(last)


def _final_number(response: object, mode: str) -> Fraction | None:
    """Exact value of the final answer's number (see :func:`parse_number`), None if none or unusable."""

    def bare(text: str, kind: str) -> Fraction | None:
        return _bare_number(_answer_line(text, kind))

    def read(region: str, kind: str, mode: str) -> Fraction | None:
        value = bare(region, "statement")
        if value is not None or mode == STRICT:
            return value
        return _statement_number(region)

    return final_value(response, read, bare, mode)


def parse_integer(response: object, *, mode: str = LENIENT) -> int | None:
    """Return the integer that ``response`` answers, else None.

    The final answer is found as :func:`extract_final_answer` describes: the last statement wins; without
    one, only a bare answer counts -- the response, its first line or its last paragraph being a number
    ("7", "7 local maxima", "There are 7 peaks.", "2\\n\\nI initially saw 1, ..."), never the last number of
    a sentence that merely holds numbers.  Inside a statement in lenient mode, a region that is not a bare
    number gives the number after its last ``=`` or its last number, before any justification ("Answer: 3
    at the top and 4 below, 7 in total" -> 7, "Answer: 12, since there are 4 rows of 3" -> 12); strict
    mode takes only a bare number.

    Understands an optional sign (``+``, ``-``, unicode minus), thousands separators (``1,234``),
    number words (``zero`` ... ``twenty``, also ``thirty`` ... ``ninety`` and compounds such as
    ``twenty-one``; case-insensitive; "one" used as a pronoun -- "the red one" -- is ignored) and
    integral decimals (``3.0`` -> 3).  A non-integral answer (``3.5``, ``3/4``) gives None -- an earlier
    integer is not used instead.  A percentage counts as the number before ``%``.
    """
    value = _final_number(response, mode)
    if value is None or value.denominator != 1:
        return None
    return int(value)


def parse_number(response: object, *, mode: str = LENIENT) -> float | None:
    """Return the number that ``response`` answers as a float, else None (found as :func:`parse_integer`
    finds an integer).

    Understands integers, decimals (``.5``), thousands separators, scientific notation (``1.5e-3``,
    ``3 \\times 10^{5}``, ``3×10^5``), fractions (``3/4``, ``\\frac{3}{4}``), a leading ``+``/``-`` or unicode
    minus, approximations ("about 3.25") and the number words of :func:`parse_integer`.  A percentage stays
    the number before the ``%`` sign: ``"75%"`` -> ``75.0`` (not 0.75).  NaN and infinities are never
    returned (overflowing values give None).
    """
    value = _final_number(response, mode)
    if value is None:
        return None
    try:
        result = float(value)
    except (OverflowError, ValueError):
        return None
    return result if math.isfinite(result) else None


# ---------------------------------------------------------------------------------------------------
# Coordinates
# ---------------------------------------------------------------------------------------------------

_GROUP_RE = re.compile(r"[(\[\u27e8]([^()\[\]\u27e8\u27e9]{0,400})[)\]\u27e9]")
_AXIS_RE = re.compile(r"(?<![A-Za-z0-9_])(?P<axis>[xyzXYZ])[ \t]{0,3}[=:][ \t]{0,3}(?=[+\-.0-9])")


def _coordinate_numbers(text: str) -> list[float] | None:
    values = []
    for m in _COORD_NUMBER_RE.finditer(text):
        exact = _exact_value(m)
        if exact is None:
            return None
        try:
            value = float(exact)
        except (OverflowError, ValueError):
            return None
        if not math.isfinite(value):
            return None
        values.append(value)
    return values


def coordinate_numbers(text: object) -> list[float] | None:
    """All numbers in ``text`` read as coordinate components, in order (commas separate numbers here).

    Used to read gold coordinates such as ``"(3, 5)"``.  None if a number is unusable (overflow,
    division by zero); non-``str`` input gives ``[]``.
    """
    return _coordinate_numbers(_normalise_math(_as_text(text)))


def parse_coordinate(response: object, dims: int = 2, *, mode: str = LENIENT, keywords: Sequence[object] | None = None
                     ) -> tuple[float, ...] | None:
    """Return a coordinate of exactly ``dims`` numbers from ``response``, else None.

    Accepts ``(3, 5)``, ``[3,5]``, ``⟨3, 5⟩``, ``3, 5``, ``(3; 5)``, ``x=3, y=5`` (labelled axes are put
    in x, y, z order) within the final-answer region.  Preference: the last parenthesised/bracketed
    group holding exactly ``dims`` numbers; else labelled axes; else the whole region if it holds exactly
    ``dims`` numbers.  Commas always separate numbers here (no thousands separators).  The final-answer
    region is :func:`extract_final_answer`'s in ``mode`` (in lenient mode a response without an answer
    statement is read whole, so the last coordinate written counts).

    ``keywords`` name the components, in the answer's order: one word or a list of words each (``[["ring"],
    ["sector"]]``; case-insensitive, a plural ``s`` allowed).  Where the region names components by them
    ("sector 5, ring 3", "ring: 3; sector: 5", "the 3rd ring and 5th sector"), they decide the order, whatever
    the order written: every component must then be named, each with one value, else there is no answer.
    Without such names the order written decides, as above.
    """
    if isinstance(dims, bool) or not isinstance(dims, int) or dims < 1:
        return None
    region = _normalise_math(extract_final_answer(response, mode=mode))
    if not region:
        return None
    named = _keyword_patterns(keywords, dims)
    groups = list(_GROUP_RE.finditer(region))
    if named is not None:
        for m in reversed(groups):
            values = _coordinate_numbers(m.group(1))
            if values is not None and len(values) == dims:
                by_name = _by_keyword(m.group(1), named)
                if by_name is not None:
                    return by_name
                break
        mentioned = [list(p.finditer(region)) for p in named]
        if any(mentioned):
            return _by_keyword(region, named)
    for m in reversed(groups):
        values = _coordinate_numbers(m.group(1))
        if values is not None and len(values) == dims:
            return tuple(values)
    if dims <= 3:
        by_axis: dict[str, list[float]] = {}
        for m in _AXIS_RE.finditer(region):
            number = _COORD_NUMBER_RE.match(region, m.end())
            values = None if number is None else _coordinate_numbers(number.group())
            if values:
                by_axis.setdefault(m.group("axis").lower(), []).append(values[0])
        axes = "xyz"[:dims]
        if set(by_axis) == set(axes) and all(len(v) == 1 for v in by_axis.values()):
            return tuple(by_axis[a][0] for a in axes)
    values = _coordinate_numbers(region)
    if values is not None and len(values) == dims:
        return tuple(values)
    return None


_KEY_NUMBER = r"(?P<n>[+\-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+))"


def _keyword_patterns(keywords: object, dims: int) -> tuple[re.Pattern[str], ...] | None:
    """For each component, the pattern of its name with its value ("ring 3", "ring: 3", "ring #3", "3rd ring"), or
    None where ``keywords`` is not a list of ``dims`` words or lists of words."""
    if keywords is None or isinstance(keywords, str):
        return None
    try:
        entries = [(entry,) if isinstance(entry, str) else tuple(entry) for entry in keywords]  # type: ignore[union-attr]
    except TypeError:
        return None
    if len(entries) != dims or not all(entry and all(isinstance(w, str) and w.strip() for w in entry)
                                       for entry in entries):
        return None
    return _compiled_keywords(tuple(tuple(w.strip() for w in entry) for entry in entries))


@functools.lru_cache(maxsize=64)
def _compiled_keywords(entries: tuple[tuple[str, ...], ...]) -> tuple[re.Pattern[str], ...]:
    patterns = []
    for entry in entries:
        words = "|".join(re.escape(w) for w in sorted(entry, key=len, reverse=True))
        name = rf"(?<![^\W\d_])(?:{words})(?:e?s)?(?![^\W\d_])"
        patterns.append(re.compile(
            rf"{name}[ \t]{{0,3}}(?:(?:number|no\.?|index)[ \t]{{0,3}})?[:=#]?[ \t]{{0,3}}{_KEY_NUMBER}(?![0-9])"
            rf"|(?<![\w.]){_KEY_NUMBER.replace('?P<n>', '?P<m>')}(?:st|nd|rd|th)[ \t]{{1,3}}(?:the[ \t]{{1,3}})?{name}",
            re.IGNORECASE))
    return tuple(patterns)


def _by_keyword(text: str, patterns: Sequence[re.Pattern[str]]) -> tuple[float, ...] | None:
    """The components ``text`` names by keyword, in the keywords' order: each named, with a single value (named
    twice, the same); else None."""
    out = []
    for pattern in patterns:
        found = set()
        for m in pattern.finditer(text):
            values = _coordinate_numbers(m.group("n") or m.group("m"))
            if not values or len(values) != 1:
                return None
            found.add(values[0])
        if len(found) != 1:
            return None
        out.append(found.pop())
    return tuple(out)


# ---------------------------------------------------------------------------------------------------
# Sequences
# ---------------------------------------------------------------------------------------------------

_WORD_TOKEN_RE = re.compile(r"[^\W_]+|[^\w\s]|_")
_FENCE_LINE_RE = re.compile(r"^[ \t]*```[^\n]*$", re.MULTILINE)
_INLINE_NUMBERING_RE = re.compile(r"[ \t]+(?=[0-9]{1,3}[.)][ \t])")
_ARROW_RE = re.compile(r"\s*(?:->|\u2192|\u27f6|=>|\u21d2|\u2794|\u279c)\s*")
_BULLET_RE = re.compile(r"^\s*(?:[-*\u2022\u00b7\u2023\u25aa\u25e6\u2013\u2014]|\+(?=\s))\s+")
_NUMBERING_RE = re.compile(
    r"^\s*(?:(?:step|item|no\.?|#)[ \t]{0,3})?"
    r"(?:\([ \t]{0,3}[0-9]{1,4}[ \t]{0,3}\)|[0-9]{1,4}[ \t]{0,3}[.):](?![0-9]))\s*",
    re.IGNORECASE,
)


def replace_phrases(words: Sequence[str],
                    table: Mapping[str, Sequence[tuple[Sequence[str], Sequence[str]]]]) -> list[str]:
    """``words`` with the phrases of ``table`` replaced, left to right: ``table`` maps a phrase's first word to
    its (phrase words, replacement words) pairs, longest phrase first, and the first phrase that matches at a
    position is replaced; other words are kept."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for key, value in table.get(words[i], ()):
            if tuple(words[i : i + len(key)]) == tuple(key):
                out.extend(value)
                i += len(key)
                break
        else:
            out.append(words[i])
            i += 1
    return out


def _words(text: str) -> list[str]:
    """Casefolded word tokens; every non-space symbol is its own token ("light-blue" -> light, -, blue)."""
    return _WORD_TOKEN_RE.findall(text.casefold())


def _split_items(region: str, valid: Callable[[str], bool] | None = None) -> list[str]:
    """The items of ``region``: a JSON array's entries, else the parts of the first separator (comma, newline,
    semicolon, arrow, inline numbering "1) a 2) b") that gives more than one -- or, given ``valid``, of the
    separator whose parts hold the most items ``valid`` accepts, ties going to that first separator (a
    preamble's commas before a list on lines or arrows)."""
    stripped = region.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        try:
            loaded = json.loads(stripped)
        except (ValueError, RecursionError):
            loaded = None
        if isinstance(loaded, list):
            return [x if isinstance(x, str) else json.dumps(x) for x in loaded]
        region = stripped[1:-1]
    separators = (",", "\n", ";", _ARROW_RE, _INLINE_NUMBERING_RE)
    splits = [region.split(sep) if isinstance(sep, str) else sep.split(region) for sep in separators]
    chosen = next((parts for parts in splits if sum(1 for p in parts if p.strip()) > 1), splits[-1])
    if valid is not None:
        best = sum(1 for p in chosen if valid(p))
        for parts in splits:
            count = sum(1 for p in parts if valid(p))
            if count > best:
                chosen, best = parts, count
    return chosen


#: What a matcher remembers: this many texts of each kind, up to this many characters each.
_MEMO_ENTRIES = 2048
#: Whole responses :func:`parse_sequence` remembers, for each matcher.
_PARSED_ENTRIES = 2048
_MEMO_CHARS = 400
_UNSEEN = object()


def _remember(memo: dict, key: object, value: object, entries: int | None = None) -> None:
    if len(memo) >= (_MEMO_ENTRIES if entries is None else entries):
        memo.clear()
    memo[key] = value


class _Matcher:
    """Maps one item's text to the unique vocabulary token it mentions (after synonyms).  Pure: it remembers
    the texts it has matched (and, for :func:`parse_sequence`, the responses it has read), so a text seen
    again costs a lookup."""

    def __init__(self, vocabulary: Sequence[str], synonyms: Mapping[str, str] | None) -> None:
        self._matched: dict[str, str | None] = {}
        self._mentioned: dict[str, bool] = {}
        self.parsed: dict[tuple[str, str], tuple[str, ...]] = {}
        vocab = [v for v in vocabulary if isinstance(v, str)]
        synonym_pairs = []
        if synonyms:
            synonym_pairs = [(k, v) for k, v in synonyms.items() if isinstance(k, str) and isinstance(v, str)]
        symbols: set[str] = set()
        for text in vocab + [k for k, _ in synonym_pairs] + [v for _, v in synonym_pairs]:
            symbols.update(t for t in _words(text) if not t.isalnum())
        self._symbols = symbols
        self._synonyms: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        for key, value in synonym_pairs:
            key_words = tuple(self._words(key))
            if key_words:
                self._synonyms.setdefault(key_words[0], []).append((key_words, tuple(self._words(value))))
        for options in self._synonyms.values():
            options.sort(key=lambda kv: len(kv[0]), reverse=True)
        self._vocab: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        seen: set[tuple[str, ...]] = set()
        for token in vocab:
            token_words = tuple(self._words(token))
            if token_words and token_words not in seen:
                seen.add(token_words)
                self._vocab.setdefault(token_words[0], []).append((token_words, token))

    def _words(self, text: str) -> list[str]:
        return [w for w in _words(text) if w.isalnum() or w in self._symbols]

    def _apply_synonyms(self, words: list[str]) -> list[str]:
        if not self._synonyms:
            return words
        return replace_phrases(words, self._synonyms)

    def mentions(self, text: str) -> bool:
        """True if ``text`` names any vocabulary token as a run of whole words."""
        found = self._mentioned.get(text)
        if found is None:
            found = self._mentions(text)
            if len(text) <= _MEMO_CHARS:
                _remember(self._mentioned, text, found)
        return found

    def _mentions(self, text: str) -> bool:
        words = self._apply_synonyms(self._words(text))
        return any(
            tuple(words[i : i + len(token_words)]) == token_words
            for i, word in enumerate(words)
            for token_words, _ in self._vocab.get(word, ())
        )

    def match(self, item: str) -> str | None:
        """The vocabulary token for ``item``; INVALID if none/several; None if the item is empty."""
        found = self._matched.get(item, _UNSEEN)
        if found is _UNSEEN:
            found = self._match(item)
            if len(item) <= _MEMO_CHARS:
                _remember(self._matched, item, found)
        return found  # type: ignore[return-value]

    def _match(self, item: str) -> str | None:
        for pattern in (_BULLET_RE, _NUMBERING_RE):
            rest = pattern.sub("", item, count=1)
            if rest.strip():
                item = rest
        words = self._apply_synonyms(self._words(item))
        if not words:
            return None
        spans: list[tuple[int, int, str]] = []
        for i, word in enumerate(words):
            for token_words, token in self._vocab.get(word, ()):
                if tuple(words[i : i + len(token_words)]) == token_words:
                    spans.append((i, i + len(token_words), token))
        maximal = {
            token
            for start, end, token in spans
            if not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)
        }
        return next(iter(maximal)) if len(maximal) == 1 else INVALID


_CLAUSE_BREAK_RE = re.compile(r"[,;.!?\n]")


def _introduces(head: str, tail: str, matcher: _Matcher) -> bool:
    """True if ``head``, the text before a colon, introduces the list in ``tail`` rather than starting it: it
    names no token ("Following the line from the start, the markers are"), or only one clause of it names one
    and its last clause none ("Starting at the red square (START), the path visits") while ``tail`` lists at
    least two tokens."""
    if not matcher.mentions(tail):
        return False
    if not matcher.mentions(head):
        return True
    clauses = _CLAUSE_BREAK_RE.split(head)
    if sum(1 for c in clauses if matcher.mentions(c)) != 1 or matcher.mentions(clauses[-1]):
        return False
    return sum(1 for item in _split_items(tail) if matcher.mentions(item)) >= 2


def _strip_preambles(region: str, matcher: _Matcher) -> str:
    """Drop what introduces the list: leading text up to a colon that :func:`_introduces` it, and leading lines
    that name no token ("Let me trace the path.\n1. red square ..."), as long as what is left names one."""
    for _ in range(8):
        before = region
        head, colon, tail = region.partition(":")
        if colon and not matcher.mentions(":") and _introduces(head, tail, matcher):
            region = tail
        first, newline, rest = region.lstrip().partition("\n")
        if newline and not matcher.mentions(first) and matcher.mentions(rest):
            region = rest
        if region == before:
            break
    return region


def _tokens(text: str, matcher: _Matcher) -> list[str]:
    """The tokens of one region (see :func:`parse_sequence`): preambles dropped, split, each item matched."""
    region = _strip_preambles(_FENCE_LINE_RE.sub("", _clean(_tail(text))), matcher)
    items = _split_items(region, lambda item: matcher.match(item) not in (None, INVALID))
    # leading items that name no token finish a preamble ("From start to end, the markers are red square, ...")
    first = next((k for k, item in enumerate(items) if matcher.mentions(item)), len(items))
    result = []
    for item in items[first:]:
        token = matcher.match(item)
        if token is not None:
            result.append(token)
    return result


def parse_sequence(
    response: object,
    vocabulary: Sequence[str],
    synonyms: Mapping[str, str] | None = None,
    length: int | None = None,
    *,
    mode: str = LENIENT,
) -> list[str]:
    """Return the ordered list of vocabulary tokens that ``response`` answers.

    The final answer is found as :func:`extract_final_answer` describes: the last answer statement wins
    ("Answer:", ``\\boxed{}``, tags, "Final sequence:" with the list on the next lines, "The path is:").
    Without a statement (lenient mode), the whole response is read if every item in it names a token; else
    its first line or paragraph if that is a clean list of two or more tokens followed by a justification;
    else its last paragraph if that is one; else the whole response as it stands (items naming no token
    become :data:`INVALID`).  Strict mode reads only boxes, tags and ``Answer:`` lines.

    A region loses code-fence lines and what introduces the list: text up to a colon that names no token
    ("Following the line from the start, the markers are: ...") or whose one clause naming a token is not
    its last ("Starting at the red square, the path visits: ...", when at least two tokens follow), and
    leading lines that name no token ("Let me trace it.\\n1. ...").  It is then read as a JSON array of
    strings if it looks like one, else split on commas -- falling back to newlines, then semicolons, then
    arrows (``->``, ``→``, ``=>``) while the split yields a single item, unless a later separator gives more
    items that each name one token ("The markers, in order: a -> b -> c").  Each item is casefolded, loses
    list numbering (``1.``, ``1)``, ``(1)``), bullets, quotes and punctuation (symbols that occur in the
    vocabulary or in synonym keys/values are kept), has ``synonyms`` applied word by word (multi-word keys
    allowed, longest key first, case-insensitive) and is mapped to the unique vocabulary token occurring in
    it as a contiguous run of whole words ("the red square" -> "red square"; a token contained in a longer
    matching token does not count).  Leading items that name no token end a preamble and are dropped
    ("From start to end, the markers are red square, ..."); later items matching no token, and items
    matching several distinct tokens, become :data:`INVALID`; empty items are dropped.  Returned tokens are
    spelled as in ``vocabulary``.  ``length`` is accepted for interface symmetry and ignored: the result is
    neither padded nor truncated.  No answer gives ``[]``.
    """
    del length  # the scorer pads / truncates
    try:
        matcher = _matcher(vocabulary, synonyms)
    except TypeError:
        return []
    if isinstance(response, str) and len(response) <= _MEMO_CHARS and mode in (LENIENT, STRICT):
        key = (response, mode)
        found = matcher.parsed.get(key)
        if found is None:
            found = tuple(_parse_sequence(response, matcher, mode))
            _remember(matcher.parsed, key, found, _PARSED_ENTRIES)
        return list(found)
    return _parse_sequence(response, matcher, mode)


@functools.lru_cache(maxsize=16)
def _cached_matcher(vocabulary: tuple[object, ...], synonyms: tuple[tuple[object, object], ...] | None) -> _Matcher:
    return _Matcher(vocabulary, None if synonyms is None else dict(synonyms))  # type: ignore[arg-type]


def _matcher(vocabulary: Sequence[str] | None, synonyms: Mapping[str, str] | None) -> _Matcher:
    """The matcher of a vocabulary and synonyms: built once for each (cached on their values, in order), or
    afresh where they are not hashable.  TypeError where ``vocabulary`` is not a sequence."""
    vocab = list(vocabulary) if vocabulary is not None else []
    if synonyms is None or isinstance(synonyms, Mapping):
        try:
            return _cached_matcher(tuple(vocab), None if synonyms is None else tuple(synonyms.items()))
        except TypeError:  # unhashable values: built for this call only
            pass
    return _Matcher(vocab, synonyms)


def _parse_sequence(response: object, matcher: _Matcher, mode: str) -> list[str]:
    """:func:`parse_sequence` with its matcher."""
    seen: dict[str, list[str]] = {}  # the whole response is read twice without a statement: once is enough

    def tokens(text: str) -> list[str]:
        if text not in seen:
            seen[text] = _tokens(text, matcher)
        return seen[text]

    def read(region: str, kind: str, mode: str) -> list[str] | None:
        return tokens(region) or None

    def bare(text: str, kind: str) -> list[str] | None:
        if kind == "closing":
            return None  # "... the last marker is green circle." ends a list's description, not the list
        found = tokens(text)
        enough = len(found) >= (2 if kind in ("first", "last") else 1)
        return found if enough and INVALID not in found else None

    def as_it_stands(text: str) -> list[str] | None:
        return tokens(_tail(text.strip())) or None

    return final_value(response, read, bare, mode, fallback=as_it_stands) or []


# ---------------------------------------------------------------------------------------------------
# Free strings
# ---------------------------------------------------------------------------------------------------

_STRING_STRIP = " \t\r\n.,;:!?" + _QUOTES + _EMPHASIS
_WHITESPACE_RE = re.compile(r"\s+")
# C0/C1 controls other than whitespace, zero-width / bidi format characters, BOM, lone surrogates.
_INVISIBLE_RE = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\ud800-\udfff]"
)


def normalise_string(text: str) -> str:
    """NFKC-normalise, casefold, drop control/format characters and lone surrogates, collapse whitespace
    and strip surrounding punctuation, quotes and markdown emphasis."""
    text = _INVISIBLE_RE.sub("", unicodedata.normalize("NFKC", _INVISIBLE_RE.sub("", text))).casefold()
    return _WHITESPACE_RE.sub(" ", text).strip(_STRING_STRIP)


def parse_string(response: object, *, mode: str = LENIENT) -> str | None:
    """Return the normalised final-answer region of ``response`` (:func:`extract_final_answer` in ``mode``),
    or None if it is empty.

    Normalisation: NFKC, casefold, control and zero-width characters and lone surrogates removed,
    whitespace runs collapsed to one space, surrounding whitespace, punctuation (``.,;:!?``), quotes and
    markdown emphasis (``*_~``) stripped.
    """
    result = normalise_string(extract_final_answer(response, mode=mode))
    return result or None
