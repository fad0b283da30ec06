"""A per-sentence scanner over one text's anchor hits: the surface a grammar's rules read
(issue 28).

A rule scans its patterns through ``SentenceScanner``: ``finditer``, ``search``, ``matches``
and ``until`` from and to offsets, ``any`` of a sentence, ``scans``/``may_match`` for
patterns searched in slices. Each skips a scan where none of the pattern's anchors
stands (``factcov.extractors.anchors``: the scan could match nothing there). The bits of
the anchors, the tables keyed by a pattern, the plans of ``scans`` and the grammar's cue
words live here, not in the rules.

A compiled pattern is keyed by identity (hashing one hashes its whole program):
``PatternKeys`` numbers each pattern and tuple of patterns of a grammar once, in the order
of its fields (the same keys in every process), and is the one place a pattern's identity
is read; the scanner's own tables are built from those keys when the anchors are first
used, so a lookup while reading is one ``dict.get``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable, Iterator, Mapping
from functools import reduce
from operator import or_
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from factcov.extractors.anchors import Anchors, Hits

__all__ = ["Identities", "PatternKeys", "ScannedSentence", "SentenceScanner"]

Held = TypeVar("Held")
Value = TypeVar("Value")


class Identities(Generic[Held, Value]):
    """Values for objects compared by identity (a compiled pattern, a race's block of
    data: objects whose hash reads all of them), at most ``size`` of them, the oldest
    forgotten first. Each object is held with its value, so its id stays its own while it
    is in here."""

    __slots__ = ("_held", "_size")

    def __init__(self, size: int) -> None:
        self._held: dict[int, tuple[Held, Value]] = {}
        self._size = size

    def get(self, item: Held) -> Value | None:
        held = self._held.get(id(item))
        return held[1] if held is not None and held[0] is item else None

    def put(self, item: Held, value: Value) -> Value:
        if len(self._held) >= self._size:
            del self._held[next(iter(self._held))]
        self._held[id(item)] = (item, value)
        return value

    def __len__(self) -> int:
        return len(self._held)


class PatternKeys:
    """Each compiled pattern and each tuple of patterns of a grammar (a dataclass of them)
    numbered once, in the order of the grammar's fields: its key, a small int, the same in
    every process (the name a pattern's anchors go by in ``Anchors``)."""

    def __init__(self, grammar: Any) -> None:
        self.held: list[re.Pattern[str] | tuple[re.Pattern[str], ...]] = []
        self._keys: dict[int, int] = {}  # id -> key: the objects are held, so their ids stay theirs
        for field in dataclasses.fields(grammar):
            value = getattr(grammar, field.name)
            if isinstance(value, re.Pattern):
                self._add(value)
            elif isinstance(value, tuple) and value and all(isinstance(p, re.Pattern) for p in value):
                for pattern in value:
                    self._add(pattern)
                self._add(value)

    def _add(self, item: re.Pattern[str] | tuple[re.Pattern[str], ...]) -> None:
        if id(item) not in self._keys:
            self._keys[id(item)] = len(self.held)
            self.held.append(item)

    def key(self, item: re.Pattern[str] | tuple[re.Pattern[str], ...]) -> int | None:
        """The key of a pattern or tuple of patterns of the grammar (None: not one of its)."""
        return self._keys.get(id(item))

    def by_identity(self, values: Mapping[Hashable, Value]) -> dict[int, Value]:
        """``values`` of keys (other names left out) as the scanner looks them up while
        reading, by the keyed object's identity: one ``dict.get`` per lookup."""
        held = self.held
        return {id(held[name]): value for name, value in values.items()
                if isinstance(name, int) and 0 <= name < len(held)}


_KEYS: Identities[Any, PatternKeys] = Identities(64)  # grammar -> its keys


def pattern_keys(grammar: Any) -> PatternKeys:
    """The keys of ``grammar``'s patterns, numbered when the grammar is first keyed."""
    keys = _KEYS.get(grammar)
    return keys if keys is not None else _KEYS.put(grammar, PatternKeys(grammar))


class ScannedSentence(Protocol):
    """What the scanner reads of a sentence: where it lies, and its anchor mask. A tuple
    whose first two fields are its start and end and whose last is its mask: the scanner
    reads them by position in its hot calls (a ``NamedTuple``'s field by name is a generic
    attribute lookup in CPython 3.11, a few hundred instructions more per text)."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def mask(self) -> int: ...
    def __getitem__(self, index: int) -> Any: ...


class _Nowhere(NamedTuple):
    start: int
    end: int
    mask: int


NOWHERE = _Nowhere(-1, -1, 0)  # the sentence being read before the first
_NONE: Iterator[re.Match[str]] = iter(())  # no match (an exhausted iterator stays exhausted)


class _ScanPlan(NamedTuple):
    """``scans``' answer for a tuple of patterns. The rules ask the same few tuples (held by
    the grammar) in every sentence, and a sentence's mask takes few values on their bits:
    each answered once."""

    bits: int  # its gated patterns' bits, or-ed
    each: tuple[tuple[re.Pattern[str], int, tuple[str, ...] | None], ...]  # pattern, bit (0: never skipped), cue words
    # those bits of a sentence's mask -> the patterns to scan there, or None and the patterns
    # with their cue words (scanned only where one of these stands too)
    chosen: dict[int, tuple[tuple[re.Pattern[str], ...] | None, tuple[tuple[re.Pattern[str], tuple[str, ...] | None], ...]]]


_PLAN_SIZE = 256  # masks per tuple of patterns before its answers start again


class _Gates(NamedTuple):
    """An anchors' bits as the scanner looks them up (by the pattern's identity), and the
    plans of ``scans`` (by the tuple's identity)."""

    bits: dict[int, int]  # every gated pattern's bit
    slice_bits: dict[int, int]  # those whose anchors count anywhere (a slice may be searched)
    plans: dict[int, _ScanPlan]


# id of an anchors (a race's and language's) -> (the anchors, its gates): looked up once a
# text, written out (an ``Identities`` without its method call); the anchors are held, so
# their ids stay theirs while they are in here
_GATES: dict[int, tuple[Anchors, _Gates]] = {}
_GATES_SIZE = 128
_UNGATED = _Gates({}, {}, {})


def _gates(anchors: Anchors, grammar: Any) -> _Gates:
    held = _GATES.get(id(anchors))
    if held is not None and held[0] is anchors:
        return held[1]
    keys = pattern_keys(grammar)
    if len(_GATES) >= _GATES_SIZE:
        del _GATES[next(iter(_GATES))]
    gates = _Gates(keys.by_identity(anchors.bits), keys.by_identity(anchors.slice_bits), {})
    _GATES[id(anchors)] = (anchors, gates)
    return gates


def _plan(gates: _Gates, patterns: tuple[re.Pattern[str], ...], cues: dict[int, tuple[str, ...]]) -> _ScanPlan:
    if len(gates.plans) >= _PLAN_SIZE:
        gates.plans.clear()
    bits = gates.slice_bits
    each = tuple((pattern, bits.get(id(pattern)) or 0, cues.get(id(pattern))) for pattern in patterns)
    plan = gates.plans[id(patterns)] = _ScanPlan(reduce(or_, (bit for _, bit, _ in each), 0), each, {})
    return plan


def _chosen(plan: _ScanPlan, mask: int) -> tuple[tuple[re.Pattern[str], ...] | None,
                                                   tuple[tuple[re.Pattern[str], tuple[str, ...] | None], ...]]:
    """The patterns of ``plan`` to scan in a sentence whose mask on its bits is ``mask``."""
    if len(plan.chosen) >= _PLAN_SIZE:
        plan.chosen.clear()
    here = tuple((pattern, words) for pattern, bit, words in plan.each if not bit or mask & bit)
    plain = None if any(words for _, words in here) else tuple(pattern for pattern, _ in here)
    chosen = plan.chosen[mask] = (plain, here)
    return chosen


class SentenceScanner:
    """The scanner surface of a reader. The reader sets ``folded`` (the text scanned),
    calls ``scan_with(hits, grammar)`` once, and sets ``_here`` to each sentence as it is
    read (a stretch inside it holds no anchor the sentence lacks)."""

    folded: str
    hits: Hits
    # no class value: an instance attribute shadowing one of its class is looked up the slow
    # way in every method (CPython 3.11 does not specialize the lookup)
    _here: ScannedSentence

    def scan_with(self, hits: Hits, grammar: Any) -> None:
        """Gate the scans by the anchors ``hits`` found, whose patterns are ``grammar``'s
        (named by their ``PatternKeys``; its ``scan_cues``, if any, are tested by ``scans``).
        No sentence is being read yet: ``NOWHERE``."""
        self._here = NOWHERE
        self.hits = hits
        self._grammar = grammar
        held = _GATES.get(id(hits.anchors))  # ``_gates`` written out: a call fewer a text
        gates = held[1] if held is not None and held[0] is hits.anchors else _gates(hits.anchors, grammar)
        self._gated = gates
        self._bits = gates.bits
        self._slice_bits = gates.slice_bits

    @property
    def gated(self) -> bool:
        """Scans skipped where their anchors are absent (False: never)."""
        return self._gated is not _UNGATED

    @gated.setter
    def gated(self, gated: bool) -> None:
        self._gated = _gates(self.hits.anchors, self._grammar) if gated else _UNGATED
        self._bits = self._gated.bits
        self._slice_bits = self._gated.slice_bits

    def bit_of(self, pattern: re.Pattern[str]) -> int | None:
        """The bit of ``pattern``'s anchors in a sentence's mask (None: never skipped)."""
        return self._bits.get(id(pattern))

    def key_of(self, pattern: re.Pattern[str]) -> int | None:
        """``pattern``'s key in the grammar (``PatternKeys``), for a reader's own tables."""
        return pattern_keys(self._grammar).key(pattern)

    def may_match(self, pattern: re.Pattern[str], start: int, end: int) -> bool:
        """False when ``pattern`` cannot match inside ``folded[start:end]`` (none of its
        anchors stands there), searched as a slice or not; always True when reading ungated
        and for a pattern whose anchors count only where a word starts (not ``sliced``)."""
        bit = self._slice_bits.get(id(pattern))
        if bit is None:  # a pattern without anchors (or reading ungated): never skipped
            return True
        here = self._here
        if here[0] <= start and end <= here[1]:  # in the sentence: skipped when it holds no anchor
            return bool(here[-1] & bit)
        return self.hits.present_bit(bit, start, end)

    def any(self, pattern: re.Pattern[str], sentence: ScannedSentence) -> bool:
        """False when ``pattern`` cannot match anywhere in ``sentence`` as ``finditer`` and
        ``search`` scan it (none of its anchors stands there: at word starts where the
        pattern wants a ``\\b`` there); always True for a pattern never skipped and when
        reading ungated. Asked once by a rule that then scans the pattern in several
        stretches of the sentence, or with its own loop (the test of a bit, not a call per scan)."""
        bit = self._bits.get(id(pattern))
        return bit is None or bool(sentence[-1] & bit)

    def matches(self, pattern: re.Pattern[str], sentence: ScannedSentence) -> list[re.Match[str]]:
        """``pattern``'s matches in ``sentence``, none scanned where none of its anchors
        stands there (``any`` and ``finditer`` in one call)."""
        bit = self._bits.get(id(pattern))
        if bit is None or sentence[-1] & bit:
            return list(pattern.finditer(self.folded, sentence[0], sentence[1]))
        return []

    def finditer(self, pattern: re.Pattern[str], start: int, end: int) -> Iterator[re.Match[str]]:
        """``pattern``'s matches in ``folded[start:end]``, skipped where none of its anchors stands."""
        # ``may_match`` written out (the rules ask this some seventy times a text): a stretch
        # of the current sentence is skipped when the sentence holds none of its anchors
        bit = self._bits.get(id(pattern))
        if bit is not None:
            here = self._here
            if here[0] <= start and end <= here[1]:
                return pattern.finditer(self.folded, start, end) if here[-1] & bit else _NONE
            if not self.hits.present_bit(bit, start, end):
                return _NONE
        return pattern.finditer(self.folded, start, end)

    def search(self, pattern: re.Pattern[str], start: int, end: int) -> re.Match[str] | None:
        """``pattern``'s first match in ``folded[start:end]``, skipped where none of its anchors stands."""
        bit = self._bits.get(id(pattern))  # ``may_match`` written out, as in ``finditer``
        if bit is not None:
            here = self._here
            if here[0] <= start and end <= here[1]:
                return pattern.search(self.folded, start, end) if here[-1] & bit else None
            if not self.hits.present_bit(bit, start, end):
                return None
        return pattern.search(self.folded, start, end)

    def until(self, patterns: tuple[re.Pattern[str], ...], start: int, end: int) -> int:
        """Where ``folded[start:end]`` is cut by the first match of each of ``patterns`` in
        turn (a scope's end: ``end`` cut at the first match of the first pattern, that cut
        at the first match of the second inside it, ...); ``search`` for each."""
        folded = self.folded
        bits = self._bits
        here = self._here
        for pattern in patterns:
            bit = bits.get(id(pattern))  # ``search`` written out (a call per pattern saved)
            if bit is not None and not (here[-1] & bit if here[0] <= start and end <= here[1]
                                        else self.hits.present_bit(bit, start, end)):
                continue
            found = pattern.search(folded, start, end)
            if found is not None:
                end = found.start()
        return end

    def scans(self, patterns: tuple[re.Pattern[str], ...]) -> list[re.Pattern[str]]:
        """Those of ``patterns`` that may match in the current sentence (one of their
        anchors stands there, see ``may_match``, and one of their cue words, if the grammar
        has any for them: ``scan_cues``): the rest are not scanned."""
        gates = self._gated
        if gates is _UNGATED:
            return list(patterns)
        plan = gates.plans.get(id(patterns))
        if plan is None:
            plan = _plan(gates, patterns, self.cue_table())
        here = self._here
        mask = here.mask & plan.bits  # the sentence's anchors of these patterns
        chosen = plan.chosen.get(mask)
        if chosen is None:
            chosen = _chosen(plan, mask)
        plain, cued = chosen
        if plain is not None:
            return list(plain)  # the caller's own (a rule may drop one)
        said = self.folded[here.start: here.end]  # one of its cue words stands in every match of a pattern
        scanned = []
        for pattern, words in cued:
            if words is not None:
                for word in words:  # a loop of ``in`` written out: asked of most sentences saying "stop"
                    if word in said:
                        break
                else:
                    continue
            scanned.append(pattern)
        return scanned

    def cue_table(self) -> dict[int, tuple[str, ...]]:
        """The grammar's ``scan_cues`` ((pattern, words) pairs: words one of which stands in
        each match of the pattern besides its anchors) as the plans of ``scans`` look them
        up (asked when a plan is made)."""
        return {id(pattern): words for pattern, words in getattr(self._grammar, "scan_cues", ())}
