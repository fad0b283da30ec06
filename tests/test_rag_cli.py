"""`factcov rag score`: outputs, the gate, settings from a config file."""

import json

import pandas as pd
import pytest

from factcov.cli.app import run


@pytest.fixture
def museum(repo_root):
    return str(repo_root / "domains" / "rag" / "museum.jsonl")


def test_score_writes_the_answer_table_claims_and_summary(museum, tmp_path):
    out = tmp_path / "out"
    assert run(["rag", "score", "-i", museum, "-o", str(out)]) == 0
    table = pd.read_parquet(out / "answers.parquet")
    assert list(table["id"]) == ["complete", "embellished", "fragment", "outdated", "off-topic", "empty"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["metrics"]["faithfulness"]["n_defined"] == 5  # the empty answer has none
    assert summary["metrics"]["gaa"]["mean"] == pytest.approx(table["gaa"].mean())
    claims = [json.loads(line) for line in (out / "claims.jsonl").read_text().splitlines()]
    assert {c["verdict"] for c in claims} == {"supported", "contradicted", "unverifiable"}
    assert not list(out.glob(".*.tmp"))


def test_gate_below_threshold_exits_1_listing_failing_answers(museum, tmp_path, capsys):
    code = run(["rag", "score", "-i", museum, "-o", str(tmp_path / "out"), "--fail-under", "gaa=0.5"])
    assert code == 1
    err = capsys.readouterr().err
    assert "gaa" in err and "outdated" in err and "empty" in err and "fragment" not in err


def test_gate_met_exits_0(museum, tmp_path):
    assert run(["rag", "score", "-i", museum, "-o", str(tmp_path / "out"), "--fail-under", "gaa=0.3"]) == 0


def test_undefined_mean_fails_its_gate(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"id": "a", "answer": "The museum opens at 10 am."}) + "\n")
    assert run(["rag", "score", "-i", str(path), "-o", str(tmp_path / "out"),
                "--fail-under", "citation_precision=0.1"]) == 1


def test_unknown_gate_metric_is_a_usage_error(museum, tmp_path, capsys):
    assert run(["rag", "score", "-i", museum, "-o", str(tmp_path / "o"), "--fail-under", "bleu=0.1"]) == 2
    assert "citation_precision" in capsys.readouterr().err


def test_bad_input_exits_2_naming_the_line(tmp_path, capsys):
    path = tmp_path / "a.jsonl"
    path.write_text('{"id": "a", "answer": "x"}\n{"id": "b"}\n')
    assert run(["rag", "score", "-i", str(path), "-o", str(tmp_path / "o")]) == 2
    assert "a.jsonl:2" in capsys.readouterr().err


def test_settings_come_from_factcov_toml_and_the_command_line_wins(museum, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "factcov.toml").write_text("[rag]\nalpha = 1.0\nfail_under = { coverage = 0.99 }\n")
    assert run(["rag", "score", "-i", museum, "-o", "out"]) == 1  # the configured gate
    table = pd.read_csv(tmp_path / "out" / "answers.csv")
    assert (table["gaa"].fillna(-1) == table["entity_f1"].fillna(-1)).all()
    assert run(["rag", "score", "-i", museum, "-o", "out2", "--alpha", "0"]) == 1
    table = pd.read_csv(tmp_path / "out2" / "answers.csv")
    assert (table["gaa"].fillna(-1) == table["relation_f1"].fillna(-1)).all()


def test_settings_from_pyproject_tool_table(museum, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.factcov.rag]\ngrounded = true\n")
    assert run(["rag", "score", "-i", museum, "-o", "out"]) == 0
    table = pd.read_csv(tmp_path / "out" / "answers.csv")
    assert (table["gaa"] == table["gaa_erp_g"]).all()


def test_bad_setting_names_the_config_field(museum, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "factcov.toml").write_text("[rag]\nalpha = 2\n")
    assert run(["rag", "score", "-i", museum, "-o", "out"]) == 2
    assert "rag.alpha" in capsys.readouterr().err
