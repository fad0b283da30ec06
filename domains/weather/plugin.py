"""Built-in plugin of the weather domain: the domain, its regex extractor, its commands."""

from collections.abc import Callable
from typing import Any

from factcov import hookimpl
from factcov.plugins import lazy


@hookimpl
def register_domains(register: Callable[[type], None]) -> None:
    register(lazy("weather", "factcov.domains.weather.domain:WeatherDomain"))  # imported when asked for


@hookimpl
def register_extractors(register: Callable[[type], None]) -> None:
    register(lazy("weather-regex", "factcov.domains.weather.extractor:WeatherRegexExtractor"))


@hookimpl
def register_commands(app: Any) -> None:
    from factcov.domains.weather.commands import app as weather_app

    app.add_typer(weather_app, name="weather")
