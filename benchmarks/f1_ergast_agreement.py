"""Stop counts and pit laps of the f1 oracle against Ergast's pit_stops.csv, every race.

Ergast lists every pass through the pit lane's timing: red-flag tyre changes and waits,
drive-throughs, the field led through the pit lane. F1 counts none of those as stops,
so two references are compared, per driver-race of the races Ergast has a pit table for:

- raw: every Ergast row;
- F1 convention: Ergast's rows without those within one lap of a red flag of
  ``red_flags.csv`` (its own table) and without pit-lane times more than
  ``PASSAGE_SAVING_S`` quicker than the race's median (no stationary time: a passage).

Each disagreement with the convention reference is classified by the quality rule that
explains it (``factcov f1 check``) or as unexplained, and printed with --list.

    python benchmarks/f1_ergast_agreement.py [--list] [--seasons 2018,2019]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PASSAGE_SAVING_S = 3.0
# rules that name a compound and say nothing of whether a stop happened: no explanation
# of a stop-count disagreement
COMPOUND_RULES = {"distrusted_side_kept", "clean_side_kept", "start_compounds_withheld", "late_set_opened"}


def seconds(text: str) -> float | None:
    try:
        if ":" in text:
            minutes, rest = text.split(":", 1)
            return 60 * float(minutes) + float(rest)
        return float(text)
    except ValueError:
        return None


def convention_reference(data: Path):
    """(season, round) -> driver code -> Ergast pit laps, raw and by F1 convention."""
    import pandas as pd

    ergast = data / "ergast"
    read = lambda name: pd.read_csv(ergast / name, na_values=["\\N"], keep_default_na=False)  # noqa: E731
    races, drivers, pits, red = read("races.csv"), read("drivers.csv"), read("pit_stops.csv"), read("red_flags.csv")
    pits = pits.merge(races[["raceId", "year", "round", "name"]], on="raceId").merge(
        drivers[["driverId", "code"]], on="driverId"
    )
    pits["seconds"] = pits["duration"].astype(str).map(seconds)
    red_laps: dict[str, set[int]] = {}
    for race_name, lap in zip(red["Race"], red["Lap"]):
        red_laps.setdefault(race_name, set()).add(int(lap))
    raw: dict = {}
    convention: dict = {}
    for (season, round_, name), rows in pits.groupby(["year", "round", "name"]):
        median = rows.loc[rows["seconds"] < 120, "seconds"].median()  # not the red-flag waits
        reds = red_laps.get(f"{season} {name}", set())
        for row in rows.sort_values("lap").itertuples():
            key = (int(season), int(round_))
            raw.setdefault(key, {}).setdefault(row.code, []).append(int(row.lap))
            near_red = any(abs(row.lap - lap) <= 1 for lap in reds)
            passage = row.seconds is not None and row.seconds < median - PASSAGE_SAVING_S
            long_wait = row.seconds is not None and row.seconds > 120
            if not (near_red or passage or long_wait):
                convention.setdefault(key, {}).setdefault(row.code, []).append(int(row.lap))
    return raw, convention


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--seasons", default="")
    parser.add_argument("--list", action="store_true", help="print every disagreement")
    args = parser.parse_args()

    from factcov.domains.f1.source import race, season_laps

    raw, convention = convention_reference(args.data)
    wanted = [int(s) for s in args.seasons.split(",") if s] or sorted({s for s, _ in raw})
    totals: Counter = Counter()
    causes: Counter = Counter()
    listed = []
    for season in wanted:
        laps = season_laps(args.data, season)
        for round_ in sorted(int(r) for r in laps["RoundNumber"].unique()):
            if (season, round_) not in raw:
                continue
            analysis = race(args.data, season, round_)
            if analysis.dropped:
                totals["races dropped"] += 1
                continue
            log = analysis.quality
            for driver in sorted(set(analysis.stints["driver"])):
                ours = analysis.stops[analysis.stops["driver"] == driver]["lap"].tolist()
                theirs_raw = raw[(season, round_)].get(driver, [])
                theirs = convention.get((season, round_), {}).get(driver, [])
                unknown = driver in analysis.stop_count_unknown
                totals["driver-races"] += 1
                totals["count = raw"] += len(ours) == len(theirs_raw)
                totals["laps = raw"] += ours == sorted(theirs_raw)
                if unknown:
                    totals["count withheld"] += 1
                    continue
                totals["count = convention"] += len(ours) == len(theirs)
                totals["laps = convention"] += ours == theirs
                if ours == theirs:
                    continue
                mine = log[(log["driver"] == driver) & ~log["rule"].isin(COMPOUND_RULES)]
                near = set()
                for lap in set(ours) ^ set(theirs):
                    near |= set(mine.loc[(mine["lap"] - lap).abs() <= 1, "rule"])
                cause = ", ".join(sorted(near)) or ("pit laps differ by one" if len(ours) == len(theirs) else "unexplained")
                causes[cause] += 1
                listed.append((season, round_, analysis.event, driver, ours, theirs, theirs_raw, cause))
    n = totals["driver-races"]
    judged = n - totals["count withheld"]
    print(f"driver-races with an Ergast pit table: {n} ({totals['races dropped']} races dropped)")
    print(f"stop count = Ergast raw:        {totals['count = raw']} ({totals['count = raw'] / n:.1%}); "
          f"pit laps {totals['laps = raw']} ({totals['laps = raw'] / n:.1%})")
    print(f"stop count = Ergast convention: {totals['count = convention']} of {judged} "
          f"({totals['count = convention'] / judged:.1%}); pit laps {totals['laps = convention']} "
          f"({totals['laps = convention'] / judged:.1%}); stop count withheld: {totals['count withheld']}")
    print("disagreements with the convention reference, by the rule that fired near them:")
    for cause, count in causes.most_common():
        print(f"  {count:4d}  {cause}")
    if args.list:
        for row in listed:
            print(*row)


if __name__ == "__main__":
    main()
