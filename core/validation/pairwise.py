"""Pairwise human preferences: does the metric's difference between two answers follow people's?

How people usually judge RAG answers: two systems' answers to the same question side by
side, and a preference. The input is a UTF-8 CSV, one row per judged pair:

- ``instance_id``, ``system_a``, ``system_b``: the question (the run's instance id) and
  the two systems whose answers were compared;
- the preference, a number from -2 to 2 (or -1, 0, 1): **positive when system A's answer
  is better**, 0 a tie. Either one ``label`` column (criterion ``preference``), or
  ``criterion`` and ``label`` columns (one row per criterion), or one column per
  criterion named by the criterion (``correctness,completeness,overall``; an empty cell
  is a pair not judged on that criterion).

A pair judged several times (several people, or once as (A, B) and once as (B, A) with
the sign turned) takes the mean of its preferences.

For each criterion and metric, each pair's **score difference** is metric(A) - metric(B)
from the run. Equal scores are a difference of 0, as a tie of people's is a 0. A pair
where either score is undefined (precision of an answer with no claim) takes the
**median of the defined differences**: it counts as a typical pair, not as a win of
either side. Pairs naming a system or instance the run did not score are left out
(``n_unscored``). Reported: Pearson's r and Spearman's rho between the differences and
the preferences (``scipy.stats`` through ``factcov.statistics``), each with a
percentile bootstrap interval over pairs (seeded; the median is taken once, on all
pairs), and ``accuracy``: among pairs people did not tie, the share where the metric
prefers the same answer (a tie of the metric counts half).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from factcov.errors import InputError
from factcov.statistics import bootstrap_interval, pearson, spearman
from factcov.validation.csv_header import check_repeated_columns

PAIR_COLUMNS = ("instance_id", "system_a", "system_b")
SINGLE_CRITERION = "preference"
MAX_PREFERENCE = 2.0


def load_preferences(path: str | Path) -> pd.DataFrame:
    """Pairwise preferences as a table instance_id, system_a, system_b, criterion, label
    (system_a sorted before system_b, the label's sign turned to match); errors name the
    file, the line and the field."""
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file (expected pairwise preferences: a CSV)", path=path)
    rows: list[tuple[str, str, str, str, float]] = []
    line = 1
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            header = [name.strip() for name in reader.fieldnames or []]
            reader.fieldnames = header
            missing = [c for c in PAIR_COLUMNS if c not in header]
            if missing:
                raise InputError(f"missing column(s) {', '.join(missing)}; the header is instance_id,system_a,"
                                 "system_b and then label, criterion,label, or one column per criterion",
                                 path=path, line=1, field=missing[0])
            long_form = "criterion" in header
            criteria = ["label"] if "label" in header else [c for c in header if c not in PAIR_COLUMNS and c]
            if long_form and "label" not in header:
                raise InputError("a 'criterion' column needs a 'label' column beside it", path=path, line=1,
                                 field="label")
            if not criteria:
                raise InputError("no preference column: add 'label' or one column per criterion", path=path, line=1)
            check_repeated_columns(header, [*PAIR_COLUMNS, *criteria, *(["criterion"] if long_form else [])], path)
            for record in reader:
                line = reader.line_num
                pair = [(record.get(c) or "").strip() for c in PAIR_COLUMNS]
                for column, value in zip(PAIR_COLUMNS, pair):
                    if not value:
                        raise InputError("empty value", path=path, line=line, field=column)
                instance_id, system_a, system_b = pair
                if system_a == system_b:
                    raise InputError(f"system '{system_a}' compared with itself", path=path, line=line,
                                     field="system_b")
                for column in criteria:
                    cell = (record.get(column) or "").strip()
                    if not cell:
                        if column == "label":
                            raise InputError("empty value", path=path, line=line, field="label")
                        continue  # this pair was not judged on this criterion
                    label = _preference(cell, path, line, column)
                    if long_form:
                        criterion = (record.get("criterion") or "").strip()
                        if not criterion:
                            raise InputError("empty value", path=path, line=line, field="criterion")
                    else:
                        criterion = SINGLE_CRITERION if column == "label" else column
                    if system_b < system_a:  # one orientation per pair, so (A, B) and (B, A) average
                        rows.append((instance_id, system_b, system_a, criterion, -label))
                    else:
                        rows.append((instance_id, system_a, system_b, criterion, label))
    except UnicodeDecodeError:
        raise InputError("not UTF-8; re-encode the file as UTF-8", path=path) from None
    except csv.Error as exc:
        raise InputError(f"not a readable CSV: {exc}", path=path, line=line) from None
    if not rows:
        raise InputError("no preference in the file (only a header?)", path=path)
    return pd.DataFrame(rows, columns=[*PAIR_COLUMNS, "criterion", "label"])


def _preference(cell: str, path: Path, line: int, field: str) -> float:
    try:
        value = float(cell)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and -MAX_PREFERENCE <= value <= MAX_PREFERENCE):
        shown = cell if len(cell) <= 40 else cell[:40] + "…"
        raise InputError(f"expected a preference from -2 to 2 (positive: system A's answer is better), got {shown!r}",
                         path=path, line=line, field=field)
    return value


def is_pairwise_file(path: str | Path) -> bool:
    """A CSV whose header names system_a and system_b."""
    try:
        with Path(path).open(newline="", encoding="utf-8-sig") as handle:
            header = [name.strip() for name in next(csv.reader(handle), [])]
    except (OSError, UnicodeDecodeError, csv.Error):
        return False
    return "system_a" in header and "system_b" in header


def score_differences(metric_df: pd.DataFrame, pairs: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The pairs the run scored on both sides, with ``difference`` = metric(A) - metric(B)
    (NaN where either is undefined), and how many pairs the run did not score."""
    metric = metric_df.groupby(["system", "instance_id"])["value"].mean()
    judged = pairs.groupby(list(PAIR_COLUMNS), as_index=False)["label"].mean()
    index_a = pd.MultiIndex.from_arrays([judged["system_a"], judged["instance_id"]])
    index_b = pd.MultiIndex.from_arrays([judged["system_b"], judged["instance_id"]])
    scored = index_a.isin(metric.index) & index_b.isin(metric.index)
    judged = judged[scored].reset_index(drop=True)
    value_a = metric.reindex(pd.MultiIndex.from_arrays([judged["system_a"], judged["instance_id"]])).to_numpy()
    value_b = metric.reindex(pd.MultiIndex.from_arrays([judged["system_b"], judged["instance_id"]])).to_numpy()
    return judged.assign(difference=value_a - value_b), int((~scored).sum())


def accuracy(difference: np.ndarray, label: np.ndarray) -> float | None:
    """Among pairs people did not tie: the share where the metric prefers their answer (metric ties half)."""
    decided = label != 0
    if not decided.any():
        return None
    agree = np.sign(difference[decided]) == np.sign(label[decided])
    tied = difference[decided] == 0
    return float((agree.sum() + 0.5 * tied.sum()) / decided.sum())


def correlate_pairs(metric_df: pd.DataFrame, pairs: pd.DataFrame, n_boot: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Pearson and Spearman of score differences with the preferences of one criterion, with bootstrap CIs."""
    table, unscored = score_differences(metric_df, pairs)
    if table.empty:
        raise InputError("no judged pair has both answers scored; check that system names and instance ids "
                         "match the run's")
    difference = table["difference"].to_numpy(dtype=float)
    undefined = np.isnan(difference)
    median = float(np.median(difference[~undefined])) if (~undefined).any() else None
    if median is not None:
        difference = np.where(undefined, median, difference)
    label = table["label"].to_numpy(dtype=float)

    def on(statistic):
        return bootstrap_interval(lambda rows: statistic(difference[rows], label[rows]), len(label), n_boot, seed)

    return {
        "n_pairs": len(table), "n_undefined": int(undefined.sum()), "n_unscored": unscored,
        "median_difference": median,
        "pearson": pearson(difference, label), "pearson_ci": on(pearson),
        "spearman": spearman(difference, label), "spearman_ci": on(spearman),
        "accuracy": accuracy(difference, label), "n_decided": int((label != 0).sum()),
        "n_boot": n_boot, "seed": seed,
    }


def correlate_pairs_run(
    outdir: str | Path,
    pairs_path: str | Path,
    *,
    metrics: Iterable[str] = ("f1",),
    criteria: Iterable[str] | None = None,
    n_boot: int = 1000,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """``correlate_pairs`` of a run's metrics with each criterion of a pairwise file."""
    from factcov.validation.human import chosen_criteria, run_metric

    pairs = load_preferences(pairs_path)
    wanted = chosen_criteria(pairs, criteria, pairs_path)
    results = []
    for metric in metrics:
        metric_df = run_metric(outdir, metric)
        for criterion in wanted:
            chosen = pairs[pairs["criterion"] == criterion]
            results.append({"criterion": criterion, "metric": metric,
                            **correlate_pairs(metric_df, chosen, n_boot=n_boot, seed=seed)})
    return results
