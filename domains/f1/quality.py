"""Data-quality rules of the f1 oracle: where the lap table cannot be taken at its word.

FastF1 lap tables have quirks that, read naively, give wrong facts: pit entries timed
after the lap they are written on, pit-lane passages (drive-throughs, stop-go penalties,
the field led through the pit lane) that look like stops, tyre changes the tyre columns
missed, stint counters that tick without a tyre change, laps missing or numbered off by
one. Each rule here repairs the table, withholds a fact it cannot trust, or drops the
race, and writes what it did to a ``QualityLog`` that ``factcov f1 check`` prints per
race. Thresholds are module constants, documented in docs/domains/f1.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from factcov.domains.f1.official_times import official_times, official_typical, officially_quick

if TYPE_CHECKING:
    import pandas as pd

    from factcov.domains.f1.ergast import OfficialStops

LATE_PIT_EXIT_S = 1.0  # a pit exit this much after the row's lap end belongs to the next lap
LATE_PIT_ENTRY_SHARE = 0.5  # a pit entry later than this share of the next lap: the next lap's
FIELD_WINDOW_S = 60.0  # pit entries this close in session time belong to one field-wide passage
FIELD_DIVERTED_SHARE = 0.5  # ... when at least this share of the running cars entered
DRIVE_THROUGH_SAVING_S = 3.0  # a passage kept tyres and was this much quicker than a stop
STOP_GO_MIN_EXTRA_S = 4.0  # kept tyres and at least this much slower than the race's typical stop: stationary
# ~6 s or more with no tyre change (a 10 s stop-go measures +6 to +8 s); raised to 3 robust spreads of the race's stops
STOP_GO_SPREADS = 3.0
PENALTY_AT_STOP_EXTRA_S = 6.0  # ... 6 s in a race whose tyre columns miss changes (a 5 s penalty at a stop is +5 s)
FIELD_MATCH_S = 1.5  # a car in a field passage whose pit-lane time is within this of its neighbours' did not stop
RED_WAIT_S = 120.0  # a pit-lane time longer than this is a wait (a red flag), not a stop's
PENALTY_EARLIEST_LAP = 3  # a drive-through or stop-go is served from this lap on
SHIFT_AGREEMENT = 0.6  # share of pit entries that must agree on one lap offset to repair
TYRE_COMPOUNDS = ("SOFT", "MEDIUM", "HARD", "INTERMEDIATE", "WET")
RED_FIELD_SHARE = 0.5  # a lap is red-flagged when this share of its rows show status 5

RULES = {
    "lap_numbering_repaired": "lap numbers shifted to match the official pit laps and distance",
    "race_dropped": "lap numbering disagrees with Ergast and cannot be repaired: no facts",
    "rows_past_distance": "rows after the official race distance dropped",
    "pit_time_after_lap_end": "a pit entry/exit timed after its row's lap ended moved to the next lap",
    "change_after_drive_through": "a tyre change shown at an entry the official pit table times as a "
    "drive-through, the set then running on through the car's next entry: the change is that entry's",
    "pit_passage": "a pit-lane passage with the same tyres (penalty or diversion): not a stop",
    "new_set_at_age_one": "tyre age 1 then 1 across a pit stop with a stop's pit-lane time: a new set, a stop",
    "red_flag_tyres_kept": "a pit entry under a red flag with the same tyres: no tyre change",
    "phantom_stint": "the Stint counter changed with no pit entry and no red flag: ignored",
    "in_lap_shows_new_set": "the in-lap's own row already shows the new set (its Stint number, another compound or a fresh age): the set changed at that stop",
    "late_set_opened": "a set shown from a Stint tick with no pit entry (another compound, age 1) was fitted at the stint's stop: the stint's compound",
    "tyre_data_distrusted": "a stop with the tyre age running on: the compounds around it are unknown unless the Stint counter names them",
    "distrusted_side_kept": "a compound beside a distrusted stop that the Stint counter names: its set has its own stint number",
    "clean_side_kept": "the stint before a distrusted stop, read from its own rows: it does not begin at a "
    "distrusted stop, reads one compound, and the Stint counter was not ahead from the start",
    "start_compounds_withheld": "full wets beside slicks on lap 1: the first stints whose Stint number runs ahead give no compound",
    "last_lap_pit_entry": "a pit entry on a car's last lap: stop or retirement per the official pit table",
    "stop_count_unknown": "a pit entry on a car's last lap the data cannot tell: no stop count",
    "retired_without_result": "no official result and no position on the last lap: retired",
    "no_lap_completed": "a car that completed no lap: its rows dropped, no facts and no instance about it",
    "took_the_flag": "not classified but crossed the line after the winner finished: not retired",
    "retired_before_flag": "classified by distance but stopped before the winner finished: retired",
    "move_excluded": "an undercut/overcut confounded by something other than strategy: not a move",
    "defense_excluded": "a close run of 5+ green laps that is no defense: no pace margin, no pass, the attacker dropped back",
    "defense_undecidable": "a close run of 5+ green laps the lap table cannot decide (held up or a train): no fact",
    "defense_held_up": "a close run kept as a defense: the attacker passed on track soon after, or was faster and closing before",
}


@dataclass
class QualityLog:
    """Every rule that fired in one race, in the order it fired."""

    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, rule: str, detail: str, driver: str | None = None, lap: int | None = None) -> None:
        assert rule in RULES, rule
        self.entries.append(
            {"rule": rule, "driver": driver, "lap": None if lap is None else int(lap), "detail": detail}
        )

    def frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.entries, columns=["rule", "driver", "lap", "detail"])


def status_has(status: pd.Series, codes: str) -> pd.Series:
    """Whether each TrackStatus string holds any of the digits ``codes`` (decided once per
    distinct status: a race has a few dozen)."""
    unique = status.dropna().unique()
    has = {value: any(code in value for code in codes) for value in unique}
    return status.map(has).eq(True)


def check_lap_numbering(
    laps: pd.DataFrame,
    classification: pd.DataFrame,
    official_stops: OfficialStops | None,
    log: QualityLog,
) -> pd.DataFrame | None:
    """The table's laps against the official distance and pit laps.

    A winner with fewer rows than his official laps means laps are missing or numbered
    from a restart (2024 Monaco: the aborted lap 1 is not in the table). When the table's
    pit entries agree on one offset to the official pit laps (``SHIFT_AGREEMENT``) and
    that offset closes the distance gap, the numbers are shifted; otherwise (2020 Austria:
    3-5 laps missing per finisher) the race is dropped: ``None``.
    """
    winners = classification[classification["position_order"] == 1] if len(classification) else []
    if not len(winners) or winners["laps"].isna().iloc[0]:
        return laps
    code, official = str(winners["code"].iloc[0]), int(winners["laps"].iloc[0])
    own = laps[laps["Driver"] == code]
    if own.empty or int(own["LapNumber"].max()) >= official:
        return laps
    have = int(own["LapNumber"].max())
    offset = _pit_lap_offset(laps, official_stops)
    if offset is not None and offset != 0 and have + offset == official:
        log.add("lap_numbering_repaired", f"the winner {code} has laps 1-{have} of {official}; the pit "
                f"entries agree with the official pit laps at +{offset}: every lap number shifted by {offset}")
        return laps.assign(LapNumber=laps["LapNumber"] + offset)
    log.add("race_dropped", f"the winner {code} has {len(own)} rows up to lap {have} of {official} official "
            "laps and no single lap offset matches the official pit laps")
    return None


def _pit_lap_offset(laps: pd.DataFrame, official_stops: OfficialStops | None) -> int | None:
    """The offset (official minus table lap) most pit entries agree on, if enough do."""
    from collections import Counter

    if not official_stops:
        return None
    entries = laps[laps["PitInTime"].notna() & (laps["LapNumber"] > 1)]
    offsets: Counter = Counter()
    for driver, lap in zip(entries["Driver"], entries["LapNumber"]):
        official = official_stops.get(str(driver), {})
        found = [k for k in range(-2, 7) if lap + k in official]
        if found:
            offsets[min(found, key=abs)] += 1
    if not offsets:
        return None
    offset, count = offsets.most_common(1)[0]
    return offset if count >= SHIFT_AGREEMENT * sum(offsets.values()) else None


def drop_cars_without_a_lap(laps: pd.DataFrame, log: QualityLog,
                            classification: pd.DataFrame | None = None) -> pd.DataFrame:
    """Rows of cars that completed no lap: none of their rows has a lap time or a position
    (2025 Australia: Hadjar, out before the start, Doohan and Sainz on lap 1, one row
    each), or none has a lap time and the official result gives 0 laps (2023 São Paulo:
    Albon and Magnussen out on lap 1, Leclerc before the start, one row each with a
    position the timing feed carried from the grid). Instances need a completed lap, and
    nothing can be said of such a car's strategy. The official laps alone are no evidence
    of this: Ergast gives a disqualified car 0 laps (2025 China: Hamilton, Leclerc and
    Gasly, 56 laps run, every lap timed); and one official lap with no lap time is a lap
    (2021 Belgium: the whole field, one lap behind the safety car)."""
    timed = laps["LapTime"].notna().groupby(laps["Driver"]).any()
    placed = laps["Position"].notna().groupby(laps["Driver"]).any()
    official = _official_laps(classification)
    none = sorted(str(code) for code in timed.index if not timed[code] and not placed[code])
    unlapped = sorted(str(code) for code in timed.index
                      if not timed[code] and placed[code] and official.get(str(code)) == 0)
    for code in none:
        rows = int((laps["Driver"] == code).sum())
        log.add("no_lap_completed", f"{rows} row(s), none with a lap time or a position: no facts and no "
                "instance", code)
    for code in unlapped:
        rows = int((laps["Driver"] == code).sum())
        log.add("no_lap_completed", f"{rows} row(s), none with a lap time, and 0 official laps: no facts and no "
                "instance", code)
    dropped = none + unlapped
    return laps[~laps["Driver"].isin(dropped)] if dropped else laps


def _official_laps(classification: pd.DataFrame | None) -> dict[str, int]:
    """Laps completed per car code in the official result (none when it has no lap counts:
    the classification built from the lap table)."""
    if classification is None or "laps" not in classification.columns or "code" not in classification.columns:
        return {}
    return {str(code): int(n) for code, n in zip(classification["code"], classification["laps"])
            if isinstance(code, str) and n == n and n is not None}


def move_late_pit_times(laps: pd.DataFrame, log: QualityLog) -> pd.DataFrame:
    """A pit entry (or exit) timed after its row's lap ended happened on the next lap
    (2018 Bahrain, Vettel: the lap-17 row ends at 2151 s, its pit entry is at 2246 s, so
    the in-lap is 18). ``laps`` is sorted by driver and lap."""
    laps = laps.copy()
    same_driver_next = laps["Driver"].shift(-1) == laps["Driver"]
    # an entry timed a few seconds after the line is still that lap's (2018 Baku, Ericsson
    # +9 s: the official in-lap is 18); one more than half a lap later is the next lap's
    next_lap = laps["LapTime"].shift(-1).fillna(60.0)
    margins = {"PitInTime": LATE_PIT_ENTRY_SHARE * next_lap, "PitOutTime": LATE_PIT_EXIT_S}
    for column, word in (("PitInTime", "entry"), ("PitOutTime", "exit")):
        late = (laps[column] > laps["Time"] + margins[column]).eq(True) & same_driver_next
        late &= laps[column].shift(-1).isna()
        for index in laps.index[late]:
            laps.loc[index + 1, column] = laps.loc[index, column]
            laps.loc[index, column] = float("nan")
            log.add("pit_time_after_lap_end",
                    f"pit {word} at {laps.loc[index + 1, column]:.1f} s is after lap "
                    f"{int(laps.loc[index, 'LapNumber'])} ended ({laps.loc[index, 'Time']:.1f} s): "
                    f"moved to lap {int(laps.loc[index + 1, 'LapNumber'])}",
                    str(laps.loc[index, "Driver"]), int(laps.loc[index + 1, "LapNumber"]))
    return laps


def move_changes_off_drive_throughs(laps: pd.DataFrame, official_stops: OfficialStops | None,
                                    log: QualityLog) -> pd.DataFrame:
    """A tyre change the feed put on a pit entry the official pit table times as a
    drive-through, when the set it shows then runs on through the car's next pit entry,
    belongs to that entry: a drive-through has no stationary time to change tyres in, and
    the later entry's "missed change" is the change shown early (2025 Monaco, Russell: lap
    53, 19.5 s against the race's 24.3 s official stops, reads HARD 53 -> MEDIUM 1; MEDIUM
    9 -> 10 across his 25.1 s entry on lap 62; race reports: a drive-through on lap 53,
    stops on 62 and 68). The rows from the drive-through to the later entry carry the old
    set on, and the set's ages after it count from its fitting. Both pieces of evidence
    must agree; without official times nothing moves. ``laps`` is sorted by driver and lap
    with a RangeIndex."""
    times = official_times(laps, official_stops)
    if times.isna().all():
        return laps
    by_driver = laps.groupby("Driver", sort=False)
    entry = laps["PitInTime"].notna() & by_driver["LapNumber"].shift(-1).notna()
    runs_on = _set_runs_on(laps, by_driver)
    shown = entry & ~runs_on & laps["Compound"].isin(TYRE_COMPOUNDS) & by_driver["Compound"].shift(-1).isin(
        TYRE_COMPOUNDS)
    typical = official_typical(times, shown, RED_WAIT_S)
    quick = (shown & officially_quick(times, typical) & (laps["LapNumber"] >= PENALTY_EARLIEST_LAP)
             & laps["TyreLife"].notna())
    if not quick.any():
        return laps
    laps = laps.copy()
    for index in laps.index[quick]:
        later = _next_entry_on_the_set(laps, runs_on, int(index))
        if later is None:
            continue
        before = f"{laps.at[index, 'Compound']} {int(laps.at[index, 'TyreLife'])}"
        after = f"{laps.at[index + 1, 'Compound']} {int(laps.at[index + 1, 'TyreLife'])}"
        _carry_the_old_set(laps, runs_on, int(index), later)
        log.add("change_after_drive_through", f"{before} -> {after} at an entry the official pit table times "
                f"{times[index]:.1f} s against the race's official stops {typical:.1f} s (a drive-through), the set "
                f"then running on through the entry on lap {int(laps.at[later, 'LapNumber'])}: the change is that "
                f"entry's, the laps between on the old set", str(laps.at[index, "Driver"]), int(laps.at[index, "LapNumber"]))
    return laps


def _set_runs_on(laps: pd.DataFrame, by_driver: Any) -> pd.Series:
    """Rows whose recorded set runs on into the car's next row: the same known compound and
    Stint number (when both are given), the age one lap older."""
    next_stint = by_driver["Stint"].shift(-1)
    same_stint = (next_stint == laps["Stint"]) | next_stint.isna() | laps["Stint"].isna()
    return (laps["Compound"].isin(TYRE_COMPOUNDS) & (by_driver["Compound"].shift(-1) == laps["Compound"])
            & (by_driver["TyreLife"].shift(-1) == laps["TyreLife"] + 1) & same_stint).eq(True)


def _next_entry_on_the_set(laps: pd.DataFrame, runs_on: pd.Series, first: int) -> int | None:
    """The car's next pit entry after row ``first`` when the set its out-lap shows runs on
    unbroken to that entry and through it (a change the tyre columns missed there)."""
    driver, pit = laps["Driver"].to_numpy(), laps["PitInTime"].notna().to_numpy()
    row = first + 1
    while row < len(laps) and driver[row] == driver[first]:
        if pit[row]:
            return row if runs_on.iat[row] else None
        if not runs_on.iat[row]:
            return None
        row += 1
    return None


def _carry_the_old_set(laps: pd.DataFrame, runs_on: pd.Series, first: int, later: int) -> None:
    """Rows ``first``+1..``later`` back onto the set of row ``first`` (its compound, Stint
    number and age running on); the early-shown set's rows after ``later`` aged from its
    fitting at ``later``."""
    shift = later - first  # rows (laps) the set was shown early, one lap of age each
    row = later + 1
    while row < len(laps) and laps.at[row, "Driver"] == laps.at[first, "Driver"]:
        laps.at[row, "TyreLife"] -= shift
        if laps.at[row, "PitInTime"] == laps.at[row, "PitInTime"] or not runs_on.iat[row]:
            break  # the set's last row: its in-lap, or the feed shows another set next
        row += 1
    between = slice(first + 1, later)
    laps.loc[between, "Compound"] = laps.at[first, "Compound"]
    laps.loc[between, "Stint"] = laps.at[first, "Stint"]
    laps.loc[between, "TyreLife"] = [laps.at[first, "TyreLife"] + k for k in range(1, shift + 1)]


def field_red_laps(laps: pd.DataFrame) -> set[int]:
    """Laps on which at least ``RED_FIELD_SHARE`` of the cars completing them show a red
    flag: the whole field, not the first car's row (a crashed car's row has status 0)."""
    red = status_has(laps["TrackStatus"], "5")
    share = red.groupby(laps["LapNumber"]).mean()
    return {int(lap) for lap in share.index[share >= RED_FIELD_SHARE]}


def leader_rows(laps: pd.DataFrame) -> pd.DataFrame:
    """The first car to complete each lap among rows that are real laps: a known
    position and a status (a crashed car's closing row has neither; 2023 Australia lap
    57). A lap with no such row falls back to its first row."""
    import pandas as pd

    timed = laps[laps["Time"].notna()]
    real = timed["Position"].notna() & ~timed["TrackStatus"].isin(["", "0"])
    covered = set(timed.loc[real, "LapNumber"])
    pool = pd.concat([timed[real], timed[~timed["LapNumber"].isin(covered)]])
    return pool.loc[pool.groupby("LapNumber")["Time"].idxmin()].sort_values("LapNumber")


def _phantom_resets(
    laps: pd.DataFrame, candidates: pd.Series, kept: pd.Series, transit: pd.Series
) -> pd.Series:
    """Tyre-age resets (same compound) in a field passage that are no stop: the car's
    pit-lane time is within ``FIELD_MATCH_S`` of the median of the cars around it that
    kept their tyres, and it left the pit lane in the same place among them as it entered
    (a stop costs seconds of stationary time and places). FastF1 sometimes restarts the
    age of a car led through the pit lane (2025 Australia lap 2: Albon and Stroll,
    intermediates 2 -> 1 at 14.9 and 15.7 s among fifteen cars at 14.7 s)."""
    import pandas as pd

    phantom = pd.Series(False, index=laps.index)
    pit_in, pit_out = laps["PitInTime"], laps["PitInTime"] + transit
    for index in laps.index[candidates]:
        around = (pit_in - pit_in[index]).abs().le(FIELD_WINDOW_S) & transit.notna()
        others = kept & around
        if others.sum() < 2 or transit[index] > transit[others].median() + FIELD_MATCH_S:
            continue
        group = around & (kept | (pit_in.index == index))
        entered = int((pit_in[group] < pit_in[index]).sum())
        left = int((pit_out[group] < pit_out[index]).sum())
        phantom[index] = entered == left
    return phantom


def classify_pit_entries(
    laps: pd.DataFrame,
    red_laps: set[int],
    official_stops: OfficialStops | None,
    log: QualityLog,
) -> pd.DataFrame:
    """Flags of each row: ``is_stop``, ``is_red_change``, ``distrusted`` (a stop whose
    tyre data ran on), ``silent_red_change``, and ``passage`` (not a stop).

    ``laps`` is sorted by driver and lap; ``official_stops`` (driver -> official pit laps and
    times) is ``None`` when there is no official pit table for the race.
    """
    import numpy as np
    import pandas as pd

    laps = laps.copy()
    by_driver = laps.groupby("Driver", sort=False)
    has_next = by_driver["LapNumber"].shift(-1).notna()
    next_compound = by_driver["Compound"].shift(-1)
    next_life = by_driver["TyreLife"].shift(-1)
    transit = by_driver["PitOutTime"].shift(-1) - laps["PitInTime"]
    pit_in = laps["PitInTime"].notna()
    known = laps["Compound"].isin(TYRE_COMPOUNDS)
    # the same set after the pit lane: same compound, tyre age running on (one lap older,
    # or not advanced at all across a stoppage)
    same_compound = known & (next_compound == laps["Compound"]).eq(True)
    kept = same_compound & ((next_life == laps["TyreLife"] + 1) | (next_life == laps["TyreLife"])).eq(True)
    # an in-lap whose own row already shows the next set (2025 Belgium, Bearman lap 12:
    # INTERMEDIATE 11 on lap 11, MEDIUM 1 as set 2 on the in-lap, MEDIUM 2 after it): the
    # age "running on" from the in-lap is the new set's, and the set changed at this stop
    # a Stint tick with no pit entry on the row before: a set the feed opened on track
    silent_tick = _stint_ticks(laps, by_driver) & by_driver["PitInTime"].shift(1).isna()
    shows_next = _in_lap_shows_next_set(laps, by_driver, pit_in, silent_tick)
    kept &= ~shows_next
    near_red = laps["LapNumber"].isin({lap + d for lap in red_laps for d in (-1, 0, 1)})
    red = status_has(laps["TrackStatus"], "5") & near_red
    neutral_row = status_has(laps["TrackStatus"], "4567")
    # lap 1 with a pit entry before its pit exit: a pit-lane start, not a stop
    pre_race = (laps["LapNumber"] == 1) & (laps["PitInTime"] < laps["PitOutTime"]).eq(True)
    entry = pit_in & ~pre_race & ~red
    changed = entry & has_next & ~kept & transit.between(5, RED_WAIT_S)
    green_stops = transit[changed & ~neutral_row]
    typical = green_stops.median()
    if np.isnan(typical):
        green_stops = transit[changed]
        typical = green_stops.median()
    # tyre age 1 and 1 again after the pit lane is what a new set fitted after lap 1 looks
    # like, not only a set that did not age across a stoppage: with a stop's pit-lane time
    # (stationary, not a passage, not a red-flag wait) it is a new set (2021 Hungary lap 1:
    # Verstappen 22.5 s, new intermediates, in Ergast, beside the lap-2 red flag)
    at_one = (laps["TyreLife"] == 1).eq(True) & (next_life == 1).eq(True) & same_compound
    new_set = entry & at_one & transit.between(typical - DRIVE_THROUGH_SAVING_S, RED_WAIT_S).eq(True)
    # under a red flag the pit-lane time is a wait and tells nothing; FastF1's FreshTyre on
    # the next row does (2024 Japan lap 1: Magnussen and Stroll 1 -> 1 on a fresh set, a
    # red-flag tyre change; Bottas 1 -> 2, not fresh, the same set)
    fresh_next = (by_driver["FreshTyre"].shift(-1).astype("string").str.lower() == "true").eq(True) \
        if "FreshTyre" in laps.columns else pd.Series(False, index=laps.index)
    kept &= ~new_set & ~(red & at_one & fresh_next)
    changed = entry & has_next & ~kept & transit.between(5, RED_WAIT_S)
    _log_new_sets(laps.loc[new_set & has_next], transit, typical, official_stops, log)
    # a field-wide passage, grouped by session time (not lap number: 2026 Monaco's fell on
    # laps 65 and 66): this share of the running cars entered within FIELD_WINDOW_S
    times = np.sort(laps.loc[entry, "PitInTime"].to_numpy())
    near = np.searchsorted(times, laps["PitInTime"] + FIELD_WINDOW_S, "right") - np.searchsorted(
        times, laps["PitInTime"] - FIELD_WINDOW_S, "left"
    )
    running = laps.groupby("LapNumber")["Driver"].transform("size")
    diverted = entry & (near >= FIELD_DIVERTED_SHARE * running)
    # no sign of new tyres: not a new compound, the age not reset (an unknown compound or
    # age, as on 2018's lap 1, is no sign either)
    new_compound = (known & next_compound.isin(TYRE_COMPOUNDS) & (next_compound != laps["Compound"])).eq(True)
    reset = (next_life < laps["TyreLife"]).eq(True)
    # a reset to 1 is what a new stint looks like to FastF1 (a set with another age, 2026
    # Monaco Lawson's 26 -> 7, is a recorded set: a stop)
    restarted = reset & (next_life == 1).eq(True) & same_compound
    phantom = _phantom_resets(laps, diverted & has_next & restarted, diverted & has_next & kept, transit)
    fresh = new_compound | (reset & ~phantom)
    field = diverted & ~fresh & (transit < typical).eq(True)
    # a penalty is notified before it is served: never on the first laps, where a slow
    # stop with the tyre columns running on is a damage stop (2018 Austin, Stroll lap 1)
    penalty_lap = laps["LapNumber"] >= PENALTY_EARLIEST_LAP
    quick_time = _drive_through_times(laps, transit, typical, changed, official_stops)
    quick = kept & penalty_lap & quick_time.quick
    # stationary well beyond any of the race's own stops with the tyre set unchanged: a
    # stop-go penalty (or a repair without new tyres), under green or not (2020 Monza:
    # Hamilton and Giovinazzi's 10 s stop-gos, +6.4 s and +6.2 s over a normal stop)
    # around a red flag, the same tyres through the pit lane again are the stoppage's
    # (2026 Monaco lap 68: the restart behind the safety car through the pit lane)
    restart = kept & near_red
    # a race whose tyre columns miss real changes (a normal stop's pit-lane time with the
    # age running on) cannot tell a slow stop with new tyres from no tyre change: there a
    # 5 s penalty served at a stop (+5 s) is a stop (2022 Austria: Norris and Gasly, +4 to
    # +5 s), and only more than PENALTY_AT_STOP_EXTRA_S is a stop-go
    normal_kept = kept & entry & has_next & ~restart & (transit - typical).abs().le(DRIVE_THROUGH_SAVING_S)
    missed_elsewhere = pd.Series(bool(normal_kept.any()), index=laps.index)
    spread = (green_stops.quantile(0.75) - green_stops.quantile(0.25)) / 1.349 if len(green_stops) > 3 else 0.0
    floor = PENALTY_AT_STOP_EXTRA_S if normal_kept.any() else STOP_GO_MIN_EXTRA_S
    stop_go_extra = max(floor, STOP_GO_SPREADS * (0.0 if np.isnan(spread) else spread))
    stop_go = kept & penalty_lap & (transit > typical + stop_go_extra).eq(True) & transit.lt(RED_WAIT_S)
    # a pit entry with no exit on the car's final row: it never left the pits (2022 Baku,
    # Leclerc lap 20, a row for lap 21 without a pit exit), like an entry on the last row
    next_is_last = by_driver["LapNumber"].shift(-2).isna() & has_next
    never_left = has_next & next_is_last & by_driver["PitOutTime"].shift(-1).isna()
    passage = entry & has_next & ~never_left & (field | quick | stop_go | restart)
    columns = ["Driver", "LapNumber", "Compound", "TyreLife", "Stint"]
    kinds = _PassageKinds(field, phantom, restart, quick, kept, missed_elsewhere, stop_go_extra)
    for row in laps.loc[passage, columns].itertuples():
        i = row.Index
        kind = kinds.kind(i)
        log.add("pit_passage", f"{kind}: pit lane {transit[i]:.1f} s against the race's typical stop {typical:.1f} "
                f"s, {kinds.tyres(row, next_life[i])}{quick_time.said(i) if kind == 'drive-through' else ''}",
                str(row.Driver), int(row.LapNumber))
    for row in laps.loc[pit_in & red & has_next & kept, columns].itertuples():
        log.add("red_flag_tyres_kept", f"{row.Compound} tyre age {int(row.TyreLife)} running on after the "
                "red flag", str(row.Driver), int(row.LapNumber))
    last = entry & (~has_next | never_left)
    last_stop = _last_entries_that_are_stops(laps, last, official_stops, log)
    # a slow passage with the same tyres is a stop-go penalty or a repair without new tyres:
    # no stop either way, unless the race's tyre columns miss real changes elsewhere (a
    # normal stop's pit-lane time with the age running on), when it may be a slow stop too
    slow_passage = (passage & stop_go & ~field & ~quick & ~restart & missed_elsewhere).groupby(
        laps["Driver"]).transform("any")
    laps["stop_count_unknown"] = ((last & ~last_stop) if not official_stops else False) | slow_passage
    laps["is_stop"] = entry & ~passage & ((has_next & ~last) | last_stop)
    laps["is_red_change"] = pit_in & red & has_next & ~kept & ~never_left
    laps["distrusted"] = laps["is_stop"] & kept & ~last
    for row in laps.loc[laps["distrusted"], columns].itertuples():
        log.add("tyre_data_distrusted", f"stop with {row.Compound} tyre age {int(row.TyreLife)} running on: "
                "the tyre change was missed, compounds before and after unknown unless the Stint counter names them",
                str(row.Driver), int(row.LapNumber))
    for row in laps.loc[shows_next & laps["is_stop"], columns].itertuples():
        log.add("in_lap_shows_new_set", f"the in-lap's row reads {row.Compound} tyre age {int(row.TyreLife)} as set "
                f"{int(row.Stint)}, the row before another set: a tyre change at this stop, the in-lap's stint keeps "
                "the compound of the rows before", str(row.Driver), int(row.LapNumber))
    previous_stint = by_driver["Stint"].shift(1)
    ticked = silent_tick & ~shows_next  # the tick of a set shown on its in-lap is that stop's
    in_red = laps["LapNumber"].isin(red_laps) | (laps["LapNumber"] - 1).isin(red_laps)
    laps["silent_red_change"] = ticked & in_red
    for row in laps.loc[ticked & ~in_red, columns].itertuples():
        log.add("phantom_stint", f"Stint {int(previous_stint[row.Index])} -> {int(row.Stint)} with no pit "
                "entry and no red flag", str(row.Driver), int(row.LapNumber))
    laps["passage"] = passage
    return laps


def _stint_ticks(laps: pd.DataFrame, by_driver: Any) -> pd.Series:
    """Rows whose Stint number is another than the row before's (both known)."""
    previous_stint = by_driver["Stint"].shift(1)
    return laps["Stint"].notna() & previous_stint.notna() & (laps["Stint"] != previous_stint)


def _another_known_compound(laps: pd.DataFrame, by_driver: Any) -> pd.Series:
    """Rows showing another known compound than the row before's."""
    previous_compound = by_driver["Compound"].shift(1)
    return (laps["Compound"].isin(TYRE_COMPOUNDS) & previous_compound.isin(TYRE_COMPOUNDS)
            & (laps["Compound"] != previous_compound))


def _in_lap_shows_next_set(laps: pd.DataFrame, by_driver: Any, pit_in: pd.Series,
                           silent_tick: pd.Series) -> pd.Series:
    """In-laps whose own row opens the next set: the Stint number ticks on the in-lap (not
    after a pit entry: ``silent_tick``), and the row shows another set than the row before
    (another known compound, or the age restarted at 1)."""
    previous_life = by_driver["TyreLife"].shift(1)
    restarted = (laps["TyreLife"] == 1).eq(True) & (previous_life > 1).eq(True)
    return pit_in & silent_tick & (_another_known_compound(laps, by_driver) | restarted)


@dataclass(frozen=True)
class _DriveThroughTimes:
    """Which entries' pit-lane times are a drive-through's: the official time's test where the
    official table times the entry, the lap table's elsewhere (an official timing outranks it)."""

    quick: pd.Series
    official: pd.Series
    official_typical: float

    def said(self, i: Any) -> str:
        if self.official[i] != self.official[i]:  # NaN: the lap table decided
            return ""
        return (f"; the official pit table times it {self.official[i]:.1f} s against the race's official "
                f"stops {self.official_typical:.1f} s")


def _drive_through_times(laps: pd.DataFrame, transit: pd.Series, typical: float, changed: pd.Series,
                         official_stops: OfficialStops | None) -> _DriveThroughTimes:
    """A drive-through has no stationary time: its pit-lane time is ``DRIVE_THROUGH_SAVING_S``
    under the race's typical stop in the lap table, or ``OFFICIAL_DRIVE_THROUGH_S`` under the
    race's official stops where the official table times it (``changed``: the entries with a
    tyre change, whose official times make the race's official stops)."""
    times = official_times(laps, official_stops)
    typical_official = official_typical(times, changed, RED_WAIT_S)
    by_lap_table = (transit < typical - DRIVE_THROUGH_SAVING_S).eq(True)
    timed = times.notna() & (typical_official == typical_official)
    quick = by_lap_table.where(~timed, officially_quick(times, typical_official))
    return _DriveThroughTimes(quick, times.where(timed), typical_official)


def _log_new_sets(rows: pd.DataFrame, transit: pd.Series, typical: float,
                  official_stops: OfficialStops | None, log: QualityLog) -> None:
    """Say each new set read from a tyre age of 1 then 1, and whether the official table lists it."""
    for row in rows[["Driver", "LapNumber", "Compound"]].itertuples():
        listed = "" if not official_stops else (
            "; the official pit table lists it" if int(row.LapNumber) in official_stops.get(str(row.Driver), ())
            else "; the official pit table does not list it")
        log.add("new_set_at_age_one", f"{row.Compound} tyre age 1 then 1 with a pit-lane time of "
                f"{transit[row.Index]:.1f} s (typical stop {typical:.1f} s): a new set{listed}",
                str(row.Driver), int(row.LapNumber))


@dataclass(frozen=True)
class _PassageKinds:
    """What a pit passage was, in words, from the flags that made it one."""

    field: pd.Series
    phantom: pd.Series
    restart: pd.Series
    quick: pd.Series
    kept: pd.Series
    missed_elsewhere: pd.Series
    stop_go_extra: float

    def kind(self, i: Any) -> str:
        if self.field[i]:
            return ("the field led through the pit lane (a tyre age reset with the neighbours' pit-lane time, "
                    "in their order: no stop)" if self.phantom[i] else "the field led through the pit lane")
        if self.restart[i]:
            return "the same tyres through the pit lane around a red flag"
        if self.quick[i]:
            return "drive-through"
        unknown = " (the race's tyre columns miss changes elsewhere: stop count unknown)" if self.missed_elsewhere[i] else ""
        return f"stop-go penalty or a repair without new tyres, over {self.stop_go_extra:.1f} s above the typical stop{unknown}"

    def tyres(self, row: Any, next_life: float) -> str:
        if self.kept[row.Index]:
            return f"{row.Compound} tyre age {int(row.TyreLife)} running on"
        if self.phantom[row.Index]:
            return f"{row.Compound} tyre age {int(row.TyreLife)} reset to {int(next_life)}"
        return "no sign of new tyres"


def _last_entries_that_are_stops(laps: pd.DataFrame, last: pd.Series,
                                 official_stops: OfficialStops | None, log: QualityLog) -> Any:
    """Which pit entries on a car's last row are stops (a boolean array): those the official pit
    table lists (the car retired on its out-lap); without a table it cannot be told, and is said so."""
    import numpy as np

    last_stop = np.zeros(len(laps), dtype=bool)
    for position in np.flatnonzero(last.to_numpy()):
        driver, lap = str(laps["Driver"].iat[position]), int(laps["LapNumber"].iat[position])
        if official_stops:
            listed = lap in official_stops.get(driver, ())
            last_stop[position] = listed
            log.add("last_lap_pit_entry", ("a stop: the official pit table lists it; the car retired on "
                    "its out-lap") if listed else "a retirement into the pits: no official stop", driver, lap)
        else:
            log.add("stop_count_unknown", "a pit entry on the last lap and no official pit table: "
                    "stop or retirement cannot be told", driver, lap)
    return last_stop


def name_distrusted_sides(laps: pd.DataFrame, log: QualityLog) -> dict[tuple[str, int], str]:
    """The compounds beside distrusted stops that the Stint counter decides: (driver, stint id)
    -> compound, for the stints next to a distrusted stop; the others stay unknown.

    The tyre columns of a distrusted stop run one set's compound and age across it; whether
    that set is the one before the stop (the new set never shown) or the one after (shown
    from the start: 2022 Monaco) the row cannot tell. FastF1's Stint column can: it numbers
    the car's sets in the order the timing feed opened them, and a set opened late still
    gets its own number (2019 Bahrain, Bottas: stop on lap 37, MEDIUM age 25 running on to
    lap 39, then Stint 3 SOFT on lap 40; 2018 China: sets 2 and 3 opened on laps 47 and 48
    for stops on laps 17 and 31). ``laps`` is marked (``stint_id``, ``distrusted``) and
    sorted by driver and lap.
    """
    named: dict[tuple[str, int], str] = {}
    for driver in laps.loc[laps["distrusted"], "Driver"].unique():
        rows = laps[laps["Driver"] == driver]
        for stint, (compound, how) in _counter_sides(rows).items():
            named[(str(driver), stint)] = compound
            span = rows.loc[rows["stint_id"] == stint, "LapNumber"]
            log.add("distrusted_side_kept", f"stint {stint} (laps {int(span.min())}-{int(span.max())}): "
                    f"{compound}, {how}", str(driver), int(span.min()))
    return named


def keep_clean_sides(laps: pd.DataFrame, named: dict[tuple[str, int], str],
                     log: QualityLog) -> dict[tuple[str, int], str]:
    """The stints before distrusted stops that the Stint counter does not name but whose own
    rows decide: (driver, stint id) -> compound.

    FastF1 gives each lap the tyre data known at that lap's time, so rows shown before a stop
    cannot carry a set fitted at or after it: whether the tyres were changed there (a missed
    change) or not (a new number on the same set), the stint before ran on its rows'
    compound. That fails where the rows are not the set's own, so a before side is kept only
    when (1) it does not begin at a distrusted stop (the after side of one, whose rows may
    carry the old set on), (2) the counter was not ahead of the stints from the car's start up
    to it (2022 Monaco: set 2 on lap 1, the rows one set early), (3) its rows read one known
    compound. The after side is never kept this way. Validated before it was built on the 48
    before sides the counter names: all clean, the rows' compound the counter's on 48
    (``benchmarks/f1_clean_sides.py``). ``laps`` is marked (``stint_id``, ``distrusted``).
    """
    kept: dict[tuple[str, int], str] = {}
    for driver in laps.loc[laps["distrusted"], "Driver"].unique():
        rows = laps[laps["Driver"] == driver]
        stops = rows.loc[rows["distrusted"]].set_index("stint_id")["LapNumber"]
        numbers = rows.groupby("stint_id")["Stint"].min()
        for stint, stop_lap in stops.items():
            stint = int(stint)
            if (str(driver), stint) in named or stint - 1 in stops.index:
                continue
            if all(not numbers.get(s, 0) <= s for s in range(1, stint + 1)):
                continue  # ahead (or unnumbered) on every stint from the first: 2022 Monaco's start
            own = rows[rows["stint_id"] == stint]
            compounds = own["Compound"].dropna().unique()
            if len(compounds) != 1 or compounds[0] not in TYRE_COMPOUNDS:
                continue
            kept[(str(driver), stint)] = str(compounds[0])
            first = int(own["LapNumber"].min())
            log.add("clean_side_kept", f"stint {stint} (laps {first}-{int(own['LapNumber'].max())}): {compounds[0]}, "
                    f"the side before the distrusted stop on lap {int(stop_lap)}, whose rows cannot show a set fitted "
                    f"later: it begins {_stint_start(stint, first)}, reads {compounds[0]} only, and the "
                    f"Stint counter was not ahead from the start (in step on stint {_in_step(numbers, stint)})", str(driver), first)
    return kept


def _stint_start(stint: int, first: int) -> str:
    """How a clean stint began, in words (it never begins at a distrusted stop)."""
    return "at the start" if stint == 1 else f"after a trusted tyre change (its first lap {first})"


def _in_step(numbers: pd.Series, stint: int) -> str:
    """The first stint up to ``stint`` whose lowest Stint number is not above its position."""
    return next(str(s) for s in range(1, stint + 1) if numbers.get(s, 0) <= s)


@dataclass(frozen=True)
class _CounterRun:
    """One car's stints i..i+k joined by k distrusted stops, with the Stint counter's view."""

    first: int  # stint id i
    k: int  # distrusted stops in the run
    start_label: int  # the counter's number on stint i
    labels: pd.DataFrame  # the run's rows with a Stint number (LapNumber, Stint, Compound, TyreLife)
    stop_laps: list[int]  # the run's distrusted stops, in order


def _counter_sides(rows: pd.DataFrame) -> dict[int, tuple[str, str]]:
    """Stint id -> (compound, why) for one car, run by run of distrusted stops."""
    labelled = rows[rows["Stint"].notna()]
    known = labelled[labelled["Compound"].isin(TYRE_COMPOUNDS)]
    compounds = known.groupby("Stint")["Compound"].agg(lambda c: sorted(set(c)))
    by_stint = labelled.groupby("stint_id")["Stint"].agg(lambda s: sorted({int(v) for v in s}))
    ends = sorted({int(s) for s in rows.loc[rows["distrusted"], "stint_id"]})
    sides: dict[int, tuple[str, str]] = {}
    done: set[int] = set()
    for first in ends:
        if first in done:
            continue
        k = 0
        while first + k in ends:
            k += 1
        done.update(range(first, first + k))
        run = _counter_run(rows, labelled, by_stint, first, k)
        if run is not None:
            sides.update(_run_sides(run, compounds, by_stint.get(first + k + 1, [])))
    return sides


def _counter_run(rows: pd.DataFrame, labelled: pd.DataFrame, by_stint: pd.Series, first: int,
                 k: int) -> _CounterRun | None:
    """The run of stints first..first+k when the counter is in step at its start: one number
    on the first stint, one more than the stint before's (or the stint id itself when the
    stint before has none), never falling, and no more sets than stints."""
    own = by_stint.get(first, [])
    before = by_stint.get(first - 1, [])
    expected = max(before) + 1 if before else first
    if len(own) != 1 or own[0] != expected:
        return None  # numbered ahead of the stints (2022 Monaco: set 2 from lap 1) or ticking inside
    run = labelled[labelled["stint_id"].between(first, first + k)]
    numbers = run["Stint"].astype(int).to_numpy()
    if (numbers[1:] < numbers[:-1]).any() or numbers.max() > own[0] + k:
        return None
    stops = rows.loc[rows["distrusted"] & rows["stint_id"].between(first, first + k - 1), "LapNumber"]
    return _CounterRun(first, k, own[0], run, sorted(int(lap) for lap in stops))


def _opened_after(labels: pd.DataFrame, label: int, stop_lap: int) -> int | None:
    """The lap the counter's set ``label`` first shows, when that is after the stop and the
    tyre columns show a new set there too (another compound, or the age not running on). A
    new number with the compound and age of the set before (2020 Bahrain, Bottas lap 39:
    MEDIUM 15 -> 16 as set 5) is the feed opening a stint without a set of its own: whether
    the tyres were changed and to what stays contradictory."""
    shown = labels[labels["Stint"] == label]
    if shown.empty or int(shown["LapNumber"].iloc[0]) <= stop_lap:
        return None
    lap = int(shown["LapNumber"].iloc[0])
    before = labels[labels["LapNumber"] < lap]
    if before.empty:
        return lap
    new, old = shown.iloc[0], before.iloc[-1]
    # one lap older, or as old when that is over one lap (a fresh set shows age 1 each time:
    # 2018 China, Perez's sets 2 and 3, MEDIUM age 1 on laps 47 and 48)
    age, old_age = new["TyreLife"], old["TyreLife"]
    runs_on = new["Compound"] == old["Compound"] and (age == old_age + 1 or (age == old_age and age > 1))
    return None if runs_on else lap


def _run_sides(run: _CounterRun, compounds: pd.Series, after: list[int]) -> dict[int, tuple[str, str]]:
    """The stints of a run the counter names. A set m after the run's first is named by the
    counter's number start+m when that number first shows after the m-th stop; the first
    stint by its own number once the counter shows a later set (inside the run, or the stint
    after the run numbered start+k+1): the new set had its own number, so the first one's
    compound was not overwritten by it."""
    if after and min(after) != run.start_label + run.k + 1:
        return {}  # the counter is out of step after the run: a set missing or one too many
    sides: dict[int, tuple[str, str]] = {}
    one = {int(label): c[0] for label, c in compounds.items() if len(c) == 1}
    numbers = run.labels["Stint"].astype(int)
    if (numbers.max() > run.start_label or after) and run.start_label in one:
        sides[run.first] = (one[run.start_label], f"the counter's set {run.start_label}, the set the stint "
                            "started on; the set after the stop has a number of its own")
    for m in range(1, run.k + 1):
        label = run.start_label + m
        opened = _opened_after(run.labels, label, run.stop_laps[m - 1])
        if label in one and opened is not None:
            late = opened - run.stop_laps[m - 1] - 1
            when = "opened on the out-lap" if late == 0 else f"opened {late} lap(s) late, on lap {opened}"
            sides[run.first + m] = (one[label], f"the counter's set {label}, {when}")
    return sides


def start_stints_ahead(laps: pd.DataFrame, log: QualityLog) -> set[tuple[str, int]]:
    """The first stints whose compound the table shows one set early, in a race whose lap-1
    field contradicts itself: full wets beside slicks in one lap (no field runs both), as in
    2022 Monaco, started behind the safety car on full wets, whose table reads INTERMEDIATE
    or HARD on lap 1 for 18 of 20 cars. There each car's Stint number runs one ahead of its
    stints from lap 1 (set 2 on the first stint) until a missed tyre change brings it in
    step: the rows show the set after the stop (Gasly: "INTERMEDIATE" on laps 1-2, his
    inters fitted on lap 2). The stints from the first on while the number is ahead give no
    compound; the others keep theirs. ``laps`` is marked (``stint_id``)."""
    first = laps.loc[laps["LapNumber"] == 1, "Compound"]
    if not ((first == "WET").any() and first.isin(("SOFT", "MEDIUM", "HARD")).any()):
        return set()
    ahead: set[tuple[str, int]] = set()
    labelled = laps[laps["Stint"].notna()]
    for driver, rows in labelled.groupby("Driver", sort=True):
        numbers = rows.groupby("stint_id")["Stint"].min()
        leading: list[int] = []  # stints 1, 2, ... while each one's number is ahead of it
        for stint, number in numbers.items():
            if int(stint) != len(leading) + 1 or number <= stint:
                break
            leading.append(int(stint))
        if leading:
            ahead.update((str(driver), stint) for stint in leading)
            log.add("start_compounds_withheld", f"lap 1 shows full wets beside slicks; stints {leading[0]}-"
                    f"{leading[-1]} read Stint numbers one set ahead: no compound", str(driver), 1)
    return ahead


def late_opened_sets(laps: pd.DataFrame, skip: set[tuple[str, int]], log: QualityLog) -> dict[tuple[str, int], str]:
    """Stints whose rows show the set before the stop until the feed opens the new set late:
    (driver, stint id) -> the compound shown from then on. A car cannot change tyres on track,
    so a Stint tick with no pit entry onto another known compound at age 1, inside a stint
    that began at a stop, is the set fitted at that stop (2018 Spain, Hartley and Sirotkin:
    lap-1 stops under the safety car, laps 2-4 read MEDIUM as set 1, HARD age 1 as set 2
    from lap 5 on, HARD 29 on lap 33 with no pit entry between). The stints beside a
    distrusted stop (``skip``) are the Stint counter's to name. ``laps`` is marked
    (``stint_id``, ``is_stop``, ``silent_red_change``) and sorted by driver and lap."""
    by_driver = laps.groupby("Driver", sort=False)
    previous_compound = by_driver["Compound"].shift(1)  # for the log message
    inside = by_driver["stint_id"].shift(1) == laps["stint_id"]
    late = (_stint_ticks(laps, by_driver) & inside & _another_known_compound(laps, by_driver)
            & (laps["TyreLife"] == 1).eq(True) & ~laps["silent_red_change"])
    late &= laps["stint_id"] > 1  # the first stint began at the start, not at a stop
    named: dict[tuple[str, int], str] = {}
    for row in laps.loc[late, ["Driver", "LapNumber", "Compound", "stint_id"]].itertuples():
        key = (str(row.Driver), int(row.stint_id))
        if key in skip or key in named:
            continue
        first = laps.loc[(laps["Driver"] == row.Driver) & (laps["stint_id"] == row.stint_id), "LapNumber"].min()
        named[key] = str(row.Compound)
        log.add("late_set_opened", f"stint {key[1]} (from lap {int(first)}) reads {previous_compound[row.Index]} "
                f"until set {row.Compound} age 1 opens on lap {int(row.LapNumber)} with no pit entry: the set fitted "
                f"at the stop was {row.Compound}", key[0], int(row.LapNumber))
    return named
