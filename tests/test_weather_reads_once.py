"""The weather extractor reads each distinct text once (its claims depend on the text and
the language's grammar only): the same claims, a list of the caller's own, memory bounded."""

from __future__ import annotations

from factcov.domains.weather import extractor as weather_extractor
from factcov.domains.weather.extractor import WeatherRegexExtractor

TEXTS = ["Sunny, with a high near 50. North wind 5 to 10 mph.",
         "A 40 percent chance of rain. Cloudy, with a low around 31.",
         "Sunny, with a high near 50. North wind 5 to 10 mph."]


def test_a_text_met_again_is_not_read_again(monkeypatch):
    extractor = WeatherRegexExtractor("en")
    reads = []
    real = extractor._grammar.read

    class Counting:
        def read(self, text):
            reads.append(text)
            return real(text)

    monkeypatch.setattr(extractor, "_grammar", Counting())
    first = [extractor.extract(text) for text in TEXTS]
    again = [extractor.extract(text) for text in TEXTS]
    assert reads == TEXTS[:2]
    assert first == again and first[0] == first[2] and first[0]
    assert first[0] is not first[2]  # each caller its own list
    first[0].clear()
    assert extractor.extract(TEXTS[0]) == again[0]
    fresh = WeatherRegexExtractor("en")
    assert [fresh._read_claims(text) for text in TEXTS] == again  # what reading gives


def test_the_kept_texts_are_bounded(monkeypatch):
    monkeypatch.setattr(weather_extractor, "READ_CACHE_SIZE", 3)
    extractor = WeatherRegexExtractor("en")
    for number in range(10):
        extractor.extract(f"High near {number}.")
    assert len(extractor._read) == 3 and "High near 9." in extractor._read
