"""Prompt styles for ``bench eval``: how an item is put to a model, by name.

Every task can be asked in the style ``plain`` (its question as is) and ``paper`` (its paper's own wrapper).
A style name is looked up for each task in this order:

1. the task's own ``Task.prompt_styles`` (a plugin declares its family's wrappers there);
2. the core's styles of the task's family (``FAMILY_STYLES``: families whose plugin declares none, such as
   SPHINX and Polaris-Bench, whose papers wrap the question at evaluation time);
3. ``plain``; and ``paper`` of a task that has none of its own is ``plain`` too: its questions already carry
   its paper's instructions (MaRVL-QA's ``<final_answer>`` request; Mind's Eye's styles, chosen when the
   items are generated with ``--set prompt=...``).

The wording is ours; what each style asks of the model is its paper's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from bench_core.errors import BenchError
from bench_core.types import PromptStyle

PLAIN = PromptStyle("plain", "{question}", "the item's question as is, with its images; no system message")

_SPHINX_PAPER = PromptStyle(
    "paper",
    "Work through the problem step by step, then give the final answer inside \\boxed{}.\n\nQuestion: {question}",
    "SPHINX (App. G.1): reason step by step and put the final answer in \\boxed{}; the question follows after "
    "'Question:'; no system message, no examples",
)

_POLARIS_DIRECT = PromptStyle(
    "direct",
    "Answer the question using the image. Reply with the final answer only: for a multiple-choice question the "
    "option letter alone, otherwise only the values the question asks for.\n\n[Question]\n{question}",
    "Polaris-Bench standard prompt (Fig. 9): answer from the image and output only the final answer (an option "
    "letter, or the required values), then a [Question] block",
)

_POLARIS_LAST_LINE = PromptStyle(
    "last-line",
    "Answer the question using the image. Analyse it step by step first, then write the final answer alone on the "
    "very last line of your reply.\n\n[Question]\n{question}",
    "Polaris-Bench chain-of-thought prompt (Figs. 10-11): analysis first, the final answer alone on the last line",
)

_POLARIS_HINT = PromptStyle(
    "conversion-hint",
    "Answer the question using the image. Analyse it step by step first, then write the final answer alone on the "
    "very last line of your reply.\n\n[Task Hint]\nA polar layout is a rectangular grid drawn around a centre: each "
    "ring is a row and each angular sector a column. Rebuild that grid as a matrix and solve the task on it.\n\n"
    "[Question]\n{question}",
    "Polaris-Bench conversion hint (Fig. 10): the last-line prompt plus a hint that rings are rows and sectors "
    "columns of a rectangular grid, to be rebuilt and solved on",
)

#: Styles of families whose plugins declare none, by family name.
FAMILY_STYLES: Mapping[str, tuple[PromptStyle, ...]] = {
    "sphinx": (_SPHINX_PAPER,),
    "polaris": (
        PromptStyle("paper", _POLARIS_DIRECT.template,
                    "Polaris-Bench's main setting: the standard prompt, as 'direct' (Fig. 9)"),
        _POLARIS_DIRECT,
        _POLARIS_LAST_LINE,
        _POLARIS_HINT,
    ),
}

_PAPER_AS_PLAIN = PromptStyle(
    "paper", PLAIN.template, "the question as is: this task's questions already carry its paper's instructions"
)


def styles_for(family: str, task: Any = None) -> dict[str, PromptStyle]:
    """Every style a task of ``family`` can be asked in, by name: ``task.prompt_styles`` (when the task is
    installed) over the core's styles of the family over ``plain``; ``paper`` is always among them."""
    styles = {PLAIN.name: PLAIN}
    styles.update((s.name, s) for s in FAMILY_STYLES.get(family, ()))
    styles.update((s.name, s) for s in getattr(task, "prompt_styles", ()) or ())
    styles.setdefault("paper", _PAPER_AS_PLAIN)
    return styles


def resolve(name: str, tasks: Iterable[tuple[str, str, Any]]) -> dict[str, PromptStyle]:
    """The style ``name`` for each ``(task_id, family, task_or_None)``, by task id; a BenchError naming the
    tasks that lack it and the styles each of them has when any does."""
    chosen: dict[str, PromptStyle] = {}
    lacking: list[str] = []
    for task_id, family, task in tasks:
        styles = styles_for(family, task)
        if name in styles:
            chosen[task_id] = styles[name]
        else:
            lacking.append(f"{task_id} ({', '.join(sorted(styles))})")
    if lacking:
        raise BenchError(f"--prompt {name}: no such style for {'; '.join(lacking)}; the styles each task has are "
                         "in brackets ('bench eval DIR --list-prompts' describes them)")
    return chosen


def fingerprint(style: PromptStyle) -> str:
    """12 hex digits that change whenever the style's system message or template does, recorded with each
    answer so that a number can be traced to the exact wording that produced it."""
    text = f"{style.system or ''}\x00{style.template}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def messages(style: PromptStyle, question: str, image_urls: Iterable[str]) -> list[dict[str, Any]]:
    """The chat-completions messages for one item: an optional system message, then one user message holding
    each image (as an ``image_url`` part) followed by the styled question."""
    content: list[dict[str, Any]] = [{"type": "image_url", "image_url": {"url": url}} for url in image_urls]
    content.append({"type": "text", "text": style.user_text(question)})
    out: list[dict[str, Any]] = [{"role": "system", "content": style.system}] if style.system else []
    out.append({"role": "user", "content": content})
    return out
