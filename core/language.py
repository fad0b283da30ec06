"""Language helpers every regex grammar needs: accents, number words, ordinals (en, es, pt), and
``alternation``, the one builder of "any of these words"."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

LANGUAGES = ("en", "es", "pt")

_UNITS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty",
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce "
    "quince dieciseis diecisiete dieciocho diecinueve veinte",
    "pt": "zero um dois tres quatro cinco seis sete oito nove dez onze doze treze catorze "
    "quinze dezesseis dezessete dezoito dezenove vinte",
}
_TENS = {
    "en": {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90},
    "es": {"treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90},
    "pt": {"trinta": 30, "quarenta": 40, "cinquenta": 50, "sessenta": 60, "setenta": 70, "oitenta": 80, "noventa": 90},
}
_EXTRA = {
    "en": {"a": 1, "an": 1, "single": 1, "once": 1, "twice": 2, "thrice": 3, "hundred": 100, "a hundred": 100},
    "es": {"un": 1, "una": 1, "veintiuno": 21, "veintidos": 22, "veintitres": 23, "veinticuatro": 24,
           "veinticinco": 25, "veintiseis": 26, "veintisiete": 27, "veintiocho": 28, "veintinueve": 29,
           "cien": 100, "ciento": 100},
    "pt": {"uma": 1, "duas": 2, "dezasseis": 16, "dezassete": 17, "dezanove": 19, "cem": 100},
}
_ORDINALS = {
    "en": "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth",
    "es": "primero segundo tercero cuarto quinto sexto septimo octavo noveno decimo undecimo duodecimo "
    "decimotercero decimocuarto decimoquinto decimosexto decimoseptimo decimoctavo decimonoveno vigesimo",
    "pt": "primeiro segundo terceiro quarto quinto sexto setimo oitavo nono decimo decimo-primeiro "
    "decimo-segundo decimo-terceiro decimo-quarto decimo-quinto decimo-sexto decimo-setimo decimo-oitavo "
    "decimo-nono vigesimo",
}


def strip_accents(text: str) -> str:
    """'entró' -> 'entro'; lengths are kept for precomposed input, so spans stay valid."""
    return "".join(
        c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn"
    )


class _FoldTable(dict):
    """``str.translate`` table filled on first sight of each character: one char -> one char."""

    def __missing__(self, codepoint: int) -> str:
        char = chr(codepoint)
        base = strip_accents(char) or char
        self[codepoint] = folded = base.lower()[:1] or char
        return folded


_FOLD_TABLE = _FoldTable()


_RUNS = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")


def _latin1_table() -> bytes | None:
    """``_FOLD_TABLE`` for the 256 Latin-1 characters, as a ``bytes.translate`` table
    (None if one of them folded outside Latin-1: then no text takes that way)."""
    folded = [ord(chr(code).translate(_FOLD_TABLE)) for code in range(256)]
    return bytes(folded) if max(folded) < 256 else None


# Spanish and Portuguese prose ("começou", "médios", "posición") is Latin-1 throughout:
# folded as bytes through one table, in C, instead of run by run through the mapping
_LATIN1_FOLD = _latin1_table()


def fold(text: str) -> str:
    """Case- and accent-insensitive form for matching words; always the same length as
    ``text``, so a match's span in the folded text is its span in the original."""
    if text.isascii():
        return text.lower()
    if _LATIN1_FOLD is not None:
        try:
            return text.encode("latin-1").translate(_LATIN1_FOLD).decode("latin-1")
        except UnicodeEncodeError:  # a character past Latin-1 ("’", "–"): by runs
            pass
    # The table maps an ASCII character to its lower case, as ``str.lower`` does, so only
    # the non-ASCII runs go through ``translate``, which looks each character up in
    # Python's mapping protocol (a Spanish forecast: 9 µs whole, 4 µs by runs).
    return "".join([run.lower() if run.isascii() else run.translate(_FOLD_TABLE) for run in _RUNS.findall(text)])


@cache
def number_words(language: str) -> dict[str, int]:
    """Cardinal words (accent-folded) -> value, 0..99, for one language."""
    words: dict[str, int] = {w: i for i, w in enumerate(_UNITS[language].split())}
    tens = _TENS[language]
    words.update(tens)
    words.update(_EXTRA[language])
    joiner = {"en": "-", "es": " y ", "pt": " e "}[language]
    units = _UNITS[language].split()
    for word, value in tens.items():
        for unit in range(1, 10):
            words[f"{word}{joiner}{units[unit]}"] = value + unit
            if language == "en":
                words[f"{word} {units[unit]}"] = value + unit
    if language == "en":
        for unit in range(1, 10):
            words[f"twenty-{units[unit]}"] = 20 + unit
            words[f"twenty {units[unit]}"] = 20 + unit
    if language == "pt":
        for unit in range(1, 10):
            words[f"vinte e {units[unit]}"] = 20 + unit
    return words


@cache
def ordinal_words(language: str) -> dict[str, int]:
    """Ordinal words (accent-folded, all genders) -> value, 1..20."""
    words: dict[str, int] = {}
    for index, word in enumerate(_ORDINALS[language].split(), start=1):
        words[word] = index
        if language in ("es", "pt") and word.endswith("o"):
            words[word[:-1] + "a"] = index
            words[word[:-1] + "os"] = index
            words[word[:-1] + "as"] = index
    if language == "es":
        words.update({"primer": 1, "tercer": 3})
    return words


def alternation(words: Iterable[str], *, space: str = r"\s+", hyphen: str | None = None, trie: bool = True) -> str:
    """One regular expression for "any of ``words``", longer words tried first.

    Each word is escaped, its spaces written ``space`` and, when ``hyphen`` is given (flat
    form only), its hyphens written ``hyphen`` (weather's "north-east" is ``north[\\s-]?east``).
    No group is added: wrap it in ``(?:...)`` where needed.

    ``trie=True`` (the default) writes the words as a trie: it matches exactly what the flat
    alternation matches, in the same order of preference (the words that match at one
    position are prefixes of one another, and the trie tries the longer first), but a
    position is rejected after a character or two instead of after trying every word, which
    makes a scan for a lexicon of a hundred names several times faster. ``trie=False``
    writes the flat alternation, ``"|".join`` of the words sorted longest first (ties in
    the order given), for a caller that reads the alternatives back (``pattern.split("|")``).
    """
    if not trie:
        return "|".join(_written(word, space, hyphen) for word in sorted(words, key=len, reverse=True))
    if hyphen is not None:  # "a b" and "a-b" would both match "a-b": the trie's order would not be the flat one's
        raise ValueError("alternation: hyphen is for the flat form (trie=False)")
    return _trie(tuple(sorted(set(words))), space)


def _written(word: str, space: str, hyphen: str | None) -> str:
    return "".join(_piece(char, space, hyphen) for char in word)


def _piece(char: str, space: str, hyphen: str | None) -> str:
    if char == " ":
        return space
    if char == "-" and hyphen is not None:
        return hyphen
    return _escaped(char)


@lru_cache(maxsize=4096)
def _escaped(char: str) -> str:
    return re.escape(char)


@lru_cache(maxsize=1024)
def _trie(words: tuple[str, ...], space: str) -> str:
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here

    def branch(node: dict[str, dict]) -> str:
        paths = []
        for char in sorted(node):
            if not char:
                continue
            path, child = _piece(char, space, None), node[char]
            while len(child) == 1 and "" not in child:  # a chain without a choice: written as is
                (char, child), = child.items()
                path += _piece(char, space, None)
            paths.append(path + branch(child))
        if not paths:
            return ""
        if len(paths) == 1 and "" not in node:
            return paths[0]
        # a word ending here is tried last: longer words first, as in the sorted alternation
        return "(?:" + "|".join(paths) + ("|" if "" in node else "") + ")"

    return branch(trie)


@cache
def number_pattern(language: str) -> str:
    """Regex (no groups) for a cardinal as digits or words, to match on ``fold``-ed text."""
    # "18,432", "18.432", "1,234,567.5", "18 432" whole (parse_number reads each as its
    # language writes it), then plain digits with at most one separator
    grouped = r"\d{1,3}(?:[.,\u00a0\u202f ]\d{3})+(?:[.,]\d+)?(?![\d.,]\d)"
    return rf"(?:{grouped}|\d+(?:[.,]\d+)?|\b(?:{alternation(number_words(language), trie=False)})\b)"


@cache
def ordinal_pattern(language: str) -> str:
    """Regex for an ordinal: words, '2nd', '2º', '2.ª', '2o', 'P2' (fold-ed text)."""
    suffix = {"en": r"(?:st|nd|rd|th)", "es": r"(?:\.?[ºoª]|\.?[ºª]s?)", "pt": r"(?:\.?[ºoª]s?)"}[language]
    return rf"(?:\bp\d{{1,2}}\b|\b\d{{1,2}}{suffix}|\b(?:{alternation(ordinal_words(language), trie=False)})\b)"


# Thousands and decimal separators by language: English writes 18,432 and 1.5; Spanish and
# Portuguese write 18.432 and 1,5. Either writes 18 432 (a space, often a no-break one).
_DECIMAL = {"en": ".", "es": ",", "pt": ","}
_GROUP_SPACES = re.compile(r"(?<=\d)[ \u00a0\u202f](?=\d{3}(?:\D|$))")


def parse_number(text: str, language: str) -> float | int | None:
    """'13' -> 13, 'thirteen' -> 13, 'treze' -> 13; separators as the language writes them:
    '18,432' (en), '18.432' (es, pt) and '18 432' -> 18432, '1.5' (en) and '1,5' (es, pt)
    -> 1.5. A separator followed by other than three digits can only be a decimal one
    ('1,5' in English is 1.5); None if not a number."""
    folded = " ".join(_GROUP_SPACES.sub("", fold(text)).split())
    if re.fullmatch(r"\d+", folded):
        return int(folded)
    if re.fullmatch(r"\d+(?:[.,]\d+)+", folded):
        return _digits_value(folded, language)
    return number_words(language).get(folded)


def parse_amount(text: str, language: str, *, below: float) -> float | int | None:
    """``parse_number`` for an amount known to stay under ``below`` (seconds gained in a pit
    window): when the language's own reading is not under it and the other convention's is,
    the text used the other convention, as models often do ('1.534 segundos', English decimals
    in Spanish; '1,534 seconds' the other way), and that reading is taken."""
    value = parse_number(text, language)
    if value is None or value < below:
        return value
    other = parse_number(text, "es" if _DECIMAL.get(language, ".") == "." else "en")
    return other if other is not None and other < below else value


@cache
def _digit_forms(language: str) -> tuple[re.Pattern[str], re.Pattern[str], str, str]:
    decimal = _DECIMAL.get(language, ".")
    group = "," if decimal == "." else "."
    d, g = re.escape(decimal), re.escape(group)
    # a leading 0 makes no thousands group ('0.345' in Spanish is a decimal written the English way)
    grouped = re.compile(rf"[1-9]\d{{0,2}}(?:{g}\d{{3}})+(?:{d}\d+)?|\d+{d}\d+")
    other_mark = re.compile(rf"\d+{g}\d+")  # '1,5' in English: not a thousands group
    return grouped, other_mark, decimal, group


def _digits_value(text: str, language: str) -> float | int | None:
    """'18,432' -> 18432 and '1,234.5' -> 1234.5 in English; None for '1.2.3'."""
    grouped, other_mark, decimal, group = _digit_forms(language)
    if grouped.fullmatch(text):
        whole, _, fraction = text.replace(group, "").partition(decimal)
        return float(f"{whole}.{fraction}") if fraction else int(whole)
    if other_mark.fullmatch(text):
        return float(text.replace(group, "."))
    return None


def parse_ordinal(text: str, language: str) -> int | None:
    """'2nd', 'second', 'P2', 'segundo', '2º', 'segunda' -> 2."""
    folded = " ".join(fold(text).split())
    match = re.fullmatch(r"p?(\d{1,2})\D*", folded)
    if match:
        return int(match.group(1))
    return ordinal_words(language).get(folded)


@dataclass(frozen=True)
class Lexicon:
    """Folded names -> canonical value, and canonical values that may be written as such.

    ``names`` maps a folded name (``"max verstappen"``, ``"verstappen"``) to its value
    (``"VER"``); ``written`` are values accepted when the original text spells them
    exactly (codes in capitals), matched by ``written_pattern`` on the folded text
    (default: the folded values themselves).
    """

    names: Mapping[str, str]
    written: Collection[str] = ()
    written_pattern: str | None = None

    @cached_property
    def pattern(self) -> str:
        """One alternation of every name, longest first (so "max verstappen" beats "verstappen")."""
        names = alternation(self.names, space=" ")  # a trie: the same matches, found faster
        literal = self.written_pattern or "|".join(re.escape(fold(w)) for w in sorted(self.written, key=len, reverse=True))
        return r"\b(?:" + "|".join(a for a in (names, literal) if a) + r")\b"

    @property
    def compiled(self) -> re.Pattern[str]:
        """``pattern`` compiled (a space matching any run of whitespace), as ``find`` uses it."""
        return _compiled(self.pattern)

    def resolve(self, folded_name: str, original: str) -> str | None:
        """The value a matched name stands for (None: a word that only looked like a name)."""
        value = self.names.get(" ".join(folded_name.split()))
        if value is not None:
            return value
        return original if original in self.written else None

    def find(self, folded: str, text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[str, tuple[int, int]]]:
        """(value, span) of each name in ``text[start:end]``, in text order."""
        for match in self.compiled.finditer(folded, start, len(folded) if end is None else end):
            value = self.resolve(match.group(), text[match.start() : match.end()])
            if value is not None:
                yield value, match.span()


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> re.Pattern[str]:  # Lexicon's
    return re.compile(pattern.replace(" ", r"\s+"))
