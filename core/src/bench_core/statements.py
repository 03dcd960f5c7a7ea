"""Where a free-form response states its final answer: reasoning blocks, answer statements, retractions.

This module knows nothing about answer types.  It finds, in text order, every place where a response
*states* an answer, and what follows each statement (its region); the parsers of :mod:`bench_core.parsing`
decide which statement holds a value of their type (:func:`final_value`).

Rules, in the words of issue 11:

* Reasoning blocks are not answers.  Only the text after the last ``</think>`` (also ``</thinking>``,
  ``</reasoning>``, Kimi's ``◁/think▷``) is read; a reasoning block left open (a response cut off while
  thinking) has no final answer at all.
* The LAST answer statement wins: a self-correction ("The answer is A. Wait ... The answer is B.",
  "Answer: 1 ... Corrected answer: 2") answers with its last statement.
* A statement followed by a retraction ("... Wait, let me re-check", "on second thought") and no later
  statement leaves the response without a settled answer.
* Where no statement exists, only a *bare* answer counts (the whole response is the answer, or its first
  line followed by a justification, or its last paragraph); a response cut off mid-reasoning has none.

Statement kinds, from the most to the least explicit:

``strict``  ``\\boxed{...}``/``\\fbox{...}``, ``<answer>``/``<final_answer>`` blocks and lines starting with an
            ``Answer:`` label (``Final answer:``, ``Corrected answer:``, ``**Answer:**``); the only kinds
            :data:`STRICT` mode reads.
``label``   other answer labels at a line start: ``The answer is``, ``## Final Answer`` (answer on the next
            lines), ``Final sequence:``, ``Final count -``.
``phrase``  answer phrases inside a sentence ("the correct option is", "I choose", "so it is", "which is
            option", "B is correct", "in total there are", "yes, still 7"): they count only where what they
            introduce is a bare answer of the type being read.
``closing`` the response's last sentence ending on "is / gives / = <answer>" ("The only figure that
            matches is C."): a ``phrase`` that parsers of lists (sequences) do not read.

Every function here is linear in the length of the text and never raises on it.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

__all__ = [
    "LENIENT",
    "MODES",
    "STRICT",
    "Statement",
    "check_mode",
    "final_value",
    "paragraphs",
    "retracted",
    "statements",
    "strip_reasoning",
]

LENIENT = "lenient"
STRICT = "strict"
#: ``lenient``: for evaluating models that ignore the requested format (every statement kind, then a bare
#: answer).  ``strict``: for training (only ``\\boxed{}``, answer tags or an ``Answer:`` line; else no answer).
MODES = (LENIENT, STRICT)

MAX_REGION_CHARS = 20_000
_MAX_TRIED = 64  # statements examined from the end before giving up (adversarial inputs stay linear)


def check_mode(mode: str) -> str:
    """``mode`` if it is one of :data:`MODES`, else a ValueError naming the allowed modes."""
    if mode not in MODES:
        raise ValueError(f"unknown scoring mode {mode!r}; allowed: {', '.join(MODES)}")
    return mode


# ---------------------------------------------------------------------------------------------------
# Reasoning blocks
# ---------------------------------------------------------------------------------------------------

_THINK_OPEN_RE = re.compile(r"<[ \t]{0,3}(?:think|thinking|reasoning)[ \t]{0,3}>|\u25c1think\u25b7", re.IGNORECASE)
_THINK_CLOSE_RE = re.compile(
    r"<[ \t]{0,3}/[ \t]{0,3}(?:think|thinking|reasoning)[ \t]{0,3}>|\u25c1/think\u25b7", re.IGNORECASE
)


def strip_reasoning(text: str) -> str | None:
    """The part of ``text`` after its last closing reasoning tag (all of it when there is none), or None when a
    reasoning block is still open at the end (``<think>`` with no ``</think>`` after it): a response cut off
    while thinking has no final answer."""
    end = 0
    for m in _THINK_CLOSE_RE.finditer(text):
        end = m.end()
    if _THINK_OPEN_RE.search(text, end):
        return None
    return text[end:]


# ---------------------------------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------------------------------


class Statement(NamedTuple):
    """One answer statement: where it starts, its kind (``strict``, ``label`` or ``phrase``), where the text
    it introduces (its region) starts and ends, and whether that region is complete (a closed tag, balanced
    braces)."""

    start: int
    kind: str
    region_start: int
    region_end: int
    complete: bool

    def region(self, text: str) -> str:
        return text[self.region_start : self.region_end]


_TAG_PAIRS = [
    (re.compile(r"<[ \t]{0,3}final[_ \-]?answer[ \t]{0,3}>", re.IGNORECASE),
     re.compile(r"<[ \t]{0,3}/[ \t]{0,3}final[_ \-]?answer[ \t]{0,3}>", re.IGNORECASE)),
    (re.compile(r"<[ \t]{0,3}answer[ \t]{0,3}>", re.IGNORECASE),
     re.compile(r"<[ \t]{0,3}/[ \t]{0,3}answer[ \t]{0,3}>", re.IGNORECASE)),
]  # fmt: skip
_ANY_TAG_RE = re.compile(r"<[ \t]{0,3}/?[ \t]{0,3}(?:final[_ \-]?)?answer[ \t]{0,3}>", re.IGNORECASE)
_BOXED_RE = re.compile(r"\\(?:boxed|fbox)[ \t]{0,3}\{")
_BRACE_RE = re.compile(r"[{}]")
_NON_SPACE_RE = re.compile(r"\S")
_BLANK_LINE_RE = re.compile(r"\n[ \t]*\n")

_ADJECTIVES = r"final|correct|corrected|revised|updated|short|best|selected|chosen"
# A line that starts with an answer label (markdown emphasis, bullets, quotes and headings tolerated).
_LABEL_LINE_RE = re.compile(
    r"[ \t>#*_\-]{0,16}"
    r"(?P<lead>(?:(?:so|thus|therefore|hence)[ \t]{0,3},?[ \t]{1,3})?(?:(?:the|my|our)[ \t]{1,3})?)"
    r"(?:(?P<adj>" + _ADJECTIVES + r")[ \t]{1,3})?"
    r"(?P<noun>answer|sequence|order|path|count|choice|option(?:[ \t]number)?|result|conclusion)s?"
    r"(?:[ \t]{0,3}\([^()\n]{0,40}\))?"  # "Answer (option letter):"
    r"[ \t*_]{0,8}"
    r"(?P<sep>:|=|[\-\u2013\u2014](?=[ \t]|$)"
    r"|(?:is|would[ \t]{1,3}be|will[ \t]{1,3}be|should[ \t]{1,3}be|must[ \t]{1,3}be)\b|(?=[ \t]*$))"
    r"[ \t*_:]{0,8}",
    re.IGNORECASE | re.MULTILINE,
)
# Spelt out without IGNORECASE so that the scan over megabytes skips fast on the first letter.
_LABEL_ANCHOR_RE = re.compile(
    r"[AaFfCcRrUuSsMmOo](?:nswer|NSWER|inal|INAL|orrect|ORRECT|evised|EVISED|pdated|PDATED|onclusion|ONCLUSION"
    r"|elected|ELECTED|hosen|HOSEN|y\b|Y\b|ur\b|UR\b|ption[ \t]number|PTION[ \t]NUMBER)"
)
_STATING_ADJECTIVES = ("final", "correct", "corrected", "revised", "updated", "selected", "chosen")
_STATING_NOUNS = ("answer", "conclusion", "option number")

_PHRASES = [
    # "the correct option is", "my final answer would be", "the count is"
    r"\b(?:the|my|our)[ \t]{1,3}(?:(?:final|correct|corrected|right|best|only)[ \t]{1,3})?"
    r"(?:answer|choice|option|sequence|order|path|count|result|number|total)[ \t]{1,3}"
    r"(?:is|would[ \t]{1,3}be|will[ \t]{1,3}be|should[ \t]{1,3}be|must[ \t]{1,3}be)\b[ \t:]*",
    # "... final answer: 8", "answer: B" inside a line
    r"(?<![^\W\d_])(?:(?:final|correct|corrected)[ \t]{1,3})?answer[ \t*_]{0,3}[:=][ \t*_]*",
    # "I choose E", "I'll go with B", "I would pick (C)"
    r"\bI(?:'ll|[ \t]{1,3}will|'d|[ \t]{1,3}would|'m[ \t]{1,3}going|[ \t]{1,3}am[ \t]{1,3}going)?[ \t]{1,3}"
    r"(?:choose|pick|select|go[ \t]{1,3}with|say|with)\b[ \t:]*",
    # "so it is B", "I think it's 7"
    r"(?:\b(?:so|thus|therefore|hence|clearly|I[ \t]{1,3}think|I[ \t]{1,3}believe|I'd[ \t]{1,3}say)|;)[ \t,]{1,3}"
    r"(?:it|this|that)(?:'s|\u2019s|[ \t]{1,3}(?:is|must[ \t]{1,3}be|should[ \t]{1,3}be|would[ \t]{1,3}be))\b"
    r"[ \t:]*",
    # "So there are 7 local maxima", "In total, I count 5"
    r"\b(?:so|thus|therefore|hence|in[ \t]{1,3}total|in[ \t]{1,3}all|overall|altogether)[ \t,]{1,3}"
    r"(?:there[ \t]{1,3}(?:are|is|were)|I[ \t]{1,3}(?:count(?:ed)?|see|saw|find|found|get|got)"
    r"|we[ \t]{1,3}(?:have|get|count|see))\b[ \t:]*",
    # "That gives 7 local maxima", "for a total of 7", "Total: 7"
    r"\b(?:(?:that|this|which)[ \t]{1,3}(?:gives|makes|means)(?:[ \t]{1,3}us)?"
    r"(?:[ \t]{1,3}a[ \t]{1,3}total[ \t]{1,3}of)?|for[ \t]{1,3}a[ \t]{1,3}total[ \t]{1,3}of)\b[ \t:]*",
    r"\btotal(?:[ \t]{1,3}(?:count|number))?[ \t*_]{0,3}[:=][ \t*_]*",
    # "Wait, let me recount... yes, still 7": a confirmation restates the answer
    r"\b(?:yes|still|confirmed)\b[ \t,:!]{1,3}(?:(?:it(?:'s|\u2019s|[ \t]{1,3}is)|that(?:'s|\u2019s))[ \t]{1,3})?"
    r"(?:still[ \t]{1,3})?",
    # "..., which is option 1"
    r"\b(?:which|that)[ \t]{1,3}(?:is|corresponds[ \t]{1,3}to|matches)[ \t]{1,3}(?=(?:option|choice)\b)",
]
# Every phrase starts with one of these characters: the lookahead turns most positions down in one test.
_PHRASE_RE = re.compile("(?=[acfhimostwy;])(?:" + "|".join(f"(?:{p})" for p in _PHRASES) + ")", re.IGNORECASE)
# "B is correct", "Option 2 is the right answer": the answer is the clause before the phrase.
_VERDICT_RE = re.compile(
    r"[ \t]{1,3}is[ \t]{1,3}(?:the[ \t]{1,3})?(?:correct|right|best|closest|answer)"
    r"(?:[ \t]{1,3}(?:answer|option|choice|one|match))?\b",
    re.IGNORECASE,
)
_CLAUSE_START_RE = re.compile(r"[.!?;:\n]|,[ \t]")
_SENTENCE_END_RE = re.compile(r"[.!?](?:[ \t]|$)")
# "The rotated shape is option D.": an answer only as the response's last sentence (inside an analysis,
# "the first figure is option A" describes).
_CLOSING_RE = re.compile(
    r"(?:\b(?:is|are|was|gives|makes|equals)|=|(?P<mark>->|\u2192|=>|,)(?=[ \t]{1,3}(?:option|choice)\b))[ \t]{1,3}",
    re.IGNORECASE,
)
# after a comma or an arrow, only "option N" itself ends the response: "..., option 3.", "9 maxima -> option B"
_OPTION_ONLY_RE = re.compile(r"(?:option|choice)[ \t]{1,3}[*_(\[]*[A-Za-z0-9]{1,3}[*_)\]]*[ \t]*[.!]?[ \t*_]*$",
                             re.IGNORECASE)
_CLOSING_REACH = 80  # the answer a closing sentence ends on is short: "option 3: Translation in X."
_VERDICT_REACH = 200  # characters before "is correct" searched for the start of its clause

# Where a candidate's region is worked out only when it is examined (a 2 MB response may hold 10^5 markers).
_Candidate = tuple[int, int, str, Callable[[str], Statement]]
_RANK = {"phrase": 0, "closing": 0, "label": 1, STRICT: 2}


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start, start + MAX_REGION_CHARS)
    return min(len(text), start + MAX_REGION_CHARS) if end == -1 else end


def _cut_at_tags(text: str, start: int, end: int) -> int:
    """``end``, or the start of the first answer tag in ``text[start:end]``: a statement inside a tag block
    ends with the block."""
    m = _ANY_TAG_RE.search(text, start, end)
    return m.start() if m else end


def _next_paragraph(text: str, start: int) -> tuple[int, int]:
    """(start, end) of the lines after ``start`` up to the first blank line (leading blank lines skipped)."""
    m = _NON_SPACE_RE.search(text, start, start + MAX_REGION_CHARS)
    if m is None:
        return start, start
    begin = max(start, text.rfind("\n", start, m.start()) + 1)
    limit = min(len(text), begin + MAX_REGION_CHARS)
    found = _BLANK_LINE_RE.search(text, begin, limit)
    return begin, found.start() if found else limit


def _tag_candidates(text: str, lo: int, hi: int) -> Iterator[_Candidate]:
    for open_re, close_re in _TAG_PAIRS:
        close_starts: list[int] | None = None
        for m in _matches(open_re, text, lo, hi):
            if close_starts is None:
                close_starts = [c.start() for c in close_re.finditer(text, lo)]

            def resolve(text: str, m: re.Match[str] = m, closes: list[int] = close_starts) -> Statement:
                i = bisect_left(closes, m.end())
                complete = i < len(closes)
                end = min(closes[i] if complete else len(text), m.end() + MAX_REGION_CHARS)
                return Statement(m.start(), STRICT, m.end(), end, complete)

            yield m.start(), _RANK[STRICT], STRICT, resolve


def _resolve_boxed(text: str, m: re.Match[str]) -> Statement:
    start = m.end()
    limit = min(len(text), start + MAX_REGION_CHARS)
    depth = 1
    for brace in _BRACE_RE.finditer(text, start, limit):
        depth += 1 if brace.group() == "{" else -1
        if depth == 0:
            return Statement(m.start(), STRICT, start, brace.start(), True)
    return Statement(m.start(), STRICT, start, limit, False)


_LABEL_REACH = 80  # a label's anchor word lies this close to its line's start (markup, "So the final ...")


def _label_candidates(text: str, lo: int, hi: int) -> Iterator[_Candidate]:
    line_end = -1  # end of the line examined last: each line is examined once, in order
    for anchor in _matches(_LABEL_ANCHOR_RE, text, lo, hi):
        if anchor.start() <= line_end:
            continue
        floor = max(0, anchor.start() - _LABEL_REACH)
        line_start = text.rfind("\n", floor, anchor.start()) + 1
        found = text.find("\n", anchor.start(), anchor.start() + MAX_REGION_CHARS)
        line_end = len(text) if found == -1 else found
        if line_start == 0 and floor > 0:
            continue  # the line starts too far before the anchor to be a label line
        m = _LABEL_LINE_RE.match(text, line_start)
        if not m:
            continue
        noun, adj = m.group("noun").lower(), (m.group("adj") or "").lower()
        mine = m.group("lead").strip().lower() in ("my", "our")
        if noun not in _STATING_NOUNS and adj not in _STATING_ADJECTIVES and not (mine and m.group("sep") == ":"):
            continue  # "Option A: ..." describes an option; "Final sequence:", "My count:" state one
        kind = STRICT if noun == "answer" and not m.group("lead").strip() and m.group("sep") == ":" else "label"

        def resolve(text: str, m: re.Match[str] = m, kind: str = kind) -> Statement:
            end = _cut_at_tags(text, m.end(), _line_end(text, m.end()))
            if text[m.end() : end].strip():
                return Statement(m.start(), kind, m.end(), end, True)
            begin, end = _next_paragraph(text, m.end())
            return Statement(m.start(), kind, begin, _cut_at_tags(text, begin, end), True)

        yield m.start(), _RANK[kind], kind, resolve


def _resolve_phrase(text: str, m: re.Match[str], kind: str = "phrase") -> Statement:
    end = _cut_at_tags(text, m.end(), _line_end(text, m.end()))
    return Statement(m.start(), kind, m.end(), end, True)


def _resolve_verdict(text: str, m: re.Match[str]) -> Statement:
    floor = max(0, m.start() - _VERDICT_REACH)
    begin = floor
    for b in _CLAUSE_START_RE.finditer(text, floor, m.start()):
        begin = b.end()
    return Statement(begin, "phrase", begin, m.start(), True)


#: Answer phrases are looked for in this many characters at the end of a response only (their pattern is slow
#: to run over megabytes, and a statement written this long before the end is not a final answer).
_PHRASE_REACH = 8 * MAX_REGION_CHARS
_OVERLAP = 200  # longer than any marker: one that straddles a window's end is found in that window


def _matches(pattern: re.Pattern[str], text: str, lo: int, hi: int) -> Iterator[re.Match[str]]:
    """Matches of ``pattern`` that start in ``text[lo:hi]`` (no pattern here matches the empty string)."""
    if hi >= len(text):
        return pattern.finditer(text, lo)
    return _matches_before(pattern, text, lo, hi)


def _matches_before(pattern: re.Pattern[str], text: str, lo: int, hi: int) -> Iterator[re.Match[str]]:
    for m in pattern.finditer(text, lo, min(len(text), hi + _OVERLAP)):
        if m.start() >= hi:
            break
        yield m


def _candidates(text: str, mode: str, lo: int, hi: int) -> list[_Candidate]:
    """Every place in ``text[lo:hi]`` where ``text`` may state an answer that ``mode`` reads, sorted by where
    it starts (ties: the more explicit kind last, so that it is examined first)."""
    found = list(_tag_candidates(text, lo, hi))
    found += [(m.start(), _RANK[STRICT], STRICT, lambda t, m=m: _resolve_boxed(t, m))
              for m in _matches(_BOXED_RE, text, lo, hi)]
    found += [c for c in _label_candidates(text, lo, hi) if mode == LENIENT or c[2] == STRICT]
    phrase_lo = max(lo, len(text) - _PHRASE_REACH)
    if mode == LENIENT and phrase_lo < hi:
        found += [(m.start(), 0, "phrase", lambda t, m=m: _resolve_phrase(t, m))
                  for m in _matches(_PHRASE_RE, text, phrase_lo, hi)]
        # "... is C." ending the response: only its last sentence, read as a bare answer
        end = len(text.rstrip())
        found += [(m.start(), 0, "closing", lambda t, m=m: _resolve_phrase(t, m, "closing"))
                  for m in _matches(_CLOSING_RE, text, max(phrase_lo, end - _CLOSING_REACH), hi)
                  if "\n" not in text[m.end() : end]
                  and not _SENTENCE_END_RE.search(text, m.end(), max(m.end(), end - 1))
                  and (not m.group("mark") or _OPTION_ONLY_RE.match(text[m.end() : end]))]
        # a verdict's clause starts before it: sort it just before the verdict, found without a scan
        found += [(max(lo, m.start() - 1), 0, "phrase", lambda t, m=m: _resolve_verdict(t, m))
                  for m in _matches(_VERDICT_RE, text, phrase_lo, hi)]
    found.sort(key=lambda c: (c[0], c[1]))
    return found


#: The candidates of the last few texts of at most one window (a response is read by several parsers, each
#: in lenient and strict mode): text -> (lenient candidates, strict ones or None until asked for).
_RECENT: dict[str, list[Any]] = {}
_RECENT_TEXTS = 8


def _window_candidates(text: str, mode: str) -> list[_Candidate]:
    """:func:`_candidates` of a text that fits one window, found once for both modes: the strict candidates
    are the lenient ones of the strict kind, in the same order."""
    found = _RECENT.get(text)
    if found is None:
        if len(_RECENT) >= _RECENT_TEXTS:
            _RECENT.clear()
        found = _RECENT[text] = [_candidates(text, LENIENT, 0, len(text)), None]
    if mode == LENIENT:
        return found[0]
    if found[1] is None:
        found[1] = [c for c in found[0] if c[2] == STRICT]
    return found[1]


def _reversed_candidates(text: str, mode: str) -> Iterator[_Candidate]:
    """The candidates of :func:`_candidates` from the last to the first, found in windows that grow from the
    end of the text: a response that states its answer at the end is never scanned whole."""
    hi, size = len(text), 2 * MAX_REGION_CHARS
    if hi <= size:
        yield from reversed(_window_candidates(text, mode))
        return
    while hi > 0:
        lo = max(0, hi - size)
        yield from reversed(_candidates(text, mode, lo, hi))
        hi, size = lo, 2 * size


def statements(text: str, mode: str = LENIENT) -> list[Statement]:
    """Every answer statement of ``text`` that ``mode`` reads, in text order, blank ones left out (for
    inspection and tests; :func:`final_value` examines them lazily from the end)."""
    resolved = (resolve(text) for _, _, _, resolve in _candidates(text, check_mode(mode), 0, len(text)))
    return [s for s in resolved if _NON_SPACE_RE.search(text, s.region_start, s.region_end)]


# ---------------------------------------------------------------------------------------------------
# Retractions
# ---------------------------------------------------------------------------------------------------

_RETRACTION_RE = re.compile(
    r"\bwait\b|\bhold[ \t]{1,3}on\b|\bon[ \t]{1,3}second[ \t]{1,3}thought|\bscratch[ \t]{1,3}that\b|\bcorrection\b"
    r"|\bI[ \t]{1,3}(?:made|make)[ \t]{1,3}(?:a|an)[ \t]{1,3}(?:mistake|error)|\bI[ \t]{1,3}was[ \t]{1,3}wrong"
    r"|\bthat(?:'s|\u2019s|[ \t]{1,3}is)[ \t]{1,3}(?:wrong|incorrect|not[ \t]{1,3}right)"
    r"|\blet[ \t]{1,3}me[ \t]{1,3}re-?(?:consider|think|examine|evaluate)\b"
    r"|\bactually,?[ \t]{1,3}(?:it|the|that|this|I|option|no)\b|\bno,?[ \t]{1,3}wait\b",
    re.IGNORECASE,
)


def retracted(text: str, start: int) -> bool:
    """True if ``text`` from ``start`` on takes back what was stated there ("Wait, ...", "Let me re-check",
    "on second thought", "I made a mistake", "Actually, it ...")."""
    return _RETRACTION_RE.search(text, start, start + 4 * MAX_REGION_CHARS) is not None


# ---------------------------------------------------------------------------------------------------
# Bare answers
# ---------------------------------------------------------------------------------------------------

def paragraphs(text: str) -> tuple[str, str, str]:
    """(first line, first paragraph, last paragraph) of ``text``, each stripped; the bare-answer candidates
    besides the whole text."""
    stripped = text.strip()
    first_line = stripped[:MAX_REGION_CHARS].split("\n", 1)[0].strip()
    m = _BLANK_LINE_RE.search(stripped, 0, MAX_REGION_CHARS)
    first = stripped[: m.start()] if m else stripped[:MAX_REGION_CHARS]
    last_break = None
    tail_start = max(0, len(stripped) - MAX_REGION_CHARS)
    for b in _BLANK_LINE_RE.finditer(stripped, tail_start):
        last_break = b
    last = stripped[last_break.end() :] if last_break else stripped[tail_start:]
    return first_line, first.strip(), last.strip()


Reader = Callable[[str, str], Any]
StatementReader = Callable[[str, str, str], Any]

# A region that starts like this is a sentence about an answer, not one ("The answer is correct because ...").
_NOT_AN_ANSWER_RE = re.compile(
    r"[ \t*_]*(?:correct|incorrect|right|wrong|not|clear|obvious|that|because|based|determined|found|given"
    r"|as[ \t]{1,3}follows|below|above|unclear|uncertain|ambiguous)\b",
    re.IGNORECASE,
)


def final_value(response: object, read: StatementReader, bare: Reader, mode: str = LENIENT, *,
                fallback: Callable[[str], Any] | None = None) -> Any:
    """The value of ``response``'s final answer, or None.

    ``read(region, kind, mode)`` parses the region of a ``strict`` or ``label`` statement (None: unreadable);
    ``bare(text, kind)`` parses text that must be nothing but an answer: a ``phrase`` statement's region
    (kind ``phrase``), or in lenient mode, where no statement exists, the whole response (``whole``), its
    first line or paragraph (``first``: a justification may follow, but no retraction) and its last
    paragraph (``last``).  ``fallback(text)``, if given, is tried last in lenient mode.

    The last statement that yields a value decides, unless a retraction follows it; a ``strict``/``label``
    statement decides even when its region is unreadable (None), unless the region starts like a sentence
    about an answer ("correct because ...").  A response whose tags, boxes or labels are all blank has no
    bare answer.  In strict mode only strict statements are read, with complete regions (closed tags,
    balanced braces), and the value must be the one lenient mode reads (a later statement of another kind
    that disagrees voids it).
    """
    check_mode(mode)
    if not isinstance(response, str) or not response:
        return None
    text = strip_reasoning(response)
    if text is None or not text.strip():
        return None
    lenient = _decide(text, read, bare, LENIENT, fallback)
    if mode == LENIENT:
        return lenient
    strict = _decide(text, read, bare, STRICT, None)
    return strict if strict is not None and strict == lenient else None


def _decide(text: str, read: StatementReader, bare: Reader, mode: str,
            fallback: Callable[[str], Any] | None) -> Any:
    markers = False  # a tag, box or label was found, even a blank one: then there is no bare answer
    for tried, (_, _, kind, resolve) in enumerate(_reversed_candidates(text, mode)):
        if tried >= _MAX_TRIED:
            return None
        markers = markers or kind in ("label", STRICT)
        statement = resolve(text)
        if not _NON_SPACE_RE.search(text, statement.region_start, statement.region_end):
            continue
        region = statement.region(text)
        if kind in ("phrase", "closing"):
            value = bare(region, kind)
            if value is None:
                continue
        else:
            if mode == STRICT and not statement.complete:
                return None
            about = _NOT_AN_ANSWER_RE.match(region)
            if about and region[about.end() :].strip(" \t\n.!*_"):
                continue  # "The answer is correct because ...": a sentence about an answer, not one
            value = read(region, kind, mode)
            if value is None and about:
                continue  # "The answer is correct." ("Answer: right" is read: it may be a text answer)
        return None if retracted(text, statement.region_start) else value
    if mode == STRICT or markers:
        return None
    return _bare_value(text, bare, fallback)


def _bare_value(text: str, bare: Reader, fallback: Callable[[str], Any] | None) -> Any:
    whole = text.strip()[-MAX_REGION_CHARS:]
    value = bare(whole, "whole")
    if value is not None:
        return value
    first_line, first, last = paragraphs(text)
    for candidate, kind in ((first_line, "first"), (first, "first"), (last, "last")):
        if candidate and candidate != whole:
            value = bare(candidate, kind)
            if value is not None:
                if kind == "first" and retracted(text, text.find(candidate) + len(candidate)):
                    return None
                return value
    return fallback(text) if fallback is not None else None
