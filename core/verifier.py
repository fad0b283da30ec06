"""Generic verification: look a claim up by type and key, compare with the claim type's comparator."""

from __future__ import annotations

from factcov.knowledge import Knowledge
from factcov.model import Claim, Verdict
from factcov.trusted import contradicted_verdict, supported_verdict, unverifiable_verdict

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
    typed already, see ``factcov.trusted.supported_verdict``) and the knowledge's index is
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
        judges = knowledge.judges
        lookup = knowledge.lookup_key
        verdicts: list[Verdict] = []
        append = verdicts.append
        one_match = self._one_match
        for claim in claims:
            # A model's fields read from the dict pydantic keeps them in, as ``fields_of`` reads
            # them (factcov.trusted checks at import that pydantic keeps them there): one
            # attribute read per claim and per fact, then dict reads, instead of one read
            # through BaseModel's __getattr__ hook per field. Written out: a call of
            # ``fields_of`` here and in the scorer cost 3% of the rest's instructions.
            fields = claim.__dict__
            type_ = fields["type"]
            judge = judges.get(type_)
            candidates = lookup(type_, fields["key"]) if judge is not None else ()
            if not candidates:
                append(unverifiable_verdict(claim))
                continue
            matches, equal_values_match, closed_world = judge
            value = fields["value"]
            if len(candidates) == 1:  # the common case: one fact has the claim's key
                fact = candidates[0]
                fact_fields = fact.__dict__
                actual = fact_fields["value"]
                # the comparator's answer for equal values of a type it names, without calling it
                kind = type(value)
                if (kind is type(actual) and kind in equal_values_match and value == actual) or matches(value, actual):
                    fact_id = fact_fields.get("id") or fact.id  # cached in the dict once computed
                    ids = one_match.get(fact_id)
                    if ids is None:
                        if len(one_match) >= ONE_MATCH_CACHE_SIZE:
                            one_match.clear()
                        ids = one_match[fact_id] = (fact_id,)
                    append(supported_verdict(claim, fact, ids))
                elif closed_world:
                    append(contradicted_verdict(claim, fact, actual))
                else:
                    append(unverifiable_verdict(claim))
                continue
            matching = [f for f in candidates if matches(value, f.value)]
            if matching:
                append(supported_verdict(claim, matching[0], tuple(f.id for f in matching)))
            elif closed_world:
                append(contradicted_verdict(claim, candidates[0], [f.value for f in candidates]))
            else:
                append(unverifiable_verdict(claim))
        return verdicts
