"""Scoring chunks on a Dask cluster (extra ``dask``): for runs beyond one machine.

Workers rebuild the evaluator from a small pickled spec (the configured domain, the
evaluator's extractor factory, its policy and extractor options), so only the spec and
the chunks travel, and a worker extracts with the same factory as one process or
``--jobs``. A bounded window of pieces (``factcov.parallel``: two per worker thread of
the cluster, at least 8) is in flight and results are taken in submission order, so the
output files are the same bytes as a local run.
"""

from __future__ import annotations

import pickle
import socket
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from factcov.errors import EnvironmentFailure, FactcovError, InputError
from factcov.parallel import in_order

_evaluators: dict[bytes, Any] = {}


def evaluator_spec(evaluator: Any) -> bytes:
    """The evaluator as what rebuilds it, pickled once here: the factory must pickle
    (an ``ExtractorSpec`` or a module-level callable; a lambda does not)."""
    parts = (evaluator.domain, evaluator.factory, evaluator.policy, evaluator.extractor_options)
    try:
        return pickle.dumps(parts)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise FactcovError(
            f"--dask sends the extractor factory to its workers, and {evaluator.factory!r} cannot be pickled "
            f"({exc}); pass an ExtractorSpec (factcov.evaluate) or a module-level callable"
        ) from None


def score_chunk_on_worker(spec: bytes, chunk: list, score_chunk: Callable[[Any, list], Any]) -> Any:
    from factcov.evaluate import Evaluator

    if spec not in _evaluators:
        domain, factory, policy, options = pickle.loads(spec)
        _evaluators[spec] = Evaluator(domain, extractor=factory, policy=policy, extractor_options=options)
    return score_chunk(_evaluators[spec], chunk)


REFUSAL_PROBE_SECONDS = 5.0


def tcp_host_port(address: str) -> tuple[str, int] | None:
    """The host and port of a TCP scheduler address (``tcp://`` is Dask's default scheme);
    None for ``local`` and other schemes (``tls://``, ``inproc://``). A ValueError says
    what is wrong with a malformed one: no port, a port that is not a number or outside
    1-65535, no host (checked here because Dask would retry such an address until its
    connect timeout instead of refusing it)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    if address == "local":
        return None
    scheme, location = parse_address(address)
    if scheme != "tcp":
        return None
    host, port = parse_host_port(location)
    if not host:
        raise ValueError(f"{address!r} names no host")
    if not 0 < port < 65536:
        raise ValueError(f"port {port} of {address!r} is outside 1-65535")
    return host, port


def refused(target: tuple[str, int]) -> OSError | None:
    """The error of a TCP scheduler (``tcp_host_port``'s host and port) nothing listens on,
    or whose host name does not resolve, found with one connection attempt: Dask's client
    retries such an address until its connect timeout (30 s by default) before it gives up,
    so a mistyped port or host would otherwise cost half a minute. None when the port
    answers or cannot be asked quickly (a slow network: Dask's own timeout then applies)."""
    try:
        with socket.create_connection(target, timeout=REFUSAL_PROBE_SECONDS):
            return None
    except (ConnectionRefusedError, socket.gaierror) as exc:
        return exc
    except OSError:
        return None


@contextmanager
def dask_chunk_scorer(
    evaluator: Any, address: str, score_chunk: Callable[[Any, list], Any],
    while_waiting: Callable[[], None] | None = None,
) -> Iterator[Callable[[Iterable[list]], Iterator[Any]]]:
    """``score_chunk(evaluator, chunk)`` run on the cluster (the runner passes its own, so
    this module needs nothing from the runner; the function travels by reference);
    ``while_waiting`` as in ``factcov.parallel.in_order``."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise FactcovError("--dask needs the dask extra: pip install 'factcov[dask]'") from None
    spec = evaluator_spec(evaluator)  # before connecting: a factory that cannot travel fails at once
    try:
        target = tcp_host_port(address)  # a malformed address: a usage error, before any connection
        refusal = refused(target) if target is not None else None
        if refusal is not None:
            raise refusal
        client = Client(address) if address != "local" else Client(processes=False, dashboard_address=None)
    except OSError as exc:
        raise EnvironmentFailure(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    except (ValueError, TypeError) as exc:  # not an address ('not an address', 'tcp://host' without a port, port 70000)
        raise InputError(f"--dask: {exc}; give a scheduler address such as tcp://host:8786, or 'local'") from None

    window = max(8, 2 * sum(client.nthreads().values()))  # every worker thread busy, one piece queued each

    def score(chunks: Iterable[list]) -> Iterator[Any]:
        return in_order(lambda chunk: client.submit(score_chunk_on_worker, spec, chunk, score_chunk, pure=False),
                        lambda future: future.result(), chunks, window, while_waiting)

    try:
        yield score
    finally:
        client.close()
