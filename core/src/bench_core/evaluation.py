"""``bench eval``: ask a model every item of a dataset through a chat-completions endpoint and write the
predictions file ``bench score`` reads.

What a run promises:

- one JSON line per answered item, ``{"id", "response", ...}`` with the task, model, endpoint, prompt style
  and its fingerprint, token usage, latency, attempts and finish reason, appended whole by one write, so
  that a killed run leaves complete lines (and at worst one torn last line, which the next run repairs);
- running the same command again resumes: an item with a line is never asked again; an item that failed
  (retries exhausted) has no line and is asked again;
- one writer per predictions file (a second run on the same file is refused while the first holds it), and
  a file that holds another model's or prompt style's answers is refused rather than mixed;
- the API key is never written: it is not part of any record, and the client cuts it out of messages.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

import attrs

from bench_core import prompts
from bench_core.chat import ChatClient, Completion, EndpointError, RequestFailed, Stopped
from bench_core.errors import BenchError, DatasetError
from bench_core.types import Item, PromptStyle

#: Items that fail one after another, with no answer in between, before a run gives up on the endpoint.
GIVE_UP_AFTER = 5
#: Seconds a stopping run waits for requests already sent before it leaves them.
GRACE = 10.0


def default_out(root: str | os.PathLike[str], model: str, prompt: str) -> Path:
    """Where a run's predictions go when ``--out`` is not given: one file per model and prompt style under
    ``DIR/predictions/``, so that the same command finds its own file again."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", model.replace("/", "--")).strip("-.") or "model"
    return Path(root) / "predictions" / f"{safe}.{prompt}.jsonl"


def select_items(items: Sequence[Item], selectors: Sequence[str], limit: int | None) -> list[Item]:
    """The items of the tasks named by ``selectors`` (``family`` or ``family/task``; none = all), the first
    ``limit`` of each task in file order when a limit is given; a DatasetError names a selector that matches
    no item and lists the tasks the dataset holds."""
    present = Counter(item.task_id for item in items)
    for selector in selectors:
        if not any(selector in (task_id, task_id.split("/")[0]) for task_id in present):
            listing = ", ".join(f"{t} ({n})" for t, n in sorted(present.items()))
            raise DatasetError(f"--tasks {selector}: the dataset has no such task or family; it holds {listing}")
    chosen = [i for i in items if not selectors or i.task_id in selectors or i.family in selectors]
    if limit is None:
        return chosen
    taken: Counter[str] = Counter()
    out = []
    for item in chosen:
        if taken[item.task_id] < limit:
            taken[item.task_id] += 1
            out.append(item)
    return out


def image_urls(root: Path, item: Item) -> list[str]:
    """The item's images as base64 ``data:`` URLs; a DatasetError names an image that cannot be read."""
    urls = []
    for rel in item.images:
        path = root / rel
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DatasetError(f"cannot read image {path}: {exc.strerror or exc}") from exc
        kind = {".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp", ".gif": "gif"}.get(path.suffix.lower(), "png")
        urls.append(f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}")
    return urls


class PredictionsFile:
    """A predictions JSONL held by one run: locked, its torn last line repaired, its answered ids known."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        import fcntl

        self.path = Path(path)
        self.records: dict[str, dict[str, Any]] = {}  # id -> the line's model and prompt style
        self.repaired = ""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o666)
        except OSError as exc:
            raise DatasetError(f"cannot write predictions {self.path}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._fd)
            raise DatasetError(f"{self.path} is being written by another 'bench eval'; wait for it to finish, or "
                               "give another --out") from None
        try:
            self._repair_and_index()
        except BaseException:
            self.close()
            raise

    def _repair_and_index(self) -> None:
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            tail = data[end:]
            if _answer(tail) is not None:  # a whole line lacking only its newline (a hand-made file)
                os.write(self._fd, b"\n")
                end = len(data) + 1
                self.repaired = "ended its last line"
            else:
                os.ftruncate(self._fd, end)
                self.repaired = f"dropped a torn last line ({len(tail)} bytes) left by an interrupted run"
        for line in data[:end].splitlines():
            record = _answer(line)
            if record is not None:
                self.records[record["id"]] = {k: record.get(k) for k in ("model", "prompt_style")}
        self.size = end

    def check_run(self, model: str, prompt: str) -> None:
        """A DatasetError if the file holds answers of another model or prompt style (lines that do not say
        which, as in a hand-made file, are taken as they are)."""
        others = Counter((r["model"], r["prompt_style"]) for r in self.records.values()
                         if r["model"] is not None and (r["model"], r["prompt_style"]) != (model, prompt))
        if others:
            (m, p), n = others.most_common(1)[0]
            raise DatasetError(f"{self.path} holds {n} answers of model {m!r} with prompt {p!r}; this run asks "
                               f"{model!r} with prompt {prompt!r}: give another --out (by default each model and "
                               "prompt style has its own file)")

    def append(self, record: Mapping[str, Any]) -> None:
        """Append one record as one line in one write; on an error the file is cut back to its last whole
        line and a DatasetError says what is intact."""
        line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            written = os.write(self._fd, line)
            while written < len(line):  # a short write (a full disk, a signal): finish or fail below
                more = os.write(self._fd, line[written:])
                if more <= 0:
                    raise OSError("short write")
                written += more
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self.size)
            raise DatasetError(f"cannot write {self.path}: {exc.strerror or exc}; the {len(self.records)} answers "
                               "before are intact: free the cause and run the same command again") from exc
        self.size += len(line)
        self.records[record["id"]] = {"model": record.get("model"), "prompt_style": record.get("prompt_style")}

    def close(self) -> None:
        """Sync the file to disk and release the lock."""
        if self._fd < 0:
            return
        try:
            os.fsync(self._fd)
        except OSError:
            pass
        finally:
            os.close(self._fd)  # closing releases the flock
            self._fd = -1

    def __enter__(self) -> PredictionsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _answer(line: bytes) -> dict[str, Any] | None:
    """The record of a predictions line that ``bench score`` would take as an answer, or None."""
    try:
        record = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(record, dict) and isinstance(record.get("id"), str) and "response" in record:
        return record
    return None


@attrs.define
class Outcome:
    """What a run did: counts, the failures (id, reason) and the error that stopped it, if any."""

    asked: int = 0
    answered: int = 0
    failed: list[tuple[str, str]] = attrs.field(factory=list)
    skipped: int = 0  # already answered in the file
    stopped: BenchError | None = None
    elapsed: float = 0.0
    latency: float = 0.0  # summed over answered items


class Progress:
    """One status line on stderr: rewritten in place on a terminal, printed every ``every`` seconds
    otherwise."""

    def __init__(self, total: int, stream: IO[str] | None = None, every: float = 10.0) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = 0.2 if self.tty else every
        self.started = time.monotonic()
        self.last = self.started if not self.tty else 0.0  # a log gets its first line after `every`

    def show(self, outcome: Outcome, client: ChatClient, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self.last < self.every:
            return
        self.last = now
        elapsed = max(now - self.started, 1e-9)
        rate = outcome.answered / elapsed
        left = self.total - outcome.answered - len(outcome.failed)
        eta = f", ETA {_clock(left / rate)}" if rate > 0 and left > 0 else ""
        tokens = client.stats.prompt_tokens + client.stats.completion_tokens
        line = (f"eval {outcome.answered + len(outcome.failed)}/{self.total} items, {len(outcome.failed)} failed, "
                f"{sum(client.stats.retried.values())} retried, {_short(tokens)} tokens, {rate:.2f} items/s{eta}")
        if self.tty:
            self.stream.write("\r\x1b[2K" + line + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _short(n: int) -> str:
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n / 1e3:.1f}k" if n >= 1e3 else str(n)


def run_eval(root: str | os.PathLike[str], items: Iterable[Item], styles: Mapping[str, PromptStyle],
             prompt: str, client: ChatClient, out: PredictionsFile, *, concurrency: int,
             progress: Progress | None = None) -> Outcome:
    """Ask ``client`` every item not yet in ``out`` with ``concurrency`` requests in flight, appending each
    answer to ``out`` as it comes (``styles`` maps each task id to its style, named ``prompt``).

    Stops early (``Outcome.stopped``) when the endpoint refuses every request, or when ``GIVE_UP_AFTER``
    items fail in a row; a KeyboardInterrupt stops the requests and is re-raised.  Whatever was appended
    stays: the next run resumes from it."""
    root = Path(root)
    outcome = Outcome()
    todo: queue.Queue[Item] = queue.Queue()
    for item in items:
        if item.id in out.records:
            outcome.skipped += 1
        else:
            todo.put(item)
    outcome.asked = todo.qsize()
    results: queue.Queue[tuple[str, Item | None, Any]] = queue.Queue()
    fingerprints = {task_id: prompts.fingerprint(style) for task_id, style in styles.items()}

    def work() -> None:
        while not client.stop.is_set():
            try:
                item = todo.get_nowait()
            except queue.Empty:
                break
            try:
                messages = prompts.messages(styles[item.task_id], item.question, image_urls(root, item))
                results.put(("ok", item, client.complete(messages)))
            except Stopped:
                break
            except EndpointError as exc:
                results.put(("stop", item, exc))
                client.stop.set()
            except (RequestFailed, BenchError) as exc:
                results.put(("failed", item, client.redact(str(exc))))
            except Exception as exc:  # one item's surprise must not end the run
                results.put(("failed", item, client.redact(f"{type(exc).__name__}: {exc}")))
        results.put(("done", None, None))

    workers = [threading.Thread(target=work, name=f"bench-eval-{k}", daemon=True)
               for k in range(max(1, min(concurrency, outcome.asked)))]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    running, in_a_row, deadline = len(workers), 0, None
    try:
        while running and (deadline is None or time.monotonic() < deadline):
            try:
                kind, item, payload = results.get(timeout=0.2)
            except queue.Empty:
                if progress:
                    progress.show(outcome, client)
                continue
            if kind == "done":
                running -= 1
            elif kind == "ok":
                out.append(_record(item, payload, client, prompt, fingerprints[item.task_id]))
                outcome.answered += 1
                outcome.latency += payload.latency
                in_a_row = 0
            elif kind == "failed":
                outcome.failed.append((item.id, payload))
                in_a_row += 1
                if in_a_row >= GIVE_UP_AFTER and outcome.stopped is None:
                    outcome.stopped = EndpointError(
                        f"the last {in_a_row} items all failed, the last one: {payload}; is the endpoint healthy?")
                    client.stop.set()
            elif outcome.stopped is None:  # "stop"
                outcome.stopped = payload
            if client.stop.is_set() and deadline is None:
                deadline = time.monotonic() + GRACE
            if progress:
                progress.show(outcome, client)
    except KeyboardInterrupt:
        client.stop.set()
        raise
    finally:
        outcome.elapsed = time.monotonic() - started
    if progress:
        progress.show(outcome, client, final=True)
    return outcome


def _record(item: Item, completion: Completion, client: ChatClient, prompt: str, fingerprint: str) -> dict[str, Any]:
    """The predictions line of one answer (never anything holding the API key)."""
    record: dict[str, Any] = {
        "id": item.id,
        "response": completion.text,
        "task": item.task_id,
        "model": client.model,
        "endpoint": client.endpoint,
        "prompt_style": prompt,
        "prompt_sha256": fingerprint,
        "usage": dict(completion.usage) if completion.usage is not None else None,
        "latency_s": round(completion.latency, 3),
        "attempts": completion.attempts,
        "finish_reason": completion.finish_reason,
        "response_id": completion.response_id,
        "answered_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    if client.params:
        record["params"] = client.params
    if completion.reasoning is not None:
        record["reasoning"] = completion.reasoning
    return record


def summary(outcome: Outcome, client: ChatClient, out: PredictionsFile, root: str | os.PathLike[str]) -> list[str]:
    """The closing lines of a run: what was asked and written, the requests and retries, the tokens, and (for
    a run that was not stopped) the command that scores the file."""
    stats = client.stats
    retried = ", ".join(f"{n} after {reason}" for reason, n in stats.retried.most_common()) or "none"
    mean = f"{outcome.latency / outcome.answered:.2f} s" if outcome.answered else "-"
    lines = [
        f"asked {outcome.asked} items ({outcome.skipped} already answered): {outcome.answered} answered, "
        f"{len(outcome.failed)} failed; {out.path} holds {len(out.records)} answers",
        f"requests {stats.requests}, retried: {retried}; tokens {stats.prompt_tokens} in, "
        f"{stats.completion_tokens} out; mean latency {mean}; {outcome.elapsed:.1f} s",
    ]
    if outcome.stopped is None:
        lines.append(f"score them: bench score {root} {out.path}")
    return lines
