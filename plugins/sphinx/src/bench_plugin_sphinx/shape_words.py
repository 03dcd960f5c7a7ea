"""The words of ``sphinx/shape-counting``: the question stems (the paper's "How many squares appear in the
picture?" and paraphrases) and, per asked shape, the sentence that says what counts.  Plain data, read by
the generator and by the verifier alike."""

from __future__ import annotations

SHAPES = ("squares", "rectangles", "parallelograms", "triangles")

#: Question stems; ``{shape}`` is the plural shape word.
STEMS = (
    "How many {shape} appear in the picture?",
    "How many {shape} are there in the figure?",
    "Count the {shape} in the figure. How many are there?",
    "How many distinct {shape} can you find in the image?",
    "What is the total number of {shape} in this figure?",
    "How many {shape} does the line figure contain?",
    "Find every {one} in the drawing. How many are there in total?",
    "What is the {one} count in the figure?",
)

#: What counts, per shape: stated in every question.
RULES: dict[str, str] = {
    "squares": "Count squares of every size whose four sides lie along the drawn lines, including squares made "
               "up of several smaller ones.",
    "rectangles": "Count rectangles of every size whose four sides lie along the drawn lines, including those "
                  "made up of several smaller ones; squares count as rectangles too.",
    "parallelograms": "Count parallelograms of every size whose four sides lie along the drawn lines, including "
                      "those made up of several smaller ones.",
    "triangles": "Count triangles of every size whose three sides lie along the drawn lines, including triangles "
                 "made up of several smaller ones.",
}

SINGULAR = {"squares": "square", "rectangles": "rectangle", "parallelograms": "parallelogram",
            "triangles": "triangle"}

ANSWER = "Answer with an integer."


def question(stem: str, shape: str) -> str:
    """The full question: the stem for ``shape``, what counts, and the answer format."""
    return f"{stem.format(shape=shape, one=SINGULAR[shape])} {RULES[shape]} {ANSWER}"


def shape_of(text: str) -> str | None:
    """The shape a question asks to count (the one whose rule sentence it states), or None."""
    named = [shape for shape, rule in RULES.items() if rule in text]
    return named[0] if len(named) == 1 else None
