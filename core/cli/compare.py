"""`factcov compare OUTDIR...`: precision rank vs F1 rank, with CIs, within and across domains."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from factcov.cli.console import fmt as _fmt
from factcov.cli.console import with_interval as _with_ci
from factcov.limits import MAX_BOOTSTRAP


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)


def compare(
    outdirs: list[Path] = typer.Argument(..., help="OUTDIRs of `factcov score` (one or several domains).",
                                         file_okay=False),
    bootstrap: int | None = typer.Option(None, "--bootstrap", min=0, max=MAX_BOOTSTRAP, help="Bootstrap resamples; default: the run's."),
    seed: int | None = typer.Option(None, "--seed", min=0, help="Bootstrap seed; default: the run's."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Per system P, R, F1 with 95% CIs; rank by precision vs by F1; the coverage penalty."""
    from factcov.compare import compare_runs
    from factcov.errors import InputError

    if bootstrap is not None and bootstrap < 0:
        raise InputError(f"--bootstrap must be 0 or more, got {bootstrap}")
    result = compare_runs(list(outdirs), bootstrap=bootstrap, seed=seed)
    if as_json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
        return
    _print(result)


def _print(result: dict) -> None:
    from rich.markup import escape
    from rich.table import Table

    from factcov.cli.console import console as wide_console

    console = wide_console(140)
    for domain in result["domains"]:
        table = Table(
            title=f"{domain['domain']}: {domain['n_generations']} generations, {domain['n_instances']} instances, "
            f"{domain['facts_per_instance']:.1f} facts/instance ({domain['average']} averages, 95% CI)",
            caption=domain["signature"],
        )
        for column in ("system", "n", "precision", "recall", "F1", "rank P", "rank F1", "change", "P − F1"):
            table.add_column(column, justify="left" if column == "system" else "right")
        for row in domain["systems"]:
            change = row["rank_change"]
            arrow = "=" if change == 0 else (f"↑{change:g}" if change > 0 else f"↓{-change:g}")
            table.add_row(
                escape(row["system"]), str(row["n"]), _with_ci(row["precision"], row["precision_ci"]),
                _with_ci(row["recall"], row["recall_ci"]), _with_ci(row["f1"], row["f1_ci"]),
                f"{row['rank_precision']:g}", f"{row['rank_f1']:g}", arrow, _fmt(row["coverage_penalty"]),
            )
        console.print(table)
        if domain["metrics"]:
            extra = Table(title=f"{domain['domain']}: domain metrics",
                          caption="mean over the texts where defined [95% CI] (n)")
            extra.add_column("metric")
            for row in domain["systems"]:
                extra.add_column(escape(row["system"]), justify="right")
            for metric in domain["metrics"]:
                cells = [row["metrics"][metric] for row in domain["systems"]]
                extra.add_row(metric, *(f"{_with_ci(c['mean'], c['ci'])} ({c['n_defined']})" for c in cells))
            console.print(extra)
        from factcov.aggregate import ranking_line
        from factcov.cli.tables import out_of_scope_note

        if note := out_of_scope_note(domain["systems"]):
            console.print(note, markup=False, highlight=False)
        ranking = domain["ranking"]
        ranks = {metric: {row["system"]: row[f"rank_{metric}"] for row in domain["systems"]} for metric in ("precision", "f1")}
        console.print(
            f"by precision: {ranking_line(ranking['by_precision'], ranks['precision'])}\n"
            f"by F1:        {ranking_line(ranking['by_f1'], ranks['f1'])}\n"
            f"Kendall tau between the rankings: {_fmt(ranking['kendall'])}   Spearman: {_fmt(ranking['spearman'])}\n",
            markup=False, highlight=False,
        )
    penalty = result["coverage_penalty"]
    if len(result["domains"]) > 1:
        table = Table(title="coverage penalty (precision − F1) against facts per instance")
        for column in ("domain", "facts/instance", "mean P − F1"):
            table.add_column(column, justify="left" if column == "domain" else "right")
        for row in penalty["by_domain"]:
            table.add_row(escape(row["domain"]), f"{row['facts_per_instance']:.1f}", _fmt(row["mean_coverage_penalty"]))
        console.print(table)
        console.print(f"Spearman (facts/instance, P − F1) over systems: {_fmt(penalty['spearman_facts_vs_penalty'])}",
                      markup=False, highlight=False)
