"""Build instances from the Ergast tables: ``python -m factcov_quali.build ERGAST_DIR OUT``.

Reads ``races.csv``, ``qualifying.csv`` and ``drivers.csv`` of the Ergast database (CC0;
missing values are written ``\\N``) and writes one instance per race, facts from the oracle.
"""

import csv
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from factcov.errors import InputError
from factcov.jsonl import write_jsonl_atomic
from factcov.model import Instance

from factcov_quali.oracle import relevant_facts

# The races of the committed example file (season, round).
EXAMPLE_RACES = (
    (2018, 16),  # Russia: five drivers went through to Q2 but set no time (grid penalties)
    (2021, 22),  # Abu Dhabi
    (2023, 1),  # Bahrain
    (2024, 17),  # Azerbaijan: Gasly disqualified, classified last with a Q2 time
    (2025, 8),  # Monaco
)


def read_rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, row) of a CSV file; ``\\N`` becomes the empty string."""
    with path.open(encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            yield line, {k: "" if v == r"\N" else v for k, v in row.items()}


def integer(row: dict[str, str], field: str, path: Path, line: int) -> int:
    try:
        return int(row[field])
    except (KeyError, ValueError):
        raise InputError(f"expected an integer, got {row.get(field)!r}", path=path, line=line, field=field) from None


def classification(ergast: Path, race_id: str) -> list[dict[str, Any]]:
    """The qualifying classification of one race: the context a model is given."""
    drivers = {row["driverId"]: row for _, row in read_rows(ergast / "drivers.csv")}
    path = ergast / "qualifying.csv"
    rows = []
    for line, row in read_rows(path):
        if row["raceId"] != race_id:
            continue
        if row["driverId"] not in drivers:
            raise InputError(f"driver {row['driverId']} is not in drivers.csv", path=path, line=line, field="driverId")
        driver = drivers[row["driverId"]]
        rows.append({
            "code": driver["code"],
            "name": f"{driver['forename']} {driver['surname']}",
            "surname": driver["surname"],
            "position": integer(row, "position", path, line),
            **{session: row[session] or None for session in ("q1", "q2", "q3")},
        })
    return sorted(rows, key=lambda row: row["position"])


def build_instances(ergast: Path, races: tuple[tuple[int, int], ...] = EXAMPLE_RACES) -> list[Instance]:
    """One ``qualifying_summary`` instance per (season, round), in the order given."""
    path = ergast / "races.csv"
    found = {(integer(row, "year", path, line), integer(row, "round", path, line)): row
             for line, row in read_rows(path)}
    instances = []
    for season, round_ in races:
        if (season, round_) not in found:
            raise InputError(f"no race {season} round {round_}", path=path, field="year")
        race = found[season, round_]
        context = {"season": season, "round": round_, "race": race["name"],
                   "drivers": classification(ergast, race["raceId"])}
        instances.append(Instance(
            id=f"quali:{season}:{round_}",
            domain="quali",
            task="qualifying_summary",
            language="en",
            prompt=f"Summarize qualifying for the {season} {race['name']}: who took pole, who "
            "completed the top three, and who was knocked out in Q1 and in Q2.",
            context=context,
            facts=relevant_facts(context),
        ))
    return instances


if __name__ == "__main__":
    write_jsonl_atomic(Path(sys.argv[2]), build_instances(Path(sys.argv[1])))
