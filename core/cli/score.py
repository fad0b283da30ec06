"""`factcov score`: score generations against instances into an output directory."""

from __future__ import annotations

from pathlib import Path

import typer

from factcov.cli import options


def register(app: typer.Typer) -> None:
    app.command("score")(score)


def score(
    domain: str = options.DOMAIN,
    instances: Path = options.INSTANCES,
    generations: Path = options.GENERATIONS,
    outdir: Path = typer.Option(..., "--out", "-o", help="Output directory (created)."),
    extractor: str | None = options.EXTRACTOR,
    extractor_option: list[str] | None = options.EXTRACTOR_OPTIONS,
    unverifiable: str = options.UNVERIFIABLE,
    average: str = options.AVERAGE,
    weight: list[str] | None = options.WEIGHTS,
    seed: int = options.SEED,
    bootstrap: int = options.BOOTSTRAP,
    fail_under: list[str] | None = typer.Option(
        None, "--fail-under", help="Gate METRIC=VALUE (precision, recall, f1, weighted_f1): exit 1 if a system is below."
    ),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes (same output bytes as 1)."),
    dask: str | None = typer.Option(None, "--dask", help="Score on a Dask cluster: scheduler address, or 'local'."),
    report: bool = typer.Option(True, "--report/--no-report", help="Also write report.html."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or table."),
) -> None:
    """Write claims.parquet, scores.parquet, systems.csv, summary.json (and report.html)."""
    from factcov.cli.gate import check_gates, parse_gates
    from factcov.cli.tables import print_system_table
    from factcov.plugins import get_domain
    from factcov.runner import score_files

    policy = options.build_policy(unverifiable, average, weight, seed, bootstrap)
    options.check_weights(policy, [ct.name for ct in get_domain(domain).claim_types])
    gates = parse_gates(fail_under, ("precision", "recall", "f1", "weighted_f1"))
    outcome = score_files(
        domain, instances, generations, options.output_dir(outdir),
        extractor=extractor, policy=policy,
        extractor_options=options.parse_extractor_options(extractor_option, extractor, domain), jobs=jobs, dask=dask, progress=not quiet, report=report,
    )
    if not quiet:
        print_system_table(outcome.systems, f"{domain}: {outcome.summary['n_generations']} generations",
                           policy.average, outcome.summary["signature"])
        typer.echo(f"wrote {outdir}/claims.parquet, scores.parquet, systems.csv, summary.json", err=True)
    check_gates(gates, {row["system"]: row for row in outcome.summary["systems"]})
