"""The hand-graded response set (fixtures/graded_responses.jsonl, built by fixtures/build_graded_responses.py):
responses in the styles RL-trained models write, over option, integer, numbered-option (transformation),
sequence and text answers, each with the grade a careful reader gives.  Strict mode must give no false
positive (in RL a false positive is what the policy learns to produce); lenient mode must disagree with the
hand grades on fewer than 1 % of responses.  Run with ``-s`` to see both disagreement tables."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench_core import score_record

FIXTURES = Path(__file__).parent / "fixtures"


def _load() -> tuple[list[dict], dict]:
    import sys

    sys.path.insert(0, str(FIXTURES))
    try:
        import build_graded_responses as builder
    finally:
        sys.path.pop(0)
    records = json.loads((FIXTURES / "graded_records.json").read_text())
    records.update(builder.STRING_RECORDS)
    rows = [json.loads(line) for line in (FIXTURES / "graded_responses.jsonl").read_text().splitlines() if line]
    return rows, records, builder


ROWS, RECORDS, BUILDER = _load()


def test_the_fixture_is_what_its_builder_writes():
    """The committed set is the builder's output (so every grade comes from a template's hand reading)."""
    built = BUILDER.build()
    assert [{k: v for k, v in row.items() if k != "n"} for row in ROWS] == built
    assert len(ROWS) >= 300
    assert {row["kind"] for row in ROWS} == {"letter", "integer", "count_choice", "numbered", "sequence",
                                             "sequence_choice", "string"}
    assert 0.4 < sum(row["grade"] for row in ROWS) / len(ROWS) < 0.7


def table(mode: str, rows: list[dict]) -> tuple[Counter, list[dict]]:
    """(counts of (hand grade, score) per answer kind and overall, the rows where they disagree)."""
    counts: Counter = Counter()
    wrong = []
    for row in rows:
        value = score_record(RECORDS[row["item"]], row["response"], mode=mode).value
        assert value in (0.0, 1.0)
        outcome = ("TP" if value else "FN") if row["grade"] else ("FP" if value else "TN")
        counts[row["kind"], outcome] += 1
        counts["all", outcome] += 1
        if outcome in ("FP", "FN"):
            wrong.append({**row, "score": value})
    return counts, wrong


def render(mode: str, counts: Counter) -> str:
    kinds = [*sorted({k for k, _ in counts} - {"all"}), "all"]
    lines = [f"{mode}: hand grade vs score", f"  {'kind':<16}{'n':>5}{'TP':>5}{'TN':>5}{'FP':>5}{'FN':>5}  disagree"]
    for kind in kinds:
        row = {o: counts[kind, o] for o in ("TP", "TN", "FP", "FN")}
        n = sum(row.values())
        lines.append(f"  {kind:<16}{n:>5}{row['TP']:>5}{row['TN']:>5}{row['FP']:>5}{row['FN']:>5}  "
                     f"{(row['FP'] + row['FN']) / n:.1%}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def tables():
    return {mode: table(mode, ROWS) for mode in ("strict", "lenient")}


def test_strict_mode_gives_no_false_positive(tables):
    counts, wrong = tables["strict"]
    print("\n" + render("strict", counts))
    false_positives = [w for w in wrong if not w["grade"]]
    assert not false_positives, json.dumps(false_positives[:5], indent=1)
    assert counts["all", "TP"] > 0.3 * len(ROWS) / 2  # it does reward well-formatted right answers


def test_lenient_mode_disagrees_with_the_hand_grades_on_under_1_percent(tables):
    counts, wrong = tables["lenient"]
    print("\n" + render("lenient", counts))
    for w in wrong:
        print(f"  disagrees: #{w['n']} {w['kind']}/{w['style']} grade {w['grade']} score {w['score']}: "
              f"{w['response'][:90]!r}")
    assert len(wrong) / len(ROWS) < 0.01, [(w["n"], w["style"]) for w in wrong]
    assert not [w for w in wrong if not w["grade"]], "lenient false positives"


def test_held_out_batches_give_no_false_positive_either(tables):
    """The batches written blind (never tuned on before their first run) hold no false positive in either mode;
    their misses before the scorer was changed are recorded in the CHANGELOG."""
    held_out = [row for row in ROWS if row["held_out"]]
    assert len(held_out) >= 100
    for mode in ("strict", "lenient"):
        counts, _ = table(mode, held_out)
        assert counts["all", "FP"] == 0, mode
