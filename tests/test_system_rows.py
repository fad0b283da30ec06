"""The systems table written without pandas (``factcov.system_rows``, ``SystemTotals.rows``,
``average_ranks``) gives pandas' own bytes and records, or leaves them to pandas."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pandas as pd
import pytest

from factcov import system_rows
from factcov.aggregate import SystemTotals, average_ranks, ranking_summary
from factcov.outputs import _clean, table_records, write_systems_csv
from factcov.scoring import ScoringPolicy

FLOAT = system_rows.FLOAT_FORMAT


def _pandas_csv(rows):
    return pd.DataFrame(rows).to_csv(index=False, float_format=FLOAT, lineterminator="\n")


def _same_records(rows):
    mine = [_clean(r) for r in system_rows.records(rows)]
    theirs = [_clean(r) for r in pd.DataFrame(rows).to_dict(orient="records")]
    return json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True)


CRAFTED = [
    [{"system": "a,b", "n": 3, "p": 0.5, "q": None, "r": 1, "s": None, "t": "x"},
     {"system": 'say "hi"', "n": 4, "p": math.nan, "q": None, "r": 2.25, "s": 7, "t": None}],
    [{"system": "", "n": 0, "p": math.inf, "q": None, "r": -0.0, "s": 1e-12, "t": "é"}],
    [{"system": "big", "n": 2**40, "p": 12345678901.5, "q": None, "r": 1 / 3, "s": 2**60, "t": "multi\nline"}],
]


@pytest.mark.parametrize("rows", CRAFTED)
def test_csv_and_records_are_pandas_own(rows):
    assert system_rows.csv_text(rows) == _pandas_csv(rows)
    assert _same_records(rows)


@pytest.mark.parametrize("rows", [
    [{"system": "a", "flag": True}],  # a bool column
    [{"system": "a", "n": np.int64(3)}],  # a NumPy integer
    [{"system": "a", "n": 1}, {"n": 2, "system": "b"}],  # keys in another order
    [{"system": "a", "x": [1, 2]}],
])
def test_rows_it_cannot_tell_are_left_to_pandas(rows, tmp_path):
    assert system_rows.csv_text(rows) is None and system_rows.records(rows) is None
    write_systems_csv(tmp_path / "systems.csv", rows)  # through pandas, the same bytes
    assert (tmp_path / "systems.csv").read_text(encoding="utf-8") == _pandas_csv(rows)
    assert table_records(rows) == [_clean(r) for r in pd.DataFrame(rows).to_dict(orient="records")]


def _totals(graded: bool, seed: int) -> SystemTotals:
    rng = random.Random(seed)
    totals = SystemTotals(("extra",), graded)
    rows = []
    for index in range(60):
        system = f"s{index % 5}"
        claims = rng.randint(0, 6)
        supported = rng.randint(0, claims)
        value = None if claims == 0 else round(supported / claims, 1)  # ties between systems
        rows.append({"system": system, "n_claims": claims, "supported": supported, "contradicted": claims - supported,
                     "unverifiable": 0, "n_facts": 5, "covered": rng.randint(0, 5), "out_of_scope": 0,
                     "precision": value, "recall": rng.choice([0.2, 0.4, None]), "f1": value, "weighted_f1": value,
                     "extra": rng.choice([None, 1, 0.5])})
    totals.add(rows)
    return totals


@pytest.mark.parametrize("graded", [False, True])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_runs_rows_write_pandas_bytes_and_rank_as_pandas(graded, seed):
    rows = _totals(graded, seed).rows(ScoringPolicy(bootstrap_samples=50))
    assert system_rows.csv_text(rows) == _pandas_csv(rows)
    assert _same_records(rows)
    frame = pd.DataFrame(rows)
    for column, rank in (("precision", "rank_precision"), ("f1", "rank_f1")):
        expected = frame[column].astype(float).rank(ascending=False, method="average", na_option="bottom")
        assert frame[rank].tolist() == expected.tolist()
    assert json.dumps(ranking_summary(rows)) == json.dumps(ranking_summary(frame))


def test_average_ranks_are_pandas_average_ranks():
    rng = random.Random(3)
    for _ in range(200):
        values = [rng.choice([None, math.nan, 0.1, 0.5, 0.5, 1.0, rng.random()]) for _ in range(rng.randint(0, 9))]
        for descending in (True, False):
            expected = pd.Series(values, dtype=float).rank(ascending=not descending, method="average",
                                                           na_option="bottom").tolist()
            assert average_ranks(values, descending).tolist() == expected, values
