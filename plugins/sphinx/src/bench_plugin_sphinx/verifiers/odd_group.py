"""What the frieze and wallpaper verifiers share: four framed options, each showing a group read back from its
pixels, three alike and one odd (verifier-side only: nothing here comes from the tasks' construction)."""

from __future__ import annotations

import numpy as np

LETTERS = "ABCD"
#: The brightest a black frame's pixel may be (any channel).
FRAME_DARK = 60


def has_black_frame(rgb: np.ndarray, box) -> bool:
    """Whether the option ``box`` (left, top, right, bottom) of the RGB array is framed by a black border at
    least two pixels thick on all four sides."""
    left, top, right, bottom = box
    frame = rgb[top:bottom, left:right]
    return max(frame[:2].max(), frame[-2:].max(), frame[:, :2].max(), frame[:, -2:].max()) <= FRAME_DARK


def odd_one_failures(found: list[str | None], answer: str, noun: str, plural: str) -> list[str]:
    """Why the groups ``found`` on the four options (None where unread) do not make ``answer`` the one odd
    option among three alike (empty when they do, or when some group could not be read: that is reported
    where it was read)."""
    if answer not in LETTERS[: len(found)]:
        return [f"answer {answer!r} is not an option letter"]
    if None in found:
        return []
    odd = [k for k in range(len(found)) if sum(g == found[k] for g in found) == 1]
    if len(found) != 4 or len(set(found)) != 2 or len(odd) != 1:
        return [f"the {plural} show groups {found}: not three of one group and one of another"]
    if LETTERS[odd[0]] != answer:
        return [f"{noun} {LETTERS[odd[0]]} is the odd one ({found[odd[0]]} among {found}), but the answer is {answer}"]
    return []
