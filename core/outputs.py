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
from factcov.scoring import ScoringPolicy

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
    passed = _passed_through(result)
    rows = []
    for index, verdict in enumerate(result.verdicts):
        claim = verdict.claim
        rows.append(
            {
                "instance_id": result.instance.id,
                "system": result.generation.system,
                "task": result.instance.task,
                "language": result.language,
                "claim_index": index,
                "type": claim.type,
                "key": canonical_json(claim.key),
                "value": canonical_json(claim.value),
                "span_start": claim.span[0] if claim.span else None,
                "span_end": claim.span[1] if claim.span else None,
                "text": claim.text,
                "verdict": verdict.label,
                "expected": canonical_json(verdict.expected) if verdict.label == "contradicted" else None,
                "fact_id": verdict.fact.id if verdict.fact is not None else None,
                "extractor": claim.extractor,
                "out_of_scope": claim.out_of_scope,
                "value_number": _number(claim.value),
                "value_text": claim.value if isinstance(claim.value, str) else None,
                **passed,
            }
        )
    return rows


def score_row(result: Result, policy: ScoringPolicy | None = None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """One scores.parquet row; ``policy`` defaults to the one the result was scored under."""
    policy = policy or result.policy
    score = result.score
    facts_by_id = {fact.id: fact for fact in result.instance.facts}
    missed = [
        {"id": i, "type": facts_by_id[i].type, "key": facts_by_id[i].key, "value": facts_by_id[i].value}
        for i in score.missed_ids
    ]
    return {
        "instance_id": result.instance.id,
        "system": result.generation.system,
        "task": result.instance.task,
        "language": result.language,
        "split": result.instance.split,
        **{k: v for k, v in score.total.as_dict(policy).items() if k not in ("precision", "recall", "f1")},
        **(result.metrics if policy == result.policy else score.metrics(policy)),
        "by_type": canonical_json({t: c.as_dict(policy) for t, c in score.by_type.items()}),
        "missed": canonical_json(missed),
        "text": result.generation.text,
        "missed_ids": list(score.missed_ids),
        **_passed_through(result),
        **(extra or {}),
    }


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
