"""The score-stream fixture shared by the scoring tests: its directory, the reference reports and the builder
module (``fixtures/build_score_stream.py``, which makes the fixture's items, predictions and tasks)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
DATA = FIXTURES / "score_stream"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))


def _builder():
    sys.path.insert(0, str(FIXTURES))
    try:
        import build_score_stream
    finally:
        sys.path.pop(0)
    return build_score_stream


BUILDER = _builder()
