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
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from factcov.errors import InputError
from factcov.jsonl import iter_json_lines, validation_error
from factcov.model import Instance, canonical_json

FORMAT = 2
HEADER_KEY = "factcov_instances"
REF_KEY = "$block"


def iter_instance_file(
    path: str | Path, blocks: dict[str, Any] | None = None, with_source: bool = False
) -> Iterator[tuple[Any, ...]]:
    """(line number, instance) for every instance of a format-1 or format-2 file.

    ``blocks`` receives the file's shared blocks by id; ``with_source`` adds each
    instance's line as compact JSON with its block references unresolved (what
    ``InstanceStore`` keeps instead of the parsed instance).
    """
    blocks = {} if blocks is None else blocks
    for line, obj in iter_json_lines(path):
        if HEADER_KEY in obj:
            version = obj[HEADER_KEY]
            if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= FORMAT:
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
        if "id" not in obj and "instance_id" in obj and "text" in obj:
            raise InputError("this line is a generation (instance_id, system, text), not an instance: "
                             "are -i and -g swapped? (-i INSTANCES -g GENERATIONS)", path=path, line=line, field="id")
        source = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) if with_source else None
        missing = resolve_blocks(obj, blocks)
        if missing is not None:
            key, block_id = missing
            raise InputError(
                f"unknown block '{block_id}' (a block line must come before the instances that refer to it)",
                path=path, line=line, field=f"context.{key}",
            )
        try:
            instance = Instance.model_validate(obj)
        except ValidationError as exc:
            raise validation_error(exc, path, line) from None
        yield (line, instance, source) if with_source else (line, instance)


def resolve_blocks(obj: dict[str, Any], blocks: dict[str, Any]) -> tuple[str, str] | None:
    """Replace the context's block references by the blocks, in place; the (key, block
    id) of a reference to an unknown block, else None."""
    context = obj.get("context")
    if isinstance(context, dict):
        for key, value in context.items():
            if isinstance(value, dict) and len(value) == 1 and REF_KEY in value:
                if not isinstance(value[REF_KEY], str) or value[REF_KEY] not in blocks:  # [1] cannot be a key
                    return key, str(value[REF_KEY])
                context[key] = blocks[value[REF_KEY]]
    return None


class InstanceStore(Mapping[str, Instance]):
    """Instances by id, kept as their compact JSON lines (a few hundred bytes each, where
    a parsed instance takes several kilobytes) and parsed when looked up; the last
    ``cache_size`` parsed are kept. Shared blocks stay parsed, one object each, so an
    instance parsed twice refers to the same block. For files whose parsed instances
    would not fit comfortably in memory (``factcov.inputs.load_instances`` decides)."""

    def __init__(self, blocks: dict[str, Any], cache_size: int = 8192) -> None:
        self._blocks = blocks
        self._sources: dict[str, bytes] = {}
        self._parsed: OrderedDict[str, Instance] = OrderedDict()
        self._cache_size = cache_size

    def add(self, instance_id: str, source: str) -> None:
        self._sources[instance_id] = source.encode()

    def __getitem__(self, instance_id: str) -> Instance:
        parsed = self._parsed.get(instance_id)
        if parsed is not None:
            self._parsed.move_to_end(instance_id)
            return parsed
        obj = json.loads(self._sources[instance_id])  # KeyError for an unknown id, as a dict
        resolve_blocks(obj, self._blocks)
        parsed = self._parsed[instance_id] = Instance.model_validate(obj)  # validated when loaded
        if len(self._parsed) > self._cache_size:
            self._parsed.popitem(last=False)
        return parsed

    def __contains__(self, instance_id: object) -> bool:
        return instance_id in self._sources

    def __iter__(self) -> Iterator[str]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)


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
