"""Description of ``marvl/counting`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task

#: The nine plot styles (paper A.4); equal to ``bench_plugin_marvl.plotting.STYLES`` (checked by a test).
STYLES = (
    "heatmap-viridis", "heatmap-plasma", "heatmap-inferno", "heatmap-magma",
    "heatmap-contour-viridis", "heatmap-contour-plasma", "heatmap-contour-inferno", "heatmap-contour-magma",
    "contour",
)
#: The 12 families the paper certifies for counting (Table 5); equal to ``functions.COUNTABLE``.
COUNTABLE_FAMILIES = (
    "lattice-of-gaussian-peaks", "inverted-lattice-of-valleys", "gaussian-mixture", "inverted-gaussian-mixture",
    "wave-surface", "gabor-function", "windowed-waves", "crossed-tunnels", "mixed-sign-gaussian-mixture",
    "contained-symmetric-lobes", "beaded-rings", "inverted-beaded-rings",
)
COUNT_TYPES = ("maxima", "minima", "both")

TASK = Task(
    family="marvl",
    name="counting",
    version="0.2.5",
    answer_type="integer",
    category="counting",
    description=(
        "Count the local maxima (or minima, or both) of a function plot drawn as a heatmap, a heatmap with "
        "contours, or contours alone (MaRVL-QA topological counting, paper §3.2.1): 12 certified function "
        "families, counts 1-20 with the paper's long-tailed distribution, every counted extremum certified "
        "visible by automatic gates."
    ),
    implementation="bench_plugin_marvl.counting:TASK",
    parameters=(
        Parameter("count_type", "str", None, choices=COUNT_TYPES,
                  help="what to count: maxima, minima or both together (default: maxima or minima, balanced)"),
        Parameter("count", "int", None, minimum=1, maximum=20,
                  help="target count (default: drawn from the paper's distribution, 41/38/17/4% in the bins "
                       "1-5/6-10/11-15/16-20)"),
        Parameter("family", "str", None, choices=COUNTABLE_FAMILIES,
                  help="function family (default: each aligned block of 12 items gets the 12 families, each "
                       "matched to an item whose count it can show)"),
        Parameter("style", "str", None, choices=STYLES,
                  help="plot style (default: one seeded order of the nine, repeated)"),
        Parameter("format", "str", "open", choices=("open", "choice"),
                  help="open: answer the number; choice: pick it among 4 consecutive numbers (letter answer)"),
        Parameter("preset", "str", "none", choices=("none", "mini"),
                  help="mini: the MaRVL-QA-Mini counting part, 172 functions x 9 styles = 1,548 items"),
        Parameter("source", "int", None, minimum=0, maximum=2**31 - 1,
                  help="function key: items of one seed and source share the function (default: the index)"),
    ),
    variants=COUNT_TYPES,
    difficulty=Difficulty(
        easiest="1-5 extrema to count (the paper's first bin, the subitizing range)",
        hardest="16-20 extrema to count (the paper's last bin)",
        mapping="a level draws its count among the 5 consecutive counts from 1 + round(15 x level): levels 0, "
                "1/3, 2/3 and 1 give exactly the bins 1-5, 6-10, 11-15 and 16-20, whose accuracy falls for every "
                "strong model (paper Table 10). Style and maxima/minima stay balanced: the paper shows no style "
                "effect on counting beyond small colour-map differences (Table 11), and minima are harder at any "
                "count (Table 12; set count_type=minima for that)",
        proxy="the number of extrema to count (the recorded counted extrema)",
    ),
)
