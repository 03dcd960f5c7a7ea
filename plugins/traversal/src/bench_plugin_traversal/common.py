"""What the path and reading-order tasks share: building the problem from a traversal, rendering,
the independent verify checks, distractors and scoring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL.Image import Image

from bench_core import Item, Problem, Score
from bench_core.seeding import ItemRandom
from bench_core.task import TaskImplementation
from bench_core.types import option_letters
from bench_plugin_traversal.confounders import check_spurs
from bench_plugin_traversal.distractors import choose_distractors
from bench_plugin_traversal.geometry import GateProfile, check_gates
from bench_plugin_traversal.prompts import traversal_question
from bench_plugin_traversal.render import render_scene
from bench_plugin_traversal.scoring import score_traversal
from bench_plugin_traversal.solver import count_crossings_shapely, glyph_colour_errors, solve_order
from bench_plugin_traversal.structure import VIEW, Traversal


def make_problem(
    traversal: Traversal, params: Mapping[str, Any], random: ItemRandom, *, variant: str | None,
    pair: str | None, metadata: Mapping[str, Any], profile: GateProfile | None,
) -> Problem:
    """The problem of ``traversal`` in the requested format (open list or 4-way choice)."""
    options = None
    answer = traversal.answer
    answer_type = "sequence"
    meta = {**traversal.metadata(), **metadata}
    if params.get("format") == "choice":
        wrong = choose_distractors(random.rng, traversal.tokens, traversal.crossings, 3)
        if len(wrong) < 3:
            raise ValueError("fewer than 3 distractors exist for this path")
        sequences = [traversal.answer] + [", ".join(seq) for _, seq in wrong]
        order = random.rng.permutation(len(sequences))
        options = tuple(sequences[int(k)] for k in order)
        answer = option_letters(len(options))[int(list(order).index(0))]
        answer_type = "option"
        meta["distractor_kinds"] = [wrong[int(k) - 1][0] if k else "gold" for k in order]
    question = traversal_question(
        traversal.tokens[0], len(traversal.tokens), spurs=bool(traversal.spurs), options=options
    )
    return Problem(
        question=question,
        answer=answer,
        image_size=(VIEW, VIEW),
        params=params,
        options=options,
        answer_type=answer_type,
        variant=variant,
        pair=pair,
        metadata=meta,
        structure=(traversal, profile),
    )


class TraversalTask(TaskImplementation):
    """Render, verify, score and distractors common to the traversal tasks."""

    def render(self, problem: Problem) -> list[Image]:
        traversal, _ = problem.structure
        return [render_scene(traversal.scene())]

    def verify(self, problem: Problem, images: Sequence[Image]) -> list[str]:
        """Re-derive the sequence from the unordered glyphs and the drawn line; recount crossings with
        shapely; re-run the gates and spur rules; read the glyph colours back from the image; check the
        options (exactly one is the re-derived sequence)."""
        traversal, profile = problem.structure
        failures: list[str] = []
        glyphs = sorted(((float(x), float(y)), t) for (x, y), t in zip(traversal.points, traversal.tokens, strict=True))
        glyphs = [((x, y), t) for (x, y), t in glyphs]
        try:
            solved = solve_order(traversal.points, glyphs, traversal.tokens[0])
        except ValueError as exc:
            return [f"solver: {exc}"]
        if len(set(traversal.tokens)) != len(traversal.tokens):
            failures.append("a glyph token repeats on the path")
        gold = ", ".join(solved)
        if problem.options is None:
            if gold != problem.answer:
                failures.append(f"solver reads {gold!r}, answer is {problem.answer!r}")
        else:
            matching = [k for k, option in enumerate(problem.options) if option == gold]
            if len(matching) != 1:
                failures.append(f"{len(matching)} options equal the solved sequence")
            elif option_letters(len(problem.options))[matching[0]] != problem.answer:
                failures.append("the answer letter does not point at the solved sequence")
        try:
            crossings = count_crossings_shapely(traversal.points)
        except ValueError as exc:
            failures.append(f"crossing count: {exc}")
        else:
            if crossings != problem.metadata["crossings"]:
                failures.append(f"shapely counts {crossings} crossings, metadata says {problem.metadata['crossings']}")
        # published backbones (profile None) are rendered as the authors made them: their geometry and
        # spurs predate our gates, so only the answer, crossings and colours are checked for them
        if profile is not None:
            failures.extend(f"gate {code} fails" for code in check_gates(traversal.points, profile))
        if traversal.spurs and profile is not None:
            points = [c.point for c in traversal.crossings]
            codes = check_spurs(traversal.points, points, traversal.spurs)
            failures.extend(f"spur rule {code} fails" for code in codes)
        if images:
            failures.extend(glyph_colour_errors(images[0], glyphs))
        return failures

    def score(self, item: Item, response: Any) -> Score:
        return score_traversal(item, response)

    def distractors(self, problem: Problem, count: int, random: ItemRandom) -> list[str]:
        if problem.options is not None:
            letters = option_letters(len(problem.options))
            return [letter for letter in letters if letter != problem.answer][:count]
        traversal, _ = problem.structure
        chosen = choose_distractors(random.rng, traversal.tokens, traversal.crossings, count)
        return [", ".join(sequence) for _, sequence in chosen]
