"""What the `factcov` process (``factcov.cli.app.main``) pays besides its command: neither a
walk of the heap at exit, nor a hundred young collections of its imports, nor OpenBLAS's
idle threads.

When a command is done, ``main`` moves every object still alive out of the cyclic
collector's sight (``gc.freeze``): the interpreter's exit collects the whole heap while
tearing the modules down, which walked every object of the libraries and of a run again
(0.14 s of a weather run). What a process must still do at exit is done: its ``atexit``
handlers run (the disk caches are saved there), its output is complete, its exit code is
the command's.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

WEATHER = Path(__file__).resolve().parents[1] / "domains" / "weather"

PROBE = """
import atexit, gc, json, sys
from factcov.cli.app import main

def at_exit():
    gc.collect(1)  # the young objects the exit made so far: what is left is what the command left
    print(json.dumps({"frozen": gc.get_freeze_count(), "walked": len(gc.get_objects())}), file=sys.stderr)

atexit.register(at_exit)
sys.argv = ["factcov", *sys.argv[1:]]
main()
"""


def ended(*args: str) -> tuple[subprocess.CompletedProcess, dict]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True)
    return done, json.loads(done.stderr.strip().splitlines()[-1])


def test_a_commands_objects_are_left_out_of_the_exits_collections() -> None:
    done, heap = ended("domains")
    assert done.returncode == 0 and "weather" in done.stdout  # the command's output, complete
    assert heap["frozen"] > 10_000  # the modules' and the command's objects
    assert heap["walked"] < heap["frozen"] / 20, heap  # what the exit's collections would still walk


def test_a_scoring_runs_heap_too_and_its_atexit_handlers_still_run(tmp_path) -> None:
    done, heap = ended("score", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"),
                       "-g", str(WEATHER / "demo_nws.jsonl"),
                       "-o", str(tmp_path / "out"), "--no-report", "-q")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "summary.json").is_file()
    assert heap["walked"] < heap["frozen"] / 20, heap  # the probe's own handler ran: atexit is kept


def test_the_exit_code_is_the_commands() -> None:
    done, heap = ended("score", "-d", "no-such-domain", "-i", "x.jsonl", "-g", "y.jsonl", "-o", "out")
    assert done.returncode == 2
    assert heap["walked"] < heap["frozen"] / 20, heap


COUNTED = """
import atexit, gc, json, sys
from factcov.cli.app import main

collections = [0, 0, 0]

def counted(phase, info):
    if phase == "start":
        collections[info["generation"]] += 1

gc.callbacks.append(counted)  # from here: what the command's own imports and work cost
atexit.register(lambda: print(json.dumps(collections), file=sys.stderr))
sys.argv = ["factcov", *sys.argv[1:]]
main()
"""


def test_a_commands_imports_are_not_walked_by_a_hundred_young_collections(tmp_path) -> None:
    """A run imports numpy, pyarrow, pydantic and a domain's grammar once it has started:
    objects that live to the end, which the default first threshold (700) walked again and
    again; the command runs at the threshold a run scores with (``GC_FIRST_THRESHOLD``)."""
    done = subprocess.run([sys.executable, "-c", COUNTED, "score", "-d", "weather", "-i",
                           str(WEATHER / "demo_instances.jsonl"), "-g", str(WEATHER / "demo_nws.jsonl"),
                           "-o", str(tmp_path / "out"), "--no-report", "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    young, middle, _ = json.loads(done.stderr.strip().splitlines()[-1])
    assert young + middle < 30, (young, middle)  # about a hundred at the default threshold


THREADS = """
import atexit, os, sys
from factcov.cli.app import main

atexit.register(lambda: print(len(os.listdir("/proc/self/task")), file=sys.stderr))
sys.argv = ["factcov", *sys.argv[1:]]
main()
"""


def _blas() -> str:
    import numpy

    try:
        return str(numpy.__config__.CONFIG["Build Dependencies"]["blas"]["name"])
    except (AttributeError, KeyError, TypeError):
        return "unknown"


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc (Linux, as CI)")
@pytest.mark.skipif("openblas" not in _blas(), reason="numpy's BLAS is not OpenBLAS (PyPI's wheels': scipy-openblas)")
def test_numpys_blas_runs_one_thread_unless_the_user_chose(tmp_path) -> None:
    """OpenBLAS's threads busy-wait after numpy's import (CPU spent for nothing: a command's
    matrices are a few systems wide); a run has the threads it has with OPENBLAS_NUM_THREADS=1,
    and a user's own setting is kept."""
    def threads(**env: str) -> int:
        clean = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS",
                                                                   "OMP_NUM_THREADS")}
        done = subprocess.run([sys.executable, "-c", THREADS, "score", "-d", "weather", "-i",
                               str(WEATHER / "demo_instances.jsonl"), "-g", str(WEATHER / "demo_nws.jsonl"),
                               "-o", str(tmp_path / f"out{len(env)}{sorted(env.values())}"), "--no-report", "-q"],
                              capture_output=True, text=True, env={**clean, **env})
        assert done.returncode == 0, done.stderr
        return int(done.stderr.strip().splitlines()[-1])

    assert threads() == threads(OPENBLAS_NUM_THREADS="1")
    if (os.cpu_count() or 1) > 1:
        assert threads(OPENBLAS_NUM_THREADS="2") > threads()
