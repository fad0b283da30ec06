"""The f1 oracle's derivation on real races (facts checked in the lap data and Ergast)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from factcov.domains.f1.context import race_block
from factcov.domains.f1.derive import RaceAnalysis, classify_from_laps, derive_race
from factcov.domains.f1.oracle import race_facts
from factcov.domains.f1.source import ergast, race, season_laps


@pytest.fixture(scope="module")
def f1(shared_data: Path) -> Path:
    return shared_data / "f1"


@pytest.fixture(scope="module")
def bahrain_2021(f1: Path) -> RaceAnalysis:
    return race(f1, 2021, 1)


def stops_of(analysis: RaceAnalysis, driver: str) -> list[int]:
    return analysis.stops[analysis.stops["driver"] == driver]["lap"].tolist()


def test_bahrain_2021_pit_laps(bahrain_2021: RaceAnalysis) -> None:
    assert stops_of(bahrain_2021, "HAM") == [13, 28]
    assert stops_of(bahrain_2021, "VER") == [17, 39]


def test_bahrain_2021_lap_one_pit_exit_is_not_a_stop(bahrain_2021: RaceAnalysis) -> None:
    # every car has a PitOutTime on lap 1 (leaving for the grid); Pérez even entered and
    # left the pits before the start: his stops are the official ones, 2, 19 and 38
    assert stops_of(bahrain_2021, "PER") == [2, 19, 38]
    assert 1 not in set(bahrain_2021.stops["lap"])


def test_bahrain_2021_hamilton_undercut_worked(bahrain_2021: RaceAnalysis) -> None:
    moves = bahrain_2021.moves.set_index(["driver", "rival"])
    move = moves.loc[("HAM", "VER")]
    assert move["kind"] == "undercut" and bool(move["worked"])
    assert (move["driver_pit_lap"], move["rival_pit_lap"]) == (13, 17)
    assert 0 < move["gap_before_s"] <= 3.0 and move["gap_after_s"] < 0
    assert move["time_gained_s"] == pytest.approx(move["gap_before_s"] - move["gap_after_s"], abs=0.11)


def test_bahrain_2021_safety_car_then_vsc(bahrain_2021: RaceAnalysis) -> None:
    periods = bahrain_2021.neutralizations
    assert periods[["kind", "first_lap", "last_lap"]].values.tolist() == [["SC", 1, 3], ["VSC", 4, 5]]


def test_bahrain_2021_hamilton_classified_first_despite_a_blank_last_row(
    f1: Path, bahrain_2021: RaceAnalysis
) -> None:
    laps = season_laps(f1, 2021)
    ham = laps[(laps["RoundNumber"] == 1) & (laps["Driver"] == "HAM")]
    assert pd.isna(ham.sort_values("LapNumber")["Position"].iloc[-1])
    block = race_block(bahrain_2021)
    ham_block = next(d for d in block["drivers"] if d["code"] == "HAM")
    assert ham_block["position"] == 1
    assert bahrain_2021.race_laps == 56  # the lap-57 row after the flag is dropped
    assert {"type": "winner", "value": "HAM"}.items() <= {
        "type": "winner", "value": next(f.value for f in race_facts(block) if f.type == "winner")
    }.items()


def test_bahrain_2023_leclerc_retired_is_not_classified(f1: Path) -> None:
    block = race_block(race(f1, 2023, 1))
    leclerc = next(d for d in block["drivers"] if d["code"] == "LEC")
    assert leclerc["position"] is None and leclerc["status"] == "Engine"
    facts = race_facts(block)
    assert not [f for f in facts if f.type == "final_position" and f.key["driver"] == "LEC"]
    assert any(f.type == "stop_count" and f.key["driver"] == "LEC" for f in facts)


def test_abu_dhabi_2021_perez_last_pit_entry_is_a_retirement(f1: Path) -> None:
    laps = season_laps(f1, 2021)
    perez = laps[(laps["RoundNumber"] == 22) & (laps["Driver"] == "PER")].sort_values("LapNumber")
    assert perez["PitInTime"].notna().iloc[-1]  # he entered the pits on his last lap
    analysis = race(f1, 2021, 22)
    assert stops_of(analysis, "PER") == [21, 36, 53]
    assert int(perez["LapNumber"].iloc[-1]) not in stops_of(analysis, "PER")


def test_wet_turkey_2021_on_intermediates(f1: Path) -> None:
    analysis = race(f1, 2021, 16)
    compounds = set(analysis.stints["compound"])
    assert compounds <= {"INTERMEDIATE", "MEDIUM"} and "INTERMEDIATE" in compounds
    assert stops_of(analysis, "OCO") == []  # Ocon ran the whole race on one set
    ocon = analysis.stints[analysis.stints["driver"] == "OCO"]
    assert ocon["compound"].tolist() == ["INTERMEDIATE"]
    ham = analysis.stops[analysis.stops["driver"] == "HAM"]
    assert ham[["from", "to"]].values.tolist() == [["INTERMEDIATE", "INTERMEDIATE"]]


def test_red_flag_tyre_change_is_not_a_pit_stop(f1: Path) -> None:
    analysis = race(f1, 2021, 6)  # Baku 2021: red flag on lap 48
    assert ["RED", 48, 48] in analysis.neutralizations[["kind", "first_lap", "last_lap"]].values.tolist()
    assert stops_of(analysis, "HAM") == [11]  # lap 47 (field through the pits) and 48 are not stops
    change = analysis.red_flag_changes[analysis.red_flag_changes["driver"] == "HAM"]
    assert change[["lap", "from", "to"]].values.tolist() == [[48, "HARD", "SOFT"]]
    ham_stints = analysis.stints[analysis.stints["driver"] == "HAM"]["compound"].tolist()
    assert ham_stints == ["SOFT", "HARD", "SOFT"]


def test_2018_unknown_compounds_take_their_stint_compound(f1: Path) -> None:
    laps = season_laps(f1, 2018)
    australia = laps[laps["RoundNumber"] == 1]
    assert (australia["Compound"] == "UNKNOWN").sum() > 0 and australia["Stint"].isna().sum() > 0
    analysis = race(f1, 2018, 1)
    first = analysis.stints[analysis.stints["stint"] == 1]
    assert (first["first_lap"] == 1).all()  # the UNKNOWN laps 1-2 belong to the first stint
    unknown = analysis.stints[analysis.stints["compound"] == "UNKNOWN"]
    # Hartley's one-lap first stint (he pitted on lap 1) has no known compound at all; his
    # lap-22 stop (official, 22.3 s in the pit lane) reads HARD with the tyre age running on
    # (21 -> 24): the tyre change was missed by the tyre columns, but the Stint counter opened
    # set 3 (SOFT) on lap 25, so set 2 (HARD) is the stint before the stop and both are known
    assert unknown[["driver", "stint", "laps"]].values.tolist() == [["HAR", 1, 1]]
    assert analysis.stints[analysis.stints["driver"] == "HAR"]["compound"].tolist() == ["UNKNOWN", "HARD", "SOFT"]
    facts = race_facts(race_block(analysis))
    hartley = [f for f in facts if f.type == "stint_compound" and f.key["driver"] == "HAR"]
    assert 1 not in [f.key["stint"] for f in hartley]  # no fact is made of an unknown compound
    assert not [f for f in facts if f.type == "compound_change" and "UNKNOWN" in f.value]


def test_track_status_floats_of_2024_give_neutralizations(f1: Path) -> None:
    laps = season_laps(f1, 2024)
    rounds = sorted(laps[laps["TrackStatus"].str.contains("4")]["RoundNumber"].unique())
    analysis = race(f1, 2024, int(rounds[0]))
    assert "SC" in set(analysis.neutralizations["kind"])


def test_degradation_uses_green_laps_only(bahrain_2021: RaceAnalysis) -> None:
    ham = bahrain_2021.stints[bahrain_2021.stints["driver"] == "HAM"].set_index("stint")
    # stint 1 ran laps 1-13 with SC laps 1-3 and VSC 4-5 and the in-lap 13: at most 7 green laps
    assert ham.loc[1, "green_laps"] <= 7
    assert ham["degradation_s_per_lap"].notna().all()


def test_defense_needs_a_faster_attacker_close_behind(bahrain_2021: RaceAnalysis) -> None:
    for row in bahrain_2021.defenses.itertuples():
        assert row.laps >= 5 and row.best_lap_delta_s > 0
        gaps = bahrain_2021.times.loc[row.first_lap: row.last_lap, row.attacker] - bahrain_2021.times.loc[
            row.first_lap: row.last_lap, row.driver
        ]
        assert ((gaps > 0) & (gaps <= 1.0)).all()


def test_derivation_is_deterministic(f1: Path) -> None:
    laps = season_laps(f1, 2021)
    tables = ergast(f1)
    one = race_block(derive_race(laps[laps["RoundNumber"] == 1], tables.classification(2021, 1)))
    shuffled = laps[laps["RoundNumber"] == 1].sample(frac=1.0, random_state=3)
    two = race_block(derive_race(shuffled, tables.classification(2021, 1)))
    assert one == two


def test_classification_from_laps_when_ergast_has_none(f1: Path) -> None:
    laps = season_laps(f1, 2021)
    bahrain = laps[(laps["RoundNumber"] == 1) & (laps["LapNumber"] <= 56)]
    fallback = classify_from_laps(bahrain, ergast(f1).driver_names()).set_index("code")
    official = ergast(f1).classification(2021, 1).set_index("code")
    finishers = official[official["status"] == "Finished"].index
    assert (fallback.loc[finishers, "position"] == official.loc[finishers, "position"]).all()
    assert pd.isna(fallback.loc["MAZ", "position"]) if "MAZ" in fallback.index else True
    assert fallback.loc["HAM", "name"] == "Lewis Hamilton"


def test_a_car_missing_from_the_results_is_kept_unclassified(f1: Path) -> None:
    laps = season_laps(f1, 2021)
    results = ergast(f1).classification(2021, 1)
    analysis = derive_race(laps[laps["RoundNumber"] == 1], results[results["code"] != "RIC"])
    ricciardo = next(d for d in race_block(analysis)["drivers"] if d["code"] == "RIC")
    assert ricciardo["position"] is None and ricciardo["stints"]
    assert any(f.type == "stop_count" and f.key["driver"] == "RIC" for f in race_facts(race_block(analysis)))
