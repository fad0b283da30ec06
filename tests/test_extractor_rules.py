"""The rule engine (``factcov.extractors.rules``): rules declared once, every declaration
checked when the reader class is created, and the gates and reading order derived from them."""

from __future__ import annotations

import dataclasses
import re

import pytest

from factcov.domains.f1.extractor import RULES, WHOLE_TEXT_RULES, _Reader, grammar_rules, sliced_patterns
from factcov.domains.f1.lexicon import lexicon
from factcov.domains.f1.reading import Sentence
from factcov.extractors.rules import DeclaredRules, RuleDeclarationError, rule
from factcov.extractors.scanner import pattern_keys


@dataclasses.dataclass(frozen=True)
class _Words:
    greeting: re.Pattern[str]
    farewells: tuple[re.Pattern[str], ...]


class _Base(DeclaredRules):
    lexicon_type = _Words

    @classmethod
    def lexicon_for(cls, language: str) -> _Words:
        return _Words(re.compile("hello"), (re.compile("bye"), re.compile("ciao")))


def test_a_rule_shaped_method_without_a_declaration_fails_at_class_creation():
    with pytest.raises(RuleDeclarationError, match=r"greets looks like a rule but is not declared"):
        class _Reader(_Base):
            def greets(self, sentence: Sentence) -> None:
                pass


def test_a_declaration_naming_an_unknown_lexicon_field_fails_at_class_creation():
    with pytest.raises(RuleDeclarationError, match=r"rule 'greets' names 'greting', not a field of _Words"):
        class _Reader(_Base):
            @rule(order=1, triggers=("greting",))
            def greets(self, sentence: Sentence) -> None:
                pass
    with pytest.raises(RuleDeclarationError, match=r"reader_scans names 'farewell'"):
        class _Other(_Base):
            reader_scans = ("farewell",)


def test_two_rules_of_one_order_and_a_missing_stand_in_fail():
    with pytest.raises(RuleDeclarationError, match=r"share order 1"):
        class _Reader(_Base):
            @rule(order=1, triggers=("greeting",))
            def greets(self, sentence: Sentence) -> None:
                pass

            @rule(order=1, triggers=("farewells",))
            def parts(self, sentence: Sentence) -> None:
                pass
    with pytest.raises(RuleDeclarationError, match=r"otherwise='settle' is no method"):
        class _Settled(_Base):
            @rule(order=1, triggers=("greeting",), otherwise="settle")
            def greets(self, sentence: Sentence) -> None:
                pass


def test_helpers_and_declared_rules_pass_and_give_the_book_in_order():
    class _Reader(_Base):
        reader_scans = ("greeting",)

        @rule(order=2, triggers=("farewells",), word_start=False)
        def parts(self, sentence: Sentence) -> None:
            pass

        @rule(order=1, triggers=("greeting",), otherwise="settle")
        def greets(self, sentence: Sentence) -> None:
            pass

        def settle(self, sentence: Sentence) -> None:  # a stand-in, named by ``greets``
            pass

        def helper(self, sentence: Sentence, position: int) -> bool:  # not rule-shaped
            return True

    words = _Reader.lexicon_for("en")
    book = _Reader.rule_book
    assert book.names == ("greets", "parts")
    assert book.triggers(words) == {"greets": (words.greeting,), "parts": words.farewells}
    assert book.word_start_rules() == {"greets"}
    gates = book.gates(words)
    keys = pattern_keys(words)
    assert {keys.key(p) for p in (words.greeting, *words.farewells)} <= set(gates)


def test_the_f1_reader_book_is_its_rules_in_reading_order():
    assert RULES == ("neutralizations", "moves", "gains", "defenses", "winners_and_positions", "retirements",
                     "stop_counts", "stay_outs", "pit_laps", "compounds")
    assert WHOLE_TEXT_RULES == frozenset(RULES) - {"defenses"}
    lex = lexicon("en")
    assert _Reader.rule_book.triggers(lex)["compounds"] == (lex.compound, *lex.change, *lex.same_set)
    gates = grammar_rules("en")
    keys = pattern_keys(lex)
    assert keys.key(lex.clause_break) in gates and keys.key(lex.move_success) in gates  # a rule's scans, the reader's
    assert keys.key(lex.object_marker) not in gates  # "on", "to" stand everywhere: never declared, never gated
    assert sliced_patterns("en") == {lex.podium_list, lex.compound, lex.start_words, lex.end_words,
                                     *lex.stop_count, *lex.changes}
