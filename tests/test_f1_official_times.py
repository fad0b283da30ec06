"""The official pit-lane times read as evidence (factcov.domains.f1.official_times): which
times count, on hand-made rows that isolate each edge (the real races are in
test_f1_oracle_audit.py)."""

from __future__ import annotations

import math

import pandas as pd

from factcov.domains.f1.official_times import official_times, official_typical, officially_quick


def rows() -> pd.DataFrame:
    return pd.DataFrame({"Driver": ["RUS", "RUS", "HAM", "HAM", "VER"],
                         "LapNumber": [53, 62, 20, float("nan"), 30]})


def test_a_time_is_the_official_entry_on_the_rows_driver_and_lap() -> None:
    times = official_times(rows(), {"RUS": {53: 19.5, 62: 25.1}, "HAM": {21: 22.0}})
    assert times.tolist()[:2] == [19.5, 25.1]
    assert all(math.isnan(t) for t in times.tolist()[2:])  # another lap, no lap number, no entry


def test_no_time_without_one_a_plain_list_of_laps_or_a_time_that_is_no_time() -> None:
    for stops in (None, {}, {"RUS": [53, 62]}, {"RUS": {53: None, 62: 0.0}}, {"RUS": {53: -1.0}}):
        assert official_times(rows(), stops).isna().all()


def test_a_drive_through_is_the_margin_under_the_median_of_the_entries_with_a_change() -> None:
    times = pd.Series([19.5, 24.0, 24.3, 25.1, 400.0])
    changed = pd.Series([False, True, True, True, True])
    typical = official_typical(times, changed, 120.0)  # the red-flag wait left out
    assert typical == 24.3
    assert officially_quick(times, typical).tolist() == [True, False, False, False, False]
    assert not officially_quick(times, float("nan")).any()
