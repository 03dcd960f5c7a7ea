"""The named colours of SPHINX (spec section 4): the ten-colour motif and line palette, and the five-colour
pool of the geometric tasks.  Questions name a colour as ``name (#hex)``."""

from __future__ import annotations

#: The motif, tiling and line palette, in the order of the authors' generator.
PALETTE: dict[str, str] = {
    "red": "#e6194b",
    "green": "#3cb44b",
    "blue": "#1976d2",
    "orange": "#ff8c00",
    "purple": "#4b0082",
    "cyan": "#42d4f4",
    "magenta": "#ff00ff",
    "yellow": "#edc001",
    "brown": "#8b4513",
    "gray": "#666666",
}

#: The pool of the geometric tasks and Venn diagrams (matplotlib's tab10 first five).
GEOMETRIC: dict[str, str] = {
    "blue": "#1f77b4",
    "red": "#d62728",
    "green": "#2ca02c",
    "purple": "#9467bd",
    "orange": "#ff7f0e",
}

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as an (r, g, b) tuple of ints."""
    text = hex_colour.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def phrase(name: str, pool: dict[str, str] = PALETTE) -> str:
    """How a question names a colour: ``purple (#4b0082)``."""
    return f"{name} ({pool[name]})"
