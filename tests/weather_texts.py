"""Reading hand-written weather texts against the claims each makes: shared by the test files
of model-style texts (speed units, number separators)."""

from __future__ import annotations

from collections.abc import Iterable

from factcov.domains.weather.grammar import read_claims

# (language, text, {(claim type[:key values], value)})
Case = tuple[str, str, set[tuple]]


def claims_read(language: str, text: str) -> set[tuple]:
    """Each claim the grammar reads in ``text``, as ``(type[:key values], value)``."""
    found = set()
    for reading in read_claims(text, language):
        value = tuple(reading.value) if isinstance(reading.value, list) else reading.value
        key = ":".join(str(v) for v in reading.key.values())
        found.add((reading.type + (f":{key}" if key else ""), value))
    return found


def counts(cases: Iterable[Case]) -> tuple[int, int, int]:
    """(claims read right, claims read, claims expected) over ``cases``: P and R."""
    correct = read = expected = 0
    for language, text, claims in cases:
        found = claims_read(language, text)
        correct, read, expected = correct + len(found & claims), read + len(found), expected + len(claims)
    return correct, read, expected
