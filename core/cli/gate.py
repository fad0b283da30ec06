"""`--fail-under METRIC=VALUE`: turn a score into a CI check (exit 1 when below)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from factcov.errors import GateFailed, InputError, UnknownNameError


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


def check_gates(gates: Mapping[str, float], rows: Mapping[str, Mapping[str, object]]) -> None:
    """Raise GateFailed listing every (system, metric) below its threshold.

    An undefined metric fails its gate: a gate cannot pass on a score that does not exist.
    """
    failures = []
    for system, row in sorted(rows.items()):
        for metric, threshold in gates.items():
            value = row.get(metric)
            if value is None or value < threshold:  # type: ignore[operator]
                shown = "undefined" if value is None else f"{value:.4f}"
                failures.append(f"{system}: {metric} {shown} < {threshold:g}")
    if failures:
        raise GateFailed("gate failed: " + "; ".join(failures))
