"""Everything checkable in an instance's data, indexed for claim lookup."""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain, combinations
from typing import Any

from factcov.model import Claim, ClaimType, Fact, canonical_json

# Key subsets indexed per fact: keys of the built-in domains have at most three slots; a
# claim stating more is looked up by its first three (by name), then filtered.
INDEXED_SLOTS = 3
# An index key is flat: (type, slot, folded value, slot, folded value, ...), slots by name
# (one tuple to build and hash per claim, not one per slot and one around them).
IndexKey = tuple[object, ...]
_INDEXED_KEY_LEN = 1 + 2 * INDEXED_SLOTS
# Lookups a layered knowledge remembers (answers shared with its layers, or their merge)
# before it starts over: ~50 KB per instance at most, while a text states ~7 keys.
MERGED_LOOKUPS = 128


# What the verifier asks of a claim type: its comparator's ``matches``, the types of value
# whose equal values that matches (``Comparator.equal_values_match``), whether its world is
# closed. Read once per set of claim types rather than for every claim (a pydantic model's
# attribute read is an unspecialized lookup through its __getattr__ hook).
Judge = tuple[Callable[[Any, Any], bool], frozenset[type], bool]
# A domain's claim types (the tuple it passes for every instance's knowledge) -> their
# judges, built once: built for each knowledge, they were a twentieth of a weather cold
# pass. Held with the tuple, so that its id is not reused while remembered.
_JUDGES_BY_TYPES: dict[int, tuple[tuple[ClaimType, ...], dict[str, Judge]]] = {}
JUDGES_CACHE_SIZE = 64


def _judges(given: Iterable[ClaimType], by_name: dict[str, ClaimType]) -> dict[str, Judge]:
    """The judges of ``by_name``'s claim types (``given``, as passed to ``Knowledge``)."""
    if type(given) is tuple:
        held = _JUDGES_BY_TYPES.get(id(given))
        if held is not None and held[0] is given:
            return held[1]
    judges = {name: (ct.comparator.matches, ct.comparator.equal_values_match(), ct.closed_world)
              for name, ct in by_name.items()}
    if type(given) is tuple:
        if len(_JUDGES_BY_TYPES) >= JUDGES_CACHE_SIZE:
            _JUDGES_BY_TYPES.clear()
        _JUDGES_BY_TYPES[id(given)] = (given, judges)
    return judges


class Knowledge:
    """A set of facts, a superset of the instance's relevant facts.

    A claim about another driver in the same race is checkable, hence supported or
    contradicted, even if that driver was not relevant to the decision explained.

    ``base``: knowledge shared by many instances (every fact of one race), built once
    and layered under this instance's own facts. Lookups see the own facts first, then
    the base's facts that are not among them: the same facts in the same order as one
    ``Knowledge`` of ``[*facts, *base facts]``, without re-indexing the shared block for
    every instance.
    """

    def __init__(
        self, facts: Iterable[Fact], claim_types: Iterable[ClaimType], base: Knowledge | None = None
    ) -> None:
        self.claim_types: dict[str, ClaimType] = {ct.name: ct for ct in claim_types}
        # what the verifier asks of a claim's type (see ``Judge``; shared: read it, never change it)
        self.judges: dict[str, Judge] = _judges(claim_types, self.claim_types)
        self.base = base
        self._by_type: dict[str, list[Fact]] = defaultdict(list)
        # (type, stated slots and folded values, by slot name: an ``IndexKey``) -> the facts
        # that agree with them, for every subset of up to INDEXED_SLOTS slots of each fact's
        # key: a claim's lookup, partial key or not, is one dict access (built once per block).
        self._by_key: dict[IndexKey, list[Fact]] = defaultdict(list)
        self._seen: set[Fact] = set()
        self._merged: dict[IndexKey, Sequence[Fact]] = {}
        for fact in facts:
            if fact not in self._seen:
                self._seen.add(fact)
                self._by_type[fact.type].append(fact)
                slots = sorted((slot, _folded(value)) for slot, value in fact.key.items())
                for size in range(1, min(len(slots), INDEXED_SLOTS) + 1):
                    for stated in combinations(slots, size):
                        self._by_key[(fact.type, *chain.from_iterable(stated))].append(fact)

    def __len__(self) -> int:
        return len(self.facts())

    def facts(self, type_: str | None = None) -> list[Fact]:
        if type_ is None:  # grouped by type, types in order of first appearance
            return [fact for name in self._type_order() for fact in self.facts(name)]
        own = list(self._by_type.get(type_, ()))
        return own + self._from_base(self.base.facts(type_)) if self.base is not None else own

    def _type_order(self) -> list[str]:
        names = list(self._by_type)
        if self.base is not None:
            names += [name for name in self.base._type_order() if name not in self._by_type]
        return names

    def candidates(self, claim: Claim) -> list[Fact]:
        """Facts of the claim's type whose key agrees with every slot the claim states."""
        return list(self.lookup(claim))

    def lookup(self, claim: Claim) -> Sequence[Fact]:
        """``candidates(claim)`` without the copy. The sequence may be the index's own:
        read it, never change it."""
        return self.lookup_key(claim.type, claim.key)

    def lookup_key(self, type_: str, key: Mapping[str, object]) -> Sequence[Fact]:
        """``lookup`` of a claim of type ``type_`` stating ``key``: the verifier's per-claim
        path, which has read the claim's fields already."""
        if len(key) == 2:  # the commonest claim; slots are distinct: ordering by name is sorting the pairs
            a, b = key  # the names, then the values: no item tuple built and dropped for each
            x, y = key[a], key[b]
            x = x.casefold() if isinstance(x, str) else x
            y = y.casefold() if isinstance(y, str) else y
            index_key: IndexKey = (type_, a, x, b, y) if a < b else (type_, b, y, a, x)
        elif len(key) == 1:
            (slot,) = key
            value = key[slot]
            index_key = (type_, slot, value.casefold() if isinstance(value, str) else value)
        else:
            index_key = (type_, *chain.from_iterable(sorted((slot, _folded(value)) for slot, value in key.items())))
        if self.base is None:
            if len(index_key) <= _INDEXED_KEY_LEN:  # _own_candidates, inlined
                return self._by_key.get(index_key, ()) if key else self._by_type.get(type_, ())
        else:  # a layered knowledge's remembered answer (see _candidates), inlined
            merged = self._merged.get(index_key)
            if merged is not None:
                return merged
        return self._candidates(index_key)

    def _candidates(self, index_key: IndexKey) -> Sequence[Fact]:
        if self.base is None:
            return self._own_candidates(index_key)
        # Layered: the answer is remembered, since an instance's knowledge answers the same
        # lookups for every system's text (one dict access instead of both layers' and
        # their merge). At most MERGED_LOOKUPS are kept, so a text stating many keys
        # costs time, not memory: a full memo starts over.
        merged = self._merged.get(index_key)
        if merged is None:
            merged = self._merge(index_key)
            if len(self._merged) >= MERGED_LOOKUPS:
                self._merged.clear()
            self._merged[index_key] = merged
        return merged

    def _merge(self, index_key: IndexKey) -> Sequence[Fact]:
        own = self._own_candidates(index_key)
        base = self.base._candidates(index_key)
        if not own:  # a base fact equal to an own fact has its key: it would be among own
            return base
        if not base:
            return own
        shadowed = {_identity(fact) for fact in own}
        return [*own, *(fact for fact in base if _identity(fact) not in shadowed)]

    def _from_base(self, facts: list[Fact]) -> list[Fact]:
        seen = self._seen
        return [fact for fact in facts if fact not in seen] if seen else facts

    def _own_candidates(self, index_key: IndexKey) -> Sequence[Fact]:
        if len(index_key) == 1:  # no slot stated
            return self._by_type.get(index_key[0], ())
        found = self._by_key.get(index_key[:_INDEXED_KEY_LEN], ())
        if len(index_key) <= _INDEXED_KEY_LEN:
            return found
        beyond = index_key[_INDEXED_KEY_LEN:]  # slot, folded value, slot, ...
        return [fact for fact in found
                if all(_folded(fact.key.get(slot)) == value for slot, value in zip(beyond[::2], beyond[1::2]))]


def _identity(fact: Fact) -> tuple[str, str]:
    """What ``Fact`` equality compares (read from the instance dict when cached)."""
    return fact.__dict__.get("identity") or fact.identity


class SharedKnowledge:
    """Knowledge of shared context blocks (one race's data), built once per block.

    Instances of one race carry the same block, either as one object (a file whose
    instances refer to a shared block, see docs/domains/f1.md) or as equal copies (an
    older file, or instances built in memory). A block is found by identity first, then
    by its canonical JSON; at most ``size`` blocks are kept, least recently used first out.
    """

    def __init__(self, build: Callable[[Any], Knowledge], size: int = 64) -> None:
        self._build = build
        self._size = size
        self._by_identity: OrderedDict[int, tuple[Any, Knowledge]] = OrderedDict()
        self._by_json: OrderedDict[str, Knowledge] = OrderedDict()

    def __call__(self, block: Any) -> Knowledge:
        held = self._by_identity.get(id(block))
        if held is not None and held[0] is block:
            self._by_identity.move_to_end(id(block))
            return held[1]
        key = canonical_json(block)
        knowledge = self._by_json.get(key)
        if knowledge is None:
            knowledge = self._build(block)
            self._by_json[key] = knowledge
            if len(self._by_json) > self._size:
                self._by_json.popitem(last=False)
        else:
            self._by_json.move_to_end(key)
        # the block is held beside its knowledge, so its id cannot be reused meanwhile
        self._by_identity[id(block)] = (block, knowledge)
        if len(self._by_identity) > self._size:
            self._by_identity.popitem(last=False)
        return knowledge


def _folded(value: object) -> object:
    return value.casefold() if isinstance(value, str) else value
