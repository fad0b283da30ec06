"""Agreement of two scorings of the same generations (e.g. two extractors, two policies).

Generations are matched on (instance_id, system); only the shared ones are compared.

- system level: Spearman and Kendall between the two per-system macro averages;
- generation level: Pearson between the two per-generation values;
- per claim type: claims, pooled precision and recall on each side, and the Pearson
  correlation of the per-generation claim counts of that type;
- the generations where the chosen metric differs most.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from factcov.compare import load_run
from factcov.errors import InputError
from factcov.scoring import Counts
from factcov.statistics import kendall, pearson, spearman

METRICS = ("precision", "recall", "f1")


def compare_scorings(outdir_a: str | Path, outdir_b: str | Path, metric: str = "f1", top: int = 10) -> dict[str, Any]:
    run_a, run_b = load_run(outdir_a), load_run(outdir_b)
    allowed = [*METRICS, *(m for m in run_a.metrics if m in run_b.metrics)]  # a domain's own (rag's) too
    if metric not in allowed:
        raise InputError(f"unknown metric '{metric}'; use {', '.join(allowed)}", field="metric")
    keys = ["instance_id", "system"]
    joined = run_a.scores.merge(run_b.scores, on=keys, suffixes=("_a", "_b"), how="inner")
    if joined.empty:
        raise InputError(
            "the two runs share no (instance_id, system) generation; score the same generations twice",
            path=outdir_b,
        )
    joined = joined.sort_values(keys).reset_index(drop=True)
    per_system = joined.groupby("system")[[f"{m}_{s}" for m in METRICS for s in "ab"]].mean()
    result: dict[str, Any] = {
        "a": {"path": str(run_a.path), "extractor": run_a.summary.get("extractor"), "signature": run_a.signature},
        "b": {"path": str(run_b.path), "extractor": run_b.summary.get("extractor"), "signature": run_b.signature},
        "metric": metric,
        "n_generations": len(joined),
        "only_in_a": len(run_a.scores) - len(joined),
        "only_in_b": len(run_b.scores) - len(joined),
        "n_systems": int(joined["system"].nunique()),
        "system_spearman": {m: spearman(per_system[f"{m}_a"], per_system[f"{m}_b"]) for m in METRICS},
        "system_kendall": {m: kendall(per_system[f"{m}_a"], per_system[f"{m}_b"]) for m in METRICS},
        "instance_pearson": {m: pearson(joined[f"{m}_a"], joined[f"{m}_b"]) for m in METRICS},
        "systems": [
            {"system": system, **{f"{m}_{s}": _num(row[f"{m}_{s}"]) for m in METRICS for s in "ab"}}
            for system, row in per_system.iterrows()
        ],
        "by_type": _by_type(joined, run_a.policy()),
        "disagreements": _disagreements(joined, metric, top),
    }
    return result


def _num(value: Any) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def _type_counts(cell: str | None) -> dict[str, dict[str, Any]]:
    return json.loads(cell) if cell else {}


def _by_type(joined: pd.DataFrame, policy) -> list[dict[str, Any]]:
    per_side: dict[str, dict[str, list[dict[str, Any]]]] = {"a": [], "b": []}
    for side in "ab":
        per_side[side] = [_type_counts(cell) for cell in joined[f"by_type_{side}"]]
    types = sorted({t for side in "ab" for row in per_side[side] for t in row})
    rows = []
    for type_ in types:
        record: dict[str, Any] = {"type": type_}
        per_generation: dict[str, list[float]] = {}
        for side in "ab":
            pooled = Counts()
            counts = []
            for row in per_side[side]:
                stats = row.get(type_)
                counts.append(float(stats["n_claims"]) if stats else 0.0)
                if stats:
                    pooled.add(Counts(**{k: int(stats[k]) for k in (
                        "n_claims", "supported", "contradicted", "unverifiable", "n_facts", "covered")}))
            metrics = pooled.metrics(policy)
            record[f"claims_{side}"] = pooled.n_claims
            record[f"precision_{side}"] = metrics["precision"]
            record[f"recall_{side}"] = metrics["recall"]
            per_generation[side] = counts
        record["claims_pearson"] = pearson(np.array(per_generation["a"]), np.array(per_generation["b"]))
        rows.append(record)
    return rows


def _disagreements(joined: pd.DataFrame, metric: str, top: int) -> list[dict[str, Any]]:
    a, b = joined[f"{metric}_a"].astype(float), joined[f"{metric}_b"].astype(float)
    # Undefined on one side only is the largest disagreement there is.
    difference = (a - b).abs().where(~(a.isna() ^ b.isna()), 1.0)
    order = difference.fillna(0.0).sort_values(ascending=False, kind="stable").index[:top]
    return [
        {
            "instance_id": joined.at[i, "instance_id"],
            "system": joined.at[i, "system"],
            "a": _num(a[i]),
            "b": _num(b[i]),
            "difference": float(difference.fillna(0.0)[i]),
            "claims_a": int(joined.at[i, "n_claims_a"]),
            "claims_b": int(joined.at[i, "n_claims_b"]),
            "text": joined.at[i, "text_a"],
        }
        for i in order
        if difference.fillna(0.0)[i] > 0
    ]
