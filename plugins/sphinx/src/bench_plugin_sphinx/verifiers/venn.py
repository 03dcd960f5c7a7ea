"""Verifier of ``sphinx/venn-diagram``: the rectangles and the digits are read off the picture.

Each rectangle is found as the pixels of its colour (the bounding box of its outline, checked to run the
whole way round and to match the recorded box within a pixel).  Each recorded digit position is read by
template matching: every digit 1..9 is drawn in the recorded font size at that spot and compared with the
black pixels there; the best must match (IoU >= 0.95) and clearly beat the next; no black pixel may lie
outside the digits.  Which rectangles hold a digit follows from its position and the boxes read; a digit
must not touch any outline.  The verifier partitions the plane by the boxes read (its own grid) and checks
that every region holds exactly one digit; then it evaluates the recorded query (whose wording must be in
the question) over the digits read and sums them.
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from bench_plugin_sphinx import venn_words as words
from bench_plugin_sphinx.verifiers.pixels import image_keys
from bench_plugin_sphinx.verifiers.records import guarded

#: The five-colour pool of the geometric tasks (spec section 4), as the question names them.
POOL = {"blue": "#1f77b4", "red": "#d62728", "green": "#2ca02c", "purple": "#9467bd", "orange": "#ff7f0e"}
MATCH, MARGIN = 0.95, 0.1


def _key(hex_colour: str) -> int:
    text = hex_colour.lstrip("#")
    r, g, b = (int(text[k: k + 2], 16) for k in (0, 2, 4))
    return r | g << 8 | b << 16


def colour_keys(image) -> np.ndarray:
    return image_keys(image if image.mode == "RGB" else image.convert("RGB"))


def read_box(keys: np.ndarray, colour: str, width: int, others: set[int]) -> tuple[list[int] | None, str | None]:
    """The box (outline centre lines) drawn in ``colour``, or None and why."""
    mine = keys == _key(POOL[colour])
    rows, cols = np.flatnonzero(mine.any(axis=1)), np.flatnonzero(mine.any(axis=0))
    if not len(rows):
        return None, f"no {colour} rectangle in the picture"
    half = width // 2
    box = [int(cols[0]) + half, int(rows[0]) + half, int(cols[-1]) - half + 1, int(rows[-1]) - half + 1]
    x0, y0, x1, y1 = box
    ring = [(x, y0) for x in range(x0, x1, 3)] + [(x, y1 - 1) for x in range(x0, x1, 3)]
    ring += [(x0, y) for y in range(y0, y1, 3)] + [(x1 - 1, y) for y in range(y0, y1, 3)]
    seen = np.array([keys[y, x] for x, y in ring], dtype=np.int64)
    own = float((seen == _key(POOL[colour])).mean())
    crossing = np.isin(seen, list(others)).mean()
    if own < 0.8 or own + crossing < 0.999:
        return None, f"the {colour} outline does not run round its box ({own:.0%} of it in its colour)"
    return box, None


@functools.lru_cache(maxsize=64)
def stamps(size: int) -> tuple[tuple[int, int], np.ndarray]:
    """(offset of the window's top-left corner from the anchor point, the nine digits 1..9 drawn in font
    ``size`` without anti-aliasing, centred on the anchor, as a (9, h, w) boolean array); a pure function
    of ``size``, kept for reuse."""
    font = ImageFont.load_default(size=size)
    boxes = np.array([font.getbbox(str(d), anchor="mm") for d in range(1, 10)])
    x0, y0 = int(boxes[:, 0].min()) - 2, int(boxes[:, 1].min()) - 2
    x1, y1 = int(boxes[:, 2].max()) + 2, int(boxes[:, 3].max()) + 2
    out = []
    for digit in range(1, 10):
        stamp = Image.new("1", (x1 - x0, y1 - y0), 0)
        draw = ImageDraw.Draw(stamp)
        draw.fontmode = "1"
        draw.text((-x0, -y0), str(digit), fill=1, font=font, anchor="mm")
        out.append(np.asarray(stamp, dtype=bool))
    return (x0, y0), np.stack(out)


def read_digit(black: np.ndarray, at: list[int], size: int) -> tuple[int, float, float, tuple[int, ...]]:
    """(best digit, its IoU, the runner-up's IoU, the window searched) at ``at`` in font ``size``."""
    (dx, dy), ink = stamps(size)
    x, y = at
    left, top = x + dx, y + dy
    right, bottom = left + ink.shape[2], top + ink.shape[1]
    if left < 0 or top < 0 or right > black.shape[1] or bottom > black.shape[0]:
        return 0, 0.0, 0.0, (max(0, left), max(0, top), min(black.shape[1], right), min(black.shape[0], bottom))
    seen = black[top:bottom, left:right]
    union = (ink | seen).sum(axis=(1, 2))
    scores = np.where(union > 0, (ink & seen).sum(axis=(1, 2)) / np.maximum(union, 1), 0.0)
    order = np.argsort(scores)[::-1]
    return int(order[0]) + 1, float(scores[order[0]]), float(scores[order[1]]), (left, top, right, bottom)


def partition(boxes: list[list[int]]) -> list[tuple[int, list[list[int]]]]:
    """(mask, grid cells) of every region inside some box: grid cells between consecutive box edges, joined
    side to side when they lie in the same boxes."""
    xs = sorted({v for b in boxes for v in (b[0], b[2])})
    ys = sorted({v for b in boxes for v in (b[1], b[3])})
    grid = np.zeros((len(xs) - 1, len(ys) - 1), dtype=np.int64)
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        for i in range(len(xs) - 1):
            for j in range(len(ys) - 1):
                if x0 <= xs[i] and xs[i + 1] <= x1 and y0 <= ys[j] and ys[j + 1] <= y1:
                    grid[i, j] |= 1 << k
    label = -np.ones(grid.shape, dtype=int)
    out = []
    for i, j in zip(*np.nonzero(grid), strict=True):
        if label[i, j] >= 0:
            continue
        stack, cells = [(i, j)], []
        label[i, j] = len(out)
        while stack:
            a, b = stack.pop()
            cells.append([xs[a], ys[b], xs[a + 1], ys[b + 1]])
            for p, q in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                if 0 <= p < grid.shape[0] and 0 <= q < grid.shape[1] and label[p, q] < 0 and grid[p, q] == grid[i, j]:
                    label[p, q] = len(out)
                    stack.append((p, q))
        out.append((int(grid[i, j]), cells))
    return out


def selects(mode: str, mask: int, inc: int, exc: int) -> bool:
    if mode == "only":
        return mask == inc
    if mode == "intersection":
        return (mask & inc) == inc
    if mode == "butnot":
        return (mask & inc) == inc and (mask & exc) == 0
    return (mask & inc) != 0


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    keys = colour_keys(images[0])
    colours = [r["colour"] for r in scene["rectangles"]]
    if len(set(colours)) != len(colours) or not set(colours) <= set(POOL):
        return [f"the rectangle colours {colours} are not distinct colours of the pool"]
    width = int(scene["line_width"])
    boxes = []
    for rect in scene["rectangles"]:
        others = {_key(POOL[c]) for c in colours if c != rect["colour"]}
        box, problem = read_box(keys, rect["colour"], width, others)
        if problem:
            return [*failures, problem]
        if max(abs(a - b) for a, b in zip(box, rect["box"], strict=True)) > 1:
            failures.append(f"the {rect['colour']} rectangle is drawn at {box}, recorded at {rect['box']}")
        boxes.append(box)
    black = keys == 0
    covered = np.zeros_like(black)
    values, masks = [], []
    for number in scene["numbers"]:
        digit, best, second, (left, top, right, bottom) = read_digit(black, number["at"], int(number["size"]))
        if best < MATCH or second > best - MARGIN:
            failures.append(f"the digit at {number['at']} does not read clearly (best {digit} at {best:.2f}, next "
                            f"{second:.2f})")
        covered[top:bottom, left:right] = True
        box_keys = keys[top:bottom, left:right]
        inked = black[top:bottom, left:right]
        if inked.any():
            ys, xs = np.nonzero(inked)
            near = box_keys[max(0, ys.min() - 2): ys.max() + 3, max(0, xs.min() - 2): xs.max() + 3]
            if ((near != 0) & (near != 0xFFFFFF)).any():
                failures.append(f"the digit at {number['at']} touches a rectangle's outline")
        x, y = number["at"]
        values.append(digit)
        masks.append(sum(1 << k for k, (x0, y0, x1, y1) in enumerate(boxes) if x0 < x < x1 and y0 < y < y1))
    if (black & ~covered).any():
        failures.append(f"{int((black & ~covered).sum())} black pixels lie away from the recorded digits")
    for mask, cells in partition(boxes):
        inside = [k for k, (x, y) in enumerate(n["at"] for n in scene["numbers"])
                  if any(c[0] < x < c[2] and c[1] < y < c[3] for c in cells)]
        if len(inside) != 1:
            failures.append(f"the region of mask {mask} holds {len(inside)} digits, not one")
    query = scene["query"]
    name = {c: f"{c} ({POOL[c]})" for c in POOL}
    phrase = words.region(query["mode"], [name[c] for c in query["include"]], [name[c] for c in query["exclude"]])
    if phrase not in item.question:
        failures.append(f"the question does not state the recorded {query['mode']} query")
    if failures:
        return failures
    inc = sum(1 << colours.index(c) for c in query["include"])
    exc = sum(1 << colours.index(c) for c in query["exclude"])
    total = sum(v for v, m in zip(values, masks, strict=True) if selects(query["mode"], m, inc, exc))
    try:
        claimed = int(str(item.answer).strip())
    except ValueError:
        return [f"answer {item.answer!r} is not an integer"]
    if total != claimed:
        failures.append(f"the numbers the query selects sum to {total} in the picture, but the answer is {claimed}")
    return failures
