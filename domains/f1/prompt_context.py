"""The f1 context as a prompt needs it: short key-value lines and tables, only what the task asks about.

The instance context holds the whole race (every driver's stints and stops, every move);
dumped as JSON it was ~6,500 tokens per prompt. Here a decision (undercut, overcut, a
defense, a tyre strategy) gets the race header, its neutralizations, the move itself and
the stints and stops of the drivers involved; a race summary gets one line per driver.
Every value the oracle states is in it (tests/test_prompt_context.py checks each fact).
"""

from __future__ import annotations

from typing import Any


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    return str(value)


def _pairs(mapping: dict[str, Any], skip: tuple[str, ...] = ()) -> str:
    return ", ".join(f"{k.replace('_', ' ')}: {_value(v)}" for k, v in mapping.items() if k not in skip)


def _driver_block(driver: dict[str, Any]) -> list[str]:
    lines = [f"{driver['code']} = {driver['name']} ({driver.get('team', '-')}): grid {_value(driver.get('grid'))}, "
             f"finished {_value(driver.get('position'))} ({driver.get('status', '-')}), "
             f"{len(driver.get('pit_stops') or [])} pit stop(s)"]
    for stint in driver.get("stints") or []:
        lines.append(f"  stint {stint['stint']}: {stint['compound']}, laps {stint['first_lap']}-{stint['last_lap']}, "
                     f"tyres {stint.get('tyre_age_start', '-')} laps old at start, "
                     f"degradation {_value(stint.get('degradation_s_per_lap'))} s/lap")
    for stop in driver.get("pit_stops") or []:
        under = " under neutralization" if stop.get("under_neutralization") else ""
        lines.append(f"  stop {stop['stop']}: lap {stop['lap']}, {stop['from']} -> {stop['to']}{under}")
    for change in driver.get("red_flag_tyre_changes") or []:
        lines.append(f"  red-flag tyre change: {_pairs(change)}")
    return lines


def _laps_table(laps: list[dict[str, Any]]) -> list[str]:
    if not laps:
        return []
    columns = list(laps[0])
    rows = [" | ".join(columns)] + [" | ".join(_value(lap.get(c)) for c in columns) for lap in laps]
    return ["Laps:", *rows]


def render(context: dict[str, Any], task: str) -> str:
    race = context.get("race") or {}
    focus = context.get("focus") or {}
    by_code = {d["code"]: d for d in race.get("drivers") or []}
    lines = [f"Race: {race.get('season')} {race.get('event')} (round {race.get('round')}), "
             f"{race.get('race_laps')} laps"]
    for period in race.get("neutralizations") or []:
        lines.append(f"Neutralization {period['kind']} {period['period']}: laps {period['first_lap']}-{period['last_lap']}")
    if task == "race_summary":
        if focus.get("podium"):
            lines.append("Podium: " + ", ".join(focus["podium"]))
        lines.append("Drivers (code, name, grid, finish, status, pit stops):")
        for driver in sorted(by_code.values(), key=lambda d: (d.get("position") is None, d.get("position") or 0)):
            lines.append(f"{driver['code']} | {driver['name']} | {_value(driver.get('grid'))} | "
                         f"{_value(driver.get('position'))} | {driver.get('status', '-')} | "
                         f"{len(driver.get('pit_stops') or [])}")
        return "\n".join(lines)
    involved = [focus.get(k) for k in ("driver", "rival", "attacker") if focus.get(k) in by_code]
    for key in ("move", "defense"):
        if isinstance(focus.get(key), dict):
            lines.append(f"{key.capitalize()}: " + _pairs(focus[key]))
    for code in involved:
        lines.extend(_driver_block(by_code[code]))
    if focus.get("positions_by_lap"):
        lines.append(f"{focus.get('driver')} position by lap (lap 1 first): "
                     + " ".join(_value(p) for p in focus["positions_by_lap"]))
    lines.extend(_laps_table(focus.get("laps") or []))
    return "\n".join(lines)
