"""The README's quick start is what a new user and CI run (issue 9, "First-hour friction"): its first
command works where system-wide pip is refused (a virtual environment first), its second is the test
command that .ci/run calls, tox passes the full-run switch through to pytest, and the README says how long
the tests take."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def quick_start() -> list[str]:
    """The command lines of the first bash block after the 'Quick start' heading."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quick start"):]
    block = re.search(r"```bash\n(.*?)```", section, flags=re.S)
    assert block, "the Quick start section has no bash block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_first_command_makes_a_virtual_environment_before_any_install():
    first, *_ = quick_start()
    steps = [step.strip() for step in first.split("&&")]
    assert re.fullmatch(r"python3? -m venv \.venv", steps[0]), f"the first step is {steps[0]!r}, not a venv"
    for step in steps[1:]:
        program = step.split()[0]
        assert program.startswith(".venv/bin/"), f"{step!r} runs {program} outside the virtual environment"


def test_ci_runs_the_readmes_test_command_as_a_full_run():
    _, test_command = quick_start()
    assert test_command == ".venv/bin/tox p"
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in script.splitlines() if line.strip() and not line.strip().startswith("#")]
    assert test_command in lines, ".ci/run does not run the README's test command"
    assert "export BENCH_SLOW=1" in lines[: lines.index(test_command)], ".ci/run does not ask for a full run"


def test_tox_passes_the_full_run_switch_to_pytest():
    # tox hands a test environment only the variables it is told to: without these, CI's 8 seeds and its
    # slow tests would silently not run
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "tox.ini", encoding="utf-8")
    passed = set(config["testenv"].get("pass_env", "").split())
    assert {"CI", "BENCH_SLOW"} <= passed, f"tox.ini [testenv] pass_env is {sorted(passed)}"


def test_the_readme_says_how_long_the_tests_take():
    text = " ".join(README.read_text(encoding="utf-8").split())
    section = text[text.index("## Quick start"):text.index("## Using it")]
    assert re.search(r"about [\d.]+ minutes of tests", section), "the quick start does not say how long tox takes"
    assert re.search(r"full run .* (about \d+|\d+ to \d+) minutes", section), "it does not say how long CI takes"
