"""``traversal/path``: the TraversalBench main task (paper §2), with the paper preset and the reader of
published backbones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from PIL.Image import Image

from bench_core import GenerationError, Item, ItemRandom, ParameterError, Problem
from bench_plugin_traversal.artefact import verify_path
from bench_plugin_traversal.backbone import CellUnreachable, generate_backbone
from bench_plugin_traversal.cells import VERTEX_COUNTS, crossing_bin, tortuosity_bin
from bench_plugin_traversal.common import TraversalTask, make_problem
from bench_plugin_traversal.confounders import SpursUnplaceable, check_spurs, place_paired_spurs
from bench_plugin_traversal.geometry import PAPER, STRICT, GateProfile, quantise_points
from bench_plugin_traversal.levels import path_drop, scale_positions, targets_for
from bench_plugin_traversal.published import (
    PUBLISHED_DECIMALS,
    backbone_files,
    decode_text,
    geometry_id,
    listing_records,
    record_digest,
    record_lines,
    warn_skipped,
)
from bench_plugin_traversal.schedule import (
    CHOICES,
    bin_shares,
    cycle_length,
    least_shown,
    reachable_cells,
    scheduled_cell,
)
from bench_plugin_traversal.structure import Traversal, assign_tokens

PROFILES: dict[str, GateProfile] = {"strict": STRICT, "paper": PAPER}
CONDITIONS = {"none": "base", "low": "conf_low", "high": "conf_high"}
#: Paper preset (TraversalBench §2.3 and the released data): per populated cell and vertex count, 40 base
#: backbones, and 20 of them each with a low and a high confound variant.
PAPER_PER_CELL = 40
PAPER_CONFOUND_SOURCES = 20
#: Backbones tried per source before giving up on hosting both spur variants on one (8 left about one
#: source in a thousand without a backbone for 5-7 spurs in sparse cells such as t1s4 at 9 vertices;
#: sources that succeed within fewer tries are unaffected by the limit).  32 still lost ~7.5 % of items in cell
#: t1s4 at 9 vertices under profile=paper with spurs (a try succeeds there ~8 % of the time); 256 lose ~5e-10.
MAX_SOURCE_TRIES = 256


class TraversalPath(TraversalTask):
    """Generate, render and verify traversal/path items."""

    _DESIGN_KEYS = ("vertices", "tort_bin", "cross_bin", "source")

    def check_params(self, params: Mapping[str, Any]) -> None:
        if params.get("difficulty") is not None and (params["preset"] != "none" or params["backbones"]):
            what = "preset=paper sets its own cells" if params["preset"] != "none" else (
                "a published backbone file fixes its own cells")
            raise ParameterError(f"difficulty picks the cells (vertices x tortuosity x crossings), but {what}; "
                                 "drop --set difficulty or the other setting")
        if params["record"] is not None:
            raise ParameterError("parameter 'record' is filled in per item from backbones (the record's line as "
                                 "published); set --set backbones=FILE instead")
        fixed = [k for k in self._DESIGN_KEYS if params.get(k) is not None]
        if params["backbones"]:
            fixed.append("backbones")
        if params["confounders"] != "none":
            fixed.append("confounders")
        if params["preset"] == "paper":
            if fixed:
                raise ParameterError(
                    "preset=paper sets vertices, tort_bin, cross_bin, source and confounders itself; "
                    f"drop --set {', '.join(fixed)}"
                )
            return
        if params["backbones"]:
            self._check_published(params)
            return
        vertex_options = [params["vertices"]] if params["vertices"] is not None else list(VERTEX_COUNTS)
        if not any(self._cells(v, params) for v in vertex_options):
            t, s = params["tort_bin"], params["cross_bin"]
            cells = ", ".join(f"t{a}s{b}" for a, b in reachable_cells(vertex_options[0], params["profile"]))
            hint = " (it may be reachable with --set profile=paper)" if params["profile"] == "strict" else ""
            raise ParameterError(
                f"cell tort_bin={t}, cross_bin={s} is not populated at vertices={params['vertices']}{hint}; "
                f"allowed cells at {vertex_options[0]} vertices: {cells}"
            )

    @staticmethod
    def _check_published(params: Mapping[str, Any]) -> None:
        """A published backbone file renders its records as they are: refuse settings it would not apply, and
        files that are missing or malformed."""
        spec = params["backbones"]
        unused = [f"{k}={params[k]}" for k in ("vertices", "tort_bin", "cross_bin") if params[k] is not None]
        if params["confounders"] != "none":
            unused.append(f"confounders={params['confounders']}")
        if params["profile"] != "strict":
            unused.append(f"profile={params['profile']}")
        if unused:
            raise ParameterError(
                f"backbones={spec!r} renders each published record as it is: the record fixes its path, its cell "
                "and its spurs (a base record has none, a confound record carries its own conf_low or conf_high "
                f"spurs), so {', '.join(unused)} would not be applied; drop --set "
                f"{', '.join(u.split('=')[0] for u in unused)} (to render only some records, give a file of those)"
            )
        try:
            listing = backbone_files(spec)
            warn_skipped(listing)
            counts = {path: len(record_lines(path)) for path in listing.files}
        except ValueError as exc:
            raise ParameterError(f"parameter 'backbones': {exc}") from None
        except OSError as exc:
            raise ParameterError(f"parameter 'backbones': {spec!r} cannot be read ({exc.strerror or exc})") from None
        if params["source"] is None:
            return
        if len(counts) > 1:
            raise ParameterError(
                f"parameter 'source' picks a record of one file, but backbones={spec!r} names {len(counts)} files; "
                "set backbones to the one file"
            )
        (count,) = counts.values()
        if params["source"] >= count:
            raise ParameterError(
                f"parameter 'source': record {params['source']} is out of range; allowed: 0..{count - 1}"
            )

    @staticmethod
    def _cells(vertices: int, params: Mapping[str, Any]) -> list[tuple[int, int]]:
        return [
            (t, s) for t, s in reachable_cells(vertices, params["profile"])
            if params["tort_bin"] in (None, t) and params["cross_bin"] in (None, s)
        ]

    def expand(self, params: Mapping[str, Any], count: int | None) -> list[dict[str, Any]]:
        if params["preset"] == "paper":
            return self._paper_design(params)
        if params["backbones"]:
            # every item carries its record's line as published: it is rendered, verified and reproduced from
            # that alone, never from the file (which may move or change after the run)
            listing = backbone_files(params["backbones"])
            warn_skipped(listing)
            records = listing_records(listing)
            if params["source"] is not None:
                records = [r for r in records if r.number == params["source"]]
            return [{**params, "backbones": r.file, "source": r.number, "record": r.text} for r in records]
        return super().expand(params, count)

    @staticmethod
    def _paper_design(params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every reachable populated cell x vertex count: 40 base items (sources 0-39) and, for sources
        0-19, a low and a high confound item on the same backbone.  Interleaved so any prefix is balanced."""
        design = []
        for source in range(PAPER_PER_CELL):
            for vertices in VERTEX_COUNTS:
                for t, s in reachable_cells(vertices, params["profile"]):
                    cell = {**params, "preset": "none", "vertices": vertices, "tort_bin": t, "cross_bin": s,
                            "source": source}
                    levels = ("none", "low", "high") if source < PAPER_CONFOUND_SOURCES else ("none",)
                    design.extend({**cell, "confounders": level} for level in levels)
        return design

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        if params["backbones"] or params["record"] is not None:
            return self._published(params, random)
        profile_name = params["profile"]
        profile = PROFILES[profile_name]
        source = params["source"] if params["source"] is not None else random.index
        paired = params["source"] is not None or params["confounders"] != "none"
        # the cell, backbone, direction and glyphs come from streams keyed by the source, not the index,
        # so the base and confound variants of one source share them
        difficulty = params.get("difficulty")
        if difficulty is None and all(params[k] is None for k in ("vertices", "tort_bin", "cross_bin")):
            # default runs follow the cell schedule: any few consecutive items spread over the bins
            vertices, t, s = scheduled_cell(random.stream("cell-schedule", profile_name), source, profile_name)
        elif difficulty is None:
            cell_rng = random.stream("cell", source)
            vertex_options = [params["vertices"]] if params["vertices"] is not None else list(VERTEX_COUNTS)
            vertex_options = [v for v in vertex_options if self._cells(v, params)]
            vertices = int(vertex_options[int(cell_rng.integers(len(vertex_options)))])
            cells = self._cells(vertices, params)
            t, s = cells[int(cell_rng.integers(len(cells)))]
        else:
            targets = self.level_cells(difficulty, params)
            pick = random.stream("difficulty-cell", source, difficulty).integers(len(targets))
            vertices, t, s = targets[int(pick)]
        problem = "no attempt made"
        for attempt in range(MAX_SOURCE_TRIES):
            rng = random.stream("backbone", vertices, t, s, profile_name, source, attempt)
            try:
                backbone = generate_backbone(rng, vertices, t, s, profile)
            except CellUnreachable as exc:
                problem = str(exc)
                continue
            points = backbone.points[::-1].copy() if rng.random() < 0.5 else backbone.points
            tokens = assign_tokens(rng, vertices, params["start"])
            base = Traversal(points, tokens)
            if not paired:
                break
            try:
                spur_rng = random.stream("spurs", vertices, t, s, profile_name, source, attempt)
                crossing_points = [c.point for c in base.crossings]
                spur_sets = place_paired_spurs(spur_rng, points, crossing_points)
                # the placement's own acceptance, re-run on the quantised spurs both variants will draw
                broken = {code for spurs in spur_sets.values() for code in check_spurs(points, crossing_points, spurs)}
                if broken:
                    raise SpursUnplaceable(f"quantised spurs break {', '.join(sorted(broken))}")
                break
            except SpursUnplaceable as exc:
                problem = f"no backbone hosted both spur variants ({exc})"
                continue
        else:
            raise GenerationError(
                f"traversal/path: cell t{t}s{s} at {vertices} vertices failed {MAX_SOURCE_TRIES} tries; last: {problem}"
            )
        level = params["confounders"]
        spurs = spur_sets[level] if level != "none" else ()
        traversal = Traversal(points, tokens, spurs, base.crossings)
        metadata = {
            "tort_bin": t, "cross_bin": s, "source": source, "generator_family": backbone.family,
            "profile": profile_name, "condition": CONDITIONS[level],
        }
        if difficulty is not None:
            scale = scale_positions(self._all_cells(profile_name), path_drop)
            metadata["difficulty_knobs"] = {"vertices": vertices, "tort_bin": t, "cross_bin": s,
                                            "cell_level": round(scale[(vertices, t, s)], 3),
                                            "expected_tokacc_drop": round(path_drop(vertices, t, s), 2)}
        pair = f"{random.seed}:{vertices}:t{t}s{s}:{profile_name}:{params['format']}:{source}"
        return make_problem(traversal, params, random, variant=CONDITIONS[level], pair=pair if paired else None,
                            metadata=metadata, profile=profile)

    def categorical_coverage(self, name: str, params: Mapping[str, Any], start: int, count: int
                             ) -> tuple[int, str] | None:
        """The fewest distinct values of the drawn parameter ``name`` that items ``start .. start + count - 1``
        can show, with the reason, where the design cannot promise min(count, number of choices); None where
        it can.  (Read by the repository's categorical-coverage test.)"""
        if name not in ("vertices", "tort_bin", "cross_bin"):
            return None
        if (params["preset"] != "none" or params["backbones"] or params.get("difficulty") is not None
                or any(params[k] is not None for k in self._DESIGN_KEYS)):
            return 1, ("only default runs follow the cell schedule; set cells, sources, presets, difficulty and "
                       "published backbones make no promise")
        profile = params["profile"]
        least = least_shown(name, count, profile)
        if least >= min(count, CHOICES[name]):
            return None
        shares = bin_shares(name, profile)
        rare, common = min(shares, key=shares.__getitem__), max(shares, key=shares.__getitem__)
        uneven = (f"{name} {rare} has {shares[rare]} of them and {name} {common} {shares[common]}"
                  + (", so vertex counts cannot repeat every 5 items" if name == "vertices" else ""))
        return least, (f"default runs keep the published mix, every reachable cell once per cycle of "
                       f"{cycle_length(profile)} items: {uneven}; measured on cell_schedule.json ({profile}), "
                       f"any {count} consecutive items show at least {least} of the {CHOICES[name]}")

    @staticmethod
    def _all_cells(profile: str) -> list[tuple[int, int, int]]:
        """Every (vertices, tort_bin, cross_bin) the generator reaches under ``profile``."""
        return [(v, t, s) for v in VERTEX_COUNTS for t, s in reachable_cells(v, profile)]

    def level_cells(self, level: float, params: Mapping[str, Any]) -> list[tuple[int, int, int]]:
        """The cells a difficulty ``level`` draws among (``levels.targets_for``), within those that the set
        vertices, tort_bin and cross_bin allow."""
        vertex_options = [params["vertices"]] if params["vertices"] is not None else list(VERTEX_COUNTS)
        candidates = [(v, t, s) for v in vertex_options for t, s in self._cells(v, params)]
        positions = scale_positions(self._all_cells(params["profile"]), path_drop)
        return targets_for(level, positions, candidates)

    def difficulty_position(self, params: Mapping[str, Any], random: ItemRandom) -> int:
        """Items of one source share their level, and so their cell and backbone."""
        return params["source"] if params.get("source") is not None else random.index

    def hardness(self, item: Item) -> float:
        """The path's self-crossings (``metadata.crossings``), the paper's dominant source of difficulty."""
        return float(item.metadata["crossings"])

    def _published(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        """One published record as an item, from the record's line stored in ``params["record"]`` (never from
        the file).  Glyphs come from a stream keyed by the path's geometry, so the base and confound records of
        one backbone get the same glyphs (a paired comparison) and different paths different ones, whatever
        file or line they sit on; the pair key is that geometry."""
        text = params["record"]
        if text is None:
            raise GenerationError(
                "traversal/path: a published item needs its record's line in params['record']; plan the run "
                "(bench_core.plan, or bench generate --set backbones=FILE), which fills it in from the file"
            )
        try:
            record = decode_text(text, params["source"] or 0)
        except (ValueError, KeyError, TypeError, SyntaxError, IndexError) as exc:
            raise GenerationError(f"traversal/path: the stored record is not a TraversalBench backbone: {exc}") from exc
        points = quantise_points(record.points, PUBLISHED_DECIMALS)
        geometry = geometry_id(points)
        tokens = assign_tokens(random.stream("published-glyphs", geometry), len(points), params["start"])
        # the published coordinates, at the 6 decimals the item record keeps, are what is drawn
        spurs = tuple(attrs.evolve(sp, p0=tuple(q[0]), p1=tuple(q[1]))
                      for sp in record.spurs for q in [quantise_points([sp.p0, sp.p1], PUBLISHED_DECIMALS)])
        traversal = Traversal(points, tokens, spurs)
        ours = traversal.metadata()
        metadata = {
            "tort_bin": tortuosity_bin(ours["tortuosity"]),
            "cross_bin": crossing_bin(ours["crossings"]),
            "condition": record.condition,
            "generator_family": record.family,
            "profile": "published",
            "published": {
                "file": params["backbones"], "record": params["source"], "id": record.record_id,
                "source_id": record.source_id, "tortuosity": record.tortuosity,
                "self_intersections": record.self_intersections, "tort_bin": record.tort_bin,
                "self_int_bin": record.self_int_bin, "geometry": geometry, "sha256": record_digest(text),
            },
        }
        pair = f"published:{random.seed}:{geometry}:{params['format']}"
        return make_problem(traversal, params, random, variant=record.condition, pair=pair, metadata=metadata,
                            profile=None)

    def verify(self, item: Item, images: Sequence[Image]) -> list[str]:
        """See ``artefact.verify_path``: the item proved from its record and pixels alone."""
        return verify_path(item, images)


TASK = TraversalPath()
