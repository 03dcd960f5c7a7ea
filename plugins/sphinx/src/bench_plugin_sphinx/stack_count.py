"""``sphinx/stack-count`` (paper B.1.3, spec T3): congruent coloured sheets are stacked with overlaps and small
black tokens are drawn on top; how many tokens of one kind lie strictly inside the whole boundary of a sheet
that later sheets partly hide?

Construction: k = 2..4 sheets of one kind and one size (axis-aligned rectangles of one width and height,
circles of one radius, equilateral triangles of one side, each turned its own way), distinct colours of the
geometric pool, 3 px black outlines, drawn in order around a common anchor on 768 x 512 graph paper.  Every
two sheets that overlap share 5-75 % of their area, and every sheet overlaps another.  10-40 tokens (circle,
triangle, square; circumradius 10-14 px) are scattered on top, each one's circumscribed disc at least 12.5 px
from every sheet boundary, hidden ones included (10 px + half the outline + 1 px).  The asked sheet is never
the top one, at least 30 % of it is visible, and at least one counted token lies on its hidden part, so the
hidden boundary matters.  The count is drawn first, uniformly from 1..20 (as far as the sheet has room), and
the tokens of the asked kind are placed to give it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import stack_words as words
from bench_plugin_sphinx.kit import complexity, spatial
from bench_plugin_sphinx.kit.distractors import near_misses
from bench_plugin_sphinx.kit.palette import GEOMETRIC
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import stack_count as verifier

SIZE = (768, 512)
OUTLINE = 3
CLEARANCE = 10 + OUTLINE / 2 + 1
SHEETS = ("rectangle", "circle", "triangle")
SHEET_RANGE = (2, 4)
COUNT_RANGE = (1, 20)
TOKEN_RANGE = (10, 40)
TOKEN_KINDS = ("circle", "triangle", "square")
TOKEN_RADIUS, PITCH = (10.0, 14.0), 34.0
OVERLAP = (0.05, 0.75)
VISIBLE = 0.3
ATTEMPTS = 80


def visible_fraction(sheets: list[dict[str, Any]], index: int, step: float = 4.0) -> float:
    """The share of sheet ``index`` that no later sheet covers (on a grid of ``step`` px)."""
    x0, y0, x1, y1 = spatial.bounds(sheets[index])
    xs, ys = np.arange(x0 + step / 2, x1, step)[None, :], np.arange(y0 + step / 2, y1, step)[:, None]
    inside = spatial.contains(sheets[index], xs, ys)
    covered = np.zeros_like(inside)
    for later in sheets[index + 1:]:
        covered |= spatial.contains(later, xs, ys)
    return float(np.count_nonzero(inside & ~covered) / max(1, np.count_nonzero(inside)))


def _sheets(kind: str, k: int, rng) -> list[dict[str, Any]] | None:
    """k congruent sheets around a common anchor, inside the canvas, every overlapping pair sharing 5-75 % of
    their area and every sheet overlapping another; None when the draws do not give them."""
    if kind == "rectangle":
        w, h = float(rng.uniform(200, 300)), float(rng.uniform(140, 220))
        span = (w, h)
    elif kind == "circle":
        radius = float(rng.uniform(90, 125))
        span = (2 * radius, 2 * radius)
    else:
        side = float(rng.uniform(230, 310))
        span = (side, side)
    ax, ay = SIZE[0] / 2 + float(rng.uniform(-50, 50)), SIZE[1] / 2 + float(rng.uniform(-30, 30))
    for _try in range(60):
        sheets = []
        for _ in range(k):
            cx = ax + float(rng.uniform(-0.5, 0.5)) * span[0] * (0.6 + 0.25 * k)
            cy = ay + float(rng.uniform(-0.5, 0.5)) * span[1] * (0.5 + 0.15 * k)
            if kind == "rectangle":
                sheets.append(spatial.rectangle_at(cx, cy, w, h))
            elif kind == "circle":
                sheets.append(spatial.circle(cx, cy, radius))
            else:
                sheets.append(spatial.triangle(cx, cy, side, float(rng.uniform(0, 360))))
        if any(x0 < 8 or y0 < 8 or x1 > SIZE[0] - 8 or y1 > SIZE[1] - 8
               for x0, y0, x1, y1 in (spatial.bounds(spatial.grown(s, OUTLINE / 2)) for s in sheets)):
            continue
        ratios = _overlap_ratios(sheets)
        if ratios is not None and all(any(r >= OVERLAP[0] for pair, r in ratios.items() if s in pair)
                                      for s in range(k)):
            return sheets
    return None


def _overlap_ratios(sheets: list[dict[str, Any]]) -> dict[tuple[int, int], float] | None:
    """The share of a sheet's area each pair of sheets has in common (on a 4 px grid), or None as soon as one
    pair shares some but less than 5 % or more than 75 %."""
    area = spatial.area(sheets[0])
    ratios = {}
    for a in range(len(sheets)):
        for b in range(a + 1, len(sheets)):
            ratio = spatial.overlap_area(sheets[a], sheets[b], 4.0) / area
            if 0 < ratio < OVERLAP[0] or ratio > OVERLAP[1]:
                return None
            ratios[a, b] = ratio
    return ratios


class StackCount(PaperSets, task="stack-count"):
    def check_params(self, params):
        complexity.refuse_knob_with_level(params, "sheets", "the number of sheets")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        low, high = SHEET_RANGE
        k = complexity.knob_value(params, "sheets", low, high, rng)
        kind = params["sheet"] or cyclic(random, SHEETS, "sheet-order")
        for _attempt in range(ATTEMPTS):
            scene = self._scene(kind, k, rng)
            if scene is not None:
                break
        else:
            raise GenerationError(f"stack-count: no stack of {k} {kind}s with a clear count in {ATTEMPTS} draws")
        count = scene.pop("_count")
        query = scene["query"]
        target = scene["sheets"][query["target"]]
        phrase = words.target_phrase(target["colour"], target["hex"], kind)
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        question = words.question(stem, spatial.PLURALS.get(kind, kind + "s"), phrase, spatial.PLURALS[query["kind"]])
        metadata = {"scene": scene, "sheet": kind, "sheets": k, "token_kind": query["kind"],
                    "complexity": complexity.record("sheets", k, low, high),
                    **({} if level is None else {"difficulty_knobs": {"sheets": k}})}
        return Problem(question=question, answer=str(count), image_size=SIZE,
                       params={**params, "sheet": kind, "sheets": k}, answer_type="integer", metadata=metadata)

    def _scene(self, kind, k, rng) -> dict[str, Any] | None:
        sheets = _sheets(kind, k, rng)
        if sheets is None:
            return None
        eligible = [t for t in range(k - 1) if visible_fraction(sheets, t) >= VISIBLE]  # never the top sheet
        if not eligible:
            return None
        target = eligible[int(rng.integers(len(eligible)))]
        token_kind = TOKEN_KINDS[int(rng.integers(len(TOKEN_KINDS)))]
        found = spatial.candidates(rng, SIZE, sheets, CLEARANCE, TOKEN_RADIUS, PITCH)
        xs, ys = found[0], found[1]
        counted = spatial.contains(sheets[target], xs, ys)
        hidden = np.zeros(len(xs), bool)
        for later in sheets[target + 1:]:
            hidden |= spatial.contains(later, xs, ys)
        available = int(np.count_nonzero(counted))
        if available < COUNT_RANGE[0] or not np.any(counted & hidden):
            return None
        quota = int(rng.integers(COUNT_RANGE[0], min(COUNT_RANGE[1], available) + 1))
        total = max(int(rng.integers(TOKEN_RANGE[0], TOKEN_RANGE[1] + 1)), quota + 4)
        tokens = spatial.quota_tokens(rng, found, TOKEN_KINDS, token_kind, counted, np.zeros(len(xs), bool), quota,
                                      total, must=counted & hidden)
        if tokens is None or len(tokens) < TOKEN_RANGE[0]:
            return None
        names = [list(GEOMETRIC)[int(i)] for i in rng.permutation(len(GEOMETRIC))[:k]]
        records = [{**sheet, "colour": name, "hex": GEOMETRIC[name]} for sheet, name in zip(sheets, names, strict=True)]
        return {"image_size": list(SIZE), "outline": OUTLINE, "sheets": records,
                "token_fields": list(spatial.TOKEN_FIELDS), "tokens": tokens,
                "query": {"target": target, "kind": token_kind}, "_count": quota}

    def render(self, problem):
        scene = problem.metadata["scene"]
        return [spatial.draw_scene(SIZE, [(s, s["hex"]) for s in scene["sheets"]], scene["tokens"], OUTLINE)]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return near_misses(problem.answer, count, (1, -1, 2, -2, 3, -3))

    def hardness(self, item):
        """The number of sheets k."""
        return float(len(item.metadata["scene"]["sheets"]))


TASK = StackCount()
