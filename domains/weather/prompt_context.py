"""The weather context as a prompt needs it: one "name: value" line per forecast field a text can state.

The NWS period carries an icon URL, a source id and timestamps no forecast text states;
left out, the prompt is about half as long and easier for a small model to read.
"""

from __future__ import annotations

from typing import Any

# (field, label) in reading order; values with a unit code are given as "value unit".
FIELDS = (("name", "Period"), ("isDaytime", "Daytime"), ("temperature", "Temperature"),
          ("temperatureTrend", "Temperature trend"), ("windSpeed", "Wind speed"), ("windDirection", "Wind direction"),
          ("probabilityOfPrecipitation", "Chance of precipitation"), ("relativeHumidity", "Relative humidity"),
          ("dewpoint", "Dewpoint"), ("shortForecast", "Forecast"), ("detailedForecast", "Detailed forecast"))
UNITS = {"wmoUnit:percent": "%", "wmoUnit:degC": "°C"}


def _shown(field: str, value: Any, context: dict[str, Any]) -> str | None:
    if isinstance(value, dict):
        inner = value.get("value")
        if inner is None:
            return None
        number = round(inner, 1) if isinstance(inner, float) else inner
        return f"{number}{UNITS.get(value.get('unitCode'), '')}"
    if value is None or value == "":
        return None
    if field == "temperature":
        return f"{value} °{context.get('temperatureUnit', 'F')}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render(context: dict[str, Any]) -> str:
    lines = []
    for field, label in FIELDS:
        shown = _shown(field, context.get(field), context)
        if shown is not None:
            lines.append(f"{label}: {shown}")
    return "\n".join(lines)
