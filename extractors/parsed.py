"""A parser-neutral view of a parsed text: tokens, sentences and named-entity mentions.

spaCy and stanza fill the same structures, so the claim builders downstream never
import either library. Dependency labels keep the parser's own scheme (``scheme``:
``clear`` for spaCy's English models, ``ud`` for stanza); ``extractors.relations``
reads both.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Token:
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

    def __post_init__(self) -> None:
        if not self.children:
            for token in self.tokens:
                if token.head != token.i:
                    self.children.setdefault(token.head, []).append(token.i)

    def kids(self, i: int, *deps: str) -> list[Token]:
        """Children of token ``i`` (with one of ``deps`` when given), in text order."""
        found = [self.tokens[j] for j in self.children.get(i, ())]
        return [t for t in found if not deps or t.dep in deps]

    def sentence_of(self, char: int) -> int:
        """Index of the sentence holding character offset ``char`` (the last one if past the end)."""
        for index, (start, end) in enumerate(self.sentences):
            if end > start and self.tokens[end - 1].end >= char:
                return index
        return max(len(self.sentences) - 1, 0)
