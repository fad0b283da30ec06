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
    per_system: int | None = typer.Option(
        None, "--per-system", help="Generations per system in the explorer (default: the report's cap)."
    ),
) -> None:
    """Write one HTML file that opens offline: tables, charts and a claim-level explorer."""
    from factcov.report import EXPLORER_CAP, write_report

    written = write_report(list(outdirs), destination, per_system=per_system or EXPLORER_CAP)
    typer.echo(f"wrote {written}", err=True)
