"""Correlations for the validations, from ``scipy.stats`` (the ``validate`` extra installs it).

Each takes two sequences, keeps the pairs where both are defined (not NaN), and returns
None instead of NaN when the statistic is undefined (fewer than two pairs, or a constant
side), so every table and JSON shows "undefined" the same way.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

import numpy as np


def _paired(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    return x[keep], y[keep]


def _defined(statistic: Callable, a, b) -> float | None:
    x, y = _paired(a, b)
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns on the degenerate cases excluded above
        value = float(statistic(x, y).statistic)
    return None if np.isnan(value) else value


def spearman(a, b) -> float | None:
    """Spearman's rho (ties get average ranks)."""
    from scipy.stats import spearmanr

    return _defined(spearmanr, a, b)


def kendall(a, b) -> float | None:
    """Kendall's tau-b (ties in either ranking handled)."""
    from scipy.stats import kendalltau

    return _defined(kendalltau, a, b)


def pearson(a, b) -> float | None:
    """Pearson's r."""
    from scipy.stats import pearsonr

    return _defined(pearsonr, a, b)


def percentile_interval(values: Sequence[float | None], level: float = 0.95) -> list[float] | None:
    """The central ``level`` interval of bootstrap replicates (undefined ones left out)."""
    defined = np.array([v for v in values if v is not None], dtype=float)
    if defined.size == 0:
        return None
    low, high = np.quantile(defined, [(1 - level) / 2, 1 - (1 - level) / 2])
    return [float(low), float(high)]
