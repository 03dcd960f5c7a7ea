"""PNG encoding: palette PNGs for images of at most 256 colours, lossless and reproducible byte for byte."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest
from PIL import Image, ImageDraw

from bench_core import images
from bench_core.images import as_decoded, decode_png, encode_png, palette_image, palette_indices


def chunks(png: bytes) -> dict[bytes, bytes]:
    """The PNG's chunks by type (the last of each type), after checking the signature and every CRC."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = {}, 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length : at + 12 + length])[0] == zlib.crc32(kind + data)
        found[kind] = data
        at += 12 + length
    return found


def header(png: bytes) -> tuple[int, int]:
    """(bit depth, colour type) from the PNG's IHDR: colour type 3 is a palette PNG, 2 is RGB."""
    ihdr = chunks(png)[b"IHDR"]
    return ihdr[8], ihdr[9]


def drawing(colours=((200, 30, 30), (30, 30, 200), (0, 0, 1), (1, 0, 0), (255, 255, 254))) -> Image.Image:
    """An RGB drawing on white in a few colours, some differing only in the last bit of one channel."""
    image = Image.new("RGB", (97, 61), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for k, colour in enumerate(colours):
        draw.ellipse((5 + 15 * k, 4 + 7 * k, 30 + 15 * k, 40 + 3 * k), fill=colour, outline=(32, 32, 32))
        draw.line((0, 3 * k, 96, 60 - 5 * k), fill=colour, width=2)
    return image


def pixels(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"))


def colourful(count: int) -> Image.Image:
    """An RGB image with exactly ``count`` distinct colours, in a scrambled order."""
    rng = np.random.default_rng(count)
    palette = rng.choice(256**3, size=count, replace=False)
    codes = palette[np.arange(40 * 40) % count]
    rng.shuffle(codes)
    rgb = np.stack([codes >> 16, (codes >> 8) & 255, codes & 255], axis=-1).astype(np.uint8).reshape(40, 40, 3)
    return Image.fromarray(rgb, "RGB")


def test_few_colours_become_a_palette_png_that_decodes_to_the_same_pixels():
    image = drawing()
    png = encode_png(image)
    assert header(png)[1] == 3
    decoded = decode_png(png)
    assert decoded.mode == "RGB"
    assert np.array_equal(pixels(decoded), pixels(image))
    assert np.array_equal(pixels(as_decoded(image)), pixels(decoded))


def test_a_decoded_palette_png_keeps_its_indices_beside_its_rgb():
    """A palette PNG decodes to RGB with its image as stored (mode P, the same pixels) in ``info[PALETTE_IMAGE]``;
    so does ``as_decoded`` of a palette image; an RGB PNG of many colours carries none."""
    decoded = decode_png(encode_png(drawing()))
    stored = decoded.info[images.PALETTE_IMAGE]
    assert stored.mode == "P" and np.array_equal(pixels(stored.convert("RGB")), pixels(decoded))
    indexed = palette_image(drawing())
    kept = as_decoded(indexed).info[images.PALETTE_IMAGE]
    assert kept is indexed and np.array_equal(pixels(as_decoded(indexed)), pixels(drawing()))
    many = decode_png(encode_png(Image.fromarray(np.random.default_rng(1).integers(0, 256, (40, 40, 3), np.uint8))))
    assert images.PALETTE_IMAGE not in many.info


def test_a_task_may_ask_for_another_zlib_level():
    """``image.info[PNG_LEVEL]`` sets the zlib level: other bytes, the same pixels, the same bytes again; a level
    outside 1-9 (or not an integer) is refused by name."""
    image = drawing()
    image.info[images.PNG_LEVEL] = 1
    fast = encode_png(image)
    assert fast != encode_png(drawing()) and fast == encode_png(image)
    assert np.array_equal(pixels(decode_png(fast)), pixels(drawing()))
    indexed = palette_image(drawing())
    indexed.info[images.PNG_LEVEL] = 1
    assert encode_png(indexed) == fast
    for bad in (0, 10, 3.0, "3", True):
        image.info[images.PNG_LEVEL] = bad
        with pytest.raises(ValueError, match="png_level"):
            encode_png(image)


def test_the_palette_is_the_image_colours_in_ascending_order_and_nothing_else():
    image = drawing()
    palette = chunks(encode_png(image))[b"PLTE"]
    listed = [tuple(palette[k : k + 3]) for k in range(0, len(palette), 3)]
    assert listed == sorted(colour for _, colour in image.getcolors(256))


@pytest.mark.parametrize(("count", "depth"), [(1, 1), (2, 1), (3, 2), (4, 2), (16, 4), (17, 8), (256, 8)])
def test_up_to_256_colours_are_palette_pngs_of_the_smallest_bit_depth(count, depth):
    image = colourful(count)
    png = encode_png(image)
    assert header(png) == (depth, 3)
    assert len(chunks(png)[b"PLTE"]) == 3 * count
    assert np.array_equal(pixels(decode_png(png)), pixels(image))


def test_more_than_256_colours_stay_rgb():
    image = colourful(257)
    assert palette_image(image) is None
    png = encode_png(image)
    assert header(png) == (8, 2)
    assert np.array_equal(pixels(decode_png(png)), pixels(image))


def test_palette_indices_give_each_pixel_its_colour_in_the_ascending_palette():
    for image in (drawing(), colourful(256), colourful(3), Image.new("RGB", (5, 3), (9, 8, 7))):
        colours, indices = palette_indices(image)
        assert colours == sorted(colour for _, colour in image.getcolors(256))
        assert indices.shape == (image.size[1], image.size[0]) and indices.dtype == np.uint8
        assert np.array_equal(np.array(colours, np.uint8)[indices], pixels(image))
    assert palette_indices(colourful(257)) is None


def test_the_bytes_depend_only_on_the_pixels():
    image = drawing()
    again = Image.frombytes("RGB", image.size, image.tobytes())
    # the same pixels with other values in the padding byte Pillow keeps beside each RGB pixel
    padded = np.frombuffer(image.tobytes("raw", "RGBX"), dtype=np.uint8).copy().reshape(-1, 4)
    padded[:, 3] = np.arange(len(padded)) % 251
    odd_padding = Image.frombytes("RGB", image.size, padded.tobytes(), "raw", "RGBX")
    assert encode_png(image) == encode_png(drawing()) == encode_png(again) == encode_png(odd_padding)
    assert np.array_equal(pixels(decode_png(encode_png(odd_padding))), pixels(image))


def test_the_slow_exact_mapping_gives_the_same_bytes_as_the_hashed_one(monkeypatch):
    for image in (drawing(), colourful(256), colourful(7)):
        hashed = encode_png(image)
        monkeypatch.setattr(images, "_HASH_MULTIPLIERS", ())
        assert encode_png(image) == hashed
        monkeypatch.undo()


def test_other_modes_are_written_as_they_are():
    grey = Image.new("L", (20, 10), 7)
    rgba = Image.new("RGBA", (20, 10), (1, 2, 3, 128))
    assert header(encode_png(grey)) == (8, 0)
    assert header(encode_png(rgba)) == (8, 6)
    assert np.array_equal(np.asarray(decode_png(encode_png(rgba))), np.asarray(rgba))
