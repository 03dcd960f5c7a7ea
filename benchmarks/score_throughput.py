"""``bench score`` on a million predictions: responses per second (wall and CPU) and peak memory.

The dataset is synthesised cheaply: ``bench generate`` writes ``--per-task`` items of every installed task
(or ``--source DIR`` names a dataset already written), and ``items.jsonl`` is made of copies of those lines in
turn, each with a new id (the rest of each line, its metadata and scene record included, byte for byte; no
PNG is copied or rendered: scoring never opens one).  So the items have the sizes and the task mix (every
task alike) of a real run, but only ``per-task`` distinct answers per task.

Predictions are written for those ids, in blocks of 4,096 shuffled (the order of a batched inference run):
about 45 % right answers and 35 % wrong ones, each in one of six styles (bare, ``\\boxed{}``, "The answer is",
a ``<think>`` block then ``Answer:``, "I choose", ``**Final answer:**``), 10 % responses with no answer
(text without one, empty, null, a number, a list), 3 % ids left unanswered, and on top 2 % ids answered twice
(a wrong answer, then the counted one), 1 % unknown ids and 2 % malformed lines (not JSON, no response, no
id).  Because the items are copies, an (answer, response) pair recurs: the scorer's memo of scored pairs hits
where a real run's short answers would, and more often for sequences (in a real run each path is its own);
the script prints how many distinct pairs the predictions hold, and ``--distinct`` times the core scorer
on responses that are all different, the rate where nothing repeats.

``bench score`` runs in a child process; its wall time, CPU time (user + system, its workers' included) and
peak resident memory (``wait4``'s ``ru_maxrss``: the largest process) are printed, with the peak memory of all
its processes together (sampled; proportional, a page that forked workers share split among them) and the load
average (on a shared machine other processes take part of the CPUs: the CPU time per response is the measure
that does not depend on them), and how far the rate is from issue 12's target (100,000 responses/s, under 200 MiB):
here, and were each process on a core of its own at the CPU time it took.  Before it is timed, ``bench score``
runs once on 200 items with Python allowed to write bytecode (``--cold`` skips that), so the timed run starts
as it would from an installed wheel, its modules already compiled.

    python benchmarks/score_throughput.py --predictions 1000000
    python benchmarks/score_throughput.py --predictions 100000 --keep /tmp/score-bench   # keep the files
    python benchmarks/score_throughput.py --workers 2 --by answer_type,tier --baseline --compare-with OLD/core/src
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STYLES = ["{a}", "\\boxed{{{a}}}", "The answer is {a}.",
          "<think>\nLet me compare the figure with each candidate in turn. The first differs in one place, the "
          "second matches on every count I can check.\n</think>\n\nAnswer: {a}",
          "After checking each candidate, I choose {a}.", "**Final answer:** {a}"]
NO_ANSWER = ["I cannot tell from the image.", "", None, 42, ["A"], "The image is too small to read."]


#: Issue 12's targets for ``bench score`` of a million predictions.
TARGET_RATE, TARGET_MIB = 100_000, 200


def wrong_answer(record: dict, rng: random.Random) -> str:
    """A wrong answer of the item's type."""
    answer, kind, options = record["answer"], record["answer_type"], record.get("options")
    if kind == "option":
        letters = "ABCDEFGH"[: len(options or "ABCD")]
        return rng.choice([x for x in letters if x != answer])
    if kind == "integer":
        value = int(answer)
        choices = [k for k in range(1, len(options) + 1) if k != value] if options else [value - 1, value + 1]
        return str(rng.choice(choices))
    tokens = [t.strip() for t in answer.split(",")]
    if len(tokens) > 2:
        i = rng.randrange(len(tokens) - 1)
        tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
    else:
        tokens = tokens[:1]
    return ", ".join(tokens)


def response(record: dict, rng: random.Random) -> object:
    draw = rng.random()
    if draw < 0.11:
        return rng.choice(NO_ANSWER)
    answer = record["answer"] if draw < 0.6 else wrong_answer(record, rng)
    return rng.choice(STYLES).format(a=answer)


def source_lines(source: Path | None, per_task: int, work: Path) -> list[str]:
    """items.jsonl lines of a dataset: ``source``'s, or those of a fresh ``bench generate`` run."""
    if source is None:
        source = work / "source"
        subprocess.run([sys.executable, "-m", "bench_core.cli", "generate", "--count", str(per_task), "--seed", "7",
                        "--out", str(source)], check=True, capture_output=True)
    return [line for line in (source / "items.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def synthesise(lines: list[str], count: int, out: Path, seed: int = 0) -> dict:
    """Write ``out/items.jsonl`` (``count`` copies of ``lines`` in turn, new ids) and ``out/predictions.jsonl``;
    return what was written."""
    rng = random.Random(seed)
    records = [json.loads(line) for line in lines]
    prefix = '{"id":'
    tails = []
    for line, record in zip(lines, records, strict=True):
        head = prefix + json.dumps(record["id"], ensure_ascii=False)
        if not line.startswith(head):
            raise SystemExit(f"{record['id']}: the line does not start with its id as Item.to_json writes it")
        tails.append(line[len(head):])
    out.mkdir(parents=True, exist_ok=True)
    stats = {"items": count, "predictions": 0, "lines": 0, "pairs": set()}
    block: list[str] = []

    def flush(handle) -> None:
        rng.shuffle(block)
        handle.write("".join(block))
        block.clear()

    with open(out / "items.jsonl", "w", encoding="utf-8") as items, \
            open(out / "predictions.jsonl", "w", encoding="utf-8") as predictions:
        for k in range(count):
            j = k % len(lines)
            item_id = f"synthetic.{k:08d}"
            items.write(prefix + json.dumps(item_id) + tails[j] + "\n")
            draw = rng.random()
            if draw < 0.03:
                continue  # no prediction
            if draw < 0.05:
                block.append(json.dumps({"id": item_id, "response": wrong_answer(records[j], rng)}) + "\n")
            answer = response(records[j], rng)
            stats["pairs"].add((j, json.dumps(answer)))
            block.append(json.dumps({"id": item_id, "response": answer}) + "\n")
            stats["predictions"] += 1
            extra = rng.random()
            if extra < 0.01:
                block.append(json.dumps({"id": f"unknown.{k:08d}", "response": "B"}) + "\n")
            elif extra < 0.02:
                block.append(rng.choice(['{"id": "x", "resp', json.dumps({"id": item_id}), '[1, 2]',
                                         '{"response": "A"}']) + "\n")
            if len(block) >= 4096:
                flush(predictions)
        flush(predictions)
    with open(out / "predictions.jsonl", encoding="utf-8") as handle:
        stats["lines"] = sum(1 for _ in handle)
    stats["pairs"] = len(stats["pairs"])
    return stats


def _memory_mib(pid: int) -> tuple[float, float]:
    """(resident memory, proportional set size) of ``pid`` and of its children (the workers) together, in MiB (0
    once it has ended).  The resident sizes count a page shared by forked processes once in each of them; the
    proportional sizes split it among them, so their sum is the memory the processes hold together."""
    rss = pss = 0
    try:
        pids = [pid, *(int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split())]
    except OSError:
        return 0.0, 0.0
    for one in pids:
        try:
            for line in Path(f"/proc/{one}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
        except OSError:
            pass
    return rss / 1024, pss / 1024


def run_score(out: Path, extra: list[str], source: Path | None = None
              ) -> tuple[float, float, float, tuple[float, float], dict]:
    """(wall s, CPU s, peak MiB of the process, peak MiB of it and its workers together -- resident and
    proportional --, report) of ``bench score OUT OUT/predictions.jsonl --json`` in a child process (importing
    ``bench_core`` from ``source`` if given).  CPU time is the child's and its workers' (``wait4``); the joint
    peaks are sampled from /proc every 20 ms."""
    import threading

    env = None
    if source is not None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(source), os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        wall = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "bench_core.cli", "score", str(out),
                                  str(out / "predictions.jsonl"), "--json", *extra], stdout=stdout, stderr=stderr,
                                 env=env)
        joint = [0.0, 0.0]
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(0.02):
                rss, pss = _memory_mib(child.pid)
                joint[0], joint[1] = max(joint[0], rss), max(joint[1], pss)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(child.pid, 0)  # this child's own CPU time and peak memory
        wall = time.perf_counter() - wall
        stop.set()
        sampler.join()
        child.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        if child.returncode:
            raise SystemExit(f"bench score failed: {stderr.read().decode()[-2000:]}")
        report = json.loads(stdout.read())
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, (joint[0], joint[1]), report


def warm_bytecode(out: Path, source: Path | None = None) -> None:
    """Run ``bench score`` once on the first 200 items of ``out`` with Python allowed to write bytecode, so that
    the timed run reads every module it imports compiled, as it would from an installed wheel (pip compiles
    them when it installs).  An editable install in an environment that sets PYTHONDONTWRITEBYTECODE (as this
    machine does) otherwise recompiles ~500 modules of the core and the plugins on every start, ~0.5 s."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(source), os.environ.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory() as tiny:
        for name in ("items.jsonl", "predictions.jsonl"):
            with open(out / name, "rb") as whole, open(Path(tiny) / name, "wb") as part:
                part.writelines(itertools.islice(whole, 200))
        subprocess.run([sys.executable, "-m", "bench_core.cli", "score", tiny, str(Path(tiny) / "predictions.jsonl")],
                       env=env, check=True, stdout=subprocess.DEVNULL)


def distinct_rate(lines: list[str], count: int, seed: int = 1) -> dict[str, float]:
    """Responses per CPU second of the core scorer (``score_item``) on responses that are all different."""
    from bench_core import Item
    from bench_core.scorer import score_item

    rng = random.Random(seed)
    items = [Item.from_record(json.loads(line)) for line in lines]
    rates = {}
    for kind in sorted({item.answer_type for item in items}):
        chosen = [item for item in items if item.answer_type == kind]
        work = []
        for k in range(count):
            item = chosen[k % len(chosen)]
            text = response(json.loads(item.to_json()), rng)
            work.append((item, f"{text} (response {k})" if isinstance(text, str) else text))
        cpu = time.process_time()
        for item, text in work:
            score_item(item, text)
        rates[kind] = count / (time.process_time() - cpu)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--predictions", type=int, default=1_000_000, help="items (and about as many predictions)")
    parser.add_argument("--source", type=Path, help="a dataset to copy items from (default: bench generate)")
    parser.add_argument("--per-task", type=int, default=3, help="items per task generated for the copies")
    parser.add_argument("--keep", type=Path, help="write the files here and keep them (default: a temporary folder)")
    parser.add_argument("--by", default="", help="passed to bench score --by")
    parser.add_argument("--workers", type=int, default=1, help="passed to bench score --workers")
    parser.add_argument("--baseline", action="store_true", help="passed to bench score --baseline")
    parser.add_argument("--distinct", type=int, default=0, metavar="N",
                        help="also time the core scorer on N all-different responses per answer type")
    parser.add_argument("--compare-with", type=Path, metavar="SRC",
                        help="also score with the bench_core package under SRC (another version's core/src, e.g. "
                             "from git archive REV core/src) and check that both reports are the same, byte for byte")
    parser.add_argument("--cold", action="store_true",
                        help="time bench score without compiling its modules first (see warm_bytecode)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="score-bench-"))
    try:
        lines = source_lines(args.source, args.per_task, work)
        out = work / "dataset"
        if not (out / "predictions.jsonl").exists():
            started = time.perf_counter()
            stats = synthesise(lines, args.predictions, out)
            print(f"synthesised {stats['items']:,} items ({(out / 'items.jsonl').stat().st_size / 2**20:,.0f} MiB) "
                  f"from {len(lines)} generated ones and {stats['lines']:,} prediction lines "
                  f"({stats['pairs']:,} distinct item-response pairs) in {time.perf_counter() - started:.0f} s",
                  flush=True)
        extra = ((["--by", args.by] if args.by else []) + (["--workers", str(args.workers)] if args.workers > 1 else [])
                 + (["--baseline"] if args.baseline else []))
        if not args.cold:
            warm_bytecode(out)
        wall, cpu, peak, joint, report = run_score(out, extra)
        lines_scored = report["n"] - report["missing"]
        print(f"bench score --workers {args.workers}: {report['n']:,} items, {lines_scored:,} responses scored, "
              f"overall {report['overall']:.4f}, missing {report['missing']:,}, unknown {report['unknown_ids']:,}, "
              f"malformed {report['malformed_lines']:,}, duplicates {report['duplicate_ids']:,}")
        print(f"  {wall:.1f} s wall, {cpu:.1f} s CPU: {lines_scored / wall:,.0f} responses/s wall, "
              f"{lines_scored / cpu:,.0f} responses per CPU-second ({1e6 * cpu / lines_scored:.1f} us CPU a "
              f"response); peak memory {peak:,.0f} MiB (the largest process), {joint[1]:,.0f} MiB proportional "
              f"({joint[0]:,.0f} MiB resident) for all its processes together, sampled")
        print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (other processes' share of them)")
        bound = min(args.workers, os.cpu_count() or 1) * lines_scored / cpu  # each process on a core of its own
        print(f"  target {TARGET_RATE:,} responses/s: {lines_scored / wall / TARGET_RATE:.0%} of it here (wall), "
              f"{bound / TARGET_RATE:.0%} of it were each of the {args.workers} process(es) on a core of its own at "
              f"this CPU time a response; peak memory {max(peak, joint[1]):,.0f} MiB, target under {TARGET_MIB} MiB")
        if args.compare_with:
            if not args.cold:
                warm_bytecode(out, args.compare_with)
            old_wall, old_cpu, old_peak, _, old_report = run_score(out, extra, args.compare_with)
            same = json.dumps(old_report, sort_keys=True) == json.dumps(report, sort_keys=True)
            print(f"  {args.compare_with}: {old_wall:.1f} s wall, {old_cpu:.1f} s CPU "
                  f"({1e6 * old_cpu / lines_scored:.1f} us CPU a response), peak memory {old_peak:,.0f} MiB; "
                  f"the reports are {'the same' if same else 'DIFFERENT'}")
            if not same:
                raise SystemExit(1)
        if args.distinct:
            rates = distinct_rate(lines, args.distinct)
            print("core scorer on all-different responses (nothing to remember): "
                  + ", ".join(f"{k} {v:,.0f}/s" for k, v in rates.items()))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
