"""Claims outside the oracle's scope: counted and shown, left out of P/R/F1 (signed policy)."""

from __future__ import annotations

import json

import pandas as pd

from factcov.cli.app import run
from factcov.model import Claim, Fact, Verdict
from factcov.scoring import ScoringPolicy, score_generation
from tests.test_cli_core import INSTANCES, write_jsonl

FACT = Fact(type="count", key={"item": "apples"}, value=3)


def test_an_out_of_scope_claim_neither_counts_nor_covers():
    inside = Verdict(claim=Claim(type="count", key={"item": "apples"}, value=3), label="supported",
                     fact=FACT, matches=(FACT.id,))
    outside = Verdict(claim=Claim(type="count", key={"item": "apples"}, value=3, out_of_scope="next season"),
                      label="supported", fact=FACT, matches=(FACT.id,))
    wrong_outside = Verdict(claim=Claim(type="count", key={"item": "apples"}, value=9, out_of_scope="next season"),
                            label="contradicted", fact=FACT)
    alone = score_generation([FACT], [outside, wrong_outside])
    assert (alone.total.n_claims, alone.total.out_of_scope, alone.total.covered) == (0, 2, 0)
    assert alone.total.metrics(ScoringPolicy())["precision"] is None
    both = score_generation([FACT], [inside, wrong_outside])
    assert both.total.metrics(ScoringPolicy())["precision"] == 1.0 and both.by_type["count"].out_of_scope == 1


def test_the_policy_is_in_the_signature():
    assert ScoringPolicy().signature().endswith("|out_of_scope:exclude")


def test_score_summary_compare_and_report_show_out_of_scope_claims(tmp_path, mini_plugin, capsys):
    instances = write_jsonl(tmp_path / "instances.jsonl", INSTANCES)
    generations = write_jsonl(tmp_path / "generations.jsonl", [
        {"instance_id": "i1", "system": "plain", "text": "apples: 3. apples are red."},
        {"instance_id": "i1", "system": "forecaster", "text": "apples: 3. apples are red. apples tomorrow: 9."},
    ])
    out = tmp_path / "out"
    assert run(["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "outside the oracle's scope" in printed and "forecaster 1" in printed
    systems = pd.read_csv(out / "systems.csv").set_index("system")
    assert systems.loc["forecaster", "out_of_scope"] == 1 and systems.loc["plain", "out_of_scope"] == 0
    # the wrong forecast is beyond the data: it does not lower precision
    assert systems.loc["forecaster", "precision"] == systems.loc["plain", "precision"] == 1.0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["by_type"]["forecaster"]["count"]["out_of_scope"] == 1
    assert "out_of_scope:exclude" in summary["signature"]
    assert run(["compare", str(out)]) == 0
    assert "forecaster 1" in capsys.readouterr().out
    assert run(["compare", str(out), "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert {s["system"]: s["out_of_scope"] for s in compared["domains"][0]["systems"]} == {"plain": 0, "forecaster": 1}
    page = (out / "report.html").read_text().replace(" ", "")
    assert '"out_of_scope":1' in page and "tomorrow:thedataendstoday" in page
    claims = pd.read_parquet(out / "claims.parquet")
    marked = claims[claims.out_of_scope.notna()]
    assert list(marked.system) == ["forecaster"] and list(marked.out_of_scope) == ["tomorrow: the data ends today"]


def test_validate_errors_says_an_error_sat_in_an_out_of_scope_claim(tmp_path, mini_plugin, capsys):
    instances = write_jsonl(tmp_path / "instances.jsonl", INSTANCES)
    text = "apples: 4. apples tomorrow: 9."
    generations = write_jsonl(tmp_path / "generations.jsonl", [{"instance_id": "i1", "system": "s", "text": text}])
    gold = write_jsonl(tmp_path / "gold.jsonl", [
        {"instance_id": "i1", "type": "NUMBER", "start": 8, "end": 9, "text": "4"},
        {"instance_id": "i1", "type": "NUMBER", "start": 28, "end": 29, "text": "9"},
    ])
    assert run(["validate", "errors", "-d", "mini", "-i", str(instances), "-g", str(generations),
                "--gold", str(gold), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["out_of_scope_claims"] == 1 and result["strict"]["recalled"] == 1
    assert [(m["text"], m["cause"]) for m in result["misses"]] == [("9", "out of scope")]
