"""The SPHINX building blocks shared by every task, one job per module.

- ``palette``: the named colours (``name (#hex)``) of the paper's generator.
- ``motifs``: the motif families, each sampled from the item's generator in asymmetric or symmetric mode
  and drawn as an RGB tile on white.
- ``probe``: the self-symmetry probe on a rendered bitmap (which D4 operations look like the identity).
- ``compare``: image comparison (pixel-difference fraction, difference hash) for "distinct" and "same".
- ``tilings``: circles, square, triangular, hexagonal and rhombille tilings with pooled vertices,
  shared-edge and point-touch adjacency, dual and vertex graphs and periodic colour classes.
- ``complexity``: the paper's complexity c in [0, 1] on the shared difficulty scale (easy c < 0.75).
- ``layout``: option tiles, frames, labels "(a)" and text.
- ``icons``: the icon motif family, pictograms of our own drawing with a fixed train/test split.
- ``charts``: percentages, pie charts and bar charts; ``orderings``: ranking options one swap from a centre.
- ``canvas``: graph paper, supersampling, grey quantising and cached text stamps.
- ``spatial``: reference shapes, sheets and tokens of the spatial tasks, clearance and quota placement.
- ``groups``: the frieze and wallpaper groups closed from their generators, lattices, and the self-symmetry
  probe at any angle.
"""
