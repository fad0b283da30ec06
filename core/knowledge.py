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
        # (type, slot, folded value) -> facts holding it: a claim's lookup starts from
        # the shortest posting list of the slots it states instead of scanning the type.
        self._postings: dict[tuple[str, str, object], list[Fact]] = defaultdict(list)
        seen: set[Fact] = set()
        for fact in facts:
            if fact not in seen:
                seen.add(fact)
                self._by_type[fact.type].append(fact)
                for slot, value in fact.key.items():
                    self._postings[(fact.type, slot, _folded(value))].append(fact)

    def __len__(self) -> int:
        return sum(len(facts) for facts in self._by_type.values())

    def facts(self, type_: str | None = None) -> list[Fact]:
        if type_ is not None:
            return list(self._by_type.get(type_, ()))
        return [fact for facts in self._by_type.values() for fact in facts]

    def candidates(self, claim: Claim) -> list[Fact]:
        """Facts of the claim's type whose key agrees with every slot the claim states."""
        if not claim.key:
            return list(self._by_type.get(claim.type, ()))
        stated = [(slot, _folded(value)) for slot, value in claim.key.items()]
        postings = [self._postings.get((claim.type, slot, value)) for slot, value in stated]
        if not all(postings):
            return []
        shortest = min(postings, key=len)  # type: ignore[arg-type]
        if len(stated) == 1:
            return list(shortest)
        return [fact for fact in shortest if all(_folded(fact.key.get(k)) == v for k, v in stated)]


def _folded(value: object) -> object:
    return value.casefold() if isinstance(value, str) else value
