"""Verifier of ``sphinx/mirror-identification``: the symmetry class is read from the PNG alone.

Every pixel inside the frame that has exactly a named colour other than white is coloured; for each of the
four mirror lines of the square (vertical, horizontal, main and anti-diagonal) the share of coloured pixels
whose mirror pixel has the same colour is measured.  A line holds at >= 0.97, fails at <= 0.85; between is a
failure (the picture would be ambiguous to a person too).  The class follows from the lines that hold, and the option at
the answer letter must name it, every other option another class.

Only the coloured pixels are read (``line_agreements``): their indices, their mirror pixels' indices by arithmetic
(the frame is the same on every side, so a mirror of the whole picture is the mirror of its inside), and the
colours there.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from bench_plugin_sphinx import mirror_words as words
from bench_plugin_sphinx.verifiers.pixels import NAMED, channels, key_of
from bench_plugin_sphinx.verifiers.records import guarded

HOLDS, FAILS = 0.97, 0.85
#: The keys (``image_keys``) of the named colours but white: the colours a pixel must have exactly to count.
_COLOURED = np.array(sorted({key_of(name) for name in NAMED if name != "white"}), dtype=np.uint32)
_SLOT_BITS = 12


def _slot_multiplier() -> np.uint32:
    """An odd multiplier that sends every key of ``_COLOURED`` to its own slot of a 2^12-entry table."""
    for multiplier in range(0x9E3779B1, 0x9E3779B1 + 2 * 4096, 2):
        slots = (_COLOURED * np.uint32(multiplier)) >> np.uint32(32 - _SLOT_BITS)
        if len(np.unique(slots)) == len(_COLOURED):
            return np.uint32(multiplier)
    raise AssertionError("no collision-free multiplier for the named colours")


_MULTIPLIER = _slot_multiplier()
_TABLE = np.full(1 << _SLOT_BITS, 0xFFFFFFFF, dtype=np.uint32)  # no pixel key (24 bits) equals the empty mark
_TABLE[(_COLOURED * _MULTIPLIER) >> np.uint32(32 - _SLOT_BITS)] = _COLOURED


def coloured(keys: np.ndarray) -> np.ndarray:
    """Whether each pixel key (``image_keys``) is exactly one of the named colours other than white: the key
    the table holds at its slot is the key itself."""
    return _TABLE[(keys * _MULTIPLIER) >> np.uint32(32 - _SLOT_BITS)] == keys


LINES = ("vertical", "horizontal", "main-diagonal", "anti-diagonal")


def _mirror(labels: np.ndarray, line: str) -> np.ndarray:
    if line == "vertical":
        return np.fliplr(labels)
    if line == "horizontal":
        return np.flipud(labels)
    if line == "main-diagonal":
        return labels.T
    return np.rot90(labels, 2).T  # anti-diagonal: (r, c) -> (n-1-c, n-1-r)


def agreement(keys: np.ndarray, line: str, mask: np.ndarray | None = None) -> float:
    """Share of coloured pixels (``mask``: ``coloured(keys)``, when already read) whose mirror image across
    ``line`` has the same colour."""
    mask = coloured(keys) if mask is None else mask
    total = np.count_nonzero(mask)
    if not total:
        return 1.0
    return float(np.count_nonzero((_mirror(keys, line) == keys) & mask) / total)


def _mirror_index(line: str, rows: np.ndarray, cols: np.ndarray, n: int) -> np.ndarray:
    """Flat index in an (n, n) array of the mirror image across ``line`` of each pixel (row, col)."""
    if line == "vertical":
        return rows * n + (n - 1 - cols)
    if line == "horizontal":
        return (n - 1 - rows) * n + cols
    if line == "main-diagonal":
        return cols * n + rows
    return (n - 1 - cols) * n + (n - 1 - rows)


#: A white pixel's Pillow 4-byte word (RGBX read as little-endian): ``image_keys``'s key with the pad byte.
_WHITE_WORD = int(np.frombuffer(Image.new("RGB", (1, 1), (255, 255, 255)).tobytes("raw", "RGBX"), "<u4")[0])


def line_agreements(words: np.ndarray, border: int) -> dict[str, float]:
    """``agreement`` on every line of a square picture inside a frame ``border`` pixels wide, from the picture's
    Pillow 4-byte words (RGBX read as little-endian, (n, n) uint32: ``image_keys`` with the pad byte, which is
    the same in every word): the coloured pixels inside the frame are found among the non-white ones, and each
    is compared with its mirror pixel, found by index (a mirror of the square maps the inside of the frame onto
    itself as the inside's own mirror does)."""
    n = words.shape[0]
    flat = np.ascontiguousarray(words).ravel()
    inside = flat.reshape(n, n)[border: n - border, border: n - border]
    rows, cols = np.divmod(np.flatnonzero(inside != _WHITE_WORD), n - 2 * border)
    rows += border
    cols += border
    seen = flat[rows * n + cols]
    kept = coloured(seen & np.uint32(0xFFFFFF))
    total = np.count_nonzero(kept)
    if not total:
        return dict.fromkeys(LINES, 1.0)
    rows, cols, seen = rows[kept], cols[kept], seen[kept]
    return {line: float(np.count_nonzero(flat[_mirror_index(line, rows, cols, n)] == seen) / total)
            for line in LINES}


def symmetry_class(image, border: int) -> tuple[str | None, dict[str, float], list[str]]:
    """(class, agreement per line, failures) read from the picture."""
    failures = []
    if image.width != image.height:
        return None, {}, [f"the picture is {image.width}x{image.height}, not square"]
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    words = np.frombuffer(rgb.tobytes("raw", "RGBX"), dtype="<u4").reshape(rgb.height, rgb.width)
    frame = np.concatenate([words[:border].ravel(), words[-border:].ravel()]) & np.uint32(0xFFFFFF)
    if not all(int(channel.max(initial=0)) < 60 for channel in channels(frame)):
        failures.append("the frame is not black")
    scores = line_agreements(words, border)
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
