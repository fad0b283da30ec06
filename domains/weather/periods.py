"""Streaming loaders of NWS forecast periods: GeoJSON files and the JSONL forms.

Three shapes are read, each file by what its content is, not by its name:

- a GeoJSON forecast (``.json``; the API's ``/gridpoints/{office}/{x},{y}/forecast``):
  ``properties.periods[]``;
- JSON lines of whole responses (one ``{"properties": {"periods": [...]}}`` per line);
- JSON lines of single periods (``name``, ``startTime``, ``detailedForecast``... per line).

Gzip or not. Each period is checked and normalized once (``Period``); a malformed one
raises ``InputError`` naming the file, the line and the field.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from factcov.domains.weather.vocabulary import COMPASS
from factcov.errors import InputError
from factcov.inputs import files_in
from factcov.jsonl import iter_json_lines, open_binary, parse_json_document

_SPEED = re.compile(r"^\s*(\d+(?:\.\d+)?)(?:\s*to\s*(\d+(?:\.\d+)?))?\s*(mph|km/h|kt|knots)?\s*$", re.IGNORECASE)
_GRID_URL = re.compile(r"/gridpoints/([A-Z]{3})/(\d+),(\d+)/forecast")
_TO_MPH = {"mph": 1.0, "km/h": 0.621371, "kt": 1.15078, "knots": 1.15078}
_NIGHT_NAME = re.compile(r"night|tonight|overnight|evening", re.IGNORECASE)
_FORECAST_SUFFIXES = (".forecast.json", ".json.gz", ".json")
_COMPASS_SET = frozenset(COMPASS)


@dataclass(frozen=True, slots=True)
class Period:
    """One forecast period, checked and normalized (mph, °F)."""

    source: str
    number: int
    name: str
    start: str | None
    end: str | None
    is_daytime: bool | None
    temperature: int | None
    trend: str | None
    trend_known: bool  # the record has a temperatureTrend field (null = no trend)
    precip_chance: int | None
    wind_speed: tuple[float, float] | None
    wind_direction: str | None
    wind_gust: float | None
    short_forecast: str
    detailed_forecast: str
    icon: str | None
    raw: dict[str, Any]

    @property
    def temperature_kind(self) -> str:
        """'low' for a night period, else 'high'. The period's name wins over isDaytime:
        'Tonight' is a night whatever a hand-edited isDaytime says."""
        if _NIGHT_NAME.search(self.name):
            return "low"
        return "low" if self.is_daytime is False else "high"

    @property
    def instance_key(self) -> str:
        return f"{self.source}:{self.number}"


class _Where:
    """File, line and field prefix for error messages."""

    def __init__(self, path: Path, line: int | None, prefix: str) -> None:
        self.path, self.line, self.prefix = path, line, prefix

    def error(self, field: str, message: str) -> InputError:
        return InputError(message, path=self.path, line=self.line, field=f"{self.prefix}{field}")


# The corpus spans -100 to 116 °F (977,036 periods); Earth's records are -129 and 134 °F.
TEMPERATURE_LIMIT_F = 200
WIND_LIMIT_MPH = 500  # the strongest gust measured is 253 mph


def _number(value: Any, where: _Where, field: str, *, allow_none: bool = True) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool):
        raise where.error(field, f"expected a number, got {value!r}")
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", value):
        return float(value)  # a few records of the corpus quote the temperature
    raise where.error(field, f"expected a number, got {value!r}")


def _text(value: Any, where: _Where, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise where.error(field, f"expected a string, got {type(value).__name__}")
    return value


def parse_wind_speed(text: str) -> tuple[float, float] | None:
    """'5 to 10 mph' -> (5, 10); '10 mph' -> (10, 10); None when unreadable."""
    match = _SPEED.match(text)
    if match is None:
        return None
    factor = _TO_MPH[(match.group(3) or "mph").lower()]
    low = float(match.group(1)) * factor
    high = float(match.group(2)) * factor if match.group(2) else low
    if not high <= WIND_LIMIT_MPH:  # '1000…0 mph' (or inf): unreadable, not a fact to keep
        return None
    return (round(low, 2), round(high, 2))


def _measure(value: Any, where: _Where, field: str) -> float | None:
    """``{"unitCode": ..., "value": N}`` (or a bare number) -> N."""
    if isinstance(value, dict):
        return _number(value.get("value"), where, f"{field}.value")
    return _number(value, where, field)


def _temperature_f(raw: dict, where: _Where) -> float | None:
    """The period's temperature in °F (a °C one converted), within what a forecast gives."""
    temperature = _number(raw.get("temperature"), where, "temperature")
    unit = _text(raw.get("temperatureUnit"), where, "temperatureUnit") or "F"
    if unit not in ("F", "C"):
        raise where.error("temperatureUnit", f"expected 'F' or 'C', got {unit!r}")
    if temperature is not None and unit == "C":
        temperature = temperature * 9 / 5 + 32
    if temperature is not None and not -TEMPERATURE_LIMIT_F <= temperature <= TEMPERATURE_LIMIT_F:
        # no forecast on Earth says this; written as a fact it would poison every later score
        raise where.error("temperature", f"{raw.get('temperature')!r} {unit} is not a temperature a forecast gives "
                                         f"(beyond ±{TEMPERATURE_LIMIT_F} °F)")
    return temperature


def _trend(raw: dict, where: _Where) -> str | None:
    trend = raw.get("temperatureTrend") or None  # the API writes null or, in places, ""
    if trend is not None and trend not in ("rising", "falling"):
        raise where.error("temperatureTrend", f"expected 'rising', 'falling' or null, got {trend!r}")
    return trend


def _is_daytime(raw: dict, where: _Where) -> bool | None:
    is_daytime = raw.get("isDaytime")
    if is_daytime is not None and not isinstance(is_daytime, bool):
        raise where.error("isDaytime", f"expected true, false or null, got {is_daytime!r}")
    return is_daytime


def _wind_speed(raw: dict, where: _Where) -> tuple[float, float] | None:
    speed_text = _text(raw.get("windSpeed"), where, "windSpeed")
    wind_speed = parse_wind_speed(speed_text) if speed_text.strip() else None
    if speed_text.strip() and wind_speed is None:
        raise where.error("windSpeed", f"expected '10 mph' or '5 to 10 mph', got {speed_text!r}")
    return wind_speed


def _wind_direction(raw: dict, where: _Where) -> str | None:
    direction = _text(raw.get("windDirection"), where, "windDirection").strip().upper() or None
    if direction is not None and direction not in _COMPASS_SET:
        raise where.error("windDirection", f"expected a 16-point direction such as 'NNE', got {direction!r}")
    return direction


def _wind_gust(raw: dict, where: _Where) -> float | None:
    """The gust in mph: "30 mph" (the upper end of a range) or a measure ({"value": ...})."""
    gust = raw.get("windGust")
    if isinstance(gust, str) and gust.strip():
        parsed = parse_wind_speed(gust)
        if parsed is None:
            raise where.error("windGust", f"expected '30 mph', got {gust!r}")
        return parsed[1]
    if gust is None or isinstance(gust, str):
        return None
    gust_mph = _measure(gust, where, "windGust")
    if gust_mph is not None and not 0 <= gust_mph <= WIND_LIMIT_MPH:
        raise where.error("windGust", f"expected a gust of 0-{WIND_LIMIT_MPH} mph, got {gust_mph!r}")
    return gust_mph


def make_period(raw: Any, source: str, number: int, where: _Where) -> Period:
    """Check one raw period and normalize it; errors name the offending field (checked in
    the order of the fields below, so the first bad one is the one named)."""
    if not isinstance(raw, dict):
        raise where.error("", f"expected a period object, got {type(raw).__name__}")
    name = _text(raw.get("name"), where, "name")
    temperature = _temperature_f(raw, where)
    trend = _trend(raw, where)
    is_daytime = _is_daytime(raw, where)
    wind_speed = _wind_speed(raw, where)
    direction = _wind_direction(raw, where)
    gust_mph = _wind_gust(raw, where)
    pop = _measure(raw.get("probabilityOfPrecipitation"), where, "probabilityOfPrecipitation")
    if pop is not None and not 0 <= pop <= 100:
        raise where.error("probabilityOfPrecipitation.value", f"expected a percentage 0-100, got {pop!r}")
    return Period(
        source=source,
        number=number,
        name=name,
        # strings as the API writes them (ISO times; recorded forecasts hold "date:now -527 seconds")
        start=_text(raw.get("startTime"), where, "startTime") or None,
        end=_text(raw.get("endTime"), where, "endTime") or None,
        is_daytime=is_daytime,
        temperature=None if temperature is None else round(temperature),
        trend=trend,
        trend_known="temperatureTrend" in raw,
        precip_chance=None if pop is None else round(pop),
        wind_speed=wind_speed,
        wind_direction=direction,
        wind_gust=gust_mph,
        short_forecast=_text(raw.get("shortForecast"), where, "shortForecast"),
        detailed_forecast=_text(raw.get("detailedForecast"), where, "detailedForecast"),
        icon=raw.get("icon") if isinstance(raw.get("icon"), str) else None,
        raw=raw,
    )


def compact_time(stamp: str | None) -> str | None:
    """'2020-12-25T08:56:32+00:00' -> '20201225T085632Z' (UTC; no ':' so ids stay splittable)."""
    if not stamp:
        return None
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return re.sub(r"[^0-9A-Za-z]", "", stamp) or None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y%m%dT%H%M%SZ")


def grid_source(grid: str | None) -> str | None:
    """'EWX/153/89' -> 'EWX_153-89'; an office alone stays as it is."""
    if not grid:
        return None
    parts = grid.split("/")
    return f"{parts[0]}_{parts[1]}-{parts[2]}" if len(parts) == 3 else "_".join(parts)


def source_of_response(response: dict[str, Any], fallback: str) -> str:
    """Office and grid point from the forecast URL when known; else the JSONL's source.grid
    plus the issue time (which keeps successive issues of one point apart); else ``fallback``."""
    properties = response.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    for url in (response.get("id"), properties.get("@id"), properties.get("forecast")):
        match = _GRID_URL.search(url) if isinstance(url, str) else None
        if match:
            return f"{match.group(1)}_{match.group(2)}-{match.group(3)}"
    meta = response.get("source") if isinstance(response.get("source"), dict) else {}
    grid = grid_source(meta.get("grid")) or _repo_slug(meta.get("repo"))
    issued = compact_time(properties.get("generatedAt") or properties.get("updated") or meta.get("generatedAt"))
    if grid is None or issued is None:
        return fallback
    return f"{grid}@{issued}"


def _periods_of_response(response: dict[str, Any], source: str, where: _Where) -> Iterator[Period]:
    properties = response.get("properties")
    if not isinstance(properties, dict) or not isinstance(properties.get("periods"), list):
        raise where.error("properties.periods", "missing: expected an NWS forecast with properties.periods[]")
    for index, raw in enumerate(properties["periods"]):
        item = _Where(where.path, where.line, f"{where.prefix}properties.periods.{index}.")
        number = raw.get("number") if isinstance(raw, dict) else None
        if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
            raise item.error("number", f"expected an integer, got {number!r}")
        yield make_period(raw, source, number or index + 1, item)


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (*_FORECAST_SUFFIXES, ".jsonl.gz", ".jsonl"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def _is_json_document(handle: IO[bytes]) -> bool:
    """True for a pretty-printed JSON document; a JSON-lines file (or a one-line document,
    which reads the same way) has a complete object on its first line. Decided on the
    bytes the open file can show without consuming them, so the file is opened once (a
    FIFO or ``<(zcat …)`` cannot be opened again: the second open waited forever)."""
    try:
        ahead = handle.peek(_PEEK_BYTES)  # type: ignore[attr-defined]
    except (EOFError, OSError, zlib.error):
        return False  # damaged gzip: reading it as lines names the file and the damage
    end = ahead.find(b"\n")
    if end < 0:
        return False  # no line break in sight: a one-line document or a long first line, both read as JSON lines
    first = ahead[:end]
    if not first.lstrip().startswith(b"{"):
        return False
    try:
        json.loads(first)
        return False
    except (ValueError, RecursionError):  # not one complete object on the first line
        return True


_PEEK_BYTES = 64 * 1024


# What makes a JSON line a forecast period: at least one of these keys (null allowed:
# NWS writes empty periods with every key null).
PERIOD_FIELDS = frozenset({"temperature", "windSpeed", "shortForecast", "detailedForecast", "probabilityOfPrecipitation"})


def iter_file_periods(path: str | Path) -> Iterator[Period]:
    """Every period of one file, in file order, streamed for JSON lines."""
    path = Path(path)
    with open_binary(path) as handle:
        if _is_json_document(handle):
            document = parse_json_document(handle, path)
            if not isinstance(document, dict):
                raise InputError("expected a JSON object (an NWS forecast)", path=path)
            yield from _periods_of_response(document, source_of_response(document, _stem(path)),
                                            _Where(path, None, ""))
        else:
            yield from _line_periods(path, handle)


def _line_periods(path: Path, handle: IO[bytes]) -> Iterator[Period]:
    ordinals: dict[str, int] = {}  # period number within one issue, for single-period lines
    for line, obj in iter_json_lines(path, handle):
        where = _Where(path, line, "")
        if "properties" in obj:
            yield from _periods_of_response(obj, source_of_response(obj, f"{_stem(path)}@L{line}"), where)
            continue
        if not PERIOD_FIELDS & obj.keys():
            # a line of another file (a generations or instances JSONL) would otherwise
            # build an empty period, and an instance with no facts
            raise InputError(f"not an NWS forecast period or response: it has none of {', '.join(sorted(PERIOD_FIELDS))} "
                             f"(its fields: {', '.join(sorted(obj)[:6]) or 'none'})", path=path, line=line)
        meta = obj.get("source") if isinstance(obj.get("source"), dict) else {}
        grid = grid_source(meta.get("grid")) or _repo_slug(meta.get("repo")) or _stem(path)
        issued = compact_time(meta.get("generatedAt"))
        source = f"{grid}@{issued}" if issued else grid
        number = obj.get("number")
        if not isinstance(number, int) or isinstance(number, bool):
            number = ordinals.get(source, 0) + 1
        ordinals[source] = max(ordinals.get(source, 0), number)
        yield make_period(obj, source, number, where)


def _repo_slug(repo: Any) -> str | None:
    return repo.replace("/", "-") if isinstance(repo, str) and repo else None


def forecast_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files named directly, and the forecast/JSONL files inside named directories (sorted)."""
    return files_in(list(paths), (".json", ".jsonl", ".json.gz", ".jsonl.gz"), "--forecasts")


def iter_periods(paths: Iterable[str | Path]) -> Iterator[Period]:
    for path in forecast_files(paths):
        yield from iter_file_periods(path)
