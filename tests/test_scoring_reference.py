"""``score_generation`` counts what its definition says, on verdicts of real data.

The reference below is scoring spelled out from the definitions (``covered_facts`` for
coverage, one count per claim type by filtering), with none of the single pass's
bookkeeping; both score the same verdicts: claims about every fact of the f1 demo races
(relevant to the instance or not: other claim types than the relevant facts' appear),
some with wrong values, some out of scope, some stated twice, against relevant facts
with and without a repeated fact.
"""

from __future__ import annotations

import random

from factcov.domains.f1.demo import committed_instances
from factcov.domains.f1.oracle import race_facts
from factcov.model import Claim, Fact, Verdict
from factcov.plugins import get_domain
from factcov.scoring import Counts, GenerationScore, RelevantFacts, covered_facts, score_generation
from factcov.verifier import Verifier

F1 = get_domain("f1")


def reference_score(relevant: list[Fact], verdicts: list[Verdict]) -> GenerationScore:
    scored = [v for v in verdicts if not v.claim.out_of_scope]
    covered = covered_facts(relevant, scored)
    covered_ids = {fact.id for fact in covered}
    by_type = {}
    for type_ in sorted({v.claim.type for v in verdicts} | {fact.type for fact in relevant}):
        mine = [v for v in scored if v.claim.type == type_]
        by_type[type_] = Counts(
            n_claims=len(mine),
            supported=sum(v.label == "supported" for v in mine),
            contradicted=sum(v.label == "contradicted" for v in mine),
            unverifiable=sum(v.label == "unverifiable" for v in mine),
            n_facts=sum(fact.type == type_ for fact in relevant),
            covered=sum(fact.type == type_ for fact in covered),
            out_of_scope=sum(bool(v.claim.out_of_scope) and v.claim.type == type_ for v in verdicts),
        )
    total = Counts(
        n_claims=len(scored),
        supported=sum(c.supported for c in by_type.values()),
        contradicted=sum(c.contradicted for c in by_type.values()),
        unverifiable=sum(c.unverifiable for c in by_type.values()),
        n_facts=len(relevant),
        covered=len(covered_ids),
        out_of_scope=len(verdicts) - len(scored),
    )
    return GenerationScore(
        total=total,
        by_type=by_type,
        covered_ids=[fact.id for fact in relevant if fact.id in covered_ids],
        missed_ids=[fact.id for fact in relevant if fact.id not in covered_ids],
    )


def _claims(facts: list[Fact], rng: random.Random) -> list[Claim]:
    values = [fact.value for fact in facts]
    claims = []
    for fact in rng.sample(facts, k=min(len(facts), rng.randint(0, 12))):
        value = fact.value if rng.random() < 0.7 else rng.choice(values)
        out_of_scope = "next race" if rng.random() < 0.1 else None
        claims.append(Claim(type=fact.type, key=fact.key, value=value, out_of_scope=out_of_scope))
        if rng.random() < 0.2:  # the same thing said twice
            claims.append(claims[-1])
    if rng.random() < 0.5:
        claims.append(Claim(type="no_such_type", value=1))
    return claims


def test_score_generation_is_its_definition_on_real_verdicts():
    rng = random.Random(0)
    verifier = Verifier()
    seen = set()
    for instance in committed_instances(per_task=3):
        race = race_facts(instance.context["race"])
        knowledge = F1.knowledge(instance)  # the domain's own: the race's facts under the instance's
        relevant_sets = [instance.facts, [*instance.facts, *instance.facts[:1]]]  # the second repeats a fact
        for relevant in relevant_sets:
            prepared = RelevantFacts(relevant)
            for _ in range(6):
                # claims mostly about the relevant facts, some about the rest of the race
                pool = relevant if rng.random() < 0.5 else [*relevant, *rng.sample(race, k=min(len(race), 8))]
                verdicts = verifier.verify_all(_claims(pool, rng), knowledge)
                fast = score_generation(prepared, verdicts)
                assert fast == reference_score(relevant, verdicts)
                assert list(fast.by_type) == sorted(fast.by_type)
                assert score_generation(relevant, verdicts) == fast  # a plain list of facts scores the same
                n_relevant = len(set(prepared.ids))
                seen.add(("all covered" if len(fast.covered_ids) == len(relevant) else
                          "none covered" if not fast.covered_ids else "some covered",
                          any(t not in prepared.n_by_type for t in fast.by_type),
                          len(prepared.ids) > n_relevant))
    # every path was taken: all, some and no facts covered; claim types beyond the
    # relevant facts' or not; relevant facts with a repeated one
    assert {("all covered", False, False), ("some covered", True, False), ("none covered", True, False),
            ("some covered", True, True)} <= seen
