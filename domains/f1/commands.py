"""`factcov f1 build`, `factcov f1 stats` and `factcov f1 check`: the benchmark builder, its
counts and the data-quality rules that fired."""

from __future__ import annotations

from pathlib import Path

import typer

from factcov.errors import InputError
from factcov.limits import MAX_JOBS

LAP_SUFFIXES = (".csv", ".csv.gz", ".parquet")
app = typer.Typer(help="Formula 1 strategy explanations: build the benchmark, count it.", no_args_is_help=True)


def _ints(text: str | None, option: str) -> list[int] | None:
    """The integers of a comma-separated option; None when it was not given (every one
    matches). Given without a single integer (``--rounds ','``, ``--rounds ''``) it is
    refused: taken as "not given" it would build every round instead of none."""
    if text is None:
        return None
    try:
        numbers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise InputError(f"{option} takes comma-separated integers, got {text!r}") from None
    if not numbers:
        raise InputError(f"{option} takes comma-separated integers, got {text!r}")
    return numbers


@app.command("build")
def build(
    laps: list[Path] = typer.Option(..., "--laps", help="Lap files (CSV, csv.gz or Parquet) or directories of them; "
                                    "several after one --laps, or repeat the option."),
    ergast: Path = typer.Option(..., "--ergast", help="Directory of the Ergast CSV tables."),
    out: Path = typer.Option(..., "--out", "-o", help="Instances file (JSON lines; gzipped if it ends in .gz)."),
    seasons: str | None = typer.Option(None, "--seasons", help="Comma-separated seasons, e.g. 2021,2022."),
    rounds: str | None = typer.Option(None, "--rounds", help="Comma-separated rounds, e.g. 1,22."),
    languages: str = typer.Option("en,es,pt", "--languages", help="Comma-separated languages."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=MAX_JOBS,
                             help=f"Processes deriving races in parallel, 1-{MAX_JOBS}."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Build f1 instances (5 tasks x languages) from lap tables and Ergast results."""
    from factcov.commands import progress as console_progress
    from factcov.domains.f1.build import iter_race_instances, write_instances
    from factcov.domains.f1.instances import LANGUAGES
    from factcov.inputs import files_in

    laps = files_in(laps, LAP_SUFFIXES, "--laps")
    wanted = [lang.strip() for lang in languages.split(",") if lang.strip()]
    unknown = [lang for lang in wanted if lang not in LANGUAGES]
    if unknown or not wanted:
        raise InputError(f"--languages: unknown {unknown or wanted}; choose from {', '.join(LANGUAGES)}")
    with console_progress("f1 build", "races", enabled=not quiet, transient=False) as progress:

        def on_race(done: int, total: int, season: int) -> None:
            progress(completed=done, total=total, description=f"season {season}")

        count = write_instances(
            out,
            iter_race_instances(
                laps, ergast, _ints(seasons, "--seasons"), _ints(rounds, "--rounds"), wanted, on_race, jobs
            ),
        )
    typer.echo(f"wrote {count} instances to {out}")


@app.command("stats")
def stats(instances: Path = typer.Argument(..., help="An instances file written by `factcov f1 build`.")) -> None:
    """Counts per task, language and split, and facts per instance."""
    from rich.console import Console

    from factcov.domains.f1.stats import count_instances, stats_tables

    for table in stats_tables(count_instances(instances)):
        Console().print(table)


@app.command("check")
def check(
    laps: list[Path] = typer.Option(..., "--laps", help="Lap files (CSV, csv.gz or Parquet) or directories of them; "
                                    "several after one --laps, or repeat the option."),
    ergast: Path = typer.Option(..., "--ergast", help="Directory of the Ergast CSV tables."),
    seasons: str | None = typer.Option(None, "--seasons", help="Comma-separated seasons, e.g. 2021,2022."),
    rounds: str | None = typer.Option(None, "--rounds", help="Comma-separated rounds, e.g. 1,22."),
    details: bool = typer.Option(False, "--details", help="Every entry (driver, lap, why), not only counts."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per race on stdout."),
) -> None:
    """Every data-quality rule that fired, per race: passages excluded, tyre data
    distrusted, lap numbers repaired, races dropped, moves excluded and why."""
    import json

    from factcov.domains.f1.check import iter_checks
    from factcov.domains.f1.quality import RULES
    from factcov.inputs import files_in

    laps = files_in(laps, LAP_SUFFIXES, "--laps")
    total: dict[str, int] = {}
    races = 0
    for race in iter_checks(laps, ergast, _ints(seasons, "--seasons"), _ints(rounds, "--rounds")):
        races += 1
        for rule, n in race.counts.items():
            total[rule] = total.get(rule, 0) + n
        if as_json:
            typer.echo(json.dumps({"season": race.season, "round": race.round, "event": race.event,
                                   "dropped": race.dropped, "rules": dict(sorted(race.counts.items())),
                                   "entries": race.entries}, ensure_ascii=False))
            continue
        summary = ", ".join(f"{rule} {n}" for rule, n in sorted(race.counts.items())) or "no rule fired"
        typer.echo(f"{race.season} round {race.round} {race.event}: {'DROPPED; ' if race.dropped else ''}{summary}")
        if details:
            for entry in race.entries:
                where = " ".join(str(x) for x in (entry["driver"], f"lap {entry['lap']}" if entry["lap"] else None) if x)
                typer.echo(f"    {entry['rule']}: {where + ': ' if where else ''}{entry['detail']}")
    if races == 0:
        raise InputError("no race matched --seasons/--rounds in the lap files")
    if not as_json:
        typer.echo(f"{races} races; rules fired: " + ", ".join(f"{rule} {total[rule]}" for rule in RULES if rule in total))
