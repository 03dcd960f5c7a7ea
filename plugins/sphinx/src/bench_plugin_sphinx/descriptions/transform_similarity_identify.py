"""Description of ``sphinx/transform-similarity-identify`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

VARIANTS = ("one_similar", "one_dissimilar")
#: Families a moment-keeping breaker clearly distorts (transform_similarity.FAMILIES, kept equal by a test).
FAMILIES = ("arc", "arrow", "bars", "crescent", "glyph", "pinwheel", "polyhex", "segment")

TASK = Task(
    family=FAMILY,
    name="transform-similarity-identify",
    version="0.1.0",
    answer_type="option",
    category="sequence",
    description=(
        "A motif tile and four option tiles: which option is similar to the motif (same shape up to uniform "
        "scaling, rotation, reflection and moving), or which one is not? Dissimilar options are stretched and "
        "sheared with the motif's area and second moments kept. SPHINX task 17, paper B.4.3; checked on the "
        "pixels by trying every turn and mirror of the source."
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
        easiest="dissimilar options stretched strongly (the breaker S R S⁻¹ with R a turn of 70-90°)",
        hardest="dissimilar options stretched subtly (the breaker S R S⁻¹ with R a turn of 35-50°)",
        mapping="the paper measures no complexity for this task; ours is the breaker's tier t (0: a turn of "
                "70-90° inside it, 1: 50-70°, 2: 35-50°; c = t / 2), the tier nearest the level within the paper's "
                "bin (easy c < 0.75, hard c >= 0.75); set variant or difficulty, not both",
        proxy="the breaker's tier (0 strong, 1 middling, 2 subtle distortion)",
        aliases=ALIASES,
    ),
)
