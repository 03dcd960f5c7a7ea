"""The words of ``sphinx/mirror-identification``: its six symmetry classes, three phrasings of each option
(one is drawn per item, as the paper draws a synonym per label) and the question stems.  Plain data, read
by the generator and by the verifier alike."""

from __future__ import annotations

#: The six classes (paper B.3.1): which mirror axes of the square figure hold.
CLASSES = ("vertical", "horizontal", "main-diagonal", "anti-diagonal", "both-axes", "none")

#: Phrasings of each class's option.  Axes are named in image terms: the main diagonal runs from the
#: top-left corner to the bottom-right one (↘), the anti-diagonal from the top-right to the bottom-left (↙).
LABELS: dict[str, tuple[str, ...]] = {
    "vertical": ("vertical line symmetry", "mirror symmetry across a vertical line",
                 "reflection symmetry about the vertical centre line (left and right halves mirror each other)"),
    "horizontal": ("horizontal line symmetry", "mirror symmetry across a horizontal line",
                   "reflection symmetry about the horizontal centre line (top and bottom halves mirror each other)"),
    "main-diagonal": ("main-diagonal (↘) mirror symmetry", "line symmetry along the main diagonal (top-left to "
                      "bottom-right)", "reflection symmetry across the ↘ diagonal"),
    "anti-diagonal": ("anti-diagonal (↙) mirror symmetry", "line symmetry along the anti-diagonal (top-right to "
                      "bottom-left)", "reflection symmetry across the ↙ diagonal"),
    "both-axes": ("two-axis mirror symmetry (vertical and horizontal)", "vertical + horizontal line symmetry",
                  "mirror symmetry across both the vertical and the horizontal centre lines"),
    "none": ("no reflection symmetry", "no mirror symmetry at all", "none of these mirror symmetries"),
}

#: Question stems; the options follow, then the answer instruction.
STEMS = (
    "Which mirror-symmetry type best matches the figure? Select one:",
    "Exactly one option describes the mirror symmetry of the whole figure. Which is it?",
    "Look at the whole figure inside the frame, colours included. Which kind of reflection symmetry does it have?",
    "Which description of the figure's line symmetry is correct?",
    "Classify the figure by its mirror symmetry. Choose one:",
    "Along which mirror line(s), if any, is the figure symmetric? Pick the matching option:",
    "Identify the reflection symmetry of the picture (axes through its centre). Options:",
    "One option names the figure's mirror symmetry exactly. Which one?",
)


def class_of(text: str) -> str | None:
    """The class an option text names, or None."""
    for key, phrasings in LABELS.items():
        if text in phrasings:
            return key
    return None
