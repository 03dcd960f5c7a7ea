"""The host: a pluggy manager loaded from entry points, with broken plugins isolated, and the task registry.

A plugin that fails to import, implements a hook no specification names (pluggy's pending-hook check:
``@hookimpl def bench_genrate`` or an undecorated ``bench_register_task``), or returns invalid task
descriptions is unregistered and recorded (distribution, version, a one-line error); a warning goes to
stderr once per process and everything else keeps working.  ``BENCH_STRICT_PLUGINS=1`` re-raises instead.

The host also traces which plugins' hooks ran on each task (``Host.hook_trace``): the plugins whose
``bench_verify`` checked its items, and whose ``bench_score`` / ``bench_distractors`` implementations (a
third party's wrapper included) took part in its scores and distractors; manifests and score reports
record it, so that a benchmark number can always be traced to the code that produced it.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import importlib.metadata
import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import pluggy

from bench_core import hookspecs
from bench_core.errors import PluginError, SelectorError
from bench_core.types import Task

ENTRY_POINT_GROUP = "bench.plugins"
STRICT_ENV = "BENCH_STRICT_PLUGINS"
#: Hooks whose implementations act on a task's items (and so on its numbers); traced per task.
TRACED_HOOKS = ("bench_verify", "bench_score", "bench_distractors")
_warned: set[tuple[str, str]] = set()


@attrs.frozen
class PluginRecord:
    """What ``bench plugins`` shows about one plugin."""

    name: str
    distribution: str | None
    version: str | None
    status: str  # "ok" or "failed"
    error: str | None = None
    tasks: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form, with the task count."""
        return {**attrs.asdict(self), "tasks": list(self.tasks), "task_count": len(self.tasks)}


def strict_plugins() -> bool:
    """True when ``BENCH_STRICT_PLUGINS`` asks broken plugins to raise."""
    return os.environ.get(STRICT_ENV, "").strip().lower() in ("1", "true", "yes", "on")


class Host:
    """The plugin manager and the tasks its plugins registered."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.records: dict[str, PluginRecord] = {}
        self.tasks: dict[str, Task] = {}
        self.owner: dict[str, str] = {}  # task id -> plugin name
        self.trace: dict[str, dict[str, set[str]]] = {}  # task id -> hook -> plugins whose hooks ran on it
        self._answered: list[str] = []  # the plain first-result implementations that answered, innermost last

    # -- loading ---------------------------------------------------------------------------------
    def load_entry_points(self, group: str = ENTRY_POINT_GROUP) -> None:
        """Load every entry point of ``group``, each inside its own guard; a plugin whose ``BENCH_ABI`` is not
        this core's ``ABI_VERSION`` is refused (recorded and warned like a broken one)."""
        seen: set[str] = set()
        for ep in sorted(importlib.metadata.entry_points(group=group), key=lambda e: (e.name != "core", e.name)):
            if ep.name in seen:  # the same distribution visible twice on sys.path
                continue
            seen.add(ep.name)
            dist = getattr(ep, "dist", None)
            dist_name = dist.metadata["Name"] if dist is not None else None
            version = dist.version if dist is not None else None
            try:
                plugin = ep.load()
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # SystemExit from a plugin's import must not end the command
                self._fail(ep.name, dist_name, version, f"import failed: {type(exc).__name__}: {exc}", exc)
                continue
            problem = abi_problem(plugin, ep.name, dist_name)
            if problem:
                self._fail(ep.name, dist_name, version, problem)
                continue
            self.add(plugin, name=ep.name, distribution=dist_name, version=version)

    def add(self, plugin: Any, *, name: str, distribution: str | None = None, version: str | None = None) -> bool:
        """Register and validate one plugin object; return False (and record why) if it was rejected."""
        if isinstance(plugin, type):
            self._fail(name, distribution, version, "entry point names a class; point it at a module or an instance")
            return False
        try:
            self.pm.register(plugin, name=name)
            self._check_hook_names(plugin, name)
            self._trace_answers(name)
            tasks = self._collect_tasks(plugin, name)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # also SystemExit raised by a plugin's hook
            if self.pm.is_registered(plugin):
                self.pm.unregister(plugin)
            self._fail(name, distribution, version, f"{type(exc).__name__}: {exc}", exc)
            return False
        for task in tasks:
            self.tasks[task.id] = task
            self.owner[task.id] = name
        self.records[name] = PluginRecord(name, distribution, version, "ok", None, tuple(t.id for t in tasks))
        return True

    def ensure_defaults(self) -> None:
        """Register the core's default hook implementations if no entry point provided them."""
        from bench_core import defaults

        if not self.pm.is_registered(defaults):
            self.add(defaults, name="core", distribution="bench-core", version=_core_version())

    def _check_hook_names(self, plugin: Any, name: str) -> None:
        """Refuse a plugin that implements a hook no specification names: a ``@hookimpl`` pluggy would keep
        as pending (``bench_genrate``, or any name), or an undecorated ``bench_*`` method it would ignore."""
        for impl in self.pm.hook.bench_verify.get_hookimpls():
            if impl.plugin_name == name and (impl.wrapper or impl.hookwrapper):
                raise PluginError(f"plugin {name!r} wraps bench_verify; add checks with a plain @hookimpl instead")
        known = self.hook_names()
        unknown = [caller.name for caller in self.pm.get_hookcallers(plugin) or ()
                   if caller.spec is None and any(i.plugin_name == name and not i.optionalhook
                                                  for i in caller.get_hookimpls())]
        unknown += [attr for attr in dir(plugin) if attr.startswith("bench_") and attr not in known
                    and attr not in unknown and callable(getattr(plugin, attr, None))]
        for attr in sorted(unknown):
            close = difflib.get_close_matches(attr, known, n=1)
            hint = f"; did you mean {close[0]}?" if close else f"; known hooks: {', '.join(known)}"
            raise PluginError(f"plugin {name!r} implements unknown hook {attr}{hint}")

    def hook_names(self) -> list[str]:
        """The hooks the specifications define (``bench_*``), sorted."""
        return sorted(h for h in dir(self.pm.hook) if h.startswith("bench_") and getattr(self.pm.hook, h).spec)

    def _trace_answers(self, name: str) -> None:
        """Let the plugin's plain ``bench_score``/``bench_distractors`` implementations say when they answer (a
        first-result hook stops at the first answer), so that ``call`` can trace who produced a result."""
        for hook in TRACED_HOOKS[1:]:
            for impl in getattr(self.pm.hook, hook).get_hookimpls():
                if impl.plugin_name == name and name != "core" and not (impl.wrapper or impl.hookwrapper):
                    impl.function = _answering(impl.function, name, self._answered)

    def _collect_tasks(self, plugin: Any, name: str) -> list[Task]:
        impl = getattr(plugin, "bench_register_tasks", None)
        if impl is None:
            return []
        tasks = list(impl() or ())
        for task in tasks:
            if not isinstance(task, Task):
                raise PluginError(f"plugin {name!r} registered {task!r}, which is not a bench_core.Task")
            if task.id in self.tasks:
                raise PluginError(f"plugin {name!r} registers {task.id}, already registered by {self.owner[task.id]!r}")
        ids = [t.id for t in tasks]
        if len(set(ids)) != len(ids):
            raise PluginError(f"plugin {name!r} registers the same task twice: {ids}")
        return tasks

    def _fail(
        self, name: str, distribution: str | None, version: str | None, error: str, exc: BaseException | None = None
    ) -> None:
        error = "; ".join(line.strip() for line in error.splitlines() if line.strip())  # one line (pluggy's are not)
        self.records[name] = PluginRecord(name, distribution, version, "failed", error)
        if strict_plugins():
            raise PluginError(f"plugin {name!r} ({distribution} {version}) failed: {error}") from exc
        key = (name, error)
        if key not in _warned:
            _warned.add(key)
            print(
                f"bench: warning: plugin {name!r} ({distribution or 'unknown distribution'} {version or ''}) "
                f"was disabled: {error}. Set {STRICT_ENV}=1 to raise instead.",
                file=sys.stderr,
            )

    # -- queries ---------------------------------------------------------------------------------
    def task(self, task_id: str) -> Task:
        """The task with id ``family/name``, or a SelectorError listing what exists."""
        try:
            return self.tasks[task_id]
        except KeyError:
            raise SelectorError(f"no installed task {task_id!r}; installed tasks: {self._listing()}") from None

    def families(self) -> list[str]:
        """Installed families, sorted."""
        return sorted({t.family for t in self.tasks.values()})

    def select(self, selectors: Iterable[str]) -> list[Task]:
        """Tasks named by selectors (``family`` or ``family/task``), in registry order, without repeats.

        No selector selects every installed task.
        """
        selectors = list(selectors)
        ordered = sorted(self.tasks.values(), key=lambda t: t.id)
        if not selectors:
            return ordered
        chosen: dict[str, Task] = {}
        for selector in selectors:
            if "/" in selector:
                task = self.task(selector)
                chosen[task.id] = task
                continue
            matches = [t for t in ordered if t.family == selector]
            if not matches:
                raise SelectorError(
                    f"no installed family {selector!r}; installed families: {', '.join(self.families()) or 'none'}"
                    f" (a selector is FAMILY or FAMILY/TASK; tasks: {self._listing()})"
                )
            for task in matches:
                chosen[task.id] = task
        return list(chosen.values())

    def plugin_of(self, task: Task) -> dict[str, str | None]:
        """The distribution and version that own ``task``."""
        record = self.records.get(self.owner.get(task.id, ""))
        if record is None:
            return {"name": None, "distribution": None, "version": None}
        return {"name": record.name, "distribution": record.distribution, "version": record.version}

    def extensions(self) -> dict[str, list[str]]:
        """For each extensible hook, the plugins other than the core that implement it (they may act on any
        task, e.g. wrap its score): recorded in manifests and score reports so a number can be traced."""
        out = {}
        for hook in TRACED_HOOKS:
            names = sorted({i.plugin_name for i in getattr(self.pm.hook, hook).get_hookimpls()} - {"core"})
            if names:
                out[hook] = names
        return out

    # -- tracing which plugins' hooks ran on each task -------------------------------------------------
    def label(self, plugin_name: str, task: Task) -> str:
        """The plugin a hook implementation acts for: the core's implementations run the task's own
        implementation object, so they carry the name of the plugin that owns the task."""
        return self.owner.get(task.id, "core") if plugin_name == "core" else plugin_name

    def ran(self, task: Task, hook: str, plugins: Iterable[str]) -> None:
        """Record that ``plugins``' implementations of ``hook`` ran on an item of ``task``."""
        self.trace.setdefault(task.id, {}).setdefault(hook, set()).update(plugins)

    def call(self, hook: str, task: Task, **kwargs: Any) -> Any:
        """Call the first-result hook ``hook`` (``bench_score`` or ``bench_distractors``) for ``task`` and trace
        which plugins took part: every wrapper (a wrapper runs on every call) and the implementation that
        answered."""
        caller = getattr(self.pm.hook, hook)
        depth = len(self._answered)
        try:
            result = caller(task=task, **kwargs)
        finally:
            answered, self._answered[depth:] = self._answered[depth:], []
        names = [self.label(i.plugin_name, task) for i in caller.get_hookimpls() if i.wrapper or i.hookwrapper]
        if result is not None:
            names.append(answered[0] if answered else self.label("core", task))
        self.ran(task, hook, names)
        return result

    @contextlib.contextmanager
    def tracing(self) -> Iterator[dict[str, dict[str, set[str]]]]:
        """Collect the trace of the enclosed calls apart (yielded), then add it to the host's."""
        outer, self.trace = self.trace, {}
        try:
            yield self.trace
        finally:
            inner, self.trace = self.trace, outer
            for task_id, hooks in inner.items():
                for hook, names in hooks.items():
                    outer.setdefault(task_id, {}).setdefault(hook, set()).update(names)

    def hook_trace(self, task_ids: Iterable[str] | None = None) -> dict[str, dict[str, list[str]]]:
        """``{task id: {hook: [plugins]}}`` (JSON-ready, sorted) of what ran in this process, for ``task_ids``
        (default: every traced task)."""
        wanted = self.trace if task_ids is None else {t: self.trace[t] for t in task_ids if t in self.trace}
        return trace_json(wanted)

    def _listing(self) -> str:
        return ", ".join(sorted(self.tasks)) or "none"


def trace_json(trace: Mapping[str, Mapping[str, Iterable[str]]]) -> dict[str, dict[str, list[str]]]:
    """A trace ``{task id: {hook: plugins}}`` as sorted JSON-ready lists."""
    return {t: {h: sorted(set(names)) for h, names in sorted(hooks.items())} for t, hooks in sorted(trace.items())}


def merge_traces(*traces: Mapping[str, Mapping[str, Iterable[str]]]) -> dict[str, dict[str, list[str]]]:
    """The union of several traces, as ``trace_json``."""
    merged: dict[str, dict[str, set[str]]] = {}
    for trace in traces:
        for task_id, hooks in (trace or {}).items():
            for hook, names in hooks.items():
                merged.setdefault(task_id, {}).setdefault(hook, set()).update(names)
    return trace_json(merged)


def _answering(function: Any, name: str, answered: list[str]) -> Any:
    """``function`` (a plain first-result hook implementation of plugin ``name``) noting ``name`` in
    ``answered`` when it returns an answer."""

    def traced(*args: Any) -> Any:
        result = function(*args)
        if result is not None:
            answered.append(name)
        return result

    return traced


def abi_problem(plugin: Any, name: str, distribution: str | None) -> str | None:
    """Why ``plugin`` cannot be used with this core's ABI, or None if it states the same ABI version."""
    from bench_core import ABI_VERSION, __version__

    stated = getattr(plugin, "BENCH_ABI", None)
    upgrade = f"upgrade it (pip install -U {distribution})" if distribution else "update it"
    if stated is None:
        return (f"it does not state the bench ABI it was written for (BENCH_ABI beside its hooks); bench-core "
                f"{__version__} offers ABI {ABI_VERSION}: {upgrade}")
    if stated != ABI_VERSION:
        return (f"it was written for bench ABI {stated}, bench-core {__version__} offers ABI {ABI_VERSION}: "
                f"{upgrade}, or install a bench-core release with ABI {stated}")
    return None


def _core_version() -> str:
    from bench_core import __version__

    return __version__


def create_host(*, entry_points: bool = True, plugins: Sequence[tuple[str, Any]] = ()) -> Host:
    """A host with entry-point plugins (unless disabled), the core defaults, then ``plugins`` (name, object)."""
    host = Host()
    if entry_points:
        host.load_entry_points()
    host.ensure_defaults()
    for name, plugin in plugins:
        host.add(plugin, name=name)
    return host


_default_host: Host | None = None


def default_host() -> Host:
    """The process-wide host built from installed entry points (created on first use)."""
    global _default_host
    if _default_host is None:
        _default_host = create_host()
    return _default_host


def load_object(spec: str) -> Any:
    """Import ``module:attribute`` (attribute may be dotted)."""
    module_name, _, attr = spec.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj
