"""factcov.extractors.patterns: the building blocks a slot-style extractor is made of."""

from __future__ import annotations

import random
import re

import pytest

from factcov.extractors.patterns import (
    Lexicon,
    SpanMask,
    TableExtractor,
    compile_table,
    dedupe,
    negated,
    number_slots,
    parse_number,
    parse_ordinal,
)
from factcov.language import fold
from factcov.model import Claim, Instance

DRIVERS = Lexicon({"max verstappen": "VER", "verstappen": "VER", "perez": "PER", "sergio perez": "PER"},
                  written={"VER", "PER", "HAM"})


def test_lexicon_prefers_the_longest_name_and_reads_codes_only_in_capitals():
    text = "Max Verstappen beat Sergio Pérez; HAM was third, per the timing."
    found = list(DRIVERS.find(fold(text), text))
    assert [value for value, _ in found] == ["VER", "PER", "HAM"]
    assert [text[a:b] for _, (a, b) in found] == ["Max Verstappen", "Sergio Pérez", "HAM"]


def test_lexicon_matches_names_across_line_breaks():
    text = "Max\nVerstappen"
    assert [v for v, _ in DRIVERS.find(fold(text), text)] == ["VER"]


def test_compile_table_fills_slots_and_any_whitespace():
    grammar = compile_table({"pole": (r"(?P<driver>{driver}) took pole",)}, {"driver": DRIVERS.pattern})
    (pattern,) = grammar["pole"]
    assert pattern.search(fold("Max  Verstappen\ttook pole"))
    assert compile_table({"pole": (r"(?P<driver>{driver}) took pole",)}, {"driver": DRIVERS.pattern}) is grammar


def test_span_mask_reads_each_stretch_once():
    mask = SpanMask()
    assert mask.take((0, 10)) and not mask.take((5, 12)) and mask.take((10, 12))
    assert mask.spans == [(0, 10), (10, 12)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Hamilton did not reach Q3", True),
    ("Hamilton failed to reach Q3", True),
    ("Hamilton never looked like reaching Q3", True),
    ("Hamilton reached Q3", False),
    ("Not fast enough, Russell struggled; Hamilton reached Q3", False),  # another clause
    ("Norris wasn't quick, but Hamilton reached Q3", False),
])
def test_negation_cues_in_the_clause_before_a_match(text, expected):
    folded = fold(text)
    assert negated(folded, folded.index("reach")) is expected


def test_negation_in_spanish_and_portuguese():
    assert negated(fold("Hamilton no llegó a la Q3"), fold("Hamilton no llegó a la Q3").index("lleg"), "es")
    assert negated(fold("Hamilton não chegou ao Q3"), fold("Hamilton não chegou ao Q3").index("cheg"), "pt")


def test_number_words_in_three_languages():
    slots = number_slots("es")
    assert re.fullmatch(slots["number"], "tres") and re.fullmatch(slots["ordinal"], "tercero")
    assert parse_number("three", "en") == 3 and parse_number("dos", "es") == 2
    assert parse_ordinal("seventh", "en") == 7 and parse_ordinal("4th", "en") == 4


def test_dedupe_keeps_one_of_overlapping_identical_claims_in_text_order():
    a = Claim(type="pole", key={}, value="VER", span=(0, 20), text="x", extractor="t")
    b = Claim(type="pole", key={}, value="VER", span=(5, 25), text="x", extractor="t")
    c = Claim(type="pole", key={}, value="VER", span=(30, 40), text="x", extractor="t")
    d = Claim(type="pole", key={}, value="PER", span=(5, 25), text="x", extractor="t")
    assert dedupe([c, b, d, a]) == [a, d, c]


def _dedupe_by_scanning(claims):
    """``dedupe`` as first written: each claim compared with every claim kept (quadratic)."""
    kept = []
    for claim in sorted(claims, key=lambda c: (c.span or (0, 0), c.type, str(c.key), str(c.value))):
        span = claim.span or (0, 0)
        if not any((c.type, c.key, c.value) == (claim.type, claim.key, claim.value)
                   and (c.span or (0, 0))[0] < span[1] and span[0] < (c.span or (0, 0))[1] for c in kept):
            kept.append(claim)
    return kept


def test_dedupe_keeps_what_comparing_with_every_kept_claim_keeps():
    """Equal values of other types (1, 1.0, True), lists, empty spans and no span at all."""
    rng = random.Random(7)
    values = [1, 1.0, True, "VER", [1, 2], [1.0, 2], None, 2]
    for _ in range(3000):
        claims = []
        for _ in range(rng.randint(0, 12)):
            start = rng.randint(0, 10)
            span = None if rng.random() < 0.1 else (start, start + rng.choice([0, 0, 1, 2, 5]))
            claims.append(Claim(type=rng.choice(["pole", "place"]), key={"driver": rng.choice([1, 1.0, "VER"])},
                                value=rng.choice(values), span=span))
        assert [id(c) for c in dedupe(claims)] == [id(c) for c in _dedupe_by_scanning(claims)], claims


class Toy(TableExtractor):
    name = "toy"
    patterns = {
        "stops": (r"(?P<driver>{driver}) (?:made|stopped) (?P<number>{number}) (?:stops|times)",),
        "out": (r"(?P<drivers>{driver}(?:,? and {driver})*) (?:were|was) out",),
    }
    entity_slot = "driver"

    def lexicon(self, instance):
        return DRIVERS

    def read(self, claim_type, match, driver):
        if claim_type == "stops":
            return {"driver": driver}, parse_number(match["number"], self.language)
        return {"driver": driver}, True


def test_a_table_extractor_is_patterns_and_a_read_function():
    instance = Instance(id="x", domain="toy", task="t", language="en", prompt="", context={}, facts=[])
    text = "Verstappen made two stops. Pérez and HAM were out."
    claims = Toy().extract(text, instance)
    # in text order; claims of one phrase (same span) by key
    assert [(c.type, c.key["driver"], c.value) for c in claims] == [
        ("stops", "VER", 2), ("out", "HAM", True), ("out", "PER", True)]
    assert all(text[c.span[0]:c.span[1]] == c.text for c in claims)


def test_alternation_matches_what_the_sorted_alternation_matches():
    """The trie finds the same matches (spans and groups) as the plain alternation of
    the words longest first, on random words and texts, inside patterns that backtrack."""
    import random

    from factcov.extractors.patterns import alternation

    rng = random.Random(10)
    compared = 0
    for _ in range(300):
        words = {"".join(rng.choice("ab c") for _ in range(rng.randint(1, 5))).strip() or "a" for _ in range(rng.randint(1, 8))}
        plain = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))
        for shape in (r"\b(?:{})\b", r"(?P<w>{})c?b", r"(?:{})+\s(?:{})"):
            before = re.compile(shape.replace("{}", plain))
            after = re.compile(shape.replace("{}", alternation(words)))
            for _ in range(8):
                text = "".join(rng.choice("ab c  ") for _ in range(rng.randint(0, 30)))
                assert [(m.span(), m.groups()) for m in before.finditer(text)] == [
                    (m.span(), m.groups()) for m in after.finditer(text)], (words, shape, text)
                compared += 1
    assert compared == 300 * 3 * 8


def test_the_flat_alternation_is_what_the_grammars_wrote_before():
    """factcov.language.alternation(trie=False) is the one builder of the number and ordinal words
    and weather's vocabulary: the same expressions the three builders wrote side by side."""
    from factcov.domains.weather.vocabulary import alternation as weather_alternation
    from factcov.domains.weather.vocabulary import condition_words, direction_words
    from factcov.language import LANGUAGES, alternation, number_words, ordinal_words

    for language in LANGUAGES:
        for words in (number_words(language), ordinal_words(language)):
            assert alternation(words, trie=False) == "|".join(
                re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))
        for words in (direction_words(language), condition_words(language)):
            assert weather_alternation(words) == "|".join(
                re.escape(w).replace(r"\ ", r"[\s-]+").replace(r"\-", r"[\s-]?")
                for w in sorted(words, key=len, reverse=True))
    assert "north[\\s-]?east" in weather_alternation(["north-east"])
    with pytest.raises(ValueError, match="flat form"):
        alternation(["north-east"], hyphen=r"[\s-]?")


def test_claim_set_keeps_the_first_reading_of_a_claim():
    from factcov.extractors.patterns import ClaimSet

    text = "Hamilton pitted on lap 13, on lap 13 exactly; lap 13 again."
    claims = ClaimSet(text, "demo")
    assert claims.add("pit_lap", {"driver": "HAM"}, 13, 9, 25)
    assert not claims.add("pit_lap", {"driver": "HAM"}, 13, 20, 36)  # overlapping words: the same reading
    assert claims.add("pit_lap", {"driver": "HAM"}, 13, 46, 52)  # read again elsewhere: kept
    assert claims.add("pit_lap", {"driver": "HAM"}, 13.0, 20, 36)  # 13.0 is another value than 13
    assert claims.add("stop_count", {"driver": "HAM"}, 1, 0, 8)
    assert [c.span for c in claims.claims] == [(9, 25), (46, 52), (20, 36), (0, 8)]  # reading order
    assert [c.span for c in claims.in_text_order()] == [(0, 8), (9, 25), (20, 36), (46, 52)]
    assert claims.claims[0].text == text[9:25] and claims.claims[0].extractor == "demo"


def test_claim_set_keeps_what_a_signature_of_sorted_key_items_keeps():
    """``ClaimSet.add`` knows a claim by its key as a set of items: it keeps exactly what
    the sorted items kept, keys given in any order, values of mixed types included
    (1, 1.0 and True are one key value, as dicts compare them)."""
    import random

    from factcov.extractors.patterns import ClaimSet
    from factcov.extractors.spans import SpanSet

    rng = random.Random(4)
    values = [1, 1.0, True, 2, "1", "hard", 0.5, False, 0]
    kept = 0
    for _ in range(300):
        text = "x" * 60
        claims, plain = ClaimSet(text, "demo"), {}
        for _ in range(rng.randint(1, 12)):
            slots = rng.sample(["driver", "stop", "stint", "lap"], rng.randint(0, 3))
            key = {slot: rng.choice(values) for slot in slots}
            value = rng.choice(values)
            start = rng.randrange(50)
            end = start + rng.randint(1, 10)
            signature = ("t", tuple(sorted(key.items())), repr(value))  # the plain way
            spans = plain.setdefault(signature, SpanSet())
            assert claims.add("t", key, value, start, end) == spans.add(start, end), (key, value)
        kept += len(claims.claims)
    assert kept > 1000
