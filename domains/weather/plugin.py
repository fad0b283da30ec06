"""Built-in plugin of the weather domain: the domain, its regex extractor, its commands."""

from collections.abc import Callable
from typing import Any

from factcov import hookimpl
from factcov.plugins import lazy

# What `factcov domains` shows of the domain without importing it (checked against
# WeatherDomain when it is imported, and by tests/test_domain_listings.py)
LISTING = {
    "description": "NOAA/NWS forecast periods: temperature, wind, precipitation chance, sky and conditions.",
    "version": "0.1.0",
    "languages": ("en", "es", "pt"),
    "tasks": ("period_forecast",),
    "claim_types": ("temperature", "temperature_trend", "wind_direction", "wind_speed", "wind_gust", "precip_chance",
                    "sky", "condition", "timing", "precip_amount", "trend_temperature", "heat_index", "wind_chill",
                    "hazard"),
    "default_extractor": "weather-regex",
}


@hookimpl
def register_domains(register: Callable[[type], None]) -> None:
    register(lazy("weather", "factcov.domains.weather.domain:WeatherDomain", LISTING))  # imported when asked for


@hookimpl
def register_extractors(register: Callable[[type], None]) -> None:
    register(lazy("weather-regex", "factcov.domains.weather.extractor:WeatherRegexExtractor", {"domains": ("weather",)}))


@hookimpl
def register_commands(app: Any) -> None:
    from factcov.domains.weather.commands import app as weather_app

    app.add_typer(weather_app, name="weather")
