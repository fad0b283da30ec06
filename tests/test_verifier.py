"""Verification: lookup by type and partial key, comparators, closed and open world."""

from __future__ import annotations

import pytest

from factcov.comparators import Exact, NumericTolerance, RangeContainment, SetMembership
from factcov.knowledge import Knowledge
from factcov.model import Claim, Fact
from factcov.verifier import Verifier
from tests.mini_domain import CLAIM_TYPES

FACTS = [
    Fact(type="count", key={"item": "apples"}, value=3),
    Fact(type="window", value=[2, 5]),
    Fact(type="note", key={"item": "apples"}, value="fresh"),
]


def verify(type_, value, **key):
    return Verifier().verify(Claim(type=type_, key=key, value=value), Knowledge(FACTS, CLAIM_TYPES))


def test_matching_value_is_supported_with_its_fact():
    verdict = verify("count", 3, item="apples")
    assert verdict.label == "supported" and verdict.fact == FACTS[0]


def test_wrong_value_of_closed_world_type_is_contradicted_with_expected_value():
    verdict = verify("count", 4, item="apples")
    assert verdict.label == "contradicted" and verdict.expected == 3


def test_wrong_value_of_open_world_type_is_unverifiable():
    assert verify("note", "stale", item="apples").label == "unverifiable"


def test_unknown_key_or_type_is_unverifiable():
    assert verify("count", 3, item="plums").label == "unverifiable"
    assert verify("weight", 3, item="apples").label == "unverifiable"


def test_key_slot_missing_from_fact_makes_claim_incompatible():
    assert verify("count", 3, item="apples", crate=2).label == "unverifiable"


def test_key_values_compare_case_insensitively():
    assert verify("count", 3, item="APPLES").label == "supported"


def test_range_fact_supports_contained_points_and_ranges_only():
    assert verify("window", [3, 3]).label == "supported"
    assert verify("window", [2, 5]).label == "supported"
    verdict = verify("window", [1, 5])
    assert verdict.label == "contradicted" and verdict.expected == [2, 5]


def test_contradiction_against_several_candidates_lists_their_values():
    facts = [Fact(type="count", key={"item": "a", "box": 1}, value=3), Fact(type="count", key={"item": "a", "box": 2}, value=7)]
    verdict = Verifier().verify(Claim(type="count", key={"item": "a"}, value=5), Knowledge(facts, CLAIM_TYPES))
    assert verdict.label == "contradicted" and verdict.expected == [3, 7]


@pytest.mark.parametrize(
    ("comparator", "claimed", "actual", "expected"),
    [
        (Exact(), "Soft ", "soft", True),
        (Exact(), ["SOFT", "HARD"], ["soft", "hard"], True),
        (Exact(), ["HARD", "SOFT"], ["soft", "hard"], False),
        (Exact(ordered=False), ["HARD", "SOFT"], ["soft", "hard"], True),
        (Exact(), 3.0, 3, True),
        (NumericTolerance(abs_tol=5), 40, 44, True),
        (NumericTolerance(abs_tol=5), 40, 46, False),
        (NumericTolerance(rel_tol=0.1), 11, 10, True),
        (NumericTolerance(), [46, 49], 47, True),
        (NumericTolerance(), [46, 49], 45, False),
        (NumericTolerance(), "ten", 10, False),
        (NumericTolerance(), True, 1, False),
        (RangeContainment(), 4, [1, 5], True),
        (RangeContainment(), [0, 2], [1, 5], False),
        (RangeContainment(tol=1), [0, 2], [1, 5], True),
        (SetMembership(), "ham", ["HAM", "VER"], True),
        (SetMembership(), ["ham", "bot"], ["HAM", "VER"], False),
        (SetMembership(), [], ["HAM"], False),
    ],
)
def test_comparators(comparator, claimed, actual, expected):
    assert comparator.matches(claimed, actual) is expected


def test_fact_id_is_stable_and_facts_are_hashable():
    a = Fact(type="pit_lap", key={"stop": 1, "driver": "HAM"}, value=13)
    b = Fact(type="pit_lap", key={"driver": "HAM", "stop": 1}, value=13)
    assert a.id == b.id == "pit_lap(driver=HAM,stop=1)"
    assert len({a, b}) == 1
    assert a != Fact(type="pit_lap", key={"driver": "HAM", "stop": 1}, value=14)


def test_claim_drops_unsaid_key_slots():
    assert Claim(type="pit_lap", key={"driver": "HAM", "stop": None}, value=13).key == {"driver": "HAM"}


def test_a_copied_fact_with_a_new_value_is_a_different_fact():
    fact = Fact(type="pit_lap", key={"driver": "HAM", "stop": 1}, value=13)
    hash(fact)
    moved = fact.model_copy(update={"value": 14})
    assert moved != fact and moved.identity == ("pit_lap(driver=HAM,stop=1)", "14")
    assert fact.model_copy(update={"key": {"driver": "VER"}}).id == "pit_lap(driver=VER)"
