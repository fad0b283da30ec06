"""Rules of the f1 grammar about the race: neutralizations, results, moves, gains, defenses."""

from __future__ import annotations

import re
from typing import Any

from factcov.domains.f1.mentions import Mention
from factcov.domains.f1.reading import Sentence, TextReader, parse_ordinal
from factcov.extractors.fast_regex import compile_fast
from factcov.extractors.rules import rule

# No pit window gains 100 s: a gain read at or above it was written with the other language's
# decimal mark ('1.534 segundos'), and is read that way (factcov.language.parse_amount)
GAIN_CEILING_SECONDS = 100

_NOT_A_POSITION = re.compile(
    r"\s*(?:-\s*)?(?:stint|stop|pit|lap|set|time|parada|vuelta|volta|tramo|trecho|juego|jogo|vez|veces|vezes)"
)
_RELATIVE_AFTER = re.compile(r"^\s*,?\s*(?:who|que|quien|quem)\b[^,;:]*$")
_NEGATED_WIN = compile_fast(re.compile(r"(?:\bnot|n't|\bno|\bnao|\bnunca|\bnever|failed to|fallo en|sin)\s+(?:\w+\s+)?$"))


class RaceRules(TextReader):
    """Neutralizations, winners and positions, undercuts/overcuts, time gained, defenses."""

    @rule(order=10, triggers=("neutralization",), scans=("pit_verb", "clause_break", "lap_range", "first_laps"))
    def neutralizations(self, sentence: Sentence) -> None:
        keywords = list(self.finditer(self.lex.neutralization, sentence.start, sentence.end))
        for index, match in enumerate(keywords):
            kind = next(k for k, v in match.groupdict().items() if v)
            stop = keywords[index + 1].start() if index + 1 < len(keywords) else sentence.end
            cut = self.search(self.lex.clause_break, match.end(), stop)
            if cut:
                stop = cut.start()
            for verb in self.finditer(self.lex.pit_verb, match.end(), stop):
                # "the safety car came in on lap 3" is about the safety car; a driver's stop is not
                # "... under the safety car on lap 34, then had to come back in on lap 46": a stop
                if any(match.end() <= m.start < verb.start() for m in sentence.mentions) or re.search(
                    r"[,;]|\b(?:then|luego|despues|depois|entao)\b", self.folded[match.end(): verb.start()]
                ):
                    stop = verb.start()
                    break
            laps = self.lap_ranges(match.end(), stop)
            start = match.start()
            if not laps:  # "On lap 48, the red flag came out": a lap just before the keyword
                clause = max(self.clause_start(sentence, match.start()), match.start() - 25)
                laps = [r for r in self.lap_ranges(clause, match.start())
                        if not self.search(self.lex.pit_verb, r[2], match.start())]
                start = clause
            for first, last, end in laps:
                self.emit("neutralization", {"kind": kind}, [first, last], start, max(end, match.end()))

    def lap_ranges(self, start: int, end: int) -> list[tuple[int, int, int]]:
        ranges = []
        taken: list[tuple[int, int]] = []
        for match in self.finditer(self.lex.lap_range, start, end):
            join = match.group("join").strip()
            if not match.group("open") and join in ("and", "y", "e"):
                continue  # "laps 4 and 5": two laps, read below
            a, b = self.number(match.group("a")), self.number(match.group("b"))
            if isinstance(a, int) and isinstance(b, int) and a <= b:
                ranges.append((a, b, match.end()))
                taken.append((match.start(), match.end()))
                position = match.end()
                while more := self.lex.lap_range_more.match(self.folded, position, end):
                    a, b = self.number(more.group("a")), self.number(more.group("b"))
                    if not (isinstance(a, int) and isinstance(b, int) and a <= b):
                        break
                    ranges.append((a, b, more.end()))
                    taken.append((more.start(), more.end()))
                    position = more.end()
        for match in self.finditer(self.lex.first_laps, start, end):
            count = self.number(next(g for g in match.groups() if g))
            if isinstance(count, int) and 1 < count < 30:
                ranges.append((1, count, match.end()))
                taken.append((match.start(), match.end()))
        for lap, s, e in self.lap_numbers(start, end, bare=False):
            if not any(ts <= s < te for ts, te in taken):
                ranges.append((lap, lap, e))
        return ranges

    @rule(order=50, triggers=("win", "finish", "copula_place", "podium_third", "podium_list"), sliced=("podium_list",))
    def winners_and_positions(self, sentence: Sentence) -> None:
        """'Hamilton won', 'finished second', 'completing the podium', 'the podium was X, Y
        and Z', then 'Bottas (3rd)' in a sentence that said any of them. The win words and
        the finishes are gathered here, not by helpers: the rule runs in most texts, and a
        call of Python costs ~1k instructions (benchmarks/rest_instructions.py)."""
        lex, folded, start, end = self.lex, self.folded, sentence.start, sentence.end
        wins = []  # not negated ('failed to win') nor followed by what makes them no win
        # loops, not comprehensions: Python 3.11 builds a function for each, mostly for no match
        for m in self.finditer(lex.win, start, end):
            if not lex.win_not_followed.match(folded, m.end()) and not _NEGATED_WIN.search(
                    folded[max(start, m.start() - 25): m.start()]):
                wins.append(m)
        finishes = list(self.finditer(lex.finish, start, end))
        for m in self.finditer(lex.copula_place, start, end):  # none inside a finish
            if not any(f.start() <= m.start() < f.end() for f in finishes):  # (nor in another: never overlap)
                finishes.append(m)
        for match in wins:
            self.winner(sentence, match)
        for match in finishes:
            self.finish_position(sentence, match)
        if self.any(lex.podium_third, sentence):
            self.podium_thirds(sentence)
        podium = self.podium_list(sentence)
        if wins or finishes or podium:
            self.positions_after_mentions(sentence, sentence.mentions)

    def winner(self, sentence: Sentence, match: re.Match[str]) -> None:
        """'Hamilton won' (or 'won by Hamilton'): the winner, his position and the
        finishing list after ('ahead of X and Y')."""
        following = self.next_mention(sentence, match.end())
        if following is not None and self.lex.win_by.match(self.folded[match.end(): following.start]):
            winner = following.code
        else:
            winner = self.subject(sentence, match.start())
        if winner is None:
            return
        self.emit("winner", {}, winner, match.start(), match.end())
        # "Hamilton won" also says where he finished
        self.emit("final_position", {"driver": winner}, 1, match.start(), match.end())
        self.finishing_list(sentence, match.end(), 2)

    def finish_position(self, sentence: Sentence, match: re.Match[str]) -> None:
        """'finished second': the subject's final position (not 'second stint')."""
        after = self.folded[match.end(): match.end() + 12]
        if _NOT_A_POSITION.match(after):
            return
        ordinal = match.group("ord")
        value = parse_ordinal(ordinal, self.lex.language) if ordinal else int(
            next(filter(None, match.groups()[1:]))  # the position's digits: the first group set
        )
        if value is None or not 1 <= value <= 30:
            return
        driver = self.subject(sentence, match.start())
        if driver is not None:
            self.emit("final_position", {"driver": driver}, value, match.start(), match.end())

    def podium_thirds(self, sentence: Sentence) -> int:
        """'with Carlos Sainz completing the podium', 'completing the podium was Bottas': third
        (how many read; asked where the sentence holds the words' anchors, ``any``)."""
        lex = self.lex
        read = 0
        for match in lex.podium_third.finditer(self.folded, sentence.start, sentence.end):
            following = self.next_mention(sentence, match.end())
            previous = self.previous_mention(sentence, match.start())
            driver = self.subject(sentence, match.start())
            if previous is not None and not self.folded[previous.end: match.start()].strip():
                driver = previous.code  # "with Carlos Sainz completing the podium"
            if following is not None and lex.win_by.match(self.folded[match.end(): following.start]):
                driver = following.code  # "completing the podium was Bottas"
            if driver is not None:
                self.emit("final_position", {"driver": driver}, 3, match.start(), match.end())
                read += 1
        return read

    def positions_after_mentions(self, sentence: Sentence, mentions: list[Mention]) -> None:
        """'Bottas (3rd)', 'Sainz in fourth': a position right after a driver, read in a
        sentence about results (``mentions``: the sentence's)."""
        lex = self.lex
        for mention in mentions:
            tail = self.folded[mention.end: mention.end + 20 if mention.end + 20 < sentence.end else sentence.end]
            found = lex.position_after_mention.match(tail)
            if not found or _NOT_A_POSITION.match(self.folded, mention.end + found.end()):
                continue
            value = parse_ordinal(found.group("ord"), lex.language)
            if value is not None and 1 <= value <= 30:
                self.emit("final_position", {"driver": mention.code}, value, mention.start,
                          mention.end + found.end())

    def podium_list(self, sentence: Sentence) -> bool:
        """'The podium was Verstappen, Pérez and Alonso': first, second and third."""
        if not self.may_match(self.lex.podium_list, sentence.start, sentence.end):
            return False  # nor before any of its drivers
        for mention in sentence.mentions:
            if self.search(self.lex.podium_list, sentence.start, mention.start):
                following = [m for m in sentence.mentions if m.start >= mention.start]
                place, previous = 1, following[0]
                self.emit("final_position", {"driver": previous.code}, place, previous.start, previous.end)
                for current in following[1:3]:
                    if not self.lex.and_word.match(self.folded[previous.end: current.start]):
                        break
                    place += 1
                    self.emit("final_position", {"driver": current.code}, place, current.start, current.end)
                    previous = current
                return True
        return False

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

    @rule(order=60, triggers=("retired_words", "finished_words"))
    def retirements(self, sentence: Sentence) -> None:
        """'Leclerc retired' (True), 'Hamilton took the chequered flag' (False)."""
        for pattern, value in ((self.lex.retired_words, True), (self.lex.finished_words, False)):
            for match in self.finditer(pattern, sentence.start, sentence.end):
                driver = self.subject(sentence, match.start())
                if driver is not None:
                    self.emit("retired", {"driver": driver}, value, match.start(), match.end())

    @rule(order=20, triggers=("move",), otherwise="move_verdict_after",
              scans=("move_attempt", "move_done", "move_hypothetical", "move_fail", "move_success", "move_behind", "move_ahead"))
    def moves(self, sentence: Sentence) -> None:
        found = False
        for match in self.finditer(self.lex.move, sentence.start, sentence.end):
            if not found:
                self._pending_move = None  # a new move: an older one's outcome is no longer awaited
            found = True
            self.move(sentence, match)
        if not found:
            self.move_verdict_after(sentence)

    def move_parties(self, sentence: Sentence, match: re.Match[str]
                     ) -> tuple[str | None, str | None, Mention | None, Mention | None, str]:
        """Who made the move and on whom: (driver, rival, the rival's mention when named
        after the move, the mention after the move, the words between them)."""
        lex = self.lex
        before = self.previous_mention(sentence, match.start())
        after = self.next_mention(sentence, match.end())
        between_after = self.folded[match.end(): after.start] if after else ""
        driver = self.subject(sentence, match.start())
        rival = None
        rival_mention: Mention | None = None
        if after is None:
            return driver, rival, rival_mention, after, between_after
        passive = before is not None and lex.move_passive.search(
            self.folded, max(sentence.start, match.start() - 40), match.end() + 5
        )
        if passive or lex.by.match(between_after):
            driver, rival = after.code, before.code if before else None
        elif lex.possessive.match(between_after):
            driver = after.code
            second = self.next_mention(sentence, after.end)
            if second is not None and lex.move_rival.match(self.folded[after.end: second.start]):
                rival, rival_mention = second.code, second
        elif lex.move_rival.match(between_after):
            rival, rival_mention = after.code, after
        return driver, rival, rival_mention, after, between_after

    def move(self, sentence: Sentence, match: re.Match[str]) -> None:
        """One undercut or overcut word: the move, whether it worked (said in its clause,
        or awaited in the next sentence: ``_pending_move``)."""
        lex = self.lex
        kind = "undercut" if match.group(1).startswith("undercut") else "overcut"
        done = self.search(lex.move_done, max(sentence.start, match.start() - 30), match.start())
        driver, rival, rival_mention, after, between_after = self.move_parties(sentence, match)
        if driver is None:
            return
        clause = self.clause_start(sentence, match.start())
        worked = self.move_outcome(sentence, clause, driver, rival or self.other_driver(driver), rival_mention)
        if worked is None and self.search(lex.move_attempt, clause, sentence.end):
            self._pending_move = (kind, driver, rival)  # "It did not pay off." may follow
            return
        if worked is None and not self.hypothetical(clause, sentence.end):
            # "Hamilton undercut Verstappen", "le hizo el undercut a": it worked
            worked = True if rival is not None and (between_after.strip() == "" or done) else None
        if worked is None:
            if self.hypothetical(clause, sentence.end):
                self._pending_move = (kind, driver, rival)
            return
        key = {"driver": driver} | ({"rival": rival} if rival and rival != driver else {})
        end = after.end if after is not None and rival == after.code else match.end()
        self.emit(kind, key, worked, match.start(), end)

    def hypothetical(self, start: int, end: int) -> bool:
        return bool(self.search(self.lex.move_hypothetical, start, end))

    def move_outcome(self, sentence: Sentence, clause: int, driver: str, rival: str | None,
                     rival_mention: Mention | None) -> bool | None:
        """Whether the move worked, from its clause to the sentence end: a verdict word
        ('worked', 'no funcionó'), or where a driver came out ('Max came out behind') once
        we know who; a wish ('hoping it would work') or a disagreement says nothing."""
        lex = self.lex
        verdicts: set[bool] = set()
        fail = self.search(lex.move_fail, clause, sentence.end)
        success = self.search(lex.move_success, clause, sentence.end)
        first = fail or success
        if first is not None and not self.hypothetical(clause, first.start()):
            verdicts.add(fail is None)
        for pattern, ahead in ((lex.move_behind, False), (lex.move_ahead, True)):
            for place in self.finditer(pattern, clause, sentence.end):
                if self.hypothetical(clause, place.start()):
                    continue
                actor = self.outcome_actor(sentence, place.start(), driver, rival_mention)
                if actor == driver:
                    verdicts.add(ahead)
                elif actor is not None and actor == rival:
                    verdicts.add(not ahead)
        return verdicts.pop() if len(verdicts) == 1 else None

    def outcome_actor(self, sentence: Sentence, position: int, driver: str,
                      rival_mention: Mention | None) -> str | None:
        """Who 'came out behind': the nearest acting driver before, in the same clause
        ('Max stayed out until lap 17 and came out behind'); the rival in a relative clause
        ('..., who came out behind'); with nobody named in the clause, the move's driver
        ('Stroll tried to undercut Ricciardo but came out behind him')."""
        if rival_mention is not None and rival_mention.end <= position and _RELATIVE_AFTER.match(
            self.folded[rival_mention.end: position]
        ):
            return rival_mention.code
        clause = self.clause_start(sentence, position)
        acting = [
            m for m in sentence.mentions
            if m.end <= position and m is not rival_mention and not self.is_object(m, sentence)
        ]
        if acting and acting[-1].start >= clause:
            return acting[-1].code
        named_in_clause = [m for m in sentence.mentions if clause <= m.start and m.end <= position]
        return driver if not named_in_clause else None

    def move_verdict_after(self, sentence: Sentence) -> None:
        """'Charles tried to undercut Lando. It did not pay off: ...' -> undercut failed."""
        pending, self._pending_move = self._pending_move, None
        if pending is None:
            return
        kind, driver, rival = pending
        opening = self.lex.move_verdict_opening.match(self.folded, sentence.start)
        if opening is not None:
            worked: bool | None = self.lex.move_fail.search(opening.group(0)) is None
        else:
            worked = self.move_outcome(sentence, sentence.start, driver, rival or self.other_driver(driver), None)
            if worked is None:
                return
        key = {"driver": driver} | ({"rival": rival} if rival and rival != driver else {})
        end = opening.end() if opening is not None else sentence.end
        self.emit(kind, key, worked, sentence.start, end)

    @rule(order=30, triggers=("gain",))
    def gains(self, sentence: Sentence) -> None:
        lex = self.lex
        for match in self.finditer(lex.gain, sentence.start, sentence.end):
            value = self.number(match.group("n"), below=GAIN_CEILING_SECONDS)
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
            elif lex.rival_pronoun.match(self.folded, match.end()) or lex.rival_clitic.search(
                self.folded, max(sentence.start, match.start() - 16), match.start()
            ):  # "gained 2.6 s on him", "le sacó 8 segundos": the other driver of the decision
                other = self.other_driver(driver)
                if other is not None:
                    key["rival"] = other
            self.emit("time_gained", key, float(value), match.start(), match.end())

    @rule(order=40, triggers=("defend", "stuck_behind", "defend_pronoun"), word_start=False)  # searches slices before drivers
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
        for verb in self.finditer(lex.defend_pronoun, sentence.start, sentence.end):
            laps = lex.defend_for.match(self.folded[verb.end(): sentence.end])  # "held him off for nine laps"
            if not laps:
                continue
            value = self.number(laps.group(1))
            driver = self.subject(sentence, verb.start())
            attacker = self.other_driver(driver)
            if isinstance(value, int) and driver is not None and attacker is not None:
                self.emit("defense", {"driver": driver, "attacker": attacker}, value, verb.start(),
                          verb.end() + laps.end())
