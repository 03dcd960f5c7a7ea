"""Verifier of ``sphinx/symmetry-fill``: the answer is found on the picture alone.

The grid region is cut out of the PNG; each option tile (frame included) is pasted over the black cell in
turn, and the completed grid is compared with its own mirror image across the line(s) the question names,
pixel by pixel in exact colours.  The option that makes the grid symmetric (at least 99.5 % of its coloured
pixels unchanged) must be the only one (every other leaves at least 3 % changed) and sit at the answer
letter.  The black cell must be black, the option tiles pairwise different.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import symmetry_words as words
from bench_plugin_sphinx.verifiers.pixels import image_keys
from bench_plugin_sphinx.verifiers.records import guarded

SYMMETRIC, ASYMMETRIC = 0.995, 0.97
#: White and black as one integer per pixel, in either channel order (``packed``'s 0xRRGGBB or ``image_keys``'
#: 0xBBGGRR): the checks below only compare colours for equality, so they hold for both.
_WHITE, _BLACK = 0xFFFFFF, 0


def _mirrors(rule: str):
    if rule == "vertical":
        return [np.fliplr]
    if rule == "horizontal":
        return [np.flipud]
    if rule == "both-axes":
        return [np.fliplr, np.flipud]
    if rule == "main-diagonal":
        return [lambda a: a.T]
    return [lambda a: np.rot90(a, 2).T]


def symmetry_score(grid: np.ndarray, rule: str) -> float:
    """The smallest share, over the rule's mirror lines, of coloured pixels of ``grid`` (one integer per colour,
    ``packed`` or ``image_keys``) whose mirror pixel has the same colour."""
    coloured = grid != _WHITE
    total = np.count_nonzero(coloured)
    if not total:
        return 1.0
    # the counts are whole numbers, so this is the mean of the matches over the coloured pixels exactly
    return min(np.count_nonzero((mirror(grid) == grid) & coloured) / total for mirror in _mirrors(rule))


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    rule = scene["rule"]
    if rule not in words.PHRASES or words.PHRASES[rule] not in item.question:
        failures.append(f"the question does not name the rule {rule!r} as the scene records it")
    pixels = image_keys(images[0])
    left, top, right, bottom = scene["grid_region"]
    if right - left != bottom - top:
        return [*failures, f"the grid region {scene['grid_region']} is not square"]
    mask_box = scene["grid_boxes"][scene["mask"]]
    ml, mt, mr, mb = mask_box
    if (pixels[mt:mb, ml:mr] != _BLACK).mean() > 0.01:
        failures.append("the missing cell is not blacked out")
    tiles = []
    for ol, ot, o_r, ob in scene["option_boxes"]:
        if (o_r - ol, ob - ot) != (mr - ml, mb - mt):
            return [*failures, "an option tile differs in size from the grid's cells"]
        tiles.append(pixels[ot:ob, ol:o_r])
    scores = []
    for tile in tiles:
        grid = pixels[top:bottom, left:right].copy()
        grid[mt - top: mb - top, ml - left: mr - left] = tile
        scores.append(symmetry_score(grid, rule))
    fits = [k for k, s in enumerate(scores) if s >= SYMMETRIC]
    unclear = [k for k, s in enumerate(scores) if ASYMMETRIC < s < SYMMETRIC]
    letters = "ABCD"[: len(tiles)]
    if unclear:
        failures.append(f"option(s) {[letters[k] for k in unclear]} neither complete the symmetry nor clearly break it "
                        f"(scores {[round(s, 4) for s in scores]})")
    if len(fits) != 1:
        failures.append(f"{len(fits)} options complete the grid's {rule} symmetry (scores "
                        f"{[round(s, 4) for s in scores]}), not exactly one")
    elif letters[fits[0]] != item.answer:
        failures.append(f"option {letters[fits[0]]} completes the grid's {rule} symmetry, but the answer is "
                        f"{item.answer}")
    for a in range(len(tiles)):
        for b in range(a + 1, len(tiles)):
            coloured = (tiles[a] != _WHITE) | (tiles[b] != _WHITE)
            if not coloured.any() or (tiles[a] != tiles[b])[coloured].mean() < 0.05:
                failures.append(f"options {letters[a]} and {letters[b]} look the same")
    return failures
