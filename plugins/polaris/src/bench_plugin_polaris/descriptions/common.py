"""What the Polaris task descriptions share (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Parameter

FAMILY = "polaris"
#: The paper's five categories (spec 3), as the ``category`` of the task descriptions.
CATEGORIES = {
    "VPM": "visual-pattern-matching",
    "STG": "spatial-transformation-geometry",
    "NR": "navigation-routing",
    "CP": "combinatorics-probability",
    "ALS": "algorithmic-logic-simulation",
}
#: The values of the ``variant`` parameter: both renderings of every pair (item i: pair i // 2, Cartesian
#: for even i, polar for odd i), or one rendering only (item i: pair i).
VARIANT_CHOICES = ("both", "cartesian", "polar")
VARIANT = Parameter(
    "variant", "str", "both", choices=VARIANT_CHOICES,
    help="which renderings to write: both (default; items 2p and 2p + 1 are the Cartesian and the polar item of "
         "pair p), cartesian or polar (item p is that rendering of pair p)",
)
