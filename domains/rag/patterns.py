"""Every regular expression the rag domain reads text with, declared once (issue 28).

The rag domain reads text through its parse; what it still matches by pattern is declared
here, and nowhere else in ``factcov.domains.rag`` (``tests/test_rag_patterns.py`` fails
on a pattern written in another module, or an alternation of words built by hand):

- **formatting** that is no content (citation markers, bullets and list markers,
  markdown headings, emphasis and code marks): rows of the engine's pattern table
  (``factcov.extractors.rules.PatternRules``), each declared once with ``Formatting.add``;
  each row's gate (the characters every match holds) is derived from its pattern, never
  listed by hand, so a text without a ``[`` is never scanned for citation markers;
- **token shapes**: numbers, ordinals, ranges, decimal values, dates and times, read
  from one token or one value (``fullmatch``), and the words of names and labels;
- **name sequences**: an entity's words in order, whatever separates them
  (``name_sequence``).

Word lists become patterns through the one alternation builder, ``factcov.language.alternation``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factcov.extractors.rules import PatternRules
from factcov.language import alternation

# -- token shapes -------------------------------------------------------------------------
ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")
_ORDINAL = alternation(ORDINAL_SUFFIXES, trie=False)
ORDINAL = re.compile(rf"(\d+)(?:{_ORDINAL})")  # "3rd": its number, group 1
ORDINAL_TO_31 = re.compile(rf"\d{{1,2}}(?:{_ORDINAL})")  # a day of a month ("21st")
DECIMAL = re.compile(r"\d+\.\d+")
SIGNED_DECIMAL = re.compile(r"-?\d+\.\d+")  # "3.16" (minutes) is a value, never a time of day
NUMBER_RANGE = re.compile(r"\d+(?:\.\d+)?[–-]\d+(?:\.\d+)?")  # "1844–1846": two values
RANGE_DASH = re.compile(r"[–-]")
ISO_DATE = re.compile(r"-?\d{1,4}-\d{2}(-\d{2})?")  # "1969-07-20", "1969-07"
CLOCK_TIME = re.compile(r"\d{2}:\d{2}")
NUMERIC_DATE = re.compile(r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4}")  # "20/07/1969", "1969.07.20"
DATE_SEPARATOR = re.compile(r"[/.\-]")
WORD = re.compile(r"[^\W_]+")  # letters and digits: a name's or a label's words
WORD_OR_VALUE = re.compile(r"[^\W_]+(?:[.,]\d+)?")  # "3.5" and "12,000" stay one word
WORD_OR_VALUES = re.compile(r"[^\W_]+(?:[.,]\d+)*")  # "1.234.567" stays one word
PARENTHESIZED = re.compile(r"\(([^()]*)\)")  # "(1956 film)": its text, group 1
# a predicate label's words: "birthPlace" -> birth place, "ISBN10" -> isbn 10, "UTCOffset" -> utc offset
LOWER_THEN_UPPER = re.compile(r"([a-z])([A-Z0-9])")
DIGIT_THEN_LETTER = re.compile(r"([0-9])([A-Za-z])")
CAPITALS_THEN_WORD = re.compile(r"([A-Z]+)([A-Z][a-z])")
LABEL_SEPARATOR = re.compile(r"[\s_/()\-]+")


# -- name sequences -----------------------------------------------------------------------
_NAME_SEPARATOR = r"(?:[\W_]+(?:and[\W_]+)?)"  # any run of non-word characters, "and" or "&" among them


def name_sequence(words: Sequence[str]) -> re.Pattern[str]:
    """``words`` in order as whole words, whatever separates them ("alan b. miller hall"
    for alan, b, miller, hall; "post-metal" for post, metal; "&" or "and" between them)."""
    return re.compile(r"(?<![^\W_])" + _NAME_SEPARATOR.join(map(re.escape, words)) + r"(?![^\W_])")


# -- formatting: what is no content ---------------------------------------------------------
class Formatting(PatternRules[str]):
    """Formatting marks, one row each (``add``), gates derived (``seal``); ``spans(text)``
    finds them as one alternation of the rows, in their order, would: leftmost first, the
    earlier row at one position, no two overlapping (tests/test_rag_patterns.py
    compares it with that alternation scanned at every position)."""

    def spans(self, text: str) -> list[tuple[int, int]]:
        opened = self.opened(text)
        found = sorted((m.start(), row, m.end()) for row, (pattern, _kind, gate) in enumerate(self)
                       if opened & gate == gate for m in pattern.finditer(text) if m.end() > m.start())
        out: list[tuple[int, int]] = []
        for start, _row, end in found:
            if not out or start >= out[-1][1]:
                out.append((start, end))
        return out


FORMATTING = Formatting()
FORMATTING.add(re.compile(r"\[\d+(?:[,–-]\s*\d+)*\]"), "citation")  # [1], [2, 3], [1-4]
FORMATTING.add(re.compile(r"^[ \t]*(?:[-*+•]|\d{1,2}[.)])[ \t]+", re.MULTILINE), "list marker")  # at a line start
FORMATTING.add(re.compile(r"^[ \t]*#{1,6}[ \t]+", re.MULTILINE), "heading")
FORMATTING.add(re.compile(r"\*{1,3}|_{2,3}|`+"), "emphasis")  # and code marks
FORMATTING.seal()
