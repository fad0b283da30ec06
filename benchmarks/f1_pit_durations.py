"""Official pit-lane durations against what the oracle calls each pit entry, every race
with Ergast's ``milliseconds`` (issue 26, oracle9).

For every pit entry the oracle sees (a row with a ``PitInTime``, not a pit-lane start), the
official duration (Ergast ``pit_stops.csv``, ``milliseconds``) minus the race's median
official stop: the median official duration (under 120 s) of the entries the oracle calls
stops with a recorded tyre change, under any flag (``--baseline green``: under green by the
car's own ``TrackStatus`` only, too few in some races: 2020 Britain, 2021 Saudi Arabia, where
slow green stops and quick ones behind the safety car put real stops 7 s under it). Split by what the
oracle calls the entry: a stop with a change, a distrusted stop (the age running on), a
drive-through, a stop-go or repair, the field led through the pit lane, the same tyres
around a red flag, a red-flag tyre change, a last-row entry. Printed: each kind's
distribution, the margin between the quickest stops and the slowest drive-throughs and
stop-gos, the stops whose set runs on through the car's next entry (the class of
``change_after_drive_through``) by official time, the races whose lap-table typical stop is
far from the official one, and every entry where the lap table's passage tests and the
official durations disagree (a lap-table drive-through not 3 s under the official stops, or
the reverse; a lap-table stop-go or repair not 4 s over them, or a same-tyre stop over).

    python benchmarks/f1_pit_durations.py [--seasons 2025] [--list]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from f1_quick_entries import marked_laps  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
KINDS = ("stop, change", "stop, distrusted", "drive-through", "stop-go/repair", "field passage",
         "red-flag restart", "red-flag change", "red-flag kept", "last row")


def official_durations(data: Path) -> dict:
    """(season, round, driver, lap) -> Ergast's duration in seconds."""
    import pandas as pd

    ergast = data / "ergast"
    read = lambda name: pd.read_csv(ergast / name, na_values=["\\N"], keep_default_na=False)  # noqa: E731
    pits = read("pit_stops.csv").merge(read("races.csv")[["raceId", "year", "round"]], on="raceId").merge(
        read("drivers.csv")[["driverId", "code"]], on="driverId")
    seconds = pd.to_numeric(pits["milliseconds"], errors="coerce") / 1000
    return {(int(y), int(r), str(c), int(lap)): float(s)
            for y, r, c, lap, s in zip(pits["year"], pits["round"], pits["code"], pits["lap"], seconds)}


def passage_kinds(log) -> dict:
    """(driver, lap) -> the passage or red-flag kind the quality log gives the entry."""
    kinds = {}
    for rule, driver, lap, detail in zip(log["rule"], log["driver"], log["lap"], log["detail"]):
        if rule == "pit_passage":
            kind = ("drive-through" if detail.startswith("drive-through") else
                    "stop-go/repair" if detail.startswith("stop-go") else
                    "field passage" if detail.startswith("the field") else "red-flag restart")
        elif rule == "red_flag_tyres_kept":
            kind = "red-flag kept"
        else:
            continue
        kinds[(str(driver), int(lap))] = kind
    return kinds


def race_entries(marked, log, official: dict) -> list[dict]:
    """Every pit entry of one race with its kind and both measures (lap table, official)."""
    from factcov.domains.f1.quality import status_has

    season, round_ = int(marked["Season"].iloc[0]), int(marked["RoundNumber"].iloc[0])
    by_driver = marked.groupby("Driver", sort=False)
    transit = by_driver["PitOutTime"].shift(-1) - marked["PitInTime"]
    green = ~status_has(marked["TrackStatus"], "4567")
    has_next = by_driver["LapNumber"].shift(-1).notna()
    compound, life = by_driver["Compound"].shift(-1), by_driver["TyreLife"].shift(-1)
    changed = marked["is_stop"] & ~marked["distrusted"] & has_next
    typical = float(transit[changed & green & transit.between(5, 120)].median())
    kinds = passage_kinds(log)
    pre_race = (marked["LapNumber"] == 1) & (marked["PitInTime"] < marked["PitOutTime"]).eq(True)
    rows = []
    for i in marked.index[marked["PitInTime"].notna() & ~pre_race]:
        driver, lap = str(marked.at[i, "Driver"]), int(marked.at[i, "LapNumber"])
        if marked.at[i, "is_red_change"]:
            kind = "red-flag change"
        elif (driver, lap) in kinds:
            kind = kinds[(driver, lap)]
        elif not has_next[i]:
            kind = "last row"
        elif marked.at[i, "is_stop"]:
            kind = "stop, distrusted" if marked.at[i, "distrusted"] else "stop, change"
        else:
            kind = "last row"  # an entry with no exit on the car's final row
        rows.append({"season": season, "round": round_, "event": str(marked.at[i, "EventName"]), "driver": driver,
                     "lap": lap, "kind": kind, "green": bool(green[i]), "transit": transit[i], "typical": typical,
                     "tyres": f"{marked.at[i, 'Compound']} {marked.at[i, 'TyreLife']:.0f} -> "
                              f"{compound[i]} {life[i]:.0f}",
                     "official": official.get((season, round_, driver, lap))})
    return rows


def with_official_median(frame, green_only: bool):
    """Each entry's official duration minus its race's median official stop with a change
    (under green only, or under any flag)."""
    base = frame[(frame["kind"] == "stop, change") & (frame["green"] | (not green_only))
                 & frame["official"].notna() & (frame["official"] < 120)]
    median = base.groupby(["season", "round"])["official"].median().rename("official_median")
    frame = frame.merge(median, left_on=["season", "round"], right_index=True, how="left")
    frame["official_delta"] = frame["official"] - frame["official_median"]
    frame["table_delta"] = frame["transit"] - frame["typical"]
    return frame


def describe(frame, baseline: str) -> None:
    print(f"official duration minus the race's median official stop with a change ({baseline}), by the oracle's kind")
    print(f"{'kind':18s} {'n':>5s} {'listed':>6s}  {'min':>6s} {'p1':>6s} {'p5':>6s} {'median':>6s} {'p95':>6s} "
          f"{'max':>6s}  <-3s  <-4s  >+4s  >+6s")
    for kind in KINDS:
        rows = frame[frame["kind"] == kind]
        values = rows["official_delta"].dropna()
        if not len(rows):
            continue
        q = values.quantile([0, 0.01, 0.05, 0.5, 0.95, 1]).to_list() if len(values) else [float("nan")] * 6
        print(f"{kind:18s} {len(rows):5d} {len(values):6d}  " + " ".join(f"{v:+6.1f}" for v in q)
              + f"  {(values < -3).sum():4d}  {(values < -4).sum():4d}  {(values > 4).sum():4d}  {(values > 6).sum():4d}")


def show(rows, title: str) -> None:
    print(f"{title}: {len(rows)}")
    for r in rows.itertuples():
        print(f"  {r.season} {r.event} {r.driver} lap {r.lap}: {r.kind}{'' if r.green else ' (SC/VSC)'}, "
              f"{r.tyres}; lap table {r.transit:.1f} s ({r.table_delta:+.1f}), official {r.official:.1f} s "
              f"({r.official_delta:+.1f} against {r.official_median:.1f})")


def margins(frame, listing: bool) -> None:
    """Where the kinds sit against each other, and the entries on the wrong side."""
    stops = frame[frame["kind"].isin(("stop, change", "stop, distrusted"))].dropna(subset=["official_delta"])
    drive = frame[frame["kind"] == "drive-through"].dropna(subset=["official_delta"])
    stop_go = frame[frame["kind"] == "stop-go/repair"].dropna(subset=["official_delta"])
    print(f"slowest drive-through {drive['official_delta'].max():+.1f} s; quickest stops "
          + ", ".join(f"{v:+.1f}" for v in stops["official_delta"].nsmallest(5)))
    print(f"quickest stop-go/repair {stop_go['official_delta'].min():+.1f} s; slowest green stops with a change "
          + ", ".join(f"{v:+.1f}" for v in stops.loc[stops["green"], "official_delta"].nlargest(5)))
    for cut in (3.0, 3.5, 4.0):
        wrong = stops[stops["official_delta"] < -cut]
        print(f"stops more than {cut:g} s quicker than the race's official median: {len(wrong)}")
        if listing or cut == 3.0:
            show(wrong, f"  the stops under -{cut:g} s")


def class_and_near_misses(frame) -> None:
    """The rule's class: a stop with a recorded change followed, as the car's next entry, by a
    distrusted stop (the set shown at the first running on through the second); by official
    time. Only those under the drive-through margin move (``change_after_drive_through``)."""
    pairs = []
    for _, own in frame.sort_values("lap").groupby(["season", "round", "driver"]):
        entries = own.to_dict("records")
        pairs += [(a, b) for a, b in zip(entries, entries[1:])
                  if a["kind"] in ("stop, change", "drive-through") and b["kind"] == "stop, distrusted"]
    pairs.sort(key=lambda p: (p[0]["official_delta"] != p[0]["official_delta"], p[0]["official_delta"]))
    print(f"stops or drive-throughs whose car's next entry is a distrusted stop: {len(pairs)}; the quickest by "
          "official time:")
    for a, b in pairs[:6]:
        print(f"  {a['season']} {a['event']} {a['driver']} lap {a['lap']} ({a['kind']}, {a['tyres']}) official "
              f"{a['official_delta']:+.1f} s, lap table {a['table_delta']:+.1f} s; then lap {b['lap']} ({b['tyres']})")


def typical_apart(frame) -> None:
    """Races whose lap-table typical stop (green, the oracle's) is over 2 s from the official median."""
    races = frame.dropna(subset=["official_median"]).groupby(["season", "round", "event"])[
        ["typical", "official_median"]].first()
    apart = races[(races["typical"] - races["official_median"]).abs() > 2]
    print(f"races whose lap-table typical stop is over 2 s from the official median stop: {len(apart)}")
    for (season, _, event), row in apart.iterrows():
        print(f"  {season} {event}: lap table {row['typical']:.1f} s, official {row['official_median']:.1f} s")


def disagreements(frame) -> None:
    """The lap table's passage tests against the same tests on the official durations."""
    listed = frame.dropna(subset=["official_delta", "table_delta"])
    table_drive = listed["kind"] == "drive-through"
    official_quick = listed["official_delta"] < -3.0
    same_tyres = listed["kind"].isin(("drive-through", "stop-go/repair", "stop, distrusted"))
    show(listed[table_drive & ~official_quick], "lap-table drive-throughs the official duration does not time as one")
    show(listed[same_tyres & ~table_drive & official_quick],
         "same-tyre entries the official duration times as a drive-through and the lap table does not")
    stop_go = listed["kind"] == "stop-go/repair"
    official_slow = listed["official_delta"] > 4.0
    show(listed[stop_go & ~official_slow], "lap-table stop-gos/repairs under +4 s officially")
    show(listed[same_tyres & ~stop_go & official_slow & listed["green"]],
         "green same-tyre stops over +4 s officially that the lap table calls stops")


def main() -> None:
    import pandas as pd

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--seasons", default="")
    parser.add_argument("--baseline", choices=("green", "all"), default="all",
                        help="the race's median official stop with a change: under green only, or all")
    parser.add_argument("--list", action="store_true", help="list the stops under -3.5 and -4 s too")
    args = parser.parse_args()

    from factcov.domains.f1.source import season_laps

    official = official_durations(args.data)
    races = {(s, r) for s, r, _, _ in official}
    seasons = [int(s) for s in args.seasons.split(",") if s] or sorted({s for s, _ in races})
    rows: list[dict] = []
    for season in seasons:
        laps = season_laps(args.data, season)
        for round_ in sorted(int(r) for r in laps["RoundNumber"].unique()):
            if (season, round_) not in races:
                continue
            marked = marked_laps(args.data, season, round_, laps[laps["RoundNumber"] == round_])
            if marked is not None:
                rows += race_entries(*marked, official)
    frame = with_official_median(pd.DataFrame(rows), args.baseline == "green")
    print(f"{frame[['season', 'round']].drop_duplicates().shape[0]} races, {len(frame)} pit entries, "
          f"{frame['official'].notna().sum()} listed by Ergast")
    describe(frame, "under green only" if args.baseline == "green" else "under any flag")
    margins(frame, args.list)
    class_and_near_misses(frame)
    typical_apart(frame)
    disagreements(frame)


if __name__ == "__main__":
    main()
