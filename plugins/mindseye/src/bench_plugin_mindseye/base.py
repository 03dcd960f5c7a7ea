"""The base class of every Mind's Eye task: balanced answer positions, layout, prompt styles, option
roles in metadata, and the generic verify checks (exactly one option satisfies the rule by the task's
independent solver; options differ visibly; no nuisance feature singles out the answer)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from PIL import Image

from bench_core import Problem
from bench_core.seeding import ItemRandom
from bench_core.task import TaskImplementation
from bench_core.types import option_letters
from bench_plugin_mindseye.descriptions.common import DIFFICULTIES, PROMPT_STYLES
from bench_plugin_mindseye.layout import SIZES, Layout
from bench_plugin_mindseye.options import Option, Stimulus, arrange
from bench_plugin_mindseye.prompts import PromptTexts, build_question

#: Ink: a pixel darker/more saturated than this distance from white counts as drawn.
INK_THRESHOLD = 60


def option_features(tile: Image.Image) -> dict[str, float]:
    """Nuisance features of one option tile: ink fraction, ink bounding-box area fraction, mean saturation.

    Computed from per-channel minima and maxima (a pixel is ink when its darkest channel is more than
    ``INK_THRESHOLD`` below white), which is several times faster than a reduction over the colour axis.
    """
    pixels = np.asarray(tile.convert("RGB"))[3:-3, 3:-3]  # ignore the frame
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    low = np.minimum(np.minimum(r, g), b)
    high = np.maximum(np.maximum(r, g), b)
    ink = low < 255 - INK_THRESHOLD
    area = 0.0
    if ink.any():
        rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
        area = (rows[-1] - rows[0] + 1) * (cols[-1] - cols[0] + 1) / ink.size
    saturation = (high - low).mean(dtype=np.float64) / 255.0
    return {"ink": float(ink.mean()), "extent": float(area), "saturation": float(saturation)}


def singled_out(values: Sequence[float], answer: int, factor: float, floor: float) -> bool:
    """True if ``values[answer]`` is the unique extreme and sits further from the others than ``factor`` times
    their own spread plus ``floor`` (a nuisance feature that would let a solver pick the answer)."""
    others = [v for k, v in enumerate(values) if k != answer]
    value = values[answer]
    if min(others) <= value <= max(others):
        return False
    spread = max(others) - min(others)
    gap = min(abs(value - min(others)), abs(value - max(others)))
    return gap > factor * spread + floor


class MindsEyeTask(TaskImplementation):
    """Subclasses set the class attributes and implement ``build``, ``draw_query``, ``draw_option``, ``solve``."""

    code: ClassVar[str]
    art: ClassVar[str]
    texts: ClassVar[PromptTexts]
    option_count: ClassVar[int] = 4
    option_columns: ClassVar[int] = 4
    query_count: ClassVar[int] = 1
    #: Nuisance audit: how far (times the foils' spread, plus a floor) the answer may stand out.
    nuisance_factor: ClassVar[float] = 2.0
    nuisance_floor: ClassVar[dict[str, float]] = {"ink": 0.01, "extent": 0.05, "saturation": 0.03}
    #: Mean absolute pixel difference (0-255) below which two options count as looking the same.
    min_option_difference: ClassVar[float] = 1.0

    # -- what a task implements ------------------------------------------------------------------
    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any]) -> Stimulus:
        """The stimulus: query contents and options (one correct, one confound, fillers)."""
        raise NotImplementedError

    def draw_query(self, content: Any, side: int) -> Image.Image:
        """One query panel, ``side`` x ``side`` pixels."""
        raise NotImplementedError

    def draw_option(self, content: Any, side: int) -> Image.Image:
        """One option panel, ``side`` x ``side`` pixels."""
        raise NotImplementedError

    def solve(self, stimulus: Stimulus, shown: Sequence[Option]) -> list[int]:
        """Indices of the displayed options that satisfy the task's rule, found WITHOUT reading roles or
        templates (geometry, symmetry group, 3D equivalence, unfolded holes...)."""
        raise NotImplementedError

    def expand(self, params: Mapping[str, Any], count: int | None) -> list[dict[str, Any]]:
        if params["prompt"] != "all":
            return super().expand(params, count)
        base = super().expand(params, count)
        return [{**p, "prompt": style, "source": p["source"] if p["source"] is not None else i}
                for i, p in enumerate(base) for style in PROMPT_STYLES]

    # -- the shared machinery --------------------------------------------------------------------
    def layout(self, size: str) -> Layout:
        """The item's layout; on a portrait canvas rows of four panels become 2x2 grids (options, and a query
        row of four), which enlarges the tiles at 600x800 without changing the reading order."""
        width, height = SIZES[size]
        columns, query_columns = self.option_columns, None
        if height > width and columns == 4 and self.option_count == 4 and self.query_count in (0, 1, 4):
            columns = 2
            query_columns = 2 if self.query_count == 4 else None
        return Layout((width, height), self.query_count, self.option_count, columns, query_columns)

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        source = params["source"] if params["source"] is not None else random.index
        difficulty = params["difficulty"] or DIFFICULTIES[random.balanced(3, "difficulty", position=source)]
        rng = random.stream("stimulus", source, difficulty)
        stimulus = self.build(rng, difficulty, params)
        if len(stimulus.options) != self.option_count:
            raise ValueError(f"{self.code} built {len(stimulus.options)} options, needs {self.option_count}")
        position = random.balanced(self.option_count, "answer", position=source)
        shown = arrange(stimulus.options, position, rng)
        letters = option_letters(self.option_count)
        query_boxes, option_boxes = self.layout(params["size"]).boxes()
        metadata = {
            "code": self.code,
            "art": self.art,
            "difficulty": difficulty,
            "prompt": params["prompt"],
            "source": source,
            "confound": letters[next(k for k, o in enumerate(shown) if o.role == "confound")],
            "options": [
                {"label": letters[k], "role": o.role, "template": o.template, "latent": dict(o.latent),
                 "bbox": list(option_boxes[k])}
                for k, o in enumerate(shown)
            ],
            "query_bboxes": [list(b) for b in query_boxes],
            **dict(stimulus.facts),
        }
        pair = f"{random.seed}:{source}:{difficulty}:{params['size']}" if params["source"] is not None else None
        return Problem(
            question=build_question(self.texts, params["prompt"], letters),
            answer=letters[position],
            image_size=tuple(SIZES[params["size"]]),
            params=params,
            options=tuple(letters),
            answer_type="option",
            variant=params["prompt"],
            pair=pair,
            metadata=metadata,
            structure=(stimulus, tuple(shown)),
        )

    def render(self, problem: Problem) -> list[Image.Image]:
        stimulus, shown = problem.structure
        layout = self.layout(problem.params["size"])
        side = layout.tile
        query = [self.draw_query(content, side) for content in stimulus.query]
        options = [self.draw_option(o.content, side) for o in shown]
        image, _ = layout.compose(query, options, stimulus.query_captions, option_letters(self.option_count))
        return [image]

    def option_tiles(self, problem: Problem, image: Image.Image) -> list[Image.Image]:
        """The option panels cut back out of the composite image."""
        return [image.crop(tuple(o["bbox"])) for o in problem.metadata["options"]]

    def verify(self, problem: Problem, images: Sequence[Image.Image]) -> list[str]:
        stimulus, shown = problem.structure
        letters = option_letters(self.option_count)
        failures = []
        satisfied = self.solve(stimulus, shown)
        answer = letters.index(problem.answer)
        if satisfied != [answer]:
            found = [letters[k] for k in satisfied]
            failures.append(f"solver finds options {found} correct, answer is {problem.answer}")
        if images:
            tiles = [np.asarray(t.convert("L"), dtype=np.float32) for t in self.option_tiles(problem, images[0])]
            for i in range(len(tiles)):
                for j in range(i + 1, len(tiles)):
                    if float(np.abs(tiles[i] - tiles[j]).mean()) < self.min_option_difference:
                        failures.append(f"options {letters[i]} and {letters[j]} look the same")
            features = [option_features(t) for t in self.option_tiles(problem, images[0])]
            for name, floor in self.nuisance_floor.items():
                if singled_out([f[name] for f in features], answer, self.nuisance_factor, floor):
                    failures.append(f"nuisance feature {name!r} singles out the answer")
        return failures

    def distractors(self, problem: Problem, count: int, random: ItemRandom) -> list[str]:
        """The letters of wrong options, the designated confound first."""
        confound = problem.metadata["confound"]
        others = [o["label"] for o in problem.metadata["options"] if o["role"] == "filler"]
        return [confound, *others][:count]
