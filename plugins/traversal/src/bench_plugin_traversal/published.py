"""Reading the published TraversalBench backbone JSONL (github.com/clarapetrova/traversalbench).

One record per line: ``id``, ``seed``, ``family``, ``points`` ([{x, y}] in a 672 px view, or the same as a
Python-literal string), ``metrics`` {tortuosity, self_intersections}, ``target`` {tort_bin, self_int_bin};
confound records add ``confounders`` (spurs with ``seg_idx``, ``anchor_t`` and ``points`` [anchor, end]),
``confounder_condition`` (conf_low / conf_high) and ``source_id``.
"""

from __future__ import annotations

import ast
import functools
import json
import os
from typing import Any

import attrs
import numpy as np

from bench_plugin_traversal.confounders import Spur


@attrs.frozen
class PublishedBackbone:
    """One published record, decoded."""

    number: int
    record_id: Any
    family: str
    points: np.ndarray = attrs.field(eq=False, repr=False)
    spurs: tuple[Spur, ...]
    condition: str  # base, conf_low or conf_high
    source_id: Any
    tortuosity: float
    self_intersections: float
    tort_bin: int | None
    self_int_bin: int | None


def _literal(value: Any) -> Any:
    return ast.literal_eval(value) if isinstance(value, str) else value


def _decode(number: int, record: dict[str, Any]) -> PublishedBackbone:
    points = np.array([[float(p["x"]), float(p["y"])] if isinstance(p, dict) else [float(p[0]), float(p[1])]
                       for p in _literal(record["points"])])
    spurs = []
    for c in _literal(record.get("confounders") or []):
        (x0, y0), (x1, y1) = c["points"]
        spurs.append(Spur(int(c["seg_idx"]), float(c.get("anchor_t", 0.5)), (x0, y0), (x1, y1)))
    condition = record.get("confounder_condition") or "base"
    metrics, target = record.get("metrics") or {}, record.get("target") or {}
    return PublishedBackbone(
        number=number,
        record_id=record.get("id"),
        family=str(record.get("family", "")),
        points=points,
        spurs=tuple(spurs),
        condition=condition,
        source_id=record.get("source_id", record.get("id")),
        tortuosity=float(metrics.get("tortuosity", "nan")),
        self_intersections=float(metrics.get("self_intersections", "nan")),
        tort_bin=target.get("tort_bin"),
        self_int_bin=target.get("self_int_bin"),
    )


@functools.lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> tuple[PublishedBackbone, ...]:
    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if not line.strip():
                continue
            try:
                records.append(_decode(len(records), json.loads(line)))
            except (ValueError, KeyError, TypeError, SyntaxError) as exc:
                raise ValueError(f"{path}:{number + 1}: not a TraversalBench backbone record ({exc})") from exc
    return tuple(records)


def load_backbones(path: str) -> tuple[PublishedBackbone, ...]:
    """Every record of the file at ``path``, in file order (cached while the file is unchanged)."""
    stat = os.stat(path)
    return _load(os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
