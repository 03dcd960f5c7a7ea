"""Verifier of ``polaris/lattice-paths``: every path from A to B is listed one by one (depth-first search over
the dots) instead of counted by dynamic programming; every dot, cross, A and B is looked for at its pixel
through the layout (polar: radial lines 1..n+1 of S >= n + 2 sectors, the seam wall at 12 o'clock)."""

from __future__ import annotations

from bench_plugin_polaris.kit import pixels as kpixels
from bench_plugin_polaris.verifiers import cp_paths, cp_pixels
from bench_plugin_polaris.verifiers.cell_ink import guarded

STEPS = ((0, 1), (1, 0), (1, 1))


def listed(scene) -> int:
    """How many right / down / down-right paths from A (0, 0) to B (m, n) avoid the removed dots."""
    m, n = int(scene["rows"]), int(scene["cols"])
    removed = {tuple(d) for d in scene["removed"]}

    def successors(dot):
        i, j = dot
        return [(i + di, j + dj) for di, dj in STEPS
                if i + di <= m and j + dj <= n and (i + di, j + dj) not in removed]

    return len(cp_paths.simple_paths((0, 0), (m, n), successors))


@guarded
def verify(item, images, layout_of) -> list[str]:
    """Failures of a lattice-paths item (empty when sound)."""
    scene, meta = item.metadata["scene"], item.metadata
    m, n = int(scene["rows"]), int(scene["cols"])
    failures: list[str] = []
    count = listed(scene)
    if item.answer != str(count):
        failures.append(f"listing the paths gives {count}, the item says {item.answer}")
    removed = {tuple(d) for d in scene["removed"]}
    if removed & {(0, 0), (m, n)} or any(not (0 <= i <= m and 0 <= j <= n) for i, j in removed):
        failures.append("a removed dot is A, B or off the grid")
    extra = int(scene["geometry"].get("extra_sectors", 0))
    shift = int(scene["polar_shift"])
    if item.variant == "polar" and (extra < 2 or shift < 1 or shift + n >= n + extra):
        failures.append(f"polar dots on radial lines {shift}..{shift + n} of {n + extra} sectors touch the seam line "
                        "(the lattice lines x = 0 and x = S merge: spec 2.6)")
    if (meta.get("readings") or {}).get("bounded") != count:
        failures.append(f"the recorded counts {meta.get('readings')} differ from the listed {count}")
    failures += _pixel_failures(item, images[0], layout_of(item), shift if item.variant == "polar" else 0)
    return failures


def _pixel_failures(item, image, layout, shift: int) -> list[str]:
    scene = item.metadata["scene"]
    m, n = int(scene["rows"]), int(scene["cols"])
    colours = {k: tuple(v) for k, v in scene["colours"].items()}
    array = kpixels.as_array(image)
    removed = {tuple(d) for d in scene["removed"]}
    failures = []
    for i in range(m + 1):
        for j in range(n + 1):
            at = layout.lattice_point(i, j + shift)
            if (i, j) == (0, 0) or (i, j) == (m, n):
                key = "A" if (i, j) == (0, 0) else "B"
                if not kpixels.colour_near(array, at, colours[key], 3):
                    failures.append(f"{key} is not drawn at dot {(i, j)}")
            elif (i, j) in removed:
                if not kpixels.colour_near(array, at, colours["cross"], 2) or kpixels.colour_near(
                        array, at, colours["dot"], 3):
                    failures.append(f"the removed dot {(i, j)} is not drawn as a red cross")
            elif not kpixels.colour_near(array, at, colours["dot"], 1) or kpixels.colour_near(
                    array, at, colours["cross"], 3):
                failures.append(f"dot {(i, j)} is not drawn")
    if layout.kind == "polar":
        failures += cp_pixels.boundary_failures(array, layout, seam_wall=True)
    return failures
