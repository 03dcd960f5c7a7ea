"""Category and overall scores are means over tasks (the papers' way), not pooled over items."""

from bench_core.report_data import Cell, Row
from bench_core.types import Item


def _row(task: str, value: float, index: int) -> Row:
    record = {"id": f"f.{task}.0.{index:06d}", "family": "f", "task": task, "version": "1.0.0", "plugin": {},
              "seed": 0, "index": index, "params": {}, "variant": None, "pair": None, "question": "?",
              "options": ["A", "B"], "answer": "A", "answer_type": "option", "images": [], "image_sha256": [],
              "metadata": {}}
    return Row(Item.from_record(record), "c", value, True, None, {}, None, True, 0.5)


def test_macro_cell_weighs_every_task_alike():
    # task a: 1 item right of 1; task b: 1 right of 4.  Pooled: 2/5 = 0.4; mean of tasks: (1 + 0.25) / 2.
    rows = [_row("a", 1.0, 0), _row("b", 1.0, 1), *(_row("b", 0.0, i) for i in range(2, 5))]
    assert Cell.of(rows).accuracy == 0.4
    macro = Cell.macro(rows)
    assert macro.accuracy == 0.625
    assert macro.n == 5
    assert macro.chance == 0.5
    assert macro.low <= macro.accuracy <= macro.high
    assert macro.low >= 0.0 and macro.high <= 1.0


def test_macro_cell_of_nothing_is_empty():
    assert Cell.macro([]).n == 0
