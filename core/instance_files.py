"""Instance files: JSON lines whose shared context blocks are stored once.

Format 1 (every file written before factcov 0.2): one instance per line, its whole
context inline. Format 2 adds two kinds of lines:

    {"factcov_instances": 2}                                  first line: the format
    {"block": "race:5f3a...", "value": {...}}                 a shared context block
    {"id": "...", "context": {"race": {"$block": "race:5f3a..."}, ...}, ...}

A context value ``{"$block": ID}`` stands for the value of the block line ``ID``, which
comes earlier in the same file. The reader resolves it to that value, the same object
for every instance that refers to it (so a race's knowledge and driver index are built
once per race). Block ids are the kind of block and the first 16 hex digits of the
SHA-256 of its canonical JSON, so equal blocks get equal ids whoever writes them. A file
of a newer format than this reader knows is refused with a message saying so; format-1
files are read as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from factcov.errors import InputError
from factcov.jsonl import iter_json_lines, validation_error
from factcov.model import Instance, canonical_json

FORMAT = 2
HEADER_KEY = "factcov_instances"
REF_KEY = "$block"


def iter_instance_file(path: str | Path) -> Iterator[tuple[int, Instance]]:
    """(line number, instance) for every instance of a format-1 or format-2 file."""
    blocks: dict[str, Any] = {}
    for line, obj in iter_json_lines(path):
        if HEADER_KEY in obj:
            version = obj[HEADER_KEY]
            if not isinstance(version, int) or not 1 <= version <= FORMAT:
                raise InputError(
                    f"instance file format {version!r}; this factcov reads formats 1 to {FORMAT} "
                    "(upgrade factcov to read it)",
                    path=path, line=line, field=HEADER_KEY,
                )
            continue
        if "block" in obj and "id" not in obj:
            block_id = obj["block"]
            if not isinstance(block_id, str) or "value" not in obj:
                raise InputError("a block line needs a string 'block' id and a 'value'", path=path, line=line,
                                 field="block")
            if block_id in blocks:
                raise InputError(f"block '{block_id}' defined twice", path=path, line=line, field="block")
            blocks[block_id] = obj["value"]
            continue
        context = obj.get("context")
        if isinstance(context, dict):
            for key, value in context.items():
                if isinstance(value, dict) and len(value) == 1 and REF_KEY in value:
                    if value[REF_KEY] not in blocks:
                        raise InputError(
                            f"unknown block '{value[REF_KEY]}' (a block line must come before the instances "
                            "that refer to it)",
                            path=path, line=line, field=f"context.{key}",
                        )
                    context[key] = blocks[value[REF_KEY]]
        try:
            yield line, Instance.model_validate(obj)
        except ValidationError as exc:
            raise validation_error(exc, path, line) from None


class InstanceWriter:
    """Writes instances in format 2, storing each distinct value of the ``shared``
    context keys once, as a block line before the first instance that uses it."""

    def __init__(self, handle: IO[str], shared: Iterable[str] = ()) -> None:
        self.handle = handle
        self.shared = tuple(shared)
        self._written: set[str] = set()
        self._by_identity: dict[int, tuple[Any, str]] = {}  # one race's block: hashed once
        handle.write(canonical_json({HEADER_KEY: FORMAT}) + "\n")

    def write(self, instance: Instance) -> None:
        context = instance.context
        refs: dict[str, Any] = {}
        for key in self.shared:
            value = context.get(key)
            if isinstance(value, dict):
                refs[key] = {REF_KEY: self._block(key, value)}
        if refs:
            instance = instance.model_copy(update={"context": {**context, **refs}})
        self.handle.write(instance.model_dump_json())
        self.handle.write("\n")

    def _block(self, kind: str, value: dict[str, Any]) -> str:
        held = self._by_identity.get(id(value))
        if held is not None and held[0] is value:
            return held[1]
        digest = hashlib.sha256(canonical_json(value).encode()).hexdigest()[:16]
        block_id = f"{kind}:{digest}"
        if block_id not in self._written:  # the value as the instance held it (its key order too)
            self.handle.write(json.dumps({"block": block_id, "value": value}, ensure_ascii=False,
                                         separators=(",", ":")) + "\n")
            self._written.add(block_id)
        if len(self._by_identity) > 64:
            self._by_identity.clear()
        self._by_identity[id(value)] = (value, block_id)  # the value is held: its id stays its own
        return block_id
