"""A whole scoring run: instances + generations files -> OUTDIR, streaming in chunks."""

from __future__ import annotations

import gc
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from factcov import __version__
from factcov.aggregate import SystemTotals, prepare_summary, ranking_summary
from factcov.canonical_order import canonical_pairs
from factcov.collector import fewer_collections
from factcov.domain import Domain
from factcov.errors import InputError
from factcov.evaluate import Evaluator, ExtractorFactory, Result
from factcov.extraction_failures import ExtractionFailures
from factcov.inputs import iter_generations, load_instances
from factcov.jsonl import chunked
from factcov.limits import CHUNK_TEXT_CHARS
from factcov.model import Generation, Instance
from factcov.outdir import RunDirectory, write_manifest
from factcov.outputs import (
    CLAIM_SCHEMA,
    ParquetStream,
    claim_columns,
    score_columns,
    score_schema,
    table_records,
    write_summary,
    write_systems_csv,
)
from factcov.parallel import forked_scorer, joined, piece_size, pieces
from factcov.plugins import get_domain
from factcov.progress import progress as console_progress
from factcov.provenance import watch_provenance
from factcov.scoring import Counts, ScoringPolicy
from factcov.system_rows import frame as system_frame

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class RunOutcome:
    """What a run wrote: its folder, its summary and its systems table (``systems``, a
    DataFrame made from ``system_rows`` when first asked for: pandas is imported then)."""

    outdir: Path
    summary: dict[str, Any]
    system_rows: list[dict[str, Any]]

    @property
    def systems(self) -> pd.DataFrame:
        frame = self.__dict__.get("_systems")
        if frame is None:
            frame = self.__dict__["_systems"] = system_frame(self.system_rows)
        return frame


def score_files(
    domain_name: str | Domain,
    instances_path: str | Path,
    generations_path: str | Path,
    outdir: str | Path,
    *,
    extractor: str | ExtractorFactory | None = None,
    policy: ScoringPolicy | None = None,
    extractor_options: dict[str, Any] | None = None,
    chunk_size: int = 2000,
    jobs: int = 1,
    dask: str | None = None,
    progress: bool = False,
    report: bool = True,
) -> RunOutcome:
    """Score every generation; write claims.parquet, scores.parquet, systems.csv, summary.json.

    Instances are held in memory (each generation looks one up); generations are read
    and scored ``chunk_size`` at a time. All input is checked before a file appears:
    outputs are renamed into place only when the whole run succeeded. With ``jobs > 1``
    chunks are scored by that many worker processes; results keep the scoring order, so
    the files are the same bytes as with one process. Generations are scored in a
    canonical order (``factcov.canonical_order``: the instances file's, then system by
    name), so the files are the same bytes in any order of the generations file. ``dask`` (a scheduler address,
    or ``local`` for an in-process cluster) scores them on a Dask cluster instead.
    """
    domain = get_domain(domain_name) if isinstance(domain_name, str) else domain_name
    with fewer_collections():  # instances are parsed to be kept: none is garbage to look for
        instances = load_instances(instances_path, domain)
    return score_run(
        domain, instances, canonical_pairs(iter_generations(generations_path, instances, domain), instances), outdir,
        inputs={"instances": input_name(instances_path), "generations": input_name(generations_path)},
        extractor=extractor, policy=policy, extractor_options=extractor_options, chunk_size=chunk_size,
        jobs=jobs, dask=dask, progress=progress, report=report, empty_input=generations_path,
    )


def input_name(path: str | Path) -> str:
    """A file's name as summary.json records it: a name whose bytes are not UTF-8 (held
    by Python as lone surrogates) with those bytes as \\xNN escapes; it could not be
    written into summary.json, and the run failed after it was scored."""
    name = Path(path).name
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return name


@fewer_collections()  # the whole run: its chunks' rows, then the summary's imports and tables
def score_run(
    domain: Domain,
    instances: Mapping[str, Instance],
    pairs: Iterable[tuple[Instance, Generation]],
    outdir: str | Path,
    *,
    inputs: dict[str, str],
    extractor: str | ExtractorFactory | None = None,
    policy: ScoringPolicy | None = None,
    extractor_options: dict[str, Any] | None = None,
    chunk_size: int = 2000,
    jobs: int = 1,
    dask: str | None = None,
    progress: bool = False,
    report: bool = True,
    empty_input: str | Path | None = None,
) -> RunOutcome:
    """The run of ``score_files`` over instances and (instance, generation) pairs already read.

    Adapters (``factcov rag score``) that turn another input format into instances and
    generations call this, so every domain's run writes the same files.
    """
    if dask is not None and not dask.strip():  # an empty address would score here, in silence
        raise InputError("--dask is empty: give a scheduler address such as tcp://host:8786, or 'local'")
    evaluator = Evaluator(domain, extractor=extractor, policy=policy, extractor_options=extractor_options)
    pairs, provenance = watch_provenance(pairs)  # generate's meta: prompt variant, truncated answers
    policy = evaluator.policy
    outdir = Path(outdir)
    extras = tuple(domain.metrics)

    totals = SystemTotals(extras, graded=domain.graded_scores)  # bounded per system: nothing per generation is kept
    failures = ExtractionFailures()
    type_counts: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(Counts))
    chunks = chunked(pairs, chunk_size, weight=lambda pair: pair[1].held_chars(), budget=CHUNK_TEXT_CHARS)
    run_dir = RunDirectory(outdir)  # locked; every file goes to run_dir.staging, swapped in at commit
    claims_out = scores_out = None
    # the instances live for the whole run: out of the collector's sight (and, in forked
    # workers, their pages stay shared instead of being touched by each collection). The
    # young generations are collected first, not the old one: a full collection walks every
    # object of the imported libraries (~50 ms of each run) to find the odd old cycle,
    # which the freeze only keeps until the run's end.
    gc.collect(1)
    gc.freeze()
    try:  # from here on, any exit (an error, SIGTERM) removes the staging directory
        staging = run_dir.staging
        claims_out = ParquetStream(staging / "claims.parquet", CLAIM_SCHEMA)
        scores_out = ParquetStream(staging / "scores.parquet", score_schema(extras, tuple(domain.lists)))
        with (console_progress("scoring", "generations", progress) as advance,
              _chunk_scorer(evaluator, jobs, dask, instances, chunk_size) as score_chunks,
              fewer_collections()):  # the rows of every chunk are as many short-lived containers
            for rows in score_chunks(chunks):
                claims_out.write_columns(rows.claims)
                scores_out.write_columns(rows.scores)
                totals.add_columns(rows.scores)
                for system, types in rows.type_counts.items():
                    for type_, counts in types.items():
                        type_counts[system][type_].add(counts)
                advance(len(rows.scores["system"]))
                failures.add(rows.failures)
        if not totals.n:
            raise InputError("no generations to score", path=empty_input)
        table = totals.rows(policy)  # rows, written without pandas (``factcov.system_rows``)
        summary = {
            **provenance.summary(evaluator.signature()),
            "factcov_version": __version__,
            "domain": domain.name,
            "domain_version": domain.version,
            "extractor": evaluator.extractor_name,
            "policy": policy.model_dump(),
            "metrics": list(extras),
            "lists": list(domain.lists),
            "inputs": inputs,
            "n_instances": len(instances),
            "n_generations": totals.n,
            "systems": table_records(table),
            "by_type": {
                system: {t: c.as_dict(policy) for t, c in sorted(types.items())}
                for system, types in sorted(type_counts.items())
            },
            "rankings": ranking_summary(table),
            "extraction_failures": failures.summary(),
        }
        if domain.graded_scores:  # only then: other domains' summaries stay the same bytes
            summary["graded_scores"] = True
        failures.check(totals.n)
        write_systems_csv(staging / "systems.csv", table)
        write_summary(staging / "summary.json", summary)
        claims_out.close()
        scores_out.close()
        if report:
            _write_report(staging, run_dir.outdir.name)
        run_dir.commit()
    except BaseException as exc:
        for stream in (claims_out, scores_out):
            if stream is not None:
                stream.abort(exc)
        raise
    finally:
        gc.unfreeze()
        run_dir.close()
    return RunOutcome(outdir, summary, table)


@dataclass
class ChunkRows:
    """A chunk's rows of claims.parquet and scores.parquet, one list per column (cheap to
    build, to send back from a worker and to turn into an Arrow table)."""

    claims: dict[str, list]
    scores: dict[str, list]
    type_counts: dict[str, dict[str, Counts]]
    failures: list[tuple[str, str, str]] = field(default_factory=list)  # (instance, system, reason)

    @staticmethod
    def join(parts: list[ChunkRows]) -> ChunkRows:
        """Consecutive pieces' rows as the rows of the chunk they were cut from: the rows
        one ``rows_of_chunk`` call over the whole chunk gives (a column some piece lacks,
        a domain's optional extra, is None in that piece's rows)."""
        return ChunkRows(_joined_columns([p.claims for p in parts]), _joined_columns([p.scores for p in parts]),
                         _joined_type_counts([p.type_counts for p in parts]),
                         [failure for part in parts for failure in part.failures])


def _joined_columns(parts: list[dict[str, list]]) -> dict[str, list]:
    names = list(dict.fromkeys(name for part in parts for name in part))
    joined: dict[str, list] = {name: [] for name in names}
    for part in parts:
        rows = len(next(iter(part.values()))) if part else 0
        for name, column in joined.items():
            column.extend(part[name] if name in part else [None] * rows)
    return joined


def _joined_type_counts(parts: list[dict[str, dict[str, Counts]]]) -> dict[str, dict[str, Counts]]:
    joined: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(Counts))
    for part in parts:
        for system, types in part.items():
            for type_, counts in types.items():
                joined[system][type_].add(counts)
    return {system: dict(types) for system, types in joined.items()}


def rows_of_chunk(evaluator: Evaluator, chunk: list) -> ChunkRows:
    results = evaluator.evaluate(chunk)
    domain = evaluator.domain
    extras = extra_metrics(evaluator, results)
    type_counts: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(Counts))
    failures = []
    for result in results:
        if result.extraction_error is not None:
            failures.append((result.instance.id, result.generation.system, result.extraction_error))
        system_counts = type_counts[result.generation.system]
        for type_, counts in result.score.by_type.items():
            system_counts[type_].add(counts)
    return ChunkRows(
        claim_columns(results),
        score_columns(results, extras=extras, extra_names=(*domain.metrics, *domain.lists)),
        {system: dict(types) for system, types in type_counts.items()},
        failures,
    )


def extra_metrics(evaluator: Evaluator, results: list[Result]) -> list[dict[str, Any]]:
    """The domain's extra metrics of each result (its hook sees one language at a time)."""
    domain = evaluator.domain
    if not domain.metrics and not domain.lists:
        return [{}] * len(results)  # read only
    by_language: dict[str, list[int]] = defaultdict(list)
    for index, result in enumerate(results):
        by_language[result.language].append(index)
    out: list[dict[str, Any]] = [{} for _ in results]
    for language, indices in sorted(by_language.items()):
        group = [results[i] for i in indices]
        values = domain.extra_metrics(group, evaluator.extractor_for(language), evaluator.policy)
        for index, metrics in zip(indices, values):
            out[index] = {name: _metric(metrics.get(name), domain.name, name) for name in domain.metrics}
            if domain.graded_scores:  # the domain's graded headline, where it gave one
                out[index].update({name: _metric(metrics[name], domain.name, name)
                                   for name in GRADED_METRICS if name in metrics})
            out[index].update({name: [str(v) for v in metrics.get(name) or ()] for name in domain.lists})
    return out


GRADED_METRICS = ("precision", "recall", "f1")  # what a domain with ``graded_scores`` may supply


def _metric(value: Any, domain: str, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"domain '{domain}' returned {value!r} for metric '{name}'; expected a number or None")
    return float(value)


# One process scores a chunk SCORE_PIECE generations at a time (a chunk is still one row
# group of each file): the containers of 250 results (claims, verdicts, scores: ~65 per
# f1 text) stay under the collector's raised first threshold (``fewer_collections``), so
# they die by reference counting untraversed, where a whole chunk's ~130,000 were
# traversed by a dozen collections (0.45 s of a 200,000-claim run). --jobs pieces are as small.
SCORE_PIECE = 250


@contextmanager
def _chunk_scorer(
    evaluator: Evaluator, jobs: int, dask: str | None = None, instances: Mapping[str, Instance] | None = None,
    chunk_size: int = 2000,
) -> Iterator[Callable[[Iterable[list]], Iterator[ChunkRows]]]:
    """Score chunks here, in ``jobs`` forked processes, or on a Dask cluster (in order, so output bytes match).

    In parallel, chunks are scored as pieces (``factcov.parallel``) joined back per chunk;
    while the first pieces are scored the parent loads what the summary needs."""
    if jobs <= 1 and not dask:
        def score_here(chunks: Iterable[list]) -> Iterator[ChunkRows]:
            counts: deque = deque()
            scored = (rows_of_chunk(evaluator, piece) for piece in pieces(chunks, SCORE_PIECE, counts))
            return joined(scored, counts, ChunkRows.join)

        yield score_here
        return
    if dask:
        from factcov.distributed import dask_chunk_scorer

        scorer = dask_chunk_scorer(evaluator, dask, rows_of_chunk, while_waiting=prepare_summary)
    else:
        scorer = forked_scorer(evaluator, jobs, instances if instances is not None else {}, rows_of_chunk,
                               while_waiting=prepare_summary)
    size = piece_size(chunk_size, max(jobs, 2))
    with scorer as score_pieces:
        def score(chunks: Iterable[list]) -> Iterator[ChunkRows]:
            counts: deque = deque()
            return joined(score_pieces(pieces(chunks, size, counts)), counts, ChunkRows.join)

        yield score


def _write_report(outdir: Path, name: str) -> None:
    """The run's own report, read from the staging directory ``outdir`` but named after
    the OUTDIR (``name``) it becomes: the staging name differs from run to run, and the
    report of identical runs, hence their manifest, must be the same bytes."""
    from factcov import report

    write = getattr(report, "write_report", None)
    if write is not None:
        write_manifest(outdir)  # the report reads the staged run like any reader; commit rewrites it
        write([outdir], outdir / "report.html", names=[name])
