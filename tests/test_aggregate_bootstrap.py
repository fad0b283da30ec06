"""The bootstrap of a run's systems.csv computed in batches gives each interval the exact
numbers of the plain percentile bootstrap (resample, mean per resample, quantiles)."""

from __future__ import annotations

import numpy as np

from factcov.aggregate import _resamples, bootstrap_ci, bootstrap_cis


def _plain(values, samples: int, seed: int) -> tuple[float, float]:
    data = np.asarray(values, dtype=float)
    data = data[~np.isnan(data)]
    means = np.concatenate([data[draw].mean(axis=1) for draw in _resamples(data.size, samples, seed)])
    alpha = (1 - 0.95) / 2  # as the run computes it (0.025000000000000022)
    lo, hi = np.quantile(means, [alpha, 1 - alpha])
    return float(lo), float(hi)


def test_batched_intervals_are_the_plain_bootstraps_bit_for_bit():
    rng = np.random.default_rng(5)
    sets = [rng.random(size).round(rng.integers(1, 6)) for size in (2, 3, 7, 111, 111, 500, 20_000)]
    sets.append(sets[3].copy())  # equal to an earlier set: resampled once
    sets.append(np.where(rng.random(200) < 0.2, np.nan, rng.random(200)))  # undefined values left out
    sets.append(np.array([0.0, -0.0, 1.0]))
    for samples, seed in ((1000, 0), (37, 3)):
        batched = bootstrap_cis(sets, samples, seed)
        assert batched == [_plain(values, samples, seed) for values in sets]
        assert batched == [bootstrap_ci(values, samples, seed) for values in sets]


def test_degenerate_sets_keep_their_answers_in_a_batch():
    out = bootstrap_cis([[], [np.nan], [0.25], [0.1, 0.9], [0.5, 0.5]], 100, 0)
    assert out[:3] == [(None, None), (None, None), (0.25, 0.25)]
    assert out[3] == _plain([0.1, 0.9], 100, 0) and out[4] == (0.5, 0.5)
    assert bootstrap_cis([[0.1, 0.9]], 0, 0) == [(None, None)]  # no resamples: undefined, as before
