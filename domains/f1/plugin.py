"""Built-in plugin of the f1 domain: the domain, its regex extractor and `factcov f1`."""

from __future__ import annotations

from typing import Any

from factcov import hookimpl
from factcov.plugins import lazy


@hookimpl
def register_domains(register: Any) -> None:
    register(lazy("f1", "factcov.domains.f1.domain:F1Domain"))  # imported when asked for


@hookimpl
def register_extractors(register: Any) -> None:
    register(lazy("f1-regex", "factcov.domains.f1.extractor:F1RegexExtractor"))


@hookimpl
def register_commands(app: Any) -> None:
    from factcov.domains.f1.commands import app as f1_app

    app.add_typer(f1_app, name="f1")
