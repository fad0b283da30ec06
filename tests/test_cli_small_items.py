"""Small things a new user met (issue 29): --version once, validate perturb -q, -X on an
extractor without options, -i and -g swapped, where report.html is, help at 80 columns,
claims_of with a system the run does not have."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from factcov import __version__, api
from factcov.cli.app import run
from factcov.errors import UnknownNameError
from tests.test_compare import make_mini_run, mini_generations, mini_instances


def _files(tmp_path):
    instances, generations = tmp_path / "i.jsonl", tmp_path / "g.jsonl"
    instances.write_text("".join(json.dumps(r) + "\n" for r in mini_instances()), encoding="utf-8")
    generations.write_text("".join(json.dumps(r) + "\n" for r in mini_generations()), encoding="utf-8")
    return instances, generations


def test_version_prints_once_and_is_0_2_with_a_changelog(repo_root):
    done = subprocess.run([sys.executable, "-c", "from factcov.cli.app import main; main()", "--version"],
                          capture_output=True, text=True, check=True)
    assert done.stdout == f"factcov {__version__}\n"
    assert __version__ == "0.2.0"
    assert re.search(r'^version = "0\.2\.0"$', (repo_root / "pyproject.toml").read_text(encoding="utf-8"), re.M)
    assert "## 0.2.0" in (repo_root / "CHANGELOG.md").read_text(encoding="utf-8")


def test_validate_perturb_takes_quiet(capsys):
    assert run(["validate", "perturb", "-d", "f1", "--max-instances", "1", "-q"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_an_option_for_an_extractor_without_options_says_it_takes_none(capsys):
    assert run(["validate", "perturb", "-d", "f1", "--max-instances", "1", "-X", "foo=1"]) == 2
    err = capsys.readouterr().err
    assert "extractor 'f1-regex' takes no options" in err and "-X foo" in err
    assert "(none registered)" not in err


def test_swapped_instances_and_generations_give_a_hint(tmp_path, mini_plugin, capsys):
    instances, generations = _files(tmp_path)
    assert run(["score", "-d", "mini", "-i", str(generations), "-g", str(instances), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "are -i and -g swapped?" in err and f"{generations}:1" in err
    assert len(err.strip().splitlines()) == 1


def test_an_instances_file_given_as_generations_gives_the_hint_too(tmp_path, mini_plugin, capsys):
    instances, _ = _files(tmp_path)
    assert run(["score", "-d", "mini", "-i", str(instances), "-g", str(instances), "-o", str(tmp_path / "out")]) == 2
    assert "are -i and -g swapped?" in capsys.readouterr().err


def test_score_says_where_the_report_is(tmp_path, mini_plugin, capsys):
    instances, generations = _files(tmp_path)
    assert run(["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "out")]) == 0
    report = (tmp_path / "out" / "report.html").resolve()
    assert f"report: {report.as_uri()}" in capsys.readouterr().err
    assert run(["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "o2"),
                "--no-report"]) == 0
    assert "report:" not in capsys.readouterr().err


@pytest.mark.parametrize("command", [["score"], ["generate"], ["validate", "perturb"], ["weather", "build"]])
def test_help_at_80_columns_keeps_every_option_name_whole(command, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    assert run([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines())
    names = re.findall(r"--[a-z][a-z0-9-]*", out)
    assert not any(out[out.index(name) + len(name):].startswith("…") for name in names)
    assert len(names) > 5
    if command == ["score"]:
        assert "--extractor-option" in names and "--fail-under" in names


def test_claims_of_an_unknown_system_names_the_systems(tmp_path, mini_plugin):
    run_ = api.load(make_mini_run(tmp_path))
    assert set(run_.claims_of(systems=["terse"])["system"]) == {"terse"}
    with pytest.raises(UnknownNameError, match=r"unknown system 'typo' of this run; available: complete, hostile, terse"):
        run_.claims_of(systems=["typo"])
    with pytest.raises(UnknownNameError, match=r"unknown instance 'm99'"):
        run_.claims_of(instances=["m99"])
