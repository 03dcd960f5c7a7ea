"""Dynamic Structural Correspondence (DSC): two shapes move, each by its own continuous rule; predict t = 1.

Paper §3 ("Dynamic Structural Correspondence"; Table 11): the top row shows the scene at t = 0, 0.25, 0.5 and
0.75, the bottom row four candidates for t = 1.  Shape A is a blue solid outline and shape B a red dashed one,
as in the release (spec §2.3).  Motions come from ``motion`` and are inferable from the four frames (spec
§7.2).  The wrong options come from the templates of spec §7.1 item 3, each tied to one reasoning error (paper
App. "Distractor taxonomy": "similar transformations applied to the opposite shape", "similar shapes with a
different transformation"):

* ``swap_shapes``: each shape moved by the other's transformation;
* ``wrong_time``: both shapes at a wrong time, one step too far (t = 1.25) or a repeat of t = 0.75;
* ``wrong_function``: one shape's motion read with the wrong model family (a steady change read as turning
  back, a swing read as carrying on, an orbit left along its tangent);
* ``frozen``: one shape left at its t = 0.75 pose (spec's "half-right");
* ``overshoot``: one shape a step too far (t = 1.25), the other right;
* ``out_of_step``: one shape a step behind (t = 0.75) and the other a step ahead (t = 1.25).

A foil is viable when it stays on the canvas, keeps its two shapes apart (as every frame does) and differs
visibly from the truth (compared as vertex sets, so a polygon's own symmetry cannot hide a difference).  A
set of three foils qualifies when its templates are distinct, all four options differ visibly, voting for each
shape's most common pose across the options does not single out the truth, and no nuisance feature makes the
truth an outlier.  Left to chance the truth would then be the *typical* option -- each foil moves one or both
shapes away from it in its own direction, so in ink, ink extent and saturation the truth sits in the middle
(closest to the median in a third of the items).  The set is therefore drawn with weights that tilt against
the nuisance shortcuts (``TILT``, calibrated over many items), so that "the most / least ink, extent or
saturation" and "furthest from / closest to the median" each pick the truth at chance.  One foil is the
designated confound, preferably a one-shape near miss.  Outlines are rounded to ``QUANTUM_DECIMALS`` before
drawing, and the scene record holds every panel's two shapes as drawn (name, colour, style, pose, vertices).
The generator keeps a draw only if its own solver (``motion.predict`` on the exact outlines) reads the truth
and nothing else; verification (``verifiers.dynamic_correspondence``) fits the motions again from the record
by code of its own and checks on the pixels that every panel shows its recorded outlines.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
from PIL import Image

from bench_core.types import Item
from bench_plugin_mindseye import motion
from bench_plugin_mindseye.base import MindsEyeTask, option_features, singled_out
from bench_plugin_mindseye.layout import SUPERSAMPLE, Tile
from bench_plugin_mindseye.options import Option, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.verifiers import dynamic_correspondence as verifier

TIMES = (0.0, 0.25, 0.5, 0.75)
CAPTIONS = tuple(f"t = {t:.2f}" for t in TIMES)
TEMPLATES = ("swap_shapes", "wrong_time", "wrong_function", "frozen", "overshoot", "out_of_step")
#: Which template is designated the confound when a set has several (lowest first): a near miss with one shape
#: wrong, then the opposite-shape swap, then both shapes at a wrong time.
_CONFOUND_RANK = {"wrong_function": 0, "frozen": 0, "overshoot": 0, "swap_shapes": 1, "wrong_time": 2,
                  "out_of_step": 3}
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
#: Nuisance features of an option panel (``base.option_features``) and the shortcuts over them that the foil
#: choice is balanced against (the test suite's "answer balance and shortcuts" solvers).
FEATURES = ("ink", "extent", "saturation")
SHORTCUTS = tuple(f"{rule}_{name}" for rule in ("max", "min", "odd", "typical") for name in FEATURES)
#: Log-weight penalty per unit of each shortcut's hit rate when drawing the foil set (order of ``SHORTCUTS``).
#: With no tilt the truth is the typical option (closest to the median 30-37% of the time, furthest from it
#: 13-16%), because most foils move one shape away from the truth in its own direction.  These values were
#: calibrated by iterating ``TILT += 2.5 * (mean expected hit rate - 1/4)`` over 1200 items (both canvas sizes,
#: all difficulties) until every shortcut sat at chance within the sampling noise (about 0.015).
TILT = np.array([-0.27, -1.06, -0.28,   # max ink, extent, saturation
                 -0.34, -0.42, -0.26,   # min
                 -0.30, -0.87, -0.45,   # odd (furthest from the median)
                 0.19, 0.31, 0.07])     # typical (closest to the median)

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


def _draw_scene(scene: Mapping[str, np.ndarray], side: int, supersample: int) -> Image.Image:
    """Faint axes, shape A as a blue solid outline, shape B as a red dashed outline whose dashes start and end
    at every corner (so the drawing does not depend on which vertex comes first).  The axes show only on
    blank paper: a stroke's anti-aliased edge is blended with white wherever it lies, so crossing an axis
    changes no stroke pixel (otherwise a shape near the centre would draw more ink than the same shape
    elsewhere, a cue to where it is)."""
    tile = Tile(side, supersample)
    s = tile.scale
    width = tile.width(STROKE)
    a = _to_px(scene["A"], s)
    tile.draw.line([*a, a[0], a[1]], fill=BLUE, width=width, joint="curve")
    b = _to_px(scene["B"], s)
    dash, gap = DASH * s, GAP * s
    for (x0, y0), (x1, y1) in zip(b, b[1:] + b[:1], strict=True):
        length = float(np.hypot(x1 - x0, y1 - y0))
        # at least two dashes per edge (one at each corner) so even a short edge shows a gap
        count = max(2, round((length + gap) / (dash + gap)))
        piece = min(dash, (length - gap) / count)
        stride = (length - piece) / (count - 1)
        for k in range(count):
            f0, f1 = k * stride / length, (k * stride + piece) / length
            tile.draw.line((x0 + f0 * (x1 - x0), y0 + f0 * (y1 - y0), x0 + f1 * (x1 - x0), y0 + f1 * (y1 - y0)),
                           fill=RED, width=width)
        r = width / 2  # round the corner so dashes meeting there join cleanly
        tile.draw.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=RED)
    image = np.asarray(tile.finish())
    blank = (image == 255).all(axis=2, keepdims=True)
    return Image.fromarray(np.where(blank, _axes(side, supersample), image))


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

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any]) -> Stimulus:
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
        """One draw of an item, or None if it fails a check (off the canvas, a shape that hardly moves, shapes on
        top of each other, fewer than three distinct foils, a nuisance outlier, a solver disagreement)."""
        speed = motion.SPEEDS[speed_name]
        names = [str(n) for n in rng.choice(list(motion.SHAPES), size=2, replace=False)]
        shapes = {"A": names[0], "B": names[1]}
        kinds = self._motion_names(rng, motion_class)
        motions = {key: motion.make_motion(kinds[key], shapes[key], speed, rng) for key in ("A", "B")}
        base = {}
        for key in ("A", "B"):
            grows = any(c.law == "grow" for c in motions[key].components)
            size = rng.uniform(0.16, 0.19) if grows else rng.uniform(0.25, 0.31)
            # A starts on the left, B on the right, so the two rarely run into each other
            spot = np.array([(0.4 if key == "B" else -0.4) + rng.uniform(-0.1, 0.1), rng.uniform(-0.3, 0.3)])
            pose = np.array([0.0, 0.0, rng.uniform(0, 2 * np.pi), np.log(size), np.log(size), 0.0])
            pose[:2] = spot - motions[key].delta(0.625)[:2]  # centre the path over t = 0 ... 1.25
            base[key] = pose

        def at(times: Mapping[str, float]) -> dict[str, np.ndarray]:
            return {k: base[k] + motions[k].delta(times[k]) for k in ("A", "B")}

        frames = [_scene(shapes, at({"A": t, "B": t}), t) for t in TIMES]
        truth = _scene(shapes, at({"A": 1.0, "B": 1.0}))
        shown = [*frames, truth]
        if not all(_inside(f) for f in shown) or not self._legible(shown):
            return None
        candidates = self._candidates(shapes, base, motions, truth)
        picked = self._choose(rng, truth, candidates, side)
        if picked is None:
            return None
        ranks = [_CONFOUND_RANK[candidates[k][0]] for k in picked]
        eligible = [k for k, r in zip(picked, ranks, strict=True) if r == min(ranks)]
        confound = eligible[int(rng.integers(len(eligible)))]
        options = [Option("correct", "truth", {"t": 1.0}, truth)]
        options += [Option("confound" if k == confound else "filler", candidates[k][0], candidates[k][1],
                           candidates[k][2]) for k in picked]
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
    def _candidates(shapes: Mapping[str, str], base: Mapping[str, np.ndarray], motions: Mapping[str, motion.Motion],
                    truth: Scene) -> list[tuple[str, dict[str, Any], Scene]]:
        """Every foil the templates can make for this item, (template, latent, scene), each on the canvas, with
        its two shapes apart (the rule every query frame and the truth obey) and visibly different from the
        truth."""

        def at(times: Mapping[str, float]) -> Scene:
            return _scene(shapes, {k: base[k] + motions[k].delta(times[k]) for k in ("A", "B")})

        found: list[tuple[str, dict[str, Any], Scene]] = [
            ("swap_shapes", {"A": "B's motion at t=1", "B": "A's motion at t=1"},
             _scene(shapes, {"A": base["A"] + motions["B"].delta(1.0), "B": base["B"] + motions["A"].delta(1.0)})),
            ("wrong_time", {"t": 1.25}, at({"A": 1.25, "B": 1.25})),
            ("wrong_time", {"t": 0.75}, at({"A": 0.75, "B": 0.75})),
        ]
        for key, other in (("A", "B"), ("B", "A")):
            misread = {key: base[key] + motions[key].misread(), other: base[other] + motions[other].delta(1.0)}
            found += [
                ("wrong_function", {"shape": key}, _scene(shapes, misread)),
                ("frozen", {"shape": key, "t": 0.75}, at({key: 0.75, other: 1.0})),
                ("overshoot", {"shape": key, "t": 1.25}, at({key: 1.25, other: 1.0})),
                ("out_of_step", {"behind": key, "ahead": other}, at({key: 0.75, other: 1.25})),
            ]
        return [c for c in found if _inside(c[2]) and _apart(c[2]) and _distance(c[2], truth) >= VISIBLE]

    def _choose(self, rng: np.random.Generator, truth: Scene, candidates: Sequence[tuple[str, dict[str, Any], Scene]],
                side: int) -> list[int] | None:
        """Three candidates (indices) for the wrong options, or None if no set qualifies.

        A set qualifies when its templates are distinct, all four options differ visibly, voting for each
        shape's most common pose does not single out the truth, and no nuisance feature singles it out either
        (the base class's final audit, a little stricter, on the very panels the item will show).  Among the
        qualifying sets one is drawn with weights ``exp(-TILT . hits)``, where ``hits`` says how
        often each nuisance shortcut (``SHORTCUTS``: the option with the most / least ink, ink extent or
        saturation, the one furthest from or closest to the median) would pick the truth in that set: the tilt
        is calibrated so that over many items every shortcut picks the truth at chance, i.e. the truth is not
        the typical option (each foil moving away from it in its own direction would make it so)."""
        scenes = [truth, *(c[2] for c in candidates)]
        features = np.array([[f[name] for name in FEATURES] for f in (option_features(s.image(side)) for s in scenes)])
        same = np.zeros((2, len(scenes), len(scenes)), dtype=bool)
        for k, key in enumerate(("A", "B")):
            for i in range(len(scenes)):
                for j in range(i, len(scenes)):
                    same[k, i, j] = same[k, j, i] = motion.set_distance(scenes[i][key], scenes[j][key]) < 1e-9
        trios = []
        for trio in combinations(range(len(candidates)), 3):
            if len({candidates[k][0] for k in trio}) < 3:
                continue
            members = [0, *(k + 1 for k in trio)]
            if any(_distance(scenes[i], scenes[j]) < VISIBLE for i, j in combinations(members[1:], 2)):
                continue
            votes = same[:, members][:, :, members].sum(axis=(0, 2))
            if votes[0] == votes.max() and (votes == votes.max()).sum() == 1:
                continue
            if any(singled_out(list(features[members, f]), 0, _AUDIT_FACTOR, self.nuisance_floor[name] *
                               _AUDIT_FLOOR_SCALE) for f, name in enumerate(FEATURES)):
                continue
            trios.append(trio)
        if not trios:
            return None
        hits = shortcut_hits(np.stack([features[[0, *(k + 1 for k in t)]] for t in trios]))
        logits = -hits @ TILT
        weights = np.exp(logits - logits.max())
        return list(trios[int(rng.choice(len(trios), p=weights / weights.sum()))])

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
