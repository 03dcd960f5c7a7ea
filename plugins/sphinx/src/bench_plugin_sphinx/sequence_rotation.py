"""``sphinx/sequence-rotation`` (paper B.4.4, spec T18): a top row of four panels shows one motif turned by a
constant step (30, 45, 60 or 90 degrees, clockwise or counterclockwise: the paper's eight regimes) from a
random start, one panel blank; which of four option panels fills the blank?

The motif (asymmetric mode) is drawn once inside its tile's inscribed disc, so every turn of it fits the
panel at one scale (the paper's global scale); a motif that some turn by 20-340 degrees maps (nearly) onto
itself is refused (under 30 % of its ink moved), so no other turn can look like the answer.  The options are
four turns of the motif at consecutive multiples of the step, the answer at a balanced place among them (so
no option is the middle one more often), each pair strongly distinct (``kit.compare.distinct``, and at least
40 % of the ink of either moved).  Angles: counterclockwise on screen positive, as ``kit.sequences.turned``
and PIL; the questions that state the step name its direction in words.

A motif is drawn in its colour and black on white, so every pixel of a tile is a mix of those three: a tile
is kept as two planes, how much of the colour and how much of the black each pixel holds (``motif_planes``),
each turned as one band (bicubic: a bicubic turn mixes pixels linearly, so turning the planes turns the mix;
both are turned in one call as a two-band image, ``sequences.bicubic_turn``), and painted with both shares
rounded to ``COVERAGE_LEVELS`` steps.  With the labels' greys snapped too (``LABEL_LEVELS``) the picture keeps
under 256 colours and is written as a palette PNG (an RGB one, with ~1000 colours from the anti-aliased turns,
takes ~2x as long to encode and decode).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np
from PIL import Image

from bench_core import GenerationError, ParameterError, Problem
from bench_plugin_sphinx import sequence_words as words
from bench_plugin_sphinx import sets
from bench_plugin_sphinx.descriptions.sequence_rotation import ROTATION_FAMILIES
from bench_plugin_sphinx.kit import channels, compare, complexity, indexed, layout, sequences
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.verifiers import sequence_rotation as verifier

ATTEMPTS = 40
#: Every two options differ on at least this share of their ink (a turn must move the motif's ink, not a notch).
#: At 0.3 a near-square motif (a frame round a few cells) could pass with two options a quarter turn apart that a
#: reader, and the verifier's polar mismatch (0.177 against its clear miss of 0.18, seed 44 item 130 of 0.1.2), can
#: barely tell apart; over 450 items the verifier's smallest miss was >= 0.25 wherever this share was >= 0.4.
SEPARATION = 0.4
PROBE = 81
SELF_CHANGE = 0.3
#: A pixel is ink when its darkest channel lies this far below white (as ``sequences.ink_change`` reads it).
INK_STEP = 40
#: The shares of colour and of black in a painted pixel are rounded to this many steps (0 and 1 included).
COVERAGE_LEVELS = 16
#: The labels (a)-(d) take this many greys (``kit.sequences.compose``).
LABEL_LEVELS = 16


def _turn_symmetric(spec: dict[str, Any]) -> bool:
    """Whether some turn of the motif by 20-340 degrees (every 10) moves less than ``SELF_CHANGE`` of its ink:
    a motif that (nearly) maps onto itself by a turn would make the step, and the answer, ambiguous.  Only the
    ink matters, so the darkest channel is turned (one band, not three): for a motif of one colour on white that
    is the darkest channel of the turned tile, as ``sequences.ink_change`` reads it.  The turns are
    ``sequences.turned``'s, so the 33 angles take eight bicubic turns (one per angle modulo 90), and all 33 are
    compared with the motif at once (the share of the union's pixels inked in only one of the two: the xor's
    count over the union's)."""
    darkest = channels.darkest(sequences.render_motif(spec, PROBE))
    ink, kept = darkest < 255 - INK_STEP, {}
    moved = np.stack([sequences.turned(darkest, degrees, kept) for degrees in range(20, 341, 10)]) < 255 - INK_STEP
    union = np.count_nonzero(moved | ink, axis=(1, 2))
    changed = np.count_nonzero(moved ^ ink, axis=(1, 2))
    return bool(((union > 0) & (changed / np.maximum(union, 1) < SELF_CHANGE)).any())


def motif_planes(spec: dict[str, Any], size: int) -> tuple[np.ndarray, np.ndarray]:
    """The motif's size x size tile as two planes, the share of its colour C and the share of black in each
    pixel (the rest white), each stored as 255 - 255 * share (white 255, so a turn fills the corners with
    "no ink").  A pixel p = 255 - a (255 - C) - 255 b on every channel, so its brightest-in-C channel minus its
    darkest-in-C channel is a (C_hi - C_lo); a grey C (no such difference) mixes with black along one line,
    read as black alone."""
    tile = sequences.render_motif(spec, size).astype(np.float32)
    ink = np.array(rgb(PALETTE[spec["colour"]]), np.float32)
    hi, lo = int(np.argmax(ink)), int(np.argmin(ink))
    if ink[hi] == ink[lo]:
        colour = np.zeros(tile.shape[:2], np.float32)
        black = (255.0 - channels.darkest(tile)) / 255.0
    else:
        colour = (tile[..., hi] - tile[..., lo]) / (ink[hi] - ink[lo])
        black = (255.0 - tile[..., hi] - colour * (255.0 - ink[hi])) / 255.0
    return tuple(np.rint(255.0 - 255.0 * np.clip(share, 0.0, 1.0)).astype(np.uint8) for share in (colour, black))


@functools.cache
def _mixes() -> np.ndarray:
    """The mix (colour step * COVERAGE_LEVELS + black step, one byte) of every pair of stored plane values
    (colour plane value * 256 + black plane value): both shares rounded to ``COVERAGE_LEVELS`` steps, a pair
    whose steps add up to more than a whole (bicubic turns overshoot) scaled back to the nearest pair that adds
    up to a whole."""
    top = COVERAGE_LEVELS - 1
    steps = np.rint((255.0 - np.arange(256)) * top / 255.0)
    a, b = np.meshgrid(steps, steps, indexing="ij")
    over = a + b > top
    scaled = np.rint(a[over] * top / (a[over] + b[over]))
    a[over], b[over] = scaled, top - scaled
    table = (a * COVERAGE_LEVELS + b).astype(np.uint8).ravel()
    table.flags.writeable = False
    return table


@functools.cache
def _mix_colours(colour: str) -> np.ndarray:
    """The colour of every mix (256 x 3): the palette ``colour``, black and white with the mix's shares, each
    entry padded to one 4-byte word (r, g, b, 0) so painting is one lookup per pixel."""
    top = COVERAGE_LEVELS - 1
    a, b = np.divmod(np.arange(256), COVERAGE_LEVELS)
    ink = np.array(rgb(PALETTE[colour]), np.float64)
    words = np.zeros((256, 4), np.uint8)
    words[:, :3] = np.clip(np.rint(255.0 - a[:, None] / top * (255.0 - ink) - b[:, None] / top * 255.0), 0, 255)
    words.flags.writeable = False
    return words


def tile_mixes(colour_plane: np.ndarray, black_plane: np.ndarray) -> np.ndarray:
    """The mix of every pixel of two planes (``motif_planes`` or turns of them)."""
    pairs = np.left_shift(colour_plane, 8, dtype=np.uint16)
    pairs |= black_plane
    return _mixes().take(pairs)


def painted(mixes: np.ndarray, colour: str) -> np.ndarray:
    """The RGB tile (a view of h x w x 4 bytes) of a tile's ``mixes`` painted with ``colour`` and black."""
    return _mix_colours(colour).view(np.uint32).ravel().take(mixes).view(np.uint8).reshape(*mixes.shape, 4)[..., :3]


def stacked_planes(spec: dict[str, Any], size: int) -> np.ndarray:
    """``motif_planes`` stacked (size, size, 2), so a turn turns both at once (``sequences.turned``)."""
    return np.stack(motif_planes(spec, size), axis=2)


def _turned_mixes(planes: np.ndarray, degrees: float, kept: dict) -> np.ndarray:
    """The mixes of the motif's tile turned ``degrees`` counterclockwise: both ``stacked_planes`` turned
    (``sequences.turned``, ``kept`` its dict of kept turns)."""
    both = sequences.turned(planes, degrees, kept)
    return tile_mixes(both[..., 0], both[..., 1])


@functools.cache
def _backdrop() -> tuple[np.ndarray, Image.Image]:
    """The picture without its panels' content (``kit.sequences.compose`` of blank panels and options, labels in
    LABEL_LEVELS greys) as (its colours' keys ascending, a one-band image of every pixel's index among them);
    neither may be changed."""
    empty = sequences.compose([None] * 4, [None] * 4, LABEL_LEVELS)
    keys, index = np.unique(indexed.colour_keys(empty.reshape(-1, 3)), return_inverse=True)
    keys.flags.writeable = False
    return keys, Image.fromarray(index.astype(np.uint8).reshape(empty.shape[:2]))


def picture(tiles: list[np.ndarray | None], colour: str) -> Image.Image:
    """The item's picture as a palette image: the four top panels' then the four options' ``tiles`` (mixes, None
    for the blank panel) painted with ``colour`` in the backdrop of ``kit.sequences.compose``.  Its palette is
    the colours it shows in ascending (r, g, b) order and nothing else, the palette the core gives the same
    picture drawn in RGB, so the PNG bytes are the same as that picture's.  The backdrop's indices are mapped
    to the palette's by Pillow's one-band lookup (``point``), the tiles' mixes by a table."""
    keys, index = _backdrop()
    used = np.nonzero(np.sum([Image.fromarray(tile).histogram() for tile in tiles if tile is not None], axis=0))[0]
    palette, order = np.unique(np.concatenate([keys, indexed.colour_keys(_mix_colours(colour)[used])]),
                               return_inverse=True)
    if len(palette) > 256:
        raise GenerationError(f"sequence-rotation: a picture of {len(palette)} colours")
    indices = index.point(order[: len(keys)].tolist() + [0] * (256 - len(keys)))
    mix_index = np.zeros(256, np.uint8)
    mix_index[used] = order[len(keys):]
    boxes = [*(sequences.panel_box(k) for k in range(4)), *(sequences.option_box(k) for k in range(4))]
    for (left, top, _right, _bottom), tile in zip(boxes, tiles, strict=True):
        if tile is not None:
            indices.paste(Image.fromarray(mix_index.take(tile)), (left + sequences.BORDER, top + sequences.BORDER))
    return indexed.palette_picture(np.asarray(indices), palette)


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


def compose(scene: dict[str, Any], base=None) -> Image.Image:
    """The item's picture (``picture``) from its scene (``base``: the motif's ``stacked_planes``, when already
    drawn): every shown turn of the motif."""
    base = stacked_planes(scene["motif"], sequences.CONTENT) if base is None else base
    kept: dict = {}
    panels = [None if k == scene["mask"] else _turned_mixes(base, a, kept) for k, a in enumerate(scene["panel_angles"])]
    return picture([*panels, *(_turned_mixes(base, a, kept) for a in scene["option_angles"])], scene["motif"]["colour"])


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
            base = stacked_planes(spec, sequences.CONTENT)
            kept: dict = {}  # one bicubic turn of the planes per angle modulo 90
            option_mixes = [_turned_mixes(base, a, kept) for a in option_angles]
            if _separated([painted(mixes, spec["colour"]) for mixes in option_mixes]):
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
        panels = [None if k == mask else _turned_mixes(base, angles[k], kept) for k in range(4)]
        drawn = picture([*panels, *option_mixes], spec["colour"])
        metadata = {"scene": scene, "step": step, "direction": turn, "motif": family, "complexity": record,
                    "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"step_ordinal": ordinal}})}
        return Problem(question=question, answer="ABCD"[position], image_size=sequences.SIZE,
                       params={**params, "step": step, "direction": turn, "motif": family},
                       options=("A", "B", "C", "D"), answer_type="option", metadata=metadata, structure=drawn)

    def render(self, problem):
        return [problem.structure if problem.structure is not None else compose(problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The step's ordinal: 0 for 90°, 1 for 60°, 2 for 45°, 3 for 30°."""
        return float(words.STEP_ORDINAL[item.metadata["scene"]["step"]])


TASK = SequenceRotation()
