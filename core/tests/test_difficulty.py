"""The normalised difficulty scale (issue 8): parsing and validating ``--set difficulty``, the levels drawn
for a range, the declaration on a Task, ``bench tasks`` showing the scale, and ``bench generate ... --set
difficulty=0.6..1`` end to end over the toy plugin (whose ``toy/dots`` declares a scale)."""

from __future__ import annotations

import json

import attrs
import pytest
import toy_plugin
from click.testing import CliRunner

from bench_core import Difficulty, ItemRandom, Parameter, ParameterError, Task, hookimpl, parse_level
from bench_core.cli import main
from bench_core.difficulty import LEVEL_STRATA, draw_level, level_bounds
from bench_core.generation import build_item, plan, settings_suffix
from bench_core.host import create_host


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def items_of(folder) -> list[dict]:
    return [json.loads(line) for line in (folder / "items.jsonl").read_text().splitlines()]


# -- parsing ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "canonical"), [
    ("0.6", 0.6), ("0.60", 0.6), (".6", 0.6), (" 0.6 ", 0.6), ("1", 1.0), ("0", 0.0), (1, 1.0), (0.25, 0.25),
    ("0.12345", 0.123), ("0.9996", 1.0),
])
def test_a_single_level_is_a_rounded_float(raw, canonical):
    value = parse_level(raw)
    assert value == canonical and isinstance(value, float)


@pytest.mark.parametrize(("raw", "canonical"), [
    ("0.6..1", "0.6..1"), ("0.60..1.0", "0.6..1"), (" 0.6 .. 1 ", "0.6..1"), ("0..0.25", "0..0.25"),
    ("0.5..0.5", 0.5), ("0.1234..0.9", "0.123..0.9"),
])
def test_a_range_has_one_canonical_text(raw, canonical):
    assert parse_level(raw) == canonical


def test_aliases_keep_their_names_and_resolve_to_their_levels():
    scale = Difficulty("a", "b", "p", aliases={"easy": "0..0.25", "hard": 1})
    assert parse_level("easy", scale.aliases) == "easy"
    assert scale.bounds("easy") == (0.0, 0.25) and scale.bounds("hard") == (1.0, 1.0)
    assert scale.bounds(0.4) == (0.4, 0.4) and level_bounds("0.2..0.7") == (0.2, 0.7)
    assert scale.describe_aliases() == "easy = 0..0.25, hard = 1"


@pytest.mark.parametrize(("raw", "says"), [
    ("1.5", "'1.5' is above 1"),
    ("-0.1", "is below 0"),
    ("0.8..0.2", "runs backwards (0.8 is above 0.2); write it low..high, e.g. 0.2..0.8"),
    ("0.2..1.4", "1.4 in '0.2..1.4' is above 1"),
    ("a..b", "'a..b' is not a level"),
    ("0.5..", "is not a range a..b"),
    ("..1", "is not a range a..b"),
    ("0.1..0.5..0.9", "is not a range a..b"),
    ("nan", "not a finite number"),
    ("inf", "not a finite number"),
    ("", "an empty value is not a level"),
    ("hard-ish", "'hard-ish' is not a level"),
    (True, "True is not a level"),
    (None, "None is not a level"),
])
def test_bad_values_say_what_was_wrong_and_what_is_allowed(raw, says):
    with pytest.raises(ParameterError) as info:
        parse_level(raw, ("easy",))
    message = str(info.value)
    assert message.startswith("parameter 'difficulty': ") and says in message, message
    if "low..high" not in message:
        assert "allowed: a number in [0, 1] (0 = easiest, 1 = hardest) or a range a..b" in message, message
        assert "or one of easy" in message, message


# -- the declaration on a Task -----------------------------------------------------------------------------


def _task(**changes) -> Task:
    fields = dict(family="f", name="x", version="1.0.0", answer_type="integer", category="c", description="d",
                  implementation="m:a", parameters=(Parameter("most", "int", 5, minimum=1, maximum=9),),
                  difficulty=Difficulty("one dot", "nine dots", "the number of dots"))
    fields.update(changes)
    return Task(**fields)


def test_the_core_adds_the_parameter_and_leaves_it_out_of_params_while_unset():
    task = _task()
    level = task.parameter("difficulty")
    assert level.kind == "level" and level.default is None and task.added_parameters == ("difficulty",)
    assert task.resolve_params({}) == {"most": 5}  # items made before the scale existed keep their params
    assert task.resolve_params({"difficulty": ".60..1"}) == {"most": 5, "difficulty": "0.6..1"}
    assert task.resolve_params(task.resolve_params({"difficulty": "0.6..1"}))["difficulty"] == "0.6..1"
    # equivalent settings name the same run
    assert task.canonical_settings({"difficulty": "0.60"}) == task.canonical_settings({"difficulty": 0.6})
    assert settings_suffix(task.canonical_settings({"difficulty": "0.6..1.0"})) == settings_suffix(
        {"difficulty": "0.6..1"})
    assert attrs.evolve(task, version="1.0.1").added_parameters == ("difficulty",)  # a copy keeps the rule


def test_a_task_may_list_the_level_itself_and_then_keeps_it_in_params():
    scale = Difficulty("a", "b", "p", aliases={"easy": 0, "medium": 0.5, "hard": 1})
    own = Parameter("difficulty", "level", None, choices=("easy", "medium", "hard"), help="named tiers or a level")
    task = _task(parameters=(own,), difficulty=scale)
    assert task.added_parameters == () and task.resolve_params({}) == {"difficulty": None}
    assert task.resolve_params({"difficulty": "medium"}) == {"difficulty": "medium"}


@pytest.mark.parametrize(("changes", "says"), [
    (lambda: dict(parameters=(Parameter("difficulty", "str", None, choices=("easy", "hard")),)),
     "its own 'difficulty' parameter of kind 'str'"),
    (lambda: dict(parameters=(Parameter("difficulty", "level", None),), difficulty=None),
     "declares the level parameter 'difficulty' but no difficulty scale"),
    (lambda: dict(parameters=(Parameter("difficulty", "level", "2"),)),
     "default '2' for 'difficulty', which is not a level"),
    (lambda: dict(parameters=(Parameter("level", "level", None),)), "only 'difficulty' may be of kind 'level'"),
    (lambda: dict(parameters=(Parameter("difficulty", "level", None, minimum=0),)),
     "minimum or maximum for the level"),
])
def test_inconsistent_declarations_are_the_tasks_bug(changes, says):
    """A parameter inconsistent in itself fails when it is constructed, one inconsistent with its task when the
    task is; both say it is the task's bug."""
    with pytest.raises(ValueError, match="a bug in the task's description") as info:
        _task(**changes())
    assert says in str(info.value)


@pytest.mark.parametrize(("kwargs", "says"), [
    (dict(aliases={"0.5": 0.5}), "use a word, not a number or a range"),
    (dict(aliases={"easy": "0.5..2"}), "difficulty alias 'easy' = '0.5..2'"),
    (dict(easiest=""), "easiest"),
])
def test_a_scale_validates_itself(kwargs, says):
    fields = dict(easiest="a", hardest="b", proxy="p")
    fields.update(kwargs)
    with pytest.raises(ValueError, match=says):
        Difficulty(**fields)


# -- drawing levels ---------------------------------------------------------------------------------------


def test_levels_drawn_from_a_range_are_stratified_deterministic_and_leave_the_items_generator_alone():
    levels = []
    for index in range(3 * LEVEL_STRATA):
        random = ItemRandom("t/x", "1.0.0", 4, index)
        level = draw_level(0.6, 1.0, random)
        assert 0.6 <= level <= 1.0 and level == round(level, 3)
        assert level == draw_level(0.6, 1.0, ItemRandom("t/x", "1.0.0", 4, index))  # a pure function of identity
        assert random.rng.random() == ItemRandom("t/x", "1.0.0", 4, index).rng.random()  # rng not consumed
        levels.append(level)
    for block in range(3):  # every block of LEVEL_STRATA positions puts one level in each tenth of the range
        tenths = sorted(int((v - 0.6) / 0.04) if v < 1.0 else 9 for v in levels[block * 10:(block + 1) * 10])
        assert tenths == list(range(LEVEL_STRATA))
    assert draw_level(0.3, 0.3, ItemRandom("t/x", "1.0.0", 4, 0)) == 0.3
    shared = [draw_level(0, 1, ItemRandom("t/x", "1.0.0", 4, index), position=7) for index in range(3)]
    assert len(set(shared)) == 1  # items of one position (a paired source) share the level


def test_build_hands_the_task_a_float_and_records_it(toy_host):
    task = toy_host.task("toy/dots")
    seen = []
    original = toy_plugin.DOTS.generate

    def spy(params, random):
        seen.append(params["difficulty"])
        return original(params, random)

    toy_plugin.DOTS.generate = spy
    try:
        jobs = plan(task, {"difficulty": "0.6..1"}, 0, 4)
        built = [build_item(toy_host, task, j.seed, j.index, j.params, j.suffix) for j in jobs]
        plain = build_item(toy_host, task, 0, 0, {})
    finally:
        toy_plugin.DOTS.generate = original
    assert all(isinstance(v, float) and 0.6 <= v <= 1 for v in seen[:4]) and seen[4] is None
    assert [b.item.metadata["difficulty_level"] for b in built] == seen[:4]
    assert all(b.item.params["difficulty"] == "0.6..1" for b in built)
    assert "difficulty" not in plain.item.params and "difficulty_level" not in plain.item.metadata


# -- bench tasks ------------------------------------------------------------------------------------------


class _Plain:
    """A plugin whose task declares no scale."""

    BENCH_ABI = 2

    @hookimpl
    def bench_register_tasks(self):
        return [Task("plain", "dots", "1.0.0", "integer", "counting", "dots, no scale", "toy_plugin:DOTS",
                     parameters=toy_plugin.TOY.parameters[:2])]


@pytest.fixture
def two_hosts(monkeypatch):
    from bench_core import host as host_module

    host = create_host(entry_points=False, plugins=[("toy", toy_plugin), ("plain", _Plain())])
    monkeypatch.setattr(host_module, "_default_host", host)
    return host


def test_bench_tasks_shows_each_tasks_scale(two_hosts):
    out = invoke("tasks").output
    assert "--set difficulty=...  default: unset (the task's usual mix); allowed: a number in [0, 1]" in out
    assert "difficulty 0: 1 or 2 dots" in out and "difficulty 1: most - 1 or most dots" in out
    assert "in between: the smaller count rises linearly from 1 to most - 1" in out
    assert "hardness proxy: the number of dots" in out and "names: easy = 0..0.25, hard = 1" in out
    assert "plain/dots" in out and "difficulty: no normalised scale declared (--set difficulty is not accepted)" in out
    rows = {row["id"]: row for row in json.loads(invoke("tasks", "--json").output)}
    assert rows["toy/dots"]["difficulty"]["proxy"] == "the number of dots"
    assert rows["toy/dots"]["difficulty"]["aliases"] == {"easy": "0..0.25", "hard": "1"}
    assert rows["plain/dots"]["difficulty"] is None


def test_generate_refuses_difficulty_for_tasks_without_a_scale(two_hosts, tmp_path):
    result = invoke("generate", "--out", str(tmp_path / "d"), "--set", "difficulty=0.5")
    assert result.exit_code != 0
    assert "difficulty: plain/dots declare(s) no difficulty scale; select only tasks that do" in result.output


# -- bench generate end to end ----------------------------------------------------------------------------


def test_generate_a_range_end_to_end(toy_host, tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for out, workers in ((one, "1"), (two, "2")):
        result = invoke("generate", "toy", "--out", str(out), "--count", "20", "--seed", "3",
                        "--set", "difficulty=0.6..1", "--workers", workers)
        assert result.exit_code == 0, result.output
    assert (one / "items.jsonl").read_bytes() == (two / "items.jsonl").read_bytes()  # whatever the workers
    records = items_of(one)
    levels = [r["metadata"]["difficulty_level"] for r in records]
    assert all(0.6 <= v <= 1 for v in levels) and len(set(levels)) > 10
    assert all(r["params"]["difficulty"] == "0.6..1" for r in records)
    assert all(r["metadata"]["difficulty_knobs"]["count"] == len(r["metadata"]["scene"]["dots"]) for r in records)
    assert all(int(r["answer"]) >= 3 for r in records)  # most=5: level 0.6 and up start at 3 dots
    manifest = json.loads((one / "manifest.json").read_text())
    assert manifest["runs"][0]["settings"] == {"difficulty": "0.6..1"}
    assert "verified 20 items" in invoke("verify", str(one), "--reproduce").output

    plain = tmp_path / "plain"
    assert invoke("generate", "toy", "--out", str(plain), "--count", "3", "--seed", "3").exit_code == 0
    for record in items_of(plain):  # unset: the items as before the scale existed
        assert "difficulty" not in record["params"] and "difficulty_level" not in record["metadata"]
        assert record["id"].startswith("toy.dots.3.") and record["id"].count(".") == 3


def test_generate_names_a_bad_difficulty(toy_host, tmp_path):
    result = invoke("generate", "toy", "--out", str(tmp_path / "d"), "--set", "difficulty=0.9..0.2")
    assert result.exit_code != 0 and "runs backwards" in result.output
    result = invoke("generate", "toy", "--out", str(tmp_path / "d"), "--set", "difficulty=2")
    assert result.exit_code != 0 and "is above 1; allowed: a number in [0, 1]" in result.output


def test_an_alias_names_the_same_run_as_before(toy_host, tmp_path):
    out = tmp_path / "easy"
    assert invoke("generate", "toy", "--out", str(out), "--count", "4", "--set", "difficulty=easy").exit_code == 0
    records = items_of(out)
    assert all(r["params"]["difficulty"] == "easy" for r in records)
    assert all(0 <= r["metadata"]["difficulty_level"] <= 0.25 for r in records)
    assert records[0]["id"].endswith(settings_suffix({"difficulty": "easy"}))


def test_verify_catches_a_level_outside_the_setting(toy_host, tmp_path):
    out = tmp_path / "d"
    assert invoke("generate", "toy", "--out", str(out), "--count", "2", "--set", "difficulty=0.6..1").exit_code == 0
    lines = (out / "items.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record["metadata"]["difficulty_level"] = 0.2
    (out / "items.jsonl").write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    result = invoke("verify", str(out))
    assert result.exit_code != 0
    assert "metadata.difficulty_level=0.2 is not a level within the item's difficulty setting '0.6..1'" in (
        result.output)


class _Unnamed:
    """A plugin whose task has a scale but no named levels."""

    BENCH_ABI = 2

    @hookimpl
    def bench_register_tasks(self):
        return [Task("unnamed", "dots", "1.0.0", "integer", "counting", "dots, no names", "toy_plugin:DOTS",
                     parameters=toy_plugin.TOY.parameters[:2],
                     difficulty=Difficulty(easiest="1 or 2 dots", hardest="most dots", proxy="the number of dots"))]


def test_a_setting_one_selected_task_refuses_names_that_task(monkeypatch, tmp_path):
    from bench_core import host as host_module

    host = create_host(entry_points=False, plugins=[("toy", toy_plugin), ("unnamed", _Unnamed())])
    monkeypatch.setattr(host_module, "_default_host", host)
    result = invoke("generate", "--out", str(tmp_path / "d"), "--set", "difficulty=hard")
    assert result.exit_code != 0
    assert "unnamed/dots: parameter 'difficulty': 'hard' is not a level" in result.output
    assert not (tmp_path / "d").exists()  # refused before anything is written
    alone = invoke("generate", "unnamed", "--out", str(tmp_path / "e"), "--set", "difficulty=hard")
    assert alone.exit_code != 0 and "Error: parameter 'difficulty': 'hard' is not a level" in alone.output
