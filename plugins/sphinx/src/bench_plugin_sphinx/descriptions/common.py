"""What the SPHINX task descriptions share (light: no numpy)."""

from __future__ import annotations

from bench_plugin_sphinx.sets import preset_parameters

FAMILY = "sphinx"
#: ``preset`` (paper / train) and ``train_size``: every description lists them, ``parameters=(..., *PRESETS)``.
PRESETS = preset_parameters()
#: The paper's Easy/Hard bins as named levels (kit.complexity.ALIASES, kept equal by a test).
ALIASES = {"easy": "0..0.749", "hard": "0.75..1"}
#: The motif families drawable today, in the paper's order (kit.motifs.FAMILIES, kept equal by a test).
MOTIF_FAMILIES = (
    "arc", "arrow", "bars", "bitgrid", "clock", "concentric_polygon", "crescent", "dot", "fractal", "gear", "glyph",
    "keyhole", "ladder", "pictogram", "pinwheel", "polygon", "polyhex", "polyiamond", "polyline", "polyomino",
    "rings", "segment", "star_polygon", "stripes",
)
#: Families that symmetry-fill draws: those whose four option tiles (the answer under identity, the two
#: straight mirrors and the half-turn) can come out strongly distinct.  Ladder and segment cannot (their
#: mirror images differ only in a rung's place or an end marker: under 5 % of the tile).
FILL_FAMILIES = tuple(f for f in MOTIF_FAMILIES if f not in ("ladder", "segment"))
