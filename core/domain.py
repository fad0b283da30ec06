"""The domain interface: what a plugin supplies so the core can score its texts."""

from __future__ import annotations

import functools
import inspect
import random
import warnings
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from factcov.errors import PluginError, UnknownNameError
from factcov.knowledge import Knowledge
from factcov.model import ClaimType, Fact, Generation, Instance

if TYPE_CHECKING:  # annotations only
    from factcov.extractor import Extractor
    from factcov.result import Result
    from factcov.scoring import ScoringPolicy


class Domain:
    """Base class of a domain plugin. Subclasses set the class attributes and override
    ``realize`` (and usually ``knowledge`` and ``example_instances``).

    - ``knowledge(instance)``: every checkable fact; by default the instance's facts.
    - ``realize(facts, language, instance)``: facts -> text (the silver-template system
      and what ``factcov.testing.check_domain`` uses). The default joins each claim
      type's template.
    - ``perturb(fact, rng, instance)``: the same fact with a wrong value (for contract tests and
      ``validate perturb``). The default handles ints, floats, bools, ranges, lists and
      categorical types with ``choices``.
    - ``example_instances()``: a few real instances, for contract tests and demos.
    - ``demo_instances()`` and ``demo_generations(instances)``: what ``factcov demo``
      scores. Defaults: the example instances, and complete/terse/noisy realized texts
      (``realized_systems``); a domain with its own kind of mistake overrides only
      ``demo_noise(facts, rng, instance)`` and names that system ``demo_noisy_system``.
    - ``metrics`` and ``extra_metrics(results, extractor, policy)``: per-generation
      metrics beyond P/R/F1 (rag's faithfulness, citation support, ...). The core runner
      calls ``extra_metrics`` on every scored chunk and writes each name in ``metrics``
      as a column of scores.parquet and a per-system mean in summary.json, where
      ``compare``, ``report`` and ``--fail-under`` read them. Names in ``lists`` are
      per-generation lists of strings written the same way (rag's hallucinated
      entities), shown but not averaged. Default: none.
    - ``graded_scores``: True when the domain grades its own per-generation headline.
      ``extra_metrics`` then returns ``precision``, ``recall`` and ``f1`` (floats in
      [0, 1], None where the domain's own rule leaves them undefined) for each result it
      can grade, and those become scores.parquet's ``precision``/``recall``/``f1`` (and
      ``weighted_f1`` when the policy has no type weights); a result without them keeps the
      claim counts' figures. Graded scores have no counts to pool, so a system's headline
      is their macro mean whatever ``--average`` says, and its ``micro_*`` columns are
      undefined. The domain keeps the claim-count figures among its ``metrics`` if it wants
      them (rag: ``claim_precision``, ``claim_recall``, ``claim_f1``). Default: False.
    - ``answer_pairs(path, extractor, instances)``: a file of answer lines (one per
      question and system, the question's fields repeated) read as instances and
      generations, for ``factcov score`` without ``-g``. Default: none (rag has one).
    - ``type_weights``: default per-claim-type weights of ``weighted_f1`` when the user
      gives none (rag's GAA weighs entity and relation F1). Default: none (overall F1).
    - ``configure(settings)``: the domain configured by its factcov.toml table.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    version: ClassVar[str] = "0.0.0"
    languages: ClassVar[tuple[str, ...]] = ("en",)
    tasks: ClassVar[tuple[str, ...]] = ()
    claim_types: ClassVar[tuple[ClaimType, ...]] = ()
    default_extractor: ClassVar[str]
    metrics: ClassVar[tuple[str, ...]] = ()
    lists: ClassVar[tuple[str, ...]] = ()
    type_weights: ClassVar[dict[str, float]] = {}
    graded_scores: ClassVar[bool] = False
    # A configured instance that scores differently (rag's grounded GAA) names itself
    # here; the run's signature carries it, so such runs are never pooled with others.
    variant: str = ""
    # Options the default extractor is built with (a configured rag domain's spaCy model).
    extractor_options: dict[str, Any] = {}
    # The name of the demo system whose facts ``demo_noise`` damages (f1's "verbose" also
    # says something the data cannot check).
    demo_noisy_system: ClassVar[str] = "noisy"

    # Default longest answer of ``generate``/``refine`` in tokens (--max-tokens): without one,
    # llama.cpp's server writes until its context is full.
    answer_tokens: ClassVar[int] = 512

    def prompt_context(self, instance: Instance) -> str | None:
        """The instance's context as a prompt shows it: compact, readable, only what the task
        needs (``factcov generate``/``refine``). ``None`` (the default) shows the context as JSON."""
        return None

    def claim_type(self, name: str) -> ClaimType:
        for claim_type in self.claim_types:
            if claim_type.name == name:
                return claim_type
        raise UnknownNameError(
            f"claim type of domain '{self.name}'", name, [ct.name for ct in self.claim_types]
        )

    def check_language(self, language: str) -> str:
        if language not in self.languages:
            raise UnknownNameError(f"language of domain '{self.name}'", language, self.languages)
        return language

    def knowledge(self, instance: Instance) -> Knowledge:
        return Knowledge(instance.facts, self.claim_types)

    def realize(self, facts: Sequence[Fact], language: str, instance: Instance | None = None) -> str:
        return " ".join(self.realize_fact(fact, language) for fact in facts)

    def realize_fact(self, fact: Fact, language: str) -> str:
        templates = self.claim_type(fact.type).templates
        template = templates.get(language)
        if template is None:
            have = ", ".join(sorted(templates)) or "none"
            raise PluginError(
                f"domain '{self.name}' cannot realize a {fact.type} fact in '{language}': its claim type has no "
                f"template for that language (templates: {have}); give the ClaimType "
                f"templates={{'{language}': '...{{value}}...'}} or override {type(self).__name__}.realize"
            )
        value = fact.value
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        return template.format(**fact.key, value=value)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Overrides written without the ``instance`` parameter every caller now passes
        # keep working, with a DeprecationWarning naming the class.
        for method in ("perturb", "realize"):
            override = cls.__dict__.get(method)
            if override is not None and "instance" not in inspect.signature(override).parameters:
                setattr(cls, method, _with_instance(cls, method, override))

    def perturb(self, fact: Fact, rng: random.Random, instance: Instance | None = None) -> Fact:
        """``instance`` (None when the caller has none) lets a domain pick a plausible
        wrong value from the same instance, e.g. another driver of the race. Every caller
        passes it; an override written for factcov 0.1 as ``perturb(fact, rng)`` still
        works, with a DeprecationWarning when its class is defined."""
        return fact.model_copy(update={"value": perturbed_value(self.claim_type(fact.type), fact.value, rng)})

    def example_instances(self) -> Iterable[Instance]:
        return ()

    def configure(self, settings: dict[str, Any]) -> Domain:
        """This domain with the settings of its own table of factcov.toml (``[<name>]``).

        ``factcov score`` calls it with the table (empty when there is none); a domain with
        settings validates them (errors name ``<name>.<field>``) and returns a configured
        instance, which may set ``default_extractor``, ``extractor_options``,
        ``type_weights`` and ``variant``. Default: no settings, this domain unchanged.
        """
        return self

    def demo_instances(self) -> Sequence[Instance]:
        """What ``factcov demo`` scores; by default the example instances."""
        return list(self.example_instances())

    def demo_generations(self, instances: Sequence[Instance]) -> list[Generation]:
        """The demo's systems; by default ``complete``, ``terse`` and ``noisy`` texts of the
        realizer (``realized_systems``)."""
        return realized_systems(self, instances)

    def demo_noise(self, facts: Sequence[Fact], rng: random.Random, instance: Instance) -> list[Fact]:
        """The facts the demo's noisy system states: by default every third one (the 2nd,
        5th, ...) perturbed with ``perturb``; one it cannot perturb stays right. ``rng`` is
        seeded by the instance id, so the demo writes the same texts on every run."""
        return [_perturbed(self, fact, rng, instance) if i % 3 == 1 else fact for i, fact in enumerate(facts)]

    def answer_pairs(
        self, path: str | Path, extractor: Extractor, instances: dict[str, Instance]
    ) -> Iterator[tuple[Instance, Generation]]:
        """(instance, generation) pairs read from a file of answer lines, one line per
        (question, system) answer (``factcov score -d DOMAIN -i answers.jsonl`` without
        ``-g``); each question's instance, built once with ``extractor``, is added to
        ``instances`` before its first pair. A domain that reads answer lines overrides
        this (rag does; ``factcov.answer_lines.QuestionLines`` checks the lines)."""
        raise NotImplementedError

    def reads_answer_lines(self) -> bool:
        return type(self).answer_pairs is not Domain.answer_pairs

    def extra_metrics(
        self, results: Sequence[Result], extractor: Extractor, policy: ScoringPolicy
    ) -> list[dict[str, Any]]:
        """One dict per result: a float or None (undefined) per name in ``metrics``, a
        list of strings per name in ``lists``.

        ``results`` are one chunk of one language, scored with ``extractor``; a domain
        that needs more text parsed (retrieved passages) parses it here, in one batch.
        """
        return [{} for _ in results]


_WITHOUT_INSTANCE = {"perturb": "perturb(fact, rng)", "realize": "realize(facts, language)"}


def _with_instance(cls: type, method: str, override: Any) -> Any:
    """A 0.1-style ``perturb(fact, rng)`` or ``realize(facts, language)`` override, callable
    with the ``instance`` the core passes as the third argument."""
    warnings.warn(
        f"{cls.__module__}.{cls.__qualname__}.{_WITHOUT_INSTANCE[method]} is deprecated: add the parameter "
        f"'instance: Instance | None = None' (factcov 0.3 will call {method}(..., instance) only)",
        DeprecationWarning, stacklevel=4,
    )

    @functools.wraps(override)
    def with_instance(self: Domain, first: Any, second: Any, instance: Instance | None = None) -> Any:
        return override(self, first, second)

    return with_instance


def perturbed_value(claim_type: ClaimType, value: Any, rng: random.Random) -> Any:
    """A value the claim type's comparator does not accept for ``value``."""
    comparator = claim_type.comparator
    if claim_type.choices:
        others = [c for c in claim_type.choices if not comparator.matches(c, value)]
        if others:
            return rng.choice(others)
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        step = 1
        while comparator.matches(value + step, value):
            step *= 2
        return value + step if isinstance(value, int) else float(value + step)
    if isinstance(value, list) and value:
        if len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
            step = 1
            while comparator.matches([v + step for v in value], value):
                step *= 2
            return [v + step for v in value]
        reversed_value = list(reversed(value))
        if not comparator.matches(reversed_value, value):
            return reversed_value
    raise ValueError(
        f"cannot perturb {claim_type.name}={value!r}: override Domain.perturb for this claim type"
    )


def realized_systems(domain: Domain, instances: Sequence[Instance]) -> list[Generation]:
    """The default demo systems of a domain, from its realizer:

    - ``complete`` states every relevant fact (precise and complete);
    - ``terse`` states one fact (two when there are more than three): precise, covers little;
    - ``noisy`` (named ``domain.demo_noisy_system``) states ``domain.demo_noise(facts, rng,
      instance)``: by default every fact with every third one perturbed (``Domain.perturb``),
      so it covers the rest and contradicts a third.

    By precision terse ties complete and beats noisy; by F1 terse falls to the bottom.
    """
    out = []
    for instance in instances:
        facts = list(instance.facts)
        # Seeded by the instance id: the same texts on every run and in every process.
        rng = random.Random(zlib.crc32(instance.id.encode("utf-8")))
        texts = {
            "complete": facts,
            "terse": facts[: 1 + (len(facts) > 3)],
            domain.demo_noisy_system: domain.demo_noise(facts, rng, instance),
        }
        for system, chosen in texts.items():
            text = domain.realize(chosen, instance.language, instance)
            out.append(Generation(instance_id=instance.id, system=system, text=text, language=instance.language))
    return out


def _perturbed(domain: Domain, fact: Fact, rng: random.Random, instance: Instance) -> Fact:
    try:
        return domain.perturb(fact, rng, instance)
    except ValueError:  # a claim type the domain cannot perturb stays right
        return fact
