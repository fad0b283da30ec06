"""(subject, predicate lemma, object) triples from a dependency parse.

Covered: active and passive voice ("X was designed by Y" gives (Y, design, X)),
prepositional objects ("X opens on Tuesday" gives (X, "open on", Tuesday)), copulas
("X is the capital of Y" gives (X, be, capital) and (X, "be capital of", Y); "Y's capital
is X" and "the capital of Y is X" give (Y, "have capital", X); "X is in Y"
gives (X, "be in", Y); "X is in the city of Y" also (X, "be in city of", Y)), a relational
noun after "have" ("X has a runtime of 98 minutes" gives (X, "have runtime of", minutes)), conjunctions of subjects, objects and verbs ("X was born in Y
and died in Z"), relative clauses and participles ("X, which is located in Y"; "X,
located in Y"), and personal pronouns resolved to the previous sentence's subject.
Negated clauses give no triple. Both spaCy's ClearNLP labels and Universal
Dependencies (stanza) are read.

Triples hold token indices; turning a token into an entity name is the caller's job.
"""

from __future__ import annotations

from dataclasses import dataclass

from factcov.extractors.parsed import ParsedText, Token

PRONOUNS = {"he", "she", "it", "they", "him", "her", "them", "his", "its", "their"}
RELATIVE = {"which", "who", "that", "whom", "whose"}
CLEAR = {
    "subj": ("nsubj", "nsubjpass"),
    "pass_subj": ("nsubjpass",),
    "pass_aux": ("auxpass",),
    "obj": ("dobj", "attr", "dative", "oprd"),
    "neg": ("neg",),
    "prt": ("prt",),
}
UD = {
    "subj": ("nsubj", "nsubj:pass"),
    "pass_subj": ("nsubj:pass",),
    "pass_aux": ("aux:pass",),
    "obj": ("obj", "iobj"),
    "neg": (),
    "prt": ("compound:prt",),
}


@dataclass(frozen=True)
class Triple:
    subject: int
    predicate: str
    object: int
    sentence: int


def _expand(parsed: ParsedText, tokens: list[Token]) -> list[Token]:
    """Each token plus its conjuncts ("X and Y")."""
    out: list[Token] = []
    for token in tokens:
        stack = [token]
        while stack:
            current = stack.pop(0)
            if current not in out:
                out.append(current)
                stack.extend(parsed.kids(current.i, "conj"))
    return out


def _negated(parsed: ParsedText, head: Token, labels: dict) -> bool:
    if any(parsed.kids(head.i, *labels["neg"])) if labels["neg"] else False:
        return True
    return any(k.lemma.lower() in ("not", "never", "n't") for k in parsed.kids(head.i, "advmod"))


def _prep_objects(parsed: ParsedText, head: Token, scheme: str) -> list[tuple[str, Token]]:
    """(preposition, object) pairs attached to ``head``."""
    pairs: list[tuple[str, Token]] = []
    if scheme == "clear":
        for prep in parsed.kids(head.i, "prep", "agent"):
            for obj in _expand(parsed, parsed.kids(prep.i, "pobj")):
                pairs.append(("by" if prep.dep == "agent" else prep.lemma.lower(), obj))
    else:
        for obj in parsed.kids(head.i):
            if obj.dep.split(":")[0] in ("obl", "nmod"):
                case = parsed.kids(obj.i, "case")
                if case:
                    for each in _expand(parsed, [obj]):
                        pairs.append((case[0].lemma.lower(), each))
    return pairs


class _Subjects:
    """Finds a clause's subjects, remembering the last one to resolve pronouns."""

    def _described(self, noun: Token) -> Token:
        """What a relative clause's noun describes: in "Chinabank is a company that was
        founded in 1920" the company is Chinabank (the copula's subject)."""
        parsed = self.parsed
        if noun.dep == "attr" and parsed.tokens[noun.head].lemma.lower() == "be":
            subjects = parsed.kids(noun.head, *self.labels["subj"])
            if subjects and subjects[0].text.lower() not in PRONOUNS | RELATIVE:
                return subjects[0]
        return noun

    def __init__(self, parsed: ParsedText, labels: dict) -> None:
        self.parsed = parsed
        self.labels = labels
        self.previous: Token | None = None

    def of(self, head: Token, depth: int = 0) -> tuple[list[Token], bool]:
        parsed, labels = self.parsed, self.labels
        kids = parsed.kids(head.i, *labels["subj"])
        passive = any(parsed.kids(head.i, *labels["pass_subj"], *labels["pass_aux"]))
        if not kids and depth < 4:
            if head.dep == "conj" and head.head != head.i:
                subjects, _ = self.of(parsed.tokens[head.head], depth + 1)
                return subjects, passive
            if head.dep.split(":")[0] in ("acl", "relcl"):
                return [self._described(parsed.tokens[head.head])], passive or head.tag == "VBN"
        subjects = []
        for subject in _expand(parsed, kids):
            word = subject.text.lower()
            if word in RELATIVE and head.dep.split(":")[0] in ("relcl", "acl"):
                subject = self._described(parsed.tokens[head.head])
            elif word in PRONOUNS and self.previous is not None:
                subject = self.previous
            elif subject.pos == "PRON" or word in PRONOUNS or word in RELATIVE or word in ("there", "this", "that"):
                continue  # "we", "you", an unresolved pronoun or an expletive names nothing
            subjects.append(subject)
        return subjects, passive


def triples(parsed: ParsedText) -> list[Triple]:
    """Every triple the parse states, sentence by sentence, in text order."""
    if not parsed.has_parse:
        return []
    labels = CLEAR if parsed.scheme == "clear" else UD
    found: list[Triple] = []
    subjects_of = _Subjects(parsed, labels)
    for sentence_index, (start, end) in enumerate(parsed.sentences):
        first_subject: Token | None = None
        for head in parsed.tokens[start:end]:
            copula_ud = parsed.scheme == "ud" and bool(parsed.kids(head.i, "cop"))
            if head.pos not in ("VERB", "AUX") and not copula_ud:
                continue
            if parsed.scheme == "ud" and head.dep == "cop":
                continue
            if _negated(parsed, head, labels):
                continue
            subjects, passive = subjects_of.of(head)
            if not subjects:
                continue
            first_subject = first_subject or subjects[0]
            for subject, predicate, obj in _clause(parsed, head, subjects, passive, labels, subjects_of.previous):
                if obj.text.lower() in RELATIVE and head.dep.split(":")[0] in ("relcl", "acl"):
                    obj = parsed.tokens[head.head]  # "Mermaid, which Espionage produced"
                found.append(Triple(subject.i, predicate, obj.i, sentence_index))
        if first_subject is not None:
            subjects_of.previous = first_subject
    return found


def _owners(parsed: ParsedText, noun: Token, previous: Token | None) -> list[Token]:
    """Who a noun belongs to: "his genre" (a pronoun, resolved), "X's genre", "the genre of X"."""
    owners = [t for t in parsed.kids(noun.i, "poss", "nmod:poss")]
    if parsed.scheme == "clear":
        for prep in parsed.kids(noun.i, "prep"):
            if prep.lemma.lower() == "of":
                owners += parsed.kids(prep.i, "pobj")
    else:
        owners += [t for t in parsed.kids(noun.i, "nmod") if any(c.lemma.lower() == "of" for c in parsed.kids(t.i, "case"))]
    resolved = []
    for owner in owners:
        if owner.text.lower() in RELATIVE:
            continue  # "whose field is ...": the owner is outside this clause
        if owner.text.lower() in PRONOUNS:
            if previous is None:
                continue
            owner = previous
        resolved.append(owner)
    return resolved


def _clause(parsed: ParsedText, head: Token, subjects: list[Token], passive: bool, labels: dict,
            previous: Token | None = None):
    """The (subject, predicate, object) of one clause headed by ``head``: a UD copula, a
    copula "be", or any other verb (its objects, agents and prepositional objects)."""
    lemma = head.lemma.lower()
    particle = parsed.kids(head.i, *labels["prt"])
    if particle:
        lemma = f"{lemma} {particle[0].lemma.lower()}"
    if parsed.scheme == "ud" and parsed.kids(head.i, "cop"):
        yield from _ud_copula_clause(parsed, head, subjects, lemma)
    elif lemma == "be":
        yield from _be_clause(parsed, head, subjects, previous)
    else:
        yield from _verb_clause(parsed, head, subjects, passive, labels, lemma)


def _ud_copula_clause(parsed: ParsedText, head: Token, subjects: list[Token], lemma: str):
    """UD copula: the predicate nominal is the head ("capital" in "X is the capital of
    Y"); its own case marker makes "X is in Y" a prepositional copula."""
    own_case = parsed.kids(head.i, "case")
    for subject in subjects:
        yield subject, f"be {own_case[0].lemma.lower()}" if own_case else "be", head
        for prep, obj in _prep_objects(parsed, head, "ud"):
            yield subject, f"be {lemma} {prep}", obj


def _be_clause(parsed: ParsedText, head: Token, subjects: list[Token], previous: Token | None):
    """"X is Y", "His genre is Y", "X is in Y" (ClearNLP's copula, a verb)."""
    for subject in subjects:
        owners = _owners(parsed, subject, previous)
        for attribute in _expand(parsed, parsed.kids(head.i, "attr", "acomp")):
            # "His genre is post-metal" / "The genre of X is Y": (owner, have genre, Y);
            # the bare (genre, be, Y) would say the same thing about no one.
            for owner in owners:
                yield owner, f"have {subject.lemma.lower()}", attribute
            if not owners:
                yield subject, "be", attribute
            for prep, obj in _prep_objects(parsed, attribute, parsed.scheme):
                yield subject, f"be {attribute.lemma.lower()} {prep}", obj
        for prep, obj in _prep_objects(parsed, head, parsed.scheme):
            yield subject, f"be {prep}", obj
            # "X is in the city of Y": (X, "be in city of", Y), a relational noun.
            for inner_prep, inner in _prep_objects(parsed, obj, parsed.scheme):
                if obj.pos == "NOUN" and inner_prep == "of":
                    yield subject, f"be {prep} {obj.lemma.lower()} of", inner


def _verb_clause(parsed: ParsedText, head: Token, subjects: list[Token], passive: bool, labels: dict,
                 lemma: str):
    """Any other verb: its objects, a passive's agents, its prepositional objects."""
    preps = _prep_objects(parsed, head, parsed.scheme)
    agents = [obj for prep, obj in preps if prep == "by"] if passive else []
    objects = _expand(parsed, parsed.kids(head.i, *labels["obj"]))
    if agents:
        # Passive with an agent: "X was designed by Y" states (Y, design, X).
        for agent in agents:
            for subject in subjects:
                yield agent, lemma, subject
    for subject in subjects:
        for obj in objects:
            yield subject, lemma, obj
            # "X has a runtime of 89 minutes": (X, "have runtime of", 89 minutes).
            if lemma == "have" and obj.pos == "NOUN":
                for inner_prep, inner in _prep_objects(parsed, obj, parsed.scheme):
                    if inner_prep == "of":
                        yield subject, f"have {obj.lemma.lower()} of", inner
        for prep, obj in preps:
            if not (agents and prep == "by"):
                yield subject, f"{lemma} {prep}", obj
