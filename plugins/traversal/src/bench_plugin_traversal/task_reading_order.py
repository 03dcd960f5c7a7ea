"""``traversal/reading-order``: the auxiliary reading-order benchmark (TraversalBench §4.3).

A crossing-free path laid out in lanes that follow one of four reading orders; comparing regimes shows
whether scan-order layouts (left-to-right, top-to-bottom) are easier to trace.  The paper macro-averages
token accuracy over (lanes, vertices) within each regime: ``bench score --by regime,lanes,vertices``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL.Image import Image

from bench_core import Item, Problem
from bench_core.errors import GenerationError
from bench_core.seeding import ItemRandom
from bench_plugin_traversal.artefact import verify_reading_order
from bench_plugin_traversal.cells import VERTEX_COUNTS
from bench_plugin_traversal.common import TraversalTask, make_problem
from bench_plugin_traversal.geometry import STRICT
from bench_plugin_traversal.reading_order import LANE_COUNTS, REGIMES, ReadingOrderUnplaceable, layout_reading_order
from bench_plugin_traversal.structure import Traversal, assign_tokens


class ReadingOrder(TraversalTask):
    """Generate, render and verify traversal/reading-order items."""

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        rng = random.rng

        def pick(name: str, options: tuple[Any, ...]) -> Any:
            return params[name] if params[name] is not None else options[int(rng.integers(len(options)))]

        regime, lanes, vertices = pick("regime", REGIMES), pick("lanes", LANE_COUNTS), pick("vertices", VERTEX_COUNTS)
        try:
            points = layout_reading_order(rng, regime, lanes, vertices, params["connector"])
        except ReadingOrderUnplaceable as exc:
            raise GenerationError(f"traversal/reading-order: {exc}") from exc
        traversal = Traversal(points, assign_tokens(rng, vertices, params["start"]))
        metadata = {"regime": regime, "lanes": lanes, "connector": params["connector"]}
        return make_problem(traversal, params, random, variant=regime, pair=None, metadata=metadata, profile=STRICT)

    def verify(self, item: Item, images: Sequence[Image]) -> list[str]:
        """See ``artefact.verify_reading_order``: the item proved from its record and pixels alone."""
        return verify_reading_order(item, images)


TASK = ReadingOrder()
