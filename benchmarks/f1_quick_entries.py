"""Quick pit entries against the race's own stops, every race: is a drive-through that the
feed gave a tyre change told from a real stop by its pit-lane time? (issue 26, oracle7)

The one known-wrong stop count of the oracle until it read the official times (2025 Monaco,
Russell; now ``change_after_drive_through``, measured by ``f1_pit_durations.py``) is a drive-through on
lap 53 (19.5 s in Ergast against the race's ~24 s stops) that the lap table shows with the
next stop's tyre change (HARD 53 -> MEDIUM 1), the real stop on lap 62 then showing no
change (MEDIUM 9 -> 10, `tyre_data_distrusted`). A rule moving the change from a quick
entry to a later distrusted one needs a margin that separates drive-throughs from real
stops. This prints, per measure (the lap table's pit-lane time, PitOutTime of the out-lap
minus PitInTime, against the race's median green stop with a recorded change, the typical stop of the oracle's
pit rules; Ergast's duration
against Ergast's median for the race), the distribution for the oracle's drive-throughs
and for its stops with a recorded tyre change, then every stop with a recorded change
quicker than the margin that a later stop follows: the class (the later stop distrusted)
and its near misses (the later stop shows a change: those must stay stops).

    python benchmarks/f1_quick_entries.py [--margin 3] [--seasons 2025]
"""

from __future__ import annotations

import argparse
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def ergast_durations(data: Path):
    """(season, round, driver, lap) -> (Ergast duration s, the race's median duration under 120 s)."""
    import pandas as pd

    ergast = data / "ergast"
    read = lambda name: pd.read_csv(ergast / name, na_values=["\\N"], keep_default_na=False)  # noqa: E731
    pits = read("pit_stops.csv").merge(read("races.csv")[["raceId", "year", "round"]], on="raceId").merge(
        read("drivers.csv")[["driverId", "code"]], on="driverId")
    pits["seconds"] = pd.to_numeric(pits["milliseconds"], errors="coerce") / 1000
    median = pits[pits["seconds"] < 120].groupby(["year", "round"])["seconds"].median()
    return {(int(r.year), int(r.round), str(r.code), int(r.lap)): (r.seconds, median.get((r.year, r.round)))
            for r in pits.itertuples()}


def marked_laps(f1_dir: Path, season: int, round_: int, laps):
    """The race's rows as the oracle marks them (``derive_race`` up to ``mark_laps``) and its quality
    log, or None for a dropped race."""
    from factcov.domains.f1.derive import classify_from_laps, mark_laps, race_distance
    from factcov.domains.f1.quality import (
        QualityLog,
        check_lap_numbering,
        drop_cars_without_a_lap,
        field_red_laps,
    )
    from factcov.domains.f1.source import ergast

    tables = ergast(f1_dir)
    classification = tables.classification(season, round_)
    official = tables.official_stops(season, round_)
    log = QualityLog()
    if classification is None or classification.empty:
        classification = classify_from_laps(laps, tables.driver_names(), log)
    checked = check_lap_numbering(drop_cars_without_a_lap(laps, log), classification, official, log)
    if checked is None:
        return None
    within = checked[checked["LapNumber"] <= race_distance(checked, classification)]
    return mark_laps(within, field_red_laps(within), official, log), log.frame()


def race_entries(marked, log, ergast: dict) -> list[dict]:
    """The race's stops and drive-throughs with both measures. The lap table's is the one the
    oracle's pit rules read: PitOutTime of the out-lap minus PitInTime, against the median of
    the race's stops with a recorded change under green by the car's own TrackStatus
    (``quality.classify_pit_entries``' typical stop)."""
    from factcov.domains.f1.quality import status_has

    by_driver = marked.groupby("Driver", sort=False)
    transit = by_driver["PitOutTime"].shift(-1) - marked["PitInTime"]
    green = ~status_has(marked["TrackStatus"], "4567")
    changed = marked["is_stop"] & ~marked["distrusted"] & transit.between(5, 120)
    typical = float(transit[changed & green].median())
    drive_throughs = log[(log["rule"] == "pit_passage") & log["detail"].str.startswith("drive-through")]
    drive = set(zip(drive_throughs["driver"], drive_throughs["lap"]))
    season, round_ = int(marked["Season"].iloc[0]), int(marked["RoundNumber"].iloc[0])
    compound, life = by_driver["Compound"].shift(-1), by_driver["TyreLife"].shift(-1)
    rows = []
    for i in marked.index[marked["is_stop"] | marked["passage"]]:
        driver, lap = str(marked.at[i, "Driver"]), int(marked.at[i, "LapNumber"])
        if not marked.at[i, "is_stop"] and (driver, lap) not in drive:
            continue
        kind = "drive-through" if not marked.at[i, "is_stop"] else (
            "distrusted" if marked.at[i, "distrusted"] else "change")
        seconds, median = ergast.get((season, round_, driver, lap), (None, None))
        rows.append({"season": season, "round": round_, "event": str(marked.at[i, "EventName"]),
                     "driver": driver, "lap": lap, "kind": kind, "neutral": not green[i],
                     "tyres": f"{marked.at[i, 'Compound']} {marked.at[i, 'TyreLife']:.0f} -> {compound[i]} {life[i]:.0f}",
                     "delta": transit[i] - typical,
                     "ergast_delta": float("nan") if seconds is None or median is None else seconds - median})
    return rows


def describe(frame, margin: float) -> None:
    for column, measure in (("delta", "lap table"), ("ergast_delta", "Ergast")):
        for name, rows in (("drive-throughs", frame[frame["kind"] == "drive-through"]),
                           ("green stops with a recorded change", frame[(frame["kind"] == "change") & ~frame["neutral"]]),
                           ("all stops with a recorded change", frame[frame["kind"] == "change"])):
            values = rows[column].dropna().sort_values()
            below = {t: int((values < -t).sum()) for t in (3, 4, 4.5, 5)}
            print(f"{measure:9s} {name:35s} n={len(values):5d}  quicker than the median by more than "
                  f"3/4/4.5/5 s: {below[3]}/{below[4]}/{below[4.5]}/{below[5]}  "
                  f"quickest: {', '.join(f'{v:+.2f}' for v in values.head(6))}"
                  + (f"  slowest: {values.iloc[-1]:+.2f}" if name == "drive-throughs" and len(values) else ""))


def main() -> None:
    import pandas as pd

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--seasons", default="")
    parser.add_argument("--margin", type=float, default=3.0, help="seconds under the race's median green stop")
    args = parser.parse_args()

    from factcov.domains.f1.source import season_laps

    ergast = ergast_durations(args.data)
    seasons = [int(s) for s in args.seasons.split(",") if s] or range(2018, 2027)
    rows: list[dict] = []
    for season in seasons:
        laps = season_laps(args.data, season)
        for round_ in sorted(int(r) for r in laps["RoundNumber"].unique()):
            marked = marked_laps(args.data, season, round_, laps[laps["RoundNumber"] == round_])
            if marked is not None:
                rows += race_entries(*marked, ergast)
    frame = pd.DataFrame(rows).sort_values(["season", "round", "driver", "lap"]).reset_index(drop=True)
    describe(frame, args.margin)
    stops = frame[frame["kind"] != "drive-through"]
    print(f"stops with a recorded change more than {args.margin:g} s quicker than the race's median green "
          "stop (lap table), and the car's next stop:")
    for (season, _, driver), own in stops.groupby(["season", "round", "driver"]):
        own = own.reset_index(drop=True)
        for i, stop in own.iloc[:-1].iterrows():
            if stop["kind"] != "change" or not stop["delta"] < -args.margin:
                continue
            later = own.iloc[i + 1]
            label = "CLASS (later stop distrusted)" if later["kind"] == "distrusted" else "near miss (later change)"
            print(f"  {label:30s} {season} {stop['event']} {driver}: lap {stop['lap']} {stop['tyres']} "
                  f"{stop['delta']:+.1f} s (Ergast {stop['ergast_delta']:+.1f} s){' SC/VSC' if stop['neutral'] else ''}; "
                  f"lap {later['lap']} {later['tyres']} {later['delta']:+.1f} s "
                  f"(Ergast {later['ergast_delta']:+.1f} s)")


if __name__ == "__main__":
    main()
