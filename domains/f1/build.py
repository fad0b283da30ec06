"""The benchmark builder: lap files + Ergast directory -> instances, race by race."""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from factcov.domains.f1.derive import RaceAnalysis, derive_race
from factcov.domains.f1.ergast import Ergast
from factcov.domains.f1.instances import LANGUAGES, race_instances
from factcov.domains.f1.laps import read_laps
from factcov.instance_files import InstanceWriter
from factcov.jsonl import atomic_output
from factcov.model import Instance


def _race_instances(task: tuple) -> list[Instance]:
    """One race: derive it and build its instances (a worker's job)."""
    race = derive_task(task)
    return [] if race.dropped else race_instances(race, task[-1])


def race_tasks(
    lap_paths: Sequence[str | Path],
    ergast_dir: str | Path,
    seasons: Sequence[int] | None = None,
    rounds: Sequence[int] | None = None,
    languages: Sequence[str] = LANGUAGES,
) -> tuple[list[int], Iterator[tuple]]:
    """The selected races as (laps, classification, names, official stops, languages)
    tuples in (season, round) order, and the season of each."""
    laps = read_laps(list(lap_paths))
    tables = Ergast.read(ergast_dir)
    names = tables.driver_names()
    if seasons:
        laps = laps[laps["Season"].isin(list(seasons))]
    if rounds:
        laps = laps[laps["RoundNumber"].isin(list(rounds))]
    races = laps.groupby(["Season", "RoundNumber"], sort=True)
    tasks = (
        (
            race_laps,
            tables.classification(int(season), int(round_)),
            names,
            tables.official_stops(int(season), int(round_)),
            tuple(languages),
        )
        for (season, round_), race_laps in races
    )
    return [int(season) for season, _ in races.groups], tasks


def derive_task(task: tuple) -> RaceAnalysis:
    race_laps, classification, names, official_stops, _ = task
    return derive_race(race_laps, classification, names, official_stops)


def iter_race_instances(
    lap_paths: Sequence[str | Path],
    ergast_dir: str | Path,
    seasons: Sequence[int] | None = None,
    rounds: Sequence[int] | None = None,
    languages: Sequence[str] = LANGUAGES,
    on_race: Callable[[int, int, int], None] | None = None,
    jobs: int = 1,
) -> Iterator[list[Instance]]:
    """Yield each selected race's instances in (season, round) order; ``on_race(done,
    total, season)`` reports progress. ``jobs`` > 1 derives races in that many processes
    (the order, hence the output, is the same). A race whose lap numbering is beyond
    repair (``RaceAnalysis.dropped``) gives no instances."""
    keys, tasks = race_tasks(lap_paths, ergast_dir, seasons, rounds, languages)
    total = len(keys)
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done, batch in enumerate(pool.map(_race_instances, tasks, chunksize=2), start=1):
                yield batch
                if on_race is not None:
                    on_race(done, total, keys[done - 1])
        return
    for done, task in enumerate(tasks, start=1):
        yield _race_instances(task)
        if on_race is not None:
            on_race(done, total, keys[done - 1])


NO_RACE = "no race matched --seasons/--rounds in the lap files; nothing written (the existing file is as it was)"


def write_instances(destination: str | Path, batches: Iterator[list[Instance]]) -> int:
    """Write an instance file atomically (gzipped when the name ends in .gz); returns the
    count. Format 2 (``factcov.instance_files``): each race's block is stored once and
    its instances refer to it. No instance is InputError (``NO_RACE``) and an existing
    file stays as it was: the format header alone never replaces it."""
    destination = Path(destination)
    with atomic_output(destination, nothing=NO_RACE) as output:
        opener = gzip.open if destination.suffix == ".gz" else open
        with opener(output.path, "wt", encoding="utf-8") as handle:
            writer = InstanceWriter(handle, shared=("race",))
            for batch in batches:
                for instance in batch:
                    writer.write(instance)
                    output.records += 1
    return output.records
