"""Drawing helpers of the algorithmic-logic tasks, on top of ``kit.draw``.

``index_labels`` numbers rows and columns like ``kit.draw.Canvas.index_labels`` but puts the polar ring
numbers just counter-clockwise of the 12 o'clock radial (spec 5.2), clear of it, so a bounded task's seam
wall stays one unbroken thick line (labels drawn on the radial cut it into what looks like a dashed wrap edge).
"""

from __future__ import annotations

import math

from bench_plugin_polaris.kit import draw as kdraw


def index_labels(canvas: kdraw.Canvas, orientation: str) -> None:
    """Row / column numbers (Cartesian: the kit's) or ring / sector numbers (polar: sectors outside the rim at
    mid-angle, rings 1.. innermost first just left of the 12 o'clock radial), all reserved in the placer."""
    layout = canvas.layout
    if layout.kind == "cartesian":
        canvas.index_labels(orientation)
        return
    px = canvas.frame.font_px
    cx, cy = layout.center
    for ring in range(layout.rows):
        mid = (layout.ring_radius(ring) + layout.ring_radius(ring + 1)) / 2
        canvas.text(str(ring + 1), (cx - kdraw.WALL_WIDTH / 2 - 4, cy - mid), anchor="rm", background=kdraw.WHITE,
                    pad=1)
    for s in range(layout.sectors):
        theta = float(layout.angle(s + 0.5))
        rho = layout.outer + px
        canvas.text(str(s + 1), (cx + rho * math.cos(theta), cy - rho * math.sin(theta)))
