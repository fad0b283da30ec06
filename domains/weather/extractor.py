"""The ``weather-regex`` extractor: NWS phrasing and free phrasing, en/es/pt."""

from __future__ import annotations

import gc
from operator import itemgetter

from factcov.domains.weather.grammar import grammar
from factcov.extractor import Extractor
from factcov.extractors.claims import trusted_claim
from factcov.model import Claim, Instance

_START = itemgetter(3)  # Reading.start
READ_CACHE_SIZE = 4096  # distinct texts whose claims are kept
GRAMMAR_VERSION = "4"  # bump when a rule changes what is read: scores are comparable only within one


class WeatherRegexExtractor(Extractor):
    name = "weather-regex"
    description = "Regex grammars of forecast text (NWS and free phrasing) in en, es, pt; °C and km/h converted."
    domains = ("weather",)
    languages = ("en", "es", "pt")
    prebuild = True  # a compiled grammar, no model: --jobs builds it once, before forking
    deterministic = True  # a text's claims depend on the text only: its repeats are scored without reading

    def __init__(self, language: str = "en", **options: object) -> None:
        super().__init__(language, **options)
        self._grammar = grammar(language)  # compiled once per language
        # text -> its claims: what is read depends on the text and this language's grammar
        # only (not on the instance), and forecasts repeat (NWS's periods share whole texts,
        # systems agree on short ones): each distinct text is read once
        self._read: dict[str, list[Claim]] = {}

    def signature(self) -> str:
        return f"{self.name}@{GRAMMAR_VERSION}"

    def extract(self, text: str, instance: Instance | None = None) -> list[Claim]:
        # A text of numbers with units reads a claim every few characters (140,000 in 1 MB of
        # "12 mph"), each a few container objects, and the cyclic collector walked them all
        # again and again as they piled up: 1.7 s per MB, 1.0 s with it paused while one text
        # is read. What is read holds no cycle (readings, keys, claims): it is freed by its
        # counts as before, and a cycle made meanwhile is left for the collector's next pass.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._claims(text)
        finally:
            if collecting:
                gc.enable()

    def _claims(self, text: str) -> list[Claim]:
        claims = self._read.get(text)
        if claims is None:
            if len(self._read) >= READ_CACHE_SIZE:  # the oldest out: memory stays bounded
                del self._read[next(iter(self._read))]
            claims = self._read[text] = self._read_claims(text)
        return list(claims)  # a list of the caller's own (the claims themselves are frozen)

    def _read_claims(self, text: str) -> list[Claim]:
        readings = self._grammar.read(text)
        readings.sort(key=_START)
        # trusted_claim: the grammar builds well-formed claims, and this is the hot path.
        name = self.name
        return [
            trusted_claim(type_, key, value, (start, end), text[start:end], name)
            for type_, key, value, start, end in readings
        ]
