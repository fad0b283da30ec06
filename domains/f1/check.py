"""`factcov f1 check`: every data-quality rule that fired, race by race, so a user can
audit a new season's lap tables before trusting its oracle (docs/domains/f1.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factcov.domains.f1.build import derive_task, race_tasks


@dataclass
class RaceCheck:
    season: int
    round: int
    event: str
    dropped: str | None
    entries: list[dict[str, Any]] = field(default_factory=list)

    @property
    def counts(self) -> Counter:
        return Counter(entry["rule"] for entry in self.entries)


def iter_checks(
    lap_paths: Sequence[str | Path],
    ergast_dir: str | Path,
    seasons: Sequence[int] | None = None,
    rounds: Sequence[int] | None = None,
) -> Iterator[RaceCheck]:
    """Derive each selected race and yield the rules that fired in it."""
    _, tasks = race_tasks(lap_paths, ergast_dir, seasons, rounds, ("en",))
    for task in tasks:
        race = derive_task(task)
        entries = [] if race.quality is None else race.quality.to_dict("records")
        for entry in entries:
            entry["driver"] = entry["driver"] if isinstance(entry["driver"], str) else None
            lap = entry["lap"]
            entry["lap"] = None if lap is None or lap != lap else int(lap)
        yield RaceCheck(race.season, race.round, race.event, race.dropped, entries)
