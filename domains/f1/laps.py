"""Reading FastF1-style lap tables (CSV, gzipped CSV, Parquet) into one normalized frame.

The normalized frame has one row per driver per lap with the columns of
``LAP_COLUMNS`` plus ``Season``; timedeltas (``Time``, ``PitInTime``, ``PitOutTime``)
become float seconds and ``TrackStatus`` a string of status digits (2024 writes it as
a float, ``12.0``, and CSV readers turn ``24`` into an int: both become ``"24"``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from factcov.errors import InputError

if TYPE_CHECKING:
    import pandas as pd

REQUIRED_COLUMNS: tuple[str, ...] = (
    "Driver",
    "Team",
    "LapNumber",
    "Time",
    "LapTime",
    "Stint",
    "Compound",
    "TyreLife",
    "PitInTime",
    "PitOutTime",
    "Position",
    "TrackStatus",
    "RoundNumber",
    "EventName",
)
OPTIONAL_COLUMNS: tuple[str, ...] = ("DriverNumber", "FreshTyre", "IsAccurate", "Season")
LAP_COLUMNS = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
TIMEDELTA_COLUMNS = ("Time", "PitInTime", "PitOutTime")
_SEASON_IN_NAME = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")


def _is_parquet(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4) == b"PAR1"


def read_lap_table(path: str | Path, season: int | None = None) -> pd.DataFrame:
    """Read one lap file and normalize it; the season comes from a ``Season`` column,
    the ``season`` argument, or a year in the file name (``2021.csv.gz``), in that order.

    Raises ``InputError`` naming the file (and the column) on a missing file, a
    missing column, or a season that cannot be told.
    """
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise InputError("no such lap file", path=path)
    try:
        if _is_parquet(path):
            frame = pd.read_parquet(path)
        else:
            frame = pd.read_csv(path, dtype={"TrackStatus": "string", "Driver": "string"})
    except (ValueError, OSError, EOFError) as exc:  # pandas' parse errors are ValueErrors; EOFError: truncated gzip
        raise InputError(f"cannot read lap table: {exc or type(exc).__name__}", path=path) from None
    return normalize_laps(frame, source=path, season=season)


def normalize_laps(
    frame: pd.DataFrame, source: str | Path = "<laps>", season: int | None = None
) -> pd.DataFrame:
    """Check the columns and convert types; ``source`` names the input in errors."""
    import pandas as pd

    for column in REQUIRED_COLUMNS:
        if column not in frame.columns:
            raise InputError(
                "missing column of a FastF1 lap table (see docs/domains/f1.md)",
                path=source,
                field=column,
            )
    out = frame[[c for c in LAP_COLUMNS if c in frame.columns]].copy()
    if "Season" not in out.columns:
        out["Season"] = season if season is not None else _season_from_name(source)
    for column in TIMEDELTA_COLUMNS:
        out[column] = _seconds(out[column], source, column)
    for column in ("LapNumber", "LapTime", "Stint", "TyreLife", "Position"):
        out[column] = _numbers(out[column], source, column)
    out["Driver"] = out["Driver"].astype("string").str.strip()
    out["Compound"] = out["Compound"].astype("string").str.upper().fillna("UNKNOWN")
    out["Team"] = out["Team"].astype("string")
    out["EventName"] = out["EventName"].astype("string")
    out["TrackStatus"] = (
        out["TrackStatus"].astype("string").str.replace(r"\.0$", "", regex=True).fillna("")
    )
    out["RoundNumber"] = _numbers(out["RoundNumber"], source, "RoundNumber").astype("Int64")
    out["Season"] = pd.to_numeric(out["Season"]).astype("Int64")
    out = out[out["LapNumber"].notna() & out["Driver"].notna()]
    out["LapNumber"] = out["LapNumber"].astype(int)
    return out.sort_values(["Season", "RoundNumber", "Driver", "LapNumber"], kind="stable").reset_index(
        drop=True
    )


def read_laps(paths: list[str | Path], season: int | None = None) -> pd.DataFrame:
    """Several lap files as one frame (e.g. one file per season)."""
    import pandas as pd

    if not paths:
        raise InputError("no lap files given: pass --laps FILE (CSV, csv.gz or Parquet)")
    return pd.concat([read_lap_table(p, season=season) for p in paths], ignore_index=True)


def _season_from_name(source: str | Path) -> int:
    match = _SEASON_IN_NAME.search(Path(str(source)).name)
    if match is None:
        raise InputError(
            "cannot tell the season: add a 'Season' column or name the file after the year "
            "(e.g. 2021.csv.gz)",
            path=source,
            field="Season",
        )
    return int(match.group(1))


def _seconds(column: pd.Series, source: str | Path, name: str) -> pd.Series:
    """Timedelta strings ('0 days 01:04:15.961000'), timedeltas or numbers -> float seconds."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(column):
        return column.astype(float)
    try:
        return pd.to_timedelta(column).dt.total_seconds()
    except (ValueError, TypeError) as exc:
        raise InputError(f"not a time duration: {exc}", path=source, field=name) from None


def _numbers(column: pd.Series, source: str | Path, name: str) -> pd.Series:
    import pandas as pd

    try:
        return pd.to_numeric(column).astype(float)
    except (ValueError, TypeError) as exc:
        raise InputError(f"not a number: {exc}", path=source, field=name) from None
