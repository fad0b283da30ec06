"""Coverage of reference triples by a text: which (subject, predicate, object) it states.

A triple is covered when both of its arguments are found in one sentence, or the subject
in an earlier sentence that a pronoun or a "the <noun>" opener of the object's sentence
refers back to, and the words around them word its predicate (``lexicon``). Each step is
graded, so two texts that differ a little score a little apart:

- an argument is found by fuzzy token coverage: the share of its words the sentence has
  (exactly, or by stem: "Brazil"/"Brazilian"), after folding case, accents, possessives,
  quotes, underscores, a parenthesized disambiguator ("Lotus Eaters (band)") and a
  qualifier after a comma ("La Crosse, Wisconsin" is found as "La Crosse"; those
  optional words weigh ``OPTIONAL``: kept, they say a little more); ordinals as the
  text's words ("11th" = 11); numbers are
  compared as values ("98.0" = "98", "1,500" = "1500"), dates by their year, month and
  day in any order or format ("2001-10-16", "16 October 2001", "2001/10/16"; another
  year finds nothing) and times of day as times ("10:00" = "10 am", never a bare "10");
- sentences are the parser's, rejoined where it broke without a ".", "!" or "?" (after a
  colon, inside a title); arguments found only in different, unlinked sentences count half;
- predicate evidence scales the pair: words of the sentence that word the predicate
  (learned or generic, see ``lexicon``) give full credit, none gives ``NO_EVIDENCE``;
- a triple whose arguments are adjacent in one clause, but whose connecting words
  clearly word another of the data's predicates and not this one ("has 2900 students"
  for a staff size of 2900), or word this one the other way round ("Detroit is located
  in the Pontiac Rageous"; directions learned, ``lexicon``), is *contradicted* and
  scores 0.

Entities (every subject and object) get the same graded score on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache

from factcov.domains.rag.lexicon import STOPWORDS, PredicateLexicon, default_lexicon, is_agent_noun, is_verbal, stem
from factcov.domains.rag.patterns import (
    CLOCK_TIME,
    DATE_SEPARATOR,
    ISO_DATE,
    NUMERIC_DATE,
    ORDINAL,
    ORDINAL_TO_31,
    PARENTHESIZED,
    SIGNED_DECIMAL,
    WORD,
    WORD_OR_VALUES,
)
from factcov.extractors.normalize import MONTHS, canonical_entity, is_literal
from factcov.extractors.parsed import ParsedText
from factcov.language import fold, parse_number

PRONOUNS = frozenset("he she it they his her its their him them this these which who whose".split())
ANAPHOR_OPENERS = frozenset("the this that these its his her their".split())
NAME_STOP = frozenset("the a an of and de la le".split())
CROSS_SENTENCE = 0.5  # both arguments found, but in unlinked sentences
LINKED = 0.9  # subject reached through a pronoun / "the noun" opener
FUZZY, FUZZY_MIN = 0.0, 0.8  # a misspelt name's word: credit x character similarity (off: see docs/validation.md)
OPTIONAL = 0.1  # weight of an argument's optional words (qualifier, disambiguator)
AGENT_BY = 0.0  # evidence of "by" between a work and the doer of an agent noun's predicate
ZERO_ANAPHORA = False  # link a sentence naming no subject to the earlier one (off: see docs/validation.md)
NO_EVIDENCE = 0.6  # arguments together, no word of the predicate
CONTRADICTION_OTHER = 0.9  # how much of a word another predicate must own to be its rival
IMPLICIT, IMPLICIT_SPAN = 1.0, 3  # arguments joined by at most 3 function words
WINDOW_AFTER = 2
SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
DIRECT_SPAN = 6  # longest window read for direction (as benchmarks/rag_build_lexicon.py)  # words after the later argument that still belong to it ("2900 students")


@dataclass(frozen=True)
class Argument:
    """What to look for: name words (and optional qualifier words), or a literal value."""

    words: tuple[str, ...]
    optional: tuple[str, ...] = ()
    number: float | None = None
    date: tuple[str, ...] | None = None  # ('2001', '10', '16'), ('2001', '10') or ('2001',)
    time: str | None = None  # '19:00'



@dataclass
class TripleVerdict:
    subject: str
    predicate: str
    object: str
    score: float
    label: str  # covered | partial | missing | contradicted
    sentence: int | None = None
    evidence: float = 0.0


@dataclass
class TripleCoverage:
    verdicts: list[TripleVerdict] = field(default_factory=list)
    entities: dict[str, float] = field(default_factory=dict)
    lone: dict[str, float] = field(default_factory=dict)  # entities no triple relates, found on their own

    @property
    def coverage(self) -> float | None:
        """Mean score over the triples and the lone entities (a reference text may name a
        thing it relates to nothing the parse reads: leaving it out must still cost)."""
        scores = [v.score for v in self.verdicts] + list(self.lone.values())
        return sum(scores) / len(scores) if scores else None

    @property
    def entity_coverage(self) -> float | None:
        return sum(self.entities.values()) / len(self.entities) if self.entities else None

    @property
    def contradicted(self) -> float | None:
        if not self.verdicts:
            return None
        return sum(v.label == "contradicted" for v in self.verdicts) / len(self.verdicts)


def _surface(term: str) -> str:
    return term.replace("_", " ").strip().strip('"').strip("'").strip()


def _name_words(text: str) -> tuple[str, ...]:
    folded = fold(text).replace("'s ", " ").replace("\u2019s ", " ")
    # Ordinals as the text's words are read ("11th" -> "11", as ``_split_token``).
    return tuple(_ordinal_read(w) for w in WORD.findall(folded) if w not in NAME_STOP)


def _ordinal_read(word: str) -> str:
    """"11th" -> "11"; any other word as it is."""
    ordinal = ORDINAL.fullmatch(word)
    return ordinal.group(1) if ordinal else word


@lru_cache(maxsize=65536)
def argument_of(term: str) -> Argument:
    """How to find a triple's argument in text (see module docstring)."""
    surface = _surface(term)
    canonical = canonical_entity(surface)
    if SIGNED_DECIMAL.fullmatch(surface):  # "3.16" (minutes) is a value, never a time of day
        return Argument(words=(), number=float(surface))
    if is_literal(canonical):
        head = canonical.split()[0]
        if ISO_DATE.fullmatch(head):
            parts = head.lstrip("-").split("-")
            return Argument(words=(), date=tuple(str(int(p)) if i else p for i, p in enumerate(parts)))
        if CLOCK_TIME.fullmatch(head):  # a time: "10:00" is written "10 am", "10:00"
            return Argument(words=(), time=head)
        try:
            return Argument(words=(), number=float(head))
        except ValueError:
            pass
    inner = PARENTHESIZED.findall(surface)
    main = PARENTHESIZED.sub(" ", surface)
    main, _, qualifier = main.partition(",")
    words = _name_words(main) or _name_words(surface)
    optional = _name_words(qualifier + " " + " ".join(inner))
    return Argument(words=words, optional=tuple(w for w in optional if w not in words))


@dataclass
class Sentence:
    words: list[str]  # folded, possessive 's dropped
    stems: set[str]
    numbers: list[float]
    starts_anaphoric: bool
    has_pronoun: bool
    content: list[str] = field(default_factory=list)  # words that can word a predicate
    content_stems: set[str] = field(default_factory=set)
    _at: dict[str, list[int]] = field(default_factory=dict)

    def positions(self, term: str, argument: Argument) -> list[int]:
        """Where the argument's words are (computed once per sentence and term)."""
        if term not in self._at:
            self._at[term] = _positions(argument, self)
        return self._at[term]


@lru_cache(maxsize=65536)
def _number(word: str) -> float | None:
    value = parse_number(word.replace(",", ""), "en")
    return None if value is None or word in ("a", "an", "one") else float(value)


@lru_cache(maxsize=65536)
def _split_token(text: str) -> tuple[str, ...]:
    folded = fold(text)
    if NUMERIC_DATE.fullmatch(folded):
        return tuple(DATE_SEPARATOR.split(folded))
    if ORDINAL_TO_31.fullmatch(folded):
        return (folded[:-2],)  # "27th" December
    return tuple(WORD_OR_VALUES.findall(folded))


def _spans(parsed: ParsedText) -> list[tuple[int, int]]:
    """The parser's sentences, with a break the text does not mark rejoined: a parser
    also splits after a colon or inside a name ("1634: The Bavarian Crisis by Eric
    Flint ..."), which would cut a name off the words that relate it."""
    spans: list[tuple[int, int]] = []
    for start, end in parsed.sentences:
        if spans and not _ends_sentence(parsed, spans[-1]):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _ends_sentence(parsed: ParsedText, span: tuple[int, int]) -> bool:
    start, end = span
    tail = [t.text for t in parsed.tokens[start:end] if t.text not in ('"', "'", "\u201d", ")")][-1:]
    return not tail or tail[0][-1:] in (".", "!", "?")


def sentences_of(parsed: ParsedText) -> list[Sentence]:
    out = []
    for start, end in _spans(parsed):
        words: list[str] = []
        for token in parsed.tokens[start:end]:
            if token.text.lower() in ("'s", "\u2019s", "'"):
                continue
            words.extend(_split_token(token.text))
        numbers = []
        for i, word in enumerate(words):
            value = _number(word)
            if value is not None:
                if i + 1 < len(words) and words[i + 1] in SCALES:
                    numbers.append(value * SCALES[words[i + 1]])
                numbers.append(value)
        first = words[0] if words else ""
        content = [w for w in words if w not in STOPWORDS and len(w) > 1]
        out.append(Sentence(words, {stem(w) for w in words}, numbers, first in ANAPHOR_OPENERS,
                            any(w in PRONOUNS for w in words), content, {stem(w) for w in content}))
    return out


def _number_matches(value: float, numbers: Sequence[float]) -> bool:
    return any(abs(n - value) <= max(0.005 * abs(value), 1e-9) or round(n) == round(value) and abs(value) >= 10
               for n in numbers)


def _times(words: Sequence[str]) -> set[str]:
    """Times of day a sentence writes ("7 pm", "7 p m", "19:00" split as 19, 00), as HH:MM."""
    found = set()
    for i, word in enumerate(words):
        if not word.isdigit() or len(word) > 2:
            continue
        rest = words[i + 1:i + 4]
        minute = rest[0] if rest and len(rest[0]) == 2 and rest[0].isdigit() else None
        if minute is not None:
            rest = rest[1:]
        text = f"{word}:{minute or '00'}"
        if rest and rest[0] in ("am", "pm", "a", "p"):
            text += " " + rest[0][0] + "m"
        elif minute is None:
            continue  # a bare number is not a time
        value = canonical_entity(text)
        if CLOCK_TIME.fullmatch(value):
            found.add(value)
    return found


def find(argument: Argument, sentence: Sentence) -> float:
    """Share (0..1) of the argument found in the sentence."""
    if argument.time is not None:
        return 1.0 if argument.time in _times(sentence.words) else 0.0
    if argument.number is not None:
        return 1.0 if _number_matches(argument.number, sentence.numbers) else 0.0
    if argument.date is not None:
        return _date_share(argument.date, set(sentence.words))
    if not argument.words:
        return 0.0
    return _words_share(argument, sentence)


def _date_share(date: tuple[str, ...], words: set[str]) -> float:
    """Share of a date's parts (year, month, day) the words hold; 0 without its year."""
    found = 0.0
    for position, part in enumerate(date):
        if position == 1:
            month = int(part)
            found += any(w in words and MONTHS[w] == month for w in MONTHS) or (
                part in words or f"{month:02d}" in words)
        else:
            found += part in words or part.zfill(2) in words
    if date[0] not in words:
        return 0.0  # another year is another date, whatever the day and month
    return found / len(date)


def _words_share(argument: Argument, sentence: Sentence) -> float:
    """Share of a name's words the sentence holds: exactly, by stem or (``FUZZY``) nearly."""
    words = set(sentence.words)
    got = 0.0
    for word in argument.words:
        if word in words:
            got += 1.0
        elif len(word) >= 4 and stem(word) in sentence.stems:
            got += 0.8
        elif FUZZY and len(word) >= 5:
            got += FUZZY * max((_likeness(word, w) for w in words if len(w) >= 4), default=0.0)
    share = got / len(argument.words)
    if OPTIONAL and argument.optional and share:
        # A qualifier or disambiguator left out ("La Crosse" for "La Crosse, Wisconsin")
        # is not wrong, but a text that keeps it says a little more of the name.
        kept = sum(w in words for w in argument.optional) / len(argument.optional)
        share *= 1 - OPTIONAL * (1 - kept)
    return share


@lru_cache(maxsize=262144)
def _likeness(wanted: str, word: str) -> float:
    """Character similarity of a name's word and a text's word when it passes
    ``FUZZY_MIN`` ("Agremiaçao" / "Agremiação", "Ruszczyski" / "Ruszczyński"), else 0."""
    if abs(len(wanted) - len(word)) > 2 or wanted[0] != word[0]:
        return 0.0
    matcher = SequenceMatcher(None, wanted, word)
    if matcher.quick_ratio() < FUZZY_MIN:
        return 0.0
    ratio = matcher.ratio()
    return ratio if ratio >= FUZZY_MIN else 0.0


def _positions(argument: Argument, sentence: Sentence) -> list[int]:
    """Word positions where the argument's words occur (for the connecting window)."""
    if argument.number is not None:
        out = []
        for i, w in enumerate(sentence.words):
            value = _number(w)
            if value is not None and _number_matches(argument.number, [value]):
                out.append(i)
        return out
    wanted = set(argument.date or ()) | set(argument.words)
    if argument.time is not None:
        wanted.add(str(int(argument.time[:2]) % 12 or 12))
        wanted.add(argument.time[:2])
    return [i for i, w in enumerate(sentence.words) if w in wanted]


def _window(subject: list[int], obj: list[int], sentence: Sentence, other: set[int],
            counted: bool) -> tuple[list[str], bool] | None:
    """Words connecting the two arguments: between their nearest occurrences, plus, when
    the later one is a number (``counted``), the few words after it that say what it
    counts ("2900 students"); and whether another argument sits between them (then only
    the words after it are kept: "a dessert from Mexico")."""
    if not subject or not obj:
        return None
    a, b = min(((s, o) for s in subject for o in obj), key=lambda p: abs(p[0] - p[1]))
    low, high = sorted((a, b))
    inside = [i for i in range(low + 1, high) if i not in subject and i not in obj]
    cut = [i for i in inside if i in other]
    if cut:
        inside = [i for i in inside if i > max(cut)]
    after: list[int] = []
    for i in range(high + 1, min(len(sentence.words), high + 1 + WINDOW_AFTER) if counted else 0):
        if i in other:
            break
        after.append(i)
    return [sentence.words[i] for i in inside + after], bool(cut)


def cover(parsed: ParsedText, triples: Sequence[Sequence[str]], lexicon: PredicateLexicon | None = None,
          entities: Sequence[str] = ()) -> TripleCoverage:
    """Graded coverage of ``triples`` ([subject, predicate, object]) and of lone
    ``entities`` (names no triple relates) by the parsed text."""
    lexicon = lexicon or default_lexicon()
    sentences = sentences_of(parsed)
    result = TripleCoverage()
    terms = [term for t in triples for term in (t[0], t[2])] + list(entities)
    if not terms:
        return result
    arguments = {term: argument_of(term) for term in terms}
    found = {term: [find(arg, s) for s in sentences] for term, arg in arguments.items()}
    for term, scores in found.items():
        result.entities[_surface(term)] = max(scores, default=0.0)
    for term in entities:
        result.lone[_surface(term)] = result.entities[_surface(term)]
    # A sentence naming no subject of the data continues the topic ("There are 9400
    # postgraduate students."): linked like a pronoun when ``ZERO_ANAPHORA`` is on.
    subjects = {t[0] for t in triples}
    topicless = [ZERO_ANAPHORA and max((found[s][k] for s in subjects), default=0.0) < 0.5
                 for k in range(len(sentences))]
    for subject, predicate, obj in triples:
        # Only the data's other relations compete: the text stating this value under
        # another relation the data has is a confusion a reader would call wrong.
        rivals = {p for s, p, o in triples if p != predicate and o != obj}
        result.verdicts.append(_verdict(subject, predicate, obj, sentences, arguments, found, lexicon, rivals,
                                        topicless))
    return result


def _verdict(subject, predicate, obj, sentences, arguments, found, lexicon, rivals, topicless) -> TripleVerdict:
    s_scores, o_scores = found[subject], found[obj]
    best, best_k, linked = _best_sentence(s_scores, o_scores, sentences, topicless)
    spread = min(max(s_scores, default=0.0), max(o_scores, default=0.0)) * CROSS_SENTENCE
    if best_k is None or spread > best:
        score = spread
        label = "partial" if score > 0 else "missing"
        return TripleVerdict(subject, predicate, obj, score, label, None, 0.0)
    sentence = sentences[best_k]
    own = lexicon.evidence_of(predicate, sentence.content, sentence.content_stems)
    if linked:
        before = sentences[max(best_k - 1, 0)]
        own = max(own, lexicon.evidence_of(predicate, before.content, before.content_stems))
    else:
        between = _evidence_between(subject, predicate, obj, sentence, arguments, lexicon, rivals, best, own)
        if between is None:
            return TripleVerdict(subject, predicate, obj, 0.0, "contradicted", best_k, own)
        own = between
    score = best * (NO_EVIDENCE + (1 - NO_EVIDENCE) * own)
    label = "covered" if score >= 0.8 else "partial" if score > 0 else "missing"
    return TripleVerdict(subject, predicate, obj, score, label, best_k, own)


def _best_sentence(s_scores: list[float], o_scores: list[float], sentences: list[Sentence],
                   topicless: list[bool]) -> tuple[float, int | None, bool]:
    """The sentence holding both arguments best (the subject may be an earlier sentence's,
    taken up by a pronoun: ``linked``), and the pair's score there."""
    best, best_k, linked = 0.0, None, False
    for k, sentence in enumerate(sentences):
        s_here = s_scores[k]
        earlier = max(s_scores[:k], default=0.0)
        if (sentence.has_pronoun or sentence.starts_anaphoric or topicless[k]) and earlier * LINKED > s_here:
            s_here, via = earlier * LINKED, True
        else:
            via = False
        pair = min(s_here, o_scores[k])
        if pair > best:
            best, best_k, linked = pair, k, via
    return best, best_k, linked


def _evidence_between(subject, predicate, obj, sentence, arguments, lexicon, rivals, best: float,
                      own: float) -> float | None:
    """The predicate's evidence in a sentence naming both arguments, from the words between
    them; None when those words contradict the triple (a rival predicate, the relation
    the other way round)."""
    others = {i for term, arg in arguments.items() if term not in (subject, obj)
              for i in sentence.positions(term, arg)}
    s_at, o_at = sentence.positions(subject, arguments[subject]), sentence.positions(obj, arguments[obj])
    joined = _window(s_at, o_at,
                     sentence, others, arguments[obj].number is not None)
    window, direct = (joined[0], not joined[1]) if joined else ([], False)
    rival = lexicon.rival(predicate, window, CONTRADICTION_OTHER, among=rivals) if best >= 0.8 and direct else None
    if rival is not None:
        return None
    if direct and _reversed(predicate, window, s_at, o_at, arguments, subject, obj, lexicon):
        return None
    if direct and AGENT_BY and "by" in window and is_agent_noun(predicate):
        # "1634: The Bavarian Crisis by Eric Flint": "by" names the doer of an agent
        # noun's predicate (author, creator, director, architect, ...).
        own = max(own, AGENT_BY)
    if joined and len(window) <= IMPLICIT_SPAN and all(w in STOPWORDS for w in window):
        # "a dessert from Mexico": arguments joined by function words only state a
        # relation people often leave unworded (learned: ``lexicon.implicit``).
        own = max(own, IMPLICIT * lexicon.implicit.get(predicate, 0.0))
    return own


def _reversed(predicate: str, window: list[str], subject: list[int], obj: list[int],
              arguments: dict[str, Argument], s_term: str, o_term: str, lexicon: PredicateLexicon) -> bool:
    """The text words the relation the other way round ("Detroit is located in the
    Pontiac Rageous"): the arguments joined directly by words of the predicate, and the
    doer (the earlier argument, or the one after "by") is the wrong one for a predicate
    worded by a word whose direction training settles for it (``lexicon.direction``). Literal values and "of" or
    possessive constructions ("the capital of X is Y") are never read as reversed."""
    if arguments[s_term].words == () or arguments[o_term].words == ():
        return False
    if len(window) > DIRECT_SPAN or "of" in window:
        return False
    settled = {lexicon.direction.get(f"{predicate}|{stem(w)}") for w in window if is_verbal(w)} - {None}
    if len(settled) != 1:
        return False  # no connecting word whose direction training settles (or two disagreeing)
    expected = settled.pop()
    a, b = min(((s, o) for s in subject for o in obj), key=lambda p: abs(p[0] - p[1]))
    passive = "by" in window[-2:]
    agent_is_subject = (a < b) != passive
    return agent_is_subject != (expected > 0)
