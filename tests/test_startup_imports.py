"""`factcov --help` and `factcov domains` start fast: they import none of the heavy
libraries (pandas, pyarrow, scipy, spaCy, httpx, torch), and `--help` none of a domain's
grammar or extractor code (plugins' hooks fill the registries only when a command asks)."""

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("pandas", "pyarrow", "scipy", "spacy", "httpx", "torch", "numpy")
PROBE = """
import contextlib, io, json, sys
from factcov.cli.app import run
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = run(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def imported(*args: str, columns: int | None = None) -> dict:
    env = {**os.environ, "COLUMNS": str(columns)} if columns else None
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [("--help",), ("domains",), ("score", "--help")])
def test_help_and_domains_import_no_heavy_library(args) -> None:
    found = imported(*args)
    assert found["code"] == 0 and found["out"].strip()
    heavy = [m for m in found["modules"] if m.split(".")[0] in HEAVY]
    assert not heavy, heavy


def test_help_imports_no_domain_code_but_lists_every_domains_commands() -> None:
    found = imported("--help")
    assert all(f" {group} " in found["out"] for group in ("f1", "weather", "rag"))
    assert "factcov.domains.f1.plugin" in found["modules"]  # the plugins are registered (their commands)
    for module in ("factcov.domains.f1.extractor", "factcov.domains.f1.reading", "factcov.domains.weather.grammar",
                   "factcov.domains.rag.claims", "factcov.scoring"):
        assert module not in found["modules"], module


@pytest.mark.parametrize("columns", [80, 200])
def test_help_imports_neither_pydantic_nor_the_chat_client(columns) -> None:
    """Plugins register their classes in their hooks (the llm extractor's module, the chat
    client and the domains' models are imported when a command builds them), and the
    domains' commands reach the command line's helpers through ``factcov.commands`` lazily.
    (A command's or a group's own help, `score --help`, is formatted by typer, whose
    parameter adapters import pydantic.) Help is click's plain help at every width: rich's
    panels are not drawn on a wide terminal either."""
    found = imported("--help", columns=columns)
    assert found["code"] == 0 and found["out"].strip()
    loaded = [m for m in found["modules"] if m.split(".")[0] in ("pydantic", "pydantic_core", "httpx", "rich")
              or m in ("factcov.chat", "factcov.extractors.llm", "factcov.cli.config", "factcov.model")]
    assert not loaded, loaded


def test_a_run_of_one_domain_imports_no_other_built_in_domain() -> None:
    """The built-in plugins register their classes by name (``factcov.plugins.lazy``):
    scoring with f1 imports neither the rag domain (and its claims code) nor weather's."""
    code = ("import json, sys; from factcov.plugins import get_domain, get_extractor;"
            "get_extractor(get_domain('f1').default_extractor, 'en'); print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = json.loads(done.stdout.strip().splitlines()[-1])
    assert "factcov.domains.f1.extractor" in modules
    for module in ("factcov.domains.rag.domain", "factcov.domains.rag.extractor", "factcov.domains.weather.domain",
                   "factcov.domains.weather.extractor"):
        assert module not in modules, module
