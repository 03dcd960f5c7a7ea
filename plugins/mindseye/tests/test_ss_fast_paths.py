"""Symmetric Structures 0.2.3's fast paths (issue 12) held to the code they replaced or stand in for: the odd
figure drawn in batches (retaken turns, elongation on arrays, the same checks as ``make_figure``), the size order's
early check on the conformers (``may_fit``, a necessary condition of ``_sizes``), sizes at scale 1 worked out on
the strokes (``base_features``), the decisive size's lower bound, corners drawn as discs, and the verifier's
batched turn test and boxed pixel reads."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image, ImageDraw

from bench_plugin_mindseye import symmetric_structures as ss
from bench_plugin_mindseye.layout import INK, SUPERSAMPLE, Tile, grey_level
from bench_plugin_mindseye.verifiers import symmetric_structures as verifier

SIDE = ss.TASK.layout("1024x1024").tile


def _conformers(count: int, seed: int = 3):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        kind = ss.SYMMETRIES[len(out) % 4]
        segments = (4, 6, 8)[len(out) % 3]
        made = ss.draw_figure(rng, kind, segments, ss.orientations(rng, kind, 1)[0], None, None, odd=False)
        if made is not None:
            out.append((kind, made[0]))
    return out


def test_retaken_turns_are_uniform_over_what_retake_turn_allows():
    """``retaken_turns`` (one uniform number laid along what is left of TURN's two intervals) stays where
    ``retake_turn``'s rejection loop lands (magnitude in TURN, at least 40 degrees from the old turn) and follows
    its distribution: quantiles within sampling error, old turns taken from every part of their range."""
    rng = np.random.default_rng(11)
    old = rng.uniform(*ss.TURN, size=6000) * np.where(rng.integers(0, 2, size=6000), 1.0, -1.0)
    new = ss.retaken_turns(rng, old)
    assert (np.abs(new - old) >= 40.0).all() and (np.abs(new) >= ss.TURN[0]).all() and (np.abs(new) <= ss.TURN[1]).all()
    looped = np.array([ss.retake_turn(rng, np.array([0.0, o]), 1)[0][1] for o in old])
    for low, high in ((-75, -65), (-65, -35), (-35, -25), (25, 35), (35, 65), (65, 75)):
        here = (old >= low) & (old < high)
        for q in (10, 25, 50, 75, 90):
            # a quantile of ~1000 draws moves by a few degrees at most
            assert abs(np.percentile(new[here], q) - np.percentile(looped[here], q)) < 6.0, (low, high, q)
    # an old turn at the very edge of its range still leaves only allowed turns
    edges = np.array([25.0, -25.0, 75.0, -75.0, 35.0, 65.0])
    got = ss.retaken_turns(np.random.default_rng(0), np.repeat(edges, 200))
    assert (np.abs(got - np.repeat(edges, 200)) >= 40.0).all()


def test_batch_elongation_is_the_second_moment_of_the_assembled_figure():
    """``batch_elongation`` (wire sums on arrays) agrees with ``second_moment`` of the assembled normalised figure
    far below QUICK_SLACK, for mirror and two-fold odd candidates of every length."""
    rng = np.random.default_rng(5)
    worst = 0.0
    for k in range(240):
        kind = ("vertical", "horizontal", "rot2")[k % 3]
        segments = 3 + k % 8
        orientation = float(rng.uniform(0.0, 360.0))
        headings, bent, lengths, _ = ss.odd_candidates(rng, kind, segments, orientation, 1 + k % (segments - 1), 4)
        quick = ss.batch_elongation(kind, orientation, headings, bent, lengths)
        for i in range(4):
            polylines = ss.normalise(ss.assemble(kind, orientation, ss.trace(headings[i], lengths[i]),
                                                 {1: ss.trace(bent[i], lengths[i])}))
            worst = max(worst, abs(quick[i] - abs(ss.second_moment(polylines))))
            # the scalar screen make_figure uses says the same
            assert abs(quick[i] - ss.quick_elongation(kind, orientation, headings[i], bent[i], lengths[i], 1)) < 1e-12
    assert worst < ss.QUICK_SLACK / 1000, worst


def test_odd_candidates_are_make_figures_draws():
    """Every row of ``odd_candidates`` is a path ``make_figure`` could draw for the odd figure: turns of 25-75
    degrees, the start heading a mirror figure's (25-155 degrees off the axis) or a turned figure's (its
    orientation), strokes in LENGTH, and the copy's headings the path's with the turn at the bend retaken."""
    rng = np.random.default_rng(9)
    for kind, orientation in (("vertical", 80.0), ("horizontal", 10.0), ("rot2", 200.0)):
        for broken in (1, 3, 5):
            headings, bent, lengths, delta = ss.odd_candidates(rng, kind, 6, orientation, broken, 300)
            turns = np.diff(headings, axis=1)
            assert (np.abs(turns) >= ss.TURN[0] - 1e-9).all() and (np.abs(turns) <= ss.TURN[1] + 1e-9).all()
            off = np.abs((headings[:, 0] - orientation + 180.0) % 360.0 - 180.0)
            if kind == "rot2":
                assert np.allclose(off, 0.0)
            else:
                assert (off >= 25.0 - 1e-9).all() and (off <= 155.0 + 1e-9).all()
            assert (lengths >= ss.LENGTH[0]).all() and (lengths <= ss.LENGTH[1]).all()
            assert np.array_equal(bent[:, :broken], headings[:, :broken])
            assert np.allclose(bent[:, broken:] - headings[:, broken:], delta[:, None])
            new = bent[:, broken] - bent[:, broken - 1]
            assert (np.abs(new - turns[:, broken - 1]) >= 40.0 - 1e-9).all()
            assert not (ss.flat_corners(headings) | ss.flat_corners(bent)).any()


def test_flat_corners_is_flat_corner_row_by_row():
    rng = np.random.default_rng(31)
    headings = np.cumsum(rng.uniform(-200.0, 200.0, size=(400, 7)), axis=1)
    assert list(ss.flat_corners(headings)) == [ss.flat_corner(row) for row in headings]


@pytest.mark.parametrize("kind", ss.SYMMETRIES)
def test_odd_figures_pass_every_test_draw_figure_makes(kind):
    """The odd figures ``odd_figures`` gives pass ``make_figure``'s tests and the audit ``draw_figure(odd=True)``
    makes: elongation in the window (capped), clear strokes, no crossings, no symmetry at all by the audit's
    margin, the recorded break where asked; and a screen turns figures down before their audit."""
    rng = np.random.default_rng(17)
    got = []
    while not got:  # a target a conformer has, as ``build`` draws it
        target = ss.TASK.elongation_target(rng, kind, 6, 3)
        window = (target - ss.ELONGATION_MATCH, target + ss.ELONGATION_MATCH)
        got = list(ss.odd_figures(rng, kind, 6, 40.0, 3, window))
    assert len(got) <= ss.ODD_DRAWS
    for polylines, latent in got:
        assert window[0] <= abs(ss.second_moment(polylines)) <= min(window[1], ss.ELONGATION_CAP)
        assert ss.clear(polylines) and ss.crossings(polylines) == 0
        assert ss.symmetry_audit(polylines, None, 40.0) == pytest.approx(latent["nearest_missing_symmetry"], abs=1e-4)
        assert latent["break"]["stroke"] == 4
    seen = []

    def screen(polylines):
        seen.append(polylines)
        return False

    assert list(ss.odd_figures(np.random.default_rng(17), kind, 6, 40.0, 3, window, screen)) == []
    assert len(seen) >= len(got)


def test_may_fit_is_a_necessary_condition_of_the_size_order():
    """Where ``may_fit`` turns conformers down, ``size_trials`` finds no scales within SIZE_RANGE for any odd
    figure in the unknown place (odd sizes from far below to far above the conformers'), whatever the gaps; and it
    lets through most of what fits.  Checked on real conformers' sizes at scale 1 (``base_features``)."""
    rng = np.random.default_rng(21)
    figures = _conformers(60)
    bases = {id(p): ss.TASK.base_features(p, SIDE) for _, p in figures}
    refused = passed = 0
    for trial in range(400):
        kind = ss.SYMMETRIES[trial % 4]
        same = [p for k, p in figures if k == kind]
        picked = [same[int(i)] for i in rng.choice(len(same), 3, replace=False)]
        rank = trial % 4
        others = [int(k) + 1 for k in rng.permutation(3)]
        order = [*others[:rank], 0, *others[rank:]]
        base = [None, *(bases[id(p)] for p in picked)]
        for known in (2, 3):  # the check made after the second conformer and after the third
            partial = [b if k <= known else None for k, b in enumerate(base)]
            if ss.may_fit(partial, order):
                continue
            refused += 1
            gaps = rng.uniform(*ss.SIZE_GAP, size=(ss.SIZE_DRAWS, 3))
            for odd in np.stack(np.meshgrid(np.linspace(-1.5, 1.5, 13), np.linspace(-3.0, 3.0, 13)), -1).reshape(-1, 2):
                filled = [b if b is not None else odd + bases[id(picked[0])] for b in partial]
                trials = ss.size_trials(np.array(filled)[order], gaps)
                assert (np.ptp(trials, axis=1) > math.log(ss.SIZE_RANGE)).all()
        passed += ss.may_fit(base, order)
    assert refused > 40 and passed > 100


def test_sizes_at_scale_one_follow_the_drawing():
    """``base_features`` (stroke length and the strokes' box, not drawn) differ from the logarithms of the drawn
    ink and extent at scale 1 by an offset common to the figures of one kind and stroke count, within 3% (ink)
    and 1% (extent) of it: what ``_sizes`` needs to space the figures by more than half a SIZE_STEP."""
    spread = {}
    for kind, polylines in _conformers(72, seed=7):
        figure = ss.Figure(tuple(polylines), 1.0, ss.FILL)
        drawn = ss.grey_features(ss.TASK.grey_drawing(figure, SIDE))
        clipped = ss.item_fill([polylines], [1.0]) < ss.FILL
        if clipped:  # drawn at FILL it would run off the tile; compare at a fill that fits
            continue
        base = ss.TASK.base_features(polylines, SIDE)
        key = (kind, len(ss.segments_of(polylines)))
        spread.setdefault(key, []).append(base - np.log([drawn["ink"], drawn["extent"]]))
    checked = 0
    for offsets in spread.values():
        if len(offsets) < 3:
            continue
        offsets = np.array(offsets)
        assert np.abs(offsets - np.median(offsets, axis=0)).max(axis=0)[0] < 0.03
        assert np.abs(offsets - np.median(offsets, axis=0)).max(axis=0)[1] < 0.01
        checked += len(offsets)
    assert checked >= 30


def test_decisive_floor_never_exceeds_the_decisive_size():
    """``decisive_floor`` settles the odd figure's size test only when the exact size would pass it too: it is never
    above ``decisive_size``, and close enough to settle most tests."""
    rng = np.random.default_rng(41)
    ratios = []
    while len(ratios) < 40:
        kind = ss.SYMMETRIES[len(ratios) % 4]
        made = ss.draw_figure(rng, kind, 4 + len(ratios) % 5, float(rng.uniform(0.0, 360.0)), 2, None, odd=True)
        if made is None:
            continue
        floor, size = ss.decisive_floor(made[0]), ss.decisive_size(made[0])
        assert floor <= size
        ratios.append(floor / size)
    assert np.median(ratios) > 0.6


def test_corner_discs_draw_what_curved_joints_draw():
    """``draw_strokes`` (a wide line per polyline and a disc at each inner corner) gives the pixels of Pillow's
    ``joint="curve"`` but for a few per figure at corners' rims, by at most a third of the ink's depth."""
    differing = []
    for _, polylines in _conformers(24, seed=13):
        record = ss.TASK.describe(ss.Figure(tuple(polylines), 0.8, ss.FILL), SIDE)
        ours, pillow = Tile(SIDE, grey=True), Tile(SIDE, grey=True)
        width = max(1, round(record["stroke"] * ours.scale))
        lines = [[ours.px(x, y) for x, y in line] for line in record["polylines"]]
        ss.draw_strokes(ours.draw, lines, width)
        for line in lines:
            pillow.draw.line(line, fill=grey_level(INK), width=width, joint="curve")
        gap = np.abs(np.asarray(ours.image.reduce(SUPERSAMPLE), dtype=int)
                     - np.asarray(pillow.image.reduce(SUPERSAMPLE), dtype=int))
        assert gap.max() <= (255 - grey_level(INK)) / 2.9
        differing.append(int(np.count_nonzero(gap)))
    assert np.mean(differing) < 20


def test_turns_held_are_those_of_one_test_per_turn():
    """``properties`` tries every turn's stroke ends at once: the same verdicts as ``Figure.has_turn`` turn by
    turn, on conformers of every kind, odd figures and hand-made figures."""
    rng = np.random.default_rng(3)
    descriptions = [ss.TASK.describe(ss.Figure(tuple(p), 1.0, ss.FILL), SIDE) for _, p in _conformers(24)]
    while len(descriptions) < 36:
        made = ss.draw_figure(rng, "rot2", 5, float(rng.uniform(0.0, 360.0)), 2, None, odd=True)
        if made is not None:
            descriptions.append(ss.TASK.describe(ss.Figure(tuple(made[0]), 1.0, ss.FILL), SIDE))
    for description in descriptions:
        figure = verifier.Figure(description, SIDE)
        held = verifier.properties(figure)
        assert all(held[f"turn {n}"] == figure.has_turn(n) for n in verifier.ORDERS)


def test_pixel_failures_read_from_the_image_or_its_array_alike():
    from bench_core import build_item, decode_png, default_host, plan

    host = default_host()
    task = host.task("mindseye/symmetric-structures")
    for job in plan(task, {}, 5, 2):
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix, verify=False)
        image = decode_png(built.pngs[0])
        scene = built.item.metadata["scene"]
        assert verifier.pixel_failures(scene, image) == verifier.pixel_failures(scene, np.asarray(image)) == []
        # a stray stroke in option A is found both ways
        spoiled = image.copy()
        box = scene["option_boxes"][0]
        ImageDraw.Draw(spoiled).line((box[0] + 10, box[1] + 10, box[0] + 60, box[1] + 12), fill=(0, 0, 0), width=3)
        found = verifier.pixel_failures(scene, spoiled)
        assert found and found == verifier.pixel_failures(scene, np.asarray(spoiled))
        assert isinstance(spoiled, Image.Image)
