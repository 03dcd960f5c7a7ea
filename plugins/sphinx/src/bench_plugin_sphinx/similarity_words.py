"""The words of ``sphinx/transform-similarity-identify``: its two variants, their question stems and the definition
of similarity the question states.  Plain data, read by the generator and by the verifier alike."""

from __future__ import annotations

#: The two variants (paper B.4.3): pick the one similar option, or the one option that is not similar.
VARIANTS = ("one_similar", "one_dissimilar")

STEMS: dict[str, tuple[str, ...]] = {
    "one_similar": (
        "Pick the option (a)–(d) that has the same shape as the top figure (possibly scaled, rotated, reflected or "
        "moved).",
        "Which option (a)–(d) is similar to the top figure under uniform scaling and rigid or mirror motions?",
        "Exactly one option below is similar to the top figure. Which one (a)–(d)?",
        "Which of the options (a)–(d) shows the top shape, only enlarged or shrunk evenly, turned, mirrored or "
        "moved?",
    ),
    "one_dissimilar": (
        "Exactly one option below is not similar to the top figure. Which one (a)–(d)?",
        "Choose the option (a)–(d) that is not obtainable from the top figure by uniform scaling plus rotation, "
        "reflection or translation.",
        "Three options show the top shape scaled evenly, turned, mirrored or moved; one is distorted. Which option "
        "(a)–(d) is not similar to the top figure?",
        "Which option (a)–(d) does NOT have the same shape as the top figure?",
    ),
}

#: What the question says similar means.
DEFINITION = ("Two figures are similar when one can be turned into the other by scaling it by the same factor in "
              "every direction, rotating it by any angle, reflecting it and moving it; stretching or squashing in "
              "one direction, shearing or other distortions are not allowed.")


def variant_of(question: str) -> list[str]:
    """The variants whose stem the question contains."""
    return [variant for variant, stems in STEMS.items() if any(stem in question for stem in stems)]
