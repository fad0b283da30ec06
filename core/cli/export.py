"""`factcov export sft|facts`: fine-tuning data (chat records or preference pairs) or the facts
of a benchmark as a table."""

from __future__ import annotations

from pathlib import Path

import typer

from factcov.cli import options

export_app = typer.Typer(help="Export a benchmark: its facts as a table, or fine-tuning data from the oracle and realizer.",
                         no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")


@export_app.command("sft")
def sft(
    domain: str = options.DOMAIN,
    instances: Path = options.INSTANCES,
    out: Path = typer.Option(..., "--out", "-o", help="JSONL to write (atomically).", dir_okay=False),
    split: str | None = typer.Option(None, "--split", help="Only instances of this split (e.g. train)."),
    form: str = typer.Option("chat", "--format", help="'chat' (messages) or 'preference' (prompt/chosen/rejected)."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the perturbations of rejected texts."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary line."),
) -> None:
    """One record per instance: the prompt the model sees and the silver text it should write."""
    from factcov.export import export_sft

    outcome = export_sft(domain, instances, out, split=split, form=form, seed=seed)
    if not quiet:
        typer.echo(f"{out}: {outcome.written} {form} records of {outcome.selected} instances"
                   + (f"; {len(outcome.skipped)} skipped (first: {next(iter(outcome.skipped.items()))})"
                      if outcome.skipped else ""), err=True)


@export_app.command("facts")
def facts(
    instances: Path = options.INSTANCES,
    out: Path = typer.Option(..., "--out", "-o", help="facts.parquet or facts.csv (written atomically).", dir_okay=False),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary line."),
) -> None:
    """One row per fact: instance_id, domain, task, language, split, fact_type, fact_id, key, value."""
    from factcov.facts_table import export_facts, export_format

    export_format(out)  # a wrong suffix is refused before the file is read
    written = export_facts(instances, out)
    if not quiet:
        typer.echo(f"{out}: {written} facts", err=True)
