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
"""
