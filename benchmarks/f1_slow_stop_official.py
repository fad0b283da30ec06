"""The dry slow-stop move exclusions against the official pit times (issue 26, oracle12).

    python benchmarks/f1_slow_stop_official.py [--seasons 2019,2021]

One row per candidate move the dry slow-stop rule excludes (``move_excluded``, "...'s stop
lost over"): the measure that fired (the in- and out-lap "stop", or the lap table's
"pit-lane time"), the slow car, the car that came out behind (loser) and its margin, and
each car's extra seconds over the race's own stops by the lap table's pit lane and by the
official Ergast time (``stop_excess``; "-" where not timed). ``contradicted`` says whether
the official time, where Ergast times the slow car's stop, puts it under the rule's floor
(``SLOW_STOP_DECIDES_S`` for the pit lane) or under the margin the rule needed to decide
the move (an attacker's extra over ``SLOW_STOP_EXTRA_S`` decides whatever the margin); it
is read for the pit-lane measure only: the in- and out-lap loss is not a pit-lane time.
``net`` is the slow car's official extra less the other car's (where positive; the
served-time rule's reading, which the slow-stop rule does not make), against the margin.
A closing count per measure and verdict.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _fmt(value: float) -> str:
    return "-" if value != value else f"{value:+.1f}"


def _contradicted(official: float, attacker: bool, margin: float, unmeasured: bool) -> str:
    """Whether the slow car's official extra contradicts a pit-lane exclusion: under the
    floor, or under the margin where the rule read the margin (not for an attacker over
    ``SLOW_STOP_EXTRA_S``, nor for a car with an in- or out-lap without a time)."""
    from factcov.domains.f1.derive import SLOW_STOP_DECIDES_S, SLOW_STOP_EXTRA_S

    if official != official:
        return "no official time"
    if official < SLOW_STOP_DECIDES_S:
        return "yes: under the floor"
    if unmeasured or (attacker and official > SLOW_STOP_EXTRA_S):
        return "no"
    return "yes: under the margin" if official < margin else "no"


def slow_rows(race, captured: list) -> list[dict]:
    """The dry slow-stop exclusions of one race, from the captured ``confounded`` calls."""
    from factcov.domains.f1.derive import stop_excess

    rows = []
    for moves, stops, reasons in captured:
        excess = stop_excess(stops)
        for move, reason in zip(moves.itertuples(), reasons):
            if "'s stop lost over" not in reason or reason.startswith("undecidable"):
                continue
            cars = ((move.driver, int(move.driver_pit_lap)), (move.rival, int(move.rival_pit_lap)))
            loser = move.rival if move.gap_after_s < 0 else move.driver
            slow = reason.split("'s stop", 1)[0].split("/")
            measure = "pit-lane time" if "typical pit-lane time" in reason else "stop"
            nan = (math.nan, math.nan)
            by_car = {d: excess.get((d, lap), nan) for d, lap in cars}
            deciding = loser if loser in slow else slow[0]
            official = by_car[deciding][1]
            unmeasured = "without a time" in reason
            verdict = (_contradicted(official, deciding == move.driver, abs(float(move.gap_after_s)), unmeasured)
                       if measure == "pit-lane time" else "in/out-lap measure")
            rows.append({"race": f"{race.season} {race.event}", "kind": move.kind, "attacker": move.driver,
                         "rival": move.rival, "laps": f"{cars[0][1]}/{cars[1][1]}", "slow": deciding,
                         "loser": loser, "margin": abs(float(move.gap_after_s)), "measure": measure,
                         "slow_lane": by_car[deciding][0], "slow_official": official,
                         "other": [by_car[d] for d, _ in cars if d != deciding][0], "verdict": verdict})
            other = rows[-1]["other"][1]
            rows[-1]["net"] = official - (other if other > 0 else 0.0)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--seasons", default="", help="comma-separated seasons (default: all)")
    args = parser.parse_args()
    from factcov.domains.f1 import derive
    from factcov.domains.f1.source import derived_races

    captured: list = []
    original = derive.confounded

    def capture(moves, stops, *rest, **kw):  # record each call's moves, stops and reasons
        reasons = original(moves, stops, *rest, **kw)
        captured.append((moves.copy(), stops.copy(), reasons))
        return reasons

    derive.confounded = capture
    seasons = [int(s) for s in args.seasons.split(",") if s]
    print("race\tkind\tattacker\trival\tlaps\tslow\tloser\tmargin\tmeasure\tslow pit/official\tother pit/official"
          "\tofficial contradicts\tnet official")
    counts: Counter = Counter()
    for race in derived_races(args.data, seasons):  # each race's derivation records its calls
        for row in slow_rows(race, captured):
            counts[(row["measure"], row["verdict"].split(":")[0])] += 1
            other_lane, other_official = row["other"]
            print(f"{row['race']}\t{row['kind']}\t{row['attacker']}\t{row['rival']}\t{row['laps']}\t{row['slow']}"
                  f"\t{row['loser']}\t{row['margin']:.1f}\t{row['measure']}\t{_fmt(row['slow_lane'])}/"
                  f"{_fmt(row['slow_official'])}\t{_fmt(other_lane)}/{_fmt(other_official)}\t{row['verdict']}"
                  f"\t{_fmt(row['net'])}")
        captured.clear()
    print(f"\n# exclusions: {sum(counts.values())}")
    for (measure, verdict), n in sorted(counts.items()):
        print(f"# {measure}: {verdict}: {n}")


if __name__ == "__main__":
    main()
