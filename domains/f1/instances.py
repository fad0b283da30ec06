"""Instances of the five f1 decision types in en, es and pt, from one derived race.

Id: ``f1:{season}:{round}:{task}:{driver}[:{rival}]:{lang}``; split ``train`` for
2018-2024, ``test`` for 2025 onwards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from factcov.domains.f1.context import driver_positions, lap_tables, lap_window, race_block
from factcov.domains.f1.derive import RaceAnalysis
from factcov.domains.f1.oracle import task_facts
from factcov.model import Instance

LANGUAGES = ("en", "es", "pt")
TEST_SEASONS_FROM = 2025
_DATA = {
    "en": "using only the data below",
    "es": "usando solo los datos siguientes",
    "pt": "usando apenas os dados abaixo",
}
PROMPTS: dict[str, dict[str, str]] = {
    "tyre_strategy": {
        "en": "Explain {driver}'s tyre strategy in the {season} {event}, {data}.",
        "es": "Explica la estrategia de neumáticos de {driver} en el {event} {season}, {data}.",
        "pt": "Explique a estratégia de pneus de {driver} no {event} {season}, {data}.",
    },
    "undercut": {
        "en": "Explain the undercut {driver} tried on {rival} in the {season} {event} and how it turned out, {data}.",
        "es": "Explica el undercut que intentó {driver} sobre {rival} en el {event} {season} y cómo resultó, {data}.",
        "pt": "Explique o undercut que {driver} tentou sobre {rival} no {event} {season} e como terminou, {data}.",
    },
    "overcut": {
        "en": "Explain the overcut {driver} tried on {rival} in the {season} {event} and how it turned out, {data}.",
        "es": "Explica el overcut que intentó {driver} sobre {rival} en el {event} {season} y cómo resultó, {data}.",
        "pt": "Explique o overcut que {driver} tentou sobre {rival} no {event} {season} e como terminou, {data}.",
    },
    "defense": {
        "en": "Explain how {driver} defended against {rival} in the {season} {event}, {data}.",
        "es": "Explica cómo {driver} se defendió de {rival} en el {event} {season}, {data}.",
        "pt": "Explique como {driver} se defendeu de {rival} no {event} {season}, {data}.",
    },
    "race_summary": {
        "en": "Summarize the result and the strategy of the {season} {event}, {data}.",
        "es": "Resume el resultado y la estrategia del {event} {season}, {data}.",
        "pt": "Resuma o resultado e a estratégia do {event} {season}, {data}.",
    },
}


def split_of(season: int) -> str:
    return "test" if season >= TEST_SEASONS_FROM else "train"


def instance_id(season: int, round_: int, task: str, driver: str | None, rival: str | None, language: str) -> str:
    parts = ["f1", str(season), str(round_), task]
    parts += [p for p in (driver, rival) if p]
    return ":".join([*parts, language])


def decisions(race: RaceAnalysis, block: dict[str, Any]) -> Iterator[tuple[str, str | None, str | None, dict[str, Any]]]:
    """(task, driver, rival, focus) of every decision of the race, in a fixed order."""
    times, positions = lap_tables(race)
    for driver in block["drivers"]:
        code = driver["code"]
        yield "tyre_strategy", code, None, {
            "driver": code,
            "positions_by_lap": driver_positions(positions, code),
        }
    for move in block["moves"]:
        first = min(move["driver_pit_lap"], move["rival_pit_lap"]) - 1
        last = max(move["driver_pit_lap"], move["rival_pit_lap"]) + 1
        yield move["kind"], move["driver"], move["rival"], {
            "driver": move["driver"],
            "rival": move["rival"],
            "move": move,
            "laps": lap_window(times, positions, (move["driver"], move["rival"]), first - 2, last + 2),
        }
    for defense in block["defenses"]:
        yield "defense", defense["driver"], defense["attacker"], {
            "driver": defense["driver"],
            "attacker": defense["attacker"],
            "defense": defense,
            "laps": lap_window(
                times, positions, (defense["driver"], defense["attacker"]),
                defense["first_lap"] - 2, defense["last_lap"] + 2,
            ),
        }
    podium = sorted(
        (d for d in block["drivers"] if d["position"] is not None and d["position"] <= 3),
        key=lambda d: d["position"],
    )
    yield "race_summary", None, None, {"podium": [d["code"] for d in podium]}


def race_instances(
    race: RaceAnalysis, languages: Sequence[str] = LANGUAGES, tasks: Sequence[str] | None = None
) -> list[Instance]:
    """Every instance of one race, languages innermost."""
    block = race_block(race)
    names = {d["code"]: d["name"] for d in block["drivers"]}
    out = []
    for task, driver, rival, focus in decisions(race, block):
        if tasks is not None and task not in tasks:
            continue
        facts = task_facts(block, task, driver, rival)
        if not facts:
            continue
        context = {"task": task, "race": block, "focus": focus}
        for language in languages:
            prompt = PROMPTS[task][language].format(
                driver=names.get(driver or "", driver),
                rival=names.get(rival or "", rival),
                season=race.season,
                event=race.event,
                data=_DATA[language],
            )
            out.append(
                Instance(
                    id=instance_id(race.season, race.round, task, driver, rival, language),
                    domain="f1",
                    task=task,
                    language=language,
                    prompt=prompt,
                    context=context,
                    facts=facts,
                    split=split_of(race.season),
                )
            )
    return out
