"""A whole scoring run: instances + generations files -> OUTDIR, streaming in chunks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from factcov import __version__
from factcov.aggregate import ranking_summary, system_table
from factcov.errors import InputError
from factcov.evaluate import Evaluator
from factcov.extraction_failures import ExtractionFailures
from factcov.inputs import iter_generations, load_instances
from factcov.jsonl import chunked
from factcov.limits import CHUNK_TEXT_CHARS
from factcov.outdir import RunDirectory, write_manifest
from factcov.outputs import (
    CLAIM_SCHEMA,
    SCORE_SCHEMA,
    ParquetStream,
    claim_rows,
    score_row,
    table_records,
    write_summary,
    write_systems_csv,
)
from factcov.plugins import get_domain
from factcov.scoring import Counts, ScoringPolicy

SCORE_COLUMNS = (
    "system", "n_claims", "supported", "contradicted", "unverifiable", "n_facts", "covered", "out_of_scope",
    "precision", "recall", "f1", "weighted_f1",
)


@dataclass
class RunOutcome:
    outdir: Path
    summary: dict[str, Any]
    systems: pd.DataFrame


def score_files(
    domain_name: str,
    instances_path: str | Path,
    generations_path: str | Path,
    outdir: str | Path,
    *,
    extractor: str | None = None,
    policy: ScoringPolicy | None = None,
    chunk_size: int = 2000,
    jobs: int = 1,
    dask: str | None = None,
    progress: bool = False,
    report: bool = True,
    extractor_options: dict[str, Any] | None = None,
) -> RunOutcome:
    """Score every generation; write claims.parquet, scores.parquet, systems.csv, summary.json.

    Instances are held in memory (each generation looks one up); generations are read
    and scored ``chunk_size`` at a time. All input is checked before a file appears:
    outputs are renamed into place only when the whole run succeeded. With ``jobs > 1``
    chunks are scored by that many worker processes; results keep the input order, so
    the files are the same bytes as with one process. ``dask`` (a scheduler address,
    or ``local`` for an in-process cluster) scores them on a Dask cluster instead.
    """
    domain = get_domain(domain_name)
    evaluator = Evaluator(domain, extractor=extractor, policy=policy, extractor_options=extractor_options)
    policy = evaluator.policy
    outdir = Path(outdir)
    instances = load_instances(instances_path, domain)

    metric_rows: list[tuple] = []
    failures = ExtractionFailures()
    type_counts: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(Counts))
    chunks = chunked(iter_generations(generations_path, instances, domain), chunk_size,
                     weight=lambda pair: len(pair[1].text), budget=CHUNK_TEXT_CHARS)
    run_dir = RunDirectory(outdir)  # locked; every file goes to run_dir.staging, swapped in at commit
    claims_out = scores_out = None
    try:  # from here on, any exit (an error, SIGTERM) removes the staging directory
        staging = run_dir.staging
        claims_out = ParquetStream(staging / "claims.parquet", CLAIM_SCHEMA)
        scores_out = ParquetStream(staging / "scores.parquet", SCORE_SCHEMA)
        with _progress(progress) as advance, _chunk_scorer(evaluator, jobs, dask) as score_chunks:
            for rows in score_chunks(chunks):
                claims_out.write(rows.claims)
                scores_out.write(rows.scores)
                metric_rows.extend(tuple(row[c] for c in SCORE_COLUMNS) for row in rows.scores)
                for system, types in rows.type_counts.items():
                    for type_, counts in types.items():
                        type_counts[system][type_].add(counts)
                advance(len(rows.scores))
                failures.add(rows.failures)
        if not metric_rows:
            raise InputError("no generations to score", path=generations_path)
        table = system_table(pd.DataFrame(metric_rows, columns=SCORE_COLUMNS), policy)
        summary = {
            "signature": evaluator.signature(),
            "factcov_version": __version__,
            "domain": domain.name,
            "domain_version": domain.version,
            "extractor": evaluator.extractor_name,
            "policy": policy.model_dump(),
            "inputs": {"instances": Path(instances_path).name, "generations": Path(generations_path).name},
            "n_instances": len(instances),
            "n_generations": len(metric_rows),
            "systems": table_records(table),
            "by_type": {
                system: {t: c.as_dict(policy) for t, c in sorted(types.items())}
                for system, types in sorted(type_counts.items())
            },
            "rankings": ranking_summary(table),
            "extraction_failures": failures.summary(),
        }
        failures.check(len(metric_rows))
        write_systems_csv(staging / "systems.csv", table)
        write_summary(staging / "summary.json", summary)
        claims_out.close()
        scores_out.close()
        if report:
            _write_report(staging)
        run_dir.commit()
    except BaseException as exc:
        for stream in (claims_out, scores_out):
            if stream is not None:
                stream.abort(exc)
        raise
    finally:
        run_dir.close()
    return RunOutcome(outdir, summary, table)


@dataclass
class ChunkRows:
    claims: list[dict[str, Any]]
    scores: list[dict[str, Any]]
    type_counts: dict[str, dict[str, Counts]]
    failures: list[tuple[str, str, str]] = field(default_factory=list)  # (instance, system, reason)


def rows_of_chunk(evaluator: Evaluator, chunk: list) -> ChunkRows:
    rows = ChunkRows([], [], defaultdict(lambda: defaultdict(Counts)))
    for result in evaluator.evaluate(chunk):
        rows.claims.extend(claim_rows(result))
        rows.scores.append(score_row(result, evaluator.policy))
        if result.extraction_error is not None:
            rows.failures.append((result.instance.id, result.generation.system, result.extraction_error))
        for type_, counts in result.score.by_type.items():
            rows.type_counts[result.generation.system][type_].add(counts)
    rows.type_counts = {system: dict(types) for system, types in rows.type_counts.items()}
    return rows


_worker: dict[str, Evaluator] = {}


def _init_worker(evaluator: Evaluator) -> None:
    _worker["evaluator"] = evaluator


def _score_in_worker(chunk: list) -> ChunkRows:
    return rows_of_chunk(_worker["evaluator"], chunk)


@contextmanager
def _chunk_scorer(
    evaluator: Evaluator, jobs: int, dask: str | None = None
) -> Iterator[Callable[[Iterable[list]], Iterator[ChunkRows]]]:
    """Score chunks here, in ``jobs`` forked processes, or on a Dask cluster (in order, so output bytes match)."""
    if dask:
        from factcov.distributed import dask_chunk_scorer

        with dask_chunk_scorer(evaluator, dask) as score:
            yield score
        return
    if jobs <= 1:
        yield lambda chunks: (rows_of_chunk(evaluator, chunk) for chunk in chunks)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs, initializer=_init_worker, initargs=(evaluator,)) as pool:
        yield lambda chunks: pool.imap(_score_in_worker, chunks)


def _write_report(outdir: Path) -> None:
    from factcov import report

    write = getattr(report, "write_report", None)
    if write is not None:
        write_manifest(outdir)  # the report reads the staged run like any reader; commit rewrites it
        write([outdir], outdir / "report.html")


class _progress:
    """A rich progress counter on stderr when asked for; a no-op otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __enter__(self):
        if not self.enabled:
            return lambda n: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._progress = Progress(
            SpinnerColumn(), TextColumn("scoring"), BarColumn(), MofNCompleteColumn(),
            TextColumn("generations"), TimeElapsedColumn(),
            console=Console(stderr=True), transient=True,
        )
        self._progress.__enter__()
        task = self._progress.add_task("score", total=None)
        return lambda n: self._progress.advance(task, n)

    def __exit__(self, *exc):
        if self.enabled:
            self._progress.__exit__(*exc)
        return False
