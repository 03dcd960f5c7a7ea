"""The artefact verifier of ``marvl/transformation``: from the scene record alone, apply each of the five
options to the recorded function f with this module's own code, show that exactly the answer's option
reproduces Plot B = T f (T the recorded transformation), and confirm on the pixels that the left panel
shows f and the right panel T f.

Everything is computed on the drawn samples: f is evaluated by ``surfaces`` on the window's pixel-centre
grid extended by the largest translation the question allows (25 % of the window per side), so that
every option is an exact index map of that array: a quarter turn or a half turn of the window part (a
pixel-centred square grid maps onto itself), or a whole-sample shift.  Two pictures are "the same" when
their root-mean-square difference in display space (values mapped through the colour range to [0, 1],
clipped) is below 0.07 (the task's similarity threshold); a translation option is correct if any shift
along its axis within the allowed range reproduces B.  The smallest error over all shifts comes from the
cross-correlation of B with the extended array (by FFT along the shift axis); a wrong translation is first
screened with the same search on lines averaged in blocks, a lower bound of that smallest error, and is
searched in full only when the bound does not already clear the threshold.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bench_core import Item
from bench_plugin_marvl.verifiers import surfaces
from bench_plugin_marvl.verifiers.pixels import Plot, check_plot

#: The options' texts (the paper's wording) and the transformation each names.
OPTIONS: dict[str, str] = {
    "Rotation 90 degrees clockwise": "r90",
    "Rotation 180 degrees": "r180",
    "Translation in X": "tx",
    "Translation in Y": "ty",
    "No Change": "none",
}
#: Root-mean-square display difference below which two plots are the same picture.
SIMILARITY = 0.07
#: Largest translation, as a fraction of the window side (the question says so).
MAX_SHIFT = 0.25
#: Largest error of the answer's own option (it reproduces B up to the drawn values' rounding).
EXACT = 1e-3
#: Lines averaged into one by the lower bound that screens a wrong translation (``_shift_floor``), and how
#: far above a threshold that bound must lie to settle the verdict (far above the FFT's rounding).
FLOOR_BLOCK = 20
FLOOR_SLACK = 1e-6


def verify(item: Item, images: Sequence[Any], stats: dict[str, Any] | None = None) -> list[str]:
    """Every failure of a ``marvl/transformation`` item (the errors of every option go into ``stats``; a
    translation settled by its lower bound (``option_errors``' ``screen``) has that bound and a shift of None)."""
    stats = {} if stats is None else stats
    scene = item.metadata["scene"]
    try:
        name = scene["function"]["family"]
        params = scene["function"]["params"]
        n = int(scene["sampling"]["samples"])
        extent = [float(v) for v in scene["sampling"]["extent"]]
        move = scene["transformation"]
        kind, steps = move["kind"], int(move["shift_samples"])
        lo, hi = (float(v) for v in scene["value_range"])
        panels = list(scene["panels"])
    except (KeyError, TypeError, ValueError) as exc:
        return [f"the scene record lacks {exc}"]
    if name not in surfaces.KNOWN:
        return [f"unknown function family {name!r} in the scene record"]
    failures = _option_failures(item, scene)
    failures += _geometry_failures(extent, n, kind, steps, move)
    margin = math.floor(MAX_SHIFT * n)
    if kind not in ("r90", "r180", "tx", "ty") or abs(steps) > margin:
        return failures  # no Plot B to derive
    side = extent[1] - extent[0]
    k = np.arange(n + 2 * margin) - margin + 0.5
    try:
        ext = surfaces.grid(name, params, extent[0] + k * side / n, extent[2] + k * (extent[3] - extent[2]) / n)
    except surfaces.BadParameters as exc:
        return [*failures, str(exc)]
    if not np.isfinite(ext).all():
        return [*failures, "the recorded function is undefined on the window"]
    a = ext[margin:margin + n, margin:margin + n]
    b = moved(ext, margin, kind, steps)
    failures += _range_failures(a, b, lo, hi, bool(scene.get("range_clipped")), int(scene["sampling"]["decimals"]))
    if not hi > lo:
        return failures
    errors = option_errors(ext, margin, b, lo, hi, (kind, steps), screen=SIMILARITY)
    stats.update(errors)
    close = [key for key in ("r90", "r180", "tx", "ty", "none") if errors[key] < SIMILARITY]
    if close != [kind]:
        detail = ", ".join(f"{key} {errors[key]:.4f}" for key in ("r90", "r180", "tx", "ty", "none"))
        failures.append(f"options reproducing Plot B: {close or 'none'}, expected only {kind} ({detail})")
    elif errors[kind] > EXACT:
        failures.append(f"Plot B is not exactly f under {kind} (error {errors[kind]:.4f})")
    if images:
        image = images[0] if images[0].mode == "RGB" else images[0].convert("RGB")
        failures += _pixel_failures(scene, panels, a, b, np.asarray(image), stats)
    return failures


def moved(ext: np.ndarray, margin: int, kind: str, steps: int = 0) -> np.ndarray:
    """Plot B for ``kind`` from the extended array of f: the sample of B at row i, column j (rows up the y
    axis) shows f where the inverse movement takes it.

    A clockwise quarter turn about the window centre sends the point at offset (dx, dy) to (dy, -dx), so
    B at offset (u, v) shows f at (-v, u): row j, column n-1-i of the window.  A half turn shows f at
    (-u, -v).  A shift by s samples along x (content moving right for s > 0) shows f at column j - s."""
    n = ext.shape[0] - 2 * margin
    window = ext[margin:margin + n, margin:margin + n]
    if kind == "r90":
        return window[:, ::-1].T  # [i, j] -> window[j, n - 1 - i]
    if kind == "r180":
        return window[::-1, ::-1]
    if kind == "tx":
        return ext[margin:margin + n, margin - steps:margin - steps + n]
    if kind == "ty":
        return ext[margin - steps:margin - steps + n, margin:margin + n]
    if kind == "none":
        return window
    raise ValueError(f"unknown transformation {kind!r}")


def display(z: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Values as the plots show them: their place in the colour range, clipped to [0, 1]."""
    shown = np.subtract(z, lo)  # worked in one array: grid-sized temporaries are fresh pages of memory
    shown /= hi - lo
    return np.clip(shown, 0.0, 1.0, out=shown)


def option_errors(ext: np.ndarray, margin: int, b: np.ndarray, lo: float, hi: float,
                  recorded: tuple[str, int] | None = None, screen: float | None = None) -> dict[str, Any]:
    """Root-mean-square display difference between B and what each option makes of f; translations at
    their best shift within ``margin`` samples either way (their shift is reported as ``tx_shift`` /
    ``ty_shift``).

    ``recorded`` = (kind, shift samples) of the item's own transformation, when ``b`` is ``moved(ext,
    margin, kind, shift)``: B is then read from the displayed extension (display space commutes with the
    index maps of ``moved``), and a translation's own axis is measured at its recorded shift alone when
    that already reproduces B within ``EXACT`` (the best shift can only be closer, and the verdict only
    asks whether the error is below ``EXACT`` and ``SIMILARITY``): one cross-correlation fewer.

    ``screen`` (a threshold, e.g. ``SIMILARITY``): a translation whose lower bound over every shift
    (``_shift_floor``) is at least ``FLOOR_SLACK`` above it gets that bound as its error and None as its shift
    (its error is certainly above the threshold, and the full search is skipped); the other translations are
    searched in full, so every error below the threshold, or near it, is the exact one."""
    shown = display(ext, lo, hi)
    target = display(b, lo, hi) if recorded is None else moved(shown, margin, *recorded)
    errors: dict[str, Any] = {}
    for key in ("r90", "r180", "none"):
        errors[key] = _rms(target - moved(shown, margin, key))
    for key, axis in (("tx", 1), ("ty", 0)):
        if recorded is not None and recorded[0] == key and abs(recorded[1]) <= margin:
            error = _rms(target - moved(shown, margin, key, recorded[1]))
            if error <= EXACT:
                errors[key], errors[f"{key}_shift"] = error, recorded[1]
                continue
        if screen is not None:
            floor = _shift_floor(target, shown, margin, axis)
            if floor is not None and floor >= screen + FLOOR_SLACK:
                errors[key], errors[f"{key}_shift"] = floor, None
                continue
        profile = _shift_profile(target, shown, margin, axis)
        best = int(np.argmin(profile))
        errors[key] = float(profile[best])
        errors[f"{key}_shift"] = best - margin
    return errors


def _rms(difference: np.ndarray) -> float:
    return float(np.sqrt(np.mean(difference * difference)))


def _shift_profile(target: np.ndarray, shown: np.ndarray, margin: int, axis: int) -> np.ndarray:
    """RMS difference between ``target`` and the window of ``shown`` moved by s = -margin..margin samples
    along ``axis`` (entry s + margin), from sum(t^2) + sum(w^2) - 2 sum(t w) with the cross term by FFT."""
    return _strip_profile(target, _strip(shown, margin, target.shape[0], axis), margin, axis)


def _strip(shown: np.ndarray, margin: int, n: int, axis: int) -> np.ndarray:
    """The window's lines along the shift ``axis``, with all of the extension's samples along it (the
    transforms run along ``axis`` of the arrays as stored: transposing first would make every transform
    gather its samples)."""
    return shown[margin:margin + n, :] if axis == 1 else shown[:, margin:margin + n]


def _shift_floor(target: np.ndarray, shown: np.ndarray, margin: int, axis: int) -> float | None:
    """A lower bound of the smallest entry of ``_shift_profile`` (None if the window's side is not a multiple
    of ``FLOOR_BLOCK``): the same search on the window's lines averaged in blocks of FLOOR_BLOCK across the
    shift axis.  A shift along the lines moves every line of a block alike, and within a block the squared
    differences of k lines sum to at least k times the square of their mean difference (Cauchy-Schwarz), so
    every shift's mean squared difference is at least that of the block means.  A 20th of the work."""
    n, k = target.shape[0], FLOOR_BLOCK
    if n % k:
        return None
    strip = _strip(shown, margin, n, axis)
    if axis == 1:  # lines are rows: average blocks of k rows
        blocks = strip.reshape(n // k, k, -1).mean(axis=1), target.reshape(n // k, k, n).mean(axis=1)
    else:  # lines are columns: average blocks of k columns
        blocks = strip.reshape(-1, n // k, k).mean(axis=2), target.reshape(n, n // k, k).mean(axis=2)
    return float(_strip_profile(blocks[1], blocks[0], margin, axis).min())


def _strip_profile(target: np.ndarray, strip: np.ndarray, margin: int, axis: int) -> np.ndarray:
    """``_shift_profile`` of ``target`` against the lines ``strip`` (``_strip``; any number of lines, as
    many as ``target`` has)."""
    n = target.shape[axis]  # the window's length along the shift
    across = 1 - axis  # the axis the lines of the window run across (summed over)
    size = strip.shape[axis]  # lags 0..2 margin never wrap around: t + j <= 2 margin + n - 1 < size
    spectrum = np.fft.rfft(strip, size, axis=axis) * np.conj(np.fft.rfft(target, size, axis=axis))
    cross = np.fft.irfft(spectrum.sum(axis=across), size)  # cross[t] = sum_ij strip[i, t + j] target[i, j]
    offsets = np.arange(2 * margin + 1)  # window starts at column t = margin - s
    starts = margin - (offsets - margin)
    column_energy = np.concatenate(([0.0], np.cumsum((strip * strip).sum(axis=across))))
    window_energy = column_energy[starts + n] - column_energy[starts]
    total = float((target * target).sum()) + window_energy - 2.0 * cross[starts]
    return np.sqrt(np.maximum(total, 0.0) / target.size)


def _option_failures(item: Item, scene: Mapping[str, Any]) -> list[str]:
    """The options are the five transformations, the scene lists them in the same order, and the answer
    numbers the recorded transformation."""
    options = list(item.options or ())
    keys = [OPTIONS.get(text.strip()) for text in options]
    if None in keys or sorted(keys) != sorted(OPTIONS.values()):
        return [f"the options {options} are not the five transformations"]
    failures = []
    if list(scene.get("options") or []) != keys:
        failures.append(f"the scene lists the options as {scene.get('options')}, the item shows {keys}")
    kind = scene["transformation"]["kind"]
    if kind not in keys or kind == "none":
        return [*failures, f"the recorded transformation {kind!r} is not one of the four movements"]
    if item.answer.strip() != str(keys.index(kind) + 1):
        failures.append(f"answer {item.answer!r} is not the number {keys.index(kind) + 1} of "
                        f"{options[keys.index(kind)]!r}")
    return failures


def _geometry_failures(extent: Sequence[float], n: int, kind: str, steps: int, move: Mapping[str, Any]
                       ) -> list[str]:
    """A square window, and a shift that is a whole number of samples within the allowed range."""
    xmin, xmax, ymin, ymax = extent
    side = xmax - xmin
    failures = []
    if not (side > 0 and math.isclose(side, ymax - ymin, rel_tol=1e-9)):
        failures.append(f"the window {list(extent)} is not a square")
    if kind in ("tx", "ty"):
        if not 0 < abs(steps) <= MAX_SHIFT * n:
            failures.append(f"the transformation's shift of {steps} samples is not within {MAX_SHIFT:.0%} of {n}")
        if not math.isclose(float(move.get("shift", math.nan)), steps * side / n, abs_tol=1e-5 * side):
            failures.append(f"the transformation's shift {move.get('shift')} is not {steps} samples")
    elif steps != 0:
        failures.append(f"a {kind} transformation with a shift of {steps} samples")
    centre = move.get("centre")
    if centre is None or not (math.isclose(centre[0], (xmin + xmax) / 2, abs_tol=1e-5 * side)
                              and math.isclose(centre[1], (ymin + ymax) / 2, abs_tol=1e-5 * side)):
        failures.append(f"the transformation's centre {centre} is not the window's centre")
    return failures


def _range_failures(a: np.ndarray, b: np.ndarray, lo: float, hi: float, clipped: bool, decimals: int) -> list[str]:
    """The colour range is the range of the drawn values (cut at a far tail only where recorded so)."""
    # the two grids one after the other, not joined: the same min, max and share (a count over a size)
    low, high = min(float(a.min()), float(b.min())), max(float(a.max()), float(b.max()))
    slack = 10.0 ** -decimals + 1e-9 * max(abs(low), abs(high))
    if not hi > lo:
        return [f"empty colour range {[lo, hi]}"]
    if clipped:
        held = sum(int(np.count_nonzero((g >= lo - slack) & (g <= hi + slack))) for g in (a, b))
        inside = held / (a.size + b.size)
        if lo < low - slack or hi > high + slack or inside < 0.98:
            return [f"the clipped colour range {[lo, hi]} does not hold the body of the values {[low, high]}"]
        return []
    if abs(lo - low) > slack or abs(hi - high) > slack:
        return [f"colour range {[lo, hi]} is not the range {[low, high]} of the drawn values"]
    return []


def _pixel_failures(scene: Mapping[str, Any], panels: Sequence[Mapping[str, Any]], a: np.ndarray, b: np.ndarray,
                    pixels: np.ndarray, stats: dict[str, Any]) -> list[str]:
    """Plot A on the left shows f, Plot B on the right shows T f, and both carry the same axes."""
    if len(panels) != 2 or [p.get("plot") for p in panels] != ["A", "B"]:
        return [f"the scene's panels are {[p.get('plot') for p in panels]}, not A then B"]
    if not panels[0]["box"][2] <= panels[1]["box"][0]:
        return ["Plot A's panel is not left of Plot B's"]
    failures = []
    for panel, grid in zip(panels, (a, b), strict=True):
        style, kind, colormap = panel.get("style"), panel.get("plot_type"), panel.get("colormap")
        if style != (kind if colormap is None else f"{kind}-{colormap}"):
            failures.append(f"Plot {panel['plot']}: style {style!r} disagrees with {kind!r} and {colormap!r}")
            continue
        measured: dict[str, float] = {}
        failures += check_plot(pixels, Plot.from_record(panel, scene), grid, f"Plot {panel['plot']}", measured)
        stats.update({f"{panel['plot']}.{key}": value for key, value in measured.items()})
    return failures + _axes_failures(pixels, panels)


def _axes_failures(pixels: np.ndarray, panels: Sequence[Mapping[str, Any]]) -> list[str]:
    """The strips under and left of the two plot areas (tick marks, tick labels, axis labels) are
    pixel-identical: both plots share one window and nothing in the axes tells them apart."""
    (la, ta, ra, ba), (lb, tb, rb, bb) = ([round(v) for v in p["box"]] for p in panels)
    if (ra - la, ba - ta) != (rb - lb, bb - tb):
        return ["the two plot areas differ in size"]
    failures = []
    if not np.array_equal(pixels[ba + 3:, la:ra], pixels[bb + 3:, lb:rb]):
        failures.append("the x axes of Plot A and Plot B differ")
    width = min(la, lb - ra)
    if not np.array_equal(pixels[ta:ba, la - width:la - 2], pixels[tb:bb, lb - width:lb - 2]):
        failures.append("the y axes of Plot A and Plot B differ")
    return failures
