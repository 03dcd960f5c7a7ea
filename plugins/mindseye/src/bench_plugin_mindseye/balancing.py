"""Option sizes that carry no information about the answer (Mind's Eye kit).

A rule that singles out one option often leaves that option shaped unlike the others (less ink, a longer box,
a rounder spread), and a model could find it by that alone.  The tasks that draw options at free sizes pick
the sizes here: every audited nuisance feature then ranks the options in one size order, and the answer's
place in that order is a balanced choice made once per item (``SizePlan``), so "largest", "smallest", "most
typical" or "most atypical" points at the answer exactly as often as at any other option.

- ``balanced_scales`` (mental composition): the answer's rank is given, or every option's order is the
  narrowest; the smallest option is always the most atypical.
- ``balanced_sizes`` (relation abstraction, conceptual slippage): the same with one more freedom, which end
  of the order is the most atypical (``SizePlan.small_odd``), and optional absolute bounds per option.
- ``SizePlannedTask``: a task whose unset concept is spread over consecutive items (``spreading``) and whose
  answer's size plan is balanced over them, both passed to ``build`` explicitly (no state is kept between
  calls).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from bench_core import ItemRandom
from bench_plugin_mindseye.base import MindsEyeTask
from bench_plugin_mindseye.options import SizePlan


def _ranked(values: np.ndarray, step: float, factor: float, floors: np.ndarray, small_odd: bool) -> np.ndarray:
    """Per candidate (leading axes), whether ``values`` (..., options in size order, features) rise by at least
    ``step`` from each option to the next in every feature, neither end is "singled out" (``base.singled_out``
    with ``factor`` and the features' floors), and the smallest (``small_odd``) or else the largest option lies
    furthest from the median ``sorted(values)[n // 2]`` (by a ``step`` margin)."""
    v = np.moveaxis(values, -2, 0)
    m = len(v) // 2
    ok = (v[1:] >= v[:-1] * (1 + step)).all(axis=0)
    low, high = v[m] - v[0], v[-1] - v[m]
    ok &= (low >= (1 + step) * high) if small_odd else (high >= (1 + step) * low)
    ok &= (v[1] - v[0] <= factor * (v[-1] - v[1]) + floors) & (v[-1] - v[-2] <= factor * (v[-2] - v[0]) + floors)
    return ok.all(axis=-1)


def _stepped_trials(base: np.ndarray, power: np.ndarray, shift: float, gaps: np.ndarray
                    ) -> tuple[list[list[np.ndarray]], list[np.ndarray]]:
    """The columns ``b[k][f]`` (option k's log feature f at scale 1, (orders, 1), contiguous) and the log scales of
    all but the largest option in size order (each (orders, draws)): the smallest at 0, each next one the least
    that raises every feature by ``shift`` (in logs) over the one before, plus its random ``gaps`` (orders, draws,
    options - 2)."""
    orders, count, features = base.shape
    b = [[np.ascontiguousarray(base[:, k, f, None]) for f in range(features)] for k in range(count)]
    trial = [np.zeros((orders, gaps.shape[1]))]
    for j in range(1, count - 1):
        need = None
        for f in range(features):
            x = (b[j - 1][f] + power[f] * trial[j - 1] + shift - b[j][f]) / power[f]
            need = x if need is None else np.maximum(need, x)
        trial.append(need + gaps[:, :, j - 1])
    return b, trial


def _spacings(rng: np.random.Generator, base: np.ndarray, power: np.ndarray, step: float, factor: float,
              floors: np.ndarray, reach: np.ndarray, draws: int, small_odd: bool,
              room: np.ndarray | None = None, loose: float | None = None,
              gap: float = 0.12) -> tuple[np.ndarray, np.ndarray]:
    """For each candidate size order (leading axis: ``base`` holds the log features at scale 1, (orders,
    options in size order, features), ``reach`` the log linear sizes), the narrowest range of log sizes among
    ``draws`` random spacings that satisfy ``_ranked`` (inf where none does) and those log scales: all but the
    largest option spaced at random beyond what the order needs, the largest placed inside the interval the
    conditions leave it.  With ``room`` (orders, options, (log lowest, log highest) scale)) the score is
    instead how far the spacing overshoots the room (<= 0: some common factor fits every option in).

    The arithmetic runs on one contiguous (orders, draws) array per option and feature (every element computed
    as the broadcast expressions would, so the results are the same to the bit), and the features of only the
    options the conditions read are made."""
    orders, count, features = base.shape
    m = count // 2
    gaps = rng.uniform(0.0, gap, size=(orders, draws, count - 2))
    b, trial = _stepped_trials(base, power, math.log1p(step), gaps)

    def feature(k: int, f: int) -> np.ndarray:
        """Option k's feature f at its trial scale."""
        return np.exp(b[k][f] + power[f] * trial[k])

    lo = hi = None
    for f in range(features):
        v0, v1, vm, vl = feature(0, f), feature(1, f), feature(m, f), feature(count - 2, f)
        lower = np.maximum(vl * (1 + step), v1 + (v1 - v0 - floors[f]) / factor)
        upper = vl + factor * (vl - v0) + floors[f]
        if small_odd:
            upper = np.minimum(upper, vm + (vm - v0) / (1 + step))
        else:
            lower = np.maximum(lower, vm + (1 + step) * (vm - v0))
        with np.errstate(invalid="ignore", divide="ignore"):
            low = (np.log(lower) - b[-1][f]) / power[f]
            high = (np.log(upper) - b[-1][f]) / power[f]
        lo = low if lo is None else np.maximum(lo, low)
        hi = high if hi is None else np.minimum(hi, high)
    trial.append(lo + (hi - lo) * rng.uniform(0.2, 0.6, size=(orders, draws)))
    if room is None:
        size = [reach[:, k, None] + trial[k] for k in range(count)]
        spread = functools.reduce(np.maximum, size) - functools.reduce(np.minimum, size)
    else:
        spread = (functools.reduce(np.maximum, [room[:, k, 0, None] - trial[k] for k in range(count)])
                  - functools.reduce(np.minimum, [room[:, k, 1, None] - trial[k] for k in range(count)]))
    # rank only the spacings whose largest option has room (most have none): each one's test is its own
    ok = hi > lo
    rows, cols = np.nonzero(ok)
    ok[rows, cols] = _ranked_rows(base[rows], power, [t[rows, cols] for t in trial], step, factor, floors, small_odd)
    spread = np.where(ok, spread, np.inf)
    if loose is None:
        best = spread.argmin(axis=1)
    else:  # a random one of the spacings within ``loose``, not the narrowest
        best = np.where(spread <= loose, rng.random(spread.shape), -1.0).argmax(axis=1)
    pick = np.arange(orders)
    return spread[pick, best], np.column_stack([t[pick, best] for t in trial])


def _ranked_rows(base: np.ndarray, power: np.ndarray, trial: Sequence[np.ndarray], step: float, factor: float,
                 floors: np.ndarray, small_odd: bool) -> np.ndarray:
    """``_ranked`` of the features ``exp(base + power * trial)`` (base: rows x options x features, trial: one
    array of rows per option), the same values to the bit, made and tested one feature at a time on the rows
    still in the running."""
    count, features = base.shape[1], base.shape[2]
    m = count // 2
    ok = np.ones(len(base), dtype=bool)
    live = np.arange(len(base))
    for f in range(features):
        v = [np.exp(base[live, k, f] + power[f] * trial[k][live]) for k in range(count)]
        good = functools.reduce(np.logical_and, [v[k + 1] >= v[k] * (1 + step) for k in range(count - 1)])
        low, high = v[m] - v[0], v[-1] - v[m]
        good &= (low >= (1 + step) * high) if small_odd else (high >= (1 + step) * low)
        good &= ((v[1] - v[0] <= factor * (v[-1] - v[1]) + floors[f])
                 & (v[-1] - v[-2] <= factor * (v[-2] - v[0]) + floors[f]))
        ok[live[~good]] = False
        live = live[good]
        if not len(live):
            break
    return ok


def balanced_sizes(rng: np.random.Generator, measure: Callable[[np.ndarray], Sequence[Mapping[str, float]]],
                   count: int, exponents: Mapping[str, float], rank: int, small_odd: bool, factor: float,
                   floors: Mapping[str, float], step: float, longest: float, draws: int,
                   rounds: int = 3, bounds: np.ndarray | None = None, loose: bool = False,
                   gap: float = 0.12) -> np.ndarray | None:
    """Drawn scales (the largest 1) for ``count`` options, the answer first, that leave the nuisance features
    no information about the answer - ``balanced_scales`` with one more freedom: every
    feature in ``exponents`` (name -> how it grows with the linear scale) ranks the options in one size order
    in which the answer is ``rank``-th smallest, and the smallest option (``small_odd``) or else the largest
    lies furthest from the median.  The caller draws ``rank`` and ``small_odd`` uniformly once per item, so
    largest, smallest, most atypical and most typical each point at the answer exactly 1/count of the time;
    letting either end be the atypical one (balanced_scales always makes it the smallest) lets figures whose
    ink and ink box grow differently with size share a narrower range of sizes.  ``measure(scales)`` returns
    the options' features drawn at those scales and each one's ``reach`` (its linear size); scales are
    predicted from a first measurement (feature ~ scale ** exponent) and measured again to confirm (half the
    ``step`` then suffices).  None if that needs sizes further apart than ``longest``.

    With ``bounds`` (options x (lowest, highest) scale, the natural size 1 among them) the scales are absolute
    instead: the search prefers the order and spacing that fit best inside the bounds, draws every option
    as large as they allow, and fails if no spacing fits (``longest`` is then ignored).

    With ``loose`` (and no bounds) the search takes a random one of the orders and spacings that need sizes
    at most ``longest`` apart instead of the narrowest: the narrowest spaces the options no further apart than
    their shapes demand, so how far apart the negative's ink, ink box and spread lie from its neighbours'
    told its shape (less ink for its box, say) from theirs."""
    names = list(exponents)
    power = np.array([float(exponents[n]) for n in names])
    floor = np.array([float(floors.get(n, 0.0)) for n in names])
    sigma = np.zeros(count)
    order = None
    logs = None if bounds is None else np.log(np.asarray(bounds, dtype=float))
    for attempt in range(rounds + 1):
        scales = np.exp(sigma - (sigma.max() if logs is None else 0.0))
        measured = measure(scales)
        values = np.array([[float(f[n]) for n in names] for f in measured])
        if order is not None and _ranked(values[order], step / 2, factor, floor, small_odd):
            return scales
        if attempt == rounds or (values <= 0).any():
            return None
        base = np.log(values) - power * sigma[:, None]
        reach = np.log([float(f["reach"]) for f in measured]) - sigma
        if order is None:  # the wrong options' order: the one needing the narrowest range of sizes
            orders = np.array([[*others[:rank], 0, *others[rank:]]
                               for others in itertools.permutations(range(1, count))])
        else:
            orders = order[None]
        within = math.log(longest) if loose and logs is None else None
        spread, trials = _spacings(rng, base[orders], power, step, factor, floor, reach[orders], draws, small_odd,
                                   None if logs is None else logs[orders], within, gap)
        fits = np.flatnonzero(spread <= within) if within is not None else np.zeros(0, dtype=int)
        best = int(fits[rng.integers(len(fits))]) if len(fits) else int(np.argmin(spread))
        if not spread[best] <= (math.log(longest) if logs is None else 0.0):
            return None
        order, trial = orders[best], trials[best]
        sigma = np.empty(count)
        sigma[order] = trial
        if logs is not None:
            sigma += float(np.min(logs[:, 1] - sigma))  # as large as the bounds allow
    return None  # pragma: no cover


class SizePlannedTask(MindsEyeTask):
    """An odd-one-out task whose unset concept is spread over consecutive items (any run of n items shows
    min(n, concepts) of them) and whose answer's place in the size order is balanced over them (spec §4.3:
    balance sub-types like the concept the same way as answer positions).

    ``plan`` gives ``build`` the (rank, small_odd) plan of ``balanced_sizes``: every (place, end) pair once in
    each block of ``2 * option_count`` consecutive items.
    """

    concept_order: tuple[str, ...] = ()

    def spread_choices(self) -> dict[str, tuple[Any, ...]]:
        """The base class's spread parameters and the concept (``concept_order``): an unset concept is filled in
        per source from one seeded order of the concepts repeated, and recorded in the item's params."""
        return {"concept": tuple(self.concept_order), **super().spread_choices()}

    def plan(self, params: Mapping[str, Any], random: ItemRandom, source: int) -> SizePlan:
        """The answer's place in the size order and its atypical end, balanced over consecutive items."""
        plan = random.balanced(2 * self.option_count, "size-plan", position=source)
        return SizePlan(plan % self.option_count, plan >= self.option_count)


def _ranked_small_end(values: np.ndarray, step: float, factor: float, floors: np.ndarray) -> np.ndarray:
    """Per candidate (leading axes), whether ``values`` (..., options in size order, features) rise by at least
    ``step`` from each option to the next in every feature, the smallest option lies further from the median
    than the largest one (by a ``step`` margin), and neither end is "singled out" (further from the others than
    ``factor`` times their spread plus the feature's floor, as in ``base.singled_out``)."""
    v = np.moveaxis(values, -2, 0)
    m = len(v) // 2  # the median the shortcut solvers use: sorted(values)[n // 2]
    ok = (v[1:] >= v[:-1] * (1 + step)).all(axis=0)
    ok &= v[m] - v[0] >= (1 + step) * (v[-1] - v[m])
    ok &= (v[1] - v[0] <= factor * (v[-1] - v[1]) + floors) & (v[-1] - v[-2] <= factor * (v[-2] - v[0]) + floors)
    return ok.all(axis=-1)


def _small_end_spacings(rng: np.random.Generator, base: np.ndarray, power: np.ndarray, step: float, factor: float,
              floors: np.ndarray, reach: np.ndarray, draws: int) -> tuple[float, np.ndarray] | None:
    """(range of log sizes, log scales): the log scales (smallest option 0) that put options with log features
    ``base`` at scale 1 (options in size order, features) in that order as ``_ranked_small_end`` demands, with the
    narrowest range of log ``reach`` (each option's linear size at scale 1) among ``draws`` candidates: all but
    the largest option spaced at random beyond what the order needs, the largest placed inside the interval the
    conditions leave for it.  None if no candidate works."""
    count = len(base)
    m = count // 2
    trial = np.zeros((draws, count))
    gaps = rng.uniform(0.0, 0.15, size=(draws, count - 2))
    for j in range(1, count - 1):
        need = (base[j - 1] + power * trial[:, j - 1, None] + math.log1p(step) - base[j]) / power
        trial[:, j] = need.max(axis=1) + gaps[:, j - 1]
    v = np.exp(base[None, :-1] + power * trial[:, :-1, None])  # features of all but the largest option
    # the largest option must clear the next one by a step, leave the smallest the odd one out and not be so
    # large (nor the smallest so small) that it is singled out
    lower = np.maximum(v[:, -1] * (1 + step), v[:, 1] + (v[:, 1] - v[:, 0] - floors) / factor)
    upper = v[:, m] + (v[:, m] - v[:, 0]) / (1 + step)
    lo = ((np.log(lower) - base[-1]) / power).max(axis=1)
    hi = ((np.log(upper) - base[-1]) / power).min(axis=1)
    trial[:, -1] = lo + (hi - lo) * rng.uniform(0.25, 0.75, size=draws)
    predicted = np.exp(base[None] + power * trial[..., None])
    size = reach[None] + trial
    spread = size.max(axis=1) - size.min(axis=1)
    ok = (hi > lo) & _ranked_small_end(predicted, step, factor, floors)
    if not ok.any():
        return None
    best = int(np.flatnonzero(ok)[np.argmin(spread[ok])])
    return float(spread[best]), trial[best]


def _small_end_spacings_of(rng: np.random.Generator, base: np.ndarray, power: np.ndarray, step: float,
                           factor: float, floors: np.ndarray, reach: np.ndarray, draws: int
                           ) -> list[tuple[float, np.ndarray] | None]:
    """``_small_end_spacings`` of several candidate orders at once (``base``: orders x options x features,
    ``reach``: orders x options), each the same to the bit as called alone, one after another: every order's
    random numbers are the ones those calls draw, in the same sequence (its gaps, then where its largest option
    goes, as ``Generator.uniform`` makes them from the same doubles).

    The arithmetic runs on one contiguous (orders, draws) array per option and feature, every element computed
    as ``_small_end_spacings``' broadcast expressions compute it, and the order conditions (``_ranked_rows``,
    which says what ``_ranked_small_end`` says) are tested only on the spacings whose largest option has room."""
    orders, count, features = base.shape
    m = count // 2
    raw = rng.random((orders, draws * (count - 1)))  # per order: its gaps, then its draws for the largest option
    gaps = (0.15 * raw[:, :draws * (count - 2)]).reshape(orders, draws, count - 2)  # as uniform(0.0, 0.15) makes them
    where = 0.25 + 0.5 * raw[:, draws * (count - 2):]  # as uniform(0.25, 0.75) makes them
    b, trial = _stepped_trials(base, power, math.log1p(step), gaps)
    lo = hi = None
    for f in range(features):
        v0, v1, vm, vl = (np.exp(b[k][f] + power[f] * trial[k]) for k in (0, 1, m, count - 2))
        lower = np.maximum(vl * (1 + step), v1 + (v1 - v0 - floors[f]) / factor)
        upper = vm + (vm - v0) / (1 + step)
        low = (np.log(lower) - b[-1][f]) / power[f]
        high = (np.log(upper) - b[-1][f]) / power[f]
        lo = low if lo is None else np.maximum(lo, low)
        hi = high if hi is None else np.minimum(hi, high)
    trial.append(lo + (hi - lo) * where)
    size = [reach[:, k, None] + trial[k] for k in range(count)]
    spread = functools.reduce(np.maximum, size) - functools.reduce(np.minimum, size)
    ok = hi > lo
    rows, cols = np.nonzero(ok)
    ok[rows, cols] = _ranked_rows(base[rows], power, [t[rows, cols] for t in trial], step, factor, floors, True)
    best = np.where(ok, spread, np.inf).argmin(axis=1)
    found: list[tuple[float, np.ndarray] | None] = []
    for k, d in enumerate(best.tolist()):
        found.append((float(spread[k, d]), np.array([t[k, d] for t in trial])) if ok[k, d] else None)
    return found


def balanced_scales(rng: np.random.Generator, measure: Callable[[np.ndarray], Sequence[Mapping[str, float]]],
                    count: int, exponents: Mapping[str, float], rank: int | None, factor: float,
                    floors: Mapping[str, float], step: float, longest: float, rounds: int = 3,
                    draws: int = 200) -> np.ndarray | None:
    """Drawn scales (the largest 1) for ``count`` >= 4 options, the answer first, that leave the nuisance
    features no information about the answer: EVERY feature in ``exponents`` (name -> how it grows with the
    linear scale) ranks the options in one size order in which the answer is ``rank``-th smallest, or None if
    that needs sizes further apart than ``longest`` (the measured ``reach``, which grows like the scale).

    Drawing every option at one normalised size leaves each feature to the option's shape, and shape goes with
    role (the right solid is one of a few regular kinds, foils are stretched variants...).  Here the caller
    draws ``rank`` uniformly, once per item, and keeps it through retries, so the answer is the largest, the
    smallest, the median (``sorted(values)[n // 2]``) ... option equally often in every feature, while the
    features of all options agree on the order (no option stands out by disagreeing).  The smallest option
    always lies furthest from the median, so "most atypical" means "smallest", and no option is singled out
    (``factor``, ``floors``: the audit's).  The wrong options take the order that needs the narrowest range.

    ``measure(scales)`` returns the options' features drawn at those scales by the final pipeline, and each
    one's ``reach`` (say the longer side of its box).  Scales are predicted from the last measurement
    (feature ~ scale ** exponent) and measured again to confirm (half the ``step`` then suffices).  The search
    is deterministic in ``rng``; it fails (for the caller to redraw the shapes, keeping ``rank``) only when the
    shapes differ too much for any order with the answer at ``rank``.

    With ``rank=None`` the order of all options, the answer's place included, is the one needing the narrowest
    range: the search then never looks at which option is the answer.  That is for callers whose options are
    exchangeable (the answer drawn uniformly among them after they were made), where it is the only sound
    choice: with the answer pinned at ``rank`` whatever its shape, while the others fit together as well as
    they can, the answer tends to stand further from its neighbours than they do.
    """
    names = list(exponents)
    power = np.array([float(exponents[n]) for n in names])
    floor = np.array([float(floors.get(n, 0.0)) for n in names])
    sigma = np.zeros(count)  # log scale per option
    order = None
    for attempt in range(rounds + 1):
        scales = np.exp(sigma - sigma.max())
        measured = measure(scales)
        values = np.array([[float(f[n]) for n in names] for f in measured])
        if attempt and _ranked_small_end(values[order], step / 2, factor, floor):
            return scales
        if attempt == rounds or (values <= 0).any():
            return None
        base = np.log(values) - power * sigma[:, None]  # log features at scale 1
        reach = np.log([float(f["reach"]) for f in measured]) - sigma
        if order is None:  # the wrong options' order (or every option's): the one needing the narrowest range
            best = None
            if rank is None:
                candidates = [np.array(p) for p in itertools.permutations(range(count))]
            else:
                candidates = [np.array([*p[:rank], 0, *p[rank:]]) for p in itertools.permutations(range(1, count))]
            picks = np.array(candidates)
            for candidate, found in zip(candidates, _small_end_spacings_of(rng, base[picks], power, step, factor, floor,
                                                                           reach[picks], draws), strict=True):
                if found is not None and (best is None or found[0] < best[0]):
                    best = (found[0], candidate, found[1])
            if best is None or best[0] > math.log(longest):
                return None
            _, order, trial = best
        else:
            found = _small_end_spacings_of(rng, base[order][None], power, step, factor, floor, reach[order][None],
                                           draws)[0]
            if found is None or found[0] > math.log(longest):
                return None
            trial = found[1]
        sigma = np.empty(count)
        sigma[order] = trial
    return None  # pragma: no cover
