"""`--fail-under METRIC=VALUE`: turn a score into a CI check (exit 1 when below)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path

from factcov.errors import GateFailed, InputError, UnknownNameError

CORE_METRICS = ("precision", "recall", "f1", "weighted_f1")
# How many failing generations a gate message names (lowest first) before "and N more".
SHOWN_BELOW = 10


def gate_metrics(domain_metrics: Iterable[str] = ()) -> tuple[str, ...]:
    """What ``--fail-under`` accepts for a domain: P/R/F1, weighted F1 and the domain's own."""
    return (*CORE_METRICS, *domain_metrics)


def parse_gates(pairs: list[str] | None, metrics: Iterable[str]) -> dict[str, float]:
    allowed = list(metrics)
    gates: dict[str, float] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep:
            raise InputError(f"--fail-under expects METRIC=VALUE, got '{pair}'")
        if name not in allowed:
            raise UnknownNameError("metric in --fail-under", name, allowed)
        try:
            gates[name] = float(value)
        except ValueError:
            raise InputError(f"--fail-under expects a number after '=', got '{pair}'") from None
        if not math.isfinite(gates[name]):
            raise InputError(f"--fail-under expects a finite number (a NaN gate would always pass), got '{pair}'")
    return gates


def check_gates(
    gates: Mapping[str, float], rows: Mapping[str, Mapping[str, object]], outdir: Path | None = None
) -> None:
    """Raise GateFailed listing every (system, metric) below its threshold.

    An undefined metric fails its gate: a gate cannot pass on a score that does not exist.
    With the run's ``outdir`` the message also names the generations below the threshold
    (the instance ids a CI log needs to find what to fix).
    """
    failures = []
    for system, row in sorted(rows.items()):
        for metric, threshold in gates.items():
            value = row.get(metric)
            if value is None or value < threshold:  # type: ignore[operator]
                shown = "undefined" if value is None else f"{value:.4f}"
                below = _generations_below(outdir, system, metric, threshold) if outdir is not None else ""
                failures.append(f"{system}: {metric} {shown} < {threshold:g}{below}")
    if failures:
        raise GateFailed("gate failed: " + "; ".join(failures))


def _generations_below(outdir: Path, system: str, metric: str, threshold: float) -> str:
    import pandas as pd

    scores = pd.read_parquet(outdir / "scores.parquet", columns=["instance_id", "system", metric],
                             filters=[("system", "==", system)])
    below = scores[scores[metric].isna() | (scores[metric] < threshold)].sort_values("instance_id")
    named = [
        f"{row.instance_id} ({'undefined' if pd.isna(row[2]) else format(row[2], '.3f')})"
        for row in below.head(SHOWN_BELOW).itertuples(index=False)
    ]
    more = f" and {len(below) - SHOWN_BELOW} more" if len(below) > SHOWN_BELOW else ""
    return f" (below: {', '.join(named)}{more})" if named else ""
