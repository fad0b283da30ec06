"""Scoring a run's work in parallel: pieces handed out in a bounded window, results in order.

A run writes one Parquet row group per chunk (``chunk_size`` generations), so the chunk
fixes the output bytes; it is not a good unit of work for a few processes: 7 chunks
over 2 workers leave one of them idle for a whole chunk at the end, and a worker's first
result comes back only after a whole chunk. So each chunk is cut into pieces
(``pieces``) that the workers score, and the runner joins a chunk's pieces back before
writing it: the same rows in the same row groups, hence the same bytes.

``in_order`` keeps at most ``window`` pieces in flight (memory stays bounded whatever the
input's length) and yields their results in submission order. Both the forked pool of
``--jobs`` (``forked_scorer``) and the Dask cluster (``factcov.distributed``) use it.
"""

from __future__ import annotations

import contextlib
import gc
import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from factcov.errors import EnvironmentFailure

T = TypeVar("T")
R = TypeVar("R")


def in_order(
    submit: Callable[[T], Any], wait: Callable[[Any], R], items: Iterable[T], window: int,
    while_waiting: Callable[[], None] | None = None,
) -> Iterator[R]:
    """``wait(submit(item))`` for every item, in the items' order, with at most ``window``
    submitted and not yet taken. ``while_waiting`` runs once, when the first window is out:
    work the caller would otherwise do after the last result (the workers are busy then)."""
    in_flight: deque = deque()
    for item in items:
        in_flight.append(submit(item))
        if len(in_flight) >= window:
            if while_waiting is not None:
                while_waiting()
                while_waiting = None
            yield wait(in_flight.popleft())
    if while_waiting is not None:
        while_waiting()
    while in_flight:
        yield wait(in_flight.popleft())


def piece_size(chunk_size: int, workers: int) -> int:
    """Generations per piece: a chunk is cut in ``2 * workers`` pieces, so that workers finish
    within about half a chunk of each other's time, and at most 250 (a long run's first
    results come back early; a piece still carries enough texts to amortize its trip)."""
    return max(1, min(250, math.ceil(chunk_size / (2 * workers))))


def pieces(chunks: Iterable[list], size: int, counts: deque) -> Iterator[list]:
    """Each chunk as consecutive pieces of at most ``size``; the number of pieces of each
    chunk is appended to ``counts`` before its first piece is yielded (``joined`` reads it)."""
    for chunk in chunks:
        cut = [chunk[start:start + size] for start in range(0, len(chunk), size)] or [chunk]
        counts.append(len(cut))
        yield from cut


def joined(results: Iterator[R], counts: deque, join: Callable[[list[R]], R]) -> Iterator[R]:
    """The results of ``pieces`` (in order) joined back into one result per chunk."""
    for first in results:
        parts = [first]
        parts.extend(next(results) for _ in range(counts.popleft() - 1))
        yield join(parts) if len(parts) > 1 else first


# --- --jobs: a pool of forked worker processes --------------------------------------------

_worker: dict[str, Any] = {}
# Called in each forked worker as it starts (``at_worker_start``).
_AT_WORKER_START: list[Callable[[], None]] = []


def at_worker_start(hook: Callable[[], None]) -> Callable[[], None]:
    """Have ``hook`` called in each ``--jobs`` worker process as it starts (a forked worker
    ends by ``os._exit``: what it must do at its end, it arranges here; the disk caches of
    ``extractors/program_cache.py`` do). Registered from below the engine, so the engine
    imports none of the layers above it."""
    if hook not in _AT_WORKER_START:
        _AT_WORKER_START.append(hook)
    return hook


def init_worker(score_chunk: Callable[[Any, list], Any], evaluator: Any, instances: Mapping[str, Any]) -> None:
    import signal

    # The command line's SIGTERM handler unwinds the parent (its staging directory); a
    # forked worker holds nothing to clean up and must simply end when the parent ends it,
    # or a worker blocked on the task queue's lock can outlive the run and hang its exit.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Ctrl-C reaches the whole process group: the parent stops the run and ends the
    # workers; each worker printing its own KeyboardInterrupt traceback would only be noise.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for hook in _AT_WORKER_START:  # the extractors' disk caches: what the worker adds is kept
        hook()
    _worker.update(score_chunk=score_chunk, evaluator=evaluator, instances=instances)


def score_in_worker(piece: list) -> Any:
    """A piece of (instance or instance id, generation): an instance the parent held when
    it forked travels as its id and is looked up in the worker's inherited copy."""
    from factcov.outdir import fault

    fault("score-piece")  # test hook: a worker killed mid-run (the OOM killer, a kill -9)
    instances = _worker["instances"]
    pairs = [(instances[ref] if isinstance(ref, str) else ref, generation) for ref, generation in piece]
    return _worker["score_chunk"](_worker["evaluator"], pairs)


def _result(future: Any) -> Any:
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:
        raise EnvironmentFailure("a --jobs worker process died (killed, or out of memory); nothing was written; "
                           "rerun, with fewer --jobs if memory is short") from None


@contextmanager
def forked_scorer(
    evaluator: Any, jobs: int, instances: Mapping[str, Any], score_chunk: Callable[[Any, list], R],
    while_waiting: Callable[[], None] | None = None,
) -> Iterator[Callable[[Iterable[list]], Iterator[R]]]:
    """``score_chunk(evaluator, piece)`` in ``jobs`` forked processes, results in order.

    What the parent builds before forking (``Evaluator.prebuild``: the instances'
    knowledge, cheap extractors) the workers inherit copy-on-write; pieces travel as
    instance ids and generations. ``3 * jobs`` pieces are in flight: each worker has one
    to score and one queued while the parent joins and writes. A worker's exception is
    raised here; a worker that dies fails the run (``EnvironmentFailure``, exit 3) instead of leaving
    it waiting for a result that will never come (as ``multiprocessing.Pool`` would).
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    evaluator.prebuild(instances)  # inherited by every worker, built once
    gc.freeze()  # what was just built, out of the workers' collections too (see runner.score_run)
    forked = frozenset(instances)  # (an adapter may add instances while the run streams)

    def by_reference(piece: list) -> list:
        return [(instance.id if instance.id in forked else instance, generation) for instance, generation in piece]

    executor = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=init_worker,
                                   initargs=(score_chunk, evaluator, instances))
    try:
        yield lambda items: in_order(lambda piece: executor.submit(score_in_worker, by_reference(piece)),
                                     _result, items, 3 * jobs, while_waiting)
        executor.shutdown()  # every piece was scored: the workers finish and exit on their own
    finally:
        _end_workers(executor)  # an error or an interrupted run: end them now


def _end_workers(executor: Any) -> None:
    """Stop ``executor``'s processes at once and reap them (none outlives the run)."""
    # the executor's own pid -> Process record (None once shut down); Python 3.14's terminate_workers() does this
    processes = list((getattr(executor, "_processes", None) or {}).values())
    results = getattr(executor, "_result_queue", None)  # shutdown() forgets it; the manager thread reads it
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join()
    # A worker ended while writing a result leaves half a message in the result pipe: the
    # executor's manager thread waits for the rest, and the interpreter's exit joins that
    # thread, so the command hung after printing its error. With every worker gone, the
    # parent's own write end is the pipe's last: closing it ends the wait (end of file),
    # which the manager thread takes for a broken pool, and it exits.
    if results is not None:
        with contextlib.suppress(OSError):
            results._writer.close()
    if manager is not None:
        manager.join(timeout=10)
