"""Texts an extractor could not read, counted so a run never reports them as silence.

A model server that answers with something other than the JSON asked for makes a text
score 0 claims; scored as such, a system would look terse, not broken. Each such text is
counted per system, listed (a few examples) in summary.json and the report, and past
``FACTCOV_MAX_EXTRACTION_FAILURES`` (a fraction of the generations, default 0.05) the
run fails with exit 3 before any output is replaced.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from typing import Any

from factcov.errors import EnvironmentFailure, InputError

DEFAULT_MAX_FRACTION = 0.05
EXAMPLES = 5


def max_fraction() -> float:
    raw = os.environ.get("FACTCOV_MAX_EXTRACTION_FAILURES", "")
    if not raw:
        return DEFAULT_MAX_FRACTION
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (0 <= value <= 1):
        raise InputError(f"FACTCOV_MAX_EXTRACTION_FAILURES must be a fraction from 0 to 1, got {raw!r}")
    return value


class ExtractionFailures:
    def __init__(self) -> None:
        self.by_system: Counter[str] = Counter()
        self.examples: list[dict[str, str]] = []

    def add(self, failures: list[tuple[str, str, str]]) -> None:
        for instance_id, system, reason in failures:
            self.by_system[system] += 1
            if len(self.examples) < EXAMPLES:
                self.examples.append({"instance_id": instance_id, "system": system, "reason": reason[:300]})

    @property
    def count(self) -> int:
        return sum(self.by_system.values())

    def summary(self) -> dict[str, Any]:
        return {"count": self.count, "by_system": dict(sorted(self.by_system.items())), "examples": self.examples}

    def check(self, n_generations: int) -> None:
        limit = max_fraction()
        if self.count and self.count > limit * n_generations:
            first = self.examples[0]
            raise EnvironmentFailure(
                f"the extractor failed on {self.count} of {n_generations} texts (more than {limit:.0%}; "
                f"FACTCOV_MAX_EXTRACTION_FAILURES); first: {first['instance_id']}/{first['system']}: "
                f"{first['reason']}; outputs left as they were"
            )
