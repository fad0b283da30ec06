"""`validate human --pairwise`: score differences against people's preferences between two answers."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from factcov.cli.app import run
from factcov.errors import InputError
from factcov.validation.human import load_human_judgments
from factcov.validation.pairwise import load_preferences
from tests.test_validate_human import WEBNLG_TEAMS, score_webnlg_sample


@pytest.fixture(scope="module")
def webnlg_run(shared_data, tmp_path_factory):
    return score_webnlg_sample(shared_data, tmp_path_factory.mktemp("webnlg"))


@pytest.fixture(scope="module")
def webnlg_pairs(shared_data, tmp_path_factory):
    """Every two of the six teams on each of the 30 samples, labelled by how much more correct
    and complete people found A's text than B's (the 0-100 difference over 50: -2 to 2)."""
    human = load_human_judgments(shared_data / "webnlg2020" / "human" / "english_humeval_data_all_teams.json")
    means = human.groupby(["criterion", "system", "instance_id"])["score"].mean()
    rows = []
    instances = sorted({i for _, _, i in means.index})
    for instance in instances:
        for a, b in itertools.combinations(sorted(WEBNLG_TEAMS), 2):
            cells = []
            for criterion in ("Correctness", "DataCoverage"):
                key_a, key_b = (criterion, a, instance), (criterion, b, instance)
                cells.append(f"{(means[key_a] - means[key_b]) / 50:.6f}" if key_a in means and key_b in means else "")
            rows.append(f"{instance},{a},{b},{cells[0]},{cells[1]}")
    path = tmp_path_factory.mktemp("pairs") / "pairs.csv"
    path.write_text("instance_id,system_a,system_b,Correctness,DataCoverage\n" + "\n".join(rows) + "\n")
    return path


def by_scipy(run_dir, pairs_path, metric, criterion):
    """The same numbers from scipy directly: differences, median for undefined, Pearson and Spearman."""
    scores = pd.read_parquet(run_dir / "scores.parquet").set_index(["system", "instance_id"])[metric]
    pairs = pd.read_csv(pairs_path).dropna(subset=[criterion])
    pairs = pairs[pairs.apply(lambda r: (r.system_a, r.instance_id) in scores.index
                              and (r.system_b, r.instance_id) in scores.index, axis=1)]
    difference = np.array([scores[(r.system_a, r.instance_id)] - scores[(r.system_b, r.instance_id)]
                           for r in pairs.itertuples()])
    undefined = np.isnan(difference)
    difference[undefined] = np.median(difference[~undefined])
    label = pairs[criterion].to_numpy()
    return len(label), int(undefined.sum()), stats.pearsonr(difference, label)[0], stats.spearmanr(difference, label)[0]


def test_webnlg_pairs_match_scipy_and_agree_with_people(webnlg_run, webnlg_pairs, capsys):
    argv = ["validate", "human", "--pairwise", "--scores", str(webnlg_run), "--human", str(webnlg_pairs),
            "-m", "recall", "-m", "relation_precision", "-m", "triple_coverage", "--bootstrap", "200", "--json"]
    assert run(argv) == 0
    results = {(r["metric"], r["criterion"]): r for r in json.loads(capsys.readouterr().out)}
    assert set(results) == {(m, c) for m in ("recall", "relation_precision", "triple_coverage")
                            for c in ("Correctness", "DataCoverage")}
    for (metric, criterion), row in results.items():
        n, undefined, r, rho = by_scipy(webnlg_run, webnlg_pairs, metric, criterion)
        assert (row["n_pairs"], row["n_undefined"]) == (n, undefined)
        assert row["pearson"] == pytest.approx(r, abs=1e-9) and row["spearman"] == pytest.approx(rho, abs=1e-9)
        for name in ("pearson", "spearman"):
            low, high = row[f"{name}_ci"]
            assert -1 <= low <= row[name] <= high <= 1
    # texts without a relation claim: their pairs take the median difference, they are not dropped
    assert results[("relation_precision", "Correctness")]["n_undefined"] > 0
    # a text stating more of its triples than another is judged the more complete one
    coverage = results[("triple_coverage", "DataCoverage")]
    assert coverage["pearson_ci"][0] > 0 and coverage["accuracy"] > 0.5
    assert run(argv[:-1]) == 0  # the table
    out = capsys.readouterr().out
    assert "Pearson" in out and "triple_coverage" in out and "DataCoverage" in out


def test_long_form_swapped_pairs_and_a_single_label_column(webnlg_run, tmp_path, capsys):
    """(A, B, 2) and (B, A, -2) are the same judgment; a judge preferring higher recall correlates perfectly."""
    scores = pd.read_parquet(webnlg_run / "scores.parquet").dropna(subset=["recall"])
    recall = scores.set_index(["system", "instance_id"])["recall"]
    lines = []
    for instance, group in scores.groupby("instance_id"):
        systems = sorted(group["system"])
        for a, b in zip(systems, systems[1:]):
            difference = recall[(a, instance)] - recall[(b, instance)]
            lines.append((instance, b, a, -difference))  # written the other way round
    single = tmp_path / "single.csv"
    single.write_text("instance_id,system_a,system_b,label\n" + "".join(f"{i},{a},{b},{v}\n" for i, a, b, v in lines))
    long = tmp_path / "long.csv"
    long.write_text("instance_id,system_a,system_b,criterion,label\n"
                    + "".join(f"{i},{a},{b},overall,{v}\n" for i, a, b, v in lines))
    for path, criterion in ((single, "preference"), (long, "overall")):
        assert run(["validate", "human", "--pairwise", "--scores", str(webnlg_run), "--human", str(path),
                    "-m", "recall", "--bootstrap", "0", "--json"]) == 0
        (row,) = json.loads(capsys.readouterr().out)
        assert row["criterion"] == criterion and row["n_undefined"] == 0
        assert row["pearson"] == pytest.approx(1.0) and row["accuracy"] == 1.0 and row["pearson_ci"] is None
    frame = load_preferences(single)
    assert (frame["system_a"] < frame["system_b"]).all()


@pytest.mark.parametrize(
    ("body", "line", "field", "words"),
    [
        ("instance_id,system_a,system_b,label\nq1,A,B,3\n", 2, "label", "from -2 to 2"),
        ("instance_id,system_a,system_b,label\nq1,A,B,better\n", 2, "label", "better"),
        ("instance_id,system_a,system_b,label\nq1,A,B,1\nq2,A,A,1\n", 3, "system_b", "itself"),
        ("instance_id,system_a,label\nq1,A,1\n", 1, "system_b", "missing"),
        ("instance_id,system_a,system_b,criterion\nq1,A,B,x\n", 1, "label", "criterion"),
        ("instance_id,system_a,system_b,correctness\nq1,A,,1\n", 2, "system_b", "empty"),
    ],
)
def test_bad_files_name_line_and_field(tmp_path, body, line, field, words):
    path = tmp_path / "pairs.csv"
    path.write_text(body)
    with pytest.raises(InputError) as caught:
        load_preferences(path)
    assert (caught.value.line, caught.value.field) == (line, field) and words in str(caught.value)


def test_a_pairs_file_without_the_flag_and_unmatched_names_exit_2(webnlg_run, tmp_path, capsys):
    path = tmp_path / "pairs.csv"
    path.write_text("instance_id,system_a,system_b,label\nnowhere,A,B,1\n")
    base = ["validate", "human", "--scores", str(webnlg_run), "--human", str(path)]
    assert run(base) == 2
    assert "--pairwise" in capsys.readouterr().err
    assert run([*base, "--pairwise"]) == 2
    assert "system names and instance ids" in capsys.readouterr().err
