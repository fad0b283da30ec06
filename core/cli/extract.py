"""`factcov extract`: the claims of each generation with their verdicts, as JSON lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from factcov.cli import options


def register(app: typer.Typer) -> None:
    app.command("extract")(extract)


def extract(
    domain: str = options.DOMAIN,
    instances: Path = options.INSTANCES,
    generations: Path = options.GENERATIONS,
    output: Path | None = typer.Option(None, "--output", "-o", help="claims.jsonl to write; stdout if omitted."),
    extractor: str | None = options.EXTRACTOR,
    extractor_option: list[str] | None = options.EXTRACTOR_OPTIONS,
) -> None:
    """Write one line per claim: instance_id, system, type, key, value, span, statement_span, out_of_scope,
    text, verdict, expected."""
    from factcov.evaluate import Evaluator
    from factcov.inputs import iter_generations, load_instances
    from factcov.jsonl import chunked, write_jsonl_atomic
    from factcov.limits import CHUNK_TEXT_CHARS
    from factcov.plugins import get_domain

    the_domain = get_domain(domain)
    evaluator = Evaluator(the_domain, extractor=extractor,
                          extractor_options=options.parse_extractor_options(extractor_option, extractor, domain))
    known = load_instances(instances, the_domain)

    def rows():
        for chunk in chunked(iter_generations(generations, known, the_domain), 1000,
                             weight=lambda pair: pair[1].held_chars(), budget=CHUNK_TEXT_CHARS):
            for result in evaluator.evaluate(chunk):
                for verdict in result.verdicts:
                    claim = verdict.claim
                    yield {
                        "instance_id": result.instance.id,
                        "system": result.generation.system,
                        "type": claim.type,
                        "key": claim.key,
                        "value": claim.value,
                        "span": list(claim.span) if claim.span else None,
                        "statement_span": list(claim.statement_span) if claim.statement_span else None,
                        "out_of_scope": claim.out_of_scope,
                        "text": claim.text,
                        "verdict": verdict.label,
                        "expected": verdict.expected if verdict.label == "contradicted" else None,
                    }

    if output is None:
        for row in rows():
            sys.stdout.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    else:
        count = write_jsonl_atomic(output, rows())
        typer.echo(f"wrote {count} claims to {output}", err=True)
