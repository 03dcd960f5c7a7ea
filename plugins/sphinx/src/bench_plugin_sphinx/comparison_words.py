"""The words of ``sphinx/chart-comparison``: question stems for each top chart (one is drawn per item).
Plain data, read by the generator and by the verifier alike."""

from __future__ import annotations

TOPS = ("pie", "bar")

#: The note on scaling that every stem carries: bar charts show proportions only.
SCALING = ("Each bar chart is scaled so that its tallest bar reaches the top, so compare proportions, not "
           "absolute heights.")

#: Stems per top chart (the paper's wording first, then paraphrases); each names both chart types and says
#: that a colour is one category in every chart.
STEMS: dict[str, tuple[str, ...]] = {
    "pie": (
        "The top figure is a pie chart. The four options below are bar charts. Which one reflects the same "
        "color proportions as the pie?",
        "You are given a pie chart on top and four bar charts (a)–(d) underneath. Which bar chart shows the same "
        "share for every color as the pie?",
        "Each color is one category, in the pie on top and in every bar chart below. Which option (a)–(d) gives "
        "every category the same proportion as the pie does?",
        "Match the pie chart to a bar chart: which of the bar charts (a)–(d) preserves the pie's color "
        "distribution exactly?",
        "The pie chart at the top splits a whole into colored categories. Which bar chart (a)–(d) below shows "
        "the same split?",
        "Which of the four bar charts (a)–(d) has bars in the same proportions to each other as the matching "
        "slices of the pie above (same color, same category)?",
    ),
    "bar": (
        "The top figure is a bar chart. The four options below are pie charts. Which one reflects the same "
        "color proportions as the bar chart?",
        "You are given a bar chart on top and four pie charts (a)–(d) underneath. Which pie chart shows the same "
        "share for every color as the bar chart?",
        "Each color is one category, in the bar chart on top and in every pie chart below. Which option (a)–(d) "
        "gives every category the same proportion as the bar chart does?",
        "Match the bar chart to a pie chart: which of the pie charts (a)–(d) preserves the bar chart's color "
        "distribution exactly?",
        "The bar chart at the top shows colored categories. Which pie chart (a)–(d) below splits the whole in "
        "the same proportions?",
        "Which of the four pie charts (a)–(d) has slices in the same proportions to each other as the matching "
        "bars above (same color, same category)?",
    ),
}

INSTRUCTION = "Answer with one letter (a–d)."


def question(stem: str) -> str:
    """The whole question: the stem, the note on scaling, the answer instruction."""
    return f"{stem} {SCALING} {INSTRUCTION}"


def top_of(text: str) -> str | None:
    """The top chart whose stem opens ``text``, or None."""
    for top, stems in STEMS.items():
        if any(text.startswith(stem + " ") for stem in stems):
            return top
    return None
