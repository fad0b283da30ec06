"""Scoring chunks on a Dask cluster (extra ``dask``): for runs beyond one machine.

Workers rebuild the evaluator from a small spec (the configured domain, extractor, policy,
options), so only the spec and the chunks travel. A bounded window of chunks is in flight and results
are taken in submission order, so the output files are the same bytes as a local run.
"""

from __future__ import annotations

import json
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from factcov.errors import FactcovError

_evaluators: dict[tuple, Any] = {}


def evaluator_spec(evaluator: Any) -> tuple:
    """Hashable and small: the (configured) domain pickled, the rest as JSON text."""
    return (
        pickle.dumps(evaluator.domain),
        evaluator.extractor_name,
        evaluator.policy.model_dump_json(),
        json.dumps(evaluator.extractor_options, sort_keys=True),
    )


def score_chunk_on_worker(spec: tuple, chunk: list, score_chunk: Callable[[Any, list], Any]) -> Any:
    from factcov.evaluate import Evaluator
    from factcov.scoring import ScoringPolicy

    if spec not in _evaluators:
        domain, extractor, policy, options = spec
        _evaluators[spec] = Evaluator(
            pickle.loads(domain), extractor=extractor,
            policy=ScoringPolicy.model_validate_json(policy), extractor_options=json.loads(options),
        )
    return score_chunk(_evaluators[spec], chunk)


@contextmanager
def dask_chunk_scorer(
    evaluator: Any, address: str, score_chunk: Callable[[Any, list], Any], window: int = 8
) -> Iterator[Callable[[Iterable[list]], Iterator[Any]]]:
    """``score_chunk(evaluator, chunk)`` run on the cluster (the runner passes its own, so
    this module needs nothing from the runner; the function travels by reference)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise FactcovError("--dask needs the dask extra: pip install 'factcov[dask]'") from None
    try:
        client = Client(address) if address != "local" else Client(processes=False, dashboard_address=None)
    except OSError as exc:
        raise FactcovError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    spec = evaluator_spec(evaluator)

    def score(chunks: Iterable[list]) -> Iterator[Any]:
        in_flight: deque = deque()
        for chunk in chunks:
            in_flight.append(client.submit(score_chunk_on_worker, spec, chunk, score_chunk, pure=False))
            if len(in_flight) >= window:
                yield in_flight.popleft().result()
        while in_flight:
            yield in_flight.popleft().result()

    try:
        yield score
    finally:
        client.close()
