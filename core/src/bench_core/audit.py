"""``bench audit``: can the answer be predicted from the options alone, without the question stem?

A generic blind-option probe for every multiple-choice task.  Each option is described by features that
say nothing about the task's rule: for options drawn as image panels (boxes in ``metadata.scene``), the
panel's ink, extent, ink centroid, colourfulness, edge density, edge orientation and the perceptual-hash
distances to the other options (is it a near-twin of one? the odd one out?); for options given as text,
the text's length, its numeric value and the rate at which that exact option text is correct elsewhere in
the dataset.  Every feature also enters as its rank and its z-score within the item, and the position of
the option.  A conditional-logit classifier (a softmax over the options of one item) is fitted and scored
by k-fold cross-validation; its accuracy is compared with chance (the mean of 1/options), with a binomial
standard deviation.  Single features whose max- or min-rule beats chance by more than three standard
deviations are listed as leaks.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from bench_core.dataset import read_items
from bench_core.errors import DatasetError
from bench_core.types import Item, option_letters

#: Ink: a pixel whose darkest channel is more than this below white.
INK_THRESHOLD = 60
#: Cross-validation folds.
FOLDS = 5
#: Pixels trimmed from each side of an option box (its frame).
FRAME = 3


@attrs.frozen
class TaskAudit:
    """The probe's result for one task."""

    task: str
    items: int
    options: float  # mean option count
    chance: float
    accuracy: float
    sd: float  # binomial standard deviation of the accuracy under chance
    kind: str  # "image" or "text"
    leaks: tuple[tuple[str, float], ...] = ()  # (feature rule, accuracy) beyond chance + 3 sd

    @property
    def z(self) -> float:
        return (self.accuracy - self.chance) / self.sd if self.sd else 0.0

    @property
    def ok(self) -> bool:
        """Within chance + 3 sd."""
        return self.accuracy <= self.chance + 3 * self.sd

    def as_dict(self) -> dict[str, Any]:
        return {**attrs.asdict(self), "leaks": [list(x) for x in self.leaks], "z": round(self.z, 2), "ok": self.ok}


def answer_index(item: Item) -> int | None:
    """The index of the correct option: the answer's letter, the answer text among the options, or a 1-based
    option number; None when the item has no options."""
    if not item.options:
        return None
    options = list(item.options)
    if item.answer_type == "option":
        letters = option_letters(len(options))
        return letters.index(item.answer) if item.answer in letters else None
    if item.answer in options:
        return options.index(item.answer)
    if item.answer.isdigit() and 1 <= int(item.answer) <= len(options):
        return int(item.answer) - 1
    return None


# -- option features -------------------------------------------------------------------------------------
def _dhash(grey: np.ndarray) -> np.ndarray:
    """A 64-bit difference hash of a grey tile: 9x8 block means, compared left to right."""
    h, w = grey.shape
    rows = np.linspace(0, h, 9).astype(int)
    cols = np.linspace(0, w, 10).astype(int)
    blocks = np.add.reduceat(np.add.reduceat(grey, rows[:-1], axis=0), cols[:-1], axis=1)
    sizes = np.outer(np.diff(rows), np.diff(cols))
    means = blocks / np.maximum(sizes, 1)
    return (means[:, 1:] > means[:, :-1]).ravel()


def panel_features(tile: np.ndarray) -> dict[str, float]:
    """Rule-blind features of one option panel (RGB array)."""
    pixels = tile[FRAME:-FRAME, FRAME:-FRAME].astype(np.float32)
    low, high = pixels.min(axis=2), pixels.max(axis=2)
    grey = pixels.mean(axis=2)
    ink = low < 255 - INK_THRESHOLD
    h, w = ink.shape
    features = {"ink": float(ink.mean()), "colourfulness": float((high - low).mean() / 255.0)}
    if ink.any():
        rows, cols = np.nonzero(ink)
        features["extent"] = float((np.ptp(rows) + 1) * (np.ptp(cols) + 1) / ink.size)
        features["centre_x"] = float(cols.mean() / w)
        features["centre_y"] = float(rows.mean() / h)
        cy, cx = rows - rows.mean(), cols - cols.mean()
        cxx, cyy, cxy = float((cx * cx).mean()), float((cy * cy).mean()), float((cx * cy).mean())
        spread = cxx + cyy
        features["elongation"] = math.hypot(cxx - cyy, 2 * cxy) / spread if spread else 0.0
        features["spread"] = math.sqrt(spread) / max(h, w)
    else:
        features.update(extent=0.0, centre_x=0.5, centre_y=0.5, elongation=0.0, spread=0.0)
    gx = np.diff(grey, axis=1)[:-1, :]
    gy = np.diff(grey, axis=0)[:, :-1]
    energy = gx * gx + gy * gy
    total = float(energy.sum())
    features["edges"] = float(np.sqrt(energy).mean() / 255.0)
    # 0 when every edge is horizontal or vertical, 1 when every edge runs at 45 degrees
    features["diagonal_edges"] = float(2 * np.abs(gx * gy).sum() / total) if total else 0.0
    return features


def _hash_features(hashes: Sequence[np.ndarray]) -> list[dict[str, float]]:
    n = len(hashes)
    out = []
    for k in range(n):
        distances = [float(np.count_nonzero(hashes[k] != hashes[j])) for j in range(n) if j != k]
        out.append({"twin_distance": min(distances), "mean_distance": sum(distances) / len(distances)})
    return out


def image_option_features(item: Item, image: Any) -> list[dict[str, float]] | None:
    """Features of every option panel of ``item`` cut from ``image`` at ``scene.option_boxes``."""
    boxes = (item.metadata.get("scene") or {}).get("option_boxes")
    if not boxes or not item.options or len(boxes) != len(item.options):
        return None
    pixels = np.asarray(image.convert("RGB"))
    tiles = [pixels[t:b, left:r] for left, t, r, b in boxes]
    rows = [panel_features(tile) for tile in tiles]
    hashes = [_dhash(tile[FRAME:-FRAME, FRAME:-FRAME].astype(np.float32).mean(axis=2)) for tile in tiles]
    for row, extra in zip(rows, _hash_features(hashes), strict=True):
        row.update(extra)
    return rows


def _number(text: str) -> float | None:
    try:
        value = float(text.replace(",", "").strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def text_option_features(item: Item) -> list[dict[str, float]]:
    """Features of every text option (its answer-rate prior is added per fold by the probe)."""
    rows = []
    values = [_number(o) for o in item.options or ()]
    numeric = all(v is not None for v in values)
    for option, value in zip(item.options or (), values, strict=True):
        row = {"length": float(len(option)), "words": float(len(option.split()))}
        if numeric:
            row["value"] = float(value)  # type: ignore[arg-type]
        rows.append(row)
    return rows


# -- the probe --------------------------------------------------------------------------------------------
@attrs.define
class _Sample:
    features: list[dict[str, float]]
    answer: int
    texts: list[str]
    group: str = ""  # items of one group (a Cartesian/Polar pair: ``Item.pair``) share a fold


def _design(samples: Sequence[_Sample], names: Sequence[str], prior: Mapping[str, float] | None) -> list[np.ndarray]:
    """Per item, an (options x columns) matrix: raw value, within-item z-score and rank of every feature,
    the option's position, and (text options) the option text's answer rate in the training fold."""
    matrices = []
    for sample in samples:
        n = len(sample.features)
        raw = np.array([[row.get(name, 0.0) for name in names] for row in sample.features], dtype=np.float64)
        mean, std = raw.mean(axis=0), raw.std(axis=0)
        z = np.where(std > 1e-12, (raw - mean) / np.where(std > 1e-12, std, 1.0), 0.0)
        ranks = raw.argsort(axis=0).argsort(axis=0) / max(n - 1, 1)
        odd = np.abs(z)
        position = (np.arange(n) / max(n - 1, 1))[:, None]
        columns = [z, ranks, odd, position]
        if prior is not None:
            columns.append(np.array([[prior.get(t, 0.0)] for t in sample.texts]))
        matrices.append(np.hstack(columns))
    return matrices


def _fit(matrices: Sequence[np.ndarray], answers: Sequence[int], steps: int = 300, l2: float = 1e-2) -> np.ndarray:
    """Weights of a conditional logit (softmax over each item's options), by gradient descent on the mean
    negative log-likelihood with an L2 penalty.  Items are grouped by option count and handled as arrays."""
    dims = matrices[0].shape[1]
    scale = np.concatenate(matrices).std(axis=0)
    scale[scale < 1e-9] = 1.0
    groups: dict[int, list[int]] = {}
    for i, m in enumerate(matrices):
        groups.setdefault(m.shape[0], []).append(i)
    stacks = [
        (np.stack([matrices[i] / scale for i in idx]), np.array([answers[i] for i in idx])) for idx in groups.values()
    ]
    weights = np.zeros(dims)
    total = len(matrices)
    for _ in range(steps):
        grad = l2 * weights
        for x, a in stacks:
            logits = x @ weights
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            grad += (np.einsum("ind,in->d", x, p) - x[np.arange(len(a)), a].sum(axis=0)) / total
        weights -= 0.5 * grad
    return weights / scale


def _prior(samples: Sequence[_Sample]) -> dict[str, float]:
    """How often each option text is the correct one among the items it appears in (smoothed)."""
    shown: dict[str, int] = {}
    right: dict[str, int] = {}
    for s in samples:
        for k, text in enumerate(s.texts):
            shown[text] = shown.get(text, 0) + 1
            right[text] = right.get(text, 0) + (k == s.answer)
    base = sum(1 / len(s.texts) for s in samples) / max(len(samples), 1)
    return {t: (right[t] + base) / (shown[t] + 1) for t in shown}


def probe(samples: Sequence[_Sample], kind: str, folds: int = FOLDS) -> tuple[float, list[tuple[str, float]]]:
    """Cross-validated accuracy of the blind classifier, and single-feature rules that beat chance.

    The items of one group (``_Sample.group``: the two renderings of a pair, which share their options and
    answer) always fall in the same fold, so that one cannot give its twin's answer away; ungrouped items
    (each its own group) take folds round-robin in their order."""
    names = sorted({name for s in samples for row in s.features for name in row})
    numbers: dict[str, int] = {}
    order = np.array([numbers.setdefault(s.group, len(numbers)) for s in samples])
    position = np.arange(len(samples))
    hits = 0
    for fold in range(folds):
        test = position[order % folds == fold]
        train = position[order % folds != fold]
        if not len(test) or not len(train):
            continue
        train_samples = [samples[i] for i in train]
        prior = _prior(train_samples) if kind == "text" else None
        weights = _fit(_design(train_samples, names, prior), [s.answer for s in train_samples])
        for i, m in zip(test, _design([samples[i] for i in test], names, prior), strict=True):
            hits += int(np.argmax(m @ weights) == samples[i].answer)
    accuracy = hits / len(samples)
    rules = []
    for name in names:
        for rule in ("max", "min", "odd", "typical"):
            correct = 0
            for s in samples:
                values = np.array([row.get(name, 0.0) for row in s.features])
                if rule in ("odd", "typical"):
                    values = np.abs(values - np.median(values)) * (1 if rule == "odd" else -1)
                elif rule == "min":
                    values = -values
                correct += int(np.argmax(values) == s.answer and np.count_nonzero(values == values[s.answer]) == 1)
            rules.append((f"{rule} {name}", correct / len(samples)))
    return accuracy, rules


def option_sample(item: Item, load_image: Callable[[Item], Any]) -> tuple[str, _Sample] | None:
    """What the probe reads of one item, with its kind: ("image", the features of its option panels) when its
    options are panels of its first image (``load_image(item)`` gives that image, decoded), else ("text", the
    features of its option texts); None when the item has no options.  Small and picklable, so a worker that
    has just built an item can hand it back instead of the item's PNGs."""
    index = answer_index(item)
    if index is None:
        return None
    kind, rows = "text", None
    if (item.metadata.get("scene") or {}).get("option_boxes") and item.images:
        kind = "image"
        rows = image_option_features(item, load_image(item))
    if rows is None:
        rows = text_option_features(item)
    return kind, _Sample(rows, index, list(item.options or ()), item.pair or item.id)


def audit_samples(task_id: str, found: Iterable[tuple[str, _Sample] | None]) -> TaskAudit | None:
    """The probe over one task's ``option_sample`` results (None if the task is not multiple choice)."""
    samples: list[_Sample] = []
    kind = "text"
    for entry in found:
        if entry is None:
            continue
        if entry[0] == "image":
            kind = "image"
        samples.append(entry[1])
    groups = len({s.group for s in samples})
    if groups < 2 * FOLDS:
        return None
    chance = float(np.mean([1 / len(s.texts) for s in samples]))
    # the items of a group share their options and answer: the probe's verdicts on them are not independent,
    # so the binomial spread is that of one draw per group
    sd = math.sqrt(chance * (1 - chance) / groups)
    accuracy, rules = probe(samples, kind)
    leaks = tuple(sorted(((r, round(a, 4)) for r, a in rules if a > chance + 3 * sd), key=lambda x: -x[1]))
    return TaskAudit(task_id, len(samples), float(np.mean([len(s.texts) for s in samples])), round(chance, 4),
                     round(accuracy, 4), round(sd, 4), kind, leaks)


def audit_items(task_id: str, items: Sequence[Item], root: Path) -> TaskAudit | None:
    """The probe over one task's items written under ``root`` (None if the task is not multiple choice)."""
    from bench_core.images import decode_png

    def load(item: Item) -> Any:
        path = root / item.images[0]
        if not path.is_file():
            raise DatasetError(f"image {item.images[0]} of {item.id} is missing")
        return decode_png(path.read_bytes())

    return audit_samples(task_id, (option_sample(item, load) for item in items))


def audit_dataset(root: str | os.PathLike[str]) -> list[TaskAudit]:
    """The probe over every multiple-choice task of a dataset directory, in task order."""
    root = Path(root)
    by_task: dict[str, list[Item]] = {}
    for item in read_items(root):
        by_task.setdefault(item.task_id, []).append(item)
    if not by_task:
        raise DatasetError(f"{root} holds no items")
    results = []
    for task_id in sorted(by_task):
        result = audit_items(task_id, by_task[task_id], root)
        if result is not None:
            results.append(result)
    return results


def format_audit(results: Sequence[TaskAudit]) -> str:
    """A table: task, items, chance, blind accuracy, z, verdict, and the leaking features."""
    if not results:
        return "no multiple-choice task with enough items (at least 10) to audit"
    lines = [f"{'task':<34} {'kind':<5} {'items':>6} {'chance':>7} {'blind':>7} {'+3sd':>7} {'z':>6}  verdict"]
    for r in results:
        verdict = "ok" if r.ok else "LEAK"
        lines.append(f"{r.task:<34} {r.kind:<5} {r.items:>6} {r.chance:>7.3f} {r.accuracy:>7.3f} "
                     f"{r.chance + 3 * r.sd:>7.3f} {r.z:>6.2f}  {verdict}")
        for rule, acc in r.leaks[:5]:
            lines.append(f"{'':<34}   leaking feature: {rule} picks the answer {acc:.1%} of the time")
    return "\n".join(lines)
