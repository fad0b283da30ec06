"""`factcov new-domain NAME`: the package it writes installs and passes its own tests unchanged."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from factcov.cli.app import run


@pytest.mark.slow
def test_the_new_domain_installs_and_passes_its_own_tests(tmp_path):
    assert run(["new-domain", "pantry", "-o", str(tmp_path)]) == 0
    package = tmp_path / "factcov-pantry"
    site = tmp_path / "site"
    # Installed the way a user installs it (a wheel built by setuptools, offline), into
    # a folder of its own so the test's environment is left as it was.
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(site), str(package)],
        capture_output=True, text=True, timeout=300,
    )
    assert install.returncode == 0, install.stderr
    assert (site / "factcov_pantry" / "data" / "instances.jsonl").is_file()
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("FACTCOV_PLUGINS", None)
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(package / "tests")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "7 passed" in tests.stdout
    # and factcov itself finds it through the entry point
    listing = subprocess.run([sys.executable, "-c", "from factcov.cli.app import run; raise SystemExit(run(['domains']))"], capture_output=True, text=True,
                             env={**env, "FACTCOV_PLUGINS": "pantry"}, timeout=120, cwd=tmp_path)
    assert "pantry" in listing.stdout and "pantry-patterns" in listing.stdout, listing.stderr


def test_the_generated_code_is_lint_clean(tmp_path):
    pytest.importorskip("ruff", reason="ruff comes with the dev extra")
    assert run(["new-domain", "pantry", "-o", str(tmp_path)]) == 0
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--select", "E,F,W,I,B,UP", "."],
                          capture_output=True, text=True, cwd=tmp_path / "factcov-pantry")
    assert lint.returncode == 0, lint.stdout


@pytest.mark.parametrize("name", ["Pantry", "1x", "my-domain", "x"])
def test_a_bad_name_is_a_usage_error(tmp_path, name, capsys):
    assert run(["new-domain", name, "-o", str(tmp_path)]) == 2
    assert "lowercase" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "why"), [("f1", "built-in domain"), ("weather", "built-in domain"),
                                           ("score", "factcov command"), ("validate", "factcov command")])
def test_a_name_factcov_already_uses_is_refused(tmp_path, name, why, capsys):
    """A plugin named like a built-in domain is refused when it loads (a hijack), and a
    domain's commands would stand beside factcov's own: refused before anything is written."""
    assert run(["new-domain", name, "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert why in err and f"'{name}'" in err and len(err.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())


def test_an_existing_package_is_not_overwritten(tmp_path, capsys):
    assert run(["new-domain", "pantry", "-o", str(tmp_path)]) == 0
    (tmp_path / "factcov-pantry" / "README.md").write_text("mine")
    assert run(["new-domain", "pantry", "-o", str(tmp_path)]) == 2
    assert (tmp_path / "factcov-pantry" / "README.md").read_text() == "mine"


def test_the_next_step_installs_the_folder_not_a_name_on_pypi(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(["new-domain", "pantry"]) == 0
    assert "next: pip install -e ./factcov-pantry && python -m pytest ./factcov-pantry/tests" in capsys.readouterr().err


def test_the_package_data_ships_without_a_setuptools_warning(tmp_path):
    # data/ is importable: unlisted in `packages`, setuptools warns that it "would be ignored".
    import zipfile

    assert run(["new-domain", "pantry", "-o", str(tmp_path)]) == 0
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation", "--no-index",
         "-w", str(tmp_path / "wheel"), str(tmp_path / "factcov-pantry")],
        capture_output=True, text=True, timeout=300,
    )
    assert build.returncode == 0, build.stderr
    assert "would be ignored" not in build.stdout + build.stderr
    wheel = next((tmp_path / "wheel").glob("*.whl"))
    assert "factcov_pantry/data/instances.jsonl" in zipfile.ZipFile(wheel).namelist()


def test_the_scaffold_has_the_domain_shape_and_a_readme_that_explains_it(tmp_path):
    """issue 29: factcov's own file names, a realizer, knowledge(), -e install, same-key facts."""
    from factcov.scaffold import write_domain_package

    root = write_domain_package("pantry", tmp_path)
    package = root / "factcov_pantry"
    for name in ("domain.py", "claims.py", "oracle.py", "extractor.py", "realizer.py", "commands.py", "demo.py"):
        assert (package / name).is_file(), name
    assert not (package / "claim_types.py").exists()
    assert "def realize(" in (package / "realizer.py").read_text(encoding="utf-8")
    assert "def knowledge(self, instance" in (package / "domain.py").read_text(encoding="utf-8")
    assert "def read(self, claim_type, match, item, instance)" in (package / "extractor.py").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "pip install -e ." in readme
    assert "generated by" not in readme.lower()  # says what the domain is, not where it came from
    assert "## Several facts with the same key" in readme and 'key_slots=("player", "goal")' in readme
    for name in ("claims.py", "realizer.py", "commands.py", "demo.py", "knowledge()"):
        assert name in readme, name


def test_a_table_extractors_read_may_take_the_instance():
    from factcov.extractors.patterns import Lexicon, TableExtractor
    from factcov.model import Instance

    class Stock(TableExtractor):
        name = "stock"
        patterns = {"count": (r"(?P<item>{item}): (?P<number>{number})",)}
        entity_slot = "item"

        def lexicon(self, instance):
            return Lexicon({row: row for row in instance.context["items"]})

        def read(self, claim_type, match, item, instance):
            return {"item": item, "shop": instance.context["shop"]}, int(match["number"])

    instance = Instance(id="s", domain="stock", task="t", language="en", prompt="",
                        context={"items": ["pears"], "shop": "north"}, facts=[])
    (claim,) = Stock().extract("Pears: 12.", instance)
    assert claim.key == {"item": "pears", "shop": "north"} and claim.value == 12
