"""The conformance suite: the tests every task must pass, for our plugins and third parties alike.

Use it from a plugin's test-suite by subclassing::

    from bench_core import ConformanceSuite

    class TestMyFamilyConformance(ConformanceSuite):
        family = "myfamily"        # None runs it over every installed task

pytest then runs each test below once per task of the family (the plugin must be installed, so that
its entry point is visible).  Override ``seeds`` to widen or narrow the sweep, and set ``golden_dir`` to a
folder of committed golden digests (one ``<task>.json`` per task; write them with ``BENCH_WRITE_GOLDEN=1``)
so that output which changes without a task version bump fails.

Besides the contract tests, the suite plants generic faults in each item (the answer replaced by a
distractor, another option or a corruption of the gold answer, the option panels moved one slot, the images
swapped, an image blanked) and asserts that the task's verify catches every one; a plugin adds its own
task-specific mutations with ``assert_rejected``.  Values drawn per item, where the item records them, must
lie within their parameter's declaration.

Every assertion carries a message and every test a docstring: pytest does not rewrite the asserts of an
installed module, so a bare ``assert`` would fail with nothing but ``AssertionError``.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import json
import os
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from bench_core.errors import ParameterError
from bench_core.generation import Built, build_item, plan, verify_item
from bench_core.golden import GOLDEN_ENV, check_golden
from bench_core.host import Host, default_host
from bench_core.images import decode_png
from bench_core.scorer import score
from bench_core.seeding import ItemRandom
from bench_core.task import implementation
from bench_core.types import Item, Task, option_letters

#: Responses that must score 0 and never raise, whatever the task.
GARBAGE_RESPONSES: tuple[Any, ...] = (
    "",
    "   \n\t ",
    "I cannot answer that.",
    "x" * 2_000_000,
    "\x00\x01\x02\xff\xfe",
    "\ud800 lone surrogate",
    "🙂🙃" * 5000,
    "<answer></answer>",
    "\\boxed{}",
    "<final_answer>",
    "{" * 10000,
    None,
    b"\x89PNG\r\n\x1a\n",
    ["not", "a", "string"],
)


#: Environment variables that ask for a full run: every seed of the sweep and the tests a fast run leaves out.
FULL_RUN_ENV = ("CI", "BENCH_SLOW")


def full_run() -> bool:
    """True in a full test run: ``CI`` or ``BENCH_SLOW`` set (to anything but empty, 0 or false); pytest's
    ``--runslow`` (the repository's conftest) sets ``BENCH_SLOW``.  A developer's default run is not full."""
    return any(os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no") for name in FULL_RUN_ENV)


def _full_run_only(what: str) -> None:
    """Skip the calling test outside a full run, saying why and how to run it."""
    if not full_run():
        pytest.skip(f"{what}: slow, runs in a full run only (CI, BENCH_SLOW=1 or --runslow)")


#: Items built by ``ConformanceSuite.shared_build``, per host (dropped with the host), without their images.
_SHARED_BUILDS: weakref.WeakKeyDictionary[Host, dict[tuple[Any, ...], Built]] = weakref.WeakKeyDictionary()


class ConformanceSuite:
    """Parametrised over the tasks of ``family``; see the module docstring."""

    family: str | None = None
    @property
    def seeds(self) -> Sequence[int]:
        """Seeds swept by the contract tests: eight in a full run (``full_run()``: CI), three in a developer's
        fast run.  A subclass may set its own tuple."""
        return tuple(range(8)) if full_run() else (0, 1, 2)

    distractor_count: int = 3
    #: Folder of committed golden digests (``<task name>.json``); None skips the golden test.
    golden_dir: Path | None = None

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "task" in metafunc.fixturenames:
            tasks = self.bench_host().select([self.family] if self.family else [])
            if not tasks:
                pytest.fail(f"no installed task in family {self.family!r}: is the plugin installed?")
            metafunc.parametrize("task", tasks, ids=[t.id for t in tasks])

    # -- helpers ---------------------------------------------------------------------------------
    def bench_host(self) -> Host:
        """The host whose tasks are tested: the installed plugins (override to test an unregistered one)."""
        return default_host()

    @property
    def host(self) -> Host:
        return self.bench_host()

    def build(self, task: Task, seed: int, index: int, settings: dict[str, Any] | None = None) -> Built:
        """Build item ``index`` of a run of ``task`` with ``seed`` and ``settings``, afresh."""
        job = plan(task, settings or {}, seed, index + 1)[index]
        return build_item(self.host, task, seed, index, job.params, job.suffix)

    def shared_build(self, task: Task, seed: int, index: int, settings: dict[str, Any] | None = None) -> Built:
        """The same item as ``build``, built once per host and test session and shared by the tests that only
        read it (an item depends on nothing else: ``test_deterministic`` builds afresh to prove that).  The
        images are decoded again from the PNGs on each call, so a test may change its copy."""
        key = (repr(task), seed, index, json.dumps(settings or {}, sort_keys=True, default=str))
        store = _SHARED_BUILDS.setdefault(self.host, {})
        if key not in store:
            store[key] = attrs.evolve(self.build(task, seed, index, settings), images=())
        built = store[key]
        return attrs.evolve(built, images=tuple(decode_png(png) for png in built.pngs))

    # -- the contract ----------------------------------------------------------------------------
    def test_deterministic(self, task: Task) -> None:
        """The same (task, version, seed, index) gives the same record and PNG bytes, whatever was generated
        before; another seed gives another item."""
        hint = ("; the usual cause is global random state (random.*, np.random.*) or iteration over a set: draw "
                "only from the ItemRandom passed to generate")
        later = self.build(task, 11, 3)
        self.build(task, 11, 2)  # generating another item in between must not matter
        again = self.build(task, 11, 3)
        assert later.item.to_json() == again.item.to_json(), f"{later.item.id}: the record changed between builds{hint}"
        assert later.pngs == again.pngs, f"{later.item.id}: the PNG bytes changed between builds{hint}"
        other = self.build(task, 12, 3)
        assert other.item.to_json() != later.item.to_json(), f"{task.id}: seeds 11 and 12 gave the same item"

    def test_gold_scores_one_and_verify_passes(self, task: Task) -> None:
        """Over the suite's seeds every item builds (verify never disagrees with an accepted item) and its gold
        answer scores 1."""
        for seed in self.seeds:
            for index in (0, 1):
                built = self.shared_build(task, seed, index)  # raises if verify fails
                result = score(built.item, built.item.answer, host=self.host)
                assert result.value == 1.0, f"gold answer of {built.item.id} scored {result.value}"
                assert result.answered, f"the gold answer of {built.item.id} was not parsed as an answer"

    def test_distractors_score_zero(self, task: Task) -> None:
        """Distractors exist where the item has options, are pairwise distinct, and each scores 0."""
        for seed in self.seeds[:4]:
            built = self.shared_build(task, seed, 0)
            random = ItemRandom(task.id, task.version, seed, 0)
            distractors = self.host.call(
                "bench_distractors", task, problem=built.problem, count=self.distractor_count, random=random
            )
            assert distractors is not None, f"{task.id}: no plugin answered bench_distractors"
            distractors = list(distractors)
            assert len(set(distractors)) == len(distractors), f"repeated distractors {distractors}"
            if built.item.options:
                assert distractors, f"{built.item.id} has options but its task proposes no distractor"
            for wrong in distractors:
                assert wrong != built.item.answer, f"{built.item.id}: the gold answer {wrong!r} is a distractor"
                result = score(built.item, wrong, host=self.host)
                assert result.value == 0.0, f"distractor {wrong!r} of {built.item.id} scored {result.value}"

    def test_extreme_parameter_values(self, task: Task) -> None:
        """Every choice and both bounds of every parameter build items (a full run only: it builds dozens)."""
        _full_run_only("every extreme value of every parameter")
        for parameter in task.parameters:
            for value in parameter.extremes():
                jobs = plan(task, {parameter.name: value}, 3, 2)
                for job in jobs:
                    build_item(self.host, task, job.seed, job.index, job.params, job.suffix)

    def test_image_has_declared_size_and_is_not_blank(self, task: Task) -> None:
        """Every rendered image has the problem's image_size (width, height) and visible ink."""
        import numpy as np

        built = self.shared_build(task, self.seeds[-1], 0)  # the images as written: decoded from the PNGs
        assert built.images, f"{built.item.id}: no image rendered"
        for image in built.images:
            assert tuple(image.size) == tuple(built.problem.image_size), (
                f"{built.item.id}: image is {image.size}, the problem declares {built.problem.image_size}"
            )
            pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
            background = np.median(pixels, axis=0)
            ink = np.any(np.abs(pixels.astype(int) - background) > 40, axis=1).mean()
            assert ink > 0.002, f"image of {built.item.id} is (nearly) blank: {ink:.4%} ink"

    def test_garbage_responses_score_zero(self, task: Task) -> None:
        """Empty, huge, binary, non-string and tag-only responses score 0 and never raise."""
        built = self.shared_build(task, 2, 0)
        for response in GARBAGE_RESPONSES:
            result = score(built.item, response, host=self.host)
            assert result.value == 0.0, f"garbage {str(response)[:40]!r} scored {result.value}"

    def test_invalid_parameters_raise_clear_errors(self, task: Task) -> None:
        """An unknown parameter and an out-of-range value raise ParameterError naming it and what is allowed."""
        _expect_parameter_error(task, "no-such-parameter", "1")
        for parameter in task.parameters:
            if parameter.choices is not None:
                bad: Any = "definitely-not-allowed" if parameter.kind == "str" else 10**9 + 7
            elif parameter.maximum is not None:
                bad = parameter.maximum + 1
            elif parameter.minimum is not None:
                bad = parameter.minimum - 1
            else:
                continue
            error = _expect_parameter_error(task, parameter.name, bad)
            assert "allowed" in error, f"{task.id}: the error for {parameter.name}={bad!r} does not say what is " \
                                       f"allowed: {error}"

    def test_implementation_loads(self, task: Task) -> None:
        """The implementation imports and defines generate, render, verify and distractors itself (a misspelt
        method would otherwise fall back to the base class): ``implementation`` refuses it in one line."""
        from bench_core.task import TaskImplementation

        impl = implementation(task)
        for method in ("generate", "render", "verify", "distractors"):
            own = getattr(type(impl), method, None)
            assert callable(own), f"{task.id} implementation lacks {method}"
            assert own is not getattr(TaskImplementation, method), (
                f"{task.id}: {type(impl).__name__} does not define {method} (is it misspelt?)"
            )
        assert callable(getattr(impl, "score", None)), f"{task.id} implementation lacks score"

    def test_imports_only_the_public_core_api(self, task: Task) -> None:
        """The task's package imports from the core only the names of ``bench_core.__all__`` (the public API
        of this ABI), never a core submodule, which may change without notice."""
        package = (task.implementation or "").partition(":")[0].split(".")[0]
        try:
            spec = importlib.util.find_spec(package) if package else None
        except ValueError:  # a module made in memory (no spec): nothing on disk to read
            spec = None
        if spec is None or not spec.submodule_search_locations:
            pytest.skip(f"{task.id}: implementation {task.implementation!r} is not in an installed package")
        files = sorted(p for root in spec.submodule_search_locations for p in Path(root).rglob("*.py"))
        problems = _private_core_imports_once(tuple(str(f) for f in files))
        assert not problems, f"{task.id}: the package {package} imports private core names:\n" + "\n".join(problems)

    def test_scene_record_is_json(self, task: Task) -> None:
        """The item stores a plain-JSON scene record in metadata.scene, with the image size."""
        built = self.shared_build(task, self.seeds[0], 1)
        scene = built.item.metadata.get("scene")
        assert isinstance(scene, dict) and scene, f"{built.item.id} stores no scene record in metadata.scene"
        assert json.loads(json.dumps(scene)) == scene, f"{built.item.id}: the scene record is not plain JSON"
        assert list(scene.get("image_size", [])) == list(built.problem.image_size), "scene.image_size is missing"

    def test_verify_reads_only_the_artefact(self, task: Task, tmp_path: Path) -> None:
        """An item written to disk and read back verifies with no generator state in the process."""
        from bench_core.dataset import DatasetWriter, read_items, write_manifest
        from bench_core.verification import verify_dataset

        seeds = self.seeds[:3]
        with DatasetWriter(tmp_path) as writer:
            for seed in seeds:
                built = self.shared_build(task, seed, 0)
                writer.write(built.item.to_json(), built.item.images, built.pngs)
        write_manifest(tmp_path, [{"conformance": task.id}])
        items = read_items(tmp_path)
        assert len(items) == len(seeds), f"wrote {len(seeds)} items of {task.id}, read back {len(items)}"
        report = verify_dataset(tmp_path, host=self.host)
        assert report.ok, f"{task.id}: items read back from disk fail verification: {report.failures}"

    def test_planted_faults_are_caught(self, task: Task) -> None:
        """Generic mutations of the written item: each must make verify fail."""
        for seed in self.seeds[:3]:
            built = self.shared_build(task, seed, 1)
            item, images = built.item, [decode_png(p) for p in built.pngs]
            assert not verify_item(self.host, task, item, images), "the unmutated item must verify"
            for name, (bad_item, bad_images) in generic_mutations(self.host, task, built).items():
                assert_rejected(self.host, task, bad_item, bad_images, f"{name} ({item.id})")

    def test_verify_rejects_a_corrupted_answer(self, task: Task) -> None:
        """Every item has a wrong answer to plant (a distractor, another option, or the gold answer corrupted by
        its answer type) and verify rejects the item claiming it: verify re-derives the answer."""
        for seed in self.seeds[:2]:
            built = self.shared_build(task, seed, 0)
            images = [decode_png(p) for p in built.pngs]
            wrong = wrong_answers(self.host, task, built)
            assert wrong, f"{built.item.id}: no wrong answer can be made for answer {built.item.answer!r}"
            assert_rejected(self.host, task, with_answer(built.item, wrong[0]), images,
                            f"{built.item.id} claiming the wrong answer {wrong[0]!r} (gold {built.item.answer!r})")

    def test_drawn_values_lie_in_declared_ranges(self, task: Task) -> None:
        """A parameter the run leaves to be drawn per item takes only the values its declaration allows: where
        the item records the drawn value (``metadata[name]``, a single value), it lies in the declared range and
        choices.  (Values reported in ``Problem.params`` are checked by the core on every build.)"""
        from bench_core.generation import RESERVED_METADATA

        for seed in self.seeds:
            for index in (0, 1):
                item = self.shared_build(task, seed, index).item
                for parameter in task.parameters:
                    if parameter.kind == "level" or parameter.name in RESERVED_METADATA:
                        continue
                    if item.params.get(parameter.name) is not None:
                        continue  # set by the run, not drawn
                    value = item.metadata.get(parameter.name)
                    if value is None or isinstance(value, (list, dict)):
                        continue  # not recorded as a single value
                    problem = parameter.value_problem(value)
                    assert problem is None, (
                        f"{item.id}: the generator drew {problem} (recorded as metadata.{parameter.name}); draw "
                        f"only what the parameter declares ({parameter.allowed()}), or widen the declaration")

    def test_golden_digests(self, task: Task) -> None:
        """The committed digests of a few items (records and PNG bytes) still match: output changes only with a
        task version bump (rewrite them with ``BENCH_WRITE_GOLDEN=1`` and say why in the CHANGELOG)."""
        if self.golden_dir is None:
            pytest.skip("no golden_dir set for this suite")
        problems = check_golden(self.host, task, Path(self.golden_dir), write=bool(os.environ.get(GOLDEN_ENV)))
        assert not problems, "\n".join(problems)

    # -- the difficulty scale ------------------------------------------------------------------------
    #: Fixed levels at which the hardness proxy is compared, and items built at each (keep it seconds).
    difficulty_levels: Sequence[float] = (0.1, 0.5, 0.9)
    difficulty_items: int = 8

    def test_difficulty_setting_is_recorded(self, task: Task) -> None:
        """With ``--set difficulty``: a single level reaches the item as ``metadata.difficulty_level`` with the
        knobs it set (``metadata.difficulty_knobs``) and a finite hardness; a range gives each item a level
        inside it, the same on a rebuild; every alias builds.  A fast run checks one item of the range and one
        alias (a full run: three items and every alias)."""
        import math

        from bench_core.difficulty import KNOBS_KEY, LEVEL_KEY
        from bench_core.task import TaskImplementation

        if task.difficulty is None:
            pytest.skip(f"{task.id} declares no difficulty scale (Task(difficulty=Difficulty(...)))")
        impl = implementation(task)
        assert type(impl).hardness is not TaskImplementation.hardness, (
            f"{task.id} declares a difficulty scale but its {type(impl).__name__} defines no hardness(item)")
        built = self.build(task, 1, 0, {"difficulty": 0.7})
        item = built.item
        setting, level = item.params.get("difficulty"), item.metadata.get(LEVEL_KEY)
        assert setting == 0.7, f"{item.id}: params.difficulty is {setting!r}, not the setting 0.7"
        assert level == 0.7, f"{item.id}: metadata.{LEVEL_KEY} is {level!r}, not the setting's level 0.7"
        knobs = item.metadata.get(KNOBS_KEY)
        assert isinstance(knobs, dict) and knobs, (
            f"{item.id}: the task records no raw knob values in metadata.{KNOBS_KEY} (got {knobs!r})")
        value = impl.hardness(item)
        assert isinstance(value, (int, float)) and math.isfinite(value), f"{item.id}: hardness {value!r} is not finite"
        full = full_run()
        for index in (0, 1, 2) if full else (0,):
            built = self.build(task, 2, index, {"difficulty": "0.25..0.75"})
            level = built.item.metadata.get(LEVEL_KEY)
            assert isinstance(level, float) and 0.25 <= level <= 0.75, (
                f"{built.item.id}: level {level!r} outside the range 0.25..0.75")
            again = self.build(task, 2, index, {"difficulty": "0.25..0.75"}).item.metadata.get(LEVEL_KEY)
            assert again == level, f"{built.item.id}: level {level} on one build, {again} on the next"
        for alias in list(task.difficulty.aliases)[: None if full else 1]:
            self.build(task, 3, 0, {"difficulty": alias})
        for bad in ("1.5", "0.9..0.2", "hard-ish"):
            if bad in task.difficulty.aliases:
                continue
            error = _expect_parameter_error(task, "difficulty", bad)
            assert "allowed" in error or "low..high" in error, (
                f"{task.id}: the error for difficulty={bad!r} does not say what is allowed: {error}")

    def test_hardness_rises_with_difficulty(self, task: Task) -> None:
        """The task's model-free hardness proxy, averaged over ``difficulty_items`` items at each of
        ``difficulty_levels``, rises strictly from the lowest level to the highest and never falls between."""
        from itertools import pairwise

        if task.difficulty is None:
            pytest.skip(f"{task.id} declares no difficulty scale (Task(difficulty=Difficulty(...)))")
        _full_run_only(f"{self.difficulty_items} items at each of {len(self.difficulty_levels)} levels")
        profile = difficulty_profile(self.host, task, self.difficulty_levels, self.difficulty_items)
        means = [sum(v) / len(v) for v in profile.values()]
        shown = ", ".join(f"{level}: {mean:.3f}" for level, mean in zip(profile, means, strict=True))
        what = f"{task.id}: mean hardness ({task.difficulty.proxy}) by level: {shown}"
        assert means[-1] > means[0], f"{what}; it does not rise from the lowest level to the highest"
        assert all(a <= b for a, b in pairwise(means)), f"{what}; it falls somewhere between"


def _expect_parameter_error(task: Task, name: str, value: Any) -> str:
    """The message of the ParameterError that ``--set name=value`` must raise for ``task``, which must name
    the parameter; fails the test saying what was accepted otherwise."""
    try:
        plan(task, {name: value}, 0, 1)
    except ParameterError as exc:
        assert name in str(exc), f"{task.id}: the error for {name}={value!r} does not name {name!r}: {exc}"
        return str(exc)
    pytest.fail(f"{task.id}: --set {name}={value!r} was accepted; it must raise ParameterError naming {name!r} "
                "and what is allowed")


def difficulty_profile(host: Host, task: Task, levels: Sequence[float] = (0.1, 0.5, 0.9), count: int = 8,
                       seed: int = 0) -> dict[float, list[float]]:
    """``{level: [hardness of each item]}``: ``count`` items of ``task`` built (and verified) at each fixed
    ``level`` with seed ``seed``, measured by the task's ``hardness(item)`` proxy."""
    if task.difficulty is None:
        raise ValueError(f"{task.id} declares no difficulty scale")
    impl = implementation(task)
    profile: dict[float, list[float]] = {}
    for level in levels:
        values = []
        for job in plan(task, {"difficulty": level}, seed, count):
            built = build_item(host, task, job.seed, job.index, job.params, job.suffix)
            values.append(float(impl.hardness(built.item)))
        profile[level] = values
    return profile


@functools.lru_cache(maxsize=32)
def _private_core_imports_once(files: tuple[str, ...]) -> list[str]:
    """``private_core_imports`` of ``files``, read once per test session (a family's tasks share a package)."""
    return private_core_imports(files)


def private_core_imports(files: Sequence[str | os.PathLike[str]]) -> list[str]:
    """Every import in ``files`` (Python sources) that reaches past the core's public API, as ``path:line:
    what``: ``from bench_core.<module> import ...``, ``import bench_core.<module>``, or a name imported from
    ``bench_core`` that is not in ``bench_core.__all__``."""
    import bench_core

    public = set(bench_core.__all__)
    problems = []
    for path in files:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.startswith("bench_core."):
                    problems.append(f"{path}:{node.lineno}: from {node.module} import ... (a private module)")
                elif node.module == "bench_core":
                    problems += [f"{path}:{node.lineno}: {a.name} is not in bench_core.__all__"
                                 for a in node.names if a.name not in public]
            elif isinstance(node, ast.Import):
                problems += [f"{path}:{node.lineno}: import {a.name} (a private module)"
                             for a in node.names if a.name.startswith("bench_core.")]
    return problems


def assert_rejected(host: Host, task: Task, item: Item, images: Sequence[Any], fault: str) -> list[str]:
    """Assert that verify reports at least one failure for a planted ``fault``; return the failures."""
    try:
        failures = verify_item(host, task, item, images)
    except Exception as exc:  # a crash is not a verdict
        raise AssertionError(f"verify raised {type(exc).__name__} on planted fault {fault}: {exc}") from exc
    assert failures, f"verify missed a planted fault: {fault}"
    return failures


def with_answer(item: Item, answer: str) -> Item:
    """A copy of ``item`` claiming ``answer``."""
    import attrs

    return attrs.evolve(item, answer=answer)


def wrong_answers(host: Host, task: Task, built: Built, count: int = 3) -> list[str]:
    """Wrong answers for ``built``'s item, most plausible first: the task's distractors, the other option
    letters, then ``corrupted_answer`` (so that even a task with no distractors has one)."""
    item = built.item
    random = ItemRandom(task.id, task.version, item.seed, item.index)
    wrong = list(host.call("bench_distractors", task, problem=built.problem, count=count, random=random) or ())
    if item.answer_type == "option" and item.options:
        wrong += [x for x in option_letters(len(item.options)) if x != item.answer]
    wrong.append(corrupted_answer(item))
    return [w for k, w in enumerate(wrong) if w is not None and w != item.answer and w not in wrong[:k]]


def corrupted_answer(item: Item) -> str | None:
    """A wrong answer of the item's answer type made from the gold one (an integer plus one, each number of a
    coordinate moved by one, a sequence reversed or extended, a string negated), or None if none can be made."""
    from bench_core.parsing import coordinate_numbers, parse_number

    answer = item.answer
    if item.answer_type == "option":
        others = [x for x in option_letters(len(item.options or "AB")) if x != answer]
        return others[0] if others else None
    if item.answer_type == "integer":
        try:
            return str(int(answer.strip()) + 1)
        except ValueError:
            return None
    if item.answer_type == "number":
        value = parse_number(answer)
        return None if value is None else repr(value + 1.0 + abs(value))
    if item.answer_type == "coordinate":
        numbers = coordinate_numbers(answer)
        return "(" + ", ".join(repr(n + 1) for n in numbers) + ")" if numbers else None
    if item.answer_type == "sequence":
        tokens = [t.strip() for t in answer.split(",") if t.strip()]
        changed = tokens[::-1] if tokens[::-1] != tokens else [*tokens, tokens[0]] if tokens else []
        return ", ".join(changed) or None
    return f"not {answer}"


def roll_option_panels(image: Any, boxes: Sequence[Sequence[int]]) -> Any:
    """``image`` with the content of option box k moved to box k+1 (the last to the first)."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(image).copy()
    crops = [np.asarray(image)[t:b, left:r].copy() for left, t, r, b in boxes]
    shapes = {c.shape for c in crops}
    if len(shapes) != 1:
        raise ValueError(f"option boxes differ in size: {sorted(shapes)}")
    for k, (left, t, r, b) in enumerate(boxes):
        pixels[t:b, left:r] = crops[k - 1]
    return Image.fromarray(pixels)


def generic_mutations(host: Host, task: Task, built: Built) -> dict[str, tuple[Item, list[Any]]]:
    """The faults every task's verify must catch, keyed by a name."""
    from PIL import Image

    item, images = built.item, [decode_png(p) for p in built.pngs]
    mutations: dict[str, tuple[Item, list[Any]]] = {}
    for answer in wrong_answers(host, task, built)[:3]:
        mutations[f"answer replaced by {answer!r}"] = (with_answer(item, answer), images)
    scene = item.metadata.get("scene") or {}
    boxes = scene.get("option_boxes")
    if boxes:
        mutations["option panels moved one slot"] = (item, [roll_option_panels(images[0], boxes), *images[1:]])
    if len(images) > 1:
        mutations["images 0 and 1 swapped"] = (item, [images[1], images[0], *images[2:]])
    blank = Image.new(images[0].mode, images[0].size, images[0].getpixel((0, 0)))
    mutations["image 0 blanked"] = (item, [blank, *images[1:]])
    return mutations

