"""The benchmark as data: an instance file's facts as one table (``factcov export facts``,
``factcov.api.facts_frame``), and its instances as objects (``factcov.api.read_instances``).

An instance file is not one self-contained object per line (format 2 stores shared
context blocks once and refers to them with ``{"$block": ID}``; docs/cli.md, "Input
formats"): these read it the way ``factcov score`` does, blocks resolved.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import pyarrow as pa

from factcov.errors import InputError
from factcov.instance_files import iter_instance_file
from factcov.model import Instance, canonical_json, key_json

FACT_SCHEMA = pa.schema(
    [
        ("instance_id", pa.string()),
        ("domain", pa.string()),
        ("task", pa.string()),
        ("language", pa.string()),
        ("split", pa.string()),
        ("fact_type", pa.string()),
        ("fact_id", pa.string()),  # joins claims.parquet's fact_id
        ("key", pa.string()),  # canonical JSON, as in claims.parquet
        ("value", pa.string()),  # canonical JSON
        # typed copies of ``value`` where its type allows
        ("value_number", pa.float64()),
        ("value_text", pa.string()),
    ]
)
FORMATS = {".parquet": "parquet", ".csv": "csv"}


def read_instances(path: str | Path) -> list[Instance]:
    """Every instance of a format-1 or format-2 instance file (gzip allowed), blocks resolved."""
    return [instance for _, instance in iter_instance_file(path)]


def fact_columns(instances: Iterable[Instance]) -> dict[str, list]:
    columns: dict[str, list] = {name: [] for name in FACT_SCHEMA.names}
    for instance in instances:
        for fact in instance.facts:
            value = fact.value
            columns["instance_id"].append(instance.id)
            columns["domain"].append(instance.domain)
            columns["task"].append(instance.task)
            columns["language"].append(instance.language)
            columns["split"].append(instance.split)
            columns["fact_type"].append(fact.type)
            columns["fact_id"].append(fact.id)
            columns["key"].append(key_json(fact.key))
            columns["value"].append(canonical_json(value))
            is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
            columns["value_number"].append(float(value) if is_number else None)
            columns["value_text"].append(value if isinstance(value, str) else None)
    return columns


def facts_frame(source: str | Path | Iterable[Instance]) -> pd.DataFrame:
    """One row per fact of an instance file (or of instances): ``FACT_SCHEMA``'s columns."""
    instances = iter_instance_file(source) if isinstance(source, (str, Path)) else ((0, i) for i in source)
    table = pa.Table.from_pydict(fact_columns(instance for _, instance in instances), schema=FACT_SCHEMA)
    return table.to_pandas()


def export_format(out: str | Path) -> str:
    """'parquet' or 'csv' from the output's suffix; InputError for any other."""
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"write facts to a .parquet or .csv file, not '{suffix or Path(out).name}'",
                         path=out, field="--out")
    return FORMATS[suffix]


def export_facts(instances: str | Path, out: str | Path) -> int:
    """Write the facts of an instance file to ``out`` (.parquet or .csv), atomically; the
    number of facts written. An existing ``out`` is left as it was when there are none."""
    import pyarrow.csv as pa_csv
    import pyarrow.parquet as pq

    from factcov.jsonl import atomic_path

    form = export_format(out)
    table = pa.Table.from_pydict(fact_columns(i for _, i in iter_instance_file(instances)), schema=FACT_SCHEMA)
    if table.num_rows == 0:
        raise InputError("no facts to write (no instances, or none with facts); nothing written", path=instances)
    with atomic_path(out) as tmp:
        if form == "parquet":
            pq.write_table(table, tmp)
        else:
            pa_csv.write_csv(table, tmp)
    return table.num_rows
