"""The data model every domain shares: facts, claim types, claims, instances, verdicts.

These are the boundary objects (read from and written to JSON lines), so they are
pydantic models. ``Fact`` and ``Claim`` are frozen; a fact is hashable and has a
stable ``id`` derived from its type and key, so the same fact built twice is the same.
"""

from __future__ import annotations

import json
import math
from functools import cached_property
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from factcov.comparators import Comparator, Exact

Scalar = Union[str, int, float, bool, None]
Value = Union[Scalar, list[Scalar]]
Key = dict[str, Scalar]

VerdictLabel = Literal["supported", "contradicted", "unverifiable"]


def key_id(type_: str, key: Key) -> str:
    """Stable text id of a fact or claim: ``type(slot=value,...)``, slots sorted."""
    slots = ",".join(f"{k}={key[k]}" for k in sorted(key) if key[k] is not None)
    return f"{type_}({slots})"


_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
encode_json_str = json.encoder.encode_basestring  # what the encoder above does with a str
# The encoder's own C function, built once: ``JSONEncoder.encode`` builds it again on every
# call, half the cost of encoding a claim's small key. Same arguments as ``encode`` passes
# (so the same bytes), except no circular-reference bookkeeping: that needs a dict per
# call (a shared one is not thread-safe), and keys and values come from validated JSON
# data, which cannot refer to itself.
_encode_c = json.encoder.c_make_encoder and json.encoder.c_make_encoder(
    None, _CANONICAL.default, encode_json_str, None, ":", ",", True, False, True
)


def canonical_json(value: Any) -> str:
    """Compact, sorted JSON: what output files use so equal inputs give equal bytes.

    Called for every claim's key, value and expected value: one encoder is built once,
    and the commonest scalars take the encoder's own conversion directly.
    """
    kind = type(value)
    if kind is str:
        return encode_json_str(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if _encode_c is None:  # a Python built without the _json accelerator
        return _CANONICAL.encode(value)
    return "".join(_encode_c(value, 0))


# A run encodes the key of every claim, and a few hundred distinct keys cover millions of
# claims: their JSON is remembered per distinct key. Python's equality merges what JSON
# tells apart (1 == 1.0 == True, 0.0 == -0.0), so the remembered key holds each value's
# type beside it, and only keys of str slot names and no float value are remembered
# (with the types equal, equal str, int, bool and None values encode alike; floats not).
KEY_JSON_CACHE_SIZE = 65_536
_KEY_JSON: dict[tuple, str] = {}


def key_json(key: Key) -> str:
    """``canonical_json(key)`` of a claim's key (a flat dict of scalars), remembered."""
    try:
        remembered = (*key.items(), *map(type, key.values()))
        text = _KEY_JSON.get(remembered)
    except TypeError:  # an unhashable slot value (a list): not a key the model validated
        return canonical_json(key)
    if text is None:
        text = canonical_json(key)
        if float not in remembered[len(key):] and all(type(name) is str for name in key):
            if len(_KEY_JSON) >= KEY_JSON_CACHE_SIZE:
                _KEY_JSON.clear()
            _KEY_JSON[remembered] = text
    return text


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


# An identifier or name that must say something: every input model (instances,
# generations, rag answers, gold errors) refuses a blank one the same way.
NonBlankStr = Annotated[str, AfterValidator(_not_blank)]

class Fact(BaseModel):
    """One thing that is true of an instance's data, e.g. HAM's first stop was on lap 13."""

    model_config = ConfigDict(frozen=True)

    type: str
    key: Key = Field(default_factory=dict)
    value: Value

    @cached_property
    def id(self) -> str:
        return key_id(self.type, self.key)

    @cached_property
    def identity(self) -> tuple[str, str]:
        """(id, JSON of the value): what equality and hashing use, computed once per fact
        because every Knowledge build hashes every fact."""
        identity = self.__dict__.get("id") or key_id(self.type, self.key), canonical_json(self.value)
        self.__dict__["id"] = identity[0]
        return identity

    def __hash__(self) -> int:
        # the cached identity read from the instance dict first: hashing is the hot path of
        # every Knowledge build, and cached_property's first access takes a lock
        identity = self.__dict__.get("identity") or self.identity
        return hash(identity)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Fact):
            return False
        return (self.__dict__.get("identity") or self.identity) == (
            other.__dict__.get("identity") or other.identity
        )

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Fact:
        copy = super().model_copy(update=update, deep=deep)
        for cached in ("id", "identity"):  # computed from the old fields
            copy.__dict__.pop(cached, None)
        return copy


class Claim(BaseModel):
    """What an extractor read in a text. Key slots the text leaves unsaid are absent.

    Spans are ``[start, end)`` character offsets into the generation's text:

    - ``span``: the *value* the claim asserts ("30" in "LeBron James scored 30");
    - ``statement_span``: the whole statement, where the extractor knows it ("LeBron
      James scored 30"); ``None`` when it does not (then ``validate errors --span
      statement`` falls back to the sentence around ``span``).

    ``out_of_scope``: why the oracle cannot know this claim by design ("next game",
    "season average"), or ``None``. Such claims are kept and counted, but left out of
    precision, recall and F1 (see ``ScoringPolicy``).
    """

    model_config = ConfigDict(frozen=True)

    type: str
    key: Key = Field(default_factory=dict)
    value: Value
    span: tuple[int, int] | None = None
    text: str = ""
    extractor: str = ""
    statement_span: tuple[int, int] | None = None
    out_of_scope: str | None = None

    @field_validator("key")
    @classmethod
    def _drop_unsaid_slots(cls, key: Key) -> Key:
        return {k: v for k, v in key.items() if v is not None}


class ClaimType(BaseModel):
    """A kind of fact: its key slots, value kind, comparator and realization templates.

    ``closed_world``: when the data holds a value for the claim's key and the claim
    states another, the claim is *contradicted* (the data is known complete for that
    key). In an open world it is only *unverifiable*.

    ``templates`` map a language to a ``str.format`` template over the key slots and
    ``value`` (the generic realizer uses them; domains may realize more fluently).
    ``choices`` lists the legal values of a categorical type (used to perturb).
    """

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    key_slots: tuple[str, ...] = ()
    value_kind: Literal["int", "float", "str", "bool", "list", "range"] = "str"
    comparator: Comparator = Field(default_factory=Exact)
    closed_world: bool = True
    templates: dict[str, str] = Field(default_factory=dict)
    choices: tuple[Scalar, ...] = ()

    def misfit(self, value: Any) -> str | None:
        """Why ``value`` is not of this type's declared ``value_kind``, or None when it is
        (or when the type left ``value_kind`` at its default: a plugin that never said
        what its values are is not held to "str"). Numbers must be finite."""
        if "value_kind" not in self.model_fields_set:
            return None
        return None if _VALUE_KINDS[self.value_kind](value) else f"{_KIND_WORDS[self.value_kind]} (value_kind {self.value_kind})"

    def unlisted(self, value: Any) -> str | None:
        """Why a fact's ``value`` (or a member of a list value) is not one of the declared
        ``choices``, or None. A value no realizer or perturbation knows (``cloudy`` with a
        zero-width space) crashed them far from the file (a KeyError)."""
        if not self.choices:
            return None
        members = value if isinstance(value, (list, tuple)) else [value]
        if all(isinstance(m, (list, tuple, dict)) or m in self.choices for m in members):
            return None
        shown = ", ".join(map(str, self.choices[:12])) + (", ..." if len(self.choices) > 12 else "")
        return f"one of its choices ({shown})"


def _finite_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


_VALUE_KINDS = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": _finite_number,
    "str": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "list": lambda v: isinstance(v, (list, tuple)),
    "range": lambda v: isinstance(v, (list, tuple)) and len(v) == 2 and all(_finite_number(x) for x in v),
}
_KIND_WORDS = {"int": "an integer", "float": "a finite number", "str": "a string", "bool": "true or false",
               "list": "a list", "range": "a two-number list [low, high]"}


class Instance(BaseModel):
    """One thing to explain: the prompt, the data given to the model, the complete oracle."""

    id: NonBlankStr
    domain: NonBlankStr
    task: NonBlankStr
    language: NonBlankStr
    prompt: str = ""
    context: dict[str, Any] = Field(default_factory=dict)
    facts: list[Fact] = Field(default_factory=list)
    split: str | None = None


class Generation(BaseModel):
    """A system's text for one instance.

    ``id`` and ``meta`` (any JSON) are the user's own: they are not scored, only passed
    through to claims.parquet and scores.parquet so results join with the user's labels.
    """

    instance_id: NonBlankStr
    system: NonBlankStr
    text: str
    language: str | None = None
    id: str | None = None
    meta: Any = None

    def held_chars(self) -> int:
        """What holding this generation costs, in characters: its text and the user's own
        ``id`` and ``meta``. The budgets that bound a run's memory (a chunk, the generations
        the canonical order holds) count this, not the text alone: a line may carry up to
        ``MAX_LINE_BYTES`` of ``meta`` beside an empty text."""
        held = len(self.text) + len(self.id or "")
        if self.meta is not None:
            held += len(json.dumps(self.meta, ensure_ascii=False, separators=(",", ":")))
        return held


class Verdict(BaseModel):
    """The verifier's judgement of one claim.

    ``fact`` is the fact that supports (or, when contradicted, that the claim is about);
    ``matches`` the ids of every fact the claim is true of (a claim with a partial key
    can be true of several); ``expected`` the data's value when contradicted.
    """

    model_config = ConfigDict(frozen=True)

    claim: Claim
    label: VerdictLabel
    fact: Fact | None = None
    matches: tuple[str, ...] = ()
    expected: Any = None
