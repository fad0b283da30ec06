"""The f1 rules read a sentence through the reader's scanner surface (issue 28):
``finditer``, ``search``, ``any``, ``scans``/``may_match`` and the laps ``consumed``, never
the reader's own state (its anchor bits, the sentence being read, its private tables) nor
a sentence's fields by position. A rule written against that surface keeps working when
the gates behind it change; one reading ``sentence[4]`` or ``self._bits`` does not."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from factcov.domains.f1.extractor import F1Reader
from factcov.domains.f1.lexicon import lexicon

REPO = Path(__file__).resolve().parents[1]
RULE_FILES = ("domains/f1/rules_race.py", "domains/f1/rules_strategy.py")


def _problems(name: str) -> list[str]:
    tree = ast.parse((REPO / name).read_text(encoding="utf-8"))
    own = {node.attr for node in ast.walk(tree)  # private state a rule module keeps itself
           if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
           and isinstance(node.value, ast.Name) and node.value.id == "self"}
    problems = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
                and node.attr.startswith("_") and node.attr not in own):
            problems.append(f"{name}:{node.lineno} self.{node.attr}: the reader's own state")
        if isinstance(node, ast.Attribute) and node.attr == "holds_anchor":
            problems.append(f"{name}:{node.lineno} holds_anchor: ask any(pattern, sentence)")
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "sentence":
            problems.append(f"{name}:{node.lineno} {ast.unparse(node)}: a sentence's field by position")
        problems += _identity_keys(name, node)
    return problems


def _identity_keys(name: str, node: ast.AST) -> list[str]:
    """A call of ``id()``: a table keyed by a pattern's identity, which the scanner keeps
    (``factcov.extractors.scanner``: ``PatternKeys``, ``Identities``)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id":
        return [f"{name}:{node.lineno} {ast.unparse(node)}: keyed by identity outside the scanner"]
    return []


def test_the_f1_reader_keys_nothing_by_identity_itself():
    """No ``id()`` in the f1 grammar's modules: patterns, tuples of them and race blocks are
    keyed through the scanner (``PatternKeys``, ``Identities``)."""
    problems = []
    for name in ("domains/f1/reading.py", "domains/f1/mentions.py", "domains/f1/extractor.py",
                 "domains/f1/lexicon.py", "extractors/rules.py", *RULE_FILES):
        problems += [problem for node in ast.walk(ast.parse((REPO / name).read_text(encoding="utf-8")))
                     for problem in _identity_keys(name, node)]
    assert not problems, "\n".join(problems)


def test_the_rules_read_only_the_scanner_surface():
    problems = [problem for name in RULE_FILES for problem in _problems(name)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("gated", [True, False])
def test_any_says_where_a_pattern_may_match_as_finditer_scans(gated):
    lex = lexicon("en")
    text = "Hamilton pitted on lap 13. Verstappen won the race. His team-mate stayed out."
    reader = F1Reader("f1-regex", lex, text, {"race": {"drivers": []}, "focus": {}})
    reader.gated = gated
    seen = []
    for sentence in reader.sentences():
        said = reader.any(lex.pit_verb, sentence)
        found = list(reader.finditer(lex.pit_verb, sentence.start, sentence.end))
        assert said or not found  # False only where nothing can match
        seen.append(said)
    assert seen[0] and (seen[1:] == [not gated] * 2)  # the verb's sentence only, unless ungated
