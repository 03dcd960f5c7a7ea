"""Verifier of ``sphinx/wallpaper-groups``: every patch's wallpaper group is read back from its pixels.

For each patch (its box inside the frame, and the lattice basis in pixels the record claims):

1. the lattice's translations are checked on every inked pixel: each must carry the patch onto itself all but
   exactly (``PERIOD_HOLD``), so one copy turned, moved or left out is caught;
2. the lattice's own symmetries are found (integer matrices M in the reduced basis that act as rotations or
   reflections), and every one is checked as a group element on the pixels: the patch folded onto one cell of
   the lattice (every pixel's lattice coordinates modulo 1 pick a bin) tells roughly where the element's shift
   lies (cross-correlation of the fold with itself mapped by M), the shift is refined to the pixel (a shift that
   nearly holds has its neighbours measured on every sampled pixel, ``RECHECK``), and the map
   x -> A x + t is applied to a sample of the inked pixels: the share that does not land on ink of like darkness
   decides (the element is there at most ``HOLD``, absent at least ``FAIL``; anything between is a failure: the
   patch would be ambiguous to a person too).  Patterns on the hexagonal lattice cannot sit exactly on square
   pixels (sixth turns), so there a pixel may land one pixel off; elsewhere pixels are compared in place;
3. the best translation shorter than the lattice's (from the fold, at least ``SHORTEST`` px) must fail;
4. a reflection found is a mirror when some lattice translation cancels its shift along its axis, a glide when
   none does.

The group follows from the largest turn, the reflections and whether they are mirrors or glides, and (for cm
and cmm, p3m1 and p31m) how the mirror lines sit on the lattice.  A patch that does not show the group its record
names is read again thoroughly (every map that does not hold is measured again at the shifts of its fold's next
peaks: a motif nearly symmetric in itself can raise a peak where the map only roughly holds); only what the
pixels show decides.  Three patches must share one group and the
fourth show another, at the answer letter, and the record's group names must agree.  Nothing here knows how
a pattern was built.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
from PIL import Image, ImageChops

from bench_core import PALETTE_IMAGE
from bench_plugin_sphinx import wallpaper_words as words
from bench_plugin_sphinx.verifiers.odd_group import FRAME_DARK, has_black_frame, odd_one_failures
from bench_plugin_sphinx.verifiers.periodic import INK, darkness
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded

HOLD, FAIL = 0.05, 0.10
#: A map whose best shift, compared in place, reads between HOLD and RECHECK has the shifts a pixel around it
#: measured on every sampled pixel (``Pixels.best_of``); a patch read ``thorough`` has every map that does not hold
#: measured again at its fold's OTHER_PEAKS next peaks.
RECHECK, OTHER_PEAKS = 0.2, 3
#: The lattice's own translations must hold on all but this share of the inked pixels.
PERIOD_HOLD = 0.005
#: Bins per side of the fold: about one per BIN_PX pixels of the cell's side, within these bounds, raised to a count
#: the FFT handles fast (``fold_bins``; coarse on purpose: the fold only tells roughly where each element's shift
#: lies, and every bin must receive pixels).
BIN_PX, BINS = 2.6, (24, 128)
#: Inked pixels sampled for checking an element, at most (REFINE of them while its shift is searched for, CLIMB
#: while it is followed from neighbour to neighbour).
SAMPLES, REFINE, CLIMB = 1500, 120, 400
#: Windows of whole-pixel shifts an element's shift is searched in, at most, compared in place (``Pixels.best``; a
#: translation shorter than the lattice's is searched in one, so that it cannot walk back to no shift at all).
WANDER = 4
#: Inked pixels the translations are checked on where pixels are compared within one pixel (every one when
#: compared in place).
PERIOD_SAMPLES = 20000
#: No translation shorter than this (px) is looked for: copies of a motif cannot sit closer.
SHORTEST = 6
#: The fold reads the patch in blocks of STRIDE x STRIDE pixels, each its mean darkness at its centre (it only
#: estimates where each element's shift lies; a block, unlike one pixel of it, sees a stroke a pixel wide whichever
#: way the stroke runs).
STRIDE = 2


def reduced(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A Lagrange-Gauss reduced basis of the lattice spanned by ``u`` and ``v`` (shorter first)."""
    if u @ u > v @ v:
        u, v = v, u
    while True:
        k = round(float(u @ v) / float(u @ u))
        v = v - k * u
        if v @ v >= u @ u - 1e-9:
            return u, v
        u, v = v, u


def lattice_maps(basis: np.ndarray, tolerance: float = 0.02) -> list[np.ndarray]:
    """The integer matrices M (entries -1, 0, 1, det +-1) for which basis @ M @ basis^-1 is orthogonal: the
    linear maps carrying the lattice onto itself, in lattice coordinates."""
    q = basis @ _UNIMODULAR @ np.linalg.inv(basis)  # every candidate at once, in pixels
    error = np.abs(q @ np.swapaxes(q, 1, 2) - np.eye(2)).max(axis=(1, 2))
    return list(_UNIMODULAR[error <= tolerance])


#: The integer matrices with entries -1, 0, 1 and determinant +-1, in a fixed order.
_UNIMODULAR = np.array([m for m in (np.array(e).reshape(2, 2) - 1 for e in np.ndindex(3, 3, 3, 3))
                        if abs(int(m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0])) == 1])


def _order(m: np.ndarray) -> int:
    """The order of a rotation given in lattice coordinates (its trace is 2 cos of its angle)."""
    return {2: 1, -2: 2, 0: 4, -1: 3, 1: 6}[round(float(np.trace(m)))]


def _primitive(vector: np.ndarray) -> np.ndarray:
    v = np.rint(vector).astype(int)
    g = math.gcd(abs(int(v[0])), abs(int(v[1]))) or 1
    return v // g


def _kernel(k: np.ndarray) -> np.ndarray:
    """A primitive integer vector v with k @ v = 0 (k a singular, non-zero 2 x 2 integer matrix)."""
    row = k[0] if np.any(k[0]) else k[1]
    return _primitive(np.array((row[1], -row[0])))


def fold(dark: np.ndarray, basis: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(T, counts, bin of every block read): the patch folded onto the cell, T[i, j] the mean darkness of the
    STRIDE x STRIDE blocks whose centres' lattice coordinates are nearest (i, j) / bins modulo 1 (``blocks``).
    Blocks, not every STRIDE-th pixel: a stroke a pixel wide falls between the pixels read one way and not the
    other, so a quarter-turn of a pattern of fine strokes could fold onto another picture than the pattern's own."""
    h, w = dark.shape
    read, (xs, ys) = blocks(dark)
    inverse = np.linalg.inv(basis) * bins  # lattice coordinates in bins, linear in x and y: one row and column each
    # whole bins in int32 where every coordinate fits it with room to spare (a real patch's lattice: its remainder
    # is the faster), else in int64
    whole = np.int32 if float(np.abs(inverse).sum(axis=1).max()) * max(h, w) < 2.0**30 else np.int64
    i, j = (_whole_bins(inverse[row, 0] * xs, inverse[row, 1] * ys, whole, bins) for row in (0, 1))
    i *= whole(bins)
    i += j
    flat = i.ravel().astype(np.intp)
    counts = np.bincount(flat, minlength=bins * bins).astype(np.float64)
    sums = np.bincount(flat, weights=read.ravel().astype(np.float64), minlength=bins * bins)
    table = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0).reshape(bins, bins)
    return table.astype(np.float32), counts.reshape(bins, bins), flat


def blocks(dark: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """(the mean darkness of every whole STRIDE x STRIDE block of ``dark``, (x, y) of the blocks' centres in
    pixels): a patch's rim of fewer than STRIDE pixels is left out."""
    h, w = (side // STRIDE * STRIDE for side in dark.shape)
    means = np.zeros((h // STRIDE, w // STRIDE))
    for dy in range(STRIDE):  # one pixel of every block at a time (strided views: no reordering copy)
        for dx in range(STRIDE):
            means += dark[dy:h:STRIDE, dx:w:STRIDE]
    means /= STRIDE * STRIDE
    middle = (STRIDE - 1) / 2
    xs, ys = (np.arange(0, side, STRIDE, dtype=np.float64) + middle for side in (w, h))
    return means, (xs, ys)


def _whole_bins(across: np.ndarray, down: np.ndarray, whole: type, bins: int) -> np.ndarray:
    """``np.rint(across[None, :] + down[:, None]).astype(whole) % whole(bins)``, its sums and roundings in place
    (the same values: a sum's order does not change it), the remainder taken as x - (x // bins) * bins (the same
    integers: both floor; a floor division by one integer is many times faster than the remainder)."""
    values = np.add.outer(down, across)
    np.rint(values, out=values)
    out = values.astype(whole)
    quotient = np.floor_divide(out, whole(bins))
    quotient *= whole(bins)
    return np.subtract(out, quotient, out=out)


def _mapped(table: np.ndarray, m: np.ndarray) -> np.ndarray:
    """T composed with M: result[u] = T[M u] on the bins (modulo the grid)."""
    bins = table.shape[0]
    return table.ravel().take(_mapped_bins(bins, *(int(v) for v in np.asarray(m).ravel())))


@functools.lru_cache(maxsize=256)
def _mapped_bins(bins: int, m00: int, m01: int, m10: int, m11: int) -> np.ndarray:
    """The flat bin M u of every bin u of a ``bins`` x ``bins`` fold (``_mapped``'s gather; kept: a lattice kind's
    maps and a handful of bin counts recur in every item)."""
    i, j = np.arange(bins)[:, None], np.arange(bins)[None, :]
    mi = (m00 * i + m01 * j) % bins
    mj = (m10 * i + m11 * j) % bins
    flat = mi * bins + mj
    flat.flags.writeable = False
    return flat


def _best_shifts(table: np.ndarray, moved: np.ndarray, exclude: int = 0, spectrum: np.ndarray | None = None
                 ) -> np.ndarray:
    """For each table of ``moved`` (a stack), the circular shift (bins, to a fraction of a bin) that lays it best
    over ``table`` (cross-correlation on the torus), other than shifts within ``exclude`` bins of none; one row
    per moved table.  ``spectrum``: ``np.fft.rfft2(table)``, when already taken."""
    spectrum = np.fft.rfft2(table) if spectrum is None else spectrum
    corrs = np.fft.irfft2(spectrum * np.conj(np.fft.rfft2(moved)), s=table.shape)  # all tables in one transform
    return _peaks(corrs, exclude)


def _best_translation(spectrum: np.ndarray, bins: int, exclude: int) -> np.ndarray:
    """``_best_shifts(table, table[None], exclude, spectrum)[0]`` of the ``bins`` x ``bins`` table whose
    ``np.fft.rfft2`` is ``spectrum``: the table's own transform is not taken again (the very same values)."""
    return _peaks(np.fft.irfft2((spectrum * np.conj(spectrum))[None], s=(bins, bins)), exclude)[0]


def _best_map_shifts(spectrum: np.ndarray, maps: list[np.ndarray], bins: int) -> np.ndarray:
    """``_best_shifts(table, np.array([_mapped(table, m) for m in maps]), spectrum=spectrum)`` of the ``bins`` x
    ``bins`` table whose ``np.fft.rfft2`` is ``spectrum``, but each moved table's transform read off the table's
    own (``_mapped_spectrum``: T composed with M has the transform of T at M^-T k) instead of taken again: the
    same correlations but for the float32 rounding of the transforms (the tests hold the shifts to ``_best_shifts``'
    within a thousandth of a bin)."""
    return _peaks(_map_correlations(spectrum, maps, bins))


def _map_correlations(spectrum: np.ndarray, maps: list[np.ndarray], bins: int) -> np.ndarray:
    """The cross-correlations on the torus of the ``bins`` x ``bins`` table whose ``np.fft.rfft2`` is ``spectrum``
    with the table composed with each of ``maps`` (``_best_map_shifts``' correlations, each moved table's transform
    read off the table's own), shape (len(maps), bins, bins)."""
    flat = spectrum.ravel()
    moved = np.empty((len(maps), *spectrum.shape), spectrum.dtype)  # the conjugates of the moved tables' transforms
    for k, m in enumerate(maps):
        index, direct = _mapped_spectrum(bins, *(int(v) for v in np.asarray(m).ravel()))
        flat.take(index, out=moved[k])
        np.conjugate(moved[k], out=moved[k], where=direct)
    moved *= spectrum
    return np.fft.irfft2(moved, s=(bins, bins))  # all tables in one transform


def _other_peaks(corr: np.ndarray, count: int, apart: int) -> list[np.ndarray]:
    """The ``count`` highest bins of the correlation ``corr`` after its highest, each at least ``apart`` bins (on the
    torus, along either axis) from every higher one kept: shifts (bins) the fold ranks below its best."""
    n = corr.shape[0]
    kept: list[np.ndarray] = []
    for flat in np.argsort(corr, axis=None, kind="stable")[::-1].tolist():
        peak = np.array(divmod(flat, n), float)
        if all((np.minimum(np.abs(peak - k), n - np.abs(peak - k)) >= apart).any() for k in kept):
            kept.append(peak)
            if len(kept) > count:
                break
    return kept[1:]


@functools.lru_cache(maxsize=256)
def _mapped_spectrum(bins: int, m00: int, m01: int, m10: int, m11: int) -> tuple[np.ndarray, np.ndarray]:
    """(flat index into a ``bins`` x ``bins`` table's ``rfft2``, whether read there directly): where each frequency
    k of the rfft2 of T composed with M (``_mapped``) lies in T's own, at M^-T k, or (past the half the rfft2 keeps)
    conjugated at -M^-T k (kept: read only)."""
    det = m00 * m11 - m01 * m10  # +-1: M^-T is det * [[m11, -m10], [-m01, m00]]
    half = bins // 2 + 1
    k1, k2 = np.arange(bins)[:, None], np.arange(half)[None, :]
    p = (det * (m11 * k1 - m10 * k2)) % bins
    q = (det * (m00 * k2 - m01 * k1)) % bins
    flip = q >= half
    p = np.where(flip, -p % bins, p)
    q = np.where(flip, -q % bins, q)
    index, direct = p * half + q, ~flip
    index.flags.writeable = False
    direct.flags.writeable = False
    return index, direct


def _peaks(corrs: np.ndarray, exclude: int = 0) -> np.ndarray:
    """Per correlation on the torus of the stack ``corrs`` (changed in place where ``exclude``): its highest bin,
    not within ``exclude`` bins of none, moved to a fraction of a bin by a parabola through it and its two
    neighbours along each axis; one row per correlation."""
    n = corrs.shape[1]
    peaks = []
    for corr in corrs:
        if exclude:
            near = np.arange(-exclude, exclude + 1) % n
            corr[np.ix_(near, near)] = -np.inf
        i, j = np.unravel_index(int(np.argmax(corr)), corr.shape)
        peak = np.array((i, j), float)
        for axis, (di, dj) in enumerate(((1, 0), (0, 1))):  # a parabola through the peak and its two neighbours
            before, after = corr[(i - di) % n, (j - dj) % n], corr[(i + di) % n, (j + dj) % n]
            curve = before - 2 * corr[i, j] + after
            if np.isfinite(before) and np.isfinite(after) and curve < 0:
                peak[axis] += float(np.clip((before - after) / (2 * curve), -0.5, 0.5))
        peaks.append(peak)
    return np.array(peaks).reshape(-1, 2)


def fold_bins(longest: float) -> int:
    """Bins per side of the fold for a reduced basis whose longer vector is ``longest`` px: about one per BIN_PX
    px, within BINS, raised to the next count with no prime factor above 5 (the correlations on the torus are
    FFTs of that side: several times faster than at a nearby prime)."""
    n = int(min(BINS[1], max(BINS[0], round(longest / BIN_PX))))
    while True:
        m = n
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1


def _inked(dark: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero(dark > INK)`` (rows, columns, in reading order), faster."""
    return _rows_and_columns(np.flatnonzero(dark > INK), dark.shape[1])


def _rows_and_columns(flat: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.divmod(flat, width)`` (flat indices non-negative), the remainder as flat - rows * width: the same
    integers, several times faster."""
    rows = flat // width
    return rows, flat - rows * width


class Pixels:
    """The patch's darkness and a sample of its inked pixels (``samples`` of them spread over the patch, or all
    when None), for checking isometries x -> A x + t (pixels, x right, y down) on the pixels themselves."""

    def __init__(self, dark: np.ndarray | None, reach: int, samples: int | None = SAMPLES,
                 shared: tuple[np.ndarray, np.ndarray, np.ndarray | None, dict] | None = None,
                 low: np.ndarray | None = None):
        """``shared``: (rows, columns of the inked pixels, the darkness padded by two or None, what ``_levels`` and
        the padded arrays found), when another ``Pixels`` of the same ``dark`` has them (``share``).  ``low``: the
        darkest channels (uint8) whose ``darkness`` ``dark`` is, when known: pixels are then compared within
        ``reach`` > 0 in one gather, and in place on the bytes; ``dark`` may then be None (``darkness(low)``, taken
        when first asked for)."""
        self._dark, self.reach = dark, reach
        if dark is None and low is None:
            low = shared[3]["low"]  # another Pixels of the same darkest channels
        h, w = (dark if dark is not None else low).shape
        if shared is None:  # the inked pixels read off the bytes when known (``_INK_BYTES``: the same pixels)
            inked = _inked(dark) if low is None else _rows_and_columns(np.flatnonzero(low <= np.uint8(_INK_BYTES)), w)
            shared = (*inked, None, {})
        ys, xs, padded, self._known = shared
        if padded is not None:
            self._known.setdefault("padded", padded)
        every = max(1, -(-len(xs) // samples)) if samples else 1
        self._every = every
        self._points: np.ndarray | None = None
        self._values: np.ndarray | None = None
        self.h, self.w = h, w
        self._inked = (ys, xs)
        self._ink: np.ndarray | None = None
        self._inverses: dict[bytes, np.ndarray] = {}
        if low is not None:
            self._known.setdefault("low", low)

    @property
    def dark(self) -> np.ndarray:
        """The patch's darkness (``darkness`` of the darkest channels when not given: taken when first asked for,
        and shared)."""
        if self._dark is None:
            dark = self._known.get("dark")
            if dark is None:
                dark = self._known["dark"] = darkness(self._known["low"])
            self._dark = dark
        return self._dark

    @property
    def padded(self) -> np.ndarray:
        """The darkness padded by two (white), made when first asked for (compared in place on the bytes, or within
        a pixel by the levels, it is not) and shared."""
        padded = self._known.get("padded")
        if padded is None:
            padded = self._known["padded"] = np.pad(self.dark, 2)
        return padded

    def _padded_bytes(self) -> np.ndarray:
        """The darkest channels padded by two with white (byte 255: darkness 0, as the padded darkness's), shared."""
        padded = self._known.get("padded bytes")
        if padded is None:
            low = self._known["low"]
            padded = np.full((self.h + 4, self.w + 4), 255, np.uint8)
            padded[2:-2, 2:-2] = low
            self._known["padded bytes"] = padded
        return padded

    @property
    def points(self) -> np.ndarray:
        """(x, y) of the sampled inked pixels, floats (taken when first asked for: the translations of a patch on a
        square lattice never ask)."""
        if self._points is None:
            ys, xs = self._inked
            self._points = np.stack([xs[:: self._every], ys[:: self._every]], axis=1).astype(float)
        return self._points

    @property
    def values(self) -> np.ndarray:
        """The darkness of the sampled inked pixels (taken when first asked for)."""
        if self._values is None:
            ys, xs = self._inked
            self._values = self.dark[ys[:: self._every], xs[:: self._every]]
        return self._values

    def _low_values(self) -> np.ndarray:
        """The darkest channels' bytes of the sampled inked pixels (taken when first asked for)."""
        values = self._known.get(("low values", self._every))
        if values is None:
            ys, xs = self._inked
            values = self._known["low"][ys[:: self._every], xs[:: self._every]]
            self._known[("low values", self._every)] = values
        return values

    def _levels(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(per pixel of the padded darkness, flat, a bit for each darkness level of the inked pixels that some
        pixel within ``reach`` of it is alike to, by the float32 difference ``_both_ways`` takes; per sampled inked
        pixel, the bit of its own level), or None: compared in place, or the darkest channels unknown, or more
        than 64 levels inked (the task's snapped colours show 16 at most)."""
        if self.reach == 0 or "low" not in self._known:
            return None
        if "spread" not in self._known:
            self._known["spread"] = _level_spread(self._known["low"], self._inked, self.reach, (self.h + 4, self.w + 4))
        found = self._known["spread"]
        if found is None:
            return None
        spread, own = found
        return spread, own[:: self._every]

    def translation(self, t: np.ndarray) -> float:
        """``mismatch(identity, t)`` for a translation t; where pixels are compared in place, on every inked pixel,
        and t is whole pixels, counted by laying the darkness over itself moved by t (the same counts, at once)."""
        t = np.asarray(t, float)
        tx, ty = (int(v) for v in np.rint(t))
        h, w = self.h, self.w
        if self.reach or self._every != 1 or not np.array_equal(t, (tx, ty)):  # every inked pixel when every is 1
            by_levels = self._translation_by_levels(t) if self.reach else None
            return float(self.mismatch(np.eye(2), t)[0]) if by_levels is None else by_levels
        if abs(tx) >= w or abs(ty) >= h:  # no image lands in the patch
            return 1.0
        rows_here, cols_here = slice(max(0, -ty), h - max(0, ty)), slice(max(0, -tx), w - max(0, tx))
        rows_there, cols_there = slice(max(0, ty), h - max(0, -ty)), slice(max(0, tx), w - max(0, -tx))
        low = self._known.get("low")
        if low is not None:  # on the darkest channels' bytes: darkness differs by more than 0.1 where they differ by
            # _CHANGED_BYTES or more
            difference = np.subtract(low[rows_there, cols_there], low[rows_here, cols_here], dtype=np.int16)
            changed = np.abs(difference, out=difference) >= _CHANGED_BYTES
            if self._ink is None:
                self._ink = low <= np.uint8(_INK_BYTES)
        else:
            here = self.dark[rows_here, cols_here]  # p, with p + t in the patch
            there = self.dark[rows_there, cols_there]  # p + t
            difference = np.subtract(there, here)
            changed = np.abs(difference, out=difference) > 0.1
        if self._ink is None:  # the inked pixels, for every translation (``dark > INK``, read once)
            self._ink = self.dark > INK
        # the inked pixels mapped one way, and the other
        ink_here, ink_there = self._ink[rows_here, cols_here], self._ink[rows_there, cols_there]
        compared = np.count_nonzero(ink_here) + np.count_nonzero(ink_there)
        both = np.count_nonzero(ink_here & changed) + np.count_nonzero(ink_there & changed)
        return both / compared if compared else 1.0

    def _translation_by_levels(self, t: np.ndarray) -> float | None:
        """``mismatch(identity, t)[0]`` compared within ``reach`` by the levels (``_levels``), when t lies clearly off
        every half pixel (else None): the images p + t and p - t of the sampled inked pixels p, whole pixels, then
        round to p + rint(t) and p - rint(t) (the sums' own rounding error, far below 1e-9 at these sizes, cannot
        carry one across a half), so each direction is the inked pixels moved by whole pixels: those of the rows
        whose images lie inside the patch found by bisection (the pixels run in reading order), the rest as
        ``_both_ways_of`` counts them."""
        levels = self._levels()
        whole = np.rint(t)
        if levels is None or not (np.abs(np.abs(t - whole) - 0.5).min() > 1e-9 and np.abs(t).max() < 2.0**20):
            return None
        spread, own = levels
        ys, xs = self._inked
        ys, xs = ys[:: self._every], xs[:: self._every]
        r, width = self.reach, self.w + 4
        changed = compared = 0
        for tx, ty in ((int(whole[0]), int(whole[1])), (-int(whole[0]), -int(whole[1]))):
            rows = slice(*np.searchsorted(ys, (r - ty, self.h - r - ty)))  # r <= y + ty < h - r
            inside = xs[rows] >= r - tx
            inside &= xs[rows] < self.w - r - tx
            at = (ys[rows] + (ty + 2)) * width + (xs[rows] + (tx + 2))
            found = spread.take(at[inside]) & own[rows][inside]
            compared += len(found)
            changed += int(np.count_nonzero(found == 0))
        return changed / compared if compared else 1.0

    def share(self) -> tuple[np.ndarray, np.ndarray, None, dict]:
        """What another ``Pixels`` of the same darkness can reuse (``shared``; the padded arrays, made when first
        asked for, are shared through the last)."""
        return (*self._inked, None, self._known)

    def _images(self, a: np.ndarray, shifts: np.ndarray, every: int) -> tuple[np.ndarray, np.ndarray]:
        """(x, y) of the images a p + t of every ``every``-th sampled inked pixel p, per shift t (rows of
        ``shifts``), rounded to whole pixels (as floats): (shifts, points) each."""
        image = self.points[::every] @ a.T
        return np.rint(image[:, 0] + shifts[:, 0, None]), np.rint(image[:, 1] + shifts[:, 1, None])

    def _both_ways(self, a: np.ndarray, shifts: np.ndarray, limit: int | None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(changed, compared) of x -> a x + t, then of its inverse x -> a^-1 (x - t), per shift t (rows of
        ``shifts``): sampled inked pixels p whose image lies in the patch (at least ``reach`` from its edge), and of
        those the ones with no pixel of like darkness (within 0.3, or 0.1 when compared in place) within ``reach``
        of the image.  Both maps' images are compared in one pass."""
        return self._both_ways_of([(a, shifts)], limit)[0]

    def _both_ways_of(self, pairs: list[tuple[np.ndarray, np.ndarray]], limit: int | None
                      ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """``_both_ways(a, shifts, limit)`` for each (a, shifts) of ``pairs``, every map's images compared in one
        pass (each row of images, and so each count, as the map's own call makes it)."""
        every = max(1, -(-len(self.points) // limit)) if limit else 1  # spread over the whole patch
        points = self.points[::every]
        sizes = [len(shifts) for _a, shifts in pairs]
        n = sum(sizes)
        qx, qy = np.empty((2 * n, len(points))), np.empty((2 * n, len(points)))  # (2 shifts, points)
        start = 0
        for (a, shifts), size in zip(pairs, sizes, strict=True):
            inverse = self._inverse(a)
            for rows, (image, moved) in ((slice(start, start + size), (points @ a.T, shifts)),
                                         (slice(n + start, n + start + size), (points @ inverse.T,
                                                                               -shifts @ inverse.T))):
                # ``_images``' sums and roundings, written in place
                np.rint(np.add(image[:, 0], moved[:, 0, None], out=qx[rows]), out=qx[rows])
                np.rint(np.add(image[:, 1], moved[:, 1, None], out=qy[rows]), out=qy[rows])
            start += size
        r = self.reach  # the image's whole neighbourhood inside the patch: nothing is known beyond its edge
        inside = qx >= r
        inside &= qx < self.w - r
        inside &= qy >= r
        inside &= qy < self.h - r
        step = np.float32(0.3 if self.reach else 0.1)
        width = self.w + 4  # the padded arrays'
        # flat gathers (faster than 2-D ones); an image outside the patch reads a clipped index, never counted.
        # Inside, qx and qy are whole and small: qy * width + qx is exact, the padding's offset added per neighbour
        qy *= width
        qy += qx
        at = qy.astype(np.intp)
        levels = self._levels()
        if levels is not None:  # the levels within reach of each pixel, in one gather: the same verdicts
            found = levels[0].take(at + (2 * width + 2), mode="clip")
            found &= levels[1][::every]
            compared = np.count_nonzero(inside, axis=1)
            inside &= found == 0
        elif r == 0 and "low" in self._known:  # in place, on the bytes: alike where they differ by less than
            # _CHANGED_BYTES (``_byte_steps``: exactly where the darkness differs by 0.1 or less)
            found = self._padded_bytes().ravel().take(at + (2 * width + 2), mode="clip")
            difference = np.subtract(found, self._low_values()[::every], dtype=np.int16)
            compared = np.count_nonzero(inside, axis=1)
            inside &= np.abs(difference, out=difference) >= _CHANGED_BYTES
        else:
            flat, values = self.padded.ravel(), self.values[::every]
            same = None
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    found = flat.take(at + ((dy + 2) * width + dx + 2), mode="clip")
                    found -= values
                    alike = np.abs(found, out=found) <= step
                    same = alike if same is None else np.logical_or(same, alike, out=same)
            compared = np.count_nonzero(inside, axis=1)
            inside &= ~same
        changed = np.count_nonzero(inside, axis=1)
        out, start = [], 0
        for size in sizes:
            ahead, back = slice(start, start + size), slice(n + start, n + start + size)
            out.append((changed[ahead], compared[ahead], changed[back], compared[back]))
            start += size
        return out

    def _inverse(self, a: np.ndarray) -> np.ndarray:
        """``np.linalg.inv(a)``, computed once per map (a map's shift is searched for at many shifts)."""
        key = a.tobytes()
        if key not in self._inverses:
            self._inverses[key] = np.linalg.inv(a)
        return self._inverses[key]

    def mismatch(self, a: np.ndarray, shifts: np.ndarray, limit: int | None = None) -> np.ndarray:
        """Per shift t, the share of compared inked pixels that x -> a x + t, or its inverse, does not carry onto
        ink of like darkness: 0 for a symmetry of the patch (1 when nothing can be compared)."""
        return self.mismatch_of([(a, shifts)], limit)[0]

    def mismatch_of(self, pairs: list[tuple[np.ndarray, np.ndarray]], limit: int | None = None) -> list[np.ndarray]:
        """``mismatch(a, shifts, limit)`` for each (a, shifts) of ``pairs``, measured in one pass."""
        pairs = [(np.asarray(a, float), np.atleast_2d(np.asarray(shifts, float))) for a, shifts in pairs]
        out = []
        for c1, n1, c2, n2 in self._both_ways_of(pairs, limit):
            total = n1 + n2
            out.append(np.where(total > 0, (c1 + c2) / np.maximum(total, 1), 1.0))
        return out

    def best(self, a: np.ndarray, t: np.ndarray, radius: int, windows: int = 1) -> tuple[float, np.ndarray]:
        """(mismatch, shift): the map's shift refined from ``t`` (the fold's bins are coarser than a pixel), then
        measured on every sampled pixel.  Compared in place, an exactly drawn pattern matches nowhere near its
        shift but at it, so every whole-pixel step within ``radius`` is tried; compared within a pixel, the
        mismatch falls smoothly towards the shift, which is followed from neighbour to better neighbour.  In place, a
        motif of long straight bars also mismatches less and less along them towards the shift, and the fold's
        estimate can lie further off than ``radius`` along them: while the best trial lies on the window's rim, the
        window is moved to it (up to ``windows`` windows in all)."""
        return self.best_of([(a, t)], radius, windows)[0]

    def best_of(self, pairs: list[tuple[np.ndarray, np.ndarray]], radius: int, windows: int = 1
                ) -> list[tuple[float, np.ndarray]]:
        """``best(a, t, radius, windows)`` for each (a, t) of ``pairs``: every map's search steps taken together
        (each map's trials, choices and end exactly as its own search takes them), each step's trials of all the
        maps still searching measured in one pass, and the final measures in one."""
        pairs = [(np.asarray(a, float), np.asarray(t, float)) for a, t in pairs]
        shifts: list[np.ndarray] = []
        if self.reach == 0:
            window = _square_window(radius)
            shifts = [np.rint(t) for _a, t in pairs]
            searching = list(range(len(pairs)))
            for _window in range(windows):  # the best trial on the window's rim: the window moves there
                if not searching:
                    break
                trials = [shifts[j] + window for j in searching]
                scores = self.mismatch_of([(pairs[j][0], tried) for j, tried in zip(searching, trials, strict=True)],
                                          limit=REFINE)
                still = []
                for j, tried, score in zip(searching, trials, scores, strict=True):
                    k = int(np.argmin(score))
                    shifts[j] = tried[k]
                    if np.abs(window[k]).max() >= radius:
                        still.append(j)
                searching = still
        else:
            steps = [np.zeros(2) for _ in pairs]
            known: list[dict[tuple[float, float], float]] = [{} for _ in pairs]
            searching = list(range(len(pairs)))
            for _step in range(radius):  # whole-pixel steps from t, each shift measured once
                if not searching:
                    break
                tried = [steps[j] + NEIGHBOURS for j in searching]
                every_scores = self._remembered_of([(pairs[j][0], pairs[j][1], trial, known[j])
                                                    for j, trial in zip(searching, tried, strict=True)])
                still = []
                for j, trial, scores in zip(searching, tried, every_scores, strict=True):
                    k = int(np.argmin(scores))
                    steps[j] = trial[k]
                    if k != 4:  # the centre: no neighbour does better
                        still.append(j)
                searching = still
            shifts = [t + step for (_a, t), step in zip(pairs, steps, strict=True)]
        finals = [float(final[0]) for final in
                  self.mismatch_of([(a, shift) for (a, _t), shift in zip(pairs, shifts, strict=True)])]
        if self.reach == 0:
            # the search's trials read REFINE pixels: where a motif's strokes are wide, a shift a pixel off can
            # mismatch none of them and be taken, so a shift that nearly holds has its neighbours measured on
            # every sampled pixel too
            near = [j for j, final in enumerate(finals) if HOLD < final < RECHECK]
            measured = self.mismatch_of([(pairs[j][0], shifts[j] + NEIGHBOURS) for j in near])
            for j, values in zip(near, measured, strict=True):
                k = int(np.argmin(values))
                if values[k] < finals[j]:
                    finals[j], shifts[j] = float(values[k]), shifts[j] + NEIGHBOURS[k]
        return list(zip(finals, shifts, strict=True))

    def _remembered_of(self, climbs: list[tuple[np.ndarray, np.ndarray, np.ndarray, dict[tuple[float, float], float]]]
                       ) -> list[np.ndarray]:
        """``_remembered(a, t, steps, known)`` for each (a, t, steps, known) of ``climbs``, the new steps of all
        measured in one pass."""
        keys = [list(map(tuple, steps.tolist())) for _a, _t, steps, _known in climbs]  # (x, y) floats, by step
        new = [[k for k, key in enumerate(mine) if key not in known] for mine, (_a, _t, _s, known)
               in zip(keys, climbs, strict=True)]
        wanted = [(j, (a, t + steps[fresh])) for j, ((a, t, steps, _known), fresh) in enumerate(zip(climbs, new,
                                                                                                   strict=True))
                  if fresh]
        if wanted:
            measured = self.mismatch_of([pair for _j, pair in wanted], limit=CLIMB)
            for (j, _pair), values in zip(wanted, measured, strict=True):
                mine, known = keys[j], climbs[j][3]
                known.update(zip([mine[k] for k in new[j]], values.tolist(), strict=True))
        return [np.array([known[key] for key in mine]) for mine, (_a, _t, _s, known) in zip(keys, climbs,
                                                                                           strict=True)]

    def _remembered(self, a: np.ndarray, t: np.ndarray, steps: np.ndarray, known: dict[tuple[float, float], float]
                    ) -> np.ndarray:
        """``mismatch(a, t + steps, limit=CLIMB)`` (``steps`` whole pixels), measuring only the steps not already in
        ``known`` (the climb's scores so far, by step; added to): a step's neighbourhood overlaps the last one's."""
        keys = [(float(x), float(y)) for x, y in steps]
        new = [k for k, key in enumerate(keys) if key not in known]
        if new:
            measured = self.mismatch(a, t + steps[new], limit=CLIMB).tolist()
            known.update(zip([keys[k] for k in new], measured, strict=True))
        return np.array([known[key] for key in keys])


def _byte_steps() -> tuple[int, int]:
    """(the least difference of two darkest-channel bytes whose ``darkness`` values differ by more than 0.1, by the
    float32 difference ``Pixels.translation`` takes; the largest byte whose darkness is ink, above ``INK``),
    each checked on every byte or pair of bytes to stand for the formula exactly."""
    dark = darkness(np.arange(256, dtype=np.uint8).reshape(1, 256))[0]
    differs = np.abs(np.subtract(dark[None, :], dark[:, None])) > 0.1
    gap = np.abs(np.arange(256)[None, :] - np.arange(256)[:, None])
    least = int(gap[differs].min())
    inked = dark > INK
    top = int(np.flatnonzero(inked).max())
    if not np.array_equal(differs, gap >= least) or not np.array_equal(inked, np.arange(256) <= top):
        raise AssertionError("darkness does not order the bytes as the byte comparisons assume")
    return least, top


_CHANGED_BYTES, _INK_BYTES = _byte_steps()


def _level_spread(low: np.ndarray, inked: tuple[np.ndarray, np.ndarray], reach: int, shape: tuple[int, int]
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """``Pixels._levels`` of the darkest channels ``low`` (uint8), the inked pixels (rows, columns) and a padding of
    two: each darkness level of the inked pixels gets a bit; a pixel's word holds the bits of the levels alike
    (within 0.3, as ``_both_ways`` compares: the float32 difference of the ``darkness`` values) to its own
    darkness, ORed over every pixel within ``reach``."""
    ys, xs = inked
    bytes_inked = low[ys, xs]
    levels = np.flatnonzero(np.bincount(bytes_inked, minlength=256))
    if len(levels) > 64:
        return None
    kind = np.uint16 if len(levels) <= 16 else np.uint32 if len(levels) <= 32 else np.uint64
    bits = np.left_shift(kind(1), np.arange(len(levels), dtype=kind))
    every = darkness(np.arange(256, dtype=np.uint8).reshape(1, 256))[0]  # each byte's darkness, as ``dark``'s
    alike = np.abs(every[:, None] - every[levels][None, :]) <= np.float32(0.3)  # [byte found, inked level]
    table = np.bitwise_or.reduce(np.where(alike, bits[None, :], kind(0)), axis=1).astype(kind)
    one = np.full(shape, table[255], kind)  # the padding is white: darkness 0, as byte 255's
    h, w = low.shape
    one[2: 2 + h, 2: 2 + w] = table.take(low)
    rows = one.copy()  # the bits within reach, one axis at a time (a gather centres at least two from the rim)
    for d in range(1, reach + 1):
        rows[:, d:-d] |= one[:, : -2 * d] | one[:, 2 * d:]
    spread = rows.copy()
    for d in range(1, reach + 1):
        spread[d:-d] |= rows[: -2 * d] | rows[2 * d:]
    index = np.zeros(256, np.intp)
    index[levels] = np.arange(len(levels))
    return spread.ravel(), bits.take(index.take(bytes_inked))


@functools.lru_cache(maxsize=16)
def _square_window(radius: int) -> np.ndarray:
    """Every whole-pixel step (dx, dy) within ``radius`` each way, dy slow, dx fast (kept: read only)."""
    steps = np.arange(-radius, radius + 1)
    window = np.array([(dx, dy) for dy in steps for dx in steps], float)
    window.flags.writeable = False
    return window


NEIGHBOURS = np.array([(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], float)


def read_group(patch: np.ndarray, basis_rows, thorough: bool = False) -> tuple[str | None, dict[str, float], list[str]]:
    """(group, measurements, failures) of one patch's pixels (RGB, inside the frame) and claimed lattice basis
    (two vectors in pixels, x right, y down).  ``thorough``: every map that does not hold at the shift the fold's
    best peak leads to is measured again at the shifts its next OTHER_PEAKS peaks lead to (a motif nearly symmetric
    in itself can raise a peak at a shift where the map only roughly holds, above the one where it holds)."""
    u, v = reduced(np.array(basis_rows[0], float), np.array(basis_rows[1], float))
    basis = np.stack([u, v], axis=1)
    area = abs(float(np.linalg.det(basis)))
    patch = np.asarray(patch)
    low = None
    if patch.dtype == np.uint8:  # the darkest channels (an (h, w) patch is taken as them, as ``darkness`` does)
        low = patch if patch.ndim == 2 else np.minimum(np.minimum(patch[:, :, 0], patch[:, :, 1]), patch[:, :, 2])
    dark = darkness(patch if low is None else low)
    h, w = dark.shape
    failures: list[str] = []
    if area < 64 or area > h * w / 2:
        return None, {}, [f"the claimed lattice cell ({area:.0f} px^2) does not fit the patch twice"]
    maps = lattice_maps(basis)
    # a lattice with sixth or third turns cannot be drawn exactly on square pixels: compare within one pixel
    hexagonal = any(round(np.linalg.det(m)) == 1 and _order(m) in (3, 6) for m in maps)
    pixels = Pixels(dark, reach=1 if hexagonal else 0, low=low)
    bins = fold_bins(max(np.hypot(*u), np.hypot(*v)))
    table = fold(dark, basis, bins)[0]
    spectrum = np.fft.rfft2(table)
    centre = np.array(((w - 1) / 2, (h - 1) / 2))

    def central(a: np.ndarray, t: np.ndarray) -> np.ndarray:
        """The shift t + (a lattice vector) that keeps the patch's centre nearest itself under x -> a x + t, so
        that the map lays most of the patch over the patch (the fold gives t only modulo the lattice)."""
        return t + basis @ np.rint(np.linalg.solve(basis, centre - a @ centre - t))

    identity = np.eye(2)
    reach = math.ceil((np.hypot(*u) + np.hypot(*v)) / (2 * bins)) + 1  # how far a shift read off the fold may be out
    # the lattice's translations carry every copy onto one drawn from the very same sprite (at most a pixel away
    # where positions are rounded), so they are checked on every inked pixel and must hold all but exactly:
    # one copy turned, moved or left out shows here
    every = Pixels(dark, reach=pixels.reach, samples=None if pixels.reach == 0 else PERIOD_SAMPLES,
                   shared=pixels.share())
    periods = [every.translation(vec) for vec in (u, v)]
    scores = {"period-a": float(periods[0]), "period-b": float(periods[1])}
    bin_px = math.sqrt(area) / bins
    shorter = basis @ (_best_translation(spectrum, bins, max(1, math.ceil(SHORTEST / bin_px))) / bins)
    # searched close to the fold's estimate only (one pixel, two steps): it lies SHORTEST px or more from no
    # shift at all, which a wider search could walk back to
    scores["shorter-translation"] = pixels.best(identity, central(identity, shorter), 1)[0]
    found, maps_px = [], {}
    seen = _one_of_each(maps)  # a turn and its inverse stand or fall together (both directions are checked)
    taus = _best_map_shifts(spectrum, seen, bins) / bins
    inverse = np.linalg.inv(basis)
    in_pixels = [basis @ m @ inverse for m in seen]  # the map in pixels: u -> M (u - tau) is x -> a x - B M tau
    starts = list(zip(in_pixels, _central(basis, centre, [(a, -basis @ m @ tau) for a, m, tau
                                                          in zip(in_pixels, seen, taus, strict=True)]), strict=True))
    refined = pixels.best_of(starts, reach, WANDER)
    # tau again, refined (modulo the lattice): one solve per map, in one batched call
    taus = _solved([basis @ m for m in seen], [shift for _score, shift in refined])
    for m, a, (score, shift), tau in zip(seen, in_pixels, refined, taus, strict=True):
        name = f"M{m.ravel().tolist()}"
        scores[name] = score
        found.append((name, m, -tau))
        maps_px[name] = (a, shift)
    def keep_better(k: int, score: float, shift: np.ndarray) -> None:
        """Map ``found[k]`` measured again: its reading, shift and tau taken where ``score`` beats its own."""
        name, m, _tau = found[k]
        if score < scores[name]:
            scores[name] = score
            found[k] = (name, m, -np.linalg.solve(basis @ m, shift))
            maps_px[name] = (maps_px[name][0], shift)

    # the fold's peak can miss a map that is the product of two that hold (a half-turn under a quarter-turn that holds,
    # its square; a mirror under a half-turn and the other mirror): such a map is measured again at the product's
    # shift, x -> a1 (a2 x + t2) + t1, still on the pixels
    for k, (name, m, _tau) in enumerate(found):
        if scores[name] <= HOLD:
            continue
        # the pairs of maps that hold, in the order of every pair (only ``name``'s own score changes below, and a map
        # that does not hold is never one of a pair)
        holding = [(first, m1) for first, m1, _ in found if scores[first] <= HOLD]
        for (first, m1), (second, m2) in itertools.product(holding, repeat=2):
            if scores[name] <= HOLD:
                break
            if not np.array_equal(m1 @ m2, m):
                continue
            (a1, t1), t2 = maps_px[first], maps_px[second][1]
            a, _ = maps_px[name]
            keep_better(k, *pixels.best(a, central(a, a1 @ t2 + t1), reach, WANDER))
    if thorough:
        for k, (name, m, _tau) in enumerate(found):
            if scores[name] <= HOLD:
                continue
            a, _ = maps_px[name]
            peaks = _other_peaks(_map_correlations(spectrum, [m], bins)[0], OTHER_PEAKS, 2)
            for score, shift in pixels.best_of([(a, central(a, -basis @ m @ (peak / bins))) for peak in peaks], reach,
                                               WANDER):
                keep_better(k, score, shift)
    held = {}
    for name, value in scores.items():
        hold = PERIOD_HOLD if name.startswith("period") else HOLD
        if FAIL > value > hold:
            failures.append(f"{name} neither holds nor clearly fails (mismatch {value:.3f})")
        held[name] = value <= hold
    if not (held["period-a"] and held["period-b"]):
        failures.append(f"the patch does not repeat with the claimed lattice (mismatch {scores['period-a']:.3f}, "
                        f"{scores['period-b']:.3f})")
    if held["shorter-translation"]:
        failures.append("the patch repeats with a translation shorter than the claimed lattice's")
    elements = [(m, tau) for name, m, tau in found if held[name]]
    elements += [(np.rint(np.linalg.inv(m)).astype(int), None) for m, _tau in elements
                 if round(np.linalg.det(m)) == 1 and _order(m) > 2]
    group, problem = classify(elements, basis)
    if problem:
        failures.append(problem)
    return group, scores, failures


def _central(basis: np.ndarray, centre: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """For each (a, t) of ``pairs``, ``t + basis @ np.rint(np.linalg.solve(basis, centre - a @ centre - t))`` (as
    ``read_group``'s ``central``): the very values of one solve each, every solve done in one batched call."""
    steps = _solved([basis] * len(pairs), [centre - a @ centre - t for a, t in pairs])
    return [t + basis @ np.rint(step) for (_a, t), step in zip(pairs, steps, strict=True)]


def _solved(matrices: list[np.ndarray], rights: list[np.ndarray]) -> list[np.ndarray]:
    """``[np.linalg.solve(m, r) for m, r in zip(matrices, rights)]`` (2 x 2 systems) in one batched call: the same
    LAPACK solve of each system, so the very values."""
    if not matrices:
        return []
    return list(np.linalg.solve(np.array(matrices), np.array(rights)[:, :, None])[:, :, 0])


def _one_of_each(maps: list[np.ndarray]) -> list[np.ndarray]:
    """The maps but the identity, and of a map and its inverse the first only: each map m kept unless it is the
    identity or m @ k is for a k kept before (the products written out on the integer entries)."""
    seen, kept = [], []
    for m in maps:
        a, b, c, d = (int(x) for x in np.asarray(m).ravel())
        if (a, b, c, d) == (1, 0, 0, 1) or any(a * p + b * r == 1 and a * q + b * s == 0 and c * p + d * r == 0
                                               and c * q + d * s == 1 for p, q, r, s in kept):
            continue
        kept.append((a, b, c, d))
        seen.append(m)
    return seen


def _pure(m: np.ndarray, tau: np.ndarray) -> bool:
    """Whether the reflection u -> M (u - tau) (lattice coordinates) is a mirror: some lattice translation
    cancels its shift along its axis, i.e. (I + M) tau lies in (I + M) Z^2."""
    s = np.eye(2, dtype=int) + m
    axis = _kernel(np.eye(2, dtype=int) - m)  # the direction M keeps
    step = abs(int(np.gcd.reduce([int(x) for x in (s @ np.array((1, 0))).tolist() + (s @ np.array((0, 1))).tolist()
                                  if x != 0] or [1])))
    along = s @ tau  # lies on the axis line
    k = along @ axis / (axis @ axis)
    return abs(k / step - round(k / step)) < 0.1


def classify(elements, basis: np.ndarray) -> tuple[str | None, str | None]:
    """(group, problem): the wallpaper group whose point group holds exactly the rotations and reflections in
    ``elements`` ((M, shift) pairs in lattice coordinates), or None and why not."""
    rotations = [m for m, _ in elements if round(np.linalg.det(m)) == 1]
    reflections = [(m, tau) for m, tau in elements if round(np.linalg.det(m)) == -1]
    n = max([_order(m) for m in rotations], default=1)
    expected_rotations = {1: 0, 2: 1, 3: 2, 4: 3, 6: 5}[n]
    if len(rotations) != expected_rotations or len(reflections) not in (0, n):
        return None, (f"the turns and reflections found ({len(rotations)} turns, largest of order {n}; "
                      f"{len(reflections)} reflections) do not form a point group")
    if not reflections:
        return {1: "p1", 2: "p2", 3: "p3", 4: "p4", 6: "p6"}[n], None
    pure = [_pure(m, tau) for m, tau in reflections]
    if n == 1:
        return ("cm" if _centred(reflections[0][0]) else "pm") if pure[0] else "pg", None
    if n == 2:
        if all(pure):
            return ("cmm" if _centred(reflections[0][0]) else "pmm"), None
        return ("pmg" if any(pure) else "pgg"), None
    if n == 4:
        return ("p4m" if all(pure) else "p4g"), None
    if n == 6:
        return "p6m", None
    axis = _kernel(np.eye(2, dtype=int) - reflections[0][0])  # n == 3: where the mirror lines run
    shortest = min(np.hypot(*basis[:, 0]), np.hypot(*basis[:, 1]))
    return ("p31m" if abs(np.hypot(*(basis @ axis)) - shortest) < 0.01 * shortest else "p3m1"), None


def _centred(m: np.ndarray) -> bool:
    """Whether the lattice is centred with respect to the reflection M: the lattice vectors along and across
    its axis span only half the lattice."""
    along = _kernel(np.eye(2, dtype=int) - m)
    across = _kernel(np.eye(2, dtype=int) + m)
    return abs(round(float(np.linalg.det(np.stack([along, across], axis=1))))) == 2


def darkest_in(image: Image.Image, box) -> np.ndarray:
    """The darkest channel of each pixel of the RGB ``image`` in ``box`` (left, top, right, bottom), uint8 (h, w):
    ``channels.darkest(rgb_pixels(image)[top:bottom, left:right])``, taken by Pillow on the box alone (the whole
    picture's RGB array is never made).  A palette ("P") picture is read as ``image.convert("RGB")``: each
    palette index's darkest channel looked up (``_palette_channels``) on the box's indices."""
    if image.mode == "P":
        if _within(image, box):
            return np.asarray(image.crop(tuple(box)).point(_palette_channels(image)[0]))
        image = image.convert("RGB")  # a box reaching past the picture reads black there, as RGB's crop does
    red, green, blue = image.crop(tuple(box)).split()
    return np.asarray(ImageChops.darker(ImageChops.darker(red, green), blue))


def framed(image: Image.Image, box) -> bool:
    """``has_black_frame(rgb_pixels(image), box)`` read off the four strips two pixels wide alone (of a palette
    picture, each palette index's lightest channel looked up on the strips' indices)."""
    left, top, right, bottom = box
    if right - left < 2 or bottom - top < 2:
        return has_black_frame(rgb_pixels(image), box)
    strips = ((left, top, right, top + 2), (left, bottom - 2, right, bottom), (left, top, left + 2, bottom),
              (right - 2, top, right, bottom))
    if image.mode == "P":
        if not _within(image, box):
            return framed(image.convert("RGB"), box)
        lightest = np.array(_palette_channels(image)[1], np.uint8)
        return max(int(lightest.take(np.asarray(image.crop(strip))).max()) for strip in strips) <= FRAME_DARK
    return max(int(np.asarray(image.crop(strip)).max()) for strip in strips) <= FRAME_DARK


def _within(image: Image.Image, box) -> bool:
    """Whether ``box`` lies inside the picture (a crop then reads no pixel from past its edge)."""
    left, top, right, bottom = (int(v) for v in box)
    return 0 <= left <= right <= image.width and 0 <= top <= bottom <= image.height


def _palette_channels(image: Image.Image) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(darkest, lightest channel) of every palette index 0-255 of the palette picture ``image``, as its
    ``convert("RGB")`` reads the index (indices past the palette included)."""
    return _palette_tables(bytes(image.getpalette() or ()))


@functools.lru_cache(maxsize=64)
def _palette_tables(palette: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``_palette_channels`` of a palette (RGB triples), kept: a run's pictures share a few palettes."""
    probe = Image.frombytes("P", (256, 1), bytes(range(256)))
    probe.putpalette(palette)
    rgb = np.asarray(probe.convert("RGB"))[0]
    return tuple(rgb.min(axis=1).tolist()), tuple(rgb.max(axis=1).tolist())


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    if words.DEFINITION not in item.question or not any(stem in item.question for stem in words.STEMS):
        failures.append("the question does not state the wallpaper definition and one of the task's stems")
    # RGB as decoded, or a palette picture read through its palette (``darkest_in``, ``framed``): the same pixels.
    # A decoded palette PNG keeps its picture as stored beside its RGB (``bench_core.PALETTE_IMAGE``): read that
    image = images[0].info.get(PALETTE_IMAGE, images[0])
    image = image if image.mode in ("RGB", "P") else image.convert("RGB")
    found = []
    for k, patch in enumerate(scene["patches"]):
        if not framed(image, scene["option_boxes"][k]):
            failures.append(f"patch {'abcd'[k]} has no black frame")
        patch_low = darkest_in(image, patch["box"])
        group, _scores, problems = read_group(patch_low, patch["basis"])
        if group != patch["group"] or problems:  # read again, every map's shift searched for harder
            group, _scores, problems = read_group(patch_low, patch["basis"], thorough=True)
        failures += [f"patch {'abcd'[k]}: {p}" for p in problems]
        if group is not None and group != patch["group"]:
            failures.append(f"patch {'abcd'[k]} shows {group} on its pixels, the record says {patch['group']}")
        found.append(group)
    return [*failures, *odd_one_failures(found, item.answer, "patch", "patches")]
