"""Facts from the race block of an instance's context: all of them (the knowledge) and
the relevant ones of each task (the oracle of recall)."""

from __future__ import annotations

import re
from typing import Any

from factcov.model import Fact

KNOWN = ("SOFT", "MEDIUM", "HARD", "INTERMEDIATE", "WET")
NOT_IN_RESULTS = "Not in results"  # a car with laps the official results do not list
_TOOK_THE_FLAG = re.compile(r"Finished|\+\d+ Laps?|Lapped|Disqualified")


def retired(driver: dict[str, Any]) -> bool:
    """Did not take the chequered flag: any status but finished, lapped or disqualified."""
    return not _TOOK_THE_FLAG.fullmatch(str(driver.get("status", "")))


def driver_facts(driver: dict[str, Any]) -> list[Fact]:
    """Tyre strategy and result of one driver; UNKNOWN compounds give no compound fact."""
    code = driver["code"]
    facts = []
    if not driver.get("stop_count_unknown"):
        facts.append(Fact(type="stop_count", key={"driver": code}, value=len(driver["pit_stops"])))
    for stop in driver["pit_stops"]:
        facts.append(Fact(type="pit_lap", key={"driver": code, "stop": stop["stop"]}, value=stop["lap"]))
    for stint in driver["stints"]:
        if stint["compound"] in KNOWN:
            facts.append(
                Fact(
                    type="stint_compound",
                    key={"driver": code, "stint": stint["stint"]},
                    value=stint["compound"],
                )
            )
    for stop in driver["pit_stops"]:
        if stop["from"] in KNOWN and stop["to"] in KNOWN:
            facts.append(
                Fact(
                    type="compound_change",
                    key={"driver": code, "stop": stop["stop"]},
                    value=[stop["from"], stop["to"]],
                )
            )
    if driver["position"] is not None:
        facts.append(Fact(type="final_position", key={"driver": code}, value=driver["position"]))
    if driver.get("status") != NOT_IN_RESULTS:
        facts.append(Fact(type="retired", key={"driver": code}, value=retired(driver)))
    return facts


def move_facts(move: dict[str, Any]) -> list[Fact]:
    key = {"driver": move["driver"], "rival": move["rival"]}
    return [
        Fact(type=move["kind"], key=key, value=move["worked"]),
        Fact(type="time_gained", key=key, value=move["time_gained_s"]),
    ]


def defense_fact(defense: dict[str, Any]) -> Fact:
    return Fact(
        type="defense",
        key={"driver": defense["driver"], "attacker": defense["attacker"]},
        value=defense["laps"],
    )


def neutralization_facts(race: dict[str, Any]) -> list[Fact]:
    return [
        Fact(
            type="neutralization",
            key={"kind": n["kind"], "period": n["period"]},
            value=[n["first_lap"], n["last_lap"]],
        )
        for n in race["neutralizations"]
    ]


def winner(race: dict[str, Any]) -> str | None:
    for driver in race["drivers"]:
        if driver["position"] == 1:
            return driver["code"]
    return None


def race_facts(race: dict[str, Any]) -> list[Fact]:
    """Everything checkable about the race: the knowledge of each of its instances."""
    facts: list[Fact] = []
    for driver in race["drivers"]:
        facts.extend(driver_facts(driver))
    for move in race["moves"]:
        facts.extend(move_facts(move))
    facts.extend(defense_fact(d) for d in race["defenses"])
    if (code := winner(race)) is not None:
        facts.append(Fact(type="winner", key={}, value=code))
    facts.extend(neutralization_facts(race))
    return facts


def _driver(race: dict[str, Any], code: str) -> dict[str, Any]:
    return next(d for d in race["drivers"] if d["code"] == code)


def _stop_of(driver: dict[str, Any], lap: int) -> dict[str, Any]:
    return next(s for s in driver["pit_stops"] if s["lap"] == lap)


def _position(race: dict[str, Any], code: str) -> list[Fact]:
    position = _driver(race, code)["position"]
    if position is None:
        return []
    return [Fact(type="final_position", key={"driver": code}, value=position)]


def _summary_facts(race: dict[str, Any]) -> list[Fact]:
    """The race summary: the winner and his stop count, the podium, the neutralizations."""
    facts: list[Fact] = []
    if (code := winner(race)) is not None:
        facts.append(Fact(type="winner", key={}, value=code))
        if not _driver(race, code).get("stop_count_unknown"):
            facts.append(Fact(type="stop_count", key={"driver": code}, value=len(_driver(race, code)["pit_stops"])))
    podium = sorted(
        (d for d in race["drivers"] if d["position"] is not None and 2 <= d["position"] <= 3),
        key=lambda d: d["position"],
    )
    facts.extend(Fact(type="final_position", key={"driver": d["code"]}, value=d["position"]) for d in podium)
    facts.extend(neutralization_facts(race))
    return facts


def task_facts(race: dict[str, Any], task: str, driver: str | None, rival: str | None) -> list[Fact]:
    """The relevant facts of one decision (see docs/domains/f1.md, "Instances")."""
    if task == "tyre_strategy":
        # a retirement is part of the story; finishing is already told by the position
        return [f for f in driver_facts(_driver(race, driver)) if f.type != "retired" or f.value]
    if task in ("undercut", "overcut"):
        move = next(
            m for m in race["moves"] if m["kind"] == task and m["driver"] == driver and m["rival"] == rival
        )
        a, b = _driver(race, driver), _driver(race, rival)
        stop_a, stop_b = _stop_of(a, move["driver_pit_lap"]), _stop_of(b, move["rival_pit_lap"])
        return [
            *move_facts(move),
            Fact(type="pit_lap", key={"driver": driver, "stop": stop_a["stop"]}, value=stop_a["lap"]),
            Fact(type="pit_lap", key={"driver": rival, "stop": stop_b["stop"]}, value=stop_b["lap"]),
        ]
    if task == "defense":
        defense = next(d for d in race["defenses"] if d["driver"] == driver and d["attacker"] == rival)
        return [defense_fact(defense), *_position(race, driver), *_position(race, rival)]
    if task == "race_summary":
        return _summary_facts(race)
    raise ValueError(f"unknown f1 task {task!r}")
