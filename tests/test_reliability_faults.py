"""One test per class of failure the fourth hostile battery found (docs/reliability.md,
"How it is tested"): each failed before its fix. Inputs are the bundled weather demo
(real NWS periods) with one thing changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from factcov.cli.app import run

REPO = Path(__file__).resolve().parents[1]
WEATHER = REPO / "domains" / "weather"


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_a_run_that_fails_while_jobs_workers_write_results_exits_instead_of_hanging():
    """An error in the parent while --jobs workers are sending results back (bad input in
    the last chunk) ended the workers in mid-message; the pool's manager thread then waited
    for the rest of it forever and the command hung after printing its error."""
    probe = textwrap.dedent("""
        from types import SimpleNamespace
        from factcov.parallel import forked_scorer

        def large_result(evaluator, piece):
            return b"x" * (48 * 2**20)  # takes a while to pass through the result pipe

        class Evaluator:
            def prebuild(self, instances):
                pass

        try:
            with forked_scorer(Evaluator(), 2, {"a": 1}, large_result) as score:
                results = score([[(SimpleNamespace(id="a"), None)]] * 8)
                next(results)
                raise ValueError("bad input in the last chunk")
        except ValueError:
            print("raised", flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "raised"
