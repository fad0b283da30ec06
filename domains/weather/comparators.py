"""The one comparator the generic set lacks: a wind range agreeing endpoint by endpoint."""

from __future__ import annotations

from typing import Any, Literal

from factcov.comparators import Comparator, as_interval


class WindRangeMatch(Comparator):
    """A wind speed claim against the record's range (both in mph).

    - a claimed range ("10 to 15 mph") matches when each end is within ``tol`` of the
      record's ends: "0 to 20 mph" does not match a record of "5 to 10 mph", although
      it contains it (containment alone would reward vagueness);
    - a claimed single speed ("around 10 mph", "up to 15 mph") matches when it lies in
      the record's range widened by ``tol``.

    ``tol`` absorbs unit conversion: a text in km/h or knots rounds to whole units.
    """

    kind: Literal["wind_range"] = "wind_range"
    tol: float = 1.0

    def matches(self, claimed: Any, actual: Any) -> bool:
        c, a = as_interval(claimed), as_interval(actual)
        if c is None or a is None:
            return False
        if c[0] == c[1]:
            return a[0] - self.tol <= c[0] <= a[1] + self.tol
        return abs(c[0] - a[0]) <= self.tol and abs(c[1] - a[1]) <= self.tol

    def describe(self) -> str:
        return f"wind_range(tol={self.tol:g})"
