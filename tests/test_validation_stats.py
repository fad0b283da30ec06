"""Correlations and bootstrap intervals come from scipy.stats and agree with their definitions."""

import itertools

import numpy as np
import pandas as pd
import pytest

from factcov.aggregate import ranking_summary
from factcov.statistics import bootstrap_interval, kendall, pearson, spearman


def _tau_b_by_definition(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b from its textbook definition, pair by pair."""
    concordant = discordant = tied_x_only = tied_y_only = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            tied_x_only += 1
        elif dy == 0:
            tied_y_only += 1
        elif dx == dy:
            concordant += 1
        else:
            discordant += 1
    n0 = concordant + discordant
    return (concordant - discordant) / np.sqrt((n0 + tied_x_only) * (n0 + tied_y_only))


def test_correlations_match_their_definitions_on_tied_data_with_gaps():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, 120).astype(float)
    y = x + rng.integers(0, 3, 120)
    x[::17] = np.nan
    keep = ~np.isnan(x)
    ranks_x, ranks_y = pd.Series(x[keep]).rank(), pd.Series(y[keep]).rank()  # average ranks for ties
    assert spearman(x, y) == pytest.approx(np.corrcoef(ranks_x, ranks_y)[0, 1])
    assert kendall(x, y) == pytest.approx(_tau_b_by_definition(x[keep], y[keep]))
    assert pearson(x, y) == pytest.approx(np.corrcoef(x[keep], y[keep])[0, 1])


@pytest.mark.parametrize("function", [spearman, kendall, pearson])
def test_undefined_is_none_not_nan(function):
    assert function([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]) is None
    assert function([1.0], [2.0]) is None
    assert function([np.nan, 1.0, 2.0], [5.0, np.nan, 3.0]) is None


def test_the_ranking_summary_of_compare_uses_the_same_correlations():
    table = pd.DataFrame({"system": list("abcd"), "precision": [0.9, 0.8, 0.8, 0.5], "f1": [0.4, 0.7, 0.6, 0.5],
                          "rank_precision": [1, 2.5, 2.5, 4], "rank_f1": [4, 1, 2, 3]})
    summary = ranking_summary(table)
    assert summary["spearman"] == pytest.approx(spearman(table["precision"], table["f1"]))
    assert summary["kendall"] == pytest.approx(_tau_b_by_definition(table["precision"].to_numpy(), table["f1"].to_numpy()))


def test_bootstrap_interval_is_the_percentile_interval_of_seeded_resamples():
    values = np.random.default_rng(5).normal(size=40)
    interval = bootstrap_interval(lambda rows: float(values[rows].mean()), len(values), n_boot=300, seed=11)
    # the same resamples drawn by hand from a numpy Generator with the same seed
    rows = np.random.default_rng(11).integers(0, len(values), (300, len(values)))
    expected = np.quantile(values[rows].mean(axis=1), [0.025, 0.975])
    assert interval == pytest.approx(list(expected))
    assert bootstrap_interval(lambda rows: float(values[rows].mean()), len(values), n_boot=300, seed=11) == interval
    assert bootstrap_interval(lambda rows: float(values[rows].mean()), len(values), n_boot=300, seed=12) != interval


def test_undefined_replicates_are_left_out_and_nothing_to_resample_is_none():
    values = np.array([0.0, 0.0, 0.0, 1.0, 2.0])

    def spread(rows: np.ndarray) -> float | None:  # undefined when a resample is constant
        drawn = values[rows]
        return None if np.all(drawn == drawn[0]) else float(drawn.std())

    interval = bootstrap_interval(spread, len(values), n_boot=500, seed=0)
    assert interval is not None and 0 < interval[0] <= interval[1]
    assert bootstrap_interval(spread, 1, n_boot=500, seed=0) is None
    assert bootstrap_interval(spread, len(values), n_boot=0, seed=0) is None
    assert bootstrap_interval(lambda rows: None, len(values), n_boot=50, seed=0) is None


def test_spearman_and_kendall_are_scipys_statistics_to_the_last_bit() -> None:
    """``spearman``/``kendall`` (computed without importing scipy.stats, which a ``score``
    summary would otherwise pay ~1 s for) give scipy's very floats, ties and constants
    included."""
    import random

    import numpy as np
    from scipy.stats import kendalltau, spearmanr

    from factcov.statistics import kendall, spearman

    rng = random.Random(5)
    compared = 0
    for _ in range(800):
        n = rng.randint(2, 40) if rng.random() < 0.95 else rng.randint(250, 300)  # both sides of the pairwise limit
        pool = [rng.randint(0, rng.choice([2, 5, 1000])) / 7 for _ in range(n)]
        x = [rng.choice(pool) for _ in range(n)]
        y = [rng.choice(pool) for _ in range(n)]
        defined = len(set(x)) > 1 and len(set(y)) > 1
        with np.errstate(all="ignore"):
            assert spearman(x, y) == (float(spearmanr(x, y).statistic) if defined else None), (x, y)
            assert kendall(x, y) == (float(kendalltau(x, y).statistic) if defined else None), (x, y)
        compared += defined
    assert compared > 500
