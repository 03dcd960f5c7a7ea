"""The module graph of every installed family (issue 8): a task module (the module named by a task's
``implementation``) never imports another task module, and no other module of the family (its kit:
drawing, geometry, attributes, balancing, verifiers ...) imports a task module.  Shared code lives in the
kit, so one task can change without moving another's items."""

from __future__ import annotations

import ast
import importlib.util
from collections import defaultdict
from pathlib import Path

import pytest

from bench_core import default_host


def _task_modules() -> dict[str, set[str]]:
    """Package -> the modules that implement its tasks."""
    modules: dict[str, set[str]] = defaultdict(set)
    for task in default_host().select([]):
        module = (task.implementation or "").partition(":")[0]
        if module:
            modules[module.split(".")[0]].add(module)
    return modules


def _imports(path: Path, module: str, package_root: Path) -> set[str]:
    """The modules of the same top-level package that ``path`` (module ``module``) imports, by dotted name."""
    top = module.split(".")[0]
    found: set[str] = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == top}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join([*parts, node.module] if node.module else parts)
            else:
                base = node.module or ""
            if base.split(".")[0] != top:
                continue
            found.add(base)
            # ``from pkg import module`` imports a module, not a name
            found |= {f"{base}.{a.name}" for a in node.names
                      if (package_root / Path(*f"{base}.{a.name}".split(".")[1:])).with_suffix(".py").is_file()}
    return found


#: Packages whose module graph still has a known cross-task import (expected failures, not hidden ones).
#: Packages whose module graph still has a known cross-task import (expected failures, not hidden ones).
KNOWN: dict[str, str] = {}
PACKAGES = [pytest.param(p, t, marks=pytest.mark.xfail(strict=True, reason=KNOWN[p])) if p in KNOWN else (p, t)
            for p, t in sorted(_task_modules().items())]


@pytest.mark.parametrize(("package", "tasks"), PACKAGES, ids=sorted(_task_modules()))
def test_no_module_imports_a_task_module_but_its_own(package: str, tasks: set[str]) -> None:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, f"{package} is not an installed package"
    root = Path(next(iter(spec.submodule_search_locations)))
    problems = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).with_suffix("")
        parts = [package, *relative.parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        module = ".".join(parts)
        for imported in sorted(_imports(path, module, root) & tasks - {module}):
            kind = "task module" if module in tasks else "kit module"
            problems.append(f"{kind} {module} imports task module {imported}")
    assert not problems, "\n".join(problems)
