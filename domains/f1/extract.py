"""`f1-regex`: race-strategy claims read from en/es/pt prose with one grammar per language.

Instance-aware: drivers are recognized from the instance's race (codes, surnames, full
names, the focus driver's team), "last stop"/"final stint" are numbered from the race
data, and a sentence without a driver is about the previous sentence's first driver
(or the instance's focus driver). Rules are in docs/domains/f1.md ("Extraction").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from factcov.domains.f1.lexicon import Lexicon, lexicon
from factcov.domains.f1.mentions import Mention, driver_index
from factcov.extractor import Extractor
from factcov.language import fold, parse_number, parse_ordinal
from factcov.model import Claim, Instance

_TIMES = {"once": 1, "twice": 2, "thrice": 3, "single": 1, "one": 1, "una": 1, "uma": 1, "duas": 2,
          "no": 0, "zero": 0, "ninguna": 0, "nenhuma": 0, "cero": 0}
_NOT_A_POSITION = re.compile(
    r"\s*(?:-\s*)?(?:stint|stop|pit|lap|set|time|parada|vuelta|volta|tramo|trecho|juego|jogo|vez|veces|vezes)"
)
_NEGATED_WIN = re.compile(r"(?:\bnot|n't|\bno|\bnao|\bnunca|\bnever|failed to|fallo en|sin)\s+(?:\w+\s+)?$")
_RELATIVE = re.compile(r"^\s*,?\s*(?:who|que|quien|quem|o qual|el cual)\b")
_ONE_STOP_CONTEXT = re.compile(
    r"(?:hizo|hace|realizo|fez|faz|realizou|apenas|solo|so|estrategia (?:de|a)|carrera a|corrida de)\s+(?:una|uma)\s"
    r"|(?:una|uma)\s+(?:sola|unica|so)\s+parada"
)
_SEPARATOR = re.compile(r"^\s*(?:-|–|/|>|→|,)\s*$")
_POSSESSIVE = {"en": r"of", "es": r"de|del", "pt": r"de|do|da"}
_BY = {"en": r"by", "es": r"por", "pt": r"por|pelo"}


@dataclass
class Sentence:
    start: int
    end: int
    mentions: list[Mention]
    topic: str | None  # who a sentence without a driver is about


class F1RegexExtractor(Extractor):
    name: ClassVar[str] = "f1-regex"
    description: ClassVar[str] = "Regex grammars (en, es, pt) for pit stops, tyres, results, moves and neutralizations."
    domains: ClassVar[tuple[str, ...]] = ("f1",)
    languages: ClassVar[tuple[str, ...]] = ("en", "es", "pt")

    def __init__(self, language: str = "en", **options: object) -> None:
        super().__init__(language, **options)
        self.lex: Lexicon = lexicon(language)
        self._possessive = re.compile(rf"^\s*(?:{_POSSESSIVE[language]})\s*$")
        self._by = re.compile(rf"^\s*(?:{_BY[language]})\s*$")

    # --- driving ------------------------------------------------------------------
    def extract(self, text: str, instance: Instance) -> list[Claim]:
        # spans index the NFC form (the same string for the NFC text models write)
        reader = _Reader(self, unicodedata.normalize("NFC", text), instance.context)
        return reader.read()


class _Reader:
    """One text: its folded form, driver mentions and sentences, and the claims read."""

    def __init__(self, extractor: F1RegexExtractor, text: str, context: dict[str, Any]) -> None:
        self.x = extractor
        self.lex = extractor.lex
        self.text = text
        self.folded = fold(text)
        self.context = context
        self.race = context.get("race", {})
        focus = context.get("focus", {})
        self.focus_driver = focus.get("driver") if isinstance(focus.get("driver"), str) else None
        self.mentions = driver_index(context).find(text, self.folded)
        self.claims: list[Claim] = []
        self._seen: dict[tuple[Any, ...], list[tuple[int, int]]] = {}
        self._consumed: list[tuple[int, int]] = []

    def read(self) -> list[Claim]:
        for sentence in self.sentences():
            self.neutralizations(sentence)
            self.moves(sentence)
            self.gains(sentence)
            self.defenses(sentence)
            self.winners_and_positions(sentence)
            self.stop_counts(sentence)
            self.pit_laps(sentence)
            self.compounds(sentence)
        return sorted(self.claims, key=lambda c: (c.span or (0, 0), c.type))

    def sentences(self) -> Iterator[Sentence]:
        topic = self.focus_driver
        start = 0
        bounds = [m.end() for m in self.lex.sentence_end.finditer(self.folded)] + [len(self.folded)]
        for end in bounds:
            if end <= start:
                continue
            inside = [m for m in self.mentions if start <= m.start < end]
            yield Sentence(start, end, inside, topic)
            if inside:
                topic = inside[0].code
            start = end

    # --- helpers ------------------------------------------------------------------
    def emit(self, type_: str, key: dict[str, Any], value: Any, start: int, end: int) -> None:
        signature = (type_, tuple(sorted(key.items())), repr(value))
        spans = self._seen.setdefault(signature, [])
        if any(s < end and start < e for s, e in spans):
            return  # the same claim read twice from overlapping words
        spans.append((start, end))
        self.claims.append(
            Claim(type=type_, key=key, value=value, span=(start, end), text=self.text[start:end],
                  extractor=self.x.name)
        )

    def subject(self, sentence: Sentence, position: int) -> str | None:
        """The last driver named before ``position`` in the sentence, else the topic; when
        a clause mark or a pronoun separates them ("X undercut Y: he pitted"), the
        sentence's first driver."""
        before = [m for m in sentence.mentions if m.end <= position]
        if before and _RELATIVE.match(self.folded[before[-1].end: position]):
            return before[-1].code  # "..., who came in on lap 17"
        acting = [m for m in before if not self.is_object(m, sentence)]
        before = acting or before
        if not before:
            return sentence.topic
        between = self.folded[before[-1].end: position]
        if self.lex.subject_reset.search(between) and not _RELATIVE.match(between):
            return before[0].code
        return before[-1].code

    def is_object(self, mention: Mention, sentence: Sentence) -> bool:
        """'... than Giovinazzi', '... sobre Leclerc': a driver named as an object."""
        window = self.folded[max(sentence.start, mention.start - 30): mention.start]
        return bool(self.lex.object_marker.search(window))

    def next_mention(self, sentence: Sentence, position: int) -> Mention | None:
        return next((m for m in sentence.mentions if m.start >= position), None)

    def previous_mention(self, sentence: Sentence, position: int) -> Mention | None:
        before = [m for m in sentence.mentions if m.end <= position]
        return before[-1] if before else None

    def consumed(self, start: int, end: int) -> bool:
        return any(s < end and start < e for s, e in self._consumed)

    def clause_start(self, sentence: Sentence, position: int) -> int:
        start = sentence.start
        for match in self.lex.clause_break.finditer(self.folded, sentence.start, position):
            start = match.end()
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

    def number(self, text: str) -> int | float | None:
        value = parse_number(text, self.lex.language)
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    def lap_numbers(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """(lap, start, end) of every lap reference in [start, end)."""
        found = []
        for match in self.lex.lap_ref.finditer(self.folded, start, end):
            if match.group("nums"):
                for number in self.lex.number.finditer(self.folded, match.start("nums"), match.end("nums")):
                    value = self.number(number.group(0))
                    if isinstance(value, int):
                        found.append((value, number.start(), number.end()))
            elif match.group("ord"):
                value = parse_ordinal(match.group("ord"), self.lex.language)
                if value is not None:
                    found.append((value, match.start(), match.end()))
        return found

    # --- rules --------------------------------------------------------------------
    def neutralizations(self, sentence: Sentence) -> None:
        keywords = list(self.lex.neutralization.finditer(self.folded, sentence.start, sentence.end))
        for index, match in enumerate(keywords):
            kind = next(k for k, v in match.groupdict().items() if v)
            stop = keywords[index + 1].start() if index + 1 < len(keywords) else sentence.end
            cut = self.lex.clause_break.search(self.folded, match.end(), stop)
            if cut:
                stop = cut.start()
            for verb in self.lex.pit_verb.finditer(self.folded, match.end(), stop):
                # "the safety car came in on lap 3" is about the safety car; a driver's stop is not
                if any(match.end() <= m.start < verb.start() for m in sentence.mentions):
                    stop = verb.start()
                    break
            laps = self.lap_ranges(match.end(), stop)
            start = match.start()
            if not laps:  # "On lap 48, the red flag came out": a lap just before the keyword
                clause = max(self.clause_start(sentence, match.start()), match.start() - 25)
                laps = [r for r in self.lap_ranges(clause, match.start())
                        if not self.lex.pit_verb.search(self.folded, r[2], match.start())]
                start = clause
            for first, last, end in laps:
                self.emit("neutralization", {"kind": kind}, [first, last], start, max(end, match.end()))

    def lap_ranges(self, start: int, end: int) -> list[tuple[int, int, int]]:
        ranges = []
        taken: list[tuple[int, int]] = []
        for match in self.lex.lap_range.finditer(self.folded, start, end):
            join = match.group("join").strip()
            if not match.group("open") and join in ("and", "y", "e"):
                continue  # "laps 4 and 5": two laps, read below
            a, b = self.number(match.group("a")), self.number(match.group("b"))
            if isinstance(a, int) and isinstance(b, int) and a <= b:
                ranges.append((a, b, match.end()))
                taken.append((match.start(), match.end()))
        for lap, s, e in self.lap_numbers(start, end):
            if not any(ts <= s < te for ts, te in taken):
                ranges.append((lap, lap, e))
        return ranges

    def pit_laps(self, sentence: Sentence) -> None:
        verbs = list(self.lex.pit_verb.finditer(self.folded, sentence.start, sentence.end))
        for index, verb in enumerate(verbs):
            owner = self.previous_mention(sentence, verb.start())
            since = owner.end if owner else sentence.start
            if self.lex.neutralization.search(self.folded, since, verb.start()):
                continue  # "the safety car came in": not a pit stop
            stop = verbs[index + 1].start() if index + 1 < len(verbs) else sentence.end
            for limit in (self.lex.scope_break, self.lex.clause_break):
                cut = limit.search(self.folded, verb.end(), stop)
                if cut:
                    stop = cut.start()
            laps = self.lap_numbers(verb.end(), stop)
            if not laps:  # "On lap 13 Hamilton pitted"
                clause = self.clause_start(sentence, verb.start())
                previous_verb = verbs[index - 1].end() if index else clause
                laps = self.lap_numbers(max(clause, previous_verb), verb.start())
            subject = self.subject(sentence, verb.start())
            for lap, start, end in laps:
                if self.consumed(start, end):
                    continue
                driver = subject
                inside = [m for m in sentence.mentions if verb.end() <= m.start and m.end <= start]
                if inside:
                    driver = inside[-1].code
                if driver is None:
                    continue
                key: dict[str, Any] = {"driver": driver}
                if len(laps) == 1:
                    ordinal = None
                    for match in self.lex.stop_ordinal.finditer(
                        self.folded, self.clause_start(sentence, verb.start()), start
                    ):
                        ordinal = self.ordinal(match.group(1), driver, "pit_stops")
                    if ordinal is not None:
                        key["stop"] = ordinal
                self._consumed.append((start, end))
                self.emit("pit_lap", key, lap, min(verb.start(), start), end)

    def stop_counts(self, sentence: Sentence) -> None:
        for pattern in self.lex.stop_count:
            for match in pattern.finditer(self.folded, sentence.start, sentence.end):
                words = [g for g in match.groups() if g]
                if words:
                    word = words[0]
                    if word in ("una", "uma") and not _ONE_STOP_CONTEXT.search(
                        self.folded, max(sentence.start, match.start() - 25), match.end() + 12
                    ):
                        continue  # "tras una parada lenta": a stop, not a count of stops
                    value = _TIMES.get(word, self.number(word))
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

    def compound_at(self, match: re.Match[str]) -> str | None:
        word = " ".join(match.group(0).split())
        value = self.lex.compound_values.get(word)
        before = self.folded[max(0, match.start() - 30): match.start()]
        after = self.folded[match.end(): match.end() + 30]
        if value is None or self.lex.negated_compound.search(before) or after.startswith("-free"):
            return None  # "without the softs", "soft-free"
        if word not in self.lex.ambiguous:
            return value
        if re.match(r"\s*[-–/]\s*\w", after) or re.search(r"\w\s*[-–/]\s*$", before):
            return value  # inside a sequence: "medium-hard-hard"
        if self.lex.not_after_ambiguous.match(after):
            return None
        if self.lex.tyre_noun_after.match(after) or self.lex.tyre_leader_before.search(before):
            return value
        return None

    def compounds(self, sentence: Sentence) -> None:
        lex = self.lex
        used: list[tuple[int, int]] = []
        for pattern in (*lex.change, *lex.same_set):
            for match in pattern.finditer(self.folded, sentence.start, sentence.end):
                c1 = lex.compound_values.get(" ".join(match.group("c1").split()))
                c2_text = match.groupdict().get("c2")
                c2 = lex.compound_values.get(" ".join(c2_text.split())) if c2_text else c1
                if c1 is None or c2 is None:
                    continue
                driver = self.subject(sentence, match.start())
                if driver is None:
                    continue
                key: dict[str, Any] = {"driver": driver}
                ordinal = None
                for stop in lex.stop_ordinal.finditer(
                    self.folded, self.clause_start(sentence, match.start()), match.start()
                ):
                    ordinal = self.ordinal(stop.group(1), driver, "pit_stops")
                if ordinal is None:
                    after = lex.stop_ordinal.search(self.folded, match.end(), min(sentence.end, match.end() + 25))
                    if after:
                        ordinal = self.ordinal(after.group(1), driver, "pit_stops")
                if ordinal is not None:
                    key["stop"] = ordinal
                used.append((match.start(), match.end()))
                self.emit("compound_change", key, [c1, c2], match.start(), match.end())
                # "swapped inters for inters on lap 37": the change names its stop's lap
                window_end = min(sentence.end, match.end() + 25)
                cut = self.lex.clause_break.search(self.folded, match.end(), window_end)
                for lap, lap_start, lap_end in self.lap_numbers(match.end(), cut.start() if cut else window_end):
                    if not self.consumed(lap_start, lap_end):
                        self._consumed.append((lap_start, lap_end))
                        self.emit("pit_lap", {"driver": driver, **({"stop": ordinal} if ordinal else {})},
                                  lap, match.start(), lap_end)
        tokens = [
            (m.start(), m.end(), value)
            for m in lex.compound.finditer(self.folded, sentence.start, sentence.end)
            if (value := self.compound_at(m)) is not None
            and not any(s <= m.start() < e for s, e in used)
        ]
        groups: list[list[tuple[int, int, str]]] = []
        for token in tokens:
            if groups and _SEPARATOR.match(self.folded[groups[-1][-1][1]: token[0]]) and "," not in (
                self.folded[groups[-1][-1][1]: token[0]]
            ):
                groups[-1].append(token)
            else:
                groups.append([token])
        for group in groups:
            driver = self.subject(sentence, group[0][0])
            if driver is None:
                continue
            if len(group) > 1:  # "soft-soft-hard": stints 1..n, and the changes at stops 1..n-1
                for stint, (_start, end, value) in enumerate(group, start=1):
                    self.emit("stint_compound", {"driver": driver, "stint": stint}, value, group[0][0], end)
                record = self.driver_record(driver)
                if record is not None and record.get("red_flag_tyre_changes"):
                    continue  # a red-flag tyre change is a stint without a stop: numbering differs
                for stop in range(1, len(group)):
                    self.emit("compound_change", {"driver": driver, "stop": stop},
                              [group[stop - 1][2], group[stop][2]], group[0][0], group[stop][1])
                continue
            start, end, value = group[0]
            key: dict[str, Any] = {"driver": driver}
            previous = max((t[1] for t in tokens if t[1] <= start), default=sentence.start)
            stint = self.stint_of(sentence, driver, start, end, previous)
            if stint is not None:
                key["stint"] = stint
            self.emit("stint_compound", key, value, start, end)

    def stint_of(self, sentence: Sentence, driver: str, start: int, end: int, previous: int) -> int | None:
        """The stint a compound is said of: an ordinal stint nearby, 'started on' (1),
        'finished on' (the last); words before an earlier compound do not count."""
        lex = self.lex
        clause = self.clause_start(sentence, start)
        window_start = max(clause, start - 45, previous)
        near = [m for m in lex.stint_ordinal.finditer(self.folded, window_start, min(sentence.end, end + 30))]
        if near:
            closest = min(near, key=lambda m: abs(m.start() - start))
            return self.ordinal(closest.group(1), driver, "stints")
        before = self.folded[window_start:start]
        ends = list(lex.end_words.finditer(before))
        starts = list(lex.start_words.finditer(before))
        if ends and (not starts or ends[-1].start() > starts[-1].start()):
            return self.count_of(driver, "stints")
        if starts:
            return 1
        return None

    def winners_and_positions(self, sentence: Sentence) -> None:
        lex = self.lex
        wins = [
            m for m in lex.win.finditer(self.folded, sentence.start, sentence.end)
            if not lex.win_not_followed.match(self.folded, m.end())
            and not _NEGATED_WIN.search(self.folded[max(sentence.start, m.start() - 25): m.start()])
        ]
        finishes = list(lex.finish.finditer(self.folded, sentence.start, sentence.end))
        for match in wins:
            following = self.next_mention(sentence, match.end())
            if following is not None and lex.win_by.match(self.folded[match.end(): following.start]):
                winner = following.code
            else:
                winner = self.subject(sentence, match.start())
            if winner is None:
                continue
            self.emit("winner", {}, winner, match.start(), match.end())
            # "Hamilton won" also says where he finished
            self.emit("final_position", {"driver": winner}, 1, match.start(), match.end())
            self.finishing_list(sentence, match.end(), 2)
        for match in finishes:
            after = self.folded[match.end(): match.end() + 12]
            if _NOT_A_POSITION.match(after):
                continue
            ordinal = match.group("ord")
            value = parse_ordinal(ordinal, lex.language) if ordinal else int(
                next(g for g in match.groups()[1:] if g)
            )
            driver = self.subject(sentence, match.start())
            if driver is None or value is None or not 1 <= value <= 30:
                continue
            self.emit("final_position", {"driver": driver}, value, match.start(), match.end())
        if wins or finishes:
            for mention in sentence.mentions:
                tail = self.folded[mention.end: min(sentence.end, mention.end + 20)]
                found = lex.position_after_mention.match(tail)
                if not found or _NOT_A_POSITION.match(self.folded, mention.end + found.end()):
                    continue
                value = parse_ordinal(found.group("ord"), lex.language)
                if value is not None and 1 <= value <= 30:
                    self.emit("final_position", {"driver": mention.code}, value, mention.start,
                              mention.end + found.end())

    def finishing_list(self, sentence: Sentence, position: int, first_place: int) -> None:
        """'won ahead of X and Y': X second, Y third."""
        lex = self.lex
        following = [m for m in sentence.mentions if m.start >= position]
        if not following or not lex.ahead_of.search(self.folded[position: following[0].start]):
            return
        place = first_place
        previous = following[0]
        self.emit("final_position", {"driver": previous.code}, place, previous.start, previous.end)
        for mention in following[1:]:
            if not lex.and_word.match(self.folded[previous.end: mention.start]):
                break
            place += 1
            self.emit("final_position", {"driver": mention.code}, place, mention.start, mention.end)
            previous = mention

    def moves(self, sentence: Sentence) -> None:
        lex = self.lex
        for match in lex.move.finditer(self.folded, sentence.start, sentence.end):
            kind = "undercut" if match.group(1).startswith("undercut") else "overcut"
            before = self.previous_mention(sentence, match.start())
            after = self.next_mention(sentence, match.end())
            between_after = self.folded[match.end(): after.start] if after else ""
            driver = self.subject(sentence, match.start())
            rival = None
            passive = before is not None and lex.move_passive.search(
                self.folded, max(sentence.start, match.start() - 40), match.end() + 5
            )
            done = lex.move_done.search(self.folded, max(sentence.start, match.start() - 30), match.start())
            if after is not None and (passive or self.x._by.match(between_after)):
                driver, rival = after.code, before.code if before else None
            elif after is not None and self.x._possessive.match(between_after):
                driver = after.code
                second = self.next_mention(sentence, after.end)
                if second is not None and lex.move_rival.match(self.folded[after.end: second.start]):
                    rival = second.code
            elif after is not None and lex.move_rival.match(between_after):
                rival = after.code
            if driver is None:
                continue
            clause = self.clause_start(sentence, match.start())
            region = self.folded[clause: sentence.end]
            if lex.move_fail.search(region):
                worked: bool | None = False
            elif lex.move_success.search(region):
                worked = True
            elif lex.move_attempt.search(region):
                worked = None
            else:  # "Hamilton undercut Verstappen", "le hizo el undercut a": it worked
                worked = True if rival is not None and (between_after.strip() == "" or done) else None
            if worked is None:
                continue
            key = {"driver": driver} | ({"rival": rival} if rival and rival != driver else {})
            end = after.end if after is not None and rival == after.code else match.end()
            self.emit(kind, key, worked, match.start(), end)

    def gains(self, sentence: Sentence) -> None:
        lex = self.lex
        for match in lex.gain.finditer(self.folded, sentence.start, sentence.end):
            value = self.number(match.group("n"))
            if value is None:
                continue
            value = -value if match.group("loss") else value
            driver = self.subject(sentence, match.start())
            if driver is None:
                continue
            key: dict[str, Any] = {"driver": driver}
            after = self.next_mention(sentence, match.end())
            if after is not None and lex.gain_rival.match(self.folded[match.end(): after.start]):
                key["rival"] = after.code
            self.emit("time_gained", key, float(value), match.start(), match.end())

    def defenses(self, sentence: Sentence) -> None:
        lex = self.lex
        for mention in sentence.mentions:
            window = self.folded[max(sentence.start, mention.start - 60): mention.start]
            verb = lex.defend.search(window)
            stuck = lex.stuck_behind.search(window)
            if not verb and not stuck:
                continue
            laps = lex.defend_for.match(self.folded[mention.end: sentence.end])
            if not laps:
                continue
            value = self.number(laps.group(1))
            if not isinstance(value, int):
                continue
            verb_start = mention.start - len(window) + (verb or stuck).start()
            other = self.subject(sentence, verb_start)
            if other is None or other == mention.code:
                continue
            driver, attacker = (mention.code, other) if stuck else (other, mention.code)
            self.emit("defense", {"driver": driver, "attacker": attacker}, value, verb_start,
                      mention.end + laps.end())

