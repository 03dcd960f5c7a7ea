"""The words of ``sphinx/venn-diagram``: the four query modes and how a question states each (the paper's
"Compute the sum of values in the region common to the blue, orange and purple rectangle(s)." and
paraphrases, with the meaning spelt out: "common to" allows other rectangles too, "only" does not).  Plain
data, read by the generator and by the verifier alike."""

from __future__ import annotations

MODES = ("only", "intersection", "butnot", "union")

#: Stems: ``{region}`` is the mode's region phrase.
STEMS = (
    "Compute the sum of the numbers {region}.",
    "What is the sum of the numbers {region}?",
    "Add up the numbers {region}. What is the total?",
    "Find the total of all numbers {region}.",
    "What do the numbers {region} add up to?",
    "Sum the numbers {region}.",
)


def listing(names: list[str]) -> str:
    """``blue (#1f77b4)``, ``blue (#1f77b4) and red (#d62728)``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def region(mode: str, include: list[str], exclude: list[str]) -> str:
    """The region phrase of a query; colours are given as ``name (#hex)``."""
    inc = listing(include)
    one = len(include) == 1
    if mode == "only":
        return f"inside the {inc} rectangle{'' if one else 's'} and inside no other rectangle"
    if mode == "intersection":
        return f"common to the {inc} rectangles (inside all of them; they may also lie inside other rectangles)"
    if mode == "butnot":
        exc = listing(exclude)
        return (f"inside the {inc} rectangle{'' if one else 's'} but outside the {exc} "
                f"rectangle{'' if len(exclude) == 1 else 's'} (they may lie inside other rectangles)")
    return (f"inside at least one of the {inc} rectangles" if not one
            else f"anywhere inside the {inc} rectangle (whatever other rectangles they lie in)")


RULE = "Each number counts once; a number belongs to the region its position lies in."
ANSWER = "Answer with an integer."


def question(stem: str, mode: str, include: list[str], exclude: list[str]) -> str:
    return f"{stem.format(region=region(mode, include, exclude))} {RULE} {ANSWER}"
