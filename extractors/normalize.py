"""Canonical forms of entity mentions, so "The Apple Inc." and "apple" compare equal.

One function, ``canonical_entity``, folds case, accents and whitespace, drops leading
articles, a trailing possessive 's and corporate suffixes, writes dates as ISO (``1964-10-13``, ``1964-10``; from "13 October 1964",
"October 13, 1964", "1964/10/13"),
times of day as ``HH:MM``, numbers without separators or trailing zeros, and money as
``<number> <currency code>``; an alias table maps remaining variants onto one name.
Lemmas are the parser's business: callers pass lemmatized text for common nouns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from factcov.language import alternation, fold, parse_number

ARTICLES = ("the ", "a ", "an ")
# Legal-form suffixes: "Apple Inc." and "Apple" name the same company.
CORPORATE_SUFFIXES = ("inc", "incorporated", "corp", "corporation", "ltd", "limited", "llc", "plc", "co", "gmbh", "ag", "sa")
MONTHS = {
    name: number
    for number, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
         ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
         ("october", "oct"), ("november", "nov"), ("december", "dec")],
        start=1,
    )
    for name in names
}
CURRENCIES = {
    "euro": "EUR", "euros": "EUR", "eur": "EUR", "€": "EUR",
    "dollar": "USD", "dollars": "USD", "usd": "USD", "$": "USD",
    "pound": "GBP", "pounds": "GBP", "gbp": "GBP", "£": "GBP",
    "yen": "JPY", "jpy": "JPY", "¥": "JPY",
}
_MONTH = "(" + alternation(MONTHS, trie=False) + r")\.?"  # flat, longest first: group 1 is the month
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_DATE_PATTERNS = (
    (re.compile(rf"^{_DAY}(?: of)? {_MONTH},? (\d{{3,4}})$"), ("day", "month", "year")),
    (re.compile(rf"^{_MONTH} {_DAY},? (\d{{3,4}})$"), ("month", "day", "year")),
    (re.compile(rf"^{_MONTH},? (\d{{3,4}})$"), ("month", "year")),
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$"), ("year", "month", "day")),
    (re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$"), ("year", "month", "day")),  # "2001/10/16"
)
_TIME = re.compile(r"^(\d{1,2})(?:[:.](\d{2}))? ?([ap])\.? ?m\.?$|^(\d{1,2})[:.](\d{2})$")
_NUMBER = re.compile(r"^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^[-+]?\d+(?:\.\d+)?$")


def _number_text(text: str) -> str | None:
    """'12,000' -> '12000', '5600.0' -> '5600', 'twelve' -> '12'; None if not a number."""
    text = text.strip()
    if _NUMBER.match(text):
        value = float(text.replace(",", ""))
        return str(int(value)) if value.is_integer() else repr(value)
    value = parse_number(text, "en")
    if value is not None and text.strip() not in ("a", "an"):
        return str(value)
    return None


def _date_text(text: str) -> str | None:
    for pattern, fields in _DATE_PATTERNS:
        match = pattern.match(text)
        if not match:
            continue
        parts = dict(zip(fields, match.groups()))
        month = parts["month"]
        month_number = int(month) if month.isdigit() else MONTHS[month]
        if not 1 <= month_number <= 12:
            return None
        if "day" not in parts:
            return f"{int(parts['year']):04d}-{month_number:02d}"
        day = int(parts["day"])
        if not 1 <= day <= 31:
            return None
        return f"{int(parts['year']):04d}-{month_number:02d}-{day:02d}"
    return None


def _time_text(text: str) -> str | None:
    match = _TIME.match(text)
    if not match:
        return None
    if match.group(4) is not None:
        hour, minute = int(match.group(4)), int(match.group(5))
    else:
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        if match.group(3) == "p" and hour < 12:
            hour += 12
        if match.group(3) == "a" and hour == 12:
            hour = 0
    if hour > 23 or minute > 59:
        return None
    return f"{hour:02d}:{minute:02d}"


def _money_text(text: str) -> str | None:
    match = re.match(r"^([€$£¥])\s?([\d.,]+)$", text) or re.match(r"^([\d.,]+)\s?([€$£¥]|[a-z]+)$", text)
    if not match:
        return None
    first, second = match.groups()
    amount, unit = (second, first) if first in "€$£¥" else (first, second)
    code = CURRENCIES.get(unit)
    number = _number_text(amount)
    if code is None or number is None:
        return None
    return f"{number} {code}"


@lru_cache(maxsize=131072)
def surface_fold(text: str) -> str:
    """Case, accents, quotes, underscores and whitespace folded; nothing else changed."""
    text = text.replace("_", " ").replace("\u2019", "'")
    text = re.sub(r"[\"“”«»]", " ", text)
    text = text.strip(" '.,;:!?()[]")
    return " ".join(fold(text).split())


def canonical_entity(text: str, aliases: Mapping[str, str] | None = None) -> str:
    """The canonical form two mentions of the same entity share (see module docstring)."""
    canonical = _canonical(text)
    if aliases:
        canonical = aliases.get(canonical, canonical)
    return canonical


@lru_cache(maxsize=131072)
def _canonical(text: str) -> str:
    """``canonical_entity`` before aliases (cached: the same names recur in every text)."""
    # Disambiguators and units in parentheses ("Lotus Eaters (band)", "185.0 (centimetres)").
    folded = surface_fold(re.sub(r"\s*\([^()]*\)\s*$", "", text.replace("_", " ")) or text)
    # A possessive belongs to the sentence, not the name: "Nicholas Brodszky's" names
    # Nicholas Brodszky (an NER span often takes the 's along).
    if folded.endswith("'s") and len(folded) > 3:
        folded = folded[:-2].rstrip()
    for article in ARTICLES:
        if folded.startswith(article) and len(folded) > len(article):
            folded = folded[len(article):]
            break
    for convert in (_date_text, _time_text, _money_text, _number_text):
        value = convert(folded)
        if value is not None:
            return value
    # "Alan B. Miller" = "Alan B Miller"; "William & Mary" = "William and Mary".
    folded = re.sub(r"(?<=[a-z])\.", "", folded).replace(" & ", " and ")
    words = folded.replace(",", " ").split()
    while len(words) > 1 and words[-1].rstrip(".") in CORPORATE_SUFFIXES:
        words.pop()
    return " ".join(words).rstrip(".")


def fold_aliases(aliases: Mapping[str, str] | None) -> dict[str, str]:
    """A user's alias table ({"Big Apple": "New York"}) with both sides in canonical form."""
    return {canonical_entity(k): canonical_entity(v) for k, v in (aliases or {}).items()}


_LITERAL = re.compile(r"^[-+]?\d[\d.:-]*(?: [A-Z]{3})?$")


def is_literal(canonical: str) -> bool:
    """Dates, times, numbers and money: compared exactly, never by partial name match.

    ("1634: the bavarian crisis" starts with a number but is a name.)"""
    return bool(_LITERAL.match(canonical))
