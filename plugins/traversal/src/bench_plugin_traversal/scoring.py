"""Scoring a traversal response: exact sequence match is the score (TraversalBench EM); token accuracy,
correct-prefix length, edit similarity and the number of crossings and spurs passed correctly are
reported beside it."""

from __future__ import annotations

from typing import Any

from bench_core import Item, Score, parse_sequence, score_item, sequence_metrics
from bench_plugin_traversal.glyphs import SYNONYMS, VOCABULARY


def score_traversal(item: Item, response: Any) -> Score:
    """Score ``response``; choice-format items are scored as option letters by the core (an option's markers
    written out select it, with the glyph synonyms)."""
    if item.answer_type != "sequence":
        return score_item(item, response, synonyms=SYNONYMS)
    gold = item.answer.split(", ")
    try:
        predicted = parse_sequence(response, VOCABULARY, SYNONYMS, length=len(gold))
    except Exception:
        predicted = []
    metrics = sequence_metrics(predicted, gold)
    prefix = metrics["prefix_length"]
    events = item.metadata.get("crossing_events") or []
    spurs = item.metadata.get("spur_events") or []
    details = {
        **metrics,
        "crossings_passed": sum(1 for k in events if k < prefix),
        "spurs_passed": sum(1 for k in spurs if k < prefix),
        "parsed": predicted,
    }
    if events:
        details["first_crossing_correct"] = prefix > events[0]
    return Score(metrics["exact"], parsed=predicted, answered=bool(metrics["answered"]), details=details)
