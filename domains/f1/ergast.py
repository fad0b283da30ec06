"""The official side of a race from the Ergast tables: names, classification, status, grid.

Ergast writes missing values as ``\\N``. Races are found by (season, round) through
``races.csv``; drivers are joined by their three-letter ``code`` (unique per race).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from factcov.errors import InputError

if TYPE_CHECKING:
    import pandas as pd

ERGAST_COLUMNS: dict[str, tuple[str, ...]] = {
    "races.csv": ("raceId", "year", "round", "name"),
    "results.csv": (
        "raceId", "driverId", "constructorId", "grid", "position", "positionText",
        "positionOrder", "laps", "statusId",
    ),
    "drivers.csv": ("driverId", "code", "forename", "surname"),
    "constructors.csv": ("constructorId", "name"),
    "status.csv": ("statusId", "status"),
}
PIT_STOP_COLUMNS = ("raceId", "driverId", "stop", "lap")
PIT_STOP_DURATION = "milliseconds"  # optional: the official pit-lane time of each entry
# driver code -> {official pit lap: official pit-lane time in seconds, or None when not given}
OfficialStops = dict[str, dict[int, float | None]]
CLASSIFICATION_COLUMNS = (
    "code", "name", "surname", "team", "grid", "position", "position_order", "laps", "status",
)


def read_ergast_table(path: Path, columns: tuple[str, ...]) -> pd.DataFrame:
    import pandas as pd

    if not path.is_file():
        raise InputError("missing Ergast table", path=path)
    try:
        frame = pd.read_csv(path, na_values=["\\N"], keep_default_na=False, dtype={"code": "string"})
    except (ValueError, OSError) as exc:  # pandas' parse errors and non-UTF-8 bytes are ValueErrors
        raise InputError(f"cannot read Ergast table: {exc or type(exc).__name__}", path=path) from None
    for column in columns:
        if column not in frame.columns:
            raise InputError("missing column of an Ergast table", path=path, field=column)
    return frame


@dataclass
class Ergast:
    """The Ergast tables factcov reads; ``Ergast.read(directory)`` checks every column."""

    races: pd.DataFrame
    results: pd.DataFrame
    drivers: pd.DataFrame
    constructors: pd.DataFrame
    status: pd.DataFrame
    pit_stops: pd.DataFrame | None = None  # optional: the official pit laps (and times) check the lap table

    @classmethod
    def read(cls, directory: str | Path) -> Ergast:
        directory = Path(directory)
        if not directory.is_dir():
            raise InputError("Ergast directory not found", path=directory)
        tables = {
            name.removesuffix(".csv"): read_ergast_table(directory / name, columns)
            for name, columns in ERGAST_COLUMNS.items()
        }
        pit_stops = directory / "pit_stops.csv"
        if pit_stops.is_file():
            tables["pit_stops"] = read_ergast_table(pit_stops, PIT_STOP_COLUMNS)
        return cls(**tables)

    def official_stops(self, season: int, round_: int) -> OfficialStops | None:
        """Driver code -> {lap of each official pit entry: its official pit-lane time in
        seconds, ``None`` without the optional ``milliseconds`` column or value} (Ergast
        counts red-flag tyre changes and pit-lane passages too); ``None`` when the race has
        no pit table."""
        import pandas as pd

        race_id = self.race_id(season, round_)
        if self.pit_stops is None or race_id is None:
            return None
        rows = self.pit_stops[self.pit_stops["raceId"] == race_id]
        if rows.empty:
            return None
        rows = rows.merge(self.drivers[["driverId", "code"]], on="driverId").sort_values("lap")
        if PIT_STOP_DURATION in rows.columns:
            seconds = pd.to_numeric(rows[PIT_STOP_DURATION], errors="coerce") / 1000
        else:
            seconds = pd.Series(float("nan"), index=rows.index)
        stops: OfficialStops = {}
        for code, lap, time in zip(rows["code"], rows["lap"], seconds):
            stops.setdefault(str(code), {})[int(lap)] = None if pd.isna(time) else float(time)
        return stops

    def race_id(self, season: int, round_: int) -> int | None:
        rows = self.races[(self.races["year"] == season) & (self.races["round"] == round_)]
        return int(rows["raceId"].iloc[0]) if len(rows) else None

    def race_name(self, season: int, round_: int) -> str | None:
        rows = self.races[(self.races["year"] == season) & (self.races["round"] == round_)]
        return str(rows["name"].iloc[0]) if len(rows) else None

    def driver_names(self) -> dict[str, str]:
        """Code -> full name ('HAM' -> 'Lewis Hamilton'), from drivers.csv."""
        named = self.drivers.dropna(subset=["code"])
        return {
            code: f"{first} {last}"
            for code, first, last in zip(named["code"], named["forename"], named["surname"])
        }

    def classification(self, season: int, round_: int) -> pd.DataFrame:
        """One row per entrant: code, full name, surname, team, grid, official position
        (``<NA>`` when not classified), position order, laps completed and status."""
        import pandas as pd

        race_id = self.race_id(season, round_)
        if race_id is None:
            return pd.DataFrame(columns=list(CLASSIFICATION_COLUMNS))
        rows = self.results[self.results["raceId"] == race_id]
        rows = rows.merge(self.drivers[["driverId", "code", "forename", "surname"]], on="driverId")
        rows = rows.merge(
            self.constructors[["constructorId", "name"]].rename(columns={"name": "team"}),
            on="constructorId",
        )
        rows = rows.merge(self.status[["statusId", "status"]], on="statusId", how="left")
        out = pd.DataFrame(
            {
                "code": rows["code"].astype("string"),
                "name": rows["forename"] + " " + rows["surname"],
                "surname": rows["surname"],
                "team": rows["team"],
                "grid": pd.to_numeric(rows["grid"]).astype("Int64"),
                # positionText is a number only for classified finishers (R, D, W, N… otherwise)
                "position": pd.to_numeric(rows["positionText"], errors="coerce").astype("Int64"),
                "position_order": pd.to_numeric(rows["positionOrder"]).astype("Int64"),
                "laps": pd.to_numeric(rows["laps"]).astype("Int64"),
                "status": rows["status"].fillna("Unknown"),
            }
        )
        return out.sort_values("position_order", kind="stable").reset_index(drop=True)
