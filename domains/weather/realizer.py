"""Facts -> forecast text in en/es/pt, in the NWS order: conditions, sky and temperature,
wind, chance of precipitation. The baseline system and what ``check_domain`` reads back.
Values are written in the record's units (°F, mph) so the text states exactly the facts."""

from __future__ import annotations

from collections.abc import Sequence

from factcov.domains.weather.vocabulary import (
    CONDITION_JOINER,
    SPOKEN_CONDITION,
    SPOKEN_QUALIFIER,
    SPOKEN_SKY,
    spoken_direction,
)
from factcov.model import Fact

_TEMPERATURE = {
    "en": {"high": "high near {v}", "low": "low around {v}"},
    "es": {"high": "máxima de {v} °F", "low": "mínima de {v} °F"},
    "pt": {"high": "máxima de {v} °F", "low": "mínima de {v} °F"},
}
_WITH = {"en": "with a", "es": "con una", "pt": "com"}
_TREND = {
    "en": {"rising": "temperatures rising", "falling": "temperatures falling"},
    "es": {"rising": "temperaturas en ascenso", "falling": "temperaturas en descenso"},
    "pt": {"rising": "temperaturas em elevação", "falling": "temperaturas em queda"},
}
_WIND = {
    "en": {"dir": "{d} wind", "none": "Wind", "speed": "{a} to {b} mph", "single": "around {a} mph",
           "gust": "gusts as high as {g} mph", "with": ", with "},
    "es": {"dir": "Viento del {d}", "none": "Viento", "speed": "de {a} a {b} mph", "single": "de {a} mph",
           "gust": "ráfagas de hasta {g} mph", "with": ", con "},
    "pt": {"dir": "Vento do {d}", "none": "Vento", "speed": "de {a} a {b} mph", "single": "de {a} mph",
           "gust": "rajadas de até {g} mph", "with": ", com "},
}
_PRECIP = {
    "en": "Chance of precipitation is {v}%.",
    "es": "Probabilidad de precipitación del {v} %.",
    "pt": "Probabilidade de precipitação de {v}%.",
}


def _num(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def realize(facts: Sequence[Fact], language: str, night: bool = False) -> str:
    by_type: dict[str, list[Fact]] = {}
    for fact in facts:
        by_type.setdefault(fact.type, []).append(fact)
    sentences = _condition_sentences(by_type.get("condition", []), language)
    sentences += _sky_and_temperature(by_type, language, night)
    sentences += _wind_sentence(by_type, language)
    for fact in by_type.get("precip_chance", []):
        sentences.append(_PRECIP[language].format(v=_num(fact.value)))
    return " ".join(sentences)


def _condition_sentences(conditions: list[Fact], language: str) -> list[str]:
    """One sentence per qualifier, its conditions listed ("Chance of rain and snow.")."""
    groups: dict[str, list[str]] = {}
    for fact in conditions:
        groups.setdefault(fact.key["qualifier"], []).append(SPOKEN_CONDITION[language][fact.value])
    sentences = []
    for qualifier, names in groups.items():
        listed = CONDITION_JOINER[language].join(names)
        sentences.append(SPOKEN_QUALIFIER[language][qualifier].format(c=listed, C=_sentence(listed)))
    return sentences


def _sky_and_temperature(by_type: dict[str, list[Fact]], language: str, night: bool) -> list[str]:
    """Sky, temperature and trend in one sentence (a low temperature makes the sky's night words)."""
    temperature = by_type.get("temperature", [])
    if temperature:
        night = temperature[0].key.get("kind") == "low"
    parts: list[str] = []
    for fact in by_type.get("sky", []):
        level = fact.value[0] if isinstance(fact.value, list) else fact.value  # icon sky: nominal level first
        parts.append(SPOKEN_SKY[language][level][1 if night else 0])
    for fact in temperature:
        phrase = _TEMPERATURE[language][fact.key["kind"]].format(v=_num(fact.value))
        parts.append(f"{_WITH[language]} {phrase}" if parts else phrase)
    for fact in by_type.get("temperature_trend", []):
        parts.append(_TREND[language][fact.value])
    return [_sentence(", ".join(parts)) + "."] if parts else []


def _wind_sentence(by_type: dict[str, list[Fact]], language: str) -> list[str]:
    """Direction, speed and gusts in one sentence, or none."""
    wind = _WIND[language]
    direction = by_type.get("wind_direction", [])
    speeds = by_type.get("wind_speed", [])
    gusts = by_type.get("wind_gust", [])
    if not (direction or speeds or gusts):
        return []
    head = [wind["dir"].format(d=spoken_direction(f.value, language)) for f in direction] or ([wind["none"]] if speeds else [])
    for fact in speeds:
        low, high = fact.value
        form = wind["single"] if low == high else wind["speed"]
        head.append(form.format(a=_num(low), b=_num(high)))
    text = " ".join(head)
    for fact in gusts:
        gust = wind["gust"].format(g=_num(fact.value))
        text = f"{text}{wind['with']}{gust}" if text else _sentence(gust)
    return [_sentence(text) + "."]
