"""Shortcuts inside the f1 rules (domains/f1/rules_strategy.py, rules_race.py) read what
the rules read without them: real texts of two races in three languages, run together,
and hostile ones (other digits, capitals, line breaks, number words)."""

from __future__ import annotations

import dataclasses
import random
import re
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

import factcov.domains.f1.rules_strategy as rules_strategy
import factcov.extractors.scanner as scanner
from factcov.domains.f1.extractor import F1RegexExtractor, _Reader
from factcov.domains.f1.instances import race_instances
from factcov.domains.f1.lexicon import lexicon
from factcov.domains.f1.source import race
from factcov.extractors.scanner import pattern_keys
from factcov.language import fold
from factcov.plugins import get_domain

HOSTILE = {
    "en": [
        "Hamilton pitted on ١٣ and Verstappen stopped on lap ٢٨.",  # digits of another script
        "VERSTAPPEN BOXED ON LAP 17; HAMILTON STAYED OUT UNTIL LAP 20.",
        "Norris made his second stop on the\nseventeenth lap, switching from the medium to the hard tyres.",
        "Pérez came in on laps 12 and 33, Hamilton's in-lap was lap\u00a014.",
        "Leclerc stopped twice: first stop lap 13, second stop on 28 (soft, medium, hard).",
        "Bottas made 2 stops, pitting on lap thirteen and lap twenty-eight.",
        "A VSC between laps 36 and 38, then Verstappen stopped on lap 39 against Sargeant's lap 12.",
        "Ricciardo ran soft, hard, soft, soft; he never used the full\nwets and pitted on 17 stops.",
        "Gasly swapped the inters for softs on lap 37.",  # the lap after a change
        "Gasly went soft to hard on ٢٠, then switched from the medium to the hard tyres on LAP 41.",
        # a verb's scope cut by another verb, a clause break and the safety car, in one sentence
        "Verstappen won while Hamilton pitted on lap 30 but finished second, Pérez stopped under the safety car on 41.",
    ],
    "es": [
        "Hamilton paró en la vuelta ١٣ y Verstappen en la 28.",
        "Sainz hizo su primera parada en el giro diecisiete, de blandos a duros.",
        "Alonso entró a boxes en las vueltas 12 y 33; la secuencia fue blando, medio, duro.",
    ],
    "pt": [
        "Hamilton parou na volta ١٣ e Verstappen na 28.",
        "Sainz fez a primeira parada no giro dezessete, de macios para duros.",
        "Alonso entrou nos boxes nas voltas 12 e 33; a sequencia foi macio, medio, duro.",
    ],
}


@pytest.fixture(scope="module")
def texts(shared_data: Path) -> list[tuple[object, str]]:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "f1_regex", Path(__file__).resolve().parents[1] / "benchmarks" / "f1_regex.py")
    f1_regex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(f1_regex)
    domain = get_domain("f1")
    out = []
    for season, round_ in ((2021, 2), (2022, 1)):
        instances = race_instances(race(shared_data / "f1", season, round_))
        for instance in instances:
            realized = domain.realize(instance.facts, instance.language, instance)
            out.append((instance, realized))
            out.append((instance, f1_regex.varied(instance, random.Random(zlib.crc32(instance.id.encode())))))
            out.append((instance, realized.replace(". ", "; ")))
        for language, hostile in HOSTILE.items():
            picks = [i for i in instances if i.language == language][:3]
            out += [(instance, text) for instance in picks for text in hostile]
    return out


def _read_all(texts: list[tuple[object, str]]) -> list[list[object]]:
    """Every text's claims, read by a fresh reader (with the shortcuts as patched now)."""
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    return [_Reader(extractors[i.language].name, extractors[i.language].lex, t, i.context).read() for i, t in texts]


def _reads_the_same_without(texts: list[tuple[object, str]], monkeypatch: pytest.MonkeyPatch, target: object,
                            name: str, plain: object, claim_type: str, at_least: int) -> None:
    """The texts read with a shortcut and with ``target.name`` set to ``plain`` (the
    shortcut left out) give the same claims, more than ``at_least`` of ``claim_type``."""
    shortcut = _read_all(texts)
    monkeypatch.setattr(target, name, plain)
    assert _read_all(texts) == shortcut
    assert sum(c.type == claim_type for claims in shortcut for c in claims) > at_least


def test_a_lap_reference_holds_a_lap_word_or_a_digit(texts: list[tuple[object, str]]) -> None:
    """``_may_hold_lap`` is found in every stretch where ``lap_numbers`` finds a lap (so
    pit_laps may skip a sentence without one): random stretches of every text."""
    rng = random.Random(12)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    with_laps = 0
    for instance, text in texts:
        extractor = extractors[instance.language]
        reader = _Reader(extractor.name, extractor.lex, text, instance.context)
        hint = rules_strategy._may_hold_lap(instance.language)
        for _ in range(20):
            start = rng.randrange(len(reader.folded))
            end = rng.randrange(start, len(reader.folded) + 1)
            for bare in (True, False):
                if reader.lap_numbers(start, end, bare=bare):
                    with_laps += 1
                    assert hint.search(reader.folded, start, end), (reader.folded[start:end], bare)
    assert with_laps > 1000


def _plain_lap_numbers(reader: _Reader, start: int, end: int, bare: bool) -> list[tuple[int, int, int]]:
    """``lap_numbers`` without its shortcut: every number of a lap list read by the number pattern."""
    found = []
    lex, folded = reader.lex, reader.folded
    for match in lex.lap_ref.finditer(folded, start, end):
        if match.group("nums"):
            for number in lex.number.finditer(folded, match.start("nums"), match.end("nums")):
                value = reader.number(number.group(0))
                if isinstance(value, int):
                    found.append((value, number.start(), number.end()))
        elif match.group("bare") and bare:
            found += [(int(n.group(0)), match.start("bare") + n.start(), match.start("bare") + n.end())
                      for n in re.finditer(r"\d+", match.group("bare"))]
        elif match.group("ord"):
            value = reader.ordinal(match.group("ord"), None, "pit_stops")
            if value is not None:
                found.append((value, match.start(), match.end()))
    return found


def test_the_laps_of_a_lap_reference_are_those_the_number_pattern_reads(texts: list[tuple[object, str]]) -> None:
    """``lap_numbers`` (a lap list of one number in ASCII digits, "lap 13", taken as it
    stands) reads what the number pattern reads in it, over random stretches and whole
    sentences of real and damaged texts (laps in other digits, in words, listed)."""
    rng = random.Random(23)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    read = in_words = 0
    for instance, text in texts + [(i, _damaged(rng, t)) for i, t in texts[::3]]:
        extractor = extractors[instance.language]
        reader = _Reader(extractor.name, extractor.lex, text, instance.context)
        stretches = [(s.start, s.end) for s in reader.sentences()]
        for _ in range(3):
            start = rng.randrange(len(reader.folded))
            stretches.append((start, rng.randrange(start, len(reader.folded) + 1)))
        for start, end in stretches:
            for bare in (True, False):
                found = reader.lap_numbers(start, end, bare=bare)
                assert found == _plain_lap_numbers(reader, start, end, bare), (reader.folded[start:end], bare)
                read += len(found)
                in_words += sum(not reader.folded[s:e].isdigit() for _, s, e in found)
    assert read > 4000 and in_words > 100, (read, in_words)


def test_the_rules_take_only_spans_of_the_sentence_they_read(texts: list[tuple[object, str]]) -> None:
    """The lap numbers the rules mark read (``consumed``, one mask for a text) lie in the
    sentence being read, in real, damaged and glued texts: a span an earlier sentence took
    never overlaps them, so one mask a text answers what one a sentence would."""
    from factcov.extractors.patterns import SpanMask

    class Checked(SpanMask):
        def take(self, span: tuple[int, int]) -> bool:
            here = reader._here
            assert here[0] <= span[0] <= span[1] <= here[1], (reader.text, span, here)
            taken.append(span)
            return super().take(span)

        def overlaps(self, span: tuple[int, int]) -> bool:
            here = reader._here
            assert here[0] <= span[0] <= span[1] <= here[1], (reader.text, span, here)
            return super().overlaps(span)

    rng = random.Random(29)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    taken: list[tuple[int, int]] = []
    for instance, text in texts + [(i, _damaged(rng, t)) for i, t in texts[::3]]:
        extractor = extractors[instance.language]
        reader = _Reader(extractor.name, extractor.lex, text, instance.context)
        reader.consumed = Checked()
        reader.read()
    assert len(taken) > 1000


def test_pit_laps_without_the_lap_shortcut_reads_the_same(
    texts: list[tuple[object, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _reads_the_same_without(texts, monkeypatch, rules_strategy, "_may_hold_lap", lambda language: re.compile(""),
                            "pit_lap", 500)


def test_the_hostile_texts_read_their_laps(texts: list[tuple[object, str]]) -> None:
    """Laps in other digits, capitals and words are still read (the shortcut does not skip them)."""
    extractor = F1RegexExtractor("en")
    instance = next(i for i, _ in texts if i.language == "en")
    claims = extractor.extract(HOSTILE["en"][0], instance)
    assert sorted(c.value for c in claims if c.type == "pit_lap") == [13, 28]
    claims = extractor.extract(HOSTILE["en"][1], instance)
    assert {c.value for c in claims if c.type == "pit_lap"} == {17, 20}
    claims = extractor.extract(HOSTILE["en"][9], instance)
    assert [(c.type, c.value) for c in claims if c.type == "pit_lap"] == [("pit_lap", 20), ("pit_lap", 41)]


def test_the_rules_read_the_same_with_and_without_the_anchor_gates(texts: list[tuple[object, str]]) -> None:
    """The rules' own use of the anchors (a sentence without a compound word is left at
    once) reads what every rule on every sentence reads, hostile texts included."""
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    read = 0
    for instance, text in texts:
        extractor = extractors[instance.language]
        gated = _Reader(extractor.name, extractor.lex, text, instance.context).read()
        every = _Reader(extractor.name, extractor.lex, text, instance.context).read(gated=False)
        assert gated == every, text
        read += len(gated)
    assert read > 3000


def _fuzz(language: str, rng: random.Random, count: int) -> list[str]:
    """Strings made of what a stop count is made of: count words, digits, fillers, stop
    words, articles, and every kind of gap between them (spaces, hyphens, line breaks,
    no-break spaces)."""
    lex = F1RegexExtractor(language).lex
    words = [*rng.sample(lex.count_ends, 8), "13", "٢", "2.5", "first", "una", "uma", "duas", "a", "la", "his",
             *lex.stop_count_fillers, lex.stop_count_noun, lex.stop_count_noun + "s", "stop", "parada", "pit",
             "eighty-eight", "twenty one", "cincuenta y dos", "lap", "x"]
    gaps = [" ", " ", "-", "", "  ", "\n", "\u00a0", " - ", "\t"]
    return ["".join(rng.choice(words) + rng.choice(gaps) for _ in range(rng.randrange(2, 9))) for _ in range(count)]


def test_a_stop_count_of_the_first_kind_has_a_count_right_before_its_stop_word(
    texts: list[tuple[object, str]]
) -> None:
    """``count_before_stop`` holds wherever ``lex.stop_count[0]`` matches (so stop_counts
    may skip that scan where it does not): random stretches of real, damaged and made-up texts."""
    rng = random.Random(7)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    instances = {i.language: i for i, _ in texts}
    cases = list(texts) + [(instances[language], text) for language in extractors
                           for text in _fuzz(language, rng, 3000)]
    matched = skipped = 0
    for instance, text in cases:
        extractor = extractors[instance.language]
        reader = _Reader(extractor.name, extractor.lex, text, instance.context)
        first = extractor.lex.stop_count[0]
        for _ in range(6):
            start = rng.randrange(len(reader.folded))
            end = rng.randrange(start, len(reader.folded) + 1)
            if first.search(reader.folded, start, end):
                matched += 1
                assert reader.count_before_stop(start, end), (reader.folded[start:end], instance.language)
            elif not reader.count_before_stop(start, end):
                skipped += 1
    assert matched > 500 and skipped > 20000, (matched, skipped)


def test_stop_counts_without_the_count_shortcut_reads_the_same(
    texts: list[tuple[object, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _reads_the_same_without(texts, monkeypatch, _Reader, "count_before_stop", lambda self, start, end: True,
                            "stop_count", 200)


def test_words_before_an_arrow_end_in_the_arrow(texts: list[tuple[object, str]]) -> None:
    """``_ARROW_BEFORE`` matches only words whose last character but spaces is one of
    ``_ARROWS`` (so compound_at tries it only there): real texts and made-up ones."""
    rng = random.Random(3)
    pieces = ["medium", "hard", " ", "  ", "\n", "\u00a0", "-", "–", "/", ">", "→", "->", "x", "1", ",", "é"]
    stretches = ["".join(rng.choice(pieces) for _ in range(rng.randrange(1, 8))) for _ in range(20000)]
    for _, text in texts:
        for _ in range(10):
            start = rng.randrange(len(text))
            stretches.append(text[start: start + rng.randrange(31)])
    found = 0
    for stretch in stretches:
        if rules_strategy._ARROW_BEFORE.search(stretch):
            found += 1
            assert stretch.rstrip()[-1:] in rules_strategy._ARROWS and stretch.rstrip(), repr(stretch)
    assert found > 1000


def test_the_lap_hint_finds_what_its_pattern_finds(texts: list[tuple[object, str]]) -> None:
    """``_may_hold_lap`` (lap words by ``str.find``, digits by a class) says what
    ``\\d|(?:lap words)`` says, on random stretches of real texts and of texts in other
    digits and scripts."""
    rng = random.Random(5)
    pieces = ["lap", "laps", "vuelta", "volta", "giro", "la", "p", "13", "١٣", "٢", "²", "½", "x", " ", "é"]
    cases = [(language, "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 8))))
             for language in ("en", "es", "pt") for _ in range(5000)]
    cases += [(instance.language, text) for instance, text in texts]
    for language, text in cases:
        plain = re.compile(rf"\d|(?:{rules_strategy.LAP_WORD[language]})")
        hint = rules_strategy._may_hold_lap(language)
        folded = text.lower()
        for _ in range(5):
            start = rng.randrange(len(folded) + 1)
            end = rng.randrange(start, len(folded) + 1)
            found = bool(plain.search(folded, start, end))
            assert hint.search(folded, start, end) == found, (folded[start:end], language)


def _change_fuzz(language: str, rng: random.Random, count: int) -> list[str]:
    """Strings made of a compound change's words: every compound word (the ambiguous ones
    and those of several words too), the words that join two sets, articles, tyre nouns."""
    lex = F1RegexExtractor(language).lex
    joins = {"en": ["from", "to", "onto", "for", "switched", "went", "swapped", "another set of", "the", "tyres",
                    "a fresh set of"],
             "es": ["de", "a", "al", "por", "cambio", "los", "neumaticos", "otro juego de", "unos", "lluvia"],
             "pt": ["de", "dos", "para", "pelos", "por", "trocou", "os", "pneus", "outro jogo de", "chuva"]}[language]
    words = [*lex.compound_values, *joins, "x", "13"]
    gaps = [" ", " ", "  ", "\n", "-", ", ", "\u00a0"]
    return ["".join(rng.choice(words) + rng.choice(gaps) for _ in range(rng.randrange(2, 9))) for _ in range(count)]


def test_a_change_between_two_sets_holds_two_compound_words(texts: list[tuple[object, str]]) -> None:
    """Where a change pattern naming two sets matches, ``lex.compound`` finds two words
    (so ``_changes`` leaves those patterns out of a sentence with one), and one where a
    change of one set does (so ``compounds`` leaves a sentence without one at once):
    random stretches of real texts and of made-up ones."""
    rng = random.Random(11)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    cases = [(i.language, fold(t)) for i, t in texts]
    cases += [(language, text) for language in extractors for text in _change_fuzz(language, rng, 8000)]
    matched = one_set = 0
    for language, folded in cases:
        lex = extractors[language].lex
        two = [p for p in lex.changes if p not in lex.one_set_changes]
        assert two and all("c2" in p.groupindex for p in two)
        for start, end in [(0, len(folded))] + [sorted(rng.sample(range(len(folded) + 1), 2)) for _ in range(3)]:
            if any(p.search(folded, start, end) for p in two):
                matched += 1
                assert len(list(lex.compound.finditer(folded, start, end))) > 1, (folded[start:end], language)
            if any(p.search(folded, start, end) for p in lex.one_set_changes):
                one_set += 1
                assert lex.compound.search(folded, start, end), (folded[start:end], language)
    assert matched > 400 and one_set > 100, (matched, one_set)


def test_compounds_without_the_change_shortcut_reads_the_same(
    texts: list[tuple[object, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sentence with one compound word is scanned with ``one_set_changes`` only (a change
    from one set to another names two): read with every change pattern instead, the same."""
    shortcut = _read_all(texts)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    every = {language: dataclasses.replace(e.lex, one_set_changes=e.lex.changes) for language, e in extractors.items()}
    assert [_Reader("f1-regex", every[i.language], t, i.context).read() for i, t in texts] == shortcut
    assert sum(c.type == "compound_change" for claims in shortcut for c in claims) > 300


# --- the reader's own shortcuts (domains/f1/mentions.py, reading.py, extractor.py) -------
NAMED = {  # codes, first names, nationalities and descriptions beside the surnames
    "en": ["VER pitted on lap 12; Max then passed HAM, and the Dutchman won ahead of Lewis.",
           "The rookie stopped twice, Lewis Hamilton once; the Finn was behind Valtteri and BOT."],
    "es": ["VER paró en la vuelta 12 y el neerlandés ganó; Max superó a Lewis y al finlandés."],
    "pt": ["VER parou na volta 12 e o holandês venceu; o novato ficou atrás de Max e de HAM."],
}


def _damaged(rng: random.Random, text: str) -> str:
    """``text`` with words cut, glued, doubled or capitalized at random."""
    words = text.split(" ")
    out = []
    for word in words:
        roll = rng.random()
        if roll < 0.08 and len(word) > 3:
            word = word[: rng.randrange(1, len(word))]
        elif roll < 0.14:
            word = word.upper()
        elif roll < 0.2:
            word = word + word
        out.append(word)
    return rng.choice((" ", "  ", "\n")).join(out) if rng.random() < 0.3 else " ".join(out)


def _mention_texts(texts: list[tuple[object, str]]) -> list[tuple[object, str]]:
    rng = random.Random(5)
    out = list(texts)
    for instance, text in texts[::7]:
        out.append((instance, _damaged(rng, text)))
        out += [(instance, t) for t in NAMED[instance.language]]
        out += [(instance, _damaged(rng, t)) for t in NAMED[instance.language]]
    return out


def test_first_name_anchors_inside_names_are_decided_as_a_span_set_decides(texts: list[tuple[object, str]]) -> None:
    """``_each_overlaps`` (first names looked for only when an anchor stands outside every
    name found) says what ``SpanSet.overlaps`` of each anchor says, for real mentions and
    random anchors; and ``find`` gives its mentions in text order, disjoint, as before."""
    from factcov.domains.f1.mentions import _each_overlaps, driver_index
    from factcov.extractors.spans import SpanSet

    rng = random.Random(9)
    outside = inside = 0
    for instance, text in _mention_texts(texts):
        index = driver_index(instance.context)
        folded = fold(text)
        hits = index.rare_anchors.find(folded)
        mentions = index.find(text, folded, hits)
        assert mentions == sorted(mentions)
        assert all(a.end <= b.start for a, b in zip(mentions, mentions[1:]))
        taken = SpanSet([(m.start, m.end) for m in mentions])
        candidates = [hits.spans("first")]
        for _ in range(3):
            spans = []
            for _ in range(rng.randrange(0, 3)):
                start = rng.randrange(len(folded))
                spans.append((start, min(len(folded), start + rng.randrange(1, 9))))
            candidates.append(spans)
        for spans in candidates:
            expected = all(taken.overlaps(*span) for span in spans)
            assert _each_overlaps(spans, mentions) == expected, (text, spans)
            inside += expected
            outside += not expected
    assert inside > 300 and outside > 300


def test_the_grammar_and_the_rare_mentions_found_in_one_pass_are_found_as_apart(
    texts: list[tuple[object, str]]
) -> None:
    """``reading.text_anchors`` joins the grammar's anchors and a race's rare mention
    anchors in one automaton: the grammar's names keep their bits, and every stretch's
    mask and every rare kind's hits are what the two automata find apart."""
    from factcov.domains.f1.extractor import _Reader, f1_grammar_anchors
    from factcov.domains.f1.mentions import driver_index
    from factcov.domains.f1.reading import text_anchors

    rng = random.Random(10)
    rare_hits = 0
    for instance, text in _mention_texts(texts):
        index = driver_index(instance.context)
        grammar = f1_grammar_anchors(instance.language)
        joined = text_anchors(_Reader.rule_book, instance.language, index)
        assert {name: joined.bits[name] for name in grammar.bits} == grammar.bits
        folded = fold(text)
        both, apart, rare = joined.find(folded), grammar.find(folded), index.rare_anchors.find(folded)
        grammar_mask = sum(grammar.bits.values())
        for _ in range(4):
            start = rng.randrange(len(folded) + 1)
            end = rng.randrange(start, len(folded) + 1)
            assert both.mask(start, end) & grammar_mask == apart.mask(start, end), (text, start, end)
        for name in index.rare_rules:
            assert both.spans(name) == rare.spans(name)
            rare_hits += len(rare.spans(name))
        assert bool(both.everywhere() & joined.bits["first"]) == bool(rare.everywhere() & rare.anchors.bits["first"])
    assert rare_hits > 500


def test_rare_mentions_woken_only_at_a_word_start_are_the_mentions_found_without(
    texts: list[tuple[object, str]]
) -> None:
    """The rare kinds' anchors count only where a word starts ("lando" in "blandos" wakes
    no first-name scan): the mentions and unresolved descriptions found are those found
    with anchors counted anywhere, on real texts, damaged ones and names glued to words."""
    from factcov.domains.f1.mentions import driver_index
    from factcov.extractors.anchors import Anchors

    rng = random.Random(11)
    glued = 0
    for instance, text in _mention_texts(texts):
        index = driver_index(instance.context)
        anywhere = Anchors(index.rare_rules)
        variants = [text]
        for name in list(index.first_names)[:6]:  # a first name inside a word, before and after one
            variants.append(f"{text} B{name}s {name.title()}x xx{name} {name.title()}")
        variants.append(_damaged(rng, text.replace(" ", "", 3)))
        for variant in variants:
            folded = fold(variant)
            plain = anywhere.find(folded)
            gated = index.rare_anchors.find(folded)
            mentions = index.find(variant, folded, gated)
            assert mentions == index.find(variant, folded, plain), variant
            assert index.unresolved(folded, mentions, gated) == index.unresolved(folded, mentions, plain), variant
            glued += len(plain.spans("first")) > len(gated.spans("first"))
    assert glued > 300


def test_two_capitals_in_a_row_are_found_as_the_pattern_finds_them(texts: list[tuple[object, str]]) -> None:
    """``has_two_capitals`` (codes are looked for only in a text with two capitals in a
    row) says what ``[A-Z][A-Z]`` says: real texts, capitals of other scripts, accents,
    lone surrogates and random characters."""
    from factcov.domains.f1.mentions import _TWO_CAPITALS, has_two_capitals

    rng = random.Random(13)
    samples = [text for _, text in texts[:300]] + ["VER", "Ver", "ÉCOLE", "AÉ", "A\ud800B", "ΑΒ", "aB\u00c0C", ""]
    alphabet = "aAzZbB ÀÉÇéçßΑΒ\ud800\U0001f600-.\n"
    for _ in range(5000):
        samples.append("".join(rng.choice(alphabet) if rng.random() < 0.7 else chr(rng.randrange(0x110000))
                               for _ in range(rng.randrange(12))))
    found = 0
    for text in samples:
        expected = _TWO_CAPITALS.search(text) is not None
        assert has_two_capitals(text) is expected, repr(text)
        found += expected
    assert 200 < found < len(samples) - 500


# --- who a claim is about (domains/f1/reading.py: subject, is_object) ------------------
def _plain_is_object(reader: _Reader, mention: object, sentence: object, marker: re.Pattern[str]) -> bool:
    """Whether ``mention`` is named as an object, the plain way: the marker searched in
    the 30 characters before it, whatever their length, and the driver listed before it."""
    start = max(mention.start - 30, sentence.start)
    if marker.search(reader.folded[start: mention.start]):
        return True
    previous = None
    for other in sentence.mentions:
        if other.end <= mention.start:
            previous = other
    return (previous is not None and bool(reader.lex.and_word.match(reader.folded[previous.end: mention.start]))
            and _plain_is_object(reader, previous, sentence, marker))


def _plain_subject(reader: _Reader, sentence: object, position: int) -> str | None:
    """``TextReader.subject`` as written before its one-driver path (each test in turn)."""
    from factcov.domains.f1 import reading

    before = [m for m in sentence.mentions if m.end <= position]
    if not before:  # no driver before: read as it was (the unresolved words, ``subject_after``)
        return reader.subject(sentence, position)
    last = before[-1]
    if any(last.end <= s and e <= position for s, e in reader._unresolved_here):
        return None  # "the Finn" with two Finns in the race
    folded = reader.folded
    between = folded[last.end: position]
    marker = reader.lex.object_marker
    if "," in between and reading._PRONOUN_RELATIVE.search(folded, last.end, position):
        acting = [m for m in before if not _plain_is_object(reader, m, sentence, marker)]
        return reader.other_driver(acting[0].code if acting else sentence.topic)
    if reading._RELATIVE_OPEN.match(between):
        return last.code
    if not between.strip() and not reading._GERUND.match(folded, position):
        return last.code
    acting = [m for m in before if not _plain_is_object(reader, m, sentence, marker)]
    if acting:
        before = acting
        between = folded[acting[-1].end: position]
    elif any(_plain_is_object(reader, m, sentence, reader.lex.passed_marker) for m in before):
        return reader.subject_after(sentence, position)
    if reading._APPOSITION.match(between):
        return before[-1].code
    if reader.lex.subject_reset.search(between) and not reading._RELATIVE.match(between):
        opening = reader.lex.subordinate_opening.match(folded, sentence.start)
        if opening is not None:
            comma = folded.find(",", opening.end(), position)
            main = [m for m in before if comma != -1 and m.start > comma]
            return main[0].code if main else None
        return before[0].code
    return before[-1].code


SUBJECTS = {  # clause marks, pronouns, relatives, appositions and objects around one driver
    "en": ["Hamilton, who pitted on lap 13, won.", "When Hamilton, who pitted on lap 13, came out, he won.", "Hamilton: he stopped on lap 13.", "Hamilton (on softs) won.",
           "When Hamilton pitted, he came out behind.", "Hamilton pitting on lap 13 won.",
           "Hamilton, with fresh softs, passed him.", "behind Hamilton, he stopped twice.",
           "Verstappen passed Hamilton and won; he stopped twice.", "than Hamilton and Bottas, he won."],
    "es": ["Hamilton, que paró en la vuelta 13, ganó.", "Cuando Hamilton, que paró en la 13, salió, ganó.", "Hamilton: paró en la 13.", "Cuando Hamilton paró, ganó.",
           "Verstappen adelantó a Hamilton y ganó.", "Hamilton, con blandos nuevos, le adelantó."],
    "pt": ["Hamilton, que parou na volta 13, venceu.", "Quando Hamilton, com pneus macios, saiu, venceu.", "Hamilton: ele parou na 13.", "Quando Hamilton parou, venceu.",
           "Bottas segurou Gasly logo atrás dele, que foi 18º.", "Hamilton entrando nos boxes, venceu."],
}


def test_the_subject_is_who_the_plain_way_finds(texts: list[tuple[object, str]]) -> None:
    """``subject`` (one driver before: the reset tests only, ``is_object`` skipping windows
    shorter than any marker) names who its every test in turn names, at every word of
    real, damaged and made-up sentences, whether or not ``is_object`` was asked before."""
    rng = random.Random(17)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    cases = _mention_texts(texts)
    picks = {i.language: i for i, _ in texts}
    cases += [(picks[language], text) for language, made in SUBJECTS.items() for text in made]
    cases += [(picks[language], _damaged(rng, text)) for language, made in SUBJECTS.items() for text in made]
    asked = differ_from_last = 0
    for instance, text in cases:
        extractor = extractors[instance.language]
        reader = _Reader(extractor.name, extractor.lex, text, instance.context)
        for sentence in reader.sentences():
            positions = [m.start() for m in re.finditer(r"\b\w", reader.folded[sentence.start: sentence.end])]
            rng.shuffle(positions)  # the objects' table filled in any order
            for offset in positions:
                position = sentence.start + offset
                expected = _plain_subject(reader, sentence, position)
                assert reader.subject(sentence, position) == expected, (text, reader.folded[sentence.start: position])
                asked += 1
                before = [m for m in sentence.mentions if m.end <= position]
                differ_from_last += bool(before) and expected != before[-1].code
            for mention in sentence.mentions:
                for marker in (reader.lex.object_marker, reader.lex.passed_marker):
                    assert reader.is_object(mention, sentence, None if marker is reader.lex.object_marker
                                            else marker) == _plain_is_object(reader, mention, sentence, marker)
    assert asked > 20000 and differ_from_last > 300, (asked, differ_from_last)


def _cues_stand_in_every_match(texts: list[tuple[object, str]], seed: int, patterns_of: Callable[..., object],
                                cues_of: Callable[[str], dict[int, tuple[str, ...]]],
                                made_up_of: Callable[..., list[str]]) -> None:
    """Asserts, in each language, that one of a pattern's cues (``cues_of(language)``)
    stands in each stretch where it matches (the whole text and three random stretches of
    each of the real texts, damaged ones and ``made_up_of(lex, rng, words)``, the cue
    words put in); and that enough matched and were skipped (no cue, no match)."""
    rng = random.Random(seed)
    matched = skipped = 0
    for language in ("en", "es", "pt"):
        lex = F1RegexExtractor(language).lex
        cues = cues_of(language)
        assert cues, language  # the patterns their anchors wake have cues
        words = sorted({cue.strip() for needed in cues.values() for cue in needed})
        cases = [fold(t) for i, t in texts if i.language == language]
        cases += [fold(_damaged(rng, t)) for i, t in texts[::5] if i.language == language]
        for folded in cases + made_up_of(lex, rng, words):
            for start, end in [(0, len(folded))] + [sorted(rng.sample(range(len(folded) + 1), 2)) for _ in range(3)]:
                for pattern in patterns_of(lex):
                    needed = cues.get(id(pattern))
                    if needed is None:
                        continue
                    if pattern.search(folded, start, end):
                        matched += 1
                        assert any(cue in folded[start:end] for cue in needed), (folded[start:end], pattern.pattern)
                    elif not any(cue in folded[start:end] for cue in needed):
                        skipped += 1
    assert matched > 300 and skipped > 3000, (matched, skipped)


def _scan_cues(patterns_of: Callable[..., tuple[re.Pattern[str], ...]]) -> Callable[[str], dict[int, tuple[str, ...]]]:
    """The grammar's cue words (``Grammar.scan_cues``) of the patterns ``patterns_of(lex)``, by id."""
    def cues_of(language: str) -> dict[int, tuple[str, ...]]:
        lex = F1RegexExtractor(language).lex
        wanted = {id(pattern) for pattern in patterns_of(lex)}
        return {id(pattern): words for pattern, words in lex.scan_cues if id(pattern) in wanted}
    return cues_of


def _reads_the_same_without_cues(texts: list[tuple[object, str]], monkeypatch: pytest.MonkeyPatch,
                                 claim_type: str, at_least: int) -> None:
    """The texts read with the scanner's cue words and without them (every pattern its
    anchors wake scanned: fresh plans, none with cues) give the same claims."""
    monkeypatch.setattr(scanner, "_GATES", {})
    _reads_the_same_without(texts, monkeypatch, scanner.SentenceScanner, "cue_table", lambda self: {},
                            claim_type, at_least)
    monkeypatch.setattr(scanner, "_GATES", {})  # no plan without cues left for later tests


def test_a_stop_count_holds_one_of_its_cues_besides_the_stop_word(texts: list[tuple[object, str]]) -> None:
    """The stop counts' cue words (``Grammar.scan_cues``: words besides the stop word,
    "unica", "nenhuma", "no") stand in every match of their pattern (so ``scans`` may skip
    it where none does): random stretches of real, damaged and made-up texts, with the cue
    words put in."""
    def made_up(lex: object, rng: random.Random, words: list[str]) -> list[str]:
        fuzz = _fuzz(lex.language, rng, 3000)
        noun = lex.stop_count_noun
        return [f"{rng.choice(words)} {text}" for text in fuzz] + [
            text.replace(noun, f"{rng.choice(words)} {noun}", 1) for text in fuzz]

    _cues_stand_in_every_match(texts, 19, lambda lex: lex.stop_count, _scan_cues(lambda lex: lex.stop_count), made_up)


def test_stop_counts_without_the_cues_reads_the_same(
    texts: list[tuple[object, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _reads_the_same_without_cues(texts, monkeypatch, "stop_count", 200)


def test_a_change_holds_one_of_its_cues_besides_its_anchors(texts: list[tuple[object, str]]) -> None:
    """The changes' cue words (``Grammar.scan_cues``: "for" of "swapped the mediums for
    hards", "por", "pelos") stand in every match of their change pattern (so ``scans`` may
    skip it where none does, though its anchors, "switch", "troc", woke it): real, damaged
    and made-up stretches, with the cue words put in."""
    def made_up(lex: object, rng: random.Random, words: list[str]) -> list[str]:
        return [f"{text} {rng.choice(words)} {rng.choice(list(lex.compound_values))}"
                for text in _change_fuzz(lex.language, rng, 3000)]

    change_cues = _scan_cues(lambda lex: lex.changes)
    _cues_stand_in_every_match(texts, 23, lambda lex: lex.changes, change_cues, made_up)
    # a cue worth a look ("for", "por"): not only the compound words every change holds
    assert all(any(len(needed) < 4 for needed in change_cues(language).values())
               for language in ("en", "es", "pt"))


def test_the_scanner_skips_a_pattern_without_its_cue_words() -> None:
    """``scans`` leaves out a change pattern whose anchors stand in the sentence but none of
    its cue words ("switched ... to" wakes "swapped X for Y", which holds "for")."""
    lex = F1RegexExtractor("en").lex
    swap = next(pattern for pattern in lex.changes if "swap" in pattern.pattern)
    text = "Hamilton switched from the mediums to hards. Hamilton swapped the mediums for hards."
    reader = _Reader("f1-regex", lex, text, {"race": {"drivers": []}, "focus": {}})
    asked = [swap in reader.scans(lex.changes) for _ in reader.sentences()]
    assert asked == [False, True]


def test_compounds_without_the_change_cues_reads_the_same(
    texts: list[tuple[object, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _reads_the_same_without_cues(texts, monkeypatch, "compound_change", 300)


def test_a_cued_search_finds_what_its_pattern_finds(texts: list[tuple[object, str]]) -> None:
    """``cued_search`` (the search only where one of the pattern's cues stands: "without",
    "no uso") says what the search says, for the negations before a compound word (and
    the subject's resets, whose cues hold the comma): the 30 characters before every word
    of real and damaged texts, the words after every word, and made-up ones."""
    from factcov.domains.f1.lexicon import cued_search, lexicon
    from factcov.domains.f1.lexicon import cues as lexicon_cues

    rng = random.Random(31)
    searched = found = 0
    for language in ("en", "es", "pt"):
        lex = lexicon(language)
        sources = [fold(t) for i, t in texts if i.language == language]
        sources += [fold(_damaged(rng, t)) for i, t in texts[::3] if i.language == language]
        for pattern in (lex.negated_compound, lex.subject_reset):
            cues = lexicon_cues(pattern)
            words = [cue for cue in cues if cue] + ["the", "x", "hamilton", "(", "never", "sem pneus", "sin los"]
            made = [" ".join(rng.choice(words) for _ in range(rng.randrange(1, 6))) + rng.choice(("", " ", "  "))
                    for _ in range(2000)]
            stretches = made + [folded[max(0, m.start() - 30): m.start()] for folded in sources
                                for m in re.finditer(r"\b\w", folded)]
            stretches += [folded[m.end(): m.end() + rng.randrange(40)] for folded in sources
                          for m in re.finditer(r"[A-Za-z]+", folded)]
            for stretch in stretches:
                expected = pattern.search(stretch) is not None
                assert cued_search(pattern, cues, stretch) is expected, (stretch, pattern.pattern)
                searched += 1
                found += expected
    assert searched > 50000 and found > 2000, (searched, found)


def test_compounds_without_the_cued_search_read_the_same(
    texts: list[tuple[object, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def plain(pattern: re.Pattern[str], cues: tuple[str, ...], text: str) -> bool:
        return pattern.search(text) is not None

    _reads_the_same_without(texts, monkeypatch, rules_strategy, "cued_search", plain, "stint_compound", 300)


def test_the_stops_owned_before_a_change_are_found_without_a_scan_when_no_compound_word_precedes_it(
    texts: list[tuple[object, str]]
) -> None:
    """``stops_owned_by_compounds`` with the sentence's compound words (nothing scanned when
    none stands before the change) finds what a scan of the words before the change finds:
    at every change of real texts, made-up ones and words glued to the change."""
    rng = random.Random(29)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    picks = {i.language: i for i, _ in texts}
    cases = list(texts)
    for language in extractors:
        fuzz = _change_fuzz(language, rng, 1500)
        cases += [(picks[language], text) for text in fuzz]
        cases += [(picks[language], f"Hamilton {a} at his first stop {b}") for a, b in zip(fuzz, reversed(fuzz))]
    changes = without_words_before = 0
    for instance, text in cases:
        extractor = extractors[instance.language]
        reader = _Reader(extractor.name, extractor.lex, text, instance.context)
        lex = reader.lex
        for sentence in reader.sentences():
            found = list(lex.compound.finditer(reader.folded, sentence.start, sentence.end))
            for pattern in lex.changes:
                for match in pattern.finditer(reader.folded, sentence.start, sentence.end):
                    plain = []
                    for token in lex.compound.finditer(reader.folded, sentence.start, match.start()):
                        at = lex.stop_at.match(reader.folded, token.end(), match.start())
                        if at is not None:
                            plain.append((at.start(), at.end()))
                    assert reader.stops_owned_by_compounds(sentence, match.start(), found) == plain, text
                    changes += 1
                    without_words_before += found[0].start() >= match.start()
    assert changes > 600 and without_words_before > 250, (changes, without_words_before)


def test_names_found_where_their_literals_stand_are_the_names_pattern_finds(
    texts: list[tuple[object, str]]
) -> None:
    """``DriverIndex.names_at`` (the names read from the automaton's hits of their
    literals, in a text whose whitespace is single spaces) finds what the names pattern
    finds (``names_scanned``): real texts, damaged ones, names glued to words, cut by a
    hyphen, an apostrophe, digits or an underscore, team names of drivers in and out of
    the focus, and a name at either end of the text."""
    from factcov.domains.f1.mentions import _NO_WORD_CHARACTERS, SPACES, driver_index

    assert not any(re.match(r"\w", character) for character in _NO_WORD_CHARACTERS)  # beside a name: a boundary
    rng = random.Random(14)
    compared = with_teams = 0
    for instance, text in _mention_texts(texts):
        index = driver_index(instance.context)
        assert index.name_literals is not None and set(index.names.names) <= index.name_literals
        names = sorted(index.name_literals, key=lambda name: rng.random())[:4]
        teams = [team for team in index.name_literals if team not in index.names.names][:2]
        variants = [text, f"{names[0].title()} {text} {names[1]}", text.replace(" ", "-", 4)]
        for name in names:
            glued = rng.choice(("x", "_", "3", "'s", "-", "’", "º", ""))
            variants.append(f"{text} {glued}{name} {name}{glued} {name.upper()}, {name.title()}{glued}.")
        team_variant = f"{text} {' and the '.join(team.title() for team in teams)} {names[0]}" if teams else None
        if team_variant:
            variants.append(team_variant)
        variants.append(_damaged(rng, text))
        variants.append(text.replace(" ", rng.choice(("\t", "\u2009", "\xa0", "\u3000", "  ")), 2))
        for variant in variants:
            folded = fold(variant)
            hits = index.rare_anchors.find(folded)
            if not all(c == " " for c in folded if c.isspace()) or "  " in folded:
                assert hits.anywhere(SPACES)  # the pattern's ``\s+`` may match more than a space:
                continue  # not read from the literals
            assert not hits.anywhere(SPACES)
            expected = index.names_scanned(variant, folded)
            assert index.names_at(folded, hits) == expected, variant
            index._nested_at_ends = False  # the names sorted by start: the same names
            assert index.names_at(folded, hits) == expected, variant
            index._nested_at_ends = True
            compared += 1
            with_teams += variant is team_variant
    assert compared > 5000 and with_teams > 500


def test_a_gate_for_a_slice_counts_anchors_anywhere_and_one_for_offsets_at_word_starts(
    texts: list[tuple[object, str]]
) -> None:
    """``may_match`` and ``scans`` (whose callers may search a slice, where ``\\b`` holds at
    its start) take only anchors counted anywhere (``Anchors.slice_bits``); ``finditer`` and
    ``search`` also those counted at word starts. A pattern matching in a slice of a real or
    damaged text has an anchor there by the first; matching from and to offsets, by the
    second; and the patterns asked through ``may_match``/``scans`` keep their gate."""
    from factcov.domains.f1.extractor import f1_grammar_anchors as grammar_anchors
    from factcov.domains.f1.extractor import grammar_rules, sliced_patterns

    rng = random.Random(17)
    sliced = by_offsets = 0
    for language in ("en", "es", "pt"):
        anchors = grammar_anchors(language)
        patterns = {name: group[0] for name, group in grammar_rules(language).items() if isinstance(name, int)}
        keys = pattern_keys(lexicon(language))
        asked = {keys.key(pattern) for pattern in sliced_patterns(language)}
        assert all(name in anchors.slice_bits for name in asked if name in anchors.bits)
        assert any(name not in anchors.slice_bits for name in patterns if name in anchors.bits)
        picked = [text for instance, text in texts if instance.language == language][::5]
        for text in picked + [_damaged(rng, text) for text in picked]:
            folded = fold(text)
            hits = anchors.find(folded)
            for _ in range(6):
                start = rng.randrange(len(folded) + 1)
                end = min(len(folded), start + rng.randrange(1, 80))
                mask = hits.mask(start, end)
                for name, pattern in patterns.items():
                    if name in anchors.slice_bits and pattern.search(folded[start:end]):
                        assert mask & anchors.slice_bits[name], (pattern.pattern, folded[start:end])
                        sliced += 1
                    if name in anchors.bits and pattern.search(folded, start, end):
                        assert mask & anchors.bits[name], (pattern.pattern, folded, start, end)
                        by_offsets += 1
    assert sliced > 500 and by_offsets > 1000


def test_the_patterns_scans_keeps_are_those_may_match_keeps(texts: list[tuple[object, str]]) -> None:
    """``scans`` (its answer for a tuple of patterns remembered per value of the sentence's
    mask on their bits) keeps, in order, the patterns ``may_match`` says may match in the
    sentence, for each tuple the rules ask, in every sentence of real and damaged texts;
    and, of those, the ones with a cue word of theirs in it (``Grammar.scan_cues``); and
    each answer is the caller's own list."""
    rng = random.Random(19)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    kept = dropped = uncued = 0
    for instance, text in texts[::2] + [(i, _damaged(rng, t)) for i, t in texts[::7]]:
        lex = extractors[instance.language].lex
        cues = {id(pattern): words for pattern, words in lex.scan_cues}
        reader = _Reader(extractors[instance.language].name, lex, text, instance.context)
        for sentence in reader.sentences():
            said = reader.folded[sentence.start: sentence.end]
            for patterns in (lex.stop_count, lex.changes, lex.one_set_changes):
                anchored = [p for p in patterns if reader.may_match(p, sentence.start, sentence.end)]
                expected = [p for p in anchored if cues.get(id(p)) is None or any(w in said for w in cues[id(p)])]
                first, again = reader.scans(patterns), reader.scans(patterns)
                assert first == again == expected and first is not again, (text, sentence)
                kept += len(expected)
                dropped += len(patterns) - len(anchored)
                uncued += len(anchored) - len(expected)
    assert kept > 1000 and dropped > 10000 and uncued > 100, (kept, dropped, uncued)


def test_a_sentence_holds_a_patterns_anchor_where_finditer_would_scan_it(texts: list[tuple[object, str]]) -> None:
    """``any`` (the gate the rules ask once before scanning a pattern inside the
    sentence themselves) is ``finditer``'s gate for the whole sentence, for every pattern of
    the grammar, in every sentence of real and damaged texts; and where it says no anchor
    stands, the pattern matches nowhere in the sentence."""
    from factcov.domains.f1.extractor import grammar_rules
    from factcov.extractors.scanner import _NONE

    rng = random.Random(23)
    extractors = {language: F1RegexExtractor(language) for language in ("en", "es", "pt")}
    held = not_held = 0
    for instance, text in texts[::3] + [(i, _damaged(rng, t)) for i, t in texts[::7]]:
        extractor = extractors[instance.language]
        patterns = [group[0] for name, group in grammar_rules(instance.language).items() if isinstance(name, int)]
        reader = _Reader(extractor.name, extractor.lex, text, instance.context)
        for sentence in reader.sentences():
            for pattern in patterns:
                holds = reader.any(pattern, sentence)
                assert holds == (reader.finditer(pattern, sentence.start, sentence.end) is not _NONE), pattern.pattern
                if not holds:
                    assert pattern.search(reader.folded, sentence.start, sentence.end) is None, (pattern.pattern, text)
                held += holds
                not_held += not holds
    assert held > 1000 and not_held > 10000, (held, not_held)


def test_names_holding_others_are_found_where_their_literals_stand_as_the_pattern_finds_them() -> None:
    """A race whose names hold others not at their end ("red" in "red bull"): ``names_at``
    takes them by start (not in the automaton's order), as the pattern does."""
    from factcov.domains.f1.mentions import DriverIndex

    drivers = [{"code": "AAA", "name": "Max Red", "team": "Red Bull"},
               {"code": "BBB", "name": "Bull Rider", "team": "Haas"}]
    index = DriverIndex(drivers, ("AAA",))
    assert {"red bull", "red", "bull rider"} <= set(index.names.names) and not index._nested_at_ends
    rng = random.Random(18)
    words = ["Red", "Bull", "Rider", "Max", "red bull", "Haas", ",", "x", "the"]
    found = 0
    for _ in range(400):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        folded = fold(text)
        expected = index.names_scanned(text, folded)
        assert index.names_at(folded, index.rare_anchors.find(folded)) == expected, text
        found += len(expected)
    assert found > 500


def test_the_irregular_spaces_are_every_whitespace_but_one_space() -> None:
    """``IRREGULAR_SPACES`` (a text without them is read for names from the literals' hits)
    holds every character the engine's ``\\s`` matches but the space."""
    import sys

    from factcov.domains.f1.mentions import IRREGULAR_SPACES

    spaces = {c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()}
    assert all(re.fullmatch(r"\s", c) for c in spaces)
    assert IRREGULAR_SPACES == {"  ", *spaces - {" "}}
