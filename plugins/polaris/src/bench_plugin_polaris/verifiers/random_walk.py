"""Verifier of ``polaris/random-walk``: every right/down route from A to B is listed (depth-first search) with
its probability under the walk rule (the product of 1 / the number of streets towards B at each intersection),
and the routes through C summed, instead of the generator's forward dynamic programming; exactly one option
holds that value.  On the pixels: A, B and C at their intersections, every street segment drawn (polar: full
circles of S >= n + 2 sectors, no seam wall), the polar map turned by the recorded shift."""

from __future__ import annotations

from fractions import Fraction

from bench_plugin_polaris.kit import pixels as kpixels
from bench_plugin_polaris.verifiers import cp_paths, cp_pixels
from bench_plugin_polaris.verifiers.cell_ink import guarded


def route_probability(start, end, via) -> Fraction:
    """P(the walk from ``start`` to ``end`` passes ``via``), summed over the listed routes."""
    start, end, via = tuple(start), tuple(end), tuple(via)

    def towards(point):
        i, j = point
        return [p for p, ok in (((i, j + 1), j < end[1]), ((i + 1, j), i < end[0])) if ok]

    total = Fraction(0)
    for route in cp_paths.simple_paths(start, end, towards):
        weight = Fraction(1)
        for point in route[:-1]:
            weight /= len(towards(point))
        if via in route:
            total += weight
    return total


def _parse(option: str) -> Fraction | None:
    try:
        return Fraction(option.strip())
    except (ValueError, ZeroDivisionError):
        return None


@guarded
def verify(item, images, layout_of) -> list[str]:
    """Failures of a random-walk item (empty when sound)."""
    scene = item.metadata["scene"]
    m, n = int(scene["rows"]), int(scene["cols"])
    start, end, via = (tuple(scene[k]) for k in ("start", "end", "via"))
    failures: list[str] = []
    if not (0 <= start[0] < end[0] <= m and 0 <= start[1] < end[1] <= n):
        failures.append(f"A {start} and B {end} are not the corners of a box on the map")
    if not (start[0] <= via[0] <= end[0] and start[1] <= via[1] <= end[1]) or via in (start, end):
        failures.append(f"C {via} is not an intersection inside the box other than A and B")
    value = route_probability(start, end, via)
    options = [_parse(o) for o in item.options or ()]
    holding = [k for k, v in enumerate(options) if v == value]
    if len(holding) != 1:
        failures.append(f"{len(holding)} options equal the probability {value} the routes give: {item.options}")
    elif chr(ord("A") + holding[0]) != item.answer:
        failures.append(f"the probability {value} is option {chr(ord('A') + holding[0])}, the item says {item.answer}")
    if item.metadata.get("other_answer") != item.answer:
        failures.append("the two renderings must share the answer (the polar box mirrors the Cartesian map)")
    extra = int(scene["geometry"].get("extra_sectors", 0))
    if item.variant == "polar" and extra < 2:
        failures.append(f"the polar map has only {extra} extra sectors: its radial streets 0 and n would merge")
    failures += _pixel_failures(scene, images[0], layout_of(item), item.variant == "polar")
    return failures


def _pixel_failures(scene, image, layout, polar: bool) -> list[str]:
    m = int(scene["rows"])
    colours = {k: tuple(v) for k, v in scene["colours"].items()}
    array = kpixels.as_array(image)
    shift = int(scene["polar_shift"]) if polar else 0
    failures = []
    for key, name in (("A", "start"), ("B", "end"), ("C", "via")):
        i, j = scene[name]
        if not kpixels.colour_near(array, layout.lattice_point(i, j + shift), colours[key], 3):
            failures.append(f"{key} is not drawn at intersection {(i, j)}")
    width = layout.columns_drawn
    missing = 0
    for i in range(m + 1):
        for j in range(width):
            if not kpixels.colour_near(array, layout.map_point(j + 0.5, i), colours["street"], 2):
                missing += 1
    for i in range(m):
        for j in range(width if polar else width + 1):
            if not kpixels.colour_near(array, layout.map_point(j, i + 0.5), colours["street"], 2):
                missing += 1
    if missing:
        failures.append(f"{missing} street segments of the map are not drawn")
    if polar:
        failures += cp_pixels.boundary_failures(array, layout, seam_wall=False)
    return failures
