"""Verification of a traversal item from the artefact alone: its JSON record and its decoded PNG.

Nothing here comes from the generator (no backbone, geometry, confounder, structure, render or glyph code):
the scene record ``item.metadata["scene"]`` is read as plain JSON, the facts the answer rests on are
confirmed on the pixels with this module's own tests, and the answer and the recorded metrics are derived
again with this module's own code.

Pixel convention: a view coordinate (x, y) falls in pixel column floor(x), row floor(y).

What is checked (each failure is one message):

* markers: every recorded marker has a median centre colour within ``COLOUR_TOLERANCE`` of its recorded
  RGB, that colour is named as recorded by a hue-based namer, and the outline of its fill, measured along
  72 rays from the centre, has the harmonic signature of its recorded shape (circle: none; tri: 3-fold;
  square and plus: 4-fold with the far points on the diagonals or on the axes; star: 5-fold);
* line: along every recorded segment, away from the markers, the line colour is present at every 1-px
  sample (so the drawn line joins consecutive vertices), and no line-coloured pixel lies outside a band
  around the recorded segments and markers (so it joins nothing else); no ink at all lies outside the
  bands of the segments, spurs and markers, and no saturated colour outside the markers;
* spurs: each is drawn in the spur colour along its length (where it shows: outside the line, the markers
  and the image edge), anchored on exactly one segment of the line, inside the image, and keeps clear of
  every marker (a spur may never join or touch a marker);
* legibility (strict profile and reading-order): no marker sits on a segment it does not end;
* answer: the markers are matched to the vertices by position, the walk starts at the START marker (an
  end of the line) and lists the markers met; it must equal the answer (open format) or exactly one option,
  the one the answer letter names (choice format);
* metrics: tortuosity, crossings (count, segment pairs, passages, smallest angle), their bins, spur
  passages, direction and, for published backbones, the stored metrics; for reading-order, no crossing and
  the lane layout of the recorded regime;
* published backbones: the record line the item stores (``params.record``) has the recorded SHA-256, its
  path and spurs are the ones drawn, its stored metrics the ones recorded, and its geometry identity the
  recorded one (the file it came from is never read).

Published spurs are taken as the record draws them where the publisher's own placement broke its rules
(6 of 88 confound records in a sample of the release; see ``published_spur_segments``): a spur anchored
where two segments of the line cross is hosted by the segment its record names (``seg_idx``), which must
be one of them; a spur may leave the image (only its part inside is checked) or lie entirely under the
line (nothing of it to check).  None of this touches what the answer rests on: the line is still checked
along every segment and nowhere else, the markers in colour and shape, and the walk ignores spurs (they
are distractors).  A generated item gets no such allowance: its spurs must each lie on one segment,
inside the image, in view.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bench_core import Item, option_letters

#: TraversalBench tortuosity bin edges (paper §2.1; the last bin is open) and crossing-bin lower ends
#: (bins 0, 1, 2-3, 4-5, 6-8, 9-12, 13+).  Stated here from the paper, not imported from the generator.
TORTUOSITY_EDGES = (1.0, 1.3, 2.0, 3.0, 4.5, 6.5)
CROSSING_BIN_LOWS = (0, 1, 2, 4, 6, 9, 13)

#: Decimal places of published coordinates as drawn and recorded.
PUBLISHED_DECIMALS = 6
#: Largest per-channel distance (0-255) between a marker's median centre colour and its recorded RGB.
COLOUR_TOLERANCE = 40
#: A pixel is ink when a channel differs from the background by more than this.
INK_THRESHOLD = 40
#: A pixel has the line's (or the spur's) colour when every channel is within this of it.
LINE_TOLERANCE = 48
SPUR_TOLERANCE = 40
#: A pixel is saturated (marker fill) when its channels spread by more than this.
CHROMA_THRESHOLD = 60
#: The zone around a marker centre that its glyph may cover, as a multiple of the recorded radius plus px.
MARKER_ZONE = (1.3, 1.5)
#: Extra px beyond half the stroke width that anti-aliasing may ink beside a line or spur.
BAND_SLACK = 2.0
#: Unexplained pixels tolerated in each class (none: the bands already allow for anti-aliasing).
MAX_UNEXPLAINED = 0
#: Smallest share of the 1-px samples along a segment (or a spur) that must show its colour.
MIN_COVERAGE = 1.0
#: A recorded coordinate is "on" a vertex or a segment within this many px (the record keeps 6 decimals).
ON_TOLERANCE = 0.05
#: Rays and radii of the shape signature.
_RAY_ANGLES = np.radians(np.arange(72) * 5.0)
_RAY_STEP = 0.5

_REGIME_AXES = {  # (along-lane coordinate, across-lane coordinate) as (axis, sign) pairs
    "ltr_tb": ((0, 1.0), (1, 1.0)),
    "rtl_tb": ((0, -1.0), (1, 1.0)),
    "ttb_lr": ((1, 1.0), (0, 1.0)),
    "ttb_rl": ((1, 1.0), (0, -1.0)),
}


class SceneError(ValueError):
    """The scene record is malformed or inconsistent with itself."""


# --------------------------------------------------------------------------------------------------------
# entry points


def verify_path(item: Item, images: Sequence[Any]) -> list[str]:
    """Every failure of a ``traversal/path`` item, from its record and its image alone (empty if sound)."""
    return _verify(item, images, reading_order=False)


def verify_reading_order(item: Item, images: Sequence[Any]) -> list[str]:
    """Every failure of a ``traversal/reading-order`` item, from its record and its image alone."""
    return _verify(item, images, reading_order=True)


def _verify(item: Item, images: Sequence[Any], *, reading_order: bool) -> list[str]:
    """Every check of the module docstring; a malformed record is reported as a failure, never raised."""
    try:
        scene = read_scene(item.metadata["scene"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return [f"scene record unreadable: {type(exc).__name__}: {exc}"]
    failures: list[str] = []
    try:
        walk = walk_tokens(scene)
    except SceneError as exc:
        return [f"scene record: {exc}"]
    failures += answer_failures(item, walk, scene.start)
    published = "published" in item.metadata
    recorded = published_spur_segments(item) if published else None
    if recorded is not None and len(recorded) != len(scene.spurs):
        recorded = None  # published_record_failures reports the record's spurs as not the ones drawn
    try:
        failures += metric_failures(item.metadata, scene, recorded)
        if reading_order or item.metadata.get("profile") == "strict":  # the paper's rules allow it, ours do not
            failures += marker_clearance_failures(scene)
        failures += spur_rule_failures(scene, recorded, published=published)
        if published:
            failures += published_record_failures(item, scene)
        if reading_order:
            failures += reading_order_failures(item, scene)
    except (KeyError, TypeError, ValueError) as exc:
        failures.append(f"metadata unreadable: {type(exc).__name__}: {exc}")
    if len(images) != 1:
        failures.append(f"{len(images)} images, a traversal item has one")
    if images:
        try:
            failures += pixel_failures(images[0], scene, published=published)
        except (TypeError, ValueError, IndexError) as exc:
            failures.append(f"the image cannot be checked against the scene: {type(exc).__name__}: {exc}")
    return failures


# --------------------------------------------------------------------------------------------------------
# the record


class Scene:
    """The scene record decoded into arrays (no generator type involved)."""

    def __init__(self, record: Mapping[str, Any]):
        self.size = tuple(int(v) for v in record["image_size"])
        self.background = np.array(record.get("background", [255, 255, 255]), dtype=np.int16)
        line = record["line"]
        self.line_rgb = np.array(line["rgb"], dtype=np.int16)
        self.line_width = float(line["width"])
        self.vertices = np.array(line["vertices"], dtype=np.float64).reshape(-1, 2)
        spurs = record["spurs"]
        self.spur_rgb = np.array(spurs["rgb"], dtype=np.int16)
        self.spur_width = float(spurs["width"])
        self.spurs = np.array(spurs["segments"], dtype=np.float64).reshape(-1, 2, 2)
        markers = record["markers"]
        self.radius = float(markers["radius"])
        items = markers["items"]
        self.centres = np.array([m["at"] for m in items], dtype=np.float64).reshape(-1, 2)
        self.colours = [str(m["colour"]) for m in items]
        self.rgbs = np.array([m["rgb"] for m in items], dtype=np.int16).reshape(-1, 3)
        self.shapes = [str(m["shape"]) for m in items]
        self.start = str(record["start"])
        for name, array in (("vertices", self.vertices), ("spurs", self.spurs), ("markers", self.centres)):
            if not np.all(np.isfinite(array)):
                raise ValueError(f"non-finite {name}")

    @property
    def tokens(self) -> list[str]:
        return [f"{c} {s}" for c, s in zip(self.colours, self.shapes, strict=True)]

    @property
    def marker_zone(self) -> float:
        return MARKER_ZONE[0] * self.radius + MARKER_ZONE[1]


def read_scene(record: Mapping[str, Any]) -> Scene:
    """The decoded scene record (raises KeyError, TypeError or ValueError when malformed)."""
    return Scene(record)


def walk_tokens(scene: Scene) -> list[str]:
    """The tokens met walking the recorded line from the START marker to the far end.

    Every vertex must carry exactly one marker (matched by position) and every marker sit on a vertex; the
    tokens must be distinct; the START token must be one marker's, at an end of the line.  Raises SceneError
    otherwise.
    """
    v, c = scene.vertices, scene.centres
    if len(v) < 2:
        raise SceneError(f"the line has {len(v)} vertices")
    if len(c) != len(v):
        raise SceneError(f"{len(c)} markers for {len(v)} vertices")
    tokens = scene.tokens
    if len(set(tokens)) != len(tokens):
        raise SceneError("a marker token repeats")
    distance = np.hypot(*(v[:, None, :] - c[None, :, :]).transpose(2, 0, 1))  # (vertex, marker)
    on = distance <= ON_TOLERANCE
    if not (on.sum(axis=1) == 1).all() or not (on.sum(axis=0) == 1).all():
        raise SceneError("markers and vertices do not pair up one to one by position")
    at_vertex = [tokens[int(k)] for k in on.argmax(axis=1)]
    if at_vertex[0] == scene.start:
        return at_vertex
    if at_vertex[-1] == scene.start:
        return at_vertex[::-1]
    if scene.start in at_vertex:
        raise SceneError(f"the START marker {scene.start!r} is not at an end of the line")
    raise SceneError(f"no marker is the START token {scene.start!r}")


def answer_failures(item: Item, walk: Sequence[str], start: str) -> list[str]:
    """The answer (or, for the choice format, the one option the answer letter names) must be the walk."""
    gold = ", ".join(walk)
    failures = []
    if f'"{start}"' not in item.question:
        failures.append(f"the question does not name the START marker {start!r}")
    if item.options is None:
        if item.answer != gold:
            failures.append(f"walking the line reads {gold!r}, the answer is {item.answer!r}")
        return failures
    letters = option_letters(len(item.options))
    matching = [k for k, option in enumerate(item.options) if option == gold]
    if len(matching) != 1:
        failures.append(f"{len(matching)} options equal the walked sequence {gold!r}")
    elif letters[matching[0]] != item.answer:
        failures.append(f"the walk is option {letters[matching[0]]}, the answer is {item.answer!r}")
    failures += [f"the question does not list option {letter}" for letter, option in zip(letters, item.options,
                                                                                          strict=True)
                 if f"({letter}) {option}" not in item.question]
    return failures


# --------------------------------------------------------------------------------------------------------
# metrics, recomputed


def tortuosity(v: np.ndarray) -> float:
    """Polyline length over the straight distance between its ends (inf when the ends coincide)."""
    length = float(np.sum(np.hypot(*np.diff(v, axis=0).T)))
    chord = math.hypot(*(v[-1] - v[0]))
    return math.inf if chord == 0.0 else max(1.0, length / chord)


def crossings(v: np.ndarray) -> list[tuple[int, int, float]]:
    """(i, j, angle in degrees) of every proper crossing of non-adjacent segments i < j: each segment's
    ends lie strictly on opposite sides of the other's line."""
    a, b = v[:-1], v[1:]
    m = len(a)
    if m < 3:
        return []
    i, j = np.triu_indices(m, k=2)

    def side(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        return (q[:, 0] - p[:, 0]) * (r[:, 1] - p[:, 1]) - (q[:, 1] - p[:, 1]) * (r[:, 0] - p[:, 0])

    proper = side(a[i], b[i], a[j]) * side(a[i], b[i], b[j]) < 0
    proper &= side(a[j], b[j], a[i]) * side(a[j], b[j], b[i]) < 0
    out = []
    for s, t in zip(i[proper], j[proper], strict=True):
        u, w = b[s] - a[s], b[t] - a[t]
        cosine = abs(float(u @ w)) / (math.hypot(*u) * math.hypot(*w))
        out.append((int(s), int(t), math.degrees(math.acos(min(1.0, cosine)))))
    return out


def _bin(value: float, lows: Sequence[float]) -> int:
    return max(k for k, low in enumerate(lows) if value >= low - 1e-9)


def _segment_distance(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance of each of ``points`` (P, 2) to each segment a[k]-b[k] (S, 2): shape (P, S)."""
    d = b - a
    length2 = np.maximum((d * d).sum(axis=1), 1e-12)
    rel = points[:, None, :] - a[None, :, :]
    t = np.clip((rel * d[None]).sum(axis=2) / length2[None], 0.0, 1.0)
    nearest = a[None] + t[..., None] * d[None]
    return np.hypot(*(points[:, None, :] - nearest).transpose(2, 0, 1))


def spur_anchors(scene: Scene) -> list[list[int]]:
    """For each spur, the line segments its anchor (first point) lies on within ON_TOLERANCE: one, none (not
    anchored on the line), or several where segments of the line cross (or meet at a vertex)."""
    v = scene.vertices
    if not len(scene.spurs):
        return []
    distance = _segment_distance(scene.spurs[:, 0, :], v[:-1], v[1:])
    return [[int(s) for s in np.flatnonzero(row <= ON_TOLERANCE)] for row in distance]


def spur_hosts(scene: Scene, recorded: Sequence[int] | None = None) -> list[int | None]:
    """The line segment each spur is anchored on: the only segment its anchor lies on.  An anchor on several
    segments has a host only when ``recorded`` (a published record's ``seg_idx`` of each spur, see
    ``published_spur_segments``) names one of them; None otherwise, and for an anchor off the line."""
    hosts: list[int | None] = []
    for k, segments in enumerate(spur_anchors(scene)):
        if len(segments) == 1:
            hosts.append(segments[0])
        elif recorded is not None and len(segments) > 1 and k < len(recorded) and recorded[k] in segments:
            hosts.append(int(recorded[k]))
        else:
            hosts.append(None)
    return hosts


def published_spur_segments(item: Item) -> list[int] | None:
    """The segment (``seg_idx``) that the published record stored in ``params.record`` names for each of its
    spurs, in the record's order (the order drawn and recorded in the scene); None when the record cannot be
    read or lists no segment for some spur (``published_record_failures`` reports why).

    The publisher's placer, which should keep anchors 22 px from crossings, anchored some spurs exactly on a
    crossing (bowtie_chain_spread and spaghetti_tuned records, sometimes two spurs on one point): the pixels
    cannot tell which of the crossing segments such a spur belongs to, the record does."""
    text = item.params.get("record")
    if not isinstance(text, str):
        return None
    try:
        confounders = _literal(json.loads(text).get("confounders") or [])
        return [int(c["seg_idx"]) for c in confounders]
    except (ValueError, KeyError, TypeError, SyntaxError, AttributeError):
        return None


def metric_failures(meta: Mapping[str, Any], scene: Scene, recorded: Sequence[int] | None = None) -> list[str]:
    """The recorded metrics against this module's own recomputation from the recorded geometry (``recorded``:
    a published item's spur segments, see ``spur_hosts``)."""
    v = scene.vertices
    failures = []
    tau = tortuosity(v)
    if not abs(tau - float(meta["tortuosity"])) <= 2e-6:
        failures.append(f"tortuosity is {tau:.6f}, metadata says {meta['tortuosity']}")
    found = crossings(v)
    if len(found) != meta["crossings"]:
        failures.append(f"the line crosses itself {len(found)} times, metadata says {meta['crossings']}")
    pairs = [[s, t] for s, t, _ in found]
    if pairs != sorted(meta["crossing_segments"]):
        failures.append(f"crossing segment pairs are {pairs}, metadata says {meta['crossing_segments']}")
    events = sorted([s + 1 for s, _, _ in found] + [t + 1 for _, t, _ in found])
    if events != meta["crossing_events"] or (events[0] if events else None) != meta["first_crossing_token"]:
        failures.append(f"crossing passages are {events}, metadata says {meta['crossing_events']}")
    angle = min((a for _, _, a in found), default=90.0)
    if not abs(angle - float(meta["min_crossing_angle"])) <= 1.5e-3:
        failures.append(f"smallest crossing angle is {angle:.3f}, metadata says {meta['min_crossing_angle']}")
    hosts = spur_hosts(scene, recorded)
    spur_events = sorted(h + 1 for h in hosts if h is not None)
    if len(hosts) != meta["spurs"] or spur_events != meta["spur_events"]:
        failures.append(f"{len(hosts)} spurs passed at {spur_events}, metadata says {meta['spurs']} at "
                        f"{meta['spur_events']}")
    dx, dy = v[-1] - v[0]
    facts = {"vertices": len(v), "start": scene.start, "orientation": "LR" if dx >= 0 else "RL",
             "vertical": "TB" if dy >= 0 else "BT"}
    failures += [f"{key} is {value!r}, metadata says {meta[key]!r}" for key, value in facts.items()
                 if meta[key] != value]
    if "tort_bin" in meta and _bin(tau, TORTUOSITY_EDGES) != meta["tort_bin"]:
        failures.append(f"tortuosity {tau:.4f} is not in bin {meta['tort_bin']}")
    if "cross_bin" in meta and _bin(len(found), CROSSING_BIN_LOWS) != meta["cross_bin"]:
        failures.append(f"{len(found)} crossings are not in bin {meta['cross_bin']}")
    if "published" in meta:
        failures += _published_failures(meta["published"], tau, len(found))
    return failures


def published_record_failures(item: Item, scene: Scene) -> list[str]:
    """A published item against the record line it stores (``params.record``): the line's SHA-256, its path
    and spurs as drawn, its stored metrics as recorded, and the geometry identity of its path."""
    text, stored = item.params.get("record"), item.metadata["published"]
    if not isinstance(text, str):
        return ["the item does not store its published record (params.record)"]
    failures = []
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != stored.get("sha256"):
        failures.append("the stored record does not match its recorded SHA-256")
    try:
        record = json.loads(text)
        points = np.array([[p["x"], p["y"]] if isinstance(p, dict) else list(p) for p in _literal(record["points"])],
                          dtype=np.float64).reshape(-1, 2)
        spurs = np.array([c["points"] for c in _literal(record.get("confounders") or [])],
                         dtype=np.float64).reshape(-1, 2, 2)
        metrics = record.get("metrics") or {}
    except (ValueError, KeyError, TypeError, SyntaxError, IndexError) as exc:
        return [*failures, f"the stored record cannot be read: {type(exc).__name__}: {exc}"]
    drawn, spurs = np.round(points, PUBLISHED_DECIMALS), np.round(spurs, PUBLISHED_DECIMALS)
    if drawn.shape != scene.vertices.shape or not np.allclose(drawn, scene.vertices, rtol=0.0, atol=1e-9):
        failures.append("the line drawn is not the stored record's path")
    if spurs.shape != scene.spurs.shape or not np.allclose(spurs, scene.spurs, rtol=0.0, atol=1e-9):
        failures.append("the spurs drawn are not the stored record's confounders")
    if geometry_identity(points) != stored.get("geometry"):
        failures.append(f"the path's geometry is {geometry_identity(points)}, metadata says {stored.get('geometry')}")
    for key in ("tortuosity", "self_intersections"):
        value = float(metrics.get(key, "nan"))
        if not (math.isfinite(value) and round(value, PUBLISHED_DECIMALS) == stored.get(key)):
            failures.append(f"the stored record's {key} is {metrics.get(key)}, metadata says {stored.get(key)}")
    return failures


def _literal(value: Any) -> Any:
    return ast.literal_eval(value) if isinstance(value, str) else value


def geometry_identity(points: np.ndarray) -> str:
    """16 hex digits of the SHA-256 of the vertices (6 decimals) as a compact JSON list of [x, y]."""
    rounded = [[round(float(x), PUBLISHED_DECIMALS) + 0.0, round(float(y), PUBLISHED_DECIMALS) + 0.0]
               for x, y in np.asarray(points, dtype=np.float64).reshape(-1, 2)]
    return hashlib.sha256(json.dumps(rounded, separators=(",", ":")).encode("utf-8")).hexdigest()[:16]


def _published_failures(stored: Mapping[str, Any], tau: float, count: int) -> list[str]:
    """Our metrics against the ones stored in a published backbone record."""
    failures = []
    if not math.isclose(tau, float(stored["tortuosity"]), rel_tol=1e-6):
        failures.append(f"tortuosity {tau:.6f} disagrees with the published {stored['tortuosity']}")
    published = int(stored["self_intersections"])
    # bin 6 (13+) of the published data stores a nominal count for some records: compare bins there
    if stored.get("self_int_bin") is not None and stored["self_int_bin"] >= 6:
        if _bin(count, CROSSING_BIN_LOWS) != _bin(published, CROSSING_BIN_LOWS):
            failures.append(f"{count} crossings fall outside the published 13+ bin")
    elif count != published:
        failures.append(f"{count} crossings disagree with the published {published}")
    return failures


def marker_clearance_failures(scene: Scene) -> list[str]:
    """No marker sits on a segment it does not end: every other segment passes at least a marker radius
    from its centre, so a reader can tell which segments a marker joins."""
    v = scene.vertices
    distance = _segment_distance(v, v[:-1], v[1:])  # (vertex, segment)
    k, s = np.indices(distance.shape)
    foreign = (s != k) & (s != k - 1)
    close = foreign & (distance < scene.radius)
    return [f"segment {int(b)} passes {distance[a, b]:.1f} px from the marker on vertex {int(a)}"
            for a, b in zip(*np.nonzero(close), strict=True)]


def spur_rule_failures(scene: Scene, recorded: Sequence[int] | None = None, *, published: bool = False) -> list[str]:
    """Each spur sticks out of the line (anchored on one segment of it) and stays clear of every marker, so it
    can never join two markers or look like the line's way into one; the spur colour differs from the line's.

    A generated spur lies inside the image and its anchor on exactly one segment.  A published one
    (``published``, with ``recorded`` the segments its record names, see ``published_spur_segments``) may
    leave the image, and may be anchored where segments cross if its record names one of them; an anchor on
    a single segment must still be on the one the record names."""
    if not len(scene.spurs):
        return []
    failures = []
    for k, segments in enumerate(spur_anchors(scene)):
        names = " and ".join(str(s) for s in segments)
        if not segments:
            failures.append(f"spur {k} is not anchored on the line")
        elif recorded is None and len(segments) > 1:
            failures.append(f"spur {k} is anchored where segments {names} meet, on none of them alone")
        elif recorded is not None and (k >= len(recorded) or recorded[k] not in segments):
            where = f"segments {names}" if len(segments) > 1 else f"segment {names}"
            named = f"segment {recorded[k]}" if k < len(recorded) else "no segment"
            failures.append(f"spur {k} is anchored on {where}, its published record names {named}")
    if not published:
        half = scene.spur_width / 2.0
        ends = scene.spurs.reshape(-1, 2)
        size = np.array(scene.size, dtype=np.float64)
        outside = ((ends < half) | (ends > size - half)).any(axis=1).reshape(-1, 2).any(axis=1)
        failures += [f"spur {int(k)} leaves the image" for k in np.flatnonzero(outside)]
    clear = scene.radius + scene.spur_width / 2.0
    distance = _segment_distance(scene.centres, scene.spurs[:, 0, :], scene.spurs[:, 1, :])  # (marker, spur)
    for k in np.flatnonzero(distance.min(axis=0) < clear):
        failures.append(f"spur {int(k)} comes within {distance[:, k].min():.1f} px of a marker centre")
    if np.abs(scene.spur_rgb - scene.line_rgb).max() <= LINE_TOLERANCE + SPUR_TOLERANCE:
        failures.append("the spur colour is too close to the line colour to tell them apart")
    return failures


def reading_order_failures(item: Item, scene: Scene) -> list[str]:
    """A reading-order path has no crossing and runs in lanes of its regime: lane sizes as even as possible
    (earlier lanes longer), lanes ordered across in reading order, and within a lane the markers advance in
    the reading direction (raster) or alternately forwards and backwards (serpentine)."""
    meta = item.metadata
    regime, lanes, connector = meta["regime"], int(meta["lanes"]), meta["connector"]
    failures = []
    if crossings(scene.vertices):
        failures.append("a reading-order path crosses itself")
    if item.variant != regime or regime not in _REGIME_AXES:
        return [*failures, f"regime {regime!r} (variant {item.variant!r}) is not a reading-order regime"]
    if not 1 <= lanes <= len(scene.vertices) // 2 or connector not in ("raster", "serpentine"):
        return [*failures, f"{lanes} lanes joined by {connector!r} cannot hold {len(scene.vertices)} vertices"]
    v = _walk_vertices(scene)
    (along_axis, along_sign), (across_axis, across_sign) = _REGIME_AXES[regime]
    along, across = along_sign * v[:, along_axis], across_sign * v[:, across_axis]
    base, extra = divmod(len(v), lanes)
    ends = np.cumsum([base + (1 if k < extra else 0) for k in range(lanes)])
    groups = np.split(np.arange(len(v)), ends[:-1])
    for k, group in enumerate(groups):
        steps = np.diff(along[group])
        forward = connector == "raster" or k % 2 == 0
        if len(group) < 2 or not (np.all(steps > 0) if forward else np.all(steps < 0)):
            failures.append(f"lane {k} does not run {'forwards' if forward else 'backwards'} in regime {regime}")
        if k and across[groups[k - 1]].max() >= across[group].min():
            failures.append(f"lane {k} is not after lane {k - 1} across the lanes of regime {regime}")
    return failures


def _walk_vertices(scene: Scene) -> np.ndarray:
    """The recorded vertices in walking order (from the START marker's end)."""
    start = scene.tokens.index(scene.start)
    first = np.hypot(*(scene.vertices[0] - scene.centres[start])) <= ON_TOLERANCE
    return scene.vertices if first else scene.vertices[::-1]


# --------------------------------------------------------------------------------------------------------
# pixels


def hue_name(rgb: Sequence[float]) -> str:
    """A colour name for an RGB triple by hue, brightness and saturation: red, orange, brown, yellow,
    green, cyan, blue, purple, or grey/white/black for unsaturated colours."""
    r, g, b = (float(c) / 255.0 for c in rgb)
    high, low = max(r, g, b), min(r, g, b)
    if high - low < 0.25:
        return "white" if high > 0.85 else "black" if high < 0.2 else "grey"
    if high == r:
        hue = (60.0 * (g - b) / (high - low)) % 360.0
    elif high == g:
        hue = 60.0 * (b - r) / (high - low) + 120.0
    else:
        hue = 60.0 * (r - g) / (high - low) + 240.0
    if hue >= 330.0 or hue < 12.0:
        return "red"
    if hue < 45.0:
        return "orange" if high > 0.75 else "brown"
    if hue < 75.0:
        return "yellow"
    if hue < 160.0:
        return "green"
    if hue < 200.0:
        return "cyan"
    if hue < 250.0:
        return "blue"
    return "purple"


_HARMONICS = np.exp(-1j * np.outer((3, 4, 5), _RAY_ANGLES))  # (fold, ray)
_COS4 = np.cos(4 * _RAY_ANGLES)


def shape_names(radii: np.ndarray) -> list[str]:
    """For each row of ``radii`` (marker, ray): the glyph shape whose fill outline, measured along rays at
    ``_RAY_ANGLES`` (0 = +x, counter-clockwise with y up), matches.  The strongest of the 3-, 4- and 5-fold
    harmonics names a triangle, a square or plus, or a star; a 4-fold outline reaching farthest along the
    diagonals is a square, along the axes a plus; no harmonic above 7 % of the mean radius is a circle."""
    mean = radii.mean(axis=1)
    strength = 2.0 * np.abs(radii @ _HARMONICS.T) / radii.shape[1] / np.maximum(mean, 1e-9)[:, None]
    fold = strength.argmax(axis=1)
    diagonal = radii @ _COS4 < 0
    names = []
    for k in range(len(radii)):
        if mean[k] <= 0.0:
            names.append("none")
        elif strength[k, fold[k]] < 0.07:
            names.append("circle")
        else:
            names.append(("tri", "square" if diagonal[k] else "plus", "star")[fold[k]])
    return names


#: Bits of the band canvas (``_band_canvas``): a pixel near a marker, near the line, near a spur.
_ZONE, _LINE, _SPUR = 1, 2, 4


def _band_canvas(height: int, width: int, stamps: Sequence[tuple[np.ndarray, np.ndarray, float, int]]) -> np.ndarray:
    """A (height, width) uint8 canvas holding, for each (starts, ends, radius, bit) of ``stamps``, ``bit`` on
    every pixel within ``radius`` px of the segments starts[k]-ends[k] (1-px samples; a pixel is within
    reach of a sample when its offset from the sample's pixel is in ``_disc(radius)``).  Pixels beyond the
    image edge are left out (a published spur may run off the image).

    The discs are stamped, indexed flat, into one canvas padded by twice the largest disc's reach, so no
    bounds test is needed per stamped pixel.  Along a run of samples each sample pixel is at most one pixel
    from the one before (a unit step), so it only adds the pixels of its disc that the previous disc misses
    (its step's crescent, ``_crescents``); the first sample, and any after a longer jump, stamp the whole
    disc."""
    reach = max((int(np.abs(_disc(radius)).max(initial=0)) for _, _, radius, _ in stamps), default=0)
    pad = 2 * reach  # a sample up to ``reach`` beyond the edge may ink the image; its disc reaches ``reach`` more
    row = width + 2 * pad
    padded = np.zeros((height + 2 * pad, row), dtype=np.uint8)
    flat = padded.reshape(-1)
    for starts, ends, radius, bit in stamps:
        points = np.floor(_samples(starts, ends)[0]).astype(np.int64)
        near = ((points[:, 0] >= -reach) & (points[:, 0] < width + reach) & (points[:, 1] >= -reach)
                & (points[:, 1] < height + reach))
        points = points[near]
        if not len(points):
            continue
        seeds = (points[:, 1] + pad) * row + points[:, 0] + pad
        step = np.diff(points, axis=0)
        unit = (np.abs(step[:, 0]) <= 1) & (np.abs(step[:, 1]) <= 1)
        # which offsets each seed stamps: 0-8 the crescent of its unit step (row step + 1) * 3 + col step + 1
        # (4, no step, has none), 9 the whole disc
        kind = np.full(len(points), _WHOLE_DISC)
        kind[1:][unit] = (step[unit, 1] + 1) * 3 + step[unit, 0] + 1
        for code, part in enumerate(_crescents(radius)):
            if code == 4:
                continue
            chosen = seeds[kind == code]
            if len(chosen) and len(part):
                flat[(chosen[:, None] + (part[:, 0] * row + part[:, 1])[None, :]).reshape(-1)] |= bit
    return np.ascontiguousarray(padded[pad : pad + height, pad : pad + width])


#: The ``kind`` of a seed that stamps its whole disc (``_band_canvas``).
_WHOLE_DISC = 9


@functools.lru_cache(maxsize=16)
def _crescents(radius: float) -> tuple[np.ndarray, ...]:
    """For each unit step (row step, col step) in {-1, 0, 1}^2, in the order (row + 1) * 3 + col + 1, the
    (row, col) offsets o of ``_disc(radius)`` with o + step outside it: the pixels a disc moved by that step
    covers that it did not before.  Then, tenth, the whole disc."""
    disc = _disc(radius)
    inside = set(map(tuple, disc.tolist()))
    parts = [disc[np.array([(oy + dy, ox + dx) not in inside for oy, ox in disc.tolist()], dtype=bool)]
             for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    parts.append(disc)
    for part in parts:
        part.flags.writeable = False
    return tuple(parts)


def _disc(radius: float) -> np.ndarray:
    """(row, col) offsets of the pixels within ``radius`` (plus half a pixel for the flooring)."""
    r = math.ceil(radius + 0.5)
    dy, dx = np.mgrid[-r : r + 1, -r : r + 1]
    keep = dy * dy + dx * dx <= (radius + 0.5) ** 2
    return np.stack([dy[keep], dx[keep]], axis=1)


def _samples(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points every <= 1 px along each segment starts[k]-ends[k] (both ends included), and the segment
    index of each point."""
    if not len(starts):
        return np.zeros((0, 2)), np.zeros(0, dtype=np.int64)
    counts = np.maximum(2, np.ceil(np.hypot(*(ends - starts).T)).astype(np.int64) + 1)
    ids = np.repeat(np.arange(len(starts)), counts)
    first = np.cumsum(counts) - counts
    t = (np.arange(len(ids)) - first[ids]) / (counts[ids] - 1)
    return starts[ids] + t[:, None] * (ends - starts)[ids], ids


_NEIGHBOURS = np.array([(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)])


def _near(mask: np.ndarray, points: np.ndarray) -> np.ndarray:
    """For each point, whether ``mask`` holds in its pixel or one of the 8 around it."""
    base = np.floor(points).astype(np.int64)
    rows = np.clip(base[:, 1], 1, mask.shape[0] - 2)
    cols = np.clip(base[:, 0], 1, mask.shape[1] - 2)
    out = np.zeros(len(points), dtype=bool)
    for dy, dx in _NEIGHBOURS:
        out |= mask[rows + dy, cols + dx]
    return out


def _coverage_failures(what: str, ids: np.ndarray, visible: np.ndarray, covered: np.ndarray, count: int, *,
                       under: str = "the markers", hidden_ok: bool = False) -> list[str]:
    """A message for each of ``count`` segments (``what`` formatted with k and next = k + 1) whose visible
    samples are covered less than MIN_COVERAGE, or (unless ``hidden_ok``) that has no visible sample at all
    (it is hidden ``under`` what the message names)."""
    shown = np.bincount(ids[visible], minlength=count)
    hit = np.bincount(ids[visible & covered], minlength=count)
    failures = []
    for k in range(count):
        label = what.format(k=k, next=k + 1)
        if not shown[k]:
            if not hidden_ok:
                failures.append(f"{label} is hidden under {under}")
        elif hit[k] < MIN_COVERAGE * shown[k]:
            failures.append(f"{label} is drawn along only {hit[k] / shown[k]:.0%} of its visible length")
    return failures


def _within(values: np.ndarray, rgb: np.ndarray, tolerance: int) -> np.ndarray:
    """Rows of ``values`` (P, 3) whose every channel is within ``tolerance`` of ``rgb``."""
    out = np.abs(values[:, 0] - rgb[0]) <= tolerance
    out &= np.abs(values[:, 1] - rgb[1]) <= tolerance
    out &= np.abs(values[:, 2] - rgb[2]) <= tolerance
    return out


def pixel_failures(image: Any, scene: Scene, *, published: bool = False) -> list[str]:
    """What the pixels of ``image`` contradict in ``scene`` (see the module docstring).  A spur is checked
    where it shows: not under the line or a marker, and inside the image; only a ``published`` spur may not
    show at all (its record laid it along the line)."""
    quad = _rgbx(image)
    if quad.shape[1::-1] != scene.size:
        return [f"the image is {quad.shape[1]}x{quad.shape[0]}, the scene says {scene.size[0]}x{scene.size[1]}"]
    failures = _marker_failures(quad, scene)
    height, width = quad.shape[:2]
    # ink: a channel away from the background; only the ink pixels are classified further
    where = np.flatnonzero(_ink_mask(quad, scene.background))
    values = quad.reshape(-1, 4)[where, :3].astype(np.int16)
    line_coloured = _within(values, scene.line_rgb, LINE_TOLERANCE)
    dark = np.zeros(height * width, dtype=bool)
    dark[where[line_coloured]] = True
    dark = dark.reshape(height, width)
    v, c = scene.vertices, scene.centres
    zone = scene.marker_zone
    stamps = [(c, c, zone, _ZONE), (v[:-1], v[1:], scene.line_width / 2.0 + BAND_SLACK, _LINE)]
    if len(scene.spurs):
        stamps.append((scene.spurs[:, 0, :], scene.spurs[:, 1, :], scene.spur_width / 2.0 + BAND_SLACK, _SPUR))
    bands = _band_canvas(height, width, stamps)
    # the line: drawn along every recorded segment, away from the markers
    points, ids = _samples(v[:-1], v[1:])
    gap = np.hypot(points[:, 0, None] - c[None, :, 0], points[:, 1, None] - c[None, :, 1]).min(axis=1,
                                                                                           initial=np.inf)
    failures += _coverage_failures("segment {k} (vertex {k} to {next})", ids, gap > zone, _near(dark, points),
                                   len(v) - 1)
    if len(scene.spurs):
        # the spurs: drawn in their colour along their length, away from the markers and the line, and
        # inside the image (a published spur may run off it)
        spur_ink = dark.copy().reshape(-1)
        spur_ink[where[_within(values, scene.spur_rgb, SPUR_TOLERANCE)]] = True
        spur_ink = spur_ink.reshape(height, width)
        points, ids = _samples(scene.spurs[:, 0, :], scene.spurs[:, 1, :])
        base = np.floor(points).astype(np.int64)
        inside = (base[:, 0] >= 0) & (base[:, 0] < width) & (base[:, 1] >= 0) & (base[:, 1] < height)
        under = bands[np.clip(base[:, 1], 0, height - 1), np.clip(base[:, 0], 0, width - 1)] & (_ZONE | _LINE)
        failures += _coverage_failures("spur {k}", ids, inside & (under == 0), _near(spur_ink, points),
                                       len(scene.spurs), under="the line and the markers", hidden_ok=published)
    covered = bands.reshape(-1)[where]  # the bands over each ink pixel
    stray_dark = int(np.count_nonzero(line_coloured & (covered & (_ZONE | _LINE) == 0)))
    if stray_dark > MAX_UNEXPLAINED:
        failures.append(f"{stray_dark} line-coloured pixels lie off the recorded segments (an unrecorded connection)")
    stray_ink = int(np.count_nonzero(covered == 0))
    if stray_ink > MAX_UNEXPLAINED:
        failures.append(f"{stray_ink} inked pixels lie off the recorded segments, spurs and markers")
    channels = values[:, 0], values[:, 1], values[:, 2]
    spread = np.maximum(np.maximum(*channels[:2]), channels[2]) - np.minimum(np.minimum(*channels[:2]), channels[2])
    stray_colour = int(np.count_nonzero((spread > CHROMA_THRESHOLD) & (covered & _ZONE == 0)))
    if stray_colour > MAX_UNEXPLAINED:
        failures.append(f"{stray_colour} coloured pixels lie outside the recorded markers")
    return failures


#: Per byte 127 - INK_THRESHOLD, in the three colour bytes of a pixel word (``_ink_mask``).
_INK_ADD = np.uint32((127 - INK_THRESHOLD) * 0x010101)


def _ink_mask(quad: np.ndarray, background: np.ndarray) -> np.ndarray:
    """(height, width) bool: pixels with a channel more than INK_THRESHOLD from ``background``.

    On a white background a channel can only be darker, and the test runs on whole 4-byte pixel words: with
    y the bytes 255 - channel (pad byte cleared), a byte exceeds the threshold n exactly when the high bit of
    (y + 127 - n) | y is set (a carry out of a byte only happens when that byte's own high bit is set), so
    four word operations replace six passes over strided channel planes.  The words are taken a band of
    ``_INK_ROWS`` rows at a time through two small reused buffers: image-sized temporaries would be fresh
    pages of memory for every item."""
    if background.tolist() == [255, 255, 255] and 0 <= INK_THRESHOLD <= 127:
        words = quad.view("<u4")[..., 0]  # R, G, B in the low three bytes, the pad byte on top
        out = np.empty(words.shape, dtype=bool)
        rows = min(_INK_ROWS, len(words))
        y = np.empty((rows, words.shape[1]), dtype=words.dtype)
        high = np.empty_like(y)
        for top in range(0, len(words), rows):
            band = words[top:top + rows]
            part_y, part_high = y[: len(band)], high[: len(band)]
            np.invert(band, out=part_y)
            part_y &= np.uint32(0xFFFFFF)
            np.add(part_y, _INK_ADD, out=part_high)
            part_high |= part_y
            part_high &= np.uint32(0x808080)
            np.not_equal(part_high, 0, out=out[top:top + rows])
        return out
    ink = np.zeros(quad.shape[:2], dtype=bool)
    for channel, level in enumerate(background.tolist()):
        plane = quad[:, :, channel]
        if level - INK_THRESHOLD > 0:
            ink |= plane < level - INK_THRESHOLD
        if level + INK_THRESHOLD < 255:
            ink |= plane > level + INK_THRESHOLD
    return ink


#: Rows of pixel words ``_ink_mask`` works on at a time (its buffers stay under 128 KiB at 672 columns).
_INK_ROWS = 48


def _rgbx(image: Any) -> np.ndarray:
    """The pixels of ``image`` (any mode, taken as RGB) as a (height, width, 4) uint8 array: R, G, B and a pad
    byte (Pillow's own pixel layout, so this is a copy without repacking)."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    return np.frombuffer(rgb.tobytes("raw", "RGBX"), dtype=np.uint8).reshape(rgb.size[1], rgb.size[0], 4)


def _marker_failures(quad: np.ndarray, scene: Scene) -> list[str]:
    """Each marker's colour (median near its centre: recorded RGB and name) and shape (ray signature);
    ``quad`` holds the pixels as ``_rgbx`` returns them."""
    failures = []
    height, width = quad.shape[:2]
    flat = quad.reshape(-1, 4)
    corner = np.floor(scene.centres).astype(np.int64)
    inside = (corner[:, 0] >= 0) & (corner[:, 0] < width) & (corner[:, 1] >= 0) & (corner[:, 1] < height)
    core = _disc(2.0)
    rows = np.clip(corner[:, 1, None] + core[None, :, 0], 0, height - 1)
    cols = np.clip(corner[:, 0, None] + core[None, :, 1], 0, width - 1)
    seen = np.median(flat[rows * width + cols, :3].astype(np.int16), axis=1)  # (marker, 3)
    radii = np.arange(0.0, scene.marker_zone + _RAY_STEP, _RAY_STEP)
    ray_x = radii[None, :] * np.cos(_RAY_ANGLES)[:, None]
    ray_y = -radii[None, :] * np.sin(_RAY_ANGLES)[:, None]
    x, y = scene.centres[:, 0, None, None], scene.centres[:, 1, None, None]
    rr = np.clip(np.floor(y + ray_y[None]).astype(np.int64), 0, height - 1)
    cc = np.clip(np.floor(x + ray_x[None]).astype(np.int64), 0, width - 1)
    # each sample's pixel as one 4-byte word, viewed as its R, G, B bytes (marker, ray, step, 4), tested
    # against each marker's per-channel bounds in uint8: |channel - recorded| <= COLOUR_TOLERANCE + 20
    ray_pixels = quad.reshape(-1).view(np.uint32)[rr * width + cc].view(np.uint8).reshape(*rr.shape, 4)
    reach = COLOUR_TOLERANCE + 20
    low = np.clip(scene.rgbs - reach, 0, 255).astype(np.uint8)[:, None, None, :]
    high = np.clip(scene.rgbs + reach, 0, 255).astype(np.uint8)[:, None, None, :]
    fill = np.ones(rr.shape, dtype=bool)
    for channel in range(3):
        values = ray_pixels[..., channel]
        fill &= values >= low[..., channel]
        fill &= values <= high[..., channel]
    extent = np.where(fill.all(axis=2), radii[-1], radii[np.argmin(fill, axis=2)])  # (marker, ray)
    drawn_shapes = shape_names(extent)
    for k, (name, shape) in enumerate(zip(scene.colours, scene.shapes, strict=True)):
        label = f"marker {name} {shape} at ({scene.centres[k, 0]:.1f}, {scene.centres[k, 1]:.1f})"
        if not inside[k]:
            failures.append(f"{label} is outside the image")
            continue
        if np.abs(seen[k] - scene.rgbs[k]).max() > COLOUR_TOLERANCE or hue_name(seen[k]) != name:
            failures.append(f"{label} shows colour {tuple(int(s) for s in seen[k])} ({hue_name(seen[k])})")
            continue
        drawn = drawn_shapes[k]
        if drawn != shape:
            failures.append(f"{label} is drawn as a {drawn}")
        elif not 0.45 * scene.radius <= float(extent[k].mean()) <= 1.1 * scene.radius:
            failures.append(f"{label} has a mean extent of {extent[k].mean():.1f} px for radius {scene.radius}")
    return failures
