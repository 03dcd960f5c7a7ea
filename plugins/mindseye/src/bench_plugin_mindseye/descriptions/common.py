"""Parameters every Mind's Eye task shares, and the A-R-T taxonomy (paper §1.1)."""

from __future__ import annotations

from bench_core import Parameter

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
        Parameter("difficulty", "str", None, choices=DIFFICULTIES,
                  help="a-priori difficulty from the task's structural knobs (default: balanced per item)"),
        Parameter("size", "str", "1024x1024", choices=SIZES,
                  help="canvas: the paper's 1024x1024, or 600x800 of its resolution ablation"),
        Parameter("prompt", "str", "step-by-step", choices=(*PROMPT_STYLES, "all"),
                  help="question style; all = one item per style on the same image (variants of one pair)"),
        Parameter("source", "int", None, minimum=0, maximum=2**31 - 1,
                  help="stimulus key: items of one seed and source share the stimulus (default: the index)"),
    )
