"""`f1-regex`: race-strategy claims read from en/es/pt prose with one grammar per language.

Instance-aware: drivers are recognized from the instance's race (codes, surnames, full
names, the focus driver's team), "last stop"/"final stint" are numbered from the race
data, and a sentence without a driver is about the previous sentence's first driver
(or the instance's focus driver). The grammar is ``lexicon.py``; its rules are
``rules_strategy.py`` and ``rules_race.py``; docs/domains/f1.md ("Extraction") lists them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Sequence
from functools import cache, lru_cache
from typing import ClassVar

from factcov.domains.f1 import reading
from factcov.domains.f1.lexicon import Grammar, lexicon
from factcov.domains.f1.mentions import driver_index
from factcov.domains.f1.reading import TextReader, grammar_anchors, text_anchors
from factcov.domains.f1.rules_race import RaceRules
from factcov.domains.f1.rules_strategy import StrategyRules
from factcov.extractor import Extractor
from factcov.extractors.anchors import Anchors
from factcov.extractors.rules import RuleBook
from factcov.extractors.scanner import pattern_keys
from factcov.model import Claim, Instance

GRAMMAR_VERSION = "4"  # bump when a rule changes what a text reads as (enters score signatures)


class F1RegexExtractor(Extractor):
    name: ClassVar[str] = "f1-regex"
    description: ClassVar[str] = "Regex grammars (en, es, pt) for pit stops, tyres, results, moves and neutralizations."
    domains: ClassVar[tuple[str, ...]] = ("f1",)
    languages: ClassVar[tuple[str, ...]] = ("en", "es", "pt")
    prebuild: ClassVar[bool] = True  # a compiled grammar, no model: --jobs builds it once, before forking
    deterministic: ClassVar[bool] = True  # a text's claims depend on it and its instance only (speed3's one-line hook)

    def __init__(self, language: str = "en", **options: object) -> None:
        super().__init__(language, **options)
        self.lex: Grammar = lexicon(language)
        grammar_anchors(F1Reader.rule_book, language)  # worked out with the grammar, not by the first text read

    def signature(self) -> str:
        return f"{self.name}@{GRAMMAR_VERSION}"

    def prepare(self, instances: Sequence[Instance]) -> None:
        """Each race's setup (its drivers, each focus's index, its anchors joined with the
        grammar's) through the reader's own caches, built here once (``--jobs``: in the
        parent, shared by the workers) rather than in each worker that meets the race;
        and the numbering of the grammar's patterns the scanner keys its tables by (the
        rules' cue words are the grammar's own, built with it)."""
        pattern_keys(self.lex)
        for instance in instances:
            try:
                text_anchors(F1Reader.rule_book, self.language, driver_index(instance.context))
            except Exception:  # a malformed race is left to ``extract``, which names the instance
                continue

    def extract(self, text: str, instance: Instance) -> list[Claim]:
        # spans index the NFC form (the same string for the NFC text models write)
        reader = F1Reader(self.name, self.lex, unicodedata.normalize("NFC", text), instance.context)
        return reader.read()


class F1Reader(StrategyRules, RaceRules):
    """All rules over one text, sentence by sentence; a rule whose anchor words are
    absent from a sentence is skipped there (it would find no match to act on)."""

    def read(self, gated: bool = True) -> list[Claim]:
        """``gated=False`` runs every rule on every sentence and every scan over all its
        stretch (the same claims, slower)."""
        if gated != self.gated:  # a reader is made gated
            self.gated = gated
        cls = type(self)
        plans = _plans(cls, self.lex.language) if gated else None
        for sentence in self.sentences():  # each sets ``_here``, the sentence ``may_match`` asks about
            mask = sentence.mask
            plan = plans.get(mask) if plans is not None else _every_rule(cls)
            if plan is None:
                plan = plans[mask] = _plan_functions(cls, self.lex.language, mask)  # type: ignore[index]
            for rule in plan:
                rule(self, sentence)
        return self.read_claims.in_text_order()


@cache
def _rule_mask(book: RuleBook, language: str) -> int:
    """The bits of the rules (of the grammar's anchor names)."""
    bits = grammar_anchors(book, language).bits
    mask = 0
    for name in book.names:
        mask |= bits.get(name, 0)
    return mask


@lru_cache(maxsize=4096)
def _plan(book: RuleBook, language: str, mask: int) -> tuple[str, ...]:
    """The rules to run, in order, on a sentence holding the anchors of ``mask``: a rule
    whose anchors are absent is skipped (no match to act on), or replaced by its
    ``otherwise`` (where no move is read, one left pending by the previous sentence may be settled)."""
    bits = grammar_anchors(book, language).bits
    plan = []
    for declared in book.rules:
        bit = bits.get(declared.name)
        if bit is None or mask & bit:
            plan.append(declared.name)
        elif declared.otherwise is not None:
            plan.append(declared.otherwise)
    return tuple(plan)


# A reader class's plans, keyed by a sentence's whole anchor mask: the rules' functions,
# taken from the class when a mask is first met (not bound again for each text), found
# with one dict ``get`` per sentence. Held per class and language; the masks real texts
# give are a few hundred (a rule replaced on the class after its first text is not seen:
# nothing in the package replaces one).
_PLANS: dict[tuple[type, str], dict[int, tuple[Callable[..., None], ...]]] = {}
_PLANS_SIZE = 4096  # masks per class and language before its plans start again


def _plans(cls: type, language: str) -> dict[int, tuple[Callable[..., None], ...]]:
    plans = _PLANS.get((cls, language))
    if plans is None or len(plans) > _PLANS_SIZE:
        plans = _PLANS[(cls, language)] = {}
    return plans


def _plan_functions(cls: type[TextReader], language: str, mask: int) -> tuple[Callable[..., None], ...]:
    book = cls.rule_book
    return tuple(getattr(cls, name) for name in _plan(book, language, mask & _rule_mask(book, language)))


def _every_rule(cls: type[TextReader]) -> tuple[Callable[..., None], ...]:
    return tuple(getattr(cls, name) for name in cls.rule_book.names)


_Reader = F1Reader  # its name before it was public

# what the rule book gives, for tests and tools: the rules in reading order, those woken only
# where a trigger word starts a word, and the gates of the f1 reader
RULES = F1Reader.rule_book.names
WHOLE_TEXT_RULES = F1Reader.rule_book.word_start_rules()


def grammar_rules(language: str) -> dict[Hashable, tuple[re.Pattern[str], ...]]:
    return reading.grammar_rules(F1Reader.rule_book, language)


def f1_grammar_anchors(language: str) -> Anchors:
    return grammar_anchors(F1Reader.rule_book, language)


def sliced_patterns(language: str) -> set[re.Pattern[str]]:
    return F1Reader.rule_book.sliced(F1Reader.lexicon_for(language))
