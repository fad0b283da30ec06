"""The rag domain's extractors: entity and relation claims, parsed by spaCy or stanza.

Parsing and claim building are separate steps so a caller that needs several texts per
answer (reference, answer, passages) parses them all in one batch and builds claims
afterwards: each text is parsed once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

# -X checker=llm and its server: the checker and its model are signed, where and how fast it runs not
from factcov.domains.rag.checker import OPTION_TYPES as CHECKER_OPTIONS
from factcov.domains.rag.checker import UNSIGNED_OPTIONS as CHECKER_UNSIGNED
from factcov.domains.rag.claims import InstanceIndex, extract_claims
from factcov.errors import InputError
from factcov.extractor import Extractor
from factcov.extractors.normalize import fold_aliases
from factcov.extractors.parsed import ParsedText
from factcov.model import Claim, Fact, Instance

INDEX_CACHE_SIZE = 4096  # instances whose index is kept (a run's chunk holds fewer)


class RagExtractor(Extractor):
    """Shared logic; subclasses say how to build their parser."""

    domains: ClassVar[tuple[str, ...]] = ("rag",)
    languages: ClassVar[tuple[str, ...]] = ("en",)

    def __init__(self, language: str = "en", aliases: Mapping[str, str] | None = None, **options: Any) -> None:
        super().__init__(language, **options)
        self.aliases = fold_aliases(aliases)
        self._parser: Any = None
        self.recent_parses: dict[str, ParsedText] = {}
        self.reference_parses: dict[str, ParsedText] = {}  # the references of the last instances built
        self._indexes: dict[int, tuple[Instance, InstanceIndex]] = {}
        self._by_content: dict[tuple[Any, ...], InstanceIndex] = {}
        self._claims: OrderedDict[tuple[int, int], tuple[ParsedText, InstanceIndex, list[Claim]]] = OrderedDict()

    @property
    def parser(self) -> Any:
        if self._parser is None:
            self._parser = self.build_parser()
        return self._parser

    def build_parser(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse(self, texts: Sequence[str]) -> list[ParsedText]:
        return self.parser.parse(list(texts))

    def iter_parse(self, texts: Iterable[str]) -> Iterator[ParsedText]:
        """``parse`` one text at a time where the parser streams (spaCy), so a long run
        does not keep every parse alive; a parser that cannot stream parses all at once."""
        streaming = getattr(self.parser, "iter_parse", None)
        return streaming(texts) if streaming is not None else iter(self.parser.parse(list(texts)))

    def index(self, instance: Instance | None) -> InstanceIndex:
        if instance is None:
            return self._index_of((), None)
        # Many texts answer one instance (16 systems per WebNLG entry; a reference and
        # passages beside an answer): its index is built once. Keyed by identity, and the
        # entry holds the instance, so an id is never reused while cached.
        cached = self._indexes.get(id(instance))
        if cached is not None and cached[0] is instance:
            return cached[1]
        if len(self._indexes) >= INDEX_CACHE_SIZE:
            self._indexes.clear()
        index = self._index_of(instance.facts, instance.context.get("surfaces"))
        self._indexes[id(instance)] = (instance, index)
        return index

    def _index_of(self, facts: Sequence[Fact], surfaces: Mapping[str, str] | None) -> InstanceIndex:
        """One index per content: instances of equal facts and surfaces (the answers of one
        reference, each its own instance) share it, so the claims read with it are shared too
        (``claims_with``). An index is a function of the facts in order (equal facts, equal
        type and key) and of the surfaces in order; the extractor's aliases are fixed."""
        key = (tuple(facts), tuple(surfaces.items()) if surfaces else ())
        index = self._by_content.get(key)
        if index is None:
            if len(self._by_content) >= INDEX_CACHE_SIZE:
                self._by_content.clear()
            index = self._by_content[key] = InstanceIndex.of(facts, self.aliases, surfaces)
        return index

    def claims_with(self, parsed: ParsedText, index: InstanceIndex) -> list[Claim]:
        """``extract_claims`` of a parse with an index, read once per (parse, index): a passage
        and a reference are read for each of the answers that share them. Keyed by identity
        (the parser hands out one parse per distinct text; ``_index_of`` one index per
        content), the entry holding both, so no id is reused while cached. The list is shared:
        read it, never change it (claims are frozen)."""
        key = (id(parsed), id(index))
        held = self._claims.get(key)
        if held is not None and held[0] is parsed and held[1] is index:
            self._claims.move_to_end(key)
            return held[2]
        claims = extract_claims(parsed, index, self.name)
        self._claims[key] = (parsed, index, claims)
        if len(self._claims) > INDEX_CACHE_SIZE:
            self._claims.popitem(last=False)
        return claims

    def claims(self, parsed: ParsedText, instance: Instance | None) -> list[Claim]:
        return extract_claims(parsed, self.index(instance), self.name)

    def extract(self, text: str, instance: Instance) -> list[Claim]:
        return self.extract_batch([text], [instance])[0]

    def extract_batch(self, texts: Sequence[str], instances: Sequence[Instance]) -> list[list[Claim]]:
        parsed = self.parse(texts)
        # The RAG metrics need the answers' sentences right after scoring: kept, not re-parsed.
        self.recent_parses = dict(zip(texts, parsed))
        return [self.claims(p, instance) for p, instance in zip(parsed, instances)]

    def signature(self) -> str:
        return f"{self.name}[{self.parser.signature()}]"


class RagSpacyExtractor(RagExtractor):
    name = "rag-spacy"
    description = "Entities (NER + instance entities) and dependency-parse relations with spaCy."
    # The [rag] settings an -X option may set; none is signed: the signature names the
    # resolved model and its version, and batch size and process count change speed only.
    option_types: ClassVar[dict[str, type]] = {"model": str, "batch_size": int, "n_process": int, **CHECKER_OPTIONS}
    unsigned_options: ClassVar[frozenset[str]] = frozenset(("model", "batch_size", "n_process")) | CHECKER_UNSIGNED

    @classmethod
    def parse_options(cls, raw: Mapping[str, str]) -> dict[str, Any]:
        parsed = super().parse_options(raw)
        for key in ("batch_size", "n_process"):
            if key in parsed and parsed[key] < 1:
                raise InputError(f"-X {key} expects a whole number of 1 or more, got '{raw[key]}'")
        return parsed

    def build_parser(self) -> Any:
        from factcov.extractors.spacy_backend import SpacyParser

        return SpacyParser(
            model=self.options.get("model"),  # type: ignore[arg-type]
            batch_size=int(self.options.get("batch_size", 256)),  # type: ignore[arg-type]
            n_process=int(self.options.get("n_process", 1)),  # type: ignore[arg-type]
        )


class RagStanzaExtractor(RagExtractor):
    name = "rag-stanza"
    description = "Entities and relations with local stanza models (never downloads)."
    # The signature names the model folder; per-processor paths are a table ([rag]).
    option_types: ClassVar[dict[str, type]] = {"model_dir": str, **CHECKER_OPTIONS}
    unsigned_options: ClassVar[frozenset[str]] = frozenset(("model_dir",)) | CHECKER_UNSIGNED

    def build_parser(self) -> Any:
        from factcov.extractors.stanza_backend import StanzaParser

        return StanzaParser(
            model_dir=self.options.get("model_dir"),  # type: ignore[arg-type]
            model_paths=self.options.get("model_paths"),  # type: ignore[arg-type]
        )
