"""FastF1 as a lap source (optional extra ``factcov[fastf1]``): a race session's laps
converted into the same normalized table as ``laps.read_lap_table``.

``fastf1`` is imported only inside these functions. ``load_race_laps`` needs a network
the first time (FastF1 caches its downloads in ``cache_dir``); ``laps_from_fastf1`` works
offline on any ``fastf1.core.Laps`` object.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from factcov.domains.f1.laps import normalize_laps
from factcov.errors import FactcovError

if TYPE_CHECKING:
    import pandas as pd

FASTF1_MISSING = "the FastF1 source needs the fastf1 extra: pip install 'factcov[fastf1]'"


def _fastf1() -> Any:
    try:
        import fastf1
    except ImportError:
        raise FactcovError(FASTF1_MISSING) from None
    return fastf1


def laps_from_fastf1(laps: Any, season: int, round_: int, event_name: str) -> pd.DataFrame:
    """A FastF1 ``Laps`` frame (timedeltas as FastF1 gives them) -> the normalized lap table."""
    import pandas as pd

    frame = pd.DataFrame(laps).copy()
    if "LapTime" in frame.columns and pd.api.types.is_timedelta64_dtype(frame["LapTime"]):
        frame["LapTime"] = frame["LapTime"].dt.total_seconds()
    frame["RoundNumber"] = round_
    frame["EventName"] = event_name
    frame["Season"] = season
    return normalize_laps(frame, source=f"fastf1:{season}:{round_}")


def load_race_laps(season: int, round_: int, cache_dir: str | Path | None = None) -> pd.DataFrame:
    """Ask FastF1 for a race session's laps (downloads once, then reads the cache)."""
    fastf1 = _fastf1()
    if cache_dir is not None:
        Path(cache_dir).mkdir(parents=True, exist_ok=True)
        fastf1.Cache.enable_cache(str(cache_dir))
    session = fastf1.get_session(season, round_, "R")
    session.load(laps=True, telemetry=False, weather=False, messages=False)
    return laps_from_fastf1(session.laps, season, round_, str(session.event["EventName"]))
