"""A JSON-lines output that survives being killed (kill -9 included) and resumes.

Each record is appended with one ``write(2)`` of a whole line to a file opened with
``O_APPEND``, so a killed process leaves whole lines only; a torn last line (a crash of
the machine mid-write) is cut off when the file is reopened, never parsed as data. On
reopening, the keys already written are known and the caller skips them, so nothing is
asked twice and no line is duplicated. A lock keeps a second run out of the same file.
When every record is in, ``finish`` rewrites the file in input order (temp file +
rename), so a finished file has the same bytes however often the run was interrupted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any

from factcov.errors import FactcovError, InputError
from factcov.jsonl import atomic_path, parse_json_line


class ResumableJsonl:
    def __init__(self, path: str | Path, key: Callable[[dict[str, Any]], Hashable]) -> None:
        self.path = Path(path)
        self.key = key
        self.records: dict[Hashable, dict[str, Any]] = {}
        self._fd: int | None = None
        self._lock_fd: int | None = None

    def __enter__(self) -> ResumableJsonl:
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        from factcov.temporaries import short_name

        lock = self.path.with_name(f".{short_name(self.path.name)}.lock")  # a 250-byte name leaves no room
        self._lock_fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._lock_fd)
            self._lock_fd = None
            raise FactcovError(f"{self.path}: another run is writing this file; wait for it or choose another -o") from None
        try:
            self._repair_and_load()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the flock
            self._lock_fd = None

    def _repair_and_load(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        for number, raw in enumerate(data[:end].splitlines(), start=1):
            if not raw.strip():
                continue
            try:
                record = parse_json_line(raw.decode("utf-8"), self.path, number)
            except (InputError, UnicodeDecodeError) as exc:
                reason = exc.message if isinstance(exc, InputError) else "not UTF-8"
                raise InputError(f"{reason}; this file is not a resumable output of factcov",
                                 path=self.path, line=number) from None
            try:
                self.records[self.key(record)] = record
            except (KeyError, TypeError, IndexError):
                raise InputError("a line of another kind (its key fields are missing); this file is not a "
                                 "resumable output of this command", path=self.path, line=number) from None
        if end < len(data):  # a torn last line: dropped (it is asked again) once the rest proved the file ours
            with self.path.open("r+b") as handle:
                handle.truncate(end)

    def __contains__(self, key: Hashable) -> bool:
        return key in self.records

    def append(self, record: dict[str, Any]) -> None:
        assert self._lock_fd is not None, "append outside the with block"
        if self._fd is None:  # created by the first record: a run that writes nothing leaves no file behind
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        line = (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        written = os.write(self._fd, line)
        while written < len(line):  # regular files take the whole line; this is only a guard
            written += os.write(self._fd, line[written:])
        self.records[self.key(record)] = record

    def finish(self, order: Iterable[Hashable]) -> None:
        """Rewrite the complete file in ``order`` (keys not in ``order`` keep their place at the end).
        With no record there is nothing to write, and whatever the path holds stays as it was."""
        if not self.records:
            return
        ordered = [self.records[k] for k in order if k in self.records]
        listed = {self.key(r) for r in ordered}
        ordered += [r for k, r in self.records.items() if k not in listed]
        with atomic_path(self.path) as tmp, tmp.open("w", encoding="utf-8") as handle:
            for record in ordered:
                handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        if self._fd is not None:  # the old inode is gone; later appends go to the new file
            os.close(self._fd)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
