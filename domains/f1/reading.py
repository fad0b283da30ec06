"""The reading state shared by the f1 grammar's rules: folded text, driver mentions,
sentences, and who a claim is about (see docs/domains/f1.md, "Extraction")."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterator
from functools import cache, lru_cache, partial
from operator import attrgetter
from typing import Any, NamedTuple

from factcov.domains.f1.lexicon import Grammar, lexicon
from factcov.domains.f1.mentions import MENTION_KINDS, DriverIndex, Mention, driver_index
from factcov.extractors.anchors import Anchors
from factcov.extractors.fast_regex import compile_fast
from factcov.extractors.patterns import ClaimSet, SpanMask
from factcov.extractors.rules import DeclaredRules, RuleBook
from factcov.extractors.scanner import SentenceScanner, pattern_keys
from factcov.extractors.spans import bounded_sentence_ends
from factcov.language import fold
from factcov.language import parse_amount as _parse_amount
from factcov.language import parse_number as _parse_number
from factcov.language import parse_ordinal as _parse_ordinal
from factcov.model import Claim

_RELATIVE = re.compile(r"^\s*,?\s*(?:who|which|que|quien|quem|o qual|el cual)\b")
# "sobre Norris entrando en boxes": a gerund after an object is the sentence subject's
_GERUND = re.compile(r"\w+(?:ing|ando|iendo|endo|indo)(?:se|lo|la|le)?\b")
# "Verstappen, with fresh softs, ...": words set off after a driver are about him
_APPOSITION = re.compile(r"^\s*,\s*(?:with|on|con|com|en|em|sobre)\b[^,;:()]*$")
# "behind him, who was 18th": a relative clause about the other driver of the pair
_PRONOUN_RELATIVE = compile_fast(re.compile(r"\b(?:him|her|dele|dela|el|del)\s*,\s*(?:who|que|quien)\s+(?:\w+\s+){0,2}$"))
# "..., who boxed on lap 15, hoping ...": the relative clause closed before the words
_RELATIVE_OPEN = re.compile(r"^\s*,?\s*(?:who|which|que|quien|quem|o qual|el cual)\b[^,;:]*$")


# the same few words ("13", "second", "two") are parsed again and again, text after text
@lru_cache(maxsize=4096)
def parse_number(text: str, language: str) -> float | int | None:
    """``factcov.language.parse_number``, remembered."""
    return _parse_number(text, language)


@lru_cache(maxsize=4096)
def parse_ordinal(text: str, language: str) -> int | None:
    """``factcov.language.parse_ordinal``, remembered."""
    return _parse_ordinal(text, language)


_COLON = re.compile(r"[:;]")
_COMMA_BEFORE_WORDS = re.compile(r",(?!\s*$)")
_DIGITS = re.compile(r"\d+")


def _pair(focus: dict[str, Any]) -> tuple[str, str] | None:
    """The two drivers of an undercut, overcut or defense instance."""
    driver = focus.get("driver")
    other = focus.get("rival") or focus.get("attacker")
    if isinstance(driver, str) and isinstance(other, str) and driver != other:
        return driver, other
    return None


@cache
def grammar_rules(book: RuleBook, language: str) -> dict[Hashable, tuple[re.Pattern[str], ...]]:
    """Each rule's trigger patterns, and each pattern a rule scans a sentence with (by its
    key, ``PatternKeys``), as ``Anchors`` takes them: derived from the rules' declarations (``@rule``)."""
    return book.gates(book.lexicon(language))


@cache
def word_start_names(book: RuleBook, language: str) -> frozenset[Hashable]:
    """The names of ``grammar_rules`` whose anchors count only where a word starts (when
    their patterns want a ``\\b`` there): the rules scanning the whole text, and the
    patterns only ``finditer`` and ``search`` scan ("is" in "his" wakes no scan for a
    copula ``\\b(?:is|was)\\s``); a pattern searched in slices (a rule's ``sliced``)
    counts its anchors anywhere."""
    keys = pattern_keys(book.lexicon(language))
    sliced = {keys.key(pattern) for pattern in book.sliced(book.lexicon(language))}
    return book.word_start_rules() | {
        name for name in grammar_rules(book, language) if isinstance(name, int) and name not in sliced}


@cache
def grammar_anchors(book: RuleBook, language: str) -> Anchors:
    """Anchor words of each rule, and of each pattern a rule scans a sentence with (a
    scan where none of its anchors stands is skipped: it could match nothing there)."""
    return Anchors(grammar_rules(book, language), word_start=word_start_names(book, language))


# (language, a race's rare mention anchors) -> the grammar's anchors and those, joined
_JOINED: dict[tuple[RuleBook, str, tuple[tuple[str, str, int], ...]], Anchors] = {}
_JOINED_SIZE = 64


def text_anchors(book: RuleBook, language: str, index: DriverIndex) -> Anchors:
    """The grammar's anchors, the rare mention anchors of ``index`` (first names,
    nationalities, descriptions) and its drivers' names in one automaton: a text is passed
    over once for all.
    The grammar's names keep the bits ``grammar_anchors`` gives them (they come first);
    the rare kinds' names ("first", "demonym", "descriptor") follow. Built once per race
    and language (the rare anchors depend on the race's drivers, not on the focus) and
    rule book (a reader class's)."""
    held = (book, language)
    joined = index.text_anchors.get(held)  # type: ignore[call-overload]  # keyed by book and language
    if joined is None:
        key = (book, language, index.rare_key)
        joined = _JOINED.get(key)
        if joined is None:
            grammar = grammar_anchors(book, language)
            joined = Anchors({**grammar_rules(book, language), **index.rare_rules},  # as ``index.rare_anchors``
                             word_start=word_start_names(book, language) | frozenset(index.rare_rules),
                             literal_anchors=index.rare_literals,
                             apart=MENTION_KINDS)
            assert all(joined.bits[name] == bit for name, bit in grammar.bits.items())  # noqa: S101 - by construction
            if len(_JOINED) >= _JOINED_SIZE:
                del _JOINED[next(iter(_JOINED))]
            _JOINED[key] = joined
        index.text_anchors[held] = joined  # type: ignore[index]
    return joined


_MENTION_START = attrgetter("start")


class Sentence(NamedTuple):
    """A sentence of the text being read (a tuple: a text has a few dozen, built fast).
    Rules read its fields by name; the reader's hottest loops (``sentences``, ``subject``,
    ``is_object``, ``clause_start``) and the scanner by position: in CPython 3.11 a
    ``NamedTuple`` field by name is a generic attribute lookup (named there, the f1 reader
    ran ~0.5% more instructions per realized text under callgrind, issue 28)."""

    start: int
    end: int
    mentions: list[Mention]
    topic: str | None  # who a sentence without a driver is about
    mask: int  # the bits of the anchor names (rules, patterns) with an anchor in it


_sentence = partial(tuple.__new__, Sentence)  # ``Sentence(*fields)`` without a call of Python
_NO_SENTENCE = Sentence(-1, -1, [], None, 0)  # ``_here`` before the first sentence


class TextReader(DeclaredRules, SentenceScanner):
    """One text: its folded form, driver mentions and sentences, and the claims read.
    Its rules (``@rule`` methods of the subclasses) are declared in ``Grammar``'s fields."""

    lexicon_type = Grammar
    reader_scans = ("clause_break",)  # ``subject_after``, ``clause_start``

    @classmethod
    def lexicon_for(cls, language: str) -> Grammar:
        return lexicon(language)

    def __init__(self, extractor_name: str, lex: Grammar, text: str, context: dict[str, Any]) -> None:
        self.extractor_name = extractor_name
        self.lex = lex
        self.text = text
        self.folded = fold(text)
        self._index = index = driver_index(context)
        # the sentences' ends, increasing, the last len(folded) (none for an empty text)
        self._ends = bounded_sentence_ends(self.folded, lex.sentence_end)
        # the grammar's anchors and the rare mentions' (first names, nationalities) in one
        # pass, which also gives each sentence's anchor mask
        # pass, which also gives each sentence's anchor mask: the scanner's gates
        self.scan_with(text_anchors(self.rule_book, lex.language, index).find(self.folded, self._ends), lex)
        self._clause_bit = self.bit_of(lex.clause_break)  # see ``clause_start``
        # the sentence being read, set by ``sentences`` for each: a stretch inside it holds
        # no anchor the sentence lacks (the scanner's ``may_match``, ``finditer``)
        self._here: Sentence = _NO_SENTENCE
        self.context = context
        self.race = context.get("race", {})
        focus = context.get("focus", {})
        self.focus_driver = focus.get("driver") if isinstance(focus.get("driver"), str) else None
        self.pair = _pair(focus)
        self.mentions = self.with_teammates(index.find(text, self.folded, self.hits))
        self.unresolved = index.unresolved(self.folded, self.mentions, self.hits)
        self._pending_move: tuple[str, str, str | None] | None = None  # a move tried, outcome not yet said
        self.read_claims = ClaimSet(text, extractor_name)
        # ``emit(type, key, value, start, end)``: keep the claim read from ``text[start:end]``,
        # the same claim from overlapping words once; ``ClaimSet.add`` itself, bound once
        # (no call of the reader's own per claim, ~7 a text)
        self.emit: Callable[[str, dict[str, Any], Any, int, int], bool] = self.read_claims.add
        self.claims: list[Claim] = self.read_claims.claims  # in reading order
        self._unresolved_here: list[tuple[int, int]] = []
        # lap numbers read as some claim's: one mask for the text, as the rules take only
        # spans of the sentence they read (a later sentence's spans never overlap an earlier's)
        self.consumed = SpanMask()
        self._objects: dict[tuple[int | None, ...], bool] = {}  # (mention, sentence start) -> by the object markers
        self._marked_objects: dict[tuple[int | None, ...], bool] = {}  # (mention, sentence start, a marker's key) -> by it
        self._clause_starts: dict[tuple[int, int], int] = {}

    @property
    def gated(self) -> bool:
        """Rules and scans skipped where their anchors are absent (False: never)."""
        return SentenceScanner.gated.fget(self)  # type: ignore[attr-defined]

    @gated.setter
    def gated(self, gated: bool) -> None:
        SentenceScanner.gated.fset(self, gated)  # type: ignore[attr-defined]
        self._clause_bit = self.bit_of(self.lex.clause_break)

    def sentences(self) -> Iterator[Sentence]:
        """Sentences in order, none longer than MAX_SENTENCE_CHARS (a longer run is cut at
        a space), so every rule's work per sentence is bounded and a text reads in linear time."""
        topic = self.focus_driver
        start = 0
        mentions = self.mentions  # sorted by start (``DriverIndex.find``, ``with_teammates``)
        mention_starts = list(map(_MENTION_START, mentions))
        unresolved = sorted(self.unresolved) if self.unresolved else None  # most texts have none
        unresolved_starts = [u[0] for u in unresolved] if unresolved else None
        first = 0  # the first mention not in an earlier sentence
        ends = self._ends
        masks = self.hits.masks(ends) if ends else []
        for end, mask in zip(ends, masks):
            last = bisect_left(mention_starts, end, first)
            inside = mentions[first:last]
            first = last
            if unresolved:
                self._unresolved_here = unresolved[
                    bisect_left(unresolved_starts, start): bisect_left(unresolved_starts, end)  # type: ignore[arg-type]
                ]
            sentence = self._here = _sentence((start, end, inside, topic, mask))  # ``may_match`` asks about it
            yield sentence
            # the next sentence's topic: its first driver who acts ("... to undercut
            # Verstappen" leaves the topic alone); the rules have mostly asked already
            # (``is_object``'s own table, looked up here without the call). A sentence
            # naming only the topic leaves it as it is (the usual one: one driver, the topic)
            if inside and (len(inside) > 1 or inside[0][2] != topic):
                objects = self._objects
                for mention in inside:
                    known = objects.get((mention[0], start))
                    if not (self.is_object(mention, sentence) if known is None else known):
                        topic = mention[2]
                        break
            start = end

    def with_teammates(self, mentions: list[Mention]) -> list[Mention]:
        """'Hamilton kept his team-mate behind': in a decision between two team-mates, the
        team-mate of the pair driver named last before it (else of the focus driver)."""
        if self.pair is None:
            return mentions
        teams = self._index.teams  # the race's teams by code (worked out once per race, with its index)
        if not teams.get(self.pair[0]) or teams.get(self.pair[0]) != teams.get(self.pair[1]):
            return mentions
        added = []
        for match in self.lex.teammate.finditer(self.folded):
            if any(m.start < match.end() and match.start() < m.end for m in mentions):
                continue
            if any(0 <= m.start - match.end() <= 2 for m in mentions):
                continue  # "his team-mate Giovinazzi": the name that follows is the mention
            before = [m.code for m in mentions if m.end <= match.start() and m.code in self.pair]
            other = self.other_driver(before[-1] if before else self.focus_driver)
            if other is not None:
                added.append(Mention(match.start(), match.end(), other))
        return sorted([*mentions, *added], key=lambda m: m.start)

    # --- helpers (the scanner's surface: ``SentenceScanner``) ----------------------
    def subject(self, sentence: Sentence, position: int) -> str | None:
        """The last driver named before ``position`` in the sentence, else the topic; when
        a clause mark or a pronoun separates them ("X undercut Y: he pitted"), the
        sentence's first driver."""
        mentions = sentence.mentions
        if len(mentions) == 1:  # the usual sentence: one driver
            before = mentions if mentions[0].end <= position else []
        else:
            before = [m for m in mentions if m.end <= position]
        unresolved = self._unresolved_here
        if not before:
            if unresolved and self._names_unresolved(sentence.start, position):
                return None
            return self.subject_after(sentence, position)
        last = before[-1]
        if unresolved and self._names_unresolved(last.end, position):
            return None  # "... and the Finn finished sixth" with two Finns in the race
        folded = self.folded
        between = folded[last.end: position]
        has_comma = "," in between  # _PRONOUN_RELATIVE and _APPOSITION match only across a comma
        if has_comma and _PRONOUN_RELATIVE.search(folded, last.end, position):
            # "Bottas segurou Gasly ... logo atrás dele, que foi 18º": "dele" is not the subject
            return self._pronoun_relative_subject(sentence, before)
        if len(before) == 1:  # ``is_object(last, sentence)``, its table looked up first (asked already, mostly)
            known = self._objects.get((last[0], sentence[0]))
            if not (self.is_object(last, sentence) if known is None else known):
                # the usual case, one driver acting before: the subject, unless a clause
                # mark or a pronoun resets it (none does in "..., who came in", nor where
                # only spaces separate them, nor in an apposition: those say ``last``)
                if self.lex.subject_reset.search(between) and not _RELATIVE.match(between) and not (
                        has_comma and _APPOSITION.match(between)):
                    return self._reset_subject(sentence, position, before)
                return last.code
        return self._subject_among(sentence, position, before, between, has_comma)

    def _names_unresolved(self, start: int, end: int) -> bool:
        """Whether a name of the sentence being read that tells no driver apart ("the Finn"
        with two Finns in the race) lies inside ``[start, end)`` (asked only when it has one)."""
        return any(start <= s and e <= end for s, e in self._unresolved_here)

    def _pronoun_relative_subject(self, sentence: Sentence, before: list[Mention]) -> str | None:
        """'... behind him, who was 18th': the other driver of the pair than the first one
        acting (or the topic)."""
        acting = [m for m in before if not self.is_object(m, sentence)]
        return self.other_driver(acting[0].code if acting else sentence.topic)

    def _subject_among(self, sentence: Sentence, position: int, before: list[Mention], between: str,
                       has_comma: bool) -> str | None:
        """``subject`` past its usual case (one driver acting before ``position``): several
        drivers named before, or one named as an object; ``between``: the words from the
        last one to ``position``."""
        folded = self.folded
        last = before[-1]
        if _RELATIVE_OPEN.match(between):
            return last.code  # "..., who came in on lap 17"
        if not between.strip() and not _GERUND.match(folded, position):
            return last.code  # right before the verb: "four laps before Verstappen came in"
        if len(before) == 1:
            acting = []  # the one driver is an object (asked above)
        else:
            acting = [m for m in before if not self.is_object(m, sentence)]
        if acting:
            before = acting
            if acting[-1] is not last:
                between = folded[acting[-1].end: position]
                has_comma = "," in between
        elif any(self.is_object(m, sentence, self.lex.passed_marker) for m in before):
            # the driver passed is not the one who "won" ("adelantó a Hamilton ... y ganó")
            return self.subject_after(sentence, position)
        if has_comma and _APPOSITION.match(between):
            return before[-1].code  # "Verstappen, con blandos nuevos, le adelantó"
        if self.lex.subject_reset.search(between) and not _RELATIVE.match(between):
            return self._reset_subject(sentence, position, before)
        return before[-1].code

    def _reset_subject(self, sentence: Sentence, position: int, before: list[Mention]) -> str | None:
        """The subject where a clause mark or a pronoun separates the drivers ``before`` from
        ``position``: the sentence's first driver, or the main clause's after a subordinate opening."""
        folded = self.folded
        opening = self.lex.subordinate_opening.match(folded, sentence.start)
        if opening is not None:  # "When the Dutchman pitted, Lewis was ahead: ..." is about Lewis
            comma = folded.find(",", opening.end(), position)
            main = [m for m in before if comma != -1 and m.start > comma]
            return main[0].code if main else None
        return before[0].code

    def subject_after(self, sentence: Sentence, position: int) -> str | None:
        """No driver named before: 'Starting on mediums, Hamilton ...' and 'permitió a Red
        Bull cambiar a blandos a Verstappen' are about the driver named next in the clause;
        'His first stop ...' (a pronoun) is about the topic."""
        following = self.next_mention(sentence, position)
        if (
            following is None
            or following.start - position > 60
            or self.lex.subject_pronoun.search(self.folded, sentence.start, position)
            or _COLON.search(self.folded, position, following.start)
            # "Starting on mediums, Lewis" (the comma just before the driver), not "Hard, covering Verstappen's"
            or _COMMA_BEFORE_WORDS.search(self.folded[position: following.start])
            or self.search(self.lex.clause_break, position, following.start)
            or self.is_object(following, sentence)
        ):
            return sentence.topic
        return following.code

    def other_driver(self, code: str | None) -> str | None:
        """'him', 'le', 'o', 'ele': the other driver of a two-driver decision."""
        if self.pair is None or code not in self.pair:
            return None
        return self.pair[1] if code == self.pair[0] else self.pair[0]

    def is_object(self, mention: Mention, sentence: Sentence, marker: re.Pattern[str] | None = None) -> bool:
        """'... than Giovinazzi', '... sobre Leclerc': a driver named as an object (asked
        again and again of the same mention by the rules: answered once)."""
        if marker is None:  # the object markers (most calls): their own table, keyed by the two starts
            key: tuple[int | None, ...] = (mention[0], sentence[0])
            objects = self._objects
            marker = self.lex.object_marker
        else:
            key = (mention[0], sentence[0], self.key_of(marker))
            objects = self._marked_objects
        known = objects.get(key)
        if known is None:
            known = objects[key] = self._is_object(mention, sentence, marker)
        return known

    def _is_object(self, mention: Mention, sentence: Sentence, marker: re.Pattern[str]) -> bool:
        stop = mention.start
        start = stop - 30 if stop - 30 > sentence.start else sentence.start
        # a window shorter than any marker holds none (the driver opening a sentence, most
        # mentions); a match inside it holds one of the marker's anchors there (a marker
        # without anchors, as the object markers are, is searched for at once)
        lex = self.lex
        shortest = lex.shortest_marker if marker is lex.object_marker or marker is lex.passed_marker else 0
        if stop - start >= shortest and self.may_match(marker, start, stop) and marker.search(self.folded[start: stop]):
            return True
        # "ahead of Verstappen and Bottas": a driver listed after an object is one too
        mentions = sentence.mentions
        if not mentions or mentions[0].start >= stop:
            return False  # no driver named before this one (mentions are in text order)
        previous = self.previous_mention(sentence, stop)
        return (previous is not None and bool(self.lex.and_word.match(self.folded[previous.end: stop]))
                and self.is_object(previous, sentence, marker))

    def next_mention(self, sentence: Sentence, position: int) -> Mention | None:
        for mention in sentence.mentions:
            if mention.start >= position:
                return mention
        return None

    def previous_mention(self, sentence: Sentence, position: int) -> Mention | None:
        found = None
        for mention in sentence.mentions:
            if mention.end <= position:
                found = mention
        return found

    def clause_start(self, sentence: Sentence, position: int) -> int:
        """Where the clause holding ``position`` opens (asked by several rules of the same
        words: worked out once)."""
        clause_bit = self._clause_bit
        if sentence is self._here and clause_bit is not None and not sentence[4] & clause_bit and (
            position <= sentence[1]
        ):
            return sentence[0]  # no clause break in the sentence being read (``finditer`` would skip the scan)
        key = (sentence.start, position)
        start = self._clause_starts.get(key)
        if start is None:
            start = sentence.start
            for match in self.finditer(self.lex.clause_break, sentence.start, position):
                start = match.end()
            self._clause_starts[key] = start
        return start

    def driver_record(self, code: str | None) -> dict[str, Any] | None:
        return next((d for d in self.race.get("drivers", []) if d.get("code") == code), None)

    def count_of(self, code: str | None, what: str) -> int | None:
        record = self.driver_record(code)
        return len(record[what]) if record is not None and record.get(what) else None

    def ordinal(self, text: str, code: str | None, what: str) -> int | None:
        """'second' -> 2; 'last'/'final' -> the driver's number of stops or stints."""
        word = text.strip()
        if word in ("last", "final", "ultima", "ultimo"):
            return self.count_of(code, what)
        if word in ("opening", "primer"):
            return 1
        return parse_ordinal(word, self.lex.language)

    def number(self, text: str, below: float | None = None) -> int | float | None:
        """The number written; with ``below``, an amount that stays under it (``parse_amount``)."""
        language = self.lex.language
        value = parse_number(text, language) if below is None else _parse_amount(text, language, below=below)
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    def lap_numbers(self, start: int, end: int, bare: bool = True) -> list[tuple[int, int, int]]:
        """(lap, start, end) of every lap reference in [start, end); ``bare``: also numbers
        without the word lap ("pitted on 17"), which only a pit verb makes laps."""
        found = []
        for match in self.lex.lap_ref.finditer(self.folded, start, end):
            nums = match.group("nums")
            if nums:
                if nums.isdigit() and nums.isascii():  # "lap 13" (most): one number, its digits
                    found.append((int(nums), match.start("nums"), match.end("nums")))
                    continue
                for number in self.lex.number.finditer(self.folded, match.start("nums"), match.end("nums")):
                    value = self.number(number.group(0))
                    if isinstance(value, int):
                        found.append((value, number.start(), number.end()))
            elif match.group("bare") and bare:
                for number in _DIGITS.finditer(match.group("bare")):
                    found.append((int(number.group(0)), match.start("bare") + number.start(),
                                  match.start("bare") + number.end()))
            elif match.group("ord"):
                value = parse_ordinal(match.group("ord"), self.lex.language)
                if value is not None:
                    found.append((value, match.start(), match.end()))
        return found

    # --- rules --------------------------------------------------------------------
