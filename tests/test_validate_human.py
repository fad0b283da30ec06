"""Human judgments: WebNLG 2020 and CSV loading, metric–human correlation, annotator agreement."""

from __future__ import annotations

import json
from pathlib import Path

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


WEBNLG_TEAMS = ("Baseline-FORGE2017", "CycleGT", "FBConvAI", "NILC", "TGen", "bt5")


def score_webnlg_sample(shared_data: Path, folder: Path, entries: int = 30) -> Path:
    """Score six WebNLG 2020 teams on the first ``entries`` human-judged inputs with the rag domain."""
    webnlg = pytest.importorskip("factcov.domains.rag.webnlg", reason="the rag domain's WebNLG reader")
    from factcov.jsonl import write_jsonl_atomic
    from factcov.runner import score_files

    data = shared_data / "webnlg2020"
    numbers = webnlg.sampled_numbers(data / "human" / "english_humeval_data_all_teams.json")[:entries]
    instances = webnlg.load_instances(data / "test-en.xml", numbers)
    generations = [g for g in webnlg.load_generations(data / "submissions", numbers) if g.system in WEBNLG_TEAMS]
    folder.mkdir(parents=True, exist_ok=True)
    write_jsonl_atomic(folder / "instances.jsonl", instances.values())
    write_jsonl_atomic(folder / "generations.jsonl", generations)
    score_files("rag", folder / "instances.jsonl", folder / "generations.jsonl", folder / "run", report=False)
    return folder / "run"


@pytest.fixture(scope="module")
def webnlg_run(shared_data, tmp_path_factory) -> Path:
    return score_webnlg_sample(shared_data, tmp_path_factory.mktemp("webnlg"))


@pytest.fixture
def cli():
    from factcov.cli.app import run

    return run


def test_human_command_correlates_a_real_run_with_webnlg_judgments(webnlg_run, shared_data, cli, capsys):
    human = shared_data / "webnlg2020" / "human" / "english_humeval_data_all_teams.json"
    argv = ["validate", "human", "--scores", str(webnlg_run), "--human", str(human), "--metric", "recall",
            "--criterion", "DataCoverage", "--criterion", "Correctness", "--bootstrap", "100"]
    assert cli(argv) == 0
    out = capsys.readouterr().out
    assert "DataCoverage" in out and "segment" in out
    assert cli([*argv, "--json"]) == 0
    rows = {(r["criterion"], r["level"]): r for r in json.loads(capsys.readouterr().out)}
    segment = rows[("DataCoverage", "segment")]
    assert segment["n"] == 6 * 30 and rows[("DataCoverage", "system")]["n"] == 6
    for row in rows.values():
        low, high = row["spearman_ci"]
        assert -1 <= low <= row["spearman"] <= high <= 1
    # Texts that state more of the triples are judged more correct and complete (weakly, per text).
    assert segment["spearman"] > 0 and rows[("Correctness", "segment")]["spearman"] > 0
    assert cli([*argv, "--criterion", "Grammar"]) == 2
    assert "Grammar" in capsys.readouterr().err


def test_human_command_reads_the_documented_csv(webnlg_run, tmp_path, cli, capsys):
    scores = pd.read_parquet(webnlg_run / "scores.parquet")
    csv_path = tmp_path / "judgments.csv"
    # A "judge" that rates by recall: the correlation must be perfect.
    rows = ["system,instance_id,criterion,score"] + [
        f"{r.system},{r.instance_id},adequacy,{r.recall}" for r in scores.itertuples() if r.recall == r.recall
    ]
    csv_path.write_text("\n".join(rows) + "\n")
    assert cli(["validate", "human", "--scores", str(webnlg_run), "--human", str(csv_path), "--format", "csv",
                "--metric", "recall", "--bootstrap", "20", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [r["spearman"] for r in results] == [pytest.approx(1.0), pytest.approx(1.0)]
