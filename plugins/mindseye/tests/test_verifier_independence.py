"""The artefact verifiers share no code with the generators: a verifier module may import the standard
library, numpy, Pillow, shapely, bench_core and other verifier modules, and nothing else of this plugin."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import bench_plugin_mindseye.verifiers as verifiers

FOLDER = Path(verifiers.__file__).parent
MODULES = sorted(p for p in FOLDER.glob("*.py"))
ALLOWED_THIRD_PARTY = {"numpy", "PIL", "shapely", "bench_core"}


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the verifiers package only
                found.append(("bench_plugin_mindseye.verifiers." + (node.module or ""), node.lineno))
            else:
                found.append((node.module or "", node.lineno))
    return found


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_a_verifier_imports_no_generator_code(path):
    for name, line in _imports(path):
        root = name.split(".")[0]
        if root in sys.stdlib_module_names or root in ALLOWED_THIRD_PARTY:
            continue
        assert name.startswith("bench_plugin_mindseye.verifiers"), (
            f"{path.name}:{line} imports {name}; a verifier may not use the generator's code"
        )


def test_every_task_verifies_through_its_verifier_module():
    from bench_plugin_mindseye import tasks

    names = {p.stem for p in MODULES} - {"__init__"}
    for task in tasks():
        assert task.name.replace("-", "_") in names, f"{task.id} has no module in bench_plugin_mindseye.verifiers"
