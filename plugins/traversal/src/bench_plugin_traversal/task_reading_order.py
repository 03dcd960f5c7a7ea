"""``traversal/reading-order``: the auxiliary reading-order benchmark (TraversalBench §4.3).

A crossing-free path laid out in lanes that follow one of four reading orders; comparing regimes shows
whether scan-order layouts (left-to-right, top-to-bottom) are easier to trace.  The paper macro-averages
token accuracy over (lanes, vertices) within each regime: ``bench score --by regime,lanes,vertices``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL.Image import Image

from bench_core import GenerationError, Item, ItemRandom, Problem
from bench_plugin_traversal.artefact import verify_reading_order
from bench_plugin_traversal.cells import VERTEX_COUNTS
from bench_plugin_traversal.common import TraversalTask, make_problem
from bench_plugin_traversal.geometry import STRICT
from bench_plugin_traversal.levels import reading_drop, scale_positions, targets_for
from bench_plugin_traversal.prompts import reading_order_question
from bench_plugin_traversal.reading_order import LANE_COUNTS, REGIMES, ReadingOrderUnplaceable, layout_reading_order
from bench_plugin_traversal.structure import Traversal, assign_tokens


def spread(params: Mapping[str, Any], random: ItemRandom, name: str, options: Sequence[Any]) -> Any:
    """The value of ``name``: as set, else the item's entry in one seeded order of ``options`` repeated over the
    indices, so any n consecutive items show min(n, len(options)) values (the three orders have coprime
    lengths 4, 3 and 5: every 60 consecutive items show every regime x lanes x vertices layout once)."""
    if params[name] is not None:
        return params[name]
    order = random.stream("order", name).permutation(len(options))
    return options[int(order[random.index % len(options)])]


class ReadingOrder(TraversalTask):
    """Generate, render and verify traversal/reading-order items."""

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        rng = random.rng
        difficulty = params.get("difficulty")
        regime = spread(params, random, "regime", REGIMES)
        if difficulty is None:
            lanes = spread(params, random, "lanes", LANE_COUNTS)
            vertices = spread(params, random, "vertices", VERTEX_COUNTS)
        else:
            targets = self.level_layouts(difficulty, params)
            lanes, vertices = targets[int(rng.integers(len(targets)))]
        try:
            points = layout_reading_order(rng, regime, lanes, vertices, params["connector"])
        except ReadingOrderUnplaceable as exc:
            raise GenerationError(f"traversal/reading-order: {exc}") from exc
        traversal = Traversal(points, assign_tokens(rng, vertices, params["start"]))
        metadata = {"regime": regime, "lanes": lanes, "connector": params["connector"]}
        if difficulty is not None:
            scale = scale_positions(self._layouts(), reading_drop)
            metadata["difficulty_knobs"] = {"lanes": lanes, "vertices": vertices,
                                            "layout_level": round(scale[(lanes, vertices)], 3),
                                            "expected_tokacc_drop": round(reading_drop(lanes, vertices), 2)}
        question = reading_order_question(traversal.tokens[0], vertices, lanes)
        return make_problem(traversal, params, random, variant=regime, pair=None, metadata=metadata, profile=STRICT,
                            question=question)

    def categorical_coverage(self, name: str, params: Mapping[str, Any], start: int, count: int
                             ) -> tuple[int, str] | None:
        """The fewest distinct values of the drawn parameter ``name`` that items ``start .. start + count - 1``
        can show, with the reason, where the design cannot promise min(count, number of choices); None where
        it can.  (Read by the repository's categorical-coverage test.)"""
        if name in ("lanes", "vertices") and params.get("difficulty") is not None:
            return 1, "with difficulty set, the level picks lanes and vertices"
        return None

    @staticmethod
    def _layouts() -> list[tuple[int, int]]:
        return [(lanes, vertices) for lanes in LANE_COUNTS for vertices in VERTEX_COUNTS]

    def level_layouts(self, level: float, params: Mapping[str, Any]) -> list[tuple[int, int]]:
        """The (lanes, vertices) a difficulty ``level`` draws among (``levels.targets_for``), within those that
        the set lanes and vertices allow."""
        candidates = [(la, v) for la, v in self._layouts()
                      if params["lanes"] in (None, la) and params["vertices"] in (None, v)]
        return targets_for(level, scale_positions(self._layouts(), reading_drop), candidates)

    def hardness(self, item: Item) -> float:
        """The expected token-accuracy drop in points (``levels.reading_drop``, TraversalBench Table 1) of the
        item's recorded lane and vertex counts."""
        return reading_drop(int(item.metadata["lanes"]), int(item.metadata["vertices"]))

    def verify(self, item: Item, images: Sequence[Image]) -> list[str]:
        """See ``artefact.verify_reading_order``: the item proved from its record and pixels alone."""
        return verify_reading_order(item, images)


TASK = ReadingOrder()
