"""Headless Chromium for the report's browser tests: found, or a loud skip, or (CI=true) a failure.

A user who runs the suite without Chromium must not see green and believe the report was
tested: every skipped browser test says why, and the terminal summary ends with a section
saying the report was not checked in a browser. In CI a missing browser fails the test.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("FACTCOV_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("FACTCOV_CHROMEDRIVER", "/usr/bin/chromedriver"))
NOT_TESTED = "BROWSER NOT TESTED"
INSTALL = "apt-get install chromium chromium-driver (Debian), then pip install -e '.[browser]'"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM}"
    if not CHROMEDRIVER.exists() and shutil.which("chromedriver") is None:
        return f"no chromedriver at {CHROMEDRIVER} nor on PATH"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (the [browser] extra)"
    return None


def require_browser() -> None:
    reason = missing()
    if reason is None:
        return
    if in_ci():
        pytest.fail(f"CI=true and {reason}: the report must be tested in a browser in CI ({INSTALL})", pytrace=False)
    pytest.skip(f"{NOT_TESTED}: {reason}; install with: {INSTALL}")


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if NOT_TESTED in str(r.longrepr)]
    if not skipped:
        return
    terminalreporter.section(f"{len(skipped)} browser tests skipped", sep="!", red=True, bold=True)
    terminalreporter.write_line(
        f"The HTML report was NOT checked in a browser: {missing()}. Install with: {INSTALL}. "
        "With CI=true a missing browser fails the suite.", red=True, bold=True)
