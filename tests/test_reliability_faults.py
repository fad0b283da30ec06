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


def _a_forecast(shared_data: Path) -> Path:
    """A real NWS forecast response, pretty-printed as the API serves it."""
    return sorted((shared_data / "weather" / "forecasts").glob("*.forecast.json"))[0]


def _factcov(args: list[str], cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    code = "import sys; from factcov.cli.app import main; sys.argv[0] = 'factcov'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("pretty", [True, False], ids=["forecast-document", "json-lines"])
def test_weather_build_reads_a_fifo_once(tmp_path, shared_data, pretty):
    """A FIFO was opened twice (once to tell a document from JSON lines, once to read it):
    the second open waited for a writer that had already gone, for ever."""
    import threading

    document = json.loads(_a_forecast(shared_data).read_text(encoding="utf-8"))
    data = json.dumps(document, indent=2) if pretty else json.dumps(document)
    fifo = tmp_path / "forecast.json"
    os.mkfifo(fifo)

    def feed() -> None:
        with fifo.open("w", encoding="utf-8") as handle:
            handle.write(data + "\n")

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done = _factcov(["weather", "build", "-f", str(fifo), "-o", "instances.jsonl", "-q"], tmp_path, timeout=30)
    assert done.returncode == 0, done.stderr
    periods = len(document["properties"]["periods"])
    assert len((tmp_path / "instances.jsonl").read_text().splitlines()) == 3 * periods
