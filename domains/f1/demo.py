"""The demo: real instances of a few races and three systems whose precision ranking and
F1 ranking disagree.

The committed ``demo_instances.jsonl.gz`` (and ``drivers.json``) are built by
``write_demo_files`` from ../shared/data/f1 — lap data from the Armchair-Strategist
project (Apache-2.0), results from the Ergast database (CC0); see DEMO_DATA.md.
When ../shared/data is present the demo rebuilds its instances from it.
"""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from factcov.jsonl import iter_models
from factcov.model import Fact, Instance

DEMO_FILE = Path(__file__).with_name("demo_instances.jsonl.gz")
DRIVER_TABLE = Path(__file__).with_name("drivers.json")
# 2021 Bahrain (undercut, SC + VSC), 2021 Abu Dhabi (retirement into the pits),
# 2025 Australia (a wet race of the test split)
DEMO_RACES: tuple[tuple[int, int], ...] = ((2021, 1), (2021, 22), (2025, 1))
DEMO_TYRE_STRATEGIES = 6  # tyre_strategy instances per race: the first six classified


def _select(instances: list[Instance]) -> list[Instance]:
    keep = []
    strategies: dict[tuple[str, str], int] = {}
    for instance in instances:
        if instance.task == "tyre_strategy":
            race = instance.id.rsplit(":", 3)[0]
            count = strategies.get((race, instance.language), 0)
            if count >= DEMO_TYRE_STRATEGIES:
                continue
            strategies[(race, instance.language)] = count + 1
        keep.append(instance)
    return keep


def build_demo_instances(f1_dir: Path) -> list[Instance]:
    from factcov.domains.f1.instances import race_instances
    from factcov.domains.f1.source import race

    out: list[Instance] = []
    for season, round_ in DEMO_RACES:
        out.extend(_select(race_instances(race(f1_dir, season, round_))))
    return out


def write_demo_files(f1_dir: Path) -> int:
    """Rebuild the committed demo instance file and driver table from the real data."""
    from factcov.domains.f1.source import ergast
    from factcov.jsonl import atomic_path

    instances = build_demo_instances(f1_dir)
    with atomic_path(DEMO_FILE) as tmp, gzip.GzipFile(tmp, "wb", mtime=0) as handle:
        for instance in instances:
            handle.write(instance.model_dump_json().encode("utf-8") + b"\n")
    names = dict(sorted(ergast(f1_dir).driver_names().items()))
    with atomic_path(DRIVER_TABLE) as tmp:
        tmp.write_text(json.dumps(names, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    return len(instances)


@lru_cache(maxsize=1)
def _committed() -> tuple[Instance, ...]:
    return tuple(instance for _, instance in iter_models(DEMO_FILE, Instance))


def committed_instances(per_task: int | None = None) -> list[Instance]:
    """Instances of the committed demo file; ``per_task`` keeps the first N of each
    (task, language)."""
    instances = list(_committed())
    if per_task is None:
        return instances
    seen: dict[tuple[str, str], int] = {}
    out = []
    for instance in instances:
        key = (instance.task, instance.language)
        if seen.get(key, 0) < per_task:
            seen[key] = seen.get(key, 0) + 1
            out.append(instance)
    return out


def demo_instances() -> list[Instance]:
    from factcov.domains.f1.source import shared_f1_dir

    f1_dir = shared_f1_dir()
    if f1_dir is not None:
        return build_demo_instances(f1_dir)
    return committed_instances()


def unsupported_undercut(instance: Instance) -> Fact | None:
    """A claim the data cannot check: an undercut between two drivers with no such move
    (what the demo's ``verbose`` system adds to its facts, see ``F1Domain.demo_noise``)."""
    race: dict[str, Any] = instance.context.get("race", {})
    codes = [d["code"] for d in race.get("drivers", [])]
    moves = {(m["driver"], m["rival"]) for m in race.get("moves", []) if m["kind"] == "undercut"}
    for a, b in zip(codes[1:], codes[:-1]):
        if (a, b) not in moves:
            return Fact(type="undercut", key={"driver": a, "rival": b}, value=True)
    return None
