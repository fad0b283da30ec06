"""Rules of the f1 grammar about a driver's strategy: pit laps, stop counts, compounds."""

from __future__ import annotations

import re
from functools import cache
from typing import Any, NamedTuple

from factcov.domains.f1.lexicon import LAP_WORD, cued_search, lexicon
from factcov.domains.f1.reading import Sentence, TextReader
from factcov.extractors.fast_regex import compile_fast
from factcov.extractors.rules import rule
from factcov.language import alternation

_TIMES = {"once": 1, "twice": 2, "thrice": 3, "single": 1, "only": 1, "unica": 1, "one": 1, "una": 1, "uma": 1, "duas": 2,
          "no": 0, "zero": 0, "ninguna": 0, "nenhuma": 0, "cero": 0}
_ONE_STOP_CONTEXT = compile_fast(re.compile(
    r"(?:hizo|hace|realizo|fez|faz|realizou|apenas|solo|so|estrategia (?:de|a)|carrera a|corrida de)\s+(?:una|uma)\s"
    r"|(?:una|uma)\s+(?:sola|unica|so)\s+parada"
))
_STOP_NUMBER = re.compile(r"\b(?:pit[- ]?)?(?:stop|parada)\s+#?(\d)\b")  # "Stop 2", "parada 1"
_ARROW_AFTER = re.compile(r"\s*(?:[-–/>→]|->)\s*\w")
_ARROW_BEFORE = re.compile(r"\w\s*(?:[-–/>→]|->)\s*$")
_ARROWS = "-–/>→"  # how an arrow of _ARROW_BEFORE ends
_SEPARATOR = re.compile(r"^\s*(?:-|–|/|>|→|->|,)\s*$")
# "soft, hard, soft, soft", "blando, duro, duro y, al final, blando": a list of sets is a
# sequence only after words that announce one ("Zhou's race was", "la secuencia", ":")
_POSSESSIVE_LAP = re.compile(r"^['’]s\s+(?:in-?\s*)?lap\s+$")
_APOSTROPHES = ("'", "’")
_LIST_SEPARATOR = re.compile(
    r"^\s*(?:,|,?\s*(?:and|y|e|then|luego|depois))\s*,?\s*(?:(?:finally|at the end|al final|por ultimo|no final|no fim)\s*,?\s*)?$"
)
_SEQUENCE_CUE = compile_fast(re.compile(
    r"(?:\b(?:race|strategy|sequence|order|secuencia|estrategia|sequencia|ordem)(?:\s+(?:was|were|ran|went|fue|foi))?"
    r"|\b(?:ran|went|used|follow(?:ed)?|uso|hizo|siguio|corrio|usou|fez|seguiu|correu)|:)\s*$"
))


class _LapHint(NamedTuple):
    """Found wherever ``TextReader.lap_numbers`` can find a lap: each of its references
    holds a lap word ("lap 13", "second lap") or a digit ("pitted on 17")."""

    words: tuple[str, ...]  # how the language's lap words open (each holds one of these)

    def search(self, text: str, start: int, end: int) -> bool:
        """Whether ``text[start:end]`` holds a lap word or a digit: the words by ``in`` on the
        stretch sliced once (cheaper than a ``find`` with bounds each), the digits by one
        character class (in an ASCII stretch ``\\d`` is ``[0-9]``, a class the engine tests
        as a bitmap)."""
        stretch = text[start:end]
        for word in self.words:
            if word in stretch:
                return True
        return (_ASCII_DIGIT if stretch.isascii() else _DIGIT).search(stretch) is not None


_DIGIT = re.compile(r"\d")
_ASCII_DIGIT = re.compile(r"[0-9]")


@cache
def _may_hold_lap(language: str) -> _LapHint:
    """The lap hint of ``language``: its lap words (``LAP_WORD``) without their plural endings."""
    words = tuple(sorted({word.rstrip("s?") for word in LAP_WORD[language].split("|")}))
    if any(not re.fullmatch(r"[a-z]+", word) for word in words):
        raise ValueError(f"lap words of {language} are not plain words: {LAP_WORD[language]!r}")
    return _LapHint(words)


@cache
def _count_before_stop(language: str) -> re.Pattern[str]:
    """Found, in the text read backwards, wherever ``lexicon(language).stop_count[0]``
    matches forwards: its stop word, spaces or hyphens, a filler word and the same at most,
    then the end of a count (a digit, a count word). Backwards the pattern opens with the
    stop word, a literal the engine jumps to; forwards its count words are tried at every
    position."""
    lex = lexicon(language)
    gap = r"[\s-]*"
    # searched for only (is there one?): the order of the words does not matter
    fillers = alternation((word[::-1] for word in lex.stop_count_fillers), space=re.escape(" "))
    counts = alternation((word[::-1] for word in lex.count_ends), space=re.escape(" "))
    return re.compile(rf"{re.escape(lex.stop_count_noun[::-1])}{gap}(?:(?:{fillers}){gap})?(?:\d|{counts})")


class StrategyRules(TextReader):
    """Pit laps, stop counts, compounds, compound changes and sequences."""


    @rule(order=90, triggers=("pit_verb",), scans=("clause_break", "neutralization", "scope_break", "stop_ordinal"))
    def pit_laps(self, sentence: Sentence) -> None:
        """'pitted on lap 13', 'On lap 13 Hamilton pitted': the laps each pit verb says."""
        if not _may_hold_lap(self.lex.language).search(self.folded, sentence.start, sentence.end):
            return  # no lap said anywhere in the sentence: nothing to read, whoever stopped
        verbs = self.matches(self.lex.pit_verb, sentence)
        last = len(verbs) - 1
        for index, verb in enumerate(verbs):  # a verb's laps stop at the next verb
            self.verb_laps(sentence, verb, verbs[index + 1].start() if index < last else sentence.end,
                           verbs[index - 1].end() if index else -1)

    def verb_laps(self, sentence: Sentence, verb: re.Match[str], stop: int, previous: int) -> None:
        """The laps of the pit verb ``verb``: said after it, up to ``stop`` (the next verb) or
        a break of its scope or clause; else before it in its clause, after the previous
        verb (which ends at ``previous``): each a pit lap of whoever stopped."""
        lex = self.lex
        verb_start, verb_end = verb.span()
        laps = self.lap_numbers(verb_end, self.until((lex.scope_break, lex.clause_break), verb_end, stop))
        clause = self.clause_start(sentence, verb_start)
        if not laps:  # "On lap 13 Hamilton pitted"
            since = previous if previous > clause else clause
            # "A VSC between laps 36 and 38 ... Verstappen stopped": those laps are the VSC's
            laps = self.lap_numbers(since, self.until((lex.neutralization,), since, verb_start))
            if not laps:
                return  # no lap said: nothing to read, whoever stopped
        if self.any(lex.neutralization, sentence) and self.neutralized(sentence, verb_start, clause):
            return  # "the safety car came in": not a pit stop
        subject = self.subject(sentence, verb_start)
        # the last one named inside the verb: "Alpine brought Fernando in", "chamou Hülkenberg para os"
        for mention in sentence.mentions:
            if verb_start <= mention.start and mention.end <= verb_end:
                subject = mention.code
        consumed = self.consumed
        for lap in laps:
            if not (consumed.spans and consumed.overlaps((lap[1], lap[2]))):  # nothing read yet: nothing overlaps
                self.pit_lap(sentence, subject, verb, clause, lap, len(laps) == 1)

    def neutralized(self, sentence: Sentence, verb_start: int, clause: int) -> bool:
        """Whether the pit verb at ``verb_start`` is said of a neutralization ("the safety
        car came in"): one is named between the verb's owner (or clause) and the verb."""
        owner = self.previous_mention(sentence, verb_start)
        since = owner.end if owner and owner.end > clause else clause  # owner.end >= sentence.start
        return self.search(self.lex.neutralization, since, verb_start) is not None

    def pit_lap(self, sentence: Sentence, subject: str | None, verb: re.Match[str], clause: int,
                lap: tuple[int, int, int], alone: bool) -> None:
        """Read ``lap`` (number, start, end), said after or before the pit verb ``verb`` whose
        subject is ``subject``: of the last one acting between them, or of its owner ("against
        Sargeant's lap 12"); its stop's ordinal where it is the verb's only lap (``alone``)."""
        number, start, end = lap
        driver = subject
        folded = self.folded
        verb_end = verb.end()
        owner = None  # "against Sargeant's lap 12": the first mention that owns it
        for mention in sentence.mentions:  # else the last one acting between verb and lap, not
            mention_start, mention_end, code = mention
            if verb_end <= mention_start and mention_end <= start and not self.is_object(mention, sentence):
                driver = code  # "uma volta antes de Ricciardo, na 12"
            if owner is None and folded[mention_end: mention_end + 1] in _APOSTROPHES and _POSSESSIVE_LAP.match(
                    folded[mention_end: start]):
                owner = code
        if owner is not None:
            driver = owner
        if driver is None:
            return
        key: dict[str, Any] = {"driver": driver}
        ordinal = None
        for match in self.finditer(self.lex.stop_ordinal, clause, start) if alone else ():
            ordinal = self.ordinal(match.group(1), driver, "pit_stops")
        numbered = _STOP_NUMBER.match(folded, verb.start()) if alone and ordinal is None else None
        if numbered is not None:  # "Stop 2, lap 33"
            ordinal = int(numbered.group(1))
        if ordinal is not None:
            key["stop"] = ordinal
        self.consumed.take((start, end))
        verb_start = verb.start()
        self.emit("pit_lap", key, number, verb_start if verb_start < start else start, end)

    @rule(order=80, triggers=("stay_out",), scans=("neutralization",))
    def stay_outs(self, sentence: Sentence) -> None:
        """'Max stayed out until lap 17', 'alargó su stint hasta la vuelta 18': the in-lap."""
        race_laps = self.race.get("race_laps")
        for match in self.finditer(self.lex.stay_out, sentence.start, sentence.end):
            if self.lex.pit_verb.search(match.group("gap")) or self.lex.scope_break.search(match.group("gap")):
                continue
            owner = self.previous_mention(sentence, match.start())
            since = max(owner.end if owner else sentence.start, self.clause_start(sentence, match.start()))
            if self.search(self.lex.neutralization, since, match.start()):
                continue  # "the safety car stayed out until lap 3"
            lap = self.number(match.group("w") or match.group("n"))
            if not isinstance(lap, int) or (isinstance(race_laps, int) and lap >= race_laps):
                continue  # "stayed out until lap 56" of 56: to the flag, not a stop
            driver = self.subject(sentence, match.start())
            named = [m for m in sentence.mentions if match.start() <= m.start and m.end <= match.start("gap")]
            if named:  # "Red Bull left Verstappen out until lap 17"
                driver = named[-1].code
            if driver is None:
                continue
            number = "w" if match.group("w") else "n"
            # the first lap this sentence reads (stay-outs come before pit laps and compounds,
            # and two stay-outs' numbers never overlap): taken, never refused
            self.consumed.take((match.start(number), match.end(number)))
            self.emit("pit_lap", {"driver": driver}, lap, match.start(), match.end())

    @rule(order=70, triggers=("stop_count",), sliced=("stop_count",))
    def stop_counts(self, sentence: Sentence) -> None:
        scans = self.scans(self.lex.stop_count)
        if scans and scans[0] is self.lex.stop_count[0] and not self.count_before_stop(sentence.start, sentence.end):
            del scans[0]  # no count right before a stop word: "made his first stop on lap 13"
        folded, start, end = self.folded, sentence.start, sentence.end
        for pattern in scans:  # each with a cue word of its own in the sentence (``Grammar.scan_cues``)
            for match in pattern.finditer(folded, start, end):
                word = next(filter(None, match.groups()), None)  # the count said, if any
                if word is not None:
                    if word in ("una", "uma") and not _ONE_STOP_CONTEXT.search(
                        self.folded, max(sentence.start, match.start() - 25), match.end() + 12
                    ):
                        continue  # "tras una parada lenta": a stop, not a count of stops
                    value = _TIMES[word] if word in _TIMES else self.number(word)
                else:
                    value = 0  # "did not stop", "sin parar"
                if not isinstance(value, int) or value > 6:
                    continue
                driver = self.subject(sentence, match.start())
                if driver is None:
                    following = self.next_mention(sentence, match.end())
                    driver = following.code if following else None
                if driver is not None:
                    self.emit("stop_count", {"driver": driver}, value, match.start(), match.end())

    def count_before_stop(self, start: int, end: int) -> bool:
        """Whether a count ends right before a stop word in ``folded[start:end]``, a filler
        and spaces or hyphens between them at most ("two pit-stops", "una sola parada"):
        where none does, ``lex.stop_count[0]`` cannot match there."""
        return _count_before_stop(self.lex.language).search(self.folded[start:end][::-1]) is not None

    def compound_at(self, match: re.Match[str], word: str, value: str) -> str | None:
        """``value`` (the set ``word``, the match's words as listed, names) where the
        match is read as a tyre set, else None."""
        lex = self.lex
        start, end = match.span()
        before = self.folded[start - 30 if start > 30 else 0: start]
        if cued_search(lex.negated_compound, lex.negation_cues, before) or self.folded.startswith("-free", end):
            return None  # "without the softs", "soft-free"
        if word not in lex.ambiguous:
            return value
        after = self.folded[end: end + 30]
        ending = before.rstrip()[-1:]  # _ARROW_BEFORE ends in an arrow and spaces
        if _ARROW_AFTER.match(after) or (ending and ending in _ARROWS and _ARROW_BEFORE.search(before)):
            return value  # inside a sequence: "medium-hard-hard"
        if word in self.lex.noun_only:
            return value if self.lex.tyre_noun_after.match(after) else None
        if self.lex.not_after_ambiguous.match(after):
            return None
        if self.lex.tyre_noun_after.match(after) or self.lex.tyre_leader_before.search(before):
            return value
        return None

    def compound_changes(self, sentence: Sentence, found: list[re.Match[str]],
                         changes: list[re.Pattern[str]]) -> list[tuple[int, int]]:
        """'switched from the medium to the hard', 'another set of hards': each change read
        by the patterns ``changes`` (``found``: the sentence's compound words); the spans of
        the changes read."""
        used: list[tuple[int, int]] = []
        values = self.lex.compound_values
        for pattern in changes:
            for match in pattern.finditer(self.folded, sentence.start, sentence.end):
                c1 = values.get(" ".join(match.group("c1").split()))
                c2_text = match.group("c2") if "c2" in pattern.groupindex else None
                c2 = values.get(" ".join(c2_text.split())) if c2_text else c1
                if c1 is not None and c2 is not None and self.read_change(sentence, match, [c1, c2], found):
                    used.append(match.span())
        return used

    def read_change(self, sentence: Sentence, match: re.Match[str], change: list[str],
                    found: list[re.Match[str]]) -> bool:
        """Read the change ``change`` (two sets) said by ``match``, its stop and the lap it
        names; False where it is about no one."""
        driver = self.subject(sentence, match.start())
        if driver is None:
            return False
        ordinal = self.stop_of_change(sentence, match, driver, found)
        self.emit("compound_change", {"driver": driver} if ordinal is None else {"driver": driver, "stop": ordinal},
                  change, match.start(), match.end())
        # "swapped inters for inters on lap 37": the change names its stop's lap
        change_end = match.end()
        window_end = min(sentence.end, change_end + 25)
        if not _may_hold_lap(self.lex.language).search(self.folded, change_end, window_end):
            return True  # no lap word or digit after it ("... to the hard tyres.")
        for lap, lap_start, lap_end in self.lap_numbers(change_end, self.until((self.lex.clause_break,), change_end,
                                                                                window_end)):
            if self.consumed.take((lap_start, lap_end)):  # a lap not read as another claim's
                self.emit("pit_lap", {"driver": driver, **({"stop": ordinal} if ordinal else {})},
                          lap, match.start(), lap_end)
        return True

    def stop_of_change(self, sentence: Sentence, match: re.Match[str], driver: str,
                       found: list[re.Match[str]]) -> int | None:
        """The stop a change is said of: 'at his first stop' after it; a stop ordinal before it
        in its clause that no earlier compound owns; one right after it."""
        lex = self.lex
        ordinal = self.stop_said_at(sentence, match.end(), driver)
        if ordinal is None and self.any(lex.stop_ordinal, sentence):  # the stretch lies inside it
            owned = None  # worked out at the first stop named before the change
            for stop in lex.stop_ordinal.finditer(self.folded, self.clause_start(sentence, match.start()), match.start()):
                if owned is None:
                    owned = self.stops_owned_by_compounds(sentence, match.start(), found)
                if not any(s <= stop.start() < e for s, e in owned):
                    ordinal = self.ordinal(stop.group(1), driver, "pit_stops")
        if ordinal is None:
            after = self.search(lex.stop_ordinal, match.end(), min(sentence.end, match.end() + 25))
            if after:
                ordinal = self.ordinal(after.group(1), driver, "pit_stops")
        return ordinal

    @rule(order=100, triggers=("compound", "change", "same_set"),
          scans=("stop_ordinal", "stint_ordinal", "clause_break"), sliced=("compound", "changes", "start_words", "end_words"))
    def compounds(self, sentence: Sentence) -> None:
        """The sets a sentence names: its changes ('switched from the medium to the hard'),
        then, outside them, sequences ('soft-soft-hard'), a set at a stop, a stint's set."""
        found = self.matches(self.lex.compound, sentence)
        if not found:
            return  # no compound word, so no change either (each names one)
        # a change from one set to another ("from the medium to the hard") holds two compound
        # words; with one, only "another set of hards" can match
        changes = self.scans(self.lex.changes if len(found) > 1 else self.lex.one_set_changes)
        used = self.compound_changes(sentence, found, changes) if changes else None
        groups, tokens, words = self.compound_groups(sentence, found, used)
        if words:  # three sets or more and a comma: maybe a list after a sequence cue
            groups = self.with_listed_sequences(sentence, groups, words)
        for group in groups:
            self.read_group(sentence, group, tokens)

    def compound_groups(self, sentence: Sentence, found: list[re.Match[str]], used: list[tuple[int, int]] | None,
                        ) -> tuple[list[list[tuple[int, int, str]]], list[tuple[int, int, str]], list[tuple[int, int, str]]]:
        """The compound words ``found`` outside the changes read (spans ``used``) read as sets
        (``compound_at``), (start, end, set) each, grouped into sequences ('soft-soft-hard':
        joined by arrows or dashes); the sets; and, in a sentence that may list sets (three
        words or more, and a comma), every compound word outside a change, for lists."""
        folded = self.folded
        tokens: list[tuple[int, int, str]] = []
        groups: list[list[tuple[int, int, str]]] = []
        words: list[tuple[int, int, str]] = []
        listing = len(found) >= 3 and folded.find(",", sentence.start, sentence.end) >= 0
        values = self.lex.compound_values
        for m in found:
            start = m.start()
            if used and any(s <= start < e for s, e in used):
                continue
            word = m.group(0)
            value = values.get(word)
            if value is None:  # "full  wets" over a line break: the words as listed
                word = " ".join(word.split())
                value = values.get(word)
                if value is None:
                    continue
            if listing:
                words.append((start, m.end(), value))
            if self.compound_at(m, word, value) is None:
                continue
            token = (start, m.end(), value)
            tokens.append(token)
            between = folded[groups[-1][-1][1]: start] if groups else ""
            if groups and _SEPARATOR.match(between) and "," not in between:
                groups[-1].append(token)
            else:
                groups.append([token])
        return groups, tokens, words

    def with_listed_sequences(self, sentence: Sentence, groups: list[list[tuple[int, int, str]]],
                              words: list[tuple[int, int, str]]) -> list[list[tuple[int, int, str]]]:
        """``groups`` with the lists of sets after a sequence cue (``listed_sequences``) in
        place of the groups inside them."""
        listed = self.listed_sequences(sentence, words)
        if not listed:
            return groups
        inside = [(g[0][0], g[-1][1]) for g in listed]
        groups = [g for g in groups if not any(s <= g[0][0] < e for s, e in inside)] + listed
        groups.sort(key=lambda g: g[0][0])
        return groups

    def read_group(self, sentence: Sentence, group: list[tuple[int, int, str]],
                   tokens: list[tuple[int, int, str]]) -> None:
        """The claims of one group of sets: a sequence's stints and changes, else one set's
        stint (or the change at the stop said after it)."""
        driver = self.subject(sentence, group[0][0])
        if driver is None or (len(group) == 2 and self.one_stop_line(sentence, group)):
            return
        if len(group) > 1:
            self.read_sequence(driver, group)
            return
        start, end, value = group[0]
        stop = self.stop_said_at(sentence, end, driver)
        if stop is not None:  # "switched to hards at his first stop": what he took there
            self.change_at_stop(driver, stop, value, start, end)
            return
        previous = sentence.start if len(tokens) == 1 else max(  # the one token ends after its start
            (t[1] for t in tokens if t[1] <= start), default=sentence.start)
        stint = self.stint_of(sentence, driver, start, end, previous)
        self.emit("stint_compound", {"driver": driver} if stint is None else {"driver": driver, "stint": stint},
                  value, start, end)

    def read_sequence(self, driver: str, group: list[tuple[int, int, str]]) -> None:
        """'soft-soft-hard': stints 1..n, and the changes at stops 1..n-1."""
        for stint, (_start, end, value) in enumerate(group, start=1):
            self.emit("stint_compound", {"driver": driver, "stint": stint}, value, group[0][0], end)
        record = self.driver_record(driver)
        if record is not None and record.get("red_flag_tyre_changes"):
            return  # a red-flag tyre change is a stint without a stop: numbering differs
        for stop in range(1, len(group)):
            self.emit("compound_change", {"driver": driver, "stop": stop},
                      [group[stop - 1][2], group[stop][2]], group[0][0], group[stop][1])

    def listed_sequences(self, sentence: Sentence,
                         words: list[tuple[int, int, str]]) -> list[list[tuple[int, int, str]]]:
        """Three or more sets listed with commas after a sequence cue ("Zhou's race was
        soft, hard, soft, soft"): one sequence, bare words included (``words``: the
        sentence's compound words outside a change read, in order; gathered only in a
        sentence with a comma, as a list of three or more has one)."""
        if len(words) < 3:
            return []
        sequences, index = [], 0
        while index < len(words):
            chain = [words[index]]
            while index + len(chain) < len(words) and _LIST_SEPARATOR.match(
                    self.folded[chain[-1][1]: words[index + len(chain)][0]]):
                chain.append(words[index + len(chain)])
            first = chain[0][0]
            if len(chain) >= 3 and _SEQUENCE_CUE.search(self.folded, max(sentence.start, first - 30), first):
                sequences.append(chain)
            index += len(chain)
        return sequences

    def stop_said_at(self, sentence: Sentence, position: int, driver: str) -> int | None:
        """'at his first stop' right after ``position``; 'at the second' only once a stop
        was named before in the sentence ('switched at his first stop and ... at the second')."""
        match = self.lex.stop_at.match(self.folded, position, sentence.end)
        if match is None:
            return None
        if not match.group("noun") and not self.search(self.lex.stop_ordinal, sentence.start, position):
            return None
        return self.ordinal(match.group(1), driver, "pit_stops")

    def stops_owned_by_compounds(self, sentence: Sentence, position: int,
                                 found: list[re.Match[str]]) -> list[tuple[int, int]]:
        """Spans of 'at his first stop' said right after an earlier compound: that
        compound's stop, not a later change's ('hards at his first stop and another set of
        hards'). ``found``: the sentence's compound words; ``position``: where a change
        opens, at a word boundary (its pattern opens with one), so a compound word before
        it is found there too: with none found before it, nothing is scanned."""
        if not found or found[0].start() >= position:
            return []
        owned = []
        for token in self.finditer(self.lex.compound, sentence.start, position):
            match = self.lex.stop_at.match(self.folded, token.end(), position)
            if match is not None:
                owned.append((match.start(), match.end()))
        return owned

    def change_at_stop(self, driver: str, stop: int, value: str, start: int, end: int) -> None:
        """The compound fitted at stop n is stint n+1's; with stint n's compound already
        read, it is also the change at that stop."""
        record = self.driver_record(driver)
        if record is not None and record.get("red_flag_tyre_changes"):
            self.emit("stint_compound", {"driver": driver}, value, start, end)  # stints and stops differ
            return
        self.emit("stint_compound", {"driver": driver, "stint": stop + 1}, value, start, end)
        # stint n's compound: read as such, or as what the change at stop n-1 fitted
        before = [c.value for c in self.claims if c.type == "stint_compound" and c.key == {"driver": driver, "stint": stop}]
        before += [c.value[1] for c in self.claims if c.type == "compound_change"
                   and c.key == {"driver": driver, "stop": stop - 1}]
        if before:
            self.emit("compound_change", {"driver": driver, "stop": stop}, [before[-1], value], start, end)

    def one_stop_line(self, sentence: Sentence, group: list[tuple[int, int, str]]) -> bool:
        """'Stop 2 (lap 28): Hard → Hard', 'Volta 19: duro → duro': the change at one stop
        (and, for a lap named before it, the stop's lap), not stints 1 and 2."""
        (start, _, first), (_, end, second) = group
        driver = self.subject(sentence, start)
        if driver is None:
            return False
        stop = self.stop_named_before(sentence, start, driver)
        clause = self.clause_start(sentence, start)
        laps = self.lap_numbers(clause, start, bare=False)
        if stop is None and not laps:
            return False
        key: dict[str, Any] = {"driver": driver} | ({"stop": stop} if stop is not None else {})
        self.emit("compound_change", key, [first, second], start, end)
        if len(laps) == 1 and not self.search(self.lex.pit_verb, clause, start):
            lap, lap_start, lap_end = laps[0]
            if self.consumed.take((lap_start, lap_end)):
                self.emit("pit_lap", key, lap, lap_start, end)
        return True

    def stop_named_before(self, sentence: Sentence, position: int, driver: str) -> int | None:
        """'Stop 2 (lap 28):', 'second stop:', 'parada 1:' in the clause before ``position``."""
        clause = self.clause_start(sentence, position)
        number = None
        for match in _STOP_NUMBER.finditer(self.folded, clause, position):
            number = int(match.group(1))
        for match in self.finditer(self.lex.stop_ordinal, clause, position):
            number = self.ordinal(match.group(1), driver, "pit_stops")
        return number

    def stint_of(self, sentence: Sentence, driver: str, start: int, end: int, previous: int) -> int | None:
        """The stint a compound is said of: an ordinal stint nearby, 'started on' (1),
        'finished on' (the last); words before an earlier compound do not count."""
        lex = self.lex
        clause = self.clause_start(sentence, start)
        window_start = start - 45 if start - 45 > clause else clause  # ``max``, a call, written out
        if previous > window_start:
            window_start = previous
        # the stretches below lie inside the sentence: each pattern is scanned only where one
        # of its anchors stands there (the stint ordinal's at word starts, ``any``;
        # the start and end words', searched in a slice, anywhere: ``may_match``)
        if self.any(lex.stint_ordinal, sentence):
            near = list(lex.stint_ordinal.finditer(self.folded, window_start,
                                                   end + 30 if end + 30 < sentence.end else sentence.end))
            if near:
                closest = near[0] if len(near) == 1 else min(near, key=lambda m: abs(m.start() - start))
                return self.ordinal(closest.group(1), driver, "stints")
        before = self.folded[window_start:start]
        # a match inside ``before`` holds an anchor there: no anchor, no scan
        ends = list(lex.end_words.finditer(before)) if self.may_match(lex.end_words, window_start, start) else []
        if not self.may_match(lex.start_words, window_start, start):
            return self.count_of(driver, "stints") if ends else None
        if not ends:  # any start word says the first stint: the first one found will do
            return 1 if lex.start_words.search(before) else None
        starts = list(lex.start_words.finditer(before))
        if not starts or ends[-1].start() > starts[-1].start():
            return self.count_of(driver, "stints")
        return 1
