"""The report as a user reads it (issue 29): a wrong claim's expected value beside it, missed
facts in the realizer's words, precision and recall per claim type, the worst texts first,
one card for a text scored on an instance's translations, colours by system name."""

from __future__ import annotations

from pathlib import Path

import pytest

from factcov.cli.app import run as cli
from factcov.report import build_payload
from tests.browser import require_browser
from tests.test_compare import make_mini_run

WEATHER = Path(__file__).resolve().parents[1] / "domains" / "weather"


@pytest.fixture(scope="module")
def weather_run(tmp_path_factory) -> Path:
    """The weather demo files: NWS's English texts on en, es and pt instances."""
    out = tmp_path_factory.mktemp("weather") / "run"
    assert cli(["score", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"),
                "-g", str(WEATHER / "demo_nws.jsonl"), "-o", str(out), "-q"]) == 0
    return out


def test_an_nws_text_on_three_translations_is_one_card(weather_run):
    (payload,) = build_payload([weather_run])["runs"]
    cards = payload["generations"]
    ids = [g["instance_id"] for g in cards]
    assert len(ids) == len(set(ids)) and payload["explorer"]["shown"] == 48 and payload["explorer"]["cards"] == 16
    first = next(g for g in cards if g["instance_id"] == "weather:e2e__BMX_59-84:1:en")
    assert first["also"] == ["weather:e2e__BMX_59-84:1:es", "weather:e2e__BMX_59-84:1:pt"]


def test_the_explorer_opens_on_the_worst_texts(weather_run):
    (payload,) = build_payload([weather_run])["runs"]
    f1s = [g["f1"] for g in payload["generations"]]
    assert f1s == sorted(f1s) and f1s[0] < f1s[-1]


def test_missed_facts_carry_the_realizers_sentence(weather_run):
    (payload,) = build_payload([weather_run])["runs"]
    missed = [f for g in payload["generations"] for f in g["missed"]]
    assert missed and all(f["sentence"] for f in missed)
    direction = next(f for f in missed if f["type"] == "wind_direction")
    assert direction["sentence"].endswith("wind.") and direction["value"] in ("E", "SW", "N", "NE", "W", "S")


def test_precision_and_recall_per_claim_type_and_system(weather_run):
    (payload,) = build_payload([weather_run])["runs"]
    rows = {(r["type"], r["system"]): r for r in payload["by_type"]}
    temperature = rows[("temperature", "nws")]
    assert temperature["precision"] == pytest.approx(
        temperature["supported"] / (temperature["supported"] + temperature["contradicted"] + temperature["unverifiable"]))
    assert temperature["recall"] == pytest.approx(temperature["covered"] / temperature["n_facts"])
    assert temperature["contradicted"] > 0  # the hand-edited fixture: "low around 27" for 31
    (system,) = payload["systems"]
    assert sum(r["supported"] for r in payload["by_type"]) == system["supported"]


@pytest.mark.browser
def test_the_page_shows_the_expected_value_types_and_name_colours(weather_run, tmp_path, mini_plugin):
    require_browser()
    from tests.test_report import _browser, open_report

    driver = _browser(tmp_path)
    try:
        open_report(driver, weather_run / "report.html")
        wrong = driver.find_elements("css selector", "#cards .v-contradicted[data-claim-start]")
        expected = driver.find_elements("css selector", "#cards .expected")
        assert wrong and len(expected) == len(wrong)
        assert expected[0].is_displayed() and expected[0].text.startswith("data: ")
        assert driver.find_element("id", "by-type").is_displayed()
        assert driver.find_elements("css selector", "#type-table tr[data-type='temperature'] td[data-system='nws']")
        first = driver.find_element("css selector", "#cards article")
        assert "P " in first.text and "F1 0." in first.text  # the worst text, not a perfect one
        missed = driver.find_element("css selector", "#cards .missed li")
        assert missed.text.split(".")[0] and missed.find_element("css selector", ".fact-id")
        also = driver.find_element("css selector", "#cards .also")
        assert "translations" in also.text

        # a system's colour is its name's: the same in two runs with other systems beside it
        runs = [make_mini_run(tmp_path, "one"), make_mini_run(tmp_path, "two", generations=[
            {"instance_id": f"m{i}", "system": s, "text": "apples: 3."} for i in range(6) for s in ("terse", "zeta")])]
        colours = []
        for outdir in runs:
            open_report(driver, outdir / "report.html")
            dot = driver.find_element("css selector", '#scatter circle[data-system="terse"]')
            colours.append(dot.get_attribute("fill"))
            fills = {c.get_attribute("fill").lower() for c in driver.find_elements("css selector", "#scatter circle.point")}
            assert not fills & {"#cf222e", "#1a7f37", "#116329"}  # no red or green system
        assert colours[0] == colours[1]
    finally:
        driver.quit()


def test_the_report_docs_show_before_and_after(repo_root):
    doc = (repo_root / "docs" / "report.md").read_text(encoding="utf-8")
    for name in ("report-before-top.png", "report-before-explorer.png", "report-after-top.png",
                 "report-after-explorer.png"):
        assert f"img/{name}" in doc and (repo_root / "docs" / "img" / name).stat().st_size > 10_000
