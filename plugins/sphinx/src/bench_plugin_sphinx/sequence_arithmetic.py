"""``sphinx/sequence-arithmetic`` (paper B.4.5, spec T19): a top row of four panels holds copies of one motif,
their number changing by a constant step (0, 1, 2 or 3, increasing or decreasing), one panel blank; which of
four option panels fills the blank?

Built directly, with no retry loop on the answer (the authors' generator redraws whole items until its checks
pass, seconds per item).  The four options are four counts a constant gap ``g`` apart (a chain ``L, L + g,
L + 2g, L + 3g``), drawn before the row: the chain's start ``L`` is uniform over the starts that leave room for
the row, the answer's place in the chain is balanced over the items, and the row is then laid around the
answer.  So the options alone (their counts, ink, extent) say nothing about which of them is right.  The gap
is 1 unless two options of the chain change less than ``CHANGE`` of the panel's pixels between them
(``kit.compare.diff_fraction``), then 2, then 3, then a bold dot at gap 2: a bounded escalation.  Row counts
stay in 1..18, options in 1..24; every panel uses one layout (row, column, grid or pyramid) sized for the
largest count of the item, so one copy has one size everywhere.

The motif (symmetric mode) is drawn at copy size and must draw as one blob (``kit.sequences.blob_count``,
the verifier's own merge reach); a family draw that does not is redrawn at most ``ATTEMPTS`` times, then a
plain dot of the same colour stands in (recorded).  Complexity: the paper's, the largest count of the row over
3..18.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from PIL import Image

from bench_core import Problem
from bench_plugin_sphinx import sequence_words as words
from bench_plugin_sphinx import sets
from bench_plugin_sphinx.descriptions.sequence_arithmetic import ARITHMETIC_FAMILIES
from bench_plugin_sphinx.kit import channels, compare, complexity, layout, sequences
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.verifiers import sequence_arithmetic as verifier

STEPS = (0, 1, 2, 3)
#: Row counts stay in LOW..HIGH; the paper's complexity range is LOW_C..HIGH.
LOW, HIGH, LOW_C = 1, 18, 3
#: Option chains try these gaps in turn until the four options look pairwise distinct.
GAPS = (1, 2, 3)
#: Two options look distinct when at least this share of the panel's pixels changes (``kit.compare``'s pixel
#: test at about one 16 px square of ink: one whole copy among up to 24; the 5 % of ``compare.distinct`` is a
#: shape-comparison threshold that one copy among many never reaches, 0.3-3.5 % measured).
CHANGE = 0.004
ATTEMPTS = 6
#: A copy's motif fills this share of its cell (the rest keeps copies apart for the eye and the verifier).
FILL = 0.78
#: The copy's ink is grown by this reach to test that it draws as one blob (the verifier's merge reach).
REACH = 2
#: A copy inks at least this share of its cell (thin draws are redrawn: one of them among many is hard to see).
MIN_INK = 0.12
#: The stand-in motif's parameters: a round disc.
DOT = {"square": False, "radius": 0.8, "hole": 0.0, "hole_angle": 0.0}


def _direction(random, params) -> str:
    """Given, or alternating so that with the step's period of four every eight items show all eight pairs."""
    if params.get("direction") is not None:
        return params["direction"]
    order = random.stream("direction-order").permutation(2)
    return words.DIRECTIONS[int(order[(random.index + random.index // 4) % 2])]


def row_counts(answer: int, mask: int, signed: int) -> list[int]:
    """The four counts of the row with ``answer`` at ``mask``, changing by ``signed`` per panel."""
    return [answer + (k - mask) * signed for k in range(4)]


def _answer_room(mask: int, signed: int) -> tuple[int, int]:
    """The answers (lowest, highest) that keep every count of the row in LOW..HIGH."""
    offsets = [(k - mask) * signed for k in range(4)]
    return LOW - min(offsets), HIGH - max(offsets)


def _bold(tile) -> bool:
    """One blob (at the verifier's merge reach) inking at least MIN_INK of its cell."""
    return sequences.blob_count(tile, reach=REACH) == 1 and float((channels.darkest(tile) < 215).mean()) >= MIN_INK


def _motif(family: str, rng, params, cell: int) -> dict[str, Any]:
    """A symmetric motif of ``family`` that draws bold at ``cell`` px (at most ATTEMPTS draws, then a dot)."""
    for _attempt in range(ATTEMPTS):
        spec = sequences.sample_motif(family, rng, "sym", sets.icon_split(params))
        if _bold(sequences.render_motif(spec, cell, FILL)):
            return spec
    return _dot(spec)


def _dot(spec: dict[str, Any]) -> dict[str, Any]:
    """A plain disc in ``spec``'s colour (the stand-in motif)."""
    return {"family": "dot", "mode": "sym", "colour": spec["colour"], "params": dict(DOT)}


def _apart(panels: list) -> bool:
    """Whether every two panels change at least ``CHANGE`` of their pixels between them
    (``compare.diff_fraction``, each panel's luminance computed once)."""
    lumas = [compare.luminance(p) for p in panels]
    return all(float((np.abs(a - b) > compare.LUMA_STEP).mean()) >= CHANGE
               for a, b in itertools.combinations(lumas, 2))


def _layout(order: list[str], most: int) -> str:
    return next(kind for kind in order if sequences.fits(kind, most))


def panel(scene: dict[str, Any], count: int, copy=None):
    """One panel of ``count`` copies in the scene's layout (``copy``: the cell tile, when already drawn)."""
    if copy is None:
        cell = sequences.slots(scene["layout"], 1, scene["most"])[0]
        copy = sequences.render_motif(scene["motif"], cell, FILL)
    return sequences.copies_panel(copy, scene["layout"], count, scene["most"])


def compose(scene: dict[str, Any]):
    """The item's picture from its scene."""
    cell = sequences.slots(scene["layout"], 1, scene["most"])[0]
    copy = sequences.render_motif(scene["motif"], cell, FILL)
    panels = [None if k == scene["mask"] else panel(scene, n, copy) for k, n in enumerate(scene["row_counts"])]
    return sequences.compose(panels, [panel(scene, n, copy) for n in scene["option_counts"]])


class SequenceArithmetic(sets.PaperSets, task="sequence-arithmetic"):
    def categorical_coverage(self, name, params, start, count):
        if name == "direction" and params.get("direction") is None and count < 3:
            return 1, ("the direction alternates item by item but repeats once at every fourth item (so that the "
                       "four steps meet both directions), so two neighbouring items can share it")
        return None

    def generate(self, params, random):
        rng = random.rng
        step = int(params["step"]) if params.get("step") is not None else int(cyclic(random, STEPS, "step-order"))
        direction = _direction(random, params)
        family = params.get("motif") or cyclic(random, ARITHMETIC_FAMILIES, "motif-order")
        signed = step if direction == "increasing" else -step
        mask = random.balanced(4, "mask")
        position = random.balanced(4, "answer")
        place = random.balanced(4, "chain")  # the answer's place in the options' chain of counts
        level = params.get("difficulty")
        low, high = _answer_room(mask, signed)
        if level is not None:  # the level picks the row's largest count; the answer follows from it
            top = max((k - mask) * signed for k in range(4))
            most_row = complexity.knob_for_level(level, range(LOW_C + 3 * step, HIGH + 1), LOW_C, HIGH, rng)
            fixed = most_row - top
        layouts = [sequences.LAYOUTS[int(k)] for k in rng.permutation(len(sequences.LAYOUTS))]
        start_draw = float(rng.random())
        spec = None
        # the gaps in turn; last, a dot of the motif's colour (the boldest copy) at gap 2
        for gap, stand_in in [*((g, False) for g in GAPS), (2, True)]:
            if level is None:
                # chain starts whose every place gives an answer the row has room for
                first, last = low, high - 3 * gap
                if last < first:
                    continue
                start = first + int(start_draw * (last - first + 1))
                answer = start + place * gap
            else:
                answer = fixed
                start = answer - min(place, (answer - LOW) // gap) * gap
            chain = [start + j * gap for j in range(4)]
            counts = row_counts(answer, mask, signed)
            most = max(*counts, *chain)
            kind = _layout(layouts, most)
            cell = sequences.slots(kind, 1, most)[0]
            if spec is None:
                spec = _motif(family, rng, params, cell)
            if stand_in:
                spec = _dot(spec)
            tile = sequences.render_motif(spec, cell, FILL)
            scene = {"layout": kind, "most": most, "motif": spec}
            drawn = {n: panel(scene, n, tile) for n in chain}
            if stand_in or _apart([drawn[n] for n in chain]):
                break
        answer_place = chain.index(answer)
        others = [chain[j] for j in range(4) if j != answer_place]
        others = [others[int(k)] for k in rng.permutation(3)]
        option_counts = [*others[:position], answer, *others[position:]]
        stem = words.ARITHMETIC_STEMS[int(rng.integers(len(words.ARITHMETIC_STEMS)))]
        question = stem + " Answer with one letter (a–d)."
        most_row = max(counts)
        record = complexity.record("max_count", most_row, LOW_C, HIGH)
        scene = {"image_size": list(sequences.SIZE), "motif": spec, "layout": kind, "most": most, "cell": cell,
                 "fill": FILL, "step": step, "direction": direction, "signed_step": signed, "mask": mask,
                 "row_counts": counts, "option_counts": option_counts, "gap": gap, "chain_place": answer_place,
                 "content": sequences.CONTENT, "border": sequences.BORDER, **sequences.boxes()}
        picture = sequences.compose([None if k == mask else panel(scene, n, tile) for k, n in enumerate(counts)],
                                    [drawn[n] for n in option_counts])
        metadata = {"scene": scene, "step": step, "direction": direction, "motif": spec["family"], "layout": kind,
                    "complexity": record, "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"max_count": most_row}})}
        return Problem(question=question, answer="ABCD"[position], image_size=sequences.SIZE,
                       params={**params, "step": step, "direction": direction, "motif": family},
                       options=("A", "B", "C", "D"), answer_type="option", metadata=metadata, structure=picture)

    def render(self, problem):
        picture = problem.structure if problem.structure is not None else compose(problem.metadata["scene"])
        return [Image.fromarray(picture)]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The largest count of the row."""
        return float(max(item.metadata["scene"]["row_counts"]))


TASK = SequenceArithmetic()
