"""Extract -> verify -> score, for batches of (instance, generation) pairs."""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from factcov import __version__
from factcov.collector import fewer_collections
from factcov.domain import Domain
from factcov.errors import UnknownNameError
from factcov.extractor import Extractor
from factcov.knowledge import Knowledge
from factcov.model import Generation, Instance
from factcov.plugins import extractors as extractor_registry
from factcov.plugins import extractors_for, get_extractor, load_plugins, serves
from factcov.result import Result
from factcov.scoring import RelevantFacts, ScoringPolicy, score_generation
from factcov.verifier import Verifier

KNOWLEDGE_CACHE_SIZE = 4096


ExtractorFactory = Callable[[str], Extractor]


@dataclass(frozen=True, eq=False)
class ExtractorSpec:
    """The factory of a registered extractor: its name and options, built per language
    where it is called. It pickles, so the same factory reaches forked workers and Dask
    workers (each builds from the plugins *it* has installed)."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def __call__(self, language: str) -> Extractor:
        return get_extractor(self.name, language, **self.options)


def _first_of_each(pairs: Sequence[tuple[Instance, Generation]],
                   indices: list[int]) -> tuple[list[int], list[tuple[int, int]]]:
    """Of ``indices``, the first pair of each (instance, text) (the instance by identity:
    another object of the same id may hold another context), and each repeat with the
    index of its first."""
    first: dict[tuple[int, str], int] = {}
    firsts: list[int] = []
    repeats: list[tuple[int, int]] = []
    for index in indices:
        instance, generation = pairs[index]
        seen = first.setdefault((id(instance), generation.text), index)
        if seen == index:
            firsts.append(index)
        else:
            repeats.append((index, seen))
    return firsts, repeats


class Evaluator:
    """Scores generations of one domain with one extractor backend and one policy.

    ``extractor`` is a registered name (default: the domain's), an ``ExtractorSpec``
    (a name and options), or any factory ``language -> Extractor`` for a caller that built
    and configured its extractor already (``factcov rag score`` shares one with the
    reference parsing). ``factory`` is what builds the extractors, in this process and in
    every worker of the run: a Dask run ships it, so it must pickle there.
    """

    def __init__(
        self,
        domain: Domain,
        extractor: str | ExtractorFactory | None = None,
        policy: ScoringPolicy | None = None,
        extractor_options: dict[str, Any] | None = None,
    ) -> None:
        load_plugins()
        self.domain = domain
        self._extractors: dict[str, Extractor] = {}
        factory: ExtractorFactory | None = None
        if isinstance(extractor, ExtractorSpec):
            factory, extractor = extractor, extractor.name
        elif callable(extractor):
            factory = extractor
            built = self._extractors[domain.languages[0]] = extractor(domain.languages[0])
            extractor = built.name
        self.extractor_name = extractor or domain.default_extractor
        cls = extractor_registry.get(self.extractor_name)
        if not serves(cls.domains, domain.name):
            raise UnknownNameError(f"extractor for domain '{domain.name}'", self.extractor_name,
                                   extractors_for(domain.name))
        self.policy = policy or ScoringPolicy(type_weights=dict(domain.type_weights) or None)
        # A configured domain's options go with its own default extractor only; options
        # given (-X) go on top of them (-X n_process=2 keeps [rag]'s aliases).
        defaults = domain.extractor_options if self.extractor_name == domain.default_extractor else {}
        base = dict(factory.options) if isinstance(factory, ExtractorSpec) else dict(defaults)
        self.extractor_options = {**base, **(extractor_options or {})}
        # what builds this evaluator's extractors, here and in every worker (see ``factory``)
        self.factory: ExtractorFactory = factory or ExtractorSpec(self.extractor_name, self.extractor_options)
        self.verifier = Verifier()
        self._knowledge: OrderedDict[str, Knowledge] = OrderedDict()
        self._relevant: dict[str, RelevantFacts] = {}

    def knowledge_of(self, instance: Instance) -> Knowledge:
        """The instance's knowledge, built once: several systems' texts share an instance."""
        instance_id = instance.id  # read once: a model's attribute read goes through pydantic's hook
        cached = self._knowledge.get(instance_id)
        if cached is None:
            cached = self._knowledge[instance_id] = self.domain.knowledge(instance)
            if len(self._knowledge) > KNOWLEDGE_CACHE_SIZE:
                self._knowledge.popitem(last=False)
        else:
            self._knowledge.move_to_end(instance_id)
        return cached

    def _relevant_of(self, instance: Instance) -> RelevantFacts:
        """The instance's relevant facts prepared for scoring, once: like its knowledge,
        they serve every system's text (kept as long as the knowledge is)."""
        prepared = self._relevant.get(instance.id)
        if prepared is None or prepared.facts is not instance.facts:
            prepared = self._relevant[instance.id] = RelevantFacts(instance.facts)
            while len(self._relevant) > KNOWLEDGE_CACHE_SIZE:
                del self._relevant[next(iter(self._relevant))]
        return prepared

    def extractor_for(self, language: str) -> Extractor:
        if language not in self._extractors:
            self.domain.check_language(language)
            self._extractors[language] = self.factory(language)
        return self._extractors[language]

    def prebuild(self, instances: Mapping[str, Instance]) -> None:
        """Build what is cheap and deterministic before worker processes fork, so that
        they share it (copy-on-write) instead of each building it on its first chunk: the
        knowledge of every instance (when they are held parsed and fit the cache) and, for
        an extractor class that declares ``prebuild``, one extractor per language the
        instances use (every language it reads, when the instances are kept as lines),
        and, when the instances are held, what each extractor's ``prepare`` builds from
        the instances of its language (the f1 reader's setup of each race)."""
        held = isinstance(instances, dict) and len(instances) <= KNOWLEDGE_CACHE_SIZE
        languages = {instance.language for instance in instances.values()} if held else set(self.domain.languages)
        if held:
            for instance in instances.values():
                self.knowledge_of(instance)
                self._relevant_of(instance)
        built = next(iter(self._extractors.values()), None)
        cls = type(built) if built is not None else extractor_registry.get(self.extractor_name)
        if not getattr(cls, "prebuild", False):
            return
        for language in sorted(languages):
            if language in cls.languages:
                extractor = self.extractor_for(language)
                prepare = getattr(extractor, "prepare", None)  # a factory may build any object
                if held and prepare is not None:
                    prepare([instance for instance in instances.values() if instance.language == language])

    def _first_language(self, extractor_cls: type) -> str:
        """The domain's first language the extractor reads."""
        return next((lang for lang in self.domain.languages if lang in extractor_cls.languages),
                    self.domain.languages[0])

    def evaluate(self, pairs: Sequence[tuple[Instance, Generation]]) -> list[Result]:
        """Results in the order of ``pairs``; texts of one language are extracted as a batch."""
        with fewer_collections():
            return self._evaluate(pairs)

    def _evaluate(self, pairs: Sequence[tuple[Instance, Generation]]) -> list[Result]:
        by_language: dict[str, list[int]] = defaultdict(list)
        for index, (instance, generation) in enumerate(pairs):
            by_language[generation.language or instance.language].append(index)
        results: list[Result | None] = [None] * len(pairs)
        verify_all, policy = self.verifier.verify_all, self.policy
        for language, indices in sorted(by_language.items()):
            extractor = self.extractor_for(language)
            deterministic = getattr(extractor, "deterministic", False)  # a factory may build any object
            indices, repeats = _first_of_each(pairs, indices) if deterministic else (indices, [])
            instances = [pairs[i][0] for i in indices]
            claims_per_text = extractor.extract_batch([pairs[i][1].text for i in indices], instances)
            for index, claims in zip(indices, claims_per_text):
                instance, generation = pairs[index]
                knowledge = self.knowledge_of(instance)
                verdicts = verify_all(claims, knowledge)
                results[index] = Result(
                    instance, generation, verdicts, score_generation(self._relevant_of(instance), verdicts), policy,
                    getattr(claims, "reason", None),
                )
            for index, first in repeats:  # the same instance and text: the same claims, verdicts and score
                read = results[first]
                results[index] = Result(pairs[index][0], pairs[index][1], list(read.verdicts),  # type: ignore[union-attr]
                                        read.score, policy, read.extraction_error)  # type: ignore[union-attr]
        return [r for r in results if r is not None]

    def evaluate_text(self, instance: Instance, text: str, system: str = "text") -> Result:
        return self.evaluate([(instance, Generation(instance_id=instance.id, system=system, text=text))])[0]

    def signature(self) -> str:
        """sacrebleu-style: two scores are comparable only when their signatures are equal.

        The extractor's part comes from an extractor for the domain's first language it
        reads, whatever this process happened to build: worker processes build their own,
        and the signature must not depend on which process extracted.
        """
        language = self._first_language(extractor_registry.get(self.extractor_name))
        extractor = self.extractor_for(language).signature()
        # Declared options (the ones -X sets) change results: runs differing in one are not
        # comparable. Undeclared ones passed from Python (aliases, batch sizes) stay out, as before.
        registered = extractor_registry.get(self.extractor_name)
        declared = set(registered.option_types) - registered.unsigned_options
        signed = sorted((k, v) for k, v in self.extractor_options.items() if k in declared)
        if signed:
            extractor += "{" + ",".join(f"{k}={v}" for k, v in signed) + "}"
        return (
            f"factcov:{__version__}|domain:{self.domain.name}@{self.domain.version}"
            f"{'+' + self.domain.variant if self.domain.variant else ''}"
            f"|extractor:{extractor}|verifier:{self.verifier.name}|{self.policy.signature()}"
        )
