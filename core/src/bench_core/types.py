"""The attrs data types that cross the plugin boundary: task descriptions, problems, items, scores.

All are frozen and validated at construction, so an invalid object cannot exist.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

import attrs

from bench_core.difficulty import Difficulty, allowed_levels, parse_level
from bench_core.errors import ParameterError

#: Answer types the core knows how to parse and score.
ANSWER_TYPES = ("option", "integer", "number", "coordinate", "sequence", "string")
#: ``level`` is the normalised difficulty (``bench_core.difficulty``): a number in [0, 1], a range ``a..b``
#: or one of ``choices`` (named aliases); the core adds it to a task that declares a ``Difficulty``.
PARAMETER_KINDS = ("int", "float", "str", "bool", "path", "level")
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


def _check_name(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not isinstance(value, str) or not _NAME.match(value):
        raise ValueError(
            f"{type(instance).__name__}.{attribute.name}={value!r}: use lowercase letters, digits, '-' or '_',"
            " starting with a letter"
        )


def _frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """Copy a JSON-like mapping into a plain dict (attrs frozen classes hold it read-only by convention)."""
    return dict(value or {})


@attrs.frozen
class Parameter:
    """One parameter of a task: its kind, default and allowed values.

    ``default=None`` means "not fixed": the task draws a value per item (documented in ``help``).
    ``choices`` lists the allowed values; ``minimum``/``maximum`` bound numeric kinds.
    """

    name: str = attrs.field(validator=_check_name)
    kind: str = attrs.field(validator=attrs.validators.in_(PARAMETER_KINDS))
    default: Any = None
    choices: tuple[Any, ...] | None = attrs.field(default=None, converter=attrs.converters.optional(tuple))
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""

    def __attrs_post_init__(self) -> None:
        problem = _declaration_problem(self)
        if problem:
            raise ValueError(f"the task declares {problem} (a bug in the task's description of its parameters, "
                             "not in a user's setting)")

    def value_problem(self, value: Any) -> str | None:
        """Why ``value`` is not one of this parameter's values (kind, choices, range), or None: for checking
        what a generator drew or recorded against what its task declares."""
        if self.kind == "level":
            try:
                parse_level(value, self.choices)
            except ParameterError as exc:
                return f"{value!r} for {self.name!r}, which is not a level ({exc})"
            return None
        return _value_problem(self, value)

    def allowed(self) -> str:
        """Describe the allowed values in words, for error messages and ``bench tasks``."""
        if self.kind == "level":
            return allowed_levels(self.choices)
        if self.choices is not None:
            return ", ".join(str(c) for c in self.choices)
        if self.kind in ("int", "float"):
            lo = "-inf" if self.minimum is None else self.minimum
            hi = "inf" if self.maximum is None else self.maximum
            return f"{self.kind} in [{lo}, {hi}]"
        if self.kind == "bool":
            return "true, false"
        return f"any {self.kind}"

    def convert(self, raw: Any) -> Any:
        """Convert a raw value (a CLI string or a JSON value) to this parameter's kind, or raise ParameterError."""
        value = raw
        if self.kind == "level":
            return parse_level(raw, self.choices)
        try:
            if self.kind == "int":
                if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                    raise ValueError
                value = int(raw)
            elif self.kind == "float":
                value = float(raw)
                if not math.isfinite(value):
                    raise ValueError
            elif self.kind == "bool":
                if isinstance(raw, bool):
                    value = raw
                elif str(raw).lower() in ("1", "true", "yes", "on"):
                    value = True
                elif str(raw).lower() in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise ValueError
            else:
                if not isinstance(raw, str) or not raw:
                    raise ValueError
        except (TypeError, ValueError):
            raise ParameterError(
                f"parameter {self.name!r}: {raw!r} is not a valid {self.kind}; allowed: {self.allowed()}"
            ) from None
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"parameter {self.name!r}: {raw!r} is not allowed; allowed: {self.allowed()}")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise ParameterError(f"parameter {self.name!r}: {raw!r} is out of range; allowed: {self.allowed()}")
        return value

    def extremes(self) -> tuple[Any, ...]:
        """The values a conformance suite must try: every choice, or both bounds of a range."""
        if self.kind == "level":
            return (0.0, 1.0, "0..1", *(self.choices or ()))
        if self.choices is not None:
            return self.choices
        if self.kind == "bool":
            return (False, True)
        return tuple(v for v in (self.minimum, self.maximum) if v is not None)


def _declaration_problem(p: Parameter) -> str | None:
    """What is inconsistent in a parameter's own declaration, or None."""
    if p.kind == "level":
        if p.minimum is not None or p.maximum is not None:
            return f"a minimum or maximum for the level {p.name!r} (a level is always in [0, 1])"
        if p.choices is not None and not all(isinstance(c, str) and c for c in p.choices):
            return f"choices {p.choices!r} for the level {p.name!r}, which must be alias names"
        if p.default is not None:
            try:
                parse_level(p.default, p.choices)
            except ParameterError as exc:
                return f"default {p.default!r} for {p.name!r}, which is not a level ({exc})"
        return None
    for bound in ("minimum", "maximum"):
        value = getattr(p, bound)
        if value is not None and (p.kind not in ("int", "float") or not _is_kind(value, "float")):
            return f"{bound} {value!r} for the {p.kind} {p.name!r} (only an int or float has a numeric range)"
    if p.minimum is not None and p.maximum is not None and p.minimum > p.maximum:
        return f"minimum {p.minimum} above maximum {p.maximum} for {p.name!r}"
    if p.choices is not None:
        if not p.choices:
            return f"an empty list of choices for {p.name!r}"
        for choice in p.choices:
            problem = _value_problem(p, choice, check_choices=False)
            if problem:
                return f"choice {problem}"
    if p.default is None:
        return None
    problem = _value_problem(p, p.default)
    return None if problem is None else f"default {problem}"


def _value_problem(p: Parameter, value: Any, check_choices: bool = True) -> str | None:
    """What makes ``value`` (a declared default or choice, or a value a generator drew) not one of ``p``'s
    values, worded to follow "default " or "drew ", or None if it is one."""
    if not _is_kind(value, p.kind):
        return f"{value!r} for {p.name!r}, which is not {'an' if p.kind == 'int' else 'a'} {p.kind}"
    if check_choices and p.choices is not None and value not in p.choices:
        return f"{value!r} for {p.name!r}, which is not among its choices ({p.allowed()})"
    low = -math.inf if p.minimum is None else p.minimum
    high = math.inf if p.maximum is None else p.maximum
    if p.kind in ("int", "float") and not low <= value <= high:
        return f"{value!r} for {p.name!r} outside [{_number(p.minimum, '-inf')}, {_number(p.maximum, 'inf')}]"
    return None


def _number(bound: float | None, open_end: str) -> str:
    """A range bound for a message: 8 rather than 8.0, ``open_end`` where there is none."""
    if bound is None:
        return open_end
    return str(int(bound)) if float(bound).is_integer() else str(bound)


def _is_kind(value: Any, kind: str) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if kind == "bool":
        return isinstance(value, bool)
    return isinstance(value, str) and bool(value)


#: The placeholder a prompt template's text must contain: it is replaced by the item's question.
QUESTION_PLACEHOLDER = "{question}"


@attrs.frozen
class PromptStyle:
    """A named way of asking a model an item, for ``bench eval --prompt NAME``.

    The user message carries the item's images, then ``template`` with ``{question}`` replaced by the item's
    question (the only placeholder: other braces, as in ``\\boxed{}``, are literal); ``system``, when given, is
    sent first as a system message.  ``description`` says what the style asks for and where it comes from (a
    paper's figure or appendix), for ``bench eval --list-prompts``.
    """

    name: str = attrs.field(validator=_check_name)
    template: str = attrs.field(validator=attrs.validators.instance_of(str))
    description: str = attrs.field(validator=attrs.validators.instance_of(str))
    system: str | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(str))
    )

    def __attrs_post_init__(self) -> None:
        if QUESTION_PLACEHOLDER not in self.template:
            raise ValueError(f"prompt style {self.name!r}: its template must contain {QUESTION_PLACEHOLDER} (where "
                             "the item's question goes)")
        if not self.description.strip():
            raise ValueError(f"prompt style {self.name!r}: describe what it asks for (description is empty)")
        if self.system is not None and not self.system.strip():
            raise ValueError(f"prompt style {self.name!r}: system is empty; leave it None for no system message")

    def user_text(self, question: str) -> str:
        """The text part of the user message for ``question``."""
        return self.template.replace(QUESTION_PLACEHOLDER, question)


def _check_prompt_styles(instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
    names = [getattr(s, "name", None) for s in value]
    if not all(isinstance(s, PromptStyle) for s in value):
        raise ValueError(f"{attribute.name} must hold bench_core.PromptStyle objects, got {value!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"{attribute.name}: duplicate style names in {names}")


@attrs.frozen
class Task:
    """What a task is, without loading its code.

    ``implementation`` is an import string ``"module:attribute"`` naming an object (usually a class
    instance) with the task's ``generate``/``render``/``verify``/``score``/``distractors`` methods; it is
    imported on first use only, so listing tasks never imports a plugin's heavy dependencies.

    ``difficulty`` (a ``Difficulty``) declares the task's normalised difficulty scale: the core then adds a
    parameter ``difficulty`` (kind ``level``) unless the task lists one itself, draws each item's level and
    hands it to ``generate`` as ``params["difficulty"]`` (see ``bench_core.difficulty``).
    """

    family: str = attrs.field(validator=_check_name)
    name: str = attrs.field(validator=_check_name)
    version: str = attrs.field(validator=attrs.validators.matches_re(r"^\d+\.\d+\.\d+$"))
    answer_type: str = attrs.field(validator=attrs.validators.in_(ANSWER_TYPES))
    category: str
    description: str
    implementation: str = attrs.field(validator=attrs.validators.matches_re(r"^[\w.]+:[\w.]+$"))
    parameters: tuple[Parameter, ...] = attrs.field(default=(), converter=tuple)
    variants: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    difficulty: Difficulty | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(Difficulty))
    )
    #: Ways of asking a model this task's items (``bench eval --prompt NAME``), e.g. the paper's own wrapper as
    #: ``paper``; they take precedence over the core's styles of the same name (``bench_core.prompts``).
    prompt_styles: tuple[PromptStyle, ...] = attrs.field(default=(), converter=tuple, validator=_check_prompt_styles)
    #: Parameters the core added (the ``difficulty`` level of a scale the task did not list itself): left
    #: out of the resolved params while unset, so items made before the scale existed keep their records.
    added_parameters: tuple[str, ...] = attrs.field(init=False, default=(), eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        names = [p.name for p in self.parameters]
        if len(set(names)) != len(names):
            raise ValueError(f"task {self.id}: duplicate parameter names in {names}")
        levels = [p.name for p in self.parameters if p.kind == "level"]
        if levels and (self.difficulty is None or levels != ["difficulty"]):
            what = "no difficulty scale" if self.difficulty is None else "only 'difficulty' may be of kind 'level'"
            raise ValueError(f"{self.id} declares the level parameter {levels[-1]!r} but {what} (a level is the "
                             "Task(difficulty=Difficulty(...)) scale's 'difficulty'; a bug in the task's description)")
        if self.difficulty is None:
            return
        aliases = tuple(self.difficulty.aliases) or None
        own = [p for p in self.parameters if p.name == "difficulty"]
        if not own or own[0] == self.difficulty.parameter():  # the second: a copy (attrs.evolve) of a task
            if not own:
                object.__setattr__(self, "parameters", (*self.parameters, self.difficulty.parameter()))
            object.__setattr__(self, "added_parameters", ("difficulty",))
        elif own[0].kind != "level" or own[0].choices != aliases:
            raise ValueError(
                f"{self.id} declares a difficulty scale and its own 'difficulty' parameter of kind {own[0].kind!r}"
                f" with choices {own[0].choices!r}: leave the parameter to the core, or declare it of kind 'level'"
                f" with the scale's aliases {aliases!r} as choices (a bug in the task's description)"
            )

    @property
    def id(self) -> str:
        """``family/name``."""
        return f"{self.family}/{self.name}"

    def parameter(self, name: str) -> Parameter:
        """The parameter called ``name``, or a ParameterError listing the task's parameters."""
        for p in self.parameters:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.parameters) or "none"
        raise ParameterError(f"task {self.id} has no parameter {name!r}; its parameters are: {known}")

    def canonical_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """``settings`` converted to each parameter's kind, sorted, without values equal to the default, so
        that equivalent settings (``09`` and ``9``, a default given explicitly) name the same run."""
        canonical = {}
        for name, raw in settings.items():
            parameter = self.parameter(name)
            value = parameter.convert(raw)
            if parameter.default is not None and value == parameter.default:
                continue
            canonical[name] = value
        return dict(sorted(canonical.items()))

    def resolve_params(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Validate ``settings`` and fill defaults: every parameter appears once, converted to its kind."""
        for name in settings:
            self.parameter(name)
        resolved = {}
        for p in self.parameters:
            value = settings.get(p.name, p.default)
            if value is None and p.name in self.added_parameters:
                continue  # an unset core-added level leaves the params (and so the items) as they were
            # None stands for "drawn per item" and is only allowed where it is the default
            resolved[p.name] = None if value is None and p.default is None else p.convert(value)
        return resolved


@attrs.frozen
class Problem:
    """A generated problem, before rendering: what to ask, the gold answer, and the generator's structure.

    ``structure`` is the task's own object (e.g. a polyline with glyphs) for its render and verify hooks;
    it is never serialised. ``metadata`` holds JSON-serialisable facts for analysis.
    """

    question: str
    answer: str
    image_size: tuple[int, int] = attrs.field(converter=tuple)
    params: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_mapping)
    options: tuple[str, ...] | None = attrs.field(default=None, converter=attrs.converters.optional(tuple))
    answer_type: str | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.in_(ANSWER_TYPES))
    )
    variant: str | None = None
    pair: str | None = None
    metadata: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_mapping)
    structure: Any = attrs.field(default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.options is not None and self.answer_type == "option":
            letters = option_letters(len(self.options))
            if self.answer not in letters:
                raise ValueError(f"answer {self.answer!r} is not one of the option letters {letters}")


def option_letters(count: int) -> str:
    """The letters labelling ``count`` options: A, B, C, ..."""
    if not 1 <= count <= 26:
        raise ValueError(f"option count must be between 1 and 26, got {count}")
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:count]


@attrs.frozen
class Item:
    """One generated benchmark item as written to ``items.jsonl``."""

    id: str
    family: str
    task: str
    version: str
    plugin: Mapping[str, str | None] = attrs.field(converter=_frozen_mapping)
    seed: int
    index: int
    params: Mapping[str, Any] = attrs.field(converter=_frozen_mapping)
    variant: str | None
    pair: str | None
    question: str
    options: tuple[str, ...] | None = attrs.field(converter=attrs.converters.optional(tuple))
    answer: str
    answer_type: str = attrs.field(validator=attrs.validators.in_(ANSWER_TYPES))
    images: tuple[str, ...] = attrs.field(converter=tuple)
    image_sha256: tuple[str, ...] = attrs.field(converter=tuple)
    metadata: Mapping[str, Any] = attrs.field(converter=_frozen_mapping)

    @property
    def task_id(self) -> str:
        """``family/task``."""
        return f"{self.family}/{self.task}"

    def to_json(self) -> str:
        """One line of JSON (no newline), keys in a fixed order, so equal items give equal bytes."""
        record = attrs.asdict(self, recurse=False)
        record["options"] = list(self.options) if self.options is not None else None
        record["images"] = list(self.images)
        record["image_sha256"] = list(self.image_sha256)
        return json.dumps(record, ensure_ascii=False, allow_nan=False, separators=(",", ":"), default=_json_default)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Item:
        """Build an item from a decoded JSON record, ignoring keys this version does not know."""
        names = {a.name for a in attrs.fields(cls)}
        missing = names - set(record) - {"image_sha256"}
        if missing:
            raise ValueError(f"item record lacks {sorted(missing)}")
        values = {k: record[k] for k in names if k in record}
        values.setdefault("image_sha256", ())
        return cls(**values)


def _json_default(value: Any) -> Any:
    # numpy scalars and tuples sneak into metadata; serialise them as plain JSON values
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable: {value!r}")


@attrs.frozen
class Score:
    """A response's score in [0, 1], what was parsed from it, and task-specific details."""

    value: float = attrs.field(converter=float)
    parsed: Any = None
    answered: bool = False
    details: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_mapping)

    @value.validator
    def _in_unit_interval(self, attribute: attrs.Attribute, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"score must lie in [0, 1], got {value}")
