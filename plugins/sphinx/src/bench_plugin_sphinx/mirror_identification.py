"""``sphinx/mirror-identification`` (paper B.3.1, spec T11): which mirror symmetry does a square scene of motif
copies have: vertical, horizontal, main diagonal, anti-diagonal, vertical + horizontal, or none?

Construction: seed copies of asymmetric motifs (one family, each copy its own draw) are placed inside the
class's fundamental region (the left half, the top-left quadrant, the triangle below the main diagonal, the
triangle above the anti-diagonal, or anywhere for "none"), clear of the axis, and the seed layer is
completed by the class's mirrors.  The finished bitmap is then measured on every axis: each of the class's
axes must hold exactly and every other axis must fail clearly, or the scene is drawn again.  All six
classes are offered, in shuffled order, each in one of three phrasings.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import mirror_words as words
from bench_plugin_sphinx.kit import complexity, motifs, probe
from bench_plugin_sphinx.kit.distractors import other_letters
from bench_plugin_sphinx.kit.layout import LETTERS
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import mirror as verifier

#: The mirror operations (``kit.probe`` names) each class is closed under.
CLASS_OPS = {
    "vertical": ("mirror",), "horizontal": ("flip",), "main-diagonal": ("transpose",),
    "anti-diagonal": ("transverse",), "both-axes": ("mirror", "flip"), "none": (),
}
AXES = ("mirror", "flip", "transpose", "transverse")
#: Copies of one seed in the finished scene.
ORBIT = {"vertical": 2, "horizontal": 2, "main-diagonal": 2, "anti-diagonal": 2, "both-axes": 4, "none": 1}
#: Motif copies in a scene (the paper's 2..8): the complexity knob.
COUNT_RANGE = (2, 8)
BORDER = 4
#: Pixels kept free between a seed copy and the class's axis, and between two copies.
AXIS_PAD, GAP = 8, 8
#: Generator's acceptance: an axis holds when at most HOLD of the inked pixels change under its mirror, and
#: fails when at least FAIL change; anything between is too close to call and the scene is drawn again.
HOLD, FAIL = 0.02, 0.3
ATTEMPTS = 80


def allowed_counts(cls: str) -> list[int]:
    """Motif counts a class can show: multiples of its orbit within COUNT_RANGE."""
    return [n for n in range(COUNT_RANGE[0], COUNT_RANGE[1] + 1) if n % ORBIT[cls] == 0]


def canvas_side(count: int) -> int:
    """The scene's side: 300 px for two copies, growing with the count (the paper's 300-490)."""
    return 300 + 30 * (count - 2)


def _inside(cls: str, side: int, x: int, y: int, m: int) -> bool:
    """Whether the box (x, y, m) lies in the class's fundamental region, at least AXIS_PAD from its axes."""
    half, pad = side / 2, AXIS_PAD
    lo, hi = BORDER + pad, side - BORDER - pad
    if x < lo or y < lo or x + m > hi or y + m > hi:
        return False
    if cls == "vertical":
        return x + m <= half - pad
    if cls == "horizontal":
        return y + m <= half - pad
    if cls == "both-axes":
        return x + m <= half - pad and y + m <= half - pad
    if cls == "main-diagonal":  # below the ↘ diagonal: every point has row > column
        return y - (x + m) >= pad * 1.5
    if cls == "anti-diagonal":  # above the ↙ diagonal: every point has row + column < side
        return (x + m) + (y + m) <= side - pad * 1.5
    return True


def _place(cls: str, side: int, seeds: int, m: int, rng: np.random.Generator) -> list[list[int]] | None:
    """Top-left corners of ``seeds`` boxes of side ``m``, in the fundamental region, GAP apart; None when the
    random placement does not fit."""
    boxes: list[list[int]] = []
    for _ in range(seeds):
        for _attempt in range(200):
            x, y = (int(v) for v in rng.integers(BORDER, side - BORDER - m, 2))
            if not _inside(cls, side, x, y, m):
                continue
            apart = (x + m + GAP <= bx or bx + m + GAP <= x or y + m + GAP <= by or by + m + GAP <= y
                     for bx, by in boxes)
            if all(apart):
                boxes.append([x, y])
                break
        else:
            return None
    return boxes


def compose(scene: dict[str, Any]) -> np.ndarray:
    """The scene's pixels: the seed copies drawn in place, completed by the class's mirrors, framed."""
    side = scene["side"]
    seed = np.full((side, side, 3), 255, np.uint8)
    for copy in scene["seeds"]:
        x, y, m = copy["box"]
        seed[y: y + m, x: x + m] = motifs.render(copy["motif"], m)
    full = seed
    for op in scene["ops"]:  # the darker of each pixel and its mirror image: every copy of the orbit kept
        full = np.minimum(full, probe.apply(op, full))
    full[:BORDER], full[-BORDER:], full[:, :BORDER], full[:, -BORDER:] = 0, 0, 0, 0
    return np.ascontiguousarray(full)


def colour_keys(full: np.ndarray) -> np.ndarray:
    """Each pixel's colour inside the frame as one integer 0xBBGGRR (uint32): Pillow's 4-byte pixels read as
    little-endian words, the pad byte masked off."""
    height, width = full.shape[:2]
    words = np.frombuffer(Image.fromarray(full).tobytes("raw", "RGBX"), dtype="<u4").reshape(height, width)
    return words[BORDER:-BORDER, BORDER:-BORDER] & np.uint32(0xFFFFFF)


def axis_change(full: np.ndarray, op: str, key: np.ndarray | None = None) -> float:
    """Fraction of non-white pixels (inside the frame, of the scene or its mirror image) whose colour changes
    under the mirror ``op`` (``key``: the scene's ``colour_keys``, when already read)."""
    key = colour_keys(full) if key is None else key
    white = key == 0xFFFFFF
    ink = ~(white & probe.apply(op, white))
    total = np.count_nonzero(ink)
    if not total:
        return 0.0
    return float(np.count_nonzero((key != probe.apply(op, key)) & ink) / total)


def scene_holds(full: np.ndarray, cls: str) -> bool:
    """The construction's acceptance: the class's axes hold, every other axis clearly fails."""
    key = colour_keys(full)
    for op in AXES:
        change = axis_change(full, op, key)
        if op in CLASS_OPS[cls]:
            if change > HOLD:
                return False
        elif change < FAIL:
            return False
    return True


class MirrorIdentification(PaperSets, task="mirror-identification"):
    def generate(self, params, random):
        rng = random.rng
        cls = params["symmetry"] or cyclic(random, words.CLASSES, "class-order")
        family = params["motif"] or cyclic(random, tuple(motifs.FAMILIES), "motif-order")
        level = params.get("difficulty")
        counts = allowed_counts(cls)
        if level is None:
            count = int(counts[int(rng.integers(len(counts)))])
        else:
            count = complexity.knob_for_level(level, counts, *COUNT_RANGE, rng)
        side = canvas_side(count)
        seeds = count // ORBIT[cls]
        for _attempt in range(ATTEMPTS):
            scene = self._draw(cls, family, count, side, seeds, rng)
            if scene is not None:
                full = compose(scene)
                if scene_holds(full, cls):
                    break
        else:
            raise GenerationError(f"mirror-identification: no valid {cls} scene of {family} in {ATTEMPTS} attempts")
        position = random.balanced(len(words.CLASSES), "answer")
        others = [c for c in words.CLASSES if c != cls]
        others = [others[int(k)] for k in rng.permutation(len(others))]
        keys = [*others[:position], cls, *others[position:]]
        texts = [words.LABELS[k][int(rng.integers(len(words.LABELS[k])))] for k in keys]
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        listed = ", ".join(f"({LETTERS[i]}) {t}" for i, t in enumerate(texts))
        question = f"{stem} {listed}. Answer with one letter (a–f)."
        record = complexity.record("motifs", count, *COUNT_RANGE, source="ours")
        scene.update(option_keys=keys, image_size=[side, side])
        metadata = {
            "scene": scene,
            "symmetry": cls,
            "motif": family,
            "complexity": record,
            "paper_answer": f"({LETTERS[position].lower()})",
            **({} if level is None else {"difficulty_knobs": {"motifs": count}}),
        }
        return Problem(question=question, answer="ABCDEF"[position], image_size=(side, side),
                       params={**params, "symmetry": cls, "motif": family}, options=texts, answer_type="option",
                       metadata=metadata, structure=full)

    def _draw(self, cls, family, count, side, seeds, rng) -> dict[str, Any] | None:
        m = int(side * (0.34 - 0.02 * (count - 2)))
        boxes = None
        while boxes is None and m >= 40:
            boxes = _place(cls, side, seeds, m, rng)
            if boxes is None:
                m = int(m * 0.92)
        if boxes is None:
            return None
        copies = []
        for x, y in boxes:
            for _try in range(40):
                spec = motifs.sample(family, rng, "asym")
                if not probe.invariant_ops(motifs.render(spec, 96), probe.REFLECTIONS + probe.ROTATIONS):
                    break
            else:
                return None
            copies.append({"motif": spec, "box": [x, y, m]})
        return {"class": cls, "family": family, "count": count, "side": side, "border": BORDER,
                "ops": list(CLASS_OPS[cls]), "seeds": copies}

    def render(self, problem):
        full = problem.structure if problem.structure is not None else compose(problem.metadata["scene"])
        return [Image.fromarray(full)]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return other_letters(problem.answer, count, "ABCDEF")

    def hardness(self, item):
        """The number of motif copies in the scene (the knob)."""
        return float(item.metadata["scene"]["count"])


TASK = MirrorIdentification()
