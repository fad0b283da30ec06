"""Models built and read past pydantic, for the hot paths: the one module that knows how.

A regex extractor reads a few claims from each of thousands of texts and the verifier
judges each one: ``Claim(...)`` and ``Verdict(...)`` validate every field, and
``model_construct`` walks every field's aliases and defaults; each was a large part of
a run (weather: a third of extraction, a fifth of verification). The builders here fill
the model's slots directly, from values already of their fields' types:

- ``trusted_claim``: the object ``Claim.model_construct(type=, key=, value=, span=, text=,
  extractor=)`` makes (same field values, same ``model_fields_set``), for a grammar that
  guarantees the types; anything read from a user's file goes through ``Claim``;
- ``unverifiable_verdict``, ``supported_verdict``, ``contradicted_verdict``: the object
  ``Verdict(...)`` makes with the same keywords, for the verifier (a ``Claim``, a ``Fact``
  of the knowledge, a tuple of fact ids);
- ``fields_of(model)``: a model's field values by name, the dict pydantic keeps them in
  (one attribute read, then dict reads, where each attribute read of a model goes through
  its ``__getattr__`` hook); the output columns read them so, and the verifier's and the
  scorer's per-claim loops read ``model.__dict__`` as it does, written out (a call per
  claim there was 3% of the f1 path's verification and scoring). That pydantic keeps the
  fields there is checked when this module is imported.

The fields a builder leaves unsaid come from the model itself (``Template``): a new field
with a default is built with its default, as ``model_construct`` and the constructor build
it. What the builders cannot make as pydantic would fails at import, naming the field: a
new field without a plain default (required, or a default factory), a validator or
``model_post_init`` on a model the builders stand in for, a model that is not frozen (the
builders share one fields set per kind, safe only because pydantic never changes a frozen
model's set in place). ``tests/test_trusted_models.py`` adds fields to Claim, Verdict and Fact.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any

from pydantic import BaseModel

from factcov.model import Claim, Fact, Value, Verdict

__all__ = ["Template", "contradicted_verdict", "fields_of", "supported_verdict", "trusted_claim",
           "unverifiable_verdict"]

# A model's field values by name: pydantic keeps them in the instance's __dict__ (checked below).
fields_of = attrgetter("__dict__")

_new = object.__new__
# The slots every pydantic model has, set through their own descriptors (``object.__setattr__``
# looks each one up in the class's MRO again on every call: a fifth of building a verdict).
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


class Template:
    """How to build ``model`` from values of its fields' types without pydantic: the fields in
    the model's order, those a builder does not write (every field but ``written``) at their
    defaults. Raises TypeError, naming the model and the field, where that would build an
    object pydantic would not (see the module's docstring); ``validated`` says the builders
    stand in for the constructor (which would run the model's validators), not ``model_construct``."""

    def __init__(self, model: type[BaseModel], written: Iterable[str], validated: bool = False) -> None:
        written = tuple(written)
        fields = model.model_fields
        problems = [f"{name} is written by the builders but is not a field" for name in written if name not in fields]
        for name, field in fields.items():
            if name not in written and (field.is_required() or field.default_factory is not None):
                problems.append(f"{name} has no plain default to build it with")
        if model.model_config.get("frozen") is not True:
            problems.append("it is not frozen (the builders share one fields set per kind)")
        if model.__pydantic_post_init__:
            problems.append("it has a model_post_init, which the builders would not run")
        if model.model_config.get("extra") == "allow":
            problems.append("it allows extra fields, which the builders would not keep")
        decorators = model.__pydantic_decorators__
        if validated and (decorators.field_validators or decorators.model_validators):
            problems.append("it has validators, which the builders would not run")
        if problems:
            raise TypeError(f"{model.__name__} cannot be built by factcov.trusted: {'; '.join(problems)}. "
                            "Give the field a default, or write it out in the builders of factcov/trusted.py")
        self.model = model
        # every field at its default (None in place of a default the builders always write over):
        # a build copies this dict and fills in what it writes
        self.unsaid = {name: None if field.is_required() or field.default_factory is not None else field.get_default()
                       for name, field in fields.items()}

    def build(self, values: dict[str, Any], fields_set: set[str]) -> Any:
        """The model with ``values`` over the defaults and ``fields_set`` as its ``model_fields_set``
        (the general form of the builders below, which write it out for speed)."""
        fields = self.unsaid.copy()
        fields.update(values)
        built = _new(self.model)
        _set_dict(built, fields)
        _set_fields_set(built, fields_set)
        _set_extra(built, None)
        _set_private(built, None)
        return built


_CLAIM = Template(Claim, ("type", "key", "value", "span", "text", "extractor"))
_VERDICT = Template(Verdict, ("claim", "label", "fact", "matches", "expected"), validated=True)
# Every trusted object of one kind has the same ``model_fields_set``: one set per kind, shared
# (a set per verdict was two fifths of a verdict's memory and one more object for the
# collector to walk while results are alive). Safe because the models are frozen: pydantic
# never changes the set of a frozen model in place (assignment and deletion are refused;
# ``model_copy(update=...)``, ``copy`` and ``deepcopy`` change a copy).
_CLAIM_FIELDS = {"type", "key", "value", "span", "text", "extractor"}
_UNVERIFIABLE_FIELDS = {"claim", "label"}
_SUPPORTED_FIELDS = {"claim", "label", "fact", "matches"}
_CONTRADICTED_FIELDS = {"claim", "label", "fact", "expected"}
# each build copies these (a copy and stores of values into found slots took ~300 fewer
# instructions than a dict literal of every field, which inserts each key)
_CLAIM_UNSAID = _CLAIM.unsaid
_VERDICT_UNSAID = _VERDICT.unsaid


def trusted_claim(
    type_: str, key: dict[str, Any], value: Value, span: tuple[int, int], text: str, extractor: str
) -> Claim:
    """``Claim.model_construct(type=..., key=..., value=..., span=..., text=..., extractor=...)``, faster."""
    fields = _CLAIM_UNSAID.copy()
    fields["type"] = type_
    fields["key"] = key
    fields["value"] = value
    fields["span"] = span
    fields["text"] = text
    fields["extractor"] = extractor
    claim = _new(Claim)
    _set_dict(claim, fields)
    _set_fields_set(claim, _CLAIM_FIELDS)
    _set_extra(claim, None)
    _set_private(claim, None)
    return claim


def unverifiable_verdict(claim: Claim) -> Verdict:
    """``Verdict(claim=claim, label="unverifiable")``, trusted."""
    fields = _VERDICT_UNSAID.copy()
    fields["claim"] = claim
    fields["label"] = "unverifiable"
    verdict = _new(Verdict)
    _set_dict(verdict, fields)
    _set_fields_set(verdict, _UNVERIFIABLE_FIELDS)
    _set_extra(verdict, None)
    _set_private(verdict, None)
    return verdict


def supported_verdict(claim: Claim, fact: Fact, matches: tuple[str, ...]) -> Verdict:
    """``Verdict(claim=claim, label="supported", fact=fact, matches=matches)``, trusted."""
    fields = _VERDICT_UNSAID.copy()
    fields["claim"] = claim
    fields["label"] = "supported"
    fields["fact"] = fact
    fields["matches"] = matches
    verdict = _new(Verdict)
    _set_dict(verdict, fields)
    _set_fields_set(verdict, _SUPPORTED_FIELDS)
    _set_extra(verdict, None)
    _set_private(verdict, None)
    return verdict


def contradicted_verdict(claim: Claim, fact: Fact, expected: Any) -> Verdict:
    """``Verdict(claim=claim, label="contradicted", fact=fact, expected=expected)``, trusted."""
    fields = _VERDICT_UNSAID.copy()
    fields["claim"] = claim
    fields["label"] = "contradicted"
    fields["fact"] = fact
    fields["expected"] = expected
    verdict = _new(Verdict)
    _set_dict(verdict, fields)
    _set_fields_set(verdict, _CONTRADICTED_FIELDS)
    _set_extra(verdict, None)
    _set_private(verdict, None)
    return verdict


def _check_fields_are_kept_in_the_instance_dict() -> None:
    """``fields_of`` and the builders rely on pydantic keeping a model's fields in its __dict__."""
    claim = Claim(type="t", key={"k": "v"}, value=1)
    fact = Fact(type="t", value=1)
    verdict = Verdict(claim=claim, label="supported", fact=fact)
    for model in (claim, fact, verdict):
        kept = fields_of(model)
        if any(kept.get(name, kept) is not getattr(model, name) for name in type(model).model_fields):
            raise TypeError(f"pydantic no longer keeps {type(model).__name__}'s fields in its __dict__: "
                            "factcov/trusted.py needs another way to read and build models")


_check_fields_are_kept_in_the_instance_dict()
