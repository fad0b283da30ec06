"""Parquet columns built without pandas (``factcov.arrow_columns``) are the arrays, and the
file bytes, that ``pa.Table.from_pydict`` gives; a `factcov score` run imports no pandas."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from factcov import arrow_columns
from factcov.outputs import CLAIM_SCHEMA, score_schema
from tests.test_startup_imports import imported

WEATHER_INSTANCES = Path(__file__).resolve().parents[1] / "domains" / "weather" / "demo_instances.jsonl"

COLUMNS = {
    pa.string(): [["a", None, "", "é ✓ 中", "x" * 300], [], [None, None], ["only"]],
    pa.int32(): [[0, None, -5, 2**31 - 1, -(2**31)], [], [None], [7] * 20],
    pa.float64(): [[0.5, None, math.nan, math.inf, -0.0, 3, 2**53], [], [None, None], [1e-300]],
    pa.list_(pa.string()): [[["a", "b"], [], None, ["é", None], ("t",)], [], [None], [[]]],
}


@pytest.mark.parametrize("type_", list(COLUMNS), ids=str)
def test_each_column_is_the_array_pa_array_builds(type_):
    for values in COLUMNS[type_]:
        built = arrow_columns.array(values, type_)
        expected = pa.array(values, type_)
        # reprs: NaN equals no NaN, and -0.0 equals 0.0
        assert built.type == expected.type and _reprs(built) == _reprs(expected), values
        assert built.null_count == expected.null_count
        built.validate(full=True)


def _reprs(array: pa.Array) -> list[str]:
    return [repr(value) for value in array.to_pylist()]


@pytest.mark.parametrize(("type_", "values"), [
    (pa.int32(), [1, True]),  # a bool among ints: pa.array's own answer
    (pa.int32(), [2**31]),  # too large: pa.array's own error
    (pa.float64(), [2**60 + 1]),  # no exact double: pa.array's own error
    (pa.string(), ["a", b"bytes"]),
    (pa.list_(pa.string()), [["a"], "not a list"]),
])
def test_values_the_fast_path_does_not_take_go_to_pa_array(type_, values):
    try:
        expected = pa.array(values, type_)
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as error:
        with pytest.raises(type(error)):
            arrow_columns.array(values, type_)
    else:
        assert arrow_columns.array(values, type_).equals(expected)


def _parquet(table: pa.Table) -> bytes:
    out = io.BytesIO()
    with pq.ParquetWriter(out, table.schema, compression="zstd") as writer:
        writer.write_table(table)
    return out.getvalue()


def test_a_table_writes_the_parquet_bytes_from_pydict_writes():
    rows = 5
    columns: dict[str, list] = {}
    for field in score_schema(("extra",), ("items",)):
        pool = next(values for values in COLUMNS[field.type] if len(values) >= rows)
        columns[field.name] = pool[:rows]
    schema = score_schema(("extra",), ("items",))
    assert _parquet(arrow_columns.table(columns, schema)) == _parquet(pa.Table.from_pydict(columns, schema=schema))
    claims = {field.name: next(v for v in COLUMNS[field.type] if len(v) >= 4)[:4] for field in CLAIM_SCHEMA}
    assert _parquet(arrow_columns.table(claims, CLAIM_SCHEMA)) == _parquet(pa.Table.from_pydict(claims, schema=CLAIM_SCHEMA))


def test_a_score_run_imports_no_pandas(tmp_path):
    generations = WEATHER_INSTANCES.with_name("demo_nws.jsonl")
    found = imported("score", "-d", "weather", "-i", str(WEATHER_INSTANCES), "-g", str(generations),
                     "-o", str(tmp_path / "out"), "--no-report", "-q")
    assert found["code"] == 0 and (tmp_path / "out" / "systems.csv").is_file()
    assert "pandas" not in found["modules"]


def test_a_lone_surrogate_is_refused_as_pa_array_refuses_it():
    values = ["ok", "\ud800"]
    with pytest.raises(Exception) as theirs:
        pa.array(values, pa.string())
    with pytest.raises(type(theirs.value)):
        arrow_columns.array(values, pa.string())
