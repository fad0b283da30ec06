"""One pipeline: an f1, a weather and a rag run read together by `compare` and `report`.

The f1 and weather runs are their demos (instances built from the real FastF1 laps and
NWS forecasts shipped with the domains); the rag run is `factcov rag score` on the museum
answers, written by the core runner like the others.
"""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from factcov.cli.app import run
from factcov.compare import compare_runs
from factcov.report import build_payload
from tests.test_report import CHROMEDRIVER, CHROMIUM, _browser, open_report


@pytest.fixture(scope="module")
def three_runs(tmp_path_factory, repo_root):
    base = tmp_path_factory.mktemp("three")
    for domain in ("f1", "weather"):
        assert run(["demo", domain, "-o", str(base), "-q"]) == 0
    museum = repo_root / "domains" / "rag" / "museum.jsonl"
    assert run(["rag", "score", "-i", str(museum), "-o", str(base / "rag"), "-q"]) == 0
    return [base / "f1", base / "weather", base / "rag"]


@pytest.mark.slow
def test_compare_reads_f1_weather_and_rag_runs_together(three_runs):
    result = compare_runs(three_runs, bootstrap=200)
    by_domain = {d["domain"]: d for d in result["domains"]}
    assert sorted(by_domain) == ["f1", "rag", "weather"]
    rag = by_domain["rag"]
    assert rag["metrics"][:2] == ["gaa", "entity_precision"] and "faithfulness" in rag["metrics"]
    assert by_domain["f1"]["metrics"] == [] and by_domain["weather"]["metrics"] == []
    (answers,) = rag["systems"]
    scores = pd.read_parquet(three_runs[2] / "scores.parquet")
    faithfulness = answers["metrics"]["faithfulness"]
    assert faithfulness["mean"] == pytest.approx(scores["faithfulness"].mean())
    assert faithfulness["n_defined"] == int(scores["faithfulness"].notna().sum()) == 5
    low, high = faithfulness["ci"]
    assert low <= faithfulness["mean"] <= high
    # the coverage penalty is related to facts per instance over the three domains
    penalty = result["coverage_penalty"]
    assert {d["domain"] for d in penalty["by_domain"]} == {"f1", "weather", "rag"}
    assert penalty["spearman_facts_vs_penalty"] is not None


def test_compare_command_prints_the_rag_metrics_beside_f1_and_weather(three_runs, capsys):
    assert run(["compare", *map(str, three_runs), "--bootstrap", "100"]) == 0
    out = capsys.readouterr().out
    assert "rag: domain metrics" in out and "citation_precision" in out
    assert "f1: domain metrics" not in out
    assert run(["compare", *map(str, three_runs), "--bootstrap", "100", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["domains"]) == 3


def test_report_payload_carries_the_rag_metrics(three_runs):
    payload = build_payload(three_runs)
    runs = {r["domain"]: r for r in payload["runs"]}
    assert runs["f1"]["metrics"] == [] and runs["weather"]["metrics"] == []
    rag = runs["rag"]
    (system,) = rag["systems"]
    assert system["metrics"]["coverage"]["n_defined"] == 6
    complete = next(g for g in rag["generations"] if g["instance_id"] == "complete")
    assert complete["metrics"]["gaa_erp"] == 1.0 and complete["metrics"]["faithfulness"] < 1.0
    assert complete["lists"]["hallucinated_entities"] == ["12 EUR"]


@pytest.mark.slow
def test_validate_agreement_reads_two_rag_runs(three_runs, tmp_path, repo_root):
    museum = repo_root / "domains" / "rag" / "museum.jsonl"
    assert run(["rag", "score", "-i", str(museum), "-o", str(tmp_path / "g"), "-q", "--grounded"]) == 0
    assert run(["validate", "agreement", str(three_runs[2]), str(tmp_path / "g")]) == 0
    from factcov.validation.agreement import compare_scorings

    # grounding changes GAA, not which claims a passage supports
    assert compare_scorings(three_runs[2], tmp_path / "g", metric="gaa")["disagreements"]
    assert compare_scorings(three_runs[2], tmp_path / "g", metric="faithfulness")["disagreements"] == []
    assert run(["validate", "agreement", str(three_runs[2]), str(three_runs[0]), "-m", "faithfulness"]) == 2


@pytest.mark.slow
@pytest.mark.browser
def test_one_report_page_of_the_three_runs_shows_the_rag_metrics(three_runs, tmp_path):
    if not CHROMIUM.exists() or shutil.which("chromedriver") is None and not CHROMEDRIVER.exists():
        pytest.skip("needs /usr/bin/chromium and /usr/bin/chromedriver (Debian packages chromium, chromium-driver)")
    from selenium.webdriver.support.ui import Select

    destination = tmp_path / "three.html"
    assert run(["report", *map(str, three_runs), "-o", str(destination)]) == 0
    driver = _browser(tmp_path)
    try:
        open_report(driver, destination)
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
        across = driver.find_elements("css selector", "#across-table tbody tr")
        assert sorted(row.find_elements("tag name", "td")[1].text for row in across) == ["f1", "rag", "weather"]
        assert not driver.find_element("id", "domain-metrics").is_displayed()  # f1: no domain metrics
        Select(driver.find_element("id", "run-select")).select_by_index(2)
        assert driver.find_element("id", "domain-metrics").is_displayed()
        cell = driver.find_element("css selector", '#metric-table td[data-metric="faithfulness"]')
        mean = pd.read_parquet(three_runs[2] / "scores.parquet")["faithfulness"].mean()
        assert cell.text.startswith(f"{mean:.3f}") and "(n=5)" in cell.text
        card = driver.find_element("css selector", '#cards [data-instance="complete"]')
        assert "faithfulness" in card.find_element("css selector", ".domain-scores").text
        assert "hallucinated entities: 12 EUR" in card.text
    finally:
        driver.quit()
