"""Claims built from values an extractor made well-formed itself, without validation.

``Claim(...)`` validates every field and ``Claim.model_construct`` walks every field's
aliases and defaults; for a regex extractor that reads a few claims from each of
thousands of texts either is a large part of the run (weather: a third of extraction).
``trusted_claim`` fills the model's fields directly: the same object ``model_construct``
makes (same field values, same ``model_fields_set``), a dict copy instead of a walk.
Use it only where the grammar guarantees the types (a str type, a key of scalars without
None, a span inside the text); anything read from a user's file goes through ``Claim``.
"""

from __future__ import annotations

from typing import Any

from factcov.model import Claim, Value

# Every field with its default, in the model's order: a field added to Claim later is
# filled with its default here too (a required field without one fails at import).
_DEFAULTS: dict[str, Any] = {
    name: field.get_default(call_default_factory=True) if not field.is_required() else None
    for name, field in Claim.model_fields.items()
}
_UNFILLED = {n for n, f in Claim.model_fields.items() if f.is_required()} - {"type", "value"}
if _UNFILLED or Claim.__pydantic_post_init__:
    raise TypeError(f"trusted_claim cannot build a Claim with required fields {_UNFILLED} or a post-init")
_new = object.__new__
_set = object.__setattr__


def trusted_claim(
    type_: str, key: dict[str, Any], value: Value, span: tuple[int, int], text: str, extractor: str
) -> Claim:
    """``Claim.model_construct(type=..., key=..., value=..., span=..., text=..., extractor=...)``, faster."""
    claim = _new(Claim)
    fields = _DEFAULTS.copy()
    fields["type"] = type_
    fields["key"] = key
    fields["value"] = value
    fields["span"] = span
    fields["text"] = text
    fields["extractor"] = extractor
    _set(claim, "__dict__", fields)
    _set(claim, "__pydantic_fields_set__", {"type", "key", "value", "span", "text", "extractor"})
    _set(claim, "__pydantic_extra__", None)
    _set(claim, "__pydantic_private__", None)
    return claim
