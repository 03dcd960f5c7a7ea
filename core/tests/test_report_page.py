"""``bench report``: the page, its figures and tables, checked against ``bench score`` and in a real browser.

Three datasets: items of the installed traversal, Mind's Eye and MaRVL plugins (those tests are skipped
where the plugins are not installed: ``tox -e cross`` runs them); synthetic records of families that are
not installed (Polaris' two layouts, SPHINX's categories, an image that cannot be shown); and the toy
plugin's items, for the default figures and the bad-input cases.
"""

from __future__ import annotations

import base64
import hashlib
import html
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from PIL import Image

from bench_core.cli import main
from bench_core.report_data import Row, chance_level, pick_examples
from bench_core.types import Item

pytest.importorskip("matplotlib", reason="bench report needs matplotlib: pip install 'bench-core[report]'")

PLUGINS = ("bench_plugin_traversal", "bench_plugin_mindseye", "bench_plugin_marvl")
needs_plugins = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in PLUGINS),
    reason="needs the traversal, mindseye and marvl plugins installed (tox -e cross runs this file with them)")
BY = "tort_bin,vertices,count_bucket"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def write_predictions(path, records, answer_for):
    """One line per record that ``answer_for(index, record)`` answers (None: no line), plus a line that is not
    JSON, an unknown id and a repeated id (the last response counts, as in bench score)."""
    lines = []
    for k, record in enumerate(records):
        response = answer_for(k, record)
        if response is not None:
            lines.append(json.dumps({"id": record["id"], "response": response}))
    lines += ["{not json", json.dumps({"id": "nosuch.task.0.000000", "response": "A"})]
    lines.append(json.dumps({"id": records[0]["id"], "response": records[0]["answer"]}))
    path.write_text("\n".join(lines) + "\n")


def wrong_answer(record):
    if record["answer_type"] == "sequence":
        tokens = record["answer"].split(", ")
        tokens[1], tokens[2] = tokens[2], tokens[1]
        return ", ".join(tokens)
    if record["answer_type"] == "option":
        return "A" if record["answer"] != "A" else "B"
    return str(int(record["answer"]) % 4 + 1) if record["options"] else str(int(record["answer"]) + 1)


def mixed_answer(k, record):
    """Right, wrong, malformed (garbage, a number instead of text, an unclosed think) or missing, by index
    within each task: the first two of every task are one right and one wrong."""
    kind = record["index"] % 6
    if kind in (0, 3):
        return f"<think>easy</think>\\boxed{{{record['answer']}}}" if kind == 3 else record["answer"]
    if kind in (1, 4):
        return wrong_answer(record)
    if kind == 2:
        return "\x00 I cannot see the image ]]}" if k % 2 else 42
    return None if k % 2 else "<think>still thinking"


# -- the installed families ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """A small dataset of the three plugins, mixed predictions, its report and bench score --json."""
    if any(importlib.util.find_spec(name) is None for name in PLUGINS):
        pytest.skip("needs the traversal, mindseye and marvl plugins")
    root = tmp_path_factory.mktemp("real")
    data = root / "d"
    for selectors, count in ((("traversal/path",), 30), (("mindseye/mental-rotation",), 6), (("marvl",), 8)):
        result = invoke("generate", *selectors, "--count", count, "--out", data, "--append")
        assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (data / "items.jsonl").read_text().splitlines()]
    predictions = root / "p.jsonl"
    write_predictions(predictions, records, mixed_answer)
    out = root / "report"
    result = invoke("report", data, predictions, "--out", out, "--by", BY)
    assert result.exit_code == 0, result.output
    score = json.loads(invoke("score", data, predictions, "--json", "--by", BY).output)
    return {"data": data, "predictions": predictions, "out": out, "score": score, "records": records,
            "output": result.output}


def markdown_tables(text):
    """``{title: [row dicts]}`` of every pipe table under a bold title line in ``text``."""
    tables = {}
    for block in re.finditer(r"^\*\*(.+?)\*\*\n\n(\|.+\|\n\|[-:|]+\|\n(?:\|.*\|\n)*)", text, re.M):
        lines = block.group(2).strip().split("\n")
        header = [c.strip() for c in lines[0].strip("|").split(" | ")]
        rows = [[c.strip() for c in re.split(r"(?<!\\) \| ", line.strip()[2:-2])] for line in lines[2:]]
        tables[block.group(1)] = [dict(zip(header, row, strict=True)) for row in rows]
    return tables


@needs_plugins
def test_report_writes_page_pngs_and_markdown(real):
    out = real["out"]
    page = (out / "index.html").read_text()
    markdown = (out / "report.md").read_text()
    figures = sorted((out / "figures").glob("*.png"))
    names = {re.sub(r"^\d+-", "", f.stem) for f in figures}
    assert {"traversal-heatmap", "traversal-curves", "marvl-by-count", "marvl-by-transformation", "mindseye-tasks",
            "traversal-tasks", "marvl-tasks", "traversal-path-by-tort-bin", "traversal-path-by-vertices",
            "marvl-counting-by-count-bucket"} <= names
    for figure in figures:
        with Image.open(figure) as image:
            assert image.format == "PNG" and image.width > 300 and image.height > 150
        assert base64.b64encode(figure.read_bytes()).decode() in page  # the same figure, embedded
        assert f"(figures/{figure.name})" in markdown
    assert f"wrote {out / 'index.html'}" in real["output"]


@needs_plugins
def test_markdown_numbers_match_bench_score(real):
    score = real["score"]
    tables = markdown_tables((real["out"] / "report.md").read_text())
    assert f"- overall accuracy: {score['overall']:.4f}" in (real["out"] / "report.md").read_text()
    for field in ("task", "category", "variant", *BY.split(",")):
        rows = tables[f"by {field}"]
        assert [r[field] for r in rows] == list(score["by"][field])
        for row in rows:
            expected = score["by"][field][row[field]]
            assert int(row["n"]) == expected["n"] and row["accuracy"] == f"{expected['accuracy']:.4f}"
            assert row["answered"] == f"{expected['mean_answered']:.4f}"
    # the per-task figure's numbers are bench score's too (only traversal/path has tort_bin)
    for row in tables["traversal/path: accuracy by tort_bin"]:
        assert row["accuracy"] == f"{score['by']['tort_bin'][row['tort_bin']]['accuracy']:.4f}"
    heatmap = tables["TraversalBench: accuracy over tortuosity x self-intersection bins (exact match / token accuracy)"]
    counts = [int(n) for row in heatmap for n in re.findall(r"\(n=(\d+)\)", " ".join(row.values()))]
    assert sum(counts) == score["by"]["task"]["traversal/path"]["n"] == 30


@needs_plugins
def test_task_table_gives_chance_levels(real):
    rows = {r["task"]: r for r in markdown_tables((real["out"] / "report.md").read_text())["accuracy by task"]}
    assert rows["marvl/transformation"]["chance"] == "0.2000"  # five numbered options
    assert rows["mindseye/mental-rotation"]["chance"] == "0.2500"  # four option letters
    assert rows["traversal/path"]["chance"] == rows["marvl/counting"]["chance"] == "0.0000"  # open answers


@needs_plugins
def test_examples_show_a_right_and_a_wrong_item_per_task(real):
    page = (real["out"] / "index.html").read_text()
    markdown = (real["out"] / "report.md").read_text()
    for task in {f"{r['family']}/{r['task']}" for r in real["records"]}:
        section = markdown.split(f"### {task}\n", 1)[1].split("\n### ", 1)[0]
        assert "**right**" in section and "**wrong**" in section
        image = re.search(r"\]\((examples/[^)]+\.png)\)", section).group(1)
        assert (real["out"] / image).is_file()
    right = next(r for r in real["records"] if r["task"] == "path" and r["index"] == 0)
    card = page.split(f"<code>{right['id']}</code>", 1)[1].split('<div class="card', 1)[0]
    assert f"<dd>{html.escape(right['answer'])}</dd>" in card and "<img src=\"data:image/png;base64," in card
    wrong = next(r for r in real["records"] if r["task"] == "path" and r["index"] == 1)
    card = page.split(f"<code>{wrong['id']}</code>", 1)[1].split('<div class="card', 1)[0]
    assert "<mark>" in card  # the swapped tokens are marked
    transformation = next(r for r in real["records"] if r["task"] == "transformation" and r["index"] == 0)
    option = transformation["options"][int(transformation["answer"]) - 1]
    assert f"{transformation['answer']} ({option})" in page


@needs_plugins
def test_page_is_self_contained(real):
    page = (real["out"] / "index.html").read_text()
    sources = re.findall(r'<img src="([^"]*)"', page)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert not re.search(r'(?:src|href)="(?!data:|#)', page)
    assert "<script" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    assert "default-src 'none'; img-src data:" in page


# -- synthetic records of families that are not installed ------------------------------------------------
def _png(colour, size=(96, 64)):
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return buffer.getvalue()


def synthetic_dataset(root):
    """Polaris-like items (variants cartesian/polar, metadata category NR or VPM, four options) and
    SPHINX-like items (categories in metadata), written without any plugin; the first wrong SPHINX item
    names an image outside the dataset folder.  Returns the records."""
    records = []
    specs = [("polaris", "fake-maze", "NR"), ("polaris", "fake-pattern", "VPM"),  # no installed task's names
             ("sphinx", "fake-count", "Counting"), ("sphinx", "fake-mirror", "Symmetry")]
    for family, task, category in specs:
        for k in range(8):
            variant = ("cartesian", "polar")[k % 2] if family == "polaris" else None
            item_id = f"{family}.{task}.0.{k:06d}"
            png = _png(((40 * k) % 255, 120, 200))
            rel = f"images/{family}/{task}/{item_id}.png"
            if task == "fake-count" and k == 1:
                rel = "../outside.png"
            else:
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_bytes(png)
            records.append({"id": item_id, "family": family, "task": task, "version": "0.1.0",
                            "plugin": {"distribution": None, "version": None}, "seed": 0, "index": k,
                            "params": {}, "variant": variant, "pair": f"{task}-{k // 2}" if variant else None,
                            "question": f"Which option? <b>{task}</b> & more", "options": ["A", "B", "C", "D"],
                            "answer": "ABCD"[k % 4], "answer_type": "option", "images": [rel],
                            "image_sha256": [hashlib.sha256(png).hexdigest()], "metadata": {"category": category}})
    (root / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return records


def synthetic_answer(k, record):
    """Polaris NR: Cartesian 3 of 4 right, Polar 1 of 4; VPM: 2 of 4 in both; SPHINX alternates."""
    index = record["index"]
    if record["family"] == "polaris":
        polar = record["variant"] == "polar"
        right = (index // 2) < (1 if polar else 3) if record["task"] == "fake-maze" else (index // 2) % 2 == 0
    else:
        right = index % 2 == 0
    return record["answer"] if right else wrong_answer(record)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    root = tmp_path_factory.mktemp("synthetic")
    data = root / "d"
    data.mkdir()
    records = synthetic_dataset(data)
    predictions = root / "p.jsonl"
    write_predictions(predictions, records, synthetic_answer)
    out = root / "report"
    result = invoke("report", data, predictions, "--out", out)
    assert result.exit_code == 0, result.output
    return {"data": data, "predictions": predictions, "out": out, "records": records}


def test_cartesian_polar_figure_from_the_variants(synthetic):
    out = synthetic["out"]
    assert list((out / "figures").glob("*-polaris-cartesian-polar.png"))
    rows = markdown_tables((out / "report.md").read_text())["Polaris-Bench: Cartesian vs Polar accuracy per category"]
    by_category = {r["category"]: r for r in rows}
    assert by_category["NR"]["Cartesian"] == "0.7500" and by_category["NR"]["Polar"] == "0.2500"
    assert by_category["NR"]["Δ P − C (points)"] == "-50.0"
    assert by_category["VPM"]["Δ P − C (points)"] == "+0.0"
    assert by_category["overall"]["n C"] == "8" and by_category["overall"]["Δ P − C (points)"] == "-25.0"


def test_sphinx_gets_per_category_bars_and_unshowable_images_are_named(synthetic):
    out = synthetic["out"]
    assert list((out / "figures").glob("*-sphinx-categories.png"))
    rows = markdown_tables((out / "report.md").read_text())["SPHINX: accuracy per category"]
    assert [(r["category"], r["n"], r["accuracy"], r["chance"]) for r in rows] == [
        ("Counting", "8", "0.5000", "0.2500"), ("Symmetry", "8", "0.5000", "0.2500")]
    page = (out / "index.html").read_text()
    assert "image not shown: ../outside.png lies outside the dataset folder" in page
    assert "&lt;b&gt;fake-count&lt;/b&gt; &amp; more" in page  # question text escaped, not markup


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def browser_check(page, tmp_path):
    """Load ``page`` (a copy of a report page) in headless Chromium with a script that records, after the load
    event, how many images the page has and which of them did not load; returns that record."""
    binary = _chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed; CI must install it (.ci/run: apt-get install -y chromium)")
        pytest.skip("chromium is not installed (Debian: apt-get install -y chromium); CI runs this test")
    text = page.read_text()
    csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
    assert csp in text
    script = ("<script>window.addEventListener('load', function () { var all = Array.from(document.images);"
              " var bad = all.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });"
              " var out = document.createElement('pre'); out.id = 'bench-check';"
              " out.textContent = JSON.stringify({images: all.length, broken: bad.map(function (i) {"
              " return i.alt; }), title: document.title}); document.body.appendChild(out); });</script>")
    tmp_path.mkdir(parents=True, exist_ok=True)
    probe = tmp_path / "probe.html"  # scripts allowed for the probe only; images still from data URLs only
    probe.write_text(text.replace(csp, csp + "; script-src 'unsafe-inline'").replace("</body>", script + "</body>"))
    command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
               f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000", "--dump-dom",
               probe.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    found = re.search(r'<pre id="bench-check">(.*?)</pre>', done.stdout, re.S)
    assert found, f"the page did not finish loading in chromium (exit {done.returncode}): {done.stderr[-800:]}"
    return json.loads(html.unescape(found.group(1)))


def test_page_loads_in_headless_chromium_with_every_image_shown(synthetic, tmp_path):
    result = browser_check(synthetic["out"] / "index.html", tmp_path)
    page = (synthetic["out"] / "index.html").read_text()
    assert result["images"] == page.count("<img ") >= 6 and result["broken"] == []
    assert result["title"].startswith("bench report")
    # the check can fail: an image whose data is not a PNG, or one fetched from the network, is reported
    broken = tmp_path / "broken.html"
    first = re.search(r'<img src="data:image/png;base64,[^"]*" alt="([^"]*)"', page)
    damaged = page.replace(first.group(0), f'<img src="data:image/png;base64,AAAA" alt="{first.group(1)}"', 1)
    fetched = '<img src="http://127.0.0.1:9/x.png" alt="net">'
    damaged = damaged.replace('<img src="data:', fetched + '<img src="data:', 1)
    broken.write_text(damaged)
    result = browser_check(broken, tmp_path / "second")
    assert sorted(result["broken"]) == sorted([first.group(1), "net"])


# -- default figures and bad input (the toy plugin) ------------------------------------------------------
@pytest.fixture
def toy_data(toy_host, tmp_path):
    data = tmp_path / "d"
    assert invoke("generate", "toy", "--out", data, "--count", "12", "--seed", "2").exit_code == 0
    records = [json.loads(line) for line in (data / "items.jsonl").read_text().splitlines()]
    predictions = tmp_path / "p.jsonl"
    write_predictions(predictions, records, mixed_answer)
    return data, predictions


def test_a_family_without_a_maker_gets_task_bars_and_rerun_gives_the_same_bytes(toy_data, tmp_path):
    data, predictions = toy_data
    out = tmp_path / "r"
    assert invoke("report", data, predictions, "--out", out, "--by", "count").exit_code == 0
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["01-toy-tasks.png", "02-toy-dots-by-count.png"]
    first = {p: (out / p).read_bytes() for p in ("index.html", "report.md", "figures/01-toy-tasks.png")}
    assert invoke("report", data, predictions, "--out", out).exit_code == 0  # same folder, no --by
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["01-toy-tasks.png"]  # the stale one removed
    assert invoke("report", data, predictions, "--out", out, "--by", "count").exit_code == 0
    assert {p: (out / p).read_bytes() for p in first} == first


@pytest.mark.parametrize("case", ["unknown field", "dataset folder", "foreign folder", "no matplotlib"])
def test_bad_input_is_one_clear_line_and_writes_nothing(toy_data, tmp_path, monkeypatch, case):
    data, predictions = toy_data
    out = tmp_path / "r"
    by = "count"
    if case == "unknown field":
        by = "colour_of_sky"
    elif case == "dataset folder":
        out = data
    elif case == "foreign folder":
        out.mkdir()
        (out / "notes.txt").write_text("mine")
    else:
        monkeypatch.setitem(sys.modules, "matplotlib", None)
    before = sorted(p for p in tmp_path.rglob("*"))
    result = invoke("report", data, predictions, "--out", out, "--by", by)
    assert result.exit_code != 0
    message = result.output.strip()
    assert message.startswith("Error: ") and "\n" not in message
    expected = {"unknown field": "no item has a field 'colour_of_sky'; fields that exist: task",
                "dataset folder": "holds a dataset; write the report to a folder of its own",
                "foreign folder": "is not empty and holds no earlier bench report",
                "no matplotlib": "pip install 'bench-core[report]'"}[case]
    assert expected in message
    assert sorted(p for p in tmp_path.rglob("*")) == before


# -- units ------------------------------------------------------------------------------------------------
def _item(**changes):
    record = {"id": "x.y.0.000000", "family": "x", "task": "y", "version": "1.0.0", "plugin": {}, "seed": 0,
              "index": 0, "params": {}, "variant": None, "pair": None, "question": "?", "options": None,
              "answer": "3", "answer_type": "integer", "images": [], "image_sha256": [], "metadata": {}}
    return Item.from_record({**record, **changes})


def test_chance_level_of_each_kind_of_answer():
    assert chance_level(_item(answer_type="option", answer="B", options=["A", "B", "C", "D"])) == 0.25
    assert chance_level(_item(answer="2", options=["r90", "r180", "tx", "ty", "none"])) == 0.2
    assert chance_level(_item(answer_type="option", answer="B")) == 0.125  # the scorer accepts A-H
    assert chance_level(_item()) == 0.0
    assert chance_level(_item(answer_type="sequence", answer="a, b")) == 0.0
    assert chance_level(_item(metadata={"chance": 0.1})) == 0.1  # a task's declared baseline wins
    assert chance_level(_item(metadata={"chance": 7})) == 0.0  # not a probability: ignored


def test_examples_prefer_a_parsed_wrong_answer_to_a_missing_one():
    def row(value, answered):
        return Row(_item(), "c", value, answered, None, {}, None, answered, 0.0)

    missing, wrong, right = row(0.0, False), row(0.0, True), row(1.0, True)
    assert pick_examples([missing, wrong, right]) == (right, wrong)
    assert pick_examples([missing, right]) == (right, missing)
    assert pick_examples([missing]) == (None, missing)
