"""A battery of hostile inputs, one test per class of failure it found.

Each class failed before its fix: a closed pipe under a rich table exited 1 (the gate's
code); an output path that is an input or a device was replaced by the output (the
input lost; as root, /dev/full became a file); ``-o ''`` scored into the current
directory; human-judgment CSVs with a BOM, a 200 KB field or an infinite score were
refused wrongly, crashed (exit 3) or were used; chat options that are not numbers or
not URLs crashed or failed every request slowly; refine against a dead server asked
round after round; a plugin hook's ``sys.exit(0)`` made every command exit 0 unrun;
``--jobs 100000`` started processes without end, ``--jobs 2 --dask`` ignored one.
Real inputs: the weather demo instances and NWS texts, the rag museum answers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import types
from pathlib import Path

import pytest

from factcov.cli.app import run

REPO = Path(__file__).resolve().parents[1]
INSTANCES = REPO / "domains" / "weather" / "demo_instances.jsonl"
NWS = REPO / "domains" / "weather" / "demo_nws.jsonl"
FACTCOV = Path(sys.executable).with_name("factcov")


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err, err
    return err


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Path:
    outdir = tmp_path_factory.mktemp("battery") / "run"
    assert run(["score", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o", str(outdir), "-q",
                "--no-report", "--bootstrap", "50"]) == 0
    return outdir


# --- a closed stdout under rich output -------------------------------------------------


@pytest.mark.parametrize("args", [["domains", "-v"], ["score", "--help"]])
def test_a_rich_table_into_a_closed_pipe_is_141_not_the_gate_code(args):
    # The reader is gone before the first byte is written, so every write meets a closed pipe
    # (with `| head -c 20` a short page can fit the pipe's buffer and never see one).
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([str(FACTCOV), *args], stdout=writer, stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "FACTCOV_PLUGINS": ""})
    finally:
        os.close(writer)
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""


# --- output paths ----------------------------------------------------------------------


def _outputs_over_inputs(tmp_path: Path) -> dict[str, tuple[list[str], Path]]:
    instances = tmp_path / "instances.jsonl"
    generations = tmp_path / "generations.jsonl"
    if tmp_path.is_dir():
        instances.write_bytes(INSTANCES.read_bytes())
        generations.write_bytes(NWS.read_bytes())
    return {
        "extract -o = -i": (["extract", "-d", "weather", "-i", str(instances), "-g", str(generations),
                             "-o", str(instances)], instances),
        "extract -o = -g (another spelling)": (["extract", "-d", "weather", "-i", str(instances), "-g",
                                                str(generations), "-o", str(tmp_path / "." / "generations.jsonl")],
                                               generations),
        "export sft -o = -i": (["export", "sft", "-d", "weather", "-i", str(instances), "-o", str(instances), "-q"],
                               instances),
        "generate -o = -i": (["generate", "-d", "weather", "-i", str(instances), "-m", "m", "--base-url",
                              "http://127.0.0.1:9/v1", "-o", str(instances)], instances),
        "weather build -o = -f (a plugin's command)": (["weather", "build", "-f", str(instances), "-o",
                                                       str(instances), "-q"], instances),
    }


@pytest.mark.parametrize("case", list(_outputs_over_inputs(Path("/nonexistent"))))
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(tmp_path, capsys, case):
    args, victim = _outputs_over_inputs(tmp_path)[case]
    before = victim.read_bytes()
    assert run(args) == 2
    assert "is also an input" in _one_line_error(capsys)
    assert victim.read_bytes() == before


def test_an_output_that_is_a_pipe_or_under_proc_is_refused_and_left_alone(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    base = ["extract", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o"]
    assert run([*base, str(fifo)]) == 2
    assert "not a device, pipe or system path" in _one_line_error(capsys)
    assert fifo.is_fifo()  # not replaced by a regular file
    assert run(["score", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o", "/proc/self", "-q"]) == 2
    assert "not a device, pipe or system path" in _one_line_error(capsys)


@pytest.mark.parametrize("spelling", [["-o", ""], ["--out="], ["-o", "  "]])
def test_an_empty_outdir_is_refused_instead_of_scoring_into_the_current_directory(tmp_path, monkeypatch, capsys,
                                                                                 spelling):
    monkeypatch.chdir(tmp_path)
    assert run(["score", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-q", *spelling]) == 2
    assert "--out is empty" in _one_line_error(capsys)
    assert list(tmp_path.iterdir()) == []


def test_outputs_under_dev_shm_stay_allowed(tmp_path, capsys):
    if not Path("/dev/shm").is_dir():
        pytest.skip("no /dev/shm on this system")
    out = Path("/dev/shm") / f"factcov-battery-{os.getpid()}.jsonl"
    try:
        assert run(["extract", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o", str(out)]) == 0
        assert out.stat().st_size > 0
    finally:
        out.unlink(missing_ok=True)


# --- human judgments and labels (CSV) ---------------------------------------------------


def _judgments(rows: int = 20) -> str:
    ids = [json.loads(line)["id"] for line in INSTANCES.read_text(encoding="utf-8").splitlines()[:rows]]
    return "system,instance_id,criterion,score\n" + "".join(f"nws,{i},c,{k % 5}\n" for k, i in enumerate(ids))


@pytest.mark.slow
def test_a_judgment_csv_with_a_bom_is_read(scored, tmp_path, capsys):
    human = tmp_path / "human.csv"
    human.write_text("\ufeff" + _judgments(), encoding="utf-8")
    assert run(["validate", "human", "--scores", str(scored), "--human", str(human), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("damage", "line"), [("huge-field", 3), ("inf", 2), ("1e400", 2), ("9" * 400, 2)])
def test_a_judgment_csv_that_cannot_be_used_is_exit_2_naming_its_line(scored, tmp_path, capsys, damage, line):
    lines = _judgments().splitlines()
    if damage == "huge-field":  # an unclosed quote reads on to the end: past csv's field limit
        lines.insert(2, 'nws,"' + "x" * 200_000)
    else:
        lines[1] = lines[1].rsplit(",", 1)[0] + "," + damage
    text = "\n".join(lines) + "\n"
    human = tmp_path / "human.csv"
    human.write_text(text, encoding="utf-8")
    assert run(["validate", "human", "--scores", str(scored), "--human", str(human)]) == 2
    err = _one_line_error(capsys)
    assert f"{human}:{line}" in err


# --- the loop commands: chat options and a dead server ----------------------------------


@pytest.mark.parametrize(("option", "value", "named"), [
    ("--temperature", "nan", "--temperature"), ("--temperature", "-1", "--temperature"),
    ("--timeout", "inf", "--timeout"), ("--base-url", "file:///etc/passwd", "--base-url"),
    ("--base-url", "not a url", "--base-url"), ("--base-url", "http://h:port/v1", "--base-url"),
    ("--concurrency", str(10**9), "--concurrency"), ("--retries", str(10**9), "--retries"),
])
def test_chat_options_that_cannot_work_are_usage_errors(tmp_path, capsys, option, value, named):
    args = ["generate", "-d", "weather", "-i", str(INSTANCES), "-m", "m", "-o", str(tmp_path / "g.jsonl"),
            "--base-url", "http://127.0.0.1:9/v1", option, value]
    assert run(args) == 2
    assert named in _one_line_error(capsys)
    assert not (tmp_path / "g.jsonl").exists()


def _closed_port() -> int:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        return listener.getsockname()[1]


def test_refine_against_a_dead_server_stops_after_one_unanswered_round_with_exit_3(tmp_path, capsys):
    generations = tmp_path / "gens.jsonl"
    ids = [json.loads(line)["id"] for line in INSTANCES.read_text(encoding="utf-8").splitlines()[:3]]
    generations.write_text("".join(json.dumps({"instance_id": i, "system": "s", "text": "Sunny."}) + "\n"
                                   for i in ids), encoding="utf-8")
    instances = tmp_path / "instances.jsonl"
    instances.write_text("".join(INSTANCES.read_text(encoding="utf-8").splitlines(keepends=True)[:3]),
                         encoding="utf-8")
    out = tmp_path / "refined"
    code = run(["refine", "-d", "weather", "-i", str(instances), "-g", str(generations), "-m", "m", "--base-url",
                f"http://127.0.0.1:{_closed_port()}/v1", "--rounds", "100", "--retries", "1", "--timeout", "1",
                "--no-cache", "--no-report", "-q", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 3, err
    assert "answered nothing in round 1" in err and err.count("\n") == 1
    assert sorted(p.name for p in out.iterdir()) == ["round-0", "round-1", "rounds.csv"]


@pytest.mark.parametrize(("args", "named"), [
    (["refine", "--rounds", "101"], "--rounds"),
    (["score", "--jobs", "100000"], "--jobs"),
    (["score", "--jobs", "2", "--dask", "local"], "--dask"),
    (["export", "sft", "--seed", "-1"], "--seed"),
    (["validate", "errors", "--misses", "-1"], "--misses"),
])
def test_options_without_bounds_or_in_conflict_are_usage_errors(tmp_path, capsys, args, named):
    given = {
        "refine": ["-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-m", "m", "--base-url",
                   "http://127.0.0.1:9/v1", "-o", str(tmp_path / "r")],
        "score": ["-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o", str(tmp_path / "s"), "-q"],
        "export": ["-d", "weather", "-i", str(INSTANCES), "-o", str(tmp_path / "e.jsonl")],
        "validate": ["-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "--gold", str(NWS)],
    }[args[0]]
    assert run([*args, *given]) == 2
    assert named in _one_line_error(capsys)
    assert list(tmp_path.iterdir()) == []


# --- configuration files ----------------------------------------------------------------


@pytest.mark.parametrize(("name", "content", "code", "message"), [
    ("factcov.toml", "\ufeff[score]\nbootstrap = 10\n", 0, None),
    ("factcov.toml", None, 2, "is not a regular file"),
    ("pyproject.toml", "[tool.factcov.scor]\nseed = 1\n", 2, "unknown table(s) tool.factcov.scor"),
])
def test_config_files_with_a_bom_a_folder_or_a_misspelled_table(tmp_path, monkeypatch, capsys, name, content, code,
                                                                 message):
    monkeypatch.chdir(tmp_path)
    if content is None:
        (tmp_path / name).mkdir()
    else:
        (tmp_path / name).write_text(content, encoding="utf-8")
    assert run(["score", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o", str(tmp_path / "out"), "-q",
                "--no-report"]) == code
    if message:
        assert message in _one_line_error(capsys)
        assert not (tmp_path / "out").exists()


# --- plugins -------------------------------------------------------------------------------


@pytest.mark.parametrize("hook", ["register_commands", "register_domains"])
def test_a_plugin_hook_that_calls_sys_exit_is_skipped_not_obeyed(tmp_path, capsys, hook):
    from factcov.hookspecs import hookimpl
    from factcov.plugins import register_plugin, reset, unregister_plugin

    module = types.ModuleType("exits_in_a_hook")
    implementation = {"register_commands": lambda app: sys.exit(0), "register_domains": lambda register: sys.exit(0)}
    setattr(module, hook, hookimpl(implementation[hook]))
    register_plugin(module, "exits_in_a_hook")
    reset()
    try:
        with pytest.warns(RuntimeWarning, match="exits_in_a_hook"):
            code = run(["score", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o", str(tmp_path / "o"),
                        "-q", "--no-report", "--bootstrap", "10"])
    finally:
        unregister_plugin("exits_in_a_hook")
        reset()
    assert code == 0
    assert (tmp_path / "o" / "summary.json").is_file()  # the run ran; the plugin's exit did not end it


# --- rag answers ---------------------------------------------------------------------------


MUSEUM = REPO / "domains" / "rag" / "museum.jsonl"


@pytest.mark.parametrize(("change", "field"), [
    ({"citations": [{"sentence": True, "context_id": "site-2025"}]}, "citations.0.sentence"),
    ({"citations": [{"sentence": 0.5, "context_id": "site-2025"}]}, "citations.0.sentence"),
    ({"contexts": "retrieved-as-yes"}, "contexts.0.retrieved"),
])
def test_rag_answers_are_not_coerced_into_meaning(tmp_path, capsys, change, field):
    answers = [json.loads(line) for line in MUSEUM.read_text(encoding="utf-8").splitlines()[:2]]
    if change.get("contexts") == "retrieved-as-yes":
        answers[1]["contexts"][0]["retrieved"] = "yes"
    else:
        answers[1].update(change)
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in answers), encoding="utf-8")
    assert run(["rag", "score", "-i", str(path), "-o", str(tmp_path / "out"), "-q"]) == 2
    assert f"{path}:2: field '{field}'" in _one_line_error(capsys)


def test_a_citation_past_the_answer_names_the_answer_line(tmp_path, capsys):
    answers = [json.loads(line) for line in MUSEUM.read_text(encoding="utf-8").splitlines()[:3]]
    answers[2]["citations"] = [{"sentence": 99, "context_id": answers[2]["contexts"][0]["id"]}]
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in answers), encoding="utf-8")
    assert run(["rag", "score", "-i", str(path), "-o", str(tmp_path / "out"), "-q"]) == 2
    assert f"{path}:3: field 'citations.0.sentence'" in _one_line_error(capsys)
