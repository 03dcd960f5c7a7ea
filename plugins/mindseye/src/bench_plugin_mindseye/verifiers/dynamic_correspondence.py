"""Artefact verifier of Dynamic Structural Correspondence (DSC): which option shows both shapes where their
motions, fitted to the four query frames, put them at t = 1; and whether the pixels show the recorded shapes.

A panel description holds ``view`` (tile pixels = centre + scale * (x, -y) for world coordinates x, y in
[-1, 1]), the pen width, and per shape ("A", "B") its ``shape`` name, ``colour``, ``style`` ("solid" or
"dashed"), ``pose`` (``position``, ``angle``, ``scale`` [a, c], ``shear``: the outline is the shape's base
outline under rotation(angle) @ [[a, a * shear], [0, c]], then moved to ``position``) and the drawn
``vertices`` (world units, rounded).  Query descriptions also hold their time ``t``.

The base outline of each shape is recovered from the first frame's pose and vertices, and every panel's
recorded pose must carry it onto that panel's vertices.  The solver then reads the poses again from the
vertices alone: for every frame, every cyclic labelling of the vertices that an affine map of the base
outline explains gives a pose, and every combination of labellings over the four frames is a reading of the
motion.  A reading holds when each pose quantity follows one of the continuous laws: a constant step, a
period-1 swing (a sine fitted to four samples a quarter period apart), for a size also a constant step of
the size itself, and for the position also a turn about a fixed centre by a constant angle.  Readings are
extrapolated one step to t = 1; if they disagree, the one that moves the vertices least is kept.  An option
is correct when both of its outlines equal the extrapolated ones.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bench_plugin_mindseye.verifiers import line_raster

KEYS = ("A", "B")
TIMES = (0.0, 0.25, 0.5, 0.75)
#: Largest vertex error of an affine reading of an outline (world units; vertices are rounded to 1e-5).
AFFINE_TOLERANCE = 1e-3
#: Largest residual of a law fitted to a pose quantity: position (world units), angle (radians), log size
#: and shear.
LAW_TOLERANCE = {"position": 3e-4, "angle": 1e-3, "log_size": 1e-3, "shear": 1e-3}
#: An option's outline equals a predicted one when no vertex is further than this from the other's (world).
MATCH = 0.01
#: Pixel checks: a colour within this (largest channel difference) of a recorded colour is that colour; the
#: least fraction of a solid outline's centre line, and of a dashed one's, in the shape's colour; the least
#: fraction of a dashed outline's centre line left blank (its gaps); stray ink allowed off both outlines.
COLOUR_MATCH = 80
SOLID_SHOWN = 0.8
DASHED_SHOWN = 0.35
DASHED_GAPS = 0.08
CLEAR_DARKNESS = 100
STRAY_ALLOWED = 3
STRAY_REACH = 2.0
BORDER = 3
#: A solid outline may be off its colour at no more than this many of its centre-line samples (about a pixel
#: apart) clear of the other outline, so that a short gap shows (SOLID_SHOWN alone lets a fifth go): on 400
#: real items of seeds 5 and 7, both canvases, none is.
SOLID_MISSES = 2

_STEPS = np.arange(4.0)
# least-squares projections of the two scalar laws over four samples a quarter period apart
_LINEAR = np.stack([np.ones(4), _STEPS], axis=1)
_SWING = np.stack([np.ones(4), np.sin(np.pi / 2 * _STEPS), np.cos(np.pi / 2 * _STEPS)], axis=1)
_LAWS = []
for _basis, _at_one in ((_LINEAR, np.array([1.0, 4.0])), (_SWING, np.array([1.0, 0.0, 1.0]))):
    _pinv = np.linalg.pinv(_basis)
    _LAWS.append((np.eye(4) - _basis @ _pinv, _at_one @ _pinv))


def _rotation(angle: float) -> np.ndarray:
    return np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])


def pose_matrix(pose: Mapping[str, Any]) -> np.ndarray:
    """The 2x2 linear part of a recorded pose: rotation(angle) @ [[a, a * shear], [0, c]]."""
    a, c = pose["scale"]
    return _rotation(pose["angle"]) @ np.array([[a, a * pose["shear"]], [0.0, c]])


def base_outline(shape: Mapping[str, Any]) -> np.ndarray | None:
    """The shape's base outline read back from one recorded pose and its vertices (None if the recorded pose
    flattens the shape)."""
    v = np.asarray(shape["vertices"], dtype=float)
    m = pose_matrix(shape["pose"])
    if abs(np.linalg.det(m)) < 1e-9:
        return None
    return (v - np.asarray(shape["pose"]["position"], dtype=float)) @ np.linalg.inv(m).T


def hausdorff(p: np.ndarray, q: np.ndarray) -> float:
    """Largest distance from a vertex of either outline to the nearest vertex of the other."""
    d = np.hypot(p[:, None, 0] - q[None, :, 0], p[:, None, 1] - q[None, :, 1])
    return float(max(d.min(axis=1).max(), d.min(axis=0).max()))


def _readings(base: np.ndarray, vertices: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Every (labelling shift, pose) of one outline: pose = (x, y, angle, log a, log c, shear) of an affine
    map of the centred base outline that puts base vertex i on vertex i + shift, to within
    ``AFFINE_TOLERANCE``; (x, y) is the centroid of the vertices.  All labellings are fitted at once."""
    return _readings_of(base, [vertices])[0]


def _readings_of(base: np.ndarray, frames: Sequence[np.ndarray]) -> list[list[tuple[int, np.ndarray]]]:
    """``_readings`` of every frame, all frames at once when they have as many vertices."""
    frames = [np.asarray(v) for v in frames]
    if len({v.shape for v in frames}) > 1:
        return [_readings_of(base, [v])[0] for v in frames]
    centred = base - base.mean(axis=0)
    gram = np.linalg.inv(centred.T @ centred)
    n = len(frames[0])
    # targets[f, shift] = np.roll(frames[f], -shift)
    targets = np.stack(frames)[:, (np.arange(n)[None, :] + np.arange(n)[:, None]) % n]
    centres = targets.mean(axis=2)
    offsets = targets - centres[:, :, None, :]
    maps = np.einsum("fsni,nj->fsij", offsets, centred) @ gram  # per shift: m with centred @ m.T ~ offsets
    error = np.abs(np.einsum("nj,fsij->fsni", centred, maps) - offsets).max(axis=(2, 3))
    det = maps[..., 0, 0] * maps[..., 1, 1] - maps[..., 0, 1] * maps[..., 1, 0]
    angle = np.arctan2(maps[..., 1, 0], maps[..., 0, 0])
    a = np.hypot(maps[..., 0, 0], maps[..., 1, 0])
    # rotation(-angle) @ the second column: its first entry is a * shear, its second c
    upper0 = np.cos(angle) * maps[..., 0, 1] + np.sin(angle) * maps[..., 1, 1]
    upper1 = -np.sin(angle) * maps[..., 0, 1] + np.cos(angle) * maps[..., 1, 1]
    good = (error <= AFFINE_TOLERANCE) & (det > 0) & (upper1 > 0)
    out = []
    for f in range(len(frames)):
        out.append([(shift, np.array([centres[f, shift, 0], centres[f, shift, 1], angle[f, shift],
                                      math.log(a[f, shift]), math.log(upper1[f, shift]),
                                      upper0[f, shift] / a[f, shift]]))
                    for shift in np.flatnonzero(good[f]).tolist()])
    return out


def _scalar_law(series: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """For series (readings x 4): whether a constant step or a period-1 swing fits each, and its value at t = 1
    (the first law that fits)."""
    fits = np.zeros(len(series), dtype=bool)
    value = np.zeros(len(series))
    for residual, at_one in reversed(_LAWS):
        misfit = np.abs(series @ residual.T)
        ok = np.maximum(np.maximum(misfit[:, 0], misfit[:, 1]), np.maximum(misfit[:, 2], misfit[:, 3])) < tolerance
        value = np.where(ok, series @ at_one, value)
        fits |= ok
    return fits, value


def _position_laws(p: np.ndarray) -> list[np.ndarray]:
    """Positions at t = 1 that the four positions (4 x 2) support: each axis by a scalar law, or a turn about a
    fixed centre by a constant angle."""
    tolerance = LAW_TOLERANCE["position"]
    found = []
    fits, value = _scalar_law(p.T, tolerance)
    if fits.all():
        found.append(value)
    if np.ptp(p, axis=0).max() > 10 * tolerance:
        rows = np.column_stack([p, np.ones(4)])
        (d, e, _), *_ = np.linalg.lstsq(rows, -(p**2).sum(axis=1), rcond=None)
        centre = np.array([-d / 2, -e / 2])
        radius = np.hypot(*(p - centre).T)
        phase = np.arctan2(p[:, 1] - centre[1], p[:, 0] - centre[0])
        steps = np.remainder(np.diff(phase) + np.pi, 2 * np.pi) - np.pi
        if (np.ptp(radius) < tolerance and np.ptp(steps) * radius.mean() < tolerance
                and abs(steps.mean()) * radius.mean() > 10 * tolerance):
            turn = phase[3] + steps.mean()
            found.append(centre + radius.mean() * np.array([math.cos(turn), math.sin(turn)]))
    return found


def predict(base: np.ndarray, frames: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The outlines (vertex sets) the shape may have at t = 1 given its outlines at t = 0 ... 0.75: one per
    distinct extrapolation of the readings that hold (see the module docstring)."""
    readings = _readings_of(base, frames)
    if any(not r for r in readings):
        return []
    positions = _position_laws(np.array([r[0][1][:2] for r in readings]))
    if not positions:
        return []
    choice = np.indices([len(r) for r in readings]).reshape(4, -1).T  # combos x 4: a reading per frame
    series = np.stack([np.array([pose for _, pose in r])[choice[:, k]] for k, r in enumerate(readings)], axis=1)
    steps = np.remainder(np.diff(series[:, :, 2], axis=1) + np.pi, 2 * np.pi) - np.pi
    series[:, 1:, 2] = series[:, :1, 2] + np.cumsum(steps, axis=1)
    ok = np.ones(len(choice), dtype=bool)
    pose = np.zeros((len(choice), 4))
    for q, name in ((2, "angle"), (3, "log_size"), (4, "log_size"), (5, "shear")):
        fits, value = _scalar_law(series[:, :, q], LAW_TOLERANCE[name])
        if name == "log_size":  # a size may also change by a constant amount per step
            grows, size = _scalar_law(np.exp(series[:, :, q]), LAW_TOLERANCE[name])
            value = np.where(fits, value, np.log(np.maximum(size, 1e-9)))
            fits |= grows & (size > 0)
        ok &= fits
        pose[:, q - 2] = value
    centred = base - base.mean(axis=0)
    fitting = np.flatnonzero(ok)
    outlines = _distinct(_outlines_of(pose[fitting], positions, centred))
    if len(outlines) <= 1:
        return outlines
    # the readings disagree: keep those that move the vertices least (how far the vertices travel from frame to
    # frame under each reading's labelling)
    labelled = [np.stack([np.roll(frames[k], -shift, axis=0) for shift, _ in r]) for k, r in enumerate(readings)]
    travel = sum(((labelled[k + 1][choice[fitting, k + 1]] - labelled[k][choice[fitting, k]]) ** 2).sum(axis=(1, 2))
                 for k in range(3))
    least = travel.min()
    calm = fitting[travel <= least * (1 + 1e-6) + 1e-12]
    return _distinct(_outlines_of(pose[calm], positions, centred))


def _outlines_of(poses: np.ndarray, positions: Sequence[np.ndarray], centred: np.ndarray) -> np.ndarray:
    """The outlines (k x n x 2) of the readings' (angle, log a, log c, shear) (rows of ``poses``), each at every
    predicted position in turn."""
    angle, log_a, log_c, shear = poses.T
    a, c = np.exp(log_a), np.exp(log_c)
    cos, sin = np.cos(angle), np.sin(angle)
    # rotation(angle) @ [[a, a * shear], [0, c]]
    maps = np.stack([np.stack([cos * a, cos * a * shear - sin * c], axis=1),
                     np.stack([sin * a, sin * a * shear + cos * c], axis=1)], axis=1)
    shapes = np.einsum("nj,kij->kni", centred, maps)
    out = shapes[:, None] + np.asarray(positions, dtype=float)[None, :, None, :]
    return out.reshape(-1, *centred.shape)


def _distinct(outlines: np.ndarray | Sequence[np.ndarray]) -> list[np.ndarray]:
    """The outlines (k x n x 2) with near-duplicates (within a quarter of ``MATCH``) left out: each is kept unless
    an outline kept before it is that close.  (Each kept outline strikes all later ones near it at once.)"""
    if not isinstance(outlines, np.ndarray):
        outlines = np.stack(outlines) if len(outlines) else np.zeros((0, 0, 2))
    kept: list[np.ndarray] = []
    remaining = np.arange(len(outlines))
    while remaining.size:
        first, rest = remaining[0], remaining[1:]
        kept.append(outlines[first])
        remaining = rest[_hausdorff_to(outlines[first], outlines[rest]) > MATCH / 4]
    return kept


def _hausdorff_to(p: np.ndarray, many: np.ndarray) -> np.ndarray:
    """``hausdorff(p, q)`` for every outline q of ``many`` (k x n x 2), with the same arithmetic."""
    d = np.hypot(p[None, :, None, 0] - many[:, None, :, 0], p[None, :, None, 1] - many[:, None, :, 1])
    return np.maximum(d.min(axis=2).max(axis=1), d.min(axis=1).max(axis=1))


def predictions(scene: Mapping[str, Any]) -> dict[str, list[np.ndarray]]:
    """Per shape, the outlines at t = 1 predicted from the query frames."""
    out = {}
    for key in KEYS:
        shapes = [frame["shapes"][key] for frame in scene["query"]]
        frames = [np.asarray(s["vertices"], dtype=float) for s in shapes]
        base = base_outline(shapes[0])
        out[key] = predict(base, frames) if base is not None and len(base) >= 3 else []
    return out


def solve_scene(scene: Mapping[str, Any]) -> list[int]:
    """Indices of the options whose two outlines both equal a predicted outline of their shape.  Predictions
    that differ visibly (by more than ``MATCH``) make the item ambiguous, and an empty prediction leaves it
    unsolved: then no option is returned."""
    predicted = predictions(scene)
    for outlines in predicted.values():
        if not outlines or any(hausdorff(p, q) > MATCH for p in outlines for q in outlines):
            return []
    return [k for k, option in enumerate(scene["options"])
            if all(min(hausdorff(p, np.asarray(option["shapes"][key]["vertices"], dtype=float))
                       for p in predicted[key]) < MATCH for key in KEYS)]


def record_failures(scene: Mapping[str, Any]) -> list[str]:
    """What the record contradicts itself on: query times out of order, a shape whose name, vertex count,
    colour or style changes between panels, two shapes in one colour, and a recorded pose that does not
    carry the shape's base outline onto the panel's vertices."""
    failures = []
    times = [frame.get("t") for frame in scene["query"]]
    if times != list(TIMES):
        failures.append(f"the query frames are recorded at times {times}, not {list(TIMES)}")
    panels = [(f"query {k + 1}", d) for k, d in enumerate(scene["query"])]
    panels += [(f"option {chr(ord('A') + k)}", d) for k, d in enumerate(scene["options"])]
    for key in KEYS:
        first = scene["query"][0]["shapes"][key]
        base = base_outline(first)
        if base is None:
            failures.append(f"query 1: the recorded pose of shape {key} flattens it")
            continue
        for name, panel in panels:
            shape = panel["shapes"][key]
            for field in ("shape", "colour", "style"):
                if shape[field] != first[field]:
                    failures.append(f"{name}: shape {key} has {field} {shape[field]}, query 1 has {first[field]}")
            vertices = np.asarray(shape["vertices"], dtype=float)
            if vertices.shape != base.shape:
                failures.append(f"{name}: shape {key} has {len(vertices)} vertices, query 1 has {len(base)}")
                continue
            carried = base @ pose_matrix(shape["pose"]).T + np.asarray(shape["pose"]["position"], dtype=float)
            if np.abs(carried - vertices).max() > AFFINE_TOLERANCE:
                failures.append(f"{name}: the recorded pose of shape {key} does not give its vertices")
    colours = [scene["query"][0]["shapes"][key]["colour"] for key in KEYS]
    if max(abs(int(x) - int(y)) for x, y in zip(*colours, strict=True)) < COLOUR_MATCH:
        failures.append(f"shapes A and B are drawn in colours {colours} that cannot be told apart")
    return failures


def _outline_px(description: Mapping[str, Any], key: str) -> np.ndarray:
    """The segments (m x 2 x 2, continuous tile pixels) of one shape's closed outline."""
    view = description["view"]
    v = np.asarray(description["shapes"][key]["vertices"], dtype=float)
    px = np.column_stack([view["centre"][0] + view["scale"] * v[:, 0], view["centre"][1] - view["scale"] * v[:, 1]])
    return line_raster.polyline_segments(px, closed=True)


def sketch(description: Mapping[str, Any], side: int) -> np.ndarray:
    """Both outlines stroked in their recorded colours with the recorded pen, shape B over shape A (the dashes
    are not drawn: B is stroked solid)."""
    return sketches([description], side)[0]


def outlines_px(descriptions: Sequence[Mapping[str, Any]]) -> list[dict[str, np.ndarray]]:
    """Per description, the segments of each shape's outline in tile pixels (``_outline_px``): worked out for all
    descriptions at once when each shape has as many vertices in every one (the same arithmetic per vertex), else
    one at a time."""
    try:
        centre = np.array([d["view"]["centre"] for d in descriptions], dtype=float)
        scale = np.array([d["view"]["scale"] for d in descriptions], dtype=float)[:, None]
        per_key = {}
        for key in KEYS:
            v = np.array([d["shapes"][key]["vertices"] for d in descriptions], dtype=float)
            if v.ndim != 3 or v.shape[2] != 2 or centre.shape != (len(descriptions), 2):
                raise ValueError("outlines of unequal size")
            px = np.stack([centre[:, 0, None] + scale * v[:, :, 0], centre[:, 1, None] - scale * v[:, :, 1]], axis=2)
            per_key[key] = np.stack([px, np.roll(px, -1, axis=1)], axis=2)  # ``polyline_segments``, closed
    except (KeyError, TypeError, ValueError):
        return [{key: _outline_px(d, key) for key in KEYS} for d in descriptions]
    return [{key: per_key[key][k] for key in KEYS} for k in range(len(descriptions))]


def sketches(descriptions: Sequence[Mapping[str, Any]], side: int,
             outlines: Sequence[Mapping[str, np.ndarray]] | None = None) -> list[np.ndarray]:
    """``sketch`` of every description (``outlines``: their ``outlines_px`` if already made):
    ``line_raster.paint`` of each outline's ``stroke_coverage``, worked out on the box of pixels each outline's
    stroke reaches (``stroke_counts``, the strokes of all panels grown together: ``stroke_counts_many``; paint
    leaves uncovered pixels as they are)."""
    outlines = outlines if outlines is not None else outlines_px(descriptions)
    found = iter(line_raster.stroke_counts_many([(side, o[key], float(d["pen"]))
                                                 for d, o in zip(descriptions, outlines, strict=True)
                                                 for key in KEYS]))
    out = []
    for description in descriptions:
        image = np.full((side, side, 3), 255, dtype=np.uint8)
        for key in KEYS:
            counted = next(found)
            if counted is None:
                continue
            (x0, y0), counts = counted
            cov = counts.astype(np.float32) / (line_raster.FACTOR * line_raster.FACTOR)
            region = image[y0:y0 + cov.shape[0], x0:x0 + cov.shape[1]]
            # paint's blend on the whole box: where the coverage is 0 it gives the old value back exactly
            c = cov[:, :, None]
            colour = np.asarray(description["shapes"][key]["colour"], dtype=np.float32)
            region[...] = np.rint(region.astype(np.float32) * (1 - c) + colour * c).astype(np.uint8)
        out.append(image)
    return out


def panel_pixel_failures(tile: np.ndarray, description: Mapping[str, Any], name: str) -> list[str]:
    """On one panel's pixels: a solid outline drawn along its recorded edges in its colour (no gap: at most
    ``SOLID_MISSES`` centre-line samples off it), a dashed one in its colour with gaps, and no clear ink off both
    outlines (the frame excluded)."""
    return panels_pixel_failures([(tile, description, name)])[0]


def _samples_of(outlines: Sequence[np.ndarray], step: float) -> list[np.ndarray]:
    """``line_raster.samples(o, step)[0]`` of every outline (segments), from one call on them all: a segment's
    samples depend on it alone."""
    points, owner = line_raster.samples(np.concatenate(outlines), step=step)
    ends = np.cumsum([len(o) for o in outlines])
    cuts = np.searchsorted(owner, ends[:-1])
    return np.split(points, cuts)


def panels_pixel_failures(panels: Sequence[tuple[np.ndarray, Mapping[str, Any], str]],
                          outlines: Sequence[Mapping[str, np.ndarray]] | None = None) -> list[list[str]]:
    """``panel_pixel_failures`` of every (tile, description, name) (``outlines``: the descriptions'
    ``outlines_px`` if already made).  The bands around the outlines are grown on their boxes, those of all
    panels of one reach together (``line_raster.grown_boxes``), and read only where needed: at the centre-line
    samples (``line_raster.read_grown``), and on the clearly inked pixels of their boxes."""
    if not panels:
        return []
    made = outlines if outlines is not None else outlines_px([d for _, d, _ in panels])
    outlines = [o[key] for o in made for key in KEYS]
    fine = _samples_of(outlines, 0.7)  # ``line_raster.near``'s samples
    centre = _samples_of(outlines, 1.0)
    clear_sets: dict[float, list] = {}
    allowed_sets: dict[float, list] = {}
    for k, (tile, description, _) in enumerate(panels):
        side = tile.shape[0]
        pen = float(description["pen"])
        for j in range(2):  # shape A, then B: clear of the other's band; allowed near its own
            clear_sets.setdefault(pen + 2, []).append(((k, j), fine[2 * k + 1 - j], side))
            allowed_sets.setdefault(pen / 2 + STRAY_REACH, []).append(((k, j), fine[2 * k + j], side))
    bands = {}
    for which, sets in (("clear", clear_sets), ("allowed", allowed_sets)):
        for radius, members in sets.items():
            grown = line_raster.grown_boxes([(points, side) for _, points, side in members], radius)
            bands.update({(which, *label): found for (label, _, _), found in zip(members, grown, strict=True)})
    # clear ink (``line_raster.darkness`` above CLEAR_DARKNESS: the darkest channel below 255 - CLEAR_DARKNESS)
    # inside the border, of all panels at once when they are alike
    shapes = {tile.shape for tile, _, _ in panels}
    if len(shapes) == 1 and len(next(iter(shapes))) == 3:
        stack = np.stack([tile for tile, _, _ in panels])
        darks = np.minimum(np.minimum(stack[..., 0], stack[..., 1]), stack[..., 2]) < 255 - CLEAR_DARKNESS
    else:
        darks = [np.minimum(np.minimum(tile[..., 0], tile[..., 1]), tile[..., 2]) < 255 - CLEAR_DARKNESS
                 for tile, _, _ in panels]
    out = []
    for k, (tile, description, name) in enumerate(panels):
        side = tile.shape[0]
        failures = []
        for j, key in enumerate(KEYS):
            shape = description["shapes"][key]
            points = centre[2 * k + j]
            inside = np.floor(points).astype(int).clip(0, side - 1)
            points = points[~line_raster.read_grown(bands["clear", k, j], inside)]  # clear of the other outline
            if len(points) < 8:
                continue  # the shapes overlap almost everywhere: nothing to judge
            colours = line_raster.pixel_at(tile, points)
            own = np.abs(colours - np.asarray(shape["colour"])[None, :]).max(axis=1) < COLOUR_MATCH
            blank = line_raster.darkness(colours) < CLEAR_DARKNESS - 40
            if shape["style"] == "solid" and (own.mean() < SOLID_SHOWN or int(np.count_nonzero(~own)) > SOLID_MISSES):
                failures.append(f"{name}: shape {key} is not drawn as a solid outline in {shape['colour']} where "
                                f"recorded ({own.mean():.0%}, {int(np.count_nonzero(~own))} samples off it)")
            elif shape["style"] == "dashed" and (own.mean() < DASHED_SHOWN or blank.mean() < DASHED_GAPS):
                failures.append(f"{name}: shape {key} is not drawn as a dashed outline in {shape['colour']} where "
                                f"recorded ({own.mean():.0%} in colour, {blank.mean():.0%} gaps)")
        # the clear ink inside the border, less the part of it on the band around both outlines (the band around
        # their union is the union of the bands around each, laid here on the box that holds both)
        dark = darks[k]
        dark[:BORDER], dark[side - BORDER:], dark[:, :BORDER], dark[:, side - BORDER:] = False, False, False, False
        stray = int(np.count_nonzero(dark))
        placed = [found for found in (bands["allowed", k, 0], bands["allowed", k, 1]) if found is not None]
        if placed and stray:
            x0, y0 = min(f[0][0] for f in placed), min(f[0][1] for f in placed)
            x1, y1 = max(f[0][0] + f[1].shape[1] for f in placed), max(f[0][1] + f[1].shape[0] for f in placed)
            band = np.zeros((y1 - y0, x1 - x0), dtype=bool)
            for (bx, by), box in placed:
                band[by - y0:by - y0 + box.shape[0], bx - x0:bx - x0 + box.shape[1]] |= box
            stray -= int(np.count_nonzero(band & dark[y0:y1, x0:x1]))
        if stray > STRAY_ALLOWED:
            failures.append(f"{name}: {stray} ink pixels lie off both recorded outlines")
        out.append(failures)
    return out


def pixel_failures(scene: Mapping[str, Any], image: Any,
                   outlines: Sequence[Mapping[str, np.ndarray]] | None = None) -> list[str]:
    """``panel_pixel_failures`` of every query and option panel cut from the image at its recorded box
    (``outlines``: the ``outlines_px`` of the query panels then the options, if already made)."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb.size
    panels = [(f"query {k + 1}", b, d) for k, (b, d) in enumerate(zip(scene["query_boxes"], scene["query"],
                                                                        strict=True))]
    panels += [(f"option {chr(ord('A') + k)}", b, d)
               for k, (b, d) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True))]
    found: list[list[str] | None] = []
    cut, made = [], []
    for k, (name, (left, top, right, bottom), description) in enumerate(panels):
        if 0 <= left <= right <= width and 0 <= top <= bottom <= height:
            tile = np.asarray(rgb.crop((left, top, right, bottom)))  # only the panel's pixels are converted
        else:  # a box off the canvas: the pixels a slice of the whole image gives
            tile = np.asarray(rgb)[top:bottom, left:right]
        if tile.shape[:2] != (scene["tile"], scene["tile"]):
            found.append([f"{name}: box is not a {scene['tile']} px tile"])
            continue
        found.append(None)
        cut.append((tile, description, name))
        if outlines is not None:
            made.append(outlines[k])
    checked = iter(panels_pixel_failures(cut, made if outlines is not None else None))
    return [f for failures in found for f in (failures if failures is not None else next(checked))]
