"""The default demo systems of a domain: complete, terse and noisy texts from its realizer.

- ``complete`` states every relevant fact (precise and complete);
- ``terse`` states one fact (two when there are more than three): precise, covers little;
- ``noisy`` states every fact with every third one perturbed (``Domain.perturb``):
  covers the rest, contradicts a third.

Ranked by precision, terse ties complete and beats noisy; ranked by F1, terse falls to
the bottom: the reversal factcov is about, on any domain's own instances.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from factcov.model import Fact, Generation, Instance

if TYPE_CHECKING:
    from factcov.domain import Domain


def realized_systems(domain: Domain, instances: Sequence[Instance]) -> list[Generation]:
    out = []
    for instance in instances:
        facts = list(instance.facts)
        # Seeded by the instance id: the same texts on every run and in every process.
        rng = random.Random(zlib.crc32(instance.id.encode("utf-8")))
        texts = {
            "complete": facts,
            "terse": facts[: 1 + (len(facts) > 3)],
            "noisy": [_perturbed(domain, f, rng, instance) if i % 3 == 1 else f for i, f in enumerate(facts)],
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
