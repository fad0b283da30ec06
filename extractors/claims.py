"""Claims built from values an extractor made well-formed itself, without validation.

``trusted_claim(type_, key, value, span, text, extractor)`` is the object
``Claim.model_construct`` makes (same field values, same ``model_fields_set``), in a fifth
of the time: for a regex extractor that reads a few claims from each of thousands of texts,
validation was a large part of the run (weather: a third of extraction). Use it only where
the grammar guarantees the types (a str type, a key of scalars without None, a span inside
the text); anything read from a user's file goes through ``Claim``. It is built in
``factcov.trusted``, the one module that builds and reads models past pydantic.
"""

from __future__ import annotations

from factcov.trusted import trusted_claim

__all__ = ["trusted_claim"]
