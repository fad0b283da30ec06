"""Content units: what a person checks in a text, read from its parse, and graded.

A text (an answer, a reference, a passage) becomes a list of ``Unit``s:

- **number** units: every number, date or count, normalized to a value: digits
  (``12,000``), number words (``twelve``), ordinals (``third`` -> 3), ``once``/``twice``,
  ``a dozen``; a number that is part of a date or a year is a value too (``1844``);
- **word** and **verb** units: the content words (nouns, proper nouns, adjectives,
  adverbs that are not function words; verbs apart), each by its full Snowball stem, so ``involved`` meets
  ``involvement`` but ``photo`` never covers ``photoshopped`` (no prefix matching);
- **negation** units: a negated head (``not involved``, ``never won``) is its own unit,
  supported only where the other side negates the same head too;
- the **span** unit of a short answer (at most ``SPAN_WORDS`` content words): the answer
  as a whole, graded like SQuAD's token F1 against the other side's best sentence.

Formatting is not content: markdown emphasis and headings, bullets, list markers
(``1.``, ``2)``) and citation markers (``[1]``) are found on the raw text
(``formatting_spans``) and the tokens inside them are skipped.

Grading (``grade``) checks each unit of one side against the other side's units:
*supported* (the same stem, value or negated head), *contradicted* (a number where the
other side gives another value of the same kind; a head the other side states without
the negation, or the other way round), *unsupported* otherwise.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, NamedTuple

from factcov.domains.rag.lexicon import IRREGULAR, _english_stemmer
from factcov.domains.rag.patterns import (
    DECIMAL,
    FORMATTING,
    NUMBER_RANGE,
    ORDINAL,
    RANGE_DASH,
    WORD_OR_VALUE,
)
from factcov.extractors.parsed import ParsedText, Token
from factcov.language import fold, ordinal_words, parse_number

Label = Literal["supported", "contradicted", "unsupported"]
CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"})
# Words whose part of speech is content but that state nothing a passage can back.
FUNCTION_WORDS = frozenset(
    "be have do also not n't never no only just very so too then there here thus however "
    "yes well much many more most such other another same own which what who whom whose when "
    "where why how one ones something anything thing things etc".split()
)
NEGATIONS = frozenset({"not", "n't", "never", "no", "neither", "nor", "without"})
# Counts worded as adverbs or nouns ("twice", "a dozen").
COUNT_WORDS = {"once": 1, "twice": 2, "thrice": 3, "dozen": 12, "couple": 2, "pair": 2}
LINK_WINDOW = 3  # content words between two linked arguments in the other text
SPAN_WORDS = 4
PRIOR = 0.5  # supported units added to each kind's share (chosen on HaluEval's first half)
ASIDE_DEPS = frozenset({"relcl", "appos", "parataxis", "acl:relcl"})  # a short answer: its span is graded as a whole too


class Unit(NamedTuple):
    """One checkable piece of content: its kind, its key (a stem, a value) and its text.
    A named tuple rather than a frozen dataclass: a text makes one per content word, and a
    frozen dataclass's ``__init__`` costs several times a tuple's."""

    kind: Literal["word", "verb", "number", "negation", "span", "entity", "link"]
    key: str
    text: str
    words: tuple[str, ...] = ()  # the stems a span, entity or link unit needs
    other: tuple[str, ...] = ()  # a link's second argument


@dataclass
class Graded:
    """A unit's grade against one text's units (read, never changed: an entity's, a link's
    or a span's is shared by every answer holding the unit, see ``UnitSet.graded``)."""

    unit: Unit
    label: Label
    score: float  # 1 supported, 0 otherwise; a span's token F1


@dataclass
class UnitSet:
    """A text's units, and what grading against it needs (stems, values, sentences)."""

    units: list[Unit]
    stems: set[str] = field(default_factory=set)
    values: set[str] = field(default_factory=set)
    measured: set[tuple[str, str]] = field(default_factory=set)  # (what a number counts, its value)
    negated: set[str] = field(default_factory=set)
    asserted: set[str] = field(default_factory=set)  # verb/adjective heads stated without a negation
    sentences: list[list[str]] = field(default_factory=list)  # content stems per sentence
    # The same sentences with their asides (parentheses, relative clauses, appositions)
    # taken out, and each aside alone: an answer that leaves an aside out brings its two
    # sides together, and that is no recombination.
    segments: list[list[str]] = field(default_factory=list)
    # What grading against the set reads, built when it is first graded against (the set
    # is complete by then and never changed after): see ``runs``, ``places``, ``graded``.
    _runs: list[list[str]] | None = field(default=None, init=False, repr=False, compare=False)
    _places: dict[str, list[tuple[int, int]]] | None = field(default=None, init=False, repr=False, compare=False)
    _graded: dict[Unit, Graded] = field(default_factory=dict, init=False, repr=False, compare=False)

    def runs(self) -> list[list[str]]:
        """The sentences, then the segments: where an entity or a link is looked for."""
        if self._runs is None:
            self._runs = self.sentences + self.segments
        return self._runs

    def places(self) -> dict[str, list[tuple[int, int]]]:
        """Each stem or value of ``runs`` -> (run, position) of each of its occurrences."""
        if self._places is None:
            places: dict[str, list[tuple[int, int]]] = {}
            for r, run in enumerate(self.runs()):
                for i, word in enumerate(run):
                    places.setdefault(word, []).append((r, i))
            self._places = places
        return self._places

    def holds_run(self, words: Sequence[str]) -> bool:
        """``words`` in a row in one of ``runs`` (``_contiguous`` over them, from where the
        first word stands instead of at every position)."""
        words = tuple(words)
        if not words:
            return any(_contiguous(words, run) for run in self.runs())
        runs, n = self.runs(), len(words)
        return any(tuple(runs[r][i:i + n]) == words for r, i in self.places().get(words[0], ()))

    def holds_near(self, first: Sequence[str], second: Sequence[str]) -> bool:
        """Both in one of ``runs``, at most ``LINK_WINDOW`` content words apart (``_near``
        over them, from where the first words stand)."""
        first, second = tuple(first), tuple(second)
        if not first or not second:
            return any(_near(first, second, run) for run in self.runs())
        runs, places = self.runs(), self.places()
        starts: dict[int, list[int]] = {}
        for r, i in places.get(first[0], ()):
            if tuple(runs[r][i:i + len(first)]) == first:
                starts.setdefault(r, []).append(i)
        if not starts:
            return False
        window = LINK_WINDOW + max(len(first), len(second))
        return any(r in starts and tuple(runs[r][j:j + len(second)]) == second
                   and any(abs(i - j) <= window for i in starts[r])
                   for r, j in places.get(second[0], ()))

    def graded(self, unit: Unit, grader: Callable[[Unit, UnitSet], Graded]) -> Graded:
        """``grader(unit, self)``, once per distinct unit: the three answers of a question
        share their passage and reference, and an answer's units are graded against the
        passages for precision and again for faithfulness."""
        held = self._graded.get(unit)
        if held is None:
            held = self._graded[unit] = grader(unit, self)
        return held

    def merge(self, other: UnitSet) -> UnitSet:
        return UnitSet(self.units + other.units, self.stems | other.stems, self.values | other.values,
                       self.measured | other.measured,
                       self.negated | other.negated, self.asserted | other.asserted,
                       self.sentences + other.sentences, self.segments + other.segments)


def formatting_spans(text: str) -> list[tuple[int, int]]:
    """Character ranges of markdown, bullets, list and citation markers."""
    return FORMATTING.spans(text)


@lru_cache(maxsize=65536)
def word_stem(word: str) -> str:
    """The full Snowball stem (no cut: 'photo' and 'photoshop' stay apart)."""
    word = fold(word).strip("'`\".,;:()")
    word = IRREGULAR.get(word, word)
    return _english_stemmer().stemWord(word)


@lru_cache(maxsize=65536)
def number_value(word: str) -> str | None:
    """'12,000' -> '12000', 'twelve' -> '12', 'third' -> '3', '3rd' -> '3', 'twice' -> '2'."""
    folded = fold(word).replace(",", "")
    if folded in COUNT_WORDS:
        return str(COUNT_WORDS[folded])
    match = ORDINAL.fullmatch(folded)
    if match:
        return match.group(1)
    if folded in ordinal_words("en"):
        return str(ordinal_words("en")[folded])
    try:
        value = parse_number(folded, "en")
    except (ValueError, TypeError):
        value = None
    if value is None:
        if DECIMAL.fullmatch(folded):
            value = float(folded)
        else:
            return None
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def _skipped(tokens: Sequence[Token], text: str) -> set[int]:
    spans = formatting_spans(text)
    if not spans:
        return set()
    out = set()
    for token in tokens:
        if any(start <= token.start and token.end <= end for start, end in spans):
            out.add(token.i)
    return out


_NEGATING_KIDS = NEGATIONS - {"without"}  # "without" is a preposition: never a negating child


def _is_negated(parsed: ParsedText, token: Token) -> bool:
    return any(kid.dep == "neg" or kid.dep in ("advmod", "det") and fold(kid.text) in _NEGATING_KIDS
               for kid in parsed.kids(token.i))


def read_units(parsed: ParsedText, span: bool = False) -> UnitSet:
    """The units of one parsed text (``span``: add the whole-answer unit when it is short)."""
    reader = _Reader(parsed)
    for start, end in parsed.sentences:
        reader.read_sentence(start, end)
    out = reader.out
    if span:
        words = tuple(w for s in out.sentences for w in s)
        if 0 < len(words) <= SPAN_WORDS:
            out.units.append(Unit("span", " ".join(words), parsed.text.strip(), words))
    return out


def _is_number(token: Token, lowered: str) -> bool:
    """A token read as a value: a number, a count word, an ordinal ('third', '3rd')."""
    if token.pos == "NUM" or lowered in COUNT_WORDS or token.tag == "CD":
        return True
    return token.tag in ("JJ", "RB") and (bool(ORDINAL.fullmatch(lowered))
                                          or lowered in ordinal_words("en"))


def _is_content(token: Token, lowered: str) -> bool:
    return (token.pos in CONTENT_POS and lowered not in FUNCTION_WORDS and token.lemma.lower() not in FUNCTION_WORDS
            and any(c.isalnum() for c in lowered))


class _Reader:
    """Reads one parsed text's units sentence by sentence (``read_units``)."""

    def __init__(self, parsed: ParsedText) -> None:
        self.parsed = parsed
        self.out = UnitSet(units=[])
        self.skipped = _skipped(parsed.tokens, parsed.text)
        self.mention_of = {i: m for m in parsed.mentions for i in range(m.start, m.end)}

    def read_sentence(self, start: int, end: int) -> None:
        self.end = end
        self.sentence: list[str] = []
        self.positions: list[int] = []  # the token of each entry of ``sentence``
        self.anchors: list[tuple[tuple[str, ...], str]] = []  # (stems, text) of names, numbers and nouns
        for token in self.parsed.tokens[start:end]:
            if token.i in self.skipped:
                continue
            lowered = fold(token.text)
            if NUMBER_RANGE.fullmatch(lowered):  # '1844–1846': two values
                for part in RANGE_DASH.split(lowered):
                    self.number(token, part, anchor=False)
            elif _is_number(token, lowered) and number_value(lowered) is not None:
                self.number(token, token.text, anchor=True)
            elif _is_content(token, lowered):
                self.word(token)
        out = self.out
        out.sentences.append(self.sentence)
        out.segments.extend(_segments(self.parsed, start, end, self.sentence, self.positions))
        for stems, text in self.anchors:
            if len(stems) > 1:
                out.units.append(Unit("entity", " ".join(stems), text, stems))
        for (first, first_text), (second, second_text) in zip(self.anchors, self.anchors[1:]):
            out.units.append(Unit("link", " ".join(first) + " | " + " ".join(second),
                                  f"{first_text} … {second_text}", first, second))

    def number(self, token: Token, text: str, anchor: bool) -> None:
        value = number_value(fold(text))
        if value is None:
            return
        counted = _counted(self.parsed, token, value, self.end)
        self.out.units.append(Unit("number", value, text, other=(counted,)))
        self.out.values.add(value)
        self.out.measured.add((counted, value))
        self.sentence.append(value)
        self.positions.append(token.i)
        if anchor:
            _anchor(self.anchors, self.mention_of.get(token.i), (value,), token.text)

    def word(self, token: Token) -> None:
        parsed, out = self.parsed, self.out
        stem = word_stem(token.lemma if token.pos != "PROPN" else token.text)
        out.units.append(Unit("verb" if token.pos == "VERB" else "word", stem, token.text))
        out.stems.update((stem, word_stem(token.text)))
        self.sentence.append(stem)
        self.positions.append(token.i)
        if token.pos in ("NOUN", "PROPN") or token.i in self.mention_of:
            _anchor(self.anchors, self.mention_of.get(token.i), (stem,), token.text)
        negated = _is_negated(parsed, token)
        if token.pos in ("VERB", "ADJ") or token.dep in ("ROOT", "attr", "acomp") or negated:
            if negated or _negated_copula(parsed, token):
                out.units.append(Unit("negation", stem, f"not {token.text}"))
                out.negated.add(stem)
            else:
                out.asserted.add(stem)


def _segments(parsed: ParsedText, start: int, end: int, sentence: list[str], positions: list[int]) -> list[list[str]]:
    """The sentence without its asides, then each aside (see ``UnitSet.segments``)."""
    aside_of: dict[int, int] = {}
    depth, opened = 0, -1
    for token in parsed.tokens[start:end]:
        if token.text == "(":
            depth, opened = depth + 1, token.i
        elif token.text == ")":
            depth = max(depth - 1, 0)
        elif depth:
            aside_of[token.i] = opened
    for token in parsed.tokens[start:end]:
        if token.i in aside_of:
            continue
        current, steps = token, 0
        while steps < 64:
            if current.dep in ASIDE_DEPS:
                aside_of[token.i] = current.i
                break
            if current.head == current.i:
                break
            current, steps = parsed.tokens[current.head], steps + 1
    if not any(i in aside_of for i in positions):
        return []
    groups: dict[int, list[str]] = {}
    main = []
    for stem, i in zip(sentence, positions):
        if i in aside_of:
            groups.setdefault(aside_of[i], []).append(stem)
        else:
            main.append(stem)
    return [main, *groups.values()]


def _anchor(anchors: list[tuple[tuple[str, ...], str]], mention, stems: tuple[str, ...], text: str) -> None:
    """Add a name, number or noun to the sentence's anchors; a name's words join one anchor."""
    key = id(mention) if mention is not None else None
    if anchors and key is not None and anchors[-1][1] is not None and getattr(_anchor, "last", None) == key:
        previous_stems, previous_text = anchors[-1]
        anchors[-1] = (previous_stems + stems, f"{previous_text} {text}")
    else:
        anchors.append((stems, text))
    _anchor.last = key  # type: ignore[attr-defined]


def _negated_copula(parsed: ParsedText, token: Token) -> bool:
    """'X is not a Y': the negation hangs on the copula's attribute or on 'be'."""
    if token.dep not in ("attr", "acomp"):
        return False
    return _is_negated(parsed, parsed.tokens[token.head])


def _token_f1(words: Sequence[str], other: Sequence[str]) -> float:
    if not words or not other:
        return 0.0
    remaining = list(other)
    common = 0
    for word in words:
        if word in remaining:
            remaining.remove(word)
            common += 1
    if not common:
        return 0.0
    p, r = common / len(words), common / len(other)
    return 2 * p * r / (p + r)


def _found(unit: Unit, found: bool) -> Graded:
    return Graded(unit, "supported" if found else "unsupported", 1.0 if found else 0.0)


def _grade_number(unit: Unit, against: UnitSet) -> Graded:
    if unit.key in against.values or unit.key in against.stems:
        return Graded(unit, "supported", 1.0)
    if any(counted == unit.other[0] and value != unit.key for counted, value in against.measured):
        return Graded(unit, "contradicted", 0.0)
    return Graded(unit, "unsupported", 0.0)


def _grade_negation(unit: Unit, against: UnitSet) -> Graded:
    if unit.key in against.negated:
        return Graded(unit, "supported", 1.0)
    if unit.key in against.stems:
        return Graded(unit, "contradicted", 0.0)
    return Graded(unit, "unsupported", 0.0)


def _grade_entity(unit: Unit, against: UnitSet) -> Graded:
    return _found(unit, against.holds_run(unit.words))


def _grade_link(unit: Unit, against: UnitSet) -> Graded:
    return _found(unit, against.holds_near(unit.words, unit.other))


def _grade_span(unit: Unit, against: UnitSet) -> Graded:
    best = max((_token_f1(unit.words, s) for s in against.sentences), default=0.0)
    # A short answer is contained in a longer sentence: recall of the span's words.
    contained = sum(w in against.stems or w in against.values for w in unit.words) / len(unit.words)
    score = max(best, contained)
    return Graded(unit, "supported" if score >= 0.5 else "unsupported", score)


def _grade_word(unit: Unit, against: UnitSet) -> Graded:
    if unit.key in against.stems:
        if unit.key in against.negated and unit.key not in against.asserted:
            return Graded(unit, "contradicted", 0.0)
        return Graded(unit, "supported", 1.0)
    return Graded(unit, "unsupported", 0.0)


_GRADERS = {"number": _grade_number, "negation": _grade_negation, "entity": _grade_entity, "link": _grade_link,
            "span": _grade_span, "word": _grade_word, "verb": _grade_word}


# The kinds whose grade is kept per (unit, units graded against): a sentence-by-sentence
# search costs more than keeping it; a word's or a number's grade is a set look-up.
_KEPT_KINDS = frozenset({"entity", "link", "span"})


def grade_unit(unit: Unit, against: UnitSet) -> Graded:
    """One unit against another text's units (see the module docstring)."""
    grader = _GRADERS[unit.kind]
    return against.graded(unit, grader) if unit.kind in _KEPT_KINDS else grader(unit, against)


def _near(first: Sequence[str], second: Sequence[str], sentence: Sequence[str]) -> bool:
    """Both arguments in the sentence, at most ``LINK_WINDOW`` content words apart."""
    starts = [i for i in range(len(sentence)) if tuple(sentence[i:i + len(first)]) == tuple(first)]
    if not starts:
        return False
    others = [i for i in range(len(sentence)) if tuple(sentence[i:i + len(second)]) == tuple(second)]
    return any(abs(i - j) <= LINK_WINDOW + max(len(first), len(second)) for i in starts for j in others)


def _contiguous(words: Sequence[str], sentence: Sequence[str]) -> bool:
    n = len(words)
    return any(tuple(sentence[i:i + n]) == tuple(words) for i in range(len(sentence) - n + 1))


def _counted(parsed: ParsedText, token: Token, value: str, end: int) -> str:
    """What a number counts or dates, so only a value of the same thing contradicts it:
    'year' for a year, else the stem of the next word ('12 euros' -> 'euro', '3 May' ->
    'may', '10 am' -> 'am'), else of the word it depends on ('won twice' -> 'won')."""
    if value.isdigit() and len(value) == 4 and 1000 <= int(value) <= 2100:
        return "year"
    if fold(token.text) in ("once", "twice", "thrice"):
        return "time"  # 'won twice' counts times, as 'won two times' does
    following = parsed.tokens[token.i + 1] if token.i + 1 < end else None
    if following is not None and any(c.isalpha() for c in following.text) and following.pos != "CCONJ" \
            and following.pos != "ADP":
        return word_stem(following.lemma)
    return word_stem(parsed.tokens[token.head].lemma)


def grade(units: Sequence[Unit], against: UnitSet) -> list[Graded]:
    return [grade_unit(u, against) for u in units]


def mean_score(graded: Sequence[Graded]) -> float | None:
    """The mean graded score; undefined (None) with nothing graded."""
    return sum(g.score for g in graded) / len(graded) if graded else None


def kind_product(graded: Sequence[Graded]) -> float | None:
    """An answer's support: the product over unit kinds of each kind's share.

    Every kind of content must hold: a sentence whose words all appear in the passage
    but whose two names the passage never puts together (a recombination, the commonest
    hallucination) is caught by its link units however many word units it has. Each
    share counts ``PRIOR`` supported units more (``(supported + PRIOR) / (n + PRIOR)``):
    a fully supported answer keeps 1, and one wrong unit never zeroes a kind, so each
    further wrong unit still lowers the score. Undefined (None) with nothing graded.
    """
    if not graded:
        return None
    by_kind: dict[str, list[float]] = {}
    for g in graded:
        by_kind.setdefault(g.unit.kind, []).append(g.score)
    product = 1.0
    for scores in by_kind.values():
        product *= (sum(scores) + PRIOR) / (len(scores) + PRIOR)
    return product


def text_units(parsed: Sequence[ParsedText]) -> UnitSet:
    """The units of several texts (passages) as one set to grade against."""
    out = UnitSet(units=[])
    for p in parsed:
        out = out.merge(read_units(p))
    return out


# The units read per parse. A run grades several answers against one passage and one
# reference (three per HaluEval question; a right answer is often its reference's text):
# each parse's units are read once. Keyed by the parse's identity (the parser hands out
# one parse per distinct text, ``SpacyParser``'s cache), the entry holding the parse so an
# id is never reused while cached; parses and unit sets are read, never changed, once
# built. Bounded like the parser's cache, least recently used first out.
UNITS_CACHE_SIZE = 2048
_UNITS: OrderedDict[tuple[int, ...], tuple[tuple[ParsedText, ...], UnitSet]] = OrderedDict()


def _kept(parsed: tuple[ParsedText, ...], key: tuple[int, ...], read: Callable[[], UnitSet]) -> UnitSet:
    held = _UNITS.get(key)
    if held is not None and all(a is b for a, b in zip(held[0], parsed)):
        _UNITS.move_to_end(key)
        return held[1]
    units = read()
    _UNITS[key] = (parsed, units)
    if len(_UNITS) > UNITS_CACHE_SIZE:
        _UNITS.popitem(last=False)
    return units


def units_of(parsed: ParsedText, span: bool = False) -> UnitSet:
    """``read_units``, read once per parse: the same ``UnitSet`` (not to be changed) for every call."""
    return _kept((parsed,), (int(span), id(parsed)), lambda: read_units(parsed, span))


def passage_units(parsed: Sequence[ParsedText]) -> UnitSet:
    """``text_units``, read once per sequence of parses: the same ``UnitSet`` (not to be changed)."""
    held = tuple(parsed)
    return _kept(held, (2, *map(id, held)), lambda: text_units(held))


def triple_units(triples: Sequence[Sequence[str]]) -> UnitSet:
    """Knowledge-graph triples as the side an answer is graded against (no parse needed):
    each triple one sentence of its subject's, predicate label's and object's words
    (``Alan_Bean | birthPlace | Wheeler,_Texas`` -> alan bean birth place wheeler texas)."""
    from factcov.domains.rag.lexicon import label_words

    out = UnitSet(units=[])
    objects_of: dict[str, list[list[str]]] = {}
    for subject, predicate, obj in triples:
        sentence: list[str] = []
        for index, part in enumerate((subject, " ".join(label_words(predicate)), obj)):
            if index == 2:
                start = len(sentence)
            for word in WORD_OR_VALUE.findall(part.replace("_", " ")):
                value = number_value(word)
                if value is not None:
                    out.values.add(value)
                    out.measured.add(("", value))
                    sentence.append(value)
                else:
                    stem = word_stem(word)
                    out.stems.add(stem)
                    sentence.append(stem)
        out.sentences.append(sentence)
        objects_of.setdefault(subject, []).append(sentence[start:])
    # Two objects of one subject may be neighbours in a text ("born in Wheeler, Texas, was
    # a test pilot"): each pair is a segment a link may be found in.
    for objects in objects_of.values():
        out.segments.extend(a + b for i, a in enumerate(objects) for b in objects[i + 1:])
    return out
