"""`factcov rag score`: `factcov score` for a file of RAG answers.

The answer lines go through the domain's reader (``RagDomain.answer_pairs``, one instance
per question, one generation per answer) and are scored by the core runner, exactly as
``factcov score -d rag -i answers.jsonl`` does: the same OUTDIR files, signature and gate
as every domain, with the RAG metrics as extra columns. Its own options (backend,
alpha, grounded, model) come from the ``[rag]`` table of factcov.toml.
"""

from __future__ import annotations

from pathlib import Path

import typer

from factcov.commands import options

rag_app = typer.Typer(help="RAG answers: entity-relation GAA-ERP and RAG metrics.", no_args_is_help=True)


@rag_app.command("score")
def score(
    input: Path = typer.Option(..., "--input", "-i", help="Answers JSONL (gzip allowed).", dir_okay=False),
    outdir: Path = typer.Option(..., "--output", "--out", "-o", help="Output folder."),
    backend: str = typer.Option(None, "--backend", help="spacy (default) or stanza."),
    alpha: float = typer.Option(None, "--alpha", help="GAA weight of entity F1 (default 0.5)."),
    grounded: bool = typer.Option(None, "--grounded/--no-grounded", help="gaa is GAA-ERP-G."),
    fail_under: list[str] | None = options.FAIL_UNDER,
    model: str = typer.Option(None, "--model", help="spaCy model name or path."),
    n_process: int = typer.Option(None, "--n-process", help="spaCy worker processes."),
    stanza_dir: str = typer.Option(None, "--stanza-dir", help="Folder of local stanza models."),
    extractor_option: list[str] | None = options.EXTRACTOR_OPTIONS,
    unverifiable: options.Unverifiable | None = options.UNVERIFIABLE,
    seed: int | None = options.SEED,
    bootstrap: int | None = options.BOOTSTRAP,
    report: bool = typer.Option(True, "--report/--no-report", help="Also write report.html."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or table."),
) -> None:
    """Score answers against their reference and retrieved passages (a `factcov score` run)."""
    from factcov.answer_lines import score_answer_file
    from factcov.commands import check_gates, gate_metrics, print_outcome
    from factcov.domains.rag.domain import RagDomain
    from factcov.domains.rag.settings import load_settings

    settings = load_settings(backend=backend, alpha=alpha, grounded=grounded, model=model,
                             n_process=n_process, stanza_dir=stanza_dir)
    # the same configured domain `factcov score -d rag` builds from [rag], options on top;
    # the same reader of answer lines as `factcov score -d rag -i answers.jsonl`
    domain = RagDomain().configure(settings.model_dump())
    gates = options.gates(fail_under, gate_metrics(domain.metrics), settings.fail_under)
    policy = options.build_policy(unverifiable, None, None, seed, bootstrap, default_weights=domain.type_weights)
    options.check_weights(policy, [ct.name for ct in domain.claim_types])
    # -X as on `factcov score -d rag` (e.g. -X checker=llm), on top of the [rag] settings
    chosen = options.parse_extractor_options(extractor_option, domain.default_extractor, "rag")
    outcome = score_answer_file(domain, input, options.output_dir(outdir), policy=policy, extractor_options=chosen,
                                progress=not quiet, report=report)
    if not quiet:
        print_outcome(outcome, f"rag ({'GAA-ERP-G' if settings.grounded else 'GAA-ERP'}, alpha {settings.alpha:g})")
    check_gates(gates, {row["system"]: row for row in outcome.summary["systems"]}, outcome.outdir)
