"""Anchor words of regular expressions: skip a scan when no match can exist.

``anchors(pattern)`` works out, from the compiled pattern itself, a set of literal
strings such that every match of the pattern contains at least one of them ("stop" for
``\\b(\\d+)[- ]stops?\\b``; "won", "win", "victor" for ``\\b(?:won|win|victory)\\b``). When
none occurs in a stretch of text, no match lies inside it, so a rule triggered by the
pattern can be skipped there without reading it. Finding a literal is ``str.find``
(a fast substring search), far cheaper than a scan by Python's backtracking engine of a
pattern that opens with a long alternation.

The analysis is sound by construction and conservative: anything it does not
understand (character categories, back references, case-insensitive matching) counts
as "may match anything", and a pattern without anchors is never skipped (``Anchors``
then says "present" everywhere). Zero-width items (``\\b``, lookarounds) consume no
text, so they do not break a run of literals.

``Anchors({rule: patterns})``: the anchors of several rules, found in one pass over a
text (``Anchors(...).find(text).present(rule, start, end)``).

The analysis of a pattern (``anchors``, ``word_start_anchors``, ``piece_anchor_sets``) is a
function of its source and flags and of the code that does it: its results are kept on
disk between runs, as ``compile_fast`` keeps its programs (``extractors/program_cache.py``,
a file "regex-anchors-<key>" whose key digests this interpreter and the source of this
module, ``re._parser`` and ``re._constants``; ``FACTCOV_CACHE_DIR=off``: none kept).

``word_start_anchors(pattern)`` also says which literals the pattern needs a word boundary
before ("is" of ``\\b(?:was|is)\\s``): for rules that scan the whole text from and to
offsets (never a slice), ``Anchors(rules, word_start=...)`` counts such a literal only
where a word starts there, so "is" in "his" wakes none of them.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, reduce
from itertools import compress, product, repeat
from operator import and_, ge, itemgetter, or_, sub
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as P  # type: ignore[attr-defined]
from typing import Any

from factcov.extractors.program_cache import MISSING, ProgramCache, cache_dir, code_key

__all__ = ["Anchors", "Hits", "anchors", "word_start", "word_start_anchors"]

# Sets of exact strings larger than this are not expanded (their required literals are
# used instead): a product of alternations grows fast and each string costs one find.
_MAX_EXACT = 64
# A character class expands to its characters only when this small ("[- ]", "[ºª°]").
_MAX_CLASS = 8

_Set = frozenset[str]


@dataclass(frozen=True)
class _Info:
    """What a piece of a pattern matches: exactly one of ``exact`` (when finite and
    small), and one of ``required`` as a substring (None: nothing is known)."""

    exact: _Set | None
    required: _Set | None


_ANYTHING = _Info(None, None)
_EMPTY = _Info(frozenset({""}), None)
# A word boundary (``\b``) inside an exact string, when boundaries are kept (``marks``): it
# consumes nothing, but a literal that opens with one is found only where a word starts
# (or ends): "\x00is" is "is" in "it is", not in "his".
_B = "\x00"
_BOUNDARY = _Info(frozenset({_B}), None)


def _length(string: str) -> int:
    """The characters of a text a literal takes (a boundary takes none)."""
    return len(string) - string.count(_B)


@lru_cache(maxsize=8192)
def _useful(strings: _Set | None) -> _Set | None:
    """The set without strings that contain another member (finding the shorter one is
    enough); None when it holds the empty string (or only boundaries), which every text contains."""
    if strings is None or "" in strings or any(not _length(s) for s in strings):
        return None
    return frozenset(s for s in strings if not any(o != s and o in s for o in strings))


def _better(a: _Set | None, b: _Set | None) -> _Set | None:
    """The more selective of two anchor sets: longer shortest literal, then fewer literals."""
    a, b = _useful(a), _useful(b)
    if a is None:
        return b
    if b is None:
        return a
    score_a = (min(4, min(map(_length, a))), -len(a), min(map(_length, a)))
    score_b = (min(4, min(map(_length, b))), -len(b), min(map(_length, b)))
    return a if score_a >= score_b else b


def _class(items: list[tuple[object, object]]) -> _Info:
    chars: set[str] = set()
    for op, arg in items:
        if op is C.LITERAL:
            chars.add(chr(arg))  # type: ignore[arg-type]
        elif op is C.RANGE and arg[1] - arg[0] < _MAX_CLASS:  # type: ignore[index,operator]
            chars.update(chr(c) for c in range(arg[0], arg[1] + 1))  # type: ignore[index,operator]
        else:  # NEGATE, CATEGORY, a wide range: too many characters
            return _ANYTHING
    if len(chars) > _MAX_CLASS:
        return _ANYTHING
    return _Info(frozenset(chars), None)


def _sequence(items: Iterable[tuple[object, object]], marks: bool = False) -> _Info:
    """A concatenation: exact strings multiply; every maximal run of exact pieces, and
    every piece's own anchors, is a valid anchor set of the whole; the best one is kept."""
    candidates, run, complete = _runs(items, marks)
    if complete:
        return _Info(run, _useful(run))
    return _Info(None, reduce(_better, [*candidates, run], None))


def _runs(items: Iterable[tuple[object, object]], marks: bool = False) -> tuple[list[_Set | None], _Set, bool]:
    """A concatenation's anchor sets but its last run of exact pieces, in order (each maximal
    run ended by too many strings or by a piece not exact, and each such piece's own); that
    last run; whether it is the whole (every piece exact, their product small)."""
    candidates: list[_Set | None] = []
    run: _Set = frozenset({""})
    complete = True
    for item in items:
        info = _item(*item, marks)
        if info.exact is not None:
            joined = _join(run, info.exact)
            if joined is None:  # too many strings: the run so far is a candidate, a new one starts
                candidates.append(run)
                run, complete = info.exact, False
            else:
                run = joined
            continue
        candidates += [run, info.required]  # the run ends at a piece not exact
        run, complete = frozenset({""}), False
    return candidates, run, complete


@lru_cache(maxsize=1)
def _store() -> ProgramCache:
    """The analyses of earlier runs (see the module's docstring), read on first use."""
    return ProgramCache(code_key(P, C, sys.modules[__name__]), cache_dir(), name="regex-anchors")


def _stored(kind: str, source: str, flags: int, marks: bool, analyse: Any) -> Any:
    """``analyse()``, the analysis ``kind`` of (``source``, ``flags``, ``marks``), read from
    the disk cache when an earlier run kept it (else worked out and kept)."""
    store = _store()
    found = store.get(kind, source, flags, marks)
    if found is MISSING:
        found = analyse()
        store.put(kind, source, flags, marks, found)
    return found


def piece_anchor_sets(source: str, flags: int) -> list[_Set]:
    """Every anchor set of a pattern's top-level sequence, not only the best (``anchors``):
    each maximal run of exact pieces and each other piece's required literals, in order."""
    return list(_piece_anchor_sets(source, flags))  # a list of the caller's own


@lru_cache(maxsize=1024)
def _piece_anchor_sets(source: str, flags: int) -> tuple[_Set, ...]:
    return _stored("pieces", source, flags, False, lambda: _analyse_pieces(source, flags))


def _analyse_pieces(source: str, flags: int) -> tuple[_Set, ...]:
    candidates, run, _complete = _runs(P.parse(source, flags))
    return tuple(found for found in map(_useful, [*candidates, run]) if found)


def _join(left: _Set, right: _Set) -> _Set | None:
    # a boundary alone on one side multiplies nothing: kept on each string of the other
    if len(left) * len(right) > _MAX_EXACT and left != _BOUNDARY.exact and right != _BOUNDARY.exact:
        return None
    return frozenset(map(_opening_boundary_only, (a + b for a, b in product(left, right))))


def _opening_boundary_only(string: str) -> str:
    """``string`` with a boundary kept only where it opens it (the only one looked for:
    the others would make strings that differ only by them, "\\x00won" and "\\x00won\\x00")."""
    if _B not in string[1:]:
        return string
    return (_B if string.startswith(_B) else "") + string.replace(_B, "")


def _item(op: object, arg: object, marks: bool = False) -> _Info:
    if op is C.LITERAL:
        return _Info(frozenset({chr(arg)}), None)  # type: ignore[arg-type]
    if op is C.IN:
        return _class(arg)  # type: ignore[arg-type]
    if op is C.AT and arg is C.AT_BOUNDARY and marks:
        return _BOUNDARY
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return _EMPTY  # zero width: consumes nothing
    if op is C.SUBPATTERN:
        _group, add_flags, _del_flags, sub = arg  # type: ignore[misc]
        if add_flags & re.IGNORECASE:
            return _ANYTHING
        return _sequence(sub, marks)
    if op is getattr(C, "ATOMIC_GROUP", None):
        return _sequence(arg, marks)  # type: ignore[arg-type]
    if op is C.BRANCH:
        return _branch(arg[1], marks)  # type: ignore[index]
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)):
        low, high, sub = arg  # type: ignore[misc]
        info = _sequence(sub, marks)
        if low == 0:
            if high == 1 and info.exact is not None:
                return _Info(info.exact | {""}, None)
            return _ANYTHING
        if low == high == 1:
            return info
        return _Info(None, info.exact if info.exact is not None else info.required)
    return _ANYTHING  # ANY, NOT_LITERAL, GROUPREF, ...: may match anything


def _branch(alternatives: list[object], marks: bool = False) -> _Info:
    infos = [_sequence(alternative, marks) for alternative in alternatives]  # type: ignore[arg-type]
    exact: _Set | None = frozenset()
    for info in infos:
        if exact is None or info.exact is None or len(exact) + len(info.exact) > _MAX_EXACT:
            exact = None
            break
        exact = exact | info.exact
    required: set[str] = set()
    for info in infos:
        own = _better(_useful(info.exact) if info.exact is not None else None, info.required)
        if own is None:  # one alternative may match without any literal: the whole may too
            return _Info(exact, None)
        required |= own
    return _Info(exact, _useful(frozenset(required)))


@lru_cache(maxsize=1024)
def _anchors(source: str, flags: int, marks: bool = False) -> _Set | None:
    if flags & re.IGNORECASE:
        return None
    return _stored("anchors", source, flags, marks, lambda: _analyse(source, flags, marks))


def _analyse(source: str, flags: int, marks: bool) -> _Set | None:
    info = _sequence(P.parse(source, flags), marks)
    return _better(_useful(info.exact) if info.exact is not None else None, info.required)


def word_start_anchors(pattern: re.Pattern[str]) -> dict[str, bool] | None:
    """``anchors(pattern)``, each literal with whether the pattern requires a word boundary
    (``\\b``) right before it: literal -> True when every match that holds it holds it
    where a word starts or ends (the characters on both sides of its start differ in
    being word characters). None when the pattern may match without any literal.

    The boundary is the one the engine tests when the pattern scans the whole text from
    and to offsets (``pattern.finditer(text, pos, endpos)``: the character before ``pos``
    counts), not a slice of it, whose first character has nothing before it."""
    if pattern.flags & (re.ASCII | re.LOCALE):  # another idea of a word character: no boundaries
        found = _anchors(pattern.pattern, pattern.flags)
        return None if found is None else dict.fromkeys(found, False)
    marked = _anchors(pattern.pattern, pattern.flags, True)
    if marked is None:
        return None
    literals: dict[str, bool] = {}
    for string in marked:
        text = string.replace(_B, "")
        # the same text with and without a boundary before it: found anywhere
        literals[text] = literals.get(text, True) and string.startswith(_B)
    return literals


def word_start(text: str, start: int) -> bool:
    """Whether ``\\b`` holds at ``text[start]`` (a word character on one side only; before
    the text is no word character): the engine's own test."""
    return _AT_BOUNDARY(text, start) is not None


_AT_BOUNDARY = re.compile(r"\b").match
_AT_WORD_CHARACTER = re.compile(r"\w").match
_WORD_CHARACTERS = re.compile(r"\w+").fullmatch
_SHORT_WORD = 2  # a literal this short stands inside most words: looked for where a word starts
_LAST = itemgetter(0)  # a hit's last character, in the automaton's (last, value)
_PAST_LATIN1 = 0x3F  # "?": what ``str.encode("latin-1", "replace")`` makes of a character past Latin-1
_PAST_LATIN1_BYTE = b"?"
# each Latin-1 character's byte, or a space for one that is no word character (as the
# engine's ``\w`` and ``\b`` tell them: ``str.isalnum`` or "_"); "?" (no word character)
# stays "?", the mark of a character that may be either
_WORD_MARKS = bytes(byte if chr(byte).isalnum() or byte in (0x5F, _PAST_LATIN1) else 0x20 for byte in range(256))


def _word_marks(text: str) -> bytes:
    """A byte per character of ``text``: a space (32) where the character is no word
    character, "?" where it is past Latin-1 ("’", "ж") or "?" itself (the engine tells
    which), else the character's own byte (an encoding and a table, in C: no step of
    Python per character)."""
    return text.encode("latin-1", "replace").translate(_WORD_MARKS)


def shortest_match(pattern: re.Pattern[str]) -> int:
    """The fewest characters a match of ``pattern`` spans: a shorter stretch holds none."""
    return int(P.parse(pattern.pattern, pattern.flags).getwidth()[0])


def anchors(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Literals one of which every match of ``pattern`` contains; None when the pattern
    may match without any literal (then it can never be skipped)."""
    return _anchors(pattern.pattern, pattern.flags)


def _rule_literals(patterns: Iterable[re.Pattern[str]],
                   word_start: bool) -> tuple[frozenset[str] | None, frozenset[str]]:
    """The literals anchoring a rule scanning ``patterns`` (None: it may match without
    any), and those of them counted only where a word starts (``word_start``: the rule's
    patterns scan only the whole text, see ``Anchors``)."""
    literals: set[str] | None = set()
    boundary: dict[str, bool] | None = {}
    for pattern in patterns:
        found = anchors(pattern)
        if found is None:
            return None, frozenset()
        literals |= found  # type: ignore[operator]
        if boundary is not None and word_start:
            marked = word_start_anchors(pattern)
            boundary = None if marked is None else {
                **boundary, **{t: boundary.get(t, True) and b for t, b in marked.items()}}
    if boundary and any(boundary.values()):
        # the literals with their boundaries, when any is required (the two analyses
        # may choose different sets: each is sound, the one with boundaries is kept;
        # none is dropped for holding another: "this" holds "is", not "\bis")
        return frozenset(boundary), frozenset(t for t, b in boundary.items() if b)
    return _useful(frozenset(literals)), frozenset()  # type: ignore[arg-type]


class Anchors:
    """The anchors of named rules, found in a text in one pass.

    ``Anchors({rule: (pattern, ...)})``; ``anchors.find(text)`` gives the ``Hits`` of
    every rule's literals (an Aho-Corasick automaton: one scan however many literals);
    ``hits.present(rule, start, end)`` is False only when none of the rule's patterns can
    match inside ``text[start:end]``. A rule with a pattern that has no anchors, or a
    name the anchors were not given, is always present. Names may be any hashable
    (cheap to hash: not a compiled pattern, whose hash covers its whole program).

    Each rule that can be skipped has a bit (``bits``); a hit carries the bits of the
    rules its literal anchors, so the rules present in a stretch are one integer
    (``hits.mask(start, end)``), tested with ``&``.
    """

    def __init__(self, rules: Mapping[Hashable, Iterable[re.Pattern[str]]],
                 word_start: Collection[Hashable] = (),
                 literal_anchors: Mapping[Hashable, Collection[str]] | None = None,
                 apart: Collection[Hashable] = ()) -> None:
        """``word_start``: names whose patterns are only ever scanned over the whole text
        (``pattern.finditer(text, pos, endpos)``, never a slice): a literal such a pattern
        requires a word boundary before (``\\bwon``) counts for them only where one stands
        (``word_start_anchors``), so "is" in "his" does not wake a rule looking for "\\bis".

        ``literal_anchors``: names whose anchors are given as strings, not worked out from patterns
        (the f1 drivers' names): every occurrence of each is a hit, anywhere, none dropped
        for holding another (a caller may read where they stand: ``spans``). Their bits
        follow the rules'.

        ``apart``: names whose ``spans`` a caller asks for (the f1 mentions'): the hits of
        their literals are also listed apart, so ``spans`` of one passes over those few,
        not over every hit of the text."""
        import ahocorasick  # a C automaton; imported here so the module loads without it

        self.literals: dict[Hashable, frozenset[str] | None] = {}
        opening: dict[Hashable, frozenset[str]] = {}  # literals counted only where a word starts
        by_literal: dict[str, list[Hashable]] = {}
        for rule, patterns in rules.items():
            self.literals[rule], opens = _rule_literals(patterns, rule in word_start)
            if opens:
                opening[rule] = opens
            for literal in self.literals[rule] or ():
                by_literal.setdefault(literal, []).append(rule)
        self._add_literal_anchors(literal_anchors or {}, by_literal)
        self.always = frozenset(rule for rule, literals in self.literals.items() if literals is None)
        self.gated = frozenset(self.literals) - self.always
        self.bits: dict[Hashable, int] = {
            rule: 1 << index for index, rule in enumerate(r for r in self.literals if r in self.gated)
        }
        # the bits of the names whose every literal counts wherever it stands: a gate for a
        # scan of a slice too (where ``\\b`` holds at the slice's start, word or not)
        self.slice_bits = {rule: bit for rule, bit in self.bits.items() if not opening.get(rule)}
        self.apart = frozenset(apart) & frozenset(self.bits)
        # whether every literal counted only where a word starts opens with a word character
        # (then ``find`` tells a word start by the character before it, see ``_word_marks``)
        self._opens_words = all(_AT_WORD_CHARACTER(literal) for literal, owners in by_literal.items()
                                if any(literal in opening.get(rule, ()) for rule in owners))
        self._automaton = ahocorasick.Automaton()
        self._word_start = bool(opening)
        # short words counted only where a word starts ("e", "is"): found by a byte search
        # for a word start before them (see ``_word_marks``), not by the automaton, which
        # would report each inside most words ("is" in "his", "e" in "parada")
        self._short_words: list[tuple[bytes, bytes, int, tuple[object, ...]]] = []  # see ``_find_short_words``
        for literal, owners in by_literal.items():
            self._add_literal(literal, owners, opening)
        if len(self._automaton):
            self._automaton.make_automaton()
        self.longest = max(map(len, by_literal), default=0)  # the longest anchor

    def _add_literal_anchors(self, literal_anchors: Mapping[Hashable, Collection[str]],
                             by_literal: dict[str, list[Hashable]]) -> None:
        """The names whose anchors are given as strings (``literal_anchors`` of ``__init__``)."""
        for name, strings in literal_anchors.items():
            if name in self.literals:
                raise ValueError(f"{name!r} is named both as a rule and as literals")
            if "" in strings:
                raise ValueError(f"{name!r}: an empty literal stands everywhere")
            self.literals[name] = frozenset(strings)
            for literal in self.literals[name]:
                by_literal.setdefault(literal, []).append(name)

    def _add_literal(self, literal: str, owners: list[Hashable], opening: Mapping[Hashable, frozenset[str]]) -> None:
        """Put ``literal`` (anchoring the names ``owners``) in the automaton, or, a short
        word counted only where a word starts, among ``_short_words``."""
        mask = at_word = 0
        for rule in owners:
            if literal in opening.get(rule, ()):
                at_word |= self.bits[rule]
            else:
                mask |= self.bits[rule]
        # a fourth column: the literal when its hits are listed apart (``Hits.apart``), else ""
        value = (len(literal), mask, at_word & ~mask, "" if self.apart.isdisjoint(owners) else literal)
        if not mask and len(literal) <= _SHORT_WORD and _WORD_CHARACTERS(literal) and literal.isascii():
            word = literal.encode("ascii")
            self._short_words.append((b" " + word, _PAST_LATIN1_BYTE + word, len(word) - 1,
                                      (value[0], at_word, 0, value[3])))
        else:
            self._automaton.add_word(literal, value)

    def find(self, text: str, ends: Sequence[int] | None = None) -> Hits:
        """The hits of every name's anchors in ``text``. ``ends``: where the text is cut
        into stretches (increasing, the last one the text's length, as ``Hits.masks``
        takes them): their masks are then worked out in the same pass over the hits."""
        found, marks = self._raw_hits(text)
        if ends is not None and (ends[-1] if ends else 0) != len(text):
            raise ValueError(f"the stretches end at {ends[-1] if ends else None}, not at the text's end ({len(text)})")
        cut = ends if ends else (len(text),)  # one stretch, the whole text: its mask is ``everywhere``
        masks = [0] * len(cut)
        listed: list[tuple[int, int, int, str]] = []  # the hits listed apart (see ``Hits.apart``)
        listed_bits = 0
        # one pass of Python over the hits (a few dozen a text): a hit of a literal counted
        # only where a word starts gets those bits where one does (its entry replaced, so
        # the columns built from ``found`` later hold them), is or-ed into the stretch it
        # lies wholly inside, and listed apart when it anchors a name that is
        word_starts = marks is not None and self._opens_words
        # the stretch ``(floor + 1, end)`` and the bits of the hits wholly inside it so far
        index, floor, end, here = 0, -1, cut[0], 0
        for position, (last, (length, mask, at_word, apart)) in enumerate(found):
            if at_word:
                before = last - length  # the character before the literal
                if before < 0 or (
                    (marks[before] == 32 or (marks[before] == _PAST_LATIN1  # type: ignore[index]
                                             and _AT_BOUNDARY(text, before + 1) is not None))
                    if word_starts else _AT_BOUNDARY(text, before + 1) is not None  # ``word_start``
                ):
                    mask |= at_word
                    found[position] = (last, (length, mask, 0, apart))
            if last >= end:  # the hit ends past this stretch: it belongs to a later one
                masks[index] = here
                here = 0
                while last >= end:
                    index += 1
                    floor, end = end - 1, cut[index]
            if last - length >= floor:  # and it starts inside (at ``last + 1 - length``): wholly in it
                here |= mask
            if apart:
                listed.append((last, length, mask, apart))
                listed_bits |= mask
        masks[index] = here
        return Hits(self, found, (listed, listed_bits), ends if ends else None, masks)

    def _raw_hits(self, text: str) -> tuple[list[tuple[int, tuple[Any, ...]]], bytes | None]:
        """The hits of the automaton and of the short words in ``text``, by last character,
        and the text's word marks (None when no literal needs them, see ``_word_marks``)."""
        found = list(self._automaton.iter(text)) if len(self._automaton) else []
        marks = _word_marks(text) if self._short_words or (self._word_start and self._opens_words) else None
        if self._short_words:
            before = len(found)
            self._find_short_words(text, marks, found)  # type: ignore[arg-type]
            if len(found) > before:
                found.sort(key=_LAST)  # among the automaton's, by their last characters
        return found, marks

    def _find_short_words(self, text: str, marks: bytes, found: list[tuple[int, tuple[object, ...]]]) -> None:
        """Add to ``found`` the hits of the short words, where a word starts."""
        spaced = b" " + marks  # a space for the start of the text: a word starts there
        unsure = _PAST_LATIN1_BYTE in marks
        # ``spaced`` holds, where a word opens in ``text``, the character before it: the
        # needles are the word after a space (a word start) and after "?" (the engine says)
        for after_space, after_unsure, last, value in self._short_words:
            at = spaced.find(after_space)
            while at != -1:
                found.append((at + last, value))
                at = spaced.find(after_space, at + 1)
            if unsure:
                at = spaced.find(after_unsure)
                while at != -1:
                    if _AT_BOUNDARY(text, at) is not None:
                        found.append((at + last, value))
                    at = spaced.find(after_unsure, at + 1)


class Hits:
    """Where the rules' anchors occur in one text: for each hit, its last character, its
    length and the bits of the rules it anchors, in the order of their last characters.
    Kept as the automaton gave them; the columns of each (``mask``) are built by ``zip``
    (no Python work per hit) only when a stretch is asked about that is not one of those
    ``Anchors.find`` was given."""

    __slots__ = ("anchors", "_found", "_columns", "_everywhere", "_listed_apart", "_ends", "_masks")

    def __init__(self, anchors: Anchors, found: list[tuple[int, tuple[Any, ...]]],
                 listed: tuple[list[tuple[int, int, int, str]], int], ends: Sequence[int] | None,
                 masks: list[int]) -> None:
        """``found``: (last character, (length, bits, ...)) of each hit; ``listed``: the
        hits (last, length, bits, literal) of a name ``anchors.apart`` lists, and their bits or-ed;
        ``masks``: the mask of each stretch the text was cut in at ``ends`` (None: one
        stretch, the whole text)."""
        self.anchors = anchors
        self._found = found
        self._columns: tuple[Sequence[int], Sequence[int], Sequence[int]] | None = None  # see ``_hit_columns``
        self._listed_apart = listed
        self._ends = ends
        self._masks = masks
        self._everywhere: int | None = None if ends else masks[0]

    @property
    def apart(self) -> tuple[list[tuple[int, int, int, str]], int]:
        """(last character, length, bits, literal) of each hit of a name ``anchors.apart``
        lists, by last character (at one, the longest first), and their bits or-ed."""
        return self._listed_apart

    def _hit_columns(self) -> tuple[Sequence[int], Sequence[int], Sequence[int]]:
        """The hits' last characters, lengths and bits, as three columns."""
        columns = self._columns
        if columns is None:
            if self._found:
                lasts, values = zip(*self._found)
                lengths, masks = list(zip(*values))[:2]
                columns = self._columns = (lasts, lengths, masks)
            else:
                columns = self._columns = ((), (), ())
        return columns

    @property
    def every(self) -> list[tuple[int, int, int]]:
        """Every hit as (start, end, bits), sorted by start."""
        return sorted((last + 1 - length, last + 1, mask) for last, length, mask in zip(*self._hit_columns()))

    def spans(self, rule: Hashable) -> list[tuple[int, int]]:
        """(start, end) of each hit of ``rule``'s anchors, in the order of their ends."""
        bit = self.anchors.bits.get(rule, 0)
        if rule in self.anchors.apart:  # among the few hits listed apart (all of the rule's are)
            return [(last + 1 - length, last + 1) for last, length, mask, _ in self._listed_apart[0] if mask & bit]
        # the hits of other rules are passed over without a step of Python each
        lasts, lengths, masks = self._hit_columns()
        hits = compress(zip(lasts, lengths), map(and_, masks, repeat(bit)))
        return [(last + 1 - length, last + 1) for last, length in hits]

    def anywhere(self, rule: Hashable) -> bool:
        """Whether one of ``rule``'s anchors stands anywhere in the text (``present`` of the
        whole text; for a rule listed apart, asked of those few hits, not every hit)."""
        bit = self.anchors.bits.get(rule)
        if bit is None:
            return True
        return bool((self._listed_apart[1] if rule in self.anchors.apart else self.everywhere()) & bit)

    @property
    def gated(self) -> frozenset[Hashable]:
        """The rules that can be skipped (those with anchors)."""
        return self.anchors.gated

    @property
    def always(self) -> frozenset[Hashable]:
        """The rules without anchors (never skipped)."""
        return self.anchors.always

    def mask(self, start: int, end: int) -> int:
        """The bits of the rules with an anchor wholly inside ``[start, end)``."""
        lasts, lengths, masks = self._hit_columns()
        upto = bisect_left(lasts, end)  # the hits that end by ``end``
        # of those, the ones ending a longest anchor or more after ``start`` start after
        # it: or-ed in one call; those ending sooner are or-ed where they start in the stretch
        sure = bisect_left(lasts, start + self.anchors.longest - 1, 0, upto)
        found = reduce(or_, masks[sure:upto], 0)
        near = bisect_left(lasts, start, 0, sure)
        if near == sure:
            return found
        # a hit starts at ``last + 1 - length``: in the stretch when ``last - length >= start - 1``
        inside = map(ge, map(sub, lasts[near:sure], lengths[near:sure]), repeat(start - 1))
        return reduce(or_, compress(masks[near:sure], inside), found)

    def masks(self, ends: list[int]) -> list[int]:
        """``mask`` of each stretch of a text cut at ``ends`` (increasing, the last one the
        text's length: stretches ``[0, ends[0])``, ``[ends[0], ends[1])``, ...), in one pass
        over the hits rather than a search per stretch (made by ``Anchors.find`` when it
        was given these ``ends``: then the same list each time, the caller's to read only)."""
        if ends == self._ends:
            return self._masks
        found = [0] * len(ends)
        index, start, end = 0, 0, ends[0]
        for last, length, mask in zip(*self._hit_columns()):
            while last >= end:  # the hit ends past this stretch: it belongs to a later one
                index += 1
                start, end = end, ends[index]
            if last - length >= start - 1:  # and it starts inside: wholly in the stretch
                found[index] |= mask
        return found

    def within(self, start: int, end: int) -> set[Hashable]:
        """The rules (of those the anchors were given) present in ``[start, end)``: those
        with an anchor wholly inside, and every rule without anchors."""
        mask = self.mask(start, end)
        return set(self.anchors.always) | {rule for rule, bit in self.anchors.bits.items() if mask & bit}

    def everywhere(self) -> int:
        """``mask`` of the whole text: the bits of every hit (each lies wholly inside it)."""
        found = self._everywhere
        if found is None:  # asked by several readers of one text (the f1 mentions' kinds): worked out once
            found = self._everywhere = reduce(or_, self._hit_columns()[2], 0)
        return found

    def present(self, rule: Hashable, start: int, end: int) -> bool:
        """Whether one of ``rule``'s anchors lies wholly inside ``[start, end)`` (always
        True for a rule without anchors or unknown to the anchors)."""
        bit = self.anchors.bits.get(rule)
        return True if bit is None else self.present_bit(bit, start, end)

    def present_bit(self, bit: int, start: int, end: int) -> bool:
        """``present`` of the rule whose bit is ``bit``."""
        return bool(self.mask(start, end) & bit)
