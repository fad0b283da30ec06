"""`factcov demo [DOMAIN]`: build real instances, realize several systems, score, show the reversal."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)


def demo(
    domain: str = typer.Argument("f1", help="Domain whose demo to run (f1, weather, rag, or a plugin's)."),
    outdir: Path = typer.Option(Path("factcov-demo"), "--out", "-o", help="Output directory; the domain's name is appended."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or table."),
) -> None:
    """Score the domain's demo systems and print precision rank against F1 rank."""
    from factcov.aggregate import ranking_line
    from factcov.cli.tables import print_system_table
    from factcov.demo import run_demo

    outcome = run_demo(domain, outdir / domain, progress=not quiet)
    if quiet:
        return
    summary = outcome.summary
    print_system_table(outcome.systems, f"factcov demo — {domain}: {summary['n_generations']} generations",
                       signature=summary["signature"])
    rankings = summary["rankings"]
    systems = outcome.systems.set_index("system")
    typer.echo(f"by precision: {ranking_line(rankings['by_precision'], systems['rank_precision'])}")
    typer.echo(f"by F1:        {ranking_line(rankings['by_f1'], systems['rank_f1'])}")
    kendall = rankings["kendall"]
    typer.echo(f"Kendall tau between the two rankings: {'undefined' if kendall is None else f'{kendall:.2f}'}")
    typer.echo(f"results in {outcome.outdir}/ (report.html, systems.csv, summary.json, scores.parquet, claims.parquet)")
