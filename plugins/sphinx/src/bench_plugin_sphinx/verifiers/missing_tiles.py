"""Verifier of ``sphinx/missing-tiles``: the blank region, the options and (color variant) the colour
pattern are read from the picture.

Every recorded board and option cell is read on the pixels (``cellfill``): the blank region is the board
cells that show white, and must be the recorded one; visible cells and option cells must show their
recorded colours, and nothing else may be drawn on the board or inside a card.  Then:

- color: the pattern's periods are inferred from the visible cells alone: a translation between two cells
  of the same shape and orientation is a period when every pair of visible cells it joins shows one colour
  (and it joins at least one).  Each blank cell's colour is read off a visible cell one period away; every
  such reading must agree.  An option fits when it shows the region in place (its cells a translate of the
  blank cells, in order) with every cell in its inferred colour.
- shape: an option fits when its cells can be turned, mirrored and moved exactly onto the blank cells
  (``assembly.congruent``, a search of its own).

Exactly one option may fit, at the answer's letter.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import missing_words as words
from bench_plugin_sphinx.verifiers import assembly, cellfill
from bench_plugin_sphinx.verifiers.records import guarded

ROUND = 3


def _centre(poly) -> tuple[float, float]:
    return sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)


def _form(poly) -> tuple:
    cx, cy = _centre(poly)
    return tuple(sorted((round(x - cx, ROUND), round(y - cy, ROUND)) for x, y in poly))


def _forms_and_centres(polys) -> tuple[list[tuple], list[tuple[float, float]]]:
    """``[_form(p) ...]`` and ``[_centre(p) ...]`` of every polygon, computed for all at once (the same
    additions in the same order, and ``_rounded`` rounds as ``round``) when they have one vertex count."""
    xy = np.array(polys, dtype=np.float64) if polys and len({len(p) for p in polys}) == 1 else None
    if xy is None or xy.ndim != 3 or xy.shape[2] != 2:
        return [_form(p) for p in polys], [_centre(p) for p in polys]
    total = np.zeros((len(polys), 2))
    for k in range(xy.shape[1]):
        total = total + xy[:, k]
    centre = total / xy.shape[1]
    offsets = _rounded(xy - centre[:, None, :]).tolist()
    forms = [tuple(sorted(map(tuple, cell))) for cell in offsets]
    return forms, list(map(tuple, centre.tolist()))


def infer_colours(polys, colours: list[str | None]) -> tuple[dict[int, str], list[str]]:
    """({blank cell: its colour under the inferred periods}, failures) for a board whose blank cells have
    colour None."""
    forms, centres = _forms_and_centres(polys)
    at = {(forms[k], round(x, ROUND), round(y, ROUND)): k for k, (x, y) in enumerate(centres)}
    periods = _periods(forms, centres, colours)
    out, failures = {}, []
    for h in (k for k, c in enumerate(colours) if c is None):
        votes = set()
        for tx, ty in periods:
            b = at.get((forms[h], round(centres[h][0] + tx, ROUND), round(centres[h][1] + ty, ROUND)))
            if b is not None and colours[b] is not None:
                votes.add(colours[b])
        if len(votes) != 1:
            failures.append(f"blank cell {h}: the board's periods give it {sorted(votes) or 'no'} colour(s)")
        else:
            out[h] = votes.pop()
    return out, failures


def _rounded(values: np.ndarray) -> np.ndarray:
    """``round(v, ROUND)`` of every value, as Python rounds (numpy's ``round`` agrees but for values within a
    hair of a tie at the last place, which are rounded again one by one)."""
    out = np.round(values, ROUND)
    scaled = values * 10 ** ROUND
    near_tie = np.abs(np.abs(scaled - np.floor(scaled)) - 0.5) < 1e-6
    out[near_tie] = [round(float(v), ROUND) for v in values[near_tie]]
    return out


def _periods(forms: list[tuple], centres: list[tuple[float, float]], colours: list[str | None]) -> list[tuple]:
    """The translations (rounded to ROUND places) between two cells of one form that join at least one pair of
    visible cells and only pairs of visible cells of one colour (pairs with a blank cell say nothing)."""
    xy = np.array(centres, dtype=np.float64)
    form_ids = {form: k for k, form in enumerate(dict.fromkeys(forms))}
    form = np.array([form_ids[f] for f in forms])
    names = {name: k for k, name in enumerate(dict.fromkeys(c for c in colours if c is not None))}
    colour = np.array([-1 if c is None else names[c] for c in colours])
    a, b = np.nonzero((form[:, None] == form[None, :]) & ~np.eye(len(forms), dtype=bool))
    sx, sy = _rounded(xy[b, 0] - xy[a, 0]), _rounded(xy[b, 1] - xy[a, 1])
    # each rounded shift as one integer (distinct values of ROUND places stay distinct, and the codes sort as
    # the (x, y) pairs do), so the shifts are grouped by a sort of integers, not of rows
    ix, iy = np.rint(sx * 10**ROUND).astype(np.int64), np.rint(sy * 10**ROUND).astype(np.int64)
    if not len(ix):
        return []
    code = (ix - ix.min()) * (int(iy.max() - iy.min()) + 1) + (iy - iy.min())
    _, first, group = np.unique(code, return_index=True, return_inverse=True)
    keys = np.stack([sx[first], sy[first]], axis=1)
    seen = (colour[a] >= 0) & (colour[b] >= 0)
    clash = seen & (colour[a] != colour[b])
    ok = (np.bincount(group, weights=seen, minlength=len(keys)) > 0) & (
        np.bincount(group, weights=clash, minlength=len(keys)) == 0)
    return [(float(x), float(y)) for x, y in keys[ok]]


def _translate_of(shape, cells) -> bool:
    """Whether ``shape``'s cells are ``cells`` moved by one translation, cell for cell."""
    if len(shape) != len(cells):
        return False
    (shape_forms, shape_centres), (forms, centres) = _forms_and_centres(shape), _forms_and_centres(cells)
    (ax, ay), (bx, by) = shape_centres[0], centres[0]
    return all(f == g and round(p[0] - ax - q[0] + bx, ROUND) == 0 and round(p[1] - ay - q[1] + by, ROUND) == 0
               for f, g, p, q in zip(shape_forms, forms, shape_centres, centres, strict=True))


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    variant = scene["variant"]
    if words.variant_of(item.question) != variant:
        failures.append(f"the question does not describe the {variant} variant")
    board = scene["board"]
    board_px = cellfill.to_pixels(board)
    xs = [p[0] for poly in board_px for p in poly]
    ys = [p[1] for poly in board_px for p in poly]
    f = int(scene["frame"]) + 2
    areas = [[int(min(xs)) - 4, int(min(ys)) - 4, int(max(xs)) + 5, int(max(ys)) + 5],
             *([b[0] + f, b[1] + f, b[2] - f, b[3] - f] for b in scene["option_boxes"])]
    option_px = [cellfill.to_pixels(o) for o in scene["options"]]
    everything = [*board_px, *(p for o in option_px for p in o)]
    names, problems = cellfill.read_picture(images[0], everything, areas)
    failures += problems
    board_read = names[: len(board_px)]
    if None in board_read:
        return [*failures, f"{board_read.count(None)} board cells do not show one flat palette colour"]
    blank = [k for k, n in enumerate(board_read) if n == "white"]
    if blank != sorted(scene["hole"]):
        failures.append(f"the white board cells {blank} are not the recorded blank region {sorted(scene['hole'])}")
    for k, (read, recorded) in enumerate(zip(board_read, board["colours"], strict=True)):
        if read != (recorded or "white"):
            failures.append(f"board cell {k} shows {read}, the scene records {recorded or 'white'}")
            break
    options, start = [], len(board_px)
    for k, o in enumerate(scene["options"]):
        shown = names[start: start + len(o["unit"])]
        start += len(o["unit"])
        if shown != list(o["colours"]) or "white" in shown:
            failures.append(f"option ({'abcd'[k]}) shows the cell colours {shown}, the scene records {o['colours']}")
        options.append(shown)
    if failures:
        return failures
    hole_polys = [board["unit"][k] for k in blank]
    fits = []
    if variant == "color":
        colours = [None if n == "white" else n for n in board_read]
        inferred, problems = infer_colours(board["unit"], colours)
        if problems:
            return problems
        want = [inferred[k] for k in blank]
        for k, o in enumerate(scene["options"]):
            if not _translate_of(o["unit"], hole_polys):
                failures.append(f"option ({'abcd'[k]}) does not show the blank region in place")
            elif options[k] == want:
                fits.append(k)
    else:
        target = assembly.cells_of(hole_polys)
        fits = [k for k, o in enumerate(scene["options"]) if assembly.congruent(assembly.cells_of(o["unit"]), target)]
    if len(fits) != 1:
        failures.append(f"{len(fits)} options fill the blank region ({['abcd'[k] for k in fits]}), not exactly one")
    elif "ABCD"[fits[0]] != item.answer:
        failures.append(f"option ({'abcd'[fits[0]]}) fills the blank region, but the answer is {item.answer}")
    return failures
