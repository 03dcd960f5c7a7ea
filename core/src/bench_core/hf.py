"""Export a dataset folder (``bench generate --out DIR``) to a Hugging Face ``datasets.Dataset``.

Every task records metadata of its own, so one table cannot hold them as columns (``Dataset.from_list`` on
``items.jsonl`` fails on them): here they travel as JSON text, beside the fields every item has, the images
as ``datasets.Image`` and the scoring record the reward adapters read.  Needs the optional ``datasets``
package (``pip install 'bench-core[hf]'``).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from bench_core.errors import DatasetError

__all__ = ["COLUMNS", "to_hf_dataset"]

#: The columns of the exported dataset, in order.
COLUMNS = ("id", "task", "version", "seed", "index", "variant", "question", "options", "answer", "answer_type",
           "images", "bench", "params", "metadata")


def _datasets() -> Any:
    try:
        import datasets
    except ImportError:
        raise DatasetError("exporting to a Hugging Face dataset needs the 'datasets' package, which is not "
                           "installed: pip install 'bench-core[hf]' (or pip install datasets)") from None
    return datasets


def _features(datasets: Any) -> Any:
    listing = getattr(datasets, "List", None) or datasets.Sequence  # datasets >= 4 names it List
    text, integer = datasets.Value("string"), datasets.Value("int64")
    return datasets.Features({
        "id": text, "task": text, "version": text, "seed": integer, "index": integer, "variant": text,
        "question": text, "options": listing(text), "answer": text, "answer_type": text,
        "images": listing(datasets.Image()), "bench": text, "params": text, "metadata": text,
    })  # fmt: skip


def _rows(root: str, digest: str) -> Any:
    """The rows of the dataset at ``root`` (``digest`` only keys the cache: a changed items.jsonl is new)."""
    from bench_core.dataset import read_items
    from bench_core.images import sha256
    from bench_core.rewards import scoring_record

    for item in read_items(root):
        images = []
        for k, relative in enumerate(item.images):
            path = Path(root) / relative
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise DatasetError(f"{item.id}: cannot read its image {path}: {exc.strerror}") from exc
            if k < len(item.image_sha256) and sha256(data) != item.image_sha256[k]:
                raise DatasetError(f"{item.id}: {path} does not match the SHA-256 its record states (changed "
                                   "after it was written); 'bench verify' checks a whole folder")
            images.append({"bytes": data, "path": relative})
        yield {
            "id": item.id, "task": item.task_id, "version": item.version, "seed": item.seed, "index": item.index,
            "variant": item.variant, "question": item.question,
            "options": list(item.options) if item.options is not None else None,
            "answer": item.answer, "answer_type": item.answer_type, "images": images,
            "bench": json.dumps(scoring_record(item), ensure_ascii=False, sort_keys=True),
            "params": json.dumps(dict(item.params), ensure_ascii=False, sort_keys=True),
            "metadata": json.dumps(dict(item.metadata), ensure_ascii=False, sort_keys=True),
        }  # fmt: skip


def to_hf_dataset(directory: str | os.PathLike[str], *, cache_dir: str | os.PathLike[str] | None = None) -> Any:
    """The items of ``directory`` as a ``datasets.Dataset`` with the columns :data:`COLUMNS`: the fields
    every item has, ``images`` (a list of ``datasets.Image``, PNG bytes embedded, each checked against its
    recorded SHA-256), ``bench`` (the scoring record as JSON text: the column ``trl_reward`` reads), and the
    task's ``params`` and ``metadata`` as JSON text.  ``cache_dir`` is where ``datasets`` writes its Arrow
    files (default: its own cache).  DatasetError if ``datasets`` is not installed, the folder holds no
    items, or an image is missing or changed."""
    datasets = _datasets()
    items = Path(directory) / "items.jsonl"
    if not items.is_file():
        raise DatasetError(f"{items} does not exist; is {directory} a folder written by 'bench generate'?")
    digest = hashlib.sha256(items.read_bytes()).hexdigest()
    if not any(line.strip() for line in items.read_text(encoding="utf-8").splitlines()):
        raise DatasetError(f"{items} holds no items; there is nothing to export")
    try:
        return datasets.Dataset.from_generator(
            _rows, features=_features(datasets), gen_kwargs={"root": str(Path(directory).resolve()), "digest": digest},
            cache_dir=None if cache_dir is None else str(cache_dir),
        )
    except Exception as exc:  # datasets wraps what the rows raised: say that, not its wrapper
        cause = exc
        while cause is not None and not isinstance(cause, DatasetError):
            cause = cause.__cause__ or cause.__context__
        if cause is None:
            raise
        raise DatasetError(str(cause)) from None
