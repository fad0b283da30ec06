"""Streaming JSON-lines input with errors that name file, line and field, and atomic output."""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from factcov.errors import InputError, LimitExceeded
from factcov.limits import MAX_INT_DIGITS, MAX_JSON_DEPTH, MAX_LINE_BYTES, MAX_TEXT_CHARS

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def open_binary(path: str | Path) -> IO[bytes]:
    """Open a file for reading bytes, gunzipping when it starts with the gzip magic."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", path=path)
    if path.is_dir():
        raise InputError("is a directory, expected a file", path=path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror}", path=path) from None
    # peek, not read + seek: a pipe (`-g <(zcat gens.jsonl.gz)`, a FIFO) cannot seek back
    if handle.peek(2)[:2] == b"\x1f\x8b":
        if handle.seekable():
            handle.close()
            return gzip.open(path, "rb")
        return _GzipOfStream(fileobj=handle)
    return handle


class _GzipOfStream(gzip.GzipFile):
    """A gzip reader of an already open stream that closes the stream with itself."""

    def close(self) -> None:
        stream = self.fileobj
        try:
            super().close()
        finally:
            if stream is not None:
                stream.close()


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number; write null or a finite number")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is out of range for a float")
    return value


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"integer of {len(text)} digits is out of range")
    return int(text)


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_parse_float, parse_int=_parse_int)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _decode(line: str) -> Any:
    """``_DECODER.decode(line)``: the scanner called directly for a line that is one JSON
    value and its line break (every line of a well-formed file); anything else, and every
    error, goes through ``decode`` itself, so results and messages are its own."""
    try:
        obj, end = _SCAN(line, 0)
    except Exception:  # noqa: BLE001 - decode raises the same error, with its own message
        return _DECODER.decode(line)
    if end == len(line) or line[end:] in _LINE_ENDS:
        return obj
    return _DECODER.decode(line)


_SCAN = _DECODER.scan_once
_LINE_ENDS = frozenset(("\n", "\r\n", "\r"))  # what decode's trailing whitespace skip takes, commonly


def _depth_over(line: str, limit: int) -> bool:
    """Cheap upper bound of the nesting depth (brackets inside strings count too, which only errs safe)."""
    if line.count("[") + line.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for char in line:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _lone_surrogate(value: Any, field: str = "") -> str | None:
    """The dotted path of the first string holding a lone surrogate (not encodable as UTF-8)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return field or "(value)"
        return None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _lone_surrogate(key, field) if isinstance(key, str) else None
        found = found or _lone_surrogate(item, f"{field}.{key}" if field else str(key))
        if found:
            return found
    return None


def parse_json_line(line: str, path: str | Path, number: int | None = None) -> Any:
    """One JSON document with every hazard a user's file can hold turned into an InputError:
    syntax, NaN/Infinity, numbers past a float, nesting deeper than MAX_JSON_DEPTH, and
    lone surrogates (\\ud800) that no UTF-8 file can store."""
    if line.count("[") + line.count("{") > MAX_JSON_DEPTH and _depth_over(line, MAX_JSON_DEPTH):
        raise InputError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels", path=path, line=number)
    try:
        obj = _decode(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg} at column {exc.colno}", path=path, line=number) from None
    except (ValueError, OverflowError) as exc:
        raise InputError(f"not valid JSON: {exc}", path=path, line=number) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", path=path, line=number) from None
    if "\\u" in line and _SURROGATE_ESCAPE.search(line):
        field = _lone_surrogate(obj)
        if field is not None:
            raise InputError(
                "lone UTF-16 surrogate escape (\\ud800-\\udfff) is not valid Unicode",
                path=path, line=number, field=field,
            )
    return obj


def parse_json_document(handle: IO[bytes], path: str | Path) -> Any:
    """A whole JSON file (a GeoJSON forecast, an API answer) read with the hazards of
    ``parse_json_line`` checked, a damaged gzip stream and non-UTF-8 bytes naming the file."""
    try:
        data = handle.read(MAX_LINE_BYTES + 1)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise InputError(f"damaged or truncated gzip data ({exc}); re-create the file", path=path) from None
    if len(data) > MAX_LINE_BYTES:
        raise LimitExceeded(f"JSON document larger than {MAX_LINE_BYTES // (1024 * 1024)} MiB (the limit)", path=path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 (byte {exc.start}); re-encode the file as UTF-8", path=path, line=line) from None
    return parse_json_line(text, path)


def read_json_file(path: str | Path) -> Any:
    """A whole JSON file (gzip allowed), every hazard an InputError naming it."""
    with open_binary(path) as handle:
        return parse_json_document(handle, path)


_BLOCK = 1 << 20
_NON_BLANK = re.compile(rb"\S")


def read_lines(handle: IO[bytes], path: str | Path) -> Iterator[tuple[int, bytes]]:
    """Numbered raw lines that hold more than ASCII white space, each at most MAX_LINE_BYTES;
    a damaged gzip stream names the file.

    Blank lines are counted, never handed out: the file is read in blocks and each block
    searched for its next non-blank byte, so a stretch of blank lines costs a C scan,
    not a Python step per line (8 MiB of blank lines took 24 s, about 50 minutes a GiB)."""
    number = 0
    data = b""
    reader = getattr(handle, "read1", handle.read)  # a pipe hands over what it has; no wait for a full block

    def more() -> bytes:
        try:
            return reader(_BLOCK)
        except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
            detail = "truncated gzip stream" if isinstance(exc, EOFError) else f"damaged gzip data ({exc})"
            raise InputError(f"{detail} after {number} complete lines; re-create or re-download the file",
                             path=path) from None
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", path=path, line=number + 1) from None

    def too_long(line: int) -> InputError:
        return InputError(f"line longer than {MAX_LINE_BYTES // (1024 * 1024)} MiB (the limit; see "
                          "docs/reliability.md)", path=path, line=line)

    while True:
        block = more()
        if not block:
            if _NON_BLANK.search(data):  # a last line without its line break
                if len(data) > MAX_LINE_BYTES:
                    raise too_long(number + 1)
                yield number + 1, data
            return
        data = data + block if data else block
        position = 0
        while True:
            found = _NON_BLANK.search(data, position)
            if found is None:
                number += data.count(b"\n", position)
                data = data[data.rfind(b"\n") + 1:]  # blank, maybe the start of a line
                break
            start = data.rfind(b"\n", position, found.start()) + 1 or position
            number += data.count(b"\n", position, start)
            end = data.find(b"\n", found.start())
            if end < 0:  # a line that goes on in the next blocks: gathered without scanning it again
                data = yield from _rest_of_line(data[start:], more, number, too_long)
                number += 1
                position = 0
                if data is None:
                    return
                continue
            if end + 1 - start > MAX_LINE_BYTES:
                raise too_long(number + 1)
            number += 1
            yield number, data[start:end + 1]
            position = end + 1


def _rest_of_line(head: bytes, more: Callable[[], bytes], number: int,
                  too_long: Callable[[int], InputError]) -> Iterator[tuple[int, bytes]]:
    """Yield the line that starts with ``head`` once its line break (or the end) comes;
    return what follows it in the last block read (None at the end of the file)."""
    parts, size = [head], len(head)
    while True:
        block = more()
        cut = block.find(b"\n") if block else -1
        taken = block if cut < 0 else block[:cut + 1]
        size += len(taken)
        if size > MAX_LINE_BYTES:
            raise too_long(number + 1)
        parts.append(taken)
        if not block or cut >= 0:
            yield number + 1, b"".join(parts)
            return None if not block else block[cut + 1:]


def _long_string(value: Any, field: str = "") -> str | None:
    if isinstance(value, str):
        return (field or "(value)") if len(value) > MAX_TEXT_CHARS else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _long_string(item, f"{field}.{key}" if field else str(key))
        if found:
            return found
    return None


def _check_text_lengths(obj: dict, path: str | Path, number: int) -> None:
    """Refuse a string past MAX_TEXT_CHARS (checked only on lines long enough to hold one)."""
    field = _long_string(obj)
    if field is not None:
        raise LimitExceeded(
            f"text longer than {MAX_TEXT_CHARS:,} characters (the limit; see docs/reliability.md); split it",
            path=path, line=number, field=field,
        )


def iter_json_lines(path: str | Path, handle: IO[bytes] | None = None) -> Iterator[tuple[int, dict]]:
    """Yield (line number, object) for each non-blank line; raise InputError on bad lines.

    ``handle``: ``path`` already open (``open_binary``), for a reader that peeked at it
    first: a pipe cannot be opened a second time."""
    seen_any = False
    with open_binary(path) if handle is None else contextlib.nullcontext(handle) as handle:
        for number, raw in read_lines(handle, path):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"not UTF-8 (byte {exc.start}); re-encode the file as UTF-8", path=path, line=number
                ) from None
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]  # a byte order mark some editors write; CSV and TOML readers skip it too
            if not line.strip():
                continue
            seen_any = True
            obj = parse_json_line(line, path, number)
            if not isinstance(obj, dict):
                raise InputError(f"expected a JSON object, got {type(obj).__name__}", path=path, line=number)
            if len(line) > MAX_TEXT_CHARS:
                _check_text_lengths(obj, path, number)
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


def iter_models(
    path: str | Path, model: type[M], hint: Callable[[dict], str | None] | None = None
) -> Iterator[tuple[int, M]]:
    """Yield (line number, validated model) for each line of a JSONL file. ``hint`` may
    name what a line that does not validate is instead (a file given for another)."""
    for number, obj in iter_json_lines(path):
        try:
            yield number, model.model_validate(obj)
        except ValidationError as exc:
            said = hint(obj) if hint is not None else None
            if said is not None:
                raise InputError(said, path=path, line=number) from None
            raise validation_error(exc, path, number) from None


def chunked(
    items: Iterable[T], size: int, weight: Callable[[T], int] | None = None, budget: int | None = None
) -> Iterator[list[T]]:
    """Lists of at most ``size`` items, and, with ``weight``, of at most ``budget`` total
    weight (a chunk of a few huge texts closes early, so memory follows the text, not the count)."""
    chunk: list[T] = []
    total = 0
    for item in items:
        chunk.append(item)
        if weight is not None:
            total += weight(item)
        if len(chunk) >= size or (budget is not None and total >= budget):
            yield chunk
            chunk = []
            total = 0
    if chunk:
        yield chunk


@contextlib.contextmanager
def atomic_path(destination: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``destination``; rename it over on success only.

    The temporary file is named and locked as ``factcov.temporaries`` describes, so a later
    write sweeps those of killed processes and never anyone else's; a long destination
    name gets a short temporary name. The file gets the mode the umask gives a new file
    (not mkstemp's 0600). Use ``atomic_output`` for a file that must not replace an
    existing one with nothing.
    """
    from factcov import temporaries
    from factcov.errors import raise_if_stop_asked
    from factcov.outdir import apply_umask, check_no_file_above, fault

    destination = Path(destination)
    if destination.is_dir():
        raise InputError("is a directory; give a file name to write", path=destination)
    check_no_file_above(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    _sweep_once(destination.parent)
    fd, tmp = tempfile.mkstemp(prefix=temporaries.temp_prefix(destination.name), suffix=".tmp",
                               dir=destination.parent)
    try:
        temporaries.hold(fd)  # held until the rename: no sweeper, in any namespace, takes it
        yield Path(tmp)
        apply_umask(Path(tmp))
        fault(f"before-replace:{destination.name}")
        raise_if_stop_asked()  # a signal whose exception was swallowed still keeps the old file
        os.replace(tmp, destination)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    finally:
        os.close(fd)


NOTHING_TO_WRITE = "nothing to write: the result is empty; the existing file (if any) is left as it was"


class AtomicOutput:
    """A file being written by ``atomic_output``: ``path`` is the temporary to write,
    ``records`` what the writer counted into it (headers and shared blocks are not records)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records = 0


@contextlib.contextmanager
def atomic_output(destination: str | Path, *, nothing: str = NOTHING_TO_WRITE) -> Iterator[AtomicOutput]:
    """``atomic_path`` for builders and exporters: the file replaces ``destination`` only
    when the writer counted at least one record into ``records``; otherwise InputError
    (``nothing``) and ``destination`` stays as it was. A format header written before the
    first record is no content (``f1 build --rounds 999`` replaced a file with its header)."""
    with atomic_path(destination) as tmp:
        output = AtomicOutput(tmp)
        yield output
        if output.records == 0:
            raise InputError(nothing, path=destination)


_SWEPT: set[Path] = set()


def _sweep_once(folder: Path) -> None:
    """Sweep a folder's temporaries of dead processes once per process: a cache written one
    file per text must not be listed again for every file (that would be quadratic)."""
    from factcov.outdir import sweep_temporaries

    key = folder.resolve()
    if key not in _SWEPT:
        _SWEPT.add(key)
        sweep_temporaries(folder)


def write_text_atomic(destination: str | Path, text: str) -> None:
    with atomic_path(destination) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_jsonl_atomic(destination: str | Path, rows: Iterable[BaseModel | dict], *,
                       nothing: str | None = None) -> int:
    """Write rows as JSON lines atomically; returns the number written. With ``nothing``,
    no rows is that InputError and an existing ``destination`` is left as it was."""
    count = 0
    with contextlib.ExitStack() as stack:
        if nothing is None:
            tmp = stack.enter_context(atomic_path(destination))
        else:
            output = stack.enter_context(atomic_output(destination, nothing=nothing))
            tmp = output.path
        handle = stack.enter_context(tmp.open("w", encoding="utf-8"))
        for row in rows:
            if isinstance(row, BaseModel):
                handle.write(row.model_dump_json(exclude_none=False))
            else:
                handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True))
            handle.write("\n")
            count += 1
        if nothing is not None:
            output.records = count
    return count
