"""The structured data a model is given: the race block (every driver's stints, stops and
classification, neutralizations, close-car moves, defenses) and a task's focus (positions
and gaps around the decision). The oracle rebuilds every fact from the race block, so a
claim about another driver of the same race can be checked.
"""

from __future__ import annotations

import math
from typing import Any

from factcov.domains.f1.derive import RaceAnalysis
from factcov.domains.f1.oracle import NOT_IN_RESULTS

FOCUS_MARGIN_LAPS = 2  # laps shown before and after a move or a defense


def _int(value: Any) -> int | None:
    if value is None:
        return None
    try:
        if math.isnan(float(value)):
            return None
    except (TypeError, ValueError):
        return None
    return int(value)


def _float(value: Any, digits: int = 3) -> float | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else round(number, digits)


def _records_by_driver(frame: Any) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in frame.to_dict("records"):
        grouped.setdefault(record["driver"], []).append(record)
    return grouped


def race_block(race: RaceAnalysis) -> dict[str, Any]:
    """The whole race as plain JSON-able data, drivers in classification order."""
    stints = _records_by_driver(race.stints)
    stops = _records_by_driver(race.stops)
    changes = _records_by_driver(race.red_flag_changes)
    drivers = []
    rows = race.classification.to_dict("records")
    listed = {row["code"] for row in rows}
    # a car with laps but no official result (a user's tables may disagree): unclassified
    rows += [
        {"code": code, "name": code, "team": None, "grid": None, "position": None,
         "status": NOT_IN_RESULTS, "laps": None}
        for code in sorted(set(stints) - listed)
    ]
    for row in rows:
        code = row["code"]
        if code not in stints:
            continue  # entered but never completed a lap
        drivers.append(
            {
                "code": code,
                "name": row["name"],
                "team": row["team"],
                "grid": _int(row["grid"]),
                "position": _int(row["position"]),
                "status": row["status"],
                "laps_completed": _int(row["laps"]),
                "stints": [
                    {
                        "stint": int(s["stint"]),
                        "compound": s["compound"],
                        "first_lap": int(s["first_lap"]),
                        "last_lap": int(s["last_lap"]),
                        "tyre_age_start": _int(s["tyre_age_start"]),
                        "degradation_s_per_lap": _float(s["degradation_s_per_lap"]),
                    }
                    for s in stints[code]
                ],
                "pit_stops": [
                    {
                        "stop": int(s["stop"]),
                        "lap": int(s["lap"]),
                        "from": s["from"],
                        "to": s["to"],
                        "under_neutralization": bool(s["neutralized"]),
                    }
                    for s in stops.get(code, ())
                ],
                "red_flag_tyre_changes": [
                    {"lap": int(c["lap"]), "from": c["from"], "to": c["to"]}
                    for c in changes.get(code, ())
                ],
            }
        )
        if code in race.stop_count_unknown:
            # a pit entry on his last lap the data cannot tell (stop or retirement)
            drivers[-1]["stop_count_unknown"] = True
    return {
        "season": race.season,
        "round": race.round,
        "event": race.event,
        "race_laps": race.race_laps,
        "drivers": drivers,
        "neutralizations": [
            {k: (int(v) if k != "kind" else v) for k, v in row.items()}
            for row in race.neutralizations.to_dict("records")
        ],
        "moves": [
            {
                "kind": m["kind"],
                "driver": m["driver"],
                "rival": m["rival"],
                "driver_pit_lap": int(m["driver_pit_lap"]),
                "rival_pit_lap": int(m["rival_pit_lap"]),
                "gap_before_s": _float(m["gap_before_s"], 1),
                "gap_after_s": _float(m["gap_after_s"], 1),
                "time_gained_s": _float(m["time_gained_s"], 1),
                "worked": bool(m["worked"]),
            }
            for m in race.moves.to_dict("records")
        ],
        "defenses": [
            {
                "driver": d["driver"],
                "attacker": d["attacker"],
                "first_lap": int(d["first_lap"]),
                "last_lap": int(d["last_lap"]),
                "laps": int(d["laps"]),
                "attacker_best_lap_faster_by_s": _float(d["best_lap_delta_s"]),
            }
            for d in race.defenses.to_dict("records")
        ],
    }


def lap_tables(race: RaceAnalysis) -> tuple[dict[int, dict[str, float]], dict[int, dict[str, Any]]]:
    """Session times and running positions as {lap: {driver: value}} (fast lookups)."""
    return race.times.to_dict("index"), race.positions().to_dict("index")


def lap_window(
    times: dict[int, dict[str, float]],
    positions: dict[int, dict[str, Any]],
    drivers: tuple[str, str],
    first: int,
    last: int,
) -> list[dict[str, Any]]:
    """Positions of two cars and the gap between them (second minus first) lap by lap."""
    rows = []
    a, b = drivers
    for lap in range(max(1, first), last + 1):
        if lap not in times:
            continue
        gap = times[lap].get(b, math.nan) - times[lap].get(a, math.nan)
        rows.append(
            {
                "lap": lap,
                f"{a}_position": _int(positions[lap].get(a)),
                f"{b}_position": _int(positions[lap].get(b)),
                f"gap_{b}_to_{a}_s": _float(gap, 1),
            }
        )
    return rows


def driver_positions(positions: dict[int, dict[str, Any]], driver: str) -> list[int]:
    """A driver's running position at the end of each lap he completed."""
    out = []
    for lap in sorted(positions):
        value = _int(positions[lap].get(driver))
        if value is not None:
            out.append(value)
    return out
