"""Robust extraction of answers from free-form model responses.

Vision-language models answer in free text: chatty explanations, markdown, LaTeX ``\\boxed{}``,
``<answer>`` tags, JSON, numbered lists.  This module turns such text into a checkable value for each
answer type (option letter, integer, number, coordinate, token sequence, normalised string).

Guarantees shared by every public function here:

* Pure standard library, no state, no I/O.
* Never raises on the ``response`` argument, whatever it is: non-strings (``None``, ``bytes``, ints),
  empty, huge (megabytes), binary-looking or unicode-heavy text (lone surrogates, NUL bytes).  Input
  without a recognisable answer yields "no answer" (``None``, ``""`` or ``[]``, depending on the
  function); non-strings always do.
* Linear time: markers are located with non-backtracking patterns over the whole text, and the
  extracted answer region is capped to its last :data:`MAX_REGION_CHARS` characters before any
  finer parsing.

The general recipe is :func:`extract_final_answer` (isolate the region that holds the final answer)
followed by a type-specific parser that looks only at that region.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from fractions import Fraction

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

MAX_REGION_CHARS = 20_000
"""The extracted answer region is truncated to its last this-many characters."""

_MAX_CANDIDATES = 16  # how many earlier tag / boxed occurrences to try when the last one is empty
_MAX_DEPTH = 3  # nesting depth for "a marker inside the region found by another marker"
_MAX_DIGITS = 400  # longer digit runs are not treated as numbers (int() would refuse or be slow)
_MAX_EXPONENT = 400


def _as_text(response: object) -> str:
    return response if isinstance(response, str) else ""


def _tail(text: str) -> str:
    return text[-MAX_REGION_CHARS:] if len(text) > MAX_REGION_CHARS else text


# ---------------------------------------------------------------------------------------------------
# Final-answer region
# ---------------------------------------------------------------------------------------------------

_FINAL_OPEN_RE = re.compile(r"<[ \t]{0,3}final[_ \-]?answer[ \t]{0,3}>", re.IGNORECASE)
_FINAL_CLOSE_RE = re.compile(r"<[ \t]{0,3}/[ \t]{0,3}final[_ \-]?answer[ \t]{0,3}>", re.IGNORECASE)
_ANSWER_OPEN_RE = re.compile(r"<[ \t]{0,3}answer[ \t]{0,3}>", re.IGNORECASE)
_ANSWER_CLOSE_RE = re.compile(r"<[ \t]{0,3}/[ \t]{0,3}answer[ \t]{0,3}>", re.IGNORECASE)
_BOXED_RE = re.compile(r"\\(?:boxed|fbox)[ \t]{0,3}\{")
_BRACE_RE = re.compile(r"[{}]")
_NON_SPACE_RE = re.compile(r"\S")

_LABEL_CORE = (
    r"(?:(?:so|thus|therefore|hence)[ \t]{0,3},?[ \t]{1,3})?"
    r"(?:(?:the|my|our)[ \t]{1,3})?"
    r"(?:(?:final|correct|short|best)[ \t]{1,3})?"
    r"answer"
)
# A line that starts with an "Answer:"-like label (markdown emphasis / bullets / headings tolerated).
_LABEL_LINE_RE = re.compile(
    r"^[ \t>#*_\-]{0,16}" + _LABEL_CORE + r"[ \t*_]{0,8}"
    r"(?:(?:is|would[ \t]{1,3}be|will[ \t]{1,3}be|should[ \t]{1,3}be)\b|[:=]|[\-\u2013\u2014](?=[ \t]|$)|$)"
    r"[ \t*_:]{0,8}",
    re.IGNORECASE | re.MULTILINE,
)
# Weaker: "... the answer is X" / "answer: X" anywhere in a line.
_LABEL_INLINE_RE = re.compile(
    r"(?<![^\W\d_])answer[ \t*_]{0,8}(?:is\b|would[ \t]{1,3}be\b|:)[ \t*_:]{0,8}",
    re.IGNORECASE,
)
_ANSWER_WORD_RE = re.compile(r"answer", re.IGNORECASE)

_LATEX_WRAPPER_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|texttt|mathrm|mathbf|mathit|mathsf|operatorname|emph|mbox)"
    r"[ \t]{0,3}\{([^{}]*)\}"
)
_FENCE_LANG_RE = re.compile(r"[A-Za-z0-9_+\-.]{0,20}")
_QUOTES = "\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e\u201a"
_EMPHASIS = "*_~"


def _last_tag_block(text: str, open_re: re.Pattern[str], close_re: re.Pattern[str]) -> str | None:
    """Content of the last non-blank ``<tag>...</tag>`` block (unclosed: up to the end).

    None if the tag does not occur at all; ``""`` if every block tried is blank.
    """
    opens = [m.end() for m in open_re.finditer(text)]
    if not opens:
        return None
    closes = [m.start() for m in close_re.finditer(text)]
    for tried, start in enumerate(reversed(opens)):
        if tried >= _MAX_CANDIDATES:
            break
        i = bisect_left(closes, start)
        end = closes[i] if i < len(closes) else len(text)
        if _NON_SPACE_RE.search(text, start, end):
            return text[start:end]
    return ""


def _last_boxed(text: str) -> str | None:
    """Content of the last non-blank ``\\boxed{...}`` / ``\\fbox{...}`` with balanced braces."""
    starts = [m.end() for m in _BOXED_RE.finditer(text)]
    for tried, start in enumerate(reversed(starts)):
        if tried >= _MAX_CANDIDATES:
            break
        limit = min(len(text), start + MAX_REGION_CHARS)
        depth = 1
        end = limit  # unbalanced: take what follows
        for m in _BRACE_RE.finditer(text, start, limit):
            depth += 1 if m.group() == "{" else -1
            if depth == 0:
                end = m.start()
                break
        if _NON_SPACE_RE.search(text, start, end):
            return text[start:end]
    return None


def _after_last_label(text: str, allow_inline: bool) -> str | None:
    """Text after the last answer label: the rest of its line, or everything after it if that is blank."""
    # Anchor on occurrences of "answer" rather than trying a pattern at every line start: a response
    # made of millions of short lines must stay cheap.  Each line is examined at most once.
    positions = [m.start() for m in _ANSWER_WORD_RE.finditer(text)]
    end = None
    line_floor = len(text) + 1  # start of the most recently examined line
    for pos in reversed(positions):
        if pos >= line_floor:
            continue
        line_floor = text.rfind("\n", 0, pos) + 1
        m = _LABEL_LINE_RE.match(text, line_floor)
        if m:
            end = m.end()
            break
    if end is None and allow_inline:
        for pos in reversed(positions):
            m = _LABEL_INLINE_RE.match(text, pos)
            if m:
                end = m.end()
                break
    if end is None:
        return None
    newline = text.find("\n", end)
    line = text[end:] if newline == -1 else text[end:newline]
    if line.strip():
        return line
    return text[end:]


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
        s = _strip_code_fence(s)
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


def _extract(text: str, depth: int, allow_inline: bool) -> str:
    blank_tag = False
    if depth < _MAX_DEPTH:
        for open_re, close_re in ((_FINAL_OPEN_RE, _FINAL_CLOSE_RE), (_ANSWER_OPEN_RE, _ANSWER_CLOSE_RE)):
            block = _last_tag_block(text, open_re, close_re)
            if block:
                return _extract(_tail(block), depth + 1, True)
            blank_tag = blank_tag or block is not None
        boxed = _last_boxed(text)
        if boxed is not None:
            return _clean(_tail(boxed))
        after = _after_last_label(text, allow_inline)
        if after is not None:
            return _extract(after, depth + 1, False)
    # Answer tags that were all left blank mean "no answer", not "the whole response is the answer".
    return "" if blank_tag else _clean(_tail(text))


def extract_final_answer(response: object) -> str:
    """Return the cleaned region of ``response`` that holds the final answer.

    Priority: the last ``<final_answer>...</final_answer>`` block, else the last ``<answer>...</answer>``
    block (tags case-insensitive; an unclosed last tag takes everything after it; blank blocks are
    skipped), else the content of the last ``\\boxed{...}`` / ``\\fbox{...}`` (balanced, nested braces),
    else the text after the last line starting with an answer label ("Answer:", "Final answer:",
    "**Answer:**", "The answer is", "Final Answer -", "## Final Answer" ...; case-insensitive) -- the
    rest of that line, or the following lines when the rest of the line is blank -- else a weaker
    "... the answer is X" found mid-line, else the whole response -- or ``""`` when the response holds
    answer tags that are all blank.  Markers found inside a tag block are honoured too
    (``<answer>The answer is \\boxed{B}</answer>`` gives ``B``).

    The region is truncated to its last :data:`MAX_REGION_CHARS` characters, then markdown code fences,
    ``$``/``\\(``/``\\[`` math delimiters, ``\\text{}``-style wrappers, surrounding bold/italic markers,
    surrounding quotes, one trailing period and whitespace are stripped.  Non-``str`` input gives ``""``.
    """
    text = _as_text(response)
    if not text:
        return ""
    return _extract(text, 0, True)


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


def parse_option(response: object, letters: str = "ABCD") -> str | None:
    """Return the option letter (uppercase, one of ``letters``) chosen by ``response``, else None.

    Accepted forms include ``B``, ``(b)``, ``b)``, ``[B]``, ``Option B``, ``Answer: (C)``,
    ``the answer is D.``, ``**B**``, ``B. the red one`` and ``\\boxed{C}`` -- see
    :func:`extract_final_answer` for how the answer region is found.  Rules are tried from the most to
    the least explicit and the first rule that finds something decides; two different letters found by
    that rule give None:

    1. the whole region is a bare letter (``B``, ``(b)``, ``[B]``, ``B.``) -- one outside ``letters``
       gives None -- or the first line is (``B`` followed by an explanation that mentions other letters);
    2. "X or Y" / "X and Y" / "X/Y" naming two valid letters: ambiguous, None;
    3. a leading option label (``B.``, ``B)``, ``(B)``, ``B:`` followed by text);
    4. "option / choice / letter X";
    5. a parenthesised letter anywhere (``(c)``);
    6. a standalone capital letter.

    The article "a"/"A" and the pronoun "I" inside a sentence ("A square is drawn", "I think") are never
    taken as options.  The result is uppercase.
    """
    valid = _letter_set(letters)
    region = extract_final_answer(response)
    if not valid or not region:
        return None

    m = _BARE_LETTER_RE.fullmatch(region)
    if m:
        letter = m.group(1).upper()
        return letter if letter in valid else None
    # "B\n\nExplanation: A is wrong because ...": a bare letter alone on the first line.
    m = _BARE_LETTER_RE.fullmatch(region.split("\n", 1)[0].strip())
    if m and m.group(1).upper() in valid:
        return m.group(1).upper()

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


def _last_number(response: object) -> Fraction | None:
    """Exact value of the last number in the final-answer region (None if none or unusable)."""
    region = _normalise_math(extract_final_answer(response))
    last = None
    for m in _NUMBER_RE.finditer(region):
        if not _is_pronoun_one(region, m):
            last = m
    return None if last is None else _exact_value(last)


def parse_integer(response: object) -> int | None:
    """Return the last integer in the final-answer region of ``response``, else None.

    Understands an optional sign (``+``, ``-``, unicode minus), thousands separators (``1,234``),
    number words (``zero`` ... ``twenty``, also ``thirty`` ... ``ninety`` and compounds such as
    ``twenty-one``; case-insensitive; "one" used as a pronoun -- "the red one" -- is ignored) and
    integral decimals (``3.0`` -> 3).  If the last number is not integral (``3.5``, ``3/4``) the result
    is None -- an earlier integer is not used instead.  A percentage counts as the number before ``%``.
    """
    value = _last_number(response)
    if value is None or value.denominator != 1:
        return None
    return int(value)


def parse_number(response: object) -> float | None:
    """Return the last number in the final-answer region of ``response`` as a float, else None.

    Understands integers, decimals (``.5``), thousands separators, scientific notation (``1.5e-3``,
    ``3 \\times 10^{5}``, ``3×10^5``), fractions (``3/4``, ``\\frac{3}{4}``), a leading ``+``/``-`` or unicode
    minus, and the number words of :func:`parse_integer`.  A percentage stays the number before the
    ``%`` sign: ``"75%"`` -> ``75.0`` (not 0.75).  NaN and infinities are never returned (overflowing
    values give None).
    """
    value = _last_number(response)
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


def parse_coordinate(response: object, dims: int = 2) -> tuple[float, ...] | None:
    """Return a coordinate of exactly ``dims`` numbers from ``response``, else None.

    Accepts ``(3, 5)``, ``[3,5]``, ``⟨3, 5⟩``, ``3, 5``, ``(3; 5)``, ``x=3, y=5`` (labelled axes are put
    in x, y, z order) within the final-answer region.  Preference: the last parenthesised/bracketed
    group holding exactly ``dims`` numbers; else labelled axes; else the whole region if it holds exactly
    ``dims`` numbers.  Commas always separate numbers here (no thousands separators).
    """
    if isinstance(dims, bool) or not isinstance(dims, int) or dims < 1:
        return None
    region = _normalise_math(extract_final_answer(response))
    if not region:
        return None
    groups = list(_GROUP_RE.finditer(region))
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


# ---------------------------------------------------------------------------------------------------
# Sequences
# ---------------------------------------------------------------------------------------------------

_WORD_TOKEN_RE = re.compile(r"[^\W_]+|[^\w\s]|_")
_FENCE_LINE_RE = re.compile(r"^[ \t]*```[^\n]*$", re.MULTILINE)
_ARROW_RE = re.compile(r"\s*(?:->|\u2192|\u27f6|=>|\u21d2|\u2794|\u279c)\s*")
_BULLET_RE = re.compile(r"^\s*(?:[-*\u2022\u00b7\u2023\u25aa\u25e6\u2013\u2014]|\+(?=\s))\s+")
_NUMBERING_RE = re.compile(
    r"^\s*(?:(?:step|item|no\.?|#)[ \t]{0,3})?"
    r"(?:\([ \t]{0,3}[0-9]{1,4}[ \t]{0,3}\)|[0-9]{1,4}[ \t]{0,3}[.):](?![0-9]))\s*",
    re.IGNORECASE,
)


def _words(text: str) -> list[str]:
    """Casefolded word tokens; every non-space symbol is its own token ("light-blue" -> light, -, blue)."""
    return _WORD_TOKEN_RE.findall(text.casefold())


def _split_items(region: str) -> list[str]:
    stripped = region.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        try:
            loaded = json.loads(stripped)
        except (ValueError, RecursionError):
            loaded = None
        if isinstance(loaded, list):
            return [x if isinstance(x, str) else json.dumps(x) for x in loaded]
        region = stripped[1:-1]
    items: list[str] = [region]
    for splitter in (",", "\n", ";", _ARROW_RE):
        if isinstance(splitter, str):
            parts = region.split(splitter)
        else:
            parts = splitter.split(region)
        items = parts
        if sum(1 for p in parts if p.strip()) > 1:
            break
    return items


class _Matcher:
    """Maps one item's text to the unique vocabulary token it mentions (after synonyms)."""

    def __init__(self, vocabulary: Sequence[str], synonyms: Mapping[str, str] | None) -> None:
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
        out: list[str] = []
        i = 0
        while i < len(words):
            for key, value in self._synonyms.get(words[i], ()):
                if tuple(words[i : i + len(key)]) == key:
                    out.extend(value)
                    i += len(key)
                    break
            else:
                out.append(words[i])
                i += 1
        return out

    def mentions(self, text: str) -> bool:
        """True if ``text`` names any vocabulary token as a run of whole words."""
        words = self._apply_synonyms(self._words(text))
        return any(
            tuple(words[i : i + len(token_words)]) == token_words
            for i, word in enumerate(words)
            for token_words, _ in self._vocab.get(word, ())
        )

    def match(self, item: str) -> str | None:
        """The vocabulary token for ``item``; INVALID if none/several; None if the item is empty."""
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


def _strip_preambles(region: str, matcher: _Matcher) -> str:
    """Drop leading clauses that end in a colon and name no token ("Following the line from the start, the
    markers are: ..."), as long as what follows names one."""
    for _ in range(4):
        head, colon, tail = region.partition(":")
        if not colon or matcher.mentions(head) or not matcher.mentions(tail):
            break
        region = tail
    return region


def parse_sequence(
    response: object,
    vocabulary: Sequence[str],
    synonyms: Mapping[str, str] | None = None,
    length: int | None = None,
) -> list[str]:
    """Return the ordered list of vocabulary tokens named in the final-answer region of ``response``.

    The region (see :func:`extract_final_answer`; code-fence lines and leading preambles that end in a
    colon and name no token removed) is read as a JSON array of
    strings if it looks like one, else split on commas -- falling back to newlines, then semicolons, then
    arrows (``->``, ``→``, ``=>``) while the split yields a single item.  Each item is casefolded, loses
    list numbering (``1.``, ``1)``, ``(1)``), bullets, quotes and punctuation (symbols that occur in the
    vocabulary or in synonym keys/values are kept), has ``synonyms`` applied word by word (multi-word
    keys allowed, longest key first, case-insensitive) and is mapped to the unique vocabulary token
    occurring in it as a contiguous run of whole words ("the red square" -> "red square"; a token
    contained in a longer matching token does not count).  Items matching no token or several distinct
    tokens become :data:`INVALID`; empty items are dropped.  Returned tokens are spelled as in
    ``vocabulary``.  ``length`` is accepted for interface symmetry and ignored: the result is neither
    padded nor truncated.  No answer gives ``[]``.
    """
    del length  # the scorer pads / truncates
    region = extract_final_answer(response)
    if not region:
        return []
    try:
        matcher = _Matcher(list(vocabulary) if vocabulary is not None else [], synonyms)
    except TypeError:
        return []
    region = _strip_preambles(_FENCE_LINE_RE.sub("", region), matcher)
    result = []
    for item in _split_items(region):
        token = matcher.match(item)
        if token is not None:
            result.append(token)
    return result


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


def parse_string(response: object) -> str | None:
    """Return the normalised final-answer region of ``response``, or None if it is empty.

    Normalisation: NFKC, casefold, control and zero-width characters and lone surrogates removed,
    whitespace runs collapsed to one space, surrounding whitespace, punctuation (``.,;:!?``), quotes and
    markdown emphasis (``*_~``) stripped.
    """
    result = normalise_string(extract_final_answer(response))
    return result or None
