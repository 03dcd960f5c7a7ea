"""The words of ``polaris/random-walk``: the street map and the walk rule in each rendering's vocabulary
(right/down; clockwise/inward), the rule stated in full (uniform over the streets towards B at every
intersection, which is not "every shortest path equally likely"), and the options listed in the text."""

from __future__ import annotations

from bench_plugin_polaris.kit import text

STEMS = (
    "What is the probability that the walker passes through intersection C?",
    "What is the probability that the walker's route goes through C?",
    "How likely is it that the walker visits intersection C on its way to B?",
)


def question(variant: str, rows: int, cols: int, sectors: int, stem: str, letters, contents) -> str:
    """The question of one rendering with its options."""
    if variant == "cartesian":
        parts = [
            f"The picture shows a street map: {rows + 1} horizontal and {cols + 1} vertical streets crossing at "
            "intersections.",
            "A walker starts at intersection A and walks along the streets to intersection B, one block at a time.",
            "At every intersection it considers the streets that lead one block Right or one block Down without "
            "going past B's column or B's row, and takes one of them at random, each with equal probability; when "
            "only one such street is left, it takes that one.",
        ]
    else:
        parts = [
            f"The picture shows a polar street map: {rows + 1} circular streets and {sectors} radial streets "
            "crossing at intersections; the circular streets go all the way round.",
            "A walker starts at intersection A and walks along the streets to intersection B, one block at a time.",
            "At every intersection it considers the streets that lead one block CW (clockwise along its circle) or "
            "one block In (inward along its radial street) without going clockwise past B's radial street or "
            "inward past B's circle, and takes one of them at random, each with equal probability; when only one "
            "such street is left, it takes that one.",
        ]
    parts += [stem, text.options_sentence(contents, letters), text.answer_format("option", variant, letters)]
    return " ".join(parts)
