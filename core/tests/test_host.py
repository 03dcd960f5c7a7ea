"""Discovery, isolation of broken plugins, and the three ways a third party extends the host."""

from __future__ import annotations

import importlib.metadata
import types

import pytest
import toy_plugin

from bench_core import Score, hookimpl
from bench_core.errors import GenerationError, PluginError, SelectorError
from bench_core.generation import build_item
from bench_core.host import create_host
from bench_core.scorer import score
from bench_core.seeding import ItemRandom


def test_a_plugin_adds_a_task(toy_host):
    assert "toy/dots" in toy_host.tasks
    built = build_item(toy_host, toy_host.task("toy/dots"), 1, 0, {})
    assert built.item.answer == str(built.problem.metadata["count"])
    assert score(built.item, f"There are {built.item.answer} dots.", host=toy_host).value == 1.0


def test_b_a_plugin_adds_verify_checks_to_a_task_it_does_not_own(toy_host):
    class Auditor:
        @hookimpl
        def bench_verify(self, task, item, images):
            if task.id != "toy/dots":
                return None
            return ["auditor: red dots are not allowed"] if item.params["colour"] == "red" else []

    toy_host.add(Auditor(), name="auditor")
    task = toy_host.task("toy/dots")
    assert build_item(toy_host, task, 0, 0, {"colour": "black"}).item.answer
    with pytest.raises(GenerationError, match="auditor: red dots are not allowed"):
        build_item(toy_host, task, 0, 0, {"colour": "red"})


def test_c_a_plugin_wraps_score_and_distractors_of_another_task(toy_host):
    class Wrapper:
        @hookimpl(wrapper=True)
        def bench_score(self, task, item, response):
            result = yield
            return Score(result.value, result.parsed, result.answered, {**result.details, "wrapped": True})

        @hookimpl(wrapper=True)
        def bench_distractors(self, task, problem, count, random):
            result = yield
            return [d for d in result if d != "0"] + ["99"]

    toy_host.add(Wrapper(), name="wrapper")
    task = toy_host.task("toy/dots")
    built = build_item(toy_host, task, 2, 0, {})
    result = score(built.item, built.item.answer, host=toy_host)
    assert result.value == 1.0 and result.details["wrapped"] is True
    assert toy_host.extensions() == {"bench_score": ["wrapper"], "bench_distractors": ["wrapper"]}
    random = ItemRandom(task.id, task.version, 2, 0)
    wrong = toy_host.pm.hook.bench_distractors(task=task, problem=built.problem, count=2, random=random)
    assert wrong[-1] == "99" and built.item.answer not in wrong


def test_broken_plugins_are_unregistered_and_recorded(capsys):
    class Raises:
        @hookimpl
        def bench_register_tasks(self):
            raise RuntimeError("boom")

    class Typo:
        def bench_verfy(self, task, item, images):
            return None

    host = create_host(entry_points=False, plugins=[("toy", toy_plugin), ("raises", Raises()), ("typo", Typo())])
    assert host.records["raises"].status == "failed" and "boom" in host.records["raises"].error
    assert "did you mean bench_verify" in host.records["typo"].error
    assert host.records["toy"].status == "ok" and "toy/dots" in host.tasks
    assert not host.pm.has_plugin("raises")
    err = capsys.readouterr().err
    assert err.count("boom") == 1


def test_an_entry_point_that_fails_to_import_is_isolated(monkeypatch, capsys):
    broken = importlib.metadata.EntryPoint("broken", "no_such_module_for_bench_tests", "bench.plugins")
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: [broken])
    host = create_host()
    assert host.records["broken"].status == "failed"
    assert "ModuleNotFoundError" in host.records["broken"].error
    assert host.records["core"].status == "ok"
    assert "broken" in capsys.readouterr().err


def test_strict_switch_re_raises(monkeypatch):
    monkeypatch.setenv("BENCH_STRICT_PLUGINS", "1")
    with pytest.raises(PluginError, match="did you mean"):
        create_host(entry_points=False, plugins=[("typo", types.SimpleNamespace(bench_scor=lambda: None))])


def test_duplicate_task_ids_are_rejected():
    class Copy:
        @hookimpl
        def bench_register_tasks(self):
            return [toy_plugin.TOY]

    host = create_host(entry_points=False, plugins=[("toy", toy_plugin), ("copy", Copy())])
    assert host.records["copy"].status == "failed"
    assert "already registered" in host.records["copy"].error


def test_selectors(toy_host):
    assert [t.id for t in toy_host.select(["toy"])] == ["toy/dots"]
    with pytest.raises(SelectorError, match="installed families: toy"):
        toy_host.select(["nosuch"])
    with pytest.raises(SelectorError, match="installed tasks: toy/dots"):
        toy_host.select(["toy/nosuch"])
