"""Default scorers: compare a free-form model response with an item's gold answer.

Each benchmark item declares an answer type (one of :data:`ANSWER_TYPES`) and a gold answer string.
:func:`score_response` parses the response with :mod:`bench_core.parsing` and returns a score in
``[0, 1]`` together with JSON-serialisable details.  Scoring never raises because of the *response*
(whatever its type or content); malformed gold answers or scorer configuration raise ``ValueError``,
since those are bugs in the item generator rather than model behaviour.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from bench_core import parsing
from bench_core.choices import parse_numbered_option
from bench_core.statements import check_mode, strip_reasoning

__all__ = ["ANSWER_TYPES", "final_text", "score_response", "score_value", "sequence_metrics"]

ANSWER_TYPES = ("option", "integer", "number", "coordinate", "sequence", "string")

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DEFAULT_OPTION_LETTERS = "ABCDEFGH"
# Last-resort net around the parsers (which are designed never to raise on a response).
_PARSER_FAILURES = (
    ArithmeticError,
    LookupError,
    TypeError,
    ValueError,
    AttributeError,
    RecursionError,
    re.error,
)


def _levenshtein(a: Sequence[str], b: Sequence[str]) -> int:
    """The edit distance of two token lists; a common prefix and suffix, which an optimal alignment always
    matches, are dropped before the quadratic table (a list one swap away costs a 2 x 2 table)."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    stop_a, stop_b = len(a), len(b)
    while stop_a > start and stop_b > start and a[stop_a - 1] == b[stop_b - 1]:
        stop_a -= 1
        stop_b -= 1
    a, b = a[start:stop_a], b[start:stop_b]
    if not a or not b:
        return len(a) + len(b)
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def sequence_metrics(predicted: Sequence[str], gold: Sequence[str]) -> dict[str, Any]:
    """Compare a predicted token list with the gold token list.

    Returns a dict with:

    * ``exact`` -- 1.0 if ``predicted`` equals ``gold`` (same tokens, same length), else 0.0;
    * ``token_accuracy`` -- fraction of gold positions whose token is predicted at the same position
      (missing positions count as wrong, extra predicted items are ignored); for an empty gold list it
      is 1.0 if nothing was predicted, else 0.0;
    * ``prefix_length`` -- number of leading positions that are correct;
    * ``edit_similarity`` -- ``1 - levenshtein(predicted, gold) / max(len)`` over token lists, 1.0 when
      both are empty;
    * ``answered`` -- True if at least one predicted token is not :data:`bench_core.parsing.INVALID`;
    * ``length`` -- ``len(predicted)``.

    ``exact``, ``token_accuracy`` and ``edit_similarity`` lie in [0, 1], and
    ``prefix_length <= token_accuracy * len(gold)``.
    """
    predicted = list(predicted)
    gold = list(gold)
    matches = [p == g for p, g in zip(predicted, gold, strict=False)]
    if gold:
        token_accuracy = sum(matches) / len(gold)
    else:
        token_accuracy = 1.0 if not predicted else 0.0
    prefix_length = 0
    for ok in matches:
        if not ok:
            break
        prefix_length += 1
    longest = max(len(predicted), len(gold))
    edit_similarity = 1.0 if longest == 0 else 1.0 - _levenshtein(predicted, gold) / longest
    return {
        "exact": 1.0 if predicted == gold else 0.0,
        "token_accuracy": float(token_accuracy),
        "prefix_length": prefix_length,
        "edit_similarity": float(edit_similarity),
        "answered": any(token != parsing.INVALID for token in predicted),
        "length": len(predicted),
    }


def _close(a: float, b: float, tolerance: float) -> bool:
    return math.isclose(a, b, rel_tol=tolerance, abs_tol=tolerance)


def _gold_text(gold: object) -> str:
    if isinstance(gold, str):
        return gold
    if isinstance(gold, (int, float)) and not isinstance(gold, bool):
        return str(gold)
    raise TypeError(f"gold answer must be a string, got {type(gold).__name__}")


def _option_letters(options: Sequence[str] | None) -> str:
    if not options:  # None or empty: the options are not known
        return _DEFAULT_OPTION_LETTERS
    if len(options) > len(_ALPHABET):
        raise ValueError(f"at most {len(_ALPHABET)} options are supported, got {len(options)}")
    return _ALPHABET[: len(options)]


def _spellings(vocabulary: Sequence[str]) -> tuple[frozenset[str], dict[str, str]]:
    """(the vocabulary's tokens, each casefolded token's first spelling); ValueError unless it is a sequence of
    strings.  Worked out once for each vocabulary."""
    if isinstance(vocabulary, str) or not all(isinstance(token, str) for token in vocabulary):
        raise ValueError("vocabulary must be a sequence of strings")
    key = tuple(vocabulary)
    if all(type(token) is str for token in key):
        return _cached_spellings(key)
    return _index_spellings(key)


def _index_spellings(vocabulary: tuple[str, ...]) -> tuple[frozenset[str], dict[str, str]]:
    folded: dict[str, str] = {}
    for token in vocabulary:
        folded.setdefault(token.strip().casefold(), token)
    return frozenset(vocabulary), folded


_cached_spellings = functools.lru_cache(maxsize=32)(_index_spellings)


def _gold_sequence(gold: str, vocabulary: Sequence[str]) -> list[str]:
    canonical, folded = _spellings(vocabulary)
    tokens = []
    for raw in gold.split(","):
        token = raw.strip()
        if not token:
            continue
        if token in canonical:
            tokens.append(token)
        elif token.casefold() in folded:
            tokens.append(folded[token.casefold()])
        else:
            raise ValueError(f"gold sequence token {token!r} is not in the vocabulary")
    return tokens


def _prepare_gold(
    answer_type: str,
    gold: str,
    options: Sequence[str] | None,
    vocabulary: Sequence[str] | None,
) -> Any:
    """Parse and validate the gold answer; raise ValueError if it is malformed."""
    if answer_type == "option":
        letter = gold.strip().upper()
        letters = _option_letters(options)
        if len(letter) != 1 or letter not in letters:
            raise ValueError(f"gold option {gold!r} is not one of {', '.join(letters)}")
        return letter
    if answer_type == "integer":
        try:
            return int(gold.strip().replace(",", ""))
        except ValueError:
            value = parsing.parse_integer(gold)
        if value is None:
            raise ValueError(f"gold integer {gold!r} is not an integer")
        return value
    if answer_type == "number":
        value = parsing.parse_number(gold)
        if value is None:
            raise ValueError(f"gold number {gold!r} is not a finite number")
        return value
    if answer_type == "coordinate":
        values = parsing.coordinate_numbers(gold)
        if not values:
            raise ValueError(f"gold coordinate {gold!r} holds no numbers")
        return tuple(values)
    if answer_type == "sequence":
        if not vocabulary:
            raise ValueError("answer type 'sequence' requires a non-empty vocabulary")
        return _gold_sequence(gold, vocabulary)
    value = parsing.parse_string(gold)
    if value is None:
        raise ValueError("gold string is empty after normalisation")
    return value


def _numbered(options: Sequence[str] | None, gold: Any) -> bool:
    """True if an integer item's options are numbered and its gold is an option number (the answer of a
    numbered multiple-choice item: MaRVL's transformation options 1-5)."""
    return bool(options) and isinstance(gold, int) and 1 <= gold <= len(options)


def _score(
    answer_type: str,
    gold: Any,
    response: object,
    options: Sequence[str] | None,
    vocabulary: Sequence[str] | None,
    synonyms: Mapping[str, str] | None,
    tolerance: float,
    mode: str,
    keywords: Sequence[Any] | None = None,
) -> tuple[float, dict[str, Any]]:
    if answer_type == "option":
        letters = _option_letters(options)
        parsed = parsing.parse_option(response, letters, options=options, synonyms=synonyms, mode=mode)
        details: dict[str, Any] = {"parsed": parsed, "answered": parsed is not None, "gold": gold}
        if parsed is not None:
            by_letter = options and parsing.parse_option(response, letters, mode=mode) == parsed
            details["via"] = "letter" if by_letter or not options else "text"
        return (1.0 if parsed == gold else 0.0), details
    if answer_type == "integer" and _numbered(options, gold):
        number = parse_numbered_option(response, options, synonyms=synonyms, mode=mode)
        return (1.0 if number == gold else 0.0), {"parsed": number, "answered": number is not None, "gold": gold}
    if answer_type == "integer":
        parsed = parsing.parse_integer(response, mode=mode)
        return (1.0 if parsed == gold else 0.0), {
            "parsed": parsed,
            "answered": parsed is not None,
            "gold": gold,
        }
    if answer_type == "number":
        parsed = parsing.parse_number(response, mode=mode)
        ok = parsed is not None and _close(parsed, gold, tolerance)
        return (1.0 if ok else 0.0), {"parsed": parsed, "answered": parsed is not None, "gold": gold}
    if answer_type == "coordinate":
        point = parsing.parse_coordinate(response, dims=len(gold), mode=mode, keywords=keywords)
        ok = point is not None and all(_close(p, g, tolerance) for p, g in zip(point, gold, strict=True))
        parsed = None if point is None else list(point)
        return (1.0 if ok else 0.0), {"parsed": parsed, "answered": point is not None, "gold": list(gold)}
    if answer_type == "sequence":
        assert vocabulary is not None  # checked by _prepare_gold
        tokens = parsing.parse_sequence(response, vocabulary, synonyms, length=len(gold), mode=mode)
        metrics = sequence_metrics(tokens, gold)
        details = {**metrics, "parsed": tokens, "gold": list(gold)}
        return metrics["exact"], details
    parsed = parsing.parse_string(response, mode=mode)
    return (1.0 if parsed == gold else 0.0), {"parsed": parsed, "answered": parsed is not None, "gold": gold}


def score_response(
    answer_type: str,
    gold: str,
    response: object,
    *,
    options: Sequence[str] | None = None,
    vocabulary: Sequence[str] | None = None,
    synonyms: Mapping[str, str] | None = None,
    tolerance: float = 1e-6,
    mode: str = "lenient",
    keywords: Sequence[Any] | None = None,
) -> tuple[float, dict[str, Any]]:
    """Score ``response`` against ``gold`` with the default scorer for ``answer_type``.

    ``mode`` is how the final answer is read (:mod:`bench_core.parsing`): ``"lenient"`` for evaluation (every
    answer statement, then a bare answer), ``"strict"`` for training rewards (only ``\\boxed{}``, answer tags
    or an ``Answer:`` line).

    Returns ``(score, details)`` with ``score`` in [0, 1] and ``details`` a JSON-serialisable dict that
    always holds ``parsed`` (the parsed response value or None), ``answered`` (bool) and ``gold`` (the
    parsed gold value).  Answer types and gold formats:

    * ``"option"`` -- gold is a letter such as ``"C"``.  Valid letters are ``A``.. up to
      ``len(options)`` when ``options`` (the option texts, in order) is given and non-empty, else
      ``A``-``H``.  An answer that gives one option's content instead of its letter (its text, its number,
      its words: see :func:`bench_core.choices.option_index`; ``synonyms`` apply) selects that option
      (``details["via"] == "text"``).
    * ``"integer"`` -- gold like ``"7"``; exact equality.  With ``options`` and a gold between 1 and their
      number, the options are numbered and the answer is an option number, read by
      :func:`bench_core.choices.parse_numbered_option` (an option's words select it; "90 degrees" is never
      option 90).
    * ``"number"`` -- gold like ``"3.25"``; equal within ``tolerance`` (relative or absolute).
    * ``"coordinate"`` -- gold like ``"(3, 5)"``; the number of dimensions comes from the gold; each
      component equal within ``tolerance``.  ``keywords`` (one word or list of words per component, in the
      gold's order) let an answer name its components in any order: "sector 5, ring 3" is (3, 5) for
      ``[["ring"], ["sector"]]`` (:func:`bench_core.parsing.parse_coordinate`).
    * ``"sequence"`` -- gold is tokens joined by ``", "``; ``vocabulary`` is required (gold tokens must
      belong to it, case-insensitively); ``synonyms`` are passed to the parser.  The score is the exact
      match; ``details`` also holds every :func:`sequence_metrics` key.
    * ``"string"`` -- equality after :func:`bench_core.parsing.parse_string` normalisation.

    Raises ``ValueError`` for an unknown ``answer_type`` or ``mode``, a malformed gold answer or a missing
    vocabulary, and ``TypeError`` for a gold answer that is not a string (ints and floats are accepted
    and converted).  Never raises because of ``response``: non-string responses (None, bytes, numbers),
    empty, huge or garbled text score 0.0 with ``answered`` False.

    A pure function: a call whose arguments are plain values (a response whose final text -- what follows its
    reasoning, :func:`final_text` -- is at most 1,000 characters, options and vocabulary lists of strings, a dict
    of string synonyms) is remembered, and the same call again, or one whose response differs only in its
    reasoning, returns a copy of its result without parsing.  A final text that is just the answer -- a letter
    or an integer, bare, boxed, in answer tags or on an ``Answer:`` line -- is read without the general parser.
    """
    score, details = _remembered(answer_type, gold, response, options, vocabulary, synonyms, tolerance, mode,
                                 keywords)
    return score, _copy(details)


def score_value(
    answer_type: str,
    gold: str,
    response: object,
    *,
    options: Sequence[str] | None = None,
    vocabulary: Sequence[str] | None = None,
    synonyms: Mapping[str, str] | None = None,
    tolerance: float = 1e-6,
    mode: str = "lenient",
    keywords: Sequence[Any] | None = None,
) -> float:
    """The score :func:`score_response` gives, without its details (for rewards)."""
    return _remembered(answer_type, gold, response, options, vocabulary, synonyms, tolerance, mode, keywords)[0]


def _remembered(answer_type: str, gold: str, response: object, options: Sequence[str] | None,
                vocabulary: Sequence[str] | None, synonyms: Mapping[str, str] | None, tolerance: float, mode: str,
                keywords: Sequence[Any] | None) -> tuple[float, dict[str, Any]]:
    """:func:`score_response`'s result, remembered where its arguments are plain; the details are shared with
    the memo (the caller copies them before handing them out)."""
    response = final_text(response)
    key = _memo_key(answer_type, gold, response, options, vocabulary, synonyms, tolerance, mode, keywords)
    if key is not None:
        found = _MEMO.get(key)
        if found is not None:
            return found
    score, details = _score_response(answer_type, gold, response, options, vocabulary, synonyms, tolerance, mode,
                                     keywords)
    if key is not None:
        if len(_MEMO) >= _MEMO_ENTRIES:
            _MEMO.clear()
        _MEMO[key] = (score, details)
        return score, details
    return score, details


def final_text(response: object) -> object:
    """What every parser reads of ``response``: for text, the part after its last closing reasoning tag
    (:func:`bench_core.statements.strip_reasoning`; ``""`` when a reasoning block is left open, which has no
    answer); anything else as it is.  Scoring the final text gives what scoring the response gives."""
    if not isinstance(response, str):
        return response
    if "<" not in response and "\u25c1" not in response:  # no reasoning tag can be there
        return response
    text = strip_reasoning(response)
    return "" if text is None else text


#: A final text that is only an answer of one letter or integer: bare, in a box, in answer tags or on an
#: ``Answer:`` line, with spaces and newlines around it (``test_scoring_fast`` checks the general parser reads
#: each such text alike, in both modes).
_QUICK_RE = re.compile(
    r"[ \t\n]*(?:(?P<bare>[A-Za-z]|[+\-]?[0-9]{1,18})|\\boxed\{[ \t]*(?P<boxed>[A-Za-z]|[+\-]?[0-9]{1,18})[ \t]*\}"
    r"|<answer>[ \t]*(?P<tag>[A-Za-z]|[+\-]?[0-9]{1,18})[ \t]*</answer>"
    r"|Answer:[ \t]*(?P<line>[A-Za-z]|[+\-]?[0-9]{1,18}))[ \t\n]*"
)


def _quick(answer_type: str, gold: Any, response: object, options: Sequence[str] | None, mode: str
           ) -> tuple[float, dict[str, Any]] | None:
    """The score of a final text that :data:`_QUICK_RE` reads (a valid letter for an option item, an integer for
    an integer item without numbered options), as :func:`_score` gives it; None for anything else."""
    if type(response) is not str or len(response) > 64:
        return None
    m = _QUICK_RE.fullmatch(response)
    if m is None:
        return None
    bare = m.group("bare")
    value = bare or m.group("boxed") or m.group("tag") or m.group("line")
    parsed: Any
    if answer_type == "option":
        parsed = value.upper()
        if not value.isalpha() or parsed not in _option_letters(options):
            return None  # perhaps an option's own text: the general parser reads it
    elif answer_type == "integer" and not _numbered(options, gold):
        if value.isalpha():
            return None
        parsed = int(value)
    else:
        return None
    if bare is not None and mode == "strict":
        parsed = None  # strict mode reads no bare answer
    details: dict[str, Any] = {"parsed": parsed, "answered": parsed is not None, "gold": gold}
    if answer_type == "option" and parsed is not None:
        details["via"] = "letter"
    return (1.0 if parsed == gold else 0.0), details


#: Scored responses remembered (a response seen again for the same gold answer is not parsed again): this
#: many, each of at most this many characters.
_MEMO_ENTRIES = 8192
_MEMO_CHARS = 1000
_MEMO: dict[tuple[Any, ...], tuple[float, dict[str, Any]]] = {}


_STR = {str}


def _strings(values: Any) -> tuple[str, ...] | None:
    """``values`` as a tuple if it is a list or tuple of plain strings, else None."""
    kind = type(values)
    if kind is not tuple:
        if kind is not list:
            return None
        values = tuple(values)
    return values if not values or set(map(type, values)) == _STR else None


def _memo_key(answer_type: Any, gold: Any, response: object, options: Any, vocabulary: Any, synonyms: Any,
              tolerance: Any, mode: Any, keywords: Any = None) -> tuple[Any, ...] | None:
    """The memo key of a call whose arguments are all plain (strings, numbers, lists of strings, a dict of
    strings), or None: such a call is a function of the key alone."""
    if not (response is None or (type(response) is str and len(response) <= _MEMO_CHARS)):
        return None
    if type(gold) not in (str, int, float) or type(answer_type) is not str or type(mode) is not str:
        return None
    opts = None if options is None else _strings(options)
    vocab = None if vocabulary is None else _strings(vocabulary)
    if (opts is None and options is not None) or (vocab is None and vocabulary is not None):
        return None
    syn: tuple[Any, ...] | None = None
    if synonyms is not None:
        if type(synonyms) is not dict:
            return None
        syn = tuple(synonyms.items())
        if syn and (set(map(type, synonyms)) != _STR or set(map(type, synonyms.values())) != _STR):
            return None
    if type(tolerance) not in (int, float):
        return None
    words = None
    if keywords is not None:
        words = _keyword_key(keywords)
        if words is None:
            return None
    return (answer_type, gold.__class__, gold, response, opts, vocab, syn, tolerance, mode, words)


def _keyword_key(keywords: Any) -> tuple[Any, ...] | None:
    """``keywords`` (a list of words or lists of words) as a tuple of tuples of strings, or None if it is not one."""
    if type(keywords) not in (list, tuple):
        return None
    out = []
    for entry in keywords:
        if type(entry) is str:
            out.append((entry,))
        else:
            words = _strings(entry)
            if words is None:
                return None
            out.append(words)
    return tuple(out)


def _copy(details: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if type(v) is list else v for k, v in details.items()}


def _score_response(
    answer_type: str,
    gold: str,
    response: object,
    options: Sequence[str] | None,
    vocabulary: Sequence[str] | None,
    synonyms: Mapping[str, str] | None,
    tolerance: float,
    mode: str,
    keywords: Sequence[Any] | None = None,
) -> tuple[float, dict[str, Any]]:
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"unknown answer_type {answer_type!r}; expected one of {', '.join(ANSWER_TYPES)}")
    check_mode(mode)
    gold_value = _prepare_gold(answer_type, _gold_text(gold), options, vocabulary)
    if (answer_type == "coordinate" and keywords is not None
            and parsing._keyword_patterns(keywords, len(gold_value)) is None):
        raise ValueError(f"coordinate keywords {keywords!r}: give one word (or a list of words) for each of the "
                         f"answer's {len(gold_value)} components, in its order")
    try:
        tolerance = abs(float(tolerance))
    except (TypeError, ValueError):
        raise ValueError(f"tolerance must be a number, got {tolerance!r}") from None
    if answer_type in ("option", "integer"):
        quick = _quick(answer_type, gold_value, response, options, mode)
        if quick is not None:
            return quick
    try:
        score, details = _score(answer_type, gold_value, response, options, vocabulary, synonyms, tolerance, mode,
                                keywords)
    except _PARSER_FAILURES as exc:  # a parser bug must not abort a whole evaluation run
        details = {"parsed": None, "answered": False, "error": f"{type(exc).__name__}: {exc}"[:200]}
        if answer_type == "sequence":
            details.update(sequence_metrics([], gold_value))
            details["answered"] = False
        return 0.0, details
    return score, details
