"""Rules of the f1 grammar about the race: neutralizations, results, moves, gains, defenses."""

from __future__ import annotations

import re
from typing import Any

from factcov.domains.f1.reading import Sentence, TextReader
from factcov.language import parse_ordinal

_NOT_A_POSITION = re.compile(
    r"\s*(?:-\s*)?(?:stint|stop|pit|lap|set|time|parada|vuelta|volta|tramo|trecho|juego|jogo|vez|veces|vezes)"
)
_NEGATED_WIN = re.compile(r"(?:\bnot|n't|\bno|\bnao|\bnunca|\bnever|failed to|fallo en|sin)\s+(?:\w+\s+)?$")


class RaceRules(TextReader):
    """Neutralizations, winners and positions, undercuts/overcuts, time gained, defenses."""

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
        for match in lex.podium_third.finditer(self.folded, sentence.start, sentence.end):
            following = self.next_mention(sentence, match.end())
            driver = self.subject(sentence, match.start())
            if following is not None and lex.win_by.match(self.folded[match.end(): following.start]):
                driver = following.code  # "completing the podium was Bottas"
            if driver is not None:
                self.emit("final_position", {"driver": driver}, 3, match.start(), match.end())
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

    def retirements(self, sentence: Sentence) -> None:
        """'Leclerc retired' (True), 'Hamilton took the chequered flag' (False)."""
        for pattern, value in ((self.lex.retired_words, True), (self.lex.finished_words, False)):
            for match in pattern.finditer(self.folded, sentence.start, sentence.end):
                driver = self.subject(sentence, match.start())
                if driver is not None:
                    self.emit("retired", {"driver": driver}, value, match.start(), match.end())

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
            if after is not None and (passive or self.lex.by.match(between_after)):
                driver, rival = after.code, before.code if before else None
            elif after is not None and self.lex.possessive.match(between_after):
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
