"""Loading FastF1-style lap tables and the Ergast tables (real files from ../shared/data)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pandas as pd
import pytest

from factcov.domains.f1.ergast import Ergast
from factcov.domains.f1.laps import REQUIRED_COLUMNS, read_lap_table
from factcov.domains.f1.source import ergast, season_laps
from factcov.errors import InputError


@pytest.fixture(scope="module")
def f1(shared_data: Path) -> Path:
    return shared_data / "f1"


def test_lap_table_times_become_seconds_and_status_a_digit_string(f1: Path) -> None:
    laps = season_laps(f1, 2021)
    ham = laps[(laps["RoundNumber"] == 1) & (laps["Driver"] == "HAM")].set_index("LapNumber")
    assert ham.loc[13, "PitInTime"] == pytest.approx(3629.611)
    assert ham.loc[1, "TrackStatus"] == "24"
    assert set(laps["Season"].unique()) == {2021}


def test_2024_float_track_status_is_read_as_digits(f1: Path) -> None:
    statuses = set(season_laps(f1, 2024)["TrackStatus"].unique())
    assert "12" in statuses and not any(s.endswith(".0") for s in statuses)


def test_parquet_and_csv_give_the_same_table(f1: Path, tmp_path: Path) -> None:
    raw = pd.read_csv(f1 / "laps" / "2021.csv.gz", dtype={"TrackStatus": "string"})
    raw = raw[raw["RoundNumber"] == 1]
    raw.to_parquet(tmp_path / "bahrain_2021.parquet")
    raw.to_csv(tmp_path / "bahrain_2021.csv", index=False)
    from_parquet = read_lap_table(tmp_path / "bahrain_2021.parquet")
    from_csv = read_lap_table(tmp_path / "bahrain_2021.csv")
    pd.testing.assert_frame_equal(from_parquet, from_csv, check_dtype=False)
    assert len(from_csv) == len(raw)


def test_missing_column_names_the_file_and_the_column(f1: Path, tmp_path: Path) -> None:
    raw = pd.read_csv(f1 / "laps" / "2021.csv.gz").head(50).drop(columns=["PitInTime"])
    path = tmp_path / "2021_broken.csv.gz"
    with gzip.open(path, "wt") as handle:
        raw.to_csv(handle, index=False)
    with pytest.raises(InputError) as caught:
        read_lap_table(path)
    assert caught.value.field == "PitInTime" and caught.value.path == str(path)
    assert "PitInTime" in str(caught.value) and "2021_broken.csv.gz" in str(caught.value)


def test_season_must_be_known(f1: Path, tmp_path: Path) -> None:
    raw = pd.read_csv(f1 / "laps" / "2021.csv.gz").head(20)
    raw.to_csv(tmp_path / "race.csv", index=False)
    with pytest.raises(InputError, match="Season"):
        read_lap_table(tmp_path / "race.csv")
    assert set(read_lap_table(tmp_path / "race.csv", season=2021)["Season"]) == {2021}


def test_unreadable_time_is_an_input_error(f1: Path, tmp_path: Path) -> None:
    raw = pd.read_csv(f1 / "laps" / "2021.csv.gz").head(20)
    raw.loc[3, "Time"] = "yesterday"
    raw.to_csv(tmp_path / "2021.csv", index=False)
    with pytest.raises(InputError) as caught:
        read_lap_table(tmp_path / "2021.csv")
    assert caught.value.field == "Time"


def test_required_columns_are_the_documented_ones(repo_root: Path) -> None:
    doc = (repo_root / "docs" / "domains" / "f1.md").read_text(encoding="utf-8")
    assert all(f"`{column}`" in doc for column in REQUIRED_COLUMNS)


def test_driver_codes_map_to_full_names(f1: Path) -> None:
    names = ergast(f1).driver_names()
    assert names["HAM"] == "Lewis Hamilton"
    assert names["PER"] == "Sergio Pérez"


def test_classification_gives_position_status_and_grid(f1: Path) -> None:
    bahrain = ergast(f1).classification(2021, 1).set_index("code")
    assert bahrain.loc["HAM", "position"] == 1 and bahrain.loc["HAM", "grid"] == 2
    assert bahrain.loc["PER", "grid"] == 0  # pit-lane start
    assert bahrain.loc["GAS", "position"] == 17 and bahrain.loc["GAS", "status"] == "Retired"


def test_retired_driver_is_not_classified(f1: Path) -> None:
    bahrain = ergast(f1).classification(2023, 1).set_index("code")
    assert pd.isna(bahrain.loc["LEC", "position"])
    assert bahrain.loc["LEC", "status"] == "Engine"


def test_missing_ergast_column_names_file_and_column(f1: Path, tmp_path: Path) -> None:
    for table in ("races", "results", "drivers", "constructors", "status"):
        (tmp_path / f"{table}.csv").write_bytes((f1 / "ergast" / f"{table}.csv").read_bytes())
    drivers = pd.read_csv(tmp_path / "drivers.csv").drop(columns=["surname"])
    drivers.to_csv(tmp_path / "drivers.csv", index=False)
    with pytest.raises(InputError) as caught:
        Ergast.read(tmp_path)
    assert caught.value.field == "surname" and caught.value.path.endswith("drivers.csv")


def test_an_unreadable_ergast_table_is_an_input_error_naming_it(f1: Path, tmp_path: Path) -> None:
    # the optional pit table too: non-UTF-8 bytes or a broken CSV line exit 2 with the file
    # named, as a lap table does, never an internal error
    for table in ("races", "results", "drivers", "constructors", "status"):
        (tmp_path / f"{table}.csv").write_bytes((f1 / "ergast" / f"{table}.csv").read_bytes())
    for bad in (b"raceId,driverId,stop,lap,milliseconds\n\xff\xfe,1,1,1,2\n",
                b'raceId,driverId,stop,lap\n"1,2,3,4\n'):
        (tmp_path / "pit_stops.csv").write_bytes(bad)
        with pytest.raises(InputError) as caught:
            Ergast.read(tmp_path)
        assert caught.value.path.endswith("pit_stops.csv")
        assert str(caught.value).startswith(f"{tmp_path / 'pit_stops.csv'}: cannot read Ergast table")


def test_fastf1_laps_object_converts_to_the_same_table(f1: Path) -> None:
    core = pytest.importorskip("fastf1.core", reason="fastf1 extra not installed")
    from factcov.domains.f1.fastf1_source import laps_from_fastf1

    raw = pd.read_csv(f1 / "laps" / "2021.csv.gz", dtype={"TrackStatus": "string"})
    raw = raw[raw["RoundNumber"] == 1].drop(columns=["RoundNumber", "EventName"])
    for column in ("Time", "PitInTime", "PitOutTime"):
        raw[column] = pd.to_timedelta(raw[column])
    raw["LapTime"] = pd.to_timedelta(raw["LapTime"], unit="s")
    converted = laps_from_fastf1(core.Laps(raw), 2021, 1, "Bahrain Grand Prix")
    laps = season_laps(f1, 2021)
    expected = laps[laps["RoundNumber"] == 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(
        converted[expected.columns].reset_index(drop=True), expected, check_dtype=False
    )


def test_official_stops_give_each_pit_laps_official_time_and_none_without_the_column(f1: Path, tmp_path: Path) -> None:
    # Ergast's pit_stops.csv times each entry (milliseconds); the column is optional input:
    # without it the official pit laps are still read, with no time (2025 Monaco, Russell:
    # a 19.5 s drive-through on lap 53, stops of 25.1 and 24.0 s on laps 62 and 68)
    russell = ergast(f1).official_stops(2025, 8)["RUS"]
    assert russell == {53: 19.482, 62: 25.063, 68: 24.025}
    for table in ("races", "results", "drivers", "constructors", "status", "pit_stops"):
        (tmp_path / f"{table}.csv").write_bytes((f1 / "ergast" / f"{table}.csv").read_bytes())
    pits = pd.read_csv(tmp_path / "pit_stops.csv").drop(columns=["milliseconds"])
    pits.to_csv(tmp_path / "pit_stops.csv", index=False)
    assert Ergast.read(tmp_path).official_stops(2025, 8)["RUS"] == {53: None, 62: None, 68: None}
