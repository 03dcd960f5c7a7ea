"""The counters of ``bench score``: item results packed compactly, then added up group by group.

A part of the items (a byte range of ``items.jsonl``, scored in this process or in a worker) becomes a
:class:`Part`: each distinct tuple of group keys ("combo") and each distinct result ("outcome": score, metrics,
random baseline) is kept once, and the items are two arrays of indices into them.  :class:`Tally` adds parts up
in item order, in batches, with numpy: a sum of whole numbers (scores of 0 and 1, answered flags, counts) below
2**53 is exact in any order, so it is added at once; any other sum -- a group that meets a fraction -- is added
item by item in item order, as ``sum()`` adds a list (plainly, or compensated where Python's ``sum`` is).  So
every mean is the one that adding the items one at a time gives, to the last bit, and memory holds the groups'
counters and one batch.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

#: Whether ``sum()`` of floats is compensated (Python 3.12 on): a group's means add up as it does.
COMPENSATED_SUM = sum([0.1] * 10) == 1.0
#: The columns of an outcome besides its metrics: the score (summed plainly, as ``+=`` adds) and the random
#: baseline (likewise).
VALUE, BASELINE = "\0value", "\0baseline"
_PLAIN = (VALUE, BASELINE)
_LIMIT = 2.0**52  # below 2**53 (every whole number exact), with room for the rounding of the bound
#: Items added up at once.
BATCH = 1 << 16

#: (score, metrics as (name, value) pairs, random baseline or None).
Outcome = tuple[float, tuple[tuple[str, float], ...], Any]


class Group:
    """The counters of one group: items, the sum of their scores, of their baselines and of each metric."""

    __slots__ = ("n", "sums")

    def __init__(self) -> None:
        self.n = 0
        self.sums: dict[str, Any] = {}  # a plain column: a float; a metric: [sum, compensation] or a float

    def running(self, column: str) -> float:
        """The sum of ``column`` so far (0.0 before any item had it)."""
        acc = self.sums.get(column, 0.0)
        return acc[0] if type(acc) is list else acc

    def add_whole(self, column: str, total: float) -> None:
        """Add ``total``, the exact sum of whole numbers, to a running sum that is a whole number too (so every
        partial sum in item order would have been exact)."""
        acc = self.sums.get(column)
        if acc is None:
            self.sums[column] = [total, 0.0] if COMPENSATED_SUM and column not in _PLAIN else total
        elif type(acc) is list:
            acc[0] += total
        else:
            self.sums[column] = acc + total

    def add_each(self, column: str, values: Iterable[float]) -> None:
        """Add ``values`` one at a time, in order, as ``sum()`` adds a list."""
        values = [float(x) for x in values]
        if not values:
            return
        acc = self.sums.get(column)
        if column in _PLAIN or not COMPENSATED_SUM:
            total = 0.0 if acc is None else acc
            for x in values:
                total += x
            self.sums[column] = total
            return
        if acc is None:
            acc = self.sums[column] = [0 + values[0], 0.0]
            values = values[1:]
        f, c = acc
        for x in values:
            t = f + x
            c += (f - t) + x if abs(f) >= abs(x) else (x - t) + f
            f = t
        acc[0], acc[1] = f, c

    def total(self, column: str) -> float:
        acc = self.sums.get(column, 0.0)
        if type(acc) is not list:
            return acc
        f, c = acc
        return f + c if c and math.isfinite(c) else f

    def summary(self, baseline: bool = False) -> dict[str, Any]:
        """Accuracy and every metric averaged over ALL items of the group: an item without a response, or
        whose response has no such metric, counts 0; with ``baseline``, the mean random baseline too."""
        n = self.n
        out: dict[str, Any] = {"n": n, "accuracy": self.total(VALUE) / n if n else 0.0}
        if baseline:
            out["baseline"] = self.total(BASELINE) / n if n else 0.0
        for key in sorted(k for k in self.sums if k not in _PLAIN):
            out[f"mean_{key}"] = self.total(key) / n if n else 0.0
        return out


class Part:
    """The results of some consecutive items, compactly: see the module's docstring.  ``asked`` is the prediction
    index entries the items found, ``trace`` the hooks that ran (as ``trace_json`` gives it)."""

    __slots__ = ("asked", "combo_of", "combos", "missing", "missing_ids", "n", "outcome_of", "outcomes", "task_ids",
                 "trace")

    def __init__(self) -> None:
        self.n = self.missing = 0
        self.combos: list[tuple[str, ...]] = []
        self.outcomes: list[Outcome] = []
        self.combo_of = array("i")
        self.outcome_of = array("i")
        self.missing_ids: list[Any] = []
        self.task_ids: set[str] = set()
        self.asked: list[int] = []
        self.trace: dict[str, Any] = {}


class Packer:
    """Builds a :class:`Part` from item results given in item order (:attr:`part` is what was added so far).  An
    item's group keys start with its task id."""

    def __init__(self) -> None:
        self._part = Part()
        self._combos: dict[tuple[str, ...], int] = {}
        self._outcomes: dict[Outcome, int] = {}
        self._seen: dict[int, int] = {}  # id() of an outcome object kept (so alive) -> its index in part.outcomes
        self._kept: list[Outcome] = []  # outcome objects equal to one in part.outcomes, seen by id()
        self._combo_of = self._part.combo_of.append
        self._outcome_of = self._part.outcome_of.append

    def __len__(self) -> int:
        return len(self._part.combo_of)

    @property
    def part(self) -> Part:
        part = self._part
        part.n = len(part.combo_of)
        part.task_ids = {keys[0] for keys in part.combos}
        return part

    def combos_seen_and_appends(self) -> tuple[dict[tuple[str, ...], Any], dict[int, int], Any, Any]:
        """For a caller that adds items itself: the index of each combo kept, of each outcome object kept (by
        ``id()``), and the appends of the two index arrays.  An item whose combo and outcome object are both kept
        is added by appending their indices (after :meth:`missing` if it has no response); any other by
        :meth:`add` (with ``found`` True: :meth:`missing` was called)."""
        return self._combos, self._seen, self._combo_of, self._outcome_of

    def missing(self, item_id: Any) -> None:
        """Count an item without a response (before adding it)."""
        part = self._part
        part.missing += 1
        if len(part.missing_ids) < 20:
            part.missing_ids.append(item_id)

    def add(self, item_id: Any, task_id: str, found: bool, keys: tuple[str, ...], outcome: Outcome) -> None:
        if not found:
            self.missing(item_id)
        c = self._combos.get(keys)
        if c is None:
            c = self._combo(keys)
        o = self._seen.get(id(outcome))
        if o is None:
            o = self._outcome(outcome)
        self._combo_of(c)
        self._outcome_of(o)

    def _combo(self, keys: tuple[str, ...]) -> int:
        combos = self._part.combos
        c = self._combos[keys] = len(combos)
        combos.append(keys)
        return c

    def _outcome(self, outcome: Outcome) -> int:
        outcomes = self._part.outcomes
        o = self._outcomes.get(outcome)
        if o is None:
            o = self._outcomes[outcome] = len(outcomes)
            outcomes.append(outcome)
        elif outcomes[o] is not outcome:  # an equal outcome: kept too, so that its id() stays its own
            self._kept.append(outcome)
        self._seen[id(outcome)] = o
        return o


class Tally:
    """The counters of a report: for each field, each of its groups; the items overall; each (task, variant).
    Parts are added in item order; :meth:`finish` adds what is still buffered."""

    def __init__(self, fields: list[str], baseline: bool = False) -> None:
        self.fields = fields
        self.baseline = baseline
        self.groups: dict[str, dict[str, Group]] = {f: {} for f in fields}
        self.overall = Group()
        self.pairs: dict[tuple[str, str], Group] = {}  # (task, variant): the Cartesian / Polar table
        self.members: dict[tuple[str, ...], None] = {}  # every combination of group keys met
        self.task_ids: set[str] = set()
        self.n = self.missing = 0
        self.missing_ids: list[Any] = []
        self._combos: dict[tuple[str, ...], int] = {}
        self._combo_list: list[tuple[str, ...]] = []
        self._targets: list[list[Group]] = []  # of each combo: the groups its items count in
        self._reset_batch()

    def _reset_batch(self) -> None:
        self._outcomes: dict[Outcome, int] = {}
        self._outcome_list: list[Outcome] = []
        self._combo_parts: list[np.ndarray] = []
        self._outcome_parts: list[np.ndarray] = []
        self._buffered = 0

    def _combo(self, keys: tuple[str, ...]) -> int:
        c = self._combos.get(keys)
        if c is None:
            c = self._combos[keys] = len(self._combo_list)
            self._combo_list.append(keys)
            self.members[keys] = None
            targets = [self.overall]
            targets += [self.groups[f].setdefault(k, Group()) for f, k in zip(self.fields, keys, strict=True)]
            targets.append(self.pairs.setdefault((keys[0], keys[2]), Group()))
            self._targets.append(targets)
        return c

    def add(self, part: Part) -> None:
        """Add ``part``, the items after those added before."""
        self.n += part.n
        self.missing += part.missing
        self.missing_ids.extend(part.missing_ids[: 20 - len(self.missing_ids)])
        self.task_ids |= part.task_ids
        if not part.n:
            return
        combos = np.array([self._combo(keys) for keys in part.combos], dtype=np.int64)
        outcomes = np.empty(len(part.outcomes), dtype=np.int64)
        for k, outcome in enumerate(part.outcomes):
            o = self._outcomes.get(outcome)
            if o is None:
                o = self._outcomes[outcome] = len(self._outcome_list)
                self._outcome_list.append(outcome)
            outcomes[k] = o
        self._combo_parts.append(combos[np.frombuffer(part.combo_of, dtype=np.int32)])
        self._outcome_parts.append(outcomes[np.frombuffer(part.outcome_of, dtype=np.int32)])
        self._buffered += part.n
        if self._buffered >= BATCH:
            self._flush()

    def finish(self) -> Tally:
        """Add what is buffered; returns the tally."""
        if self._buffered:
            self._flush()
        return self

    def _flush(self) -> None:
        combo_of = np.concatenate(self._combo_parts)
        outcome_of = np.concatenate(self._outcome_parts)
        table, columns = self._table(self._outcome_list)
        self._reset_batch()
        combos = len(self._targets)
        levels = [self._level(k) for k in range(len(self._targets[0]))]  # overall, each field, the pairs
        # the batch as a count per (combo, outcome) met: the whole-number sums below are exact in any order
        pairs, counts = np.unique(combo_of * len(table) + outcome_of, return_counts=True)
        pair_combo, pair_outcome = np.divmod(pairs, len(table))
        items = np.bincount(pair_combo, weights=counts, minlength=combos)
        for groups, slot_of_combo in levels:
            counts_of = np.bincount(slot_of_combo, weights=items, minlength=len(groups))
            for g in np.flatnonzero(counts_of).tolist():
                groups[g].n += int(counts_of[g])
        for m, column in enumerate(columns):
            of_outcome = table[:, m]
            present = ~np.isnan(of_outcome)
            if not present[pair_outcome].any():
                continue
            filled = np.where(present, of_outcome, 0.0)
            whole = present & (filled == np.floor(filled))
            per_combo = [np.bincount(pair_combo, weights=w[pair_outcome] * counts, minlength=combos)
                         for w in (present, present & ~whole, np.where(whole, filled, 0.0), np.abs(filled))]
            values = None  # of each item, in item order: read where a group meets a fraction
            for groups, slot_of_combo in levels:
                has, fractional, sums, magnitudes = (np.bincount(slot_of_combo, weights=w, minlength=len(groups))
                                                     for w in per_combo)
                for g in np.flatnonzero(has).tolist():
                    group = groups[g]
                    running = group.running(column)
                    if not fractional[g] and running == math.floor(running) and abs(running) + magnitudes[g] < _LIMIT:
                        group.add_whole(column, float(sums[g]))
                    else:  # item by item, in item order
                        if values is None:
                            values = table[outcome_of, m]
                        group.add_each(column, values[(slot_of_combo[combo_of] == g) & ~np.isnan(values)].tolist())

    def _level(self, k: int) -> tuple[list[Group], np.ndarray]:
        """The groups of level ``k`` of the combos' targets, and each combo's index among them."""
        groups: list[Group] = []
        index: dict[int, int] = {}
        slot_of_combo = np.empty(len(self._targets), dtype=np.int64)
        for c, targets in enumerate(self._targets):
            group = targets[k]
            slot = index.get(id(group))
            if slot is None:
                slot = index[id(group)] = len(groups)
                groups.append(group)
            slot_of_combo[c] = slot
        return groups, slot_of_combo

    def _table(self, outcomes: list[Outcome]) -> tuple[np.ndarray, list[str]]:
        """The outcomes as a matrix: a row each, a column for the score, the baseline and each metric (NaN where
        an outcome has no such metric)."""
        names = sorted({key for _, metrics, _ in outcomes for key, _ in metrics})
        columns = [VALUE, *([BASELINE] if self.baseline else []), *names]
        where = {name: k for k, name in enumerate(columns)}
        table = np.full((len(outcomes), len(columns)), np.nan)
        for o, (value, metrics, baseline) in enumerate(outcomes):
            row = table[o]
            row[0] = value
            if self.baseline:
                row[1] = baseline
            for key, x in metrics:
                row[where[key]] = x
        return table, columns


def merge_trace(trace: dict[str, dict[str, set[str]]], ran: Mapping[str, Mapping[str, Iterable[str]]]) -> None:
    """Add the hooks of ``ran`` (``trace_json``'s form) to ``trace``."""
    for task_id, hooks in ran.items():
        for hook, names in hooks.items():
            trace.setdefault(task_id, {}).setdefault(hook, set()).update(names)
