"""A score run's outputs change all at once or not at all: kill -9 at every write step,
a failure at the last step, two runs into one OUTDIR, stale temporaries, the umask."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from factcov.cli.app import run
from factcov.compare import load_run
from factcov.errors import InputError
from factcov.outdir import MANIFEST, RunDirectory, transaction, verify
from tests.test_cli_core import GENERATIONS, INSTANCES, write_jsonl

REPO = Path(__file__).resolve().parents[1]
RUN_FILES = ["claims.parquet", "manifest.json", "report.html", "scores.parquet", "summary.json", "systems.csv"]


def _cli_process(args: list[str], *, cwd: Path | None = None, env: dict | None = None,
                 **popen) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(REPO), "FACTCOV_PLUGINS": "", **(env or {})}
    return subprocess.run([sys.executable, "-m", "tests.cli_process", *args], cwd=cwd or REPO, env=environment,
                          capture_output=True, text=True, timeout=120, **popen)


@pytest.fixture
def inputs(tmp_path, mini_plugin):
    old = write_jsonl(tmp_path / "g-old.jsonl", [g for g in GENERATIONS if g["system"] != "wrong"])
    new = write_jsonl(tmp_path / "g-new.jsonl", GENERATIONS)
    return write_jsonl(tmp_path / "instances.jsonl", INSTANCES), old, new


def _score_args(instances: Path, generations: Path, out: Path) -> list[str]:
    return ["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-o", str(out), "-q"]


def _snapshot(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


def _systems(out: Path) -> set[str]:
    return set(load_run(out).scores["system"])


# Every step at which FACTCOV_FAULT kills the process; "in place" steps run with the
# current directory inside OUTDIR, where the atomic exchange is not used.
EXCHANGE_STEPS = ["before-replace:claims.parquet", "before-replace:summary.json", "before-replace:report.html",
                  "before-manifest", "before-commit", "after-commit"]
IN_PLACE_STEPS = ["in-place-manifest-removed", "in-place-claims.parquet", "in-place-summary.json",
                  "in-place-report.html", "after-commit"]


@pytest.mark.slow
@pytest.mark.parametrize(("step", "in_place"), [(s, False) for s in EXCHANGE_STEPS] + [(s, True) for s in IN_PLACE_STEPS])
def test_kill_9_at_any_write_step_leaves_the_old_run_or_the_new_one_never_a_mix(inputs, tmp_path, step, in_place):
    instances, old, new = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    before = _snapshot(out)
    (out / "notes.txt").write_text("mine")  # a user's file in OUTDIR survives every outcome
    killed = _cli_process(_score_args(instances, new, out), cwd=out if in_place else None, env={"FACTCOV_FAULT": step})
    assert killed.returncode == -9, killed.stderr
    assert (out / "notes.txt").read_text() == "mine"
    if step == "after-commit":
        assert _systems(out) == {"complete", "terse", "wrong"}
    elif in_place and step != "in-place-manifest-removed":
        # files were being renamed in: no manifest, so every reader refuses the mix
        assert not (out / MANIFEST).exists()
        with pytest.raises(InputError, match="did not finish"):
            verify(out)
        assert run(["compare", str(out)]) == 2
    else:
        after = _snapshot(out)
        assert {k: v for k, v in after.items() if k != "notes.txt"} == before or step == "in-place-manifest-removed"
        if step != "in-place-manifest-removed":
            assert _systems(out) == {"complete", "terse"}
    # the next run sweeps what the killed one left and commits normally
    assert run(_score_args(instances, new, out)) == 0
    assert _systems(out) == {"complete", "terse", "wrong"}
    leftovers = [p.name for p in [*tmp_path.iterdir(), *out.iterdir()] if ".staging-" in p.name or p.name.endswith(".tmp")]
    assert leftovers == []
    assert sorted(p.name for p in out.iterdir()) == sorted([*RUN_FILES, "notes.txt"])


def test_a_failure_while_writing_the_report_leaves_every_earlier_output(inputs, tmp_path, monkeypatch):
    instances, old, new = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    before = _snapshot(out)

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device", str(out / "report.html"))

    monkeypatch.setattr("factcov.report.write_report", disk_full)
    assert run(_score_args(instances, new, out)) == 3
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir() if ".staging-" in p.name] == []


def test_a_second_run_into_a_busy_outdir_fails_at_once_with_exit_3(inputs, tmp_path, capsys):
    instances, old, _ = inputs
    out = tmp_path / "out"
    holder = RunDirectory(out)  # what a first, still running, process holds
    try:
        assert run(_score_args(instances, old, out)) == 3
        assert "another factcov run is writing this OUTDIR" in capsys.readouterr().err
    finally:
        holder.close()
    assert run(_score_args(instances, old, out)) == 0


def test_two_concurrent_runs_one_wins_and_the_other_is_refused(inputs, tmp_path):
    instances, old, new = inputs
    out = tmp_path / "out"
    slow = {"FACTCOV_FAULT": ""}
    first = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from factcov.outdir import RunDirectory; d = RunDirectory(sys.argv[1]);"
        "print('locked', flush=True); time.sleep(30)"), str(out)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, **slow})
    try:
        assert first.stdout.readline().strip() == "locked"
        second = _cli_process(_score_args(instances, new, out))
        assert second.returncode == 3 and "another factcov run" in second.stderr
        assert second.stderr.count("\n") == 1 and "Traceback" not in second.stderr
    finally:
        first.kill()
        first.wait()
    # the lock dies with its process: no stale lock to clean by hand
    assert run(_score_args(instances, new, out)) == 0


def test_outputs_get_the_users_umask(inputs, tmp_path):
    instances, old, _ = inputs
    for mask, mode in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        out = tmp_path / f"out{mask:o}"
        previous = os.umask(mask)
        try:
            assert run(_score_args(instances, old, out)) == 0
        finally:
            os.umask(previous)
        modes = {p.name: p.stat().st_mode & 0o777 for p in out.iterdir()}
        assert set(modes.values()) == {mode}, modes
        assert out.stat().st_mode & 0o777 == 0o777 & ~mask


def test_stale_temporaries_of_dead_processes_are_swept(inputs, tmp_path):
    """What a killed run left (its names, its marker, its writer tag, a dead PID) is swept;
    a live process's temporary is kept."""
    from factcov import temporaries

    instances, old, _ = inputs
    out = tmp_path / "out"
    out.mkdir()
    dead = 2**22 + 12345  # above pid_max's usual default, so no live process has it
    tag = temporaries.writer_tag()
    staging = tmp_path / f".out.staging-factcov-{tag}-{dead}-abcdefgh"
    staging.mkdir()
    (staging / temporaries.MARKER).write_text(json.dumps({"tag": tag, "pid": dead}))
    (out / f".claims.parquet.factcov-{tag}-{dead}-xyzxyzxy.tmp").write_bytes(b"x")
    live = f".claims.parquet.factcov-{tag}-{os.getpid()}-livelive.tmp"
    (out / live).write_bytes(b"x")  # ours: alive, kept
    assert run(_score_args(instances, old, out)) == 0
    names = {p.name for p in [*tmp_path.iterdir(), *out.iterdir()]}
    assert staging.name not in names and f".claims.parquet.factcov-{tag}-{dead}-xyzxyzxy.tmp" not in names
    assert live in names


def test_an_error_inside_a_transaction_leaves_outdir_as_it_was(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text("old")
    with pytest.raises(RuntimeError), transaction(out) as staging:
        (staging / "summary.json").write_text("new")
        raise RuntimeError("boom")
    assert (out / "summary.json").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


@pytest.mark.parametrize("damage", ["truncate", "delete-manifest", "edit-summary", "garbage-manifest", "not-json"])
def test_damaged_outdirs_are_refused_by_every_reader_with_exit_2(inputs, tmp_path, damage, capsys):
    instances, old, _ = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    if damage == "truncate":
        data = (out / "scores.parquet").read_bytes()
        (out / "scores.parquet").write_bytes(data[: len(data) // 2])
    elif damage == "delete-manifest":
        (out / MANIFEST).unlink()
    elif damage == "edit-summary":
        (out / "summary.json").write_text((out / "summary.json").read_text().replace('"mini"', '"mino"'))
    elif damage == "garbage-manifest":
        (out / MANIFEST).write_text("[" * 5000)
    else:
        (out / "summary.json").write_bytes(b"\xff\xfe{")
    capsys.readouterr()
    for args in (["compare", str(out)], ["report", str(out), "-o", str(tmp_path / "r.html")],
                 ["validate", "agreement", str(out), str(out)]):
        assert run(args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(out) in err, err


def test_an_outdir_that_holds_the_current_directory_is_committed_in_place(inputs, tmp_path, monkeypatch):
    instances, old, new = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    monkeypatch.chdir(out)
    assert run(_score_args(instances, new, out)) == 0
    assert _systems(out) == {"complete", "terse", "wrong"}
    assert sorted(p.name for p in out.iterdir()) == RUN_FILES


def test_threads_cannot_share_an_outdir_either(tmp_path):
    out = tmp_path / "out"
    errors: list[BaseException] = []
    holder = RunDirectory(out)

    def second() -> None:
        try:
            RunDirectory(out).close()
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            errors.append(exc)

    thread = threading.Thread(target=second)
    thread.start()
    thread.join()
    holder.close()
    assert len(errors) == 1 and "another factcov run" in str(errors[0])


@pytest.mark.slow
def test_sigterm_mid_run_leaves_the_old_run_and_no_staging(inputs, tmp_path):
    import signal
    import time

    instances, old, new = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    before = _snapshot(out)
    environment = {**os.environ, "PYTHONPATH": str(REPO), "FACTCOV_PLUGINS": "", "FACTCOV_DEBUG": "1",
                   "FACTCOV_FAULT": "sleep:before-manifest"}  # every file staged, the swap not yet done
    process = subprocess.Popen([sys.executable, "-m", "tests.cli_process", *_score_args(instances, new, out)],
                               env=environment, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    staged = lambda: [p for p in tmp_path.iterdir() if ".staging-" in p.name]  # noqa: E731
    while not any((s / "report.html").exists() for s in staged()) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    code = process.wait(timeout=60)
    stderr = process.stderr.read()
    assert code == 128 + signal.SIGTERM, stderr
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir() if ".staging-" in p.name] == [], stderr


def test_chunks_close_early_on_large_texts_so_memory_follows_the_text():
    from factcov.jsonl import chunked

    sizes = [10, 10, 900, 5, 1000, 10]
    chunks = list(chunked(sizes, 100, weight=lambda n: n, budget=1000))
    assert chunks == [[10, 10, 900, 5, 1000], [10]]
    assert list(chunked(sizes, 2)) == [[10, 10], [900, 5], [1000, 10]]


def test_an_outdir_given_as_a_symlink_stays_a_symlink(inputs, tmp_path):
    instances, old, new = inputs
    target = tmp_path / "real"
    link = tmp_path / "link"
    assert run(_score_args(instances, old, target)) == 0
    link.symlink_to(target)
    assert run(_score_args(instances, new, link)) == 0
    assert link.is_symlink() and _systems(link) == {"complete", "terse", "wrong"}
    assert sorted(p.name for p in tmp_path.iterdir() if not p.suffix == ".jsonl") == ["link", "real"]

def test_without_an_atomic_exchange_the_files_are_renamed_in_with_the_manifest_last(inputs, tmp_path, monkeypatch):
    instances, old, new = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    (out / "notes.txt").write_text("mine")
    monkeypatch.setattr("factcov.outdir._exchange", lambda a, b: False)  # a file system without renameat2
    assert run([*_score_args(instances, new, out), "--no-report"]) == 0
    assert _systems(out) == {"complete", "terse", "wrong"}
    # the old report.html described the old run: gone, not left beside new numbers
    assert sorted(p.name for p in out.iterdir()) == sorted(n for n in [*RUN_FILES, "notes.txt"] if n != "report.html")
    assert [p.name for p in tmp_path.iterdir() if ".staging-" in p.name] == []


def test_a_read_only_outdir_is_exit_3_and_kept(inputs, tmp_path, monkeypatch, capsys):
    instances, old, new = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    before = _snapshot(out)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, *a, **k: False if Path(path) == out and mode == os.W_OK
                        else real_access(path, mode, *a, **k))  # chmod 555 does not stop root, so pretend
    capsys.readouterr()
    assert run(_score_args(instances, new, out)) == 3
    assert "OUTDIR is not writable" in capsys.readouterr().err
    assert _snapshot(out) == before


def test_a_run_is_hashed_once_however_often_it_is_read(inputs, tmp_path, monkeypatch):
    from factcov import outdir

    instances, old, _ = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    hashed: list[str] = []
    real = outdir._sha256
    monkeypatch.setattr(outdir, "_sha256", lambda path: hashed.append(path.name) or real(path))
    for _ in range(3):
        verify(out)
    assert hashed == []  # the run's own manifest computed them; renaming the run into place kept them
    monkeypatch.setattr(outdir, "_digests", {})  # a fresh process: every verified file once, then never again
    verify(out)
    verify(out)
    listed = sorted(n for n in RUN_FILES if n not in (MANIFEST, "report.html"))
    assert sorted(hashed) == listed


def test_a_file_rewritten_with_its_size_and_mtime_restored_is_still_refused(inputs, tmp_path):
    instances, old, _ = inputs
    out = tmp_path / "out"
    assert run(_score_args(instances, old, out)) == 0
    verify(out)  # digests remembered
    summary = out / "summary.json"
    before = summary.stat()
    summary.write_text(summary.read_text().replace('"mini"', '"mino"'))
    os.utime(summary, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert summary.stat().st_size == before.st_size and summary.stat().st_mtime_ns == before.st_mtime_ns
    with pytest.raises(InputError, match="summary.json does not match"):
        verify(out)
