"""The paper's complexity on the shared difficulty scale (paper section 4.4, spec 3.0).

SPHINX normalises a task's knob x to ``c = clip((x - x_min) / (x_max - x_min), 0, 1)`` and calls an item
Easy when c < 0.75 and Hard otherwise.  Here the level asked with ``--set difficulty`` is that c: a task
picks, among the knob values it can make, the one whose c is nearest the level *on the same side of 0.75*,
so ``--set difficulty=easy`` (levels 0..0.749) gives only the paper's Easy items and ``hard`` (0.75..1) only
its Hard ones.  Every item records its c and the raw knob (``record``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bench_core import ParameterError

#: The paper's Easy/Hard split.
HARD_FROM = 0.75
#: The named levels every SPHINX task accepts: the paper's two bins.
ALIASES = {"easy": "0..0.749", "hard": "0.75..1"}


def complexity(x: float, low: float, high: float) -> float:
    """c = clip((x - low) / (high - low), 0, 1), rounded to 4 places."""
    if high <= low:
        raise ValueError(f"empty complexity range [{low}, {high}]")
    return round(min(1.0, max(0.0, (x - low) / (high - low))), 4)


def band(c: float) -> str:
    """``easy`` below 0.75, ``hard`` from it (the paper's bins)."""
    return "hard" if c >= HARD_FROM else "easy"


def knob_for_level(level: float, values: Sequence[int], low: float, high: float, rng: np.random.Generator) -> int:
    """The knob value among ``values`` for a difficulty ``level``: those in the level's own bin (easy or
    hard), nearest in c to the level, ties broken by ``rng``.  When the bin holds none of ``values`` the
    nearest value overall is taken."""
    values = sorted(set(int(v) for v in values))
    same_bin = [v for v in values if band(complexity(v, low, high)) == band(level)] or values
    gaps = [abs(complexity(v, low, high) - level) for v in same_bin]
    best = [v for v, g in zip(same_bin, gaps, strict=True) if g <= min(gaps) + 1e-9]
    return best[int(rng.integers(len(best)))]


def record(knob: str, raw: float, low: float, high: float, source: str = "paper") -> dict:
    """The item's complexity record: its c, the paper's bin, the knob's name and raw value, and its range.
    ``source`` says whose knob it is: ``paper`` (Appendix B) or ``ours`` (the paper measures none)."""
    c = complexity(raw, low, high)
    return {"c": c, "band": band(c), "knob": knob, "raw": raw, "range": [low, high], "source": source}


def refuse_knob_with_level(params, name: str, chooses: str) -> None:
    """Raise ParameterError when both the knob parameter ``name`` and a difficulty level are set (the level
    chooses ``chooses``, so the two would contradict each other)."""
    if params.get(name) is not None and params.get("difficulty") is not None:
        raise ParameterError(f"parameter 'difficulty': the difficulty level chooses {chooses}; set either {name} or "
                             "difficulty, not both")


def knob_value(params, name: str, low: int, high: int, rng: np.random.Generator) -> int:
    """The item's integer knob in ``low..high``: the parameter ``name`` when set, else the value nearest the
    difficulty level in its bin (``knob_for_level``), else drawn uniformly."""
    if params[name] is not None:
        return int(params[name])
    level = params.get("difficulty")
    if level is not None:
        return knob_for_level(level, range(low, high + 1), low, high, rng)
    return int(rng.integers(low, high + 1))
