"""VCS — Visual Conceptual Slippage (paper App. C and Table 11; spec §2.4): odd-one-out over six panels.

Five panels follow one concept — equal spacing, alignment, the same number of objects, enclosure, mirror
symmetry, closed outlines (topology), border thickness, filled or hollow shapes (hollowness), or words
written the right way round (word symmetry) — while their shapes, colours, sizes and counts vary
("slippage"); the sixth breaks the concept.  Every panel's nuisance (shape kinds, colour, size, count,
orientation) is drawn independently from one distribution, and the violating panel is one of those draws
with only the concept changed, so nothing but the concept singles it out (the release's violator used
default shapes and never sat at A or F: spec §2.4, §7.2).

Difficulty (spec §7.1 item 4, concept and violation strength) sets how much the nuisance slips and how
strong the violation is: easy keeps one shape kind for all panels and a strong violation, medium varies the
shape kind per panel, hard also mixes kinds, colours, counts and sizes inside panels and makes the violation
weak (one object out of place, one letter that reads mirrored, a count that differs by one).

The generator accepts a draw only if its own measurements (``attributes.scene_attributes`` on the polygons,
``attributes.word_attributes`` on the letter strokes) isolate the violator by the concept and by nothing
else, nuisance included: no shape kinds, colours or count, and no panel-level property
(``slippage_panels.MIXED``: mixed colours, mixed kinds) that only one panel holds or only one lacks (issue 10:
a conformer that alone mixed colours was a second odd one out; a violator that alone mixed kinds, a shortcut).
The two colours of a panel that mixes them are of hues well apart, so that they read as two colours.

The item's scene record stores every panel as drawn (``describe``: marks as rings of integer coordinates on a
grid of 1/``GRID`` of the panel, words as quantised strokes); ``_render`` draws exactly those values, so the
picture is reproducible bit for bit whatever float noise the geometry carried.  Verification
(``verifiers.conceptual_slippage``) re-measures the concepts from the record by code of its own and checks the
pixels against its own rasterisation of the record.

The violation itself shows in the nuisance features (more objects, thick or filled marks carry more ink;
objects pushed out of a container or off a mirror position widen the ink's box), so each panel's content is
scaled (``ConceptualSlippage._sized`` with ``balancing.balanced_sizes``) until ink, ink extent and
saturation rank the six panels in one order with the violator at a place balanced over consecutive items;
equally colourful hues make saturation follow ink.  Spacing and word panels keep their size: their violator
has exactly its own conformer draw's ink and box (the uneven row's centres spread as far as the even row's).

It also shows in how the ink is laid out, which a solver that sees only the options can measure (``bench
audit``): one object off a single row made the panel much rounder than any row, objects moved out of a
container spread it.  So the alignment concept shows two parallel rows (one object off its row changes their
layout less than rows differ anyway), the enclosure concept keeps loose objects round the container in every
panel (the violator differs by where one or two objects lie), and the violator is the violating panel, of a
few nuisance draws, whose elongation, edge density, spread and box over its ink (``ink_shape``) come closest
to a conformer draw's (``ConceptualSlippage._matched``).  Filled, hollow, thin and thick marks differ in edge
density by what they are; thick-walled hollow marks, border widths near the middle of their classes and marks
of varied lightness (edge contrast) keep that difference small against the panels' own variation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import shapely
from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from bench_core import Item
from bench_plugin_mindseye.attributes import (
    AMBIGUOUS,
    SCENE_ATTRIBUTES,
    isolations,
    marks_bounds,
)
from bench_plugin_mindseye.balancing import SizePlannedTask, balanced_sizes
from bench_plugin_mindseye.base import Turns
from bench_plugin_mindseye.layout import BACKGROUND, SUPERSAMPLE, Tile
from bench_plugin_mindseye.memo import memoised
from bench_plugin_mindseye.nuisance import FRAME, lookalike_pair, option_features, plane_features, singled_out
from bench_plugin_mindseye.options import Option, SizePlan, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.slippage_concepts import BUILDERS, CONCEPT_ATTRIBUTE, Unbuildable, Versions
from bench_plugin_mindseye.slippage_panels import (
    CONCEPTS,
    COUNTS,
    GRID,
    MIXED,
    STROKE_GRID,
    Look,
    Mark,
    Panel,
    allowed_kinds,
    draw_look,
    ink_shape,
    measure_ink,
)
from bench_plugin_mindseye.verifiers import conceptual_slippage as verifier

#: Drawn sizes (``ConceptualSlippage._sized``): each panel's content is scaled about its own box so that ink
#: and ink extent rank the panels in one size order with the violator at a uniformly drawn place, the content
#: within the panel's margin and its marks legible (``slippage_panels.MARGIN``, ``MIN_OBJECT``).
SIZE_STEP = 0.015
SIZE_DRAWS = 40
#: Concepts whose violator has exactly the ink and ink box of its own conformer draw (uneven gaps over the
#: same span; the word mirrored in place): every panel is then one draw of the same distribution in all
#: nuisance features already, and the panels keep their drawn size.
SAME_FEATURES = ("spacing", "word")
#: Concepts of scattered marks whose ink and ink box vary independently (how many marks, how thick or
#: filled, against how far apart): the densest panels first have their marks moved apart (``Panel.spread``),
#: so that box over ink is more alike across panels and one size order can rank both.
SPREAD = ("topology", "border", "hollowness", "number")
#: How many panels an attempt draws again because the panels could take no size order with the violator at its
#: place before it gives up, and the next attempt draws the item's majority and shape kind afresh: some of them
#: cannot take some places at all (a thin-bordered violator among thick ones as the largest panel while the
#: smallest lies furthest from the median), and redrawing panel after panel would not change that.
UNSIZED_REDRAWS = 8


# -- marks ------------------------------------------------------------------------------------------


# -- the ink's shape: what a rule-blind look at a panel sees besides its amount of ink ---------------------------


# -- two parallel rows (the alignment concept) ------------------------------------------------------------


# -- nuisance: what varies across panels ---------------------------------------------------------------


# -- the concepts: each builds a conforming panel and, from the same draw, its violating twin ---------


#: The features of ``ink_shape`` (elongation, edge density, spread, box) in which the violator is matched to its
#: conformer draw (the builder's versions, ``ConceptualSlippage._pair``) and to a conformer draw of its slot
#: (``ConceptualSlippage._matched``): edge density where the violation leaves it alone (the amount of outline
#: per ink is what filled, hollow, thick, thin and more objects mean), spread and box where ``_sized`` does not
#: even them out already (``SPREAD``).  Spacing and words match by construction (``build_spacing``: the
#: uneven row spreads as far as the even one).  MATCH_SCALE: the differences that count as small.
MATCHED = {"alignment": (0, 1, 2, 3), "number": (0, 2, 3), "enclosure": (0, 1, 2, 3), "symmetry": (0, 1, 2, 3),
           "topology": (0, 1), "border": (0,), "hollowness": (0,)}
MATCH_SCALE = np.array([0.03, 0.04, 0.04, 0.08])
MATCH_DRAWS = 16
#: Which way round the concept can go: the majority's value (drawn per item).
MAJORITIES = {"topology": ("closed", "open"), "border": ("thick", "thin"), "hollowness": ("solid", "hollow")}
#: Difficulty -> (nuisance slippage, violation strength).
LEVELS = {"easy": ("low", "strong"), "medium": ("medium", "strong"), "hard": ("high", "weak")}


@attrs.define
class _Draw:
    """One panel's nuisance draw: its conforming and violating versions and the conformer's attributes (a draw
    for a conformer's slot carries no violating version: ``ConceptualSlippage._draw`` with ``twin`` False)."""

    look: Look
    plain: Panel
    violator: Panel | None
    attributes: dict[str, Any]
    _violating: dict[str, Any] | None = None

    def violating_attributes(self) -> dict[str, Any]:
        """The violating twin's attributes, measured once."""
        assert self.violator is not None, "a conformer's draw has no violating twin"
        if self._violating is None:
            self._violating = self.violator.attributes()
        return self._violating


# -- the task -----------------------------------------------------------------------------------------
class ConceptualSlippage(SizePlannedTask):
    """Odd one out: which panel breaks the concept that the other five share across varying surfaces?"""

    concept_order = CONCEPTS
    # the nine concepts repeat every nine items, a multiple of the three tiers: the tiers turn once a cycle
    turns: ClassVar[Turns] = {"difficulty": (9, "so that every concept meets every tier; concepts repeat every 9 "
                                               "items")}

    code = "VCS"
    art = "relation"
    option_count = 6
    option_columns = 3
    query_count = 0
    texts = PromptTexts(
        question=("Look at the six panels labelled A to F. Five of them follow one visual concept, even though their "
                  "shapes, colours and numbers of objects differ. Work out the concept, then say which single panel "
                  "does not follow it. The concept applies to each panel as a whole."),
        hint=("consider how the objects are spaced, whether they line up, how many there are, whether one object "
              "encloses another, whether the panel is mirror symmetric, whether outlines are closed or broken, how "
              "thick the borders are, whether shapes are filled or hollow, and whether writing is mirrored. Shape "
              "kinds and colours change freely and are not the concept."),
        puzzle_type="conceptual slippage (odd one out)",
        elimination=("for each panel, describe its structure (spacing, alignment, number, enclosure, symmetry, open or "
                     "closed outlines, border thickness, filled or hollow, mirrored writing); find the property that "
                     "five panels share; the panel that lacks it is the answer."),
    )

    # -- generation ------------------------------------------------------------------------------
    def knob_hardness(self, knobs: Mapping[str, Any]) -> float:
        """Slippage between the panels (low 0, medium 1, high 2), plus one for a weak violation."""
        return ("low", "medium", "high").index(knobs["slippage"]) + (knobs["violation"] == "weak")

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any],
              plan: SizePlan | None = None) -> Stimulus:
        """Six panels: five conformers and one violator from the same nuisance distribution."""
        concept = params.get("concept") or str(rng.choice(CONCEPTS))
        side = self.layout(params["size"]).tile
        # the violator's place in the size order, uniform and kept through every redraw (``_sized``)
        rank, small_odd = (plan.rank, bool(plan.small_odd)) if plan else (int(rng.integers(self.option_count)),
                                                                          bool(rng.random() < 0.5))
        for _ in range(30):
            built = self._attempt(rng, concept, difficulty, side, rank, small_odd)
            if built is not None:
                return built
        raise RuntimeError(f"VCS: could not build a sound {concept} item")

    def _pair(self, rng: np.random.Generator, concept: str, look: Look, strength: str, majority: str,
              twin: bool = True) -> tuple[Panel, Panel | None] | None:
        """A conforming panel and its violating twin from one nuisance draw (of the builder's versions, the one
        laid out most like the conformer: ``_closest``); None if the draw cannot carry the concept.  Without
        ``twin`` (the conformer alone is wanted) the twin is None and only the first version that can be made is
        made, the proof that the draw can carry the concept (``Versions.first``)."""
        made = self._made(rng, concept, look, strength, majority)
        if made is None:
            return None
        plain, versions = made
        if not twin:
            return plain, None
        if isinstance(versions, Panel):
            return plain, versions
        return plain, self._closest(concept, plain, versions.every())

    def _made(self, rng: np.random.Generator, concept: str, look: Look, strength: str, majority: str
              ) -> tuple[Panel, Versions | Panel] | None:
        """One nuisance draw built (``BUILDERS``): the conforming panel and the violating versions (of which the
        first that can be made is made already, unless the builder is ``Versions.sure`` that all can), or, for
        words, the conforming and the violating panel; None if the draw cannot carry the concept."""
        try:
            made = BUILDERS[concept](rng, look, strength, majority)
            if concept == "word":
                return made
            if not made[1].sure:
                made[1].first()
        except Unbuildable:
            return None
        return Panel(marks=tuple(made[0]), rows=concept == "alignment"), made[1]

    @staticmethod
    def _closest(concept: str, plain: Panel, versions: Sequence[Sequence[Mark]]) -> Panel:
        """Of the violating versions, the one whose ink is laid out most like the conformer's (``ink_shape``: the
        features of ``MATCHED``; the first of equals)."""
        rows = concept == "alignment"
        panels = [Panel(marks=tuple(marks), rows=rows) for marks in versions]
        columns = list(MATCHED.get(concept, ()))
        if len(panels) == 1 or not columns:
            return panels[0]
        measure_ink([m.polygon for marks in (plain.marks, *versions) for m in marks])
        target = plain.shape()[columns]
        misfit = [misfit_of(v.shape()[columns], target, MATCH_SCALE[columns]) for v in panels]
        return panels[int(np.argmin(misfit))]

    def _draw(self, rng: np.random.Generator, concept: str, slippage: str, strength: str, majority: str,
              item_kind: str, fixed: int | None, prefer: int = 0, twin: bool = False) -> _Draw | None:
        """One panel's nuisance draw with its conforming version (measured) and, with ``twin`` (the violator's
        slot), its violating version.  With ``prefer`` 1 (-1) the bulkiest (slightest) of three buildable draws,
        judged on the conforming version (``_bulk``)."""
        for _ in range(30):
            pairs = []
            for _ in range(40):
                look = draw_look(rng, concept, slippage, item_kind, fixed)
                pair = self._pair(rng, concept, look, strength, majority, twin)
                if pair is not None:
                    pairs.append((look, pair))
                    if len(pairs) == (3 if prefer else 1):
                        break
            if not pairs:
                return None
            look, pair = max(pairs, key=lambda lp: prefer * _bulk(lp[1][0]))
            measured = pair[0].attributes()
            if AMBIGUOUS not in measured.values():
                return _Draw(look, pair[0], pair[1], measured)
        return None

    def _attempt(self, rng: np.random.Generator, concept: str, difficulty: str, side: int, rank: int,
                 small_odd: bool) -> Stimulus | None:
        """Six draws; one of them violates.  Draws that make trouble (a rival odd one out, a nuisance
        shortcut, an undecidable measurement, a nuisance-feature outlier) are drawn again."""
        slippage, strength = LEVELS[difficulty]
        majority = str(rng.choice(MAJORITIES[concept])) if concept in MAJORITIES else ""
        item_kind = str(rng.choice([k for k in allowed_kinds(concept) if k != "ellipse"]))
        lo, hi = COUNTS[concept]
        # the number concept needs one count for all conformers; elsewhere counts always vary (they also keep
        # the amount of ink varied enough that a violator with thinner or hollow marks is not an ink outlier)
        fixed = int(rng.integers(lo, hi + 1)) if concept == "number" else None

        def fresh(prefer: int = 0, twin: bool = False) -> _Draw | None:
            return self._draw(rng, concept, slippage, strength, majority, item_kind, fixed, prefer, twin)

        v = int(rng.integers(6))

        def redraw(k: int, prefer: int = 0) -> _Draw | None:
            """A new draw for panel k; the violator's slot gets a conformer draw as its reference and the
            violating panel that matches its ink shape best (``_matched``)."""
            if k != v:
                return fresh(prefer)
            reference = fresh(twin=True)
            if reference is None:
                return None
            return self._matched(rng, concept, reference, prefer,
                                 lambda: draw_look(rng, concept, slippage, item_kind, fixed), strength, majority)

        draws = [redraw(k) for k in range(6)]
        unsized = 0  # redraws because no size order could be found
        names = ("mirrored",) if concept == "word" else SCENE_ATTRIBUTES
        key = CONCEPT_ATTRIBUTE[concept]
        for _ in range(30):
            if any(d is None for d in draws):
                return None
            violating = draws[v].violating_attributes()
            culprit: int | None = None
            if AMBIGUOUS in violating.values():
                culprit = v
            else:
                table = [d.attributes for d in draws]
                table[v] = violating
                shown = [d.plain for d in draws]
                shown[v] = draws[v].violator
                culprit = self._culprit(table, names, key, v, concept, [d.look for d in draws], shown)
            if culprit is None:
                panels = [d.plain for d in draws]
                panels[v] = draws[v].violator
                if concept not in SAME_FEATURES:
                    sized = self._sized(rng, concept, panels, v, table, side, rank, small_odd)
                    if sized is None:  # these panels cannot take such an order: draw one of them again,
                        # the best of a few draws when it should come out larger or smaller
                        unsized += 1
                        if unsized > UNSIZED_REDRAWS:
                            return None  # the item's draws (majority, shape kind) cannot take this order
                        k, want = self._in_the_way(rng, panels, v, side, rank)
                        draws[k] = redraw(k, want)
                        continue
                    panels = sized
                tiles = [self._render(p, side) for p in panels]
                features = [self._features(p, side) for p in panels]
                same = (lookalike_pair(tiles, 1.5 * self.min_option_difference)
                        or _alike_in_channels(tiles, 1.5 * self.min_option_difference))
                if same is not None:
                    culprit = same[1] if same[1] != v else same[0]  # two panels too alike in grey: redraw one
                else:
                    # a panel that a nuisance feature singles out is drawn again: the violator (verify refuses
                    # it), and where no sizing ranks the panels any panel, so that the violator is not the one
                    # panel that is never an outlier
                    outliers = [k for k in ((v,) if concept not in SAME_FEATURES else range(6))
                                if any(singled_out([f[n] for f in features], k, self.nuisance_factor * 0.8,
                                                   floor * 0.8) for n, floor in self.nuisance_floor.items())]
                    if not outliers:
                        return self._stimulus(concept, slippage, strength, majority, panels,
                                              [d.look for d in draws], v, table)
                    culprit = outliers[int(rng.integers(len(outliers)))]
            draws[culprit] = redraw(culprit)
        return None

    def _matched(self, rng: np.random.Generator, concept: str, reference: _Draw, prefer: int,
                 look: Callable[[], Look], strength: str, majority: str) -> _Draw | None:
        """The violator's slot: of the reference draw's own violating twin and MATCH_DRAWS - 1 violating panels of
        fresh nuisance draws, the one whose ink shape (``ink_shape``: the features of ``MATCHED``) comes
        closest to the reference's conforming panel, so that the violator is laid out like any conformer
        (the violation itself makes its ink rounder or longer, denser in edges or more spread out: one object
        off a row rounds the panel, objects moved out of a container spread it).  With ``prefer`` the bulkiest
        (slightest) of the candidates that match well (``_bulk``).

        A fresh draw's violating panel is its version laid out most like its own conformer (``_closest``), made
        only if it could be chosen: ``_misfit_floors`` bounds from below how far it can lie from the target."""
        columns = MATCHED.get(concept)
        if not columns:
            return reference
        columns = list(columns)
        target = reference.plain.shape()[columns]
        scale = MATCH_SCALE[columns]
        drawn: list[tuple[Look, Panel, Versions]] = []
        for _ in range(4 * MATCH_DRAWS):
            if len(drawn) + 1 >= MATCH_DRAWS:
                break
            fresh = look()
            made = self._made(rng, concept, fresh, strength, majority)
            if made is not None:
                drawn.append((fresh, *made))
        candidates: list[tuple[Look, Panel | None]] = [(reference.look, reference.violator)]
        distance = [misfit_of(reference.violator.shape()[columns], target, scale)]
        candidates += [(fresh, None) for fresh, _, _ in drawn]
        distance += [math.inf] * len(drawn)
        floors = _misfit_floors([(plain, versions.first()) for _, plain, versions in drawn], columns, target, scale)
        for k in np.argsort(floors, kind="stable").tolist():
            least = min(distance)
            if floors[k] > (max(least, 1.0) if prefer else least) * (1 + 1e-9) + 1e-9:
                break  # neither the closest nor (with ``prefer``) within 1: this one, and every later one
            fresh, plain, versions = drawn[k]
            violator = self._closest(concept, plain, versions.every())
            candidates[k + 1] = (fresh, violator)
            distance[k + 1] = misfit_of(violator.shape()[columns], target, scale)
        close = [k for k, d in enumerate(distance) if d <= 1.0]
        if close and prefer:
            chosen = max(close, key=lambda k: prefer * _bulk(candidates[k][1]))
        else:
            chosen = int(np.argmin(distance))
        fresh, violator = candidates[chosen]
        return _Draw(fresh, reference.plain, violator, reference.attributes)

    def _culprit(self, table: Sequence[Mapping[str, Any]], names: Sequence[str], key: str, v: int, concept: str,
                 looks: Sequence[Look], panels: Sequence[Panel]) -> int | None:
        """The panel to draw again, or None if the six panels make a sound item with ``v`` the odd one."""
        found = isolations(table, names)
        if found.get(key) != v:
            values = [table[k][key] for k in range(6) if k != v]
            common = max(values, key=values.count)
            wrong = [k for k in range(6) if k != v and table[k][key] != common]
            return wrong[0] if wrong else v
        rivals = [k for k in found.values() if k != v]
        if rivals:
            return rivals[0]
        if concept != "number":
            counts = isolations(table, ["number"])  # a count that singles out a panel is a shortcut or a rival
            if counts:
                return counts["number"]
        return self._nuisance_leak(looks, concept, panels)

    def _sized(self, rng: np.random.Generator, concept: str, panels: Sequence[Panel], v: int,
               table: Sequence[Mapping[str, Any]], side: int, rank: int, small_odd: bool) -> list[Panel] | None:
        """The panels drawn at sizes that leave ink and ink extent no information about the violator
        (``balancing.balanced_sizes``: one size order, the violator ``rank``-th smallest, that both
        features follow, each panel within its ``Panel.room``), or None.  Without it the violation shows in the
        nuisance: more objects, thick or filled marks carry more ink, objects pushed off a line or out of a
        container or a mirror position widen the ink's box.  Saturation follows the ink (the palette's hues
        are equally colourful).  The attributes do not depend on the scale (border
        widths are relative to the shape, positions only grow further from or closer to exact); panels drawn
        smaller than made, and panels moved apart, are measured again as drawn to be sure, once a size order is
        found (most size searches that fail do so before: measuring first was wasted on them)."""
        moved = [False] * 6
        if concept in SPREAD:  # first move the marks of the densest panels apart, towards the median box/ink
            ratios = []
            for panel in panels:
                x0, y0, x1, y1 = marks_bounds([m.polygon for m in panel.marks])
                ratios.append((x1 - x0) * (y1 - y0) / sum(m.polygon.area for m in panel.marks))
            target = float(np.median(ratios))
            spread = [_spread(p, target) for p in panels]
            moved = [a is not b for a, b in zip(spread, panels, strict=True)]
            sized = self._sizes(rng, spread, v, side, rank, small_odd)
            if sized is None:
                return None
            # the panels as drawn are measured only once a size order is found (most draws of a size order fail
            # before): a moved panel whose attributes its move changed goes back to where it was, and the
            # sizes are found again
            back = [k for k in range(6) if moved[k] and sized[k][0].attributes() != table[k]]
            if not back:
                return self._checked(sized, moved, table)
            panels = [panels[k] if k in back else spread[k] for k in range(6)]
            moved = [moved[k] and k not in back for k in range(6)]
        sized = self._sizes(rng, panels, v, side, rank, small_odd)
        return None if sized is None else self._checked(sized, moved, table)

    def _sizes(self, rng: np.random.Generator, panels: Sequence[Panel], v: int, side: int, rank: int,
               small_odd: bool) -> list[tuple[Panel, float]] | None:
        """Each panel as drawn and its scale (``_sized``: ``balanced_sizes`` within each panel's room), or None."""
        order = [v, *(k for k in range(6) if k != v)]
        chosen = [panels[k] for k in order]
        rooms = np.array([p.room() for p in chosen])
        drawn: list[Panel] = []

        def measure(scales: np.ndarray) -> list[dict[str, float]]:
            drawn[:] = [p.scaled(float(s)) for p, s in zip(chosen, scales, strict=True)]
            return [{**self._features(p, side), "reach": 1.0} for p in drawn]

        scales = balanced_sizes(rng, measure, 6, {"ink": 2.0, "extent": 2.0, "saturation": 2.0}, rank, small_odd,
                                0.75 * self.nuisance_factor, {k: f / 2 for k, f in self.nuisance_floor.items()},
                                SIZE_STEP, 1.0, SIZE_DRAWS, bounds=rooms)
        if scales is None:
            return None
        out: list[tuple[Panel, float]] = [(panels[k], 1.0) for k in range(6)]
        for k, panel, scale in zip(order, drawn, scales, strict=True):
            out[k] = (panel, float(scale))
        return out

    @staticmethod
    def _checked(sized: Sequence[tuple[Panel, float]], moved: Sequence[bool],
                 table: Sequence[Mapping[str, Any]]) -> list[Panel] | None:
        """The panels as drawn, if each one moved apart or drawn smaller than made measures as its draw did."""
        for k, (panel, scale) in enumerate(sized):
            if (moved[k] or scale < 1 - 1e-9) and panel.attributes() != table[k]:
                return None
        return [panel for panel, _ in sized]

    def _in_the_way(self, rng: np.random.Generator, panels: Sequence[Panel], v: int, side: int, rank: int
                    ) -> tuple[int, int]:
        """The panel to draw again when the panels cannot take a size order with the violator ``rank``-th
        smallest, and whether its new draw should be larger (1), smaller (-1) or either (0): one of the
        conformers larger than the violator as drawn (ink times ink box) if fewer than ``rank`` are smaller
        (to come out smaller), one of the smaller ones if more are (to come out larger), any conformer
        otherwise; or, now and then, the violator itself (to move towards its place)."""
        sizes = []
        for panel in panels:
            features = self._features(panel, side)
            sizes.append(features["ink"] * features["extent"])
        smaller = [k for k in range(6) if k != v and sizes[k] < sizes[v]]
        larger = [k for k in range(6) if k != v and sizes[k] >= sizes[v]]
        if rng.random() < 0.3:  # the violator itself may be the panel no order can place
            return v, (1 if len(smaller) < rank else -1 if len(smaller) > rank else 0)
        if len(smaller) < rank:
            return int(larger[int(rng.integers(len(larger)))]), -1
        if len(smaller) > rank:
            return int(smaller[int(rng.integers(len(smaller)))]), 1
        pool = smaller + larger
        return int(pool[int(rng.integers(len(pool)))]), 0

    @staticmethod
    def _nuisance_leak(looks: Sequence[Look], concept: str, panels: Sequence[Panel]) -> int | None:
        """The panel that a nuisance value alone (shape kinds, colours, count, mixedness) singles out, if any.
        Each panel-level property of ``MIXED`` (mixed colours, mixed kinds: measured on the panels as drawn, a
        container with its contents) must hold for none of the panels or at least two, and fail for none or at
        least two: a conformer that alone mixes colours is a second odd one out (issue 10), a violator that
        alone mixes kinds a shortcut."""
        columns = [
            [frozenset(look.kinds) for look in looks],
            [frozenset(look.colours) for look in looks],
            [len(look.kinds) > 1 or len(look.colours) > 1 for look in looks],
            *([panel.mixed()[name] for panel in panels] for name in MIXED),
        ]
        if concept != "number":
            columns.append([look.count for look in looks])
        rows = [{str(k): col[i] for k, col in enumerate(columns)} for i in range(6)]
        found = isolations(rows, [str(k) for k in range(len(columns))])
        return next(iter(found.values()), None)

    def _stimulus(self, concept: str, slippage: str, strength: str, majority: str,
                  panels: Sequence[Panel], looks: Sequence[Look], v: int,
                  table: Sequence[Mapping[str, Any]]) -> Stimulus:
        """The options (violator, lookalike conformer as confound, other conformers) and the item facts."""
        key = CONCEPT_ATTRIBUTE[concept]
        conform_value = table[(v + 1) % 6][key]
        def latent(k: int) -> dict[str, Any]:
            out = {"look": _look_json(looks[k]), "value": _plain(table[k][key])}
            if concept == "word":
                out["word"] = panels[k].text  # as generated; the violator's is shown mirrored
            return out

        options = [Option("correct", f"violator-{concept}-{strength}", latent(v), panels[v])]
        # The wrong options are conformers.  The designated confound is the conformer whose nuisance is
        # closest to the violator's (same kinds, colours, count): picking it means matching surfaces.
        others = [k for k in range(6) if k != v]

        def closeness(k: int) -> tuple[int, int]:
            a, b = looks[k], looks[v]
            return (int(a.kinds == b.kinds) + int(a.colours == b.colours) + int(a.count == b.count), -k)

        confound = max(others, key=closeness)
        for n, k in enumerate(others):
            role = "confound" if k == confound else "filler"
            template = "lookalike-conformer" if k == confound else f"conformer-{n + 1}"
            options.append(Option(role, template, latent(k), panels[k]))
        facts = {
            "concept": concept,
            "knobs": {"slippage": slippage, "violation": strength, "majority": majority or None},
            "reason": f"the other panels share {concept} ({_plain(conform_value)}); this one does not",
        }
        if concept == "word":
            facts["word"] = panels[v].text  # the word shown mirrored (paper: metadata records the sampled word)
        return Stimulus((), (), options, facts)

    # -- drawing and the scene record ---------------------------------------------------------------
    def _render(self, panel: Panel, side: int) -> Image.Image:
        """The panel of ``side`` pixels, drawn once and memoised on the panel, from its geometry quantised to
        ``GRID`` (``quantised``): the drawing is a function of the values the scene record stores, so float
        noise in the geometry (numpy's SIMD paths for sin and cos) cannot move a pixel.  A panel of marks is the
        window it is drawn in (``_window``) on a background tile."""
        if side not in panel.tiles:
            if panel.word:
                panel.tiles[side] = self._drawn_word(panel, side)
            else:
                left, top, window = self._window(panel, side)
                tile = Image.new("RGB", (side, side), BACKGROUND)
                tile.paste(window, (left, top))
                panel.tiles[side] = tile
        return panel.tiles[side]

    @staticmethod
    def _drawn_word(panel: Panel, side: int) -> Image.Image:
        """A word panel (``_render``): strokes drawn with round joins and ends, 3x supersampled."""
        tile = Tile(side, supersample=SUPERSAMPLE)
        unit = tile.scale / GRID
        width = max(tile.supersample, round(STROKE_GRID * unit))
        radius = width / 2.0
        for stroke in panel.word:
            pts = [(x * unit, y * unit) for x, y in quantised(stroke).tolist()]
            tile.draw.line(pts, fill=panel.word_colour, width=width, joint="curve")
            for x, y in (pts[0], pts[-1]):
                tile.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=panel.word_colour)
        return tile.finish()

    @staticmethod
    def _window(panel: Panel, side: int) -> tuple[int, int, Image.Image]:
        """A panel of marks drawn (``_render``): each mark's exterior filled in its colour, its holes in the
        background, 3x supersampled (polygon fills are not antialiased: 3x keeps straight edges straight) and
        reduced; only the window round the marks, as its top left pixel and its picture (memoised).  Every pixel
        outside the window is background: the supersampled canvas keeps its origin and reaches past the marks by
        a margin (a fill is clipped to the canvas, nothing else about it depends on the canvas), and the window
        starts on a multiple of 3 (each of its pixels reduces the 3x3 block it would reduce in the whole
        canvas)."""
        key = ("window", side)
        if key in panel.memo:
            return panel.memo[key]
        scale = side * SUPERSAMPLE
        unit = scale / GRID
        fills = []
        for mark in panel.marks:
            exterior, *holes = quantised_rings(mark.polygon)
            fills.append(([(x * unit, y * unit) for x, y in exterior.tolist()], mark.colour))
            fills += [([(x * unit, y * unit) for x, y in hole.tolist()], BACKGROUND) for hole in holes]
        if not fills:
            panel.memo[key] = (0, 0, Image.new("RGB", (side, side), BACKGROUND))
            return panel.memo[key]
        xs = [x for points, _ in fills for x, _ in points]
        ys = [y for points, _ in fills for _, y in points]
        left, top = (max(0, (math.floor(min(v)) - _WINDOW_MARGIN) // SUPERSAMPLE * SUPERSAMPLE) for v in (xs, ys))
        right, bottom = (min(scale, -(-(math.ceil(max(v)) + _WINDOW_MARGIN) // SUPERSAMPLE) * SUPERSAMPLE)
                         for v in (xs, ys))
        canvas = Image.new("RGB", (right, bottom), BACKGROUND)
        draw = ImageDraw.Draw(canvas)
        for points, colour in fills:
            draw.polygon(points, fill=colour)
        window = canvas.reduce(SUPERSAMPLE, box=(left, top, right, bottom))
        panel.memo[key] = (left // SUPERSAMPLE, top // SUPERSAMPLE, window)
        return panel.memo[key]

    def _features(self, panel: Panel, side: int) -> dict[str, float]:
        """``option_features`` of the panel drawn at ``side`` pixels (``_render``), measured once per panel: its
        tile is drawn once and never changes, and the size search, the panel to draw again and the outlier test
        all measure the same panels (a redraw replaces one panel of six).  A panel of marks is measured on the
        window it is drawn in (``_window``: background all round it, which holds no ink and no colour)."""
        key = ("features", side)
        if key not in panel.memo:
            panel.memo[key] = (option_features(self._render(panel, side)) if panel.word
                               else window_features(*self._window(panel, side), side))
        return dict(panel.memo[key])

    def draw_query(self, content: Any, side: int) -> Image.Image:
        """VCS has no query panel."""
        raise NotImplementedError("VCS has no query panel")

    def draw_option(self, content: Panel, side: int) -> Image.Image:
        """One panel."""
        return self._render(content, side)

    def describe(self, content: Panel, side: int) -> dict[str, Any]:
        """The panel as drawn, in units of 1/``GRID`` of the panel side (x right, y down): every mark's colour,
        shape kind and rings (exterior first, then holes; flat ``[x0, y0, x1, y1, ...]``, not closed), or the
        word's text as generated, colour, stroke width and strokes (polylines drawn with round joins and
        ends).  Exactly the values ``_render`` draws."""
        if content.word:
            return {"word": {
                "text": content.text,
                "colour": list(content.word_colour),
                "stroke": STROKE_GRID,
                "strokes": [quantised(stroke).ravel().tolist() for stroke in content.word],
            }}
        return {"marks": [
            {"kind": mark.kind, "colour": list(mark.colour),
             "rings": [ring.ravel().tolist() for ring in quantised_rings(mark.polygon)]}
            for mark in content.marks
        ]}

    def scene(self, stimulus: Stimulus, shown: Sequence[Option], size: str) -> dict[str, Any]:
        """The base record plus the item's concept and the coordinate grid of the descriptions."""
        return {**super().scene(stimulus, shown, size), "concept": stimulus.facts["concept"], "grid": GRID}

    # -- verifying (``verifiers.conceptual_slippage``: no code shared with the construction above) ---------
    def solve_scene(self, scene: Mapping[str, Any]) -> list[int]:
        """The panels that some concept of the vocabulary singles out, measured from the record alone."""
        return verifier.solve_scene(scene)

    def sketch(self, description: Mapping[str, Any], side: int) -> np.ndarray:
        """The verifier's own rasterisation of one panel description."""
        return verifier.sketch(description, side, GRID)

    def verify(self, item: Item, images: Sequence[Image.Image]) -> list[str]:
        """The base checks, then the verifier's: no count shortcut, and every panel's pixels show its record.
        A record that cannot be read (missing fields, broken rings) is a failure, not a crash."""
        try:
            return [*super().verify(item, images), *verifier.scene_failures(item.metadata["scene"], images[0])]
        except (KeyError, IndexError, TypeError, ValueError, shapely.errors.GEOSException) as exc:
            return [f"the scene record cannot be verified: {type(exc).__name__}: {exc}"]


#: How far (supersampled pixels) the window ``_window`` draws in reaches past the marks' extreme coordinates.
_WINDOW_MARGIN = 4


def _alike_in_channels(tiles: Sequence[Image.Image], threshold: float) -> tuple[int, int] | None:
    """The first pair of panels whose channel means (the grey level verify compares: the mean of red, green and
    blue, not the luminance ``lookalike_pair`` compares) differ by less than ``threshold`` levels on average, or
    None.  Two panels of hues whose luminances lie apart can have channel means as alike as verify refuses."""
    sums = []
    for tile in tiles:
        pixels = np.asarray(tile.convert("RGB"))
        total = pixels[..., 0].astype(np.int16)
        total += pixels[..., 1]
        total += pixels[..., 2]
        sums.append(total)
    for i in range(len(sums)):
        for j in range(i + 1, len(sums)):
            if sums[i].shape == sums[j].shape and float(np.abs(sums[i] - sums[j]).sum()) < 3 * threshold * sums[i].size:
                return i, j
    return None


def window_features(left: int, top: int, window: Image.Image, side: int) -> dict[str, float]:
    """``option_features`` of a ``side``-pixel panel that is background (white) everywhere but in ``window``, whose
    top left corner lies at (``left``, ``top``): ``plane_features`` of the window's part inside the frame, over
    the pixels of the whole panel inside its frame."""
    width, height = window.size
    box = (max(FRAME - left, 0), max(FRAME - top, 0), min(side - FRAME - left, width), min(side - FRAME - top, height))
    planes = [np.asarray(band)[box[1]:max(box[1], box[3]), box[0]:max(box[0], box[2])] for band in window.split()]
    return plane_features(planes, (side - 2 * FRAME) ** 2)


def quantised(points: Any) -> np.ndarray:
    """Coordinates (unit panel, any float array of shape (n, 2)) as integers on the ``GRID``."""
    return np.rint(np.asarray(points, dtype=float) * GRID).astype(np.int64)


def quantised_rings(polygon: Polygon) -> list[np.ndarray]:
    """The rings of a mark (exterior first, then holes) quantised to the ``GRID``, without closing points (made
    once per polygon: drawing and describing a mark read the same rings)."""
    if polygon.geom_type != "Polygon":
        raise ValueError(f"a mark must be one polygon, not a {polygon.geom_type}")
    return memoised(polygon, "quantised rings", _quantised_rings)


def _quantised_rings(polygon: Polygon) -> list[np.ndarray]:
    rings = [quantised(ring.coords)[:-1] for ring in (polygon.exterior, *polygon.interiors)]
    for ring in rings:
        ring.setflags(write=False)
    return rings


def misfit_of(features: np.ndarray, target: np.ndarray, scale: np.ndarray) -> float:
    """How far ``features`` lie from ``target``: the root mean square of the differences in units of ``scale``
    (1 or less is a match)."""
    return float(np.sqrt(np.mean(((features - target) / scale) ** 2)))


def _misfit_floors(drawn: Sequence[tuple[Panel, Sequence[Mark]]], columns: list[int], target: np.ndarray,
                   scale: np.ndarray) -> list[float]:
    """For each draw (its conforming panel and the marks of its first violating version), a floor on how far its
    violating panel (``_closest``) lies from ``target`` (``misfit_of``): the misfit is a distance, and the
    version chosen lies no further from its conformer than the first one does."""
    measure_ink([m.polygon for plain, first in drawn for m in (*plain.marks, *first)])
    floors = []
    for plain, first in drawn:
        own = plain.shape()[columns]
        floors.append(misfit_of(own, target, scale)
                      - misfit_of(ink_shape([m.polygon for m in first])[columns], own, scale))
    return floors


def _spread(panel: Panel, target: float) -> Panel:
    """``panel.spread(target)``, made once per panel and target (``Panel.memo``)."""
    key = ("spread", target)
    if key not in panel.memo:
        panel.memo[key] = panel.spread(target)
    return panel.memo[key]


def _bulk(panel: Panel) -> float:
    """A cheap stand-in for a panel's ink times its ink box: the marks' area times their box's area."""
    if panel.word:
        return 1.0
    x0, y0, x1, y1 = marks_bounds([m.polygon for m in panel.marks])
    return sum(m.polygon.area for m in panel.marks) * (x1 - x0) * (y1 - y0)


def _plain(value: Any) -> Any:
    """A JSON-friendly form of an attribute value."""
    return value if isinstance(value, (bool, int, str)) or value is None else str(value)


def _look_json(look: Look) -> dict[str, Any]:
    """The nuisance draw of a panel as JSON-friendly metadata."""
    return {"kinds": list(look.kinds), "colours": [list(c) for c in look.colours], "count": look.count,
            "radius": round(look.radius, 4)}


TASK = ConceptualSlippage()
