"""The `quali` domain: what factcov needs to score summaries of qualifying sessions."""

import json
import random
from collections.abc import Sequence
from importlib import metadata
from importlib.resources import files

from factcov.domain import Domain
from factcov.knowledge import Knowledge
from factcov.model import Fact, Instance

from factcov_quali.claims import CLAIM_TYPES
from factcov_quali.oracle import all_facts
from factcov_quali.realizer import realize_en


class QualiDomain(Domain):
    name = "quali"
    description = "Summaries of Formula 1 qualifying sessions (example third-party plugin)."
    version = metadata.version("factcov-quali")
    languages = ("en",)
    tasks = ("qualifying_summary",)
    claim_types = CLAIM_TYPES
    default_extractor = "quali-regex"

    def knowledge(self, instance: Instance) -> Knowledge:
        # Every driver's place is checkable, not only the relevant ones.
        return Knowledge(all_facts(instance.context), self.claim_types)

    def realize(self, facts: Sequence[Fact], language: str, instance: Instance | None = None) -> str:
        self.check_language(language)
        return realize_en(facts, instance)

    def example_instances(self) -> list[Instance]:
        # Built from the Ergast tables by `python -m factcov_quali.build` (see data/NOTICE.md).
        lines = (files("factcov_quali") / "data" / "instances.jsonl").read_text("utf-8").splitlines()
        return [Instance(**json.loads(line)) for line in lines if line.strip()]

    # `factcov demo quali` scores the example instances with the default systems: `complete`
    # (every relevant fact), `terse` (the first one or two) and this domain's noisy one.
    demo_noisy_system = "hasty"

    def demo_noise(self, facts: Sequence[Fact], rng: random.Random, instance: Instance) -> list[Fact]:
        """The hasty writer gets the grid places wrong (P2 and P3), nothing else."""
        return [self.perturb(f, rng, instance) if f.type == "qualifying_position" else f for f in facts]
