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


@pytest.mark.slow
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


@pytest.mark.slow
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


def _labels_csv(path, rows):
    path.write_text("system,instance_id,criterion,label\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    return path


@pytest.mark.slow
def test_binary_labels_from_people_get_a_roc_auc(webnlg_run, shared_data, tmp_path, cli, capsys):
    """WebNLG's people, binarized at the median: a text at least as correct as the median
    text is 'correct'. Recall separates correct texts from the rest better than chance
    (weakly, per text: AUC 0.66 [0.58, 0.74] on these 180 texts)."""
    human = load_human_judgments(shared_data / "webnlg2020" / "human" / "english_humeval_data_all_teams.json")
    correctness = human[human["criterion"] == "Correctness"].groupby(["system", "instance_id"])["score"].mean()
    median = correctness.median()
    rows = [(system, instance, "correctness", "correct" if score >= median else "incorrect")
            for (system, instance), score in correctness.items()]
    path = _labels_csv(tmp_path / "labels.csv", rows)
    argv = ["validate", "human", "--scores", str(webnlg_run), "--human", str(path), "--metric", "recall",
            "--bootstrap", "200"]
    assert cli([*argv, "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["kind"] == "binary" and row["positive"] == "correct" and row["n"] == 6 * 30
    low, high = row["auc_ci"]
    assert 0.5 < low <= row["auc"] <= high <= 1 and row["spearman"] > 0
    assert cli(argv) == 0
    assert "ROC AUC" in capsys.readouterr().out
    # labels that do not say which is positive must be named
    renamed = _labels_csv(tmp_path / "renamed.csv", [(s, i, c, "above" if v == "correct" else "below")
                                                      for s, i, c, v in rows])
    argv[argv.index(str(path))] = str(renamed)
    assert cli([*argv, "--json"]) == 2
    assert "--positive" in capsys.readouterr().err
    assert cli([*argv, "--json", "--positive", "above"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["auc"] == row["auc"]


def test_a_judge_that_labels_by_the_metric_gets_auc_1_and_categories_one_vs_rest(webnlg_run, tmp_path):
    from factcov.validation.labels import discriminate_run

    scores = pd.read_parquet(webnlg_run / "scores.parquet").dropna(subset=["recall"])
    path = _labels_csv(tmp_path / "labels.csv", [
        (r.system, r.instance_id, "ok", "yes" if r.recall >= 0.5 else "no") for r in scores.itertuples()
    ] + [
        (r.system, r.instance_id, "band", "low" if r.recall < 0.34 else "mid" if r.recall < 0.67 else "high")
        for r in scores.itertuples()
    ])
    binary, categorical = discriminate_run(webnlg_run, path, metric="recall", criteria=["ok", "band"], n_boot=50)
    assert binary["positive"] == "yes" and binary["auc"] == 1.0
    assert categorical["kind"] == "categorical" and set(categorical["per_label"]) == {"low", "mid", "high"}
    assert categorical["per_label"]["high"]["auc"] == 1.0 and categorical["per_label"]["low"]["auc"] == 0.0
    # mid sits between: neither perfectly above nor below the rest
    assert 0.0 < categorical["per_label"]["mid"]["auc"] < 1.0


def test_a_label_file_with_a_missing_column_names_it(webnlg_run, tmp_path, cli, capsys):
    from factcov.validation.labels import load_labels

    path = tmp_path / "labels.csv"
    path.write_text("system,instance_id,label\na,b,yes\n")
    with pytest.raises(Exception, match="criterion"):
        load_labels(path)
    path.write_text("system,instance_id,criterion,label\na,b,c,\n")
    with pytest.raises(Exception, match="labels.csv:2: field 'label'"):
        load_labels(path)
    path.write_text("system,instance_id,criterion,label,system\na,b,c,yes,d\n")  # which system?
    with pytest.raises(Exception, match="labels.csv:1: field 'system': column 'system' appears 2 times"):
        load_labels(path)
