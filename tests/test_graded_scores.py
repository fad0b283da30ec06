"""A domain that grades its own headline (``Domain.graded_scores``): its precision/recall/f1
become the core's columns, undefined stays undefined, the system headline is the macro mean."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from factcov.aggregate import system_table
from factcov.cli.app import run
from factcov.compare import compare_runs
from factcov.domains.weather.domain import WeatherDomain
from factcov.runner import score_files
from factcov.scoring import ScoringPolicy


@pytest.fixture(scope="module")
def weather_demo(tmp_path_factory):
    base = tmp_path_factory.mktemp("weather")
    assert run(["demo", "weather", "-o", str(base), "-q"]) == 0
    return base / "weather"


class Graded(WeatherDomain):
    """Weather graded by a toy rule: precision 0.8, recall the share of words among 20,
    f1 undefined for the terse system (its own undefined case), the counts' f1 kept."""

    graded_scores = True
    metrics = ("claim_f1",)

    def extra_metrics(self, results, extractor, policy):
        out = []
        for result in results:
            recall = min(len(result.generation.text.split()) / 20, 1.0)
            f1 = None if result.generation.system == "terse" else 2 * 0.8 * recall / (0.8 + recall)
            out.append({"precision": 0.8, "recall": recall, "f1": f1, "claim_f1": result.metrics["f1"]})
        return out


def test_graded_scores_are_the_headline_columns_and_the_counts_stay_beside(weather_demo, tmp_path):
    counted = score_files(WeatherDomain(), weather_demo / "instances.jsonl", weather_demo / "generations.jsonl",
                          tmp_path / "counted", report=False)
    graded = score_files(Graded(), weather_demo / "instances.jsonl", weather_demo / "generations.jsonl",
                         tmp_path / "graded", report=False, chunk_size=5)
    plain = pd.read_parquet(tmp_path / "counted" / "scores.parquet")
    scores = pd.read_parquet(tmp_path / "graded" / "scores.parquet")
    assert (scores["precision"] == 0.8).all()
    assert scores["recall"].tolist() == [min(len(t.split()) / 20, 1.0) for t in scores["text"]]
    assert scores.loc[scores["system"] == "terse", "f1"].isna().all()  # undefined kept undefined
    assert scores.loc[scores["system"] != "terse", "f1"].notna().all()
    # the claim counts are unchanged beside the graded headline
    assert scores["claim_f1"].tolist() == plain["f1"].tolist()
    assert scores["n_claims"].tolist() == plain["n_claims"].tolist()
    assert scores["f1"].tolist() != plain["f1"].tolist()

    assert graded.summary["graded_scores"] is True and "graded_scores" not in counted.summary
    for row in graded.summary["systems"]:
        mine = scores[scores["system"] == row["system"]]
        assert row["recall"] == pytest.approx(mine["recall"].mean())  # macro: graded scores have no counts
        assert row["micro_recall"] is None and row["micro_f1"] is None
        if row["system"] == "terse":
            assert row["f1"] is None and row["n_f1_defined"] == 0
        else:
            assert row["f1"] == pytest.approx(mine["f1"].mean()) and row["n_f1_defined"] == len(mine)


def test_graded_headline_is_macro_whatever_the_average(weather_demo, tmp_path):
    score_files(Graded(), weather_demo / "instances.jsonl", weather_demo / "generations.jsonl",
                tmp_path / "o", report=False)
    scores = pd.read_parquet(tmp_path / "o" / "scores.parquet")
    micro = system_table(scores, ScoringPolicy(average="micro", bootstrap_samples=0), ("claim_f1",), graded=True)
    for row in micro.itertuples():
        assert row.recall == pytest.approx(scores.loc[scores["system"] == row.system, "recall"].mean())
        assert row.micro_precision is None
    counted = system_table(scores, ScoringPolicy(average="micro", bootstrap_samples=0))
    assert counted["micro_precision"].notna().all()  # a counted table still pools


def test_compare_report_and_gates_read_the_graded_headline(weather_demo, tmp_path):
    from factcov.aggregate import headline_average

    score_files(Graded(), weather_demo / "instances.jsonl", weather_demo / "generations.jsonl",
                tmp_path / "o", report=False, policy=ScoringPolicy(average="micro"))
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["policy"]["average"] == "micro" and headline_average(summary) == "macro"
    compared = compare_runs([tmp_path / "o"], bootstrap=20)["domains"][0]
    assert compared["average"] == "macro"
    for record in compared["systems"]:
        mine = next(row for row in summary["systems"] if row["system"] == record["system"])
        assert record["recall"] == pytest.approx(mine["recall"])
        low, high = record["recall_ci"]
        assert low <= record["recall"] <= high

    from factcov.cli.gate import check_gates
    from factcov.errors import GateFailed

    rows = {row["system"]: row for row in summary["systems"]}
    with pytest.raises(GateFailed, match="terse: f1 undefined"):
        check_gates({"f1": 0.1}, rows, tmp_path / "o")
    check_gates({"precision": 0.8}, rows)  # every system's graded precision is 0.8
