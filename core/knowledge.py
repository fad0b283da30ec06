"""Everything checkable in an instance's data, indexed for claim lookup."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from factcov.model import Claim, ClaimType, Fact


class Knowledge:
    """A set of facts, a superset of the instance's relevant facts.

    A claim about another driver in the same race is checkable, hence supported or
    contradicted, even if that driver was not relevant to the decision explained.
    """

    def __init__(self, facts: Iterable[Fact], claim_types: Iterable[ClaimType]) -> None:
        self.claim_types: dict[str, ClaimType] = {ct.name: ct for ct in claim_types}
        self._by_type: dict[str, list[Fact]] = defaultdict(list)
        seen: set[Fact] = set()
        for fact in facts:
            if fact not in seen:
                seen.add(fact)
                self._by_type[fact.type].append(fact)

    def __len__(self) -> int:
        return sum(len(facts) for facts in self._by_type.values())

    def facts(self, type_: str | None = None) -> list[Fact]:
        if type_ is not None:
            return list(self._by_type.get(type_, ()))
        return [fact for facts in self._by_type.values() for fact in facts]

    def candidates(self, claim: Claim) -> list[Fact]:
        """Facts of the claim's type whose key agrees with every slot the claim states."""
        stated = claim.key.items()
        return [
            fact
            for fact in self._by_type.get(claim.type, ())
            if all(k in fact.key and _same_slot(fact.key[k], v) for k, v in stated)
        ]


def _same_slot(a: object, b: object) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    return a == b
