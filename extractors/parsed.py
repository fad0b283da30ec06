"""A parser-neutral view of a parsed text: tokens, sentences and named-entity mentions.

spaCy and stanza fill the same structures, so the claim builders downstream never
import either library. Dependency labels keep the parser's own scheme (``scheme``:
``clear`` for spaCy's English models, ``ud`` for stanza); ``extractors.relations``
reads both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Token(NamedTuple):
    """One token. A named tuple rather than a frozen dataclass: a parse makes one per
    token, and a frozen dataclass's ``__init__`` costs ten times a tuple's."""

    i: int
    text: str
    lemma: str
    pos: str
    tag: str
    dep: str
    head: int  # index of the head token; the root points to itself
    start: int  # character offsets in the text
    end: int


@dataclass(frozen=True)
class Mention:
    """A named-entity span (token indices [start, end), characters [char_start, char_end))."""

    start: int
    end: int
    char_start: int
    char_end: int
    text: str
    label: str
    name: str | None = None  # set when the mention was found as a known entity's name


@dataclass
class ParsedText:
    text: str
    tokens: list[Token]
    sentences: list[tuple[int, int]]  # token index ranges [start, end)
    mentions: list[Mention]
    scheme: str = "clear"
    has_parse: bool = True
    children: dict[int, list[int]] = field(default_factory=dict)
    _kid_tokens: dict[int, list[Token]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The relation readers ask for a token's children a hundred thousand times a run:
        # kept as tokens, not only as indices.
        if self.children:
            self._kid_tokens = {i: [self.tokens[j] for j in kids] for i, kids in self.children.items()}
            return
        kid_tokens: dict[int, list[Token]] = {}
        for token in self.tokens:
            if token.head != token.i:
                found = kid_tokens.get(token.head)
                if found is None:
                    kid_tokens[token.head] = [token]
                else:
                    found.append(token)
        self._kid_tokens = kid_tokens
        self.children = {i: [t.i for t in kids] for i, kids in kid_tokens.items()}

    def kids(self, i: int, *deps: str) -> list[Token]:
        """Children of token ``i`` (with one of ``deps`` when given), in text order."""
        found = self._kid_tokens.get(i)
        if not found:
            return []
        if not deps:
            return list(found)
        return [t for t in found if t.dep in deps]

    def sentence_of(self, char: int) -> int:
        """Index of the sentence holding character offset ``char`` (the last one if past the end)."""
        for index, (start, end) in enumerate(self.sentences):
            if end > start and self.tokens[end - 1].end >= char:
                return index
        return max(len(self.sentences) - 1, 0)
