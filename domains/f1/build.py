"""The benchmark builder: lap files + Ergast directory -> instances, race by race."""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from factcov.domains.f1.derive import derive_race
from factcov.domains.f1.ergast import Ergast
from factcov.domains.f1.instances import LANGUAGES, race_instances
from factcov.domains.f1.laps import read_laps
from factcov.jsonl import atomic_path
from factcov.model import Instance


def iter_race_instances(
    lap_paths: Sequence[str | Path],
    ergast_dir: str | Path,
    seasons: Sequence[int] | None = None,
    rounds: Sequence[int] | None = None,
    languages: Sequence[str] = LANGUAGES,
    on_race: Callable[[int, int, int], None] | None = None,
) -> Iterator[list[Instance]]:
    """Yield each selected race's instances; ``on_race(done, total, season)`` reports progress."""
    laps = read_laps(list(lap_paths))
    tables = Ergast.read(ergast_dir)
    names = tables.driver_names()
    if seasons:
        laps = laps[laps["Season"].isin(list(seasons))]
    if rounds:
        laps = laps[laps["RoundNumber"].isin(list(rounds))]
    races = laps.groupby(["Season", "RoundNumber"], sort=True)
    total = races.ngroups
    for done, ((season, round_), race_laps) in enumerate(races, start=1):
        analysis = derive_race(race_laps, tables.classification(int(season), int(round_)), names)
        yield race_instances(analysis, languages)
        if on_race is not None:
            on_race(done, total, int(season))


def write_instances(destination: str | Path, batches: Iterator[list[Instance]]) -> int:
    """Write JSON lines atomically (gzipped when the name ends in .gz); returns the count."""
    destination = Path(destination)
    count = 0
    with atomic_path(destination) as tmp:
        opener = gzip.open if destination.suffix == ".gz" else open
        with opener(tmp, "wt", encoding="utf-8") as handle:
            for batch in batches:
                for instance in batch:
                    handle.write(instance.model_dump_json())
                    handle.write("\n")
                    count += 1
    return count
