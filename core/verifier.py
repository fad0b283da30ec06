"""Generic verification: look a claim up by type and key, compare with the claim type's comparator."""

from __future__ import annotations

from factcov.knowledge import Knowledge
from factcov.model import Claim, Verdict, contradicted_verdict, supported_verdict, unverifiable_verdict

# Distinct facts whose one-id tuples a verifier keeps (a few MB at most): a run's texts
# state a few thousand distinct facts per race.
ONE_MATCH_CACHE_SIZE = 65_536


class Verifier:
    """Judges claims against a ``Knowledge``; the same code for every domain.

    - no fact of the claim's type has a compatible key: ``unverifiable``;
    - some compatible fact's value matches: ``supported`` (every matching fact is listed);
    - otherwise ``contradicted`` when the claim type is closed-world (the expected value
      is the compatible fact's value, or the list of values when several are compatible),
      ``unverifiable`` when it is open-world.

    This runs once per claim of every run: verdicts are built trusted (their parts are
    typed already, see ``factcov.model.supported_verdict``) and the knowledge's index is
    read without copying.
    """

    name = "lookup"

    def __init__(self) -> None:
        # A supported claim's one matching fact id as a tuple, one per fact: texts state
        # the same facts again and again, and a new tuple per verdict is one more object
        # for the cyclic collector to walk while the results are alive.
        self._one_match: dict[str, tuple[str]] = {}

    def verify(self, claim: Claim, knowledge: Knowledge) -> Verdict:
        return self.verify_all([claim], knowledge)[0]

    def verify_all(self, claims: list[Claim], knowledge: Knowledge) -> list[Verdict]:
        claim_types = knowledge.claim_types
        lookup = knowledge.lookup
        verdicts: list[Verdict] = []
        append = verdicts.append
        one_match = self._one_match
        for claim in claims:
            claim_type = claim_types.get(claim.type)
            candidates = lookup(claim) if claim_type is not None else ()
            if not candidates:
                append(unverifiable_verdict(claim))
                continue
            matches = claim_type.comparator.matches
            value = claim.value
            if len(candidates) == 1:  # the common case: one fact has the claim's key
                fact = candidates[0]
                if matches(value, fact.value):
                    fact_id = fact.id
                    ids = one_match.get(fact_id)
                    if ids is None:
                        if len(one_match) >= ONE_MATCH_CACHE_SIZE:
                            one_match.clear()
                        ids = one_match[fact_id] = (fact_id,)
                    append(supported_verdict(claim, fact, ids))
                elif claim_type.closed_world:
                    append(contradicted_verdict(claim, fact, fact.value))
                else:
                    append(unverifiable_verdict(claim))
                continue
            matching = [f for f in candidates if matches(value, f.value)]
            if matching:
                append(supported_verdict(claim, matching[0], tuple(f.id for f in matching)))
            elif claim_type.closed_world:
                append(contradicted_verdict(claim, candidates[0], [f.value for f in candidates]))
            else:
                append(unverifiable_verdict(claim))
        return verdicts
