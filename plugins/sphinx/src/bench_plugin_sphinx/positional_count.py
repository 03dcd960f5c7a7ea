"""``sphinx/positional-count`` (paper B.1.1, spec T1): how many small black tokens of one kind stand in a
strict relation (inside, outside, left, right, above, below) to one of 1-4 large coloured shapes?

Construction: K reference shapes (rectangle, circle, equilateral triangle; distinct colours of the geometric
pool; 5 px black outline), apart from each other, on 768 x 512 graph paper; 10-40 tokens (circle, triangle,
square, pentagon, hexagon; circumradius 12-17 px, turned at random) on a jittered lattice, none touching
another, each one's circumscribed disc wholly inside or wholly outside every shape at least 13.5 px from its
boundary.  Left, right,
above and below are measured against the shape's extreme points as drawn (outline included) and the token's
own extreme points; a query is used only when no token of the asked kind lies within 6 px of the line it is
measured against.  The count is drawn first, uniformly from 1..20 (as far as the scene has room), and the
tokens of the asked kind are placed to give it: no count is favoured.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import position_words as words
from bench_plugin_sphinx.kit import complexity, spatial
from bench_plugin_sphinx.kit.distractors import near_misses
from bench_plugin_sphinx.kit.palette import GEOMETRIC
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import positional_count as verifier

SIZE = (768, 512)
OUTLINE = 5
#: Clearance of every token from every shape's boundary (10 px + half the outline + 1 px of blending).
CLEARANCE = 10 + OUTLINE / 2 + 1
#: No token of the asked kind may lie closer than this to the line a directional relation is measured against.
MARGIN = 6
REFERENCE_RANGE = (1, 4)
COUNT_RANGE = (1, 20)
TOKEN_RANGE = (10, 40)
#: Tokens' circumradius (px) and the pitch of the lattice they are scattered on.
TOKEN_RADIUS, PITCH = (12.0, 17.0), 42.0
#: Size range of the shapes (px) by how many there are.
SIZES = {1: (200, 300), 2: (150, 230), 3: (120, 180), 4: (100, 150)}
ATTEMPTS = 60


def relation_gaps(relation: str, tokens: list[list], shape: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """(whether each token stands in ``relation`` to ``shape``, its distance in px from the line the relation is
    measured against: inf for inside/outside, which the placement keeps clear)."""
    xs = np.array([t[1] for t in tokens])
    ys = np.array([t[2] for t in tokens])
    if relation in ("inside", "outside"):
        inside = spatial.contains(shape, xs, ys)
        return inside == (relation == "inside"), np.full(len(tokens), np.inf)
    left, top, right, bottom = spatial.bounds(spatial.grown(shape, OUTLINE / 2))
    box = np.array([spatial.token_bounds(t) for t in tokens])
    gap = {"left": left - box[:, 2], "right": box[:, 0] - right, "above": top - box[:, 3],
           "below": box[:, 1] - bottom}[relation]
    return gap > 0, np.abs(gap)


def _shapes(k: int, rng) -> list[dict[str, Any]] | None:
    """K shapes of random kinds inside the canvas, their drawn extents at least 24 px apart."""
    low, high = SIZES[k]
    shapes, boxes = [], []
    for _ in range(k):
        for _try in range(100):
            kind = spatial.SHAPE_KINDS[int(rng.integers(3))]
            size = float(rng.uniform(low, high))
            cx, cy = float(rng.uniform(0, SIZE[0])), float(rng.uniform(0, SIZE[1]))
            if kind == "rectangle":
                w, h = size * float(rng.uniform(0.6, 1.0)), size * float(rng.uniform(0.5, 0.9))
                shape = spatial.rectangle(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            elif kind == "circle":
                shape = spatial.circle(cx, cy, size / 2)
            else:
                shape = spatial.triangle(cx, cy, size * 1.1, float(rng.uniform(0, 360)))
            x0, y0, x1, y1 = spatial.bounds(spatial.grown(shape, OUTLINE / 2))
            if x0 < 12 or y0 < 12 or x1 > SIZE[0] - 12 or y1 > SIZE[1] - 12:
                continue
            if all(x1 + 24 <= a0 or a1 + 24 <= x0 or y1 + 24 <= b0 or b1 + 24 <= y0 for a0, b0, a1, b1 in boxes):
                shapes.append(shape)
                boxes.append((x0, y0, x1, y1))
                break
        else:
            return None
    return shapes


class PositionalCount(PaperSets, task="positional-count"):
    def check_params(self, params):
        complexity.refuse_knob_with_level(params, "references", "the number of reference shapes")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        low, high = REFERENCE_RANGE
        k = complexity.knob_value(params, "references", low, high, rng)
        relation = params["relation"] or cyclic(random, words.RELATIONS, "relation-order")
        for _attempt in range(ATTEMPTS):
            scene = self._scene(k, relation, rng)
            if scene is not None:
                break
        else:
            raise GenerationError(f"positional-count: no scene with K={k} and a clear {relation!r} count in "
                                  f"{ATTEMPTS} draws")
        query = scene["query"]
        target = scene["shapes"][query["target"]]
        phrase = words.target_phrase(target["colour"], target["hex"], target["kind"])
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        question = words.question(stem, spatial.PLURALS[query["kind"]], relation, phrase)
        metadata = {"scene": scene, "relation": relation, "references": k, "token_kind": query["kind"],
                    "complexity": complexity.record("references", k, low, high),
                    **({} if level is None else {"difficulty_knobs": {"references": k}})}
        return Problem(question=question, answer=str(scene.pop("_count")), image_size=SIZE,
                       params={**params, "relation": relation, "references": k}, answer_type="integer",
                       metadata=metadata)

    def _scene(self, k, relation, rng) -> dict[str, Any] | None:
        shapes = _shapes(k, rng)
        if shapes is None:
            return None
        found = spatial.candidates(rng, SIZE, shapes, CLEARANCE, TOKEN_RADIUS, PITCH)
        if len(found[0]) < TOKEN_RANGE[0]:
            return None
        target = int(rng.integers(k))
        kind = spatial.TOKEN_KINDS[int(rng.integers(len(spatial.TOKEN_KINDS)))]
        as_asked = [[kind, *row] for row in zip(*(v.tolist() for v in found), strict=True)]
        held, gaps = relation_gaps(relation, as_asked, shapes[target])
        counted, forbidden = held & (gaps >= MARGIN), gaps < MARGIN
        available = int(np.count_nonzero(counted))
        if available < COUNT_RANGE[0]:
            return None
        quota = int(rng.integers(COUNT_RANGE[0], min(COUNT_RANGE[1], available) + 1))
        total = max(int(rng.integers(TOKEN_RANGE[0], TOKEN_RANGE[1] + 1)), quota + 4)
        tokens = spatial.quota_tokens(rng, found, spatial.TOKEN_KINDS, kind, counted, forbidden, quota, total)
        if tokens is None or len(tokens) < TOKEN_RANGE[0]:
            return None
        names = [list(GEOMETRIC)[int(i)] for i in rng.permutation(len(GEOMETRIC))[:k]]
        records = [{**shape, "colour": name, "hex": GEOMETRIC[name]} for shape, name in zip(shapes, names, strict=True)]
        return {"image_size": list(SIZE), "outline": OUTLINE, "shapes": records,
                "token_fields": list(spatial.TOKEN_FIELDS), "tokens": tokens,
                "query": {"relation": relation, "target": target, "kind": kind}, "margin": MARGIN, "_count": quota}

    def render(self, problem):
        scene = problem.metadata["scene"]
        return [spatial.draw_scene(SIZE, [(s, s["hex"]) for s in scene["shapes"]], scene["tokens"], OUTLINE)]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return near_misses(problem.answer, count, (1, -1, 2, -2, 3, -3))

    def hardness(self, item):
        """The number of reference shapes K."""
        return float(len(item.metadata["scene"]["shapes"]))


TASK = PositionalCount()
