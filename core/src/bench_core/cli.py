"""The ``bench`` command line: thin shells over the library functions.

Heavy modules are imported inside the commands, so ``bench --help`` stays quick.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from bench_core import __version__


def _fail(exc: Exception) -> click.ClickException:
    return click.ClickException(str(exc))


def _host() -> Any:
    """The default host; a plugin that fails under BENCH_STRICT_PLUGINS=1 becomes one clear error line."""
    from bench_core.errors import BenchError
    from bench_core.host import default_host

    try:
        return default_host()
    except BenchError as exc:
        raise _fail(exc) from exc


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bench")
def main() -> None:
    """Procedurally generate visual-reasoning benchmark items, verify them and score model responses."""
    from bench_core.allocator import keep_freed_memory

    keep_freed_memory()  # items are built from large short-lived buffers: keep the freed pages (allocator.py)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON array.")
def plugins(as_json: bool) -> None:
    """List installed plugins: name, distribution, version, status, error, task count."""

    records = [r.as_dict() for r in _host().records.values()]
    if as_json:
        click.echo(json.dumps(records, indent=1))
        return
    for r in records:
        line = (f"{r['name']:<12} {r['distribution'] or '-':<26} {r['version'] or '-':<10} {r['status']:<7} "
                f"tasks={r['task_count']}")
        click.echo(line + (f"  error: {r['error']}" if r["error"] else ""))


@main.command()
@click.argument("family", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON array.")
def tasks(family: str | None, as_json: bool) -> None:
    """List installed tasks (optionally of one FAMILY or one FAMILY/TASK) with version, answer type, category
    and every parameter: its default ("drawn per item" when each item draws its own value), the values
    allowed and what it means; and the task's difficulty scale: what levels 0 and 1 mean for
    --set difficulty=X (X in [0, 1], or a range a..b each item draws its level from)."""
    from bench_core.errors import BenchError

    try:
        selected = _host().select([family] if family else [])
    except BenchError as exc:
        raise _fail(exc) from exc
    rows = [
        {
            "id": t.id,
            "version": t.version,
            "answer_type": t.answer_type,
            "category": t.category,
            "description": t.description,
            "variants": list(t.variants),
            "parameters": [
                {"name": p.name, "kind": p.kind, "default": p.default, "allowed": p.allowed(), "help": p.help}
                for p in t.parameters
            ],
            "difficulty": None if t.difficulty is None else {
                "easiest": t.difficulty.easiest, "hardest": t.difficulty.hardest, "mapping": t.difficulty.mapping,
                "proxy": t.difficulty.proxy, "aliases": {k: str(v) for k, v in t.difficulty.aliases.items()},
            },
        }
        for t in selected
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    for row in rows:
        click.echo(f"{row['id']}  v{row['version']}  answer={row['answer_type']}  category={row['category']}")
        click.echo(f"    {row['description']}")
        for p in row["parameters"]:
            if p["kind"] == "level":
                continue  # shown with the scale below
            default = "drawn per item" if p["default"] is None else repr(p["default"])
            click.echo(f"    --set {p['name']}=...  default: {default}; allowed: {p['allowed']}")
            if p["help"]:
                click.echo(f"        {p['help']}")
        scale = row["difficulty"]
        if scale is None:
            own = any(p["name"] == "difficulty" for p in row["parameters"])
            click.echo("    difficulty: no normalised scale declared (" + (
                "--set difficulty takes only the values listed above)" if own else "--set difficulty is not accepted)"))
            continue
        level = next(p for p in row["parameters"] if p["kind"] == "level")
        click.echo(f"    --set difficulty=...  default: unset (the task's usual mix); allowed: {level['allowed']}")
        click.echo(f"        difficulty 0: {scale['easiest']}")
        click.echo(f"        difficulty 1: {scale['hardest']}")
        if scale["mapping"]:
            click.echo(f"        in between: {scale['mapping']}")
        click.echo(f"        hardness proxy: {scale['proxy']}")
        if scale["aliases"]:
            click.echo(f"        names: {_task_scale(row['id']).describe_aliases()}")


def _task_scale(task_id: str) -> Any:
    return _host().task(task_id).difficulty


class _Silent:
    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, steps: int) -> None:
        return None


def _progress(length: int, label: str) -> Any:
    """A progress bar on a terminal, nothing otherwise."""
    if sys.stderr.isatty():
        return click.progressbar(length=length, label=label, file=sys.stderr, show_pos=True)
    return _Silent()


def _parse_settings(values: Sequence[str]) -> dict[str, str]:
    settings: dict[str, str] = {}
    for value in values:
        key, sep, raw = value.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{value!r} is not KEY=VALUE", param_hint="--set")
        settings[key.strip()] = raw.strip()
    return settings


def _settings_for(task: Any, settings: dict[str, str], selected: Sequence[Any]) -> dict[str, str]:
    names = {p.name for p in task.parameters}
    if "difficulty" in settings:
        # a curriculum asked of several tasks must not quietly give some of them their usual mix
        lacking = [t.id for t in selected if "difficulty" not in {p.name for p in t.parameters}]
        if lacking:
            raise click.BadParameter(
                f"difficulty: {', '.join(lacking)} declare(s) no difficulty scale; select only tasks that do "
                "('bench tasks' shows each task's scale)", param_hint="--set")
    for key in settings:
        if not any(key in {p.name for p in t.parameters} for t in selected):
            allowed = sorted({f"{t.id}: {p.name}" for t in selected for p in t.parameters})
            raise click.BadParameter(
                f"no selected task has a parameter {key!r}; parameters are: {', '.join(allowed) or 'none'}",
                param_hint="--set",
            )
    return {k: v for k, v in settings.items() if k in names}


def _plan_of(task: Any, settings: dict[str, str], seed: int, count: int | None, selected: int) -> list[Any]:
    """``plan`` of one task of a run; where several tasks are selected, a setting it refuses names the task (the
    same value may suit the others: a named difficulty such as ``hard`` is a task's own alias)."""
    from bench_core.errors import ParameterError
    from bench_core.generation import plan

    try:
        return plan(task, settings, seed, count)
    except ParameterError as exc:
        if selected < 2:
            raise
        raise ParameterError(f"{task.id}: {exc}") from exc


def _report_idle(idle: Sequence[str], selected: int) -> None:
    """Say which selected tasks plan no item with the run's settings (a held-out task asked for its training
    set, say): on stderr where others still make items, as a ParameterError where none does."""
    from bench_core.errors import ParameterError

    if not idle:
        return
    shown = ", ".join(idle[:6]) + (f" and {len(idle) - 6} more" if len(idle) > 6 else "")
    why = "with these settings (in preset=train, for one, a task held out of training has none)"
    if len(idle) == selected:
        raise ParameterError(f"no items to make: {shown} {'plans' if len(idle) == 1 else 'plan'} none {why}; "
                             f"'bench tasks FAMILY/TASK' lists each task's parameters and presets")
    click.echo(f"bench: no items from {shown} {why}", err=True)


def _canonical_run(selectors: Sequence[str], count: int | None, seed: int, settings: dict[str, str],
                   selected: Sequence[Any]) -> dict[str, Any]:
    """The run's arguments with each setting converted by the first selected task that has it, defaults
    dropped, so that equivalent command lines name the same run."""
    canonical: dict[str, Any] = {}
    for key, raw in settings.items():
        owner = next(t for t in selected if key in {p.name for p in t.parameters})
        canonical.update(owner.canonical_settings({key: raw}))
    return {"selectors": list(selectors), "count": count, "seed": seed, "settings": dict(sorted(canonical.items()))}


@main.command()
@click.argument("selectors", nargs=-1)
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output directory.")
@click.option("--count", type=click.IntRange(min=1), default=None,
              help="Items per task, or item groups for a task whose items come in groups (Cartesian/Polar pairs) "
                   "(default: the task's preset size if a preset is set, else 4).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Run seed.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="Task parameter (repeatable); 'bench tasks FAMILY/TASK' lists each task's parameters.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (capped at the number of items and of CPU cores).")
@click.option("--append", is_flag=True,
              help="Add this run to a folder that already holds a dataset made with other arguments.")
def generate(selectors: tuple[str, ...], out_dir: str, count: int | None, seed: int, sets: tuple[str, ...],
             workers: int, append: bool) -> None:
    """Generate items of the tasks named by SELECTORS (FAMILY or FAMILY/TASK; none = every installed task).

    Writes OUT/items.jsonl, OUT/manifest.json and PNGs under OUT/images.  Running the same command again
    resumes an interrupted run without duplicates; a different command into the same folder is refused
    unless --append is given.
    """
    from bench_core.dataset import DatasetWriter, check_run, existing_ids, has_torn_tail, is_complete
    from bench_core.errors import BenchError
    from bench_core.generation import effective_workers

    if not out_dir.strip():
        raise click.BadParameter("must name a folder ('' would write into the current folder)", param_hint="--out")
    settings = _parse_settings(sets)
    try:
        host = _host()
        selected = host.select(selectors)
        jobs, idle = [], []
        for task in selected:
            planned = _plan_of(task, _settings_for(task, settings, selected), seed, count, len(selected))
            jobs.extend(planned)
            if not planned:
                idle.append(task.id)
        _report_idle(idle, len(selected))
        run = _canonical_run(selectors, count, seed, settings, selected)
        check_run(out_dir, run, append)
        present = existing_ids(out_dir)
        todo = [job for job in jobs if job.item_id not in present]
        if not todo and is_complete(out_dir) and not has_torn_tail(out_dir):
            click.echo(f"nothing to write: all {len(jobs)} items are already in {out_dir}")
            return
        used = effective_workers(workers, len(todo))
        if used < workers:
            click.echo(f"bench: using {used} worker(s): {len(todo)} items to make on {os.cpu_count()} cores",
                       err=True)
        writer = DatasetWriter(out_dir)
    except BenchError as exc:
        raise _fail(exc) from exc
    with writer:
        written = _write_run(host, writer, run, append, todo, used)
    click.echo(f"wrote {written} items ({len(jobs) - written} already present) to {out_dir}")


def _write_run(host: Any, writer: Any, run: dict[str, Any], append: bool, todo: list[Any], workers: int) -> int:
    """Under ``writer``'s lock, check the run again and make the jobs still missing (another writer may have
    finished between the first checks and the lock); the manifest says unfinished until the last item is
    written.  Returns the number of items written; a BenchError becomes one error line saying what is intact."""
    from bench_core.dataset import check_run, write_manifest
    from bench_core.errors import BenchError
    from bench_core.generation import build_job_traced, run_jobs
    from bench_core.host import merge_traces

    out_dir = writer.root
    try:
        runs = check_run(out_dir, run, append)
    except BenchError as exc:
        raise _fail(exc) from exc
    todo = [job for job in todo if job.item_id not in writer]
    written = 0
    try:
        with _progress(len(todo), "generating") as bar:
            trace: dict[str, Any] = {}
            write_manifest(out_dir, runs, complete=False, hooks=host.extensions())
            for item_json, paths, pngs, ran in run_jobs(todo, workers, build_job_traced):
                writer.write(item_json, paths, pngs)
                trace = merge_traces(trace, ran)
                written += 1
                bar.update(1)
            write_manifest(out_dir, runs, complete=True, hooks=host.extensions(), trace=trace)
    except BenchError as exc:
        raise _fail(
            BenchError(f"{exc}\n{written} new items were written and are intact; the run is marked unfinished")
        ) from exc
    return written


@main.command()
@click.argument("directory", type=click.Path(exists=True, file_okay=False))
@click.option("--reproduce", is_flag=True,
              help="Also regenerate every item from its recorded identity and compare it with what is stored.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
def verify(directory: str, reproduce: bool, workers: int) -> None:
    """Prove every item of DIRECTORY correct from disk: each task re-derives its answer from the item's record
    and scene and checks the facts it rests on in the PNG pixels.  With --reproduce, also regenerate each item
    and compare answers, records and images (exactly, or within the task's stated pixel tolerance)."""
    from bench_core.errors import BenchError
    from bench_core.verification import verify_dataset

    try:
        report = verify_dataset(directory, workers=workers, reproduce=reproduce)
    except BenchError as exc:
        raise _fail(exc) from exc
    for item_id, problem in report.failures[:200]:
        click.echo(f"{item_id}: {problem}", err=True)
    if not report.ok:
        raise click.ClickException(_verify_summary(report))
    click.echo(f"verified {report.checked} items from disk: every answer re-derived from its record and pixels")
    for task_id, mode in report.reproduced:
        click.echo(f"reproduced {task_id}: records identical, images {mode}")


def _verify_summary(report: Any) -> str:
    """The closing line of a failed verify: how many items failed, and whether the manifest disagrees (the
    manifest's problems are listed under the id 'manifest' and are not counted as a failed item)."""
    manifest = sum(1 for item_id, _ in report.failures if item_id == "manifest")
    bad = len({item_id for item_id, _ in report.failures if item_id != "manifest"})
    parts = [f"the manifest disagrees with the items ({manifest} problem(s) above)"] if manifest else []
    if bad or not manifest:
        parts.append(f"{bad} of {report.checked} items failed verification")
    return "; ".join(parts)


@main.command()
@click.argument("directory", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON array, one object per task.")
def audit(directory: str, as_json: bool) -> None:
    """Try to predict each multiple-choice item's answer from its options alone (no question stem).

    A cross-validated classifier over rule-blind option features (ink, extent, colourfulness, orientation,
    perceptual-hash twins, text length and answer-rate priors) is compared with chance; a task whose blind
    accuracy exceeds chance + 3 sd leaks its answer, and the command exits 1.  Run it on 1,000 items per task.
    """
    from bench_core.audit import audit_dataset, format_audit
    from bench_core.errors import BenchError

    try:
        results = audit_dataset(directory)
    except BenchError as exc:
        raise _fail(exc) from exc
    click.echo(json.dumps([r.as_dict() for r in results], indent=1) if as_json else format_audit(results))
    leaking = [r.task for r in results if not r.ok]
    if leaking:
        raise click.ClickException(f"answers predictable from the options alone: {', '.join(leaking)}")


@main.command()
@click.argument("directory", type=click.Path(exists=True, file_okay=False))
@click.argument("predictions", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (field 'overall' is the accuracy).")
@click.option("--by", "by", default="", metavar="FIELD,...",
              help="Extra breakdowns: params/metadata fields, e.g. tort_bin,cross_bin or metadata.crossings.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes scoring parts of the items file (the report is the same with any number).")
@click.option("--baseline", is_flag=True,
              help="Also print each group's mean random baseline (each task's random_baseline: 1/k for k options).")
def score(directory: str, predictions: str, as_json: bool, by: str, workers: int, baseline: bool) -> None:
    """Score PREDICTIONS (JSONL of {"id": ..., "response": ...}) against the items of DIRECTORY.

    Both files are streamed: memory holds an index of the predictions and the counters of each group.  Items in
    variants "cartesian" and "polar" also get each task's accuracy in both and the drop (polar - cartesian)."""
    from bench_core.errors import BenchError
    from bench_core.report import format_report, score_dataset

    try:
        report = score_dataset(directory, predictions, [f.strip() for f in by.split(",") if f.strip()],
                               workers=workers, baseline=baseline)
    except BenchError as exc:
        raise _fail(exc) from exc
    click.echo(json.dumps(report, indent=1) if as_json else format_report(report))


@main.command("report")
@click.argument("directory", type=click.Path(exists=True, file_okay=False))
@click.argument("predictions", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(),
              help="Report folder: a new one, an empty one or an earlier report's.")
@click.option("--by", "by", default="", metavar="FIELD,...",
              help="Also draw each task's accuracy by these params/metadata fields, e.g. tort_bin,vertices.")
def report_command(directory: str, predictions: str, out_dir: str, by: str) -> None:
    """Write a report of PREDICTIONS scored against DIRECTORY: OUT/index.html (self-contained: figures and
    example images embedded, nothing fetched), OUT/report.md (the tables) and the figures as PNG under
    OUT/figures.  Each family gets its paper's figures; needs matplotlib (pip install 'bench-core[report]')."""
    from bench_core.errors import BenchError
    from bench_core.report_page import write_report

    if not out_dir.strip():
        raise click.BadParameter("must name a folder", param_hint="--out")
    try:
        page = write_report(directory, predictions, out_dir, [f.strip() for f in by.split(",") if f.strip()])
    except BenchError as exc:
        raise _fail(exc) from exc
    figures = sum(len(s.charts) for s in page.sections)
    click.echo(f"wrote {os.path.join(out_dir, 'index.html')}, report.md and {figures} figures: overall accuracy "
               f"{page.summary['overall']:.4f} over {page.summary['n']} items")


@main.command("eval")
@click.argument("directory", type=click.Path(exists=True, file_okay=False))
@click.option("--model", default=None, help="Model name the endpoint serves (required unless --list-prompts).")
@click.option("--base-url", default=lambda: os.environ.get("OPENAI_BASE_URL") or "http://localhost:8000/v1",
              show_default="$OPENAI_BASE_URL, else http://localhost:8000/v1",
              help="OpenAI-compatible endpoint: the URL before /chat/completions.")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, metavar="VAR",
              help="Environment variable holding the API key (the key is never taken on the command line, "
                   "written or logged); unset: no key is sent.")
@click.option("--concurrency", type=click.IntRange(1, 512), default=8, show_default=True,
              help="Requests in flight at once.")
@click.option("--prompt", "prompt", default="paper", show_default=True, metavar="STYLE",
              help="Prompt style: 'paper' (each family's paper wrapper), 'plain' (the question as is) or a "
                   "family's other styles; --list-prompts shows them.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Ask only the first N items of each task.")
@click.option("--tasks", "task_sel", default="", metavar="SEL,...",
              help="Ask only the items of these tasks or families (FAMILY or FAMILY/TASK).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Predictions JSONL (default: DIR/predictions/MODEL.STYLE.jsonl); an existing one is resumed.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=300.0, show_default=True,
              help="Seconds a request may wait for the server before it is retried.")
@click.option("--max-retries", type=click.IntRange(min=0), default=6, show_default=True,
              help="Retries of a request after a 429, a 5xx, a timeout or a dropped connection.")
@click.option("--backoff", type=click.FloatRange(min=0.0), default=1.0, show_default=True,
              help="Seconds before the first retry; doubles each retry (at most 60 s), with jitter.")
@click.option("--temperature", type=float, default=None, help="Sampling temperature (default: the server's).")
@click.option("--max-tokens", type=click.IntRange(min=1), default=None, help="Longest answer (default: the server's).")
@click.option("--param", "extra", multiple=True, metavar="KEY=VALUE",
              help="Another request field (repeatable); VALUE is JSON if it parses, else a string, e.g. seed=0.")
@click.option("--list-prompts", is_flag=True, help="Describe the prompt styles of the dataset's tasks and exit.")
def eval_command(directory: str, model: str | None, base_url: str, api_key_env: str, concurrency: int, prompt: str,
                 limit: int | None, task_sel: str, out_path: str | None, timeout: float, max_retries: int,
                 backoff: float, temperature: float | None, max_tokens: int | None, extra: tuple[str, ...],
                 list_prompts: bool) -> None:
    """Ask a model every item of DIRECTORY through an OpenAI-compatible chat-completions endpoint: each
    item's images (as base64 data URLs) and its question in the chosen prompt style, as one user message.

    Each answer is appended to the predictions file as it comes (with the model, endpoint, prompt style, token
    usage and latency); running the same command again resumes, never asking an answered item twice.  A wrong
    key, model or URL stops the run at once, saying which; failed items are asked again by the next run."""
    from bench_core import prompts
    from bench_core.chat import ChatClient
    from bench_core.dataset import read_items
    from bench_core.errors import BenchError
    from bench_core.evaluation import PredictionsFile, Progress, default_out, run_eval, select_items, summary

    try:
        selectors = [s.strip() for s in task_sel.split(",") if s.strip()]
        items = select_items(read_items(directory), selectors, limit)
        host = _host()
        tasks = sorted({(i.task_id, i.family) for i in items})
        if list_prompts:
            _list_prompts([(t, f, host.tasks.get(t)) for t, f in tasks])
            return
        if not model:
            raise click.UsageError("--model is required: the name of the model the endpoint serves")
        styles = prompts.resolve(prompt, [(t, f, host.tasks.get(t)) for t, f in tasks])
        key = _api_key(api_key_env)
        params = _request_params(temperature, max_tokens, extra)
        client = ChatClient(base_url, model, api_key=key, key_source=f"${api_key_env}", timeout=timeout,
                            max_retries=max_retries, backoff=backoff, params=params)
        predictions = PredictionsFile(out_path or default_out(directory, model, prompt))
    except BenchError as exc:
        raise _fail(exc) from exc
    with predictions:
        try:
            predictions.check_run(model, prompt)
        except BenchError as exc:
            raise _fail(exc) from exc
        if predictions.repaired:
            click.echo(f"bench: {predictions.path}: {predictions.repaired}", err=True)
        try:
            outcome = run_eval(directory, items, styles, prompt, client, predictions, concurrency=concurrency,
                               progress=Progress(len(items) - sum(i.id in predictions.records for i in items)))
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted: {predictions.path} holds {len(predictions.records)} answers; run the same "
                       "command again to resume", err=True)
            sys.exit(130)
        except BenchError as exc:  # the predictions file could not be written
            raise _fail(exc) from exc
        for line in summary(outcome, client, predictions, directory):
            click.echo(line)
    if outcome.stopped is not None:
        raise _fail(BenchError(f"stopped: {outcome.stopped}\nthe {len(predictions.records)} answers in "
                               f"{predictions.path} are kept: fix the cause and run the same command to resume"))
    if outcome.failed:
        first = "; ".join(f"{i}: {why}" for i, why in outcome.failed[:3])
        raise _fail(BenchError(f"{len(outcome.failed)} items failed ({first}); run the same command again to ask "
                               "them again"))


def _api_key(variable: str) -> str | None:
    """The API key from the environment variable ``variable``; None (no key sent) when it is unset or empty,
    said on stderr, or an error when another variable than the default was named."""
    key = os.environ.get(variable, "").strip()
    if key:
        return key
    source = click.get_current_context().get_parameter_source("api_key_env")
    if source is not None and source.name != "DEFAULT":
        raise click.BadParameter(f"${variable} is not set (or empty); export the key in it", param_hint="--api-key-env")
    click.echo(f"bench: ${variable} is not set: sending requests without an API key", err=True)
    return None


def _request_params(temperature: float | None, max_tokens: int | None, extra: Sequence[str]) -> dict[str, Any]:
    """The request fields beyond model and messages."""
    params: dict[str, Any] = {}
    if temperature is not None:
        params["temperature"] = temperature
    if max_tokens is not None:
        params["max_tokens"] = max_tokens
    for key, raw in _parse_settings(extra).items():
        if key in ("model", "messages"):
            raise click.BadParameter(f"{key} is set by bench eval itself (--model, --prompt)", param_hint="--param")
        try:
            params[key] = json.loads(raw)
        except ValueError:
            params[key] = raw
    return params


def _list_prompts(tasks: Sequence[tuple[str, str, Any]]) -> None:
    from bench_core.prompts import styles_for

    for task_id, family, task in tasks:
        click.echo(task_id)
        for name, style in sorted(styles_for(family, task).items()):
            click.echo(f"  {name}: {style.description}")
            if style.system:
                click.echo("      system: " + style.system.replace("\n", "\n              "))
            click.echo("      user:   [images] " + style.template.replace("\n", "\n              "))


if __name__ == "__main__":  # pragma: no cover
    main()
