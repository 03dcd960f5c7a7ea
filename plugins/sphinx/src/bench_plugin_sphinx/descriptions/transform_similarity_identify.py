"""Description of ``sphinx/transform-similarity-identify`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

VARIANTS = ("one_similar", "one_dissimilar")
#: Families whose versions a checker clearly tells apart (transform_similarity.FAMILIES, kept equal by a test).
FAMILIES = ("arc", "bitgrid", "clock", "glyph", "ladder", "pictogram", "pinwheel")

TASK = Task(
    family=FAMILY,
    name="transform-similarity-identify",
    version="0.1.3",
    answer_type="option",
    category="sequence",
    description=(
        "A motif tile and four option tiles: which option is similar to the motif (same shape up to uniform "
        "scaling, rotation, reflection and moving), or which one is not? The options are versions of the motif "
        "under area-keeping stretches S R S⁻¹, the top one chosen after they are drawn, so the odd option is no "
        "outlier of ink, edges or moments. SPHINX task 17, paper B.4.3; checked on the pixels by trying every "
        "turn and mirror of the source."
    ),
    implementation="bench_plugin_sphinx.transform_similarity:TASK",
    parameters=(
        Parameter("variant", "str", None, choices=VARIANTS,
                  help="one_similar: one option is similar, three are not; one_dissimilar: one is not, three are "
                       "(default: the two in one seeded order, repeated)"),
        Parameter("motif", "str", None, choices=FAMILIES,
                  help="motif family (default: the families in one seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="the other versions distorted strongly (a singular-value ratio of 2.2-2.7 to the top version)",
        hardest="the other versions distorted subtly (a singular-value ratio of 1.55-1.85 to the top version)",
        mapping="the paper measures no complexity for this task; ours is the distortion tier t between the top "
                "version and the nearest other (0: 2.2-2.7, 1: 1.85-2.2, 2: 1.55-1.85; c = t / 2), the tier "
                "nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75); set variant or "
                "difficulty, not both",
        proxy="the distortion tier (0 strong, 1 middling, 2 subtle)",
        aliases=ALIASES,
    ),
)
