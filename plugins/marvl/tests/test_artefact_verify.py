"""Planted faults in the rendering, the options and the scene records of MaRVL items: verify (which reads
only the written item and its decoded PNG) must reject every one.  A fault that verify misses fails here.

Counting: a heatmap or contour plot drawn with an extra bump, with the colour map reversed, or of another
function; a contour-only plot whose rings are dashed against the question's rule (peaks' rings solid,
hollows' rings dashed); a record whose options, answer or function disagree with the picture.  Transformation: Plot A
and Plot B swapped, Plot B drawn under another option, a plot of another function, the recorded
transformation replaced so that a distractor would be right, the option list altered.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest

from bench_core import (
    PNG_LEVEL,
    Built,
    Item,
    assert_rejected,
    build_item,
    create_host,
    decode_png,
    encode_png,
    hookimpl,
    plan,
    verify_item,
)
from bench_plugin_marvl import counting as ct
from bench_plugin_marvl import plotting
from bench_plugin_marvl import transformation as tr
from bench_plugin_marvl.descriptions.counting import TASK as COUNTING
from bench_plugin_marvl.descriptions.transformation import TASK as TRANSFORMATION
from bench_plugin_marvl.functions import FAMILIES
from bench_plugin_marvl.verifiers import surfaces
from bench_plugin_marvl.verifiers import transformation as vt
from bench_plugin_marvl.verifiers.pixels import Plot, check_plot


class _Plugin:
    @hookimpl
    def bench_register_tasks(self) -> list:
        return [COUNTING, TRANSFORMATION]


_HOST = create_host(entry_points=False, plugins=[("test-marvl-artefacts", _Plugin())])


def _build(task: Any, settings: dict[str, Any], seed: int = 0, index: int = 0) -> Built:
    job = plan(task, settings, seed, index + 1)[index]
    built = build_item(_HOST, task, seed, index, job.params, job.suffix)
    assert not verify_item(_HOST, task, built.item, _decoded(built.images)), "the unmutated item must verify"
    return built


def _written(images: Any, level: int) -> list[bytes]:
    """``images`` as a task writes them: PNG at its zlib ``level`` (``bench_core.PNG_LEVEL``)."""
    out = []
    for image in images:
        image = image.copy()
        image.info[PNG_LEVEL] = level
        out.append(encode_png(image))
    return out


def _decoded(images: Any) -> list[Any]:
    """Images as ``bench verify`` reads them: encoded to PNG and decoded again."""
    return [decode_png(encode_png(image)) for image in images]


def _with_scene(item: Item, **changes: Any) -> Item:
    return attrs.evolve(item, metadata={**item.metadata, "scene": {**item.metadata["scene"], **changes}})


# -- marvl/counting ------------------------------------------------------------------------------------------


def _draw_counting(item: Item, z: np.ndarray, reverse_colours: bool = False,
                   monkeypatch: pytest.MonkeyPatch | None = None) -> list[Any]:
    """The item's plot redrawn from the grid ``z`` with the renderer (optionally with its colour map reversed)."""
    scene = item.metadata["scene"]
    if reverse_colours:
        assert monkeypatch is not None
        original = plotting._cmap
        monkeypatch.setattr(plotting, "_cmap", lambda name: original(name).reversed())
    vmin, vmax = scene["value_range"]
    image = plotting.render_plot(z, scene["sampling"]["extent"], scene["style"], vmin=vmin, vmax=vmax,
                                 size_px=tuple(scene["image_size"]), dashes="hollows")
    return _decoded([image])


def _bump_site(item: Item) -> tuple[float, float]:
    """A point well inside the plot and as far as possible from every recorded extremum."""
    recorded = [p for points in item.metadata["scene"]["extrema"].values() for p in points]
    grid = np.linspace(-3.5, 3.5, 15)
    sites = np.array([(x, y) for x in grid for y in grid])
    if not recorded:
        return 0.0, 0.0
    gaps = np.min(np.hypot(*(sites[:, None, :] - np.asarray(recorded)[None, :, :]).transpose(2, 0, 1)), axis=1)
    return tuple(float(v) for v in sites[int(np.argmax(gaps))])


def _counting(style: str, seed: int = 1, **settings: Any) -> Built:
    return _build(COUNTING, {"style": style, **settings}, seed=seed)


@pytest.mark.parametrize("style", ["heatmap-viridis", "heatmap-contour-magma", "contour", "heatmap-inferno"])
def test_counting_redraw_harness_reproduces_the_item(style: str) -> None:
    built = _counting(style)
    z = built.problem.structure[0]
    assert _written(_draw_counting(built.item, z), ct.ZLIB_LEVEL) == list(built.pngs)


@pytest.mark.parametrize("style", ["heatmap-viridis", "heatmap-contour-magma", "contour", "heatmap-contour-plasma",
                                   "heatmap-magma"])
@pytest.mark.parametrize("count_type", ["maxima", "minima"])
def test_counting_plot_with_an_extra_bump_is_rejected(style: str, count_type: str) -> None:
    built = _counting(style, count_type=count_type)
    item, z = built.item, built.problem.structure[0]
    scene = item.metadata["scene"]
    span = scene["value_range"][1] - scene["value_range"][0]
    x0, y0 = _bump_site(item)
    xs = plotting.sample_axis(*scene["sampling"]["extent"][:2])
    ys = plotting.sample_axis(*scene["sampling"]["extent"][2:])
    sign = 1.0 if count_type == "maxima" else -1.0
    bump = sign * 0.35 * span * np.exp(-((xs[None, :] - x0) ** 2 + (ys[:, None] - y0) ** 2) / (2 * 0.4**2))
    assert_rejected(_HOST, COUNTING, item, _draw_counting(item, z + bump), f"extra {count_type[:-1]}um in {style}")


@pytest.mark.parametrize("style", ["heatmap-viridis", "heatmap-plasma", "heatmap-contour-inferno",
                                   "heatmap-contour-magma"])
def test_counting_reversed_colour_map_is_rejected(style: str, monkeypatch: pytest.MonkeyPatch) -> None:
    built = _counting(style, seed=2)
    images = _draw_counting(built.item, built.problem.structure[0], reverse_colours=True, monkeypatch=monkeypatch)
    failures = assert_rejected(_HOST, COUNTING, built.item, images, f"reversed colour map in {style}")
    assert any("colour" in f for f in failures)


def _moved_mixture(params: dict[str, Any]) -> dict[str, Any]:
    centres = [list(c) for c in params["centres"]]
    centres[0] = [centres[0][0] + 1.1, centres[0][1] - 0.8]
    return {**params, "centres": centres}


@pytest.mark.parametrize("style", ["heatmap-magma", "heatmap-contour-viridis", "contour"])
def test_counting_plot_of_another_function_is_rejected(style: str) -> None:
    built = _counting(style, seed=3, family="gaussian-mixture")
    item = built.item
    scene = item.metadata["scene"]
    other = _moved_mixture(scene["function"]["params"])
    xs = plotting.sample_axis(*scene["sampling"]["extent"][:2])
    z = plotting.quantise(FAMILIES["gaussian-mixture"].evaluate_grid(other, xs, xs))
    assert_rejected(_HOST, COUNTING, item, _draw_counting(item, z), f"plot of another mixture in {style}")
    # the record naming another function under the true picture
    recorded = _with_scene(item, function={"family": "gaussian-mixture", "params": other})
    assert_rejected(_HOST, COUNTING, recorded, _decoded(built.images), "scene records another mixture")
    renamed = _with_scene(item, function={"family": "wave-surface", "params": scene["function"]["params"]})
    assert_rejected(_HOST, COUNTING, renamed, _decoded(built.images), "scene records another family")


def test_counting_distractor_made_correct_is_rejected() -> None:
    built = _build(COUNTING, {"format": "choice"}, seed=4, index=1)
    item, images = built.item, _decoded(built.images)
    slot = "ABCD".index(item.answer)
    for other in range(4):
        if other == slot:
            continue
        options = list(item.options)
        options[slot], options[other] = options[other], options[slot]
        assert_rejected(_HOST, COUNTING, attrs.evolve(item, options=tuple(options)), images,
                        f"options {slot} and {other} swapped under the answer letter")
        assert_rejected(_HOST, COUNTING, attrs.evolve(item, answer="ABCD"[other]), images,
                        f"the answer letter moved to distractor {item.options[other]}")
    # the count replaced by a number that is no option, under the answer letter
    absent = str(max(int(o) for o in item.options) + 2)
    made = list(item.options)
    made[slot] = absent
    assert_rejected(_HOST, COUNTING, attrs.evolve(item, options=tuple(made)), images, f"the count replaced by {absent}")
    # a record that agrees with a wrong count: one recorded extremum dropped, the answer adjusted
    kind = item.metadata["scene"]["count"]["kinds"][0]
    extrema = dict(item.metadata["scene"]["extrema"])
    extrema[kind] = extrema[kind][1:]
    open_item = _build(COUNTING, {}, seed=4, index=1).item
    dropped = _with_scene(open_item, extrema=extrema)
    dropped = attrs.evolve(dropped, answer=str(int(open_item.answer) - 1))
    assert_rejected(_HOST, COUNTING, dropped, _decoded(built.images), "an extremum dropped from the record")


def test_counting_question_about_the_other_kind_is_rejected() -> None:
    built = _counting("heatmap-viridis", count_type="maxima")
    item = attrs.evolve(built.item, question=built.item.question.replace("local maxima", "local minima"))
    assert_rejected(_HOST, COUNTING, item, _decoded(built.images), "question asks for minima")


@pytest.mark.parametrize("count_type", ["maxima", "minima"])
@pytest.mark.parametrize("fault", ["all solid", "all closed rings dashed", "rises dashed, hollows solid"])
def test_counting_contour_rings_dashed_the_wrong_way_are_rejected(count_type: str, fault: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Contour-only plots dash exactly the closed rings around hollows (the question says so): a plot with
    every line solid, every closed ring dashed, or the rule turned round misleads a reader about which
    rings are peaks, and verify must see it on the pixels.  The surface has peaks and hollows, so that each
    fault changes the picture."""
    built = _counting("contour", seed=5, count_type=count_type, family="mixed-sign-gaussian-mixture")
    original = plotting.hollow_rings

    def faulty(lines: Any, level: float, z: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> list[bool]:
        right = original(lines, level, z, xs, ys)
        closed = [len(line) >= 4 and bool(np.array_equal(line[0], line[-1])) for line in lines]
        if fault == "all solid":
            return [False] * len(lines)
        if fault == "all closed rings dashed":
            return closed
        return [c and not r for c, r in zip(closed, right, strict=True)]

    monkeypatch.setattr(plotting, "hollow_rings", faulty)
    images = _draw_counting(built.item, built.problem.structure[0])
    assert not np.array_equal(np.asarray(images[0]), np.asarray(_decoded(built.images)[0])), "no fault planted"
    failures = assert_rejected(_HOST, COUNTING, built.item, images, f"{fault} ({count_type})")
    assert any("innermost contour ring" in f for f in failures)


def test_counting_dash_rule_must_match_the_style() -> None:
    """The question states the dashed-ring rule exactly for contour-only plots, whose scene says so."""
    built = _counting("contour", count_type="minima")
    item, images = built.item, _decoded(built.images)
    rule = next(line for line in item.question.splitlines() if "dashed" in line)
    silent = attrs.evolve(item, question=item.question.replace(rule + "\n", ""))
    assert_rejected(_HOST, COUNTING, silent, images, "the dashed-ring rule left out of the question")
    assert_rejected(_HOST, COUNTING, _with_scene(item, dashed=None), images, "the scene without the dash rule")
    heat = _counting("heatmap-viridis", count_type="minima")
    lines = heat.item.question.splitlines()
    told = attrs.evolve(heat.item, question="\n".join([lines[0], rule, *lines[1:]]))
    assert_rejected(_HOST, COUNTING, told, _decoded(heat.images), "the dashed-ring rule told for a heatmap")


# -- marvl/transformation ------------------------------------------------------------------------------------


def _draw_pair(item: Item, z_a: np.ndarray, z_b: np.ndarray, styles: tuple[str, str] | None = None) -> list[Any]:
    scene = item.metadata["scene"]
    style_a, style_b = styles or tuple(p["style"] for p in scene["panels"])
    vmin, vmax = scene["value_range"]
    image = plotting.render_pair(z_a, z_b, scene["sampling"]["extent"], style_a, style_b, vmin=vmin, vmax=vmax)
    return _decoded([image])


_PAIR_CASES = [
    ({"transform": "r90", "style_a": "heatmap-viridis", "style_b": "heatmap-viridis"}, 1),
    ({"transform": "r180", "style_a": "contour", "style_b": "heatmap-contour-plasma"}, 2),
    ({"transform": "tx", "style_a": "heatmap-contour-magma", "style_b": "contour"}, 3),
    ({"transform": "ty", "style_a": "heatmap-inferno", "style_b": "heatmap-magma"}, 4),
]


def _sample(item: Item) -> float:
    """The width of one drawn sample in data units."""
    sampling = item.metadata["scene"]["sampling"]
    return (sampling["extent"][1] - sampling["extent"][0]) / sampling["samples"]


def _pair(settings: dict[str, Any], seed: int) -> Built:
    return _build(TRANSFORMATION, settings, seed=seed)


@pytest.mark.parametrize(("settings", "seed"), _PAIR_CASES, ids=[c[0]["transform"] for c in _PAIR_CASES])
def test_transformation_redraw_harness_reproduces_the_item(settings: dict[str, Any], seed: int) -> None:
    built = _pair(settings, seed)
    s = built.problem.structure
    assert _written(_draw_pair(built.item, s.z_a, s.z_b), tr.ZLIB_LEVEL) == list(built.pngs)


@pytest.mark.parametrize(("settings", "seed"), _PAIR_CASES, ids=[c[0]["transform"] for c in _PAIR_CASES])
def test_transformation_swapped_panels_are_rejected(settings: dict[str, Any], seed: int) -> None:
    built = _pair(settings, seed)
    s = built.problem.structure
    assert_rejected(_HOST, TRANSFORMATION, built.item, _draw_pair(built.item, s.z_b, s.z_a), "Plot A and B swapped")
    styles = (s.style_b, s.style_a)
    assert_rejected(_HOST, TRANSFORMATION, built.item, _draw_pair(built.item, s.z_b, s.z_a, styles),
                    "Plot A and B swapped with their styles")


@pytest.mark.parametrize(("settings", "seed"), _PAIR_CASES, ids=[c[0]["transform"] for c in _PAIR_CASES])
def test_transformation_plot_b_under_another_option_is_rejected(settings: dict[str, Any], seed: int) -> None:
    """Plot B drawn as a distractor would have it (the picture makes a wrong option right)."""
    built = _pair(settings, seed)
    s = built.problem.structure
    family = FAMILIES[s.family_key]
    shift = s.shift_px or 60
    for other in ("r90", "r180", "tx", "ty", "none"):
        if other == s.transform:
            continue
        _, z_b, *_ = tr.plotted_grids(family, s.params, other, shift if other in ("tx", "ty") else 0)
        assert_rejected(_HOST, TRANSFORMATION, built.item, _draw_pair(built.item, s.z_a, z_b),
                        f"Plot B drawn under {other} for a {s.transform} item")


def _changed(family: str, params: dict[str, Any]) -> dict[str, Any]:
    if family == "wave-surface":
        return {**params, "w1": params["w1"] * 1.25, "p2": params["p2"] + 0.9}
    return _moved_mixture(params)


@pytest.mark.parametrize("family", ["wave-surface", "gaussian-mixture"])
@pytest.mark.parametrize("transform", ["r90", "tx"])
def test_transformation_plot_of_another_function_is_rejected(family: str, transform: str) -> None:
    built = _pair({"family": family, "transform": transform, "style_a": "heatmap-contour-viridis",
                   "style_b": "contour"}, seed=5)
    s = built.problem.structure
    other = _changed(family, dict(s.params))
    z_a, z_b, *_ = tr.plotted_grids(FAMILIES[family], other, s.transform, s.shift_px)
    item = built.item
    assert_rejected(_HOST, TRANSFORMATION, item, _draw_pair(item, z_a, z_b), "both plots of another function")
    assert_rejected(_HOST, TRANSFORMATION, item, _draw_pair(item, s.z_a, z_b), "Plot B of another function")
    recorded = _with_scene(item, function={"family": family, "params": other})
    assert_rejected(_HOST, TRANSFORMATION, recorded, _decoded(built.images), "scene records another function")


@pytest.mark.parametrize(("settings", "seed"), _PAIR_CASES, ids=[c[0]["transform"] for c in _PAIR_CASES])
def test_transformation_distractor_made_correct_is_rejected(settings: dict[str, Any], seed: int) -> None:
    built = _pair({**settings, "option_order": "shuffled"}, seed)
    item, images = built.item, _decoded(built.images)
    scene = item.metadata["scene"]
    keys = scene["options"]
    move = scene["transformation"]
    for other in ("r90", "r180", "tx", "ty"):
        if other == move["kind"]:
            continue
        steps = (move["shift_samples"] or 60) if other in ("tx", "ty") else 0
        replaced = {**move, "kind": other, "shift_samples": steps, "shift": steps * _sample(item)}
        bad = _with_scene(item, transformation=replaced)
        assert_rejected(_HOST, TRANSFORMATION, bad, images, f"scene says {other}")
        renumbered = attrs.evolve(bad, answer=str(keys.index(other) + 1))
        assert_rejected(_HOST, TRANSFORMATION, renumbered, images, f"scene and answer say {other}")
    # the option list altered: the answer's text swapped with each other option's text
    slot = int(item.answer) - 1
    for other in range(5):
        if other == slot:
            continue
        options = list(item.options)
        options[slot], options[other] = options[other], options[slot]
        assert_rejected(_HOST, TRANSFORMATION, attrs.evolve(item, options=tuple(options)), images,
                        f"option texts {slot + 1} and {other + 1} swapped")
    reordered = _with_scene(item, options=[*keys[1:], keys[0]])
    assert_rejected(_HOST, TRANSFORMATION, reordered, images, "the scene's option order rolled")
    made_up = tuple("Reflection in X" if text == "No Change" else text for text in item.options)
    assert_rejected(_HOST, TRANSFORMATION, attrs.evolve(item, options=made_up), images, "a made-up option")


def test_transformation_shift_of_the_record_is_checked() -> None:
    built = _pair({"transform": "tx", "style_a": "heatmap-plasma", "style_b": "heatmap-plasma"}, seed=6)
    item, images = built.item, _decoded(built.images)
    move = item.metadata["scene"]["transformation"]
    for steps in (move["shift_samples"] + 3, -move["shift_samples"]):
        bad = _with_scene(item, transformation={**move, "shift_samples": steps, "shift": steps * _sample(item)})
        assert_rejected(_HOST, TRANSFORMATION, bad, images, f"shift recorded as {steps} samples")



@pytest.mark.parametrize(("settings", "seed"), _PAIR_CASES, ids=[c[0]["transform"] for c in _PAIR_CASES])
def test_transformation_option_errors_at_the_recorded_move_agree_with_the_full_search(settings: dict[str, Any],
                                                                                      seed: int) -> None:
    # the verifier reads B from the displayed extension and measures a translation's own axis at its recorded
    # shift alone; every other option's error is the full search's, and the verdict is the same
    scene = _pair(settings, seed).item.metadata["scene"]
    n, extent = scene["sampling"]["samples"], scene["sampling"]["extent"]
    margin = n // 4
    k = np.arange(n + 2 * margin) - margin + 0.5
    side = extent[1] - extent[0]
    ext = surfaces.grid(scene["function"]["family"], scene["function"]["params"], extent[0] + k * side / n,
                        extent[2] + k * side / n)
    move = scene["transformation"]
    kind, steps = move["kind"], move["shift_samples"]
    lo, hi = scene["value_range"]
    b = vt.moved(ext, margin, kind, steps)
    full = vt.option_errors(ext, margin, b, lo, hi)
    quick = vt.option_errors(ext, margin, b, lo, hi, (kind, steps))
    assert {key: v for key, v in quick.items() if not key.startswith(kind)} == {
        key: v for key, v in full.items() if not key.startswith(kind)}
    assert quick[kind] <= vt.EXACT and full[kind] <= vt.EXACT
    assert [key for key in vt.OPTIONS.values() if quick[key] < vt.SIMILARITY] == [kind]
    assert [key for key in vt.OPTIONS.values() if full[key] < vt.SIMILARITY] == [kind]
    # screened as verify screens: a translation settled by its lower bound has the bound, above the threshold
    screened = vt.option_errors(ext, margin, b, lo, hi, (kind, steps), screen=vt.SIMILARITY)
    assert [key for key in vt.OPTIONS.values() if screened[key] < vt.SIMILARITY] == [kind]
    for key in vt.OPTIONS.values():
        if screened.get(f"{key}_shift", 0) is None:
            assert vt.SIMILARITY < screened[key] <= full[key] + 1e-12
        else:
            assert screened[key] == quick[key]
    assert any(screened[f"{key}_shift"] is None for key in ("tx", "ty") if key != kind)  # the screen settled it
    # a threshold no bound clears: every translation is searched in full, as without the screen
    assert vt.option_errors(ext, margin, b, lo, hi, (kind, steps), screen=10.0) == quick


def test_transformation_shift_floor_is_a_lower_bound() -> None:
    # the verifier's screen of a wrong translation never exceeds the full search's smallest error
    rng = np.random.default_rng(3)
    n, margin = 2 * vt.FLOOR_BLOCK, 9
    x = np.linspace(-3, 3, n + 2 * margin)
    smooth = np.exp(-((x[None, :] - 0.4) ** 2 + (x[:, None] + 0.9) ** 2)) + 0.3 * np.sin(2 * x[None, :])
    for shown in (rng.random((n + 2 * margin, n + 2 * margin)), smooth):
        for target in (rng.random((n, n)), shown[margin:margin + n, margin:margin + n][::-1, ::-1].copy()):
            for axis in (0, 1):
                assert vt._shift_floor(target, shown, margin, axis) <= vt._shift_profile(target, shown, margin,
                                                                                         axis).min() + 1e-12
    # and close to it on a smooth surface, where it settles the clear cases
    turned = smooth[margin:margin + n, margin:margin + n][::-1, ::-1].copy()
    assert vt._shift_floor(turned, smooth, margin, 1) > 0.9 * vt._shift_profile(turned, smooth, margin, 1).min()
    assert vt._shift_floor(rng.random((n + 1, n + 1)), rng.random((n + 3, n + 3)), 1, 1) is None

# -- contour levels at the value of a flat stretch ------------------------------------------------------------


def _drawn_pair(family_key: str, params: dict[str, Any], transform: str, shift: int, styles: tuple[str, str],
                decimals: int | None = None) -> tuple[np.ndarray, list[tuple[Plot, np.ndarray]]]:
    """A pair drawn as the task draws it, and each panel as its written scene record describes it (levels
    rounded as the core rounds metadata) with the verifier's own evaluation of what it shows.  ``decimals``
    is the values' rounding the record declares (None: the check allows no rounding at all)."""
    family = FAMILIES[family_key]
    extent = tr.window(family.domain)
    n = plotting.PLOT_GRID
    z_a, z_b, lo, hi, _ = tr.plotted_grids(family, params, transform, shift)
    image = _decoded([plotting.render_pair(z_a, z_b, extent, *styles, vmin=lo, vmax=hi)])[0]
    margin = n // 4
    k = np.arange(n + 2 * margin) - margin + 0.5
    side = extent[1] - extent[0]
    ext = surfaces.grid(family_key, params, extent[0] + k * side / n, extent[2] + k * side / n)
    levels = [round(float(v), 6) for v in plotting.contour_levels(lo, hi)]
    panels = []
    for box, style, z in zip(plotting.axes_rects_px("pair", plotting.PAIR_SIZE), styles,
                             (ext[margin:margin + n, margin:margin + n], vt.moved(ext, margin, transform, shift)),
                             strict=True):
        kind, cmap = plotting.style_parts(style)
        panels.append((Plot(box, extent, n, kind, cmap, (lo, hi), levels, 0.0, decimals=decimals), z))
    return np.asarray(image.convert("RGB")).copy(), panels


#: Crossed tunnels (``marvl/transformation`` 0.2.1, seed 7, index 395): the troughs' floors lie at about
#: -1e-5 and the level at 3.6e-5 is crossed by the drawn samples only near the crossings (short spikes along
#: the troughs; on the floor between them the nearest samples stand 7e-4 above it and no line is drawn).
_TUNNELS = ("crossed-tunnels", {"w": 0.3019, "a": [-2.8828, -0.1597, 3.1757],
                                "b": [-3.1852, -0.9653, 1.051, 3.1903]}, "r180", 0, ("contour", "heatmap-inferno"))
#: Symmetric lobes (0.2.1, seed 11, indices 1289 and 329): the colour range is symmetric, so a level lies at
#: 0 (or 5e-7, recorded as 1e-6), the value of the far field, which the drawn values' rounding splits into
#: patches of 0 and 1e-6; lines used to run along those patches' edges, where the function is not at the level.
_LOBES = [
    ("contained-symmetric-lobes", {"m": 5, "sigma": 0.9397, "angle": 2.9927, "centre": [-0.1109, 0.4965]},
     "r90", 0, ("heatmap-plasma", "heatmap-contour-plasma")),
    ("contained-symmetric-lobes", {"m": 4, "sigma": 1.0875, "angle": 5.6543, "centre": [0.4231, -0.2647]},
     "ty", 75, ("heatmap-contour-plasma", "heatmap-contour-plasma")),
    ("contained-symmetric-lobes", {"m": 5, "sigma": 0.9397, "angle": 2.9927, "centre": [-0.1109, 0.4965]},
     "r90", 0, ("contour", "contour")),
]


def test_contour_level_just_above_a_trough_floor_is_not_demanded_where_no_sample_crosses_it() -> None:
    """The missing-line check once extrapolated the level's distance straight through the trough's floor and
    demanded a line where the drawn samples never reach the level (13 sampled pixels in one tile)."""
    image, panels = _drawn_pair(*_TUNNELS)
    plot, z = panels[0]
    stats: dict[str, float] = {}
    assert check_plot(image, plot, z, "Plot A", stats) == []
    assert stats["solid_missing_tile"] == 0


@pytest.mark.parametrize("case", _LOBES, ids=["level-0", "level-5e-7", "contour-only"])
def test_no_contour_line_follows_the_rounding_of_a_flat_far_field(case: tuple[Any, ...]) -> None:
    """Lines of a level at the far field's value are drawn only where the function crosses it (the nodal
    rays), not along the rounding of the far field (a patch of 13 sampled pixels of stray ink before)."""
    image, panels = _drawn_pair(*case)
    for name, (plot, z) in zip("AB", panels, strict=True):
        stats: dict[str, float] = {}
        assert check_plot(image, plot, z, f"Plot {name}", stats) == []
        if plot.kind != "heatmap":
            assert stats["stray_ink_tile"] == 0


#: Crossed tunnels (0.2.2, seed 11, index 1159): the drawn level 1.00000000003e-6 (recorded as 1e-6) lies just
#: above the drawn floor of one trough (samples rounded to 1.000e-6), so a line runs all along that floor,
#: while the function's floor there is 1.004e-6: the rounding of the drawn values decided the crossing.
_TUNNEL_FLOOR = ("crossed-tunnels", {"w": 0.3518, "a": [-3.6575, -1.462, 1.4592, 3.8611], "b": [-3.0726, 4.038]},
                 "tx", -64, ("heatmap-contour-magma", "heatmap-contour-inferno"))


def test_a_crossing_that_the_rounding_decides_is_not_held_against_the_plot() -> None:
    """The record declares values drawn to 6 decimals and levels recorded to as many: a line along a trough
    floor within that of the level is explained (16 sampled pixels of "stray" ink in each panel before)."""
    image, panels = _drawn_pair(*_TUNNEL_FLOOR, decimals=6)
    for name, (plot, z) in zip("AB", panels, strict=True):
        assert check_plot(image, plot, z, f"Plot {name}") == []
        strict = Plot((plot.left, plot.top, plot.right, plot.bottom), plot.extent, plot.samples, plot.kind,
                      plot.colormap, (plot.vmin, plot.vmax), plot.levels, 0.0)
        assert any("lies on no level set" in f for f in check_plot(image, strict, z, f"Plot {name}"))


def test_contour_lines_erased_from_a_patch_are_still_rejected() -> None:
    """The check still catches a patch of a level set drawn without its line (here: painted over)."""
    image, panels = _drawn_pair(*_TUNNELS, decimals=6)
    plot, z = panels[0]
    top, left = round(plot.top) + 120, round(plot.left) + 120
    patch = image[top:top + 100, left:left + 100]
    assert (patch.max(axis=2) <= 160).sum() > 200, "the patch must hold contour lines to erase"
    patch[...] = 255
    failures = check_plot(image, plot, z, "Plot A")
    assert any("has no contour line" in failure for failure in failures), failures


def test_the_pixel_checks_window_extremes_are_read_at_the_sampled_pixels_alone() -> None:
    """``pixels._lattice_range``: the smallest and largest value of every window around the sampled samples
    (indices clamped at the grid's edge), as a brute-force scan of each window finds them."""
    from bench_plugin_marvl.verifiers import pixels

    rng = np.random.default_rng(8)
    for _ in range(40):
        n0, n1 = (int(v) for v in rng.integers(4, 40, 2))
        z = np.round(rng.random((n0, n1)), 2)
        rows = np.sort(rng.integers(0, n0, int(rng.integers(1, 12))))
        cols = np.sort(rng.integers(0, n1, int(rng.integers(1, 12))))
        before, after = int(rng.integers(0, 3)), int(rng.integers(0, 4))
        found = pixels._lattice_range(z, rows, cols, before, after)
        for got, reduce in zip(found, (np.min, np.max), strict=True):
            expected = [[reduce(z[max(r - before, 0):min(r + after, n0 - 1) + 1,
                                  max(c - before, 0):min(c + after, n1 - 1) + 1]) for c in cols] for r in rows]
            assert np.array_equal(got, expected)
