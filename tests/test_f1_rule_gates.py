"""Every lexicon pattern the f1 rules hand to the reader's gated calls is declared.

``TextReader.finditer``, ``search`` and ``any`` skip a pattern where none of its
anchors stands only if a rule's declaration (``@rule(triggers=..., scans=...)``, or the
reader's ``reader_scans``) names it; ``may_match`` and ``scans`` (which may search a slice)
only if a rule also names it in ``sliced``. A pattern left out is never skipped: the claims
stay right and the reading gets slower in silence (issue 28). This reads the rules' source
and fails instead, naming the pattern and the call."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from factcov.domains.f1.extractor import grammar_rules, sliced_patterns
from factcov.domains.f1.lexicon import lexicon

REPO = Path(__file__).resolve().parents[1]
RULE_FILES = ("domains/f1/reading.py", "domains/f1/rules_race.py", "domains/f1/rules_strategy.py")
GATED = {"finditer", "search", "any"}  # gated by the anchors at word starts
ASKED = {"may_match", "scans"}  # gated by the anchors anywhere: the pattern must be asked


def gated_calls() -> list[tuple[str, int, str, str]]:
    """(file, line, call, lexicon field) of each ``self.<call>(lex.<field>, ...)`` or
    ``self.<call>(self.lex.<field>, ...)`` in the rules (the reader's own calls, not a
    pattern's own ``finditer``)."""
    calls = []
    for name in RULE_FILES:
        for node in ast.walk(ast.parse((REPO / name).read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args
                    and node.func.attr in GATED | ASKED and ast.unparse(node.func.value) == "self"):
                continue
            argument = ast.unparse(node.args[0])
            for prefix in ("self.lex.", "lex."):
                if argument.startswith(prefix) and argument[len(prefix):].isidentifier():
                    calls.append((name, node.lineno, node.func.attr, argument[len(prefix):]))
    return calls


def test_the_source_is_read_for_the_calls_it_should():
    calls = {(call, field) for _, _, call, field in gated_calls()}
    assert ("any", "stop_ordinal") in calls and ("finditer", "move") in calls
    assert ("may_match", "podium_list") in calls and ("scans", "stop_count") in calls
    assert len(calls) > 30


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_every_pattern_a_rule_gates_is_registered(language):
    lex = lexicon(language)
    registered = {id(p) for patterns in grammar_rules(language).values() for p in patterns}
    asked = {id(p) for p in sliced_patterns(language)}
    missing = []
    for name, line, call, field in gated_calls():
        value = getattr(lex, field)
        patterns = value if isinstance(value, tuple) else (value,)
        if not all(id(p) in registered for p in patterns):
            missing.append(f"{name}:{line} {call}(lex.{field}): declared by no rule (triggers, scans) nor reader_scans")
        elif call in ASKED and not all(id(p) in asked for p in patterns):
            missing.append(f"{name}:{line} {call}(lex.{field}): declared in no rule\'s sliced")
    assert not missing, "\n".join(missing)
