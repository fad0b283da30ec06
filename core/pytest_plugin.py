"""pytest plugin (entry point ``pytest11``, installed with factcov): gate a test suite on
factcov scores, the way DeepEval users gate on theirs.

    from factcov.pytest_plugin import assert_scores

    def test_my_model_explains_strategies(factcov_domain):
        instances = factcov_domain("f1").example_instances()
        assert_scores([(instance, my_model(instance.prompt)) for instance in instances], f1=0.8)

``assert_scores(run_or_texts, f1=..., precision=..., recall=..., weighted_f1=...)`` scores
texts (or reads a run) and fails when a system is below a threshold; thresholds not given
come from ``[thresholds]`` in the project's ``factcov.toml``. A failure lists the worst
claims (contradicted, then unverifiable) and the facts missed; pytest's terminal summary
gets a "factcov scores" section with every check. Heavy imports wait for the first call,
so the plugin costs nothing to test suites that do not use it. See docs/api.md.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

THRESHOLD_FILE = "factcov.toml"
METRICS = ("precision", "recall", "f1", "weighted_f1")


@dataclass
class ScoreCheck:
    """One call of ``assert_scores``: the scores of each system against the thresholds."""

    label: str
    thresholds: dict[str, float]
    systems: dict[str, dict[str, float | None]]
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


_checks: list[ScoreCheck] = []  # every check of the session, for the terminal summary


def find_thresholds(start: str | Path) -> dict[str, float]:
    """``[thresholds]`` of the nearest factcov.toml at ``start`` or above it; {} if none."""
    from factcov.errors import InputError

    for folder in (Path(start).resolve(), *Path(start).resolve().parents):
        path = folder / THRESHOLD_FILE
        if path.is_file():
            try:
                table = tomllib.loads(path.read_text(encoding="utf-8")).get("thresholds", {})
            except tomllib.TOMLDecodeError as exc:
                raise InputError(f"not valid TOML: {exc}", path=path) from None
            if not isinstance(table, dict):
                raise InputError("[thresholds] is a table: metric = number", path=path, field="thresholds")
            unknown = sorted(set(table) - set(METRICS))
            if unknown:
                raise InputError(f"unknown metric {unknown[0]!r}; thresholds take {', '.join(METRICS)}",
                                 path=path, field=f"thresholds.{unknown[0]}")
            bad = [k for k, v in table.items() if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 1]
            if bad:
                raise InputError("a threshold is a number from 0 to 1", path=path, field=f"thresholds.{bad[0]}")
            return {k: float(v) for k, v in table.items()}
    return {}


def _number(value: Any) -> float | None:
    """A metric as a float; None when undefined (None or NaN)."""
    return None if value is None or value != value else float(value)


def _as_run(run_or_texts: Any) -> Any:
    """A Run, a TextRun, an OUTDIR path, or texts to score in memory."""
    from factcov.api import TextRun, load, score_texts
    from factcov.compare import Run

    if isinstance(run_or_texts, Run | TextRun):
        return run_or_texts
    if isinstance(run_or_texts, str | Path):
        return load(run_or_texts)
    return score_texts(run_or_texts)


def _worst(run: Any, system: str, limit: int) -> list[str]:
    """The claims that cost the most (contradicted, then unverifiable) and the facts missed."""
    lines = []
    claims = run.claims
    if not claims.empty:
        mine = claims[claims["system"] == system]
        for verdict in ("contradicted", "unverifiable"):
            for row in mine[mine["verdict"] == verdict].head(limit).itertuples():
                expected = f", the data says {row.expected}" if verdict == "contradicted" else ""
                lines.append(f"  {verdict}: {row.type}{row.key} = {row.value} in {row.instance_id}: "
                             f"{row.text!r}{expected}")
    scores = run.scores[run.scores["system"] == system]
    missed = [(row.instance_id, fact) for row in scores.itertuples() for fact in json.loads(row.missed or "[]")]
    for instance_id, fact in missed[:limit]:
        lines.append(f"  missed: {fact['type']}{json.dumps(fact['key'], ensure_ascii=False)} = "
                     f"{json.dumps(fact['value'], ensure_ascii=False)} in {instance_id}")
    if len(missed) > limit:
        lines.append(f"  ... and {len(missed) - limit} more facts missed")
    return lines


def check_scores(run_or_texts: Any, *, f1: float | None = None, precision: float | None = None,
                 recall: float | None = None, weighted_f1: float | None = None, system: str | None = None,
                 thresholds_from: str | Path = ".", label: str | None = None, worst: int = 5) -> ScoreCheck:
    """Score and compare with the thresholds; the check, not raising (``assert_scores`` raises)."""
    given = {"precision": precision, "recall": recall, "f1": f1, "weighted_f1": weighted_f1}
    thresholds = {**find_thresholds(thresholds_from), **{k: v for k, v in given.items() if v is not None}}
    if not thresholds:
        from factcov.errors import InputError

        raise InputError(f"assert_scores needs a threshold: f1=, precision=, recall= or [thresholds] in {THRESHOLD_FILE}")
    run = _as_run(run_or_texts)
    table = run.systems
    if system is not None:
        table = table[table["system"] == system]
        if table.empty:
            from factcov.errors import UnknownNameError

            raise UnknownNameError("system of this run", system, [str(s) for s in run.systems["system"]])
    current = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]  # the running test's id
    check = ScoreCheck(label or current or "scores", thresholds, {})
    for row in table.to_dict("records"):
        values = {m: _number(row.get(m, row.get(f"macro_{m}"))) for m in METRICS}  # weighted_f1: a macro mean
        check.systems[str(row["system"])] = values
        below = [f"{m} {'undefined' if values[m] is None else f'{values[m]:.3f}'} < {t:.3f}"
                 for m, t in thresholds.items() if values[m] is None or values[m] < t]
        if below:
            check.failures.append(f"system '{row['system']}': {', '.join(below)}")
            check.failures.extend(_worst(run, str(row["system"]), worst))
    return check


def assert_scores(run_or_texts: Any, *, f1: float | None = None, precision: float | None = None,
                  recall: float | None = None, weighted_f1: float | None = None, system: str | None = None,
                  thresholds_from: str | Path = ".", label: str | None = None, worst: int = 5) -> ScoreCheck:
    """Fail (AssertionError) when a system's score is below a threshold, listing the worst claims.

    The failure is the message alone (``__tracebackhide__``): which system, metric, value
    and threshold, then the claims that cost the most; none of factcov's own source."""
    __tracebackhide__ = True
    check = check_scores(run_or_texts, f1=f1, precision=precision, recall=recall, weighted_f1=weighted_f1,
                         system=system, thresholds_from=thresholds_from, label=label, worst=worst)
    _checks.append(check)
    if not check.passed:
        raise AssertionError("factcov scores below the thresholds:\n" + "\n".join(check.failures))
    return check


# --- the pytest side -----------------------------------------------------------------------


@pytest.fixture
def factcov_thresholds(request: pytest.FixtureRequest) -> dict[str, float]:
    """The ``[thresholds]`` of the factcov.toml nearest above the test file."""
    return find_thresholds(request.path.parent)


@pytest.fixture
def factcov_assert_scores(request: pytest.FixtureRequest) -> Callable[..., ScoreCheck]:
    """``assert_scores`` with the thresholds of the factcov.toml nearest above the test file."""
    folder = request.path.parent

    def bound(run_or_texts: Any, **options: Any) -> ScoreCheck:
        __tracebackhide__ = True
        options.setdefault("thresholds_from", folder)
        options.setdefault("label", request.node.nodeid)
        return assert_scores(run_or_texts, **options)

    return bound


@pytest.fixture
def factcov_score_texts() -> Callable[..., Any]:
    """``factcov.api.score_texts``: (instance, text) pairs -> systems, claims and scores DataFrames."""
    from factcov.api import score_texts

    return score_texts


@pytest.fixture
def factcov_domain() -> Callable[[str], Any]:
    """A domain by name (``factcov_domain("f1").example_instances()`` for instances to test on)."""
    from factcov.plugins import get_domain

    return get_domain


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _checks:
        return
    terminalreporter.section("factcov scores")
    for check in _checks:
        limits = ", ".join(f"{m}>={t:g}" for m, t in check.thresholds.items())
        for system, values in check.systems.items():
            status = "FAIL" if any(f.startswith(f"system '{system}'") for f in check.failures) else "ok"
            numbers = " ".join(f"{m} {'-' if values[m] is None else f'{values[m]:.3f}'}"
                               for m in ("precision", "recall", "f1"))
            terminalreporter.write_line(f"{status:4} {check.label} [{system}]: {numbers} ({limits})",
                                        red=status == "FAIL", green=status == "ok")
    _checks.clear()
