"""From per-generation scores to systems: macro and micro averages, bootstrap CIs, ranks.

Inputs are the rows of ``scores.parquet`` (one per generation). Macro averages are the
mean of per-generation values over the generations where the value is defined (the
count is reported); micro averages are computed from pooled counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from factcov.scoring import Counts, ScoringPolicy

METRICS = ("precision", "recall", "f1")
COUNT_COLUMNS = ("n_claims", "supported", "contradicted", "unverifiable", "n_facts", "covered", "out_of_scope")
# Above this many generations the percentile bootstrap of a mean is replaced by its
# normal approximation: same interval to three decimals, and memory stays bounded.
BOOTSTRAP_EXACT_LIMIT = 100_000


def bootstrap_ci(
    values: Sequence[float] | np.ndarray, samples: int = 1000, seed: int = 0, level: float = 0.95
) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of the mean of the defined (non-NaN) values."""
    data = np.asarray(values, dtype=float)
    data = data[~np.isnan(data)]
    if data.size == 0:
        return None, None
    if data.size == 1 or samples <= 0:
        return float(data[0]) if data.size == 1 else None, float(data[0]) if data.size == 1 else None
    alpha = (1 - level) / 2
    if data.size > BOOTSTRAP_EXACT_LIMIT:
        half = 1.959963984540054 * data.std(ddof=1) / np.sqrt(data.size)
        return float(data.mean() - half), float(data.mean() + half)
    rng = np.random.default_rng(seed)
    means = np.empty(samples)
    per_draw = max(1, 2_000_000 // data.size)  # resamples drawn at once, bounded memory
    for first in range(0, samples, per_draw):
        count = min(per_draw, samples - first)
        means[first : first + count] = data[rng.integers(0, data.size, (count, data.size))].mean(axis=1)
    lo, hi = np.quantile(means, [alpha, 1 - alpha])
    return float(lo), float(hi)


def average_ranks(values: Sequence[float], descending: bool = True) -> np.ndarray:
    """Ranks 1..n (1 = best), ties sharing their average rank; undefined values rank last."""
    series = pd.Series(values, dtype=float)
    return series.rank(ascending=not descending, method="average", na_option="bottom").to_numpy()


def spearman(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Spearman's rho: Pearson correlation of average ranks. None if undefined."""
    x, y = _paired(a, b)
    if len(x) < 2:
        return None
    rx, ry = average_ranks(x, descending=False), average_ranks(y, descending=False)
    if rx.std() == 0 or ry.std() == 0:
        return None
    return float(np.corrcoef(rx, ry)[0, 1])


def kendall_tau(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Kendall's tau-b (ties in either ranking handled). None if undefined."""
    x, y = _paired(a, b)
    n = len(x)
    if n < 2:
        return None
    dx = np.sign(x[:, None] - x[None, :])
    dy = np.sign(y[:, None] - y[None, :])
    upper = np.triu_indices(n, k=1)
    concordance = (dx * dy)[upper].sum()
    ties_x = (dx[upper] != 0).sum()
    ties_y = (dy[upper] != 0).sum()
    if ties_x == 0 or ties_y == 0:
        return None
    return float(concordance / np.sqrt(ties_x * ties_y))


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    return x[keep], y[keep]


def system_table(scores: pd.DataFrame, policy: ScoringPolicy, extra_metrics: Sequence[str] = ()) -> pd.DataFrame:
    """One row per system: macro means with bootstrap CIs, micro scores, counts, ranks.

    A domain's ``extra_metrics`` (columns of ``scores``) get their mean over the
    generations where they are defined, ``n_<metric>_defined`` and a bootstrap CI.

    The headline ``precision``/``recall``/``f1`` columns follow ``policy.average``.
    Rows are sorted by system name; ranks are 1 = best, ties averaged.
    """
    rows = []
    for system, group in scores.groupby("system", sort=True):
        row: dict[str, object] = {"system": system, "n": len(group)}
        for metric in (*METRICS, "weighted_f1", *extra_metrics):
            values = group[metric].to_numpy(dtype=float)
            defined = values[~np.isnan(values)]
            row[f"macro_{metric}"] = float(defined.mean()) if defined.size else None
            row[f"n_{metric}_defined"] = int(defined.size)
            lo, hi = bootstrap_ci(values, policy.bootstrap_samples, policy.seed)
            row[f"macro_{metric}_lo"], row[f"macro_{metric}_hi"] = lo, hi
        # runs written before out-of-scope claims existed have no such column: none were marked
        counts = {c: int(group[c].sum()) if c in group.columns else 0 for c in COUNT_COLUMNS}
        pooled = Counts(**counts)
        for metric, value in pooled.metrics(policy).items():
            row[f"micro_{metric}"] = value
        row.update(counts)
        row["claims_per_text"] = float(group["n_claims"].mean())
        row["facts_per_instance"] = float(group["n_facts"].mean())
        rows.append(row)
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    for metric in METRICS:
        table[metric] = table[f"{policy.average}_{metric}"]
    table["weighted_f1"] = table["macro_weighted_f1"]  # per-type weights are defined per text
    for metric in extra_metrics:
        table[metric] = table[f"macro_{metric}"]
    table["rank_precision"] = average_ranks(table["precision"].astype(float))
    table["rank_f1"] = average_ranks(table["f1"].astype(float))
    table["rank_change"] = table["rank_precision"] - table["rank_f1"]
    return table


def ranking_summary(table: pd.DataFrame) -> dict[str, object]:
    """Systems ordered by precision and by F1, and how much the two orders agree."""
    if table.empty:
        return {"by_precision": [], "by_f1": [], "spearman": None, "kendall": None}
    by_precision = table.sort_values(["rank_precision", "system"])["system"].tolist()
    by_f1 = table.sort_values(["rank_f1", "system"])["system"].tolist()
    precision = table["precision"].astype(float).to_numpy()
    f1_values = table["f1"].astype(float).to_numpy()
    return {
        "by_precision": by_precision,
        "by_f1": by_f1,
        "spearman": spearman(precision, f1_values),
        "kendall": kendall_tau(precision, f1_values),
    }
