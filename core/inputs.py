"""Reading instances and generations with every check a user's file needs."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from factcov.domain import Domain
from factcov.errors import InputError
from factcov.jsonl import iter_models
from factcov.model import Generation, Instance


def load_instances(path: str | Path, domain: Domain) -> dict[str, Instance]:
    """All instances of a file by id (they are looked up by every generation).

    Errors: duplicate ids, an instance of another domain, a language the domain does
    not support, a fact whose claim type the domain does not define.
    """
    known_types = {ct.name for ct in domain.claim_types}
    instances: dict[str, Instance] = {}
    first_line: dict[str, int] = {}
    for line, instance in iter_models(path, Instance):
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
            if fact.id in seen_facts:
                raise InputError(f"duplicate fact '{fact.id}'", path=path, line=line, field=f"facts.{index}")
            seen_facts.add(fact.id)
        instances[instance.id] = instance
        first_line[instance.id] = line
    return instances


def iter_generations(
    path: str | Path, instances: dict[str, Instance], domain: Domain
) -> Iterator[tuple[Instance, Generation]]:
    """Stream (instance, generation) pairs; each (instance_id, system) must appear once."""
    seen: dict[tuple[str, str], int] = {}
    for line, generation in iter_models(path, Generation):
        instance = instances.get(generation.instance_id)
        if instance is None:
            raise InputError(
                f"instance_id '{generation.instance_id}' is not among the {len(instances)} instances",
                path=path, line=line, field="instance_id",
            )
        # the instance's own id object and an interned system name: a 2M-line file keeps
        # one small tuple per line here, not two fresh strings
        pair = (instance.id, sys.intern(generation.system))
        if pair in seen:
            raise InputError(
                f"duplicate generation for instance '{pair[0]}' and system '{pair[1]}' "
                f"(first on line {seen[pair]})",
                path=path, line=line, field="system",
            )
        seen[pair] = line
        if generation.language is not None and generation.language not in domain.languages:
            raise InputError(
                f"unknown language '{generation.language}'; domain '{domain.name}' supports "
                f"{', '.join(domain.languages)}",
                path=path, line=line, field="language",
            )
        yield instance, generation


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
