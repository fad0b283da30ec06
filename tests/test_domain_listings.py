"""`factcov domains` reads what it lists from the listings the plugins declare beside their
lazy registrations (``factcov.plugins.lazy(..., listing)``), importing no domain; a
listing says what the class says (checked here and when the class is imported); a plugin
that declares none is listed by importing its class."""

from __future__ import annotations

import sys
import textwrap

import pytest

from factcov import plugins
from factcov.errors import PluginError
from factcov.plugins import Lazy, listing_of
from tests.test_plugins import PLUGIN_SOURCE, entry_points_dir, make_distribution  # noqa: F401
from tests.test_startup_imports import imported


@pytest.mark.parametrize("registry", [plugins.domains, plugins.extractors], ids=["domains", "extractors"])
def test_every_built_in_listing_is_what_its_class_registers(registry):
    plugins.load_plugins()
    declared = {name: entry.listing for name, (entry, _plugin) in registry.entries.items()
                if isinstance(entry, Lazy) and entry.listing is not None}
    assert declared, "no built-in declares a listing"
    for name, listing in declared.items():
        assert registry.listing(name) == listing_of(registry.get(name), registry.listed), name
        assert set(listing) == set(registry.listed), name


def test_factcov_domains_imports_no_built_in_domain_and_lists_them_all():
    found = imported("domains")
    assert found["code"] == 0
    for module in ("factcov.domains.f1.domain", "factcov.domains.weather.domain", "factcov.domains.rag.domain",
                   "factcov.domains.f1.extractor", "factcov.domains.rag.claims", "factcov.extractors.llm"):
        assert module not in found["modules"], module
    for shown in ("f1-regex (default)", "weather-regex (default)", "rag-spacy (default)", "neutralization", "hazard",
                  "period_forecast", "llm"):
        assert shown in found["out"], shown


LISTED_SOURCE = """
    from factcov import hookimpl
    from factcov.plugins import lazy

    @hookimpl
    def register_domains(register):
        register(lazy("{name}", "{target}", {listing!r}))
"""
LISTING = {"description": "from an entry point", "version": "0.0.0", "languages": ["en"], "tasks": [],
           "claim_types": [], "default_extractor": "none"}


def _listed_plugin(root, monkeypatch, module: str, domain_module: str, listing: dict) -> None:
    (root / f"{domain_module}.py").write_text(textwrap.dedent(PLUGIN_SOURCE.format(
        cls="Listed", domain="listed").replace("@hookimpl", "").replace("def register_domains", "def unused")))
    make_distribution(root, "fake_dist", "1.0", "fake", module,
                      LISTED_SOURCE.format(name="listed", target=f"{domain_module}:Listed", listing=listing))
    monkeypatch.setenv("FACTCOV_PLUGINS", "fake")
    plugins.load_plugins()


def test_a_declared_listing_is_read_without_importing(entry_points_dir, monkeypatch):  # noqa: F811
    _listed_plugin(entry_points_dir, monkeypatch, "fake_listed_plugin", "listed_domain", LISTING)
    assert plugins.domains.listing("listed")["description"] == "from an entry point"
    assert "listed_domain" not in sys.modules
    assert plugins.get_domain("listed").description == "from an entry point"  # and it agrees


def test_a_listing_other_than_the_class_is_refused_when_imported(entry_points_dir, monkeypatch):  # noqa: F811
    _listed_plugin(entry_points_dir, monkeypatch, "fake_stale_plugin", "stale_domain",
                   {**LISTING, "claim_types": ["gone"]})
    with pytest.raises(PluginError, match=r"plugin 'fake' lists domain 'listed' with claim_types other than"):
        plugins.get_domain("listed")


def test_a_plugin_without_listing_is_listed_by_importing_its_class(entry_points_dir, monkeypatch):  # noqa: F811
    make_distribution(entry_points_dir, "fake_dist", "1.0", "fake", "fake_unlisted_plugin",
                      PLUGIN_SOURCE.format(cls="Unlisted", domain="unlisted"))
    (entry_points_dir / "unlisted_domain.py").write_text(textwrap.dedent(PLUGIN_SOURCE.format(
        cls="Unlisted", domain="unlisted").replace("@hookimpl", "").replace("def register_domains", "def unused")))
    monkeypatch.setenv("FACTCOV_PLUGINS", "fake")
    plugins.load_plugins()
    listing = plugins.domains.listing("unlisted")
    assert listing["description"] == "from an entry point" and listing["default_extractor"] == "none"
    assert listing["claim_types"] == ()


def test_factcov_domains_lists_a_plugin_without_listing(mini_plugin, capsys):
    from factcov.cli.app import run

    assert run(["domains"]) == 0
    out = capsys.readouterr().out
    assert "mini" in out and ", ".join(ct.name for ct in mini_plugin.MiniDomain.claim_types)[:20] in out
