"""The Python API: score files into a run and read it back, or score texts in memory.

``read_instances`` and ``facts_frame`` read an instance file (the benchmark itself) as
objects or as a table of its facts.

Runs give the same tables as pandas DataFrames: ``systems`` (one row per system, the
numbers of ``systems.csv``), ``claims`` (one row per claim and verdict) and ``scores``
(one row per generation). See docs/api.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from factcov.aggregate import system_table
from factcov.compare import Run, load_run
from factcov.errors import InputError
from factcov.evaluate import Evaluator
from factcov.facts_table import facts_frame, read_instances
from factcov.model import Generation, Instance
from factcov.outputs import claim_rows, score_row
from factcov.plugins import get_domain
from factcov.scoring import ScoringPolicy

__all__ = ["Run", "TextRun", "facts_frame", "load", "read_instances", "score", "score_texts"]


def score(domain: str, instances: str | Path, generations: str | Path, outdir: str | Path, *,
          extractor: str | None = None, policy: ScoringPolicy | None = None, jobs: int = 1,
          report: bool = False) -> Run:
    """``factcov score`` from Python: write OUTDIR and return it read back as a Run."""
    from factcov.runner import score_files

    score_files(domain, instances, generations, outdir, extractor=extractor, policy=policy, jobs=jobs,
                report=report)
    return load_run(outdir)


def load(outdir: str | Path) -> Run:
    """An OUTDIR written by ``factcov score``."""
    return load_run(outdir)


@dataclass
class TextRun:
    """Texts scored in memory: the same tables as a Run, nothing written."""

    domain: str
    signature: str
    systems: pd.DataFrame
    claims: pd.DataFrame
    scores: pd.DataFrame


Text = tuple[Instance, str] | tuple[Instance, str, str] | tuple[Instance, Generation]


def score_texts(texts: Iterable[Text], *, extractor: str | None = None,
                policy: ScoringPolicy | None = None) -> TextRun:
    """Score ``(instance, text)`` pairs (system 'text'), ``(instance, text, system)``
    triples or ``(instance, Generation)`` pairs; all instances of one domain."""
    pairs: list[tuple[Instance, Generation]] = []
    for item in texts:
        instance, rest = item[0], item[1:]
        if len(rest) == 1 and isinstance(rest[0], Generation):
            generation = rest[0]
        elif 1 <= len(rest) <= 2 and all(isinstance(part, str) for part in rest):
            generation = Generation(instance_id=instance.id, system=rest[1] if len(rest) == 2 else "text", text=rest[0])
        else:
            raise InputError(f"score_texts takes (instance, text[, system]) or (instance, Generation), got {item!r:.80}")
        pairs.append((instance, generation))
    if not pairs:
        raise InputError("score_texts: no texts to score")
    domains = {instance.domain for instance, _ in pairs}
    if len(domains) != 1:
        raise InputError(f"score_texts: texts of one domain at a time, got {sorted(domains)}")
    evaluator = Evaluator(get_domain(domains.pop()), extractor=extractor, policy=policy)
    results = evaluator.evaluate(pairs)
    domain = evaluator.domain
    extras: list[dict] = [{} for _ in results]
    if domain.graded_scores:  # its headline is graded by its own metrics (``Domain.graded_scores``)
        from factcov.runner import extra_metrics

        extras = extra_metrics(evaluator, results)
    scores = pd.DataFrame([score_row(result, evaluator.policy, extra) for result, extra in zip(results, extras)])
    claims = pd.DataFrame([row for result in results for row in claim_rows(result)])
    systems = system_table(scores, evaluator.policy, domain.metrics if domain.graded_scores else (),
                           domain.graded_scores)
    for column in systems.columns.drop("system"):  # None (undefined) as NaN, like systems.csv read back
        systems[column] = pd.to_numeric(systems[column])
    return TextRun(evaluator.domain.name, evaluator.signature(), systems, claims, scores)
