"""The clean side of a distrusted stop keeps its compound (issue 26, oracle10).

A distrusted stop runs one set's compound and age across it; the stint before it is read
from its own rows when they are the set's own (docs/domains/f1.md, "Tyre data distrusted":
the clean side), the stint after stays unknown unless the Stint counter names it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from factcov.domains.f1.context import race_block
from factcov.domains.f1.derive import RaceAnalysis
from factcov.domains.f1.oracle import race_facts
from factcov.domains.f1.source import race


@pytest.fixture(scope="module")
def f1(shared_data: Path) -> Path:
    return shared_data / "f1"


def fired(analysis: RaceAnalysis, rule: str, driver: str | None = None) -> list[int]:
    log = analysis.quality
    rows = log[(log["rule"] == rule) & ((log["driver"] == driver) if driver else True)]
    return rows["lap"].tolist()


def compounds(analysis: RaceAnalysis, driver: str) -> list[str]:
    return analysis.stints[analysis.stints["driver"] == driver]["compound"].tolist()


def changes(analysis: RaceAnalysis, driver: str) -> list[tuple[int, list[str]]]:
    return [(f.key["stop"], f.value) for f in race_facts(race_block(analysis))
            if f.type == "compound_change" and f.key.get("driver") == driver]


def test_the_stint_before_a_missed_change_keeps_its_compound_2022_austria(f1: Path) -> None:
    # Albon: MEDIUM to lap 11, a fresh HARD set from lap 12 (Ergast stops 11 and 41), HARD
    # age 28 -> 29 across the lap-41 stop. The rows of laps 12-41 were shown before the
    # lap-41 stop, so they cannot carry the set fitted there: stint 2 ran on HARD. The stint
    # after stays unknown (the counter does not name it), and so does the change to it
    austria = race(f1, 2022, 11)
    assert compounds(austria, "ALB") == ["MEDIUM", "HARD", "UNKNOWN"]
    assert changes(austria, "ALB") == [(1, ["MEDIUM", "HARD"])]
    assert fired(austria, "clean_side_kept", "ALB") == [12]
    # Leclerc: the clean side is kept, the after side (laps 50-58) is not, the last stint is trusted
    assert compounds(austria, "LEC") == ["MEDIUM", "HARD", "UNKNOWN", "MEDIUM"]
    assert changes(austria, "LEC") == [(1, ["MEDIUM", "HARD"])]
    assert len(fired(austria, "clean_side_kept")) == 18


def test_a_runs_second_stint_and_a_stint_of_two_compounds_stay_withheld_2018_china(f1: Path) -> None:
    # Gasly's first stint (HARD from lap 2, set 1) ends at a distrusted stop on lap 20 and
    # begins at the start: kept. Hartley's second stint (laps 11-30) reads SOFT only, but it
    # begins at the distrusted lap-10 stop: its rows carry the set before on (set 2 is
    # never shown, set 3 MEDIUM opens on lap 47), so it stays unknown; where the counter
    # names such a stint it reads another compound than its rows (Hülkenberg, Sainz: HARD
    # where the rows read SOFT; Pérez: MEDIUM)
    china = race(f1, 2018, 3)
    assert compounds(china, "GAS")[0] == "HARD"
    assert fired(china, "clean_side_kept", "GAS") == [1]
    assert compounds(china, "HAR")[1] == "UNKNOWN"
    assert 11 not in fired(china, "clean_side_kept", "HAR")
    assert [compounds(china, driver)[1] for driver in ("HUL", "SAI", "PER")] == ["HARD", "HARD", "MEDIUM"]
    # a stint whose rows read two compounds is no set's own either (2020 Hungary, Magnussen:
    # MEDIUM on laps 1-2, HARD age 1 from lap 3 with no pit entry, to the distrusted lap-35 stop)
    hungary = race(f1, 2020, 3)
    assert compounds(hungary, "MAG")[0] == "UNKNOWN"
    assert fired(hungary, "clean_side_kept") == []


def test_a_counter_ahead_from_the_start_keeps_nothing_2022_monaco(f1: Path) -> None:
    # 2022 Monaco's rows run one set early from lap 1 (set 2 on the first stint): Gasly's
    # second stint reads HARD (set 3) on laps 3-22, on the inters he fitted on lap 2, so no
    # side there is clean. 2022 Austria's counter is one ahead too (set 1, then set 3 at the
    # first stop), but from a skip at a stop whose rows show the new set: Verstappen's used
    # MEDIUM set from lap 37 is kept
    monaco = race(f1, 2022, 7)
    assert fired(monaco, "clean_side_kept") == []
    assert compounds(monaco, "GAS") == ["UNKNOWN", "UNKNOWN", "UNKNOWN", "HARD"]
    austria = race(f1, 2022, 11)
    assert compounds(austria, "VER")[2] == "MEDIUM"
    assert fired(austria, "clean_side_kept", "VER") == [37]
