"""Scoring arithmetic on hand-checkable cases, undefined cases included."""

from __future__ import annotations

import pytest

from factcov.knowledge import Knowledge
from factcov.model import Claim, Fact
from factcov.scoring import ScoringPolicy, f1, precision, recall, score_generation
from factcov.verifier import Verifier
from tests.mini_domain import CLAIM_TYPES

FACTS = [
    Fact(type="count", key={"item": "apples"}, value=3),
    Fact(type="count", key={"item": "pears"}, value=5),
    Fact(type="colour", key={"item": "apples"}, value="red"),
    Fact(type="window", value=[2, 5]),
]
KNOWLEDGE = Knowledge(FACTS, CLAIM_TYPES)


def verdicts(*claims: Claim):
    return Verifier().verify_all(list(claims), KNOWLEDGE)


def claim(type_: str, value, **key) -> Claim:
    return Claim(type=type_, key=key, value=value)


def test_two_supported_one_contradicted_one_unverifiable():
    score = score_generation(FACTS, verdicts(
        claim("count", 3, item="apples"),
        claim("colour", "red", item="apples"),
        claim("count", 6, item="pears"),
        claim("count", 9, item="plums"),
    ))
    total = score.total
    assert (total.n_claims, total.supported, total.contradicted, total.unverifiable) == (4, 2, 1, 1)
    assert (total.n_facts, total.covered) == (4, 2)
    counted = score.metrics(ScoringPolicy())
    assert counted["precision"] == pytest.approx(2 / 4)
    assert counted["recall"] == pytest.approx(2 / 4)
    assert counted["f1"] == pytest.approx(0.5)
    ignored = score.metrics(ScoringPolicy(unverifiable="ignore"))
    assert ignored["precision"] == pytest.approx(2 / 3)
    assert ignored["f1"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))


def test_text_without_claims_has_undefined_precision_and_zero_recall_and_f1():
    metrics = score_generation(FACTS, []).metrics(ScoringPolicy())
    assert metrics == {"precision": None, "recall": 0.0, "f1": 0.0, "weighted_f1": 0.0}


def test_one_safe_fact_is_precise_but_covers_a_quarter():
    metrics = score_generation(FACTS, verdicts(claim("count", 3, item="apples"))).metrics(ScoringPolicy())
    assert metrics["precision"] == 1.0
    assert metrics["recall"] == 0.25
    assert metrics["f1"] == pytest.approx(0.4)


def test_only_unverifiable_claims_ignored_leaves_precision_undefined():
    score = score_generation(FACTS, verdicts(claim("count", 1, item="plums")))
    assert score.metrics(ScoringPolicy(unverifiable="ignore"))["precision"] is None
    assert score.metrics(ScoringPolicy(unverifiable="count"))["precision"] == 0.0


def test_instance_without_relevant_facts_has_undefined_recall_and_f1():
    metrics = score_generation([], verdicts(claim("count", 3, item="apples"))).metrics(ScoringPolicy())
    assert metrics["recall"] is None and metrics["f1"] is None and metrics["precision"] == 1.0


def test_repeating_a_fact_keeps_precision_and_covers_it_once():
    score = score_generation(FACTS, verdicts(claim("count", 3, item="apples"), claim("count", 3, item="apples")))
    assert score.total.supported == 2 and score.total.covered == 1


def test_partial_key_claims_cover_distinct_facts_in_turn():
    facts = [Fact(type="count", key={"item": "a", "box": 1}, value=3),
             Fact(type="count", key={"item": "a", "box": 2}, value=3)]
    knowledge = Knowledge(facts, CLAIM_TYPES)
    first = Verifier().verify(claim("count", 3, item="a"), knowledge)
    assert first.label == "supported" and len(first.matches) == 2
    score = score_generation(facts, [first, Verifier().verify(claim("count", 3, item="a"), knowledge)])
    assert score.total.covered == 2


def test_per_type_counts_and_weighted_f1():
    score = score_generation(FACTS, verdicts(claim("count", 3, item="apples"), claim("colour", "blue", item="apples")))
    assert score.by_type["count"].covered == 1 and score.by_type["count"].n_facts == 2
    assert score.by_type["colour"].contradicted == 1
    policy = ScoringPolicy(type_weights={"count": 0.25, "colour": 0.75})
    count_f1 = f1(1.0, 0.5)
    assert score.weighted_f1(policy) == pytest.approx(0.25 * count_f1 + 0.75 * 0.0)


def test_weighted_f1_renormalizes_over_defined_types():
    score = score_generation([FACTS[0]], verdicts(claim("count", 3, item="apples")))
    policy = ScoringPolicy(type_weights={"count": 0.5, "colour": 0.5})
    assert score.weighted_f1(policy) == 1.0


@pytest.mark.parametrize(
    ("p", "r", "expected"),
    [(None, 0.0, 0.0), (None, None, None), (0.0, 0.5, 0.0), (1.0, 1.0, 1.0), (0.5, 1.0, 2 / 3)],
)
def test_f1_edge_cases(p, r, expected):
    assert f1(p, r) == (pytest.approx(expected) if expected else expected)


def test_precision_and_recall_denominators():
    assert precision(0, 0, 0, ScoringPolicy()) is None
    assert precision(1, 1, 2, ScoringPolicy(unverifiable="ignore")) == 0.5
    assert recall(0, 0) is None and recall(0, 4) == 0.0


def test_policy_signature_names_every_choice():
    signature = ScoringPolicy(unverifiable="ignore", average="micro", type_weights={"b": 0.5, "a": 0.5}).signature()
    assert signature == "unverifiable:ignore|average:micro|weights:a=0.5,b=0.5|out_of_scope:exclude"


def test_canonical_json_is_compact_sorted_json_dumps_for_every_kind_of_value():
    import json

    from factcov.model import canonical_json

    values = [{"driver": "HAM", "stop": 2}, [1, 2.5, "é", None, True], {"b": {"z": 1, "a": [1e300, -0.0]}, "a": "x\u2028\""},
              3.0, "str", 7, None, {"n": 10**20}, [], {}, {"nested": [{"k": [1, {"x": False}]}]},
              # the one- and two-slot keys of claims, including what must be escaped or is left to the encoder
              {"driver": "VER"}, {"stop": 1, "driver": "HAM"}, {"z": "b", "a": "a"}, {"kind": "é\n\"\\\u0001"},
              {"\u2028k": -3}, {"a": True}, {"a": 1.5}, {"a": None, "b": 1}, {"a": [1]}, {1: "x"}, {1: "x", 2: 3},
              {"x": 10**30, "y": -0}]
    for value in values:
        assert canonical_json(value) == json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    with pytest.raises(TypeError):
        canonical_json({"x": object()})
    with pytest.raises(TypeError):  # keys json.dumps cannot sort
        canonical_json({1: "x", "b": 2})
