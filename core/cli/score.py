"""`factcov score`: score generations against instances into an output directory."""

from __future__ import annotations

from pathlib import Path

import typer

from factcov.cli import options
from factcov.limits import MAX_JOBS


def register(app: typer.Typer) -> None:
    app.command("score")(score)


def score(
    domain: str = options.DOMAIN,
    instances: Path = options.INSTANCES,
    generations: Path | None = typer.Option(
        None, "--generations", "-g", dir_okay=False,
        help="Generations JSONL (gzip allowed). Without it, -i is a file of answer lines (rag: one line per "
             "question and system)."),
    outdir: Path = typer.Option(..., "--out", "-o", help="Output directory (created)."),
    extractor: str | None = options.EXTRACTOR,
    extractor_option: list[str] | None = options.EXTRACTOR_OPTIONS,
    unverifiable: options.Unverifiable | None = options.UNVERIFIABLE,
    average: options.Average | None = options.AVERAGE,
    weight: list[str] | None = options.WEIGHTS,
    seed: int | None = options.SEED,
    bootstrap: int | None = options.BOOTSTRAP,
    fail_under: list[str] | None = options.FAIL_UNDER,
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=MAX_JOBS,
                             help=f"Worker processes, 1-{MAX_JOBS} (same output bytes as 1)."),
    dask: str | None = typer.Option(None, "--dask", help="Score on a Dask cluster: scheduler address, or 'local'."),
    report: bool = typer.Option(True, "--report/--no-report", help="Also write report.html."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or table."),
    output_format: str = typer.Option(
        "table", "--format", help="'table' (for people) or 'json' (the run's summary.json on stdout, for scripts)."
    ),
) -> None:
    """Write claims.parquet, scores.parquet, systems.csv, summary.json (and report.html)."""
    from factcov.cli.config import config_table
    from factcov.cli.gate import check_gates, gate_metrics
    from factcov.plugins import get_domain
    from factcov.runner import score_files

    if output_format not in ("table", "json"):
        from factcov.errors import InputError

        raise InputError(f"--format must be 'table' or 'json', got '{output_format}'")
    if dask is not None and jobs != 1:  # one of them would be ignored in silence
        from factcov.errors import InputError

        raise InputError("--jobs and --dask exclude each other: --jobs runs local worker processes, "
                         "--dask a cluster's workers (use --dask local for an in-process one)")
    # The name is looked up here, once; the run gets the domain, configured by its own
    # table of factcov.toml ([rag] for rag; none for f1 and weather).
    plugin = get_domain(domain)
    plugin = plugin.configure(config_table(plugin.name)[0])
    policy = options.build_policy(unverifiable, average, weight, seed, bootstrap,
                                  default_weights=dict(plugin.type_weights) or None)
    options.check_weights(policy, [ct.name for ct in plugin.claim_types])
    gates = options.gates(fail_under, gate_metrics(plugin.metrics))
    extractor_options = options.parse_extractor_options(extractor_option, extractor or plugin.default_extractor,
                                                        domain)
    if generations is None:  # one file of answer lines holds the questions and the systems' answers
        from factcov.answer_lines import score_answer_file

        outcome = score_answer_file(plugin, instances, options.output_dir(outdir), extractor=extractor,
                                    extractor_options=extractor_options, policy=policy, jobs=jobs, dask=dask,
                                    progress=not quiet, report=report)
    else:
        outcome = score_files(
            plugin, instances, generations, options.output_dir(outdir), extractor=extractor, policy=policy,
            extractor_options=extractor_options, jobs=jobs, dask=dask, progress=not quiet, report=report,
        )
    if output_format == "json":  # only the summary on stdout: a script pipes it to jq or json.loads
        typer.echo((outcome.outdir / "summary.json").read_text(encoding="utf-8").rstrip("\n"))
    elif not quiet:
        print_outcome(outcome, domain)
    check_gates(gates, {row["system"]: row for row in outcome.summary["systems"]}, outcome.outdir)


def print_outcome(outcome, title: str) -> None:
    """The system table, the domain's own metrics and where the files went (stderr)."""
    from factcov.aggregate import headline_average
    from factcov.cli.tables import print_domain_metrics, print_system_table

    summary = outcome.summary
    print_system_table(outcome.systems, f"{title}: {summary['n_generations']} generations",
                       headline_average(summary), summary["signature"])
    print_domain_metrics(outcome.systems, summary.get("metrics", []))
    typer.echo(f"wrote {outcome.outdir}/claims.parquet, scores.parquet, systems.csv, summary.json", err=True)
    report = outcome.outdir / "report.html"
    if report.is_file():
        typer.echo(f"report: {report.resolve().as_uri()}", err=True)
