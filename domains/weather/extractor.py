"""The ``weather-regex`` extractor: NWS phrasing and free phrasing, en/es/pt."""

from __future__ import annotations

from factcov.domains.weather.grammar import grammar
from factcov.extractor import Extractor
from factcov.extractors.claims import trusted_claim
from factcov.model import Claim, Instance

GRAMMAR_VERSION = "2"  # bump when a rule changes what is read: scores are comparable only within one


class WeatherRegexExtractor(Extractor):
    name = "weather-regex"
    description = "Regex grammars of forecast text (NWS and free phrasing) in en, es, pt; °C and km/h converted."
    domains = ("weather",)
    languages = ("en", "es", "pt")

    def __init__(self, language: str = "en", **options: object) -> None:
        super().__init__(language, **options)
        self._grammar = grammar(language)  # compiled once per language

    def signature(self) -> str:
        return f"{self.name}@{GRAMMAR_VERSION}"

    def extract(self, text: str, instance: Instance | None = None) -> list[Claim]:
        readings = sorted(self._grammar.read(text), key=lambda r: r.start)
        # trusted_claim: the grammar builds well-formed claims, and this is the hot path.
        name = self.name
        return [
            trusted_claim(r.type, r.key, r.value, (r.start, r.end), text[r.start:r.end], name)
            for r in readings
        ]
