"""The systems table as rows (one dict per system), written as pandas writes it, without pandas.

A run's systems table (``SystemTotals.rows``) is a few rows of numbers, counts and names;
systems.csv and summary.json's ``systems`` were written by pandas (``DataFrame.to_csv``
with ``FLOAT_FORMAT``, ``to_dict(orient="records")``), and importing pandas was ~0.3 s of
every run. ``csv_text`` and ``records`` give pandas' own output for the columns whose
kind pandas would infer unambiguously from the values: all ints (int64), numbers with or
without missing values (float64: a missing one is NaN, an int a float), all missing or
strings with missing values (object). Anything else (a bool, a NumPy integer, rows with
other keys) answers None, and the caller asks pandas (``frame``), as before.
``tests/test_system_rows.py`` compares both ways.
"""

from __future__ import annotations

import csv
import io
import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

FLOAT_FORMAT = "%.10g"
_NONE = type(None)
_INT64 = (-(2**63), 2**63 - 1)


def frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows as the pandas table they stand for."""
    import pandas as pd

    return pd.DataFrame(rows)


def _kind(values: list[Any]) -> str | None:
    """The column pandas would infer: "int", "float", "object" (strings and missing
    values, or only missing ones); None when not certain."""
    kinds = set(map(type, values))
    if kinds == {int}:
        return "int" if all(_INT64[0] <= value <= _INT64[1] for value in values) else None
    if kinds & {int, float} and kinds <= {int, float, _NONE}:
        return "float"
    if kinds <= {str, _NONE}:
        return "object"
    return None


def _columns(rows: list[dict[str, Any]]) -> dict[str, str] | None:
    """Each column's kind (``_kind``), when every row has the same keys in the same order."""
    if not rows:
        return None
    names = list(rows[0])
    if any(list(row) != names for row in rows):
        return None
    kinds = {name: _kind([row[name] for row in rows]) for name in names}
    return None if None in kinds.values() else kinds  # type: ignore[return-value]


def _missing(value: Any) -> bool:
    return value is None or (type(value) is float and math.isnan(value))


def _cell(value: Any, kind: str) -> str:
    if _missing(value):
        return ""
    if kind == "float":
        return FLOAT_FORMAT % value
    return str(value)


def csv_text(rows: list[dict[str, Any]]) -> str | None:
    """``frame(rows).to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\\n")``,
    or None when the rows are not ones this can tell the bytes of."""
    kinds = _columns(rows)
    if kinds is None:
        return None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")  # pandas writes through the csv module too
    writer.writerow(list(kinds))
    writer.writerows([_cell(row[name], kind) for name, kind in kinds.items()] for row in rows)
    return out.getvalue()


def records(rows: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """``frame(rows).to_dict(orient="records")`` (an int of a float column a float, a
    missing number NaN), or None when not certain."""
    kinds = _columns(rows)
    if kinds is None:
        return None
    floats = [name for name, kind in kinds.items() if kind == "float"]
    out = []
    for row in rows:
        record = dict(row)
        for name in floats:
            value = record[name]
            record[name] = math.nan if value is None else float(value)
        out.append(record)
    return out
