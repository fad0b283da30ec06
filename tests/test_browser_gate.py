"""Browser tests never pass silently: a loud skip outside CI, a failure with CI=true."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PROBE = """
from tests.browser import require_browser

def test_needs_a_browser():
    require_browser()
"""


def _run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: str | None) -> pytest.RunResult:
    pytester.makeconftest("pytest_plugins = ['tests.browser']")
    pytester.makepyfile(test_probe=PROBE)
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.setenv("FACTCOV_CHROMIUM", str(pytester.path / "no-chromium-here"))
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    return pytester.runpytest_subprocess("-p", "no:cacheprovider")


def test_without_a_browser_outside_ci_the_skip_is_loud(pytester, monkeypatch):
    result = _run(pytester, monkeypatch, None)
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*1 browser tests skipped*", "*report was NOT checked in a browser: no Chromium at*"])


def test_without_a_browser_in_ci_the_test_fails(pytester, monkeypatch):
    result = _run(pytester, monkeypatch, "true")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*CI=true and no Chromium at*"])
