"""A tiny third-party-style plugin used by the core's tests: task ``toy/dots`` (count the dots)."""

from __future__ import annotations

from bench_core import Parameter, Problem, Task, hookimpl
from bench_core.task import TaskImplementation

TOY = Task(
    family="toy",
    name="dots",
    version="1.0.0",
    answer_type="integer",
    category="counting",
    description="How many dots are drawn?",
    implementation="toy_plugin:DOTS",
    parameters=(
        Parameter("most", "int", 5, minimum=1, maximum=9, help="largest dot count"),
        Parameter("colour", "str", "black", choices=("black", "red")),
    ),
)


class Dots(TaskImplementation):
    def generate(self, params, random):
        rng = random.rng
        count = int(rng.integers(1, params["most"] + 1))
        centres = [(20 + 40 * (k % 3), 20 + 40 * (k // 3)) for k in range(count)]
        return Problem(
            question="How many dots are in the image? Answer with an integer.",
            answer=str(count),
            image_size=(128, 128),
            params=params,
            metadata={"count": count},
            structure=(centres, params["colour"]),
        )

    def render(self, problem):
        from PIL import Image, ImageDraw

        centres, colour = problem.structure
        image = Image.new("RGB", (128, 128), "white")
        draw = ImageDraw.Draw(image)
        for x, y in centres:
            draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=colour)
        return [image]

    def verify(self, problem, images):
        import numpy as np

        ink = (np.asarray(images[0].convert("L")) < 200).sum()
        per_dot = ink / int(problem.answer)
        return [] if 150 < per_dot < 260 else [f"ink per dot {per_dot:.0f} does not match {problem.answer} dots"]

    def distractors(self, problem, count, random):
        gold = int(problem.answer)
        return [str(v) for v in (gold + 1, gold - 1, gold + 2, gold + 3) if v >= 0][:count]


DOTS = Dots()


@hookimpl
def bench_register_tasks():
    return [TOY]
