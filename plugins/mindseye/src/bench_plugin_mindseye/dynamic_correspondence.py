"""Dynamic Structural Correspondence (DSC): two shapes move, each by its own continuous rule; predict t = 1.

Paper §3 ("Dynamic Structural Correspondence"; Table 11): the top row shows the scene at t = 0, 0.25, 0.5 and
0.75, the bottom row four candidates for t = 1.  Shape A is a blue solid outline and shape B a red dashed one,
as in the release (spec §2.3).  Motions come from ``motion`` and are inferable from the four frames (spec
§7.2).  The wrong options come from the templates of spec §7.1 item 3, each tied to one reasoning error (paper
App. "Distractor taxonomy": "similar transformations applied to the opposite shape", "similar shapes with a
different transformation"):

* ``swap_shapes``: each shape moved by the other's transformation;
* ``wrong_time``: both shapes at a wrong time, one step too far (t = 1.25) or a repeat of t = 0.75;
* ``swap_wrong_time``: both errors at once, the swapped transformations at that wrong time;
* ``wrong_function``: one shape's motion read with the wrong model family (a steady change read as turning
  back, a swing read as carrying on, an orbit left along its tangent);
* ``frozen``: one shape left at its t = 0.75 pose (spec's "half-right");
* ``overshoot``: one shape one or two steps too far (t = 1.25 or 1.5), the other right;
* ``out_of_step``: one shape a step behind (t = 0.75) and the other too far;
* ``misread_mistimed``: one shape's motion misread and the other too far.

The options alone must not tell which one is right.  Foils that each move one or both shapes away from the
truth in their own direction make the truth the *typical* option: it would share poses with most foils, sit
in the middle of their ink, size and position, and be a near-twin of the nearest foil more often than any
foil is (a blind classifier picked it 38% of the time, chance 25%).  The foils therefore come from one of two
2 x 2 factorial designs, in which the truth is just one corner of the square:

* slips: shape A at its right pose or one slip away, crossed with shape B at its right pose or one slip away
  (the foils: each slip alone, and both together), one shape's slip ahead of the truth (an overshoot) and the
  other's behind it (frozen or misread).  Every option shares each shape's pose with exactly one other option.
* swap: the right time or one wrong time, crossed with each shape's own motion or the other's.

A design is used only when it can be built both ways round (shape A's slip ahead of the truth or behind it;
the wrong time early or late), and the way round is then drawn 50/50, so the truth is each shape's earlier
pose as often as its later one, and its size, place and likeness to the other options carry no information.
The design itself is chosen from the motions only (the slips design needs a visible slip on either side of
the truth for both shapes), at random when both are possible.  A foil set must keep every foil on the canvas
with its two shapes apart (as every frame is), make all four options differ visibly (compared as vertex sets,
so a polygon's own symmetry cannot hide a difference), and leave the truth neither the pose-voting favourite
nor an outlier in a nuisance feature.  One foil is the designated confound, a one-shape slip when there is
one, else the swap.  Outlines are rounded to ``QUANTUM_DECIMALS`` before drawing, and the scene record holds
every panel's two shapes as drawn (name, colour, style, pose, vertices).  The generator keeps a draw only if
its own solver (``motion.predict`` on the exact outlines) reads the truth and nothing else; verification
(``verifiers.dynamic_correspondence``) fits the motions again from the record by code of its own and checks
on the pixels that every panel shows its recorded outlines.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any, ClassVar

import numpy as np
from PIL import Image

from bench_core import Item
from bench_plugin_mindseye import motion
from bench_plugin_mindseye.base import MindsEyeTask, TierValues, follows
from bench_plugin_mindseye.layout import SUPERSAMPLE, Tile
from bench_plugin_mindseye.nuisance import option_features, singled_out
from bench_plugin_mindseye.options import Option, SizePlan, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.verifiers import dynamic_correspondence as verifier

TIMES = (0.0, 0.25, 0.5, 0.75)
CAPTIONS = tuple(f"t = {t:.2f}" for t in TIMES)
TEMPLATES = ("swap_shapes", "wrong_time", "wrong_function", "frozen", "overshoot", "out_of_step", "misread_mistimed",
             "swap_wrong_time")
#: One-shape errors ("slips") of the slips design as (template, time; None for the misread), by the side of the
#: truth they leave the shape on: behind it (stuck at t = 0.75, or the motion misread, which for a steady change
#: is its t = 0.5 pose) or ahead of it (one or two steps too far).
BEHIND = (("frozen", 0.75), ("wrong_function", None))
AHEAD = (("overshoot", 1.25), ("overshoot", 1.5))
#: Share of the items whose foils come from the swap design (when the slips design is possible too).
SWAP_SHARE = 0.3
#: Which template is designated the confound when a set has several (lowest first): a near miss with one shape
#: wrong, then the opposite-shape swap, then both shapes at a wrong time.
_CONFOUND_RANK = {"wrong_function": 0, "frozen": 0, "overshoot": 0, "swap_shapes": 1, "wrong_time": 2,
                  "out_of_step": 3, "misread_mistimed": 3, "swap_wrong_time": 3}
#: A foil set: three (template, latent, scene).
Foils = list[tuple[str, dict[str, Any], "Scene"]]
#: A priori knob values per difficulty (spec §7.1 item 4: DSC motion class and speed).
MOTION_CLASS = {"easy": "linear", "medium": "periodic", "hard": "compound"}
SPEED = {"easy": "fast", "medium": "medium", "hard": "slow"}
#: Two options must differ by this much (Hausdorff distance of a shape's vertex sets, canvas is [-1, 1]^2):
#: 6% of the canvas width, the spec's suggestion (§2.3).
VISIBLE = 0.12
#: Every vertex of every drawn pose stays inside this box (the panel shows [-1, 1]^2).
LIMIT = 0.93
BLUE = (35, 95, 225)
RED = (215, 45, 45)
AXIS = (208, 208, 208)
#: Pen width and dash pattern as fractions of the panel side (>= 2 px on the 128 px panels of 600x800).
STROKE = 0.02
DASH, GAP = 0.045, 0.03
#: Panel margin around the [-1, 1]^2 canvas.
PAD = 0.04
#: Decimal places (world units) every drawn vertex is rounded to: 1/1000 px on the largest panel, so the
#: drawing is a function of the recorded values and float noise cannot move a pixel.
QUANTUM_DECIMALS = 5
#: Slack of the in-build nuisance audit (a little stricter than the base class's final audit).
_AUDIT_FACTOR = 1.6
_AUDIT_FLOOR_SCALE = 0.8
_ATTEMPTS = 80
#: Places tried for the two shapes' paths per draw of shapes and motions.
_PLACEMENTS = 4
#: Nuisance features of an option panel (``base.option_features``) and the shortcuts over them that the foil
#: choice is balanced against (the test suite's "answer balance and shortcuts" solvers).
FEATURES = ("ink", "extent", "saturation")
SHORTCUTS = tuple(f"{rule}_{name}" for rule in ("max", "min", "odd", "typical") for name in FEATURES)
#: Log-weight penalty per unit of each shortcut's hit rate when drawing a foil set among the sets of one way round
#: of a design (order of ``SHORTCUTS``).  Zero: the factorial designs leave every shortcut at chance by
#: construction (the old design needed a calibrated tilt because the truth sat in the middle of its foils).
TILT = np.zeros(12)

TEXTS = PromptTexts(
    question=(
        "The top row shows two shapes at t = 0.00, 0.25, 0.50 and 0.75; each shape changes over time by its own "
        "continuous transformation. Follow both transformations and decide which of the options A, B, C and D "
        "shows the scene at t = 1.00."
    ),
    hint=(
        "Track the blue solid shape and the red dashed shape separately. For each, note how its position, "
        "orientation, size and slant change from one frame to the next, then continue that change by one more "
        "step."
    ),
    puzzle_type="dynamic transformation",
    elimination=(
        "infer each shape's rule from t = 0.00 to t = 0.75 and predict both shapes at t = 1.00; reject an "
        "option if either shape has the wrong position, angle, size or slant, went a step too far, stopped "
        "early, or moves the way the other shape should."
    ),
)


def _to_px(points: np.ndarray, scale: float) -> list[tuple[float, float]]:
    u = (points[:, 0] + 1) / 2 * (1 - 2 * PAD) + PAD
    v = (1 - (points[:, 1] + 1) / 2) * (1 - 2 * PAD) + PAD
    return [(float(a * scale), float(b * scale)) for a, b in zip(u, v, strict=True)]


@functools.lru_cache(maxsize=8)
def _axes(side: int, supersample: int) -> np.ndarray:
    """The faint x and y axes on their own (an RGB array of the panel), identical on every panel."""
    tile = Tile(side, supersample)
    s = tile.scale
    half = s / 2
    axis = tile.width(0.006)
    tile.draw.line((PAD * s, half, (1 - PAD) * s, half), fill=AXIS, width=axis)
    tile.draw.line((half, PAD * s, half, (1 - PAD) * s), fill=AXIS, width=axis)
    return np.asarray(tile.finish())


@functools.lru_cache(maxsize=8)
def _axis_pixels(side: int, supersample: int) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
    """The pixels of ``_axes`` that are not white: their (rows, columns) and their RGB values (k x 3).  Laying
    the axes on blank paper changes only these."""
    axes = _axes(side, supersample)
    where = np.nonzero((axes != 255).any(axis=2))
    return where, axes[where]


def _draw_scene(scene: Mapping[str, np.ndarray], side: int, supersample: int) -> Image.Image:
    """Faint axes, shape A as a blue solid outline, shape B as a red dashed outline whose dashes start and end
    at every corner (so the drawing does not depend on which vertex comes first) with gaps no shorter than
    ``GAP``.  The axes show only on blank paper: a stroke's anti-aliased edge is blended with white wherever it
    lies, so crossing an axis changes no stroke pixel (otherwise a shape near the centre would draw more ink
    than the same shape elsewhere, a cue to where it is)."""
    tile = Tile(side, supersample)
    s = tile.scale
    width = tile.width(STROKE)
    a = _to_px(scene["A"], s)
    tile.draw.line([*a, a[0], a[1]], fill=BLUE, width=width, joint="curve")
    b = _to_px(scene["B"], s)
    dash, gap = DASH * s, GAP * s
    for (x0, y0), (x1, y1) in zip(b, b[1:] + b[:1], strict=True):
        length = float(np.hypot(x1 - x0, y1 - y0))
        # at least two dashes per edge (one at each corner) so even a short edge shows a gap; every gap is at
        # least ``gap`` long (the dashes shorten instead), so the outline looks dashed however the count rounds
        count = max(2, round((length + gap) / (dash + gap)))
        piece = min(dash, (length - (count - 1) * gap) / count)
        stride = (length - piece) / (count - 1)
        for k in range(count):
            f0, f1 = k * stride / length, (k * stride + piece) / length
            tile.draw.line((x0 + f0 * (x1 - x0), y0 + f0 * (y1 - y0), x0 + f1 * (x1 - x0), y0 + f1 * (y1 - y0)),
                           fill=RED, width=width)
        r = width / 2  # round the corner so dashes meeting there join cleanly
        tile.draw.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=RED)
    image = np.array(tile.finish())
    # the axes differ from white only on their own few pixels: lay them there, where the paper is blank
    (rows, cols), colours = _axis_pixels(side, supersample)
    blank = (image[rows, cols] == 255).all(axis=1)
    image[rows[blank], cols[blank]] = colours[blank]
    return Image.fromarray(image)


class Scene(dict):
    """What a panel shows: the outline of shape "A" and of shape "B" (world units, rounded: what is drawn and
    recorded), and its drawing per panel side.  ``exact`` holds the unrounded outlines (for the generator's own
    solver), ``poses`` and ``shapes`` what made them, ``time`` the time of a query frame (None for an option).
    Drawing is deterministic, so the in-build audit and the final render share one drawing."""

    def image(self, side: int) -> Image.Image:
        """The panel at ``side`` pixels."""
        cache = self.__dict__.setdefault("_images", {})
        if side not in cache:
            cache[side] = _draw_scene(self, side, SUPERSAMPLE)
        return cache[side]

    def features(self, side: int) -> list[float]:
        """The panel's nuisance ``FEATURES`` at ``side`` pixels (``option_features`` of ``image``), measured once."""
        cache = self.__dict__.setdefault("_features", {})
        if side not in cache:
            measured = option_features(self.image(side))
            cache[side] = [measured[name] for name in FEATURES]
        return cache[side]

    def describe(self, side: int) -> dict[str, Any]:
        """The panel as drawn: the view (tile pixels = centre + scale * (x, -y)), the pen width in tile pixels,
        and per shape its name, colour, style, pose and rounded vertices; a query frame also gives its time."""
        out: dict[str, Any] = {}
        if self.time is not None:
            out["t"] = self.time
        out["view"] = {"centre": [side / 2, side / 2], "scale": round(side * (1 - 2 * PAD) / 2, 4)}
        out["pen"] = round(max(SUPERSAMPLE, round(STROKE * side * SUPERSAMPLE)) / SUPERSAMPLE, 4)
        out["shapes"] = {}
        for key, colour, style in (("A", BLUE, "solid"), ("B", RED, "dashed")):
            x, y, angle, log_a, log_c, shear = (float(v) for v in self.poses[key])
            shape = {"shape": self.shapes[key], "colour": list(colour), "style": style,
                     "pose": {"position": [x, y], "angle": angle, "scale": [math.exp(log_a), math.exp(log_c)],
                              "shear": shear},
                     "vertices": self[key].tolist()}
            if style == "dashed":
                shape["dash"] = [round(DASH * side, 4), round(GAP * side, 4)]
            out["shapes"][key] = shape
        return out


def _scene(shapes: Mapping[str, str], poses: Mapping[str, np.ndarray], time: float | None = None) -> Scene:
    exact = {key: motion.outline(shapes[key], poses[key]) for key in ("A", "B")}
    scene = Scene({key: np.round(v, QUANTUM_DECIMALS) for key, v in exact.items()})
    scene.exact, scene.time = exact, time
    scene.poses = {key: np.asarray(poses[key], dtype=float) for key in ("A", "B")}
    scene.shapes = dict(shapes)
    return scene


def _distance(one: Mapping[str, np.ndarray], other: Mapping[str, np.ndarray]) -> float:
    return max(motion.set_distance(one[k], other[k]) for k in ("A", "B"))


def _inside(scene: Mapping[str, np.ndarray]) -> bool:
    return all(float(np.abs(v).max()) <= LIMIT for v in scene.values())


def _apart(scene: Mapping[str, np.ndarray]) -> bool:
    """The two shapes do not sit on each other: their centres are further apart than 0.8 of the sum of their
    circumradii."""
    ra = float(np.hypot(*(scene["A"] - scene["A"].mean(axis=0)).T).max())
    rb = float(np.hypot(*(scene["B"] - scene["B"].mean(axis=0)).T).max())
    return bool(np.hypot(*(scene["A"].mean(axis=0) - scene["B"].mean(axis=0))) >= 0.8 * (ra + rb))


def _slip(m: motion.Motion, t: float | None) -> np.ndarray:
    """The pose change of a slip: the motion at time ``t``, or misread (``t`` None)."""
    return m.misread() if t is None else m.delta(t)


def _visible(truth: Mapping[str, np.ndarray], foils: Foils) -> bool:
    """Whether the truth and the foils all differ visibly from each other."""
    distance = np.maximum(*_pair_distances([truth, *(f[2] for f in foils)]))
    return bool((distance[np.triu_indices(len(distance), 1)] >= VISIBLE).all())


def _pair_distances(scenes: Sequence[Mapping[str, np.ndarray]]) -> list[np.ndarray]:
    """Per shape ("A", "B"), the ``motion.set_distance`` of its outlines in every two of ``scenes`` (a matrix)."""
    return [motion.set_distances(np.stack([scene[key] for scene in scenes])) for key in ("A", "B")]


def _votes_for(scenes: Sequence[Mapping[str, np.ndarray]]) -> bool:
    """Whether voting for each shape's most common pose across the options picks ``scenes[0]`` alone."""
    votes = [int(v) for v in sum((d < 1e-9).sum(axis=1) for d in _pair_distances(scenes))]
    return votes[0] == max(votes) and votes.count(votes[0]) == 1


def shortcut_hits(features: np.ndarray) -> np.ndarray:
    """How often each shortcut of ``SHORTCUTS`` picks option 0 (the truth), ties split evenly (the answer's
    place among the options is random).  ``features``: (sets, 4 options, len(FEATURES)); returns (sets,
    len(SHORTCUTS)).  The rules are those of the test suite: the largest value, the smallest, the one
    furthest from the median (the upper middle value) and the one closest to it."""
    v = np.moveaxis(np.asarray(features, dtype=float), 2, 1)  # sets x features x options
    median = np.sort(v, axis=2)[:, :, v.shape[2] // 2, None]
    distance = np.abs(v - median)
    out = []
    for score in (v, -v, distance, -distance):
        best = score == score.max(axis=2, keepdims=True)
        out.append(best[:, :, 0] / best.sum(axis=2))
    return np.concatenate(out, axis=1)


class DynamicCorrespondence(MindsEyeTask):
    """DSC: 4 query frames (t = 0 ... 0.75) and 4 options A-D for t = 1."""

    code = "DSC"
    art = "relation"
    texts = TEXTS
    option_count = 4
    option_columns = 4
    query_count = 4
    tier_values: ClassVar[TierValues] = {"motion": follows(MOTION_CLASS), "speed": follows(SPEED)}

    def knob_hardness(self, knobs: Mapping[str, Any]) -> float:
        """Motion class (linear 0, periodic 1, compound 2) plus speed (fast 0, medium 1, slow 2)."""
        return ("linear", "periodic", "compound").index(knobs["motion"]) + ("fast", "medium", "slow").index(
            knobs["speed"])

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any],
              plan: SizePlan | None = None) -> Stimulus:
        """Two shapes, two motions of the requested class and speed, and three foils, redrawn until every check
        of ``_attempt`` passes."""
        motion_class = params.get("motion") or MOTION_CLASS[difficulty]
        speed_name = params.get("speed") or SPEED[difficulty]
        side = self.layout(params.get("size") or "1024x1024").tile
        for _ in range(_ATTEMPTS):
            stimulus = self._attempt(rng, motion_class, speed_name, side)
            if stimulus is not None:
                return stimulus
        raise RuntimeError(f"DSC: no acceptable item in {_ATTEMPTS} draws (motion={motion_class}, speed={speed_name})")

    def _attempt(
        self, rng: np.random.Generator, motion_class: str, speed_name: str, side: int = 218
    ) -> Stimulus | None:
        """One draw of shapes and motions, placed up to ``_PLACEMENTS`` times, or None if every placement fails a
        check (off the canvas, a shape that hardly moves, shapes on top of each other, no foil set of the design
        both ways round, a solver disagreement) or neither design can make visibly different options."""
        speed = motion.SPEEDS[speed_name]
        names = [str(n) for n in rng.choice(list(motion.SHAPES), size=2, replace=False)]
        shapes = {"A": names[0], "B": names[1]}
        kinds = self._motion_names(rng, motion_class)
        motions = {key: motion.make_motion(kinds[key], shapes[key], speed, rng) for key in ("A", "B")}
        growing = {key: any(c.law == "grow" for c in motions[key].components) for key in ("A", "B")}
        draws = {key: (rng.uniform(0, 1), rng.uniform(0, 2 * np.pi)) for key in ("A", "B")}
        coin = rng.random()

        def sized(grows: Mapping[str, bool]) -> dict[str, np.ndarray]:
            """Start poses at the origin: a random angle, and a size small enough to grow if the shape grows."""
            poses = {}
            for key, (u, angle) in draws.items():
                size = 0.16 + 0.03 * u if grows[key] else 0.25 + 0.06 * u
                poses[key] = np.array([0.0, 0.0, angle, math.log(size), math.log(size), 0.0])
            return poses

        # the design is chosen from the motions alone, never from where the truth would fall among the foils: a
        # design is possible when all four options differ visibly both ways round (which does not depend on where
        # the shapes are); the slips design also needs a visible slip on each side of the truth for each shape.
        # In the swap design each shape is moved by the other's motion in half the options, so the two shapes get
        # the same size range and the paths are centred halfway between the two motions: the truth and the swap
        # foil are then mirror images (neither sits nearer the shapes' usual places)
        slips = {key: self._slips(shapes[key], pose, motions[key]) for key, pose in sized(growing).items()}
        swap_growing = dict.fromkeys(growing, any(growing.values()))
        start = sized(swap_growing)
        unplaced = _scene(shapes, {key: start[key] + motions[key].delta(1.0) for key in ("A", "B")})
        possible = {"slips": all(all(sides.values()) for sides in slips.values()),
                    "swap": all(_visible(unplaced, foils) for sets in self._swap_sets(shapes, start, motions)
                                for foils in sets)}
        preferred = ("swap", "slips") if coin < SWAP_SHARE else ("slips", "swap")
        design = next((d for d in preferred if possible[d]), None)
        if design is None:
            return None
        centre = {key: motions[key].delta(0.625)[:2] for key in ("A", "B")}
        if design == "swap":
            growing = swap_growing
            centre = dict.fromkeys(centre, (centre["A"] + centre["B"]) / 2)
        for _ in range(_PLACEMENTS):
            base = sized(growing)
            for key in ("A", "B"):
                # A sits on the left, B on the right, so the two rarely run into each other; the path is centred
                # over t = 0 ... 1.25
                spot = np.array([(0.4 if key == "B" else -0.4) + rng.uniform(-0.1, 0.1), rng.uniform(-0.3, 0.3)])
                base[key][:2] = spot - centre[key]
            frames = [_scene(shapes, {k: base[k] + motions[k].delta(t) for k in ("A", "B")}, t) for t in TIMES]
            truth = _scene(shapes, {k: base[k] + motions[k].delta(1.0) for k in ("A", "B")})
            if not all(_inside(f) for f in [*frames, truth]) or not self._legible([*frames, truth]):
                continue
            groups = (self._slip_sets(shapes, base, motions, slips) if design == "slips"
                      else self._swap_sets(shapes, base, motions))
            foils = self._choose(rng, truth, groups, side)
            if foils is not None:
                break
        else:
            return None
        ranks = [_CONFOUND_RANK[template] for template, _, _ in foils]
        eligible = [k for k, r in enumerate(ranks) if r == min(ranks)]
        confound = eligible[int(rng.integers(len(eligible)))]
        options = [Option("correct", "truth", {"t": 1.0}, truth)]
        options += [Option("confound" if k == confound else "filler", *foil) for k, foil in enumerate(foils)]
        facts = {
            "knobs": {"motion": motion_class, "speed": speed_name},
            "shapes": shapes,
            "motions": {key: motions[key].describe() for key in ("A", "B")},
            "styles": {"A": "blue solid outline", "B": "red dashed outline"},
            "rule": f"A ({shapes['A']}) moves by {kinds['A']}, B ({shapes['B']}) by {kinds['B']}",
        }
        stimulus = Stimulus(tuple(frames), CAPTIONS, options, facts)
        # safety net: keep only items the generator's own solver reads the same way (tests show it always does)
        if self._reads_back(stimulus) != [0]:
            return None
        return stimulus

    @staticmethod
    def _motion_names(rng: np.random.Generator, motion_class: str) -> dict[str, str]:
        """Two different motions: both linear (easy); one periodic and one linear (medium; two period-1 motions
        would both be back at their start at t = 1, leaving the swap foil equal to the truth); one compound or
        deforming motion and one from any class (hard)."""
        if motion_class == "linear":
            first, second = rng.choice(motion.LINEAR, size=2, replace=False)
        elif motion_class == "periodic":
            first, second = rng.choice(motion.PERIODIC), rng.choice(motion.LINEAR)
        else:
            first = rng.choice(motion.COMPOUND)
            second = rng.choice([m for m in motion.LINEAR + motion.PERIODIC + motion.COMPOUND if m != first])
        pair = [str(first), str(second)]
        if rng.random() < 0.5:
            pair.reverse()
        return {"A": pair[0], "B": pair[1]}

    @staticmethod
    def _legible(scenes: Sequence[Mapping[str, np.ndarray]]) -> bool:
        """Both shapes visibly change between consecutive frames, and the two shapes never sit on each other."""
        for key in ("A", "B"):
            steps = [motion.set_distance(scenes[i][key], scenes[i + 1][key]) for i in range(len(scenes) - 1)]
            if min(steps) < 0.045:
                return False
        return all(_apart(scene) for scene in scenes)

    @staticmethod
    def _slips(shape: str, pose: np.ndarray, m: motion.Motion) -> dict[str, list[tuple[str, float | None]]]:
        """The slips of ``BEHIND`` and ``AHEAD`` that move the shape visibly away from its pose at t = 1 (``pose``:
        its start pose; the place does not matter)."""
        truth = motion.outline(shape, pose + m.delta(1.0))
        return {side: [(name, t) for name, t in slips
                       if motion.set_distance(truth, motion.outline(shape, pose + _slip(m, t))) >= VISIBLE]
                for side, slips in (("behind", BEHIND), ("ahead", AHEAD))}

    @staticmethod
    def _slip_sets(shapes: Mapping[str, str], base: Mapping[str, np.ndarray], motions: Mapping[str, motion.Motion],
                   slips: Mapping[str, Mapping[str, Sequence[tuple[str, float | None]]]]) -> list[list[Foils]]:
        """The slips design, a 2 x 2 factorial: one slip per shape, the two foils with one slip each and the foil
        with both, so that every option shares each shape's pose with exactly one other option and the four are
        alike in how they resemble each other.  One shape's slip is ahead of the truth and the other's behind it:
        two groups of sets, shape A ahead and shape A behind."""
        truth = {key: base[key] + motions[key].delta(1.0) for key in ("A", "B")}
        alone: dict[tuple[str, float | None], Scene] = {}  # (shape, slip time): the scene of that slip alone

        def pose(key: str, t: float | None) -> np.ndarray:
            return base[key] + _slip(motions[key], t)

        def slip_alone(key: str, other: str, t: float | None) -> Scene:
            """The foil with only ``key`` slipped: one scene per slip, shared by the sets that hold it (so it is
            drawn and measured once)."""
            if (key, t) not in alone:
                alone[key, t] = _scene(shapes, {key: pose(key, t), other: truth[other]})
            return alone[key, t]

        groups = []
        for ahead, behind in (("A", "B"), ("B", "A")):
            sets = []
            for ahead_slip, behind_slip in product(slips[ahead]["ahead"], slips[behind]["behind"]):
                chosen = {ahead: ahead_slip, behind: behind_slip}
                poses = {key: pose(key, chosen[key][1]) for key in ("A", "B")}
                foils: Foils = []
                for key, other in (("A", "B"), ("B", "A")):
                    name, t = chosen[key]
                    latent = {"shape": key} if t is None else {"shape": key, "t": t}
                    foils.append((name, latent, slip_alone(key, other, t)))
                t_ahead = ahead_slip[1]
                if behind_slip[0] == "frozen":
                    template, latent = "out_of_step", {"behind": behind, "ahead": ahead, "t": t_ahead}
                else:
                    template, latent = "misread_mistimed", {"misread": behind, "shape": ahead, "t": t_ahead}
                foils.append((template, latent, _scene(shapes, poses)))
                sets.append(foils)
            groups.append(sets)
        return groups

    @staticmethod
    def _swap_sets(shapes: Mapping[str, str], base: Mapping[str, np.ndarray],
                   motions: Mapping[str, motion.Motion]) -> list[list[Foils]]:
        """The swap design, a 2 x 2 factorial: both shapes at a wrong time, both moved by each other's motion, and
        both errors together.  Two groups of one set each: the wrong time one step early (t = 0.75) and one step
        late (t = 1.25)."""
        swapped = _scene(shapes, {"A": base["A"] + motions["B"].delta(1.0), "B": base["B"] + motions["A"].delta(1.0)})
        return [[[
            ("wrong_time", {"t": t}, _scene(shapes, {k: base[k] + motions[k].delta(t) for k in ("A", "B")})),
            ("swap_shapes", {"A": "B's motion at t=1", "B": "A's motion at t=1"}, swapped),
            ("swap_wrong_time", {"t": t}, _scene(shapes, {"A": base["A"] + motions["B"].delta(t),
                                                          "B": base["B"] + motions["A"].delta(t)})),
        ]] for t in (0.75, 1.25)]

    def _choose(self, rng: np.random.Generator, truth: Scene, groups: Sequence[Sequence[Foils]],
                side: int) -> Foils | None:
        """A foil set from one of the two ``groups`` (the two ways round of a design), or None if a group has no
        qualifying set.

        A set qualifies when every foil is on the canvas with its two shapes apart (the rule every query frame and
        the truth obey), all four options differ visibly, voting for each shape's most common pose does not single
        out the truth, and no nuisance feature does either (the base class's final audit, a little stricter, on
        the very panels the item will show).  Requiring both ways round to qualify before drawing one 50/50 keeps
        the way round independent of how the item looks: the truth is each shape's earlier pose as often as its
        later one, whatever the canvas edge or the nuisance audit would have allowed.  Within the group the set is
        drawn with weights ``exp(-TILT . hits)``, where ``hits`` says how often each nuisance shortcut
        (``SHORTCUTS``: the option with the most / least ink, ink extent or saturation, the one furthest from or
        closest to the median) would pick the truth in that set."""
        # the geometric checks of every group first: a group with no set passing them fails the draw before any
        # panel is drawn for the nuisance audit
        passing = [[foils for foils in sets
                    if all(_inside(f[2]) and _apart(f[2]) for f in foils) and _visible(truth, foils)
                    and not _votes_for([truth, *(f[2] for f in foils)])] for sets in groups]
        if not all(passing):
            return None
        kept: list[tuple[list[Foils], list[np.ndarray]]] = []
        for sets in passing:
            good, features = [], []
            for foils in sets:
                scenes = [truth, *(f[2] for f in foils)]
                values = np.array([s.features(side) for s in scenes])
                if any(singled_out(list(values[:, f]), 0, _AUDIT_FACTOR, self.nuisance_floor[name] *
                                   _AUDIT_FLOOR_SCALE) for f, name in enumerate(FEATURES)):
                    continue
                good.append(foils)
                features.append(values)
            if not good:
                return None
            kept.append((good, features))
        sets, features = kept[int(rng.integers(len(kept)))]
        logits = -shortcut_hits(np.stack(features)) @ TILT
        weights = np.exp(logits - logits.max())
        return sets[int(rng.choice(len(sets), p=weights / weights.sum()))]

    def draw_query(self, content: Scene, side: int) -> Image.Image:
        return content.image(side)

    def draw_option(self, content: Scene, side: int) -> Image.Image:
        return content.image(side)

    @staticmethod
    def _reads_back(stimulus: Stimulus) -> list[int]:
        """The generator's own acceptance: the options (in stimulus order) whose two exact outlines both equal
        the extrapolation of the shapes' motions fitted by ``motion.predict`` to the exact query outlines."""
        predictions = {}
        for key in ("A", "B"):
            frames = [np.asarray(frame.exact[key]) for frame in stimulus.query]
            shape = motion.recognise(frames[0])
            if shape is None:
                return []
            predictions[key] = motion.predict(shape, frames)
        return [k for k, option in enumerate(stimulus.options)
                if all(motion.matches(predictions[key], np.asarray(option.content.exact[key])) for key in ("A", "B"))]

    def describe(self, content: Scene, side: int) -> dict[str, Any]:
        return content.describe(side)

    def solve_scene(self, scene: Mapping[str, Any]) -> list[int]:
        return verifier.solve_scene(scene)

    def sketch(self, description: Mapping[str, Any], side: int) -> np.ndarray:
        return verifier.sketch(description, side)

    def verify(self, item: Item, images: Sequence[Image.Image]) -> list[str]:
        """The base class's checks, then the record's own consistency and, on the pixels, both outlines of every
        panel drawn where recorded, in their colours and styles, and no ink elsewhere."""
        failures = super().verify(item, images)
        scene = item.metadata["scene"]
        failures += verifier.record_failures(scene)
        failures += verifier.pixel_failures(scene, images[0])
        return failures


TASK = DynamicCorrespondence()
