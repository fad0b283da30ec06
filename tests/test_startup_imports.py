"""`factcov --help` and `factcov domains` start fast: they import none of the heavy
libraries (pandas, pyarrow, scipy, spaCy, httpx, torch), and `--help` none of a domain's
grammar or extractor code (plugins' hooks fill the registries only when a command asks)."""

import json
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


def imported(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
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
