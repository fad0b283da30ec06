"""The f1 domain class: claim types, knowledge from the race block, realizer, demo."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from factcov.domain import Domain
from factcov.domains.f1.claims import CLAIM_TYPES, COMPOUNDS, TASKS
from factcov.domains.f1.oracle import race_facts
from factcov.knowledge import Knowledge, SharedKnowledge
from factcov.model import ClaimType, Fact, Instance

# drivers a perturbed winner is drawn from (names known to the extractor's table)
_WINNER_POOL = ("HAM", "VER", "LEC", "NOR", "BOT", "RUS", "PER", "SAI", "ALO", "PIA")


def _race_knowledge(race: dict) -> Knowledge:
    return Knowledge(race_facts(race), CLAIM_TYPES)


# every instance of a race checks claims against the same race facts: indexed once
_RACES = SharedKnowledge(_race_knowledge)


class F1Domain(Domain):
    name: ClassVar[str] = "f1"
    description: ClassVar[str] = (
        "Formula 1 race-strategy explanations (tyre strategy, undercut, overcut, defense, race "
        "summary) scored against an oracle derived from FastF1 lap data and Ergast results."
    )
    version: ClassVar[str] = "0.1.0"
    languages: ClassVar[tuple[str, ...]] = ("en", "es", "pt")
    tasks: ClassVar[tuple[str, ...]] = TASKS
    claim_types: ClassVar[tuple[ClaimType, ...]] = CLAIM_TYPES
    default_extractor: ClassVar[str] = "f1-regex"
    # The demo's third system says more than the data holds, not only wrong values.
    demo_noisy_system: ClassVar[str] = "verbose"

    answer_tokens = 400

    def prompt_context(self, instance: Instance) -> str | None:
        from factcov.domains.f1.prompt_context import render

        return render(instance.context, instance.task)

    def knowledge(self, instance: Instance) -> Knowledge:
        """Every fact of the instance's race (all drivers, moves, defenses), rebuilt from
        the race block of its context, plus the instance's own facts."""
        race = instance.context.get("race")
        base = _RACES(race) if isinstance(race, dict) else None
        return Knowledge(instance.facts, self.claim_types, base=base)

    def realize(self, facts: Sequence[Fact], language: str, instance: Instance | None = None) -> str:
        from factcov.domains.f1.realizer import realize

        self.check_language(language)
        return realize(facts, language, instance.context if instance is not None else {})

    def perturb(self, fact: Fact, rng: random.Random, instance: Instance | None = None) -> Fact:
        if fact.type == "compound_change":
            source, target = fact.value
            others = [c for c in COMPOUNDS if c != target]
            return fact.model_copy(update={"value": [source, rng.choice(others)]})
        if fact.type == "winner":
            others = [c for c in _WINNER_POOL if c != fact.value]
            return fact.model_copy(update={"value": rng.choice(others)})
        return super().perturb(fact, rng, instance)

    def example_instances(self) -> list[Instance]:
        from factcov.domains.f1.demo import committed_instances

        return committed_instances(per_task=1)

    def demo_instances(self) -> list[Instance]:
        from factcov.domains.f1.demo import demo_instances

        return demo_instances()

    def demo_noise(self, facts: Sequence[Fact], rng: random.Random, instance: Instance) -> list[Fact]:
        """The default noise (every third fact wrong) plus one undercut the race does not hold."""
        from factcov.domains.f1.demo import unsupported_undercut

        noisy = super().demo_noise(facts, rng, instance)
        if (extra := unsupported_undercut(instance)) is not None:
            noisy.append(extra)
        return noisy

