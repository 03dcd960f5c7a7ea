"""Verifier of ``polaris/minimum-flips``: both minima re-derived by enumerating move sets, the cells read off the
pixels.

From the record alone: for each strip, the move sets (three consecutive cells; positions 1..n-2 on a line, all
n positions on a ring) that turn it into either alternating pattern are solved over GF(2) (Gauss-Jordan, then
every solution through the null space) and the lightest counts (not the generator's breadth-first search over
states); the item's rendering
takes the line (Cartesian) or the ring (polar) reading.  The answer's option must hold this rendering's
minimum, exactly one option may, no option may hold the other reading's minimum, and ``other_answer_content``
must be it.  The question must be the words' for the record.  On the pixels: every cell's colour (at least
60% of its samples, read through the layout's inverse map) must be the recorded one; the Cartesian strips must
end in thick side borders, and the polar seam must be an ordinary thin line (the rings are closed).
"""

from __future__ import annotations

from bench_core import option_letters
from bench_plugin_polaris import minimum_flips_words as words
from bench_plugin_polaris.kit.pixels import PixelReader
from bench_plugin_polaris.verifiers.cell_ink import compare_cells, guarded, pixels, seam_cut_failures, thick_at
from bench_plugin_polaris.verifiers.common import own_option_failures

#: A cell reads as a colour when at least this share of its samples (every ``STRIDE``-th pixel) has it.
FILLED_SHARE = 0.6
STRIDE = 4


def fewest_moves(strip: list[int], ring: bool) -> int | None:
    """The fewest moves making ``strip`` alternate, by linear algebra over GF(2): a move set is a 0/1 vector x
    with (sum of its moves' masks) = strip xor target, solved for each alternating target by Gauss-Jordan
    elimination; every solution is the particular one plus a combination of the null space's basis (at most a
    few vectors), and the lightest of them counts; None if neither target is reachable."""
    n = len(strip)
    masks = [sum(1 << ((s + k) % n) for k in range(3)) for s in range(n if ring else n - 2)]
    state = sum(1 << i for i, v in enumerate(strip) if v)
    odd = sum(1 << i for i in range(1, n, 2))
    best = None
    for target in (odd, ((1 << n) - 1) ^ odd):
        weight = _lightest_solution(masks, state ^ target, n)
        if weight is not None and (best is None or weight < best):
            best = weight
    return best


def _lightest_solution(masks: list[int], goal: int, n: int) -> int | None:
    """The fewest of ``masks`` whose xor is ``goal`` (n-bit integers), None when no subset gives it."""
    # one equation per cell: the moves covering it (a bit mask over the moves) and the goal's bit
    rows = [[sum(1 << j for j, mask in enumerate(masks) if mask >> i & 1), goal >> i & 1] for i in range(n)]
    pivots: list[int] = []
    for col in range(len(masks)):
        at = next((k for k in range(len(pivots), n) if rows[k][0] >> col & 1), None)
        if at is None:
            continue
        top = len(pivots)
        rows[top], rows[at] = rows[at], rows[top]
        for k in range(n):
            if k != top and rows[k][0] >> col & 1:
                rows[k][0] ^= rows[top][0]
                rows[k][1] ^= rows[top][1]
        pivots.append(col)
    if any(rows[k][1] for k in range(len(pivots), n)):
        return None  # 0 = 1: no move set reaches the goal
    particular = sum(1 << col for k, col in enumerate(pivots) if rows[k][1])
    basis = []
    for free in (c for c in range(len(masks)) if c not in pivots):
        basis.append((1 << free) | sum(1 << col for k, col in enumerate(pivots) if rows[k][0] >> free & 1))
    best = None
    for pick in range(1 << len(basis)):
        x = particular
        for b, vector in enumerate(basis):
            if pick >> b & 1:
                x ^= vector
        if best is None or x.bit_count() < best:
            best = x.bit_count()
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
    failures += own_option_failures(item, found, "minimum")
    letters = option_letters(len(item.options or ()))
    if item.question != words.question(item.variant, len(strips), n, scene["stem"], letters, list(item.options)):
        failures.append("the question is not the one the record gives (strips, cells, options)")
    array = pixels(images[0])
    layout = layout_of(item)
    reader = PixelReader(array, layout, STRIDE)
    for value, (name, colour) in enumerate(words.COLOURS):
        want = {(r, c) for r, s in enumerate(strips) for c, v in enumerate(s) if v == value}
        filled = reader.share(colour) >= FILLED_SHARE
        found = {(int(r), int(c)) for r, c in zip(*filled.nonzero(), strict=True)}
        failures += compare_cells(found, want, f"{name} cells")
    if layout.kind == "cartesian":
        x0, _y0, x1, _y1 = layout.grid_box()
        for r in range(len(strips)):
            y = (layout.cell_center(r, 0))[1]
            if not (thick_at(array, x0, y) and thick_at(array, x1, y)):
                failures.append(f"row {r + 1} does not end in thick borders on both sides (a line with two ends)")
    else:
        failures += seam_cut_failures(array, layout, "the rings are closed")
    return failures
