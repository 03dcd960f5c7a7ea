"""Verifier of ``sphinx/frieze-groups``: every strip's frieze group is read back from its pixels.

For each strip (its box inside the frame, the period in pixels the record claims, and the span of columns its
copies claim: half a step either side of the first and last copy's centre, ``frieze_span``):

0. no ink lies in the strip outside the span (the frieze lies anywhere along its strip);
1. the span must match itself shifted by the period (tolerant mismatch at most ``HOLD``);
2. columns congruent modulo the period are averaged into one period F, periodic along x;
3. the strip's axis is where its row profile is most symmetric (rows y and K - y);
4. group elements are checked on F: a mirror across a vertical line (F reversed left to right), the reflection
   in the axis (rows reflected about it), the half-turn (both) and a translation shorter than the period.
   For each, the shift along x that lays the transformed F best over F is found by cross-correlation, and the
   tolerant mismatch at that shift decides: the element is there at most ``HOLD``, absent at least ``FAIL``;
   anything between is a failure (the strip would be ambiguous to a person too);
5. the reflection in the axis is a mirror when its shift is 0 modulo the period and a glide when it is half.

The group follows from the elements found (p2mm, p2mg, p2, p1m1, p11m, p11g, p1), three strips must share
one group and the fourth have another, at the answer letter, and the record's group names must agree.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import frieze_words as words
from bench_plugin_sphinx.verifiers.odd_group import has_black_frame, odd_one_failures
from bench_plugin_sphinx.verifiers.periodic import INK, best_shift_from_spectra, darkness, mismatch
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded

HOLD, FAIL = 0.01, 0.04
#: Strips are drawn exactly symmetric: pixels are compared in place (no tolerance), darkness within STEP.
REACH, STEP = 0, 0.1


def _axis(fold: np.ndarray) -> int:
    """K such that rows y and K - y of ``fold`` are most alike in ink (the axis lies at K / 2)."""
    profile = fold.sum(axis=1).astype(np.float64)
    scores = np.convolve(profile, profile)  # scores[K] = sum_y profile[y] * profile[K - y]
    return int(np.argmax(scores))


def _reflect_rows(array: np.ndarray, k: int) -> np.ndarray:
    """Rows y of the result are rows k - y of ``array`` (zero where that row is outside)."""
    out = np.zeros_like(array)
    h = array.shape[0]
    lo, hi = max(0, k - h + 1), min(h, k + 1)
    if lo < hi:
        out[lo:hi] = array[k - np.arange(lo, hi)]
    return out


#: ``mismatch`` at reach 0 on darknesses (``periodic.darkness``) read on the darkest channel itself: a pixel is inked
#: (darkness above ``periodic.INK``) when its darkest channel is at most INK_LOW, and two pixels differ (darkness
#: more than STEP apart) when their darkest channels are at least STEP_LOW apart.
INK_LOW = int(np.ceil(255 * (1 - INK))) - 1
STEP_LOW = int(np.floor(255 * STEP)) + 1


def darkest(strip: np.ndarray) -> np.ndarray:
    """The darkest channel of each pixel of an RGB array, uint8 (h, w): ``periodic.darkness`` before scaling."""
    return np.minimum(np.minimum(strip[:, :, 0], strip[:, :, 1]), strip[:, :, 2])


def period_mismatch(low: np.ndarray, period: int) -> float:
    """``mismatch(dark[:, :-period], dark[:, period:], reach=0, step=STEP)`` of the strip's darknesses ``dark``,
    counted on its darkest channels ``low`` (``darkest``) in whole numbers: the same pixels inked and changed."""
    w = low.shape[1]
    x, y = low[:, : w - period], low[:, period:]
    inked = (x <= INK_LOW) | (y <= INK_LOW)
    total = int(np.count_nonzero(inked))
    if not total:
        return 0.0
    apart = np.abs(x.astype(np.int16) - y) >= STEP_LOW
    return float(np.count_nonzero(inked & apart)) / total


def read_group(strip: np.ndarray, period: int, span: tuple[int, int]
               ) -> tuple[str | None, dict[str, float], list[str]]:
    """(group, measurements, failures) of one strip's pixels (RGB, inside the frame) with the claimed period, read
    on the columns ``span`` (start, stop) the frieze claims (``frieze_span``); ink outside them fails."""
    low = darkest(strip)
    start, stop = span
    if not 0 <= start < stop <= low.shape[1]:
        return None, {}, [f"the claimed span of columns {start}-{stop} does not fit a strip {low.shape[1]} px wide"]
    group, scores, failures = read_darkest(low[:, start:stop], period)
    if (darkness(np.concatenate([low[:, :start], low[:, stop:]], axis=1)) > INK).any():
        failures.insert(0, f"ink lies outside the frieze's span of columns {start}-{stop}")
    return group, scores, failures


def frieze_span(strip: dict, step: int) -> tuple[int, int]:
    """The columns (start, stop) of a strip's box that its frieze claims: from half a ``step`` before its first
    copy's centre to half a step after its last one's (the copies' x on the picture, the box's left edge
    subtracted)."""
    xs = [int(copy["x"]) for copy in strip["copies"]]
    left = int(strip["box"][0])
    return min(xs) - step // 2 - left, max(xs) + step - step // 2 - left


def read_darkest(low: np.ndarray, period: int) -> tuple[str | None, dict[str, float], list[str]]:
    """``read_group`` of a strip given by its pixels' darkest channels ``low`` (``darkest``)."""
    dark = darkness(low)
    h, w = dark.shape
    failures: list[str] = []
    if not 8 <= period <= w:
        return None, {}, [f"the claimed period {period} px does not fit a strip {w} px wide"]
    scores = {"period": period_mismatch(low, period)}
    fold = np.zeros((h, period), np.float32)
    counts = np.zeros(period, np.float32)
    for start in range(0, w, period):
        part = dark[:, start: start + period]
        fold[:, : part.shape[1]] += part
        counts[: part.shape[1]] += 1
    fold /= counts
    k = _axis(fold)
    # the transformed folds (x -> -x modulo the period; rows y -> k - y) and their row-wise spectra: mirroring
    # x conjugates a real spectrum and reflecting rows reorders it, so one transform serves all four checks
    spectrum = np.fft.rfft(fold, axis=1)
    reversed_x = np.roll(fold[:, ::-1], 1, axis=1)
    reflected, reflected_spectrum = _reflect_rows(fold, k), _reflect_rows(spectrum, k)
    moved = {
        "shorter-period": (fold, spectrum),
        "vertical-mirror": (reversed_x, np.conj(spectrum)),
        "axis-reflection": (reflected, reflected_spectrum),
        "half-turn": (np.roll(reflected[:, ::-1], 1, axis=1), np.conj(reflected_spectrum)),
    }
    shifts = {}
    for name, (picture, picture_spectrum) in moved.items():
        exclude = 2 if name == "shorter-period" else None
        shift = best_shift_from_spectra(spectrum, picture_spectrum, period, exclude)
        scores[name] = mismatch(fold, np.roll(picture, shift, axis=1), reach=REACH, step=STEP)
        shifts[name] = shift
    held = {}
    for name, value in scores.items():
        if FAIL > value > HOLD:
            failures.append(f"{name} neither holds nor clearly fails (mismatch {value:.3f})")
        held[name] = value <= HOLD
    if not held["period"]:
        failures.append(f"the strip does not repeat with the claimed period {period} px "
                        f"(mismatch {scores['period']:.3f})")
    if held["shorter-period"]:
        failures.append(f"the strip repeats with a shift shorter than the claimed period {period} px")
    reflection = None
    if held["axis-reflection"]:
        shift = shifts["axis-reflection"]
        offset = min(shift % period, -shift % period)
        if offset <= 2:
            reflection = "mirror"
        elif abs(offset - period / 2) <= 2:
            reflection = "glide"
        else:
            failures.append(f"the reflection in the axis shifts by {shift} px, neither 0 nor half the period")
    group = classify(held["vertical-mirror"], reflection, held["half-turn"])
    if group is None:
        failures.append(f"the elements found (vertical mirror {held['vertical-mirror']}, axis reflection "
                        f"{reflection}, half-turn {held['half-turn']}) form no frieze group")
    return group, scores, failures


def classify(vertical: bool, reflection: str | None, half_turn: bool) -> str | None:
    """The frieze group (IUC) with these elements, or None when they cannot form one."""
    if vertical and half_turn:
        return {"mirror": "p2mm", "glide": "p2mg"}.get(reflection or "")
    if half_turn:
        return "p2" if reflection is None else None
    if vertical:
        return "p1m1" if reflection is None else None
    return {"mirror": "p11m", "glide": "p11g", None: "p1"}[reflection]


def _option_pixels(image, outer, inner) -> tuple[np.ndarray, list[int], list[int]]:
    """(RGB pixels, the option's box in them, the strip's box in them) of an option whose box ``outer`` (its frame)
    and strip box ``inner`` lie on the picture: only the option's box is read, the picture's margins and labels
    are not needed; any other boxes are read off the whole picture as they are."""
    width, height = image.size
    try:
        outer, inner = [int(v) for v in outer], [int(v) for v in inner]
    except (TypeError, ValueError):
        outer = inner = None
    if (outer is None or len(outer) != 4 or len(inner) != 4 or not 0 <= outer[0] < outer[2] <= width
            or not 0 <= outer[1] < outer[3] <= height or not outer[0] <= inner[0] <= inner[2] <= outer[2]
            or not outer[1] <= inner[1] <= inner[3] <= outer[3]):
        return rgb_pixels(image), outer, inner
    x, y = outer[0], outer[1]
    return (rgb_pixels(image.crop(tuple(outer))), [0, 0, outer[2] - x, outer[3] - y],
            [inner[0] - x, inner[1] - y, inner[2] - x, inner[3] - y])


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    if words.DEFINITION not in item.question or not any(stem in item.question for stem in words.STEMS):
        failures.append("the question does not state the frieze definition and one of the task's stems")
    image = images[0] if images[0].mode == "RGB" else images[0].convert("RGB")
    groups = []
    for k, strip in enumerate(scene["strips"]):
        rgb, frame, (left, top, right, bottom) = _option_pixels(image, scene["option_boxes"][k], strip["box"])
        if not has_black_frame(rgb, frame):
            failures.append(f"strip {'abcd'[k]} has no black frame")
        group, _scores, problems = read_group(rgb[top:bottom, left:right], int(strip["period"]),
                                              frieze_span(strip, int(scene["step"])))
        failures += [f"strip {'abcd'[k]}: {p}" for p in problems]
        if group is not None and group != strip["group"]:
            failures.append(f"strip {'abcd'[k]} shows {group} on its pixels, the record says {strip['group']}")
        groups.append(group)
    return [*failures, *odd_one_failures(groups, item.answer, "strip", "strips")]
