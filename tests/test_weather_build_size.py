"""`weather build` on the whole corpus (issue 29): --limit, --sample, a size estimate up front,
and progress on stderr when it is not a terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factcov import progress as progress_counter
from factcov.cli.app import run
from factcov.domains.weather import building


def _ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines() if '"id"' in line]


def test_limit_stops_after_that_many_periods_of_the_whole_corpus(shared_data, tmp_path, capsys):
    out = tmp_path / "w.jsonl"
    code = run(["weather", "build", "-f", str(shared_data / "weather" / "nws_periods.jsonl.gz"), "--limit", "40",
                "-o", str(out)])
    assert code == 0
    assert len(_ids(out)) == 40 * 3
    assert "wrote 120 instances of 40 periods" in capsys.readouterr().out


def test_sample_keeps_the_same_fraction_on_every_run(shared_data, tmp_path):
    forecasts = str(shared_data / "weather" / "forecasts")
    everything, half, again = tmp_path / "all.jsonl", tmp_path / "half.jsonl", tmp_path / "again.jsonl"
    assert run(["weather", "build", "-f", forecasts, "-l", "en", "-o", str(everything), "-q"]) == 0
    assert run(["weather", "build", "-f", forecasts, "-l", "en", "--sample", "0.5", "-o", str(half), "-q"]) == 0
    assert run(["weather", "build", "-f", forecasts, "-l", "en", "--sample", "0.5", "-o", str(again), "-q"]) == 0
    kept, every = _ids(half), _ids(everything)
    assert kept == _ids(again) and set(kept) < set(every)
    assert 0.35 < len(kept) / len(every) < 0.65
    assert [i for i in every if i in set(kept)] == kept  # in input order


@pytest.mark.parametrize("bad", [["--sample", "0"], ["--sample", "1.5"], ["--limit", "0"]])
def test_a_bad_limit_or_sample_is_a_usage_error(shared_data, tmp_path, bad):
    out = tmp_path / "w.jsonl"
    assert run(["weather", "build", "-f", str(shared_data / "weather" / "forecasts"), *bad, "-o", str(out), "-q"]) == 2
    assert not out.exists()


def test_the_size_of_the_whole_corpus_is_estimated_up_front(shared_data, tmp_path, capsys, monkeypatch):
    """The user's case: 977,064 periods, 2.4 GB, said before the long work, with the way out."""
    monkeypatch.setattr(building, "ESTIMATE_AFTER", 20)
    seen = []

    def stop_after_the_estimate(line):
        seen.append(line)
        raise KeyboardInterrupt  # the user reads the estimate and stops: nothing is left behind

    out = tmp_path / "w.jsonl"
    with pytest.raises(KeyboardInterrupt):
        building.build_instances([shared_data / "weather" / "nws_periods.jsonl.gz"], ("en", "es", "pt"), out,
                                 say=stop_after_the_estimate)
    (line,) = seen
    assert "up to 977,064 periods → 2,931,192 instances" in line and "--sample" in line
    gigabytes = float(line.split("instances, ")[1].split(" GB")[0])
    assert 1.5 < gigabytes < 4  # 2.4 GB when the issue was filed
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_progress_is_a_plain_line_on_stderr_when_not_a_terminal(shared_data, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(progress_counter, "PLAIN_EVERY_S", 0.0)
    out = tmp_path / "w.jsonl"
    assert run(["weather", "build", "-f", str(shared_data / "weather" / "nws_periods.jsonl.gz"), "--limit", "30",
                "-o", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    size = round(out.stat().st_size / 1e3)  # a build ended by --limit: the estimate is the size
    assert [line for line in err if "up to" in line] == [f"weather build: up to 30 periods → 90 instances, {size} kB"]
    counted = [line for line in err if line.startswith("weather build: ") and line.endswith("s)")]
    assert counted[0].startswith("weather build: 1 periods (") and counted[-1].startswith("weather build: 30 periods (")
    assert run(["weather", "build", "-f", str(shared_data / "weather" / "nws_periods.jsonl.gz"), "--limit", "30",
                "-o", str(out), "-q"]) == 0
    assert capsys.readouterr().err == ""
