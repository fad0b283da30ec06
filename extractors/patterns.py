"""Building blocks of a slot-style extractor, so a domain's extractor is a table of patterns.

- ``Lexicon``: the names of an instance's entities (aliases, full names, surnames) and
  the canonical value each stands for, as one regular-expression alternation (longest
  name first), plus canonical codes accepted when written verbatim (``VER`` but not
  ``ver``);
- ``compile_table``: patterns per claim type with ``{slot}`` placeholders, compiled once
  per set of slot values (a space matches any run of whitespace);
- ``SpanMask``: spans already read, so each stretch of text is read once;
- ``negated``: whether a negation cue opens the clause before a match;
  ``negated_right_before``: whether one is the word right before it ("no rain");
- number words: ``NUMBER`` and ``ORDINAL`` slots per language and their parsers, from
  ``factcov.language``;
- ``dedupe``: claims in text order, the same claim read from overlapping phrases once
  (``ClaimSet``: the same while reading, the first reading kept);
- ``alternation``: any of a list of words, as a trie (fast to scan for; ``factcov.language``'s);
- ``TableExtractor``: an ``Extractor`` over these: a subclass gives ``patterns``, its
  ``lexicon(instance)`` and ``read(claim_type, match, entity)`` and nothing else.

Matching runs on the accent- and case-folded text (``factcov.language.fold`` keeps
offsets), so spans index the original text.
"""

from __future__ import annotations

import re
from bisect import bisect_right, insort
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import Any, ClassVar

from factcov.extractor import Extractor
from factcov.extractors.claims import trusted_claim
from factcov.extractors.spans import SpanSet
from factcov.language import (  # Lexicon: re-exported, its public home before factcov.language
    Lexicon,
    alternation,
    fold,
    number_pattern,
    ordinal_pattern,
    parse_number,
    parse_ordinal,
)
from factcov.model import Claim, Instance

__all__ = [
    "ClaimSet", "Lexicon", "SpanMask", "TableExtractor", "alternation", "compile_table", "dedupe", "negated",
    "negated_right_before", "number_slots",
    "parse_number", "parse_ordinal",
]

# Words that deny what follows in the same clause ("did not reach Q3", "no pit stop").
NEGATION_CUES: dict[str, tuple[str, ...]] = {
    "en": ("not", "no", "never", "neither", "nor", "didn't", "don't", "doesn't", "wasn't", "weren't",
           "isn't", "hasn't", "haven't", "hadn't", "won't", "couldn't", "failed to", "without"),
    "es": ("no", "nunca", "jamas", "ni", "sin", "tampoco"),
    "pt": ("nao", "nunca", "jamais", "nem", "sem", "tampouco"),
}
# Where a clause ends, looking back from a match: a negation before it says nothing of it.
CLAUSE_BREAK = re.compile(r"[.;:!?\n]|,\s*(?:but|while|and|pero|mientras|mas|enquanto)\b|\b(?:but|pero|mas)\b")


def number_slots(language: str) -> dict[str, str]:
    """``{number}`` (digits or number words) and ``{ordinal}`` ("3rd", "third") slots of a language."""
    return {"number": rf"(?:\d+|{number_pattern(language)})", "ordinal": ordinal_pattern(language)}


def spaces_as_whitespace(pattern: str) -> str:
    """Every space of a table pattern as ``\\s+`` (any run of whitespace), except where that
    would change what the pattern means: inside a look-behind (``(?<=lap )``, ``(?<!no )``),
    which must keep a fixed width, inside a character class (``[ ,]``) and after a backslash."""
    out: list[str] = []
    behind: list[int] = []  # depth of parentheses of each open look-behind
    depth, class_start = 0, -1  # class_start: where the open character class's members begin
    escaped = False
    for index, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif class_start >= 0:
            if char == "]" and index > class_start:  # "[]x]", "[^]x]": a first "]" is a member
                class_start = -1
        elif char == "[":
            class_start = index + (2 if pattern.startswith("^", index + 1) else 1)
        elif char == "(":
            depth += 1
            if pattern.startswith(("?<=", "?<!"), index + 1):
                behind.append(depth)
        elif char == ")":
            if behind and behind[-1] == depth:
                behind.pop()
            depth -= 1
        elif char == " " and not behind:
            out.append(r"\s+")
            continue
        out.append(char)
    return "".join(out)


@lru_cache(maxsize=256)
def _compile_table(
    patterns: tuple[tuple[str, tuple[str, ...]], ...], slots: tuple[tuple[str, str], ...]
) -> dict[str, list[re.Pattern[str]]]:
    def fill(pattern: str) -> str:
        for name, value in slots:
            pattern = pattern.replace("{" + name + "}", value)
        return spaces_as_whitespace(pattern)

    return {claim_type: [re.compile(fill(p)) for p in group] for claim_type, group in patterns}


def compile_table(patterns: Mapping[str, Sequence[str]], slots: Mapping[str, str]) -> dict[str, list[re.Pattern[str]]]:
    """Every claim type's patterns with ``{slot}`` replaced by its regex; cached per slot values."""
    return _compile_table(
        tuple((t, tuple(group)) for t, group in patterns.items()), tuple(sorted(slots.items()))
    )


@dataclass
class SpanMask:
    """Spans already read: a later, overlapping reading of the same text is refused.

    ``spans`` lists the spans taken, in the order taken. The overlap test looks the
    characters up in a byte per character, not through every span taken (a list scanned
    for each match made a long text quadratic, see ``factcov.extractors.spans``).
    """

    spans: list[tuple[int, int]] = field(default_factory=list)
    _read: bytearray = field(default_factory=bytearray, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for start, end in self.spans:
            self._mark(start, end)

    def overlaps(self, span: tuple[int, int]) -> bool:
        start, end = span
        if start >= end:  # an empty span overlaps a span it lies strictly inside
            return any(s < start < e for s, e in self.spans)
        return self._read.find(1, start, end) != -1

    def take(self, span: tuple[int, int]) -> bool:
        """Mark ``span`` read; False (and nothing marked) when part of it was read already."""
        start, end = span
        read = self._read
        if read.find(1, start, end) != -1 if start < end else self.overlaps(span):
            return False
        self._mark(start, end)
        self.spans.append(span)
        return True

    def _mark(self, start: int, end: int) -> None:
        read = self._read
        if end > len(read):
            read.extend(bytes(end - len(read)))
        read[start:end] = b"\x01" * (end - start)


def negated(folded: str, start: int, language: str = "en", window: int = 60) -> bool:
    """Whether a negation cue stands in the clause that ends at ``start`` (folded text)."""
    before = folded[max(0, start - window) : start]
    breaks = list(CLAUSE_BREAK.finditer(before))
    clause = before[breaks[-1].end() :] if breaks else before
    words = " " + " ".join(re.findall(r"[\w']+", clause)) + " "
    return any(f" {cue} " in words for cue in NEGATION_CUES.get(language, ()))


def negated_right_before(
    folded: str, start: int, language: str = "en", window: int = 10, cues: Collection[str] | None = None
) -> bool:
    """Whether a negation cue is the word right before ``start`` in the folded text ("no
    rain", "sin lluvia", "sem chuva"): the phrase read there is denied. Narrower than
    ``negated``: a cue earlier in the clause ("not as cold, with rain") denies nothing.
    ``window``: how many characters before ``start`` the cue and its spaces may take;
    ``cues``: the words (default: the language's ``NEGATION_CUES``)."""
    words = tuple(NEGATION_CUES.get(language, ())) if cues is None else tuple(cues)
    return _cue_right_before(words).search(folded, max(0, start - window), start) is not None


@lru_cache(maxsize=64)
def _cue_right_before(cues: tuple[str, ...]) -> re.Pattern[str]:
    # flat, longest first, a space as written ("failed to"): the cue is searched right before a position
    return re.compile(r"\b(?:" + alternation(cues, space=re.escape(" "), trie=False) + r")\s+$" if cues else r"(?!)")


def dedupe(claims: Iterable[Claim]) -> list[Claim]:
    """Claims in text order; the same claim (type, key, value) read from overlapping phrases once."""
    kept: list[Claim] = []
    # per claim (by a hashable form equal where the claims are ==): the spans kept, which
    # never overlap one another (an overlapping one is dropped), found by bisection; a
    # list scanned for every claim made a long text quadratic
    spans: dict[Any, SpanSet] = {}
    points: dict[Any, list[int]] = {}  # where claims kept with an empty span stand
    for claim in sorted(claims, key=lambda c: (c.span or (0, 0), c.type, str(c.key), str(c.value))):
        start, end = claim.span or (0, 0)
        same = _frozen((claim.type, claim.key, claim.value))
        held, at = spans.get(same), points.get(same)
        if held is not None and held.overlaps(start, end):
            continue  # a kept span shares a character with it (or holds an empty one inside)
        if at is not None and start < end:
            index = bisect_right(at, start)
            if index < len(at) and at[index] < end:
                continue  # an empty kept span lies strictly inside it
        if start < end:
            spans.setdefault(same, SpanSet()).add(start, end)
        else:
            insort(points.setdefault(same, []), start)
        kept.append(claim)
    return kept


def _frozen(value: Any) -> Any:
    """``value`` as a hashable that is equal exactly where values are == (1 and 1.0 too)."""
    if isinstance(value, dict):
        return ("dict", frozenset((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_frozen(item) for item in value))
    try:
        hash(value)
    except TypeError:
        return ("repr", repr(value))
    return value


class TableExtractor(Extractor):
    """A slot-style extractor as data: ``patterns`` per claim type over named slots.

    Each pattern names its entity with the slot ``{entity_slot}`` (one entity, group
    ``<entity_slot>``) or a list of them (group ``<entity_slot>s``, e.g. "A, B and C"
    written with ``{entity_slot}`` inside); every entity the lexicon finds in that group
    gives one claim, whose key and value ``read`` returns. Subclasses give:

    - ``patterns``: ``{claim_type: (pattern, ...)}``;
    - ``lexicon(instance)``: the instance's entity names;
    - ``slots(instance)``: other slots (default: ``{number}`` and ``{ordinal}``);
    - ``read(claim_type, match, entity)``: ``(key, value)``, or None to skip; written
      ``read(claim_type, match, entity, instance)`` it also gets the instance the text is
      about (its context holds the data a reading may need).
    """

    patterns: ClassVar[Mapping[str, Sequence[str]]] = {}
    entity_slot: ClassVar[str] = "entity"

    def lexicon(self, instance: Instance) -> Lexicon:  # pragma: no cover - abstract
        raise NotImplementedError

    def slots(self, instance: Instance) -> dict[str, str]:
        return number_slots(self.language)

    def read(self, claim_type: str, match: re.Match[str], entity: str) -> tuple[dict[str, Any], Any] | None:
        raise NotImplementedError  # pragma: no cover - abstract

    def extract(self, text: str, instance: Instance) -> list[Claim]:
        folded = fold(text)
        lexicon = self.lexicon(instance)
        grammar = compile_table(self.patterns, {**self.slots(instance), self.entity_slot: lexicon.pattern})
        many, one = self.entity_slot + "s", self.entity_slot
        with_instance = _read_takes_instance(type(self))
        claims: list[Claim] = []
        for claim_type, compiled in grammar.items():
            for pattern in compiled:
                for match in pattern.finditer(folded):
                    groups = match.groupdict()
                    group = many if groups.get(many) else one
                    for entity, _ in lexicon.find(folded, text, *match.span(group)):
                        read = (self.read(claim_type, match, entity, instance) if with_instance  # type: ignore[call-arg]
                                else self.read(claim_type, match, entity))
                        if read is None:
                            continue
                        key, value = read
                        claims.append(Claim(type=claim_type, key=key, value=value, span=match.span(),
                                            text=text[match.start() : match.end()], extractor=self.name))
        return dedupe(claims)


@lru_cache(maxsize=256)
def _read_takes_instance(cls: type[TableExtractor]) -> bool:
    """Whether a table extractor's ``read`` takes the instance (a fourth parameter)."""
    import inspect

    parameters = list(inspect.signature(cls.read).parameters.values())[1:]  # after self
    return len(parameters) >= 4 or any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters)


class ClaimSet:
    """Claims as a reader finds them: the same claim (type, key and value) read again from
    overlapping words is kept once, the first reading winning.

    ``dedupe`` does this for a finished list, in text order; a reader whose later rules
    look at the claims read so far (``claims``, in reading order) keeps them here as it
    goes. ``add`` builds the claim (span, the words it was read from, the extractor's
    name) only when it is kept, with ``trusted_claim``: the reader's grammar guarantees
    the types (a key of scalars without None, a span inside the text), so the claim is
    not validated again; ``in_text_order()`` is the result.
    """

    def __init__(self, text: str, extractor: str) -> None:
        self.text = text
        self.extractor = extractor
        self.claims: list[Claim] = []
        # claim -> where it was read: the one span of a claim read once (most are), a
        # SpanSet once it is read again
        self._read: dict[tuple[Any, ...], tuple[int, int] | SpanSet] = {}

    def add(self, claim_type: str, key: dict[str, Any], value: Any, start: int, end: int) -> bool:
        """Keep the claim read from ``text[start:end]``; False when it was read already from
        overlapping words."""
        # the key as its items, in any order (keys equal as dicts give equal slots): one slot
        # or none as it is; two (the commonest) flat in name order, one tuple to build and
        # hash; more as a set of items (a key's names are distinct, so two keys' sets are
        # equal exactly when their sorted items are). Each form has its own length or type.
        size = len(key)
        if size == 2:
            a, b = key
            slots: tuple[Any, ...] | frozenset[tuple[str, Any]] = (
                (a, key[a], b, key[b]) if a < b else (b, key[b], a, key[a]))
        else:
            slots = tuple(key.items()) if size < 2 else frozenset(key.items())
        signature = (claim_type, slots, repr(value))
        span = (start, end)
        read = self._read.setdefault(signature, span)  # the first reading (most claims): kept as is
        if read is not span:
            if isinstance(read, tuple):
                read = self._read[signature] = SpanSet([read])
            if not read.add(start, end):
                return False
        self.claims.append(trusted_claim(claim_type, key, value, span, self.text[start:end], self.extractor))
        return True

    def in_text_order(self) -> list[Claim]:
        # every claim here has a span: sorted by (span, type) with the key read in C
        return sorted(self.claims, key=_SPAN_AND_TYPE)


_SPAN_AND_TYPE = attrgetter("span", "type")
