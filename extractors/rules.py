"""Grammar rules declared once (issue 28).

A rule is a reader method ``rule(self, sentence) -> None`` marked ``@rule(order=...,
triggers=(...))``, the triggers and scans naming fields of the grammar's lexicon. From the
declarations of a reader class (``DeclaredRules``) come its ``rule_book``: the rules in
reading order, each rule's trigger patterns (a sentence without one of their anchors skips
the rule), and every pattern the rules scan through the reader's gated calls (the scan
plan). Nothing is listed a second time, so nothing can be forgotten: a rule-shaped method
without a declaration, a declaration naming a field the lexicon lacks and two rules of one
order fail when the class is created (``RuleDeclarationError``)."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
from collections.abc import Callable, Hashable, Iterator
from functools import reduce
from itertools import compress
from operator import or_
from typing import Any, ClassVar, TypeVar

from factcov.errors import PluginError
from factcov.extractors.anchors import piece_anchor_sets
from factcov.extractors.scanner import pattern_keys
from factcov.language import alternation

Method = TypeVar("Method", bound=Callable[..., None])


class RuleDeclarationError(PluginError):
    """A grammar whose rules are not declared as the engine needs (raised at class creation)."""


@dataclasses.dataclass(frozen=True)
class Rule:
    """One rule's declaration (lexicon fields by name: a pattern or a tuple of patterns)."""

    name: str
    order: int
    triggers: tuple[str, ...]  # the patterns whose matches are all the rule acts on
    scans: tuple[str, ...] = ()  # other patterns it (or a helper it calls) scans, gated
    sliced: tuple[str, ...] = ()  # patterns searched in slices (``may_match``/``scans``): anchors count anywhere
    word_start: bool = True  # triggers found only from and to offsets: woken only where a word starts
    otherwise: str | None = None  # the method run in its place on a sentence without its anchors

    def fields(self) -> tuple[str, ...]:
        return (*self.triggers, *self.scans, *self.sliced)


def rule(*, order: int, triggers: tuple[str, ...], scans: tuple[str, ...] = (), sliced: tuple[str, ...] = (),
         word_start: bool = True, otherwise: str | None = None) -> Callable[[Method], Method]:
    """Declare a reader method a rule (see the module's docstring)."""
    def declare(method: Method) -> Method:
        method.__rule__ = Rule(method.__name__, order, tuple(triggers), tuple(scans), tuple(sliced),  # type: ignore[attr-defined]
                               word_start, otherwise)
        return method
    return declare


def _patterns(lex: Any, fields: tuple[str, ...]) -> Iterator[re.Pattern[str]]:
    for field in fields:
        value = getattr(lex, field)
        yield from value if isinstance(value, tuple) else (value,)


@dataclasses.dataclass(frozen=True, eq=False)  # one per class: hashed by identity (a cache key, cheaply)
class RuleBook:
    """A reader class's rules in reading order and the reader's own scans (its helpers')."""

    rules: tuple[Rule, ...]
    lexicon: Callable[[str], Any]  # language -> the lexicon the declarations name fields of
    reader_scans: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(declared.name for declared in self.rules)

    def triggers(self, lex: Any) -> dict[str, tuple[re.Pattern[str], ...]]:
        """Each rule, in reading order, and its trigger patterns."""
        return {declared.name: tuple(_patterns(lex, declared.triggers)) for declared in self.rules}

    def gates(self, lex: Any) -> dict[Hashable, tuple[re.Pattern[str], ...]]:
        """Each rule's triggers, and each pattern scanned with the gated calls (by its key,
        ``PatternKeys``: hashing a compiled pattern hashes its whole program; in key order),
        as ``Anchors`` takes them."""
        keys = pattern_keys(lex)
        scanned = {keys.key(pattern): pattern for declared in self.rules for pattern in _patterns(lex, declared.fields())}
        scanned.update((keys.key(pattern), pattern) for pattern in _patterns(lex, self.reader_scans))
        return {**self.triggers(lex), **{key: (scanned[key],) for key in sorted(scanned)}}  # type: ignore[type-var]

    def sliced(self, lex: Any) -> set[re.Pattern[str]]:
        """The patterns searched in slices: their anchors count wherever they stand."""
        return {pattern for declared in self.rules for pattern in _patterns(lex, declared.sliced)}

    def word_start_rules(self) -> frozenset[str]:
        return frozenset(declared.name for declared in self.rules if declared.word_start)


def _rule_shaped(function: Callable[..., Any], argument: str) -> bool:
    """``(self, <argument>) -> None``: how a rule looks (helpers take more or return something)."""
    try:
        parameters = list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return False
    returns = getattr(function, "__annotations__", {}).get("return")
    return parameters == ["self", argument] and returns in (None, "None")


class DeclaredRules:
    """A reader whose rules are declared with ``@rule``; subclasses get ``rule_book``.

    ``lexicon_type`` is the dataclass whose fields the declarations name, ``lexicon_for``
    gives its instance for a language, ``rule_argument`` is the name of a rule's one
    argument, ``reader_scans`` the fields the reader's own helpers scan."""

    lexicon_type: ClassVar[type]
    rule_argument: ClassVar[str] = "sentence"
    reader_scans: ClassVar[tuple[str, ...]] = ()
    rule_book: ClassVar[RuleBook]

    @classmethod
    def lexicon_for(cls, language: str) -> Any:
        raise NotImplementedError(f"{cls.__qualname__} names no lexicon (lexicon_for)")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared: dict[str, Rule] = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if isinstance(getattr(value, "__rule__", None), Rule):
                    declared[name] = value.__rule__
                else:
                    declared.pop(name, None)  # replaced by a method of its own
        problems = _field_problems(cls, declared) + _shape_problems(cls, declared)
        if problems:
            raise RuleDeclarationError("; ".join(problems))
        cls.rule_book = RuleBook(tuple(sorted(declared.values(), key=lambda d: d.order)), cls.lexicon_for,
                                 cls.reader_scans)


def _field_problems(cls: type[DeclaredRules], declared: dict[str, Rule]) -> list[str]:
    """Fields named that the lexicon lacks."""
    known = {field.name for field in dataclasses.fields(cls.lexicon_type)}
    lexicon_name = cls.lexicon_type.__name__
    problems = [f"{cls.__qualname__}.reader_scans names {field!r}, not a field of {lexicon_name}"
                for field in cls.reader_scans if field not in known]
    for declaration in declared.values():
        problems += [f"rule {declaration.name!r} names {field!r}, not a field of {lexicon_name}"
                     for field in declaration.fields() if field not in known]
    return problems


def _shape_problems(cls: type[DeclaredRules], declared: dict[str, Rule]) -> list[str]:
    """Two rules of one order, a stand-in that is no method, a rule-shaped method undeclared."""
    problems = []
    orders: dict[int, str] = {}
    for declaration in declared.values():
        if declaration.order in orders:
            problems.append(f"rules {orders[declaration.order]!r} and {declaration.name!r} share order {declaration.order}")
        orders[declaration.order] = declaration.name
        if declaration.otherwise is not None and not hasattr(cls, declaration.otherwise):
            problems.append(f"rule {declaration.name!r}: otherwise={declaration.otherwise!r} is no method of {cls.__qualname__}")
    stand_ins = {declaration.otherwise for declaration in declared.values()}
    problems += [
        f"{cls.__qualname__}.{name} looks like a rule but is not declared (@rule)"
        for name, value in vars(cls).items()
        if inspect.isfunction(value) and name not in declared and name not in stand_ins
        and _rule_shaped(value, cls.rule_argument)
    ]
    return problems


# -- a table of pattern rules (the weather grammar's shape) --------------------------------
# A grammar whose rules are (pattern, action) rows rather than reader methods declares each
# row once with ``PatternRules.add``; its gate (the substrings one of which every match
# holds) is derived from the compiled pattern by ``factcov.extractors.anchors``, never
# listed by hand, so a spelling the pattern accepts always opens it (issue 28: the hand
# needles of weather's speed rules missed "kilometros por hora").

Action = TypeVar("Action")


def derived_gates(pattern: re.Pattern[str], common: Callable[[str], int] = lambda part: 1) -> tuple[tuple[str, ...], ...]:
    """Sets of substrings such that every match of ``pattern`` contains one of each set (a
    substring test is far cheaper than a scan): the anchors of each piece of the pattern
    that every match holds (``factcov.extractors.anchors``' analysis, piece by piece), each
    set reduced to a few word-start parts (``_cover``; ``common(part)``: how common a part
    is thought to be, the rarer preferred), smallest sets first. No set: a
    pattern a match may satisfy without any literal, scanned on every text."""
    source = pattern.pattern
    behind = _LEADING_LOOKBEHIND.match(source)
    if behind is not None:
        # "(?:(?<=mph )|(?<=km/h ))from the": the text holds "mph from the" (nothing is
        # matched before a leading look-behind, so reading it as text is sound)
        source = behind.group().replace("(?<=", "(?:") + source[behind.end():]
    if pattern.flags & re.IGNORECASE:
        return ()
    found_sets = piece_anchor_sets(source, pattern.flags)
    if behind is not None:  # what stands before the match, alone: "mph", "km/h"
        found_sets += piece_anchor_sets(behind.group().replace("(?<=", "(?:"), pattern.flags)
    sets = sorted({_cover(found, common) for found in found_sets}, key=lambda needles: (len(needles), needles))
    # a set holding a word of one or two letters ("a", "de", "to") is open in nearly every
    # text: its test costs more than it saves, unless it is the pattern's only one
    if not sets:
        return ()
    strong = [needles for needles in sets if not any(len(n) <= 2 and n.isalnum() for n in needles)]
    strong = strong or [max(sets, key=lambda needles: (min(map(len, needles)), -len(needles)))]
    # each set costs a test per needle on a text without one: two small sets gate about as
    # well as more of them, and a long list (every condition word) only when nothing else does
    return tuple([needles for needles in strong if len(needles) <= _SMALL_SET][:2] or strong[:1])


_SMALL_SET = 8


# a pattern's leading positive look-behinds of plain text, alone or as a group of branches
_LEADING_LOOKBEHIND = re.compile(r"\(\?<=[^()\\[]*\)|\(\?:(?:\(\?<=[^()\\[]*\)\|)*\(\?<=[^()\\[]*\)\)")
_SHORTEST_NEEDLE = 3  # letters or digits: a part with fewer ("of", "de", "ly") stands in too many texts


def _cover(literals: frozenset[str], common: Callable[[str], int]) -> tuple[str, ...]:
    """Few substrings such that each of ``literals`` contains one: greedily the part that
    most of the literals not yet covered share, for how common it is (the longer of two that
    score the same),
    starting where a word starts and holding at least ``_SHORTEST_NEEDLE`` letters or digits
    (a literal with fewer is its own part). ("kilometros por hora", "millas por hora" ->
    " por hora".)"""
    left = set(literals)
    chosen: list[str] = []
    while left:
        counts: dict[str, int] = {}
        for literal in left:
            for part in _parts(literal):
                counts[part] = counts.get(part, 0) + 1
        best = max(counts, key=lambda part: (counts[part] / common(part), len(part), part))
        chosen.append(best)
        left = {literal for literal in left if best not in literal}
    return tuple(sorted(chosen, key=lambda needle: (len(needle), needle)))


def _parts(literal: str) -> set[str]:
    """The substrings of ``literal`` selective enough to gate on: whole words of it (from a
    word's start to a word's end, or to the literal's ends), with at least
    ``_SHORTEST_NEEDLE`` letters or digits; the literal itself when it has no such part."""
    edges = [i for i in range(1, len(literal)) if literal[i - 1].isalnum() != literal[i].isalnum()]
    starts, ends = [0, *edges], [*edges, len(literal)]
    return {literal[i:j] for i in starts for j in ends
            if j > i and _alphanumerics(literal[i:j]) >= _SHORTEST_NEEDLE} or {literal}


def _alphanumerics(text: str) -> int:
    return sum(map(str.isalnum, text))


_WORDS = re.compile(r"[^\W_]+")


class PatternRules(list[tuple[re.Pattern[str], Action, int]]):
    """Rows ``(pattern, action, gate)`` in reading order. ``needles`` are the sets of
    substrings the rows' patterns need (``derived_gates``); ``gate`` has bit ``i`` set for
    each set ``i`` its pattern needs, and ``opened(text)`` the bits of the sets ``text``
    holds a member of, so a row is read where ``opened & gate == gate`` (a row needing no
    set, gate 0, everywhere). Each set is tested once per text, however many rows need it.

    Gates are derived by ``seal()``, once every row is added: a part that many of the
    grammar's patterns spell ("wind" in a weather grammar) is a common word of the texts it
    reads, so of two parts covering the same literals the rarer gates ("calm", not "wind")."""

    def __init__(self) -> None:
        super().__init__()
        self.needles: list[tuple[str, ...]] = []
        self._bits: list[int] = []

    def add(self, pattern: re.Pattern[str], action: Action) -> None:
        self.append((pattern, action, 0))

    def seal(self) -> None:
        """Derive every row's gate (the rows' patterns all known)."""
        sources = [pattern.pattern for pattern, _action, _gate in self]

        @functools.cache
        def spelled(word: str) -> int:
            return 1 + sum(word in source for source in sources)

        def common(part: str) -> int:  # a part is as rare as its rarest word
            return min(map(spelled, _WORDS.findall(part)), default=1)

        for row, (pattern, action, _gate) in enumerate(self):
            gate = 0
            for needles in derived_gates(pattern, common):
                if needles not in self.needles:
                    self.needles.append(needles)
                    self._bits.append(1 << (len(self.needles) - 1))
                gate |= 1 << self.needles.index(needles)
            self[row] = (pattern, action, gate)
        self._index_needles()

    def opened(self, text: str) -> int:
        """The bits of the needle sets one of whose members ``text`` holds: every needle
        found at each position by one scan (``_found``: a trie of them all, longest first, in
        a look-ahead so that overlapping ones are found too), each found needle standing for
        every needle it contains (the shorter ones found at its position among them)."""
        return reduce(or_, map(self._bits_of.__getitem__, self._found(text)), 0)

    def opened_plainly(self, text: str) -> int:
        """``opened``, a substring test per needle (the plain twin the tests compare it to)."""
        contains = text.__contains__
        return sum(compress(self._bits, [any(map(contains, needles)) for needles in self.needles]))

    def _index_needles(self) -> None:
        distinct = {needle for needles in self.needles for needle in needles}
        self._found = re.compile(f"(?=({alternation(distinct, space=' ')}))").findall
        self._bits_of = {
            found: reduce(or_, (bit for bit, needles in zip(self._bits, self.needles)
                                if any(needle in found for needle in needles)), 0)
            for found in distinct
        }
