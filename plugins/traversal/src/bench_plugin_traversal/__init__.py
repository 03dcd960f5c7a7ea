"""bench-plugin-traversal: TraversalBench (Petrova, Chen, Soljacic 2026) for bench.

Registers two tasks; the modules that draw and generate (numpy, Pillow, shapely) load only when an item
is generated.
"""

from __future__ import annotations

from bench_core import Difficulty, Parameter, PromptStyle, Task, hookimpl
from bench_plugin_traversal.cells import CROSSING_BINS, TORTUOSITY_EDGES, VERTEX_COUNTS
from bench_plugin_traversal.glyphs import DEFAULT_START, VOCABULARY
from bench_plugin_traversal.prompts import SYSTEM_PROMPT

__version__ = "0.2.5"
#: The bench-core ABI this plugin was written for (bench_core.ABI_VERSION).
BENCH_ABI = 2
FAMILY = "traversal"

_TORT_HELP = ", ".join(
    f"{k}=[{lo}, {hi})" for k, (lo, hi) in enumerate(zip(TORTUOSITY_EDGES, (*TORTUOSITY_EDGES[1:], "inf"), strict=True))
)
_CROSS_HELP = ", ".join(
    f"{k}={lo}" + ("+" if hi is None else f"-{hi}" if hi != lo else "") for k, (lo, hi) in enumerate(CROSSING_BINS)
)

#: How ``bench eval --prompt paper`` asks an item (App. A.6): a short system message asking for the bare
#: answer in the requested format, then the image and the question (which already names the START glyph, the
#: exact length, the vocabulary and the comma-separated format).
PAPER_PROMPT = PromptStyle(
    "paper", "{question}",
    "TraversalBench (App. A.6): a system message asking for the final answer only, in exactly the requested "
    "format; the question as is (it states the START glyph, the exact length and the comma-separated format)",
    system=SYSTEM_PROMPT,
)

PATH = Task(
    family=FAMILY,
    name="path",
    version="0.5.1",
    answer_type="sequence",
    category="traversal",
    description=(
        "List the glyphs met walking a self-intersecting polyline from its START glyph to its end "
        "(TraversalBench main task; cells of tortuosity x crossings x vertex count, optional grey spurs)."
    ),
    implementation="bench_plugin_traversal.task_path:TASK",
    parameters=(
        Parameter("vertices", "int", None, choices=VERTEX_COUNTS,
                  help="path vertices (default: spread by the cell schedule)"),
        Parameter("tort_bin", "int", None, choices=tuple(range(len(TORTUOSITY_EDGES))),
                  help=f"tortuosity bin {_TORT_HELP} (default: spread by the cell schedule)"),
        Parameter("cross_bin", "int", None, choices=tuple(range(len(CROSSING_BINS))),
                  help=f"self-crossing bin {_CROSS_HELP} (default: spread by the cell schedule)"),
        Parameter("confounders", "str", "none", choices=("none", "low", "high"),
                  help="grey spurs: none, low (2-4) or high (5-7)"),
        Parameter("format", "str", "open", choices=("open", "choice"),
                  help="open: list the sequence; choice: pick it among 4 sequences (letter answer)"),
        Parameter("profile", "str", "strict", choices=("strict", "paper"),
                  help="acceptance gates: strict adds legibility gates; paper matches the published generator"),
        Parameter("preset", "str", "none", choices=("none", "paper"),
                  help="paper: the balanced design, every populated cell x 5 vertex counts, 40 base + 40 confound"),
        Parameter("source", "int", None, minimum=0, maximum=2**31 - 1,
                  help="backbone source key: items of one seed and source share a backbone (default: the index);"
                  " with backbones=FILE, the record number in the file"),
        Parameter("start", "str", DEFAULT_START, choices=VOCABULARY, help="the START glyph"),
        Parameter("backbones", "path", None,
                  help="published TraversalBench backbones: a JSONL file, or a directory or glob of them (backups "
                  "skipped): one item per record, in file order, rendered as published"),
        Parameter("record", "str", None,
                  help="filled in per item from backbones: the record's line as published, which the item is "
                  "rendered (and reproduced) from, so the dataset never needs the file again; not set by hand"),
    ),
    variants=("base", "conf_low", "conf_high"),
    difficulty=Difficulty(
        easiest="no self-crossing, nearly straight paths of 9-11 vertices (cells t0-t1 s0)",
        hardest="9+ self-crossings on the most tortuous paths of 11-17 vertices (cells t4-t5 s5-s6)",
        mapping="each cell (vertices x tortuosity bin x crossing bin) sits at its expected token-accuracy drop "
                "from TraversalBench's pooled regressions (Table 4: up to 34 points for crossings, 14 for "
                "tortuosity, 6 for vertices) over the largest; a level draws among the cells within 0.05 of it. "
                "Set vertices, tort_bin or cross_bin to draw only among those cells; confounders stay a "
                "separate setting (the paper's confound split)",
        proxy="self-crossings of the path (metadata.crossings), the paper's dominant source of difficulty",
    ),
    prompt_styles=(PAPER_PROMPT,),
)

READING_ORDER = Task(
    family=FAMILY,
    name="reading-order",
    version="0.4.1",
    answer_type="sequence",
    category="reading-order",
    description=(
        "List the glyphs along a crossing-free path laid out in lanes of a reading order "
        "(ltr_tb, rtl_tb, ttb_lr, ttb_rl; TraversalBench section 4.3 auxiliary benchmark)."
    ),
    implementation="bench_plugin_traversal.task_reading_order:TASK",
    parameters=(
        Parameter("regime", "str", None, choices=("ltr_tb", "rtl_tb", "ttb_lr", "ttb_rl"),
                  help="reading order of the lanes (default: drawn per item)"),
        Parameter("lanes", "int", None, choices=(2, 3, 4), help="number of lanes (default: drawn per item)"),
        Parameter("vertices", "int", None, choices=VERTEX_COUNTS, help="path vertices (default: drawn per item)"),
        Parameter("connector", "str", "raster", choices=("raster", "serpentine"),
                  help="raster: a return stroke joins lanes; serpentine: lanes alternate direction"),
        Parameter("start", "str", DEFAULT_START, choices=VOCABULARY, help="the START glyph"),
    ),
    variants=("ltr_tb", "rtl_tb", "ttb_lr", "ttb_rl"),
    difficulty=Difficulty(
        easiest="2 lanes of 9 vertices in all",
        hardest="4 lanes of 17 vertices in all",
        mapping="(lanes, vertices) sit at their expected token-accuracy drop from TraversalBench Table 1 (mean of "
                "its four models: 12.5 points from 2 to 4 lanes, 4.9 from 9 to 17 vertices) over the largest; a "
                "level draws among the layouts within 0.05 of it (the nearest if none). The regime stays drawn "
                "per item: it is what this benchmark compares",
        proxy="that expected token-accuracy drop in points, from the item's recorded lane and vertex counts",
    ),
    prompt_styles=(PAPER_PROMPT,),
)


@hookimpl
def bench_register_tasks() -> list[Task]:
    return [PATH, READING_ORDER]
