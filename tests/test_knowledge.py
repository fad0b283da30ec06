"""Knowledge layered over a shared block answers exactly as one flat Knowledge would."""

from __future__ import annotations

import copy
import random

from factcov.domains.f1.claims import CLAIM_TYPES
from factcov.domains.f1.demo import committed_instances
from factcov.domains.f1.oracle import race_facts
from factcov.knowledge import Knowledge, SharedKnowledge
from factcov.model import Claim


def _claims(facts, rng):
    """Every fact as a claim, with each key slot dropped in turn and a few values changed."""
    for fact in facts:
        yield Claim(type=fact.type, key=fact.key, value=fact.value)
        for slot in fact.key:
            yield Claim(type=fact.type, key={k: v for k, v in fact.key.items() if k != slot}, value=fact.value)
        yield Claim(type=fact.type, key={k: str(v).upper() if isinstance(v, str) else v for k, v in fact.key.items()},
                    value=rng.choice([f.value for f in facts]))


def test_layered_knowledge_gives_the_flat_candidates_in_the_flat_order():
    rng = random.Random(0)
    for instance in committed_instances(per_task=2):
        race = race_facts(instance.context["race"])
        flat = Knowledge([*instance.facts, *race], CLAIM_TYPES)
        layered = Knowledge(instance.facts, CLAIM_TYPES, base=Knowledge(race, CLAIM_TYPES))
        assert layered.facts() != [] and len(layered) == len(flat)
        for type_ in {f.type for f in race} | {None}:
            assert layered.facts(type_) == flat.facts(type_)
        for claim in _claims(race, rng):
            assert layered.candidates(claim) == flat.candidates(claim), claim


def test_shared_knowledge_is_built_once_per_block_whether_shared_or_copied():
    built = []
    shared = SharedKnowledge(lambda block: built.append(block) or Knowledge(race_facts(block), CLAIM_TYPES))
    instance = committed_instances(per_task=1)[0]
    block = instance.context["race"]
    first = shared(block)
    assert shared(block) is first and shared(copy.deepcopy(block)) is first
    changed = copy.deepcopy(block)
    changed["drivers"] = changed["drivers"][:1]
    assert shared(changed) is not first and len(built) == 2


def test_lookup_by_any_part_of_a_wide_key_keeps_the_facts_order():
    """Keys wider than the indexed slots: a claim stating four slots, or any part of them,
    finds exactly the agreeing facts, in the order they were given."""
    from itertools import product

    from factcov.knowledge import INDEXED_SLOTS
    from factcov.model import Claim, ClaimType, Fact

    slots = ("a", "b", "c", "d", "e")
    assert len(slots) > INDEXED_SLOTS
    facts = [Fact(type="t", key=dict(zip(slots, values)), value=i)
             for i, values in enumerate(product(("X", "y"), (1, 2), ("p",), (True, False), ("Q", "q")))]
    knowledge = Knowledge(facts, [ClaimType(name="t", description="wide", key_slots=slots)])
    for stated in ({"a": "x", "b": 1, "d": True, "e": "q"}, {"e": "Q"}, {"c": "p", "a": "Y"}, {"b": 3}, {}):
        expected = [f for f in facts if all(str(f.key[k]).casefold() == str(v).casefold() for k, v in stated.items())]
        assert knowledge.candidates(Claim(type="t", key=stated, value=0)) == expected


def test_judges_are_each_claim_types_own_whether_remembered_or_built():
    """A knowledge's judges (what the verifier asks of a claim type) are remembered per
    tuple of claim types: each knowledge's are those of the types it was given, in a
    tuple (remembered), a list or a generator (built), however many tuples came before."""
    from factcov.comparators import Exact, NumericTolerance
    from factcov.knowledge import JUDGES_CACHE_SIZE

    def expected(types):
        return {ct.name: (ct.comparator.matches, ct.comparator.equal_values_match(), ct.closed_world)
                for ct in types}

    lap = CLAIM_TYPES[0]
    variants = [tuple(CLAIM_TYPES)]
    for n in range(JUDGES_CACHE_SIZE + 3):  # more tuples than are remembered: some are forgotten
        comparator = NumericTolerance(abs_tol=n) if n % 2 else Exact(ordered=bool(n % 4))
        variants.append((lap.model_copy(update={"comparator": comparator, "closed_world": n % 3 == 0}),))
    for _ in range(2):
        for types in variants:
            for given in (types, list(types), iter(types)):
                assert Knowledge([], given).judges == expected(types)
