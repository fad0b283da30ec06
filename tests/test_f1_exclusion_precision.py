"""The exclusion-precision benchmark: which rule an f1 check entry belongs to, a seeded
sample spread over seasons, and the committed judgements readable and keyed as sampled."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "f1_exclusion_precision.py"
spec = importlib.util.spec_from_file_location("f1_exclusion_precision", BENCHMARK)
precision = importlib.util.module_from_spec(spec)
spec.loader.exec_module(precision)


def entry(rule: str, detail: str, driver: str = "HAM", lap: int = 10) -> dict:
    return {"rule": rule, "driver": driver, "lap": lap, "detail": detail}


def test_each_entry_is_filed_under_its_exclusion_rule() -> None:
    assert precision.rule_of(entry("move_excluded", "undercut A on B (laps 3/4): not adjacent on track")) == (
        "move: not adjacent")
    assert precision.rule_of(entry("pit_passage", "drive-through: pit lane 14.8 s")) == "passage: drive-through"
    assert precision.rule_of(entry("last_lap_pit_entry", "a retirement into the pits: no official stop")) == (
        "last lap: retirement into the pits")
    assert precision.rule_of(entry("last_lap_pit_entry", "a stop: the official pit table lists it")) is None
    assert precision.rule_of(entry("phantom_stint", "Stint 1 -> 2")) is None


def test_kept_defenses_are_filed_under_the_criterion_that_kept_them() -> None:
    assert precision.rule_of(entry("defense_held_up", "B behind A laps 3-9 (...): the attacker passed on track on lap 11")) == (
        "defense kept: passed within 4 laps")
    assert precision.rule_of(entry("defense_held_up", "B behind A laps 3-9 (...): the attacker was 0.40 s a lap faster "
                                   "over laps 1-2 before the run and closed 1.2 s")) == (
        "defense kept: faster and closing before")
    assert precision.rule_of(entry("defense_held_up", "B behind A laps 3-14 (...): held within 1 s for 12 laps")) == (
        "defense kept: held 10+ laps")


def test_the_sample_is_seeded_and_spread_over_seasons() -> None:
    races = [{"season": season, "round": 1, "event": "GP", "entries": [
        entry("defense_excluded", f"run {i}", lap=i) for i in range(10)]} for season in (2018, 2019, 2020)]
    first = precision.sample(races, 6, seed=26)["defense_excluded"]
    assert first == precision.sample(races, 6, seed=26)["defense_excluded"]
    assert sorted(season for season, *_ in first) == [2018, 2018, 2019, 2019, 2020, 2020]
    assert first != precision.sample(races, 6, seed=1)["defense_excluded"]


def test_committed_judgements_cover_every_rule_with_evidence() -> None:
    judged = precision.read_judgments(precision.JUDGMENTS)
    assert len(judged) >= 300
    assert {verdict for verdict, _ in judged.values()} <= {"right", "wrong", "unsure"}
    assert all(evidence.strip() for _, evidence in judged.values())
    rules = {key.split(":")[2] for key in judged}
    assert {"defense_excluded", "defense_held_up", "move_excluded", "pit_passage", "red_flag_tyres_kept"} <= rules


def test_a_rules_sample_does_not_move_when_another_rules_entries_change() -> None:
    # each rule draws from its own generator (seeded with the rule's name): a change in the
    # number of one rule's entries leaves the others' samples as they were judged
    def races(excluded: int) -> list[dict]:
        return [{"season": season, "round": 1, "event": "GP", "entries": [
            *(entry("defense_excluded", f"run {i}", lap=i) for i in range(excluded)),
            *(entry("red_flag_tyres_kept", f"kept {i}", lap=i) for i in range(10))]} for season in (2018, 2019)]

    fewer, more = precision.sample(races(3), 4, seed=26), precision.sample(races(9), 4, seed=26)
    assert fewer["red_flag_tyres_kept"] == more["red_flag_tyres_kept"]
    assert fewer["defense_excluded"] != more["defense_excluded"]


def test_undecidable_runs_and_the_new_kept_criteria_have_their_own_rows() -> None:
    assert precision.rule_of(entry("defense_undecidable", "B behind A laps 3-9 (...): ...")) == "defense_undecidable"
    assert precision.rule_of(entry("defense_held_up", "B behind A laps 3-9 (...): the attacker passed on track on "
                                   "lap 20, still following within 1.5 s")) == (
        "defense kept: passed 5-15 laps after, still following")
    assert precision.rule_of(entry("defense_held_up", "B behind A laps 3-9 (...): the attacker closed 2.1 s on the "
                                   "two clean laps 1-2 before the run")) == (
        "defense kept: closed 1 s on two clean laps before")


def test_wet_slow_stops_are_filed_apart_from_dry_slow_stops() -> None:
    wet = entry("move_excluded", "undercut A on B (laps 3/4): undecidable: a stop onto or off wet-weather tyres "
                "lost over 10 s more than the race's typical stop (28.9 s)")
    dry = entry("move_excluded", "undercut A on B (laps 3/4): A's stop lost over 10 s more than the race's typical stop")
    assert precision.rule_of(wet) == "move: undecidable, wet-weather tyres at a slow stop"
    assert precision.rule_of(dry) == "move: slow stop"


def test_stop_gos_with_a_withheld_count_are_filed_apart() -> None:
    withheld = entry("pit_passage", "stop-go penalty or a repair without new tyres, over 6.0 s above the typical stop "
                     "(the race's tyre columns miss changes elsewhere: stop count unknown): pit lane 34.4 s")
    trusted = entry("pit_passage", "stop-go penalty or a repair without new tyres, over 4.0 s above the typical stop: "
                    "pit lane 31.3 s")
    assert precision.rule_of(withheld) == "passage: stop-go where the tyre columns miss changes (count withheld)"
    assert precision.rule_of(trusted) == "passage: stop-go"
