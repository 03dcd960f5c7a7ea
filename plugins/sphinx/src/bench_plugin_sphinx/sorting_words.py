"""The words of ``sphinx/shape-sorting``: what each metric is called and how it is defined, the sort
directions and the question stems (one is drawn per item).  Plain data, read by the generator and by the
verifier alike."""

from __future__ import annotations

from collections.abc import Sequence

#: The metrics (paper B.1.2: polygon and ellipse area or perimeter, angle measure, line length).
METRICS = ("polygon-area", "polygon-perimeter", "ellipse-area", "ellipse-perimeter", "angle", "length")
DIRECTIONS = ("ascending", "descending")

#: (what the shapes are called, the metric's name, its definition) per metric.
NAMES: dict[str, tuple[str, str, str]] = {
    "polygon-area": ("polygons", "area", "the size of the region each outline encloses"),
    "polygon-perimeter": ("polygons", "perimeter", "the total length of each outline"),
    "ellipse-area": ("ellipses", "area", "the size of the region each outline encloses"),
    "ellipse-perimeter": ("ellipses", "perimeter", "the total length of each outline"),
    "angle": ("angles", "angle measure", "the opening between each angle's two arms, in degrees"),
    "length": ("line segments", "length", "the distance between each segment's two ends"),
}

ORDERS = {"ascending": "in ascending order (smallest → largest)",
          "descending": "in descending order (largest → smallest)"}

#: Stems: ``{shapes}`` the shapes' name, ``{metric}`` the metric, ``{definition}`` its definition, ``{order}``
#: the direction.
STEMS = (
    "Which option lists the {shapes} by {metric} ({definition}) {order}?",
    "Each {shape} is labelled with a letter. Which option (a)–(d) orders the labels by {metric} ({definition}) "
    "{order}?",
    "Sort the labelled {shapes} by {metric} ({definition}) {order}. Which option gives that order?",
    "Pick the option that ranks the {shapes} by {metric} ({definition}) {order}.",
    "Which option (a)–(d) arranges the lettered {shapes} by their {metric} ({definition}) {order}?",
    "Judging by eye, which option sorts the {shapes} by {metric} ({definition}) {order}?",
    "The {shapes} are labelled with capital letters. Which option lists them by {metric} ({definition}) "
    "{order}?",
    "Select the option (a)–(d) that orders the {shapes} by {metric} ({definition}) {order}.",
)

INSTRUCTION = "Answer with one letter (a–d)."
SINGULAR = {"polygons": "polygon", "ellipses": "ellipse", "angles": "angle", "line segments": "line segment"}


def phrase(stem: str, metric: str, direction: str) -> str:
    """The stem filled in for ``metric`` and ``direction``."""
    shapes, name, definition = NAMES[metric]
    return stem.format(shapes=shapes, shape=SINGULAR[shapes], metric=name, definition=definition,
                       order=ORDERS[direction])


def option_text(labels: Sequence[str]) -> str:
    """An ordering as the paper writes it: ``E,M,B,S,F``."""
    return ",".join(labels)


def question(text: str, options: Sequence[str]) -> str:
    """The whole question: the stem, the options one per line, the answer instruction."""
    listed = "\n".join(f"({'abcd'[k]}) {o}" for k, o in enumerate(options))
    return f"{text}\n\n{listed}\n\n{INSTRUCTION}"


def asked(question_text: str) -> tuple[str, str] | None:
    """The (metric, direction) whose filled-in stem opens ``question_text``, or None."""
    for metric in METRICS:
        for direction in DIRECTIONS:
            for stem in STEMS:
                if question_text.startswith(phrase(stem, metric, direction) + "\n"):
                    return metric, direction
    return None
