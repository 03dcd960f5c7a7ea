"""Pictures drawn straight into a palette image (PIL mode "P") for scenes of a few flat colours.

The core writes a mode "P" image as a palette PNG as it is, so a task that draws without anti-aliasing in a
handful of named colours saves the conversion of an RGB picture to a palette one (most of the PNG encode
time of such a picture).  ``canvas(size, colours)`` makes the image, its palette the given colours in that
order (the first is the background), and a draw object whose ink for a colour is ``ink(rgb)``.  The bytes
depend only on the drawing calls and the colour order, so they are as reproducible as an RGB picture's.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

Colour = tuple[int, int, int]


class Canvas:
    """A palette image with its draw object; ``ink`` maps an (r, g, b) colour of the palette to its index."""

    def __init__(self, size: tuple[int, int], colours: Sequence[Colour]) -> None:
        palette = list(dict.fromkeys(tuple(int(v) for v in c) for c in colours))
        if not 1 <= len(palette) <= 256:
            raise ValueError(f"a palette canvas takes 1 to 256 colours, got {len(palette)}")
        self.index = {c: k for k, c in enumerate(palette)}
        self.image = Image.new("P", (int(size[0]), int(size[1])), 0)
        self.image.putpalette([v for c in palette for v in c])
        self.draw = ImageDraw.Draw(self.image)

    def ink(self, colour: Sequence[int]) -> int:
        """The palette index of ``colour`` (a KeyError names a colour the canvas was not made with)."""
        return self.index[tuple(int(v) for v in colour)]


def canvas(size: tuple[int, int], colours: Sequence[Colour]) -> Canvas:
    """A palette canvas of ``size`` filled with ``colours[0]``."""
    return Canvas(size, colours)
