"""A set of disjoint text spans with overlap tests in O(log n): extractors ask "is this
span already read?" once per match, and a list scanned each time made extraction
quadratic in the text's length (1 MB of text: minutes instead of a second)."""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Iterator


class SpanSet:
    """Half-open spans ``[start, end)`` that do not overlap one another."""

    def __init__(self, spans: list[tuple[int, int]] | None = None) -> None:
        ordered = sorted(spans or ())
        # spans that are already disjoint (mentions, matches of one scan: the usual case) are
        # taken as they are; otherwise each is added, an overlapping one dropped
        if all(start < end for start, end in ordered) and all(
            previous[1] <= following[0] for previous, following in zip(ordered, ordered[1:])
        ):
            self._spans: list[tuple[int, int]] = ordered
            return
        self._spans = []
        for start, end in ordered:
            self.add(start, end)

    def overlaps(self, start: int, end: int) -> bool:
        """True when ``[start, end)`` shares a character with a span in the set."""
        index = bisect_left(self._spans, (start, start))
        if index < len(self._spans) and self._spans[index][0] < end:
            return True
        return index > 0 and self._spans[index - 1][1] > start

    def covers(self, position: int) -> bool:
        """True when ``position`` lies inside a span (``start <= position < end``)."""
        return self.overlaps(position, position + 1)

    def add(self, start: int, end: int) -> bool:
        """Add the span unless it overlaps one already there; True when added."""
        if self.overlaps(start, end):
            return False
        insort(self._spans, (start, end))
        return True

    def __len__(self) -> int:
        return len(self._spans)


# A "sentence" longer than this is no sentence a model writes (they run to a few hundred
# characters); cutting it bounds the work of rules that look across a sentence.
MAX_SENTENCE_CHARS = 2000


def bounded_sentence_ends(text: str, sentence_end: re.Pattern[str], limit: int = MAX_SENTENCE_CHARS) -> list[int]:
    """End offsets of the sentences of ``text`` (``sentence_end`` matches a sentence's last
    characters), a sentence longer than ``limit`` cut at its last space before the limit."""
    ends = list(map(_END, sentence_end.finditer(text)))  # increasing: a sentence end takes a character
    if len(text) <= limit:  # no sentence to cut (the usual text): the ends found, and the text's end
        if text and (not ends or ends[-1] != len(text)):
            ends.append(len(text))
        return ends
    return list(_cut_sentence_ends(text, [*ends, len(text)], limit))


_END = re.Match.end


def _cut_sentence_ends(text: str, ends: list[int], limit: int) -> Iterator[int]:
    start = 0
    for end in ends:
        while end - start > limit:
            cut = text.rfind(" ", start + limit // 2, start + limit)
            cut = cut + 1 if cut != -1 else start + limit
            yield cut
            start = cut
        if end > start:
            yield end
            start = end
