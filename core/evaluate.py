"""Extract -> verify -> score, for batches of (instance, generation) pairs."""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from factcov import __version__
from factcov.domain import Domain
from factcov.errors import UnknownNameError
from factcov.extractor import Extractor
from factcov.knowledge import Knowledge
from factcov.model import Generation, Instance, Verdict
from factcov.plugins import extractors as extractor_registry
from factcov.plugins import get_extractor, load_plugins
from factcov.scoring import GenerationScore, ScoringPolicy, score_generation
from factcov.verifier import Verifier

KNOWLEDGE_CACHE_SIZE = 4096


@dataclass
class Result:
    instance: Instance
    generation: Generation
    verdicts: list[Verdict]
    score: GenerationScore
    extraction_error: str | None = None  # the extractor could not read the text (see FailedExtraction)

    @property
    def language(self) -> str:
        return self.generation.language or self.instance.language


class Evaluator:
    """Scores generations of one domain with one extractor backend and one policy."""

    def __init__(
        self,
        domain: Domain,
        extractor: str | None = None,
        policy: ScoringPolicy | None = None,
        extractor_options: dict[str, Any] | None = None,
    ) -> None:
        load_plugins()
        self.domain = domain
        self.extractor_name = extractor or domain.default_extractor
        cls = extractor_registry.get(self.extractor_name)
        if "*" not in cls.domains and domain.name not in cls.domains:
            raise UnknownNameError(
                f"extractor for domain '{domain.name}'",
                self.extractor_name,
                [n for n, (c, _) in extractor_registry.entries.items() if domain.name in c.domains or "*" in c.domains],
            )
        self.policy = policy or ScoringPolicy()
        self.extractor_options = extractor_options or {}
        self.verifier = Verifier()
        self._extractors: dict[str, Extractor] = {}
        self._knowledge: OrderedDict[str, Knowledge] = OrderedDict()

    def knowledge_of(self, instance: Instance) -> Knowledge:
        """The instance's knowledge, built once: several systems' texts share an instance."""
        cached = self._knowledge.get(instance.id)
        if cached is None:
            cached = self._knowledge[instance.id] = self.domain.knowledge(instance)
            if len(self._knowledge) > KNOWLEDGE_CACHE_SIZE:
                self._knowledge.popitem(last=False)
        else:
            self._knowledge.move_to_end(instance.id)
        return cached

    def extractor_for(self, language: str) -> Extractor:
        if language not in self._extractors:
            self.domain.check_language(language)
            self._extractors[language] = get_extractor(
                self.extractor_name, language, **self.extractor_options
            )
        return self._extractors[language]

    def evaluate(self, pairs: Sequence[tuple[Instance, Generation]]) -> list[Result]:
        """Results in the order of ``pairs``; texts of one language are extracted as a batch."""
        by_language: dict[str, list[int]] = defaultdict(list)
        for index, (instance, generation) in enumerate(pairs):
            by_language[generation.language or instance.language].append(index)
        results: list[Result | None] = [None] * len(pairs)
        for language, indices in sorted(by_language.items()):
            extractor = self.extractor_for(language)
            instances = [pairs[i][0] for i in indices]
            claims_per_text = extractor.extract_batch([pairs[i][1].text for i in indices], instances)
            for index, claims in zip(indices, claims_per_text):
                instance, generation = pairs[index]
                knowledge = self.knowledge_of(instance)
                verdicts = self.verifier.verify_all(claims, knowledge)
                results[index] = Result(instance, generation, verdicts, score_generation(instance.facts, verdicts),
                                        getattr(claims, "reason", None))
        return [r for r in results if r is not None]

    def evaluate_text(self, instance: Instance, text: str, system: str = "text") -> Result:
        return self.evaluate([(instance, Generation(instance_id=instance.id, system=system, text=text))])[0]

    def signature(self) -> str:
        """sacrebleu-style: two scores are comparable only when their signatures are equal.

        The extractor's part comes from an extractor for the domain's first language it
        reads, whatever this process happened to build: worker processes build their own,
        and the signature must not depend on which process extracted.
        """
        supported = extractor_registry.get(self.extractor_name).languages
        language = next(lang for lang in self.domain.languages if lang in supported)
        extractor = self.extractor_for(language).signature()
        # Declared options (the ones -X sets) change results: runs differing in one are not
        # comparable. Undeclared ones passed from Python (aliases, batch sizes) stay out, as before.
        declared = extractor_registry.get(self.extractor_name).option_types
        signed = sorted((k, v) for k, v in self.extractor_options.items() if k in declared)
        if signed:
            extractor += "{" + ",".join(f"{k}={v}" for k, v in signed) + "}"
        return (
            f"factcov:{__version__}|domain:{self.domain.name}@{self.domain.version}"
            f"|extractor:{extractor}|verifier:{self.verifier.name}|{self.policy.signature()}"
        )
