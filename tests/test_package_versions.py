"""Each package's ``__version__`` is the version its pyproject.toml releases: what a user reads off the module and
what pip installs agree (a bump of one without the other went unnoticed once)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = sorted(str(p.parent.relative_to(ROOT)) for p in [ROOT / "core" / "pyproject.toml",
                                                            *(ROOT / "plugins").glob("*/pyproject.toml")])


def released_version(pyproject: Path) -> str | None:
    """The ``version = "..."`` of the ``[project]`` table of ``pyproject`` (read with a pattern: tomllib is Python
    3.11+, and the packages support 3.10)."""
    text = pyproject.read_text(encoding="utf-8")
    table = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    found = table and re.search(r'^version\s*=\s*"([^"]+)"', table.group(1), re.M)
    return found.group(1) if found else None


def module_version(init: Path) -> str | None:
    """The string assigned to ``__version__`` at the top level of ``init`` (read, not imported)."""
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__" for t in node.targets):
            return ast.literal_eval(node.value)
    return None


@pytest.mark.parametrize("package", PACKAGES)
def test_module_version_matches_pyproject(package: str) -> None:
    released = released_version(ROOT / package / "pyproject.toml")
    assert released, f"{package}: pyproject.toml has no [project] version"
    inits = sorted((ROOT / package / "src").glob("*/__init__.py"))
    assert len(inits) == 1, f"{package}: expected one import package under src/, found {inits}"
    assert module_version(inits[0]) == released, (
        f"{package}: {inits[0].relative_to(ROOT)} says __version__ = {module_version(inits[0])!r}, "
        f"pyproject.toml says version = {released!r}")
