"""The demo: a small committed instance file built from the shared NWS fixtures, and
three systems to score on it.

- ``nws``: NWS's own ``detailedForecast``; it is English, so for the es and pt instances
  the generation carries ``language="en"`` and is read by the English grammar (the
  facts are the same in every language);
- ``terse``: states the temperature only, in the instance's language (precise, covers little);
- ``realizer``: the template realizer over every relevant fact.

Precision ranks ``terse`` first (tied with ``realizer``) and ``nws`` last; F1 ranks
``terse`` last. Rebuild the files with
``python -m factcov.domains.weather.demo ../shared/data/weather/forecasts``.
Data: National Weather Service (US public domain), via the weather.gov test fixtures.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from factcov.domain import Domain
from factcov.domains.weather.instances import instances_of
from factcov.domains.weather.periods import iter_file_periods
from factcov.jsonl import iter_models, write_jsonl_atomic
from factcov.model import Generation, Instance

DEMO_FILES = ("e2e__BMX_59-84.forecast.json", "testing__SEW_96-55.forecast.json")
PERIODS_PER_FILE = 8
DEMO_INSTANCES = Path(__file__).with_name("demo_instances.jsonl")
DEMO_NWS = Path(__file__).with_name("demo_nws.jsonl")


def build_demo_files(forecasts_dir: Path, out_dir: Path) -> tuple[int, int]:
    instances: list[Instance] = []
    texts: list[Generation] = []
    for name in DEMO_FILES:
        for period in list(iter_file_periods(forecasts_dir / name))[:PERIODS_PER_FILE]:
            for instance in instances_of(period):
                instances.append(instance)
                texts.append(Generation(instance_id=instance.id, system="nws", text=period.detailed_forecast, language="en"))
    return (
        write_jsonl_atomic(out_dir / "demo_instances.jsonl", instances),
        write_jsonl_atomic(out_dir / "demo_nws.jsonl", texts),
    )


@lru_cache(maxsize=1)
def demo_instances() -> tuple[Instance, ...]:
    return tuple(instance for _, instance in iter_models(DEMO_INSTANCES, Instance))


def demo_generations(domain: Domain, instances: Sequence[Instance]) -> list[Generation]:
    nws = {g.instance_id: g for _, g in iter_models(DEMO_NWS, Generation)}
    generations: list[Generation] = []
    for instance in instances:
        if instance.id in nws:
            generations.append(nws[instance.id])
        temperature = [f for f in instance.facts if f.type == "temperature"]
        generations.append(Generation(instance_id=instance.id, system="terse",
                                      text=domain.realize(temperature, instance.language, instance), language=instance.language))
        generations.append(Generation(instance_id=instance.id, system="realizer",
                                      text=domain.realize(instance.facts, instance.language, instance), language=instance.language))
    return generations


if __name__ == "__main__":
    counts = build_demo_files(Path(sys.argv[1]), Path(__file__).parent)
    print(f"wrote {counts[0]} instances and {counts[1]} nws texts")
