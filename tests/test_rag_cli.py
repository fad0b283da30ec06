"""`factcov rag score`: a core run (same files, gate and signature), settings from factcov.toml."""

import json

import pandas as pd
import pytest

from factcov.cli.app import run
from factcov.compare import load_run


@pytest.fixture
def museum(repo_root):
    return str(repo_root / "domains" / "rag" / "museum.jsonl")


@pytest.mark.slow
def test_score_writes_the_core_run_files_with_the_rag_metrics(museum, tmp_path):
    out = tmp_path / "out"
    assert run(["rag", "score", "-i", museum, "-o", str(out), "-q"]) == 0
    scores = pd.read_parquet(out / "scores.parquet")
    assert list(scores["instance_id"]) == ["complete", "embellished", "fragment", "outdated", "off-topic", "empty"]
    assert scores["faithfulness"].dtype == "float64" and scores["faithfulness"].notna().sum() == 5  # empty: none
    summary = json.loads((out / "summary.json").read_text())
    assert summary["domain"] == "rag" and "faithfulness" in summary["metrics"]
    (system,) = summary["systems"]
    assert system["gaa"] == pytest.approx(scores["gaa"].mean())
    assert system["n_faithfulness_defined"] == 5
    # GAA-ERP is the core's weighted F1 with the alpha weights
    assert (scores["gaa_erp"].fillna(-1) == scores["weighted_f1"].fillna(-1)).all()
    claims = pd.read_parquet(out / "claims.parquet")
    assert set(claims["verdict"]) == {"supported", "contradicted", "unverifiable"}
    assert (out / "report.html").is_file() and (out / "systems.csv").is_file()
    assert summary["signature"].startswith("factcov:") and "domain:rag@" in summary["signature"]
    assert load_run(out).domain == "rag"
    assert not list(out.glob(".*.tmp"))


@pytest.mark.slow
def test_the_alias_and_factcov_score_agree(museum, tmp_path, repo_root):
    """The same answers through `factcov score -d rag` with the adapter's files: same scores."""
    from factcov.domains.rag.inputs import iter_answers
    from factcov.domains.rag.scoring import iter_pairs
    from factcov.jsonl import write_jsonl_atomic
    from factcov.plugins import get_extractor

    pairs = list(iter_pairs(iter_answers(museum), get_extractor("rag-spacy", "en")))
    write_jsonl_atomic(tmp_path / "instances.jsonl", [i for i, _ in pairs])
    write_jsonl_atomic(tmp_path / "generations.jsonl", [g for _, g in pairs])
    assert run(["rag", "score", "-i", museum, "-o", str(tmp_path / "a"), "-q", "--no-report"]) == 0
    assert run(["score", "-d", "rag", "-i", str(tmp_path / "instances.jsonl"), "-g",
                str(tmp_path / "generations.jsonl"), "-o", str(tmp_path / "b"), "-q", "--no-report"]) == 0
    a, b = (pd.read_parquet(tmp_path / d / "scores.parquet") for d in ("a", "b"))
    pd.testing.assert_frame_equal(a, b)
    signatures = {json.loads((tmp_path / d / "summary.json").read_text())["signature"] for d in ("a", "b")}
    assert len(signatures) == 1


@pytest.mark.slow
def test_gate_below_threshold_exits_1_listing_failing_answers(museum, tmp_path, capsys):
    code = run(["rag", "score", "-i", museum, "-o", str(tmp_path / "out"), "-q", "--fail-under", "gaa=0.5"])
    assert code == 1
    err = capsys.readouterr().err
    assert "gaa" in err and "outdated" in err and "empty" in err and "fragment" not in err


def test_gate_met_exits_0(museum, tmp_path):
    assert run(["rag", "score", "-i", museum, "-o", str(tmp_path / "out"), "-q", "--fail-under", "gaa=0.3"]) == 0


def test_undefined_mean_fails_its_gate(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"id": "a", "answer": "The museum opens at 10 am."}) + "\n")
    assert run(["rag", "score", "-i", str(path), "-o", str(tmp_path / "out"), "-q",
                "--fail-under", "citation_precision=0.1"]) == 1


def test_unknown_gate_metric_is_a_usage_error(museum, tmp_path, capsys):
    assert run(["rag", "score", "-i", museum, "-o", str(tmp_path / "o"), "--fail-under", "bleu=0.1"]) == 2
    assert "citation_precision" in capsys.readouterr().err


def test_bad_input_exits_2_naming_the_line_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "a.jsonl"
    path.write_text('{"id": "a", "answer": "x"}\n{"id": "b"}\n')
    assert run(["rag", "score", "-i", str(path), "-o", str(tmp_path / "o")]) == 2
    assert "a.jsonl:2" in capsys.readouterr().err
    assert not (tmp_path / "o" / "scores.parquet").exists()


@pytest.mark.slow
def test_settings_come_from_factcov_toml_and_the_command_line_wins(museum, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "factcov.toml").write_text("[rag]\nalpha = 1.0\nfail_under = { coverage = 0.99 }\n")
    assert run(["rag", "score", "-i", museum, "-o", "out", "-q"]) == 1  # the configured gate
    table = pd.read_parquet(tmp_path / "out" / "scores.parquet")
    assert (table["gaa"].fillna(-1) == table["entity_f1"].fillna(-1)).all()
    assert run(["rag", "score", "-i", museum, "-o", "out2", "-q", "--alpha", "0"]) == 1
    table = pd.read_parquet(tmp_path / "out2" / "scores.parquet")
    assert (table["gaa"].fillna(-1) == table["relation_f1"].fillna(-1)).all()


@pytest.mark.slow
def test_one_score_table_gates_every_domain_rag_included(museum, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "factcov.toml").write_text("[score]\nfail_under = { faithfulness = 0.9 }\n")
    assert run(["rag", "score", "-i", museum, "-o", "out", "-q"]) == 1
    assert "faithfulness 0.7" in capsys.readouterr().err
    (tmp_path / "factcov.toml").write_text("[score]\nfail_under = { faithfulness = 0.7 }\n")
    assert run(["rag", "score", "-i", museum, "-o", "out", "-q"]) == 0


def test_settings_from_pyproject_tool_table(museum, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.factcov.rag]\ngrounded = true\n")
    assert run(["rag", "score", "-i", museum, "-o", "out", "-q"]) == 0
    table = pd.read_parquet(tmp_path / "out" / "scores.parquet")
    assert (table["gaa"] == table["gaa_erp_g"]).all()
    assert "domain:rag@0.1.0+grounded|" in json.loads((tmp_path / "out" / "summary.json").read_text())["signature"]


def test_bad_setting_names_the_config_field(museum, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "factcov.toml").write_text("[rag]\nalpha = 2\n")
    assert run(["rag", "score", "-i", museum, "-o", "out"]) == 2
    assert "rag.alpha" in capsys.readouterr().err


def test_instances_without_passages_leave_the_passage_metrics_undefined(shared_data, tmp_path):
    """WebNLG data-to-text instances through `factcov score -d rag`: GAA-ERP is defined,
    faithfulness and the other passage metrics are not (nothing was retrieved), never 0."""
    from tests.test_validate_human import score_webnlg_sample

    run_dir = score_webnlg_sample(shared_data, tmp_path / "webnlg", entries=5)
    scores = pd.read_parquet(run_dir / "scores.parquet")
    for name in ("faithfulness", "context_relevance", "citation_support", "citation_precision", "coverage",
                 "gaa_erp_g"):
        assert scores[name].isna().all(), name
    assert scores["gaa_erp"].notna().all()
    assert (scores["gaa"] == scores["gaa_erp"]).all() and (scores["gaa"] == scores["weighted_f1"]).all()
    assert all(len(h) == 0 for h in scores["hallucinated_entities"])


@pytest.mark.slow
def test_factcov_score_reads_the_rag_table_like_the_alias(museum, tmp_path, monkeypatch):
    """One factcov.toml: [rag] configures `factcov score -d rag` as it does `factcov rag score`."""
    from factcov.domains.rag.inputs import iter_answers
    from factcov.domains.rag.scoring import iter_pairs
    from factcov.jsonl import write_jsonl_atomic
    from factcov.plugins import get_extractor

    pairs = list(iter_pairs(iter_answers(museum), get_extractor("rag-spacy", "en")))
    write_jsonl_atomic(tmp_path / "instances.jsonl", [i for i, _ in pairs])
    write_jsonl_atomic(tmp_path / "generations.jsonl", [g for _, g in pairs])
    monkeypatch.chdir(tmp_path)
    (tmp_path / "factcov.toml").write_text("[rag]\nalpha = 1.0\ngrounded = true\n")
    assert run(["score", "-d", "rag", "-i", "instances.jsonl", "-g", "generations.jsonl", "-o", "a", "-q",
                "--no-report"]) == 0
    assert run(["rag", "score", "-i", museum, "-o", "b", "-q", "--no-report"]) == 0
    a, b = (pd.read_parquet(tmp_path / d / "scores.parquet") for d in ("a", "b"))
    pd.testing.assert_frame_equal(a, b)
    assert (a["weighted_f1"].fillna(-1) == a["entity_f1"].fillna(-1)).all()  # alpha 1: GAA is entity F1
    assert (a["gaa"] == a["gaa_erp_g"]).all()
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert "rag@0.1.0+grounded" in summary["signature"] and "weights:entity=1" in summary["signature"]
    (tmp_path / "factcov.toml").write_text('[rag]\nbackend = "bert"\n')
    assert run(["score", "-d", "rag", "-i", "instances.jsonl", "-g", "generations.jsonl", "-o", "c", "-q"]) == 2
