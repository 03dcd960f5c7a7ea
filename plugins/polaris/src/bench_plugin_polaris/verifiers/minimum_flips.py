"""Verifier of ``polaris/minimum-flips``: both minima re-derived by enumerating move sets, the cells read off the
pixels.

From the record alone: for each strip, every subset of the moves (three consecutive cells; positions 1..n-2 on
a line, all n positions on a ring) is visited in Gray-code order and the smallest one that turns the strip into
either alternating pattern counts (not the generator's breadth-first search over states); the item's rendering
takes the line (Cartesian) or the ring (polar) reading.  The answer's option must hold this rendering's
minimum, exactly one option may, no option may hold the other reading's minimum, and ``other_answer_content``
must be it.  The question must be the words' for the record.  On the pixels: every cell's colour (read
through the layout's inverse map) must be the recorded one; the Cartesian strips must end in thick side
borders, and the polar seam must be an ordinary thin line (the rings are closed).
"""

from __future__ import annotations

from bench_core import option_letters
from bench_plugin_polaris import minimum_flips_words as words
from bench_plugin_polaris.verifiers.cell_ink import cells_with, compare_cells, guarded, pixels, thick_at

MIN_PIXELS = 80


def fewest_moves(strip: list[int], ring: bool) -> int | None:
    """The fewest moves making ``strip`` alternate: every subset of the moves is visited once in Gray-code order
    (each step toggles one move), keeping the smallest that reaches either alternating pattern; None if none
    does."""
    n = len(strip)
    masks = [sum(1 << ((s + k) % n) for k in range(3)) for s in range(n if ring else n - 2)]
    state = sum(1 << i for i, v in enumerate(strip) if v)
    odd = sum(1 << i for i in range(1, n, 2))
    targets = {odd, ((1 << n) - 1) ^ odd}
    best = 0 if state in targets else None
    current, used = state, 0
    for step in range(1, 1 << len(masks)):
        bit = (step & -step).bit_length() - 1  # the move that Gray code toggles at this step
        current ^= masks[bit]
        used ^= 1 << bit
        if current in targets:
            weight = used.bit_count()
            best = weight if best is None else min(best, weight)
    return best


def minima(strips: list[list[int]]) -> dict[str, int | None]:
    """{"cartesian": total over lines, "polar": total over rings} (None where a strip cannot alternate)."""
    out: dict[str, int | None] = {}
    for variant, ring in (("cartesian", False), ("polar", True)):
        values = [fewest_moves(s, ring) for s in strips]
        out[variant] = None if None in values else sum(values)
    return out


@guarded
def verify(item, images, layout_of) -> list[str]:
    scene, failures = item.metadata["scene"], []
    strips = [[int(v) for v in s] for s in scene["strips"]]
    n = len(strips[0])
    if len(strips) != scene["rows"] or any(len(s) != n for s in strips) or n != scene["cols"] or n % 2:
        return ["the strips do not match the recorded board (rows x even columns)"]
    if any(v not in (0, 1) for s in strips for v in s):
        return ["a strip holds a colour other than 0 or 1"]
    found = minima(strips)
    if None in found.values():
        return [f"a strip cannot be made to alternate: minima {found}"]
    other = "polar" if item.variant == "cartesian" else "cartesian"
    letters = option_letters(len(item.options or ()))
    options = dict(zip(letters, item.options or (), strict=True))
    mine, theirs = str(found[item.variant]), str(found[other])
    holding = [k for k, v in options.items() if v == mine]
    if holding != [item.answer]:
        failures.append(f"the {item.variant} minimum is {mine}; options holding it {holding}; the answer is "
                        f"{item.answer}")
    if theirs in options.values():
        failures.append(f"the {other} minimum {theirs} is an option (right under the other boundary reading)")
    if item.metadata.get("other_answer_content") != theirs:
        failures.append(f"other_answer_content {item.metadata.get('other_answer_content')!r} is not the {other} "
                        f"minimum {theirs}")
    if item.question != words.question(item.variant, len(strips), n, scene["stem"], letters, list(item.options)):
        failures.append("the question is not the one the record gives (strips, cells, options)")
    array = pixels(images[0])
    layout = layout_of(item)
    for value, (name, colour) in enumerate(words.COLOURS):
        want = {(r, c) for r, s in enumerate(strips) for c, v in enumerate(s) if v == value}
        failures += compare_cells(cells_with(array, layout, colour, MIN_PIXELS), want, f"{name} cells")
    if layout.kind == "cartesian":
        x0, _y0, x1, _y1 = layout.grid_box()
        for r in range(len(strips)):
            y = (layout.cell_center(r, 0))[1]
            if not (thick_at(array, x0, y) and thick_at(array, x1, y)):
                failures.append(f"row {r + 1} does not end in thick borders on both sides (a line with two ends)")
    else:
        inner, _outer = layout.seam()
        for r in range(len(strips)):
            ring = layout.ring_of_row(r)
            mid = (layout.ring_radius(ring) + layout.ring_radius(ring + 1)) / 2
            if thick_at(array, inner[0], layout.center[1] - mid):
                failures.append(f"ring {ring + 1} is cut by a wall at 12 o'clock (the rings are closed)")
    return failures
