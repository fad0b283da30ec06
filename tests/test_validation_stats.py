"""The validations' correlations come from scipy.stats and agree with the core's own ranks."""

import numpy as np
import pytest

from factcov.aggregate import kendall_tau
from factcov.aggregate import spearman as core_spearman
from factcov.validation.stats import kendall, pearson, spearman


def test_scipy_correlations_match_the_cores_on_tied_data_with_gaps():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, 200).astype(float)
    y = x + rng.integers(0, 3, 200)
    x[::17] = np.nan
    assert spearman(x, y) == pytest.approx(core_spearman(x, y))
    assert kendall(x, y) == pytest.approx(kendall_tau(x, y))
    keep = ~np.isnan(x)
    assert pearson(x, y) == pytest.approx(np.corrcoef(x[keep], y[keep])[0, 1])


@pytest.mark.parametrize("function", [spearman, kendall, pearson])
def test_undefined_is_none_not_nan(function):
    assert function([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]) is None
    assert function([1.0], [2.0]) is None
    assert function([np.nan, 1.0, 2.0], [5.0, np.nan, 3.0]) is None
