"""In-process ``bench_core.reward`` rates per answer type, on responses in the styles models write.

The responses are the hand-graded set of ``core/tests/fixtures/graded_responses.jsonl`` (chatty reasoning,
``<think>`` blocks, boxes, tags, self-corrections, right and wrong answers) with the scoring records of their
items (``graded_records.json``: MaRVL counting and transformation, Mind's Eye, traversal).  Two rates for each
answer type, in CPU time of this process:

``distinct``  every call gets a response never seen before (the set's responses, each behind a
              ``<think>`` block of its own, which no parser reads): the parsers do all their work.  This is
              the rate of a training run whose completions are all different.
``repeated``  the set's responses again and again: the scorer remembers a scored (record, response) pair,
              as a training run gets where a group's completions repeat a short answer.
``parsed``    ``distinct`` with the scorer's memories of scored responses turned off (each call's answer is
              parsed, as where completions differ in their final text too): the parsers' own speed.

The scorer remembers a response by its final text (what follows its reasoning: nothing else is read), so
``distinct`` responses whose final texts recur are looked up; ``parsed`` is the rate where none recurs.

    python benchmarks/reward_throughput.py --calls 20000
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "core" / "tests" / "fixtures"


def workload() -> dict[str, list[tuple[dict, str]]]:
    """(scoring record, response) pairs of the graded set, by the record's answer type."""
    records = json.loads((FIXTURES / "graded_records.json").read_text())
    records.update({  # the builder's free-text records
        "string.direction": {"answer": "clockwise", "answer_type": "string"},
        "string.symmetry": {"answer": "mirrored", "answer_type": "string"},
    })
    out: dict[str, list[tuple[dict, str]]] = defaultdict(list)
    for line in (FIXTURES / "graded_responses.jsonl").read_text().splitlines():
        row = json.loads(line)
        record = records[row["item"]]
        kind = record["answer_type"]
        if kind == "integer" and record.get("options"):
            kind = "integer (numbered options)"
        out[kind].append((record, row["response"]))
    return out


def rate(pairs: list[tuple[dict, str]], calls: int, distinct: bool, remember: bool = True) -> float:
    """reward() calls per CPU second over ``calls`` calls cycling through ``pairs`` (``remember`` False: with the
    scorer's memories of scored responses turned off)."""
    from bench_core import parsing, reward, scoring, statements

    saved = scoring._MEMO_ENTRIES, parsing._PARSED_ENTRIES
    if not remember:  # a memory emptied before each entry is stored holds one entry: the call before's
        scoring._MEMO_ENTRIES = parsing._PARSED_ENTRIES = 0
        scoring._MEMO.clear()
        statements._RECENT.clear()
        parsing._cached_matcher.cache_clear()  # its responses remembered go too (the matcher is built again)

    work = []
    for k in range(calls):
        record, response = pairs[k % len(pairs)]
        work.append((record, f"<think>draft {k}</think>{response}" if distinct else response))
    for record, response in work[: len(pairs)] if not distinct else ():
        reward(record, response)  # seen once before timing: the repeated rate is that of responses seen
    try:
        cpu = time.process_time()
        for record, response in work:
            reward(record, response)
        return calls / (time.process_time() - cpu)
    finally:
        scoring._MEMO_ENTRIES, parsing._PARSED_ENTRIES = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20000, help="reward() calls timed per answer type and mode")
    args = parser.parse_args()
    import bench_core

    bench_core.reward({"answer": "A", "answer_type": "option"}, "A")  # imports outside the timing
    print(f"{'answer type':<28} {'responses':>9} {'distinct /s':>12} {'repeated /s':>12} {'parsed /s':>12}")
    for kind, pairs in sorted(workload().items()):
        cold = rate(pairs, args.calls, distinct=True)
        warm = rate(pairs, args.calls, distinct=False)
        parsed = rate(pairs, args.calls, distinct=True, remember=False)
        print(f"{kind:<28} {len(pairs):>9} {cold:>12,.0f} {warm:>12,.0f} {parsed:>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
