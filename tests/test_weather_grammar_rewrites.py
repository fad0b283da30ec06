"""The weather grammar's patterns are written so that re can search for their first
character (docs/domains/weather.md, "Where the time goes"); each rewrite must match
exactly what the plain form matches: same spans, same groups, on real NWS texts, the
realizer's texts in three languages and hostile ones."""

from __future__ import annotations

import itertools
import re

import pytest

from factcov.domains.weather.grammar import _MAX_OR_MIN, _PERCENT_N, _high_or_low, grammar
from factcov.domains.weather.oracle import relevant_facts
from factcov.domains.weather.periods import iter_file_periods
from factcov.domains.weather.realizer import realize
from factcov.domains.weather.vocabulary import (
    alternation,
    direction_words,
    grouped_by_first_letter,
    sky_words,
    word_alternation,
)
from factcov.language import fold

HOSTILE = [
    "northwest winds; a north-east breeze; NNE wind 5 mph; westerly, southerly winds; bnorth wind",
    "Máxima de 30 °F; temperaturas mínimas de -2 °C; maximas; tmaxima de 5; temperatura max 40",
    "1.5% 10,20% 7% humidity 80% humedad 80 % umidade de 80% 100 percent 1000 % ٣٠ percent",
    "partly cloudy to mostly sunny; mostly; parcialmente nublado o despejado; nubladoo; xsunny",
    "headwinds 10 mph, crosswind 5 mph, nogusts 30 mph, renew snow amounts, unfair chance, viventos del norte",
    "wind\nnorth wind 10-20 mph 5 to 10 km/h 12345678901234567 mph " + "n" * 500 + " s",
]


@pytest.fixture(scope="module")
def texts(shared_data):
    path = shared_data / "weather" / "nws_forecast_responses_sample.jsonl.gz"
    periods = [p for p in itertools.islice(iter_file_periods(path), 400) if p.detailed_forecast]
    found = {lang: [fold(t) for t in HOSTILE] for lang in ("en", "es", "pt")}
    for period in periods:
        found["en"].append(fold(period.detailed_forecast))
        for lang in found:
            found[lang].append(fold(realize(relevant_facts(period), lang)))
    return found


def _matches(pattern: str | re.Pattern[str], texts: list[str], groups: bool = True) -> list:
    compiled = re.compile(pattern) if isinstance(pattern, str) else pattern
    return [[(m.span(), m.groupdict() if groups else None) for m in compiled.finditer(t)] for t in texts]


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_every_rule_compiled_matches_what_its_pattern_as_written_matches(language, texts):
    rules = grammar(language)
    assert len(rules.sources) == len(rules.rules)
    rewritten = 0
    for source, (compiled, _, _) in zip(rules.sources, rules.rules):
        rewritten += compiled.pattern != source
        assert _matches(compiled, texts[language]) == _matches(source, texts[language]), source[:80]
    assert rewritten >= 6  # "\bwinds?" and the like start with their first letter


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_words_grouped_by_first_letter_match_as_the_plain_alternation(language, texts):
    for words in (direction_words(language), sky_words(language)):
        plain = rf"\b(?P<w>{alternation(words)})\b"
        assert _matches(rf"(?P<w>{word_alternation(words)})\b", texts[language]) == _matches(plain, texts[language])
    mixed = ["partly cloudy", "partly", "mostly", "mostly sunny"]
    assert _matches(rf"(?P<w>{grouped_by_first_letter(mixed)})", texts["en"]) == _matches(
        rf"\b(?P<w>{'|'.join(mixed)})", texts["en"])


def test_max_or_min_and_percent_rewrites(texts):
    plain_kind = r"\b(?:temperaturas? )?(?P<kind>maximas?|minimas?|max|min)"
    for language in ("es", "pt"):
        fast, plain = re.compile(_MAX_OR_MIN), re.compile(plain_kind)
        for text in texts[language]:
            got, want = list(fast.finditer(text)), list(plain.finditer(text))
            assert [m.span() for m in got] == [m.span() for m in want]
            assert [_high_or_low(m.group("kind")) for m in got] == [
                "high" if m.group("kind").startswith("max") else "low" for m in want]
    everything = [t for lang in texts.values() for t in lang]
    assert _matches(_PERCENT_N, everything) == _matches(r"(?<![\d.,])(?P<n>\d{1,3})", everything)
