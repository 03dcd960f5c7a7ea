"""Symmetric Structures (SS): the artefact verifier (symmetry from the recorded strokes, strokes found on the
pixels), planted faults it must catch, the construction of conformers and the odd figure, leak checks (stroke
count, size, box shape, stroke length, orientation), the size of the decisive difference, difficulty knobs,
legibility, and the core's conformance suite (with golden digests) on a private host."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import attrs
import numpy as np
import pytest

from bench_core import ConformanceSuite, assert_rejected, build_item, create_host, decode_png, full_run, hookimpl, plan
from bench_plugin_mindseye import folding
from bench_plugin_mindseye import symmetric_structures as ss
from bench_plugin_mindseye.descriptions.symmetric_structures import TASK
from bench_plugin_mindseye.layout import SIZES, Layout, Tile
from bench_plugin_mindseye.nuisance import option_features
from bench_plugin_mindseye.verifiers import symmetric_structures as verifier


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-symmetric-structures", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return _HOST


def _stimuli(count: int, start: int = 0, **params):
    difficulties = ("easy", "medium", "hard")
    return [(difficulties[seed % 3], ss.TASK.build(np.random.default_rng(seed), difficulties[seed % 3], params))
            for seed in range(start, start + count)]


#: Stimuli the per-stimulus checks run over: 48 in a full run (CI), 24 in a developer's fast run.
STIMULI = _stimuli(48 if full_run() else 24)
SIDE = ss.TASK.layout("1024x1024").tile
EXPECTED = {"vertical": {"mirror"}, "horizontal": {"mirror"}, "rot2": {"turn 2"}, "rot4": {"turn 2", "turn 4"}}


def _scene(stimulus, shown, size="1024x1024"):
    """The scene record of a stimulus with the options in ``shown`` order, as JSON gives it back."""
    return json.loads(json.dumps(ss.TASK.scene(stimulus, shown, size)))


def _held(description, side=SIDE):
    return {name for name, has in verifier.properties(verifier.Figure(description, side)).items() if has}


# -- the verifier's symmetry finder on hand-made figures -------------------------------------------------------------
def _record(*lines, stroke=0.017):
    """A description of polylines given in units of 0.1 about the tile centre."""
    return {"kind": "figure", "stroke": stroke,
            "polylines": [[[0.5 + 0.1 * x, 0.5 + 0.1 * y] for x, y in line] for line in lines]}


def test_symmetry_finder_recognises_textbook_figures():
    arrow = _record([(-1, 1), (0, 0), (1, 1)], [(0, 0), (0, 2)])
    zed = _record([(-1, 1), (1, 1), (-1, -1), (1, -1)])
    arm = np.array([(0, 0), (1, 0), (1, 0.6)])
    pinwheel = _record(*[folding.apply(folding.rotation((0, 0), 90 * k), arm) for k in range(4)])
    hook = _record([(0, 0), (2, 0), (2, 1), (1.4, 1.3)])
    assert _held(arrow) == {"mirror"}
    assert _held(zed) == {"turn 2"}
    assert _held(pinwheel) == {"turn 2", "turn 4"}
    assert _held(hook) == set()
    # an oblique mirror axis counts as well as a vertical one
    tilted = _record(*[folding.apply(folding.rotation((0, 0), 33.0), line) for line in
                       ([(-1, 1), (0, 0), (1, 1)], [(0, 0), (0, 2)])])
    assert _held(tilted) == {"mirror"}
    for figure in (hook,):
        shape = verifier.Figure(figure, SIDE)
        assert shape.lacks_mirror() and shape.lacks_turn(2)


def test_a_nearly_symmetric_figure_is_neither_symmetric_nor_clearly_not():
    # one end moved by a pixel: not a symmetry (beyond HOLD), but not visibly broken either
    nudge = 1.0 / SIDE / 0.1
    almost = verifier.Figure(_record([(-1, 1), (0, 0), (1, 1 + nudge)], [(0, 0), (0, 2)]), SIDE)
    assert not almost.mirror_axes() and not almost.lacks_mirror()


def test_make_figure_turns_down_an_elongation_outside_the_window_before_the_stroke_tests():
    """``make_figure`` with an elongation window gives what it gives without one followed by the window check (the
    elongation test only moved ahead of the costly stroke tests), and leaves the random stream where it would:
    every random number is drawn before the first check."""
    outcomes = set()
    for k in range(240):
        kind = ss.SYMMETRIES[k % 4]
        broken, pair = ((3, None), (None, 3), (None, None))[k % 3]
        target = 0.0 if kind == "rot4" else 0.1 + 0.8 * (k % 7) / 6
        window = (max(target - ss.ELONGATION_MATCH, 0.0), target + ss.ELONGATION_MATCH)
        made = []
        for checked in (True, False):
            rng = np.random.default_rng(k)
            figure = ss.make_figure(rng, kind, 6, 20.0 * k, 10.0 * k, broken, pair, *([window] if checked else []))
            if not checked and figure is not None and not window[0] <= abs(ss.second_moment(figure[0])) <= window[1]:
                figure = None
            made.append((figure, rng.random()))
        (ours, next_ours), (theirs, next_theirs) = made
        assert next_ours == next_theirs
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert ours[1] == theirs[1]
            assert all(np.array_equal(a, b) for a, b in zip(ours[0], theirs[0], strict=True))
        outcomes.add(ours is not None)
    assert outcomes == {True, False}


def test_the_odd_figure_must_clearly_lack_the_shared_symmetry():
    v = _record([(-1, 1), (0, 0), (1, 1)], [(0, 0), (0, 2)])
    nudge = 1.0 / SIDE / 0.1
    almost = _record([(-1, 1), (0, 0), (1, 1 + nudge)], [(0, 0), (0, 2)])
    bent = _record([(-1, 1), (0, 0), (1.5, 0.2)], [(0, 0), (0, 2)])
    assert verifier.solve({"tile": SIDE, "options": [v, v, bent, v]}) == [2]
    assert verifier.solve({"tile": SIDE, "options": [v, v, almost, v]}) == []  # undecidable: no answer
    assert verifier.solve({"tile": SIDE, "options": [v, bent, bent, v]}) == []


# -- construction ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_scene_solver_agrees_with_the_construction(difficulty, stimulus):
    options = list(stimulus.options)
    assert ss.TASK.solve_scene(_scene(stimulus, options)) == [0]
    assert ss.TASK.solve_scene(_scene(stimulus, options[1:] + options[:1])) == [3]


@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_conformers_have_exactly_the_shared_symmetry_and_the_odd_one_none(difficulty, stimulus):
    kind = stimulus.facts["symmetry"]
    for option in stimulus.options:
        found = _held(ss.TASK.describe(option.content, SIDE))
        assert found == (set() if option.role == "correct" else EXPECTED[kind]), option.template
    assert [o.template for o in stimulus.options] == ["broken_copy", "perturbed_pair", "plain", "plain_alt"]
    assert stimulus.options[1].role == "confound"


@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_the_decisive_difference_is_clearly_visible(difficulty, stimulus):
    odd = stimulus.options[0]
    assert odd.latent["decisive_px"] >= ss.MIN_DECISIVE_PX
    assert ss.decisive_size(odd.content.polylines) * ss.FILL * odd.content.scale * SIDE >= ss.MIN_DECISIVE_PX
    figure = verifier.Figure(ss.TASK.describe(odd.content, SIDE), SIDE)
    assert figure.lacks_mirror() and all(figure.lacks_turn(n) for n in verifier.ORDERS)


@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_no_stroke_count_or_size_leak(difficulty, stimulus):
    # the release's asymmetric panel had half the strokes and was scaled up (spec §2.5, §7.2)
    counts = {len(ss.segments_of(o.content.polylines)) for o in stimulus.options}
    assert counts == {stimulus.facts["strokes_per_figure"]}
    for option in stimulus.options:
        v = np.concatenate(option.content.polylines)
        extent = v.max(axis=0) - v.min(axis=0)
        assert abs(extent.max() - 1.0) < 1e-9
        assert np.allclose((v.max(axis=0) + v.min(axis=0)) / 2, 0.0)
        assert ss.clear(option.content.polylines) and ss.crossings(option.content.polylines) == 0
        if stimulus.facts["symmetry"] == "rot4":
            assert extent.min() >= 0.97  # four-fold figures have square boxes; the odd one nearly so


def test_every_figure_is_tilted_from_one_distribution():
    """The construction angles are drawn alike for every role (version 0.1 drew the odd figure upright and a
    filler always oblique)."""
    for kind in ss.SYMMETRIES:
        rng = np.random.default_rng(3)
        angles = np.array([ss.orientations(rng, kind, 4) for _ in range(400)])
        centre = {"vertical": 90.0, "horizontal": 0.0}.get(kind)
        for column in angles.T:
            if centre is None:
                assert column.min() >= 0.0 and column.max() < 360.0 and abs(column.mean() - 180.0) < 25.0
            else:
                assert np.all(np.abs(column - centre) <= 45.0) and abs(column.mean() - centre) < 5.0


def _ink_orientation(image) -> tuple[float, float]:
    """(principal angle of the ink in degrees mod 180, how far it is from upright/level in degrees)."""
    ink = np.asarray(image.convert("L")) < 128
    ys, xs = np.nonzero(ink)
    xs, ys = xs - xs.mean(), ys - ys.mean()
    angle = 0.5 * math.degrees(math.atan2(2 * (xs * ys).mean(), (xs * xs).mean() - (ys * ys).mean())) % 180.0
    return angle, abs((angle + 45.0) % 90.0 - 45.0)


@pytest.mark.slow
def test_orientation_does_not_point_at_the_answer():
    """Over many items, picking the most / least tilted figure (principal direction of the drawn ink off upright),
    or the one whose tilt is most / least typical, finds the odd figure at chance (within three binomial standard
    deviations)."""
    items = [s for _, s in _stimuli(120, start=300, symmetry=None)]
    hits: dict[str, int] = {}
    for stimulus in items:
        tilt = [_ink_orientation(ss.TASK.draw_option(o.content, SIDE))[1] for o in stimulus.options]
        median = sorted(tilt)[2]
        picks = {"most tilted": int(np.argmax(tilt)), "least tilted": int(np.argmin(tilt)),
                 "atypical": int(np.argmax([abs(t - median) for t in tilt])),
                 "typical": int(np.argmin([abs(t - median) for t in tilt]))}
        for name, pick in picks.items():
            hits[name] = hits.get(name, 0) + (pick == 0)
    bound = 0.25 + 3 * math.sqrt(0.25 * 0.75 / len(items))
    rates = {name: count / len(items) for name, count in hits.items()}
    assert max(rates.values()) <= bound, rates


@pytest.mark.slow
def test_stroke_length_does_not_point_at_the_answer():
    ranks = []
    for _, stimulus in _stimuli(90, segments=5):
        lengths = [o.latent["length"] for o in stimulus.options]
        ranks.append(int(np.argsort(np.argsort(lengths))[0]))
    top = ranks.count(3) / len(ranks)
    bottom = ranks.count(0) / len(ranks)
    assert top < 0.4 and bottom < 0.4, (top, bottom)


# -- planted faults: verify must catch each -----------------------------------------------------------------------
def _built(seed, index, **settings):
    job = plan(TASK, settings, seed, index + 1)[index]
    return build_item(_HOST, TASK, seed, index, job.params, job.suffix)


FAULT_ITEMS = [(seed, index) for seed in (1, 2, 3, 4) for index in (0, 1)]


def _images(built):
    return [decode_png(p) for p in built.pngs]


def _with_scene(item, change):
    metadata = copy.deepcopy(item.metadata)
    change(metadata["scene"])
    return attrs.evolve(item, metadata=metadata)


def _answer(item):
    return "ABCD".index(item.answer)


def _render_with(problem, content_map):
    """The problem's image with some options' figures drawn from other contents (``{index: Figure}``)."""
    stimulus, shown = problem.structure
    shown = tuple(attrs.evolve(o, content=content_map.get(k, o.content)) for k, o in enumerate(shown))
    return ss.TASK.render(attrs.evolve(problem, structure=(stimulus, shown)))


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_options_drawn_one_slot_off(seed, index):
    built = _built(seed, index)
    shown = built.problem.structure[1]
    rolled = {k: shown[k - 1].content for k in range(4)}
    failures = assert_rejected(_HOST, TASK, built.item, _render_with(built.problem, rolled),
                               "options drawn one slot off")
    assert any("off the recorded strokes" in f for f in failures), failures


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_a_distractor_made_odd(seed, index):
    """A conformer replaced by an asymmetric figure (the odd figure turned), in the record only and in both the
    record and the picture: two figures then lack the symmetry."""
    built = _built(seed, index)
    answer = _answer(built.item)
    shown = built.problem.structure[1]
    odd = shown[answer].content
    turned = attrs.evolve(odd, polylines=tuple(folding.apply(folding.rotation((0, 0), 90.0), p) for p in odd.polylines))
    wrong = (answer + 1) % 4
    record = ss.TASK.describe(turned, built.item.metadata["scene"]["tile"])
    bad = _with_scene(built.item, lambda scene: scene["options"].__setitem__(wrong, record))
    assert_rejected(_HOST, TASK, bad, _images(built), "a conformer made asymmetric (record)")
    assert_rejected(_HOST, TASK, bad, _render_with(built.problem, {wrong: turned}),
                    "a conformer made asymmetric (record and picture)")


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_the_odd_figure_made_symmetric(seed, index):
    """The odd figure replaced by a symmetric one (a conformer turned), in the record only and in both."""
    built = _built(seed, index)
    answer = _answer(built.item)
    shown = built.problem.structure[1]
    conformer = shown[(answer + 1) % 4].content
    turned = attrs.evolve(conformer, polylines=tuple(folding.apply(folding.rotation((0, 0), 37.0), p)
                                                     for p in conformer.polylines))
    record = ss.TASK.describe(turned, built.item.metadata["scene"]["tile"])
    bad = _with_scene(built.item, lambda scene: scene["options"].__setitem__(answer, record))
    failures = assert_rejected(_HOST, TASK, bad, _images(built), "the odd figure made symmetric (record)")
    assert any("solver" in f for f in failures), failures
    assert_rejected(_HOST, TASK, bad, _render_with(built.problem, {answer: turned}),
                    "the odd figure made symmetric (record and picture)")


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_figure_drawn_mirrored(seed, index):
    """The odd figure drawn mirrored left for right about its own centre while the record keeps it as it was:
    the decisive hook then sits on the other side."""
    built = _built(seed, index)
    answer = _answer(built.item)
    odd = built.problem.structure[1][answer].content
    mirrored = attrs.evolve(odd, polylines=tuple(p * np.array([-1.0, 1.0]) for p in odd.polylines))
    failures = assert_rejected(_HOST, TASK, built.item, _render_with(built.problem, {answer: mirrored}),
                               "odd figure drawn mirrored")
    assert any("off the recorded strokes" in f or "not drawn" in f for f in failures), failures


def _nearest_symmetry_image(polylines):
    """The figure mapped by the mirror (about an axis through its vertex mean, every half degree) or turn that
    moves it least: the picture differs from the figure only by its decisive detail."""
    from shapely.geometry import MultiLineString

    lines = MultiLineString([p.tolist() for p in polylines])
    centre = np.concatenate(polylines).mean(axis=0)
    candidates = [folding.reflection(centre, a) for a in np.arange(0.0, 180.0, 0.5)]
    candidates += [folding.rotation(centre, t) for t in (90.0, 180.0, 270.0)]
    best = min(candidates, key=lambda m: lines.hausdorff_distance(folding.transform(lines, m)))
    return tuple(folding.apply(best, p) for p in polylines)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_odd_figure_drawn_under_its_nearest_symmetry(seed, index):
    """The subtle mirror: the odd figure drawn mirrored about its best axis (or turned by its best turn), so the
    picture matches the record everywhere but at the decisive detail, which sits elsewhere."""
    built = _built(seed, index)
    answer = _answer(built.item)
    odd = built.problem.structure[1][answer].content
    image = _render_with(built.problem, {answer: attrs.evolve(odd, polylines=_nearest_symmetry_image(odd.polylines))})
    failures = assert_rejected(_HOST, TASK, built.item, image, "odd figure drawn under its nearest symmetry")
    assert any("off the recorded strokes" in f or "not drawn" in f for f in failures), failures


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_two_vertices_swapped_in_the_drawing(seed, index):
    """Two neighbouring corners of the odd figure's path swapped in the drawing only."""
    built = _built(seed, index)
    answer = _answer(built.item)
    odd = built.problem.structure[1][answer].content
    line = odd.polylines[0].copy()
    k = len(line) // 3
    line[[k, k + 1]] = line[[k + 1, k]]
    swapped = attrs.evolve(odd, polylines=(line, *odd.polylines[1:]))
    assert_rejected(_HOST, TASK, built.item, _render_with(built.problem, {answer: swapped}),
                    "two vertices swapped in the drawing")


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_stroke_left_out(seed, index):
    """One stroke of a conformer left out of the drawing (an asymmetric picture of a symmetric record)."""
    built = _built(seed, index)
    k = (_answer(built.item) + 2) % 4
    figure = built.problem.structure[1][k].content
    shortened = attrs.evolve(figure, polylines=(figure.polylines[0][:-1], *figure.polylines[1:]))
    assert_rejected(_HOST, TASK, built.item, _render_with(built.problem, {k: shortened}), "a stroke left out")


# -- difficulty knobs -------------------------------------------------------------------------------------------
def test_difficulty_sets_segments_and_closeness():
    for difficulty, stimulus in STIMULI:
        segments, closeness = ss.DIFFICULTY_KNOBS[difficulty]
        assert stimulus.facts["segments_per_copy"] == segments
        assert stimulus.facts["knobs"]["closeness"] == closeness
        copies = {"vertical": 2, "horizontal": 2, "rot2": 2, "rot4": 4}[stimulus.facts["symmetry"]]
        assert stimulus.facts["strokes_per_figure"] == segments * copies
        stroke = stimulus.options[0].latent["break"]["stroke"]
        if closeness == "near":
            assert stroke == segments
        elif closeness == "mid":
            assert segments - 2 <= stroke <= segments - 1
        else:
            assert 2 <= stroke <= (segments + 1) // 2 + 1


def test_explicit_knobs_override_the_difficulty():
    for seed in range(4):
        stimulus = ss.TASK.build(np.random.default_rng(seed), "easy",
                                 {"symmetry": "rot4", "segments": 3, "closeness": "near"})
        assert stimulus.facts["symmetry"] == "rot4" and stimulus.facts["k"] == 4
        assert stimulus.facts["strokes_per_figure"] == 12
        assert stimulus.options[0].latent["break"]["stroke"] == 3


def test_every_symmetry_type_occurs():
    assert {s.facts["symmetry"] for _, s in STIMULI} == set(ss.SYMMETRIES)


# -- legibility and drawing -------------------------------------------------------------------------------------
def test_strokes_are_at_least_two_pixels_on_the_small_canvas():
    side = Layout(SIZES["600x800"], 0, 4, 4).tile
    tile = Tile(side)
    width = max(2 * tile.supersample, round(ss.STROKE * tile.scale))
    assert width / tile.supersample >= 2
    image = ss.TASK.draw_option(STIMULI[0][1].options[0].content, side)
    assert image.size == (side, side)
    assert (np.asarray(image.convert("L")) < 100).mean() > 0.01


def test_panels_are_drawn_from_the_quantised_record():
    figure = STIMULI[5][1].options[2].content
    record = ss.TASK.describe(figure, SIDE)
    assert all(round(c, 4) == c for line in record["polylines"] for point in line for c in point)
    nudged = attrs.evolve(figure, polylines=tuple(p + 1e-9 for p in figure.polylines))
    assert ss.TASK.describe(nudged, SIDE) == record
    assert ss.TASK.draw_option(nudged, SIDE).tobytes() == ss.TASK.draw_option(figure, SIDE).tobytes()


def test_ink_and_box_follow_one_size_order_with_the_odd_figure_anywhere():
    ranks = set()
    for _, stimulus in STIMULI[:24]:
        features = [option_features(ss.TASK.draw_option(o.content, SIDE)) for o in stimulus.options]
        orders = [list(np.argsort([f[name] for f in features])) for name in ("ink", "extent")]
        assert orders[0] == orders[1]
        ranks.add(orders[0].index(0))  # the odd figure is option 0
        scales = [o.content.scale for o in stimulus.options]
        assert max(scales) == pytest.approx(1.0) and min(scales) >= 1 / 1.6 - 1e-9
        assert [o.latent["scale"] for o in stimulus.options] == [round(s, 4) for s in scales]
    assert ranks == {0, 1, 2, 3}


# -- the generator's fast paths give what the plain computations give (issue 12) ---------------------------------
def test_quick_elongation_is_the_second_moment_of_the_assembled_figure():
    """``quick_elongation`` (on the strokes' ends, before any polyline is built) agrees with ``second_moment`` of
    the normalised assembled figure to far below ``QUICK_SLACK``, for every kind, straight or with one bent
    copy."""
    rng = np.random.default_rng(5)
    worst = 0.0
    for k in range(400):
        kind = ss.SYMMETRIES[k % 4]
        segments = 4 + k % 5
        headings = ss.path_headings(rng, segments, float(rng.uniform(0.0, 360.0)))
        lengths = rng.uniform(*ss.LENGTH, size=segments)
        bent = ss.retake_turn(rng, headings, int(rng.integers(1, segments)))[0] if k % 3 else headings
        which = int(rng.integers(1, 4)) if kind == "rot4" else 1
        orientation = float(rng.uniform(0.0, 360.0))
        polylines = ss.normalise(ss.assemble(kind, orientation, ss.trace(headings, lengths),
                                             {which: ss.trace(bent, lengths)}))
        exact = abs(ss.second_moment(polylines))
        worst = max(worst, abs(ss.quick_elongation(kind, orientation, headings, bent, lengths, which) - exact))
    assert worst < ss.QUICK_SLACK / 1000, worst


def test_signs_are_the_choices_they_replace():
    """``_signs`` gives ``rng.choice([-1.0, 1.0], size=n)``'s values and leaves the stream where it would."""
    for n in (1, 3, 7, 12):
        a, b = np.random.default_rng(n), np.random.default_rng(n)
        for _ in range(20):
            assert np.array_equal(ss._signs(a, n), b.choice([-1.0, 1.0], size=n))
        assert a.random() == b.random()


def _odd_figures(count: int):
    rng = np.random.default_rng(17)
    out = []
    while len(out) < count:
        kind = ss.SYMMETRIES[len(out) % 4]
        segments = 4 + len(out) % 5
        made = ss.draw_figure(rng, kind, segments, float(rng.uniform(0.0, 360.0)), segments // 2, None, odd=True)
        if made is not None:
            out.append(made[0])
    return out


def test_the_panel_bands_are_the_pixels_at_the_exact_distances():
    # the panel check measures strokes in pieces, each in a window: it must find exactly the pixels whose centres a
    # brute-force distance puts within each radius, with strokes running off the tile and points (length 0)
    rng = np.random.default_rng(8)
    side = 60
    centres = np.stack(np.meshgrid(np.arange(side) + 0.5, np.arange(side) + 0.5), axis=-1)
    shares = []
    for _ in range(40):
        segs = rng.uniform(-12, side + 12, (int(rng.integers(1, 7)), 2, 2))
        segs[0, 1] = segs[0, 0]
        radii = (float(rng.uniform(0, 3)), float(rng.uniform(3, 6)))
        pad = verifier._window(max(radii))
        gap = verifier.distance_to_strokes(centres, segs)
        for radius, flat in zip(radii, verifier._within(segs, side, pad, radii), strict=True):
            found = np.zeros((side + 2 * pad) ** 2, dtype=bool)
            found[flat] = True
            assert np.array_equal(found.reshape(side + 2 * pad, -1)[pad:-pad, pad:-pad], gap <= radius)
            shares.append(float((gap <= radius).mean()))
    assert 0.01 < np.mean(shares) < 0.5  # the figures cross the tile: bands, not empty or full tiles


def test_transform_bounds_never_exceed_the_distances_they_bound():
    """Every bound ``transform_bounds`` gives (one per mirror of ``_FINE_AXES`` and turn of ``_TURNS``, exact or
    loose) and every exact bound (``_exact_bounds``) is at most the Hausdorff distance ``decisive_size`` measures
    for that transform (and the coarser one ``symmetry_audit`` measures), and a loose bound lies at most twice
    the most its transform's images can move (a degree's turn of the axis) below the exact one, so the search
    that stops when no bound is below the best measured distance finds the smallest of all of them."""
    import shapely
    from shapely.geometry import MultiLineString

    for polylines in _odd_figures(6):
        lines = MultiLineString([p.tolist() for p in polylines])
        v = np.unique(np.round(np.concatenate(polylines), 9), axis=0)
        centre = v.mean(axis=0)
        segs = ss.segments_of(polylines)
        bounds, exact = ss.transform_bounds(v, centre, segs)
        every = ss._exact_bounds(v, centre, segs, np.arange(len(bounds)))
        assert exact.sum() == len(ss._FINE_AXES) // ss.COARSE + len(ss._TURNS)
        assert np.array_equal(bounds[exact], every[exact])
        reach = float(np.linalg.norm(v - centre, axis=1).max())
        window = 2.0 * reach * math.radians(0.5 * (ss.COARSE // 2))
        assert (bounds <= every).all() and (every - bounds <= 2 * window * (1 + 1e-6)).all()
        transforms = [folding.reflection(centre, a) for a in ss._FINE_AXES]
        transforms += [folding.rotation(centre, t) for t in ss._TURNS]
        for densify in (0.05, 0.1):
            measured = np.array([shapely.hausdorff_distance(lines, folding.transform(lines, m), densify=densify)
                                 for m in transforms])
            assert (every <= measured).all(), float((every - measured).max())
            if densify == 0.05:
                assert ss.decisive_size(polylines) == float(measured.min()) - 2.0 * reach * math.radians(0.25)


def _audit_measuring_every_candidate(polylines, kind, orientation):
    """``symmetry_audit`` with the corner screen off: the strokes of every closest candidate measured."""
    original = ss._exact_bounds
    ss._exact_bounds = lambda v, centre, segs, which: np.full(len(which), -np.inf)
    try:
        return ss.symmetry_audit(polylines, kind, orientation)
    finally:
        ss._exact_bounds = original


def test_the_audits_corner_screen_changes_no_verdict():
    """``symmetry_audit`` skips measuring the strokes of a candidate whose corners alone keep DRAWN_MARGIN away: the
    same verdicts and misses as measuring every candidate, over odd figures, conformers and near misses."""
    rng = np.random.default_rng(23)
    verdicts = set()
    for k in range(160):
        kind = ss.SYMMETRIES[k % 4]
        segments = 4 + k % 5
        orientation = float(rng.uniform(0.0, 360.0))
        made = ss.make_figure(rng, kind, segments, orientation, ss.start_heading(rng, kind, orientation),
                              segments // 2 if k % 2 else None, None)
        if made is None:
            continue
        for role in (kind, None):
            screened = ss.symmetry_audit(made[0], role, orientation)
            assert screened == _audit_measuring_every_candidate(made[0], role, orientation)
            verdicts.add(screened is None)
    assert verdicts == {True, False}


def _least_misses_of_every_axis(rel, axes_left, turn_misses, count):
    """``least_misses`` measuring every axis and sorting every miss."""
    distance = np.concatenate([ss.axis_defects(rel, np.arange(len(ss._AXES)))[axes_left], turn_misses])
    return distance, np.argsort(distance, kind="stable")[:count]


def test_least_misses_are_those_of_every_axis_measured():
    """``least_misses`` (every AXIS_STEP-th axis measured, the others bounded from it and measured only where the
    bound is not above the fourth least miss) finds the same four least misses, indices and values to the bit,
    as measuring and sorting every axis: over odd figures, conformers and bent draws, with every axis left or
    those near an own axis left out, and the audit's verdicts and misses are the same."""
    rng = np.random.default_rng(31)
    figures = [(f, None, 0.0) for f in _odd_figures(40)]
    while len(figures) < 240:
        kind = ss.SYMMETRIES[len(figures) % 4]
        segments = 3 + len(figures) % 7
        orientation = float(rng.uniform(0.0, 360.0))
        made = ss.make_figure(rng, kind, segments, orientation, ss.start_heading(rng, kind, orientation),
                              int(rng.integers(1, segments)) if len(figures) % 2 else None, None)
        if made is not None:
            figures.append((made[0], kind, orientation))
    measured_fewer = 0
    for polylines, kind, orientation in figures:
        v = ss.corner_set(polylines)
        rel = v - v.mean(axis=0)
        turns = np.array(list(ss.turn_defects(rel).values()))
        skip = int(rng.integers(0, 180))
        apart = [a for a in range(180) if min(abs(a - skip), 180 - abs(a - skip)) >= 10]
        for axes_left in (np.arange(180), np.array(apart)):
            distance, closest = ss.least_misses(rel, axes_left, turns, 4)
            every, expected = _least_misses_of_every_axis(rel, axes_left, turns, 4)
            assert np.array_equal(closest, expected) and np.array_equal(distance[closest], every[expected])
            measured_fewer += bool(np.isinf(distance).any())
        for role in {kind, None}:
            original = ss.least_misses
            ss.least_misses = _least_misses_of_every_axis
            try:
                reference = ss.symmetry_audit(polylines, role, orientation)
            finally:
                ss.least_misses = original
            assert ss.symmetry_audit(polylines, role, orientation) == reference
    assert measured_fewer > 300


def _old_vertex_defects(polylines):
    """The mirror and turn defects as the audit computed them before issue 12's second pass: one product
    per mirror, one ``folding.apply`` per turn and a root per distance."""
    v = np.unique(np.round(np.concatenate(polylines), 9), axis=0)
    v = v - v.mean(axis=0)
    c2, s2 = ss._AXIS_COS2, ss._AXIS_SIN2
    mirrored = np.stack([c2[:, None] * v[None, :, 0] + s2[:, None] * v[None, :, 1],
                         s2[:, None] * v[None, :, 0] - c2[:, None] * v[None, :, 1]], axis=-1)
    sq = (v * v).sum(axis=1)
    d2 = sq[None, :, None] + sq[None, None, :] - 2.0 * (mirrored @ v.T)
    axes = np.sqrt(np.maximum(d2.min(axis=2).max(axis=1), 0.0))
    turned = np.stack([folding.apply(m, v) for m in ss._TURN_MAPS])
    dd = np.linalg.norm(turned[:, :, None, :] - v[None, None, :, :], axis=-1)
    misses = np.maximum(dd.min(axis=1).max(axis=1), dd.min(axis=2).max(axis=1))
    return axes, {angle: float(d) for angle, d in zip(ss._TURNS, misses, strict=True)}


def test_vertex_defects_are_those_of_one_product_per_transform():
    """``axis_defects`` of every axis and ``turn_defects`` (one matrix product for all mirrors, one for all turns,
    roots after the extremes) give exactly the numbers of one product and one root per transform, on figures of
    every kind, bent or not."""
    rng = np.random.default_rng(29)
    compared = 0
    for k in range(300):
        kind = ss.SYMMETRIES[k % 4]
        segments = 3 + k % 8
        orientation = float(rng.uniform(0.0, 360.0))
        made = ss.make_figure(rng, kind, segments, orientation, float(rng.uniform(0.0, 360.0)),
                              int(rng.integers(1, segments)) if k % 2 else None, None)
        if made is None:
            continue
        v = ss.corner_set(made[0])
        axes, turns = ss.axis_defects(v - v.mean(axis=0), np.arange(len(ss._AXES))), ss.turn_defects(v - v.mean(axis=0))
        old_axes, old_turns = _old_vertex_defects(made[0])
        assert np.array_equal(axes, old_axes) and turns == old_turns
        compared += 1
    assert compared > 100


def test_path_headings_are_the_running_sums_numpy_made():
    """``path_headings`` adds the turns up in plain floats: exactly the headings ``numpy.cumsum`` of the signed
    turns plus the start gave (a start of -0.0 included), from the same draws, leaving the stream where they did."""
    for seed in range(300):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        segments = 3 + seed % 9
        start = (-0.0, 0.0)[seed % 3] if seed % 3 < 2 else b.uniform(-400.0, 400.0)
        if seed % 3 == 2:
            a.uniform(-400.0, 400.0)
        turns = b.uniform(*ss.TURN, size=segments - 1) * b.choice([-1.0, 1.0], size=segments - 1)
        expected = np.zeros(segments)
        np.cumsum(turns, out=expected[1:])
        expected += start
        got = ss.path_headings(a, segments, start)
        assert np.array_equal(got, expected) and np.array_equal(np.signbit(got), np.signbit(expected))
        assert a.random() == b.random()


def _old_twin_bend(path, bent_headings, lengths, broken, which):
    """``twin_bend`` as it was before issue 12's second pass: every arm turned afresh (``folding.rotation`` made per
    arm) for every residual."""

    def assembled(copies):
        arms = [folding.apply(folding.rotation((0.0, 0.0), 360.0 * j / 4), copies.get(j, path)) for j in range(4)]
        return [np.vstack([arms[2][::-1], arms[0][1:]]), np.vstack([arms[3][::-1], arms[1][1:]])]

    first = ss.trace(bent_headings, lengths)

    def figure(x):
        headings = bent_headings.copy()
        headings[broken:] += x[0]
        stretched = lengths.copy()
        stretched[-1] *= 1.0 + x[1]
        return assembled({which: first, (which + 1) % 4: ss.trace(headings, stretched)})

    def residual(x):
        m = ss.second_moment(figure(x))
        return np.array([m.real, m.imag])

    x = np.zeros(2)
    for _ in range(5):
        r = residual(x)
        if np.hypot(*r) < ss.ISOTROPY:
            break
        jacobian = np.column_stack([(residual(x + h) - r) / h[k] for k, h in enumerate(np.diag([0.5, 0.01]))])
        try:
            x = x - np.linalg.solve(jacobian, r)
        except np.linalg.LinAlgError:
            return None
    else:
        return None
    if abs(x[0]) > ss.TWIN_ADJUST[0] or abs(x[1]) > ss.TWIN_ADJUST[1]:
        return None
    return ss.normalise(figure(x)), {"copies": [which, (which + 1) % 4], "extra_degrees": round(float(x[0]), 2),
                                     "last_stroke_scale": round(1.0 + float(x[1]), 4)}


def test_twin_bend_turning_the_fixed_arms_once_gives_the_same_figure():
    """``twin_bend`` turns the arms its adjustment does not move once: the same figures, to the bit, and the same
    adjustments (or the same refusals) as turning every arm for every residual."""
    rng = np.random.default_rng(43)
    outcomes = set()
    for k in range(150):
        segments = 3 + k % 7
        headings = ss.path_headings(rng, segments, float(rng.uniform(0.0, 360.0)))
        lengths = rng.uniform(*ss.LENGTH, size=segments)
        broken = int(rng.integers(1, segments))
        bent = ss.retake_turn(rng, headings, broken)[0]
        which = int(rng.integers(1, 4))
        path = ss.trace(headings, lengths)
        new, old = ss.twin_bend(path, bent, lengths, broken, which), _old_twin_bend(path, bent, lengths, broken, which)
        outcomes.add(new is None)
        assert (new is None) == (old is None)
        if new is not None:
            assert new[1] == old[1] and all(np.array_equal(a, b) for a, b in zip(new[0], old[0], strict=True))
    assert outcomes == {True, False}


def test_the_twin_screen_turns_down_only_searches_that_fail():
    """``twin_search_fails`` (the Newton search on the wire sums) says a search fails only where ``twin_bend``'s
    search on the polylines fails too, over bends at every stroke of 3-9 stroke paths; and it decides most of
    the failures."""
    rng = np.random.default_rng(47)
    screened = failed = 0
    original = ss.twin_search_fails
    for k in range(500):
        segments = 3 + k % 7
        headings = ss.path_headings(rng, segments, float(rng.uniform(0.0, 360.0)))
        lengths = rng.uniform(*ss.LENGTH, size=segments)
        broken = int(rng.integers(1, segments))
        bent = ss.retake_turn(rng, headings, broken)[0]
        which = int(rng.integers(1, 4))
        path = ss.trace(headings, lengths)
        ss.twin_search_fails = lambda *args: False
        try:
            searched = ss.twin_bend(path, bent, lengths, broken, which)
        finally:
            ss.twin_search_fails = original
        failed += searched is None
        if ss.twin_search_fails(path, bent, lengths, broken, which):
            screened += 1
            assert searched is None
    assert screened > 0.8 * failed > 100


def test_quick_elongation_sums_the_shared_strokes_once():
    """``quick_elongation`` with the strokes before the bend summed once for both paths gives the number it gives
    summing both paths whole, to the bit."""
    rng = np.random.default_rng(53)
    for k in range(400):
        kind = ss.SYMMETRIES[k % 4]
        segments = 3 + k % 7
        headings = ss.path_headings(rng, segments, float(rng.uniform(0.0, 360.0)))
        lengths = rng.uniform(*ss.LENGTH, size=segments)
        broken = int(rng.integers(1, segments))
        bent = ss.retake_turn(rng, headings, broken)[0]
        which = int(rng.integers(1, 4)) if kind == "rot4" else 1
        orientation = float(rng.uniform(0.0, 360.0))
        whole = ss.quick_elongation(kind, orientation, headings, bent, lengths, which)
        assert ss.quick_elongation(kind, orientation, headings, bent, lengths, which, broken) == whole


def test_flat_corner_is_the_array_test_it_replaces():
    """``flat_corner`` (plain floats) flags exactly the headings whose turns, worked out on arrays, leave a corner
    under 20 or over 150 degrees (both cases planted, as make_figure's own draws never have one)."""
    rng = np.random.default_rng(31)
    for k in range(400):
        headings = np.cumsum(rng.uniform(-200.0, 200.0, size=3 + k % 8)) + rng.uniform(-720.0, 720.0)
        turns = np.abs((np.diff(headings) + 180.0) % 360.0 - 180.0)
        assert ss.flat_corner(headings) == bool(turns.min() < 20.0 or turns.max() > 150.0)


def test_start_heading_draws_its_side_as_choice_did():
    """``start_heading`` picks the mirror figure's side by ``integers(0, 2)``: the value ``rng.choice([-1.0, 1.0])``
    gave, with the stream left where it left it."""
    a, b = np.random.default_rng(37), np.random.default_rng(37)
    for _ in range(200):
        assert ss.start_heading(a, "vertical", 90.0) == 90.0 + b.uniform(25.0, 155.0) * b.choice([-1.0, 1.0])
    assert a.random() == b.random()


def _nuisance_tiles():
    """Grey drawings of option figures, at their place and moved by fractions of a pixel, at both tile sides."""
    out = []
    for _, stimulus in STIMULI[:8]:
        for option in stimulus.options:
            for dx in (0.0, 0.0123):
                figure = attrs.evolve(option.content, shift=(option.content.shift[0] + dx, option.content.shift[1]))
                out += [ss.TASK.grey_drawing(figure, side) for side in (SIDE, Layout(SIZES["600x800"], 0, 4, 4).tile)]
    return out


def test_a_drawing_reduces_only_the_blocks_its_strokes_reach():
    """``_drawing`` draws on a canvas covering only the supersampled blocks around the strokes and leaves the rest
    white: the pixels of drawing the strokes (a wide line per polyline, a disc at each corner inside it) on the
    whole supersampled tile and reducing it, for figures at their place,
    moved by fractions of a pixel and pushed over the tile's edge, at both canvases' tile sides -- but for the
    rare pixel where the rasteriser rounds a coordinate moved by the canvas's corner the other way (a pixel or
    three of one figure in a hundred, by one supersampled pixel's share of the ink, 26 grey levels)."""
    from bench_plugin_mindseye.layout import INK, SUPERSAMPLE, grey_level

    share = math.ceil((255 - grey_level(INK)) / SUPERSAMPLE**2)
    differing = []
    for _, stimulus in STIMULI[:6]:
        for option in stimulus.options:
            for dx in (0.0, 0.0123, 0.3):
                figure = attrs.evolve(option.content, shift=(option.content.shift[0] + dx,
                                                             option.content.shift[1] - dx))
                for side in (SIDE, Layout(SIZES["600x800"], 0, 4, 4).tile):
                    record = ss.TASK.describe(figure, side)
                    tile = Tile(side, grey=True)
                    width = max(1, round(record["stroke"] * tile.scale))
                    radius = width / 2 - 1
                    for line in record["polylines"]:
                        points = [tile.px(x, y) for x, y in line]
                        tile.draw.line(points, fill=grey_level(INK), width=width)
                        for x, y in points[1:-1]:
                            tile.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=grey_level(INK))
                    whole = np.asarray(tile.image.reduce(tile.supersample), dtype=int)
                    gap = np.abs(np.asarray(ss.TASK._drawing(figure, side), dtype=int) - whole)
                    assert gap.max() <= share
                    differing.append(int(np.count_nonzero(gap)))
    assert max(differing) <= 4 and sum(d > 0 for d in differing) <= 0.05 * len(differing)


def test_grey_features_and_ink_mean_are_the_rgb_measures():
    """The generator measures a figure on its grey drawing: ``grey_features`` gives ``option_features``' ink and
    extent of the RGB panel exactly, and ``_ink_mean`` the mean of the RGB panel's darkest channel below AUDIT_INK
    exactly."""
    from PIL import Image, ImageChops

    for pixels in _nuisance_tiles():
        rgb = Image.fromarray(pixels).convert("RGB")
        features = option_features(rgb)
        assert ss.grey_features(pixels) == {"ink": features["ink"], "extent": features["extent"]}
        r, g, b = rgb.split()
        ink = np.asarray(ImageChops.darker(ImageChops.darker(r, g), b)) < ss.AUDIT_INK
        per_column, per_row = ink.sum(axis=0), ink.sum(axis=1)
        count = int(per_column.sum())
        assert ss._ink_mean(pixels) == (int(per_column @ np.arange(len(per_column))) / count,
                                        int(per_row @ np.arange(len(per_row))) / count)
    blank = np.full((SIDE, SIDE), 255, dtype=np.uint8)
    assert ss.grey_features(blank) == {"ink": 0.0, "extent": 0.0}


def test_an_option_is_drawn_once_and_handed_out_as_a_copy():
    """``draw_option`` draws a figure once per side: later calls give the same pixels without drawing again, a
    change to a copy handed out leaves the next one alone, and a figure made from it (``attrs.evolve``, as
    ``centred`` moves one) is drawn afresh."""
    figure = STIMULI[0][1].options[0].content
    fresh = ss.Figure(figure.polylines, figure.scale, figure.fill, figure.shift)
    first = ss.TASK.draw_option(fresh, SIDE)
    assert list(fresh.drawings) == [SIDE]
    assert not fresh.drawings[SIDE].flags.writeable
    first.paste(0, (0, 0, SIDE, SIDE))
    again = ss.TASK.draw_option(fresh, SIDE)
    assert again.tobytes() == ss.TASK._drawing(fresh, SIDE).convert("RGB").tobytes() != first.tobytes()
    moved = attrs.evolve(fresh, shift=(0.01, 0.0))
    assert not moved.drawings
    assert ss.TASK.draw_option(moved, SIDE).tobytes() == ss.TASK._drawing(moved, SIDE).convert("RGB").tobytes()


def test_render_is_the_base_class_composite_of_the_drawn_options():
    """``render`` hands the base class's compositing the grey drawings themselves: the same image as the base
    class makes of the RGB panels ``draw_option`` gives (a palette image of the same pixels and palette)."""
    from bench_plugin_mindseye.base import MindsEyeTask

    for seed, index in ((1, 0), (2, 3)):
        job = plan(TASK, {}, seed, index + 1)[index]
        built = build_item(_HOST, TASK, seed, index, job.params, job.suffix, verify=False)
        (ours,), (base,) = ss.TASK.render(built.problem), MindsEyeTask.render(ss.TASK, built.problem)
        assert ours.mode == base.mode == "P"
        assert ours.tobytes() == base.tobytes() and ours.getpalette() == base.getpalette()
