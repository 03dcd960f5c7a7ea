"""``sphinx/frieze-groups`` (paper B.3.3, spec T13): four strips, each a frieze of one asymmetric motif; three
share a frieze group and one does not.  Which strip is the odd one?

Construction (following the paper's six groups, not the released code's neighbour-rule approximation, spec
7.2 #2): every strip is the orbit of one seed copy under its group's true generators (``kit.groups``:
mirrors, half-turns, glides and translations, closed over the strip).  A strip is laid out either as one
``row`` of copies on its axis or as ``columns`` of two copies, above and below the axis; all four strips of
an item share the layout, the copy count and the spacing, so copies sit at the same places in every strip and
only their orientations tell the groups apart.  The row holds step, sidle, spinning hop and spinning sidle;
the columns hold jump, spinning hop, spinning sidle and spinning jump (a jump or spinning jump needs copies
on both sides of its mirror axis, a step or sidle cannot fill both rows at every place), so the two groups
of an item are always ones that share a layout.  Every strip has its own motif (same family, its own shape
and colour): motif identity is no cue.  Copies sit on whole pixels and every operation maps the pixel grid to
itself, so each strip is exactly symmetric under its group.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import PNG_LEVEL, GenerationError, ParameterError, Problem
from bench_plugin_sphinx import frieze_words as words
from bench_plugin_sphinx.descriptions.frieze_groups import COPIES, FRIEZE_FAMILIES
from bench_plugin_sphinx.kit import compare, complexity, groups, indexed, layout, motifs, probe
from bench_plugin_sphinx.kit.distractors import other_letters
from bench_plugin_sphinx.kit.palette import PALETTE
from bench_plugin_sphinx.kit.sampling import cyclic, matched_order
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import frieze as verifier

WIDTH, MARGIN, FRAME, PAD = 910, 25, 4, 14
INNER = WIDTH - 2 * MARGIN - 2 * FRAME
TOP, LABEL_BAND, LABEL_SIZE = 14, 58, 40
#: A copy's ink reaches this share of the step from its centre, at most RADIUS_CAP px in each layout.
RADIUS_SHARE = 0.4
RADIUS_CAP = {"row": 56, "columns": 48}
ROW_GAP = 16
#: The strip holds its copies and this many steps more: the frieze lies anywhere along it (its phase against the
#: frame drawn at random for each strip), not at one place in every strip.  Copies at one place put a sidle's or a
#: spinning sidle's mirror lines at the same places in the three strips of the majority, and a blind reader's
#: coarse difference hash then found those three alike and the odd one apart (with the old layout, 1,000 items of
#: seeds 3031 and 2029 read blind 0.308 and 0.316, chance 0.25, their runs' group pairs holding sidle majorities).
SLACK_STEPS = 1
#: Each frieze is moved off its strip's middle line by up to this many pixels, at random.
SHIFT_DOWN = 6
#: A copy must change on at least this share of its ink under each strip operation (mirror, flip, half-turn).
CHANGE_MIN = 0.2
OPS = ("mirror", "flip", "rot180")
ATTEMPTS = 60
#: The labels' anti-aliased greys are rounded to multiples of this (16 levels, black and white kept): the text
#: looks the same, and a picture of one-colour motifs keeps under 256 colours, so it is written as a palette PNG
#: (encoded ~1.5x faster and about half the bytes; 224 label greys alone pushed most pictures past 256).
GREY_STEP = 17
#: White as a palette key (``kit.indexed.colour_keys``).
WHITE_KEY = 0xFFFFFF
#: The zlib level of the item's PNG (``bench_core.PNG_LEVEL``; the core's palette default is 6), chosen by
#: measurement on 40 items (seed 77): level 2 encodes these 910 x 1222 pictures in ~3.6 ms where level 6 takes
#: ~6.1 ms (levels 1 and 3: ~3.6-3.9 ms), writing ~20 KiB instead of ~13 KiB; decoding takes ~0.9 ms at either.
ZLIB_LEVEL = 2


def _layouts(group: str) -> tuple[str, ...]:
    return tuple(groups.FRIEZE_GROUPS[group].generators)


@functools.cache
def features(group: str) -> tuple[int, int]:
    """(motif orientations shown, 1 if the group has half-turns): read off the group's own copies."""
    copies = groups.frieze_copies(group, _layouts(group)[0], 8)
    parts = groups.point_group(np.pad(c.part, ((0, 1), (0, 1))) for c in copies)
    return len(parts), int(any(groups.d4_name(p) == "rot180" for p in parts))


def tier(majority: str, odd: str) -> int:
    """0: the groups show the motif in different numbers of orientations; 1: the same number, but only one has
    half-turns; 2: the same number and the same half-turns."""
    a, b = features(majority), features(odd)
    if a[0] != b[0]:
        return 0
    return 1 if a[1] != b[1] else 2


def partners(group: str) -> list[str]:
    """The groups that can share a layout with ``group`` (candidates for the other group of an item)."""
    return [g for g in words.GROUPS if g != group and set(_layouts(g)) & set(_layouts(group))]


def step_of(count: int) -> int:
    """The spacing (px) of ``count`` copies along the strip (which has room for SLACK_STEPS more)."""
    return INNER // (count + SLACK_STEPS)


def motif_radius(count: int, lay: str) -> int:
    """How far (px) a copy's ink reaches from its centre (its ink centroid)."""
    return min(RADIUS_CAP[lay], int(RADIUS_SHARE * step_of(count)))


def strip_height(count: int, lay: str) -> int:
    """The height inside the frame."""
    reach = motif_radius(count, lay)
    return 2 * reach + 2 * PAD if lay == "row" else 4 * reach + ROW_GAP + 2 * PAD


def canvas_height(count: int, lay: str) -> int:
    return TOP + 4 * (strip_height(count, lay) + 2 * FRAME + LABEL_BAND)


def strip_geometry(count: int, lay: str, k: int) -> tuple[list[int], list[int]]:
    """(outer box with frame, inner box) of strip ``k``: [left, top, right, bottom], right/bottom exclusive."""
    height = strip_height(count, lay)
    top = TOP + k * (height + 2 * FRAME + LABEL_BAND)
    outer = [MARGIN, top, WIDTH - MARGIN, top + height + 2 * FRAME]
    inner = [outer[0] + FRAME, outer[1] + FRAME, outer[2] - FRAME, outer[3] - FRAME]
    return outer, inner


def place(group: str, lay: str, count: int, inner: list[int], offset: tuple[int, int] = (0, 0)) -> list[dict[str, Any]]:
    """The copies of one strip in pixels: centre (x, y) on whole pixels and the D4 operation of each; the whole
    frieze moved by ``offset`` (px) from the middle of the strip."""
    step = step_of(count)
    left = inner[0] + (INNER - count * step) // 2 + offset[0]
    axis = (inner[1] + inner[3]) // 2 + offset[1]
    rise = motif_radius(count, lay) + ROW_GAP // 2  # centre of a column's copies above and below the axis
    out = []
    for copy in groups.frieze_copies(group, lay, count):
        x = left + round((copy.x - 0.5) * step) + step // 2
        y = axis + round(copy.y) * rise
        out.append({"x": x, "y": y, "op": copy.op})
    return out


def compose(scene: dict[str, Any], sprites: list[np.ndarray] | None = None) -> np.ndarray:
    """The item's picture from its scene record (``sprites``: each strip's base sprite, when already drawn)."""
    canvas = _chrome(tuple(scene["image_size"]), tuple(tuple(box) for box in scene["option_boxes"])).copy()
    for k, strip in enumerate(scene["strips"]):
        base = sprites[k] if sprites is not None else base_sprite(strip, scene["motif_radius"])
        turned = {op: probe.apply(op, base) for op in {copy["op"] for copy in strip["copies"]}}
        for copy in strip["copies"]:
            groups.stamp(canvas, turned[copy["op"]], copy["x"], copy["y"])
    return canvas


def palette_compose(scene: dict[str, Any], sprites: list[np.ndarray]) -> Image.Image | None:
    """``compose``'s picture as the palette image the core would write for it (its colours ascending, nothing
    else: the same PNG bytes), put together as palette indices; None when the picture shows more than 256
    colours or a copy's ink would fall on a pixel that is not white (there ``compose`` mixes colours by the
    darker channel, which indices cannot): the caller then composes in RGB.

    The chrome (frames and labels, mostly white) is laid in from its pixels that are not white
    (``kit.indexed.backdrop_in_palette``).  Which colours the picture shows is known without counting its
    pixels: every colour of the chrome (a copy only covers white pixels, and white shows in the margins) and
    every colour of each strip's sprite, when each strip has a copy stamped whole inside the canvas (a D4 map
    only moves a sprite's pixels); only when a strip's every copy is clipped by the canvas are the pixels
    counted (``kit.indexed.shown_palette_picture``)."""
    backdrop = _chrome_backdrop(tuple(scene["image_size"]), tuple(tuple(box) for box in scene["option_boxes"]))
    chrome_keys = backdrop[0]
    pieces = [np.unique(indexed.colour_keys(sprite), return_inverse=True) for sprite in sprites]
    palette = np.unique(np.concatenate([chrome_keys, *(keys for keys, _ in pieces)]))
    if len(palette) > 256 or palette[-1] != WHITE_KEY:  # white, the largest key, is then the last
        return None
    white = len(palette) - 1
    canvas = indexed.backdrop_in_palette(backdrop, palette)
    height, width = canvas.shape
    flat = canvas.reshape(-1)  # a view: writes land in ``canvas``
    whole = True
    for strip, sprite, (keys, inverse) in zip(scene["strips"], sprites, pieces, strict=True):
        base = np.searchsorted(palette, keys).astype(np.uint8).take(inverse.reshape(sprite.shape[:2]))
        inside = False
        for op in {copy["op"] for copy in strip["copies"]}:
            turned = probe.apply(op, base)
            rows, cols = np.nonzero(turned != white)
            offsets, ink = rows * width + cols, turned[rows, cols]  # the sprite's ink, as flat canvas offsets
            half = turned.shape[0] // 2
            for copy in strip["copies"]:
                if copy["op"] != op:
                    continue
                top, left = copy["y"] - half, copy["x"] - half
                if 0 <= top <= height - turned.shape[0] and 0 <= left <= width - turned.shape[1]:
                    # ``_stamp_indices`` of a sprite lying whole inside the canvas, on its ink pixels alone
                    spot = offsets + (top * width + left)
                    if np.any(flat[spot] != white):
                        return None
                    flat[spot] = ink
                    inside = True
                    continue
                stamped = _stamp_indices(canvas, turned, white, copy["x"], copy["y"])
                if stamped is None:
                    return None
                inside = inside or stamped
        whole = whole and inside
    if whole:
        return indexed.palette_picture(canvas, palette)
    return indexed.shown_palette_picture(canvas, palette)  # a sprite's colour may lie where the canvas clips it


def _stamp_indices(canvas: np.ndarray, sprite: np.ndarray, white: int, x: int, y: int) -> bool | None:
    """``groups.stamp`` on palette indices: the sprite's (odd side) pixels other than ``white`` written with its
    centre pixel at (x, y), clipped to the canvas; None (nothing written) when one would cover a pixel that is
    not white; else whether the whole sprite lay inside the canvas."""
    half = sprite.shape[0] // 2
    top, left = y - half, x - half
    t0, l0 = max(0, top), max(0, left)
    t1, l1 = min(canvas.shape[0], top + sprite.shape[0]), min(canvas.shape[1], left + sprite.shape[1])
    if t0 >= t1 or l0 >= l1:
        return False
    region, piece = canvas[t0:t1, l0:l1], sprite[t0 - top : t1 - top, l0 - left : l1 - left]
    ink = piece != white
    if np.any(region[ink] != white):
        return None
    region[ink] = piece[ink]
    return piece.shape == sprite.shape


@functools.lru_cache(maxsize=16)
def _chrome_backdrop(size: tuple[int, int], boxes: tuple[tuple[int, ...], ...]):
    """``_chrome`` kept as a backdrop (``kit.indexed.kept_backdrop``), once per layout."""
    return indexed.kept_backdrop(_chrome(size, boxes))


@functools.lru_cache(maxsize=16)
def _chrome(size: tuple[int, int], boxes: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """The white canvas with the strips' frames and their labels (a)-(d), their greys in steps of ``GREY_STEP``
    (shared by every item of one layout)."""
    image = Image.new("RGB", size, layout.WHITE)
    draw = ImageDraw.Draw(image)
    for k, box in enumerate(boxes):
        layout.frame(draw, box, FRAME)
        layout.caption(draw, ((box[0] + box[2]) / 2, box[3] + LABEL_BAND / 2), layout.label(k), LABEL_SIZE)
    chrome = np.asarray(image.point(_GREY_LEVELS * 3))  # every channel rounded to a multiple of GREY_STEP
    chrome.flags.writeable = False
    return chrome


#: Each channel value rounded to the nearest multiple of GREY_STEP (``np.rint(v / GREY_STEP) * GREY_STEP``), as
#: a lookup table: the picture is rounded in one pass instead of in floating point.
_GREY_LEVELS = [int(np.rint(v / GREY_STEP) * GREY_STEP) for v in range(256)]


def base_sprite(strip: dict[str, Any], radius: int) -> np.ndarray:
    """The seed copy of a strip: its motif with its ink centred and reaching ``radius`` px
    (``groups.centred_sprite``), in the strip's D4 orientation."""
    return probe.apply(strip["orientation"], groups.centred_sprite(strip["motif"], radius)[0])


def _shape(sprite: np.ndarray) -> np.ndarray:
    """The sprite's ink in black on white: shapes compared regardless of their colours."""
    return np.where(probe.ink_mask(sprite)[:, :, None], 0, 255).astype(np.uint8).repeat(3, axis=2)


class FriezeGroups(PaperSets, task="frieze-groups"):
    def check_params(self, params):
        majority, odd = params.get("majority"), params.get("odd")
        if params.get("difficulty") is not None and (majority is not None or odd is not None):
            raise ParameterError("parameter 'difficulty': the difficulty level chooses the pair of groups; set "
                                 "majority/odd or difficulty, not both")
        if majority is not None and odd is not None:
            if majority == odd:
                raise ParameterError(f"parameter 'odd': {odd!r} is the majority group too; allowed: any other of "
                                     f"{', '.join(partners(majority))}")
            if odd not in partners(majority):
                raise ParameterError(f"parameter 'odd': {odd} cannot share a strip layout with {majority}; allowed "
                                     f"with majority {majority}: {', '.join(partners(majority))}")

    def _pair(self, params, random) -> tuple[str, str, int | None]:
        rng, level = random.rng, params.get("difficulty")
        majority, odd = params.get("majority"), params.get("odd")
        if level is not None:
            t = complexity.knob_for_level(level, [0, 1, 2], 0, 2, rng)
            able = tuple(g for g in words.GROUPS if any(tier(g, o) == t for o in partners(g)))
            majority = cyclic(random, able, f"majority-order-{t}")
            choices = [o for o in partners(majority) if tier(majority, o) == t]
            return majority, choices[int(rng.integers(len(choices)))], t
        if majority is None and odd is None:  # both spread over the indices, every pair sharing a layout
            firsts, seconds = matched_order(random, tuple(words.GROUPS), lambda a, b: b in partners(a),
                                            "majority-order")
            return firsts[random.index % len(firsts)], seconds[random.index % len(seconds)], None
        if majority is None:
            majority = cyclic(random, tuple(partners(odd)), "majority-order")
        if odd is None:
            odd = cyclic(random, tuple(partners(majority)), "odd-order")
        return majority, odd, None

    def generate(self, params, random):
        rng = random.rng
        majority, odd, level_tier = self._pair(params, random)
        family = params.get("motif") or cyclic(random, FRIEZE_FAMILIES, "motif-order")
        count = params.get("copies") or int(rng.integers(COPIES[0], COPIES[1] + 1))
        shared = [lay for lay in groups.FRIEZE_LAYOUTS if lay in _layouts(majority) and lay in _layouts(odd)]
        lay = shared[int(rng.integers(len(shared)))]
        slot = random.balanced(4, "answer")
        names = [odd if k == slot else majority for k in range(4)]
        colours = [list(PALETTE)[int(i)] for i in rng.permutation(len(PALETTE))[:4]]
        radius = motif_radius(count, lay)
        height = canvas_height(count, lay)
        strips, sprites, shapes = [], [], []  # shapes: each strip's sprite as ``_shape``, appended by ``_motif``
        for k, name in enumerate(names):
            spec, base = self._motif(family, colours[k], radius, rng, shapes)
            inner = strip_geometry(count, lay, k)[1]
            # each frieze anywhere along its strip and a few pixels off its middle line: where its ink falls tells
            # nothing, and the strips' mirror lines and turn centres do not line up
            across = (INNER - count * step_of(count)) // 2
            offset = (int(rng.integers(-across, across + 1)), int(rng.integers(-SHIFT_DOWN, SHIFT_DOWN + 1)))
            strips.append({"group": name, "conway": words.GROUPS[name], "motif": spec["motif"],
                           "orientation": spec["orientation"], "box": inner, "offset": list(offset),
                           "period": groups.frieze_period(name, lay) * step_of(count),
                           "copies": place(name, lay, count, inner, offset)})
            sprites.append(base)
        scene = {"image_size": [WIDTH, height], "layout": lay, "copies": count, "step": step_of(count),
                 "motif_radius": radius, "frame": FRAME, "family": family, "majority": majority, "odd": odd,
                 "strips": strips, "option_boxes": [strip_geometry(count, lay, k)[0] for k in range(4)]}
        picture = palette_compose(scene, sprites)
        if picture is None:
            picture = Image.fromarray(compose(scene, sprites))
        t = tier(majority, odd)
        record = complexity.record("pair_tier", t, 0, 2, source="ours")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        question = f"{words.DEFINITION} {stem} Answer with one letter (a–d)."
        metadata = {"scene": scene, "majority": majority, "odd": odd, "motif": family, "copies": count,
                    "complexity": record, "paper_answer": layout.label(slot),
                    **({} if level_tier is None else {"difficulty_knobs": {"pair_tier": t}})}
        return Problem(question=question, answer="ABCD"[slot], image_size=(WIDTH, height),
                       params={**params, "majority": majority, "odd": odd, "motif": family, "copies": count},
                       options=("A", "B", "C", "D"), answer_type="option", metadata=metadata, structure=picture)

    def _motif(self, family, colour, radius, rng, others) -> tuple[dict[str, Any], np.ndarray]:
        """A motif of ``family`` in ``colour`` with no symmetry of its own (``groups.self_symmetries``: no turn, no
        mirror line at any angle) that changes clearly under the mirror, the flip and the half-turn
        (``groups.motif_changes`` >= CHANGE_MIN each), in a random D4 orientation, and its sprite, strongly
        distinct (``kit.compare``) from the other strips' sprites (``others``: their ``_shape``s, to which the
        chosen sprite's is appended): no strip repeats another's motif."""
        for _attempt in range(ATTEMPTS):
            spec = motifs.sample(family, rng, "asym", colour=colour)
            sprite = groups.centred_sprite(spec, radius)[0]
            if not groups.usable_motif(sprite, [groups.D4_LINEAR[op] for op in OPS], CHANGE_MIN):
                continue
            orientation = probe.D4[int(rng.integers(8))]
            sprite = probe.apply(orientation, sprite)
            shape = _shape(sprite)
            if all(compare.distinct(shape, other) for other in others):
                others.append(shape)
                return {"motif": spec, "orientation": orientation}, sprite
        raise GenerationError(f"frieze-groups: no {family} motif without symmetry, changing clearly under mirror, flip "
                              f"and half-turn and distinct from the other strips' in {ATTEMPTS} draws")

    def render(self, problem):
        """The picture generate composed (a palette image, when it could) or, without it, the scene's; written at
        ZLIB_LEVEL."""
        picture = problem.structure
        if picture is None:
            picture = Image.fromarray(compose(problem.metadata["scene"]))
        picture.info[PNG_LEVEL] = ZLIB_LEVEL
        return [picture]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return other_letters(problem.answer, count)

    def hardness(self, item):
        """The majority/odd pair's tier (0, 1, 2)."""
        return float(tier(item.metadata["majority"], item.metadata["odd"]))


TASK = FriezeGroups()
