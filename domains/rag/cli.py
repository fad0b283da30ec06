"""`factcov rag score`: score RAG answers, write the tables, gate a CI run."""

from __future__ import annotations

from pathlib import Path

import typer

rag_app = typer.Typer(help="RAG answers: entity-relation GAA-ERP and RAG metrics.", no_args_is_help=True)


@rag_app.command("score")
def score(
    input: Path = typer.Option(..., "--input", "-i", help="Answers JSONL (gzip allowed).", dir_okay=False),
    outdir: Path = typer.Option(..., "--output", "-o", help="Output folder."),
    backend: str = typer.Option(None, "--backend", help="spacy (default) or stanza."),
    alpha: float = typer.Option(None, "--alpha", help="GAA weight of entity F1 (default 0.5)."),
    grounded: bool = typer.Option(None, "--grounded/--no-grounded", help="gaa is GAA-ERP-G."),
    fail_under: list[str] = typer.Option(None, "--fail-under", help="METRIC=VALUE; exit 1 if the mean is below."),
    model: str = typer.Option(None, "--model", help="spaCy model name or path."),
    n_process: int = typer.Option(None, "--n-process", help="spaCy worker processes."),
    stanza_dir: str = typer.Option(None, "--stanza-dir", help="Folder of local stanza models."),
) -> None:
    """Score answers against their reference and retrieved passages."""
    from factcov.cli.gate import parse_gates
    from factcov.domains.rag.inputs import iter_answers
    from factcov.domains.rag.outputs import RAG_OUTPUTS, answer_row, check_gates, write_outputs
    from factcov.domains.rag.scoring import METRICS, score_answers
    from factcov.domains.rag.settings import load_settings
    from factcov.errors import InputError
    from factcov.outdir import transaction
    from factcov.plugins import get_extractor

    if outdir.exists() and not outdir.is_dir():
        raise InputError("output exists and is not a directory", path=outdir)
    settings = load_settings(backend=backend, alpha=alpha, grounded=grounded, model=model,
                             n_process=n_process, stanza_dir=stanza_dir)
    gates = {**settings.fail_under, **parse_gates(fail_under, METRICS)}
    parse_gates([f"{k}={v}" for k, v in gates.items()], METRICS)  # config names checked too
    extractor = get_extractor(settings.extractor_name(), "en", **settings.extractor_options())
    try:
        results = list(score_answers(iter_answers(input), extractor, alpha=settings.alpha, grounded=settings.grounded))
    except InputError as error:  # checks made while scoring (citation targets) name the answer, not the file
        if error.path is not None:
            raise
        raise InputError(error.message, path=input, field=error.field) from None
    signature = (f"factcov-rag|extractor:{extractor.signature()}|alpha:{settings.alpha:g}"
                 f"|grounded:{settings.grounded}")
    with transaction(outdir, RAG_OUTPUTS) as staging:  # the four files replace OUTDIR's at once, or none do
        summary = write_outputs(staging, results, settings.model_dump(exclude={"fail_under"}), signature)
    headline = summary["metrics"]
    typer.echo(f"{len(results)} answers -> {outdir}")
    for name in METRICS:
        mean = headline[name]["mean"]
        typer.echo(f"  {name:20} {'undefined' if mean is None else f'{mean:.4f}'}  (n={headline[name]['n_defined']})")
    check_gates(gates, summary, [answer_row(r) for r in results])
