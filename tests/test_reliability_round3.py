"""One test per class of failure the third reliability round (issue 31) and the new-user
round (issue 29, item 1) found; each failed before its fix. Inputs are the bundled
weather demo (real NWS periods) and the real f1 lap tables, with one thing changed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factcov import temporaries
from factcov.cli.app import run
from tests.test_reliability_faults import _one_line_error

REPO = Path(__file__).resolve().parents[1]
WEATHER = REPO / "domains" / "weather"
INSTANCES = WEATHER / "demo_instances.jsonl"
NWS = WEATHER / "demo_nws.jsonl"
DEAD_PID = 2**22 + 4321  # above pid_max's usual default: no process has it


def _score(out: Path, *extra: str) -> list[str]:
    return ["score", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o", str(out), "-q", *extra]


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- the stale-temporary sweep deletes only what a factcov run provably left ---------------

def _users_lookalikes(folder: Path) -> dict[str, bytes]:
    """Files a user may well keep, named like the old temporaries and staging folders."""
    (folder / ".notes.2023.jan.tmp").write_text("my notes")
    (folder / f".claims.parquet.{DEAD_PID}.abc.tmp").write_text("an old-style name, mine")
    keep = folder / f".out.staging-{DEAD_PID}-keep"
    keep.mkdir()
    (keep / "draft.md").write_text("mine too")
    (folder / f".out.staging-factcov-{temporaries.writer_tag()}-{DEAD_PID}-abcdefgh").mkdir()  # no marker
    return _tree(folder)


def test_the_sweep_leaves_a_users_files_that_look_like_temporaries(tmp_path):
    before = _users_lookalikes(tmp_path)
    out = tmp_path / "out"
    assert run(_score(out, "--no-report")) == 0
    assert run(["extract", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o",
                str(tmp_path / "claims.jsonl")]) == 0
    after = _tree(tmp_path)
    assert {k: v for k, v in after.items() if k in before} == before
    assert (tmp_path / f".out.staging-factcov-{temporaries.writer_tag()}-{DEAD_PID}-abcdefgh").is_dir()


def test_the_sweep_keeps_temporaries_of_other_namespaces_and_of_live_lock_holders(tmp_path):
    """A PID means nothing in another PID namespace (a second container on a shared
    volume): its temporaries are never judged by it. A temporary whose lock is held by a
    live process is kept whatever its PID says."""
    other_tag = "0123456789"
    assert other_tag != temporaries.writer_tag()
    foreign = tmp_path / f".claims.jsonl.factcov-{other_tag}-{DEAD_PID}-aaaaaaaa.tmp"
    foreign.write_text("being written in another container")
    held = tmp_path / f".claims.jsonl.factcov-{temporaries.writer_tag()}-{DEAD_PID}-bbbbbbbb.tmp"
    held.write_text("being written by a live process")
    dead = tmp_path / f".claims.jsonl.factcov-{temporaries.writer_tag()}-{DEAD_PID}-cccccccc.tmp"
    dead.write_text("left by a killed run")
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1]); "
                               "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)", str(held)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert temporaries.sweep(tmp_path) == 1
    finally:
        holder.kill()
        holder.wait()
    assert foreign.exists() and held.exists() and not dead.exists()


def test_a_score_in_another_pid_namespace_leaves_a_live_extract_temporary(tmp_path):
    """The race of the battery, for real: a writer in its own PID namespace (``unshare
    --pid``: its PID means nothing here) holds a temporary while ``score`` writes beside it."""
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "--pid", "--fork", "true"], capture_output=True) if unshare else None
    if probe is None or probe.returncode != 0:
        pytest.skip("no PID namespaces here (unshare --pid needs root or user namespaces)")
    writer = subprocess.Popen(
        [unshare, "--pid", "--fork", sys.executable, "-c",
         "import sys, time\nfrom factcov.jsonl import atomic_path\n"
         "with atomic_path(sys.argv[1]) as tmp:\n    tmp.write_text('x')\n    print(tmp, flush=True)\n"
         "    time.sleep(60)\n", str(tmp_path / "claims.jsonl")],
        stdout=subprocess.PIPE, text=True)
    try:
        temporary = Path(writer.stdout.readline().strip())
        assert temporary.exists()
        assert run(_score(tmp_path / "out", "--no-report")) == 0
        assert temporaries.sweep(tmp_path) == 0
        assert temporary.exists()
    finally:
        writer.kill()
        writer.wait()


# --- builders and exporters with nothing to write leave an existing file alone ------------

def _kept(path: Path) -> bytes:
    path.write_text('{"mine": "keep me"}\n')
    return path.read_bytes()


def test_f1_build_matching_no_race_leaves_the_existing_file(tmp_path, shared_data, capsys):
    out = tmp_path / "keep.jsonl"
    before = _kept(out)
    assert run(["f1", "build", "--laps", str(shared_data / "f1" / "laps" / "2023.csv.gz"), "--ergast",
                str(shared_data / "f1" / "ergast"), "--rounds", "999", "-q", "-o", str(out)]) == 2
    assert "no race matched" in _one_line_error(capsys)
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.jsonl"]


def test_weather_build_of_periods_without_nws_text_leaves_both_files(tmp_path, capsys):
    """Instances to write but no NWS text for --nws-generations: neither file is replaced."""
    forecast = tmp_path / "periods.jsonl"
    period = {"number": 1, "name": "Tonight", "startTime": "2024-01-01T18:00:00-05:00",
              "endTime": "2024-01-02T06:00:00-05:00", "isDaytime": False, "temperature": 30,
              "temperatureUnit": "F", "windSpeed": "5 mph", "windDirection": "N", "shortForecast": "Clear",
              "detailedForecast": None, "probabilityOfPrecipitation": {"value": None}}
    forecast.write_text(json.dumps(period) + "\n")
    out, nws = tmp_path / "instances.jsonl", tmp_path / "nws.jsonl"
    before = (_kept(out), _kept(nws))
    code = run(["weather", "build", "-f", str(forecast), "-o", str(out), "--nws-generations", str(nws), "-q"])
    assert code == 2, capsys.readouterr()
    assert "no period with NWS's own text" in _one_line_error(capsys)
    assert (out.read_bytes(), nws.read_bytes()) == before


def test_export_sft_with_every_instance_skipped_leaves_the_existing_file(tmp_path, capsys):
    instances = tmp_path / "instances.jsonl"
    rows = [json.loads(line) for line in INSTANCES.read_text(encoding="utf-8").splitlines()[:3]]
    instances.write_text("".join(json.dumps({**row, "facts": []}) + "\n" for row in rows))
    out = tmp_path / "sft.jsonl"
    before = _kept(out)
    assert run(["export", "sft", "-d", "weather", "-i", str(instances), "-o", str(out), "-q"]) == 2
    assert "nothing written" in _one_line_error(capsys)
    assert out.read_bytes() == before


def test_generate_that_writes_nothing_leaves_no_file_behind(tmp_path, capsys):
    import socket

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
    instances = tmp_path / "instances.jsonl"
    instances.write_text("".join(INSTANCES.read_text(encoding="utf-8").splitlines(keepends=True)[:2]))
    out = tmp_path / "gens.jsonl"
    code = run(["generate", "-d", "weather", "-i", str(instances), "-m", "m", "--base-url",
                f"http://127.0.0.1:{port}/v1", "--retries", "1", "--timeout", "1", "--no-cache", "-q",
                "-o", str(out)])
    assert code == 3, capsys.readouterr().err
    assert not out.exists()


# --- an output that is one of the run's own files is refused -----------------------------

@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run") / "out"
    assert run(_score(out)) == 0
    return out


@pytest.mark.parametrize("name", ["summary.json", "scores.parquet", "claims.parquet", "systems.csv", "manifest.json"])
def test_report_onto_a_file_of_the_run_it_reads_is_refused(scored, name, capsys):
    before = _tree(scored)
    assert run(["report", str(scored), "-o", str(scored / name)]) == 2
    assert "of the scored run" in _one_line_error(capsys)
    assert _tree(scored) == before


def test_any_command_writing_onto_a_runs_file_is_refused(scored, capsys):
    before = _tree(scored)
    assert run(["extract", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o",
                str(scored / "summary.json")]) == 2
    assert "of the scored run" in _one_line_error(capsys)
    assert _tree(scored) == before


def test_report_may_still_rewrite_the_runs_own_report(scored, capsys):
    assert run(["report", str(scored), "-o", str(scored / "report.html")]) == 0
    assert run(["compare", str(scored)]) == 0


# --- OUTDIR on or containing a mount ------------------------------------------------------

@pytest.fixture
def tmpfs(tmp_path):
    """Mount a small tmpfs where asked; unmounted however the test ends."""
    mounted: list[Path] = []

    def mount(at: Path) -> Path:
        at.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(at)], capture_output=True,
                              text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN): {done.stderr.strip()}")
        mounted.append(at)
        return at

    try:
        yield mount
    finally:
        for at in reversed(mounted):
            subprocess.run(["umount", "-l", str(at)], capture_output=True)


def test_an_outdir_that_is_a_mount_point_is_scored_into_again(tmp_path, tmpfs, capsys):
    """A volume at OUT: the exchange cannot move a mount point, and the fallback renamed
    across devices after deleting the old manifest (the old run unreadable, no new one)."""
    out = tmpfs(tmp_path / "out")
    (out / "notes.txt").write_text("mine")
    assert run(_score(out)) == 0
    nws_one = tmp_path / "one.jsonl"
    nws_one.write_text("".join(NWS.read_text(encoding="utf-8").splitlines(keepends=True)[:5]))
    assert run(["score", "-d", "weather", "-i", str(INSTANCES), "-g", str(nws_one), "-o", str(out), "-q"]) == 0, \
        capsys.readouterr().err
    assert os.path.ismount(out)
    assert run(["compare", str(out)]) == 0
    assert json.loads((out / "summary.json").read_text())["n_generations"] == 5
    assert (out / "notes.txt").read_text() == "mine"
    assert [p.name for p in tmp_path.iterdir() if "staging" in p.name] == []
    assert [p.name for p in out.iterdir() if "staging" in p.name] == []


def test_a_mount_inside_outdir_is_left_in_place_and_never_emptied(tmp_path, tmpfs, capsys):
    """A tmpfs at OUT/data: the exchange moved the mount under the staging name and the
    clean-up then deleted the files on it."""
    out = tmp_path / "out"
    assert run(_score(out)) == 0
    data = tmpfs(out / "data")
    (data / "big.bin").write_bytes(b"mine" * 1000)
    assert run(_score(out, "--no-report")) == 0, capsys.readouterr().err
    assert os.path.ismount(out / "data")
    assert (data / "big.bin").read_bytes() == b"mine" * 1000
    assert not (out / "report.html").exists()  # the new run's set, not the old one's
    assert run(["compare", str(out)]) == 0
    assert [p.name for p in tmp_path.iterdir() if "staging" in p.name] == []


def test_the_sweep_never_enters_a_mount_named_like_a_staging_folder(tmp_path, tmpfs):
    tag = temporaries.writer_tag()
    staging = tmpfs(tmp_path / f".out.staging-factcov-{tag}-{DEAD_PID}-abcdefgh")
    (staging / temporaries.MARKER).write_text(json.dumps({"tag": tag, "pid": DEAD_PID}))
    (staging / "data.bin").write_text("on the mount")
    assert temporaries.sweep(tmp_path) == 0
    assert (staging / "data.bin").read_text() == "on the mount"
    temporaries.remove_tree(tmp_path)  # removing a folder holding a mount leaves the mount and its files
    assert (staging / "data.bin").read_text() == "on the mount"


# --- long names ---------------------------------------------------------------------------

def test_a_legal_long_outdir_and_output_name_work(tmp_path, capsys):
    """A 240-byte OUTDIR and a 250-byte output file are legal names; the staging and
    temporary names made from them were longer than 255 bytes (exit 2, "File name too long")."""
    out = tmp_path / ("o" * 240)
    assert run(_score(out)) == 0, capsys.readouterr().err
    assert run(_score(out)) == 0, capsys.readouterr().err  # a second run swaps with the first
    assert run(["compare", str(out)]) == 0
    claims = tmp_path / ("c" * 244 + ".jsonl")
    assert run(["extract", "-d", "weather", "-i", str(INSTANCES), "-g", str(NWS), "-o", str(claims)]) == 0
    assert claims.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, claims.name])


# --- signals ------------------------------------------------------------------------------

def _factcov_process(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    code = "import sys; from factcov.cli.app import main; sys.argv[0] = 'factcov'; main()"
    # started as from a terminal: Ctrl-C at its default, whatever an earlier test in this
    # worker left (a --jobs worker set up in-process ignores SIGINT, and a child inherits that)
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["TERM", "INT"])
def test_a_signal_while_a_plugin_imports_ends_the_command_and_changes_nothing(tmp_path, signum, code):
    """The plugin loader skips a plugin that raises anything at import, which swallowed the
    SystemExit of SIGTERM (and Ctrl-C's KeyboardInterrupt): the command then ran on, exit 0,
    OUTDIR replaced."""
    from tests.test_plugins import make_distribution

    flag = tmp_path / "importing"
    make_distribution(tmp_path, "slow_dist", "0.1", "slow", "slow_factcov_plugin",
                      f"import pathlib, time\npathlib.Path({str(flag)!r}).touch()\ntime.sleep(20)\n")
    out = tmp_path / "out"
    assert run(_score(out, "--no-report")) == 0
    before = _tree(out)
    env = {"PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", "FACTCOV_PLUGINS": "slow"}
    process = _factcov_process(_score(out), tmp_path, env)
    try:
        deadline = time.monotonic() + 60
        while not flag.exists() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        assert flag.exists(), process.communicate()
        process.send_signal(signum)
        _, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == code, err
    assert _tree(out) == before


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["TERM", "INT"])
def test_a_signal_during_f1_build_exits_at_once_and_keeps_the_file(tmp_path, shared_data, signum, code):
    out = tmp_path / "keep.jsonl"
    before = _kept(out)
    process = _factcov_process(["f1", "build", "--laps", str(shared_data / "f1" / "laps" / "2023.csv.gz"), "--ergast",
                                str(shared_data / "f1" / "ergast"), "-j", "2", "-o", str(out)], tmp_path)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None and not any(
                p.name.endswith(".tmp") for p in tmp_path.iterdir()):
            time.sleep(0.05)  # until it writes (workers deriving races)
        time.sleep(1)
        process.send_signal(signum)
        sent = time.monotonic()
        _, err = process.communicate(timeout=20)
        waited = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == code, err
    assert waited < 5, waited
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.jsonl"]


# --- byte-identical outputs ---------------------------------------------------------------

def test_identical_runs_write_the_same_report_and_manifest_wherever_they_are(tmp_path):
    """report.html's title named the staging folder (``.out.staging-PID-XXXX``), so it and
    the manifest listing it differed between identical runs."""
    first, second = tmp_path / "a" / "out", tmp_path / "b" / "c" / "out"
    assert run(_score(first)) == 0
    assert run(_score(second)) == 0
    report = (first / "report.html").read_text(encoding="utf-8")
    assert "<title>factcov report: out (weather)</title>" in report
    assert "staging" not in report
    assert _tree(first) == _tree(second)


# --- blank lines --------------------------------------------------------------------------

def _lines_one_by_one(data: bytes) -> list[tuple[int, bytes]]:
    """What ``read_lines`` handed out before (a readline per line), blank lines dropped."""
    lines = data.splitlines(keepends=True)
    return [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]


def test_lines_read_in_blocks_are_the_lines_read_one_by_one():
    """``read_lines`` skips blank stretches by block (linear and fast: 8 MiB of blank lines
    took 24 s); the numbers and bytes of the other lines are those of a line-by-line read,
    across block edges, CRLF, white-space-only lines and a last line without a break."""
    import io
    import random

    from factcov import jsonl

    rng = random.Random(31)
    pieces = [b"\n", b"\r\n", b"   \n", b"\t\r\n", b'{"a": 1}\n', b'{"b": "x y"}\r\n', b"  {}  \n", b"\x0c\n"]
    for size in (0, 1, 7, 300):
        for tail in (b"", b'{"last": true}', b"   "):
            data = b"".join(rng.choice(pieces) for _ in range(size)) + tail
            for block in (1, 3, 64, 1 << 20):
                original = jsonl._BLOCK
                jsonl._BLOCK = block
                try:
                    got = list(jsonl.read_lines(io.BufferedReader(io.BytesIO(data)), "x.jsonl"))
                finally:
                    jsonl._BLOCK = original
                assert got == _lines_one_by_one(data), (size, tail, block)


def test_a_line_past_the_limit_is_refused_however_it_arrives(monkeypatch):
    import io

    from factcov import jsonl
    from factcov.errors import InputError

    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 10)
    monkeypatch.setattr(jsonl, "_BLOCK", 4)
    for data, line in [(b"\n\n" + b"x" * 11, 3), (b"{}\n" + b"y" * 10 + b"\n", 2), (b"z" * 50, 1)]:
        with pytest.raises(InputError, match="line longer than") as caught:
            list(jsonl.read_lines(io.BufferedReader(io.BytesIO(data)), "x.jsonl"))
        assert caught.value.line == line
    assert list(jsonl.read_lines(io.BufferedReader(io.BytesIO(b"a" * 9 + b"\n")), "x.jsonl")) == [(1, b"a" * 9 + b"\n")]


# --- odd but legal input ------------------------------------------------------------------

@pytest.mark.parametrize("command", [["validate", "perturb"], ["export", "sft", "-o", "{tmp}/sft.jsonl", "-q"]])
def test_a_fact_value_outside_its_types_choices_is_named_not_a_crash(tmp_path, capsys, command):
    """``cloudy`` followed by a zero-width space (U+200B) is a string, so it passed the
    value-kind check, and the realizer then failed on it: KeyError, exit 3."""
    rows = [json.loads(line) for line in INSTANCES.read_text(encoding="utf-8").splitlines()[:2]]
    index = next(i for i, fact in enumerate(rows[1]["facts"]) if fact["type"] == "sky")
    rows[1]["facts"][index]["value"] += "\u200b"
    instances = tmp_path / "instances.jsonl"
    instances.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    assert run([*args[:2], "-d", "weather", "-i", str(instances), *args[2:]]) == 2
    line = _one_line_error(capsys)
    assert f"instances.jsonl:2: field 'facts.{index}.value'" in line and "choices" in line


def test_new_domain_on_a_full_disk_leaves_nothing_that_blocks_the_retry(tmp_path, monkeypatch, capsys):
    """The package was written file by file into its final folder: a full disk left half a
    package, and the retry said "already exists"."""
    import errno

    real_write_text = Path.write_text
    written: list[Path] = []

    def full_after_three(self, *args, **kwargs):
        if len(written) >= 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        written.append(self)
        return real_write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_after_three)
    assert run(["new-domain", "football", "-o", str(tmp_path)]) == 3
    assert "No space left on device" in _one_line_error(capsys)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(Path, "write_text", real_write_text)
    assert run(["new-domain", "football", "-o", str(tmp_path)]) == 0
    package = tmp_path / "factcov-football"
    assert (package / "factcov_football" / "data" / "instances.jsonl").stat().st_size > 0
    assert not (package / temporaries.MARKER).exists()
    assert [p.name for p in tmp_path.iterdir()] == ["factcov-football"]
