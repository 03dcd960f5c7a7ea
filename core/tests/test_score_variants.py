"""Issue 16's scoring in the core: Cartesian and Polar accuracy side by side with the drop P - C, each task's random
baseline beside the model's figure, and coordinates named by keyword ("sector 5, ring 3" for (ring, sector)).

The tasks here are defined in this module (a plugin of two tasks, ``grid/cell`` answering a coordinate and
``grid/pick`` a letter), so nothing of Polaris is imported: the core's support is generic."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench_core import PluginError, Task, hookimpl, reward, score_record, scoring_record
from bench_core.parsing import parse_coordinate
from bench_core.report import format_report, score_dataset
from bench_core.task import TaskImplementation
from bench_core.types import Item

HERE = Path(__file__).resolve().parent
KEYWORDS = {"cartesian": [["row"], ["column", "col"]], "polar": [["ring"], ["sector"]]}


class _Stub(TaskImplementation):
    def generate(self, params, random):
        raise NotImplementedError

    def render(self, problem):
        raise NotImplementedError

    def verify(self, item, images):
        return []

    def distractors(self, problem, count, random):
        return []


class GridCell(_Stub):
    """A coordinate answer whose words depend on the rendering; the baseline is one cell of the grid."""

    def scoring_hints(self, item):
        return {"keywords": KEYWORDS[item.variant]}

    def random_baseline(self, item):
        return 1 / (item.metadata["rows"] * item.metadata["cols"])


class GridPick(_Stub):
    """Keeps every default: the core scorer, 1/k for k options."""


class BadBaseline(_Stub):
    def random_baseline(self, item):
        return 1.5


CELL, PICK, BAD = GridCell(), GridPick(), BadBaseline()


class GridPlugin:
    BENCH_ABI = 2

    @hookimpl
    def bench_register_tasks(self):
        def task(name, answer_type, implementation):
            return Task(family="grid", name=name, version="1.0.0", answer_type=answer_type, category=f"cat-{name}",
                        description=f"test task {name}", implementation=f"test_score_variants:{implementation}",
                        variants=("cartesian", "polar"))

        return [task("cell", "coordinate", "CELL"), task("pick", "option", "PICK"), task("bad", "option", "BAD")]


def _host():
    from bench_core.host import create_host

    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    return create_host(entry_points=False, plugins=[("grid", GridPlugin())])


def _item(n: int, task: str, variant: str | None, answer: str, answer_type: str, options=None, params=None,
          **metadata) -> Item:
    return Item(id=f"{task}.{n:04d}.{variant}", family=task.split("/")[0], task=task.split("/")[1], version="1.0.0",
                plugin={"name": "grid"}, seed=1, index=n, params=params or {}, variant=variant, pair=f"p{n}",
                question="Which cell?", options=options, answer=answer, answer_type=answer_type,
                images=["images/x.png"], image_sha256=["0" * 64], metadata={"rows": 4, "cols": 5, **metadata})


def _write(root: Path, items: list[Item], responses: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "items.jsonl").write_text("".join(item.to_json() + "\n" for item in items), encoding="utf-8")
    path = root / "predictions.jsonl"
    path.write_text("".join(json.dumps({"id": i, "response": r}) + "\n" for i, r in responses.items()))
    return path


def _dataset(tmp_path: Path) -> tuple[Path, Path]:
    """grid/cell: 4 pairs, Cartesian all right, Polar 1 of 4 right; grid/pick: 2 pairs, both right, one Polar
    right; other/solo (not installed): Cartesian only (left out of the drop)."""
    items, responses = [], {}
    for n in range(4):
        c = _item(n, "grid/cell", "cartesian", "(2, 3)", "coordinate")
        p = _item(n, "grid/cell", "polar", "(4, 3)", "coordinate")
        items += [c, p]
        responses[c.id] = "Answer: column 3, row 2"  # named in the other order: right
        responses[p.id] = "Answer: sector 3, ring 4" if n == 0 else "Answer: (3, 4)"  # order only: wrong
    for n in range(2):
        c = _item(n, "grid/pick", "cartesian", "B", "option", ["1", "2", "3", "4"])
        p = _item(n, "grid/pick", "polar", "C", "option", ["1", "2", "3"])
        items += [c, p]
        responses[c.id] = "B"
        responses[p.id] = "C" if n else "A"
    solo = _item(0, "other/solo", "cartesian", "A", "option", None, chance=0.3)
    items.append(solo)
    responses[solo.id] = "A"
    root = tmp_path / "d"
    return root, _write(root, items, responses)


@pytest.mark.parametrize("workers", [1, 2])
def test_cartesian_and_polar_side_by_side_with_the_drop(tmp_path, workers):
    root, predictions = _dataset(tmp_path)
    report = score_dataset(root, predictions, ["variant"], host=_host(), workers=workers)
    drop = report["variant_drop"]
    assert drop["variants"] == ["cartesian", "polar"]
    assert set(drop["tasks"]) == {"grid/cell", "grid/pick"}  # other/solo has no Polar items
    cell, pick = drop["tasks"]["grid/cell"], drop["tasks"]["grid/pick"]
    assert (cell["cartesian"]["accuracy"], cell["polar"]["accuracy"], cell["drop"]) == (1.0, 0.25, -0.75)
    assert (pick["cartesian"]["n"], pick["polar"]["n"], pick["drop"]) == (2, 2, -0.5)
    assert drop["mean"] == {"tasks": 2, "cartesian": {"accuracy": 1.0}, "polar": {"accuracy": 0.375},
                            "drop": -0.625}
    text = format_report(report)
    assert "cartesian vs polar (each task once; drop = polar - cartesian):" in text
    assert "grid/cell" in text and "drop=-0.7500" in text and "mean over 2 tasks" in text and "drop=-0.6250" in text


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("by", [["variant"], ["variant", "rows"]])
def test_the_items_own_variant_groups_them_where_the_setting_asked_for_both(tmp_path, workers, by):
    # A paired task's items carry the setting variant=both in params and their rendering as Item.variant: the
    # rendering is the group (a report "by variant: both" hid the Cartesian/Polar table).
    items, responses = [], {}
    for n in range(2):
        c = _item(n, "grid/pick", "cartesian", "B", "option", ["1", "2", "3"], params={"variant": "both"})
        p = _item(n, "grid/pick", "polar", "B", "option", ["1", "2", "3"], params={"variant": "both"})
        items += [c, p]
        responses[c.id], responses[p.id] = "B", "A"
    root = tmp_path / "d"
    report = score_dataset(root, _write(root, items, responses), by, host=_host(), workers=workers)
    assert set(report["by"]["variant"]) == {"cartesian", "polar"}
    assert report["variant_drop"]["tasks"]["grid/pick"]["drop"] == -1.0


def test_no_drop_without_both_variants(tmp_path):
    root = tmp_path / "d"
    item = _item(0, "grid/pick", "cartesian", "B", "option", ["1", "2"])
    report = score_dataset(root, _write(root, [item], {item.id: "B"}), host=_host())
    assert "variant_drop" not in report and "cartesian vs polar" not in format_report(report)


def test_bench_score_by_variant_prints_the_drop_and_baselines(tmp_path, monkeypatch):
    from bench_core import report as report_module
    from bench_core.cli import main

    root, predictions = _dataset(tmp_path)
    host = _host()
    monkeypatch.setattr(report_module, "default_host", lambda: host)
    result = CliRunner().invoke(main, ["score", str(root), str(predictions), "--by", "variant", "--baseline"])
    assert result.exit_code == 0, result.output
    assert "cartesian vs polar" in result.output and "drop=-0.6250" in result.output
    assert "baseline=" in result.output and "random baseline" in result.output


def test_each_task_declares_its_random_baseline(tmp_path):
    """grid/cell: 1/cells (its own); grid/pick: 1/k for its k options (the default); a task not installed: the
    item's metadata.chance, else 1/k, 1/8 for letters without options, 0 for open answers."""
    root, predictions = _dataset(tmp_path)
    report = score_dataset(root, predictions, host=_host(), baseline=True)
    tasks = report["by"]["task"]
    assert tasks["grid/cell"]["baseline"] == pytest.approx(1 / 20)
    assert tasks["grid/pick"]["baseline"] == pytest.approx((1 / 4 + 1 / 3) / 2)
    assert tasks["other/solo"]["baseline"] == pytest.approx(0.3)
    assert report["macro"]["baseline"] == pytest.approx((1 / 20 + (1 / 4 + 1 / 3) / 2 + 0.3) / 3)
    assert report["variant_drop"]["tasks"]["grid/pick"]["polar"]["baseline"] == pytest.approx(1 / 3)
    assert report["variant_drop"]["mean"]["cartesian"]["baseline"] == pytest.approx((1 / 20 + 1 / 4) / 2)
    text = format_report(report)
    assert "random baseline" in text and "baseline=0.0500" in text
    plain = score_dataset(root, predictions, host=_host())
    assert "baseline" not in plain["by"]["task"]["grid/cell"] and "baseline" not in plain["macro"]
    assert all(plain["by"][f][k]["accuracy"] == report["by"][f][k]["accuracy"] for f in plain["by"]
               for k in plain["by"][f])


def test_default_random_baselines():
    impl = GridPick()
    assert impl.random_baseline(_item(0, "grid/pick", None, "B", "option", ["x", "y", "z"])) == pytest.approx(1 / 3)
    assert impl.random_baseline(_item(0, "grid/pick", None, "B", "option")) == 1 / 8
    assert impl.random_baseline(_item(0, "grid/pick", None, "7", "integer")) == 0.0
    assert impl.random_baseline(_item(0, "grid/pick", None, "2", "integer", ["a", "b"])) == 0.5
    assert impl.random_baseline(_item(0, "grid/pick", None, "7", "integer", chance=0.05)) == 0.05


def test_a_baseline_outside_0_1_names_the_task(tmp_path):
    root = tmp_path / "d"
    item = _item(0, "grid/bad", None, "B", "option", ["1", "2"])
    predictions = _write(root, [item], {item.id: "B"})
    with pytest.raises(PluginError, match="grid/bad: random_baseline"):
        score_dataset(root, predictions, host=_host(), baseline=True)


@pytest.mark.parametrize(("response", "expected"), [
    ("sector 5, ring 3", (3.0, 5.0)),
    ("Answer: (sector 5, ring 3)", (3.0, 5.0)),
    ("Ring: 3; Sector: 5", (3.0, 5.0)),
    ("the 3rd ring and the 5th sector", (3.0, 5.0)),
    ("rings 3, sectors 5", (3.0, 5.0)),
    ("(5, 3) is sector 5, ring 3", (3.0, 5.0)),
    ("ring 3, sector 5 -> (3, 5)", (3.0, 5.0)),
    ("(3, 5)", (3.0, 5.0)),  # no names: the order written
    ("3, 5", (3.0, 5.0)),
    ("row 3, column 5", (3.0, 5.0)),  # another rendering's names are no names here: the order
    ("sector 5, 3", None),  # a name for one component only
    ("ring 3 or ring 4, sector 5", None),  # two values for one
    ("ringside 3, sector 5", None),
])
def test_coordinates_by_keyword_then_order(response, expected):
    assert parse_coordinate(response, 2, keywords=[["ring"], "sector"]) == expected


def test_without_keywords_coordinates_read_as_before():
    assert parse_coordinate("sector 5, ring 3", 2) == (5.0, 3.0)
    assert parse_coordinate("x = 3, y = 5", 2, keywords=None) == (3.0, 5.0)


def test_the_trainer_path_scores_as_the_plugin_does():
    """The keywords travel in the scoring record (from the task's scoring_hints), so a trainer without the
    plugin gives the reward the plugin's score gives; exact match, no partial credit."""
    host = _host()
    item = _item(0, "grid/cell", "polar", "(4, 3)", "coordinate")
    record = scoring_record(item, host=host)
    assert record["keywords"] == [["ring"], ["sector"]]
    record = json.loads(json.dumps(record))  # as a dataset column carries it
    from bench_core.scorer import score

    for response, right in [("Answer: sector 3, ring 4", 1.0), ("Answer: ring 4, sector 3", 1.0),
                            ("Answer: (3, 4)", 0.0), ("Answer: ring 4", 0.0), ("Answer: ring 4, sector 3.5", 0.0)]:
        assert score(item, response, host=host).value == right
        assert score_record(record, response, mode="lenient").value == right
        assert reward(record, response) == right
    with pytest.raises(ValueError, match="coordinate keywords"):
        score_record({**record, "keywords": ["ring"]}, "Answer: (4, 3)")
