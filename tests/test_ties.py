"""Ties are printed as ties (issue 29): systems of equal rank are joined by '=', not ordered."""

from __future__ import annotations

import pytest

from factcov.aggregate import ranking_line
from factcov.cli.app import run as cli
from tests.test_compare import make_mini_run, mini_generations
from tests.test_example_plugin import quali  # noqa: F401, F811 (a fixture)


def test_ranking_line_joins_equal_ranks():
    rank = {"complete": 1.5, "terse": 1.5, "verbose": 3.0}
    assert ranking_line(["complete", "terse", "verbose"], rank) == "complete = terse > verbose"
    assert ranking_line(["a", "b", "c"], {"a": 1, "b": 2, "c": 3}) == "a > b > c"
    assert ranking_line(["a", "b", "c"], {"a": 2, "b": 2, "c": 2}) == "a = b = c"
    assert ranking_line([], {}) == ""


def _tied_generations() -> list[dict]:
    """terse and its twin say the same: equal precision and F1, rank 1.5 each."""
    rows = mini_generations()
    return rows + [{**row, "system": "twin"} for row in rows if row["system"] == "terse"]


def test_compare_prints_a_tie_as_a_tie(tmp_path, mini_plugin, capsys):
    run = make_mini_run(tmp_path, generations=_tied_generations())
    assert cli(["compare", str(run)]) == 0
    out = capsys.readouterr().out
    assert "by precision: terse = twin > complete > hostile" in out
    assert "by F1:        complete > terse = twin > hostile" in out


@pytest.mark.browser
def test_the_report_prints_a_tie_as_a_tie(tmp_path, mini_plugin):
    from tests.browser import require_browser
    from tests.test_report import _browser, open_report

    require_browser()
    run = make_mini_run(tmp_path, generations=_tied_generations())
    driver = _browser(tmp_path)
    try:
        open_report(driver, run / "report.html")
        note = driver.find_element("id", "ranking-note").text
        assert "By precision: terse = twin > complete > hostile." in note
        assert "By F1: complete > terse = twin > hostile." in note
    finally:
        driver.quit()


def test_the_demo_headline_prints_a_tie_as_a_tie(quali, tmp_path, capsys):  # noqa: F811
    """The user's case: quali's complete and terse both have precision 1.000 (rank 1.5)."""
    assert cli(["demo", "quali", "-o", str(tmp_path / "demo")]) == 0
    out = capsys.readouterr().out
    assert "by precision: complete = terse > hasty" in out
    assert "by F1:        complete > hasty > terse" in out
