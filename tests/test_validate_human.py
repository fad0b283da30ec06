"""Human judgments: WebNLG 2020 and CSV loading, metric–human correlation, annotator agreement."""

from __future__ import annotations

import pandas as pd
import pytest

from factcov.errors import InputError
from factcov.validation.human import annotator_agreement, correlate, load_human_judgments


@pytest.fixture(scope="module")
def webnlg_human(shared_data):
    return load_human_judgments(shared_data / "webnlg2020" / "human" / "english_humeval_data_all_teams.json")


def _criterion(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    return frame[frame["criterion"] == name]


def test_webnlg_judgments_load_as_a_long_table(webnlg_human):
    assert list(webnlg_human.columns) == ["system", "instance_id", "criterion", "score"]
    assert webnlg_human["system"].nunique() == 17
    assert webnlg_human["instance_id"].nunique() == 178
    assert set(webnlg_human["criterion"]) == {"Correctness", "DataCoverage", "Relevance", "Fluency", "TextStructure"}
    assert webnlg_human["instance_id"].str.match(r"^webnlg:\d+$").all()
    assert webnlg_human["score"].between(0, 100).all()
    # One system was judged on 177 of the 178 samples.
    per_system = _criterion(webnlg_human, "Correctness").groupby("system").size()
    assert per_system["Baseline-FORGE2020"] == 177
    assert per_system["NILC"] == 178


def test_csv_judgments_load_and_bad_rows_name_line_and_field(tmp_path):
    good = tmp_path / "human.csv"
    good.write_text("system,instance_id,criterion,score\nA,x:1,adequacy,3\nB,x:1,adequacy,4.5\n")
    frame = load_human_judgments(good)
    assert frame["score"].tolist() == [3.0, 4.5]
    bad = tmp_path / "bad.csv"
    bad.write_text("system,instance_id,criterion,score\nA,x:1,adequacy,3\nB,x:1,adequacy,high\n")
    with pytest.raises(InputError) as error:
        load_human_judgments(bad)
    assert error.value.line == 3 and error.value.field == "score" and "bad.csv" in str(error.value)
    missing = tmp_path / "missing.csv"
    missing.write_text("system,instance_id,score\nA,x:1,3\n")
    with pytest.raises(InputError, match="criterion"):
        load_human_judgments(missing)


def test_a_metric_equal_to_the_human_score_correlates_perfectly(webnlg_human):
    human = _criterion(webnlg_human, "Correctness")
    metric = human.rename(columns={"score": "value"})
    for level in ("system", "segment"):
        result = correlate(metric, human, level=level, n_boot=20)
        assert result["spearman"] == pytest.approx(1.0)
        assert result["kendall"] == pytest.approx(1.0)
    reversed_metric = metric.assign(value=-metric["value"])
    assert correlate(reversed_metric, human, level="system", n_boot=0)["spearman"] == pytest.approx(-1.0)


def test_coverage_and_correctness_correlate_with_seeded_intervals(webnlg_human):
    human = _criterion(webnlg_human, "Correctness")
    coverage = _criterion(webnlg_human, "DataCoverage").rename(columns={"score": "value"})
    system = correlate(coverage, human, level="system", n_boot=200, seed=1)
    assert system["n"] == 17 and system["n_pairs"] == 3025
    low, high = system["spearman_ci"]
    assert 0 < low <= high <= 1
    assert correlate(coverage, human, level="system", n_boot=200, seed=1) == system
    segment = correlate(coverage, human, level="segment", n_boot=50)
    assert segment["n"] == 3025
    assert segment["kendall_ci"][0] <= segment["kendall"] <= segment["kendall_ci"][1]


def test_correlate_refuses_mixed_criteria_and_disjoint_ids(webnlg_human):
    metric = _criterion(webnlg_human, "Fluency").rename(columns={"score": "value"})
    with pytest.raises(InputError, match="several criteria"):
        correlate(metric, webnlg_human)
    elsewhere = metric.assign(instance_id="other:" + metric["instance_id"])
    with pytest.raises(InputError, match="no \\(system, instance_id\\) pair"):
        correlate(elsewhere, _criterion(webnlg_human, "Fluency"))


def test_people_agree_more_on_systems_than_on_single_texts(shared_data):
    folder = shared_data / "webnlg2020" / "human"
    system = annotator_agreement(folder, "Correctness", level="system", n_boot=50)
    segment = annotator_agreement(folder, "Correctness", level="segment", n_boot=50)
    assert system["n"] == 17
    assert 0 < segment["spearman"] < system["spearman"] <= 1
    assert segment["n_pairs"] > 2500  # items with at least two annotators
    with pytest.raises(InputError, match="criterion"):
        annotator_agreement(folder, "Grammar")
