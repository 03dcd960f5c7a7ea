"""The two PNG-encode floors the generation speed targets are measured against (imported by the scripts here).

- **own**: the PNG the item itself writes (``bench_core.images.encode_png``: a palette PNG at level 6 where the
  picture has at most 256 colours, else level 4). It moves with every choice the core or a task makes about the
  PNG: when traversal handed its palette image over, its own floor doubled and its ratio halved while its items/s
  rose.
- **reference**: the same picture as a plain RGB PNG at Pillow's default settings (zlib level 6, row filters
  on). This is the floor issue 2 set ("PNG encoding is the floor, about 12 ms for a 672 px image at default
  compression here"). It stays put when a task hands over a palette image or the core picks a compression level,
  which issue 12 lists among the ways to reach its target (and which could not reach it were the floor to move
  with them).

Both are CPU seconds of this process (``process_time``), the encode alone: converting a palette picture to RGB
for the reference is done before its clock starts.
"""

from __future__ import annotations

import io
import time

from bench_core.images import encode_png


def reference_png(image) -> bytes:
    """``image`` as a plain RGB PNG at Pillow's default settings (the reference floor's encode)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def encode_seconds(images) -> tuple[float, float]:
    """(CPU seconds of the own encode of ``images``, CPU seconds of their reference encode)."""
    own = reference = 0.0
    for image in images:
        start = time.process_time()
        encode_png(image)
        own += time.process_time() - start
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        start = time.process_time()
        reference_png(rgb)
        reference += time.process_time() - start
    return own, reference
