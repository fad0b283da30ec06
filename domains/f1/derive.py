"""Deterministic strategy facts of one race from its lap table (vectorized pandas).

Every rule and threshold here is written down in docs/domains/f1.md; change both together.
``derive_race(laps, classification)`` returns a ``RaceAnalysis`` whose frames are the
oracle's raw material: stints, pit stops, neutralizations, undercut/overcut moves,
defenses, and the per-lap running order with gaps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from factcov.domains.f1.defense_doubts import (
    LONG_RUN_LAPS,
    SWAP_LAPS,
    fall_back_doubt,
    swapped_team_mates,
)
from factcov.domains.f1.official_times import official_times
from factcov.domains.f1.quality import (
    RED_WAIT_S,
    QualityLog,
    check_lap_numbering,
    classify_pit_entries,
    drop_cars_without_a_lap,
    field_red_laps,
    keep_clean_sides,
    late_opened_sets,
    leader_rows,
    move_changes_off_drive_throughs,
    move_late_pit_times,
    name_distrusted_sides,
    start_stints_ahead,
    status_has,
)

if TYPE_CHECKING:
    import pandas as pd

    from factcov.domains.f1.ergast import OfficialStops

_status_has = status_has

KNOWN_COMPOUNDS = ("SOFT", "MEDIUM", "HARD", "INTERMEDIATE", "WET")

# Thresholds (docs/domains/f1.md, "Rules and thresholds").
CLOSE_GAP_S = 3.0  # cars are "running close" when within this gap before the first stop
MOVE_WINDOW_LAPS = 5  # the second car of a pair must stop within this many laps
DEFENSE_GAP_S = 1.0  # a pursuer within this gap is attacking
DEFENSE_MIN_LAPS = 5  # ... for at least this many consecutive green laps
DEGRADATION_MIN_LAPS = 5  # fewer green laps in a stint: no slope
DEGRADATION_OUTLIER = 1.07  # laps slower than 107% of the stint's median are traffic/incidents
SLOW_STOP_EXTRA_S = 10.0  # a stop losing this much more than the race's typical stop: not strategy
SLOW_STOP_DECIDES_S = 5.0  # ... or a pit-lane time this much over, for the car that came out behind
# a stop standing this much over the race's own (the official time where timed: a served
# penalty or a failed stop) decides a move it lost by no more (STOP_GO_MIN_EXTRA_S's bound)
SERVED_TIME_DECIDES_S = 4.0
DEFENSE_PACE_MARGIN_S = 0.1  # the attacker's robust pace must beat the defender's by this much
DEFENSE_PASS_WITHIN_LAPS = 4  # or: the attacker passed on track this soon after the run (it was held up)
DEFENSE_PRE_RUN_LAPS = 5  # or: the attacker was faster over this many laps before the run (held up)
DEFENSE_CLOSING_S = 0.5  # ... and closed at least this much of the gap over them
DEFENSE_CLOSING_FAST_S = 1.0  # ... or, with only two clean laps before the run, closed this much
DEFENSE_FOLLOW_S = 1.5  # a pass after DEFENSE_PASS_WITHIN_LAPS counts while still following this close
DEFENSE_FOLLOW_MAX_LAPS = 15  # ... up to this many laps after the run
DEFENSE_PASS_MAX_S = 3.0  # a pass puts the attacker at most this far ahead at the line (more: trouble)
DEFENSE_DROPPED_S = 1.5  # no defense for sure: the attacker fell this far back after the run
DEFENSE_DROP_LAPS = 3  # ... within this many clean laps (else the run is undecidable)
WET_COMPOUNDS = ("INTERMEDIATE", "WET")


@dataclass
class RaceAnalysis:
    """Everything derived for one race; frames are sorted, so output is deterministic."""

    season: int
    round: int
    event: str
    race_laps: int
    classification: pd.DataFrame  # code, name, team, grid, position (<NA> unclassified), status
    stints: pd.DataFrame  # driver, stint, compound, first_lap, last_lap, laps, tyre ages, slope
    stops: pd.DataFrame  # driver, stop, lap, from, to, neutralized
    red_flag_changes: pd.DataFrame  # driver, lap (last lap before the new set), from, to
    neutralizations: pd.DataFrame  # kind, period, first_lap, last_lap
    moves: pd.DataFrame  # kind, driver, rival, driver_pit_lap, rival_pit_lap, gaps, worked
    defenses: pd.DataFrame  # driver, attacker, first_lap, last_lap, laps, pace gap
    times: pd.DataFrame  # LapNumber x Driver session time at the end of the lap (seconds)
    quality: pd.DataFrame | None = None  # rule, driver, lap, detail: every data-quality rule that fired
    dropped: str | None = None  # why the race gives no facts (lap numbering beyond repair)
    stop_count_unknown: frozenset[str] = frozenset()  # drivers whose stop count the data cannot tell

    def positions(self) -> pd.DataFrame:
        """Running order at the end of each lap (LapNumber x Driver), from ``times``."""
        return self.times.rank(axis=1, method="first").astype("Int64")


def race_distance(laps: pd.DataFrame, classification: pd.DataFrame) -> int:
    """Laps of the race: the winner's official laps, else the last lap with a position.

    Rows past it are artefacts (2021 Bahrain: a lap 57 row for Hamilton after a 56-lap race).
    """
    winners = classification[classification["position_order"] == 1] if len(classification) else []
    if len(winners) and winners["laps"].notna().iloc[0]:
        return int(winners["laps"].iloc[0])
    with_position = laps[laps["Position"].notna()]
    source = with_position if len(with_position) else laps
    return int(source["LapNumber"].max())


def classify_from_laps(laps: pd.DataFrame, names: dict[str, str], log: QualityLog | None = None) -> pd.DataFrame:
    """A classification when Ergast has none: order by laps completed, then time;
    classified when a car covered 90% of the winner's laps (the sporting rule). A car
    whose last row has no position did not complete that lap: it retired (2025 Mexico,
    Sainz), classified or not."""
    import pandas as pd

    ordered = laps.sort_values(["Driver", "LapNumber"])
    last = ordered.groupby("Driver", sort=True).tail(1)
    stopped = last["Position"].isna() & last["LapTime"].isna()
    completed = last["LapNumber"] - stopped.astype(int)
    last = last.assign(_t=last["Time"].fillna(float("inf")), _laps=completed)
    last = last.sort_values(["_laps", "_t", "Driver"], ascending=[False, True, True])
    stopped = stopped.reindex(last.index)
    leader_laps = int(last["_laps"].iloc[0]) if len(last) else 0
    order = pd.Series(range(1, len(last) + 1), index=last.index)
    classified = last["_laps"] >= 0.9 * leader_laps
    behind = leader_laps - last["_laps"]
    # the flag: every car still running crosses the line after the winner has finished;
    # one whose last lap ended before that stopped on track (2026 Barcelona, Leclerc: lap
    # 62 ended 296 s before the finish, classified by distance, retired), one that crossed
    # it after is not retired even when it covered too little to be classified (2026
    # Australia, Stroll: 43 of 58 laps, over the line 81 s after the winner)
    finish = float(last["_t"].iloc[0]) if len(last) else float("inf")
    took_flag = ~stopped & (last["_t"] >= finish - 1e-6)
    status = behind.map(lambda n: "Finished" if n == 0 else f"+{n} Lap" + ("s" if n > 1 else ""))
    status = status.where(took_flag, "Retired")
    if log is not None:
        for driver, lap in zip(last.loc[stopped, "Driver"], last.loc[stopped, "LapNumber"]):
            log.add("retired_without_result", f"no official result; lap {int(lap)} has no position or "
                    "lap time: retired on that lap", str(driver), int(lap))
        rows = zip(last["Driver"], last["LapNumber"], last["_laps"], last["_t"], classified, took_flag, stopped)
        for driver, lap, done, time, counted, flag, out in rows:
            if flag and not counted:
                log.add("took_the_flag", f"no official result; {int(done)} of {leader_laps} laps, not classified, "
                        f"crossed the line {time - finish:.1f} s after the winner finished: not retired",
                        str(driver), int(lap))
            elif counted and not flag and not out:
                log.add("retired_before_flag", f"no official result; {int(done)} of {leader_laps} laps, classified "
                        f"by distance, last lap ended {finish - time:.1f} s before the winner finished: retired",
                        str(driver), int(lap))
    return pd.DataFrame(
        {
            "code": last["Driver"].astype("string"),
            "name": last["Driver"].map(lambda c: names.get(c, c)),
            "surname": last["Driver"].map(lambda c: names.get(c, c).split(" ")[-1]),
            "team": last["Team"],
            "grid": pd.array([pd.NA] * len(last), dtype="Int64"),
            "position": order.where(classified).astype("Int64"),
            "position_order": order.astype("Int64"),
            "laps": last["_laps"].astype("Int64"),
            "status": status,
        }
    ).reset_index(drop=True)


def mark_laps(
    laps: pd.DataFrame,
    red_laps: set[int] | None = None,
    official_stops: OfficialStops | None = None,
    log: QualityLog | None = None,
) -> pd.DataFrame:
    """Per-row flags: pit stops, passages, red-flag tyre changes, stint ids, green laps
    (the rules of ``factcov.domains.f1.quality``)."""
    import numpy as np

    log = log if log is not None else QualityLog()
    laps = laps.sort_values(["Driver", "LapNumber"], kind="stable").reset_index(drop=True)
    laps = move_late_pit_times(laps, log)
    laps = move_changes_off_drive_throughs(laps, official_stops, log)
    if red_laps is None:
        red_laps = field_red_laps(laps)
    laps = classify_pit_entries(laps, red_laps, official_stops, log)
    by_driver = laps.groupby("Driver", sort=False)
    first = by_driver.cumcount() == 0
    after_change = by_driver["is_stop"].shift(1, fill_value=False).astype(bool) | by_driver[
        "is_red_change"
    ].shift(1, fill_value=False).astype(bool)
    new_stint = first | after_change | laps["silent_red_change"]
    laps["silent_red_change"] &= ~first
    laps["stint_id"] = new_stint.astype(int).groupby(laps["Driver"], sort=False).cumsum()
    laps["is_out_lap"] = laps["PitOutTime"].notna() | new_stint
    laps["is_green"] = laps["TrackStatus"].str.fullmatch("1+").eq(True)
    laps["Compound"] = laps["Compound"].where(laps["Compound"].isin(KNOWN_COMPOUNDS), np.nan)
    return laps


def build_stints(laps: pd.DataFrame, log: QualityLog | None = None) -> pd.DataFrame:
    """One row per stint with its compound (the stint's known compound; UNKNOWN when
    none is known), laps, tyre ages and green-flag degradation slope (s/lap)."""
    grouped = laps.groupby(["Driver", "stint_id"], sort=True)
    stints = grouped.agg(
        compound=("Compound", "first"),  # first non-null: UNKNOWN laps take the stint's compound
        first_lap=("LapNumber", "min"),
        last_lap=("LapNumber", "max"),
        tyre_age_start=("TyreLife", "first"),
        tyre_age_end=("TyreLife", "last"),
    ).reset_index()
    stints["compound"] = stints["compound"].fillna("UNKNOWN")
    # a stop whose tyre age ran on: the tyre columns missed the change, so the rows do not
    # say whether their compound is the set's before or after (2022 Monaco: "HARD" on a wet
    # start); only the sides the Stint counter names are kept
    distrusted = laps.loc[laps["distrusted"], ["Driver", "stint_id"]]
    unknown = set(zip(distrusted["Driver"], distrusted["stint_id"])) | set(
        zip(distrusted["Driver"], distrusted["stint_id"] + 1)
    )
    named = name_distrusted_sides(laps, log if log is not None else QualityLog()) if unknown else {}
    if unknown:
        named.update(keep_clean_sides(laps, named, log if log is not None else QualityLog()))
    where = [key in unknown for key in zip(stints["Driver"], stints["stint_id"])]
    # set in place: the column keeps its string dtype, so a stop's missing next stint reads <NA> (null)
    stints.loc[where, "compound"] = [named.get(key, "UNKNOWN") for key, side in
                                     zip(zip(stints["Driver"], stints["stint_id"]), where) if side]
    late = late_opened_sets(laps, unknown, log if log is not None else QualityLog())
    if late:
        where = [key in late for key in zip(stints["Driver"], stints["stint_id"])]
        stints.loc[where, "compound"] = [late[key] for key, side in
                                         zip(zip(stints["Driver"], stints["stint_id"]), where) if side]
    ahead = start_stints_ahead(laps, log if log is not None else QualityLog())
    if ahead:
        stints.loc[[key in ahead for key in zip(stints["Driver"], stints["stint_id"])], "compound"] = "UNKNOWN"
    stints["laps"] = stints["last_lap"] - stints["first_lap"] + 1
    stints = stints.merge(degradation(laps), on=["Driver", "stint_id"], how="left")
    return stints.rename(columns={"Driver": "driver", "stint_id": "stint"})


def degradation(laps: pd.DataFrame) -> pd.DataFrame:
    """Least-squares slope of lap time against lap number per stint, on green laps only
    (no lap 1, no in/out laps, no SC/VSC/yellow laps, no lap beyond 107% of the median)."""
    import numpy as np

    usable = laps[
        laps["is_green"]
        & ~laps["is_out_lap"]
        & laps["PitInTime"].isna()
        & (laps["LapNumber"] > 1)
        & laps["LapTime"].notna()
    ][["Driver", "stint_id", "LapNumber", "LapTime"]]
    median = usable.groupby(["Driver", "stint_id"])["LapTime"].transform("median")
    usable = usable[usable["LapTime"] <= DEGRADATION_OUTLIER * median]
    x, y = usable["LapNumber"].astype(float), usable["LapTime"]
    sums = (
        usable.assign(x=x, y=y, xx=x * x, xy=x * y)
        .groupby(["Driver", "stint_id"])[["x", "y", "xx", "xy"]]
        .agg(["sum", "count"])
    )
    n = sums[("x", "count")]
    sx, sy, sxx, sxy = (sums[(c, "sum")] for c in ("x", "y", "xx", "xy"))
    denominator = n * sxx - sx * sx
    slope = (n * sxy - sx * sy) / denominator.replace(0, np.nan)
    slope = slope.where(n >= DEGRADATION_MIN_LAPS).round(3)
    out = slope.rename("degradation_s_per_lap").reset_index()
    out.columns = ["Driver", "stint_id", "degradation_s_per_lap"]
    out["green_laps"] = n.values
    return out


def build_stops(laps: pd.DataFrame, stints: pd.DataFrame, neutral_laps: set[int],
                official_stops: OfficialStops | None = None) -> pd.DataFrame:
    """Pit stops (in-laps) with the compounds before and after, the time the in-lap
    and out-lap lost against what the driver would have lapped on those laps (``loss_s``,
    ``_stop_loss``), the lap table's pit-lane time and the official one (``official_s``,
    NaN where Ergast gives none)."""
    stops = laps.loc[laps["is_stop"], ["Driver", "LapNumber", "stint_id"]].copy()
    stops["stop"] = stops.groupby("Driver").cumcount() + 1
    compound = stints.set_index(["driver", "stint"])["compound"]
    stops["from"] = compound.reindex(list(zip(stops["Driver"], stops["stint_id"]))).values
    stops["to"] = compound.reindex(list(zip(stops["Driver"], stops["stint_id"] + 1))).values
    stops["neutralized"] = stops["LapNumber"].isin(neutral_laps)
    stops["loss_s"] = _stop_loss(laps)[stops.index].to_numpy()
    stops["loss_race_pace_s"] = _stop_loss_race_pace(laps)[stops.index].to_numpy()
    pit_lane = laps.groupby("Driver", sort=False)["PitOutTime"].shift(-1) - laps["PitInTime"]
    stops["pit_lane_s"] = pit_lane[stops.index].to_numpy()
    stops["official_s"] = official_times(laps, official_stops)[stops.index].to_numpy()
    stops = stops.rename(columns={"Driver": "driver", "LapNumber": "lap"})
    columns = ["driver", "stop", "lap", "from", "to", "neutralized", "loss_s", "loss_race_pace_s", "pit_lane_s",
               "official_s"]
    return stops[columns].reset_index(drop=True)


def build_red_flag_changes(laps: pd.DataFrame, stints: pd.DataFrame) -> pd.DataFrame:
    """Tyre changes under a red flag: a new set without a counted pit stop."""
    import pandas as pd

    compound = stints.set_index(["driver", "stint"])["compound"]
    pitted = laps.loc[laps["is_red_change"], ["Driver", "LapNumber", "stint_id"]]
    silent = laps.loc[laps["silent_red_change"], ["Driver", "LapNumber", "stint_id"]].copy()
    silent["LapNumber"] -= 1
    silent["stint_id"] -= 1
    changes = pd.concat([pitted, silent]).sort_values(["Driver", "LapNumber"])
    changes["from"] = compound.reindex(list(zip(changes["Driver"], changes["stint_id"]))).values
    changes["to"] = compound.reindex(list(zip(changes["Driver"], changes["stint_id"] + 1))).values
    changes = changes.rename(columns={"Driver": "driver", "LapNumber": "lap"})
    return changes[["driver", "lap", "from", "to"]].reset_index(drop=True)


def leader_status(laps: pd.DataFrame, red_laps: set[int] | None = None) -> pd.Series:
    """TrackStatus of the race leader's row on each lap (the first real row to finish
    it), with ``5`` added on the laps the whole field shows a red flag."""
    leaders = leader_rows(laps).set_index("LapNumber")["TrackStatus"].sort_index()
    red_laps = field_red_laps(laps) if red_laps is None else red_laps
    missing = leaders.index.isin(list(red_laps)) & ~_status_has(leaders, "5").to_numpy()
    return leaders.where(~missing, leaders + "5")


def build_neutralizations(status: pd.Series) -> pd.DataFrame:
    """Consecutive leader laps with a safety car (4), VSC (6/7) or red flag (5)."""
    import pandas as pd

    rows = []
    for kind, codes in (("SC", "4"), ("VSC", "67"), ("RED", "5")):
        laps = status.index[_status_has(status, codes).to_numpy()].to_numpy()
        if not len(laps):
            continue
        breaks = (pd.Series(laps).diff() != 1).cumsum()
        for period, group in enumerate(pd.Series(laps).groupby(breaks), start=1):
            values = group[1]
            rows.append(
                {"kind": kind, "period": period, "first_lap": int(values.min()), "last_lap": int(values.max())}
            )
    return pd.DataFrame(rows, columns=["kind", "period", "first_lap", "last_lap"])


def build_moves(
    stops: pd.DataFrame,
    times: pd.DataFrame,
    neutral_laps: set[int] | None = None,
    passages: pd.DataFrame | None = None,
    log: QualityLog | None = None,
    car_neutral: set[tuple[str, int]] | None = None,
) -> pd.DataFrame:
    """Undercuts and overcuts between cars running close (see docs/domains/f1.md).

    For two cars within ``CLOSE_GAP_S`` at the end of the lap before the first of their
    stops, stopping ``1..MOVE_WINDOW_LAPS`` laps apart, the trailing car is the attacker:
    an undercut when it stopped first, an overcut when it stopped second. It worked when
    the attacker is ahead at the end of the later stopper's out-lap. Moves that are not
    strategy are excluded (``confounded``) and logged.
    """
    import pandas as pd

    columns = [
        "kind", "driver", "rival", "driver_pit_lap", "rival_pit_lap", "gap_before_s",
        "gap_after_s", "time_gained_s", "worked", "measured_lap_before", "measured_lap_after",
    ]
    green = stops[~stops["neutralized"]][["driver", "lap"]]
    pairs = green.merge(green, how="cross", suffixes=("_a", "_b"))
    pairs = pairs[
        (pairs["driver_a"] != pairs["driver_b"])
        & (pairs["lap_b"] - pairs["lap_a"]).between(1, MOVE_WINDOW_LAPS)
    ]
    if pairs.empty:
        return pd.DataFrame(columns=columns)
    all_stops = stops[["driver", "lap"]]
    # neither car stops again inside the move: A not before B's out-lap, B not since A's lap-1
    merged = pairs.merge(all_stops, left_on="driver_a", right_on="driver", how="left")
    a_again = merged[(merged["lap"] > merged["lap_a"]) & (merged["lap"] <= merged["lap_b"] + 1)]
    merged = pairs.merge(all_stops, left_on="driver_b", right_on="driver", how="left")
    b_before = merged[(merged["lap"] >= merged["lap_a"] - 1) & (merged["lap"] < merged["lap_b"])]
    spoiled = set(zip(a_again["driver_a"], a_again["driver_b"], a_again["lap_a"], a_again["lap_b"]))
    spoiled |= set(zip(b_before["driver_a"], b_before["driver_b"], b_before["lap_a"], b_before["lap_b"]))
    keys = list(zip(pairs["driver_a"], pairs["driver_b"], pairs["lap_a"], pairs["lap_b"]))
    pairs = pairs[[key not in spoiled for key in keys]].copy()
    long = times.stack().rename("t")
    pairs["before"] = pairs["lap_a"] - 1
    pairs["after"] = pairs["lap_b"] + 1

    def at(driver: pd.Series, lap: pd.Series) -> pd.Series:
        return pd.Series(long.reindex(list(zip(lap, driver))).to_numpy(), index=driver.index)

    gap0 = at(pairs["driver_a"], pairs["before"]) - at(pairs["driver_b"], pairs["before"])
    gap1 = at(pairs["driver_a"], pairs["after"]) - at(pairs["driver_b"], pairs["after"])
    pairs["gap0"], pairs["gap1"] = gap0, gap1
    pairs = pairs[gap0.abs().le(CLOSE_GAP_S) & gap1.notna() & (gap0 != 0)]
    undercut = pairs["gap0"] > 0  # A behind B before the stops and A stopped first
    out = pd.DataFrame(
        {
            "kind": undercut.map({True: "undercut", False: "overcut"}),
            "driver": pairs["driver_a"].where(undercut, pairs["driver_b"]),
            "rival": pairs["driver_b"].where(undercut, pairs["driver_a"]),
            "driver_pit_lap": pairs["lap_a"].where(undercut, pairs["lap_b"]),
            "rival_pit_lap": pairs["lap_b"].where(undercut, pairs["lap_a"]),
            # gaps are attacker minus rival: positive = attacker behind
            "gap_before_s": pairs["gap0"].where(undercut, -pairs["gap0"]),
            "gap_after_s": pairs["gap1"].where(undercut, -pairs["gap1"]),
            "measured_lap_before": pairs["before"],
            "measured_lap_after": pairs["after"],
        }
    )
    out["time_gained_s"] = (out["gap_before_s"] - out["gap_after_s"]).round(1)
    out["gap_before_s"] = out["gap_before_s"].round(1)
    out["gap_after_s"] = out["gap_after_s"].round(1)
    out["worked"] = out["gap_after_s"] < 0
    out = out.sort_values(["driver_pit_lap", "driver", "rival"], kind="stable")
    reasons = confounded(out, stops, times, neutral_laps or set(), passages, car_neutral or set())
    if log is not None:
        for move, reason in zip(out.itertuples(), reasons):
            if reason:
                log.add("move_excluded", f"{move.kind} {move.driver} on {move.rival} (laps "
                        f"{move.driver_pit_lap}/{move.rival_pit_lap}): {reason}", move.driver,
                        int(move.driver_pit_lap))
    out = out[pd.Series([not reason for reason in reasons], index=out.index, dtype=bool)]
    # one move per (attacker, rival): the earliest
    out = out.drop_duplicates(["driver", "rival"], keep="first")
    return out[columns].reset_index(drop=True)


def _stop_loss(laps: pd.DataFrame) -> pd.Series:
    """Per row: what that lap and the next (a stop's in- and out-lap) took beyond the
    driver's pace on those two laps. The pace of a lap is the field's median lap on it
    (rows neither in- nor out-laps) plus the driver's own median offset from the field on
    his clean green laps. Against his median green lap of the whole race, a stop made
    while the whole field was slow lost seconds it did not lose: 2023 Spa laps 20-22 ran
    2-3 s over the race's pace for every car, Stroll's normal stop (pit lane 25.3 s, Gasly's
    25.7 s) read 31.8 s against a typical 19.2 s; fuel and tyre age shift early and late
    stops the same way."""
    running = laps["LapTime"].where(~laps["is_out_lap"] & laps["PitInTime"].isna())
    field = running.groupby(laps["LapNumber"]).median()
    pace_here = laps["LapNumber"].map(field)
    offset = (running - pace_here).where(laps["is_green"]).groupby(laps["Driver"]).transform("median")
    by_driver = laps.groupby("Driver", sort=False)  # rows are sorted by driver, lap
    out_lap = by_driver["LapTime"].shift(-1)
    pace_next = by_driver["LapNumber"].shift(-1).map(field)
    return laps["LapTime"] + out_lap - pace_here - pace_next - 2 * offset


def _stop_loss_race_pace(laps: pd.DataFrame) -> pd.Series:
    """Per row: that lap and the next against twice the driver's median clean green lap of
    the race (the measure before issue 26's fifth round, kept for stops onto or off wet
    tyres: see ``_slow_stop``)."""
    clean = laps["LapTime"].where(laps["is_green"] & ~laps["is_out_lap"] & laps["PitInTime"].isna())
    pace = clean.groupby(laps["Driver"]).transform("median")
    out_lap = laps.groupby("Driver", sort=False)["LapTime"].shift(-1)  # rows are sorted by driver, lap
    return laps["LapTime"] + out_lap - 2 * pace


def _slow_stop(cars: tuple, dry: list[tuple[str, dict, float]], wet: tuple[str, dict, float], to: dict,
               came_off: dict, behind: tuple[str, float] = ("", 0.0)) -> str:
    """Why a candidate move is a slow stop's ('' when no stop of the pair could have decided
    it; ``cars`` is (attacker, rival), each (driver, lap); each measure is (its name, value
    per (driver, lap), the race's median over green stops)). ``dry`` holds two measures,
    either of which makes a stop slow: the in- and out-lap ``SLOW_STOP_EXTRA_S`` over the
    typical against the driver's pace on those laps (``_stop_loss``), and the pit-lane time,
    where a long stationary time (a penalty served, a repair) shows whatever the laps around
    it did (2018 Silverstone, Räikkönen: 38.5 s against 28 s). The pit lane varies little
    from stop to stop, so for the car that came out behind (``behind``: that car and its
    margin) it counts from ``SLOW_STOP_DECIDES_S`` over when that is more than the margin
    (2022 Silverstone, Pérez's new front wing, 7.9 s over, 2.5 s behind Vettel after).

    Only a slow stop that could have decided the move excludes it (``_decided``): a slow
    car that came out ahead leaves the move as it happened, and so does a slow rival that
    came out behind by more than its extra time (2018 Mexico: Ericsson's stop 10.8 s over,
    Vandoorne 22.4 s ahead after). A slow attacker that came out behind stays excluded
    whatever the margin: the trouble that slowed the stop (a puncture, damage) goes on
    costing after the out-lap (2018 Monaco, Stroll 63.8 s over and 74.2 s behind Hartley;
    2023 Las Vegas, Hamilton's puncture), so a margin beyond the stop's loss does not show
    the strategy failed (issue 26, sixth round: 2 of 10 such kept moves wrong, 4 unsure).

    A stop onto or off wet-weather tyres is the track's (rain, drying): its in- and out-lap
    say nothing of a slow stop, so the move is undecidable whichever car came out ahead
    (sampled: 6 of 6 such exclusions in 2020 Hungary, 2021 Sochi, 2024 and 2025 Silverstone
    could not be judged). Such a pair is measured against each driver's race pace, not the
    field's on those laps: on a lap where half the field is on slicks and half on inters the
    field's median is nobody's pace, and a crossover measured against it reads as no loss at
    all (2020 Hungary laps 2-4)."""
    wet_tyres = any(to.get(car) in WET_COMPOUNDS or came_off.get(car) in WET_COMPOUNDS for car in cars)
    loser, margin = behind

    def floor(driver: str, what: str) -> float:
        # the pit lane's extra seconds (a stationary time: lap times vary more) are read
        # from the lower threshold for the car that came out behind
        return SLOW_STOP_DECIDES_S if what == "pit-lane time" and driver == loser else SLOW_STOP_EXTRA_S

    fired = [(d, what, typical, floor(d, what), value.get((d, lap), 0) - typical) for d, lap in cars
             for what, value, typical in ([wet] if wet_tyres else dry)
             if value.get((d, lap), 0) > typical + floor(d, what)]
    laps_lost = dry[0][1]
    unmeasured = {d for d, lap in cars if not laps_lost.get((d, lap), 0) == laps_lost.get((d, lap), 0)}
    deciding = fired if wet_tyres else [fire for fire in fired
                                        if _decided(fire, cars[0][0], behind, fire[0] in unmeasured)]
    if not deciding:
        return ""
    slow = "/".join(dict.fromkeys(fire[0] for fire in fired))
    if wet_tyres:
        _, what, typical, threshold, _ = deciding[0]
        return (f"undecidable: a stop onto or off wet-weather tyres lost over {threshold:g} s more "
                f"than the race's typical {what} ({typical:.1f} s)")
    return f"{slow}'s stop {_slow_reason(deciding[0], margin, deciding[0][0] in unmeasured)}"


def _decided(fire: tuple, attacker: str, behind: tuple[str, float], unmeasured: bool) -> bool:
    """Whether a slow stop (``fire``: driver, measure, typical, threshold, extra seconds)
    could have decided the move: it is the stop of the car that came out behind, and that
    car is the attacker (its pit lane read from the margin up, to ``SLOW_STOP_EXTRA_S``), or
    the rival and it lost at least the margin, or its laps measured nothing (an in- or
    out-lap without a time: the pit lane is only part of what it lost; 2024 Bahrain,
    Sargeant 10.9 s over in the pit lane and 75 s behind Stroll after)."""
    driver, _, _, _, extra = fire
    loser, margin = behind
    if driver != loser:
        return False  # the slow car came out ahead anyway: the move happened
    if driver == attacker:
        return extra > SLOW_STOP_EXTRA_S or extra > margin
    return extra >= margin or unmeasured


def _slow_reason(fire: tuple, margin: float, unmeasured: bool) -> str:
    """What the deciding slow stop lost, in the words of the log (the first words are part
    of the judged keys: the threshold, or the margin for a pit lane under it)."""
    _, what, typical, threshold, extra = fire
    if threshold < SLOW_STOP_EXTRA_S:  # the pit lane: named from the margin up
        threshold = round(min(SLOW_STOP_EXTRA_S, max(threshold, margin)), 1)
    lost = f"lost over {threshold:g} s more than the race's typical {what} ({typical:.1f} s)"
    if threshold < SLOW_STOP_EXTRA_S:
        return lost + f", and came out {margin:.1f} s behind"
    if margin > threshold:
        lost += f": {extra:.1f} s, and came out {margin:.1f} s behind"
    if unmeasured and extra < margin:
        lost += " (an in- or out-lap without a time: what it lost is not known)"
    return lost


def _stop_measures(stops: pd.DataFrame) -> tuple[list[tuple[str, dict, float]], tuple[str, dict, float]]:
    """The slow-stop measures of ``_slow_stop``: (name, value per (driver, lap), the race's
    median over green stops) for dry pairs (the laps against the field's pace, the pit lane)
    and for pairs with a wet-weather stop (the laps against the driver's race pace)."""
    green = ~stops["neutralized"]
    by_stop = stops.set_index(["driver", "lap"])
    dry = [(what, by_stop[column].to_dict(), stops.loc[green, column].median())
           for what, column in (("stop", "loss_s"), ("pit-lane time", "pit_lane_s"))]
    wet = ("stop", by_stop["loss_race_pace_s"].to_dict(), stops.loc[green, "loss_race_pace_s"].median())
    return dry, wet


def stop_excess(stops: pd.DataFrame) -> dict[tuple[str, int], tuple[float, float]]:
    """Per stop (driver, lap): its seconds over the race's own stops by the lap table's
    pit lane (against the median green stop's) and by the official time (against the
    median official stop, any flag: a stop's pit-lane time is the same behind the safety
    car; red-flag waits left out); NaN where a time or the race's median is missing."""
    (lane, green), (official, typical) = _pit_typicals(stops)
    return {(d, int(lap)): (float(a - green), float(b - typical))
            for d, lap, a, b in zip(stops["driver"], stops["lap"], lane, official)}


def _pit_typicals(stops: pd.DataFrame) -> tuple[tuple[pd.Series, float], tuple[pd.Series, float]]:
    """(lap-table pit lane, its median over green stops), (official time with red-flag
    waits left out, its median over every stop); a median is NaN when nothing is timed."""
    lane = stops["pit_lane_s"]
    official = stops["official_s"].where(stops["official_s"].lt(RED_WAIT_S))
    green = lane[~stops["neutralized"]].dropna()
    return ((lane, float(green.median()) if len(green) else float("nan")),
            (official, float(official.dropna().median()) if official.notna().any() else float("nan")))


def served_times(stops: pd.DataFrame) -> dict[tuple[str, int], tuple[float, str, float]]:
    """Per stop (driver, lap): (seconds over the race's own stops, the measure, the race's
    typical by it): the official time where Ergast times the stop, since the lap table's
    pit lane is off by seconds for some cars (2019 France, Hülkenberg's lap-34 stop: 4.9 s
    over by the lap table, 0.4 s by the official time), else the lap table's pit lane."""
    (lane, green), (official, typical) = _pit_typicals(stops)
    out = {}
    for d, lap, a, b in zip(stops["driver"], stops["lap"], lane, official):
        if b == b and typical == typical:
            out[(d, int(lap))] = (float(b - typical), "official pit-lane time", typical)
        elif a == a and green == green:
            out[(d, int(lap))] = (float(a - green), "pit-lane time", green)
    return out


def _served_time(cars: tuple, served: dict, behind: tuple[str, float]) -> str:
    """Why a move is a served penalty's or a failed stop's ('' when not): the stop of the
    car that came out behind stood ``SERVED_TIME_DECIDES_S`` or more over the race's own
    stops (a 5 s penalty reads 4.5-5.0 s over: 2023 Las Vegas, Verstappen lap 16; 2025
    Bahrain, Norris lap 10), by at least the margin it came out behind plus what the other
    car's stop stood over (both served time: the extra seconds cancel; 2023 Dutch, Gasly's
    5 s penalty, 5.2 s over, and Alonso's stop 4.9 s over, Alonso 4.0 s behind after), so
    without it the order could have been the other way (2025 Britain, Piastri's 10 s penalty
    at his lap-43 stop, 11.4 s over, 4.8 s behind Norris after). Read onto or off
    wet-weather tyres too: the stationary time is the crew's, not the track's (the in- and
    out-laps are the track's, hence the wet bucket of ``_slow_stop``)."""
    loser, margin = behind
    nothing = (float("nan"), "", float("nan"))
    lost = [served.get(car, nothing) for car in cars if car[0] == loser]
    other = [served.get(car, nothing)[0] for car in cars if car[0] != loser]
    if not lost or not other:
        return ""
    (extra, what, typical), offset = lost[0], max(other[0], 0.0) if other[0] == other[0] else 0.0
    if not (extra >= SERVED_TIME_DECIDES_S and extra - offset >= margin):
        return ""
    against = f" (the other's {offset:.1f} s over taken off)" if offset >= 0.05 else ""
    return (f"{loser}'s stop stood {extra:.1f} s over the race's typical {what} ({typical:.1f} s), a penalty "
            f"or a failed stop, and came out {margin:.1f} s behind{against}")


def _neutralized(cars: tuple, exchange: range, neutral_laps: set[int], car_neutral: set[tuple[str, int]]) -> str:
    """Why the exchange's laps are neutralized ('' when green): the leader's laps, or either
    car's own rows: a neutralization called during the leader's lap n + 1 caught the cars
    behind on their lap n (2022 Bahrain lap 45, Tsunoda's out-lap under the VSC, status
    ``64``, the leader's lap green)."""
    what = f"safety car, VSC or red flag between laps {exchange.start} and {exchange.stop - 1}"
    if any(lap in neutral_laps for lap in exchange):
        return what
    own = [f"{d}'s lap {lap}" for d, _ in cars for lap in exchange if (d, lap) in car_neutral]
    return f"{what} ({own[0]})" if own else ""


def confounded(
    moves: pd.DataFrame,
    stops: pd.DataFrame,
    times: pd.DataFrame,
    neutral_laps: set[int],
    passages: pd.DataFrame | None,
    car_neutral: set[tuple[str, int]] = frozenset(),
) -> list[str]:
    """Why each candidate move is not a strategy move ('' when it is one): a safety car,
    VSC or red flag on the laps of the exchange (from the first in-lap to the out-lap of
    the second), the leader's or either car's own (``car_neutral``, (driver, lap) whose
    row's TrackStatus shows one), a slow stop that could have decided it (``_slow_stop``),
    a pit-lane passage of either car in the window, a wet-versus-slick tyre call, or cars
    not adjacent on track before the first stop when the attacker did not come out ahead."""

    dry, wet = _stop_measures(stops)
    served = served_times(stops)
    to = stops.set_index(["driver", "lap"])["to"].to_dict()
    came_off = stops.set_index(["driver", "lap"])["from"].to_dict()
    passed = set() if passages is None else set(zip(passages["Driver"], passages["LapNumber"]))
    order = times.rank(axis=1, method="first")
    reasons = []
    for move in moves.itertuples():
        first = min(move.driver_pit_lap, move.rival_pit_lap)
        last = max(move.driver_pit_lap, move.rival_pit_lap)
        window = range(first - 1, last + 2)
        # the laps whose times decide the move: the first in-lap to the later out-lap. A
        # neutralization that ended before the first in-lap only set the gap the cars raced
        # from (2021 Austin, 2024 Miami: a VSC on the lap before, both exchanges green)
        exchange = range(first, last + 2)
        cars = ((move.driver, move.driver_pit_lap), (move.rival, move.rival_pit_lap))
        behind = (move.rival if move.worked else move.driver, abs(move.gap_after_s))
        slow = _slow_stop(cars, dry, wet, to, came_off, behind) or _served_time(cars, served, behind)
        weather = {to.get(car) in WET_COMPOUNDS for car in cars if to.get(car) not in (None, "UNKNOWN")}
        before = order.loc[first - 1] if first - 1 in order.index else None
        between = None if before is None else abs(before.get(move.driver) - before.get(move.rival)) - 1
        neutralized = _neutralized(cars, exchange, neutral_laps, car_neutral)
        if neutralized:
            reasons.append(neutralized)
        elif slow:
            reasons.append(slow)
        elif any((d, lap) in passed for d, _ in cars for lap in window):
            reasons.append("a pit-lane passage (penalty) inside the window")
        elif len(weather) == 2:
            reasons.append("one car went to wet-weather tyres, the other to slicks: a weather call")
        elif between is not None and between > 0 and not move.worked:
            # cars between them: the move may be traffic's; but when the attacker came out
            # ahead of the rival once both had stopped, the move happened all the same
            reasons.append(f"not adjacent on track: {int(between)} car(s) between them on lap {first - 1}")
        else:
            reasons.append("")
    return reasons


def build_defenses(
    laps: pd.DataFrame, times: pd.DataFrame, neutral_laps: set[int], log: QualityLog | None = None
) -> pd.DataFrame:
    """Runs of consecutive green laps with the attacker directly behind within
    ``DEFENSE_GAP_S``, at least ``DEFENSE_MIN_LAPS`` long, where the attacker was faster:
    by a robust pace margin over the run with a small median gap, or, since a car held up
    laps at the defender's pace, by passing on track within ``DEFENSE_PASS_WITHIN_LAPS``
    of the run's end or by a faster pace over the laps before it. The longest run per
    pair is kept; a pair with only excluded runs is logged with the evidence."""
    import pandas as pd

    columns = ["driver", "attacker", "first_lap", "last_lap", "laps", "best_lap_delta_s"]
    long = times.stack().rename("t").reset_index()
    long.columns = ["lap", "driver", "t"]
    long = long.sort_values(["lap", "t"], kind="stable")
    long["ahead"] = long.groupby("lap")["driver"].shift(1)
    long["gap"] = long["t"] - long.groupby("lap")["t"].shift(1)
    row = laps.set_index(["LapNumber", "Driver"])
    clean = (row["is_green"] & ~row["is_out_lap"] & row["PitInTime"].isna()).rename("clean")
    in_pits = row["is_out_lap"] | row["PitInTime"].notna()
    lap_time = row["LapTime"]
    long = long.join(clean, on=["lap", "driver"]).join(
        clean.rename("clean_ahead"), on=["lap", "ahead"]
    )
    keep = (
        long["ahead"].notna()
        & long["gap"].le(DEFENSE_GAP_S)
        & long["clean"].eq(True)  # a missing row (no such lap) is not clean
        & long["clean_ahead"].eq(True)
        & ~long["lap"].isin(neutral_laps)
    )
    close = long[keep].sort_values(["ahead", "driver", "lap"], kind="stable")
    if close.empty:
        return pd.DataFrame(columns=columns)
    run = (close.groupby(["ahead", "driver"])["lap"].diff() != 1).cumsum()
    close = close.assign(run=run.values)
    close["own"] = lap_time.reindex(list(zip(close["lap"], close["driver"]))).to_numpy()
    close["their"] = lap_time.reindex(list(zip(close["lap"], close["ahead"]))).to_numpy()
    for column in ("own", "their"):  # each car's faster half of the run's laps
        rank = close.groupby("run")[column].rank(method="first")
        half = (close.groupby("run")[column].transform("count") + 1) // 2
        close[f"{column}_fast"] = close[column].where(rank <= half)
    runs = close.groupby("run").agg(
        driver=("ahead", "first"),
        attacker=("driver", "first"),
        first_lap=("lap", "min"),
        last_lap=("lap", "max"),
        laps=("lap", "size"),
        median_gap=("gap", "median"),
        attacker_pace=("own_fast", "mean"),
        defender_pace=("their_fast", "mean"),
    )
    # a robust pace (mean of each car's faster half of the run's laps), not one best lap:
    # in a DRS train the best laps differ by hundredths
    runs["best_lap_delta_s"] = (runs["defender_pace"] - runs["attacker_pace"]).round(3)
    runs = runs[runs["laps"] >= DEFENSE_MIN_LAPS]
    # every lap of a run is within DEFENSE_GAP_S already; a median gap over 0.7 s is no
    # reason to drop an attacker with the pace (measured: 2 of 3 such exclusions were
    # real defenses, 2020 70th Anniversary, Sainz closing on Vettel to the flag)
    paced = runs["best_lap_delta_s"] >= DEFENSE_PACE_MARGIN_S
    held = pd.Series("", index=runs.index, dtype=object)
    for index in runs.index[~paced]:
        held[index] = _held_up(runs.loc[index], times, clean, lap_time, in_pits)
    runs = runs.assign(held=held, kept=paced | held.ne(""))
    if log is not None:
        teams = laps.groupby("Driver", observed=True)["Team"].last().to_dict()
        _log_defenses(runs, times, clean, log, teams)
    runs = runs[runs["kept"]]
    runs = runs.sort_values(["laps", "first_lap"], ascending=[False, True], kind="stable")
    runs = runs.drop_duplicates(["driver", "attacker"], keep="first")
    runs = runs.sort_values(["first_lap", "driver", "attacker"], kind="stable")
    return runs[columns].reset_index(drop=True)


def _held_up(run: pd.Series, times: pd.DataFrame, clean: pd.Series, lap_time: pd.Series,
             in_pits: pd.Series) -> str:
    """Why a close run without a pace margin is still a defense ('' when it is not): the
    attacker passed on track soon after it, or lapped faster than the defender before it
    and closed in (a car held up laps at the defender's pace, so the run itself cannot
    show it). A long close run alone is no defense: a DRS train or a car simply following
    looks the same (measured on the kept side: 10+ laps within DEFENSE_GAP_S kept 14 real
    defenses of 30, 5 wrong; with a closing-in before it, 7 of 11, 1 wrong: neither
    reaches 90%)."""
    return _passed_after(run, times, in_pits, clean) or _closed_before(run, times, clean, lap_time)


def _passed_after(run: pd.Series, times: pd.DataFrame, in_pits: pd.Series, clean: pd.Series) -> str:
    """The attacker ahead of the defender on track after the run: within
    ``DEFENSE_PASS_WITHIN_LAPS`` laps (a safety car on the way does not undo the pass: the
    order after a restart is fought on track), or later while it still followed within
    ``DEFENSE_FOLLOW_S`` on green laps (a run cut by one lap over 1 s, or by a lap that was
    not clean: 2021 Monza, Vettel past Kubica on lap 45, 5 laps after the run).
    A pit stop of either car on the way ends the search: a place won in the pits is no pass;
    so does the attacker ahead on a lap that is not green for both, or by more than
    ``DEFENSE_PASS_MAX_S`` (the defender in trouble: 2020 Silverstone, Kvyat's crash on lap
    12 put Grosjean 42.9 s ahead)."""
    import math

    defender, attacker, last = run["driver"], run["attacker"], int(run["last_lap"])
    for lap in range(last + 1, last + DEFENSE_FOLLOW_MAX_LAPS + 1):
        if lap not in times.index or in_pits.get((lap, defender), True) or in_pits.get((lap, attacker), True):
            return ""
        ahead, behind = times.at[lap, attacker], times.at[lap, defender]
        if math.isnan(ahead) or math.isnan(behind):
            return ""
        if ahead < behind:
            if not (clean.get((lap, defender), False) and clean.get((lap, attacker), False)) or (
                    behind - ahead > DEFENSE_PASS_MAX_S):
                return ""  # ahead under a neutralization, or by a defender's trouble: no pass on track
            later = f", still following within {DEFENSE_FOLLOW_S} s" if lap > last + DEFENSE_PASS_WITHIN_LAPS else ""
            return f"the attacker passed on track on lap {lap}{later}"
        if lap >= last + DEFENSE_PASS_WITHIN_LAPS and ahead - behind > DEFENSE_FOLLOW_S:
            return ""  # no longer following: a later pass is another fight
    return ""


def _clean_laps_before(run: pd.Series, clean: pd.Series, first: int | None = None) -> list[int]:
    """The unbroken stretch of clean laps of both cars right before the run (at most
    ``DEFENSE_PRE_RUN_LAPS``): a stop or a neutralization in the window would make the gap
    before it say nothing of pace (2026 Hungary, Albon 11.6 s ahead of Bearman before
    his lap-54 stop, 2.6 s behind after it)."""
    defender, attacker = run["driver"], run["attacker"]
    first = int(run["first_lap"]) if first is None else first
    laps: list[int] = []
    for k in range(first - 1, first - DEFENSE_PRE_RUN_LAPS - 1, -1):
        if not (clean.get((k, defender), False) and clean.get((k, attacker), False)):
            break
        laps.insert(0, k)
    return laps


def _gap_closed(run: pd.Series, times: pd.DataFrame, start: int) -> float:
    """Seconds of the gap the attacker closed from the end of lap ``start`` to the run's first lap."""
    import math

    first, defender, attacker = int(run["first_lap"]), run["driver"], run["attacker"]
    if start not in times.index or first not in times.index:
        return math.nan
    return float((times.at[start, attacker] - times.at[start, defender])
                 - (times.at[first, attacker] - times.at[first, defender]))


def _closed_before(run: pd.Series, times: pd.DataFrame, clean: pd.Series, lap_time: pd.Series) -> str:
    """Faster by the robust pace measure over the clean laps before the run and closing in
    (``DEFENSE_CLOSING_S``), then held at the defender's pace. With only two clean laps
    (the attacker's out-lap just before: 2026 Hungary, Albon after his stop, 2.6 s to
    0.5 s behind Bearman) one lap's pace is no evidence, so the closing itself must show
    it: ``DEFENSE_CLOSING_FAST_S`` over them."""
    before = _clean_laps_before(run, clean)
    if len(before) < 2:
        return ""
    closed = _gap_closed(run, times, before[0] - 1)
    if len(before) == 2:
        if closed >= DEFENSE_CLOSING_FAST_S:
            return (f"the attacker closed {closed:.1f} s on the two clean laps {before[0]}-{before[-1]} "
                    f"before the run")
        return ""
    own = sorted(float(lap_time.get((k, run["attacker"]))) for k in before)
    their = sorted(float(lap_time.get((k, run["driver"]))) for k in before)
    half = (len(before) + 1) // 2
    margin = sum(their[:half]) / half - sum(own[:half]) / half
    if margin >= DEFENSE_PACE_MARGIN_S and closed >= DEFENSE_CLOSING_S:
        return (f"the attacker was {margin:.2f} s a lap faster over laps {before[0]}-{before[-1]} before the "
                f"run and closed {closed:.1f} s")
    return ""


def _gap(times: pd.DataFrame, lap: int, attacker: str, defender: str) -> float:
    """The attacker's gap behind the defender at the end of ``lap`` (NaN without both times)."""
    if lap not in times.index:
        return float("nan")
    return float(times.at[lap, attacker] - times.at[lap, defender])


def _following_since(run: pd.Series, times: pd.DataFrame, clean: pd.Series) -> int:
    """The first lap of the attacker's unbroken following before the run: clean laps
    behind within ``DEFENSE_FOLLOW_S`` (a run is cut by one lap over 1 s: 2022 Montreal,
    Tsunoda closed 1.7 -> 0.9 s on lap 20 and sat there to lap 41, the run counted from 26)."""
    defender, attacker, lap = run["driver"], run["attacker"], int(run["first_lap"])
    while clean.get((lap - 1, defender), False) and clean.get((lap - 1, attacker), False) and (
            0 < _gap(times, lap - 1, attacker, defender) <= DEFENSE_FOLLOW_S):
        lap -= 1
    return lap


def _closed_in_before(run: pd.Series, times: pd.DataFrame, clean: pd.Series) -> bool:
    """Whether the attacker may have closed in before following (True when it cannot be
    told): from the first lap, or from at least two unbroken clean laps before its following
    began, to the run, the largest gap less the gap at the run's start is
    ``DEFENSE_CLOSING_S`` or more (2018 Shanghai, Gasly 1.4 s behind Leclerc on lap 4, 0.5 s
    on lap 6, then ten laps at 0.5-0.9 s: closing, then held or a train)."""
    defender, attacker, first = run["driver"], run["attacker"], int(run["first_lap"])
    since = _following_since(run, times, clean)
    start = int(times.index.min())
    if since > start + 1:
        before = _clean_laps_before(run, clean, since)
        if len(before) < 2:
            return True
        start = before[0] - 1
    gaps = [_gap(times, lap, attacker, defender) for lap in range(start, first)]
    return not max(gaps, default=0.0) - _gap(times, first, attacker, defender) < DEFENSE_CLOSING_S


def _dropped_back(run: pd.Series, times: pd.DataFrame, clean: pd.Series, team_mates: bool) -> tuple[str, str]:
    """Why a run that is no defense is *known* not to be one ('' when the lap table cannot
    tell), and why that fall-back does not show it after all (``fall_back_doubt``, or
    team-mates who had just swapped places; '' when none): the attacker, which had not
    closed in before (``_closed_in_before``), fell ``DEFENSE_DROPPED_S`` behind within
    ``DEFENSE_DROP_LAPS`` clean laps after the run, on its own pace, and did not come back
    within ``DEFENSE_GAP_S`` over the next ``DEFENSE_DROP_LAPS`` laps. A run that ends with
    a stop, the flag or a neutralization, or follows a closing-in, a restart or a stop, is
    undecidable: a held-up car and a DRS train look the same in lap times (measured: of 30
    runs that fell back after a closing-in or came back, 5 were undecidable by hand)."""
    import math

    defender, attacker, last = run["driver"], run["attacker"], int(run["last_lap"])
    if _closed_in_before(run, times, clean):
        return "", ""
    for lap in range(last + 1, last + DEFENSE_DROP_LAPS + 1):
        if not (clean.get((lap, defender), False) and clean.get((lap, attacker), False)):
            return "", ""
        gap = _gap(times, lap, attacker, defender)
        if math.isnan(gap):
            return "", ""
        if gap >= DEFENSE_DROPPED_S:
            later = [_gap(times, k, attacker, defender) for k in range(lap + 1, lap + DEFENSE_DROP_LAPS + 1)]
            if any(g <= DEFENSE_GAP_S for g in later):  # back on the defender: still a fight
                return "", ""
            return f"the attacker dropped back to {gap:.1f} s on lap {lap}", _fall_back_doubt(
                run, times, clean, lap, team_mates)
    return "", ""


def _fall_back_doubt(run: pd.Series, times: pd.DataFrame, clean: pd.Series, lap: int, team_mates: bool) -> str:
    """Why the fall-back on ``lap`` does not show an attacker without the pace ('' when it
    does): team-mates who swapped places within ``SWAP_LAPS`` before the run, a run of
    ``LONG_RUN_LAPS`` or more, or a ``fall_back_doubt`` of the gaps from the lap before it
    to ``DEFENSE_DROP_LAPS`` after."""
    defender, attacker, first = run["driver"], run["attacker"], int(run["first_lap"])
    if int(run["laps"]) >= LONG_RUN_LAPS:
        return f"{int(run['laps'])} laps within {DEFENSE_GAP_S} s: a car following that long may be held up"
    before = range(first - SWAP_LAPS, first)
    gaps_before = [_gap(times, k, attacker, defender) for k in before]
    if swapped_team_mates(team_mates, gaps_before):
        ahead = max(k for k, gap in zip(before, gaps_before) if gap < 0)
        return f"team-mates who had swapped places (the attacker ahead on lap {ahead})"
    laps = range(lap - 1, lap + DEFENSE_DROP_LAPS + 1)
    return fall_back_doubt([_gap(times, k, attacker, defender) for k in laps],
                           [bool(clean.get((k, defender), False) and clean.get((k, attacker), False)) for k in laps],
                           DEFENSE_DROPPED_S)


def _unkept_runs(ordered: pd.DataFrame, kept_pairs: set[tuple[str, str]], times: pd.DataFrame, clean: pd.Series,
                 teams: dict[str, str]) -> tuple[dict, dict[tuple[str, str], str]]:
    """For each run of a pair with no kept run: (why the attacker is known to have dropped
    back, the doubt on it) (``_dropped_back``); and, per pair, the first of its runs a doubt
    moved, named when the pair's logged (longest) run is another."""
    dropped, doubts = {}, {}
    for index in ordered.index:
        run = ordered.loc[index]
        pair = (run["driver"], run["attacker"])
        if pair in kept_pairs:
            continue
        same_team = teams.get(pair[0]) is not None and teams.get(pair[0]) == teams.get(pair[1])
        why, doubt = _dropped_back(run, times, clean, same_team)
        dropped[index] = (why, doubt)
        if doubt and pair not in doubts:
            doubts[pair] = f"laps {run['first_lap']}-{run['last_lap']}: {why}, but {doubt}"
    return dropped, doubts


def _log_defenses(runs: pd.DataFrame, times: pd.DataFrame, clean: pd.Series, log: QualityLog,
                  teams: dict[str, str]) -> None:
    """One entry per pair: the run kept because the attacker was held up, or, for a pair
    with no defense at all, its longest run and why it is not one: ``defense_excluded``
    when every run of the pair ended with the attacker dropping back (known not to be a
    defense) with no doubt on it (``defense_doubts``), else ``defense_undecidable`` (no
    fact either: the lap table cannot tell; the entry names a doubt where one moved it)."""
    kept_pairs = set(zip(runs.loc[runs["kept"], "driver"], runs.loc[runs["kept"], "attacker"]))
    ordered = runs.sort_values(["laps", "first_lap"], ascending=[False, True], kind="stable")
    dropped, doubts = _unkept_runs(ordered, kept_pairs, times, clean, teams)
    undecided = {(ordered.at[i, "driver"], ordered.at[i, "attacker"]) for i, (why, doubt) in dropped.items()
                 if not why or doubt}
    seen: set[tuple[str, str]] = set()
    for index, run in zip(ordered.index, ordered.itertuples()):
        pair = (run.driver, run.attacker)
        if pair in seen:
            continue
        seen.add(pair)
        what = (f"{run.attacker} behind {run.driver} laps {run.first_lap}-{run.last_lap} ({run.laps} laps, "
                f"median gap {run.median_gap:.2f} s, pace margin {run.best_lap_delta_s:+.3f} s)")
        if pair in kept_pairs:
            if run.kept and run.held:
                log.add("defense_held_up", f"{what}: {run.held}", run.driver, int(run.first_lap))
            elif not run.kept:
                seen.discard(pair)  # the pair's kept run is shorter: log that one
            continue
        why_not = (f"pace margin under {DEFENSE_PACE_MARGIN_S} s, no pass within {DEFENSE_PASS_WITHIN_LAPS} laps, "
                   f"not faster and closing before")
        why, doubt = dropped[index]
        if pair in doubts:
            log.add("defense_undecidable", f"{what}: {why_not}; undecidable: "
                    + (f"{why}, but {doubt}" if doubt else doubts[pair]),
                    run.driver, int(run.first_lap))
        elif pair in undecided:
            log.add("defense_undecidable", f"{what}: {why_not}; the attacker did not drop back "
                    f"{DEFENSE_DROPPED_S} s within {DEFENSE_DROP_LAPS} clean laps, or had closed in before",
                    run.driver, int(run.first_lap))
        else:
            log.add("defense_excluded", f"{what}: {why_not}; {why}", run.driver, int(run.first_lap))


def derive_race(
    laps: pd.DataFrame,
    classification: pd.DataFrame,
    names: dict[str, str] | None = None,
    official_stops: OfficialStops | None = None,
) -> RaceAnalysis:
    """All derived facts of one race; ``laps`` holds that race's rows only.
    ``official_stops`` (driver -> official pit laps and their times, Ergast ``pit_stops.csv``)
    checks the lap numbering, tells a stop from a retirement on a car's last lap, and, where
    it times the entries, a drive-through from a stop (a plain list of laps has no times)."""
    import pandas as pd

    season = int(laps["Season"].iloc[0])
    round_ = int(laps["RoundNumber"].iloc[0])
    event = str(laps["EventName"].iloc[0])
    log = QualityLog()
    if classification is None or classification.empty:
        classification = classify_from_laps(laps, names or {}, log)
    laps = drop_cars_without_a_lap(laps, log, classification)
    checked = check_lap_numbering(laps, classification, official_stops, log)
    if checked is None:
        empty = pd.DataFrame()
        return RaceAnalysis(season, round_, event, 0, classification, empty, empty, empty, empty, empty,
                            empty, empty, log.frame(), dropped=log.entries[-1]["detail"])
    distance = race_distance(checked, classification)
    past = checked[checked["LapNumber"] > distance]
    if len(past):
        log.add("rows_past_distance", f"{len(past)} rows after lap {distance} (the official distance) dropped")
    within = checked[checked["LapNumber"] <= distance]
    red_laps = field_red_laps(within)
    laps = mark_laps(within, red_laps, official_stops, log)
    status = leader_status(laps, red_laps)
    neutralizations = build_neutralizations(status)
    neutral_laps = {
        lap
        for first, last in zip(neutralizations["first_lap"], neutralizations["last_lap"])
        for lap in range(first, last + 1)
    }
    stints = build_stints(laps, log)
    stops = build_stops(laps, stints, neutral_laps, official_stops)
    times = laps.pivot(index="LapNumber", columns="Driver", values="Time").sort_index(axis=1)
    passages = laps.loc[laps["passage"], ["Driver", "LapNumber"]]
    own_status = laps.loc[_status_has(laps["TrackStatus"], "4567"), ["Driver", "LapNumber"]]
    car_neutral = set(zip(own_status["Driver"], own_status["LapNumber"].astype(int)))
    return RaceAnalysis(
        season=season,
        round=round_,
        event=event,
        race_laps=distance,
        classification=classification,
        stints=stints,
        stops=stops,
        red_flag_changes=build_red_flag_changes(laps, stints),
        neutralizations=neutralizations,
        moves=build_moves(stops, times, neutral_laps, passages, log, car_neutral),
        defenses=build_defenses(laps, times, neutral_laps, log),
        times=times,
        quality=log.frame(),
        stop_count_unknown=frozenset(laps.loc[laps["stop_count_unknown"].astype(bool), "Driver"]),
    )
