"""Issue 8, "a plugin author's first hour": each thing the contract let through silently, tried as a third
party would (toy plugins made here or in a temporary folder), now fails loudly, names the plugin or task and
says what is wrong, while everything else keeps working."""

from __future__ import annotations

import ast
import json
import random as global_random
import textwrap
from pathlib import Path

import attrs
import pytest
import toy_plugin
from click.testing import CliRunner

from bench_core import Parameter, Score, Task, TaskImplementation, hookimpl
from bench_core.cli import main
from bench_core.conformance import ConformanceSuite
from bench_core.errors import GenerationError, PluginError
from bench_core.generation import build_item, plan
from bench_core.host import create_host
from bench_core.report import field_value, format_report, score_dataset
from bench_core.task import implementation

MODULE = "test_plugin_author_hour"


def toy_task(name: str, implementation: str, **changes) -> Task:
    """The toy task under another name and implementation (both inside this module)."""
    return attrs.evolve(toy_plugin.TOY, name=name, implementation=f"{MODULE}:{implementation}", **changes)


def host_with(*plugins):
    """A host holding the core defaults, the toy plugin and ``plugins`` (name, object)."""
    return create_host(entry_points=False, plugins=[("toy", toy_plugin), *plugins])


def registering(*tasks):
    """A plugin object registering ``tasks``."""

    class Plugin:
        BENCH_ABI = 2

        @hookimpl
        def bench_register_tasks(self):
            return list(tasks)

    return Plugin()


def the_toy_still_works(host) -> None:
    built = build_item(host, host.task("toy/dots"), 1, 0, {})
    assert built.item.answer == str(len(built.item.metadata["scene"]["dots"]))


# -- 1. a misspelt hook is the plugin's error -----------------------------------------------------------------


class Genrate:
    @hookimpl
    def bench_genrate(self, task, params, random):
        return None


class RegisterTask:
    @hookimpl
    def bench_register_task(self):
        return [toy_task("other", "MISSPELT_VERIFY")]


class NoPrefix:
    @hookimpl
    def register_tasks(self):
        return []


@pytest.mark.parametrize(("plugin", "says"), [
    (Genrate(), "implements unknown hook bench_genrate"),
    (RegisterTask(), "implements unknown hook bench_register_task; did you mean bench_register_tasks?"),
    (NoPrefix(), "implements unknown hook register_tasks; did you mean bench_register_tasks?"),
])
def test_a_misspelt_hook_is_reported_as_the_plugins_error_and_the_rest_works(plugin, says, capsys):
    """A decorated hook no specification names loaded with status ok before (pluggy keeps it pending); now the
    plugin is failed and unregistered like a broken one, with one line naming it, and the toy works."""
    host = host_with(("dots", plugin))
    record = host.records["dots"]
    assert record.status == "failed", record
    assert says in record.error and "\n" not in record.error
    assert not host.pm.is_registered(plugin)
    assert "plugin 'dots'" in capsys.readouterr().err
    the_toy_still_works(host)


def install(tmp_path, monkeypatch, family: str, source: str) -> None:
    """Install the one-module plugin ``plugin_<family>`` (``source``) with its dist-info and entry point, as
    pip would, into a folder put on sys.path."""
    (tmp_path / f"plugin_{family}.py").write_text(textwrap.dedent(source))
    info = tmp_path / f"bench_plugin_{family}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: bench-plugin-{family}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[bench.plugins]\n{family} = plugin_{family}\n")
    monkeypatch.syspath_prepend(str(tmp_path))


def test_a_misspelt_hook_in_an_installed_module_is_failed_in_bench_plugins(tmp_path, monkeypatch):
    """The reported case end to end: an installed module plugin whose registration hook is misspelt said ok
    with tasks=0 (then "no installed family"); now ``bench plugins`` lists it failed, saying what to rename."""
    install(tmp_path, monkeypatch, "typodots", """\
        from bench_core import hookimpl
        BENCH_ABI = 2

        @hookimpl
        def bench_register_task():
            return []
        """)
    host = create_host(plugins=[("toy", toy_plugin)])
    assert host.records["typodots"].status == "failed"
    assert "did you mean bench_register_tasks?" in host.records["typodots"].error
    the_toy_still_works(host)


def test_an_optional_hook_of_another_project_is_allowed():
    """``optionalhook=True`` marks an implementation of a hook that may not exist: pluggy's own check lets it
    pass, and so does the host."""

    class Optional:
        @hookimpl(optionalhook=True)
        def some_other_hook(self):
            return None

    host = host_with(("optional", Optional()))
    assert host.records["optional"].status == "ok"


def test_a_hook_with_a_wrong_argument_is_refused_in_one_line():
    """pluggy's validation error spans lines; the plugin's record (and the warning) stays one line."""

    class WrongArgument:
        @hookimpl
        def bench_score(self, task, item, respons):
            return None

    host = host_with(("wrong", WrongArgument()))
    error = host.records["wrong"].error
    assert host.records["wrong"].status == "failed" and "respons" in error and "\n" not in error


# -- 2. verify and distractors are required, never an inherited default -----------------------------------------


class MisspeltVerify(TaskImplementation):
    """The toy's task as a third party might write it, with ``verify`` misspelt."""

    generate, render = toy_plugin.Dots.generate, toy_plugin.Dots.render
    distractors, hardness = toy_plugin.Dots.distractors, toy_plugin.Dots.hardness

    def verfy(self, item, images):
        return []


class MisspeltDistractors(TaskImplementation):
    """The toy's task with ``distractors`` misspelt."""

    generate, render = toy_plugin.Dots.generate, toy_plugin.Dots.render
    verify, hardness = toy_plugin.Dots.verify, toy_plugin.Dots.hardness

    def distractor(self, problem, count, random):
        return []


class NoHardness(TaskImplementation):
    """The toy's task (which declares a difficulty scale) without its hardness proxy."""

    generate, render = toy_plugin.Dots.generate, toy_plugin.Dots.render
    verify, distractors = toy_plugin.Dots.verify, toy_plugin.Dots.distractors


MISSPELT_VERIFY = MisspeltVerify()
MISSPELT_DISTRACTORS = MisspeltDistractors()
NO_HARDNESS = NoHardness()


@pytest.mark.parametrize(("attribute", "says"), [
    ("MISSPELT_VERIFY", "does not define verify(item, images); it defines verfy: misspelt?"),
    ("MISSPELT_DISTRACTORS", "does not define distractors(problem, count, random); it defines distractor: misspelt?"),
    ("NO_HARDNESS", "does not define hardness(item) (the task declares a difficulty scale)"),
])
def test_a_missing_required_method_fails_loudly_naming_the_task_and_the_method(attribute, says):
    """Before, ``verfy`` or ``distractor`` silently fell back to the base class; now loading the implementation
    (the first thing generation, verify and the conformance suite do) is a one-line PluginError."""
    task = toy_task("broken", attribute)
    host = host_with(("broken", registering(task)))
    with pytest.raises(PluginError) as info:
        implementation(task)
    message = str(info.value)
    assert message.startswith("task toy/broken: its implementation") and says in message and "\n" not in message
    with pytest.raises(PluginError, match="toy/broken"):
        build_item(host, task, 0, 0, {})
    the_toy_still_works(host)


class IgnoresTheAnswer(toy_plugin.Dots):
    """Checks the pixels only, and proposes no distractor: the planted faults never tried a wrong answer."""

    def verify(self, item, images):
        return [f for f in super().verify(item, images) if not f.startswith("answer")]

    def distractors(self, problem, count, random):
        return []


IGNORES_THE_ANSWER = IgnoresTheAnswer()


def test_the_conformance_suite_asserts_that_verify_rejects_a_corrupted_answer():
    """A verify that never looks at the answer passed the whole suite when the task proposed no distractor."""
    task = toy_task("lax", "IGNORES_THE_ANSWER")
    host = host_with(("lax", registering(task)))

    class Suite(ConformanceSuite):
        def bench_host(self):
            return host

    with pytest.raises(AssertionError, match=r"verify missed a planted fault: .*claiming the wrong answer '\d+'"):
        Suite().test_verify_rejects_a_corrupted_answer(task)
    Suite().test_verify_rejects_a_corrupted_answer(host.task("toy/dots"))  # the toy's verify does check


# -- 3. parameters validate themselves; drawn values are checked ---------------------------------------------------


@pytest.mark.parametrize(("kwargs", "says"), [
    (dict(name="others", kind="int", default=20, minimum=0, maximum=8), "default 20 for 'others' outside [0, 8]"),
    (dict(name="others", kind="int", default=3, minimum=8, maximum=0), "minimum 8 above maximum 0 for 'others'"),
    (dict(name="colour", kind="str", default="blue", choices=("black", "red")),
     "default 'blue' for 'colour', which is not among its choices (black, red)"),
    (dict(name="others", kind="int", default="3"), "default '3' for 'others', which is not an int"),
    (dict(name="others", kind="int", default=2.5), "default 2.5 for 'others', which is not an int"),
    (dict(name="colour", kind="str", default="red", maximum=3), "maximum 3 for the str 'colour'"),
    (dict(name="others", kind="int", choices=(1, 2, 30), maximum=9), "choice 30 for 'others' outside [-inf, 9]"),
])
def test_a_parameter_validates_its_own_declaration(kwargs, says):
    """Before, a Parameter accepted these and (alone, or until its task was built) the error surfaced at
    generate time as if a user had set it; now its construction fails, worded as the task's bug."""
    with pytest.raises(ValueError) as info:
        Parameter(**kwargs)
    assert says in str(info.value) and "a bug in the task's description" in str(info.value)


def test_a_plugin_declaring_a_bad_parameter_is_disabled_at_registration(tmp_path, monkeypatch):
    """The plugin's import fails with the declaration's one-line message; everything else keeps working."""
    install(tmp_path, monkeypatch, "badparam", """\
        from bench_core import Parameter, Task, hookimpl
        BENCH_ABI = 2
        TASK = Task(family="badparam", name="count", version="1.0.0", answer_type="integer", category="counting",
                    description="How many?", implementation="plugin_badparam:TASK",
                    parameters=(Parameter("others", "int", 20, minimum=0, maximum=8),))

        @hookimpl
        def bench_register_tasks():
            return [TASK]
        """)
    host = create_host(plugins=[("toy", toy_plugin)])
    record = host.records["badparam"]
    assert record.status == "failed" and "default 20 for 'others' outside [0, 8]" in record.error
    the_toy_still_works(host)


class DrawsOthers(toy_plugin.Dots):
    """Draws ``others`` per item: 0..8 as declared, or 12 when ``bad_draw`` says so; reports it in
    Problem.params (where the core checks and records it) or only in metadata."""

    bad_draw = False
    report = "params"

    def generate(self, params, random):
        problem = super().generate(params, random)
        others = 12 if self.bad_draw else int(random.stream("others").integers(0, 9))
        if self.report == "params":
            return attrs.evolve(problem, params={**params, "others": others})
        return attrs.evolve(problem, metadata={**problem.metadata, "others": others})


OTHERS = Parameter("others", "int", None, minimum=0, maximum=8, help="drawn per item")
DRAWS_WELL = DrawsOthers()
DRAWS_BADLY = DrawsOthers()
DRAWS_BADLY.bad_draw = True
RECORDS_BADLY = DrawsOthers()
RECORDS_BADLY.bad_draw, RECORDS_BADLY.report = True, "metadata"


def _drawing(attribute: str):
    task = toy_task("draws", attribute, parameters=(*toy_plugin.TOY.parameters[:2], OTHERS))
    return task, host_with(("draws", registering(task)))


def test_drawn_values_reported_in_problem_params_are_recorded_not_dropped():
    """``Problem.params`` was dropped and a drawn value appeared only as null; now the value a generator reports
    there lands in the item's metadata under the parameter's name (item.params keeps the run's setting, None),
    where ``bench score --by others`` finds it."""
    task, host = _drawing("DRAWS_WELL")
    item = build_item(host, task, 0, 0, plan(task, {}, 0, 1)[0].params).item
    assert item.params["others"] is None
    assert 0 <= item.metadata["others"] <= 8
    assert field_value(item, "others", "counting") == str(item.metadata["others"])


def test_a_generator_drawing_outside_the_declared_range_is_caught():
    """Reported in Problem.params: every build fails naming the task's bug.  Recorded only in metadata: the
    conformance suite's drawn-values test fails with what was drawn and what is declared."""
    task, host = _drawing("DRAWS_BADLY")
    with pytest.raises(GenerationError, match=r"toy/draws: generate drew 12 for 'others' outside \[0, 8\]"):
        build_item(host, task, 0, 0, plan(task, {}, 0, 1)[0].params)

    task, host = _drawing("RECORDS_BADLY")

    class Suite(ConformanceSuite):
        def bench_host(self):
            return host

    with pytest.raises(AssertionError, match=r"drew 12 for 'others' outside \[0, 8\] \(recorded as metadata.others"):
        Suite().test_drawn_values_lie_in_declared_ranges(task)


class IgnoresTheSetting(DrawsOthers):
    """Reports others=3 whatever the run set."""

    def generate(self, params, random):
        problem = super().generate(params, random)
        return attrs.evolve(problem, params={**params, "others": 3})


IGNORES_THE_SETTING = IgnoresTheSetting()


def test_a_generator_that_overrides_a_setting_is_caught():
    """A value set by the run and reported changed in Problem.params is the task ignoring the user."""
    task, host = _drawing("IGNORES_THE_SETTING")
    with pytest.raises(GenerationError, match=r"reports others=3 in Problem.params, but the run set 7"):
        build_item(host, task, 0, 0, plan(task, {"others": 7}, 0, 1)[0].params)
    assert build_item(host, task, 0, 0, plan(task, {"others": 3}, 0, 1)[0].params).item.params["others"] == 3


# -- 4. a benchmark number can be traced to the plugins that made it ----------------------------------------------


class ScoreBooster:
    """A third party's wrapper that raises every score of toy/dots to 1."""

    @hookimpl(wrapper=True)
    def bench_score(self, task, item, response):
        result = yield
        return Score(1.0, result.parsed, True, result.details) if task.id == "toy/dots" else result


class Auditor:
    """Adds a check to toy/dots only (abstains elsewhere), and does not take the ``task`` argument."""

    @hookimpl
    def bench_verify(self, item, images):
        return [] if item.task == "dots" else None


def _dataset(host, monkeypatch, tmp_path):
    from bench_core import host as host_module

    monkeypatch.setattr(host_module, "_default_host", host)
    out = tmp_path / "d"
    result = CliRunner().invoke(main, ["generate", "toy", "--out", str(out), "--count", "3"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


def test_the_manifest_records_which_plugins_hooks_ran_on_each_task(tmp_path, monkeypatch):
    """Generation traces the plugins whose bench_verify checked each task's items (an abstaining plugin is not
    listed), and the manifest records it per task."""
    host = host_with(("auditor", Auditor()), ("booster", ScoreBooster()))
    manifest = json.loads((_dataset(host, monkeypatch, tmp_path) / "manifest.json").read_text())
    assert manifest["hooks_ran"] == {"toy/dots": {"bench_verify": ["auditor", "toy"]}}
    assert manifest["hook_extensions"] == {"bench_score": ["booster"], "bench_verify": ["auditor"]}


def test_every_score_output_names_a_third_party_score_wrapper(tmp_path, monkeypatch):
    """The 0.33 -> 0.42 case: a wrapper changed the numbers and nothing said so; the JSON report records per
    task which plugins' bench_score ran, and the text report says a foreign plugin ran on which task."""
    host = host_with(("booster", ScoreBooster()))
    out = _dataset(host, monkeypatch, tmp_path)
    records = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(json.dumps({"id": r["id"], "response": "no idea"}) + "\n" for r in records))
    report = score_dataset(out, predictions, host=host)
    assert report["overall"] == 1.0
    assert report["owners"] == {"toy/dots": "toy"}
    assert report["hooks_ran"] == {"toy/dots": {"bench_score": ["booster", "toy"]}}
    assert "note: plugin(s) booster ran bench_score on toy/dots; they may change these numbers" in format_report(
        report)
    text = CliRunner().invoke(main, ["score", str(out), str(predictions)], catch_exceptions=False).output
    assert "booster ran bench_score on toy/dots" in text


def test_a_plain_score_implementation_that_answers_is_traced_as_the_scorer(toy_host):
    """A first-result implementation of another plugin that answers (instead of the task) is the one named."""

    class Scorer:
        @hookimpl
        def bench_score(self, task, item, response):
            return Score(0.0) if task.id == "toy/dots" else None

    toy_host.add(Scorer(), name="scorer")
    built = build_item(toy_host, toy_host.task("toy/dots"), 0, 0, {})
    from bench_core.scorer import score

    with toy_host.tracing() as trace:
        assert score(built.item, built.item.answer, host=toy_host).value == 0.0
    assert trace == {"toy/dots": {"bench_score": {"scorer"}}}


def test_verify_failures_and_crashes_are_prefixed_with_the_plugin(toy_host):
    """A check another plugin adds is reported under its name, and so is a check that raises (before, the bare
    exception surfaced with no plugin named)."""

    class Crashes:
        @hookimpl
        def bench_verify(self, task, item, images):
            raise KeyError("scene")

    toy_host.add(Crashes(), name="crashes")
    with pytest.raises(PluginError, match=r"^\[crashes\] bench_verify raised KeyError on toy\.dots\.0\.000000"):
        build_item(toy_host, toy_host.task("toy/dots"), 0, 0, {})


# -- 5. conformance failures say what failed ----------------------------------------------------------------------


def test_every_conformance_assertion_has_a_message_and_every_test_a_docstring():
    """pytest does not rewrite the asserts of an installed module: a bare assert fails as 'AssertionError'."""
    import bench_core.conformance as conformance

    tree = ast.parse(Path(conformance.__file__).read_text())
    bare = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Assert) and node.msg is None]
    undocumented = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                    and node.name.startswith("test_") and not ast.get_docstring(node)]
    assert not bare, f"asserts without a message in conformance.py at lines {bare}"
    assert not undocumented, f"conformance tests without a docstring: {undocumented}"


class GlobalRandom(toy_plugin.Dots):
    """Draws its dot count from the global random module: a different item on every build."""

    def generate(self, params, random):
        problem = super().generate(params, random)
        count = global_random.randint(1, 9)
        centres = [(20 + 40 * (k % 3), 20 + 40 * (k // 3)) for k in range(count)]
        scene = {**problem.metadata["scene"], "dots": [list(c) for c in centres]}
        return attrs.evolve(problem, answer=str(count), metadata={**problem.metadata, "count": count, "scene": scene},
                            structure=(centres, params["colour"]))


GLOBAL_RANDOM = GlobalRandom()


def test_a_nondeterminism_failure_suggests_global_random_state():
    """The suite's determinism failure names the usual cause."""
    task = toy_task("flaky", "GLOBAL_RANDOM")
    host = host_with(("flaky", registering(task)))

    class Suite(ConformanceSuite):
        def bench_host(self):
            return host

    global_random.seed(1)
    with pytest.raises(AssertionError, match="the usual cause is global random state"):
        Suite().test_deterministic(task)


# -- a task whose items come in groups: --count counts groups --------------------------------------------------


class InPairs(toy_plugin.Dots):
    """Two items per counted unit (a Cartesian/Polar pair, say), or a bad group size."""

    per = 2

    def items_per_count(self, params):
        return self.per


IN_PAIRS = InPairs()
BAD_GROUP = InPairs()
BAD_GROUP.per = 0


def test_count_counts_groups_of_a_task_whose_items_come_in_pairs():
    task = toy_task("pairs", "IN_PAIRS")
    jobs = plan(task, {}, 0, 3)
    assert [job.index for job in jobs] == [0, 1, 2, 3, 4, 5]
    assert len(plan(toy_plugin.TOY, {}, 0, 3)) == 3  # one item per count, as before
    with pytest.raises(PluginError, match=r"toy/bad: items_per_count returned 0; it must be an int >= 1"):
        plan(toy_task("bad", "BAD_GROUP"), {}, 0, 3)
