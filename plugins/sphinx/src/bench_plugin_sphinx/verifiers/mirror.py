"""Verifier of ``sphinx/mirror-identification``: the symmetry class is read from the PNG alone.

Every pixel inside the frame is snapped to the nearest named colour; for each of the four mirror lines of
the square (vertical, horizontal, main and anti-diagonal) the share of coloured pixels whose mirror pixel has
the same named colour is measured.  A line holds at >= 0.97, fails at <= 0.85; between is a failure (the
picture would be ambiguous to a person too).  The class follows from the lines that hold, and the option at
the answer letter must name it, every other option another class.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import mirror_words as words
from bench_plugin_sphinx.verifiers.pixels import NAMED, rgb_pixels, snap
from bench_plugin_sphinx.verifiers.records import guarded

HOLDS, FAILS = 0.97, 0.85
_WHITE = list(NAMED).index("white")


def _mirror(labels: np.ndarray, line: str) -> np.ndarray:
    if line == "vertical":
        return np.fliplr(labels)
    if line == "horizontal":
        return np.flipud(labels)
    if line == "main-diagonal":
        return labels.T
    return np.rot90(labels, 2).T  # anti-diagonal: (r, c) -> (n-1-c, n-1-r)


def agreement(labels: np.ndarray, line: str) -> float:
    """Share of coloured pixels whose mirror image across ``line`` has the same named colour."""
    coloured = (labels != _WHITE) & (labels >= 0)
    if not coloured.any():
        return 1.0
    return float((_mirror(labels, line) == labels)[coloured].mean())


def symmetry_class(image, border: int) -> tuple[str | None, dict[str, float], list[str]]:
    """(class, agreement per line, failures) read from the picture."""
    rgb = rgb_pixels(image)
    failures = []
    if rgb.shape[0] != rgb.shape[1]:
        return None, {}, [f"the picture is {rgb.shape[1]}x{rgb.shape[0]}, not square"]
    inner = rgb[border:-border, border:-border]
    if not (rgb[:border].max() < 60 and rgb[-border:].max() < 60):
        failures.append("the frame is not black")
    labels = snap(inner)
    scores = {line: agreement(labels, line) for line in ("vertical", "horizontal", "main-diagonal", "anti-diagonal")}
    held = [line for line, s in scores.items() if s >= HOLDS]
    unclear = [line for line, s in scores.items() if FAILS < s < HOLDS]
    if unclear:
        failures.append(f"mirror line(s) {unclear} neither hold nor fail clearly: {scores}")
    if set(held) == {"vertical", "horizontal"}:
        return "both-axes", scores, failures
    if len(held) == 1:
        return held[0], scores, failures
    if not held:
        return "none", scores, failures
    failures.append(f"the picture is symmetric across {held}, which no single option describes")
    return None, scores, failures


@guarded
def verify(item, images) -> list[str]:
    scene = item.metadata["scene"]
    cls, scores, failures = symmetry_class(images[0], int(scene["border"]))
    options = list(item.options or ())
    named = [words.class_of(text) for text in options]
    if None in named:
        failures.append(f"an option names no symmetry class: {options[named.index(None)]!r}")
    if sorted(n for n in named if n) != sorted(words.CLASSES):
        failures.append(f"the options do not offer each of the six classes once: {named}")
    letters = "ABCDEF"[: len(options)]
    if item.answer not in letters:
        return [*failures, f"answer {item.answer!r} is not an option letter"]
    listed = ", ".join(f"({letter.lower()}) {text}" for letter, text in zip(letters, options, strict=True))
    if listed not in item.question:
        failures.append("the question does not list the options in order")
    if cls is not None and named[letters.index(item.answer)] != cls:
        failures.append(f"the picture shows {cls} symmetry (agreement {scores}), but answer {item.answer} says "
                        f"{options[letters.index(item.answer)]!r}")
    return failures
