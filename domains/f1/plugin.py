"""Built-in plugin of the f1 domain: the domain, its regex extractor and `factcov f1`."""

from __future__ import annotations

from typing import Any

from factcov import hookimpl
from factcov.plugins import lazy

# What `factcov domains` shows of the domain without importing it (checked against
# F1Domain when it is imported, and by tests/test_domain_listings.py)
LISTING = {
    "description": "Formula 1 race-strategy explanations (tyre strategy, undercut, overcut, defense, race summary) "
                   "scored against an oracle derived from FastF1 lap data and Ergast results.",
    "version": "0.1.0",
    "languages": ("en", "es", "pt"),
    "tasks": ("tyre_strategy", "undercut", "overcut", "defense", "race_summary"),
    "claim_types": ("stop_count", "pit_lap", "stint_compound", "compound_change", "final_position", "undercut",
                    "overcut", "time_gained", "defense", "retired", "winner", "neutralization"),
    "default_extractor": "f1-regex",
}


@hookimpl
def register_domains(register: Any) -> None:
    register(lazy("f1", "factcov.domains.f1.domain:F1Domain", LISTING))  # imported when asked for


@hookimpl
def register_extractors(register: Any) -> None:
    register(lazy("f1-regex", "factcov.domains.f1.extractor:F1RegexExtractor", {"domains": ("f1",)}))


@hookimpl
def register_commands(app: Any) -> None:
    from factcov.domains.f1.commands import app as f1_app

    app.add_typer(f1_app, name="f1")
