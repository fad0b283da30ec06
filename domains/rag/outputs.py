"""What `factcov rag score` writes, atomically: a per-answer table, the claims, a summary.

OUTDIR/answers.parquet and answers.csv (one row per answer: counts, every metric, the
hallucinated entities), OUTDIR/claims.jsonl (every claim with its verdict against the
reference and against the retrieved passages), OUTDIR/summary.json (means over the file,
with how many answers each mean is defined on, and the settings).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from factcov.domains.rag.scoring import METRICS, AnswerResult
from factcov.errors import GateFailed
from factcov.jsonl import atomic_path, write_jsonl_atomic, write_text_atomic

EXTRA_METRICS = ("gaa_erp", "gaa_erp_g")
RAG_OUTPUTS = ("answers.parquet", "answers.csv", "claims.jsonl", "summary.json")


def answer_row(result: AnswerResult) -> dict[str, Any]:
    total = result.score.total
    return {
        "id": result.answer.id,
        "system": result.answer.system,
        "n_claims": total.n_claims,
        "supported": total.supported,
        "contradicted": total.contradicted,
        "unverifiable": total.unverifiable,
        "n_facts": total.n_facts,
        "covered": total.covered,
        **{name: result.metrics[name] for name in (*METRICS, *EXTRA_METRICS)},
        "hallucinated_entities": "; ".join(result.hallucinated),
    }


def claim_rows(result: AnswerResult) -> Iterable[dict[str, Any]]:
    for index, (verdict, grounded) in enumerate(zip(result.verdicts, result.grounded_verdicts)):
        claim = verdict.claim
        yield {
            "answer_id": result.answer.id,
            "claim": index,
            "sentence": result.sentence_of_claim[index],
            "type": claim.type,
            "key": claim.key,
            "value": claim.value,
            "text": claim.text,
            "span": list(claim.span) if claim.span else None,
            "verdict": verdict.label,
            "expected": verdict.expected,
            "grounded_verdict": grounded.label,
        }


def means(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Mean of each metric over the answers where it is defined (None when none is)."""
    out = {}
    for name in (*METRICS, *EXTRA_METRICS):
        values = [row[name] for row in rows if row[name] is not None]
        out[name] = {"mean": sum(values) / len(values) if values else None, "n_defined": len(values)}
    return out


def write_outputs(outdir: Path, results: Sequence[AnswerResult], settings: Mapping[str, Any],
                  signature: str) -> dict[str, Any]:
    import pandas as pd

    rows = [answer_row(r) for r in results]
    frame = pd.DataFrame(rows)
    outdir.mkdir(parents=True, exist_ok=True)
    with atomic_path(outdir / "answers.parquet") as tmp:
        frame.to_parquet(tmp, index=False)
    with atomic_path(outdir / "answers.csv") as tmp:
        frame.to_csv(tmp, index=False)
    write_jsonl_atomic(outdir / "claims.jsonl", (row for r in results for row in claim_rows(r)))
    summary = {"n_answers": len(rows), "signature": signature, "settings": dict(settings), "metrics": means(rows)}
    write_text_atomic(outdir / "summary.json", json.dumps(summary, indent=2, sort_keys=True) + "\n")
    return summary


def check_gates(gates: Mapping[str, float], summary: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> None:
    """GateFailed when a metric's mean over the file is below its threshold (or undefined),
    listing the answers below it."""
    failures = []
    for metric, threshold in sorted(gates.items()):
        mean = summary["metrics"][metric]["mean"]
        if mean is not None and mean >= threshold:
            continue
        below = [
            f"{row['id']} ({'undefined' if row[metric] is None else format(row[metric], '.3f')})"
            for row in rows
            if row[metric] is None or row[metric] < threshold
        ]
        shown = "undefined" if mean is None else f"{mean:.4f}"
        failures.append(f"{metric} mean {shown} < {threshold:g}; failing answers: {', '.join(below) or 'none'}")
    if failures:
        raise GateFailed("gate failed: " + " | ".join(failures))
