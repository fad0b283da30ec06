"""Long tests (fault injection with kill -9, trained stanza models, whole-corpus checks) run in CI
and on request, not in a developer's default run.

A test marked ``slow`` is deselected unless ``--run-slow`` is given or ``CI=true`` (CI runs the
README's test command as it is, so it runs every test). The summary says how many were left out
and how to run them, so a green default run never passes for the whole suite.
"""

from __future__ import annotations

import pytest

from tests.browser import in_ci

RUN_SLOW = "--run-slow"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(RUN_SLOW, action="store_true", help="also run the tests marked slow (CI=true does)")


def runs_slow(config: pytest.Config) -> bool:
    return bool(config.getoption(RUN_SLOW)) or in_ci()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if runs_slow(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if not slow:
        return
    config.hook.pytest_deselected(items=slow)
    items[:] = [item for item in items if item.get_closest_marker("slow") is None]
    config.stash[_LEFT_OUT] = len(slow)


_LEFT_OUT = pytest.StashKey[int]()


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:  # type: ignore[no-untyped-def]
    left_out = config.stash.get(_LEFT_OUT, 0)
    if left_out:
        terminalreporter.write_line(
            f"{left_out} slow tests not run (fault injection, trained models, whole-corpus checks): "
            f"add {RUN_SLOW} to run them; CI (CI=true) runs every test.", yellow=True)
