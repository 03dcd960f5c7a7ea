"""Throughput and reliability of ``bench eval`` against the scripted chat-completions server of the tests
(core/tests/chat_server.py), run in its own process on 127.0.0.1.

1. Throughput: items/s at concurrency 1, 8 and 32, every reply delayed by ``--latency`` seconds (the ideal
   is concurrency / latency).
2. Reliability under scripted faults (per item, by a hash of its id: 429 bursts with and without
   Retry-After, 500s, replies slower than the timeout, dropped connections; the rest answer at once):
   requests sent, retried by reason, items failed, items lost (asked but neither written nor reported).
3. Kill and resume under the same faults: ``bench eval`` in a subprocess is SIGKILLed after a third of its
   lines, the same command runs again; duplicate and lost lines are counted.

    python benchmarks/eval_throughput.py [--items 48] [--replicate 8] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "core" / "tests"))

from bench_core.chat import ChatClient  # noqa: E402
from bench_core.dataset import read_items  # noqa: E402
from bench_core.evaluation import PredictionsFile, run_eval  # noqa: E402
from bench_core.prompts import resolve  # noqa: E402

#: Faults by (hash of the item id) % 20; every other item answers at once.
FAULTS = {
    0: ("429", "429", "429", "gold"),
    1: ("500", "500", "gold"),
    2: ("slow", "gold"),
    3: ("drop", "gold"),
    4: ("429-bare", "gold"),
}
TIMEOUT = 0.5


def faults(item_id: str) -> tuple[str, ...]:
    return FAULTS.get(int(hashlib.sha256(item_id.encode()).hexdigest(), 16) % 20, ("gold",))


def serve(data: str, latency: float, with_faults: bool) -> None:
    """Run the scripted server until stdin closes, printing its URL first."""
    from chat_server import ScriptedChatServer

    items = read_items(data)
    script = (lambda item: faults(item.id)) if with_faults else {}
    with ScriptedChatServer(items, script, latency=latency, slow=2 * TIMEOUT) as server:
        print(server.url, flush=True)
        sys.stdin.read()


class Server:
    """The scripted server in a child process."""

    def __init__(self, data: Path, latency: float, with_faults: bool) -> None:
        args = [sys.executable, __file__, "--serve", str(data), "--latency", str(latency)]
        self.proc = subprocess.Popen(args + (["--faults"] if with_faults else []), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.stdin.close()
        self.proc.wait(10)


def make_data(work: Path, count: int, replicate: int) -> tuple[Path, Path]:
    """A generated dataset of ``count`` traversal/path items, and one of ``replicate`` copies of each (new
    ids, the same images) for the runs that need many items."""
    data = work / "data"
    subprocess.run(["bench", "generate", "traversal/path", "--count", str(count), "--out", str(data)], check=True,
                   stdout=subprocess.DEVNULL)
    big = work / "big"
    big.mkdir()
    (big / "images").mkdir()
    with open(big / "items.jsonl", "w") as out:
        for line in (data / "items.jsonl").read_text().splitlines():
            record = json.loads(line)
            png = (data / record["images"][0]).read_bytes()
            for k in range(replicate):
                # bytes after the PNG's end give each copy its own hash, by which the server tells items apart
                copy = png + bytes(k)
                name = f"images/{record['id']}.r{k}.png"
                (big / name).write_bytes(copy)
                out.write(json.dumps({**record, "id": f"{record['id']}.r{k}", "images": [name],
                                      "image_sha256": [hashlib.sha256(copy).hexdigest()]}) + "\n")
    return data, big


def evaluate(data: Path, url: str, out: Path, concurrency: int, timeout: float = 30.0) -> tuple[object, ChatClient]:
    items = read_items(data)
    styles = resolve("paper", [("traversal/path", "traversal", _task())])
    client = ChatClient(url, "test-model", timeout=timeout, max_retries=6, backoff=0.05)
    with PredictionsFile(out) as predictions:
        outcome = run_eval(data, items, styles, "paper", client, predictions, concurrency=concurrency)
    return outcome, client


def _task() -> object:
    from bench_core.host import default_host

    return default_host().tasks.get("traversal/path")


def throughput(data: Path, big: Path, work: Path, latency: float) -> None:
    print(f"throughput: scripted server in its own process, {latency * 1000:.0f} ms per reply")
    with Server(big, latency, with_faults=False) as server:
        for concurrency in (1, 8, 32):
            source = data if concurrency == 1 else big
            cpu = time.process_time()
            outcome, _ = evaluate(source, server.url, work / f"c{concurrency}.jsonl", concurrency)
            cpu = time.process_time() - cpu
            rate = outcome.answered / outcome.elapsed
            print(f"  concurrency {concurrency:>2}: {outcome.answered:>4} items in {outcome.elapsed:5.2f} s = "
                  f"{rate:6.1f} items/s (ideal {concurrency / latency:.0f}), mean latency "
                  f"{outcome.latency / outcome.answered * 1000:.0f} ms, failed {len(outcome.failed)}, client CPU "
                  f"{cpu / outcome.answered * 1000:.2f} ms/item")


def reliability(big: Path, work: Path) -> None:
    items = read_items(big)
    planned = sum(len(faults(i.id)) - 1 for i in items)
    print(f"reliability: {len(items)} items, scripted faults on {sum(faults(i.id) != ('gold',) for i in items)} of "
          f"them ({planned} faulty replies planned), timeout {TIMEOUT} s, concurrency 8")
    out = work / "faults.jsonl"
    with Server(big, 0.0, with_faults=True) as server:
        outcome, client = evaluate(big, server.url, out, 8, timeout=TIMEOUT)
    written = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    failed = {i for i, _ in outcome.failed}
    lost = {i.id for i in items} - set(written) - failed
    retried = ", ".join(f"{n} {reason}" for reason, n in sorted(client.stats.retried.items()))
    print(f"  requests sent {client.stats.requests}, retried {sum(client.stats.retried.values())} ({retried}), "
          f"failed {len(failed)}, lost {len(lost)}, duplicate lines {len(written) - len(set(written))}")


def kill_and_resume(big: Path, work: Path) -> None:
    items = read_items(big)
    out = work / "killed.jsonl"
    with Server(big, 0.02, with_faults=True) as server:
        args = ["bench", "eval", str(big), "--model", "test-model", "--base-url", server.url, "--out", str(out),
                "--concurrency", "8", "--timeout", str(TIMEOUT), "--backoff", "0.05"]
        env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while proc.poll() is None and (not out.exists() or out.read_text().count("\n") < len(items) // 3):
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        before = out.read_text().count("\n")
        rerun = subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    written = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    lost = {i.id for i in items} - set(written)
    print(f"kill and resume: killed after {before} lines, rerun exit {rerun.returncode}; {len(written)} lines, "
          f"duplicates {len(written) - len(set(written))}, lost {len(lost)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=48, help="items generated (the concurrency-1 run asks them)")
    parser.add_argument("--replicate", type=int, default=8, help="copies of each for the other runs")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the server takes per reply")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--faults", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.latency, args.faults)
        return
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        os.environ.pop(var, None)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        data, big = make_data(work, args.items, args.replicate)
        throughput(data, big, work, args.latency)
        reliability(big, work)
        kill_and_resume(big, work)


if __name__ == "__main__":
    main()
