"""`factcov refine`: feed the verifier's findings back to the model, round by round."""

from __future__ import annotations

from pathlib import Path

import typer

from factcov.cli import generate as chat_options
from factcov.cli import options
from factcov.limits import MAX_ROUNDS


def register(app: typer.Typer) -> None:
    app.command("refine")(refine)


def refine(
    domain: str = options.DOMAIN,
    instances: Path = options.INSTANCES,
    generations: Path = options.GENERATIONS,
    model: str = chat_options.MODEL,
    outdir: Path = typer.Option(..., "--out", "-o", help="Output directory (created)."),
    rounds: int = typer.Option(2, "--rounds", "-n", min=1, max=MAX_ROUNDS,
                                help=f"Rounds of feedback and revision (1-{MAX_ROUNDS})."),
    base_url: str | None = chat_options.BASE_URL,
    extractor: str | None = options.EXTRACTOR,
    temperature: float = chat_options.TEMPERATURE,
    max_tokens: int | None = chat_options.MAX_TOKENS,
    concurrency: int = chat_options.CONCURRENCY,
    retries: int = chat_options.RETRIES,
    timeout: float = chat_options.TIMEOUT,
    cache: Path | None = chat_options.CACHE,
    no_cache: bool = chat_options.NO_CACHE,
    api_key_env: str = chat_options.API_KEY_ENV,
    prompt: str = chat_options.PROMPT,
    report: bool = typer.Option(True, "--report/--no-report", help="Score every round into OUTDIR/report (HTML)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or table."),
) -> None:
    """Verify, tell the model what was wrong in the instance's language, ask for a revision."""
    from factcov.prompts import resolve_variant
    from factcov.refine import refine_files

    variant = resolve_variant(prompt)
    client = chat_options.chat_client(model, base_url, api_key_env, cache, no_cache, concurrency, retries, timeout)
    try:
        outcome = refine_files(domain, instances, generations, options.output_dir(outdir), client, rounds=rounds,
                               extractor=extractor, parameters=chat_options.parameters(temperature, max_tokens),
                               report=report, quiet=quiet, prompt=variant)
    except KeyboardInterrupt:  # finished rounds stay written; a rerun gets answers from the cache
        raise typer.Abort() from None
    if outcome.unanswered is not None:  # the environment failed: exit 3, the rounds written stay
        from factcov.chat import ChatError

        raise ChatError(f"the model server answered nothing in {outcome.unanswered}; rounds so far are in "
                        f"{outdir}; rerun the same command when the server answers")
    if quiet:
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"refinement of {domain} ({outdir}/rounds.csv)")
    for column in ("system", "round", "n", "revised", "in play", "failed", "precision", "recall", "f1"):
        table.add_column(column, justify="left" if column == "system" else "right")
    for row in outcome.rounds:
        table.add_row(escape(row["system"]), str(row["round"]), str(row["n"]), str(row["revised"]),
                      str(row["in_play"]), str(row["failed"]),
                      *("—" if row[m] is None else f"{row[m]:.3f}" for m in ("precision", "recall", "f1")))
    Console(stderr=True).print(table)
    if outcome.failed:
        typer.echo(f"{outcome.failed} request(s) got no answer; see status in {outdir}/round-*/scores.csv", err=True)
