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


def _weather_inputs(tmp_path: Path, generation: dict | None = None) -> tuple[Path, Path]:
    instance = json.loads((WEATHER / "demo_instances.jsonl").read_text(encoding="utf-8").splitlines()[0])
    generation = generation or {"instance_id": instance["id"], "system": "s", "text": "Sunny, with a high near 31."}
    instances = tmp_path / "instances.jsonl"
    instances.write_text(json.dumps(instance) + "\n", encoding="utf-8")
    generations = tmp_path / "generations.jsonl"
    generations.write_text(json.dumps(generation, ensure_ascii=False) + "\n", encoding="utf-8")
    return instances, generations


def test_a_symlink_loop_given_as_outdir_is_a_usage_error(tmp_path, capsys):
    """Python 3.11 reports a loop while resolving a path as RuntimeError: it was exit 3,
    'internal error … report it'."""
    instances, generations = _weather_inputs(tmp_path)
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    code = run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "a"), "-q"])
    line = _one_line_error(capsys)
    assert code == 2, line
    assert "symlink loop" in line and str(tmp_path / "a") in line


def test_file_names_that_are_not_utf8(tmp_path, capsys):
    """A name of bytes that are not UTF-8 (Python holds them as lone surrogates): as an
    input it is recorded in summary.json with \\xNN escapes (writing it failed after the whole
    run, exit 3); as an output it is refused before anything runs (Parquet cannot open it)."""
    instances, generations = _weather_inputs(tmp_path)
    odd = tmp_path / os.fsdecode(b"gens-\xff.jsonl")
    generations.rename(odd)
    out = tmp_path / "out"
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(odd), "-o", str(out), "-q"]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["inputs"]["generations"] == "gens-\\xff.jsonl"
    capsys.readouterr()
    bad_out = tmp_path / os.fsdecode(b"out-\xfe")
    code = run(["score", "-d", "weather", "-i", str(instances), "-g", str(odd), "-o", str(bad_out), "-q"])
    line = _one_line_error(capsys)
    assert code == 2 and "--out is not a UTF-8 name" in line and "out-\\xfe" in line
    assert not bad_out.exists()


def test_two_outputs_of_one_command_naming_the_same_file_are_refused(tmp_path, capsys):
    """`weather build -o x --nws-generations x` wrote the instances, then the generations over them."""
    forecast = tmp_path / "periods.jsonl"
    forecast.write_text(json.dumps(
        {"name": "Tonight", "temperature": 31, "temperatureUnit": "F", "windSpeed": "10 mph",
         "windDirection": "E", "shortForecast": "Cloudy", "detailedForecast": "Cloudy, with a low around 31."}) + "\n")
    target = tmp_path / "sub" / ".." / "both.jsonl"
    (tmp_path / "sub").mkdir()
    code = run(["weather", "build", "-f", str(forecast), "-o", str(tmp_path / "both.jsonl"),
                "--nws-generations", str(target), "-q"])
    line = _one_line_error(capsys)
    assert code == 2 and "name the same file" in line
    assert not (tmp_path / "both.jsonl").exists()


@pytest.mark.slow
def test_error_lines_show_control_characters_escaped_and_stay_short(tmp_path, capsys):
    """Values quoted from the input reached the terminal raw (an ESC sequence recoloured
    it) and whole (a 900,000-character id made a megabyte-long line)."""
    instances, generations = _weather_inputs(tmp_path, {"instance_id": "\x1b[31mred\x1b]0;title\x07", "system": "s",
                                                        "text": "Sunny."})
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "o")]) == 2
    line = _one_line_error(capsys)
    assert "\x1b" not in line and "\x07" not in line
    assert "\\x1b[31mred\\x1b]0;title\\x07" in line
    instances, generations = _weather_inputs(tmp_path, {"instance_id": "z" * 900_000, "system": "s", "text": "Sunny."})
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "o")]) == 2
    line = _one_line_error(capsys)
    assert len(line) < 2200
    assert f"{generations}:1: field 'instance_id'" in line and line.endswith("is not among the 1 instances")


@pytest.mark.parametrize("reference, format_line, field", [
    ([1], None, "context.x"),  # an unhashable block id: TypeError, exit 3
    ("b", {"factcov_instances": True}, "factcov_instances"),  # true was read as format 1
])
def test_instance_file_block_references_and_format_are_strict(tmp_path, capsys, reference, format_line, field):
    instance = json.loads((WEATHER / "demo_instances.jsonl").read_text(encoding="utf-8").splitlines()[0])
    lines = [format_line or {"factcov_instances": 2}, {"block": "b", "value": {"k": 1}},
             {**instance, "context": {**instance["context"], "x": {"$block": reference}}}]
    _, generations = _weather_inputs(tmp_path)
    instances = tmp_path / "blocks.jsonl"
    instances.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    code = run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "o")])
    line = _one_line_error(capsys)
    assert code == 2 and f"field '{field}'" in line and str(instances) in line


@pytest.mark.parametrize("args, named", [
    (["--retries", "1000000000"], "--retries must be 0 to 100"),  # backed off for minutes, then OverflowError (exit 3)
    (["--user-agent", "me\r\nX-Injected: 1"], "--user-agent must be one line"),  # ValueError from http.client (exit 3)
])
def test_weather_fetch_options_that_cannot_work_are_usage_errors(capsys, args, named):
    code = run(["weather", "fetch", "--lat", "40", "--lon", "-75", "--base-url", "http://127.0.0.1:9", *args])
    line = _one_line_error(capsys)
    assert code == 2 and named in line


def test_a_dask_address_that_is_not_an_address_is_a_usage_error(tmp_path, capsys):
    pytest.importorskip("dask.distributed", reason="needs the dask extra: .ci/run installs it for the pandas-2 run (factcov[all]), not for the pandas-3 run")
    instances, generations = _weather_inputs(tmp_path)
    code = run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "o"),
                "-q", "--dask", "not an address"])
    line = _one_line_error(capsys)
    assert code == 2 and "--dask" in line


@pytest.mark.parametrize("content, field", [
    ("[score]\nbootstrap = true\n", "score.bootstrap"),  # read as 1 resample
    ('[score]\nbootstrap = "10"\n', "score.bootstrap"),  # read as 10
    ("[score]\nbootstrap = 100000000000\n", "score.bootstrap"),  # refused without naming the file
    ("[score]\nseed = -5\n", "score.seed"),
    ("[score]\nweights = { temperature = inf }\n", "score.weights.temperature"),
    ('[rag]\nn_process = "4"\n', "rag.n_process"),
])
def test_config_values_are_taken_as_typed_and_named_with_their_file(tmp_path, monkeypatch, capsys, content, field):
    instances, generations = _weather_inputs(tmp_path)
    (tmp_path / "factcov.toml").write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    command = (["rag", "score", "-i", str(REPO / "domains" / "rag" / "museum.jsonl")] if field.startswith("rag")
               else ["score", "-d", "weather", "-i", str(instances), "-g", str(generations)])
    assert run([*command, "-o", str(tmp_path / "o"), "-q", "--no-report"]) == 2
    line = _one_line_error(capsys)
    assert f"factcov.toml: field '{field}'" in line


def test_a_config_file_that_is_a_symlink_loop_is_not_ignored(tmp_path, monkeypatch, capsys):
    instances, generations = _weather_inputs(tmp_path)
    (tmp_path / "x").symlink_to(tmp_path / "y")
    (tmp_path / "y").symlink_to(tmp_path / "x")
    (tmp_path / "factcov.toml").symlink_to(tmp_path / "x")
    monkeypatch.chdir(tmp_path)
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", "o", "-q"]) == 2
    assert "factcov.toml: is not a regular file" in _one_line_error(capsys)


def test_judgments_from_a_pipe_are_refused_as_a_pipe_not_as_missing(tmp_path, capsys):
    """`validate human --human <(…)` said 'no such file' for a file that was there."""
    fifo = tmp_path / "judgments.csv"
    os.mkfifo(fifo)
    run_dir = tmp_path / "run"
    instances, generations = _weather_inputs(tmp_path)
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", str(run_dir), "-q",
                "--no-report"]) == 0
    capsys.readouterr()
    assert run(["validate", "human", "--scores", str(run_dir), "--human", str(fifo)]) == 2
    line = _one_line_error(capsys)
    assert "is not a regular file" in line and str(fifo) in line


@pytest.mark.parametrize("content", [b'garbage\n{"partial": ', b"\xff\xfe\n{", b"[" * 5000 + b"]" * 5000 + b"\n{"],
                         ids=["not-json", "not-utf8", "deep"])
def test_generate_refuses_a_file_that_is_not_its_own_without_cutting_it(tmp_path, capsys, content):
    """Resuming cut the torn last line of any file given as -o, then found it was not a
    factcov output: the user's bytes were gone. A deep line was a RecursionError naming no file."""
    instances, _ = _weather_inputs(tmp_path)
    out = tmp_path / "mine.jsonl"
    out.write_bytes(content)
    code = run(["generate", "-d", "weather", "-i", str(instances), "-m", "m", "-o", str(out), "-q",
                "--base-url", "http://127.0.0.1:9/v1", "--retries", "1", "--no-cache"])
    line = _one_line_error(capsys)
    assert code == 2 and f"{out}:1:" in line and "not a resumable output" in line
    assert out.read_bytes() == content


def test_ctrl_c_during_a_command_says_it_was_interrupted(tmp_path, monkeypatch, capsys):
    """typer turns a KeyboardInterrupt inside a command into Exit(130), which the command
    line returned as a value: exit 130 with nothing on stderr."""
    import factcov.runner

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(factcov.runner, "score_files", interrupted)
    instances, generations = _weather_inputs(tmp_path)
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "o")]) == 130
    assert "interrupted; outputs already in place are unchanged" in _one_line_error(capsys)


@pytest.mark.parametrize("option", [
    ["--jobs", "100000"],  # forked that many processes (no upper bound, unlike `score --jobs`)
    ["--rounds", ","],  # no round named: built every round, as if the option were not given
    ["--rounds", ""],
    ["--seasons", " , "],
])
def test_f1_build_refuses_options_out_of_range_before_any_work(tmp_path, capsys, shared_data, option):
    out = tmp_path / "f1.jsonl"
    code = run(["f1", "build", "--laps", str(shared_data / "f1" / "laps" / "2021.csv.gz"),
                "--ergast", str(shared_data / "f1" / "ergast"), "-o", str(out), "-q", *option])
    line = _one_line_error(capsys)
    assert code == 2, line
    assert option[0] in line
    assert not out.exists()


@pytest.mark.parametrize(("field", "value", "code"), [
    ("startTime", 5, 2), ("endTime", {"t": 1}, 2), ("startTime", ["2024-06-20"], 2),
    ("startTime", "date:now -527 seconds", 0),  # as recorded forecasts (../shared/data) write it
    ("startTime", "2024-06-20T18:00:00-05:00", 0), ("endTime", None, 0),
])
def test_weather_build_takes_a_period_time_only_as_a_string(tmp_path, capsys, field, value, code):
    """A period's time went into the instance as given (a number, an object)."""
    forecast = tmp_path / "periods.jsonl"
    forecast.write_text(json.dumps(
        {"name": "Tonight", field: value, "temperature": 31, "temperatureUnit": "F", "windSpeed": "10 mph",
         "windDirection": "E", "shortForecast": "Cloudy", "detailedForecast": "Cloudy, with a low around 31."}) + "\n")
    assert run(["weather", "build", "-f", str(forecast), "-o", str(tmp_path / "w.jsonl"), "-q"]) == code
    if code:
        line = _one_line_error(capsys)
        assert f"field '{field}'" in line and "periods.jsonl:1" in line
        assert not (tmp_path / "w.jsonl").exists()
