"""factcov.extractors.anchors: the literals every match of a pattern contains, and the
f1 reader that skips a rule where none of its anchors stands (same claims, less scanning)."""

from __future__ import annotations

import dataclasses
import random
import re
import zlib
from pathlib import Path

import pytest

from factcov.domains.f1.extract import F1RegexExtractor, _Reader
from factcov.domains.f1.instances import race_instances
from factcov.domains.f1.lexicon import lexicon
from factcov.domains.f1.source import race
from factcov.extractors.anchors import Anchors, anchors
from factcov.language import fold
from factcov.plugins import get_domain


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"\b(\d+)[- ]stops?\b", {" stop", "-stop"}),
    (r"\b(?:won|wins|win|victory)\b", {"won", "win", "victory"}),
    (r"(?:the\s+)?pit(?=\s)", {"pit"}),  # a lookahead and \s consume no literal: "pit" stays
    (r"laps? (?P<n>\d{1,2})", {"lap ", "laps "}),
    (r"a|b?", None),  # may match the empty string
    (r"\w+ing", {"ing"}),
    (r"(?i)stop", None),  # case-insensitive: a literal check would miss "STOP"
    (r"(?i:stop) now", {" now"}),
    (r"(a)\1", {"a"}),
])
def test_anchors_of_patterns(pattern: str, expected: set[str] | None) -> None:
    found = anchors(re.compile(pattern))
    assert (None if found is None else set(found)) == expected


def _random_pattern(rng: random.Random, depth: int = 0) -> str:
    """A small pattern over the alphabet 'abc ' with the constructs the analysis handles."""
    pieces = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["lit", "lit", "class", "alt", "opt", "plus", "star", "look", "bound", "group", "any"])
        if depth > 2 and kind in ("alt", "opt", "plus", "star", "group"):
            kind = "lit"
        if kind == "lit":
            pieces.append("".join(rng.choice("abc ") for _ in range(rng.randint(1, 3))))
        elif kind == "class":
            pieces.append("[" + "".join(rng.sample("abc ", rng.randint(1, 3))) + "]")
        elif kind == "alt":
            pieces.append("(?:" + "|".join(_random_pattern(rng, depth + 1) for _ in range(rng.randint(2, 3))) + ")")
        elif kind == "opt":
            pieces.append("(?:" + _random_pattern(rng, depth + 1) + ")?")
        elif kind == "plus":
            pieces.append("(?:" + _random_pattern(rng, depth + 1) + "){1,2}")
        elif kind == "star":
            pieces.append("(?:" + _random_pattern(rng, depth + 1) + ")*")
        elif kind == "look":
            pieces.append(rng.choice(["(?=a)", "(?!b)", "(?<=c)", "(?<! )"]))
        elif kind == "bound":
            pieces.append(rng.choice([r"\b", r"\B", "^", "$"]))
        elif kind == "group":
            pieces.append("(" + _random_pattern(rng, depth + 1) + ")")
        else:
            pieces.append(rng.choice([".", r"\s", r"\w", "[^a]"]))
    return "".join(pieces)


def test_every_match_of_random_patterns_contains_an_anchor() -> None:
    rng = random.Random(12)
    texts = ["".join(rng.choice("abc  ") for _ in range(rng.randint(0, 40))) for _ in range(60)]
    checked = 0
    for _ in range(1500):
        pattern = re.compile(_random_pattern(rng))
        found = anchors(pattern)
        if found is None:
            continue
        for text in texts:
            for match in pattern.finditer(text):
                assert any(a in match.group(0) for a in found), (pattern.pattern, text, match.group(0), found)
                checked += 1
    assert checked > 1000  # the property was put to the test, not skipped


@pytest.fixture(scope="module")
def texts(shared_data: Path) -> list[tuple[object, str]]:
    """Realized and hand-varied texts of two real races in three languages, plus the same
    sentences run together (so sentence breaks move)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "f1_regex", Path(__file__).resolve().parents[1] / "benchmarks" / "f1_regex.py")
    f1_regex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(f1_regex)
    varied = f1_regex.varied

    domain = get_domain("f1")
    out = []
    for season, round_ in ((2021, 1), (2023, 1)):
        for instance in race_instances(race(shared_data / "f1", season, round_)):
            realized = domain.realize(instance.facts, instance.language, instance)
            out.append((instance, realized))
            out.append((instance, varied(instance, random.Random(zlib.crc32(instance.id.encode())))))
            out.append((instance, realized.replace(". ", ", and ")))
    return out


def test_every_match_of_the_f1_grammar_contains_an_anchor(texts: list[tuple[object, str]]) -> None:
    for language in ("en", "es", "pt"):
        lex = lexicon(language)
        patterns = []
        for field in dataclasses.fields(lex):
            value = getattr(lex, field.name)
            patterns += [p for p in (value if isinstance(value, tuple) else (value,)) if isinstance(p, re.Pattern)]
        folded = [fold(text) for instance, text in texts if instance.language == language]
        matched = 0
        for pattern in patterns:
            found = anchors(pattern)
            if found is None:
                continue
            for text in folded:
                for match in pattern.finditer(text):
                    assert any(a in match.group(0) for a in found), (language, pattern.pattern, match.group(0))
                    matched += 1
        assert matched > 1000


def test_hits_count_only_anchors_inside_the_stretch() -> None:
    gate = Anchors({"stops": [re.compile(r"\bstop\w*")], "any": [re.compile(r"\w+")]})
    text = "he made a stop. then he won"
    hits = gate.find(text)
    assert hits.present("stops", 0, 15) and not hits.present("stops", 15, len(text))
    assert not hits.present("stops", 0, 12)  # "sto" is inside, "stop" is not
    assert hits.present("any", 15, 16)  # a pattern without anchors is never skipped
    assert hits.within(0, 15) == {"stops", "any"} and hits.within(15, len(text)) == {"any"}
    assert hits.present("unknown", 0, 1)  # a name the anchors were not given: never skipped


def test_the_gated_reader_reads_what_every_rule_on_every_sentence_reads(texts: list[tuple[object, str]]) -> None:
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    for instance, text in texts:
        extractor = extractors[instance.language]
        gated = _Reader(extractor.name, extractor.lex, text, instance.context).read()
        every = _Reader(extractor.name, extractor.lex, text, instance.context).read(gated=False)
        assert gated == every, text


def test_sentence_ends_as_before_the_rewrite() -> None:
    """The f1 grammar's sentence end, rewritten so each alternative opens with its
    character, ends sentences where the earlier form did (random texts of the characters
    that matter)."""
    from factcov.domains.f1.lexicon import SENTENCE_END

    earlier = re.compile(r"(?<!\d)[.!?](?=\s|$)|(?<=\d)\.(?=\s|$)|\n")
    now = re.compile(SENTENCE_END)
    rng = random.Random(3)
    for _ in range(3000):
        text = "".join(rng.choice("a1.!? \n\t") for _ in range(rng.randint(0, 25)))
        assert [m.span() for m in earlier.finditer(text)] == [m.span() for m in now.finditer(text)], text


def test_every_rule_is_gated_by_its_own_triggers_in_reading_order() -> None:
    from factcov.domains.f1.reading import RULES, grammar_anchors, rule_triggers

    for language in ("en", "es", "pt"):
        assert tuple(rule_triggers(lexicon(language))) == RULES
        assert set(RULES) <= set(grammar_anchors(language).literals)
