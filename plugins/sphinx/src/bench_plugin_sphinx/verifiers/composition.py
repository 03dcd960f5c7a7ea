"""Verifier of ``sphinx/tiles-composition``: the pieces and shapes are read from the picture and assembled by
a search of the verifier's own.

Every recorded cell of the top figure and of the four cards is read on the pixels (``cellfill``): it must
show its recorded palette colour, and nothing else may be drawn in the top figure's box or inside a card.
Pieces of one bag must stand apart (at least 8 px between their boxes), so each is seen as one piece.  Then
``assembly.assemblable`` (Algorithm X over every placement under the 24 turns and mirrors by 30 degrees):
in ``decompose`` an option fits when its pieces tile the top shape; in ``compose`` when the top pieces tile
the option's shape.  Exactly one option may fit, at the answer's letter.
"""

from __future__ import annotations

from bench_plugin_sphinx import composition_words as words
from bench_plugin_sphinx.verifiers import assembly, cellfill
from bench_plugin_sphinx.verifiers.records import guarded

APART = 8


def _box(polys) -> tuple[float, float, float, float]:
    xs = [p[0] for poly in polys for p in poly]
    ys = [p[1] for poly in polys for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def _apart(pieces_px) -> bool:
    boxes = [_box(p) for p in pieces_px]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i], boxes[j]
            if not (a[2] + APART <= b[0] or b[2] + APART <= a[0] or a[3] + APART <= b[1] or b[3] + APART <= a[1]):
                return False
    return True


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    mode = scene["mode"]
    if words.mode_of(item.question) != mode:
        failures.append(f"the question does not describe the {mode} mode")
    groups = [scene["top"], *scene["options"]]
    placed = [[cellfill.to_pixels(s) for s in g] for g in groups]
    everything = [poly for g in placed for s in g for poly in s]
    left, top, right, bottom = scene["top_box"]
    f = int(scene["frame"]) + 2
    areas = [[left - 4, top - 4, right + 5, bottom + 5],
             *([x0 + f, y0 + f, x1 - f, y1 - f] for x0, y0, x1, y1 in scene["option_boxes"])]
    names, problems = cellfill.read_picture(images[0], everything, areas)
    failures += problems
    recorded = [c for g in groups for s in g for c in s["colours"]]
    wrong = [k for k, (n, c) in enumerate(zip(names, recorded, strict=True)) if n != c]
    if wrong:
        failures.append(f"{len(wrong)} cells do not show their recorded colour (e.g. cell {wrong[0]}: "
                        f"{names[wrong[0]]}, recorded {recorded[wrong[0]]})")
    bags_px = [placed[0]] if mode == "compose" else placed[1:]
    for k, px in enumerate(bags_px):
        if not _apart(px):
            failures.append(f"the pieces of {'the top' if mode == 'compose' else 'option ' + 'abcd'[k]} touch")
    shapes = [scene["options"][k] for k in range(4)] if mode == "compose" else [scene["top"]]
    if any(len(s) != 1 for s in shapes):
        failures.append("a single shape is recorded as several pieces")
    if failures:
        return failures
    if mode == "decompose":
        target = assembly.cells_of(scene["top"][0]["unit"])
        fits = [k for k, o in enumerate(scene["options"])
                if assembly.assemblable([assembly.cells_of(p["unit"]) for p in o], target)]
    else:
        bag = [assembly.cells_of(p["unit"]) for p in scene["top"]]
        fits = [k for k, o in enumerate(scene["options"]) if assembly.assemblable(bag, assembly.cells_of(o[0]["unit"]))]
    if len(fits) != 1:
        failures.append(f"{len(fits)} options assemble ({['abcd'[k] for k in fits]}), not exactly one")
    elif "ABCD"[fits[0]] != item.answer:
        failures.append(f"option ({'abcd'[fits[0]]}) assembles, but the answer is {item.answer}")
    return failures
