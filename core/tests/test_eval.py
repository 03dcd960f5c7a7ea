"""``bench eval`` end to end against a real chat-completions server on 127.0.0.1 (chat_server.py) that
answers from a script: gold, wrong and malformed answers, 429 bursts, 500s, slow replies and dropped
connections; then ``bench score`` of what it wrote.  Also: resuming after a SIGKILL, the stops on a wrong
key, model or URL, the API key kept out of every file and message, and the prompt styles."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from chat_server import ScriptedChatServer
from click.testing import CliRunner

from bench_core import PromptStyle, Task
from bench_core.cli import main
from bench_core.dataset import read_items
from bench_core.errors import BenchError, DatasetError
from bench_core.evaluation import PredictionsFile, default_out
from bench_core.prompts import FAMILY_STYLES, messages, resolve, styles_for

KEY_VAR = "BENCH_TEST_EVAL_KEY"
KEY = "sk-test-Zq8v1SECRETkey"
#: Twelve items: 9 end gold (after 429s, 500s, a timeout and a dropped connection on the way), 3 do not.
SCRIPT = [
    ("gold",), ("gold",), ("gold",), ("gold",), ("gold",),
    ("wrong",),
    ("malformed",),
    ("429", "429", "429", "gold"),
    ("500", "500", "gold"),
    ("slow", "gold"),
    ("drop", "gold"),
    ("429-bare", "wrong"),
]
EXPECTED_ACCURACY = 9 / 12
EXPECTED_RETRIES = 3 + 2 + 1 + 1 + 1

# The items and the paper prompt style come from the traversal plugin; `tox -e cross` runs this file with it.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("bench_plugin_traversal") is None,
    reason="needs bench-plugin-traversal installed (tox -e cross runs this file with it)")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("eval") / "data"
    result = CliRunner().invoke(main, ["generate", "traversal/path", "--count", "12", "--out", str(root)])
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture(scope="module")
def items(dataset):
    return read_items(dataset)


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv(KEY_VAR, KEY)


def scripted(items):
    return {item.id: SCRIPT[k] for k, item in enumerate(items)}


def run_eval(server_url, dataset, out, *extra, model="test-model"):
    args = ["eval", str(dataset), "--model", model, "--base-url", server_url, "--api-key-env", KEY_VAR,
            "--out", str(out), "--timeout", "0.5", "--backoff", "0.01", *extra]
    return CliRunner().invoke(main, args)


def lines(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def score(dataset, predictions):
    result = CliRunner().invoke(main, ["score", str(dataset), str(predictions), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_scripted_faults_end_to_end_then_score_gives_the_expected_accuracy(dataset, items, tmp_path):
    out = tmp_path / "pred.jsonl"
    with ScriptedChatServer(items, scripted(items), api_key=KEY, slow=1.6) as server:
        result = run_eval(server.url, dataset, out, "--concurrency", "4", "--timeout", "1")
        assert result.exit_code == 0, result.output
        assert not server.problems
        sent = len(server.log)
    records = lines(out)
    assert sorted(r["id"] for r in records) == sorted(i.id for i in items)
    assert sent == 12 + EXPECTED_RETRIES
    assert f"requests {sent}, retried:" in result.stdout
    assert f"eval 12/12 items, 0 failed, {EXPECTED_RETRIES} retried" in result.stderr  # the progress line
    report = score(dataset, out)
    assert report["overall"] == EXPECTED_ACCURACY
    assert (report["missing"], report["malformed_lines"], report["duplicate_ids"]) == (0, 0, 0)
    by_id = {r["id"]: r for r in records}
    slow_item, burst_item = items[9].id, items[7].id
    assert by_id[slow_item]["attempts"] == 2 and by_id[burst_item]["attempts"] == 4
    for r in records:
        assert r["model"] == "test-model" and r["endpoint"] == server.url + "/chat/completions"
        assert r["prompt_style"] == "paper" and r["task"] == "traversal/path" and r["finish_reason"] == "stop"
        assert r["usage"]["prompt_tokens"] == 100 and r["latency_s"] >= 0
    # the paper style of TraversalBench: its system message, then the image and the question as is
    first = server.requests[0]["messages"]
    assert first[0]["role"] == "system" and "final answer only" in first[0]["content"]
    assert first[1]["content"][0]["image_url"]["url"].startswith("data:image/png;base64,")
    # the API key is in no file and no message
    assert KEY not in result.output
    for path in [*tmp_path.rglob("*"), *dataset.rglob("*")]:
        assert not path.is_file() or KEY.encode() not in path.read_bytes(), path


def test_concurrency_bounds_the_requests_in_flight(dataset, items, tmp_path):
    with ScriptedChatServer(items, {}, api_key=KEY, latency=0.1) as server:
        result = run_eval(server.url, dataset, tmp_path / "p.jsonl", "--concurrency", "3")
        assert result.exit_code == 0, result.output
    assert 2 <= server.max_in_flight <= 3


def test_the_same_command_again_asks_nothing(dataset, items, tmp_path):
    out = tmp_path / "pred.jsonl"
    with ScriptedChatServer(items, scripted(items), api_key=KEY) as server:
        assert run_eval(server.url, dataset, out, "--concurrency", "8").exit_code == 0
        before = len(server.log)
        again = run_eval(server.url, dataset, out, "--concurrency", "8")
        assert again.exit_code == 0, again.output
        assert len(server.log) == before
    assert "asked 0 items (12 already answered)" in again.stdout
    assert len(lines(out)) == 12


def test_a_killed_run_resumes_without_duplicates_or_losses(dataset, items, tmp_path):
    out = tmp_path / "pred.jsonl"
    env = {**os.environ, KEY_VAR: KEY}
    with ScriptedChatServer(items, {}, api_key=KEY, latency=0.15) as server:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bench_core.cli", "eval", str(dataset), "--model", "test-model", "--base-url",
             server.url, "--api-key-env", KEY_VAR, "--out", str(out), "--concurrency", "2"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 4):
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert out.read_bytes().endswith(b"\n")  # each line is written whole: a kill leaves none torn
        first = {r["id"] for r in lines(out)}
        assert 4 <= len(first) < 12
        with open(out, "ab") as handle:  # as if the kill had cut a line short
            handle.write(b'{"id": "traversal.path.0.0000')
        asked_before = len(server.log)
        result = run_eval(server.url, dataset, out, "--concurrency", "2")
        assert result.exit_code == 0, result.output
        asked_again = set(server.asked()[asked_before:])
    assert "dropped a torn last line" in result.stderr
    assert not asked_again & first
    records = lines(out)
    assert len(records) == 12 and {r["id"] for r in records} == {i.id for i in items}
    assert score(dataset, out)["overall"] == 1.0


def test_a_wrong_key_stops_at_once_naming_the_variable_and_never_showing_the_key(dataset, items, tmp_path):
    out = tmp_path / "pred.jsonl"
    with ScriptedChatServer(items, {}, api_key="sk-the-right-one") as server:
        result = run_eval(server.url, dataset, out, "--concurrency", "2")
        sent = len(server.requests)
    assert result.exit_code == 1
    assert f"the endpoint refused the API key from ${KEY_VAR} (HTTP 401" in result.output
    assert KEY not in result.output and "***" in result.output  # the server echoed it; the client cut it out
    assert sent <= 2  # no retries, nothing more sent
    assert out.read_text() == ""


def test_no_key_at_all_says_which_variable_to_set(dataset, items, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with ScriptedChatServer(items, {}, api_key="sk-needed") as server:
        result = CliRunner().invoke(main, ["eval", str(dataset), "--model", "test-model", "--base-url", server.url,
                                           "--out", str(tmp_path / "p.jsonl")])
    assert result.exit_code == 1
    assert "wants an API key (HTTP 401" in result.output and "$OPENAI_API_KEY is not set" in result.output


def test_a_forbidden_request_stops_naming_key_and_model(dataset, items, tmp_path):
    with ScriptedChatServer(items, {items[0].id: ("403",)}, api_key=KEY) as server:
        result = run_eval(server.url, dataset, tmp_path / "p.jsonl", "--concurrency", "1")
        assert len(server.log) == 1
    assert result.exit_code == 1
    assert (f"the endpoint forbids the request (HTTP 403: access denied): the key from ${KEY_VAR} may not use model "
            "'test-model'; check the key and --model") in result.output


def test_a_wrong_model_stops_naming_the_models_served(dataset, items, tmp_path):
    with ScriptedChatServer(items, {}, api_key=KEY) as server:
        result = run_eval(server.url, dataset, tmp_path / "p.jsonl", model="no-such-model")
    assert result.exit_code == 1
    assert "the endpoint has no model 'no-such-model'" in result.output
    assert "it serves: test-model: fix --model" in result.output


def test_a_wrong_url_stops_naming_base_url(dataset, items, tmp_path):
    with ScriptedChatServer(items, {}, api_key=KEY) as server:
        result = run_eval(server.url.replace("/v1", "/api"), dataset, tmp_path / "p.jsonl")
    assert result.exit_code == 1
    assert "(HTTP 404: Not Found): fix --base-url" in result.output


def test_no_server_at_the_url_stops_at_once(dataset, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    result = run_eval(f"http://127.0.0.1:{port}/v1", dataset, tmp_path / "p.jsonl")
    assert result.exit_code == 1 and "nothing answers at http://127.0.0.1" in result.output
    assert time.monotonic() - started < 5


def test_a_stop_midway_keeps_every_answer_written_and_the_rerun_finishes(dataset, items, tmp_path):
    """The server takes the key for 5 answers, then refuses it: the run stops non-zero with the 5 lines
    intact; once the key is right again the same command asks only the other 7."""
    out = tmp_path / "pred.jsonl"
    with ScriptedChatServer(items, {}, api_key=KEY) as server:
        original = server.next_action

        def revoke_after_five(item):
            action = original(item)
            if len(server.log) >= 5:
                server.api_key = "revoked"
            return action

        server.next_action = revoke_after_five
        result = run_eval(server.url, dataset, out, "--concurrency", "1")
        assert result.exit_code == 1 and "stopped: the endpoint refused the API key" in result.output
        assert "the 5 answers in" in result.output
        kept = {r["id"] for r in lines(out)}
        assert len(kept) == 5
        server.api_key = KEY
        server.next_action = original
        mark = len(server.log)
        again = run_eval(server.url, dataset, out, "--concurrency", "3")
        assert again.exit_code == 0, again.output
        assert set(server.asked()[mark:]) == {i.id for i in items} - kept
    assert len(lines(out)) == 12


def test_items_that_keep_failing_are_reported_and_asked_again_next_time(dataset, items, tmp_path):
    out = tmp_path / "pred.jsonl"
    stubborn = items[3].id
    with ScriptedChatServer(items, {stubborn: ("500",)}, api_key=KEY) as server:
        # a timeout long enough that every attempt reaches the server, however loaded the machine: this test counts
        # the 500s it answers (at 0.5 s an attempt that timed out before its request was read went unlogged)
        result = run_eval(server.url, dataset, out, "--max-retries", "2", "--timeout", "10")
        assert result.exit_code == 1
        assert f"1 items failed ({stubborn}: gave up after 3 attempts; the last one got HTTP 500" in result.output
        assert server.asked().count(stubborn) == 3
        assert stubborn not in {r["id"] for r in lines(out)}
        server.script = {}
        again = run_eval(server.url, dataset, out)
        assert again.exit_code == 0 and "asked 1 items (11 already answered)" in again.stdout


def test_retry_after_is_honoured(dataset, items, tmp_path):
    target = items[0].id
    with ScriptedChatServer(items, {target: ("429:0.4", "gold")}, api_key=KEY) as server:
        result = run_eval(server.url, dataset, tmp_path / "p.jsonl", "--tasks", "traversal/path", "--limit", "1")
        assert result.exit_code == 0, result.output
        times = [t for t, i, _ in server.log if i == target]
    assert len(times) == 2 and times[1] - times[0] >= 0.4


def test_limit_and_tasks_select_items_and_a_foreign_selector_is_refused(dataset, items, tmp_path):
    with ScriptedChatServer(items, {}, api_key=KEY) as server:
        result = run_eval(server.url, dataset, tmp_path / "p.jsonl", "--limit", "3", "--tasks", "traversal")
        assert result.exit_code == 0
        assert sorted(server.asked()) == sorted(i.id for i in items[:3])
        bad = run_eval(server.url, dataset, tmp_path / "q.jsonl", "--tasks", "marvl")
    assert bad.exit_code == 1 and "--tasks marvl: the dataset has no such task or family; it holds traversal/path" \
        in bad.output


def test_a_file_of_another_model_is_refused(dataset, items, tmp_path):
    out = tmp_path / "pred.jsonl"
    out.write_text(json.dumps({"id": items[0].id, "response": "x", "model": "other", "prompt_style": "paper"}) + "\n")
    result = run_eval("http://127.0.0.1:9/v1", dataset, out)  # refused before any request
    assert result.exit_code == 1 and "holds 1 answers of model 'other'" in result.output


def test_predictions_file_repairs_only_a_torn_tail_and_is_held_by_one_run(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_bytes(b'{"id": "a", "response": "1"}\n{"id": "b", "resp')
    with PredictionsFile(path) as predictions:
        assert set(predictions.records) == {"a"} and "torn" in predictions.repaired
        with pytest.raises(DatasetError, match="being written by another 'bench eval'"):
            PredictionsFile(path)
        predictions.append({"id": "c", "response": "2"})
    assert path.read_bytes() == b'{"id": "a", "response": "1"}\n{"id":"c","response":"2"}\n'
    path.write_bytes(b'{"id": "a", "response": "1"}')  # a whole line without its newline is kept
    with PredictionsFile(path) as predictions:
        assert set(predictions.records) == {"a"} and predictions.repaired == "ended its last line"
    assert path.read_bytes() == b'{"id": "a", "response": "1"}\n'


def test_default_out_is_one_file_per_model_and_style(tmp_path):
    assert default_out(tmp_path, "Qwen/Qwen2.5-VL-7B-Instruct", "paper") == (
        tmp_path / "predictions" / "Qwen--Qwen2.5-VL-7B-Instruct.paper.jsonl")


def test_prompt_styles_resolve_per_family_and_a_task_can_declare_its_own():
    sphinx = styles_for("sphinx")["paper"]
    assert "\\boxed{}" in sphinx.user_text("Q?") and sphinx.user_text("Q?").endswith("Question: Q?")
    assert set(styles_for("polaris")) == {"plain", "paper", "direct", "last-line", "conversion-hint"}
    assert styles_for("marvl")["paper"].user_text("Q?") == "Q?"  # its questions carry the paper's wording
    own = PromptStyle("paper", "Look closely. {question}", "a test wrapper", system="Be brief.")
    task = Task(family="sphinx", name="t", version="1.0.0", answer_type="integer", category="c", description="d",
                implementation="m:o", prompt_styles=(own,))
    assert styles_for("sphinx", task)["paper"] is own  # the plugin's own style wins over the core's
    url = "data:image/png;base64,AA=="
    assert messages(own, "How many?", [url]) == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}},
                                     {"type": "text", "text": "Look closely. How many?"}]},
    ]
    with pytest.raises(BenchError, match=r"--prompt direct: no such style for marvl/counting \(paper, plain\)"):
        resolve("direct", [("polaris/x", "polaris", None), ("marvl/counting", "marvl", None)])
    with pytest.raises(ValueError, match=r"must contain \{question\}"):
        PromptStyle("bad", "no placeholder", "d")
    assert all(isinstance(s, PromptStyle) for styles in FAMILY_STYLES.values() for s in styles)


def test_list_prompts_needs_no_model(dataset):
    result = CliRunner().invoke(main, ["eval", str(dataset), "--list-prompts"])
    assert result.exit_code == 0
    assert "traversal/path\n  paper: TraversalBench (App. A.6)" in result.output and "  plain: " in result.output
