"""The oracle: the facts a faithful forecast of one period states, read from its record.

Relevant facts (what recall counts): the temperature (high by day, low by night), its
trend when NWS gives one, the sky cover, each weather condition with its qualifier
(both from ``shortForecast``, the sky from the icon when the short text has none), the
wind direction and speed, gusts when the record holds them, and the chance of
precipitation when it rounds to 20% or more (NWS leaves lower chances unsaid).
The knowledge (what precision checks against) adds what the record knows but a
forecast need not say: a chance of precipitation below 20%, and the period's
temperature under the other label (high/low). A null temperatureTrend is
not read as "no trend": since 2024 the API leaves it null while the text, written from
the grid data, still says "temperatures rising to around 28 overnight".
"""

from __future__ import annotations

import re
from functools import lru_cache

from factcov.domains.weather.claims import CLAIM_TYPES
from factcov.domains.weather.grammar import short_forecast_readings
from factcov.domains.weather.periods import Period
from factcov.domains.weather.vocabulary import SKY_LEVELS
from factcov.knowledge import Knowledge
from factcov.model import Fact

PRECIP_MENTION_THRESHOLD = 20
_ICON_SKY = {"skc": "clear", "few": "mostly_clear", "sct": "partly_cloudy", "bkn": "mostly_cloudy", "ovc": "cloudy"}
_ICON_PART = re.compile(r"/(?:day|night)/(.+?)(?:\?|$)")


def _fact(type_: str, key: dict, value: object) -> Fact:
    return Fact(type=type_, key=key, value=value)


def rounded_to_tens(percent: int) -> int:
    return int(percent / 10 + 0.5) * 10


def sky_from_icon(icon: str | None) -> str | None:
    """'/icons/land/day/snow,40/ovc?size=medium' -> 'cloudy' (the last sky code wins)."""
    match = _ICON_PART.search(icon or "")
    if match is None:
        return None
    levels = [_ICON_SKY[p.split(",")[0]] for p in match.group(1).split("/") if p.split(",")[0] in _ICON_SKY]
    return levels[-1] if levels else None


@lru_cache(maxsize=8192)
def _short_forecast(short_forecast: str) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """(sky, ((qualifier, condition), ...)) of a shortForecast; NWS uses a few thousand
    distinct ones, so each is parsed once."""
    readings = short_forecast_readings(short_forecast)
    sky = next((r.value for r in readings if r.type == "sky"), None)
    conditions: list[tuple[str, str]] = []
    for reading in readings:
        if reading.type == "condition" and (reading.key["qualifier"], reading.value) not in conditions:
            conditions.append((reading.key["qualifier"], reading.value))
    return sky, tuple(conditions)


def icon_sky_levels(icon: str | None) -> list[str] | None:
    """The icon's sky level and its neighbours, nominal first: the icon shows the sky at
    one hour of the period, the text sums the period up ("Sunny" under a ``few`` icon)."""
    level = sky_from_icon(icon)
    if level is None:
        return None
    index = SKY_LEVELS.index(level)
    return [level] + [SKY_LEVELS[i] for i in (index - 1, index + 1) if 0 <= i < len(SKY_LEVELS)]


def relevant_facts(period: Period) -> list[Fact]:
    facts: list[Fact] = []
    if period.temperature is not None:
        facts.append(_fact("temperature", {"kind": period.temperature_kind}, period.temperature))
    if period.trend is not None:
        facts.append(_fact("temperature_trend", {}, period.trend))
    sky, conditions = _short_forecast(period.short_forecast)
    sky = sky or icon_sky_levels(period.icon)
    if sky is not None:
        facts.append(_fact("sky", {}, sky))
    for qualifier, condition in conditions:
        facts.append(_fact("condition", {"qualifier": qualifier, "weather": condition}, condition))
    if period.wind_direction is not None:
        facts.append(_fact("wind_direction", {}, period.wind_direction))
    if period.wind_speed is not None:
        facts.append(_fact("wind_speed", {}, _plain(list(period.wind_speed))))
    if period.wind_gust is not None:
        facts.append(_fact("wind_gust", {}, _plain(period.wind_gust)))
    if period.precip_chance is not None and rounded_to_tens(period.precip_chance) >= PRECIP_MENTION_THRESHOLD:
        facts.append(_fact("precip_chance", {}, period.precip_chance))
    return facts


def knowledge_facts(period: Period, relevant: list[Fact] | None = None) -> list[Fact]:
    facts = list(relevant if relevant is not None else relevant_facts(period))
    if period.temperature is not None:
        # A period has one temperature. A text that labels it the other way ("low around
        # -6" for a daytime period) is checked against it too: a wrong number is then a
        # contradiction, not unverifiable; a right number is supported but covers nothing.
        other = "low" if period.temperature_kind == "high" else "high"
        facts.append(_fact("temperature", {"kind": other}, period.temperature))
    if period.precip_chance is not None and rounded_to_tens(period.precip_chance) < PRECIP_MENTION_THRESHOLD:
        facts.append(_fact("precip_chance", {}, period.precip_chance))
    return facts


def period_knowledge(period: Period, relevant: list[Fact] | None = None) -> Knowledge:
    return Knowledge(knowledge_facts(period, relevant), CLAIM_TYPES)


def _plain(value: object) -> object:
    """Whole floats as ints, so '10 mph' is 10 in every output file."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return int(value) if isinstance(value, float) and value.is_integer() else value
