"""Built-in plugin of the weather domain: the domain, its regex extractor, its commands."""

from collections.abc import Callable
from typing import Any

from factcov import hookimpl


@hookimpl
def register_domains(register: Callable[[type], None]) -> None:
    from factcov.domains.weather.domain import WeatherDomain

    register(WeatherDomain)


@hookimpl
def register_extractors(register: Callable[[type], None]) -> None:
    from factcov.domains.weather.extractor import WeatherRegexExtractor

    register(WeatherRegexExtractor)


@hookimpl
def register_commands(app: Any) -> None:
    from factcov.domains.weather.commands import app as weather_app

    app.add_typer(weather_app, name="weather")
