"""Arrow tables from one Python list per column, built without pandas.

``pa.Table.from_pydict`` (and ``pa.array`` of any Python list or NumPy array) asks, for each
column, whether it was given a pandas object, and imports pandas to know: ~0.3 s of CPU of
every `factcov score` run, for files whose columns are plain strings, numbers and lists
of strings. ``table(columns, schema)`` builds those columns' arrays from their buffers
(strings from their UTF-8 bytes and offsets, numbers through NumPy, validity bitmaps packed
by NumPy): the same arrays ``from_pydict`` builds, so the same Parquet bytes
(``tests/test_arrow_columns.py`` compares them). A column of another type, or holding a
value of a type the fast path does not take exactly as ``pa.array`` would (a bool among
numbers, an int too large for its column), is converted by ``pa.array``, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np
import pyarrow as pa

_INT32 = (-(2**31), 2**31 - 1)
_EXACT_IN_DOUBLE = 2**53  # past this an int is no exact double: ``pa.array`` refuses it
_NONE = type(None)


def table(columns: Mapping[str, Sequence[Any]], schema: pa.Schema) -> pa.Table:
    """``pa.Table.from_pydict(columns, schema=schema)``, without importing pandas."""
    if list(columns) != schema.names:
        return pa.Table.from_pydict(dict(columns), schema=schema)
    return pa.Table.from_arrays([array(columns[field.name], field.type) for field in schema], schema=schema)


def array(values: Sequence[Any], type_: pa.DataType) -> pa.Array:
    """``pa.array(values, type_)``, built from buffers for the types a run writes."""
    built = None
    if type_ == pa.string():
        built = _strings(values)
    elif type_ == pa.int32():
        built = _numbers(values, np.int32, pa.int32(), frozenset({int, _NONE}), _INT32)
    elif type_ == pa.float64():
        built = _numbers(values, np.float64, pa.float64(), frozenset({int, float, _NONE}),
                         (-_EXACT_IN_DOUBLE, _EXACT_IN_DOUBLE))
    elif type_ == pa.list_(pa.string()):
        built = _string_lists(values, type_)
    return pa.array(values, type_) if built is None else built


def _validity(values: Sequence[Any]) -> tuple[pa.Buffer | None, int]:
    """The validity bitmap of ``values`` (None where none is None) and the count of Nones."""
    missing = [value is None for value in values]
    nulls = sum(missing)
    if not nulls:
        return None, 0
    bits = np.packbits(np.logical_not(np.array(missing, dtype=bool)), bitorder="little")
    return pa.py_buffer(bits.tobytes()), nulls


def _strings(values: Sequence[Any]) -> pa.Array | None:
    """A string column from its UTF-8 bytes and their offsets, worked out by C-level calls
    over the column (an ASCII column, most of them, is encoded in one piece)."""
    kinds = set(map(type, values))
    if not kinds <= {str, _NONE}:
        return None
    validity, nulls = _validity(values) if _NONE in kinds else (None, 0)
    texts = ["" if value is None else value for value in values] if nulls else values
    joined = "".join(texts)
    try:
        if joined.isascii():  # a character a byte
            data, lengths = joined.encode("ascii"), map(len, texts)
        else:
            encoded = list(map(str.encode, texts))
            data, lengths = b"".join(encoded), map(len, encoded)
    except UnicodeEncodeError:  # a lone surrogate: pa.array's own error
        return None
    if len(data) >= _INT32[1]:  # past 32-bit offsets: pa.array's own answer
        return None
    offsets = np.zeros(len(texts) + 1, dtype=np.int32)
    np.cumsum(np.fromiter(lengths, dtype=np.int32, count=len(texts)), out=offsets[1:])
    return pa.Array.from_buffers(pa.string(), len(texts), [validity, pa.py_buffer(offsets.tobytes()),
                                                           pa.py_buffer(data)], null_count=nulls)


def _numbers(values: Sequence[Any], dtype: type, type_: pa.DataType, kinds_taken: frozenset[type],
             bounds: tuple[int, int]) -> pa.Array | None:
    """A number column, when each value is of ``kinds_taken`` (None: missing) and each int
    within ``bounds`` (checked at C speed: the types as a set, the ints' min and max)."""
    kinds = set(map(type, values))
    if not kinds <= kinds_taken:
        return None
    present = [value for value in values if value is not None] if _NONE in kinds else values
    ints = present if kinds - {_NONE} == {int} else [value for value in present if type(value) is int]
    if ints and (min(ints) < bounds[0] or max(ints) > bounds[1]):
        return None
    validity, nulls = _validity(values) if _NONE in kinds else (None, 0)
    data = np.array([0 if value is None else value for value in values] if nulls else values, dtype=dtype)
    return pa.Array.from_buffers(type_, len(values), [validity, pa.py_buffer(data.tobytes())], null_count=nulls)


def _string_lists(values: Sequence[Any], type_: pa.DataType) -> pa.Array | None:
    if not set(map(type, values)) <= {list, tuple, _NONE}:
        return None
    flat = list(chain.from_iterable(value for value in values if value is not None))
    child = _strings(flat)
    if child is None:
        return None
    lengths = [0 if value is None else len(value) for value in values]
    offsets = np.zeros(len(values) + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    validity, nulls = _validity(values)
    return pa.Array.from_buffers(type_, len(values), [validity, pa.py_buffer(offsets.tobytes())],
                                 null_count=nulls, children=[child])
