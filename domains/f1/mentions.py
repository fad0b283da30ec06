"""Finding drivers in a text: by code, surname, full name, or team when the instance
makes the team unambiguous (one of its drivers is the focus of the decision, the other not).

The index is built from the instance's race block and cached per race; drivers of other
races (``drivers.json``, every driver code of 2018-2026 from Ergast) are recognized too,
so a claim about a driver who was not in the race is read (and then judged), not ignored.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from functools import lru_cache, partial
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

from factcov.extractors.anchors import Anchors, Hits
from factcov.extractors.patterns import Lexicon, alternation
from factcov.extractors.scanner import Identities
from factcov.extractors.spans import SpanSet
from factcov.language import fold

DRIVER_TABLE = Path(__file__).with_name("drivers.json")
ALIASES = {"checo": "PER"}  # unambiguous nicknames (folded)
SHORT_NAMES = {"alex": "ALB"}  # read like first names: capitalized, driver in the race
_TEAM_SUFFIX = re.compile(r"\s+(?:f1 team|racing|team|f1)$")
# Nationality of every driver of drivers.json, from Ergast's drivers table (driverId,
# code, nationality; http://ergast.com/mrd/, via ../shared/data/f1/ergast/drivers.csv).
NATIONALITY = {
    "AIT": "british", "BEA": "british", "HAM": "british", "NOR": "british", "RUS": "british",
    "ALB": "thai", "ALO": "spanish", "SAI": "spanish", "ANT": "italian", "GIO": "italian",
    "BOR": "brazilian", "FIT": "brazilian", "BOT": "finnish", "RAI": "finnish", "COL": "argentinian",
    "DEV": "dutch", "VER": "dutch", "DOO": "australian", "PIA": "australian", "RIC": "australian",
    "ERI": "swedish", "GAS": "french", "GRO": "french", "HAD": "french", "OCO": "french",
    "HAR": "new zealander", "LAW": "new zealander", "HUL": "german", "MSC": "german", "VET": "german",
    "KUB": "polish", "KVY": "russian", "MAZ": "russian", "SIR": "russian", "LAT": "canadian",
    "STR": "canadian", "LEC": "monegasque", "MAG": "danish", "PER": "mexican", "SAR": "american",
    "TSU": "japanese", "VAN": "belgian", "ZHO": "chinese",
}
# "the Dutchman", "el neerlandés", "o holandês" (folded): a nationality names a driver when
# exactly one driver of the race (else of the decision's focus) has it
DEMONYMS = {
    "british": ("briton", "brit", "britanico", "ingles"),
    "thai": ("thai", "tailandes"),
    "spanish": ("spaniard", "espanol", "espanhol"),
    "italian": ("italian", "italiano"),
    "brazilian": ("brazilian", "brasileno", "brasileiro"),
    "finnish": ("finn", "finlandes"),
    "argentinian": ("argentine", "argentinian", "argentino"),
    "dutch": ("dutchman", "neerlandes", "holandes"),
    "australian": ("australian", "aussie", "australiano"),
    "swedish": ("swede", "sueco"),
    "french": ("frenchman", "frances"),
    "new zealander": ("new zealander", "kiwi", "neozelandes"),
    "german": ("german", "aleman", "alemao"),
    "polish": ("polaco", "polones"),
    "russian": ("russian", "ruso", "russo"),
    "canadian": ("canadian", "canadiense", "canadense"),
    "monegasque": ("monegasque", "monegasco"),
    "danish": ("dane", "danes", "dinamarques"),
    "mexican": ("mexican", "mexicano"),
    "american": ("american", "estadounidense", "americano", "norte-americano"),
    "japanese": ("japanese", "japones"),
    "belgian": ("belgian", "belga"),
    "chinese": ("chinese", "chino", "chines"),
}
_DEMONYM_ARTICLES = r"the|el|al|del|o|ao|do|pelo"  # en, es, pt (with contractions)
# "the Italian Grand Prix", "o australiano GP": a nationality before an event is no driver
_EVENT_AFTER = re.compile(
    r"\s+(?:grand|gp|gran|grande|round|race|carrera|corrida|team|equipo|equipe|fans|crowd|tifosi|flag|anthem"
    r"|aficion|publico|torcida|bandera|bandeira|hino|himno)\b"
)
# a driver the text names by a description the index cannot resolve ("the rookie", an
# ambiguous nationality): who the sentence is about is then unknown
_DESCRIPTOR_NOUNS = r"driver|rookie|veteran|champion|piloto|novato|estreante|campeon|campeao"


class Mention(NamedTuple):
    """A driver named in a text: ``folded[start:end]`` names ``code`` (a tuple: texts name
    a dozen drivers each, and a tuple is built several times faster than a dataclass)."""

    start: int
    end: int
    code: str


_START = attrgetter("start")  # a mention's sort key
_mention = partial(tuple.__new__, Mention)  # ``Mention(*fields)`` without a call of Python
_TWO_CAPITALS = re.compile("[A-Z][A-Z]")
# every byte to "A" if it is an ASCII capital, else to ".": a text's UTF-8 bytes so
# translated hold "AA" exactly where it has two ASCII capitals in a row (any other
# character is bytes of 0x80 and more, all made "."), found by a byte search
_CAPITALS_AS_A = bytes(0x41 if 0x41 <= byte <= 0x5A else 0x2E for byte in range(256))


def has_two_capitals(text: str) -> bool:
    """``_TWO_CAPITALS.search(text)``, several times faster (no step of the regex engine per character)."""
    return b"AA" in text.encode("utf-8", "surrogatepass").translate(_CAPITALS_AS_A)


@lru_cache(maxsize=1)
def known_drivers() -> dict[str, str]:
    """Code -> full name of every driver in the committed table (empty if absent)."""
    if not DRIVER_TABLE.is_file():
        return {}
    return dict(json.loads(DRIVER_TABLE.read_text(encoding="utf-8")))


def team_key(team: str) -> str:
    return _TEAM_SUFFIX.sub("", fold(team).strip())


# A race's entry list as the index reads it: (code, name, team) of each driver, in order.
EntryList = tuple[tuple[str, str, Any], ...]


def entry_list(race: dict[str, Any]) -> EntryList:
    """What a race's index depends on: its drivers' codes, names and teams (not the season,
    the round, the laps, nor the instance's focus)."""
    return tuple((d["code"], d.get("name", d["code"]), d.get("team")) for d in race.get("drivers", []))


def _driver_names(entries: EntryList) -> tuple[dict[str, str], dict[str, set[str]], set[str]]:
    """Folded full names and surnames -> code (of every known driver, the race's winning
    ties), the surnames' owners, and every code."""
    names: dict[str, str] = {}
    surnames: dict[str, set[str]] = {}
    race_codes = {code for code, _, _ in entries}
    table = {**known_drivers(), **{code: name for code, name, _ in entries}}
    for code, name in table.items():
        names[fold(name)] = code
        parts = fold(name).split()
        for cut in range(1, len(parts)):  # "de vries", "vries"; "kimi antonelli", "antonelli"
            surnames.setdefault(" ".join(parts[cut:]), set()).add(code)
    # a surname shared by two drivers names neither; the race's own drivers win ties
    for surname, owners in surnames.items():
        in_race = owners & race_codes
        chosen = in_race if in_race else owners
        if len(chosen) == 1 and surname not in names and len(surname) > 2:
            names[surname] = next(iter(chosen))
    for alias, code in ALIASES.items():  # nicknames the press uses, for drivers in the race
        if code in race_codes and alias not in names:
            names[alias] = code
    return names, surnames, set(table)


def _first_names(entries: EntryList, names: dict[str, str], surnames: dict[str, set[str]]) -> dict[str, str]:
    """First names ("Lewis", "Max", "Kimi") -> code, only where one driver of the race bears it."""
    first: dict[str, set[str]] = {}
    for code, name, _ in entries:
        for part in fold(name).split()[:-1]:
            first.setdefault(part, set()).add(code)
    found = {
        n: next(iter(owners)) for n, owners in first.items()
        if len(owners) == 1 and len(n) > 2 and n not in names and n not in surnames
    }
    race_codes = {code for code, _, _ in entries}
    for short, code in SHORT_NAMES.items():
        if code in race_codes and short not in names and short not in first:
            found[short] = code
    return found


def _demonym_patterns(words: set[str]) -> tuple[re.Pattern[str] | None, re.Pattern[str]]:
    """The pattern of the nationality words (None: no driver of the race has one) and of
    the descriptions ("the rookie", and those words)."""
    demonym_alt = alternation(words)
    # the mention is the noun ("al canadiense": "canadiense"), so "al", "sobre el" stay
    # before it as the words that make it an object or a rival
    demonym = re.compile(rf"\b(?:{_DEMONYM_ARTICLES})\s+(?P<noun>{demonym_alt})\b") if demonym_alt else None
    descriptor = re.compile(
        rf"\b(?:the|el|la|o|a)\s+(?:\w+\s+)?(?:{_DESCRIPTOR_NOUNS})\b"
        + (rf"|{demonym.pattern.replace('?P<noun>', '')}" if demonym else "")
    )
    return demonym, descriptor


class RaceDrivers:
    """What one race's entry list gives the reader, whichever driver an instance is about:
    the names, codes and descriptions of its drivers, their compiled patterns and the
    anchors of the rarer kinds. Built once per entry list (``race_drivers``) and shared by
    every instance of the race; an instance's focus is applied apart (``DriverIndex``)."""

    def __init__(self, entries: EntryList) -> None:
        self.entries = entries
        self.race_codes = frozenset(code for code, _, _ in entries)
        self.names, surnames, codes = _driver_names(entries)  # without the team names (the focus's)
        self.first_names = _first_names(entries, self.names, surnames)
        self.first_name_lexicon = Lexicon(self.first_names) if self.first_names else None
        # every nationality word of the race's drivers: whom it names may depend on the focus
        # (``_demonyms``), whether it is one does not
        resolved, unresolved = _demonyms(set(self.race_codes), set())
        self.demonym_pattern, self.descriptor_pattern = _demonym_patterns({*resolved, *unresolved})
        self.teams = {code: team for code, _, team in entries}  # code -> team, as the race block gives it
        self.team_members: dict[str, set[str]] = {}  # folded team name -> the race's drivers of it
        for code, _, team in entries:
            if team:
                self.team_members.setdefault(team_key(team), set()).add(code)
        self._anchor_literals()
        self._code_search(codes)

    def _anchor_literals(self) -> None:
        # the names are literals ("hamilton", "max verstappen"): where a text's whitespace is
        # single spaces (a name's space matches what the pattern's ``\s+`` does), they are
        # found by the automaton pass the reader makes anyway (``reading.text_anchors``) rather
        # than by a scan of their pattern. Every team name of the race is one (whichever
        # driver is the focus: a race's drivers share the automaton); None: a name is not
        # plain words (see ``_plain``), the pattern finds them all
        literals = {*self.names, *filter(None, self.team_members)}
        self.name_literals = frozenset(literals) if all(map(_plain, literals)) else None
        # names overlapping in a text then end together ("lewis hamilton", "hamilton"): the
        # automaton's order (by end, the longest first) is the order a scan tries them in
        self.nested_at_ends = self.name_literals is not None and _nested_at_ends(self.name_literals)
        # the rarer kinds of mention are looked for only where their anchor words stand
        # ("the Dutchman", "Max", "VER"): one pass over the text for all of them
        rare = {
            "first": self.first_name_lexicon.compiled if self.first_name_lexicon else None,
            "demonym": self.demonym_pattern,
            "descriptor": self.descriptor_pattern,
        }
        self.rare_rules = {name: (pattern,) for name, pattern in rare.items() if pattern is not None}
        # each kind is scanned over the whole text (never a slice), so a literal its pattern
        # needs a word boundary before counts only where a word starts ("lando" in
        # "blandos" wakes no first-name scan: ``\blando\b`` cannot match there)
        self.rare_literals = {NAMES: self.name_literals, SPACES: IRREGULAR_SPACES} if self.name_literals else {}
        self._rare_anchors: Anchors | None = None  # built when first asked (a reader joins them with the grammar's)
        # what the rare kinds' anchors and the names depend on: races with the same ones
        # share the anchors a reader joins with its grammar's (``reading.text_anchors``)
        self.rare_key = (
            tuple((name, pattern.pattern, pattern.flags) for name, (pattern,) in self.rare_rules.items()),
            tuple(sorted(self.name_literals or ())),
        )
        self.text_anchors: dict[str, Anchors] = {}  # language -> those joined anchors, once known

    def _code_search(self, codes: set[str]) -> None:
        self.codes = Lexicon({}, written=codes)  # "VER" as written, not the verb "ver"
        # a code is read only as written ("VER"): only a text holding one is scanned for codes
        self.code_anchors = Anchors({"code": (re.compile(alternation(codes)),)} if codes else {})
        literals = self.code_anchors.literals.get("code", frozenset())
        # one of the code anchors in the text (a search, no automaton pass); None: any text may hold a code
        self.code_anchor = (
            None if literals is None else re.compile(alternation(literals, space=re.escape(" ")) or "(?!)")
        )
        # every code anchor holds two capitals in a row ("VER"): a text without any (most
        # prose) is not searched for the anchors (``has_two_capitals``: a byte search)
        self.capitals = literals is not None and all(_TWO_CAPITALS.search(a) for a in literals)

    @property
    def rare_anchors(self) -> Anchors:
        """The rare kinds' anchors, the names' and the irregular spaces' alone (a reader
        finds them in its one pass, ``reading.text_anchors``: these are built only when
        asked, for a text read without it)."""
        if self._rare_anchors is None:
            self._rare_anchors = Anchors(self.rare_rules, word_start=frozenset(self.rare_rules),
                                         literal_anchors=self.rare_literals, apart=MENTION_KINDS)
        return self._rare_anchors

    def focused(self, focus: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]]:
        """The names (a team's name names its one focus driver) and the nationality words
        that name one driver, for an instance about ``focus``."""
        names = self.names
        chosen = set(focus)
        for team, members in self.team_members.items():
            focused = members & chosen
            if len(focused) == 1 and team and team not in self.names:
                if names is self.names:
                    names = dict(names)
                names[team] = next(iter(focused))
        return names, _demonyms(set(self.race_codes), chosen)[0]


@lru_cache(maxsize=512)  # a run's races (2018-2026 hold 175), each built once whatever the input's order
def race_drivers(entries: EntryList) -> RaceDrivers:
    """The (cached) drivers of a race with this entry list."""
    return RaceDrivers(entries)


class DriverIndex:
    """The drivers of one race as an instance about ``focus`` names them: the race's
    (``RaceDrivers``, shared) with the team names and nationalities the focus resolves."""

    def __init__(self, drivers: list[dict[str, Any]], focus: tuple[str, ...]) -> None:
        self._focus_on(race_drivers(entry_list({"drivers": drivers})), focus)

    @classmethod
    def of(cls, race: RaceDrivers, focus: tuple[str, ...]) -> DriverIndex:
        """The index of ``race``'s drivers for an instance about ``focus``."""
        index = cls.__new__(cls)
        index._focus_on(race, focus)
        return index

    def _focus_on(self, race: RaceDrivers, focus: tuple[str, ...]) -> None:
        self.race = race
        names, self.demonyms = race.focused(focus)
        self.names = Lexicon(names)
        # the race's, read here in every text: held as the index's own attributes
        self.first_names, self.first_name_lexicon = race.first_names, race.first_name_lexicon
        self.demonym_pattern, self.descriptor_pattern = race.demonym_pattern, race.descriptor_pattern
        self.teams, self.codes, self.name_literals = race.teams, race.codes, race.name_literals
        self._nested_at_ends, self._code_anchor, self._capitals = race.nested_at_ends, race.code_anchor, race.capitals
        self.rare_rules, self.rare_literals, self.rare_key = race.rare_rules, race.rare_literals, race.rare_key
        self.text_anchors = race.text_anchors  # one race's joined anchors, whichever the focus

    @property
    def rare_anchors(self) -> Anchors:
        """The race's ``RaceDrivers.rare_anchors``."""
        return self.race.rare_anchors

    @property
    def _names_pattern(self) -> re.Pattern[str]:
        # compiled only for a text whose names are scanned (irregular spaces), once per set of
        # names (``Lexicon.compiled`` is cached by pattern). Not ``quick_start``ed: it would
        # find the names ~2 µs a text faster, but compiling it costs ~1 ms more
        return self.names.compiled

    def find(self, text: str, folded: str, hits: Hits | None = None) -> list[Mention]:
        """The drivers named in ``text``; ``hits``: ``rare_anchors.find(folded)``, if known."""
        hits = hits or self.rare_anchors.find(folded)
        if hits.anchors.bits.get(NAMES) is not None and not hits.anywhere(SPACES):  # single spaces only
            found = self.names_at(folded, hits)
        else:
            found = self.names_scanned(text, folded)
        # ``found`` is sorted by start and disjoint (one scan's matches); it stays so until
        # another kind of mention is added
        in_order = True
        if self._code_anchor is None or (  # codes: upper case in the original text
            (not self._capitals or has_two_capitals(text)) and self._code_anchor.search(text)
        ):
            found = self._with_codes(text, folded, found)
        first = hits.anchors.bits.get("first")
        # a first name inside a name found ("Lewis Hamilton") is no mention: the text is
        # scanned only when one of the first names' anchors stands outside every name found
        if self.first_name_lexicon is not None and hits.anywhere("first") and (
            first is None or not _each_overlaps(hits.spans("first"), found)
        ):
            named = self._first_names_in(text, folded, found)
            if named:
                found += named
                in_order = False
        if self.demonym_pattern is not None and hits.anywhere("demonym"):
            named = self._demonyms_in(folded, found)
            if named:
                found += named
                in_order = False
        return found if in_order else sorted(found, key=_START)

    def _with_codes(self, text: str, folded: str, found: list[Mention]) -> list[Mention]:
        """``found`` (sorted, disjoint) with the codes written outside them ("VER"), by start."""
        taken = SpanSet([(m.start, m.end) for m in found])
        codes = [Mention(start, end, code) for code, (start, end) in self.codes.find(folded, text)
                 if not taken.covers(start)]
        return sorted([*found, *codes], key=_START) if codes else found

    def _first_names_in(self, text: str, folded: str, found: list[Mention]) -> list[Mention]:
        """The capitalized first names ("Max", not "max speed") outside the mentions ``found``."""
        assert self.first_name_lexicon is not None  # noqa: S101 - asked only then
        taken = SpanSet([(m.start, m.end) for m in found])  # mentions are disjoint: taken as given
        return [Mention(start, end, code) for code, (start, end) in self.first_name_lexicon.find(folded, text)
                if text[start].isupper() and not taken.overlaps(start, end)]

    def _demonyms_in(self, folded: str, found: list[Mention]) -> list[Mention]:
        """The nationality words naming one driver ("the Dutchman") outside the mentions ``found``."""
        assert self.demonym_pattern is not None  # noqa: S101 - asked only then
        taken = SpanSet([(m.start, m.end) for m in found])
        named = []
        for match in self.demonym_pattern.finditer(folded):
            key = " ".join(match.group("noun").split())
            if key in self.demonyms and not _EVENT_AFTER.match(folded, match.end()) and not taken.overlaps(
                match.start(), match.end()
            ):
                named.append(Mention(match.start("noun"), match.end("noun"), self.demonyms[key]))
        return named

    def names_scanned(self, text: str, folded: str) -> list[Mention]:
        """The drivers named by name (not code, first name or nationality) in ``text``: the
        names pattern's matches, in text order."""
        # ``self.names.find`` written out (a dozen mentions a text: no generator, no call per name)
        names, lexicon = self.names.names, self.names
        found = []
        for match in self._names_pattern.finditer(folded):
            start, end = match.span()
            name = match.group()  # one word of letters is its own key; else its spaces made single
            code = names.get(name if name.isalpha() else " ".join(name.split())) or lexicon.resolve(
                name, text[start:end])
            if code is not None:
                found.append(_mention((start, end, code)))  # ``Mention(start, end, code)``
        return found

    def names_at(self, folded: str, hits: Hits) -> list[Mention]:
        """``names_scanned`` from where the names' literals stand in ``folded`` (``hits``:
        its hits, which list every occurrence of each of ``name_literals`` apart: by end,
        the longest first at an end), for a text whose whitespace is single spaces. The
        pattern, tried at each position from the left, matches the longest name standing
        there between word boundaries, and goes on after it: so does this, trying only the
        positions where a name stands."""
        names = self.names.names
        bit = hits.anchors.bits[NAMES]
        size = len(folded)
        found = []
        taken = 0  # where the last name found ends: the scan goes on from there
        listed = hits.apart[0]  # (last, length, bits, literal) of the names' hits, and the other mentions'
        if not self._nested_at_ends:  # by start, the longest first at a start
            listed = sorted(listed, key=_start_longest_first)
        for last, length, mask, literal in listed:
            if not mask & bit:
                continue
            end = last + 1
            start = end - length
            if start < taken:
                continue
            code = names.get(literal)  # None: a team name, but not of a focus driver
            if code is None:
                continue
            # ``\b`` on both sides (a name opens and ends with a word character, ``_plain``):
            # the character beside it is mostly a space or a mark, known at once
            if start:
                beside = folded[start - 1]
                if beside not in _NO_WORD_CHARACTERS and (beside.isalnum() or beside == "_"):
                    continue
            if end < size:
                beside = folded[end]
                if beside not in _NO_WORD_CHARACTERS and (beside.isalnum() or beside == "_"):
                    continue
            found.append(_mention((start, end, code)))  # ``Mention(start, end, code)``
            taken = end
        return found

    def unresolved(self, folded: str, mentions: list[Mention], hits: Hits | None = None) -> list[tuple[int, int]]:
        """Spans of driver descriptions that name no driver ("the rookie", "el finlandés"
        when two Finns raced)."""
        hits = hits or self.rare_anchors.find(folded)
        if not hits.anywhere("descriptor"):
            return []
        taken = SpanSet([(m.start, m.end) for m in mentions])
        return [
            (match.start(), match.end()) for match in self.descriptor_pattern.finditer(folded)
            if not taken.overlaps(match.start(), match.end())
            and not _EVENT_AFTER.match(folded, match.end())
        ]


@lru_cache(maxsize=64)  # the names of a race, whichever driver is the focus
def _nested_at_ends(names: frozenset[str]) -> bool:
    """Whether no name holds another (between word boundaries) but as its end ("hamilton"
    in "lewis hamilton"). Then a name the scan takes is the first, by end, of those it may
    take there: a name ending before it would stand inside it (a scan takes the first
    position a name stands at, the longest there), and one ending with it is shorter or
    was not there. So names by end, the longest first at an end, can be taken in turn."""
    for name in names:
        bounds = [match.start() for match in _BOUNDARY.finditer(name)]
        for index, start in enumerate(bounds):
            if any(name[start:end] in names for end in bounds[index + 1:] if end < len(name)):
                return False
    return True


_BOUNDARY = re.compile(r"\b")


def _start_longest_first(hit: tuple[int, int, int, str]) -> tuple[int, int]:
    """A name's hit's sort key (last, length, bits, literal): by start, the longest first at a start
    (the order a scan tries them in)."""
    return hit[0] - hit[1], -hit[0]


# characters that are no word characters (``\w``), the usual ones beside a name
_NO_WORD_CHARACTERS = frozenset(" .,;:!?'\"()-\n")


def _plain(name: str) -> bool:
    """Whether ``name`` is words of single spaces, opening and ending with a word character
    (then, in a text whose whitespace is single spaces, the names pattern's ``\\b`` and
    ``\\s+`` match it as the literal it is)."""
    return bool(name) and name == " ".join(name.split()) and _WORD.match(name[0]) is not None and (
        _WORD.match(name[-1]) is not None)


_WORD = re.compile(r"\w")
NAMES = "name"  # the names' literals among a text's anchors (``DriverIndex.rare_literals``)
SPACES = "space"  # and the whitespace that is not one space: where a name's ``\\s+`` may match more
# every whitespace character but the space (what ``\\s`` matches: ``str.isspace``, none past
# U+3000), and two spaces: a text holding none has single spaces between its words
IRREGULAR_SPACES = frozenset({"  ", *(c for c in map(chr, range(0x3001)) if c.isspace() and c != " ")})
# the kinds of mention ``find`` asks where or whether their anchors stand: their few hits
# are listed apart from the grammar's (``Anchors(apart=...)``)
MENTION_KINDS = frozenset({NAMES, SPACES, "first", "demonym", "descriptor"})


def _each_overlaps(spans: list[tuple[int, int]], mentions: list[Mention]) -> bool:
    """Whether each of ``spans`` shares a character with one of ``mentions`` (sorted by
    start and disjoint, so their ends are sorted too): ``SpanSet.overlaps`` of each,
    without building the set (most texts: one anchor, "Lewis" of "Lewis Hamilton")."""
    if not spans:
        return True
    if len(spans) == 1:  # most texts: one pass over the mentions, no list of their starts
        start, end = spans[0]
        for mention in mentions:
            if mention[1] > start:  # the first mention ending after the span opens
                return mention[0] < end
        return False
    starts = [m[0] for m in mentions]
    for start, end in spans:
        index = bisect_left(starts, end) - 1  # the last mention opening before the span ends
        if index < 0 or mentions[index][1] <= start:
            return False
    return True


def _demonyms(race_codes: set[str], focus: set[str]) -> tuple[dict[str, str], set[str]]:
    """Nationality words that name one driver (unique in the race, else among the focus
    drivers), and those that name nobody for sure."""
    resolved: dict[str, str] = {}
    unresolved: set[str] = set()
    for nationality, words in DEMONYMS.items():
        holders = {c for c in race_codes if NATIONALITY.get(c) == nationality}
        if not holders:
            continue
        chosen = holders if len(holders) == 1 else holders & focus
        for word in words:
            if len(chosen) == 1:
                resolved[word] = next(iter(chosen))
            else:
                unresolved.add(word)
    return resolved, unresolved


def _focus(context: dict[str, Any]) -> tuple[str, ...]:
    focus = context.get("focus", {})
    # written out (asked once a text): the focus's driver, rival and attacker that are named
    driver, rival, attacker = focus.get("driver"), focus.get("rival"), focus.get("attacker")
    if rival is None and attacker is None:  # one driver's decision (most)
        return (driver,) if isinstance(driver, str) else ()
    return tuple([name for name in (driver, rival, attacker) if isinstance(name, str)])


# a race block -> its race's drivers: instances of one race mostly share their block object
# (built together, or loaded from a file that stores it once), so its entry list is read
# once per block rather than once per text (by identity: a block's hash would read all of it)
_BY_BLOCK: Identities[dict[str, Any], RaceDrivers] = Identities(256)
# (a race's drivers, focus) -> its index: a few dicts each, so many are held (a run in any
# order, system after system, asks every instance's again before the last is read)
_BY_FOCUS: dict[tuple[RaceDrivers, tuple[str, ...]], DriverIndex] = {}
_BY_FOCUS_SIZE = 8192


def driver_index(context: dict[str, Any]) -> DriverIndex:
    """The index of an instance's drivers: its race's (built once per entry list, in any
    input order) with the instance's focus applied (once per race and focus)."""
    race = context.get("race", {})
    drivers = _BY_BLOCK.get(race)
    if drivers is None:
        drivers = _BY_BLOCK.put(race, race_drivers(entry_list(race)))
    focus = _focus(context)
    index = _BY_FOCUS.get((drivers, focus))
    if index is None:
        if len(_BY_FOCUS) >= _BY_FOCUS_SIZE:
            del _BY_FOCUS[next(iter(_BY_FOCUS))]
        index = _BY_FOCUS[(drivers, focus)] = DriverIndex.of(drivers, focus)
    return index
