"""PNG encoding with byte-for-byte reproducible output."""

from __future__ import annotations

import hashlib
import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

#: zlib level for PNGs; 6 is Pillow's default and the speed/size balance the benchmark figures assume.
PNG_COMPRESS_LEVEL = 6


def encode_png(image: Image) -> bytes:
    """Encode ``image`` as PNG with fixed settings and no metadata chunks (no time, no text)."""
    buffer = io.BytesIO()
    if image.mode not in ("RGB", "RGBA", "L", "LA", "P"):
        image = image.convert("RGB")
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL, optimize=False)
    return buffer.getvalue()


def sha256(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def decode_png(data: bytes) -> Image:
    """The image stored in PNG ``data``, fully loaded, in RGB (or RGBA if it has alpha)."""
    from PIL import Image as PILImage

    image = PILImage.open(io.BytesIO(data))
    image.load()
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
    return image


def as_decoded(image: Image) -> Image:
    """``image`` as :func:`decode_png` would return it after :func:`encode_png`, without encoding: the same
    mode conversions (PNG is lossless, so the pixels are the same)."""
    if image.mode not in ("RGB", "RGBA", "L", "LA", "P"):
        image = image.convert("RGB")
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
    return image
