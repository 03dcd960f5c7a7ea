"""Mental Transformation (MT, paper §3.2, App. C, Table 11; spec §2.6): a polycube labelled "Original Shape"
above four candidates; exactly one is the original turned by a pure rotation.

Shapes are random Shepard-Metzler-like chains of straight arms meeting at right angles, non-planar, chiral
(the mirror image is never a rotation of the original) and without rotational self-symmetry.  Every option is
shown in a pose drawn from one distribution (1-3 active axes, right or oblique angles), so pose carries no
cue.  Wrong options come from named templates, each tied to a reasoning error (App. D "distractor
taxonomy": mirrored objects and varying colour sequence; §3.2: reflections taken for rotations and off-by-theta
rotation errors; spec §7.1):

* ``mirror`` - the original reflected, then turned: a reflection taken for a rotation (the usual confound);
* ``off_by_theta`` - the original with its first or last arm turned by 90/180/270 degrees about the arm it
  joins: part of the object rotated by a wrong angle ("misplaced parts after rotation", Fig 18);
* ``similar_shape`` - another chain with as many cubes and arms (and the same colour sequence), neither
  congruent nor mirror-congruent to the original;
* ``colour_permuted`` - with varied colours only: the correct geometry with two cube colours swapped (the
  paper's "varying colour sequence" confound).  It always comes with a ``mirror``, which keeps the colour
  sequence but not the geometry, so neither geometry alone nor colour order alone picks the answer.

The question says that every cube keeps its colour, so the ``colour_permuted`` foil is wrong by the stated
rule, not only by the template.  Each panel's scene record holds the lattice coordinates, cube colours and
the pose (rounded to 6 decimals before drawing), and the camera, scale (a multiple of 1/64 pixel), light and
outline width it was drawn with; ``verifiers.mental_rotation`` solves and checks the pixels from those alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from PIL import Image

from bench_core.types import Item
from bench_plugin_mindseye import raster3d
from bench_plugin_mindseye.base import MindsEyeTask
from bench_plugin_mindseye.options import Option, Stimulus
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


def canonical(voxels: np.ndarray, colours: Sequence[Any] | None = None) -> tuple:
    """A key equal for two coloured voxel sets iff one is a proper rotation plus translation of the other."""
    voxels = np.asarray(voxels, dtype=np.int64)
    tags = [0] * len(voxels) if colours is None else [str(c) for c in colours]
    best = None
    for m in ROTATIONS:
        turned = voxels @ m.T
        turned -= turned.min(axis=0)
        key = tuple(sorted(zip(map(tuple, turned.tolist()), tags, strict=True)))
        if best is None or key < best:
            best = key
    return best


def self_symmetries(voxels: np.ndarray, colours: Sequence[Any] | None = None) -> int:
    """How many of the 24 rotations map the (coloured) voxel set onto itself (1 = no self-symmetry)."""
    voxels = np.asarray(voxels, dtype=np.int64)
    tags = [0] * len(voxels) if colours is None else [str(c) for c in colours]

    def key(v: np.ndarray) -> frozenset:
        v = v - v.min(axis=0)
        return frozenset(zip(map(tuple, v.tolist()), tags, strict=True))

    base = key(voxels)
    return sum(key(voxels @ m.T) == base for m in ROTATIONS)


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


def random_pose(rng: np.random.Generator, axes: int, angles: str) -> tuple[np.ndarray, list[list[Any]]]:
    """A rotation about ``axes`` distinct world axes (applied x, then y, then z), each by an angle from the
    set; with 2-3 axes, compositions that reduce to a turn about a single axis are redrawn (so the knob means
    what it says).  Returns the matrix and [[axis, degrees], ...]."""
    choices = ANGLES[angles]
    for _ in range(100):
        chosen = sorted(rng.choice(3, size=axes, replace=False).tolist())
        degrees = [int(rng.choice(choices)) for _ in chosen]
        if angles == "oblique" and not any(d % 90 for d in degrees):
            continue
        matrix = np.eye(3)
        for a, d in zip(chosen, degrees, strict=True):
            matrix = raster3d.rotation("xyz"[a], d) @ matrix
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
    unsmoothed render; the fraction does not depend on the scale)."""
    mesh = view.mesh()
    scale = raster3d.shared_scale([mesh], side)
    visible = raster3d.visible_pixels(mesh, side, scale)
    per_cube = np.bincount(mesh.owners, weights=visible, minlength=len(view.voxels))
    return bool(per_cube.min() >= MIN_VISIBLE * scale**2)


class MentalRotation(MindsEyeTask):
    """MT: choose the option that is the original polycube turned by a pure rotation."""

    code = "MT"
    art = "transformation"
    texts = PromptTexts(
        question=(
            "The top panel, labelled Original Shape, shows an object built from cubes. Each of the four figures "
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

    # -- generation ----------------------------------------------------------------------------------
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

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any]) -> Stimulus:
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

    def _attempt(self, rng: np.random.Generator, knobs: Mapping[str, Any], arms: int, side: int) -> Stimulus | None:
        cubes = knobs["cubes"]
        chain = self._chain(rng, cubes, arms)
        # the original is presented in a random lattice orientation (no shape has a habitual pose) in which
        # every cube shows
        for turn in rng.permutation(24).tolist():
            if every_cube_visible(PolycubeView(chain @ ROTATIONS[turn].T, [WHITE] * cubes, np.eye(3))):
                chain = chain @ ROTATIONS[turn].T
                break
        else:
            return None
        names = self._colours(rng, knobs["colouring"], cubes)
        geometry = canonical(chain)
        mirrored = chain @ MIRROR.T
        mirror_geometry = canonical(mirrored)

        # -- wrong shapes --------------------------------------------------------------------------
        twisted = None
        for first, turns in rng.permutation([(f, t) for f in (False, True) for t in (1, 2, 3)]).tolist():
            candidate = twist_end_arm(chain, bool(first), int(turns))
            if candidate is not None and canonical(candidate) not in (geometry, mirror_geometry):
                twisted, twist = candidate, {"end": "first" if first else "last", "degrees": 90 * int(turns)}
                break
        other = None
        for _ in range(40):
            candidate = random_chain(rng, cubes, arms)
            if candidate is None:
                continue
            key = canonical(candidate)
            if key not in (geometry, mirror_geometry) and (twisted is None or key != canonical(twisted)):
                other = candidate @ ROTATIONS[int(rng.integers(24))].T
                break
        swapped = None
        if knobs["colouring"] == "varied":
            pairs = [(i, j) for i in range(cubes) for j in range(i + 2, cubes) if names[i] != names[j]]
            for i, j in rng.permutation(pairs).tolist():
                seq = list(names)
                seq[i], seq[j] = seq[j], seq[i]
                if any(seq[k] == seq[k + 1] for k in range(cubes - 1)):
                    continue  # keep "neighbours differ", or the foil would stand out by it
                if canonical(chain, seq) != canonical(chain, names):
                    swapped = (seq, (i, j))
                    break

        # -- which templates: mono has mirror, off_by_theta, similar_shape; varied pairs the colour foil
        # with a mirror and adds one of the two shape foils
        if knobs["colouring"] == "varied":
            if swapped is None:
                return None
            third = "off_by_theta" if rng.random() < 0.5 else "similar_shape"
            templates = ["mirror", "colour_permuted", third]
            confound = "mirror" if rng.random() < 0.7 else "colour_permuted"
        else:
            templates = ["mirror", "off_by_theta", "similar_shape"]
            confound = "mirror" if rng.random() < 0.75 else "off_by_theta"
        if ("off_by_theta" in templates and twisted is None) or ("similar_shape" in templates and other is None):
            return None

        shapes: dict[str, tuple[np.ndarray, list[str], dict[str, Any]]] = {
            "correct": (chain, names, {}),
            "mirror": (mirrored, names, {"reflected_axis": "x"}),
        }
        if "off_by_theta" in templates:
            shapes["off_by_theta"] = (twisted, names, {"twisted_arm": twist})
        if "similar_shape" in templates:
            shapes["similar_shape"] = (other, names, {})
        if "colour_permuted" in templates:
            shapes["colour_permuted"] = (chain, swapped[0], {"swapped_cubes": list(swapped[1])})
        keys = [canonical(v, c) for v, c, _ in shapes.values()]
        if len(set(keys)) != len(keys):
            return None

        def rgb(seq: Sequence[str]) -> list[tuple[int, int, int]]:
            return [WHITE if n == MONO else PALETTE[n] for n in seq]

        query = PolycubeView(chain, rgb(names), np.eye(3))
        for _ in range(6):
            poses: dict[str, tuple[np.ndarray, list[list[Any]]]] = {}
            views = {}
            for name, (voxels, seq, _) in shapes.items():
                for _ in range(40):
                    matrix, spec = random_pose(rng, knobs["axes"], knobs["angles"])
                    if not readable_pose(matrix) or any(np.abs(matrix - m).max() < 1e-6 for m, _ in poses.values()):
                        continue
                    view = PolycubeView(voxels, rgb(seq), matrix)
                    if every_cube_visible(view):
                        poses[name], views[name] = (matrix, spec), view
                        break
                else:
                    return None
            if self._panels_sound(query, list(views.values()), side):
                break
        else:
            return None

        options = []
        for name, (_, seq, extra) in shapes.items():
            role = "correct" if name == "correct" else "confound" if name == confound else "filler"
            latent = {"pose": poses[name][1], "colours": list(seq), **extra}
            options.append(Option(role, "rotation" if name == "correct" else name, latent, views[name]))
        facts = {
            "knobs": dict(knobs),
            "arms": arms,
            "cubes": cubes,
            "active_axes": knobs["axes"],
            "rotation": poses["correct"][1],
            "dominant_axis": max(poses["correct"][1], key=lambda p: abs(((p[1] + 180) % 360) - 180))[0],
            "original_voxels": chain.tolist(),
            "original_colours": list(names),
        }
        return Stimulus(query=(query,), query_captions=("Original Shape",), options=options, facts=facts)

    def _panels_sound(self, query: PolycubeView, views: list[PolycubeView], side: int) -> bool:
        """Render every panel at one shared scale; accept if no nuisance feature singles out the correct option
        (``views[0]``) and all options differ visibly.  Keeps the renders for ``render``."""
        meshes = [query.mesh(), *(v.mesh() for v in views)]
        scale = raster3d.quantised_scale(raster3d.shared_scale(meshes, side), down=True)
        tiles = []
        for view, mesh in zip([query, *views], meshes, strict=True):
            drawn = raster3d.render(mesh, side, scale)
            view.relative_scale = scale / side
            view.cache = {side: drawn.image}
            tiles.append(drawn.image)
        return raster3d.nuisance_clean(tiles[1:], 0, self.nuisance_factor, self.nuisance_floor,
                                       self.min_option_difference)

    # -- drawing -------------------------------------------------------------------------------------
    def draw_query(self, content: PolycubeView, side: int) -> Image.Image:
        return self.draw_option(content, side)

    def draw_option(self, content: PolycubeView, side: int) -> Image.Image:
        if side not in content.cache:  # normally drawn during build's audit; the scale is the item's
            content.cache[side] = raster3d.render(content.mesh(), side, content.pixel_scale(side)).image
        return content.cache[side]

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
        """The base checks, and every panel's silhouette and cube colours on the pixels."""
        return super().verify(item, images) + verifier.pixel_failures(item.metadata["scene"], images[0])


TASK = MentalRotation()
