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
import inspect
import re
from collections.abc import Callable, Hashable, Iterator
from typing import Any, ClassVar, TypeVar

from factcov.errors import PluginError

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
        """Each rule's triggers, and each pattern scanned with the gated calls (by its id:
        hashing a compiled pattern hashes its whole program), as ``Anchors`` takes them."""
        scanned = {pattern for declared in self.rules for pattern in _patterns(lex, declared.fields())}
        scanned |= set(_patterns(lex, self.reader_scans))
        return {**self.triggers(lex), **{id(pattern): (pattern,) for pattern in scanned}}

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
