"""What the path and reading-order tasks share: building the problem from a traversal (with its scene
record), rendering, distractors and scoring.  Verification lives in ``artefact`` and shares no code with
this module or the generator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL.Image import Image

from bench_core import Item, ItemRandom, Problem, Score, TaskImplementation, option_letters
from bench_plugin_traversal.distractors import choose_distractors
from bench_plugin_traversal.geometry import GateProfile
from bench_plugin_traversal.glyphs import SYNONYMS, VOCABULARY
from bench_plugin_traversal.prompts import traversal_question
from bench_plugin_traversal.render import render_scene
from bench_plugin_traversal.scoring import score_traversal
from bench_plugin_traversal.structure import VIEW, Traversal


def make_problem(
    traversal: Traversal, params: Mapping[str, Any], random: ItemRandom, *, variant: str | None,
    pair: str | None, metadata: Mapping[str, Any], profile: GateProfile | None, question: str | None = None,
) -> Problem:
    """The problem of ``traversal`` in the requested format (open list or 4-way choice); its metadata holds
    the scene record (``metadata["scene"]``) of exactly what ``render`` draws.  ``question`` replaces the path
    task's question (open format only)."""
    options = None
    answer = traversal.answer
    answer_type = "sequence"
    meta = {**traversal.metadata(), **metadata, "scene": traversal.scene().record()}
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
    if options is not None and question is not None:
        raise ValueError("a task's own question is for the open format; the choice format lists its options")
    if question is None:
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
    """Render, score and distractors common to the traversal tasks."""

    def render(self, problem: Problem) -> list[Image]:
        traversal, _ = problem.structure
        return [render_scene(traversal.scene())]

    def score(self, item: Item, response: Any) -> Score:
        return score_traversal(item, response)

    def scoring_hints(self, item: Item) -> Mapping[str, Any]:
        """The glyph vocabulary and synonyms, so that a scoring record scores sequences (and choice items
        answered with a sequence) as ``score`` does."""
        return {"vocabulary": list(VOCABULARY), "synonyms": dict(SYNONYMS)}

    def distractors(self, problem: Problem, count: int, random: ItemRandom) -> list[str]:
        if problem.options is not None:
            letters = option_letters(len(problem.options))
            return [letter for letter in letters if letter != problem.answer][:count]
        traversal, _ = problem.structure
        chosen = choose_distractors(random.rng, traversal.tokens, traversal.crossings, count)
        return [", ".join(sequence) for _, sequence in chosen]
