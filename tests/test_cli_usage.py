"""The command line as the docs describe it (issue 14): what -v shows, files and
directories after one option, and help without value types after flags."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer

from factcov.cli.app import build_app, run
from factcov.plugins import get_domain


def test_domains_verbose_shows_each_claim_types_comparator_and_world(capsys):
    assert run(["domains", "-v"]) == 0
    out = capsys.readouterr().out
    rows = {re.sub(r"\s+", " ", line.strip("│ ")) for line in out.splitlines()}
    for claim_type in get_domain("f1").claim_types:
        world = "closed" if claim_type.closed_world else "open"
        assert any(row.startswith(f"{claim_type.name} │") and row.endswith(
            f"│ {claim_type.comparator.describe()} │ {world}") for row in rows), claim_type.name
    assert "claim types of weather" in out and "claim types of rag" in out


def test_domains_without_verbose_lists_names_only(capsys):
    assert run(["domains"]) == 0
    assert "comparator" not in capsys.readouterr().out


def _built_ids(path: Path) -> set[str]:
    """Ids of the instances of a built file (format 2: header and race-block lines are not instances)."""
    from factcov.instance_files import iter_instance_file

    return {instance.id for _, instance in iter_instance_file(path)}


def test_f1_build_takes_a_directory_of_lap_files(shared_data, tmp_path):
    laps = tmp_path / "laps"
    laps.mkdir()
    for season in (2021, 2023):
        (laps / f"{season}.csv.gz").symlink_to(shared_data / "f1" / "laps" / f"{season}.csv.gz")
    (laps / "README.txt").write_text("not a lap table", encoding="utf-8")  # ignored: not a lap file
    out = tmp_path / "out.jsonl.gz"
    assert run(["f1", "build", "--laps", str(laps), "--ergast", str(shared_data / "f1" / "ergast"),
                "--rounds", "1", "--languages", "en", "--out", str(out), "--quiet"]) == 0
    assert {i.split(":")[1] for i in _built_ids(out)} == {"2021", "2023"}


def test_f1_build_takes_several_files_after_one_laps(shared_data, tmp_path):
    laps = shared_data / "f1" / "laps"
    out = tmp_path / "out.jsonl.gz"
    assert run(["f1", "build", "--laps", str(laps / "2021.csv.gz"), str(laps / "2023.csv.gz"),
                "--ergast", str(shared_data / "f1" / "ergast"), "--rounds", "1", "--languages", "en",
                "--out", str(out), "--quiet"]) == 0
    assert {i.split(":")[1] for i in _built_ids(out)} == {"2021", "2023"}


def test_f1_build_names_an_empty_directory(shared_data, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert run(["f1", "build", "--laps", str(tmp_path / "empty"), "--ergast", str(shared_data / "f1" / "ergast"),
                "--out", str(tmp_path / "x.jsonl"), "--quiet"]) == 2
    error = capsys.readouterr().err
    assert "empty" in error and "--laps" in error and not (tmp_path / "x.jsonl").exists()


def test_weather_build_takes_several_files_after_one_forecasts(shared_data, tmp_path):
    files = sorted((shared_data / "weather" / "forecasts").glob("*.forecast.json"))[:2]
    out = tmp_path / "instances.jsonl"
    assert run(["weather", "build", "--forecasts", *map(str, files), "-l", "en", "-o", str(out), "-q"]) == 0
    sources = {json.loads(line)["id"].split(":")[1] for line in out.read_text(encoding="utf-8").splitlines()}
    assert sources == {f.name.removesuffix(".forecast.json") for f in files}


def _command_paths(command, prefix=()):
    yield prefix
    for name, sub in (getattr(command, "commands", None) or {}).items():
        yield from _command_paths(sub, (*prefix, name))


@pytest.mark.parametrize("path", list(_command_paths(typer.main.get_command(build_app()))),
                         ids=lambda p: " ".join(p) or "factcov")
def test_help_shows_no_value_type_after_a_flag(path, capsys):
    assert run([*path, "--help"]) == 0
    out = capsys.readouterr().out
    assert "--help" in out and "<bool>" not in out
