"""Answers that name an option by its content, and options numbered 1, 2, 3 ... instead of lettered.

A model asked for a letter often answers with what the option says ("9", "a rotation of 90 degrees
clockwise", the option's whole marker sequence).  :func:`option_index` maps such an answer to the one option
it names, or to none; :func:`parse_numbered_option` reads answers to numbered options, where "90 degrees"
must not be read as option 90.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from bench_core.parsing import (
    _JUSTIFY_RE,
    _LETTER_FOLLOWERS,
    _NEXT_WORD_RE,
    _WORD_VALUES,
    _answer_line,
    _bare_number,
    _clean,
    _tail,
    normalise_string,
    replace_phrases,
)
from bench_core.statements import LENIENT, STRICT, final_value

__all__ = ["option_index", "parse_numbered_option"]

_WORD_RE = re.compile(r"[^\W_]+")
_DEGREE_RE = re.compile(r"\u00b0|\u00ba|\bdeg\b\.?", re.IGNORECASE)
_SUFFIXES = ("ions", "ion", "ing", "ed", "es", "s", "e")
# Words that carry no content in an answer naming an option ("a rotation by 90 degrees in the clockwise
# direction", "the plot was translated along the x axis").  A filler that occurs in an option's own text
# is content there: it then must match like any other word.
_FILLERS = frozenset({
    "a", "an", "the", "of", "by", "in", "on", "at", "to", "is", "are", "was", "were", "be", "been", "it", "this",
    "that", "its", "has", "have", "had", "with", "along", "direction", "axis", "plot", "plots", "image", "figure",
    "panel", "graph", "b", "which", "one", "option", "choice", "answer", "about", "around", "center", "centre",
    "origin", "applied", "transformation", "transformed", "correct", "final", "there", "simply", "just",
    "exactly", "so", "shape", "whole", "entire", "surface",
})  # fmt: skip
_NUMBER_WORDS = {w: v for w, v in _WORD_VALUES.items() if 1 <= v <= 26}
_NUMBERED_RE = re.compile(
    r"(?P<lead>(?:option|choice|number|no\.?|#)[ \t]{0,3}(?:is[ \t]{1,3})?[:#]?[ \t]{0,3})?"
    r"(?P<open>[(\[])?[ \t]{0,2}(?P<number>[0-9]{1,3}|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"
    r"(?![0-9]|[.,][0-9]|[^\W\d_])[ \t]{0,2}(?P<close>[)\]])?(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
_OPTION_NUMBER_RE = re.compile(
    r"\b(?:option|choice)[ \t]{0,3}[:#]?[ \t]{0,3}\(?([0-9]{1,3})\)?(?![0-9])", re.IGNORECASE
)
_LABEL_TEXT_RE = re.compile(r"[.):][ \t]+(?P<text>.*)", re.DOTALL)


def _stem(word: str) -> str:
    """A crude stem, enough to tell "rotated", "rotation" and "rotate" for one word."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _apply_synonyms(words: list[str], synonyms: Mapping[str, str] | None) -> list[str]:
    if not synonyms:
        return words
    try:
        table = _cached_table(tuple(synonyms.items()))
    except TypeError:  # unhashable values
        table = _synonym_table(synonyms.items())
    return replace_phrases(words, table)


def _synonym_table(pairs: object) -> dict[str, list[tuple[list[str], list[str]]]]:
    """The phrase table of :func:`bench_core.parsing.replace_phrases` for synonym (key, value) pairs."""
    table: dict[str, list[tuple[list[str], list[str]]]] = {}
    for key, value in pairs:  # type: ignore[attr-defined]
        if isinstance(key, str) and isinstance(value, str):
            key_words = _WORD_RE.findall(key.casefold())
            if key_words:
                table.setdefault(key_words[0], []).append((key_words, _WORD_RE.findall(value.casefold())))
    for entries in table.values():
        entries.sort(key=lambda kv: len(kv[0]), reverse=True)
    return table


@functools.lru_cache(maxsize=32)
def _cached_table(pairs: tuple[tuple[object, object], ...]) -> dict[str, list[tuple[list[str], list[str]]]]:
    return _synonym_table(pairs)


_FILLER_STEMS = frozenset(_stem(w) for w in _FILLERS)


def _content_words(text: str, synonyms: Mapping[str, str] | None) -> list[str]:
    words = _WORD_RE.findall(_DEGREE_RE.sub(" degrees ", text).casefold()[:2000])
    return [_stem(w) for w in _apply_synonyms(words, synonyms)]


_CLAUSE_END_RE = re.compile(r"[:;,(\u2013\u2014]|[ \t]-[ \t]|\b(?:because|since|as|so|which|and)\b", re.IGNORECASE)


def option_index(
    text: str, options: Sequence[str], synonyms: Mapping[str, str] | None = None, *, fuzzy: bool = True
) -> int | None:
    """The index of the one option that ``text`` (an answer, one line) names by its content, else None: see
    :func:`_option_index`; where the whole line names none, its first clause may ("No change: the plots are
    identical", "Translation in X, since the peak moved right")."""
    found = _option_index(text, options, synonyms, fuzzy)
    if found is None and isinstance(text, str):
        m = _CLAUSE_END_RE.search(text)
        if m and m.start() > 0:
            found = _option_index(text[: m.start()], options, synonyms, fuzzy)
    return found


def _option_index(
    text: str, options: Sequence[str], synonyms: Mapping[str, str] | None, fuzzy: bool
) -> int | None:
    """The index of the one option that ``text`` names by its content, else None.

    In order: ``text`` equals one option's text (after :func:`bench_core.parsing.normalise_string`); where
    every option is a number, ``text`` is a bare number equal to one of them ("9", "There are 9."); with
    ``fuzzy``, the content words of ``text`` (words stemmed -- "rotated" is "rotation" -- with ``synonyms``
    applied, ``°`` read as degrees, fillers such as "a", "the", "by", "axis" left out unless an option uses
    them) are the option's, in its order or not, or a part of them that no other option shares ("rotation
    180" for "Rotation 180 degrees").  A word that no option uses ("counter-clockwise") matches nothing, and
    text that fits two options is no answer.
    """
    if not isinstance(text, str) or not text.strip() or not options:
        return None
    profile = _profile(options, synonyms)
    texts = profile.texts
    said = normalise_string(_clean(text))
    exact = [i for i, t in enumerate(texts) if t and t == said]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        return None
    numbers = profile.numbers
    if all(n is not None for n in numbers):
        value = _bare_number(_clean(text))
        hits = [i for i, n in enumerate(numbers) if value is not None and n == value]
        return hits[0] if len(hits) == 1 else None
    if not fuzzy:
        return None
    cores = profile.cores
    said = _content_words(_clean(text), synonyms)
    said_core = [w for w in said if w not in _FILLER_STEMS] or said
    if not said_core:
        return None
    ordered = [i for i, core in enumerate(cores) if core == said_core]
    if len(ordered) == 1:
        return ordered[0]
    if len(ordered) > 1:
        return None
    said_bag = Counter(said_core)
    same = [i for i, bag in enumerate(profile.bags) if bag == said_bag]
    if len(same) == 1:
        return same[0]
    if same:
        return None
    partial = []  # a part of one option's words that no other option shares ("rotation 180"); no word repeated
    for i, bag in enumerate(profile.bags):
        if said_bag <= bag and set(said_bag) - profile.others[i]:
            partial.append(i)
    return partial[0] if len(partial) == 1 else None


class _Profile:
    """What :func:`_option_index` reads of a set of options, worked out once for each set: their normalised
    texts, their values where they are bare numbers, their content words without fillers (with synonyms),
    those words counted, and for each option the words of the others."""

    def __init__(self, options: Sequence[str], synonyms: Mapping[str, str] | None) -> None:
        self.texts = [normalise_string(o) if isinstance(o, str) else "" for o in options]
        self.numbers = [_bare_number(o) if isinstance(o, str) else None for o in options]
        words = [_content_words(o, synonyms) if isinstance(o, str) else [] for o in options]
        self.cores = [[w for w in option if w not in _FILLER_STEMS] or option for option in words]
        self.bags = [Counter(core) for core in self.cores]
        self.others = [{w for j, other in enumerate(self.cores) if j != i for w in other}
                       for i in range(len(self.cores))]


@functools.lru_cache(maxsize=64)
def _cached_profile(options: tuple[object, ...], synonyms: tuple[tuple[object, object], ...] | None) -> _Profile:
    return _Profile(options, None if synonyms is None else dict(synonyms))  # type: ignore[arg-type]


def _profile(options: Sequence[str], synonyms: Mapping[str, str] | None) -> _Profile:
    """The profile of ``options`` (cached on their values and the synonyms', in order, where hashable)."""
    if synonyms is None or isinstance(synonyms, Mapping):
        try:
            return _cached_profile(tuple(options), None if synonyms is None else tuple(synonyms.items()))
        except TypeError:
            pass
    return _Profile(options, synonyms)


def _number_value(token: str) -> int:
    return int(token) if token.isdigit() else _NUMBER_WORDS[token.casefold()]


def _bare_numbered(line: str | None, count: int, options: Sequence[str],
                   synonyms: Mapping[str, str] | None) -> int | None:
    """The option number ``line`` consists of ("3", "Option 3", "(3)", "3. Translation in X", "three",
    "3 because ..."), or the number of the option whose content it gives; None if the number is out of
    range and the content names no option; 0 if a label's text names another option ("3. Translation in Y"
    where 3 is X: an answer that contradicts itself)."""
    if not line:
        return None
    m = _NUMBERED_RE.match(line)
    if m:
        number = _number_value(m.group("number"))
        rest = m.group("rest")
        if 1 <= number <= count:
            if not rest.strip(" \t.:)!"):
                return number
            label = _LABEL_TEXT_RE.match(rest)
            if label or (m.group("close") and rest[:1] in " \t"):
                named = option_index(label.group("text") if label else rest, options, synonyms)
                return 0 if named is not None and named != number - 1 else number  # 0: contradicts itself
            if _JUSTIFY_RE.match(rest):
                return number
            word = _NEXT_WORD_RE.match(rest)
            if word and word.group(1).casefold() in _LETTER_FOLLOWERS:
                return number
    index = option_index(line, options, synonyms)
    return None if index is None else index + 1


def parse_numbered_option(
    response: object,
    options: Sequence[str],
    *,
    synonyms: Mapping[str, str] | None = None,
    mode: str = LENIENT,
) -> int | None:
    """The 1-based number of the option that ``response`` answers among numbered ``options``, else None.

    The final answer is found as :func:`bench_core.parsing.extract_final_answer` describes (the last
    statement wins; without one, a bare answer).  It is read as an option number in range ("3", "Option
    3", "(3)", "three", "3. Translation in X" -- unless the text names another option), or as an option's
    content ("Translation in X", "a rotation of 90 degrees clockwise": see :func:`option_index`), so that
    "90 degrees clockwise" is never option 90.  In lenient mode a statement's region that is neither also
    gives "option N" anywhere in it, or its one number in range.  Strict mode reads only a bare answer in
    a box, answer tags or an ``Answer:`` line.
    """
    if not options:
        return None
    count = len(options)

    def bare(text: str, kind: str) -> int | None:
        return _bare_numbered(_answer_line(text, kind), count, options, synonyms)

    def read(region: str, kind: str, mode: str) -> int | None:
        found = bare(region, "statement")
        if found is not None or mode == STRICT:
            return found
        line = _clean(_tail(region)).split("\n", 1)[0]
        named = {int(m.group(1)) for m in _OPTION_NUMBER_RE.finditer(line)} & set(range(1, count + 1))
        if len(named) == 1:
            return named.pop()
        numbers = {int(n) for n in re.findall(r"(?<![\w.])([0-9]{1,3})(?![\w.])", line)}
        in_range = numbers & set(range(1, count + 1))
        return in_range.pop() if len(in_range) == 1 and len(numbers) == 1 else None

    return final_value(response, read, bare, mode) or None  # 0: an answer that contradicts itself
