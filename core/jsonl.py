"""Streaming JSON-lines input with errors that name file, line and field, and atomic output."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TypeVar

from pydantic import BaseModel, ValidationError

from factcov.errors import InputError

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def open_binary(path: str | Path) -> IO[bytes]:
    """Open a file for reading bytes, gunzipping when it starts with the gzip magic."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", path=path)
    if path.is_dir():
        raise InputError("is a directory, expected a file", path=path)
    handle = path.open("rb")
    if handle.read(2) == b"\x1f\x8b":
        handle.close()
        return gzip.open(path, "rb")
    handle.seek(0)
    return handle


def iter_json_lines(path: str | Path) -> Iterator[tuple[int, dict]]:
    """Yield (line number, object) for each non-blank line; raise InputError on bad lines."""
    seen_any = False
    with open_binary(path) as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"not UTF-8 (byte {exc.start}); re-encode the file as UTF-8", path=path, line=number
                ) from None
            if not line.strip():
                continue
            seen_any = True
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"not valid JSON: {exc.msg} at column {exc.colno}", path=path, line=number) from None
            if not isinstance(obj, dict):
                raise InputError(f"expected a JSON object, got {type(obj).__name__}", path=path, line=number)
            yield number, obj
    if not seen_any:
        raise InputError("file is empty: expected one JSON object per line", path=path)


_UNION_TAGS = {"str", "int", "float", "bool", "none", "dict", "list"}


def _field_path(loc: tuple) -> str:
    """Dotted field path without pydantic's union-branch tags ('str', 'list[...]')."""
    parts = [str(p) for p in loc if not (isinstance(p, str) and (p in _UNION_TAGS or "[" in p))]
    return ".".join(parts)


def validation_error(exc: ValidationError, path: str | Path, line: int) -> InputError:
    """The first pydantic error as an InputError naming the field's dotted path.

    A value that fits no branch of a union gives one error per branch; they are merged
    into one message for the field.
    """
    errors = exc.errors()
    first = errors[0]
    field = _field_path(first["loc"])
    if first["type"] == "missing":
        return InputError("missing required field", path=path, line=line, field=field or None)
    same_field = [e for e in errors if _field_path(e["loc"]) == field]
    if len(same_field) > 1:
        expected = "; ".join(dict.fromkeys(e["msg"] for e in same_field))
        message = f"invalid value {json.dumps(first.get('input'), default=str)[:60]} ({expected})"
    else:
        message = first["msg"]
    return InputError(message, path=path, line=line, field=field or None)


def iter_models(path: str | Path, model: type[M]) -> Iterator[tuple[int, M]]:
    """Yield (line number, validated model) for each line of a JSONL file."""
    for number, obj in iter_json_lines(path):
        try:
            yield number, model.model_validate(obj)
        except ValidationError as exc:
            raise validation_error(exc, path, number) from None


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@contextlib.contextmanager
def atomic_path(destination: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``destination``; rename it over on success only."""
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, destination)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text_atomic(destination: str | Path, text: str) -> None:
    with atomic_path(destination) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_jsonl_atomic(destination: str | Path, rows: Iterable[BaseModel | dict]) -> int:
    """Write rows as JSON lines atomically; returns the number written."""
    count = 0
    with atomic_path(destination) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for row in rows:
            if isinstance(row, BaseModel):
                handle.write(row.model_dump_json(exclude_none=False))
            else:
                handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True))
            handle.write("\n")
            count += 1
    return count
