"""factcov.extractors.anchors: the literals every match of a pattern contains, and the
f1 reader that skips a rule where none of its anchors stands (same claims, less scanning)."""

from __future__ import annotations

import dataclasses
import random
import re
import zlib
from pathlib import Path

import pytest

from factcov.domains.f1.extractor import F1RegexExtractor, _Reader
from factcov.domains.f1.instances import race_instances
from factcov.domains.f1.lexicon import lexicon
from factcov.domains.f1.source import race
from factcov.extractors.anchors import Anchors, anchors, word_start
from factcov.extractors.fast_regex import compile_fast
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


@pytest.mark.slow
def test_every_match_of_random_patterns_holds_an_anchor_at_a_word_start_where_one_is_required() -> None:
    """``word_start_anchors``: a literal marked as opening at a word boundary stands, in
    every match (the whole text scanned from and to random offsets), where ``\\b`` holds."""
    from factcov.extractors.anchors import word_start, word_start_anchors

    rng = random.Random(21)
    texts = ["".join(rng.choice("abc  .") for _ in range(rng.randint(0, 40))) for _ in range(60)]
    checked = marked = 0
    for _ in range(2000):
        source = _random_pattern(rng)
        pattern = re.compile(r"\b" + source if rng.random() < 0.6 else source)
        found = word_start_anchors(pattern)
        if found is None:
            assert anchors(pattern) is None
            continue
        marked += any(found.values())
        for text in texts:
            pos = rng.randint(0, len(text))
            for match in pattern.finditer(text, pos, rng.randint(pos, len(text))):
                start, end = match.span()
                assert any(
                    text.startswith(literal, i) and (not at_word or word_start(text, i))
                    for literal, at_word in found.items() for i in range(start, end - len(literal) + 1)
                ), (pattern.pattern, text, match.group(0), found)
                checked += 1
    assert checked > 1000 and marked > 100  # the property was put to the test, not skipped


def test_a_rule_scanning_the_whole_text_wakes_only_at_a_word_start() -> None:
    gate = Anchors({"copula": [re.compile(r"\b(?:is|was)\s+\w+")], "plain": [re.compile(r"\b(?:is|was)\s+\w+")]},
                   word_start={"copula"})
    his, it_is = gate.find("made his stop"), gate.find("it is third")
    assert not his.present("copula", 0, 13) and his.present("plain", 0, 13)  # "is" in "his"
    assert it_is.present("copula", 0, 11) and it_is.present("plain", 0, 11)
    assert gate.find("is third").present("copula", 0, 8)  # the text's start is a word's


def test_word_starts_told_by_the_character_before_are_the_engine_s() -> None:
    """``Anchors.find`` tells a word start by the character before a hit (a Latin-1 text)
    or by the engine's ``\\b`` (any other), and finds the short words counted only there
    ("e", "se", "to") by a byte search: the hits of rules woken only at a word start are,
    either way, every occurrence of their literals where ``word_start`` holds. Random texts
    of letters, digits, "_", accents, ordinals, superscripts, spaces, punctuation, "?" and
    characters past Latin-1 (a lone surrogate too)."""
    assert len(Anchors({"short": [re.compile(r"\b(?:e|to)\b")]}, word_start={"short"})._short_words) == 2
    from factcov.extractors.anchors import word_start

    rules = {"at_word": [re.compile(r"\b(?:is|e|ab)\b")], "anywhere": [re.compile(r"is\b|ab")],
             "opening_other": [re.compile(r"\b(?:se|to)")]}
    gate = Anchors(rules, word_start={"at_word", "opening_other"})
    rng = random.Random(16)
    alphabet = ["is", "e", "ab", "se", "to", " ", "_", "1", "é", "ª", "²", "º", "\xa0", ".", "-", "’", "\n", "x", "Ж",
                "?", "\ud800"]
    latin = other = 0
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        hits = gate.find(text)
        for rule, literals in (("at_word", ("is", "e", "ab")), ("opening_other", ("se", "to"))):
            expected = sorted((i, i + len(literal)) for literal in literals for i in range(len(text))
                              if text.startswith(literal, i) and word_start(text, i))
            assert sorted(hits.spans(rule)) == expected, (text, rule)
        latin += all(ord(c) < 256 for c in text)
        other += any(ord(c) >= 256 for c in text)
    assert latin > 500 and other > 500


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
    from factcov.domains.f1.extractor import RULES, _Reader, f1_grammar_anchors

    for language in ("en", "es", "pt"):
        assert tuple(_Reader.rule_book.triggers(lexicon(language))) == RULES
        assert set(RULES) <= set(f1_grammar_anchors(language).literals)


def _same_matches(fast: re.Pattern[str], slow: re.Pattern[str], text: str, pos: int, endpos: int) -> None:
    found = [(m.span(), m.groups(), m.groupdict()) for m in fast.finditer(text, pos, endpos)]
    expected = [(m.span(), m.groups(), m.groupdict()) for m in slow.finditer(text, pos, endpos)]
    assert found == expected, (slow.pattern, text, pos, endpos)
    assert bool(fast.match(text, pos, endpos)) == bool(slow.match(text, pos, endpos))


@pytest.mark.parametrize(("pattern", "changed"), [
    (r"\bwhile\b|\bbut\b|;", True),
    (r"\b(?:pit|stop)(?:s|ped)?\b", True),
    (r"\b(?P<n>a|bc)\b", True),  # a named group keeps its name and number
    # more first characters than literals worth a look-behind: led by their set instead
    (r"\b\w+", True),
    (r"\b(?:a|\w)", True),
    (r"\b(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa)\b", True),
    (r"(?:\d{1,2}|one|two)(?:\s+laps?)?", True),
    (r"(?:the\s+)?(?=\d)\d+(?!\.)", True),  # an optional item and a look-ahead: their followers join the set
    (r"\s*(?:a|b)", False),  # a space may open it: most positions are candidates anyway
    (r"(?:\W|x)y", False),
    (r"^\d+", False),  # tried at the start only
    (r"(?i)\bstop", False),  # case-insensitive
    (r"\b.x", False),  # any character
    (r"[^a]b", False),
    (r"\d?", False),  # may match empty
    (r"[abc]de", False),  # the engine's own prefilter already
])
def test_compile_fast_changes_only_what_it_speeds_up(pattern: str, changed: bool) -> None:
    slow = re.compile(pattern)
    fast = compile_fast(slow)
    assert (fast is not slow) == changed
    assert fast.pattern == slow.pattern and fast.flags == slow.flags and fast.groupindex == slow.groupindex


def test_compile_fast_matches_what_the_pattern_matches_on_random_patterns_and_stretches() -> None:
    """Random patterns (most opened with \\b, the others led by a set of first characters)
    over random texts, searched from and to random offsets (a boundary at the start of a
    stretch looks at the character before it)."""
    rng = random.Random(5)
    texts = ["".join(rng.choice("abc  .") for _ in range(rng.randint(0, 30))) for _ in range(40)]
    changed = led = 0
    openings = random.Random(6)
    for _ in range(1500):
        # openings drawn apart, so the patterns stay those known to run in reasonable time
        opening = r"\b" if openings.random() < 0.6 else openings.choice(["", "(?=a)", "(?!b)", "(?<=c)"])
        slow = re.compile(opening + _random_pattern(rng) if rng.random() < 0.7 else
                          "|".join(opening + _random_pattern(rng, 2) for _ in range(rng.randint(2, 3))))
        fast = compile_fast(slow)
        changed += fast is not slow
        led += fast is not slow and not opening
        for text in texts:
            pos = rng.randint(0, len(text))
            _same_matches(fast, slow, text, pos, rng.randint(pos, len(text)))
            _same_matches(fast, slow, text, 0, len(text))
    assert changed > 300 and led > 15  # both rewrites were put to the test


@pytest.mark.slow
def test_the_f1_grammar_compiled_fast_matches_what_it_was_written_as(texts: list[tuple[object, str]]) -> None:
    """Every pattern of the f1 lexicon (compiled with ``compile_fast``) against the same
    source compiled plainly, over real texts, whole and from a random offset to another."""
    from factcov.domains.f1 import reading, rules_race, rules_strategy

    rng = random.Random(8)
    quick = 0
    rules_own = [value for module in (reading, rules_race, rules_strategy) for value in vars(module).values()
                 if isinstance(value, re.Pattern)]  # the rules' own patterns, some compiled with compile_fast too
    for language in ("en", "es", "pt"):
        lex = lexicon(language)
        folded = [fold(text) for instance, text in texts if instance.language == language][:200]
        for field in [*dataclasses.fields(lex), *rules_own]:
            value = field if isinstance(field, re.Pattern) else getattr(lex, field.name)
            for fast in value if isinstance(value, tuple) else (value,):
                if not isinstance(fast, re.Pattern):
                    continue
                slow = re.compile(fast.pattern, fast.flags)
                quick += fast is not slow
                for text in folded:
                    pos = rng.randint(0, len(text))
                    _same_matches(fast, slow, text, 0, len(text))
                    _same_matches(fast, slow, text, pos, rng.randint(pos, len(text)))
    assert quick > 60


def test_the_f1_grammar_compiled_fast_matches_what_it_was_written_as_on_hostile_texts(
        texts: list[tuple[object, str]]) -> None:
    """The same comparison over real sentences damaged at random: digits, ordinal marks,
    dashes, stray letters, accents, runs of spaces and line breaks spliced in (matches
    opening at odd places, numbers glued to words, a look-behind at a cut)."""
    rng = random.Random(21)
    pieces = [*"0123456789", "º", "ª", "°", ".", ",", "-", "–", " ", "  ", "\n", "\t", "p", "st", "th", "a",
              "e", "o", "lap", "vuelta", "volta", "de", "stop", "É", "ñ", "'", "%", "(", ";", "1st", "2.º", "3ª"]
    led = 0
    for language in ("en", "es", "pt"):
        lex = lexicon(language)
        damaged = []
        for _instance, text in [t for t in texts if t[0].language == language][:60]:
            chars = list(fold(text))
            for _ in range(rng.randint(1, 12)):
                chars.insert(rng.randint(0, len(chars)), rng.choice(pieces))
            damaged.append("".join(chars))
        for value in (getattr(lex, field.name) for field in dataclasses.fields(lex)):
            for fast in value if isinstance(value, tuple) else (value,):
                if not isinstance(fast, re.Pattern):
                    continue
                slow = re.compile(fast.pattern, fast.flags)
                led += compile_fast(slow) is not slow  # (``slow`` itself when nothing changed)
                for text in damaged:
                    pos = rng.randint(0, len(text))
                    _same_matches(fast, slow, text, 0, len(text))
                    _same_matches(fast, slow, text, pos, rng.randint(pos, len(text)))
        # the scans that cost most before: numbers, ordinals, lap references
        costly = (lex.lap_ref, lex.number, lex.stop_ordinal, lex.stint_ordinal)
        assert all(compile_fast(slow) is not slow for slow in (re.compile(p.pattern) for p in costly))
    assert led > 100


def test_the_f1_ordinal_as_a_trie_matches_the_ordinal_written_longest_first(texts: list[tuple[object, str]]) -> None:
    """The lexicon writes ``ordinal_pattern``'s words as a trie: every pattern holding it
    matches what the same pattern written with ``ordinal_pattern`` matches, over real texts
    and the same texts with ordinals of every kind spliced in."""
    from factcov.language import ordinal_pattern, ordinal_words

    rng = random.Random(34)
    compared = 0
    for language in ("en", "es", "pt"):
        lex = lexicon(language)
        assert lex.ord != ordinal_pattern(language)
        ordinals = [*ordinal_words(language), "p3", "12th", "2.º", "3ª", "1os", "decimo", "terceiro-"]
        folded = [fold(text) for instance, text in texts if instance.language == language][:90]
        for text in list(folded):
            words = text.split(" ")
            for _ in range(rng.randint(1, 6)):
                words.insert(rng.randint(0, len(words)), rng.choice(ordinals))
            folded.append(" ".join(words))
        for value in (getattr(lex, field.name) for field in dataclasses.fields(lex)):
            for fast in value if isinstance(value, tuple) else (value,):
                if not isinstance(fast, re.Pattern) or lex.ord not in fast.pattern:
                    continue
                written = re.compile(fast.pattern.replace(lex.ord, ordinal_pattern(language)), fast.flags)
                compared += 1
                for text in folded:
                    pos = rng.randint(0, len(text))
                    _same_matches(fast, written, text, 0, len(text))
                    _same_matches(fast, written, text, pos, rng.randint(pos, len(text)))
    assert compared >= 15


def _overlapping_gate() -> Anchors:
    """Three rules whose anchors overlap and nest ("ab" in "abcab", "c" in "cc a"): the
    random texts over "abc " below hit every case of a stretch's edges."""
    return Anchors({
        "short": [re.compile(r"ab|c")], "long": [re.compile(r"abcab|cc a")], "mid": [re.compile(r"b a")],
    })


def test_the_rules_of_a_stretch_are_those_with_an_anchor_wholly_inside() -> None:
    """``Hits.mask`` (the hits far from the stretch's end or-ed at once, those near it one
    by one) against every hit checked one by one, on random texts and stretches."""
    rng = random.Random(9)
    gate = _overlapping_gate()
    for _ in range(400):
        text = "".join(rng.choice("abc ") for _ in range(rng.randint(0, 40)))
        hits = gate.find(text)
        for rule in gate.bits:  # every occurrence of every anchor, overlapping ones too
            assert sorted(hits.spans(rule)) == sorted(
                {(i, i + len(literal)) for literal in gate.literals[rule] for i in range(len(text))
                 if text.startswith(literal, i)})
        for _ in range(10):
            start = rng.randint(0, len(text))
            end = rng.randint(start, len(text))
            # an anchor wholly inside the stretch, found by str.find
            expected = {rule for rule in gate.bits if any(text.find(literal, start, end) != -1
                                                          for literal in gate.literals[rule])}
            assert hits.within(start, end) == expected, (text, start, end)
            for rule in gate.bits:
                assert hits.present(rule, start, end) == (rule in expected)


def test_literal_anchors_and_spans_listed_apart_are_every_occurrence() -> None:
    """Anchors given as literals (``literal_anchors``) are hits wherever they stand, none
    dropped for holding another ("ab" in "cab"), beside rules' anchors; and the spans of a
    name listed ``apart``, and whether it stands anywhere, are those found over every hit,
    for rules and literals alike."""
    rng = random.Random(15)
    rules = {"short": [re.compile(r"ab|c")], "long": [re.compile(r"abcab|cc a")]}
    given = {"given": ["ab", "cab", "b a", "a"]}
    plain = Anchors(rules, literal_anchors=given)
    apart = Anchors(rules, literal_anchors=given, apart=("given", "long"))
    assert plain.bits == apart.bits and list(plain.bits) == ["short", "long", "given"]
    for _ in range(400):
        text = "".join(rng.choice("abc ") for _ in range(rng.randint(0, 40)))
        every, listed = plain.find(text), apart.find(text)
        expected = sorted({(i, i + len(literal)) for literal in given["given"] for i in range(len(text))
                           if text.startswith(literal, i)})
        assert sorted(every.spans("given")) == expected
        for name in plain.bits:
            assert listed.spans(name) == every.spans(name), (text, name)
            assert listed.anywhere(name) == every.anywhere(name) == bool(every.everywhere() & plain.bits[name])
            assert listed.mask(0, len(text)) == every.mask(0, len(text))
    with pytest.raises(ValueError):
        Anchors(rules, literal_anchors={"given": ["ab", ""]})
    with pytest.raises(ValueError):
        Anchors(rules, literal_anchors={"short": ["ab"]})


def test_the_masks_of_a_text_cut_in_stretches_are_each_stretch_s_mask() -> None:
    """``Hits.masks`` (one pass over the hits for every sentence of a text), asked of
    hits found without the cuts and worked out by ``Anchors.find`` given them, against
    ``Hits.mask`` of each stretch, on random texts cut at random places; with anchors
    counted only where a word starts (their bits given in that same pass) too."""
    rng = random.Random(12)
    gates = (_overlapping_gate(), Anchors({"copula": [re.compile(r"\b(?:is|was)\s")], "cab": [re.compile(r"\bcab")]},
                                          word_start=("copula", "cab")))
    for gate, letters in zip(gates, ("abc ", "aicbsw ")):
        for _ in range(600):
            text = "".join(rng.choice(letters) for _ in range(rng.randint(1, 40)))
            ends = sorted(set(rng.sample(range(1, len(text) + 1), rng.randint(0, min(6, len(text))))) | {len(text)})
            starts = [0, *ends[:-1]]
            plain, cut = gate.find(text), gate.find(text, ends)
            expected = [plain.mask(s, e) for s, e in zip(starts, ends)]
            assert plain.masks(ends) == cut.masks(ends) == expected, (text, ends)
            assert [cut.mask(s, e) for s, e in zip(starts, ends)] == expected, (text, ends)
            assert cut.everywhere() == plain.everywhere() and cut.every == plain.every
            assert all(cut.spans(rule) == plain.spans(rule) for rule in gate.bits)
            if gate is gates[1]:  # every literal counted only where a word starts: the plain way
                assert expected == [sum(bit for rule, bit in gate.bits.items() if any(
                    text.startswith(literal, i) and word_start(text, i)
                    for literal in gate.literals[rule] for i in range(s, e - len(literal) + 1)))
                    for s, e in zip(starts, ends)], (text, ends)
    with pytest.raises(ValueError):
        gates[0].find("abc", [2])  # the stretches must cover the text


def test_the_mask_of_the_whole_text_is_every_hit_s() -> None:
    rng = random.Random(14)
    gate = _overlapping_gate()
    for _ in range(300):
        text = "".join(rng.choice("abc ") for _ in range(rng.randint(0, 40)))
        hits = gate.find(text)
        assert hits.everywhere() == hits.mask(0, len(text)), text


def test_word_start_gating_reads_what_every_rule_reads_where_words_are_glued_or_cut(
        texts: list[tuple[object, str]]) -> None:
    """The rules woken only where a trigger word starts a word (``WHOLE_TEXT_RULES``) read
    what every rule on every sentence reads on texts whose trigger words are glued to
    others ("xwon", "this") and whose sentences are cut inside a word (a run longer than
    MAX_SENTENCE_CHARS without a space)."""
    from factcov.domains.f1.extractor import WHOLE_TEXT_RULES
    from factcov.extractors.spans import MAX_SENTENCE_CHARS

    assert "winners_and_positions" in WHOLE_TEXT_RULES and "defenses" not in WHOLE_TEXT_RULES
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    rng = random.Random(31)
    glue = ["x", "th", "h", "1", "_", ""]
    checked = 0
    for instance, text in texts[::9]:
        words = text.split(" ")
        glued = " ".join(rng.choice(glue) + w if rng.random() < 0.3 else w for w in words)
        cut = "y" * (MAX_SENTENCE_CHARS - rng.randint(1, 40)) + text.replace(" ", "", rng.randint(0, 3))
        for variant in (glued, cut):
            extractor = extractors[instance.language]
            gated = _Reader(extractor.name, extractor.lex, variant, instance.context).read()
            every = _Reader(extractor.name, extractor.lex, variant, instance.context).read(gated=False)
            assert gated == every, variant[:200]
            checked += 1
    assert checked > 50
