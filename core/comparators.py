"""How a claimed value is compared with the value a fact holds.

A comparator answers one question, ``matches(claimed, actual)``. Which comparator a
claim type uses is part of its definition, so tolerance is a property of the *claim
type*, never of the verifier. Numbers may be given as a point or as an interval
``[lo, hi]`` on either side: "in the upper 40s" is the interval [46, 49], a wind of
"5 to 10 mph" is [5, 10].
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


def _normalize(value: Any) -> Any:
    kind = type(value)
    if kind is int or kind is bool or value is None:  # the commonest values, returned as they are
        return value
    if isinstance(value, str):
        return " ".join(value.casefold().split())
    if isinstance(value, (list, tuple)):
        return tuple(_normalize(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def as_interval(value: Any) -> tuple[float, float] | None:
    """A number or a two-number list as a closed interval; None when not numeric."""
    kind = type(value)
    if kind is int or kind is float:  # the common cases first (bool is not int here)
        return float(value), float(value)
    if kind is list and len(value) == 2:
        lo, hi = value
        if (type(lo) is int or type(lo) is float) and (type(hi) is int or type(hi) is float):
            return float(min(lo, hi)), float(max(lo, hi))
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value), float(value)
    if isinstance(value, (list, tuple)) and len(value) == 2:
        lo, hi = value
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo, hi)):
            return (float(min(lo, hi)), float(max(lo, hi)))
    return None


# Types whose equal values are equal after ``_normalize``: it is a function of the value
# that keeps numbers equal (an integral float becomes the equal int), and lists and
# tuples are compared element by element, so equal sequences too, unless compared
# unordered (by the elements' reprs: [1.0] == [True], but "1" != "True").
_SAME_WHEN_EQUAL = frozenset({str, int, bool, float})
_SEQUENCES = frozenset({list, tuple})
_IN_ORDER_WHEN_EQUAL = _SAME_WHEN_EQUAL | _SEQUENCES  # for a comparison of sequences in order


class Comparator(BaseModel):
    """Base class: subclasses set ``kind`` and implement ``matches``."""

    model_config = ConfigDict(frozen=True)
    kind: str

    def matches(self, claimed: Any, actual: Any) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def equal_values_match(self) -> frozenset[type]:
        """Types of value that ``matches`` always accepts when the claimed and the actual
        value are both of the type and equal (``==``): a caller may answer those without
        calling it (the verifier does, once per claim). No type, unless a comparator says so."""
        return frozenset()

    def describe(self) -> str:
        return self.kind


class Exact(Comparator):
    """Equal after normalization (strings case- and whitespace-insensitive, lists in order)."""

    kind: Literal["exact"] = "exact"
    ordered: bool = True

    def matches(self, claimed: Any, actual: Any) -> bool:
        # equal strings or ints normalize equally: most supported claims stop here (the types
        # ``equal_values_match`` names, spelled out: no call on a path taken for every claim)
        kind = type(claimed)
        if kind is type(actual) and claimed == actual and (
            kind in _SAME_WHEN_EQUAL or (kind in _SEQUENCES and self.ordered)
        ):
            return True
        a, b = _normalize(claimed), _normalize(actual)
        if not self.ordered and isinstance(a, tuple) and isinstance(b, tuple):
            return sorted(map(repr, a)) == sorted(map(repr, b))
        return a == b

    def equal_values_match(self) -> frozenset[type]:
        # equal values normalize equally; equal sequences too, when compared in order
        return _IN_ORDER_WHEN_EQUAL if self.ordered else _SAME_WHEN_EQUAL


class NumericTolerance(Comparator):
    """|claimed - actual| <= max(abs_tol, rel_tol * |actual|).

    A claimed interval matches when the actual value lies inside it, widened by the
    tolerance ("upper 40s" matches 47); an actual interval must then be inside too.
    """

    kind: Literal["numeric"] = "numeric"
    abs_tol: float = 0.0
    rel_tol: float = 0.0

    def matches(self, claimed: Any, actual: Any) -> bool:
        c, a = as_interval(claimed), as_interval(actual)
        if c is None or a is None:
            return False
        tol = max(self.abs_tol, self.rel_tol * max(abs(a[0]), abs(a[1])))
        return c[0] - tol <= a[0] and a[1] <= c[1] + tol

    def describe(self) -> str:
        parts = [f"abs_tol={self.abs_tol:g}"] if self.abs_tol else []
        parts += [f"rel_tol={self.rel_tol:g}"] if self.rel_tol else []
        return f"numeric({', '.join(parts) or 'exact'})"


class RangeContainment(Comparator):
    """The claimed point or interval lies inside the actual interval (widened by tol).

    Used where the fact *is* a range: a safety car on laps 1-3 supports "a safety car
    on lap 2" and "laps 1 to 3", not "laps 1 to 5".
    """

    kind: Literal["range"] = "range"
    tol: float = 0.0

    def matches(self, claimed: Any, actual: Any) -> bool:
        c, a = as_interval(claimed), as_interval(actual)
        if c is None or a is None:
            return False
        return a[0] - self.tol <= c[0] and c[1] <= a[1] + self.tol

    def describe(self) -> str:
        return f"range(tol={self.tol:g})"


class SetMembership(Comparator):
    """The claimed element (or every element of a claimed list) belongs to the actual set."""

    kind: Literal["set"] = "set"

    def matches(self, claimed: Any, actual: Any) -> bool:
        pool = _normalize(actual)
        pool = set(pool) if isinstance(pool, tuple) else {pool}
        wanted = _normalize(claimed)
        wanted = set(wanted) if isinstance(wanted, tuple) else {wanted}
        return bool(wanted) and wanted <= pool
