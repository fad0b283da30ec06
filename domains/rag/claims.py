"""Entity and relation claims from a parsed text, linked to the entities of the instance.

Entities: named-entity mentions (spaCy/stanza NER, a number followed by a currency
joined into money) plus mentions of the instance's own entities found by name (the
extractor is instance-aware, as the core's interface intends). Each has a canonical
name (``factcov.extractors.normalize``). A mention is linked to a known entity when the
canonical names are equal, an alias maps one onto the other, or the words of one are
contained in the other's ("Coaracy da Mata Fonseca" names "Estádio Municipal Coaracy
da Mata Fonseca") and no other known entity competes.

Relations: the parse's (subject, predicate lemma, object) triples with both arguments
named as above. Predicates are then linked to the instance's relations: when the
instance relates the same two entities (either way round) the claim takes that
relation's predicate when the text's predicate is a verb (verbs paraphrase freely) or a
relational noun sharing a stem with it (``is_nominal``); otherwise a predicate sharing a
content-word stem with exactly one of the subject's relations ("locate in" and
``location``) takes that predicate, so a wrong object is a contradiction.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from factcov.domains.rag.lexicon import default_lexicon, label_words
from factcov.domains.rag.patterns import WORD, name_sequence
from factcov.extractors.normalize import canonical_entity, is_literal, surface_fold
from factcov.extractors.parsed import Mention, ParsedText
from factcov.extractors.relations import triples
from factcov.language import fold
from factcov.model import Claim, ClaimType, Fact

ENTITY = "entity"
RELATION = "relation"
ENTITY_TYPE = ClaimType(
    name=ENTITY,
    description="A named entity, date, time, number or amount the text mentions (canonical name).",
    key_slots=("name",),
    value_kind="str",
    closed_world=False,
    templates={"en": "We note {value}."},
)
RELATION_TYPE = ClaimType(
    name=RELATION,
    description="A (subject, predicate lemma, object) triple from the dependency parse.",
    key_slots=("subject", "predicate", "object"),
    value_kind="str",
    closed_world=True,
    templates={"en": "{subject} {predicate} {value}."},
)
SKIPPED_LABELS = {"ORDINAL"}
STOP = {"of", "in", "on", "at", "by", "for", "to", "from", "with", "be", "have", "the", "a", "an", "is", "has"}
# Predicate words that share no stem with the KG predicate they express.
SYNONYMS = {"bear": "birth", "die": "death", "bury": "burial", "lead": "leader", "write": "author",
            "play": "club", "direct": "director", "star": "starring", "own": "owner", "run": "operator",
            "serve": "service", "home": "ground", "compete": "league", "speak": "language",
            "establish": "founding", "found": "founding", "open": "opening"}


@lru_cache(maxsize=65536)
def predicate_stems(predicate: str) -> frozenset[str]:
    """Content-word stems of a predicate: 'birthPlace' -> {'birt', 'plac'}; 'bear in' -> {'birt'};
    'iso6392Code' -> {'iso', '6392', 'code'} (camelCase split after a digit too).

    Cached: linking a triple compares its predicate with each of the instance's."""
    return frozenset(SYNONYMS.get(w, w)[:4] for w in label_words(predicate) if w not in STOP and len(w) > 2)


def is_nominal(predicate: str) -> bool:
    """A predicate that names the relation with a noun ("be capital of", "have genre").

    A verb paraphrases freely ("serves", "plays for"); a relational noun says which
    relation it means, so it is linked only to a relation it shares a stem with.
    """
    words = predicate.split()
    return (words[0] == "be" and len(words) >= 3) or (words[0] == "have" and len(words) >= 2)


@dataclass
class InstanceIndex:
    """What the instance knows: entity names, and relations by argument pair and subject."""

    entities: set[str] = field(default_factory=set)  # entity facts and relation arguments
    named: set[str] = field(default_factory=set)  # entity facts only
    by_first_word: dict[str, list[str]] = field(default_factory=dict)
    pairs: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    predicates_of: dict[str, set[str]] = field(default_factory=dict)
    known_keys: set[tuple[str, str]] = field(default_factory=set)
    aliases: Mapping[str, str] = field(default_factory=dict)
    surfaces: Mapping[str, str] = field(default_factory=dict)
    _patterns: list[tuple[str, NamePattern]] | None = None
    _literal_first: dict[str, list[str]] | None = None

    @classmethod
    def of(
        cls, facts: Iterable[Fact], aliases: Mapping[str, str] | None = None,
        surfaces: Mapping[str, str] | None = None,
    ) -> InstanceIndex:
        index = cls(aliases=aliases or {}, surfaces=surfaces or {})
        pairs: dict[tuple[str, str], list[str]] = defaultdict(list)
        predicates: dict[str, set[str]] = defaultdict(set)
        for fact in facts:
            if fact.type == ENTITY:
                index.entities.add(str(fact.key["name"]))
                index.named.add(str(fact.key["name"]))
            elif fact.type == RELATION:
                subject, predicate, obj = (str(fact.key[s]) for s in ("subject", "predicate", "object"))
                pairs[(subject, obj)].append(predicate)
                predicates[subject].add(predicate)
                index.known_keys.add((subject, predicate))
                index.entities.update((subject, obj))
        index.pairs, index.predicates_of = dict(pairs), dict(predicates)
        first: dict[str, list[str]] = defaultdict(list)
        for name in index.entities:
            if name:
                first[name.split()[0]].append(name)
        # Dates and amounts are found by how the text wrote them ("3 May 2025"), not by
        # their canonical form ("2025-05-03").
        for name, surface in (surfaces or {}).items():
            words = surface_fold(surface).split()
            if name in index.entities and words:
                start = words[1] if words[0] in ("the", "a", "an") and len(words) > 1 else words[0]
                if name not in first[start]:
                    first[start].append(name)
        index.by_first_word = dict(first)
        return index

    def patterns(self) -> list[tuple[str, NamePattern]]:
        """(name, pattern) pairs of the non-literal known entities (built once per index).

        A name written with a qualifier after a comma ("La Crosse, Wisconsin") is also
        found by its head alone ("La Crosse"), unless that head is another entity's name
        or the start of two of them.
        """
        if self._patterns is None:
            found = []
            heads: dict[str, list[str]] = defaultdict(list)
            for name in sorted(self.entities):
                if is_literal(name):
                    continue
                found.append((name, _name_pattern(name)))
                head = canonical_entity(self.surfaces.get(name, "").split(",")[0])
                if head and head != name and "," in self.surfaces.get(name, "") and not is_literal(head):
                    heads[head].append(name)
            for head, names in sorted(heads.items()):
                if len(names) == 1 and head not in self.entities:
                    found.append((names[0], _name_pattern(head)))
            self._patterns = [(name, p) for name, p in found if p is not None]
        return self._patterns

    def literal_by_first_word(self) -> dict[str, list[str]]:
        """``by_first_word`` for the literal entities (dates, amounts) only (built once per index)."""
        if self._literal_first is None:
            self._literal_first = {}
            for word, names in self.by_first_word.items():
                literal = [name for name in names if is_literal(name)]
                if literal:
                    self._literal_first[word] = literal
        return self._literal_first

    def link(self, name: str, partial: bool = True) -> str:
        """The known entity a canonical name refers to, or the name itself.

        ``partial``: allow the word-containment match (names, not common-noun phrases:
        "harbour" must not become "Harbour Light Museum").
        """
        name = self.aliases.get(name, name)
        if name in self.entities or not name or is_literal(name):
            return name
        number = name.split()[0]
        if is_literal(number) and number in self.entities:
            return number  # "98 minutes" states the known runtime 98
        if not partial:
            return name
        words = set(name.split()) - STOP
        if not words:
            return name
        best: list[tuple[int, str]] = []
        for known in self.entities:
            if is_literal(known):
                continue
            known_words = set(known.split()) - STOP
            if known_words and (words <= known_words or known_words <= words):
                best.append((len(words & known_words), known))
        if not best:
            return name
        best.sort(reverse=True)
        if len(best) > 1 and best[0][0] == best[1][0]:
            return name  # ambiguous: two known entities compete
        return best[0][1]

    def predicate_for(self, subject: str, predicate: str, obj: str) -> tuple[str, str, str]:
        """Link a text's triple onto the instance's relations (see module docstring)."""
        for first, second in ((subject, obj), (obj, subject)):
            candidates = self.pairs.get((first, second))
            if candidates and (not is_nominal(predicate) or any(
                    predicate_stems(predicate) & predicate_stems(p) for p in candidates)):
                return first, self._closest(predicate, candidates), second
        if (subject, predicate) in self.known_keys:
            return subject, predicate, obj
        stems = predicate_stems(predicate)
        matching = sorted(p for p in self.predicates_of.get(subject, ()) if stems & predicate_stems(p))
        if len(matching) == 1:
            return subject, matching[0], obj
        return subject, predicate, obj

    @staticmethod
    def _closest(predicate: str, candidates: list[str]) -> str:
        if predicate in candidates:
            return predicate
        stems = predicate_stems(predicate)
        return max(sorted(candidates), key=lambda p: len(stems & predicate_stems(p)))


def _money_joined(parsed: ParsedText, mentions: list[Mention]) -> list[Mention]:
    """'12' (CARDINAL) + 'euros' -> one MONEY mention '12 euros'."""
    out = []
    for mention in mentions:
        if mention.label in ("CARDINAL", "MONEY", "QUANTITY") and mention.end < len(parsed.tokens):
            following = parsed.tokens[mention.end]
            if canonical_entity(f"1 {following.text}").endswith(("EUR", "USD", "GBP", "JPY")):
                mention = Mention(mention.start, mention.end + 1, mention.char_start, following.end,
                                  parsed.text[mention.char_start:following.end], "MONEY")
        out.append(mention)
    return out


@dataclass(frozen=True)
class NamePattern:
    """A name's words in order, whatever separates them ("Alan B. Miller Hall" finds
    "alan b miller hall"; "post-metal" finds "post metal"; "&" finds "and").

    Every match starts with the first word and holds the longest one: ``finditer``
    tries the pattern only where the first word occurs, after a substring test for the
    longest (a pattern opening with a look-behind is otherwise tried at every character).
    """

    pattern: re.Pattern[str]
    first: str
    longest: str

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text)``: the same matches, found from the first word's occurrences."""
        if self.longest not in text:
            return
        at = text.find(self.first)
        while at >= 0:
            match = self.pattern.match(text, at)  # the look-behind still sees text[at - 1]
            if match:
                yield match
                at = text.find(self.first, match.end())
            else:
                at = text.find(self.first, at + 1)


@lru_cache(maxsize=65536)
def _name_pattern(name: str) -> NamePattern | None:
    words = [w for w in WORD.findall(name) if w != "and"]
    if not words:
        return None
    return NamePattern(name_sequence(words), words[0], max(words, key=len))


def _with_parenthesis(parsed: ParsedText, last: int) -> int:
    """Extend a name over a parenthesized disambiguator right after it
    ("It's Great to Be Young (1956 film)"): the parse hangs words of the name there."""
    tokens = parsed.tokens
    if last + 2 < len(tokens) and tokens[last + 1].text == "(":
        for j in range(last + 2, min(len(tokens), last + 8)):
            if tokens[j].text == ")":
                return j
    return last


def _known_mentions(parsed: ParsedText, index: InstanceIndex) -> list[Mention]:
    """Spans of the text that name one of the instance's entities.

    Names are found in the case- and accent-folded text; dates and amounts by how the
    reference wrote them (their canonical form never appears in text).
    """
    found = []
    tokens = parsed.tokens
    if not tokens:
        return found
    folded = fold(parsed.text)
    ends = [t.end for t in tokens]
    starts = [t.start for t in tokens]
    for name, pattern in index.patterns():
        for match in pattern.finditer(folded):
            first = bisect_right(ends, match.start())  # the first token ending after the match starts
            last = bisect_left(starts, match.end()) - 1  # the last token starting before it ends
            last = _with_parenthesis(parsed, last)
            found.append(Mention(first, last + 1, tokens[first].start, tokens[last].end,
                                 parsed.text[tokens[first].start:tokens[last].end], "KNOWN", name))
    # A token whose folded surface is a word w has w in its stretch of the folded text
    # (folding keeps lengths, and w holds no space); only a word with an apostrophe (a
    # folded "’") may not. So only the tokens where such a word occurs are looked at.
    literal_first = {word: names for word, names in index.literal_by_first_word().items()
                     if word in folded or "'" in word}
    if not literal_first:
        return found
    for i in _tokens_holding(literal_first, folded, ends):
        token = tokens[i]
        for name in literal_first.get(surface_fold(token.text), ()):
            length = len(name.split())
            for end in range(i + 1, min(len(tokens), i + length + 3) + 1):
                text = parsed.text[tokens[i].start:tokens[end - 1].end]
                if canonical_entity(text, index.aliases) == name:
                    found.append(Mention(i, end, tokens[i].start, tokens[end - 1].end, text, "KNOWN", name))
                    break
    return found


def _tokens_holding(words: Iterable[str], folded: str, ends: list[int]) -> list[int]:
    """Indices (ascending) of the tokens where one of ``words`` occurs in ``folded``; every
    token when a word has an apostrophe."""
    if any("'" in word for word in words):
        return list(range(len(ends)))
    found = set()
    for word in words:
        at = folded.find(word)
        while at >= 0:
            found.add(bisect_right(ends, at))  # the token ending after the occurrence starts
            at = folded.find(word, at + 1)
    return sorted(i for i in found if i < len(ends))


def mentions_of(parsed: ParsedText, index: InstanceIndex) -> list[Mention]:
    """Named and known-entity mentions, overlaps resolved in favour of the longer span."""
    candidates = _known_mentions(parsed, index) + _money_joined(
        parsed, [m for m in parsed.mentions if m.label not in SKIPPED_LABELS]
    )
    candidates.sort(key=lambda m: (-(m.end - m.start), m.start))
    taken: set[int] = set()
    chosen = []
    for mention in candidates:
        span = set(range(mention.start, mention.end))
        if span & taken:
            continue
        if mention.label == "CARDINAL" and mention.text.lower() in ("one", "a", "an"):
            continue
        taken |= span
        chosen.append(mention)
    return sorted(chosen, key=lambda m: m.start)


def _phrase(parsed: ParsedText, i: int) -> str:
    """A noun phrase for a token outside any mention: its compounds and modifiers + lemma."""
    token = parsed.tokens[i]
    parts = [t for t in parsed.kids(i, "compound", "amod", "nummod", "flat") if t.i < i] + [token]
    # A name keeps its words as written ("Quine Tapes"); a common noun phrase is lemmatized.
    proper = any(t.pos == "PROPN" for t in parts)
    return " ".join(t.text if proper or t.pos == "NUM" else t.lemma for t in parts)


def _argument_name(parsed: ParsedText, i: int, index: InstanceIndex, name_of_token: dict[int, str]) -> str:
    """A relation argument outside any mention: its noun phrase, linked when possible.

    A counted phrase whose number is a known entity names that number ("2,900 staff
    members" states the known ``2900``).
    """
    # "the album Turn Me On", "the band Train", "a player, Aleksandr Prudnikov": a common
    # noun right before (or in apposition to) a known name stands for that name.
    token = parsed.tokens[i]
    if token.pos == "NOUN":
        for neighbour in [t.i for t in parsed.kids(i, "appos")] + [i + 1]:
            if neighbour in name_of_token:
                return name_of_token[neighbour]
    phrase = _phrase(parsed, i)
    proper = parsed.tokens[i].pos == "PROPN" or any(t.pos == "PROPN" for t in parsed.kids(i, "compound", "flat"))
    name = index.link(canonical_entity(phrase, index.aliases), partial=proper)
    if name in index.entities:
        return name
    for number in parsed.kids(i, "nummod"):
        known = name_of_token.get(number.i) or canonical_entity(number.text)
        if known in index.entities:
            return known
    return name


def _names_an_entity(parsed: ParsedText, i: int, name: str, index: InstanceIndex,
                     name_of_token: dict[int, str]) -> bool:
    """Whether a relation's object is an entity: a mention, a known entity, a literal or a
    proper noun. Relations hold between entities; a common-noun object states a class or
    a thing the data has no name for, which no fact set can check."""
    return (i in name_of_token or name in index.entities or is_literal(name)
            or parsed.tokens[i].pos in ("PROPN", "NUM"))


def extract_claims(parsed: ParsedText, index: InstanceIndex, extractor: str) -> list[Claim]:
    """Entity claims (one per distinct entity) then relation claims (one per distinct triple)."""
    mentions = mentions_of(parsed, index)
    name_of_token: dict[int, str] = {}
    claims: list[Claim] = []
    seen: set[str] = set()
    for mention in mentions:
        name = mention.name or index.link(canonical_entity(mention.text, index.aliases))
        if not name:
            continue
        for i in range(mention.start, mention.end):
            name_of_token[i] = name
        if mention.label == "KNOWN" and name not in index.named:
            continue  # a relation argument the reference names, not a named entity
        if name not in seen:
            seen.add(name)
            claims.append(Claim(type=ENTITY, key={"name": name}, value=name,
                                span=(mention.char_start, mention.char_end), text=mention.text,
                                extractor=extractor))
    stated: set[tuple[str, str, str]] = set()
    if not parsed.has_parse:
        claims.extend(_cooccurring_relations(parsed, mentions, name_of_token, index, extractor))
        return claims
    for triple in triples(parsed):
        names = []
        for i in (triple.subject, triple.object):
            names.append(name_of_token.get(i) or _argument_name(parsed, i, index, name_of_token))
        subject, obj = names
        if not subject or not obj or subject == obj:
            continue
        if not _names_an_entity(parsed, triple.object, obj, index, name_of_token):
            continue  # "X is a song", "Y leaves the harbour": a class or a thing, not an entity
        subject, predicate, obj = index.predicate_for(subject, triple.predicate, obj)
        if (subject, predicate, obj) in stated:
            continue
        stated.add((subject, predicate, obj))
        first, last = sorted((triple.subject, triple.object))
        start, end = parsed.tokens[first].start, parsed.tokens[last].end
        claims.append(Claim(type=RELATION, key={"subject": subject, "predicate": predicate}, value=obj,
                            span=(start, end), text=parsed.text[start:end], extractor=extractor))
    claims.extend(_worded_relations(parsed, mentions, name_of_token, index, stated, extractor))
    return claims


ADJACENT_GAP = 5  # tokens between two mentions read as one phrase
OPENING = 3  # a fronted phrase before the first mention ("Born in England, ...")


def _worded_relations(parsed: ParsedText, mentions: list[Mention], name_of_token: dict[int, str],
                      index: InstanceIndex, stated: set[tuple[str, str, str]], extractor: str) -> list[Claim]:
    """Relations between two nearby mentions whose connecting words word the predicate
    (``lexicon``), for the phrases a parse gets wrong: a title-like name ("It's Great to
    Be Young (1956 film) starred Cecil Parker"), a fronted participle ("Born in England,
    Brandon Carter, ..."), "X's background is Y" read as a progressive verb. Only
    relations the instance has are read, so this finds support, never a contradiction."""
    lexicon = default_lexicon()
    claims: list[Claim] = []
    for start, end in parsed.sentences:
        inside = [m for m in mentions if start <= m.start < end]
        for a, b in zip(inside, inside[1:]):
            if b.start - a.end > ADJACENT_GAP:
                continue
            first, second = name_of_token.get(a.start, ""), name_of_token.get(b.start, "")
            words = [t.text for t in parsed.tokens[a.end:b.start]]
            if a.start - start <= OPENING:
                words += [t.text for t in parsed.tokens[start:a.start]]
            for subject, obj in ((first, second), (second, first)):
                for predicate in index.pairs.get((subject, obj), ()):
                    if (subject, predicate, obj) in stated or lexicon.evidence(predicate, words) < 0.5:
                        continue
                    stated.add((subject, predicate, obj))
                    claims.append(Claim(type=RELATION, key={"subject": subject, "predicate": predicate}, value=obj,
                                        span=(a.char_start, b.char_end), text=parsed.text[a.char_start:b.char_end],
                                        extractor=extractor))
    return claims


def _cooccurring_relations(parsed: ParsedText, mentions: list[Mention], name_of_token: dict[int, str],
                           index: InstanceIndex, extractor: str) -> list[Claim]:
    """Fallback without a dependency parse: two entities in one sentence that the instance
    relates state that relation. It finds support and coverage, never a contradiction
    (with no predicate read from the text there is nothing to contradict)."""
    claims: list[Claim] = []
    stated: set[tuple[str, str, str]] = set()
    for start, end in parsed.sentences:
        inside = [m for m in mentions if start <= m.start < end]
        for a_index, a in enumerate(inside):
            for b in inside[a_index + 1:]:
                first, second = name_of_token.get(a.start, ""), name_of_token.get(b.start, "")
                for subject, obj in ((first, second), (second, first)):
                    for predicate in index.pairs.get((subject, obj), ()):
                        if (subject, predicate, obj) not in stated:
                            stated.add((subject, predicate, obj))
                            claims.append(Claim(
                                type=RELATION, key={"subject": subject, "predicate": predicate}, value=obj,
                                span=(a.char_start, b.char_end), text=parsed.text[a.char_start:b.char_end],
                                extractor=extractor))
    return claims


def claim_to_fact(claim: Claim) -> Fact:
    """A claim read in a trusted text (a reference, a retrieved passage) as a fact."""
    if claim.type == RELATION:
        return Fact(type=RELATION, key={**claim.key, "object": claim.value}, value=claim.value)
    return Fact(type=claim.type, key=dict(claim.key), value=claim.value)


def fact_to_claim(fact: Fact) -> Claim:
    """The claim stating a fact (to ask whether some other knowledge supports it)."""
    if fact.type == RELATION:
        key = {k: v for k, v in fact.key.items() if k != "object"}
        return Claim(type=RELATION, key=key, value=fact.value)
    return Claim(type=fact.type, key=dict(fact.key), value=fact.value)


def facts_of(claims: Iterable[Claim]) -> list[Fact]:
    """Distinct facts (by id) from trusted claims, in order."""
    facts: dict[str, Fact] = {}
    for claim in claims:
        fact = claim_to_fact(claim)
        facts.setdefault(fact.id, fact)
    return list(facts.values())
