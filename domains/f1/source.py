"""Where the real f1 data lives and cached access to it (tests, demo, benchmarks).

The data directory holds ``laps/<season>.csv.gz`` and ``ergast/``; the layout of
``../shared/data/f1`` beside a checkout of this repository.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from factcov.domains.f1.derive import RaceAnalysis, derive_race
from factcov.domains.f1.ergast import Ergast
from factcov.domains.f1.laps import read_lap_table

if TYPE_CHECKING:
    import pandas as pd


def shared_f1_dir() -> Path | None:
    """``../shared/data/f1`` relative to the repository root, when it is there."""
    root = Path(__file__).resolve().parents[2]
    candidate = root.parent / "shared" / "data" / "f1"
    return candidate if candidate.is_dir() else None


def lap_files(f1_dir: Path) -> list[Path]:
    return sorted((f1_dir / "laps").glob("*.csv.gz"))


@lru_cache(maxsize=16)
def season_laps(f1_dir: Path, season: int) -> pd.DataFrame:
    return read_lap_table(f1_dir / "laps" / f"{season}.csv.gz")


@lru_cache(maxsize=4)
def ergast(f1_dir: Path) -> Ergast:
    return Ergast.read(f1_dir / "ergast")


@lru_cache(maxsize=64)
def race(f1_dir: Path, season: int, round_: int) -> RaceAnalysis:
    """The derived analysis of one real race (cached: tests ask for the same races)."""
    laps = season_laps(f1_dir, season)
    tables = ergast(f1_dir)
    return derive_race(
        laps[laps["RoundNumber"] == round_],
        tables.classification(season, round_),
        tables.driver_names(),
        tables.official_stops(season, round_),
    )


def derived_races(f1_dir: Path, seasons: Sequence[int] | None = None) -> Iterator[RaceAnalysis]:
    """Every race of the data (of ``seasons`` when given) derived, one at a time in (season,
    round) order: the benchmarks that read the whole data."""
    from factcov.domains.f1.build import derive_task, race_tasks

    _, tasks = race_tasks(lap_files(f1_dir), f1_dir / "ergast", seasons or None)
    return (derive_task(task) for task in tasks)
