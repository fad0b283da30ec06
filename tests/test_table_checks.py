"""Table-extractor mistakes traceable (issue 29): the space rule leaves look-behinds and
character classes alone; check_domain names a placeholder that never matches and the
patterns no text matched."""

from __future__ import annotations

import re

import pytest

from factcov.extractors.patterns import compile_table, spaces_as_whitespace
from factcov.language import fold
from factcov.testing import check_domain
from tests.test_example_plugin import quali  # noqa: F401 (a fixture)


@pytest.mark.parametrize(("pattern", "written"), [
    ("a b", r"a\s+b"),
    ("(?<=lap )(?P<n>\\d+) laps", r"(?<=lap )(?P<n>\d+)\s+laps"),
    ("(?<!no )pit stop", r"(?<!no )pit\s+stop"),
    ("(?<=(?:in|on) )x y", r"(?<=(?:in|on) )x\s+y"),
    ("[ ,]x y", r"[ ,]x\s+y"),
    ("[] ]a b", r"[] ]a\s+b"),
    ("a\\ b c", r"a\ b\s+c"),
    ("(?=a b)c", r"(?=a\s+b)c"),  # a look-ahead may vary in width: its space is any whitespace
])
def test_spaces_become_any_whitespace_except_where_that_changes_the_meaning(pattern, written):
    assert spaces_as_whitespace(pattern) == written
    re.compile(written)


def test_a_table_pattern_with_a_look_behind_compiles_and_still_matches_across_lines():
    """The user's case: 'look-behind requires fixed-width pattern' from inside the plugin."""
    grammar = compile_table({"pit": (r"(?<=on lap )(?P<n>\d+) (?:he|she) pitted",)}, {})
    (pattern,) = grammar["pit"]
    assert pattern.search(fold("On lap 13 he\npitted")).group("n") == "13"
    assert pattern.search(fold("On lap  13 he pitted")) is None  # the look-behind is exact


def test_check_domain_names_a_doubled_brace_placeholder(quali, monkeypatch):  # noqa: F811
    from factcov_quali.extractor import QualiRegexExtractor

    patterns = {**QualiRegexExtractor.patterns, "pole": (r"(?P<driver>{{driver}}) took pole",)}
    monkeypatch.setattr(QualiRegexExtractor, "patterns", patterns)
    with pytest.raises(AssertionError) as raised:
        check_domain(quali, max_perturbations=1)
    message = str(raised.value)
    assert "QualiRegexExtractor.patterns['pole'][0] has {{driver}}" in message
    assert "write {driver}" in message and "never matches" in message


def test_check_domain_names_an_unknown_slot(quali, monkeypatch):  # noqa: F811
    from factcov_quali.extractor import QualiRegexExtractor

    patterns = {**QualiRegexExtractor.patterns, "pole": (r"(?P<driver>{driver}) of {team} took pole",)}
    monkeypatch.setattr(QualiRegexExtractor, "patterns", patterns)
    with pytest.raises(AssertionError, match=r"has \{team\}.*there is no slot 'team' \(slots: driver, number, ordinal"):
        check_domain(quali, max_perturbations=1)


def test_check_domain_lists_the_patterns_no_text_matched(quali):  # noqa: F811
    from factcov_quali.extractor import QualiRegexExtractor

    report = check_domain(quali, max_perturbations=1)
    assert report.unmatched_patterns, "the realized texts use one phrasing per claim type"
    fastest = next(i for i, p in enumerate(QualiRegexExtractor.patterns["pole"]) if "fastest" in p)
    assert any(line.startswith(f"patterns['pole'][{fastest}]: ") for line in report.unmatched_patterns)
    assert not any(line.startswith("patterns['pole'][0]: ") for line in report.unmatched_patterns)
    with pytest.raises(AssertionError, match=r"table pattern\(s\) matched none of the 5 texts checked"):
        check_domain(quali, max_perturbations=1, strict_patterns=True)
