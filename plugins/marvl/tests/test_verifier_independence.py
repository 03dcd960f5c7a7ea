"""The MaRVL artefact verifiers share no code with the generators: a verifier module may import the standard
library, numpy, bench_core and other verifier modules; matplotlib only for its colour maps' lookup tables."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import numpy as np
import pytest

import bench_plugin_marvl.verifiers as verifiers
from bench_plugin_marvl.functions import FAMILIES
from bench_plugin_marvl.verifiers import surfaces

FOLDER = Path(verifiers.__file__).parent
MODULES = sorted(FOLDER.glob("*.py"))
ALLOWED_THIRD_PARTY = {"numpy", "PIL", "bench_core"}
#: matplotlib is allowed in one module, for ``matplotlib.colormaps`` (the lookup tables of the colour maps).
COLOUR_MAP_READER = "pixels.py"


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append(("bench_plugin_marvl.verifiers." + (node.module or ""), node.lineno))
            else:
                found.append((node.module or "", node.lineno))
    return found


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_a_verifier_imports_no_generator_code(path: Path) -> None:
    for name, line in _imports(path):
        root = name.split(".")[0]
        if root in sys.stdlib_module_names or root in ALLOWED_THIRD_PARTY:
            continue
        if root == "matplotlib" and path.name == COLOUR_MAP_READER and name == "matplotlib":
            continue
        assert name.startswith("bench_plugin_marvl.verifiers"), (
            f"{path.name}:{line} imports {name}; a verifier may not use the generator's code"
        )


def test_the_colour_map_reader_uses_only_the_lookup_tables() -> None:
    text = (FOLDER / COLOUR_MAP_READER).read_text()
    uses = {word.split("(")[0] for word in text.split() if word.startswith("matplotlib.")}
    assert uses <= {"matplotlib.colormaps[name]"}, uses


def test_every_task_verifies_through_its_verifier_module() -> None:
    from bench_plugin_marvl import tasks

    names = {p.stem for p in MODULES}
    for task in tasks():
        assert task.name in names, f"{task.id} has no module in bench_plugin_marvl.verifiers"


def test_the_verifiers_know_every_family_and_agree_with_the_library() -> None:
    """The verifiers' own formulas give the generator's values (to rounding) for every family."""
    assert set(FAMILIES) == surfaces.KNOWN
    rng = np.random.default_rng(7)
    xs = np.linspace(-6.3, 6.1, 97)
    ys = np.linspace(-5.9, 6.4, 89)
    for name, family in FAMILIES.items():
        for _ in range(3):
            params = family.sample(rng)
            theirs = family.evaluate_grid(params, xs, ys)
            scale = 1.0 + float(np.max(np.abs(theirs)))
            assert np.max(np.abs(surfaces.grid(name, params, xs, ys) - theirs)) <= 1e-12 * scale, name
            points = surfaces.at(name, params, xs[:, None], ys[None, ::3])
            assert np.max(np.abs(points - family.evaluate(params, xs[:, None], ys[None, ::3]))) <= 1e-12 * scale, name
