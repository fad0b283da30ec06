"""Regex grammars of forecast text in en/es/pt, compiled once per language.

``read_claims(text, language)`` runs the rules in priority order over the accent-folded,
lower-case text; a rule's match consumes its characters so that a later, looser rule
cannot read them again ("New snow accumulation" is an amount, not a snow condition;
"temperatures falling to around 33" is a trend, not the period's temperature).
Values are normalized to the record's units: °F (a °C value becomes the °F interval its
rounding allows) and mph.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial
from typing import NamedTuple

from factcov.domains.weather.vocabulary import (
    QUALIFIER_AFTER,
    QUALIFIER_BEFORE,
    alternation,
    condition_words,
    direction_words,
    grouped_by_first_letter,
    sky_words,
    word_alternation,
)
from factcov.extractors.fast_regex import compile_cached
from factcov.extractors.patterns import SpanMask, negated_right_before
from factcov.extractors.rules import PatternRules
from factcov.language import fold, parse_number

# a number ends where no separator and digit follow: "1,000,000" is not read as "1,000"
# (its separators are read as its language writes them, ``_number``)
NUM = r"(?:minus\s+|menos\s+|-|−)?\d+(?:[.,]\d+)?(?![.,]\d)"
# a number where a match starts: its first digit is not inside a number ("Winds 1,000 mph"
# is no speed of "000 mph"), asserted after that digit so that ``re`` searches for a digit
_FIRST_DIGIT = r"\d(?<![\d.,]\d)"  # nor after a bare separator: ".5 mph" is no 5 mph
# a number after words (or after a ``_FIRST_DIGIT``): one decimal or thousands separator
_DIGITS = r"\d+(?:[.,]\d+)?(?![.,]\d)"
# a speed's number where its match starts
_SPEED_N = rf"{_FIRST_DIGIT}\d*(?:[.,]\d+)?(?![.,]\d)"
# an amount's text runs to the end of its sentence, over decimal points ("0.5 inches")
_TO_SENTENCE_END = r"[^.]*(?:\.\d[^.]*)*"  # unrolled: runs of [^.] scanned in C
_DEGREES = r"(?:\s*(?:°|º|(?:degrees?|grados?|graus?|deg)\b)\s*)?"
_UNIT_NAMES = r"fahrenheit|celsius|centigrados?|f|c"
_SPEED_UNIT = (
    r"(?:mph|miles per hour|miles an hour|millas por hora|milhas por hora|km/h|kmh|kph|km por hora|"
    r"kilometros por hora|quilometros por hora|kilometers per hour|kilometres per hour|knots|kts|kt|nudos|nos)"
)
_TO_MPH = {"km": 0.621371, "kph": 0.621371, "kmh": 0.621371, "kil": 0.621371, "qui": 0.621371,
           "kn": 1.15078, "kt": 1.15078, "nu": 1.15078, "no": 1.15078}
_RANGE_JOIN = r"\s*(?:to|-|–|and|a|y|e|ate)\s*"
# "%", "percent", "per cent", "per-cent", "por ciento", "por cento", and the anchor words
# that open the rules reading them (each spelling needs its own: "per cent" does not
# contain "percent")
_PERCENT_WORD = r"(?:%|per[\s-]?cent|por ciento|por cento)"
# the lower end of a range of percentages ("30 to 40 percent", "del 30 al 40 %"), group ``lo``
_PERCENT_FROM = rf"(?:(?P<lo>\d{{1,3}})\s*{_PERCENT_WORD}?\s*(?:to|-|–|or|al?|y|e|ou|o)\s*)?"
# A pattern whose first element is a character or a class of them lets ``re`` jump from
# candidate to candidate in C; one that starts with a lookbehind, ``\b`` or ``\d+`` is
# tried at every position of the text (3-4x the time of such a rule on a forecast). So a
# rule that starts at a number starts with one digit (``\d\d*``), and what must not
# stand before the number is asserted after that digit.
_WORD_START = re.compile(r"^\\b([a-z])(?![?*+{])")  # "\bwinds?" is "w(?<!\w.)inds?": the same matches, found by searching for its first letter
# es/pt "(temperaturas) máximas": "\b(?:temperaturas? )?(?P<kind>maximas?|minimas?|max|min)" by first letter
_MAX_OR_MIN = r"(?P<kind>t(?<!\w.)emperaturas? (?:maximas?|minimas?|max|min)|m(?<!\w.)(?:aximas?|inimas?|ax|in))"
_PERCENT_N = r"(?P<n>\d(?<![\d.,]\d)\d{0,2})"  # (?<![\d.,])(?P<n>\d{1,3})
_PERCENT_BEFORE = re.compile(rf"(?<![\d.,])(\d{{1,3}})\s*{_PERCENT_WORD}?\s*(?:to|-|–|or|al?|y|e|ou|o)\s*$")
_DECADE = r"(?:(?P<part>lower|low|mid|middle|upper|high)[\s-]*)?(?P<dec>\d)0s\b|(?:(?P<tpart>lower|low|mid|middle|upper|high)[\s-]*)?(?P<teens>teens)\b"
# "10 degrees above normal", "3 grados más bajas que ayer": a difference, not a temperature
_RELATIVE = (
    r"(?![\s-]*(?:(?:to|-|–|a|y|e|ate)\s*\d+\s*)?(?:degrees?\s+|grados?\s+|graus?\s+)?"
    r"(?:above|below|warmer|colder|cooler|higher|lower|than|"
    r"por encima|por debajo|mas (?:altas?|bajas?|calidas?|frias?|frescas?|que)|acima|abaixo|"
    r"mais (?:altas?|baixas?|quentes?|frias?|que)|superiores?|inferiores?)\b)"
)
# "lows, 10 to 20 percent": a number or range that is a percentage is no temperature
_NOT_A_PERCENT = rf"(?![\s-]*(?:(?:to|-|–|a|y|e|ate)\s*\d+\s*)?{_PERCENT_WORD})"
_TEMP_VALUE = (
    rf"(?:{_DECADE}|(?P<a>{NUM})(?!\d){_DEGREES}{_RANGE_JOIN}(?P<b>{NUM})(?!\d){_DEGREES}(?:(?P<unit>{_UNIT_NAMES})\b)?"
    rf"|(?P<n>{NUM})(?!\d){_DEGREES}(?:(?P<unit2>{_UNIT_NAMES})\b)?"
    rf"(?P<below>\s*below(?:\s+zero)?(?!\s+(?:normal|average|freezing|seasonal))|\s*bajo\s+cero|\s*abaixo\s+de\s+zero|\s*negativos?\b)?)"
    rf"(?:\s*\(\s*{NUM}\s*(?:°|º)?\s*[cf]?\s*\))?"  # "75°F (24°C)": the conversion in brackets is the same claim
    rf"{_RELATIVE}{_NOT_A_PERCENT}"
)


class Reading(NamedTuple):
    """One claim read in text, before it becomes a ``Claim`` (a tuple: thousands are
    made per second of a run)."""

    type: str
    key: dict
    value: object
    start: int
    end: int


_SIGN = re.compile(r"^(?:minus|menos|-)\s*")
Rule = Callable[[re.Match[str]], list[tuple[str, dict, object]]]


def _number(text: str, language: str) -> float:
    """'1,000' -> 1000 in English, '1.000' -> 1000 and '10,5' -> 10.5 in Spanish and
    Portuguese: separators as the language writes them (``parse_number``)."""
    if text.isdecimal() and len(text) < 16:  # most numbers: digits a float holds exactly
        return int(text)
    text = text.replace("−", "-")
    digits = _SIGN.sub("", text)
    value = parse_number(digits, language)
    if value is None:  # not a form parse_number knows: the old reading, a decimal point or comma
        value = float(digits.replace(",", "."))
    value = -value if text.startswith(("minus", "menos", "-")) else value
    return int(value) if float(value).is_integer() else value


def _high_or_low(kind: str) -> str:
    """The kind of a temperature named "máxima" or "temperaturas mínimas"."""
    return "high" if kind.rsplit(" ", 1)[-1].startswith("max") else "low"


def qualifier_for_percent(percent: float) -> str | None:
    """The qualifier NWS writes for a chance of precipitation (NWS Directive 10-503's
    table): slight chance 10-20%, chance 30-50%, likely 60-70%, none ("Rain") 80-100%.
    A percentage on a boundary between two bands (25, 55, 75) names its condition
    without a qualifier ``""`` (the claim then states no qualifier slot); below 10% it
    names none (``None``): "a 5 percent chance of rain" does not say that it rains."""
    if percent < 10:
        return None
    for upper, qualifier in ((25, "slight_chance"), (55, "chance"), (75, "likely")):
        if percent == upper:
            return ""
        if percent < upper:
            return qualifier
    return "none"


def _f_from_c(celsius: float) -> float:
    return round(celsius * 9 / 5 + 32, 1)


def temperature_value(match: re.Match[str], language: str) -> object:
    """A point (°F), or an interval for decades, ranges and converted °C values; numbers
    are read as ``language`` writes them."""
    part, dec, tpart, teens, a, b, unit, n, unit2, below = match.group(*_TEMP_GROUPS)
    if dec is not None or teens is not None:
        base = 10 if teens else int(dec) * 10
        part = part or tpart
        if part in ("lower", "low"):
            return [base, base + 3]
        if part in ("mid", "middle"):
            return [base + 3, base + 7]
        if part in ("upper", "high"):
            return [base + 6, base + 9]
        return [base, base + 9]
    celsius = (unit or unit2 or "").startswith("c")
    if a is not None:
        low, high = _number(a, language), _number(b, language)
        return [_f_from_c(low - 0.5), _f_from_c(high + 0.5)] if celsius else [low, high]
    value = _number(n, language)
    if below:
        value = -abs(value)  # "10 below zero"
    return [_f_from_c(value - 0.5), _f_from_c(value + 0.5)] if celsius else value


_TEMP_GROUPS = ("part", "dec", "tpart", "teens", "a", "b", "unit", "n", "unit2", "below")  # the groups of _TEMP_VALUE


def _mph(value: float, unit: str | None) -> float:
    if not unit:
        return value
    factor = _TO_MPH.get(unit[:3]) or _TO_MPH.get(unit[:2]) or 1.0
    return value if unit.startswith(("mph", "mil")) else round(value * factor, 1)


class Grammar:
    """The compiled rules of one language."""

    def __init__(self, language: str) -> None:
        self.language = language
        # (pattern, action, its needle sets): gates derived from the patterns
        self.rules: PatternRules[Rule] = PatternRules()
        self.sources: list[str] = []  # each rule's pattern as written (its compiled form may start differently)
        build = {"en": self._english, "es": self._spanish, "pt": self._portuguese}[language]
        build()
        self._shared_rules()
        self.rules.seal()

    # -- rule helpers -------------------------------------------------------------------
    def add(self, pattern: str, rule: Rule) -> None:
        """A rule, declared once: its gate (substrings one of which any match contains, so
        the rule's scan is skipped on the many texts holding none) is derived from the
        compiled pattern (``PatternRules``), never listed by hand."""
        self.sources.append(pattern)
        # compiled through the disk cache of programs (the same program as ``re.compile``'s)
        self.rules.add(compile_cached(_WORD_START.sub(r"\1(?<!\\w.)", pattern, count=1)), rule)

    def _temperature(self, kind_of: Callable[[str], str]) -> Rule:
        language = self.language
        return lambda m: [("temperature", {"kind": kind_of(m.group("kind"))}, temperature_value(m, language))]

    @staticmethod
    def _amount(kinds: dict[str, str]) -> Rule:
        return lambda m: [("precip_amount", {"kind": kinds.get(m.group("k"), m.group("k"))}, " ".join(m.group(0).split()))]

    @staticmethod
    def _text_of(type_: str) -> Rule:
        return lambda m: [(type_, {}, " ".join(m.group(0).split()))]

    def _number_of(self, type_: str) -> Rule:
        language = self.language
        return lambda m: [(type_, {}, _number(m.group("n"), language))]

    def _trend(self, rising: tuple[str, ...]) -> Rule:
        language = self.language

        def rule(m: re.Match[str]) -> list[tuple[str, dict, object]]:
            word = m.group("dir")
            out = [("temperature_trend", {}, "rising" if word.startswith(rising) else "falling")]
            groups = m.groupdict()
            if groups.get("n") or groups.get("a") or groups.get("dec") or groups.get("teens"):
                out.append(("trend_temperature", {}, str(temperature_value(m, language))))
            return out
        return rule

    def _precip_list(self, generic: str, fillers: str, joiners: str) -> str:
        """What a chance of precipitation is a chance of: generic words ("precipitation")
        or a list of condition words ("rain and snow"), captured as ``list``."""
        one = rf"(?:(?:{fillers})\s+)?(?:{alternation(condition_words(self.language))}|{generic})"
        return rf"(?P<list>{one}(?:\s*(?:,|(?:,\s*)?\b(?:{joiners})\b)\s*{one})*)"

    def _chance(self, m: re.Match[str]) -> list[tuple[str, dict, object]]:
        """A percentage chance, and the conditions it names with the qualifier NWS uses for
        that percentage ("a 40 percent chance of snow" is "Chance Snow")."""
        return self._chance_claims(m, m.groupdict().get("lo"))

    def _chance_at_number(self, m: re.Match[str]) -> list[tuple[str, dict, object]]:
        """``_chance`` for a rule whose match starts at the number: the lower end of a range
        ("30 to" 40% chance) is looked up just before it, since a pattern starting with an
        optional "30 to" would be tried at every digit of every text."""
        before = _PERCENT_BEFORE.search(m.string, max(0, m.start() - 25), m.start())
        return self._chance_claims(m, before.group(1) if before else None)

    def _chance_claims(self, m: re.Match[str], low_end: str | None) -> list[tuple[str, dict, object]]:
        percent = _number(m.group("n"), self.language)
        value: object = percent
        qualifier = qualifier_for_percent(percent)
        if low_end:
            # "30 to 40 percent" is the interval [30, 40] (the comparator's ±5 then accepts a
            # record of 25..45, as for each end); a range wider than 20 points claims nothing
            low = _number(low_end, self.language)
            if not 0 < percent - low <= 20:
                return []
            value = [low, percent]
            ends = {qualifier_for_percent(low), qualifier}
            qualifier = None if None in ends else (ends.pop() if len(ends) == 1 else "")
        found: list[tuple[str, dict, object]] = [("precip_chance", {}, value)]
        named = m.groupdict().get("list")
        if named and qualifier is not None:
            key = {} if qualifier == "" else {"qualifier": qualifier}
            found += [("condition", dict(key), c) for c in self._condition_names(named)]
        return found

    def _stray_percent(self, m: re.Match[str]) -> list[tuple[str, dict, object]]:
        """A percentage with no chance word is the chance of precipitation, unless its
        sentence is about humidity or cloud cover ("relative humidity values near 80%")."""
        sentence = m.string[max(0, m.start() - 60):m.start()].rsplit(".", 1)[-1]
        return [] if _NOT_PRECIPITATION.search(sentence) else self._chance_at_number(m)

    def _condition_names(self, phrase: str) -> list[str]:
        """The conditions a list of condition words names, once each, in order."""
        words = _normalized(condition_words(self.language))
        conditions = [words[_norm(w)] for w in self._condition_re.findall(phrase)]
        if conditions and conditions[-1] in ("showers", "snow_showers"):
            # "rain and snow showers" are rain showers and snow showers (NWS's own wording)
            conditions = [_AS_SHOWERS.get(c, c) for c in conditions]
        return list(dict.fromkeys(conditions))

    # -- languages ----------------------------------------------------------------------
    def _english(self) -> None:
        kinds = {"rainfall": "rain", "rain": "rain", "snow": "snow", "ice": "ice", "sleet": "ice", "accumulation": "unspecified"}
        self.add(rf"\bnew (?P<k>rainfall|snow|ice|sleet) (?:amounts?|accumulations?)\b{_TO_SENTENCE_END}", self._amount(kinds))
        self.add(rf"\blittle or no (?P<k>rainfall|snow|ice|sleet) accumulation{_TO_SENTENCE_END}", self._amount(kinds))
        self.add(rf"\b(?:total )?(?P<k>snow|rain|ice|rainfall) (?:accumulations?|totals?|amounts?)\b{_TO_SENTENCE_END}", self._amount(kinds))
        self.add(r"\b(?:\d+(?:[.,]\d+)?|an?|one|two|three|half an?|a quarter of an?|a tenth of an?)(?: to (?:\d+(?:[.,]\d+)?|one|two|three))?"
                 r"\s+inch(?:es)? of (?:new )?(?P<k>rain|snow|ice|accumulation)\b", self._amount(kinds))
        self.add(r"\b(?:some of the )?(?:storms|thunderstorms) could (?:be severe|produce [^.,]*)", self._text_of("hazard"))
        self.add(rf"\bheat index (?:values? )?(?:as high as |up to |near |around |of |reaching )?(?P<n>{NUM})", self._number_of("heat_index"))
        self.add(rf"\bwind chills? (?:values? )?(?:as low as |down to |near |around |of )?(?P<n>{NUM})", self._number_of("wind_chill"))
        precip = self._precip_list(r"precipitation|measurable precipitation|storms|a shower|a thunderstorm|a storm",
                                   r"some|light|heavy|a little|a few|occasional|a passing|passing|a stray|stray", r"and|or")
        self.add(rf"\b(?:chance|probability|likelihood) of {precip}\s*(?:is|of|at|near|around|about|:)?\s*"
                 rf"(?:near |around |about )?{_PERCENT_FROM}(?P<n>\d{{1,3}})[\s-]*(?:%|per[\s-]?cent)", self._chance)
        self.add(rf"{_PERCENT_N}[\s-]*(?:%|per[\s-]?cent)\s+(?:chance|probability|likelihood)\b"
                 rf"(?:\s+(?:of|for)\s+{precip})?", self._chance_at_number)
        self.add(r"\b(?P<list>precipitation|rain|snow) (?:chances?|probability)\s*(?:is|are|of|at|near|around|about|:)?\s*(?:near |around |about )?"
                 r"(?:between\s+)?"
                 rf"{_PERCENT_FROM}(?P<n>\d{{1,3}})\s*(?:%|per[\s-]?cent)", self._chance)
        self.add(rf"\bgusty winds?\s+(?:of\s+)?(?:up to|as high as|reaching|near|around)\s+(?P<n>{_DIGITS})\s*(?P<u>{_SPEED_UNIT})?",
                 self._gust)  # "gusty winds up to 30 mph" are gusts, not the wind speed
        self.add(rf"\bgust(?:s|ing)?\s+(?:as high as |up to |of up to |to |near |around |of |reaching |at |over |in excess of )?"
                 rf"(?P<n>{_DIGITS})\s*(?P<u>{_SPEED_UNIT})?", self._gust)
        self.add(rf"\b(?:with )?(?:temperatures?|temps) (?:will )?(?P<dir>rising|rise|climbing|climb|warming|increasing|falling|fall|dropping|drop|cooling|decreasing)"
                 rf"(?:\s+(?:to|into)\s+(?:around |near |about |the )?{_TEMP_VALUE})?", self._trend(("ris", "climb", "warm", "incr")))
        self.add(r"\b(?P<dir>rising|falling|warming|cooling) temperatures\b", self._trend(("ris", "warm")))
        self.add(rf"\b(?:temperatures?|temps)\s+(?:will\s+|should\s+|could\s+|may\s+)?(?:likely\s+)?"
                 rf"(?P<kind>tops? out|topping out|peaks?|peaking|max(?:es)? out|maxing out|bottoms? out|bottoming out)"
                 rf"(?:\s+(?:at|around|near|about|in the|close to|of|only|just))*[\s:,]*{_TEMP_VALUE}",
                 self._temperature(lambda k: "low" if k.startswith("bottom") else "high"))
        fillers = (r"will be|will reach|will fall to|will drop to|will dip to|will climb to|will top out at|will peak at|"
                   r"of|is|are|near|around|about|at|to|reaching|in the|close to|roughly|up to|down to|only|just|expected|"
                   r"generally|mainly|mostly|topping out|peaking|bottoming out|dropping|falling|dipping|sinking|into the|into")
        # a bare "high"/"low" right before a decade ("temperatures in the low 40s") is the decade's part, not a kind
        self.add(rf"\b(?P<kind>highs|high(?!\s+(?:\d0s|teens))|lows|low(?!\s+(?:\d0s|teens))|maximum|minimum|max|min)(?:\s+temperatures?|\s+temps?)?"
                 rf"(?:\s+(?:{fillers})\b)*[\s:,]*{_TEMP_VALUE}",
                 self._temperature(lambda k: "high" if k.startswith(("high", "max")) else "low"))
        self.add(r"\b(?:before|after|until|between|through|from|starting|beginning|by)\s+"
                 r"(?:noon|midnight|sunrise|sunset|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.))"
                 r"(?:\s+(?:and|to)\s+(?:noon|midnight|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)))?", self._text_of("timing"))
        dirs = alternation(direction_words("en"))
        codes = alternation(code.lower() for code in _COMPASS)  # then \b: the code whole, in any order
        manner = r"light|gentle|moderate|strong|gusty|brisk|steady|breezy|trade"
        self.add(rf"(?P<dir>{word_alternation(direction_words('en'))})\s+(?:(?:{manner})\s+)?(?:winds?|breezes?)\b", self._direction)
        self.add(rf"\bwinds?\s+(?:will be\s+|becoming\s+)?(?:(?:{manner}|mainly|mostly|generally)\s+)?(?:from|out of)\s+the\s+(?P<dir>{dirs}|{codes})\b",
                 self._direction)
        self.add(rf"\bwinds?\b[^.]{{0,40}}?\bbecoming\s+(?P<dir>{dirs})\b", self._direction)
        erly = alternation([w for w in direction_words("en") if w.endswith("erly")])
        self.add(rf"\bwinds?\s+(?:will be\s+)?(?:(?:mainly|mostly|generally|light)\s+)?(?P<dir>{erly})\b", self._direction)
        # after the speed, which the speed rules read: the lookbehind leaves the unit unconsumed
        self.add(rf"(?:(?<=mph )|(?<=km/h )|(?<=knots ))(?:from|out of) the (?P<dir>{dirs})\b", self._direction)
        self.add(rf"\bwinds?\s*:?\s+(?P<dir>{codes})\b", self._direction)
        self.add(r"\bcalm winds?\b|\bwinds? (?:will be )?calm\b", lambda m: [("wind_speed", {}, [0, 0])])
        self.add(rf"(?P<a>{_SPEED_N})\s*(?:to|-|–|and)\s*(?P<b>{_DIGITS})\s*(?P<u>{_SPEED_UNIT})\b", self._speed)
        self.add(rf"(?P<a>{_SPEED_N})\s*(?P<u>{_SPEED_UNIT})\b", self._speed)

    def _spanish(self) -> None:
        kinds = {"nieve": "snow", "lluvia": "rain", "lluvias": "rain", "hielo": "ice", "precipitacion": "rain"}
        self.add(rf"\b(?:nuevas? )?(?:acumulacion(?:es)?|acumulados?) de (?P<k>nieve|lluvias?|hielo|precipitacion){_TO_SENTENCE_END}", self._amount(kinds))
        self.add(r"\b\d+(?:[.,]\d+)?(?: a \d+(?:[.,]\d+)?)? (?:pulgadas?|cm|centimetros|mm|milimetros) de (?P<k>nieve|lluvias?|hielo)\b", self._amount(kinds))
        self.add(r"\balgunas (?:de las )?tormentas podrian [^.,]*", self._text_of("hazard"))
        self.add(rf"\bindice de calor (?:de hasta |de |hasta |cercano a |alrededor de )?(?P<n>{NUM})", self._number_of("heat_index"))
        self.add(rf"\bsensacion termica (?:minima )?(?:de hasta |de |hasta |cercana a |alrededor de )?(?P<n>{NUM})", self._number_of("wind_chill"))
        precip = self._precip_list(r"precipitaciones|precipitacion", r"algo de|algunas|algunos|alguna|algun", r"y|o")
        self.add(rf"\b(?:probabilidad|posibilidad)(?:es)? de {precip}\s*(?:es\s+)?(?:del|de|de un|es del|es de|en torno al|de alrededor del|alrededor del|cercana al|:)?\s*"
                 rf"{_PERCENT_FROM}(?P<n>\d{{1,3}})\s*(?:%|por ciento)", self._chance)
        self.add(rf"{_PERCENT_N}\s*(?:%|por ciento)\s+de\s+(?:probabilidad|posibilidad)(?:\s+de\s+{precip})?",
                 self._chance_at_number)
        self.add(rf"\bvientos?\s+racheados?\s+(?:de\s+)?hasta\s+(?P<n>{_DIGITS})\s*(?P<u>{_SPEED_UNIT})?",
                 self._gust)  # "vientos racheados de hasta 50 km/h": gusts
        self.add(rf"\b(?:rafagas?|rachas?)\s+(?:de hasta |de |hasta |que alcanzan |que alcanzaran |que podrian alcanzar |de mas de |superiores a |de unos |cercanas a )?"
                 rf"(?P<n>{_DIGITS})\s*(?P<u>{_SPEED_UNIT})?", self._gust)
        self.add(rf"\b(?:con )?temperaturas? (?:en |que )?(?P<dir>ascenso|aumento|subiendo|suben|subiran|descenso|bajando|bajan|bajaran|descendiendo)"
                 rf"(?:\s+(?:hasta|a)\s+(?:cerca de |alrededor de |unos |los )?{_TEMP_VALUE})?", self._trend(("asc", "aum", "sub")))
        fillers = (r"de|del|cerca de|cercana a|cercano a|cercanas a|alrededor de|en torno a|en torno de|de unos|unos|de alrededor de|de cerca de|proxima a|"
                   r"rondando|rondara|rondaran|los|las|de hasta|hasta|sera de|sera|seran de|llegara a|llegaran a|entre|en|es de|"
                   r"estara en|estaran en|se situara en|se situaran en|ira|iran|que|alcanzara|alcanzaran|bajara|bajaran|"
                   r"descendera a|subira a|subira hasta|llegara hasta|prevista de|prevista|prevista en|esperada de|esperada")
        # "máximas en los 40": the 40s ("alrededor de los 40" stays the point 40)
        self.add(rf"\b(?:temperaturas? )?(?P<kind>maximas?|minimas?)(?: temperaturas?)?\s+(?:(?:estaran|estara|seran|sera|andaran|andara|se situaran|se situara)\s+)?"
                 rf"en (?:los|la franja de los|la banda de los)\s+(?P<dec>\d)0(?!\d){_DEGREES}(?:(?P<unit>{_UNIT_NAMES})\b)?",
                 self._decade_temperature)
        self.add(rf"{_MAX_OR_MIN}(?: temperaturas?)?(?:\s+(?:{fillers})\b)*[\s:,]*{_TEMP_VALUE}",
                 self._temperature(_high_or_low))
        time = r"(?:\d{1,2}(?::\d\d)?(?:\s*(?:am|pm|a\.\s?m\.|p\.\s?m\.|h|horas))?|mediodia|medianoche|la manana|la tarde|la noche)"
        self.add(rf"\b(?:antes de las|despues de las|hasta las|entre las|a partir de las|desde las|antes de la|despues de la|"
                 rf"antes del|despues del|hasta el|hasta la|a partir del|a partir de la)\s+{time}(?:\s+y\s+(?:las\s+|el\s+)?{time})?",
                 self._text_of("timing"))
        dirs = alternation(direction_words("es"))
        manner = r"suaves?|moderados?|fuertes?|ligeros?|flojos?|debil|debiles|racheados?"
        # "viento del norte", "viento norte"; without a preposition not "este", also "this" ("vientos este fin de semana")
        self.add(rf"\bvientos?\s+(?:(?:{manner})\s+)?(?:(?:del|de|procedentes del|procedentes de|provenientes del|del sector|de componente|"
                 rf"de direccion|soplando del)\s+(?P<dir>{dirs})|(?P<bare>{_without_this(direction_words('es'))}))\b",
                 self._direction)
        self.add(rf"(?:(?<=mph )|(?<=km/h ))(?:del|procedentes del|provenientes del) (?P<dir>{dirs})\b", self._direction)
        self.add(r"\b(?:viento en )?calma\b", lambda m: [("wind_speed", {}, [0, 0])])
        self.add(rf"(?P<a>{_SPEED_N})\s*(?:a|-|–|y)\s*(?P<b>{_DIGITS})\s*(?P<u>{_SPEED_UNIT})", self._speed)
        self.add(rf"(?P<a>{_SPEED_N})\s*(?P<u>{_SPEED_UNIT})", self._speed)

    def _portuguese(self) -> None:
        kinds = {"neve": "snow", "chuva": "rain", "chuvas": "rain", "gelo": "ice", "precipitacao": "rain"}
        self.add(rf"\b(?:novas? )?(?:acumulacao|acumulacoes|acumulados?|acumulo) de (?P<k>neve|chuvas?|gelo|precipitacao){_TO_SENTENCE_END}", self._amount(kinds))
        self.add(r"\b\d+(?:[.,]\d+)?(?: a \d+(?:[.,]\d+)?)? (?:polegadas?|cm|centimetros|mm|milimetros) de (?P<k>neve|chuvas?|gelo)\b", self._amount(kinds))
        self.add(r"\balgumas (?:das )?tempestades podem [^.,]*", self._text_of("hazard"))
        self.add(rf"\bindice de calor (?:de ate |de |ate |perto de |em torno de )?(?P<n>{NUM})", self._number_of("heat_index"))
        self.add(rf"\bsensacao termica (?:minima )?(?:de ate |de |ate |perto de |em torno de )?(?P<n>{NUM})", self._number_of("wind_chill"))
        precip = self._precip_list(r"precipitacao|precipitacoes", r"alguma|algumas|um pouco de", r"e|ou")
        self.add(rf"\b(?:probabilidade|chance|possibilidade)s? de {precip}\s*(?:e\s+)?(?:de|da|em torno de|de cerca de|cerca de|:)?\s*"
                 rf"{_PERCENT_FROM}(?P<n>\d{{1,3}})\s*(?:%|por cento)", self._chance)
        self.add(rf"{_PERCENT_N}\s*(?:%|por cento)\s+de\s+(?:probabilidade|chance|possibilidade)(?:\s+de\s+{precip})?",
                 self._chance_at_number)
        self.add(rf"\brajadas?\s+(?:de ate |de |ate |que podem chegar a |que podem atingir |chegando a |de cerca de |de mais de |acima de )?"
                 rf"(?P<n>{_DIGITS})\s*(?P<u>{_SPEED_UNIT})?", self._gust)
        self.add(rf"\b(?:com )?temperaturas? (?:em |a )?(?P<dir>elevacao|subida|subindo|sobem|vao subir|alta|queda|caindo|caem|vao cair|baixa|declinio)"
                 rf"(?:\s+(?:para|ate|a)\s+(?:cerca de |em torno de |por volta de )?{_TEMP_VALUE})?",
                 self._trend(("elev", "sub", "sob", "vao s", "alta")))
        fillers = (r"de|da|em torno de|por volta de|perto de|proxima de|proxima a|ao redor de|cerca de|de cerca de|chegando a|"
                   r"chega a|chegara a|sera de|ficara em|ficando em|entre|e|deve ficar em|deve chegar a|devera ser de|"
                   r"que|deve|devera|atingir|atingira|chegar a|chegar aos|aos|prevista de|prevista|esperada de|esperada")
        self.add(rf"\b(?:temperaturas? )?(?P<kind>maximas?|minimas?)(?: temperaturas?)?(?:\s+(?:{fillers})\b)*\s+(?:na|em) (?:casa|faixa) dos\s+"
                 rf"(?P<dec>\d)0(?!\d){_DEGREES}(?:(?P<unit>{_UNIT_NAMES})\b)?",
                 self._decade_temperature)
        self.add(rf"{_MAX_OR_MIN}(?: temperaturas?)?(?:\s+(?:{fillers})\b)*[\s:,]*{_TEMP_VALUE}",
                 self._temperature(_high_or_low))
        time = r"(?:\d{1,2}(?::\d\d)?(?:\s*(?:am|pm|a\.\s?m\.|p\.\s?m\.|h|horas))?|meio[\s-]dia|meia[\s-]noite|a manha|a tarde|a noite)"
        self.add(rf"\b(?:antes das|depois das|apos as|apos o|apos a|ate as|entre as|a partir das|desde as|antes do|depois do|antes da|depois da|"
                 rf"ate o|ate a|a partir do|a partir da)\s+{time}(?:\s+e\s+(?:as\s+|o\s+|a\s+)?{time})?", self._text_of("timing"))
        dirs = alternation(direction_words("pt"))
        manner = r"fracos?|moderados?|fortes?|leves?|suaves?"
        self.add(rf"\bventos?\s+(?:(?:{manner})\s+)?(?:(?:de|do|da|vindos? do|vindos? de|vindo do|soprando de|"
                 rf"soprando do|de direcao|do quadrante)\s+(?P<dir>{dirs})|(?P<bare>{_without_this(direction_words('pt'))}))\b",
                 self._direction)
        self.add(rf"(?:(?<=mph )|(?<=km/h ))(?:do|vindos? do|vindos? de|soprando do|soprando de) (?P<dir>{dirs})\b", self._direction)
        self.add(r"\b(?:vento )?calmo\b|\bcalmaria\b", lambda m: [("wind_speed", {}, [0, 0])])
        self.add(rf"(?P<a>{_SPEED_N})\s*(?:a|-|–|e|ate)\s*(?P<b>{_DIGITS})\s*(?P<u>{_SPEED_UNIT})", self._speed)
        self.add(rf"(?P<a>{_SPEED_N})\s*(?P<u>{_SPEED_UNIT})", self._speed)

    def _shared_rules(self) -> None:
        """Rules whose shape is the same in every language: stray percentages, sky, conditions."""
        humidity = {"en": "humidity", "es": "humedad", "pt": "umidade"}[self.language]
        self.add(rf"(?P<n>\d(?<![\d.,]\d)(?<!{humidity} \d)(?<!{humidity} of \d)\d{{0,2}})\s*{_PERCENT_WORD}",
                 self._stray_percent)
        skies = _normalized(sky_words(self.language))
        # sky words in other senses: "a fair chance of showers", "it is not clear when", "cubierto de nieve"
        self.add(_NOT_SKY[self.language], lambda m: [])
        # "mostly clear to partly cloudy", "partly to mostly cloudy": one of two levels, so neither is
        # claimed (one scan: a sky word, or a range that claims nothing)
        levels = [*alternation(skies).split("|"), "partly", "mostly", "mainly", "parcialmente", "mayormente", "predominantemente"]
        self.add(rf"(?P<word>{grouped_by_first_letter(levels)})(?:\s+(?:to|or|a|o|ou)\s+(?P<other>{alternation(skies)}))?\b",
                 lambda m: [] if m.group("other") or (sky := skies.get(_norm(m.group("word")))) is None else [("sky", {}, sky)])
        if self.language in _MIXED_SHOWERS:
            # gated on the mixture itself: showers alone are common, "lluvia y nieve" is not
            self.add(self.mixed_showers_pattern(), self._mixed_showers)
        self.add(self.condition_pattern(), self._conditions)

    def mixed_showers_pattern(self) -> str:
        """es/pt "chubascos (dispersos) de lluvia y nieve", "pancadas de chuva e neve": rain
        showers and snow showers, as NWS's "rain and snow showers"."""
        head, rain_or_snow, joiner = _MIXED_SHOWERS[self.language]
        before = alternation(QUALIFIER_BEFORE[self.language])
        after = alternation(QUALIFIER_AFTER[self.language])
        return (rf"(?:\b(?P<q>{before})\s+(?:de\s+)?)?\b(?:{head})(?:\s+(?P<after>{after}))?\s+de\s+"
                rf"(?P<list>(?:{rain_or_snow})\s+(?:{joiner})\s+(?:{rain_or_snow}))\b(?:\s+(?P<last>{after})\b)?")

    def _mixed_showers(self, m: re.Match[str]) -> list[tuple[str, dict, object]]:
        return [(t, k, _AS_SHOWERS.get(c, c)) for t, k, c in self._conditions(m)]

    def condition_pattern(self) -> str:
        words = alternation(condition_words(self.language))
        before = alternation(QUALIFIER_BEFORE[self.language])
        after = alternation(QUALIFIER_AFTER[self.language])
        joiner = {"en": r"and|or|with|plus|then", "es": r"y|o|con|e", "pt": r"e|ou|com"}[self.language]
        return (rf"(?:\b(?P<q>{before})\s+(?:of\s+|de\s+|del\s+)?)?"
                rf"(?P<list>\b(?:{words})\b(?:\s*(?:,|/|(?:,\s*)?\b(?:{joiner})\b)\s*(?:an?\s+)?\b(?:{words})\b)*)"
                rf"(?:\s+(?P<after>{after})\b)?")

    # -- rule actions -------------------------------------------------------------------
    def _conditions(self, m: re.Match[str]) -> list[tuple[str, dict, object]]:
        if negated_right_before(m.string, m.start(), cues=_NEGATION_CUES):
            return []  # "no rain", "sin lluvia", "sem chuva": not a claim that it rains
        qualifier = "none"
        if m.group("q"):
            qualifier = _normalized(QUALIFIER_BEFORE[self.language])[_norm(m.group("q"))]
        elif m.group("after") or m.groupdict().get("last"):
            qualifier = _normalized(QUALIFIER_AFTER[self.language])[_norm(m.group("after") or m.group("last"))]
        return [("condition", {"qualifier": qualifier}, c) for c in self._condition_names(m.group("list"))]

    @property
    def _condition_re(self) -> re.Pattern[str]:
        return _condition_word_re(self.language)

    @staticmethod
    def _decade_temperature(m: re.Match[str]) -> list[tuple[str, dict, object]]:
        """"Mínima na casa dos 40 °F": the 40s, [40, 49] °F (a °C decade converted)."""
        base = int(m.group("dec")) * 10
        kind = "high" if m.group("kind").startswith("max") else "low"
        if (m.group("unit") or "").startswith("c"):
            return [("temperature", {"kind": kind}, [_f_from_c(base - 0.5), _f_from_c(base + 9.5)])]
        return [("temperature", {"kind": kind}, [base, base + 9])]

    @staticmethod
    def _direction(m: re.Match[str]) -> list[tuple[str, dict, object]]:
        return [("wind_direction", {}, _direction_code(m.group("dir") or m.groupdict()["bare"]))]

    def _speed(self, m: re.Match[str]) -> list[tuple[str, dict, object]]:
        upper = m.group("b") if "b" in m.re.groupindex else None
        if not upper and _AT_LEAST.search(m.string, max(0, m.start() - 20), m.start()):
            return []  # "winds over 20 mph" bounds the speed from below: no [20, 20] claim
        unit = m.group("u")
        low = _mph(_number(m.group("a"), self.language), unit)
        high = _mph(_number(upper, self.language), unit) if upper else low
        return [("wind_speed", {}, [low, high])]

    def _gust(self, m: re.Match[str]) -> list[tuple[str, dict, object]]:
        return [("wind_gust", {}, _mph(_number(m.group("n"), self.language), m.group("u")))]

    # -- reading --------------------------------------------------------------------------
    def read(self, text: str) -> list[Reading]:
        """Readings in rule-priority order; consumed characters are not read twice."""
        folded = fold(text)
        opened = self.rules.opened(folded)
        take = SpanMask().take
        readings: list[Reading] = []
        for pattern, rule, gate in self.rules:
            if opened & gate != gate:
                continue
            for match in pattern.finditer(folded):
                start, end = span = match.span()
                if start == end or not take(span):
                    continue
                for type_, key, value in rule(match):
                    readings.append(_reading((type_, key, value, start, end)))
        return readings


_reading = partial(tuple.__new__, Reading)  # Reading(*fields) without its Python-level __new__
_COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
_ALL_DIRECTIONS: dict[str, str] = {}
_AS_SHOWERS = {"rain": "showers", "snow": "snow_showers"}
_NOT_SKY = {  # only the sky word itself is consumed, so that "chance of showers" is still read
    "en": r"\bfair(?=\s+(?:chance|amount|bit|number|share|probability)\b)|\bnot\s+(?:yet\s+)?clear\b"
          r"|\bclear(?=\s+(?:that|whether|when|if|how)\b)",
    "es": r"\bcubiert[oa]s?(?=\s+(?:de|por)\s+(?:la\s+)?(?:nieve|hielo|escarcha|granizo|agua)\b)",  # "el suelo cubierto de nieve"
    "pt": r"\bencobert[oa]s?(?=\s+(?:de|pela|por)\s+(?:neve|gelo|geada|granizo|agua)\b)",
}
# The words that deny a condition right after them, in any of the three languages (pt
# "no" is also "in the"; "never", "nunca" are not read as denials: grammar version 2)
_NEGATION_CUES = ("no", "not", "without", "sin", "sem", "nao", "ni", "nem")
_AT_LEAST = re.compile(r"\b(?:over|above|more than|in excess of|north of|greater than|at least|exceeding|"
                       r"mas de|superiores a|por encima de|acima de|mais de|superiores a)\s*$")
_NOT_PRECIPITATION = re.compile(r"humid|humedad|umidade|cloud cover|sky cover|nubosidad|cobertura de nuvens|cobertura nublada")
_MIXED_SHOWERS = {  # language: (showers words, rain or snow, joiners)
    "es": (r"chubascos?|aguaceros?|chaparrones", r"lluvias?|nieve", r"y|o"),
    "pt": (r"pancadas?|aguaceiros?", r"chuvas?|neve", r"e|ou"),
}


def _literal_parts(words: dict[str, str]) -> tuple[str, ...]:
    """Substrings one of which any match of ``alternation(words)`` contains: each word's
    longest run without a space or hyphen (which the alternation lets vary), and of two
    such runs where one contains the other only the shorter."""
    parts = {max(re.split(r"[\s-]+", word), key=len) for word in words}
    return tuple(sorted(p for p in parts if not any(q != p and q in p for q in parts)))


def _without_this(words: dict[str, str]) -> str:
    """Direction names but "este", which es and pt also use for "this"."""
    return alternation({w: c for w, c in words.items() if w != "este"})


def _norm(phrase: str) -> str:
    """One spelling for lookups: hyphens and runs of spaces become one space."""
    return " ".join(phrase.replace("-", " ").split())


_NORMALIZED: dict[int, dict[str, str]] = {}


def _normalized(words: dict[str, str]) -> dict[str, str]:
    table = _NORMALIZED.get(id(words))
    if table is None:
        table = _NORMALIZED[id(words)] = {_norm(k): v for k, v in words.items()}
    return table


def _direction_code(phrase: str) -> str:
    key = _norm(phrase)
    if key.upper() in _COMPASS:
        return key.upper()
    if not _ALL_DIRECTIONS:
        for language in ("en", "es", "pt"):
            for word, code in direction_words(language).items():
                _ALL_DIRECTIONS[_norm(word)] = code
    return _ALL_DIRECTIONS[key]


@cache
def _condition_word_re(language: str) -> re.Pattern[str]:
    return compile_cached(rf"\b(?:{alternation(condition_words(language))})\b")


@cache
def grammar(language: str) -> Grammar:
    return Grammar(language)


def read_claims(text: str, language: str) -> list[Reading]:
    """All readings of ``text``, sorted by position."""
    return sorted(grammar(language).read(text), key=lambda r: (r.start, r.type))


def short_forecast_readings(short_forecast: str) -> list[Reading]:
    """Sky and conditions of an NWS ``shortForecast`` ("Chance Rain Showers then Mostly Sunny")."""
    return [r for r in read_claims(short_forecast, "en") if r.type in ("sky", "condition")]
