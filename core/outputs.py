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
from collections.abc import Hashable
from itertools import chain, repeat
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from factcov import arrow_columns, system_rows
from factcov.evaluate import KNOWLEDGE_CACHE_SIZE, Result
from factcov.jsonl import atomic_path, write_text_atomic
from factcov.model import Verdict, canonical_json, key_json
from factcov.scoring import ScoringPolicy, counts_json
from factcov.trusted import fields_of

if TYPE_CHECKING:
    import pandas as pd

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
    order): a run builds a chunk's columns directly, without a dict per claim. Each
    column is one pass over the chunk's verdicts (a comprehension or a C-level ``map``),
    not one loop appending to twenty lists: a million claims go through here."""
    columns: dict[str, list] = {name: [] for name in CLAIM_SCHEMA.names}
    said = [result for result in results if result.verdicts]  # a text without claims has no rows
    if not said:
        return columns
    # a result's own values, repeated once per claim (chain and repeat: C-level)
    counts = [len(result.verdicts) for result in said]
    own = result_columns(said)
    for name in ("instance_id", "system", "task", "language", "generation_id", "meta"):
        columns[name] = list(chain.from_iterable(map(repeat, own[name], counts)))
    columns["claim_index"] = list(chain.from_iterable(map(range, counts)))
    verdicts = list(chain.from_iterable(map(_VERDICTS, said)))
    # A text's repeats (``Extractor.deterministic``) share its verdicts: each distinct
    # verdict's columns are made once, then given to every row holding it.
    ones, at = shared_rows(list(map(id, verdicts)))
    if len(ones) < len(verdicts):
        _verdict_columns(columns, [verdicts[row] for row in ones])
        for name in _VERDICT_COLUMNS:
            columns[name] = spread(columns[name], at)
    else:
        _verdict_columns(columns, verdicts)
    return columns


def shared_rows(keys: list[Hashable]) -> tuple[list[int], list[int]]:
    """Rows whose keys repeat: one row of each distinct key (its last), in the order the keys
    first appear, and for each row the position of its key among them (``spread`` gives
    each row what was made for its key). Built by C-level dicts: a chunk's million claims."""
    last = dict(zip(keys, range(len(keys))))
    position = dict(zip(last, range(len(last))))
    return list(last.values()), list(map(position.__getitem__, keys))


def spread(values: list, at: list[int]) -> list:
    """``values[i]`` for each ``i`` of ``at`` (``itemgetter``: C-level)."""
    return list(itemgetter(*at)(values)) if len(at) > 1 else [values[i] for i in at]


def _verdict_columns(columns: dict[str, list], verdicts: list[Verdict]) -> None:
    """claims.parquet's columns of each verdict's own (its claim's, its label, its fact)."""
    # each object's fields read at once from the dict pydantic keeps them in (``fields_of``:
    # half the cost of attribute access on a model) and transposed by zip (C)
    claims, labels, facts, expected = zip(*map(_VERDICT_FIELDS, map(fields_of, verdicts)))
    types, keys, values, spans, texts, extractors, out_of_scope = zip(*map(_CLAIM_FIELDS, map(fields_of, claims)))
    columns["type"] = list(types)
    columns["key"] = list(map(key_json, keys))
    columns["value"] = list(map(canonical_json, values))
    columns["span_start"] = [span[0] if span else None for span in spans]
    columns["span_end"] = [span[1] if span else None for span in spans]
    columns["text"] = list(texts)
    columns["verdict"] = list(labels)
    columns["expected"] = [canonical_json(value) if label == "contradicted" else None
                           for value, label in zip(expected, labels)]
    columns["fact_id"] = [None if fact is None else fact.id for fact in facts]
    columns["extractor"] = list(extractors)
    columns["out_of_scope"] = list(out_of_scope)
    columns["value_number"] = [float(value) if kind in _PLAIN_NUMBERS else None if kind in _NEVER_NUMBERS else _number(value)
                               for value, kind in zip(values, map(type, values))]
    columns["value_text"] = [value if isinstance(value, str) else None for value in values]


_VERDICTS = attrgetter("verdicts")
_VERDICT_COLUMNS = ("type", "key", "value", "span_start", "span_end", "text", "verdict", "expected", "fact_id",
                    "extractor", "out_of_scope", "value_number", "value_text")
_VERDICT_FIELDS = itemgetter("claim", "label", "fact", "expected")
_CLAIM_FIELDS = itemgetter("type", "key", "value", "span", "text", "extractor", "out_of_scope")
_PLAIN_NUMBERS = frozenset((int, float))  # exact types: ``_number``'s answer is float(value)
_NEVER_NUMBERS = frozenset((str, list, bool, type(None)))  # exact types: ``_number``'s answer is None


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
    extra_names = tuple(name for name in columns if name not in SCORE_SCHEMA.names)
    rows = list(zip(results, extras))
    if not rows:
        return columns
    # one pass per column over the chunk, models' fields read with ``fields_of`` (see ``claim_columns``)
    results = [result for result, _ in rows]
    scores = list(map(_SCORE, results))
    totals = list(map(_TOTAL, scores))
    used = [policy or result.policy for result in results]
    columns.update(result_columns(results))  # in place: the columns keep SCORE_SCHEMA's order
    for name in COUNT_NAMES:
        columns[name] = list(map(attrgetter(name), totals))
    # a text's repeats (``Extractor.deterministic``) share its score: what is made of a
    # score is made once per distinct (score, policy, instance) and given to each row
    ones, at = shared_rows(list(zip(map(id, scores), map(id, used), map(id, map(_INSTANCE, results)))))
    # what ``result.metrics`` holds when the policy is the result's own (without its lock)
    metrics = [scores[row].metrics(used[row]) for row in ones]
    for name in METRIC_NAMES:
        columns[name] = spread([computed[name] for computed in metrics], at)
    if any("f1" in extra for _, extra in rows):  # a domain's graded headline (``Domain.graded_scores``)
        _graded_headline(columns, [extra for _, extra in rows], used)
    columns["by_type"] = spread([counts_json(scores[row].by_type, used[row]) for row in ones], at)
    columns["missed"] = spread([missed_json(results[row]) for row in ones], at)
    columns["missed_ids"] = [list(score.missed_ids) for score in scores]
    for name in extra_names:
        columns[name] = [extra.get(name) for _, extra in rows]
    return columns


def _graded_headline(columns: dict[str, list], extras: list[dict[str, Any]], used: list[ScoringPolicy]) -> None:
    """Each row's ``precision``/``recall``/``f1`` replaced by the graded ones its domain gave
    (undefined kept undefined); ``weighted_f1``, without type weights the overall F1, too."""
    for name in ("precision", "recall", "f1"):
        columns[name] = [extra[name] if name in extra else value for extra, value in zip(extras, columns[name])]
    columns["weighted_f1"] = [
        extra["f1"] if "f1" in extra and not policy.type_weights else value
        for extra, value, policy in zip(extras, columns["weighted_f1"], used)
    ]


def result_columns(results: list[Result]) -> dict[str, list]:
    """The values of each result's own (its instance's, its generation's, its language):
    one list per column of both files, claims.parquet repeating them per claim."""
    instance_ids, tasks, splits = zip(*map(_INSTANCE_FIELDS, map(fields_of, map(_INSTANCE, results))))
    systems, texts, generation_ids, metas = zip(*map(_GENERATION_FIELDS, map(fields_of, map(_GENERATION, results))))
    return {
        "instance_id": list(instance_ids), "system": list(systems), "task": list(tasks),
        "language": [result.language for result in results], "split": list(splits), "text": list(texts),
        "generation_id": list(generation_ids), "meta": [None if meta is None else canonical_json(meta) for meta in metas],
    }


_INSTANCE_FIELDS = itemgetter("id", "task", "split")
_GENERATION_FIELDS = itemgetter("system", "text", "id", "meta")
_INSTANCE, _GENERATION, _SCORE, _TOTAL = (attrgetter("instance"), attrgetter("generation"), attrgetter("score"),
                                          attrgetter("total"))
COUNT_NAMES = ("n_claims", "supported", "contradicted", "unverifiable", "n_facts", "covered", "out_of_scope")
METRIC_NAMES = ("precision", "recall", "f1", "weighted_f1")


def missed_json(result: Result) -> str:
    """scores.parquet's ``missed``: ``canonical_json`` of the missed facts as {id, type, key,
    value} (for a repeated id, the last fact of it, as a dict by id keeps), each entry
    encoded once per instance: every system's text for it misses some of the same facts."""
    missed_ids = result.score.missed_ids
    if not missed_ids:
        return "[]"
    instance = result.instance
    cached = _MISSED_PARTS.get(instance.id)
    if cached is None or cached[0] is not instance.facts:  # new, or another parse of the instance
        if len(_MISSED_PARTS) >= MISSED_PARTS_CACHE_SIZE:
            del _MISSED_PARTS[next(iter(_MISSED_PARTS))]
        cached = _MISSED_PARTS[instance.id] = (instance.facts, {fact.id: fact for fact in instance.facts}, {})
    _, facts_by_id, parts = cached
    entries = []
    for fact_id in missed_ids:
        entry = parts.get(fact_id)
        if entry is None:
            fact = facts_by_id[fact_id]
            entry = parts[fact_id] = canonical_json({"id": fact_id, "type": fact.type, "key": fact.key,
                                                     "value": fact.value})
        entries.append(entry)
    return "[" + ",".join(entries) + "]"


# Instance id -> (its facts list, facts by id, encoded entries); the facts list is checked
# by identity, so an instance parsed again or another file's instance of the same id
# starts afresh. As many instances as an evaluator keeps knowledge of.
MISSED_PARTS_CACHE_SIZE = KNOWLEDGE_CACHE_SIZE
_MISSED_PARTS: dict[str, tuple[list, dict[str, Any], dict[str, str]]] = {}


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
            self._writer.write_table(arrow_columns.table(columns, self.schema))  # without pandas

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
    kind = type(value)  # the exact types first: a summary holds a few numbers per type per system
    if kind is float:
        return None if math.isnan(value) else round(value, 10)
    if kind is int or kind is str or value is None or kind is bool:
        return value
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float):
        return None if math.isnan(value) else round(value, 10)
    return value


def write_systems_csv(path: Path, table: pd.DataFrame | list[dict[str, Any]]) -> None:
    """systems.csv of a table of systems, or of its rows (``SystemTotals.rows``): written
    without pandas when ``system_rows.csv_text`` can tell pandas' bytes, else by pandas."""
    text = system_rows.csv_text(table) if isinstance(table, list) else None
    if text is not None:
        write_text_atomic(path, text)
        return
    frame = system_rows.frame(table) if isinstance(table, list) else table
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, float_format=system_rows.FLOAT_FORMAT, lineterminator="\n")


def write_summary(path: Path, summary: dict[str, Any]) -> None:
    write_text_atomic(path, json.dumps(_clean(summary), indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def table_records(table: pd.DataFrame | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """summary.json's systems: the rows as pandas gives them (``to_dict``), JSON-safe."""
    records = system_rows.records(table) if isinstance(table, list) else None
    if records is None:
        frame = system_rows.frame(table) if isinstance(table, list) else table
        records = frame.to_dict(orient="records")
    return [_clean(row) for row in records]
