"""Instances: one per forecast period and language, with a neutral prompt.

Ids are ``weather:{source}:{period_number}:{lang}``. ``source`` is the office and grid
point of the forecast URL when the response carries it (``BMX_59-84``), else the file's
stem (``e2e__BMX_59-84``; the shared fixtures have no URL and two scenarios share a
grid point), and, for the JSONL corpora, ``source.grid`` plus the issue time in UTC
(``EWX_153-89@20230214T101500Z``), since one grid point is forecast again every day.
A period line without a ``number`` is numbered by its order within its issue.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from factcov.domains.weather.oracle import relevant_facts
from factcov.domains.weather.periods import Period, _Where, make_period
from factcov.model import Instance

LANGUAGES = ("en", "es", "pt")
TASK = "period_forecast"

_PROMPTS = {
    "en": "Write a short weather forecast for the period '{name}' from the forecast data below.",
    "es": "Escribe un pronóstico del tiempo breve para el periodo '{name}' a partir de los datos de pronóstico siguientes.",
    "pt": "Escreva uma previsão do tempo breve para o período '{name}' a partir dos dados de previsão abaixo.",
}
# The context is the record without the text NWS wrote from it (that text is a system output).
_HIDDEN = ("detailedForecast", "source")


def instance_id(period: Period, language: str) -> str:
    return f"weather:{period.source}:{period.number}:{language}"


def period_context(period: Period) -> dict[str, Any]:
    context = {k: v for k, v in period.raw.items() if k not in _HIDDEN}
    context["source"] = period.source
    context["number"] = period.number
    return context


def period_of(instance: Instance) -> Period:
    """The normalized period an instance was built from (its context is the record)."""
    context = instance.context
    return make_period(context, context.get("source", ""), context.get("number", 0), _Where(instance.id, None, "context."))


def instances_of(period: Period, languages: Iterable[str] = LANGUAGES) -> Iterator[Instance]:
    facts = relevant_facts(period)
    context = period_context(period)
    for language in languages:
        yield Instance(
            id=instance_id(period, language),
            domain="weather",
            task=TASK,
            language=language,
            prompt=_PROMPTS[language].format(name=period.name),
            context=context,
            facts=facts,
        )
