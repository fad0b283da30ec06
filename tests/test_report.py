"""The HTML report: self-contained, escaped, capped, and checked in a real headless Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from factcov.cli.app import run as cli
from factcov.report import build_payload, write_report
from factcov.report.render import embed_json
from tests.browser import CHROMEDRIVER, CHROMIUM, require_browser
from tests.test_compare import HOSTILE, make_mini_run, mini_generations


@pytest.fixture
def mini_run(tmp_path, mini_plugin) -> Path:
    return make_mini_run(tmp_path)


def _embedded(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="factcov-data">(.*?)</script>', html, re.S)
    assert match, "the data element is missing"
    return json.loads(match.group(1))


def test_embedded_json_cannot_close_its_script_element():
    text = embed_json({"text": "</script><script>alert(1)</script> & <!--"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["text"] == "</script><script>alert(1)</script> & <!--"


def test_score_writes_a_self_contained_report_with_the_hostile_text_as_data(mini_run):
    html = (mini_run / "report.html").read_text(encoding="utf-8")
    assert html.count("<script") == 2  # the data element and the page's own script
    assert "<script>window.__pwned" not in html and "<img" not in html  # only as escaped JSON text
    assert not re.search(r"(src|href)=[\"']?(https?:)?//", html), "the page must not load anything"
    data = _embedded(html)
    hostile = [g for g in data["runs"][0]["generations"] if g["system"] == "hostile" and g["instance_id"] == "m0"]
    assert hostile[0]["text"] == HOSTILE
    assert "script-src 'sha256-" in html and "default-src 'none'" in html


def test_claims_in_the_payload_match_claims_parquet(mini_run):
    payload = build_payload([mini_run])
    claims = pd.read_parquet(mini_run / "claims.parquet")
    generations = payload["runs"][0]["generations"]
    assert sum(len(g["claims"]) for g in generations) == len(claims)
    contradicted = [c for g in generations for c in g["claims"] if c["verdict"] == "contradicted"]
    assert {json.dumps(c["expected"]) for c in contradicted} >= {'"green"'}
    complete = next(g for g in generations if g["system"] == "complete" and g["instance_id"] == "m1")
    assert [m["type"] for m in complete["missed"]] == ["colour"]
    start, end = complete["claims"][0]["span"]
    assert complete["text"][start:end] == "apples: 3."


def test_the_explorer_is_capped_per_system_and_says_so(mini_run):
    payload = build_payload([mini_run], per_system=2)
    run = payload["runs"][0]
    assert run["explorer"] == {"shown": 6, "cards": 6, "per_system": 2, "total": 18,
                               "capped_systems": ["complete", "hostile", "terse"]}
    assert {g["instance_id"] for g in run["generations"]} == {"m0", "m1"}
    # Many systems: the per-run limit shrinks the per-system cap.
    run = build_payload([mini_run], per_system=200, max_generations=9)["runs"][0]
    assert run["explorer"]["per_system"] == 3 and run["explorer"]["shown"] == 9


def test_spans_are_converted_to_javascript_string_offsets(tmp_path, mini_plugin):
    generations = [{"instance_id": "m1", "system": "emoji", "text": "🍎🍐 apples: 3. figs: 1."}]
    outdir = make_mini_run(tmp_path, "emoji", generations=generations)
    (generation,) = build_payload([outdir])["runs"][0]["generations"]
    utf16 = generation["text"].encode("utf-16-le")
    for claim in generation["claims"]:
        start, end = claim["span"]
        assert utf16[2 * start : 2 * end].decode("utf-16-le") == claim["text"]


def test_report_command_writes_one_page_for_several_runs(tmp_path, mini_plugin):
    a = make_mini_run(tmp_path, "a")
    b = make_mini_run(tmp_path, "b", generations=[g for g in mini_generations() if g["system"] != "hostile"])
    destination = tmp_path / "both.html"
    assert cli(["report", str(a), str(b), "-o", str(destination)]) == 0
    data = _embedded(destination.read_text(encoding="utf-8"))
    assert [r["name"] for r in data["runs"]] == ["a", "b"]
    assert cli(["report", str(tmp_path / "nothing"), "-o", str(destination)]) == 2


# --- in a real browser ------------------------------------------------------------------


def _browser(tmp_path: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,2000", f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def open_report(driver, path: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(path.resolve().as_uri())
    WebDriverWait(driver, 20).until(lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true")


@pytest.mark.browser
def test_the_report_in_headless_chromium(mini_run, tmp_path):
    require_browser()
    from selenium.webdriver.support.ui import Select

    claims = pd.read_parquet(mini_run / "claims.parquet")
    driver = _browser(tmp_path)
    try:
        open_report(driver, mini_run / "report.html")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], errors
        assert driver.execute_script("return window.__pwned === undefined")
        highlights = driver.find_elements("css selector", "#cards [data-claim-start]")
        assert len(highlights) == len(claims)
        by_verdict = claims["verdict"].value_counts().to_dict()
        for verdict, count in by_verdict.items():
            assert len(driver.find_elements("css selector", f"#cards .v-{verdict}[data-claim-start]")) == count
        contradicted = driver.find_element("css selector", "#cards .v-contradicted")
        assert "expected:" in contradicted.get_attribute("title")
        hostile = driver.find_element("css selector", '#cards [data-system="hostile"][data-instance="m0"] .text')
        assert hostile.text.startswith("<script>window.__pwned = 1</script>")
        assert driver.find_elements("css selector", "#cards img") == []
        assert len(driver.find_elements("css selector", "#scatter circle")) == 3
        assert not driver.find_element("id", "across").is_displayed()  # one run: nothing to set side by side
        assert len(driver.find_elements("css selector", "#slope line")) == 3
        Select(driver.find_element("id", "filter-system")).select_by_value("terse")
        assert len(driver.find_elements("css selector", "#cards article")) == 6
        Select(driver.find_element("id", "filter-system")).select_by_value("")
        Select(driver.find_element("id", "filter-verdict")).select_by_value("contradicted")
        shown = driver.find_elements("css selector", "#cards article")
        expected = claims[claims["verdict"] == "contradicted"].groupby(["instance_id", "system"]).ngroups
        assert len(shown) == expected
        assert driver.execute_script("return window.__pwned === undefined")
        shot = tmp_path / "report.png"
        assert driver.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    finally:
        driver.quit()


@pytest.mark.slow
@pytest.mark.browser
def test_a_real_webnlg_run_renders_every_claim_once(shared_data, tmp_path):
    require_browser()
    from tests.test_validate_human import score_webnlg_sample

    run = score_webnlg_sample(shared_data, tmp_path / "webnlg", entries=12)
    claims = pd.read_parquet(run / "claims.parquet")
    destination = write_report([run], tmp_path / "webnlg.html")
    driver = _browser(tmp_path)
    try:
        open_report(driver, destination)
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
        assert len(driver.find_elements("css selector", "#cards article")) == 6 * 12
        # Relations overlap their entities: nested and cut marks, still one start per claim,
        # and every placed claim's pieces spell exactly its text.
        assert len(driver.find_elements("css selector", "#cards [data-claim-start]")) == len(claims)
        assert driver.find_elements("css selector", "#cards mark.claim mark.claim")
        spelled = driver.execute_script("""
            var out = [];
            document.querySelectorAll('#cards article').forEach(function (card) {
              var pieces = {};
              card.querySelectorAll('.text mark[data-claim]').forEach(function (m) {
                var i = m.getAttribute('data-claim');
                pieces[i] = (pieces[i] || '') + m.textContent;
              });
              Object.keys(pieces).forEach(function (i) { out.push(pieces[i]); });
            });
            return out;""")
        assert sorted(spelled) == sorted(t for t in claims["text"] if t)
        assert len(driver.find_elements("css selector", "#scatter circle")) == 6
    finally:
        driver.quit()


@pytest.mark.slow
@pytest.mark.browser
def test_a_page_of_several_runs_switches_between_them(tmp_path, mini_plugin):
    require_browser()
    from selenium.webdriver.support.ui import Select

    a = make_mini_run(tmp_path, "a")
    b = make_mini_run(tmp_path, "b", generations=[g for g in mini_generations() if g["system"] == "terse"])
    destination = write_report([a, b], tmp_path / "both.html", per_system=4)
    driver = _browser(tmp_path)
    try:
        open_report(driver, destination)
        assert len(driver.find_elements("css selector", "#cards article")) == 3 * 4
        assert "first 4 generations per system" in driver.find_element("id", "explorer-note").text
        across = driver.find_elements("css selector", "#across-table tbody tr")
        assert [row.find_element("tag name", "td").text for row in across] == ["a", "b"]
        Select(driver.find_element("id", "run-select")).select_by_index(1)
        assert len(driver.find_elements("css selector", "#system-table tbody tr")) == 1
        assert len(driver.find_elements("css selector", "#cards article")) == 4
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
    finally:
        driver.quit()


def test_a_long_text_is_embedded_up_to_the_cap_with_its_claims_and_a_note(tmp_path, mini_plugin):
    from factcov.limits import REPORT_TEXT_CHARS
    from factcov.report import build_payload
    from tests.test_compare import make_mini_run

    long_text = "apples: 3. " * (REPORT_TEXT_CHARS // 11 * 3)
    outdir = make_mini_run(tmp_path, generations=[{"instance_id": "m0", "system": "long", "text": long_text}])
    (generation,) = build_payload([outdir])["runs"][0]["generations"]
    assert len(generation["text"]) == REPORT_TEXT_CHARS and generation["text_chars"] == len(long_text)
    assert all(c["span"] is not None and c["span"][1] <= REPORT_TEXT_CHARS for c in generation["claims"])
    assert len(generation["claims"]) == REPORT_TEXT_CHARS // 11


def test_a_system_named_like_an_object_property_survives_in_the_page(tmp_path, mini_plugin):
    require_browser()
    from tests.test_compare import make_mini_run, mini_generations

    generations = [{**g, "system": {"terse": "__proto__", "complete": "constructor"}.get(g["system"], g["system"])}
                   for g in mini_generations()]
    outdir = make_mini_run(tmp_path, generations=generations)
    driver = _browser(tmp_path)
    try:
        open_report(driver, outdir / "report.html")
        options = [o.get_attribute("value") for o in driver.find_elements("css selector", "#filter-system option")]
        assert "__proto__" in options and "constructor" in options
        assert len(driver.find_elements("css selector", "#slope line")) == 3
        ys = [line.get_attribute("y1") for line in driver.find_elements("css selector", "#slope line")]
        assert all(y not in (None, "", "NaN") for y in ys)
    finally:
        driver.quit()


MODEL_NAMES = [
    "gpt-4o-2024-08-06", "gpt-4o-mini-2024-07-18", "claude-3-5-sonnet", "claude-3-haiku", "llama-3.1-405b-instruct",
    "llama-3.1-70b-instruct", "llama-3.1-8b-instruct", "qwen2.5-72b-instruct", "qwen2.5-7b-instruct",
    "mistral-large-2407", "mistral-small", "mixtral-8x22b", "gemma-2-27b-it", "gemma-2-9b-it", "phi-3.5-mini",
    "command-r-plus", "deepseek-v2.5", "yi-1.5-34b", "olmo-2-13b", "granite-3.0-8b", "falcon-2-11b",
    "internlm2.5-20b", "nemotron-70b", "solar-pro", "dbrx-instruct",
]


def many_close_systems(n_instances: int = 40) -> list[dict]:
    """25 systems near precision 1 and recall 0.9: each drops a few facts, a few get one wrong."""
    rows = []
    for k, name in enumerate(MODEL_NAMES):
        for i in range(n_instances):
            facts = ["apples: 3.", "pears are green.", f"figs: {i}.", f"window 2-{5 + i}."]
            kept = [f for j, f in enumerate(facts) if (i * 7 + j * 3 + k) % 40 >= k % 5 + 1]
            if (i * 3 + k) % 23 == 0:
                kept = [f"figs: {i + 1}." if f == f"figs: {i}." else f for f in kept]
            rows.append({"instance_id": f"m{i}", "system": name, "text": " ".join(kept) or "nothing."})
    return rows


def write_many_systems_report(tmp_path: Path) -> Path:
    from factcov.runner import score_files
    from tests.test_compare import mini_instances, write_jsonl

    instances = write_jsonl(tmp_path / "many-instances.jsonl", mini_instances(40))
    texts = write_jsonl(tmp_path / "many-generations.jsonl", many_close_systems())
    score_files("mini", instances, texts, tmp_path / "many", report=False)
    return write_report([tmp_path / "many"], tmp_path / "many.html", per_system=2)


@pytest.mark.browser
def test_25_close_systems_are_readable_in_the_scatter(tmp_path, mini_plugin):
    require_browser()
    from selenium.webdriver.common.action_chains import ActionChains

    destination = write_many_systems_report(tmp_path)
    systems = pd.read_csv(tmp_path / "many" / "systems.csv")
    driver = _browser(tmp_path)
    try:
        open_report(driver, destination)
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
        chart = driver.find_element("css selector", "#scatter svg")
        points = driver.find_elements("css selector", "#scatter circle.point")
        assert len(points) == 25
        # zoomed to the data: the axes span the points with a margin, not 0-1
        low_p, high_p = map(float, chart.get_attribute("data-x-range").split(","))
        low_r, high_r = map(float, chart.get_attribute("data-y-range").split(","))
        assert low_p <= systems["precision"].min() and systems["precision"].max() <= high_p and low_p > 0.5
        assert low_r <= systems["recall"].min() and systems["recall"].max() <= high_r and low_r > 0.5
        assert len(driver.find_elements("css selector", "#scatter polyline.iso")) >= 2
        # no label over another label or over a point
        boxes = driver.execute_script("""
            var out = [];
            document.querySelectorAll('#scatter text.point-label, #scatter text.iso-label, #scatter circle.point')
              .forEach(function (n) { var b = n.getBBox(); out.push([n.tagName, b.x, b.y, b.width, b.height]); });
            return out;""")
        labels = [b for b in boxes if b[0] == "text"]
        assert labels, "some points are labelled"
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                if a[0] == b[0] == "circle":
                    continue  # points may touch: the legend and the hover tell them apart
                overlap = a[1] < b[1] + b[3] - 0.5 and b[1] < a[1] + a[3] - 0.5 and a[2] < b[2] + b[4] - 0.5 and b[2] < a[2] + a[4] - 0.5
                assert not overlap, (a, b)
        # a legend lists every system with its values, best F1 first
        legend = driver.find_elements("css selector", "#scatter-legend li")
        assert len(legend) == 25
        best = systems.sort_values(["f1"], ascending=False).iloc[0]
        assert best["system"] in legend[0].text and f"F1 {best['f1']:.3f}" in legend[0].text
        # values on hover
        target = driver.find_element("css selector", f'#scatter circle.point[data-system="{MODEL_NAMES[3]}"]')
        ActionChains(driver).move_to_element(target).perform()
        tip = driver.find_element("css selector", "#scatter g.tip")
        row = systems.set_index("system").loc[MODEL_NAMES[3]]
        assert tip.get_attribute("visibility") == "visible"
        assert tip.text.endswith(f"{MODEL_NAMES[3]}: P {row['precision']:.3f}, R {row['recall']:.3f}, F1 {row['f1']:.3f}")
        shot = tmp_path / "many.png"
        driver.find_element("id", "charts").screenshot(str(shot))
        assert shot.stat().st_size > 10_000
    finally:
        driver.quit()
