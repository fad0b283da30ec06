"""Numbers read as each language writes them (issue 29): thousands and decimal separators."""

from __future__ import annotations

import re

import pytest

from factcov.extractors.patterns import Lexicon, TableExtractor
from factcov.language import fold, number_pattern, parse_number
from factcov.model import Instance

# (text, language, value): the forms a model writes in English, Spanish and Portuguese
FORMS = [
    ("18,432", "en", 18432), ("18.432", "es", 18432), ("18.432", "pt", 18432),
    ("18 432", "en", 18432), ("18 432", "es", 18432), ("18\u202f432", "pt", 18432), ("18\u00a0432", "es", 18432),
    ("1.5", "en", 1.5), ("1,5", "es", 1.5), ("1,5", "pt", 1.5),
    ("1,234,567", "en", 1234567), ("1.234.567", "es", 1234567), ("1 234 567", "pt", 1234567),
    ("1,234.5", "en", 1234.5), ("1.234,5", "es", 1234.5), ("1.234,5", "pt", 1234.5),
    ("0.25", "en", 0.25), ("0,25", "pt", 0.25),
    # a separator not followed by three digits is no thousands group: the other decimal mark
    ("1,5", "en", 1.5), ("2.5", "es", 2.5), ("2.75", "pt", 2.75),
    # nor is a leading 0: a gap of 0.345 s written the English way in Spanish
    ("0.345", "es", 0.345), ("0,345", "en", 0.345),
    ("13", "en", 13), ("thirteen", "en", 13), ("trece", "es", 13), ("treze", "pt", 13),
]


@pytest.mark.parametrize(("text", "language", "value"), FORMS)
def test_parse_number_reads_separators_as_the_language_writes_them(text, language, value):
    parsed = parse_number(text, language)
    assert parsed == value and type(parsed) is type(value), (text, language, parsed)


@pytest.mark.parametrize(("text", "language"), [
    ("1.2.3", "en"), ("12,34.5", "en"), ("1,234,56", "en"), ("1.23.456", "es"), ("12 34", "en"), ("1,2,3", "pt"),
])
def test_parse_number_refuses_what_no_language_writes(text, language):
    assert parse_number(text, language) is None


@pytest.mark.parametrize(("text", "language", "number"), [
    ("there were 18,432 fans", "en", "18,432"), ("hubo 18.432 aficionados", "es", "18.432"),
    ("foram 18 432 pessoas", "pt", "18 432"), ("1,234,567.5 tonnes", "en", "1,234,567.5"),
    ("a 1,5 grados", "es", "1,5"), ("laps 12, 345 and 3", "en", "12"),
])
def test_number_pattern_takes_a_grouped_number_whole(text, language, number):
    assert re.findall(number_pattern(language), fold(text))[0] == number


class _Crowd(TableExtractor):
    name = "crowd"
    patterns = {"attendance": (r"(?P<stadium>{stadium}) \S+ (?P<number>{number}) (?:fans|aficionados|pessoas)",)}
    entity_slot = "stadium"

    def lexicon(self, instance):
        return Lexicon({"wembley": "wembley"})

    def read(self, claim_type, match, entity):
        return {}, parse_number(match["number"], self.language)


@pytest.mark.parametrize(("text", "language"), [
    ("Wembley drew 18,432 fans.", "en"), ("Wembley reunió 18.432 aficionados.", "es"),
    ("Wembley recebeu 18 432 pessoas.", "pt"),
])
def test_a_number_slot_gives_the_count_in_every_language(text, language):
    """The bug a user met: a count read through ``{number}`` came out as 18.432."""
    instance = Instance(id="x", domain="crowd", task="t", language=language, prompt="", context={}, facts=[])
    claims = _Crowd(language=language).extract(text, instance)
    assert [c.value for c in claims] == [18432]


@pytest.mark.parametrize(("text", "language", "value"), [
    ("1.534", "es", 1.534),    # a model writing English decimals in Spanish: 1534 s is no gain in a pit window
    ("12.345", "pt", 12.345),
    ("1,534", "en", 1.534),    # and the other way round
    ("1,5", "es", 1.5),        # the language's own way stays as it was
    ("3.2", "en", 3.2),
    ("18", "es", 18),
    ("1.500", "es", 1.5),      # either reading is a number; only the one under the ceiling is plausible
    ("2.500.000", "es", 2500000),  # no reading under the ceiling: the language's own
])
def test_parse_amount_takes_the_other_convention_when_only_it_is_plausible(text, language, value):
    from factcov.language import parse_amount

    assert parse_amount(text, language, below=100) == value
