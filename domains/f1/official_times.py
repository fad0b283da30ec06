"""The official pit-lane times (Ergast ``pit_stops.csv``, optional ``milliseconds``) as
evidence of what a pit entry was.

The lap table's pit-lane time (``PitOutTime`` of the out-lap minus ``PitInTime``) is off by
seconds in some races (a car's pit exit, or the race's typical stop: 2021 Saudi Arabia
reads 27.7 s where Ergast's stops take 21 s), so it cannot tell a drive-through from a
quick stop there. The official times can: over the 159 races with them, every
drive-through is 4.8 s or more quicker than the race's median official stop with a tyre
change (2025 Monaco Russell's, which the feed shows with a tyre change, the slowest), and
every real stop at most 2.4 s quicker (``benchmarks/f1_pit_durations.py``).
Without the table or the column every time is missing and the lap table decides alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from factcov.domains.f1.ergast import OfficialStops

# an official pit-lane time this much under the race's median official stop with a tyre
# change has no stationary time: a drive-through (the gap measured: drive-throughs -4.8 s
# and quicker, real stops -2.4 s and slower; 3.5 s is near its middle)
OFFICIAL_DRIVE_THROUGH_S = 3.5


def official_times(laps: pd.DataFrame, official_stops: OfficialStops | None) -> pd.Series:
    """Each row's official pit-lane time in seconds (the official entry on the row's driver
    and lap); NaN where the official table gives none or no positive time. A driver's laps
    given as a plain list (the shape before the times were read) have no times."""
    import numpy as np
    import pandas as pd

    timed = {(str(driver), int(lap)): float(time) for driver, stops in (official_stops or {}).items()
             if isinstance(stops, Mapping) for lap, time in stops.items() if time is not None and time > 0}
    if not timed:
        return pd.Series(np.nan, index=laps.index, dtype=float)
    numbers = pd.to_numeric(laps["LapNumber"], errors="coerce")
    keys = zip(laps["Driver"].astype(str), numbers)
    return pd.Series([timed.get((driver, int(lap)), np.nan) if lap == lap else np.nan for driver, lap in keys],
                     index=laps.index, dtype=float)


def official_typical(times: pd.Series, changed: pd.Series, wait_s: float) -> float:
    """The race's median official time of the entries with a tyre change (``changed``), under
    any flag (a stop's pit-lane time is the same behind the safety car; the green ones alone
    are too few in some races: 2020 Britain, 2021 Saudi Arabia), red-flag waits
    (``wait_s`` or more) left out. NaN when none is timed."""
    values = times[changed & times.lt(wait_s)]
    return float(values.median()) if len(values) else float("nan")


def officially_quick(times: pd.Series, typical: float) -> pd.Series:
    """Rows whose official time is a drive-through's: ``OFFICIAL_DRIVE_THROUGH_S`` under the
    race's official stops (False where either is unknown)."""
    return (times < typical - OFFICIAL_DRIVE_THROUGH_S).eq(True)
