"""Reading instances and generations with every check a user's file needs."""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from factcov.domain import Domain
from factcov.errors import InputError
from factcov.instance_files import InstanceStore, iter_instance_file
from factcov.jsonl import iter_models
from factcov.model import Generation, Instance

# Above this many bytes of JSON lines (a gzipped file counts 8 per byte), instances are
# kept as their lines and parsed when looked up (``InstanceStore``): a parsed instance
# takes ~6x its line (weather: 5.2 KB for an 820-byte line), 100,000 of them over 500 MiB.
COMPACT_ABOVE_BYTES = 64 * 2**20


def load_instances(path: str | Path, domain: Domain, compact: bool | None = None) -> Mapping[str, Instance]:
    """All instances of a file by id (they are looked up by every generation); shared
    context blocks of a format-2 file are held once (``factcov.instance_files``).
    ``compact`` keeps them as their JSON lines, parsed on lookup; by default when the
    file is larger than ``COMPACT_ABOVE_BYTES``.

    Errors: duplicate ids, an instance of another domain, a language the domain does
    not support, a fact whose claim type the domain does not define.
    """
    if compact is None:
        size = Path(path).stat().st_size if Path(path).is_file() else 0
        compact = size * (8 if str(path).endswith(".gz") else 1) > COMPACT_ABOVE_BYTES
    claim_types = {ct.name: ct for ct in domain.claim_types}
    known_types = claim_types.keys()
    blocks: dict[str, Any] = {}
    instances: dict[str, Instance] | InstanceStore = InstanceStore(blocks) if compact else {}
    first_line: dict[str, int] = {}
    unlisted_tasks: set[str] = set()
    for line, instance, *source in iter_instance_file(path, blocks, with_source=compact):
        if instance.id in instances:
            raise InputError(
                f"duplicate instance id '{instance.id}' (first on line {first_line[instance.id]})",
                path=path, line=line, field="id",
            )
        if instance.domain != domain.name:
            raise InputError(
                f"instance of domain '{instance.domain}' in a run of domain '{domain.name}'",
                path=path, line=line, field="domain",
            )
        if domain.tasks and instance.task not in domain.tasks and instance.task not in unlisted_tasks:
            # said once per task, not refused: a plugin whose `tasks` lags its instances
            # still scores, and its author learns the list is out of date
            unlisted_tasks.add(instance.task)
            warnings.warn(f"{path}:{line}: field 'task': '{instance.task}' is not among domain "
                          f"'{domain.name}''s tasks ({', '.join(domain.tasks)})", RuntimeWarning, stacklevel=2)
        if instance.language not in domain.languages:
            raise InputError(
                f"unknown language '{instance.language}'; domain '{domain.name}' supports "
                f"{', '.join(domain.languages)}",
                path=path, line=line, field="language",
            )
        seen_facts: set[str] = set()
        for index, fact in enumerate(instance.facts):
            if fact.type not in known_types:
                raise InputError(
                    f"unknown claim type '{fact.type}'; domain '{domain.name}' defines "
                    f"{', '.join(sorted(known_types))}",
                    path=path, line=line, field=f"facts.{index}.type",
                )
            claim_type = claim_types[fact.type]
            misfit = claim_type.misfit(fact.value) or claim_type.unlisted(fact.value)
            if misfit is not None:
                raise InputError(f"claim type '{fact.type}' needs {misfit}, not {fact.value!r:.60}",
                                 path=path, line=line, field=f"facts.{index}.value")
            if fact.id in seen_facts:
                raise InputError(f"duplicate fact '{fact.id}'", path=path, line=line, field=f"facts.{index}")
            seen_facts.add(fact.id)
        if compact:
            instances.add(instance.id, source[0])
        else:
            instances[instance.id] = instance
        first_line[instance.id] = line
    return instances


def iter_generations(
    path: str | Path, instances: Mapping[str, Instance], domain: Domain
) -> Iterator[tuple[Instance, Generation]]:
    """Stream (instance, generation) pairs; each (instance_id, system) must appear once.

    Which pairs were seen is one bit per (instance, system) (``SeenPairs``), not an
    entry per generation line: a file of millions of generations is checked in the
    memory of its instances. The line of a duplicate's first occurrence, which only an
    error message needs, is found by reading the file again.
    """
    seen = SeenPairs()
    for line, generation in iter_models(path, Generation, hint=_swapped_files):
        instance = instances.get(generation.instance_id)
        if instance is None:
            raise InputError(
                f"instance_id '{generation.instance_id}' is not among the {len(instances)} instances",
                path=path, line=line, field="instance_id",
            )
        if not seen.add(instance.id, generation.system):  # the instance's own id string, held anyway
            first = _first_line(path, generation.instance_id, generation.system)
            raise InputError(
                f"duplicate generation for instance '{generation.instance_id}' and system "
                f"'{generation.system}' (first on {f'line {first}' if first else 'an earlier line'})",
                path=path, line=line, field="system",
            )
        if generation.language is not None and generation.language not in domain.languages:
            raise InputError(
                f"unknown language '{generation.language}'; domain '{domain.name}' supports "
                f"{', '.join(domain.languages)}",
                path=path, line=line, field="language",
            )
        yield instance, generation


def _swapped_files(obj: dict) -> str | None:
    """A hint when a generations file's line is an instance file's (header, block or instance)."""
    if "instance_id" in obj:
        return None
    if "factcov_instances" in obj or ("block" in obj and "value" in obj) or ("id" in obj and "facts" in obj):
        return ("this line is from an instances file, not a generation (instance_id, system, text): "
                "are -i and -g swapped? (-i INSTANCES -g GENERATIONS)")
    return None


class SeenPairs:
    """A set of (instance id, system) pairs as one bit per pair: each system gets a
    number, each instance an integer whose bit of that number is set once seen."""

    def __init__(self) -> None:
        self._systems: dict[str, int] = {}
        self._bits: dict[str, int] = {}

    def add(self, instance_id: str, system: str) -> bool:
        """Record the pair; False if it was already there."""
        number = self._systems.setdefault(system, len(self._systems))
        bits = self._bits.get(instance_id, 0)
        if bits >> number & 1:
            return False
        self._bits[instance_id] = bits | 1 << number
        return True


def _first_line(path: str | Path, instance_id: str, system: str) -> int | None:
    if not Path(path).is_file():
        return None  # a pipe cannot be read a second time
    for line, generation in iter_models(path, Generation):
        if generation.instance_id == instance_id and generation.system == system:
            return line
    raise AssertionError("a duplicate's first occurrence is in the file")  # read twice, same bytes


def files_in(paths: list[str | Path] | tuple[str | Path, ...], suffixes: tuple[str, ...], option: str) -> list[Path]:
    """Files named directly, and the files ending in ``suffixes`` inside named directories
    (sorted), as a user gives them on the command line ('--laps laps/', '--laps a.csv b.csv')."""
    found: list[Path] = []
    for entry in map(Path, paths):
        if entry.is_dir():
            inside = sorted(p for p in entry.iterdir() if p.is_file() and p.name.endswith(suffixes))
            if not inside:
                raise InputError(f"{option}: no {', '.join(suffixes)} file in this directory", path=entry)
            found.extend(inside)
        elif entry.exists():
            found.append(entry)
        else:
            raise InputError(f"{option}: no such file or directory", path=entry)
    return found
