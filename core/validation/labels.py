"""Binary or categorical human labels: how well a metric separates the texts people labelled.

The input is a CSV with the header ``system,instance_id,criterion,label``: one label per
row ("faithful"/"unfaithful", "yes"/"no", or any set of categories). Per criterion:

- **binary** (two labels): the ROC AUC of the metric for the positive label (the
  probability that a random positive text scores above a random negative one; ties
  count half), from the Mann-Whitney U statistic of ``scipy.stats``, with a percentile
  bootstrap interval over texts (``scipy.stats.bootstrap``, seeded); beside it Spearman's rho of the metric with the 0/1
  label (the rank-biserial view of the same question);
- **categorical** (more labels): the one-vs-rest AUC of each label and their mean.

The positive label is the one named by ``positive``, else the one that reads positive
(``true``, ``yes``, ``1``, ``correct``, ``faithful``, ``supported``, ``good``, ``pass``).
A text judged several times takes its most frequent label (ties: the first in sort order).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from factcov.errors import InputError
from factcov.statistics import bootstrap_interval, spearman
from factcov.validation.human import chosen_criteria, csv_records, run_metric

LABEL_COLUMNS = ("system", "instance_id", "criterion", "label")
POSITIVE_WORDS = ("true", "yes", "1", "correct", "faithful", "supported", "good", "pass", "positive")


def is_label_file(path: str | Path) -> bool:
    """A CSV whose header has a ``label`` column (and no ``score`` column)."""
    try:
        with Path(path).open(newline="", encoding="utf-8-sig") as handle:
            header = next(csv.reader(handle), [])
    except (OSError, UnicodeDecodeError, csv.Error):  # the reader that follows names the problem
        return False
    return "label" in header and "score" not in header


def load_labels(path: str | Path) -> pd.DataFrame:
    """Labels as a table system, instance_id, criterion, label; errors name line and field."""
    path = Path(path)
    rows = []
    for line, record in csv_records(path, LABEL_COLUMNS, "labels"):
        if not record["label"]:
            raise InputError("empty value", path=path, line=line, field="label")
        rows.append(tuple(record[c] for c in LABEL_COLUMNS))
    return pd.DataFrame(rows, columns=list(LABEL_COLUMNS))


def roc_auc(values: np.ndarray, positive: np.ndarray) -> float | None:
    """P(a positive scores above a negative), ties half; None without both classes."""
    from scipy.stats import mannwhitneyu

    pos, neg = values[positive], values[~positive]
    if pos.size == 0 or neg.size == 0:
        return None
    return float(mannwhitneyu(pos, neg).statistic / (pos.size * neg.size))


def _paired(metric_df: pd.DataFrame, labels: pd.DataFrame) -> pd.DataFrame:
    metric = metric_df.groupby(["system", "instance_id"], as_index=False)["value"].mean()
    # the most frequent label of a text judged several times (ties: first in sort order)
    label = (labels.sort_values("label").groupby(["system", "instance_id"])["label"]
             .agg(lambda s: s.value_counts(sort=True).index[0]).reset_index())
    pairs = metric.merge(label, on=["system", "instance_id"]).dropna(subset=["value"])
    if pairs.empty:
        raise InputError("no (system, instance_id) pair is both scored and labelled; check that system "
                         "names and instance ids match")
    return pairs.sort_values(["system", "instance_id"]).reset_index(drop=True)


def _positive_label(labels: list[str], positive: str | None) -> str:
    if positive is not None:
        if positive not in labels:
            raise InputError(f"no label '{positive}'; labels: {', '.join(labels)}", field="positive")
        return positive
    readable = [label for label in labels if label.lower() in POSITIVE_WORDS]
    if len(readable) != 1:
        raise InputError(f"which of the labels {', '.join(labels)} is the positive one? name it with --positive",
                         field="positive")
    return readable[0]


def discriminate(
    metric_df: pd.DataFrame, labels: pd.DataFrame, positive: str | None = None, n_boot: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """AUC(s) of the metric for the labels of one criterion, with bootstrap intervals over texts."""
    pairs = _paired(metric_df, labels)
    values = pairs["value"].to_numpy(dtype=float)
    names = sorted(pairs["label"].unique())

    def auc_interval(member: np.ndarray) -> list[float] | None:
        return bootstrap_interval(lambda rows: roc_auc(values[rows], member[rows]), len(values), n_boot, seed)

    result: dict[str, Any] = {"n": len(values), "labels": {n: int((pairs["label"] == n).sum()) for n in names},
                              "n_boot": n_boot, "seed": seed}
    if len(names) < 2:
        raise InputError(f"every text has the label '{names[0]}'; an AUC needs two labels at least")
    if len(names) == 2:
        chosen = _positive_label(names, positive)
        is_positive = (pairs["label"] == chosen).to_numpy()
        result.update({
            "kind": "binary", "positive": chosen,
            "auc": roc_auc(values, is_positive),
            "auc_ci": auc_interval(is_positive),
            "spearman": spearman(values, is_positive.astype(float)),
        })
        return result
    per_label = {}
    for name in names:
        member = (pairs["label"] == name).to_numpy()
        per_label[name] = {"auc": roc_auc(values, member), "auc_ci": auc_interval(member)}
    aucs = [v["auc"] for v in per_label.values() if v["auc"] is not None]
    result.update({"kind": "categorical", "per_label": per_label,
                   "auc": sum(aucs) / len(aucs) if aucs else None})
    return result


def discriminate_run(
    outdir: str | Path,
    labels_path: str | Path,
    *,
    metric: str = "f1",
    criteria: Iterable[str] | None = None,
    positive: str | None = None,
    n_boot: int = 1000,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """``discriminate`` a run's per-generation metric for each labelled criterion."""
    metric_df = run_metric(outdir, metric)
    labels = load_labels(labels_path)
    wanted = chosen_criteria(labels, criteria, labels_path)
    return [
        {"criterion": criterion, "metric": metric,
         **discriminate(metric_df, labels[labels["criterion"] == criterion], positive, n_boot, seed)}
        for criterion in wanted
    ]
