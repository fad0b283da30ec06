"""``PatternRules`` (factcov.extractors.rules): gates derived from the patterns, never listed.

A rule's gate must be open on every text its pattern matches (else a spelling the pattern
accepts is never read: issue 28's "kilometros por hora"), and the one-scan ``opened`` must
say what the plain substring tests say (``opened_plainly``), overlapping needles included."""

from __future__ import annotations

import random
import re

import pytest

from factcov.domains.weather.grammar import grammar
from factcov.extractors.rules import PatternRules, derived_gates
from factcov.language import fold
from tests.test_weather_speed_units import CASES


def _open_rows(rules: PatternRules, text: str) -> list[bool]:
    opened = rules.opened(text)
    return [opened & gate == gate for _pattern, _action, gate in rules]


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_every_rule_that_matches_a_text_is_open_on_it(language):
    rules = grammar(language).rules
    texts = [fold(text) for lang, text, _ in CASES if lang == language]
    texts += [fold(text) for text in ("Vientos de 10 a 15 kilómetros por hora", "vento calmo", "winds 5 mph from the north",
                                      "20 km/h del norte", "15 km/h vindos do sul", "rain and snow showers, 40 per cent")]
    for text in texts:
        for (pattern, _action, _gate), is_open in zip(rules, _open_rows(rules, text)):
            assert is_open or pattern.search(text) is None, (pattern.pattern[:60], text)


def test_the_speed_units_spelled_out_open_the_speed_rules():
    for language, unit in (("es", "kilometros por hora"), ("pt", "quilometros por hora"), ("en", "kilometers per hour")):
        rules = grammar(language).rules
        speed = [row for row in rules if "(?P<u>" in row[0].pattern and row[0].pattern.startswith("(?P<a>")]
        text = f"vientos de 10 a 15 {unit}"
        assert speed and all(rules.opened(text) & gate == gate for _p, _a, gate in speed)


def test_the_one_scan_says_what_the_substring_tests_say():
    rules = PatternRules()
    for source in (r"\bice (?:accumulation|total)", r"\b(?:total )?accumulations?\b", r"\bwind chills? (\d+)",
                   r"\bwinds? (\d+) mph", r"(?:(?<=mph )|(?<=km/h ))from the (north|south)", r"\d+ ?(?:%|per cent)"):
        rules.add(re.compile(source), None)
    rules.seal()
    words = ["ice", "accumulation", "total", "wind", "chill", "winds", "mph", "km/h", "from", "the", "north",
             "per", "cent", "%", "12", "a", "ice accumulation", "wind chill"]
    generator = random.Random(28)
    for _ in range(2000):
        text = " ".join(generator.choice(words) for _ in range(generator.randint(1, 8)))
        assert rules.opened(text) == rules.opened_plainly(text), text


def test_a_pattern_without_a_literal_is_never_gated():
    assert derived_gates(re.compile(r"\d+")) == ()
    assert derived_gates(re.compile(r"(?i)wind")) == ()
