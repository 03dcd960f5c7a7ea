"""Mental Transformation (MT, paper §3.2, App. C, Table 11; spec §2.6): a polycube labelled "Original Shape"
above four candidates; exactly one is the original turned by a pure rotation.

Shapes are random Shepard-Metzler-like chains of straight arms meeting at right angles, non-planar, chiral
(the mirror image is never a rotation of the original) and without rotational self-symmetry.  Every option is
shown in a pose drawn from one distribution (1-3 active axes, right or oblique angles), so pose carries no
cue.  Wrong options come from named templates, each tied to a reasoning error (App. D "distractor
taxonomy": mirrored objects and varying colour sequence; §3.2: reflections taken for rotations and off-by-theta
rotation errors; spec §7.1):

* ``mirror`` - the original reflected, then turned: a reflection taken for a rotation (the usual confound);
* one edit of the original (``EDITS``): ``off_by_theta`` - its first or last arm turned by 90/180/270
  degrees about the arm it joins, part of the object rotated by a wrong angle ("misplaced parts after
  rotation", Fig 18); ``similar_shape`` - another chain with as many cubes and arms and the same colour
  sequence; or, with varied colours, ``colour_permuted`` - the original with two cube colours swapped (the
  paper's "varying colour sequence" confound);
* the edit reflected (``mirrored_off_by_theta``, ``mirrored_similar_shape``, ``mirrored_colour_permuted``).

The four options are built before the original is chosen (issue 7's blind-option audit: when every foil was
one edit away from the answer, the answer was the option most like all the others, and the probe beat
chance by picking the most typical option): they are an object, its mirror image, an edited copy and its
mirror image (``WORLD``), and the original is one of the four drawn uniformly.  Each option then stands to
the other three as any other does, and neither geometry alone nor colour order alone picks the answer.

The question says that every cube keeps its colour, so the ``colour_permuted`` foil is wrong by the stated
rule, not only by the template.  Each panel's scene record holds the lattice coordinates, cube colours and
the pose (rounded to 6 decimals before drawing), and the camera, scale (a multiple of 1/64 pixel), light and
outline width it was drawn with; ``verifiers.mental_rotation`` solves and checks the pixels from those alone.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from PIL import Image

from bench_core import Item
from bench_plugin_mindseye import raster3d
from bench_plugin_mindseye.base import MindsEyeTask, TierValues, follows
from bench_plugin_mindseye.options import Option, SizePlan, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.verifiers import mental_rotation as verifier

#: Cube colours for the varied colouring (spec §3.3: the release's saturated palette, minus magenta, which
#: shades into red and purple).
PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (222, 45, 38),
    "blue": (45, 105, 215),
    "green": (50, 165, 60),
    "yellow": (245, 205, 35),
    "purple": (140, 80, 195),
    "cyan": (40, 195, 210),
    "orange": (245, 135, 25),
}
MONO = "white"
WHITE = (250, 250, 250)
#: Knobs per difficulty (spec §7.1 item 4): active axes, angle set, colouring, cube count range.
KNOBS: dict[str, dict[str, Any]] = {
    "easy": {"axes": 1, "angles": "right", "colouring": "mono", "cubes": (6, 7)},
    "medium": {"axes": 2, "angles": "right", "colouring": "varied", "cubes": (7, 8)},
    "hard": {"axes": 3, "angles": "oblique", "colouring": "varied", "cubes": (8, 10)},
}
#: Angle sets per active axis.  The paper's hard items use 60/90/120 degrees (§3.2, [C] in spec §2.6); we
#: allow both senses of turn (240/270/300 = -120/-90/-60) so that enough distinct readable poses exist.
ANGLES = {"right": (90, 180, 270), "oblique": (60, 90, 120, 240, 270, 300)}
#: An item's four objects as (mirrored, edited): an object, its mirror image, an edited copy and the copy's
#: mirror image.  The original is one of the four drawn uniformly; relative to it the others are its
#: ``mirror``, its edit and its ``mirrored_`` edit.
WORLD = ((False, False), (True, False), (False, True), (True, True))
#: The edits per colouring, with their weights: mono items turn an end arm or take another chain, varied ones
#: mostly swap two cube colours (the paper's "varying colour sequence" confound).
EDITS = {
    "mono": (("off_by_theta", 0.5), ("similar_shape", 0.5)),
    "varied": (("colour_permuted", 0.5), ("off_by_theta", 0.25), ("similar_shape", 0.25)),
}
#: Every lattice direction must face the camera at least this much (|cos| of the angle between a cube face's
#: normal and the view): an oblique pose that looks straight down a lattice axis flattens the object into a
#: 2D drawing whose depth steps, and so its handedness, cannot be read.
MIN_FACE_VIEW = 0.3
#: A cube counts as visible when at least this fraction of one face's area shows (humans must be able to
#: see every cube, and its colour, in every panel).
MIN_VISIBLE = 0.5


def _rotation_group() -> np.ndarray:
    """The 24 proper rotations of the cube as integer matrices (signed permutations with determinant +1)."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=np.int64)
            for row, (col, sign) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = sign
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return np.stack(out)


ROTATIONS = _rotation_group()
MIRROR = np.diag([-1, 1, 1])


#: Where the identity stands among ``ROTATIONS``.
IDENTITY = next(k for k, turn in enumerate(ROTATIONS) if np.array_equal(turn, np.eye(3, dtype=np.int64)))


def _turned(voxels: np.ndarray, colours: Sequence[Any] | None) -> tuple[np.ndarray, np.ndarray, list[Any]]:
    """The set of distinct coloured ``voxels`` turned by each of the ``ROTATIONS`` and moved to start at the
    origin (rotations x cubes x 3), each turned set's coloured cells as sorted integers that order as the
    (cell, tag) pairs do (the cell, then the tag's rank among the set's tags), and the tags (colours as
    strings, or 0)."""
    voxels = np.asarray(voxels, dtype=np.int64)
    tags = [0] * len(voxels) if colours is None else [str(c) for c in colours]
    names = sorted(set(tags))
    rank = np.array([names.index(t) for t in tags], dtype=np.int64)
    turned = np.einsum("rij,nj->rni", ROTATIONS, voxels)
    turned -= turned.min(axis=1, keepdims=True)
    span = int(turned.max()) + 1
    codes = ((turned[..., 0] * span + turned[..., 1]) * span + turned[..., 2]) * len(names) + rank
    return turned, np.sort(codes, axis=1), tags


def canonical(voxels: np.ndarray, colours: Sequence[Any] | None = None) -> tuple:
    """A key equal for two sets of distinct coloured voxels iff one is a proper rotation plus translation of the
    other: the least, over the rotations, of the turned set's sorted (cell, tag) pairs, moved to the origin.
    The last few keys are kept (a try asks for the same shapes' keys several times)."""
    voxels = np.asarray(voxels, dtype=np.int64)
    memo = (voxels.tobytes(), voxels.shape,
            None if colours is None else tuple((type(c).__name__, repr(c)) for c in colours))
    key = _CANONICAL.get(memo)
    if key is None:
        turned, codes, tags = _turned(voxels, colours)
        best = int(np.lexsort(codes[:, ::-1].T)[0])  # the least sorted row is the least sorted list of pairs
        key = tuple(sorted(zip(map(tuple, turned[best].tolist()), tags, strict=True)))
        if len(_CANONICAL) >= _MEMO_SIZE:
            _CANONICAL.clear()
        _CANONICAL[memo] = key
    return key


#: ``canonical``'s keys by (cubes, each tag's type and repr), and how many answers such memos keep before they forget
#: them all.
_CANONICAL: dict[tuple, tuple] = {}
_MEMO_SIZE = 4096


def self_symmetries(voxels: np.ndarray, colours: Sequence[Any] | None = None) -> int:
    """How many of the 24 rotations map the set of distinct (coloured) voxels onto itself (1 = no
    self-symmetry)."""
    _, codes, _ = _turned(voxels, colours)
    return int((codes == codes[IDENTITY]).all(axis=1).sum())


def random_chain(rng: np.random.Generator, cubes: int, arms: int) -> np.ndarray | None:
    """A self-avoiding chain of ``cubes`` unit cubes in ``arms`` straight arms, each turning 90 degrees from
    the last and using all three axes, that never touches itself; cubes in path order, or None if this draw
    failed."""
    moves = cubes - 1
    for _ in range(50):
        lengths = 1 + rng.multinomial(moves - arms, np.ones(arms) / arms)
        if lengths.max() <= 4 and (lengths == 1).sum() <= (1 if cubes >= 7 else 2):
            break
    else:
        return None
    axes = np.eye(3, dtype=np.int64)
    cells = [np.zeros(3, dtype=np.int64)]
    previous = None
    used = set()
    for length in lengths:
        choices = [s * axes[a] for a in range(3) for s in (1, -1) if previous is None or a != previous]
        step = choices[int(rng.integers(len(choices)))]
        previous = int(np.flatnonzero(step)[0])
        used.add(previous)
        for _ in range(int(length)):
            cells.append(cells[-1] + step)
    chain = np.array(cells)
    if len(used) < 3 or len({tuple(c) for c in chain.tolist()}) != len(chain) or touches_itself(chain):
        return None
    return chain


def touches_itself(chain: np.ndarray) -> bool:
    """True if two cubes that are not neighbours along the chain share a face (the chain folds back onto
    itself; such compact shapes hide their own cubes and are no longer a clear Shepard-Metzler figure)."""
    gaps = np.abs(chain[:, None, :] - chain[None, :, :]).sum(axis=2)
    order = np.abs(np.arange(len(chain))[:, None] - np.arange(len(chain))[None, :])
    return bool(((gaps == 1) & (order > 1)).any())


def joints(chain: np.ndarray) -> list[int]:
    """Indices of the cubes where the chain turns."""
    steps = np.diff(chain, axis=0)
    return [k for k in range(1, len(chain) - 1) if not np.array_equal(steps[k - 1], steps[k])]


def twist_end_arm(chain: np.ndarray, first: bool, quarter_turns: int) -> np.ndarray | None:
    """The chain with its last (or first) arm turned by ``quarter_turns`` x 90 degrees about the axis of the
    arm it joins, pivoting at the joint; None if the turned arm runs into (or touches) the rest of the chain."""
    cells = chain[::-1] if first else chain
    joint = joints(cells)[-1]
    axis = cells[joint] - cells[joint - 1]
    a = int(np.flatnonzero(axis)[0])
    sign = int(axis[a])
    turn = np.rint(raster3d.rotation("xyz"[a], 90 * quarter_turns * sign)).astype(np.int64)
    arm = (cells[joint + 1:] - cells[joint]) @ turn.T + cells[joint]
    twisted = np.concatenate([cells[: joint + 1], arm])
    if len({tuple(c) for c in twisted.tolist()}) != len(twisted) or touches_itself(twisted):
        return None
    return twisted[::-1] if first else twisted


@functools.cache
def _turn(axis: str, degrees: int) -> np.ndarray:
    """``raster3d.rotation`` of one of the few (axis, angle) pairs poses use, made once (read-only: shared)."""
    matrix = raster3d.rotation(axis, degrees)
    matrix.flags.writeable = False
    return matrix


def random_pose(rng: np.random.Generator, axes: int, angles: str) -> tuple[np.ndarray, list[list[Any]]]:
    """A rotation about ``axes`` distinct world axes (applied x, then y, then z), each by an angle from the
    set; with 2-3 axes, compositions that reduce to a turn about a single axis are redrawn (so the knob means
    what it says).  Returns the matrix and [[axis, degrees], ...]."""
    choices = ANGLES[angles]
    for _ in range(100):
        chosen = sorted(rng.choice(3, size=axes, replace=False).tolist())
        degrees = [choices[int(rng.integers(len(choices)))] for _ in chosen]  # as rng.choice(choices) draws
        if angles == "oblique" and not any(d % 90 for d in degrees):
            continue
        matrix = np.eye(3)
        for a, d in zip(chosen, degrees, strict=True):
            matrix = _turn("xyz"[a], d) @ matrix
        if axes > 1 and (np.abs(np.diag(matrix) - 1) < 1e-9).any():
            continue
        return matrix, [["xyz"[a], d] for a, d in zip(chosen, degrees, strict=True)]
    raise RuntimeError("no pose found")  # pragma: no cover - the sets always allow one


class PolycubeView:
    """What one panel shows: cubes at integer ``voxels`` (path order) with RGB ``colours``, turned by the
    proper rotation ``matrix`` (rounded to 6 decimals, the precision items record, before anything is
    drawn).  Rendered panels are cached per side, since the audit draws them first."""

    def __init__(self, voxels: np.ndarray, colours: Sequence[tuple[int, int, int]], matrix: np.ndarray):
        self.voxels = np.asarray(voxels, dtype=np.int64)
        self.colours = [tuple(c) for c in colours]
        self.matrix = np.round(np.asarray(matrix, dtype=float), 6) + 0.0  # + 0.0: no negative zeros
        #: pixels per cube edge as a fraction of the panel side, shared by every panel of the item
        self.relative_scale = 0.0
        self.cache: dict[int, Image.Image] = {}

    def mesh(self) -> raster3d.Mesh:
        return raster3d.polycube_mesh(self.voxels, self.colours, self.matrix)

    def pixel_scale(self, side: int) -> float:
        """Pixels per cube edge in a ``side``-pixel panel (on the renderer's scale grid)."""
        return raster3d.quantised_scale(self.relative_scale * side)


def readable_pose(matrix: np.ndarray) -> bool:
    """True if all three cube-face directions of a polycube turned by ``matrix`` are seen clearly (none
    edge-on), so the view shows depth."""
    return bool(np.abs(raster3d.CAMERA.toward @ np.asarray(matrix)).min() >= MIN_FACE_VIEW)


def every_cube_visible(view: PolycubeView, side: int = 72) -> bool:
    """True if every cube shows at least ``MIN_VISIBLE`` of a face's area in the panel (checked on a small,
    unsmoothed render: ``raster3d.cube_visibility``, cube by cube; the fraction does not depend on the scale).
    The answer depends on the cubes, the pose and the side alone: the last few are kept (pose searches draw the
    same few poses again and again)."""
    key = (view.voxels.tobytes(), view.voxels.shape, view.matrix.tobytes(), side)
    seen = _VISIBLE.get(key)
    if seen is None:
        counts, scale = raster3d.cube_visibility(view.voxels, view.matrix, side)
        seen = bool(counts.min() >= MIN_VISIBLE * scale**2)
        if len(_VISIBLE) >= _MEMO_SIZE:
            _VISIBLE.clear()
        _VISIBLE[key] = seen
    return seen


#: ``every_cube_visible``'s answers by (cubes, pose, side).
_VISIBLE: dict[tuple, bool] = {}


class MentalRotation(MindsEyeTask):
    """MT: choose the option that is the original polycube turned by a pure rotation."""

    code = "MT"
    art = "transformation"
    texts = PromptTexts(
        question=(
            "The panel labelled Original Shape shows an object built from cubes. Each of the four figures "
            "labelled A, B, C and D shows an object in a new orientation. Which option is the original object "
            "turned by a pure rotation, with nothing reflected and nothing rebuilt? Turning the object does not "
            "change its cubes: every cube keeps its colour."
        ),
        hint=(
            "Imagine turning the original in space until it lines up with an option. Follow its arms from one end "
            "to the other: how long each arm is, which way it bends relative to the previous one, and the colours "
            "of the cubes along the way."
        ),
        puzzle_type="mental rotation (3D objects made of cubes)",
        elimination=(
            "reject an option that only matches the original after a mirror reflection, one whose arms have a "
            "different length or bend a different way, and one whose cube colours sit in a different order."
        ),
    )
    option_count = 4
    option_columns = 4
    query_count = 1
    tier_values: ClassVar[TierValues] = {name: follows({t: k[name] for t, k in KNOBS.items()})
                                         for name in ("axes", "angles", "colouring")}

    # -- generation ----------------------------------------------------------------------------------
    def knob_hardness(self, knobs: Mapping[str, Any]) -> float:
        """Active rotation axes, plus one for oblique angles, plus a tenth per cube."""
        return knobs["axes"] + (knobs["angles"] == "oblique") + knobs["cubes"] / 10

    def knobs(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """The structural knobs of one item: difficulty defaults, overridden by explicit parameters."""
        base = KNOBS[difficulty]
        cubes = params.get("cubes")
        if cubes is None:
            low, high = base["cubes"]
            cubes = int(rng.integers(low, high + 1))
        return {
            "axes": params.get("axes") or base["axes"],
            "angles": params.get("angles") or base["angles"],
            "colouring": params.get("colouring") or base["colouring"],
            "cubes": cubes,
        }

    def _chain(self, rng: np.random.Generator, cubes: int, arms: int) -> np.ndarray:
        """A chiral chain without rotational self-symmetry."""
        while True:
            chain = random_chain(rng, cubes, arms)
            if chain is None or self_symmetries(chain) != 1:
                continue
            if canonical(chain) != canonical(chain @ MIRROR.T):
                return chain

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any],
              plan: SizePlan | None = None) -> Stimulus:
        knobs = self.knobs(rng, difficulty, params)
        side = self.layout(params["size"]).tile
        cubes = knobs["cubes"]
        arms = 3 if cubes <= 7 else 4 if cubes >= 9 else int(rng.integers(3, 5))
        for _ in range(200):
            made = self._attempt(rng, knobs, arms, side)
            if made is not None:
                return made
        raise RuntimeError(f"MT: no sound item for knobs {knobs}")  # pragma: no cover

    def _colours(self, rng: np.random.Generator, colouring: str, cubes: int) -> list[str]:
        """Colour names along the chain: all white, or palette colours with neighbours always different and
        at least three colours in use."""
        if colouring == "mono":
            return [MONO] * cubes
        names = list(PALETTE)
        while True:
            seq = [names[int(rng.integers(len(names)))]]
            for _ in range(cubes - 1):
                options = [n for n in names if n != seq[-1]]
                seq.append(options[int(rng.integers(len(options)))])
            if len(set(seq)) >= 3:
                return seq

    def _edit(self, rng: np.random.Generator, edit: str, chain: np.ndarray, names: list[str], arms: int
              ) -> tuple[np.ndarray, list[str], dict[str, Any]] | None:
        """The edited copy of ``chain`` (voxels, colour names, what was edited), itself chiral and without
        self-symmetry like every object that may be the original, or None if this draw allows none."""
        forms = (canonical(chain), canonical(chain @ MIRROR.T))
        if edit == "off_by_theta":
            for first, turns in rng.permutation([(f, t) for f in (False, True) for t in (1, 2, 3)]).tolist():
                twisted = twist_end_arm(chain, bool(first), int(turns))
                if (twisted is not None and canonical(twisted) not in forms and self_symmetries(twisted) == 1
                        and canonical(twisted) != canonical(twisted @ MIRROR.T)):
                    return twisted, names, {"twisted_arm": {"end": "first" if first else "last",
                                                            "degrees": 90 * int(turns)}}
            return None
        if edit == "similar_shape":
            for _ in range(40):
                other = self._chain(rng, len(chain), arms)
                if canonical(other) not in forms:
                    return other, names, {}
            return None
        pairs = [(i, j) for i in range(len(names)) for j in range(i + 2, len(names)) if names[i] != names[j]]
        for i, j in rng.permutation(pairs).tolist():
            seq = list(names)
            seq[i], seq[j] = seq[j], seq[i]
            if any(seq[k] == seq[k + 1] for k in range(len(seq) - 1)):
                continue  # keep "neighbours differ", or the foil would stand out by it
            if canonical(chain, seq) != canonical(chain, names):
                return chain, seq, {"swapped_cubes": [i, j]}
        return None

    def _attempt(self, rng: np.random.Generator, knobs: Mapping[str, Any], arms: int, side: int) -> Stimulus | None:
        """One try at a stimulus, or None.  The four options are built first (``WORLD``: an object, its mirror
        image, an edited copy and the copy's mirror image), then the original is one of them drawn uniformly:
        every option then stands to the other three as every other does (one mirror image, one edit, one
        mirrored edit), so the options alone cannot tell the answer (it is not, say, the one most like the
        rest), and nothing that rejects a try looks at which one it is."""
        cubes = knobs["cubes"]
        chain = self._chain(rng, cubes, arms)
        names = self._colours(rng, knobs["colouring"], cubes)
        choices = EDITS[knobs["colouring"]]
        edit = choices[int(rng.choice(len(choices), p=[weight for _, weight in choices]))][0]
        edited = self._edit(rng, edit, chain, names, arms)
        if edited is None:
            return None
        members = {
            (False, False): (chain, names, {}),
            (True, False): (chain @ MIRROR.T, names, {}),
            (False, True): edited,
            (True, True): (edited[0] @ MIRROR.T, edited[1], edited[2]),
        }
        if len({canonical(v, c) for v, c, _ in members.values()}) != len(members):
            return None
        # each of them could be the original, shown in a lattice orientation (no shape has a habitual pose) in
        # which every cube shows
        upright = {}
        for key, (voxels, _, _) in members.items():
            turns = rng.permutation(24).tolist()
            upright[key] = next((t for t in turns if every_cube_visible(
                PolycubeView(voxels @ ROTATIONS[t].T, [WHITE] * cubes, np.eye(3)))), None)
            if upright[key] is None:
                return None
        source = WORLD[int(rng.integers(len(WORLD)))]

        def template(key: tuple[bool, bool]) -> str:
            mirrored, edited_ = key[0] != source[0], key[1] != source[1]
            return ("mirrored_" + edit if mirrored else edit) if edited_ else "mirror" if mirrored else "rotation"

        confound = "mirror" if rng.random() < 0.7 else edit

        def rgb(seq: Sequence[str]) -> list[tuple[int, int, int]]:
            return [WHITE if n == MONO else PALETTE[n] for n in seq]

        original, original_names, _ = members[source]
        original = original @ ROTATIONS[upright[source]].T
        query = PolycubeView(original, rgb(original_names), np.eye(3))
        order = [source, *(key for key in WORLD if key != source)]  # the right one first (``_panels_sound``)
        for _ in range(6):
            poses: dict[tuple[bool, bool], tuple[np.ndarray, list[list[Any]]]] = {}
            views = {}
            for key in order:
                voxels, seq, _ = members[key]
                for _ in range(40):
                    matrix, spec = random_pose(rng, knobs["axes"], knobs["angles"])
                    if not readable_pose(matrix) or any(np.abs(matrix - m).max() < 1e-6 for m, _ in poses.values()):
                        continue
                    view = PolycubeView(voxels, rgb(seq), matrix)
                    if every_cube_visible(view):
                        poses[key], views[key] = (matrix, spec), view
                        break
                else:
                    return None
            if self._panels_sound(query, list(views.values()), side):
                break
        else:
            return None

        options = []
        for key in order:
            _, seq, extra = members[key]
            name = template(key)
            role = "correct" if name == "rotation" else "confound" if name == confound else "filler"
            latent = {"pose": poses[key][1], "colours": list(seq), "world": {"mirrored": key[0], "edited": key[1]},
                      **extra}
            options.append(Option(role, name, latent, views[key]))
        facts = {
            "knobs": dict(knobs),
            "arms": arms,
            "cubes": cubes,
            "active_axes": knobs["axes"],
            "edit": edit,
            "original_is": {"mirrored": source[0], "edited": source[1]},
            "rotation": poses[source][1],
            "dominant_axis": max(poses[source][1], key=lambda p: abs(((p[1] + 180) % 360) - 180))[0],
            "original_voxels": original.tolist(),
            "original_colours": list(original_names),
        }
        return Stimulus(query=(query,), query_captions=("Original Shape",), options=options, facts=facts)

    def _panels_sound(self, query: PolycubeView, views: list[PolycubeView], side: int) -> bool:
        """Render every panel at one shared scale; accept if no nuisance feature singles out any option (not
        only the right one, ``views[0]``: what is rejected must not depend on which one is right) and all
        options differ visibly.  Keeps the renders for ``render``."""
        meshes = [query.mesh(), *(v.mesh() for v in views)]
        scale = raster3d.quantised_scale(raster3d.shared_scale(meshes, side), down=True)
        tiles = []
        # the options first: the audit reads only them, and the query is drawn only for a stimulus it keeps
        for view, mesh in zip([*views, query], [*meshes[1:], meshes[0]], strict=True):
            drawn = raster3d.render(mesh, side, scale)
            view.relative_scale = scale / side
            view.cache = {side: drawn.indexed}
            tiles.append(drawn.indexed)
            if len(tiles) == len(views) and not raster3d.panels_clean(tiles, self.nuisance_factor, self.nuisance_floor,
                                                                      self.min_option_difference):
                return False
        return True

    # -- drawing -------------------------------------------------------------------------------------
    def draw_query(self, content: PolycubeView, side: int) -> Image.Image:
        return self.draw_option(content, side)

    def draw_option(self, content: PolycubeView, side: int) -> Image.Image:
        if side not in content.cache:  # normally drawn during build's audit; the scale is the item's
            content.cache[side] = raster3d.render(content.mesh(), side, content.pixel_scale(side)).indexed
        return content.cache[side]

    def render(self, problem: Any) -> list[Image.Image]:
        """The panels placed by the layout as the base class places them, composed as a palette image
        (``raster3d.render_item``)."""
        return raster3d.render_item(self, problem)

    # -- the scene record and its verifier -----------------------------------------------------------------
    def describe(self, content: PolycubeView, side: int) -> dict[str, Any]:
        """Lattice coordinates (path order), cube colours, pose, and how the panel was drawn."""
        return {
            "voxels": content.voxels.tolist(),
            "colours": [list(c) for c in content.colours],
            "rotation": content.matrix.tolist(),
            **raster3d.view_record(content.pixel_scale(side), side),
        }

    def solve_scene(self, scene: Mapping[str, Any]) -> list[int]:
        return verifier.solve_scene(scene)

    def sketch(self, description: Mapping[str, Any], side: int) -> np.ndarray:
        return verifier.sketch(description, side)

    def verify(self, item: Item, images: Sequence[Image.Image]) -> list[str]:
        """The base checks, and every panel's silhouette and cube colours on the pixels (the panels' sketches
        worked out together first, for both)."""
        metadata = item.metadata
        scene = metadata.get("scene") if isinstance(metadata, Mapping) else None
        verifier.prepare(scene)
        return super().verify(item, images) + verifier.pixel_failures(item.metadata["scene"], images[0],
                                                                      prepared=True)


TASK = MentalRotation()
