"""The weather domain: NWS forecast periods, their facts, text in en/es/pt."""

from __future__ import annotations

import random
from collections.abc import Sequence

from factcov.domain import Domain
from factcov.domains.weather.claims import CLAIM_TYPES
from factcov.domains.weather.demo import demo_generations, demo_instances
from factcov.domains.weather.instances import LANGUAGES, TASK, period_of
from factcov.domains.weather.oracle import period_knowledge
from factcov.domains.weather.realizer import realize
from factcov.knowledge import Knowledge
from factcov.model import Fact, Generation, Instance

# Conditions that rarely share a period with others: a perturbed condition must not
# land on a sibling fact of the same period (it would then be true, not perturbed).
_RARE_CONDITIONS = ("smoke", "blowing_dust", "freezing_drizzle", "blowing_snow", "haze", "sleet")


class WeatherDomain(Domain):
    name = "weather"
    description = "NOAA/NWS forecast periods: temperature, wind, precipitation chance, sky and conditions."
    version = "0.1.0"
    languages = LANGUAGES
    tasks = (TASK,)
    claim_types = CLAIM_TYPES
    default_extractor = "weather-regex"

    answer_tokens = 200

    def prompt_context(self, instance: Instance) -> str | None:
        from factcov.domains.weather.prompt_context import render

        return render(instance.context)

    def knowledge(self, instance: Instance) -> Knowledge:
        return period_knowledge(period_of(instance), list(instance.facts))

    def realize(self, facts: Sequence[Fact], language: str, instance: Instance | None = None) -> str:
        night = bool(instance is not None and period_of(instance).temperature_kind == "low")
        return realize(facts, self.check_language(language), night=night)

    def perturb(self, fact: Fact, rng: random.Random, instance: Instance | None = None) -> Fact:
        if fact.type == "condition":
            value = rng.choice([c for c in _RARE_CONDITIONS if c != fact.value])
            return fact.model_copy(update={"value": value})
        return super().perturb(fact, rng, instance)

    def example_instances(self) -> list[Instance]:
        return list(demo_instances())

    def demo_instances(self) -> list[Instance]:
        return list(demo_instances())

    def demo_generations(self, instances: Sequence[Instance]) -> list[Generation]:
        return demo_generations(self, instances)
