"""The traversal structure shared by the path and reading-order tasks: an ordered polyline with one
glyph token per vertex (vertex 0 carries the START token) and optional grey spurs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from bench_plugin_traversal.confounders import Spur
from bench_plugin_traversal.geometry import Crossing, find_crossings, tortuosity
from bench_plugin_traversal.glyphs import VOCABULARY
from bench_plugin_traversal.render import Scene

VIEW = 672


@attrs.frozen
class Traversal:
    """A path in walking order: ``tokens[k]`` sits on ``points[k]``; ``tokens[0]`` is the START glyph."""

    points: np.ndarray = attrs.field(eq=False, repr=False)
    tokens: tuple[str, ...]
    spurs: tuple[Spur, ...] = ()
    crossings: tuple[Crossing, ...] = attrs.field(default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.crossings is None:
            object.__setattr__(self, "crossings", tuple(find_crossings(self.points)))
        if len(self.tokens) != len(self.points):
            raise ValueError(f"{len(self.tokens)} tokens for {len(self.points)} vertices")

    @property
    def answer(self) -> str:
        """The gold answer: every token in walking order, comma-separated."""
        return ", ".join(self.tokens)

    def scene(self) -> Scene:
        """What the renderer draws (and, as ``Scene.record()``, the item's scene record): the line through
        ``points``, ``tokens[k]`` on vertex k, and the spurs."""
        return Scene.on_vertices(VIEW, self.points, self.tokens, [(s.p0, s.p1) for s in self.spurs])

    def crossing_events(self) -> list[int]:
        """Post-crossing token index of every passage through a crossing, in walking order.

        A crossing of segments i < j is passed twice: on segment i (the next token is i + 1) and on
        segment j (next token j + 1), spec §3.4 convention "all passages".
        """
        return sorted([c.seg_a + 1 for c in self.crossings] + [c.seg_b + 1 for c in self.crossings])

    def metadata(self) -> dict[str, Any]:
        """Facts for analysis: tortuosity, crossings and where they are met, orientation, spurs (the geometry
        itself is in the scene record)."""
        p = self.points
        dx, dy = p[-1] - p[0]
        events = self.crossing_events()
        return {
            "vertices": len(p),
            "tortuosity": round(float(tortuosity(p)), 6),
            "crossings": len(self.crossings),
            "crossing_events": events,
            "first_crossing_token": events[0] if events else None,
            "crossing_segments": [[c.seg_a, c.seg_b] for c in self.crossings],
            "min_crossing_angle": round(min((c.angle_deg for c in self.crossings), default=90.0), 3),
            "orientation": "LR" if dx >= 0 else "RL",
            "vertical": "TB" if dy >= 0 else "BT",
            "spurs": len(self.spurs),
            "spur_events": sorted(s.seg_idx + 1 for s in self.spurs),
            "start": self.tokens[0],
        }


def assign_tokens(rng: np.random.Generator, count: int, start: str) -> tuple[str, ...]:
    """``start`` followed by ``count - 1`` distinct other tokens drawn without replacement (no repeats, so
    parsing and partial scoring are unambiguous; every published answer key has this property)."""
    others = [t for t in VOCABULARY if t != start]
    if count - 1 > len(others):
        raise ValueError(f"{count} vertices need more than the {len(VOCABULARY)} distinct glyphs")
    chosen = rng.choice(len(others), size=count - 1, replace=False)
    return (start, *(others[int(i)] for i in chosen))


def spurs_from(records: Sequence[dict[str, Any]]) -> tuple[Spur, ...]:
    """Spurs from their ``as_dict`` records."""
    return tuple(Spur.from_dict(r) for r in records)
