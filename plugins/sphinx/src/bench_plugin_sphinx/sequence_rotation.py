"""``sphinx/sequence-rotation`` (paper B.4.4, spec T18): a top row of four panels shows one motif turned by a
constant step (30, 45, 60 or 90 degrees, clockwise or counterclockwise: the paper's eight regimes) from a
random start, one panel blank; which of four option panels fills the blank?

The motif (asymmetric mode) is drawn once inside its tile's inscribed disc, so every turn of it fits the
panel at one scale (the paper's global scale); a motif that some turn by 20-340 degrees maps (nearly) onto
itself is refused (under 30 % of its ink moved), so no other turn can look like the answer.  The options are
four turns of the motif at consecutive multiples of the step, the answer at a balanced place among them (so
no option is the middle one more often), each pair strongly distinct (``kit.compare.distinct``, and at least
30 % of the ink of either moved).  Angles: counterclockwise on screen positive, as ``kit.sequences.turned``
and PIL; the questions that state the step name its direction in words.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from PIL import Image

from bench_core import GenerationError, ParameterError, Problem
from bench_plugin_sphinx import sequence_words as words
from bench_plugin_sphinx import sets
from bench_plugin_sphinx.descriptions.sequence_rotation import ROTATION_FAMILIES
from bench_plugin_sphinx.kit import channels, compare, complexity, layout, sequences
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.verifiers import sequence_rotation as verifier

ATTEMPTS = 40
#: Every two options differ on at least this share of their ink (a turn must move the motif's ink, not a notch).
SEPARATION = 0.3
PROBE = 81
SELF_CHANGE = 0.3
#: A pixel is ink when its darkest channel lies this far below white (as ``sequences.ink_change`` reads it).
INK_STEP = 40


def _turn_symmetric(spec: dict[str, Any]) -> bool:
    """Whether some turn of the motif by 20-340 degrees (every 10) moves less than ``SELF_CHANGE`` of its ink:
    a motif that (nearly) maps onto itself by a turn would make the step, and the answer, ambiguous.  Only the
    ink matters, so the darkest channel is turned (one band, not three): for a motif of one colour on white that
    is the darkest channel of the turned tile, as ``sequences.ink_change`` reads it.  The turns are
    ``sequences.turned``'s, so the 33 angles take eight bicubic turns (one per angle modulo 90)."""
    darkest = channels.darkest(sequences.render_motif(spec, PROBE))
    ink, kept = darkest < 255 - INK_STEP, {}
    for degrees in range(20, 341, 10):
        moved = sequences.turned(darkest, degrees, kept) < 255 - INK_STEP
        union = ink | moved
        if union.any() and float((ink ^ moved)[union].mean()) < SELF_CHANGE:
            return True
    return False


def _separated(options: list[np.ndarray]) -> bool:
    """Whether every two options differ on at least ``SEPARATION`` of their ink (``sequences.ink_change``, each
    option's ink read once) and are strongly distinct (``compare.all_distinct``)."""
    inks = [channels.darkest(o) < 255 - INK_STEP for o in options]
    for a, b in itertools.combinations(range(len(options)), 2):
        union = inks[a] | inks[b]
        if not union.any() or float((inks[a] ^ inks[b])[union].mean()) < SEPARATION:
            return False
    return compare.all_distinct(options)


def _direction(random, params) -> str:
    """The turn direction: given, or alternating so that with the step's period of four every eight items
    show all eight regimes (the direction flips item by item, and once more at every fourth item)."""
    if params.get("direction") is not None:
        return params["direction"]
    order = random.stream("direction-order").permutation(2)
    return words.TURNS[int(order[(random.index + random.index // 4) % 2])]


def compose(scene: dict[str, Any], base=None):
    """The item's picture from its scene (``base``: the motif tile, when already drawn)."""
    base = sequences.render_motif(scene["motif"], sequences.CONTENT) if base is None else base
    kept: dict[float, np.ndarray] = {}
    panels = [None if k == scene["mask"] else sequences.turned(base, a, kept)
              for k, a in enumerate(scene["panel_angles"])]
    return sequences.compose(panels, [sequences.turned(base, a, kept) for a in scene["option_angles"]])


class SequenceRotation(sets.PaperSets, task="sequence-rotation"):
    def check_params(self, params):
        if params.get("step") is not None and params.get("difficulty") is not None:
            raise ParameterError("parameter 'difficulty': the difficulty level chooses the step (90° is easy, 30° "
                                 "hard); set either step or difficulty, not both")

    def categorical_coverage(self, name, params, start, count):
        if name == "direction" and params.get("direction") is None and count < 3:
            return 1, ("the direction alternates item by item but repeats once at every fourth item (so that the "
                       "four steps meet both directions), so two neighbouring items can share it")
        return None

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        if params["step"] is not None:
            step = int(params["step"])
        elif level is not None:
            ordinal = complexity.knob_for_level(level, [0, 1, 2, 3], 0, 3, rng)
            step = next(s for s, o in words.STEP_ORDINAL.items() if o == ordinal)
        else:
            step = int(cyclic(random, words.STEPS, "step-order"))
        turn = _direction(random, params)
        family = params["motif"] or cyclic(random, ROTATION_FAMILIES, "motif-order")
        delta = step if turn == "counterclockwise" else -step
        mask = random.balanced(4, "mask")
        position = random.balanced(4, "answer")
        place = random.balanced(4, "chain")  # the answer's place among the options' consecutive turns
        start = float(rng.integers(0, 360))
        angles = [(start + k * delta) % 360 for k in range(4)]
        chain = [(angles[mask] + (j - place) * delta) % 360 for j in range(4)]
        others = [chain[j] for j in range(4) if j != place]
        others = [others[int(k)] for k in rng.permutation(3)]
        option_angles = [*others[:position], chain[place], *others[position:]]
        for _attempt in range(ATTEMPTS):
            spec = sequences.sample_motif(family, rng, "asym", sets.icon_split(params))
            if _turn_symmetric(spec):
                continue
            base = sequences.render_motif(spec, sequences.CONTENT)
            kept: dict[float, np.ndarray] = {}  # one bicubic turn per angle modulo 90
            options = [sequences.turned(base, a, kept) for a in option_angles]
            if _separated(options):
                break
        else:
            raise GenerationError(f"sequence-rotation: no {family} motif without turn symmetry and with four "
                                  f"distinct options in {ATTEMPTS} draws")
        explicit = bool(random.balanced(2, "explicit"))
        if explicit:
            stem = words.ROTATION_EXPLICIT_STEMS[int(rng.integers(len(words.ROTATION_EXPLICIT_STEMS)))]
            question = stem.format(turn=words.turn_phrase(step, turn))
        else:
            question = words.ROTATION_STEMS[int(rng.integers(len(words.ROTATION_STEMS)))]
        question += " Answer with one letter (a–d)."
        ordinal = words.STEP_ORDINAL[step]
        record = complexity.record("step_ordinal", ordinal, 0, 3)
        scene = {"image_size": list(sequences.SIZE), "motif": spec, "start": start, "step": step, "turn": turn,
                 "signed_step": delta, "angle_convention": "degrees, counterclockwise on screen positive",
                 "mask": mask, "panel_angles": angles, "option_angles": option_angles, "chain_place": place,
                 "explicit": explicit, "content": sequences.CONTENT, "border": sequences.BORDER,
                 **sequences.boxes()}
        picture = sequences.compose([None if k == mask else sequences.turned(base, angles[k], kept) for k in range(4)],
                                    options)
        metadata = {"scene": scene, "step": step, "direction": turn, "motif": family, "complexity": record,
                    "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"step_ordinal": ordinal}})}
        return Problem(question=question, answer="ABCD"[position], image_size=sequences.SIZE,
                       params={**params, "step": step, "direction": turn, "motif": family},
                       options=("A", "B", "C", "D"), answer_type="option", metadata=metadata, structure=picture)

    def render(self, problem):
        picture = problem.structure if problem.structure is not None else compose(problem.metadata["scene"])
        return [Image.fromarray(picture)]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The step's ordinal: 0 for 90°, 1 for 60°, 2 for 45°, 3 for 30°."""
        return float(words.STEP_ORDINAL[item.metadata["scene"]["step"]])


TASK = SequenceRotation()
