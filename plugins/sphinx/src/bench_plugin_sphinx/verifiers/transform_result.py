"""Verifier of ``sphinx/transform-result-identify``: the answer is found from the question's words and the
picture alone.

The transformation is read from the question (exactly one of the transformation phrases, a move with its
direction); the source tile's motif layer is cut from the PNG and mapped by that transformation's coordinate
formula (or moved by the named step); the result must look the same as exactly one option's motif layer
(``kit.compare.same`` on the motif window), clearly differ from every other (``kit.compare.distinct``), and
sit at the answer letter.  The four options must be pairwise distinct and the tiles framed in black.
"""

from __future__ import annotations

from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.verifiers import transforms as px
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded


def named_transformation(question: str) -> list[tuple[str, tuple[int, int] | None]]:
    """Every transformation whose phrase the question contains: (name, move vector or None)."""
    found: list[tuple[str, tuple[int, int] | None]] = [(op, None) for op, text in words.ACTIONS.items()
                                                       if text in question]
    found += [("translate", v) for v in words.DIRECTIONS if words.move_action(v) in question]
    return found


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    named = named_transformation(item.question)
    if len(named) != 1:
        return [f"the question names {len(named)} transformations ({named}), not exactly one"]
    op, vector = named[0]
    if op != scene["transform"]:
        failures.append(f"the question names {op}, the scene records {scene['transform']}")
    pixels = rgb_pixels(images[0])
    border, blank = scene["border"], px.blank_paper(scene["paper"])
    boxes = [scene["source_box"], *scene["option_boxes"]]
    if not all(px.frame_is_black(pixels, box, border) for box in boxes):
        failures.append("a tile's frame is not black")
    layers = [px.motif_layer(px.tile_content(pixels, box, border), blank) for box in boxes]
    if any(layer.shape != blank.shape for layer in layers):
        return [*failures, "a tile is not the size of the recorded graph paper"]
    source, options = layers[0], layers[1:]
    if px.ink_box(source) is None:
        return [*failures, "the source tile shows no motif"]
    if vector is None:
        result = px.mapped(source, op)
    else:
        step = int(scene["paper"]["step"])
        result = px.shifted(source, vector[0] * step, vector[1] * step)
    relations = [px.relation(result, layer) for layer in options]
    same = [k for k, r in enumerate(relations) if r == "same"]
    unclear = [k for k, r in enumerate(relations) if r == "unclear"]
    letters = "ABCD"[: len(options)]
    if unclear:
        failures.append(f"option(s) {[letters[k] for k in unclear]} neither match the transformed source nor "
                        "clearly differ from it")
    if len(same) != 1:
        failures.append(f"{len(same)} options match the source under {op}, not exactly one")
    elif letters[same[0]] != item.answer:
        failures.append(f"option {letters[same[0]]} is the source under {op}, but the answer is {item.answer}")
    for a in range(len(options)):
        for b in range(a + 1, len(options)):
            if not px.looks_distinct(options[a], options[b]):
                failures.append(f"options {letters[a]} and {letters[b]} look alike")
    return failures
