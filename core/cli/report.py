"""`factcov report OUTDIR... -o report.html`: the self-contained HTML report."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    app.command("report")(report)


def report(
    outdirs: list[Path] = typer.Argument(..., help="OUTDIRs of `factcov score` (one or several domains).",
                                         file_okay=False),
    destination: Path = typer.Option(Path("report.html"), "--out", "-o", help="HTML file to write.", dir_okay=False),
    per_system: int = typer.Option(200, "--per-system", help="Explorer: at most this many generations per system."),
    max_generations: int = typer.Option(5000, "--max-generations", help="Explorer: at most this many per run."),
) -> None:
    """Write one HTML file that opens offline: tables, charts and a claim-level explorer."""
    from factcov.errors import InputError
    from factcov.report import write_report

    if per_system < 1 or max_generations < 1:
        raise InputError("--per-system and --max-generations must be at least 1")
    written = write_report(list(outdirs), destination, per_system, max_generations)
    typer.echo(f"wrote {written}", err=True)
