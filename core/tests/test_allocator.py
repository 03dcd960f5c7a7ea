"""The heap policy the command line sets for item building (bench_core.allocator)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench_core import allocator


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt is Linux only")
def test_the_policy_is_set_once_and_reported():
    code = (
        "from bench_core import allocator as a\n"
        "first = a.keep_freed_memory(); second = a.keep_freed_memory()\n"
        "print(first, second, a._applied)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    # a glibc system sets it (True twice); a non-glibc Linux reports False and stays False
    assert out in (["True", "True", "True"], ["False", "False", "False"])


def test_importing_the_library_does_not_change_the_policy():
    code = "import bench_core.generation, bench_core.scoring, bench_core.allocator as a; print(a._applied)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"


def test_the_command_line_sets_it(monkeypatch):
    from click.testing import CliRunner

    from bench_core.cli import main

    monkeypatch.setattr(allocator, "_applied", False)
    calls = []
    monkeypatch.setattr(allocator, "keep_freed_memory", lambda: calls.append(1) or True)
    assert CliRunner().invoke(main, ["plugins"]).exit_code == 0
    assert calls == [1]
