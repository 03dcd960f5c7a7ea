"""Parameters every Mind's Eye task shares, and the A-R-T taxonomy (paper §1.1)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter

#: The paper's taxonomy: each task is an Abstraction, Relation or Transformation task (its category).
ART = {"abstraction": "Abstraction", "relation": "Relation", "transformation": "Transformation"}
DIFFICULTIES = ("easy", "medium", "hard")
#: Prompt styles of the paper's prompt study (§5, Tables 16-19); "step-by-step" is the CoT setting of its
#: main results (Table 2) and the default.  "all" makes one item per style from each stimulus.
PROMPT_STYLES = ("plain", "step-by-step", "hint", "elimination", "meta-task")
SIZES = ("1024x1024", "600x800")


def common_parameters() -> tuple[Parameter, ...]:
    """difficulty, size, prompt and source."""
    return (
        Parameter("difficulty", "level", None, choices=DIFFICULTIES,
                  help="a level in [0, 1], a range a..b, or the paper's tiers easy, medium, hard (levels below 1/3 "
                       "give the easy knobs, below 2/3 the medium ones, the rest the hard ones; default: the three "
                       "tiers spread over the items, any three in a row show all three; conceptual slippage: any "
                       "four)"),
        Parameter("size", "str", "1024x1024", choices=SIZES,
                  help="canvas: the paper's 1024x1024, or 600x800 of its resolution ablation"),
        Parameter("prompt", "str", "step-by-step", choices=(*PROMPT_STYLES, "all"),
                  help="question style; all = one item per style on the same image (variants of one pair)"),
        Parameter("source", "int", None, minimum=0, maximum=2**31 - 1,
                  help="stimulus key: items of one seed and source share the stimulus (default: the index)"),
    )


#: The tiers as ranges of the normalised scale (``tier_of`` maps a level back to its tier).
TIER_LEVELS = {"easy": "0..0.333", "medium": "0.334..0.666", "hard": "0.667..1"}


def tier_of(level: float) -> str:
    """The paper's tier a normalised difficulty level falls in: easy below 1/3, medium below 2/3, else hard."""
    return DIFFICULTIES[min(2, int(float(level) * 3))]


def tiers(easy: str, hard: str, proxy: str, medium: str = "") -> Difficulty:
    """The scale of a Mind's Eye task: the paper's three tiers of structural knobs (spec §7.1 item 4) laid over
    [0, 1], with the tier names kept as aliases."""
    mapping = "levels below 1/3 take the easy knobs, below 2/3 the medium knobs" + (f" ({medium})" if medium else "")
    return Difficulty(easiest=easy, hardest=hard, proxy=proxy, aliases=TIER_LEVELS,
                      mapping=mapping + ", the rest the hard knobs; explicit knob parameters override the tier")
