"""Parallel scoring (``factcov.parallel``): chunks scored as pieces and joined back, a
bounded window of work in flight, and a worker that dies failing the run at once."""

from __future__ import annotations

import multiprocessing
from collections import deque

import pytest

from factcov.errors import EnvironmentFailure, InputError
from factcov.evaluate import Evaluator
from factcov.model import Generation
from factcov.parallel import in_order, joined, piece_size, pieces
from factcov.plugins import get_domain
from factcov.runner import ChunkRows, rows_of_chunk, score_files


def _pairs(domain_name: str) -> list:
    """Every example instance of a domain with its realized text and a shortened one (fewer
    claims, facts missed), in all of the domain's languages."""
    domain = get_domain(domain_name)
    pairs = []
    for instance in domain.example_instances():
        text = domain.realize(instance.facts, instance.language, instance)
        pairs.append((instance, Generation(instance_id=instance.id, system="full", text=text)))
        pairs.append((instance, Generation(instance_id=instance.id, system="short", text=text[: len(text) // 3])))
    return pairs


@pytest.mark.parametrize("domain_name", ["f1", "rag"])
@pytest.mark.parametrize("size", [1, 3, 8])
def test_a_chunk_scored_in_pieces_gives_the_rows_of_the_whole_chunk(domain_name, size):
    evaluator = Evaluator(get_domain(domain_name))
    chunk = _pairs(domain_name)
    whole = rows_of_chunk(evaluator, chunk)
    counts: deque = deque()
    parts = [rows_of_chunk(evaluator, piece) for piece in pieces([chunk], size, counts)]
    assert list(counts) == [-(-len(chunk) // size)] and len(parts) == counts[0]
    (rejoined,) = joined(iter(parts), counts, ChunkRows.join)
    assert list(rejoined.claims) == list(whole.claims) and list(rejoined.scores) == list(whole.scores)
    assert rejoined.claims == whole.claims
    assert rejoined.scores == whole.scores
    assert rejoined.type_counts == whole.type_counts
    assert rejoined.failures == whole.failures
    assert len(whole.scores["system"]) == len(chunk) and len(whole.claims["type"]) > len(chunk)


def test_pieces_of_several_chunks_join_back_chunk_by_chunk():
    chunks = [list(range(10)), list(range(10, 13)), [], list(range(13, 20))]
    counts: deque = deque()
    cut = list(pieces(chunks, 4, counts))
    assert cut == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9], [10, 11, 12], [], [13, 14, 15, 16], [17, 18, 19]]
    assert list(joined(iter(cut), counts, lambda parts: sum(parts, []))) == chunks


def test_a_chunk_is_cut_so_that_workers_finish_close_together():
    assert piece_size(500, 2) == 125
    assert piece_size(2000, 2) == 250  # capped: a long run's first results come back early
    assert piece_size(3, 2) == 1


def test_in_order_keeps_at_most_a_window_in_flight_and_gives_results_in_order():
    submitted: list[int] = []
    taken: list[int] = []
    waited: list[int] = []

    def submit(item: int) -> int:
        submitted.append(item)
        assert len(submitted) - len(taken) <= 3  # never more than the window outstanding
        return item

    def wait(item: int) -> int:
        taken.append(item)
        return item * 10

    results = list(in_order(submit, wait, range(10), 3, while_waiting=lambda: waited.append(len(submitted))))
    assert results == [i * 10 for i in range(10)]
    assert waited == [3]  # once, when the first window was out and before its first result was taken
    assert list(in_order(submit, wait, [1], 3, while_waiting=lambda: waited.append(-1))) == [10]
    assert waited == [3, -1]  # a run shorter than the window still gets it


@pytest.fixture
def f1_files(tmp_path):
    from factcov.jsonl import write_jsonl_atomic

    pairs = _pairs("f1")
    write_jsonl_atomic(tmp_path / "i.jsonl", list({i.id: i for i, _ in pairs}.values()))
    write_jsonl_atomic(tmp_path / "g.jsonl", [g for _, g in pairs])
    return tmp_path / "i.jsonl", tmp_path / "g.jsonl"


def _nothing_written(folder) -> None:
    """No output file and no staging directory left (the locked OUTDIR may stay, empty)."""
    assert [p.name for p in folder.iterdir() if ".staging-" in p.name] == []
    assert not (folder / "out").exists() or list((folder / "out").iterdir()) == []


def test_a_killed_worker_fails_the_run_at_once_and_leaves_no_worker_and_no_output(f1_files, tmp_path, monkeypatch):
    monkeypatch.setenv("FACTCOV_FAULT", "score-piece")  # each worker kills itself (SIGKILL) on its first piece
    with pytest.raises(EnvironmentFailure, match="worker process died") as failed:
        score_files("f1", *f1_files, tmp_path / "out", jobs=2, chunk_size=4, report=False)
    assert failed.value.exit_code == 3
    assert multiprocessing.active_children() == []
    _nothing_written(tmp_path)


def test_a_worker_exception_reaches_the_parent_and_ends_the_other_workers(f1_files, tmp_path, monkeypatch):
    def broken(evaluator, results):
        raise ZeroDivisionError("a bug in a worker")

    monkeypatch.setattr("factcov.runner.extra_metrics", broken)  # the forked workers inherit it
    with pytest.raises(ZeroDivisionError, match="a bug in a worker"):
        score_files("f1", *f1_files, tmp_path / "out", jobs=2, chunk_size=4, report=False)
    assert multiprocessing.active_children() == []
    _nothing_written(tmp_path)


def test_the_command_line_reports_a_killed_worker_on_one_line_with_exit_3(f1_files, tmp_path, monkeypatch, capsys):
    from factcov.cli.app import run

    monkeypatch.setenv("FACTCOV_FAULT", "score-piece")
    instances, generations = f1_files
    assert run(["score", "-d", "f1", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "out"),
                "--jobs", "2", "-q", "--no-report"]) == 3
    err = capsys.readouterr().err
    assert "worker process died" in err and err.count("\n") == 1, err
    assert multiprocessing.active_children() == []
    _nothing_written(tmp_path)


def test_an_unreachable_dask_scheduler_is_an_environment_failure_and_writes_nothing(f1_files, tmp_path):
    dask = pytest.importorskip("dask", reason="needs the dask extra: .ci/run installs it for the pandas-2 run (factcov[all]), not for the pandas-3 run")
    pytest.importorskip("dask.distributed", reason="needs the dask extra (as above)")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(EnvironmentFailure, match="cannot reach the Dask scheduler") as failed:
        score_files("f1", *f1_files, tmp_path / "out", dask="tcp://127.0.0.1:9", report=False)  # port 9: discard, closed
    assert failed.value.exit_code == 3
    # told by the one probe, not by Dask's retries until its connect timeout
    assert "refused" in str(failed.value).lower(), failed.value
    _nothing_written(tmp_path)


def test_the_refusal_probe_passes_an_address_that_answers_and_those_it_cannot_judge():
    pytest.importorskip("dask.distributed", reason="needs the dask extra (as above)")
    import socket

    from factcov.distributed import refused, tcp_host_port

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert tcp_host_port(f"tcp://127.0.0.1:{port}") == ("127.0.0.1", port)
        assert tcp_host_port(f"127.0.0.1:{port}") == ("127.0.0.1", port)  # tcp is Dask's default scheme
        assert refused(("127.0.0.1", port)) is None
    assert isinstance(refused(("127.0.0.1", port)), ConnectionRefusedError)  # closed now
    assert tcp_host_port("local") is None and tcp_host_port("inproc://x") is None  # not probed
    with pytest.raises(ValueError):
        tcp_host_port("tcp://host")  # no port: a usage error, not probed


@pytest.mark.parametrize("address, problem", [
    ("tcp://127.0.0.1:70000", "outside 1-65535"),
    ("tcp://127.0.0.1:-1", "outside 1-65535"),
    ("tcp://127.0.0.1:0", "outside 1-65535"),
    ("tcp://:8786", "names no host"),
    ("tcp://127.0.0.1:port", "invalid literal"),
])
def test_a_malformed_dask_address_is_a_usage_error_before_any_connection(f1_files, tmp_path, address, problem):
    pytest.importorskip("dask.distributed", reason="needs the dask extra (as above)")
    import time

    started = time.monotonic()
    with pytest.raises(InputError, match=problem) as failed:
        score_files("f1", *f1_files, tmp_path / "out", dask=address, report=False)
    assert failed.value.exit_code == 2 and "\n" not in str(failed.value)
    assert time.monotonic() - started < 10  # not Dask's retries until its 30 s connect timeout
    _nothing_written(tmp_path)


def test_a_dask_host_that_does_not_resolve_fails_at_once_as_an_environment_failure(f1_files, tmp_path):
    dask = pytest.importorskip("dask", reason="needs the dask extra (as above)")
    pytest.importorskip("dask.distributed", reason="needs the dask extra (as above)")
    import socket

    with pytest.raises(socket.gaierror):  # .invalid never resolves (RFC 2606), with or without a network
        socket.getaddrinfo("scheduler.invalid", 8786)
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(EnvironmentFailure, match="cannot reach the Dask scheduler at tcp://scheduler.invalid") as failed:
        score_files("f1", *f1_files, tmp_path / "out", dask="tcp://scheduler.invalid:8786", report=False)
    assert failed.value.exit_code == 3
    _nothing_written(tmp_path)


def test_the_command_line_names_a_malformed_dask_address_on_one_line_with_exit_2(f1_files, tmp_path, capsys):
    pytest.importorskip("dask.distributed", reason="needs the dask extra (as above)")
    from factcov.cli.app import run

    instances, generations = f1_files
    assert run(["score", "-d", "f1", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "out"),
                "--dask", "tcp://127.0.0.1:99999", "-q", "--no-report"]) == 2
    err = capsys.readouterr().err
    assert "--dask" in err and "outside 1-65535" in err and err.count("\n") == 1, err
    _nothing_written(tmp_path)


@pytest.mark.parametrize("address", ["", "  "])
def test_an_empty_dask_address_is_a_usage_error_not_a_local_run(f1_files, tmp_path, address):
    # an empty --dask (an unset variable in a script) used to score in this process in silence
    with pytest.raises(InputError, match="--dask is empty") as failed:
        score_files("f1", *f1_files, tmp_path / "out", dask=address, report=False)
    assert failed.value.exit_code == 2 and "\n" not in str(failed.value)
    _nothing_written(tmp_path)
