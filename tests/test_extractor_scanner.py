"""The scanner's keys (issue 28): each compiled pattern of a grammar numbered once, the
same in every process, and identity-keyed tables that hold what they key."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys

from factcov.domains.f1.extractor import grammar_rules
from factcov.domains.f1.lexicon import lexicon
from factcov.extractors.scanner import Identities, PatternKeys, pattern_keys


@dataclasses.dataclass(frozen=True)
class _Words:
    name: str
    greeting: re.Pattern[str]
    farewells: tuple[re.Pattern[str], ...]
    again: re.Pattern[str]


def test_patterns_and_tuples_are_numbered_in_field_order_once_each():
    hello, bye, ciao = re.compile("hello"), re.compile("bye"), re.compile("ciao")
    words = _Words("w", hello, (bye, ciao), hello)  # a pattern named twice keeps its first key
    keys = PatternKeys(words)
    assert [keys.key(p) for p in (hello, bye, ciao, words.farewells)] == [0, 1, 2, 3]
    re.purge()  # a new compiled pattern, equal to ``hello``
    assert re.compile("hello") == hello and keys.key(re.compile("hello")) is None  # not the grammar's
    assert keys.by_identity({1: "b", "greets": "rule", 7: "none"}) == {id(bye): "b"}
    assert pattern_keys(words) is pattern_keys(words)


def test_the_f1_gates_are_named_the_same_in_every_process():
    """The anchors' names of the f1 patterns are their keys, not addresses: another process
    names (and so numbers the bits of) the same patterns the same."""
    code = ("from factcov.domains.f1.extractor import grammar_rules; "
            "print(sorted((k, g[0].pattern) for k, g in grammar_rules('es').items() if isinstance(k, int)))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    here = sorted((k, g[0].pattern) for k, g in grammar_rules("es").items() if isinstance(k, int))
    assert other.strip() == str(here)
    keys = pattern_keys(lexicon("es"))
    assert all(keys.held[k] is group[0] for k, group in grammar_rules("es").items() if isinstance(k, int))


def test_identities_key_by_identity_hold_what_they_key_and_forget_the_oldest():
    table: Identities[dict, str] = Identities(2)
    first, equal = {"a": 1}, {"a": 1}
    assert table.put(first, "first") == "first"
    assert table.get(first) == "first" and table.get(equal) is None  # equal, not the same
    table.put(equal, "equal")
    table.put({"b": 2}, "third")  # over the size: the oldest goes
    assert len(table) == 2 and table.get(first) is None and table.get(equal) == "equal"
