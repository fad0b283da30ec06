"""The files of a scoring run, written atomically and byte-for-byte reproducibly.

OUTDIR/claims.parquet   one row per claim with its verdict (value as JSON and, where its
                        type allows, as value_number/value_text), the generation's id and meta
OUTDIR/scores.parquet   one row per generation: counts, P/R/F1, per-type JSON, missed facts
                        (JSON and the list missed_ids), the generation's id and meta,
                        then the domain's extra metrics (``Domain.metrics``), one column each
OUTDIR/systems.csv      one row per system (see ``factcov.aggregate.system_table``)
OUTDIR/summary.json     signature, inputs, systems, per-type scores, rankings
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from factcov.evaluate import Result
from factcov.jsonl import atomic_path, write_text_atomic
from factcov.model import canonical_json
from factcov.scoring import ScoringPolicy, counts_json

CLAIM_SCHEMA = pa.schema(
    [
        ("instance_id", pa.string()),
        ("system", pa.string()),
        ("task", pa.string()),
        ("language", pa.string()),
        ("claim_index", pa.int32()),
        ("type", pa.string()),
        ("key", pa.string()),
        ("value", pa.string()),
        ("span_start", pa.int32()),
        ("span_end", pa.int32()),
        ("text", pa.string()),
        ("verdict", pa.string()),
        ("expected", pa.string()),
        ("fact_id", pa.string()),
        ("extractor", pa.string()),
        ("out_of_scope", pa.string()),
        # typed copies of ``value`` where its type allows (``value`` stays canonical JSON)
        ("value_number", pa.float64()),
        ("value_text", pa.string()),
        ("generation_id", pa.string()),
        ("meta", pa.string()),
    ]
)
SCORE_SCHEMA = pa.schema(
    [
        ("instance_id", pa.string()),
        ("system", pa.string()),
        ("task", pa.string()),
        ("language", pa.string()),
        ("split", pa.string()),
        ("n_claims", pa.int32()),
        ("supported", pa.int32()),
        ("contradicted", pa.int32()),
        ("unverifiable", pa.int32()),
        ("n_facts", pa.int32()),
        ("covered", pa.int32()),
        ("out_of_scope", pa.int32()),
        ("precision", pa.float64()),
        ("recall", pa.float64()),
        ("f1", pa.float64()),
        ("weighted_f1", pa.float64()),
        ("by_type", pa.string()),
        ("missed", pa.string()),
        ("text", pa.string()),
        ("missed_ids", pa.list_(pa.string())),
        ("generation_id", pa.string()),
        ("meta", pa.string()),
    ]
)


def score_schema(extra_metrics: tuple[str, ...] = (), extra_lists: tuple[str, ...] = ()) -> pa.Schema:
    """scores.parquet's columns: the core's, then a float column per domain metric and a
    list-of-strings column per domain list."""
    clash = [name for name in (*extra_metrics, *extra_lists) if name in SCORE_SCHEMA.names]
    if clash:
        raise ValueError(f"domain metrics {clash} clash with scores.parquet's own columns")
    return pa.schema([*SCORE_SCHEMA, *((name, pa.float64()) for name in extra_metrics),
                      *((name, pa.list_(pa.string())) for name in extra_lists)])


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _passed_through(result: Result) -> dict[str, Any]:
    """The generation's own id and meta (canonical JSON), for joins with the user's data."""
    meta = result.generation.meta
    return {"generation_id": result.generation.id, "meta": None if meta is None else canonical_json(meta)}


def claim_rows(result: Result) -> list[dict[str, Any]]:
    """claims.parquet's rows of one result, as dicts (``claim_columns`` is what a run writes)."""
    return _as_rows(claim_columns([result]))


def score_row(result: Result, policy: ScoringPolicy | None = None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """One scores.parquet row; ``policy`` defaults to the one the result was scored under."""
    return _as_rows(score_columns([result], policy, [extra or {}]))[0]


def _as_rows(columns: dict[str, list]) -> list[dict[str, Any]]:
    names = list(columns)
    return [dict(zip(names, values)) for values in zip(*columns.values())]


def claim_columns(results: list[Result]) -> dict[str, list]:
    """claims.parquet's rows of ``results`` as one list per column (in CLAIM_SCHEMA's
    order): a run builds a chunk's columns directly, without a dict per claim."""
    columns: dict[str, list] = {name: [] for name in CLAIM_SCHEMA.names}
    (instance_ids, systems, tasks, languages, indices, types, keys, values, span_starts, span_ends, texts,
     labels, expected, fact_ids, extractors, out_of_scope, numbers, value_texts, generation_ids,
     metas) = columns.values()
    for result in results:
        verdicts = result.verdicts
        n = len(verdicts)
        if not n:
            continue
        meta = result.generation.meta
        for column, value in (
            (instance_ids, result.instance.id), (systems, result.generation.system),
            (tasks, result.instance.task), (languages, result.language),
            (generation_ids, result.generation.id), (metas, None if meta is None else canonical_json(meta)),
        ):
            column.extend([value] * n)
        indices.extend(range(n))
        for verdict in verdicts:
            claim = verdict.claim
            value = claim.value
            span = claim.span
            label = verdict.label
            types.append(claim.type)
            keys.append(canonical_json(claim.key))
            values.append(canonical_json(value))
            span_starts.append(span[0] if span else None)
            span_ends.append(span[1] if span else None)
            texts.append(claim.text)
            labels.append(label)
            expected.append(canonical_json(verdict.expected) if label == "contradicted" else None)
            fact_ids.append(verdict.fact.id if verdict.fact is not None else None)
            extractors.append(claim.extractor)
            out_of_scope.append(claim.out_of_scope)
            numbers.append(_number(value))
            value_texts.append(value if isinstance(value, str) else None)
    return columns


def score_columns(
    results: list[Result], policy: ScoringPolicy | None = None, extras: list[dict[str, Any]] | None = None,
    extra_names: tuple[str, ...] = (),
) -> dict[str, list]:
    """scores.parquet's rows of ``results`` as one list per column: the core's columns,
    then the domain's ``extra_names`` (each result's ``extras`` entry, None if absent).
    ``policy`` defaults to the one each result was scored under."""
    columns: dict[str, list] = {name: [] for name in SCORE_SCHEMA.names}
    for name in extra_names:
        columns[name] = []
    extras = extras or [{} for _ in results]
    for name in (n for extra in extras for n in extra):  # a caller's extra keys, in their order
        columns.setdefault(name, [])
    counts = [columns[name] for name in ("n_claims", "supported", "contradicted", "unverifiable", "n_facts",
                                          "covered", "out_of_scope")]
    metric_columns = [columns[name] for name in ("precision", "recall", "f1", "weighted_f1")]
    extra_columns = [(name, column) for name, column in columns.items() if name not in SCORE_SCHEMA.names]
    for result, extra in zip(results, extras):
        used = policy or result.policy
        score = result.score
        total = score.total
        instance, generation = result.instance, result.generation
        columns["instance_id"].append(instance.id)
        columns["system"].append(generation.system)
        columns["task"].append(instance.task)
        columns["language"].append(result.language)
        columns["split"].append(instance.split)
        for column, value in zip(counts, (total.n_claims, total.supported, total.contradicted, total.unverifiable,
                                          total.n_facts, total.covered, total.out_of_scope)):
            column.append(value)
        metrics = result.metrics if used == result.policy else score.metrics(used)
        for column, name in zip(metric_columns, ("precision", "recall", "f1", "weighted_f1")):
            column.append(metrics[name])
        columns["by_type"].append(counts_json(score.by_type, used))
        columns["missed"].append(canonical_json(_missed(result)))
        columns["text"].append(generation.text)
        columns["missed_ids"].append(list(score.missed_ids))
        columns["generation_id"].append(generation.id)
        meta = generation.meta
        columns["meta"].append(None if meta is None else canonical_json(meta))
        for name, column in extra_columns:
            column.append(extra.get(name))
    return columns


def _missed(result: Result) -> list[dict[str, Any]]:
    missed_ids = result.score.missed_ids
    if not missed_ids:
        return []
    facts_by_id = {fact.id: fact for fact in result.instance.facts}
    return [{"id": i, "type": facts_by_id[i].type, "key": facts_by_id[i].key, "value": facts_by_id[i].value}
            for i in missed_ids]


class ParquetStream:
    """Append row batches to a Parquet file that appears only when ``close`` succeeds."""

    def __init__(self, destination: Path, schema: pa.Schema) -> None:
        self.schema = schema
        self._context = atomic_path(destination)
        self._tmp = self._context.__enter__()
        self._writer = pq.ParquetWriter(self._tmp, schema, compression="zstd")
        self._open = True

    def write(self, rows: list[dict[str, Any]]) -> None:
        if rows:
            self._writer.write_table(pa.Table.from_pylist(rows, schema=self.schema))

    def write_columns(self, columns: dict[str, list]) -> None:
        """Append one row group from one list per column (``claim_columns``, ``score_columns``)."""
        if columns and len(next(iter(columns.values()))):
            self._writer.write_table(pa.Table.from_pydict(columns, schema=self.schema))

    def close(self) -> None:
        self._open = False
        self._writer.close()
        self._context.__exit__(None, None, None)

    def abort(self, exc: BaseException) -> None:
        if not self._open:
            return
        self._open = False
        try:
            self._writer.close()
        except Exception:
            pass  # the disk may be full; the temp file is removed either way
        try:
            self._context.__exit__(type(exc), exc, exc.__traceback__)
        except BaseException:
            pass


def _clean(value: Any) -> Any:
    """JSON-safe: NaN -> null, numpy scalars -> Python, floats rounded for stable bytes."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float):
        return None if math.isnan(value) else round(value, 10)
    return value


def write_systems_csv(path: Path, table: pd.DataFrame) -> None:
    with atomic_path(path) as tmp:
        table.to_csv(tmp, index=False, float_format="%.10g", lineterminator="\n")


def write_summary(path: Path, summary: dict[str, Any]) -> None:
    write_text_atomic(path, json.dumps(_clean(summary), indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def table_records(table: pd.DataFrame) -> list[dict[str, Any]]:
    return [_clean(row) for row in table.to_dict(orient="records")]
