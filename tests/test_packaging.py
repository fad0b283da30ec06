"""Packaging: one import namespace mapped from the top-level folders, README and CI in step."""

from __future__ import annotations

import subprocess
import sys
import tomllib

FOLDERS = {"core": "factcov", "domains": "factcov.domains", "extractors": "factcov.extractors"}


def test_every_package_folder_is_listed_in_pyproject(repo_root):
    config = tomllib.loads((repo_root / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {v: k for k, v in FOLDERS.items()}
    found = set()
    for folder, namespace in FOLDERS.items():
        for init in (repo_root / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(repo_root / folder).parts
            found.add(".".join((namespace, *relative)))
    assert found == set(config["packages"]), "pyproject [tool.setuptools] packages must list every package folder"


def test_no_top_level_core_or_domains_package_is_importable_from_site():
    code = "import importlib.util, factcov; print(importlib.util.find_spec('core') is None or 'site-packages' not in str(importlib.util.find_spec('core').origin))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", check=True).stdout
    assert out.strip() == "True"


def test_help_starts_without_importing_heavy_libraries():
    code = (
        "import sys; from factcov.cli.app import run; run(['--help']);"
        "heavy = [m for m in ('spacy', 'stanza', 'torch', 'httpx', 'sacrebleu', 'selenium') if m in sys.modules];"
        "print('HEAVY=' + ','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "HEAVY=\n" in out + "\n" and out.strip().splitlines()[-1] == "HEAVY="
