"""Generic verification: look a claim up by type and key, compare with the claim type's comparator."""

from __future__ import annotations

from factcov.knowledge import Knowledge
from factcov.model import Claim, Verdict


class Verifier:
    """Judges claims against a ``Knowledge``; the same code for every domain.

    - no fact of the claim's type has a compatible key: ``unverifiable``;
    - some compatible fact's value matches: ``supported`` (every matching fact is listed);
    - otherwise ``contradicted`` when the claim type is closed-world (the expected value
      is the compatible fact's value, or the list of values when several are compatible),
      ``unverifiable`` when it is open-world.
    """

    name = "lookup"

    def verify(self, claim: Claim, knowledge: Knowledge) -> Verdict:
        claim_type = knowledge.claim_types.get(claim.type)
        candidates = knowledge.candidates(claim) if claim_type is not None else []
        if not candidates:
            return Verdict(claim=claim, label="unverifiable")
        matching = [f for f in candidates if claim_type.comparator.matches(claim.value, f.value)]
        if matching:
            return Verdict(
                claim=claim,
                label="supported",
                fact=matching[0],
                matches=tuple(f.id for f in matching),
            )
        if not claim_type.closed_world:
            return Verdict(claim=claim, label="unverifiable")
        expected = (
            candidates[0].value if len(candidates) == 1 else [f.value for f in candidates]
        )
        return Verdict(claim=claim, label="contradicted", fact=candidates[0], expected=expected)

    def verify_all(self, claims: list[Claim], knowledge: Knowledge) -> list[Verdict]:
        return [self.verify(claim, knowledge) for claim in claims]
