"""Description of ``marvl/transformation`` (MaRVL-QA Transformation Recognition, paper §3.2.2); loads no numpy."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task

#: The four transformations (§3.2.2): rotation 90° clockwise, rotation 180°, translation in x, in y.
TRANSFORMS: tuple[str, ...] = ("r90", "r180", "tx", "ty")
#: Style consistency of a pair (§3.3): both plots in one style, or in two different styles.
PAIRINGS: tuple[str, ...] = ("same", "different")
#: The nine plot styles (A.4); equal to ``bench_plugin_marvl.plotting.STYLES`` (a test keeps them in step).
STYLES: tuple[str, ...] = (
    "heatmap-viridis", "heatmap-plasma", "heatmap-inferno", "heatmap-magma",
    "heatmap-contour-viridis", "heatmap-contour-plasma", "heatmap-contour-inferno", "heatmap-contour-magma",
    "contour",
)
PRESETS: tuple[str, ...] = ("none", "mini", "styles81")
#: Keys of ``bench_plugin_marvl.functions.FAMILIES`` in its (the paper's Table 3) order; a test keeps them in step.
FAMILY_KEYS: tuple[str, ...] = (
    "lattice-of-gaussian-peaks", "inverted-lattice-of-valleys", "gaussian-mixture", "inverted-gaussian-mixture",
    "plane", "elliptic-paraboloid", "hyperbolic-paraboloid", "parabolic-cylinder",
    "wave-surface", "circular-ripples", "gabor-function", "windowed-waves", "crossed-tunnels",
    "checkerboard", "cone", "cusp", "monkey-saddle", "step-function", "sharp-ridge", "astroidal-bowl",
    "logarithmic-singularity", "ring-singularity", "modulated-wave", "damped-oscillator", "volcano",
    "spiraling-surface", "mixed-sign-gaussian-mixture", "contained-symmetric-lobes", "beaded-rings",
    "inverted-beaded-rings", "hyperboloid-of-one-sheet", "extruded-witch-of-agnesi",
)

TASK = Task(
    family="marvl",
    name="transformation",
    version="0.2.4",
    answer_type="integer",
    category="transformation",
    description=(
        "Which single transformation turns Plot A into Plot B: rotation 90° clockwise, rotation 180°, "
        "translation in X, translation in Y or no change (MaRVL-QA Transformation Recognition; numbered "
        "options, the answer is the option number; two-way NRMSE ambiguity filter of Algorithm 1)."
    ),
    implementation="bench_plugin_marvl.transformation:TASK",
    parameters=(
        Parameter("transform", "str", None, choices=TRANSFORMS,
                  help="r90 (clockwise), r180, tx or ty (default: balanced over items)"),
        Parameter("family", "str", None, choices=FAMILY_KEYS,
                  help="function family (default: one seeded order of the 32 families, repeated, so any 32 "
                       "consecutive items show all 32; each gets a transformation it can host)"),
        Parameter("family_fallback", "bool", False,
                  help="with a pinned family: take the next family when it cannot host the transformation"),
        Parameter("pairing", "str", None, choices=PAIRINGS,
                  help="same or different style for Plot A and Plot B (default: alternating)"),
        Parameter("style_a", "str", None, choices=STYLES,
                  help="style of Plot A (default: one seeded order of the nine, repeated)"),
        Parameter("style_b", "str", None, choices=STYLES,
                  help="style of Plot B (default: Plot A's, or another with the 72 different pairs balanced)"),
        Parameter("option_order", "str", "fixed", choices=("fixed", "shuffled"),
                  help="fixed: the paper's order (r90, r180, tx, ty, no change); shuffled: a balanced "
                       "answer position, recorded in metadata.option_keys"),
        Parameter("preset", "str", "none", choices=PRESETS,
                  help="mini: MaRVL-QA-Mini's 1,200 transformation items (600 same-style, 600 different, "
                       "150 per transformation each); styles81: every base pair in all 9 x 9 style pairs"),
        Parameter("source", "int", None, minimum=0, maximum=2**31 - 1,
                  help="base key: items of one seed and source share the function and transformation "
                       "(default: the index)"),
    ),
    variants=("same-style", "different-style"),
    difficulty=Difficulty(
        easiest="Plot A and Plot B in one style; translations by 21-25 % of the window",
        hardest="a heatmap against contour lines alone (no colour or line shared); translations by 8-12 %",
        mapping="the level's quarter sets the style tier: [0, 0.25) one style, [0.25, 0.5) the same plot type in "
                "another colour map, [0.5, 0.75) another plot type sharing colours or lines, [0.75, 1] none shared "
                "(the paper's own difficulty proxy is style consistency: accuracy drops when colour maps differ "
                "and more when plot types do, Table 2); the translation size slides from 25 % to 8 % of the "
                "window (a band of +-4 %), nearer 'No Change', the commonest wrong answer. The transformation "
                "stays balanced: it is the answer",
        proxy="style tier of the pair (0-3) plus, for a translation, how short its shift is (0 at 25 %, 1 at 8 %)",
    ),
)
