"""The words of ``sphinx/pie-chart``: question stems for each sort direction (one is drawn per item) and how
the options are listed.  Plain data, read by the generator and by the verifier alike."""

from __future__ import annotations

from collections.abc import Sequence

DIRECTIONS = ("ascending", "descending")

#: Stems per direction (the paper's wording first, then paraphrases).  Every stem names the direction twice
#: (in words and with an arrow) and says that the legend's letters name the slices.
STEMS: dict[str, tuple[str, ...]] = {
    "ascending": (
        "Which option (a)–(d) orders the categories by pie-slice size from smallest to largest?",
        "Select the option (a)–(d) that lists the categories in increasing share (smallest → largest).",
        "The legend gives each slice's letter. Which option ranks the slices from the smallest to the largest "
        "(smallest → largest)?",
        "Pick the option that arranges the categories in ascending order of pie-slice size (smallest first).",
        "Which option (a)–(d) sorts the legend's categories by slice size, smallest → largest?",
        "Order the pie's slices by how much of the circle they cover, from least to most (smallest → largest). "
        "Which option gives that order?",
        "No numbers are shown: judge the slice sizes by eye. Which option lists the categories from smallest "
        "to largest slice?",
        "Which list (a)–(d) goes from the smallest pie slice to the largest (increasing share)?",
    ),
    "descending": (
        "Select the option (a)–(d) that lists categories in decreasing share (largest → smallest).",
        "Which option (a)–(d) orders the categories by pie-slice size from largest to smallest?",
        "The legend gives each slice's letter. Which option ranks the slices from the largest to the smallest "
        "(largest → smallest)?",
        "Pick the option that arranges the categories in descending order of pie-slice size (largest first).",
        "Which option (a)–(d) sorts the legend's categories by slice size, largest → smallest?",
        "Order the pie's slices by how much of the circle they cover, from most to least (largest → "
        "smallest). Which option gives that order?",
        "No numbers are shown: judge the slice sizes by eye. Which option lists the categories from largest "
        "to smallest slice?",
        "Which list (a)–(d) goes from the largest pie slice to the smallest (decreasing share)?",
    ),
}

INSTRUCTION = "Answer with one letter (a–d)."


def option_text(labels: Sequence[str]) -> str:
    """An ordering as the paper writes it: ``C,K,H,N,G``."""
    return ",".join(labels)


def listing(options: Sequence[str]) -> str:
    """The options as the question lists them, one per line: ``(a) C,K,H`` ..."""
    return "\n".join(f"({'abcd'[k]}) {text}" for k, text in enumerate(options))


def question(stem: str, options: Sequence[str]) -> str:
    """The whole question: the stem, the listed options, the answer instruction."""
    return f"{stem}\n\n{listing(options)}\n\n{INSTRUCTION}"


def direction_of(text: str) -> str | None:
    """The direction whose stem opens ``text``, or None."""
    for direction, stems in STEMS.items():
        if any(text.startswith(stem + "\n") for stem in stems):
            return direction
    return None
