"""The rag realizer: facts as sentences the rag extractor reads back, and perturbed facts.

Entities as "We note X." then one sentence per relation: for predicates read from text,
"X opens on Y." / "X is the capital of Y."; for knowledge-graph predicates (instances of
task ``data-to-text``, e.g. WebNLG's ``birthPlace``), "The birth place of X is Y.".
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date, timedelta

from factcov.domains.rag.claims import ENTITY, RELATION
from factcov.domains.rag.lexicon import label_words
from factcov.extractors.normalize import canonical_entity, is_literal
from factcov.model import Fact, Instance

# Fictional names a perturbed entity takes: they share no word with real ones.
STAND_INS = ("Zorbania", "Quillmoor", "Vextrel", "Ombrath", "Kestrava")
PREPOSITIONS = {"in", "on", "at", "of", "by", "for", "to", "from", "with", "since", "until"}


def third_person(verb: str) -> str:
    """'open' -> 'opens', 'reach' -> 'reaches', 'carry' -> 'carries', 'be' -> 'is'."""
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def render_literal(canonical: str) -> str:
    """A canonical date, time or amount back as English the extractor reads."""
    parts = canonical.split()
    if len(parts) == 2 and parts[1] in ("EUR", "USD", "GBP", "JPY"):
        return f"{parts[0]} {dict(EUR='euros', USD='dollars', GBP='pounds', JPY='yen')[parts[1]]}"
    try:
        day = date.fromisoformat(canonical)
        return f"{day.day} {day.strftime('%B')} {day.year}"
    except ValueError:
        return canonical


def shifted_literal(canonical: str) -> str:
    """A different value of the same kind: a day later, an hour later, one more."""
    try:
        return (date.fromisoformat(canonical) + timedelta(days=1)).isoformat()
    except ValueError:
        pass
    if len(canonical) == 5 and canonical[2] == ":":
        return f"{(int(canonical[:2]) + 1) % 24:02d}{canonical[2:]}"
    number, _, unit = canonical.partition(" ")
    value = float(number) + 1
    text = str(int(value)) if value.is_integer() else repr(value)
    return f"{text} {unit}".strip()


def surface_of(name: str, surfaces: dict[str, str]) -> str:
    if name in surfaces:
        return surfaces[name]
    return render_literal(name) if is_literal(name) else name.title()


def graph_sentence(subject: str, predicate: str, obj: str) -> str:
    """'birthPlace' -> "The birth place of S is O." (the first of 'a/b' alternatives)."""
    words = " ".join(label_words(predicate.split("/")[0]))  # "iso6392Code" -> "iso 6392 code"
    return f"The {words} of {subject} is {obj}."


def relation_sentence(subject: str, predicate: str, obj: str) -> str:
    words = predicate.split()
    if words[0] == "be":
        rest = words[1:]
        if len(rest) >= 2 and rest[-1] in PREPOSITIONS:
            return f"{subject} is the {' '.join(rest)} {obj}."
        return f"{subject} is {' '.join(rest + [obj])}."
    return f"{subject} {third_person(words[0])} {' '.join(words[1:] + [obj])}."


def realize(facts: Sequence[Fact], instance: Instance | None = None) -> str:
    """Entities as "We note X." then one sentence per relation.

    An entity fact whose value differs from its name (a perturbed one) renames that
    entity everywhere in the text. Surfaces come from ``context["surfaces"]``.
    """
    surfaces = dict((instance.context.get("surfaces") or {}) if instance is not None else {})
    for fact in facts:
        if fact.type == ENTITY and fact.value != fact.key["name"]:
            surfaces[str(fact.key["name"])] = surface_of(str(fact.value), surfaces)

    sentences = [f"We note {surface_of(str(f.key['name']), surfaces)}." for f in facts if f.type == ENTITY]
    # A knowledge-graph predicate ("birthPlace") names its relation with a noun; a
    # predicate read from text ("open on") is a verb lemma with its preposition.
    graph = instance is not None and instance.task == "data-to-text"
    for fact in facts:
        if fact.type == RELATION:
            subject, obj = surface_of(str(fact.key["subject"]), surfaces), surface_of(str(fact.value), surfaces)
            predicate = str(fact.key["predicate"])
            sentences.append(graph_sentence(subject, predicate, obj) if graph
                             else relation_sentence(subject, predicate, obj))
    return " ".join(sentences)


def perturb(fact: Fact, rng: random.Random) -> Fact:
    """Another value no comparator accepts: literals shift, names become a stand-in."""
    current = str(fact.value)
    if is_literal(current):
        return fact.model_copy(update={"value": shifted_literal(current)})
    words = set(current.split())
    choices = [s for s in STAND_INS if canonical_entity(s) not in words]
    return fact.model_copy(update={"value": canonical_entity(rng.choice(choices))})
