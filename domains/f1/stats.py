"""Counts of an f1 instances file: per task, language and split, and facts per instance."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factcov.errors import InputError
from factcov.instance_files import HEADER_KEY
from factcov.jsonl import iter_json_lines


@dataclass
class InstanceCounts:
    total: int = 0
    by_task: Counter = field(default_factory=Counter)
    by_language: Counter = field(default_factory=Counter)
    by_split: Counter = field(default_factory=Counter)
    by_task_split: Counter = field(default_factory=Counter)
    facts_by_task: Counter = field(default_factory=Counter)
    facts_by_type: Counter = field(default_factory=Counter)
    races: set[tuple[int, int]] = field(default_factory=set)

    def facts_per_instance(self, task: str) -> float:
        return self.facts_by_task[task] / self.by_task[task] if self.by_task[task] else 0.0


def count_instances(path: str | Path) -> InstanceCounts:
    """Stream the file (plain or gzipped JSON lines) once."""
    counts = InstanceCounts()
    for line, row in iter_json_lines(path):
        if HEADER_KEY in row or ("block" in row and "id" not in row):
            continue  # a format-2 file's header or shared block: not an instance
        if row.get("domain") != "f1":
            raise InputError(f"not an f1 instance (domain {row.get('domain')!r}); give a file of `factcov f1 build`",
                             path=path, line=line, field="domain")
        facts = row.get("facts", [])
        if not isinstance(facts, list) or not all(isinstance(f, dict) for f in facts):
            raise InputError("expected a list of fact objects", path=path, line=line, field="facts")
        task, split = row.get("task", "?"), row.get("split") or "none"
        counts.total += 1
        counts.by_task[task] += 1
        counts.by_language[row.get("language", "?")] += 1
        counts.by_split[split] += 1
        counts.by_task_split[(task, split)] += 1
        counts.facts_by_task[task] += len(facts)
        counts.facts_by_type.update(f.get("type", "?") for f in facts)
        parts = str(row.get("id", "")).split(":")
        if len(parts) > 2 and parts[1].isdigit() and parts[2].isdigit():
            counts.races.add((int(parts[1]), int(parts[2])))
    return counts


def stats_tables(counts: InstanceCounts) -> list[Any]:
    from rich.table import Table

    splits = sorted(counts.by_split)
    tasks = Table(title=f"{counts.total} instances from {len(counts.races)} races")
    tasks.add_column("task")
    for split in splits:
        tasks.add_column(split, justify="right")
    tasks.add_column("total", justify="right")
    tasks.add_column("facts/instance", justify="right")
    for task in sorted(counts.by_task):
        tasks.add_row(
            task,
            *(str(counts.by_task_split[(task, s)]) for s in splits),
            str(counts.by_task[task]),
            f"{counts.facts_per_instance(task):.2f}",
        )
    tasks.add_row(
        "all",
        *(str(counts.by_split[s]) for s in splits),
        str(counts.total),
        f"{sum(counts.facts_by_task.values()) / max(counts.total, 1):.2f}",
    )
    languages = Table(title="per language")
    languages.add_column("language")
    languages.add_column("instances", justify="right")
    for language, n in sorted(counts.by_language.items()):
        languages.add_row(language, str(n))
    types = Table(title="facts per claim type")
    types.add_column("claim type")
    types.add_column("facts", justify="right")
    for type_, n in sorted(counts.facts_by_type.items()):
        types.add_row(type_, str(n))
    return [tasks, languages, types]
