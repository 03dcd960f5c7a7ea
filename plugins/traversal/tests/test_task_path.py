"""traversal/path end to end: cells, variants and pairing, the paper preset, published backbones, the
choice format, parameter errors, and scoring."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench_core import ParameterError, build_item, plan, score
from bench_plugin_traversal.cells import POPULATED_CELLS, VERTEX_COUNTS
from bench_plugin_traversal.task_path import PAPER_CONFOUND_SOURCES, PAPER_PER_CELL, reachable_cells

FIXTURES = Path(__file__).parent / "fixtures"




def build(host, task, settings, seed=0, count=1):
    return [build_item(host, task, j.seed, j.index, j.params, j.suffix) for j in plan(task, settings, seed, count)]


@pytest.mark.slow
@pytest.mark.parametrize("vertices", VERTEX_COUNTS)
def test_every_reachable_cell_is_generated_in_its_cell(host, path_task, vertices):
    for t, s in reachable_cells(vertices, "strict"):
        (built,) = build(host, path_task, {"vertices": vertices, "tort_bin": t, "cross_bin": s}, seed=vertices)
        meta = built.item.metadata
        assert (meta["vertices"], meta["tort_bin"], meta["cross_bin"]) == (vertices, t, s)
        assert len(built.item.answer.split(", ")) == vertices
        assert meta["min_crossing_angle"] >= 25.0


def test_confound_variants_share_backbone_and_glyphs(host, path_task):
    items = {}
    for level in ("none", "low", "high"):
        (built,) = build(host, path_task, {"vertices": 13, "tort_bin": 3, "cross_bin": 3, "confounders": level,
                                           "source": 7})
        items[level] = built.item
    assert {i.variant for i in items.values()} == {"base", "conf_low", "conf_high"}
    assert len({i.pair for i in items.values()}) == 1
    assert len({i.answer for i in items.values()}) == 1
    assert len({json.dumps(i.metadata["scene"]["line"]) for i in items.values()}) == 1
    assert len({json.dumps(i.metadata["scene"]["markers"]) for i in items.values()}) == 1
    assert items["none"].metadata["spurs"] == 0
    assert 2 <= items["low"].metadata["spurs"] <= 4 and 5 <= items["high"].metadata["spurs"] <= 7
    assert "grey" in items["high"].question and "grey" not in items["none"].question


def test_paper_preset_is_the_balanced_design(path_task):
    jobs = plan(path_task, {"preset": "paper"}, 0, None)
    cells = sum(len(reachable_cells(v, "strict")) for v in VERTEX_COUNTS)
    assert len(jobs) == cells * (PAPER_PER_CELL + 2 * PAPER_CONFOUND_SOURCES)
    per_cell = Counter((j.params["vertices"], j.params["tort_bin"], j.params["cross_bin"], j.params["confounders"])
                       for j in jobs)
    assert set(per_cell.values()) == {PAPER_PER_CELL, PAPER_CONFOUND_SOURCES}
    first = Counter((j.params["vertices"], j.params["tort_bin"], j.params["cross_bin"]) for j in jobs[: 3 * cells])
    assert len(first) == cells, "a prefix of the design covers every cell"
    with pytest.raises(ParameterError, match="preset=paper sets"):
        plan(path_task, {"preset": "paper", "vertices": 9}, 0, None)


def test_populated_cells_are_the_papers():
    assert all(len(POPULATED_CELLS[v]) == 33 for v in VERTEX_COUNTS)


@pytest.mark.parametrize("name", ["published_backbones.jsonl", "published_confound.jsonl"])
def test_published_backbones_render_one_item_per_record_with_agreeing_metrics(host, path_task, name):
    source = FIXTURES / name
    records = [json.loads(line) for line in source.read_text().splitlines()]
    builts = build(host, path_task, {"backbones": str(source)}, count=None)
    assert len(builts) == len(records)
    for built, record in zip(builts, records, strict=True):
        meta = built.item.metadata
        assert meta["published"]["id"] == record["id"]
        assert meta["crossings"] == record["metrics"]["self_intersections"]
        assert meta["tortuosity"] == pytest.approx(record["metrics"]["tortuosity"], rel=1e-6)
        assert built.item.variant == record.get("confounder_condition", "base")
        assert meta["spurs"] == len(record.get("confounders") or [])


def test_choice_format_has_one_correct_option(host, path_task):
    letters = Counter()
    for built in build(host, path_task, {"format": "choice", "cross_bin": 2}, seed=3, count=12):
        item = built.item
        assert item.answer_type == "option" and len(item.options) == 4
        gold = item.options["ABCD".index(item.answer)]
        assert item.metadata["distractor_kinds"]["ABCD".index(item.answer)] == "gold"
        assert score(item, item.answer).value == 1.0 and score(item, gold).value == 1.0
        letters[item.answer] += 1
    assert len(letters) >= 3


def test_parameter_errors_name_what_is_allowed(path_task):
    with pytest.raises(ParameterError, match="allowed cells at 9 vertices: t0s0, t0s1"):
        plan(path_task, {"vertices": 9, "tort_bin": 0, "cross_bin": 6}, 0, 1)
    with pytest.raises(ParameterError, match="record 99 is out of range"):
        plan(path_task, {"backbones": str(FIXTURES / "published_backbones.jsonl"), "source": 99}, 0, 1)
    with pytest.raises(ParameterError, match="not a readable file"):
        plan(path_task, {"backbones": "/no/such/file.jsonl"}, 0, 1)


def test_scoring_reports_token_accuracy_prefix_and_crossings_passed(host, path_task):
    (built,) = build(host, path_task, {"vertices": 11, "tort_bin": 3, "cross_bin": 2}, seed=5)
    item = built.item
    gold = item.answer.split(", ")
    first = item.metadata["crossing_events"][0]
    wrong = gold[:first] + gold[first:][::-1]
    result = score(item, ", ".join(wrong))
    assert result.value == 0.0
    assert result.details["prefix_length"] == first
    assert result.details["crossings_passed"] == 0 and result.details["first_crossing_correct"] is False
    numbered = "\n".join(f"{k + 1}. {t.replace('tri', 'triangle')}" for k, t in enumerate(gold))
    assert score(item, f"Answer:\n{numbered}").value == 1.0
    assert score(item, ", ".join(gold[:-1])).details["token_accuracy"] == pytest.approx((len(gold) - 1) / len(gold))


def test_a_sparse_paper_cell_with_spurs_finds_its_backbone(host, path_task):
    """Seed 1, item 4 of cell t1s4 at 9 vertices with spurs under profile=paper: a backbone that hosts both spur
    variants turns up in ~8 % of tries, and 32 tries all failed, stopping the run.  With 256 it is built."""
    settings = {"vertices": 9, "tort_bin": 1, "cross_bin": 4, "confounders": "high", "profile": "paper"}
    job = plan(path_task, settings, 1, 5)[4]
    built = build_item(host, path_task, job.seed, job.index, job.params, job.suffix)
    assert (built.item.metadata["tort_bin"], built.item.metadata["cross_bin"]) == (1, 4)
