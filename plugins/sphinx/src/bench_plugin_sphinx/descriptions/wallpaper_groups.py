"""Description of ``sphinx/wallpaper-groups`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

GROUPS = ("p1", "p2", "pm", "pg", "cm", "pmm", "pmg", "pgg", "cmm", "p4", "p4m", "p4g", "p3", "p3m1", "p31m",
          "p6", "p6m")
#: Families whose asymmetric draws are mostly without any symmetry of their own (at any angle) and change clearly
#: under every turn and mirror of a square or hexagonal lattice at patch size: the frieze task's families but
#: clocks (their round face hides the hands' asymmetry under sixth and third turns).
WALLPAPER_FAMILIES = ("arc", "arrow", "bars", "bitgrid", "fractal", "glyph", "pictogram", "polyhex", "polyiamond",
                      "polyline", "polyomino")
COPIES = (4, 6)

TASK = Task(
    family=FAMILY,
    name="wallpaper-groups",
    version="0.1.6",
    answer_type="option",
    category="symmetry",
    description=(
        "A 2x2 grid of square wallpaper patches of one asymmetric motif; three share a wallpaper group and one "
        "does not: which? All seventeen groups (SPHINX task 14, paper B.3.4), each patch the orbit of one copy "
        "under the group's true generators on its lattice; the verifier reads every patch's group back from its "
        "pixels."
    ),
    implementation="bench_plugin_sphinx.wallpaper_groups:TASK",
    parameters=(
        Parameter("majority", "str", None, choices=GROUPS,
                  help="IUC name of the group three patches share (default: the seventeen in one seeded order, "
                       "repeated)"),
        Parameter("odd", "str", None, choices=GROUPS,
                  help="IUC name of the odd patch's group (default: the seventeen in a second seeded order, "
                       "repeated, never the majority's group)"),
        Parameter("motif", "str", None, choices=WALLPAPER_FAMILIES,
                  help="motif family of the patches (default: the families in one seeded order, repeated)"),
        Parameter("copies", "int", None, minimum=COPIES[0], maximum=COPIES[1],
                  help="copies across a patch: each patch holds about copies x copies motifs, or more where a "
                       "group needs them to show two cells across (four times its number of motif orientations; "
                       "default: drawn from 4..6)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="the odd patch shows its motif in a different number of orientations",
        hardest="the same number of orientations and the same turns: only the mirrors and glides (or the lattice "
                "they sit on) tell the odd patch apart",
        mapping="the paper measures no complexity for this task; ours is the pair's tier t (0: the groups show "
                "the motif in different numbers of orientations; 1: in the same number, but their largest turns "
                "differ; 2: the same number and the same turns), c = t / 2, the tier nearest the level within the "
                "paper's bin (easy c < 0.75, hard c >= 0.75); set majority/odd or difficulty, not both",
        proxy="the majority/odd pair's tier (0, 1, 2)",
        aliases=ALIASES,
    ),
)
