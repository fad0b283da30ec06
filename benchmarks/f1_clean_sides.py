"""The sides of the distrusted stops (issue 26, oracle10): which are withheld, which are clean.

A distrusted stop (a stop whose tyre columns run one set's compound and age across it) makes
the stint before it (the *before* side) and the stint after it (the *after* side) unknown
unless the Stint counter names them (``distrusted_side_kept``). This lists every side of the
174 races with the counter's answer and whether the side is *clean* by the criterion below,
without using the counter's answer, and validates the criterion on the sides the counter
names (docs/domains/f1.md, "Tyre data distrusted").

The criterion. FastF1 gives each lap the tyre information known at that lap's time, so rows
shown before a stop cannot carry a set fitted at or after it: whether the tyres were changed
at the stop (a missed change) or not (the feed's "new number, same set" mark of a stop with
no tyre change), the stint before the stop ran on its rows' compound. That fails only when
the rows before are themselves not the set's own. A before side (stint s, ending at the
distrusted stop) is clean when all three hold:

1. the stint does not begin at a distrusted stop (it is not itself the after side of an
   earlier distrusted stop in the same run, whose rows may carry the old set on);
2. the counter has not run ahead of the stints from the start up to it: not every stint of
   the car from the first to this one reads a lowest Stint number above its own position (or
   none), as 2022 Monaco's cars do (set 2 on lap 1, set 3 on the second stint, ...); a
   counter that skips a number at a stop later (2022 Austria: set 1, then set 3 at the first
   stop with a fresh set shown) does not put the rows ahead of the sets;
3. its rows with a known compound read one compound only.

An after side is never clean by this argument: its rows may carry the old set on.

    python benchmarks/f1_clean_sides.py            # the counts and the validation
    python benchmarks/f1_clean_sides.py --list     # every side, one a line
    python benchmarks/f1_clean_sides.py --evidence # each clean withheld side with its evidence

The evidence for judging a side (the judgments: ``f1_clean_sides_judgments.tsv``, key
``season:round:driver:stint=N=COMPOUND``, verdict ``right``/``unsure``/``wrong``): its rows
(first and last: compound, age, fresh, Stint number), the next stint's first row, Ergast's
pit laps, the field's compounds on the stint's laps (wet or dry), and the car's median green
lap against the field's median on each compound over the same laps (pace).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "f1"
JUDGMENTS = Path(__file__).with_name("f1_clean_sides_judgments.tsv")


@dataclass
class Side:
    season: int
    round: int
    driver: str
    stint: int
    side: str  # "before" or "after"
    stop_lap: int
    first_lap: int
    last_lap: int
    rows: str  # the known compounds the stint's rows read, in order of first showing
    numbers: str  # the Stint numbers on the stint's rows
    counter: str | None  # the compound the Stint counter names, if it does
    clean: bool
    why: str  # which condition fails, or "clean"
    ahead: bool  # a start stint start_stints_ahead withholds (2022 Monaco)


def marked_races():
    """(season, round, marked laps, counter names, stints ahead, clean sides the rule keeps)
    of every race kept with a distrusted stop."""
    from factcov.domains.f1.build import race_tasks
    from factcov.domains.f1.derive import mark_laps, race_distance
    from factcov.domains.f1.quality import (
        QualityLog,
        check_lap_numbering,
        drop_cars_without_a_lap,
        field_red_laps,
        keep_clean_sides,
        name_distrusted_sides,
        start_stints_ahead,
    )

    _, tasks = race_tasks(sorted((DATA / "laps").glob("*.csv.gz")), DATA / "ergast", None, None, ("en",))
    for race_laps, classification, _names, official_stops, _ in tasks:
        log = QualityLog()
        laps = drop_cars_without_a_lap(race_laps, log)
        checked = check_lap_numbering(laps, classification, official_stops, log)
        if checked is None:
            continue
        within = checked[checked["LapNumber"] <= race_distance(checked, classification)]
        laps = mark_laps(within, field_red_laps(within), official_stops, log)
        if not laps["distrusted"].any():
            continue
        named = name_distrusted_sides(laps, QualityLog())
        ahead = start_stints_ahead(laps, QualityLog())
        kept = keep_clean_sides(laps, named, QualityLog())  # the rule built on this criterion
        yield int(laps["Season"].iloc[0]), int(laps["RoundNumber"].iloc[0]), laps, named, ahead, kept


def clean_reason(rows, stint: int) -> str:
    """Why the before side ``stint`` of one car's marked ``rows`` is not clean, or "clean"."""
    ends = set(rows.loc[rows["distrusted"], "stint_id"].astype(int))
    if stint - 1 in ends:
        return "after side of an earlier distrusted stop"
    numbers = rows.groupby("stint_id")["Stint"].min()
    if all(numbers.get(s, float("nan")) > s or numbers.get(s) != numbers.get(s) for s in range(1, stint + 1)):
        return "counter ahead of the stints from the start"
    compounds = rows.loc[rows["stint_id"] == stint, "Compound"].dropna().nunique()
    if compounds != 1:
        return f"rows read {compounds} compounds"
    return "clean"


def sides() -> list[Side]:
    out = []
    for season, round_, laps, named, ahead, kept in marked_races():
        for driver, rows in laps.groupby("Driver", sort=True):
            for stop in rows.loc[rows["distrusted"]].itertuples():
                for side, stint in (("before", int(stop.stint_id)), ("after", int(stop.stint_id) + 1)):
                    own = rows[rows["stint_id"] == stint]
                    if own.empty:
                        continue
                    compounds = list(dict.fromkeys(own["Compound"].dropna()))
                    numbers = sorted({int(n) for n in own["Stint"].dropna()})
                    why = clean_reason(rows, stint) if side == "before" else "after side"
                    # the rule (quality.keep_clean_sides) must agree with the criterion written here first
                    assert ((str(driver), stint) in kept) == (why == "clean" and (str(driver), stint) not in named)
                    out.append(Side(season, round_, str(driver), stint, side, int(stop.LapNumber),
                                    int(own["LapNumber"].min()), int(own["LapNumber"].max()), "/".join(compounds),
                                    ",".join(map(str, numbers)), named.get((str(driver), stint)), why == "clean",
                                    why, (str(driver), stint) in ahead))
    # a stint between two distrusted stops is the after side of one and the before side of
    # the next: counted once, as an after side (its rows may carry the set before it on)
    after = {(s.season, s.round, s.driver, s.stint) for s in out if s.side == "after"}
    return [s for s in out if s.side == "after" or (s.season, s.round, s.driver, s.stint) not in after]


def _judgments() -> dict[str, str]:
    import csv

    with JUDGMENTS.open(encoding="utf-8", newline="") as handle:
        return {row["key"]: row["verdict"] for row in csv.DictReader(handle, delimiter="\t")}


def report(all_sides: list[Side]) -> None:
    keys = {(s.season, s.round, s.driver, s.stint) for s in all_sides}
    stops = {(s.season, s.round, s.driver, s.stop_lap) for s in all_sides}
    print(f"distrusted stops: {len(stops)}; sides (stints beside them): {len(keys)}")
    for side in ("before", "after"):
        group = [s for s in all_sides if s.side == side]
        named = [s for s in group if s.counter]
        withheld = [s for s in group if not s.counter]
        print(f"\n{side} sides: {len(group)}; named by the counter {len(named)}; withheld {len(withheld)}")
        print(f"  withheld, by criterion: {dict(Counter(s.why for s in withheld))}")
        if side == "before":
            clean = [s for s in named if s.clean]
            agree = [s for s in clean if s.rows == s.counter]
            print(f"  validation on the {len(named)} named: clean {len(clean)}, rows' compound = counter's "
                  f"{len(agree)} of {len(clean)}; not clean: {dict(Counter(s.why for s in named if not s.clean))}")
            for s in clean:
                if s.rows != s.counter:
                    print(f"  MISS {s}")
        else:
            differ = [s for s in named if s.rows.split("/")[0] != s.counter]
            print(f"  the rows' first compound would have been wrong on {len(differ)} of the {len(named)} named "
                  "after sides")
    kept = [s for s in all_sides if s.clean and not s.counter]
    verdicts = _judgments()
    found = Counter(verdicts.get(f"{s.season}:{s.round}:{s.driver}:stint={s.stint}={s.rows}", "unjudged") for s in kept)
    print(f"\nkept by clean_side_kept: {len(kept)}; judged {len(kept) - found['unjudged']}: right {found['right']}, "
          f"unsure {found['unsure']}, wrong {found['wrong']}, unjudged {found['unjudged']}")
    ahead = [s for s in all_sides if s.ahead]
    print(f"\nstart stints withheld (2022 Monaco) among the sides: {len(ahead)}; clean by the criterion: "
          f"{sum(s.clean for s in ahead)}")


def _row(row) -> str:
    return (f"lap {int(row.LapNumber)} {row.Compound} age {row.TyreLife:.0f} fresh {row.FreshTyre} "
            f"set {row.Stint:.0f}" if row.Stint == row.Stint else f"lap {int(row.LapNumber)} {row.Compound} "
            f"age {row.TyreLife:.0f} fresh {row.FreshTyre} set -")


def evidence(all_sides: list[Side]) -> None:
    """Each clean before side the counter does not name, with what a judge reads."""
    import pandas as pd

    pits = pd.read_csv(DATA / "ergast" / "pit_stops.csv")
    races = pd.read_csv(DATA / "ergast" / "races.csv")
    codes = pd.read_csv(DATA / "ergast" / "drivers.csv")
    clean = {(s.season, s.round, s.driver, s.stint): s for s in all_sides if s.clean and not s.counter}
    for season, round_, laps, _named, _ahead, _kept in marked_races():
        for key, side in clean.items():
            if key[:2] != (season, round_):
                continue
            rows = laps[laps["Driver"] == side.driver]
            own = rows[rows["stint_id"] == side.stint]
            nxt = rows[rows["stint_id"] == side.stint + 1]
            race = races.loc[(races["year"] == season) & (races["round"] == round_), "raceId"]
            ids = codes.loc[codes["code"] == side.driver, "driverId"]
            ergast = sorted(pits.loc[pits["raceId"].isin(race) & pits["driverId"].isin(ids), "lap"].tolist())
            span = laps[laps["LapNumber"].between(side.first_lap, side.last_lap)]
            field = span["Compound"].value_counts(normalize=True).round(2).to_dict()
            green = span[span["is_green"] & ~span["is_out_lap"] & span["PitInTime"].isna() & (span["LapNumber"] > 1)]
            mine = green.loc[green["Driver"] == side.driver, "LapTime"].median()
            others = green[green["Driver"] != side.driver].groupby("Compound")["LapTime"].median().round(2).to_dict()
            print(f"{season} {round_} {laps['EventName'].iloc[0]} {side.driver} stint {side.stint} laps "
                  f"{side.first_lap}-{side.last_lap} kept {side.rows} (stop lap {side.stop_lap})")
            print(f"  first {_row(next(own.itertuples()))}; last {_row(list(own.itertuples())[-1])}")
            print(f"  next stint: {_row(next(nxt.itertuples())) if len(nxt) else '-'}; Ergast pit laps {ergast}")
            print(f"  field compounds on these laps {field}; median green lap {mine:.2f} s, field by compound {others}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="every side, tab-separated")
    parser.add_argument("--evidence", action="store_true", help="each clean withheld side with its evidence")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    all_sides = sides()
    if args.evidence:
        evidence(all_sides)
        return
    if args.list:
        print("season\tround\tdriver\tstint\tside\tstop_lap\tlaps\trows\tnumbers\tcounter\tclean\twhy")
        for s in all_sides:
            print(f"{s.season}\t{s.round}\t{s.driver}\t{s.stint}\t{s.side}\t{s.stop_lap}\t{s.first_lap}-{s.last_lap}"
                  f"\t{s.rows}\t{s.numbers}\t{s.counter or '-'}\t{s.clean}\t{s.why}")
        return
    report(all_sides)


if __name__ == "__main__":
    main()
