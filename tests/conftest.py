"""Shared fixtures: the real data beside the project, and isolation from installed plugins."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"

# A developer's own installed plugins must not change results: load only built-ins
# unless a test opts in (tests that need an entry point set FACTCOV_PLUGINS themselves).
os.environ.setdefault("FACTCOV_PLUGINS", "")

# compile_fast keeps programs on disk between runs: the tests' go to a folder of this run
# (set before xdist starts its workers, which inherit it), never the developer's ~/.cache
if "FACTCOV_CACHE_DIR" not in os.environ:
    os.environ["FACTCOV_CACHE_DIR"] = tempfile.mkdtemp(prefix="factcov-test-cache-")

pytest_plugins = ["pytester", "tests.browser", "tests.slow"]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(f"the real data is expected at {SHARED_DATA} (see README: Data)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture
def mini_plugin():
    """Register the tiny test domain for one test and always unregister it."""
    from factcov.plugins import register_plugin, unregister_plugin
    from tests import mini_domain

    register_plugin(mini_domain, "mini")
    try:
        yield mini_domain
    finally:
        unregister_plugin("mini")
