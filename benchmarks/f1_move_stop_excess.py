"""Kept undercuts/overcuts with a slow stop: how much a car's stop exceeded the race's own
stops (lap-table pit lane, official Ergast time where given), against the move's margin
(issue 26, oracle11: a penalty served at a stop must not read as a strategy that worked).

    python benchmarks/f1_move_stop_excess.py [--min-extra 1.5] [--seasons 2021]

One row per kept move where either car's stop stood ``--min-extra`` s or more over the
race's own stops by either measure: each car's extra seconds (pit lane against the race's
median green stop, official time against its median official stop), the loser (the car
that came out behind), the margin (how far behind it came out), wet (either stop onto or
off wet-weather tyres), the loser's extra by the measure the rule reads (the official time
where Ergast times the stop, else the lap table's pit lane: ``served_times``) and whether
that extra alone is at least the margin. A closing table counts the moves per band of the
loser's extra.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BANDS = ((-99.0, 1.5), (1.5, 3.0), (3.0, 4.0), (4.0, 5.0), (5.0, 6.0), (6.0, 8.0), (8.0, 10.0), (10.0, 12.0),
         (12.0, 999.0))


def _fmt(value: float) -> str:
    return "-" if value != value else f"{value:+.1f}"


def _band(extra: float) -> str:
    if extra != extra:
        return "no time"
    low, high = next(band for band in BANDS if extra < band[1])
    return f"under {high:g} s" if low < -50 else f"{low:g} s and over" if high > 500 else f"{low:g} to {high:g} s"


def race_rows(race, min_extra: float) -> list[dict]:
    """The kept moves of one derived race with a stop ``min_extra`` s over the race's."""
    from factcov.domains.f1.derive import WET_COMPOUNDS, served_times, stop_excess

    stops = race.stops
    if race.dropped or stops is None or stops.empty or race.moves.empty:
        return []
    excess, served = stop_excess(stops), served_times(stops)
    wet_stops = {(d, int(lap)) for d, lap, a, b in zip(stops["driver"], stops["lap"], stops["from"], stops["to"])
                 if str(a) in WET_COMPOUNDS or str(b) in WET_COMPOUNDS}
    rows = []
    for move in race.moves.itertuples():
        cars = ((move.driver, int(move.driver_pit_lap)), (move.rival, int(move.rival_pit_lap)))
        measured = [excess.get(car, (math.nan, math.nan)) for car in cars]
        if not max((x for pair in measured for x in pair if x == x), default=math.nan) >= min_extra:
            continue
        loser = move.rival if move.worked else move.driver
        margin = abs(float(move.gap_after_s))
        extra = served.get(next(car for car in cars if car[0] == loser), (math.nan,))[0]
        rows.append({"race": f"{race.season} {race.event}", "kind": move.kind, "attacker": move.driver,
                     "rival": move.rival, "laps": f"{cars[0][1]}/{cars[1][1]}", "loser": loser, "margin": margin,
                     "wet": any(car in wet_stops for car in cars), "measures": measured, "loser_extra": extra,
                     "decides": extra >= margin})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--min-extra", type=float, default=1.5)
    parser.add_argument("--seasons", default="", help="comma-separated seasons (default: all)")
    args = parser.parse_args()
    from factcov.domains.f1.source import derived_races

    seasons = [int(s) for s in args.seasons.split(",") if s]
    print("race\tkind\tattacker\trival\tlaps\tloser\tmargin\twet\tattacker pit/official\trival pit/official"
          "\tloser extra\textra>=margin")
    bins: Counter = Counter()
    for race in derived_races(args.data, seasons):
        for row in race_rows(race, args.min_extra):
            bins[(_band(row["loser_extra"]), "wet" if row["wet"] else "dry", row["decides"])] += 1
            (a_lane, a_official), (r_lane, r_official) = row["measures"]
            print(f"{row['race']}\t{row['kind']}\t{row['attacker']}\t{row['rival']}\t{row['laps']}\t{row['loser']}"
                  f"\t{row['margin']:.1f}\t{'wet' if row['wet'] else 'dry'}\t{_fmt(a_lane)}/{_fmt(a_official)}"
                  f"\t{_fmt(r_lane)}/{_fmt(r_official)}\t{_fmt(row['loser_extra'])}"
                  f"\t{'yes' if row['decides'] else 'no'}")
    print("\n# moves per band of the loser's extra: dry/wet, extra >= margin (yes) or not (no)")
    for band in [_band((low + high) / 2 if high < 999 else low + 1) for low, high in BANDS] + ["no time"]:
        print(f"# {band}: " + ", ".join(f"{wet} {'yes' if yes else 'no'} {bins[(band, wet, yes)]}"
                                       for wet in ("dry", "wet") for yes in (True, False)))


if __name__ == "__main__":
    main()
