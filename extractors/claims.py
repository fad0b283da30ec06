"""Claims built from values an extractor made well-formed itself, without validation.

``Claim(...)`` validates every field and ``Claim.model_construct`` walks every field's
aliases and defaults; for a regex extractor that reads a few claims from each of
thousands of texts either is a large part of the run (weather: a third of extraction).
``trusted_claim`` fills the model's fields directly: the same object ``model_construct``
makes (same field values, same ``model_fields_set``), in a fifth of the time.
Use it only where the grammar guarantees the types (a str type, a key of scalars without
None, a span inside the text); anything read from a user's file goes through ``Claim``.
"""

from __future__ import annotations

from typing import Any

from factcov.model import Claim, Value, set_model_dict, set_model_extra, set_model_fields_set, set_model_private

_new = object.__new__
_FIELDS = ("type", "key", "value", "span", "text", "extractor", "statement_span", "out_of_scope")
# The fields are written out below. Should Claim's fields change, the model's own
# constructor serves until they are written out again (tests/test_extractor_fast_blocks.py
# fails meanwhile).
FAST = (
    tuple(Claim.model_fields) == _FIELDS
    and all(Claim.model_fields[name].get_default() is None for name in _FIELDS[6:])
    and not Claim.__pydantic_post_init__
    and Claim.model_config.get("frozen") is True  # what sharing _SET_FIELDS relies on
)

# One ``model_fields_set`` for every trusted claim, shared like a trusted verdict's (see
# ``factcov.model``: safe because ``Claim`` is frozen, so pydantic only changes copies).
_SET_FIELDS = {"type", "key", "value", "span", "text", "extractor"}
# A trusted claim's fields in the model's order, those it leaves unsaid at their defaults:
# each claim's dict is a copy filled in (a copy and six stores of values into found slots
# took ~300 fewer instructions than a dict literal of the eight, which inserts each key)
_UNSAID = dict.fromkeys(_FIELDS)


def trusted_claim(
    type_: str, key: dict[str, Any], value: Value, span: tuple[int, int], text: str, extractor: str
) -> Claim:
    """``Claim.model_construct(type=..., key=..., value=..., span=..., text=..., extractor=...)``, faster."""
    fields = _UNSAID.copy()
    fields["type"] = type_
    fields["key"] = key
    fields["value"] = value
    fields["span"] = span
    fields["text"] = text
    fields["extractor"] = extractor
    claim = _new(Claim)
    set_model_dict(claim, fields)
    set_model_fields_set(claim, _SET_FIELDS)
    set_model_extra(claim, None)
    set_model_private(claim, None)
    return claim


if not FAST:

    def trusted_claim(  # noqa: F811 - the safe build for a Claim this module does not know
        type_: str, key: dict[str, Any], value: Value, span: tuple[int, int], text: str, extractor: str
    ) -> Claim:
        return Claim.model_construct(type=type_, key=key, value=value, span=span, text=text, extractor=extractor)
