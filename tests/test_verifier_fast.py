"""The verifier's fast path gives exactly the verdicts of the validated, copying one.

The reference below is the verifier as it was before its per-claim costs were cut:
``Knowledge.candidates`` (a copy), ``Verdict(...)`` (validated), the comparators'
general normalization. Both judge the same claims from real data: every fact of the
f1 demo races with slots dropped, values changed and keys upper-cased, and the weather
facts of real NWS periods with their values perturbed.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random

import pytest
from pydantic import ValidationError

from factcov import model, trusted
from factcov.comparators import Exact, NumericTolerance, RangeContainment, SetMembership, _normalize, as_interval
from factcov.domains.f1.claims import CLAIM_TYPES as F1_TYPES
from factcov.domains.f1.demo import committed_instances
from factcov.domains.f1.oracle import race_facts
from factcov.knowledge import Knowledge
from factcov.model import Claim, Verdict
from factcov.plugins import get_domain
from factcov.verifier import Verifier

F1 = get_domain("f1")


def reference_verdict(claim: Claim, knowledge: Knowledge) -> Verdict:
    claim_type = knowledge.claim_types.get(claim.type)
    candidates = knowledge.candidates(claim) if claim_type is not None else []
    if not candidates:
        return Verdict(claim=claim, label="unverifiable")
    matching = [f for f in candidates if claim_type.comparator.matches(claim.value, f.value)]
    if matching:
        return Verdict(claim=claim, label="supported", fact=matching[0], matches=tuple(f.id for f in matching))
    if not claim_type.closed_world:
        return Verdict(claim=claim, label="unverifiable")
    expected = candidates[0].value if len(candidates) == 1 else [f.value for f in candidates]
    return Verdict(claim=claim, label="contradicted", fact=candidates[0], expected=expected)


def assert_same(fast: Verdict, slow: Verdict) -> None:
    assert type(fast) is Verdict
    assert fast == slow
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump() == slow.model_dump()
    assert fast.model_dump_json() == slow.model_dump_json()
    assert type(fast.matches) is tuple and type(fast.expected) is type(slow.expected)


def _claims(facts, rng):
    values = [f.value for f in facts]
    for fact in facts:
        yield Claim(type=fact.type, key=fact.key, value=fact.value)
        for slot in fact.key:
            yield Claim(type=fact.type, key={k: v for k, v in fact.key.items() if k != slot}, value=fact.value)
        yield Claim(type=fact.type, key={k: str(v).upper() if isinstance(v, str) else v for k, v in fact.key.items()},
                    value=rng.choice(values))
    yield Claim(type="no_such_type", value=1)


@pytest.mark.slow
def test_f1_verdicts_are_the_validated_ones():
    rng = random.Random(0)
    verifier = Verifier()
    labels = set()
    for instance in committed_instances(per_task=2):
        race = race_facts(instance.context["race"])
        knowledge = F1.knowledge(instance)  # the domain's own: the race's facts under the instance's
        claims = list(_claims(race, rng))
        for claim, fast in zip(claims, verifier.verify_all(claims, knowledge), strict=True):
            slow = reference_verdict(claim, knowledge)
            assert_same(fast, slow)
            labels.add((fast.label, len(fast.matches) > 1, isinstance(fast.expected, list)))
    # every branch was taken: several matches, one expected value and a list of them
    assert {("supported", True, False), ("supported", False, False), ("contradicted", False, False),
            ("contradicted", False, True), ("unverifiable", False, False)} <= labels


def test_weather_verdicts_are_the_validated_ones(shared_data):
    from factcov.domains.weather.domain import WeatherDomain
    from factcov.domains.weather.instances import instances_of
    from factcov.domains.weather.periods import iter_file_periods

    domain = WeatherDomain()
    rng = random.Random(1)
    verifier = Verifier()
    labels = set()
    sample = shared_data / "weather" / "nws_forecast_responses_sample.jsonl.gz"
    for period in itertools.islice(iter_file_periods(sample), 300):
        instance = next(instances_of(period, ["en"]))
        knowledge = domain.knowledge(instance)
        claims = []
        for fact in instance.facts:
            claims.append(Claim(type=fact.type, key=fact.key, value=fact.value))
            changed = domain.perturb(fact, rng, instance)
            claims.append(Claim(type=changed.type, key=changed.key, value=changed.value))
        for claim, fast in zip(claims, verifier.verify_all(claims, knowledge), strict=True):
            assert_same(fast, reference_verdict(claim, knowledge))
            labels.add(fast.label)
    assert {"supported", "contradicted"} <= labels


def test_trusted_verdicts_share_only_a_fields_set_that_nothing_changes_in_place():
    claim = Claim(type="t", value=1)
    fact = model.Fact(type="t", value=1)
    builders = [lambda: trusted.unverifiable_verdict(claim), lambda: trusted.supported_verdict(claim, fact, (fact.id,)),
                lambda: trusted.contradicted_verdict(claim, fact, 2)]
    for build in builders:
        a, b = build(), build()
        assert a.__dict__ is not b.__dict__
        before = set(a.model_fields_set)
        # what could change a model's fields set: each refuses, or changes a copy
        with pytest.raises(ValidationError):
            a.label = "supported"
        with pytest.raises(ValidationError):
            del a.expected
        copies = [a.model_copy(update={"expected": 3}), copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))]
        assert "expected" in copies[0].model_fields_set and copies[0].expected == 3
        for copied in copies:
            copied.model_fields_set.add("changed")
        assert a.model_fields_set == b.model_fields_set == before and "changed" not in build().model_fields_set


VALUES = [None, True, False, 0, 1, 2, 1.0, 2.5, -0.0, float("nan"), "", "a", "A", " a ", "a  b", "A B", "ß", "ss",
          [1, 2], [2, 1], (1, 2), [1.0, 2.0], ["a", "B"], ["A", "b"], [], [True, 1], [1.0], [True], [1], (1.0,),
          [[1, "a"], 2], [[1.0, "A"], 2], [float("nan")],
          [float("nan"), 1], [1, float("nan")], [2.5, 1]]


def reference_normalize(value):
    if isinstance(value, str):
        return " ".join(value.casefold().split())
    if isinstance(value, (list, tuple)):
        return tuple(reference_normalize(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def reference_interval(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value), float(value)
    if isinstance(value, (list, tuple)) and len(value) == 2:
        lo, hi = value
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo, hi)):
            return (float(min(lo, hi)), float(max(lo, hi)))
    return None


class Text(str):
    """A str subclass: the fast paths check exact types, the general rule isinstance."""


def test_normalization_and_intervals_keep_their_general_rule():
    for value in [*VALUES, Text("A b"), [Text("x"), 1]]:
        fast, slow = _normalize(value), reference_normalize(value)
        assert type(fast) is type(slow) and (fast == slow or fast != fast), value
        assert repr(as_interval(value)) == repr(reference_interval(value)), value


@pytest.mark.parametrize("ordered", [True, False])
def test_exact_fast_path_answers_as_the_normalized_comparison(ordered):
    comparator = Exact(ordered=ordered)
    for claimed, actual in itertools.product([*VALUES, Text("a")], repeat=2):
        a, b = reference_normalize(claimed), reference_normalize(actual)
        if not ordered and isinstance(a, tuple) and isinstance(b, tuple):
            expected = sorted(map(repr, a)) == sorted(map(repr, b))
        else:
            expected = a == b
        assert comparator.matches(claimed, actual) == expected, (claimed, actual)


def test_a_layered_knowledge_remembers_a_bounded_number_of_lookups_and_answers_as_a_flat_one():
    """A hostile text stating many distinct keys: answers stay those of one flat Knowledge
    (asked twice, so remembered answers are read too), the memo never passes its bound."""
    from factcov.knowledge import MERGED_LOOKUPS

    instance = committed_instances(per_task=1)[0]
    race = race_facts(instance.context["race"])
    layered = F1.knowledge(instance)  # the race's facts under the instance's
    flat = Knowledge([*instance.facts, *race], F1_TYPES)
    claims = [Claim(type=f.type, key={**f.key, "lap": n}, value=f.value) for n in range(3) for f in race]
    claims += [Claim(type=f.type, key=f.key, value=f.value) for f in race]
    assert len({(c.type, tuple(sorted(c.key.items()))) for c in claims}) > 2 * MERGED_LOOKUPS
    for _ in range(2):
        for claim in claims:
            assert list(layered.lookup(claim)) == flat.candidates(claim), claim
            assert len(layered._merged) <= MERGED_LOOKUPS


def test_one_match_tuples_are_shared_per_fact_and_their_memo_is_bounded(monkeypatch):
    from factcov import verifier as verifier_module

    facts = [model.Fact(type="count", key={"item": f"item{i}"}, value=i) for i in range(12)]
    knowledge = Knowledge(facts, [model.ClaimType(name="count", description="how many", key_slots=("item",))])
    claims = [Claim(type=f.type, key=f.key, value=f.value) for f in facts] * 2
    verdicts = Verifier().verify_all(claims, knowledge)
    assert [v.matches for v in verdicts] == [(f.id,) for f in facts] * 2
    assert all(a.matches is b.matches for a, b in zip(verdicts, verdicts[len(facts):]))  # one tuple per fact
    monkeypatch.setattr(verifier_module, "ONE_MATCH_CACHE_SIZE", 5)
    verifier = Verifier()
    assert [v.matches for v in verifier.verify_all(claims, knowledge)] == [(f.id,) for f in facts] * 2
    assert len(verifier._one_match) <= 5


@pytest.mark.parametrize("comparator", [Exact(), Exact(ordered=False), NumericTolerance(abs_tol=1, rel_tol=0.1),
                                        RangeContainment(tol=0.5), SetMembership(), *{ct.comparator for ct in F1_TYPES}])
def test_equal_values_a_comparator_names_are_matched_by_it(comparator):
    """The verifier answers equal values of a type ``equal_values_match`` names without
    calling ``matches``: for every pair of values (equal, equal across types, NaN, lists of
    either order), ``matches`` must say the same."""
    named = comparator.equal_values_match()
    shortcuts = 0
    for claimed, actual in itertools.product([*VALUES, Text("a")], repeat=2):
        kind = type(claimed)
        if kind is type(actual) and kind in named and claimed == actual:
            assert comparator.matches(claimed, actual), (comparator, claimed, actual)
            shortcuts += 1
    assert shortcuts or not named
