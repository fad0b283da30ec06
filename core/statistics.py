"""Correlations and bootstrap intervals, from ``scipy.stats``, for the validations, ``aggregate`` and ``compare``.

Each correlation takes two sequences, keeps the pairs where both are defined (not NaN),
and returns None instead of NaN when the statistic is undefined (fewer than two pairs, or
a constant side), so every table and JSON shows "undefined" the same way.

``bootstrap_interval`` resamples with ``scipy.stats.bootstrap`` from a seeded numpy
Generator, so a seed gives the same interval on every machine.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import NamedTuple

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
    """Spearman's rho (ties get average ranks): ``scipy.stats.spearmanr``'s statistic,
    computed as it does (the Pearson correlation of the average ranks, ``np.corrcoef``),
    without importing ``scipy.stats`` (~1 s of a run's start; every ``score`` summary asks)."""
    return _defined(_spearman, a, b)


def kendall(a, b) -> float | None:
    """Kendall's tau-b (ties in either ranking handled): ``scipy.stats.kendalltau``'s
    statistic, from the same exact pair counts; without importing ``scipy.stats`` for up
    to ``PAIRWISE_KENDALL_LIMIT`` values (a summary's systems)."""
    return _defined(_kendall, a, b)


class _Statistic(NamedTuple):
    statistic: float


def average_ranks(x: np.ndarray) -> np.ndarray:
    """1-based ranks, ties given their average (``scipy.stats.rankdata``'s default)."""
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x), dtype=float)
    sorted_x = x[order]
    starts = np.r_[True, sorted_x[1:] != sorted_x[:-1]]
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    last = np.r_[first[1:], len(x)] - 1
    ranks[order] = (first[group] + last[group]) / 2 + 1  # whole or half numbers: exact
    return ranks


def _spearman(x: np.ndarray, y: np.ndarray) -> _Statistic:
    ranked = np.column_stack((average_ranks(x), average_ranks(y)))
    return _Statistic(float(np.corrcoef(ranked, rowvar=False)[1, 0]))


# Up to this many pairs of values, tau-b is counted over every pair (a summary ranks a
# few systems); past it, scipy's O(n log n) count (validations bootstrap thousands).
PAIRWISE_KENDALL_LIMIT = 256


def _kendall(x: np.ndarray, y: np.ndarray) -> _Statistic:
    """tau-b from the exact counts of concordant minus discordant pairs and of tied pairs."""
    size = len(x)
    if size > PAIRWISE_KENDALL_LIMIT:
        from scipy.stats import kendalltau

        return _Statistic(float(kendalltau(x, y).statistic))
    sx = np.sign(x[:, None] - x[None, :])
    sy = np.sign(y[:, None] - y[None, :])
    con_minus_dis, x_ties, y_ties = int((sx * sy).sum()), int((sx == 0).sum()), int((sy == 0).sum())
    # each pair counted twice (i, j and j, i), each value once tied with itself
    con_minus_dis //= 2
    x_ties, y_ties = (x_ties - size) // 2, (y_ties - size) // 2
    total = size * (size - 1) // 2
    if x_ties == total or y_ties == total:
        return _Statistic(float("nan"))
    tau = con_minus_dis / np.sqrt(total - x_ties) / np.sqrt(total - y_ties)
    return _Statistic(float(np.minimum(1.0, max(-1.0, tau))))


def pearson(a, b) -> float | None:
    """Pearson's r."""
    from scipy.stats import pearsonr

    return _defined(pearsonr, a, b)


def bootstrap_interval(
    statistic: Callable[[np.ndarray], float | None], n: int, n_boot: int, seed: int, level: float = 0.95
) -> list[float] | None:
    """Percentile bootstrap interval of ``statistic(rows)`` over ``n`` resampled units.

    ``statistic`` receives the row numbers of one resample (drawn with replacement) and
    indexes its own data with them, so one unit may be a pair, a text or a whole column of
    a system x instance grid. Resampling is ``scipy.stats.bootstrap``'s; its percentile
    interval is NaN as soon as one replicate is undefined (a resample with a constant
    side), so the interval is taken over the defined replicates instead. The same seed
    draws the same resamples, so two statistics bootstrapped with one seed are paired.
    None when there is nothing to resample (``n`` < 2 or ``n_boot`` 0).
    """
    from scipy.stats import bootstrap

    if n < 2 or n_boot <= 0:
        return None

    def on_rows(rows: np.ndarray) -> float:
        value = statistic(rows.astype(np.intp))
        return np.nan if value is None else value

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's DegenerateDataWarning for the NaN replicates handled below
        result = bootstrap((np.arange(n),), on_rows, n_resamples=n_boot, vectorized=False,
                           method="percentile", confidence_level=level, rng=np.random.default_rng(seed))
    return percentile_interval(result.bootstrap_distribution, level)


def percentile_interval(values: Sequence[float | None] | np.ndarray, level: float = 0.95) -> list[float] | None:
    """The central ``level`` interval of bootstrap replicates (undefined ones, None or NaN, left out)."""
    defined = np.array([np.nan if v is None else v for v in values], dtype=float)
    defined = defined[~np.isnan(defined)]
    if defined.size == 0:
        return None
    low, high = np.quantile(defined, [(1 - level) / 2, 1 - (1 - level) / 2])
    return [float(low), float(high)]
