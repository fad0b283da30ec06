"""The rag domain: answers scored on entities and relations against a reference.

Claim types:

- ``entity`` — key ``name`` (canonical name), value the same name. Open world: an entity
  the reference does not know is *unverifiable*, and since unverifiable claims count in
  precision's denominator, a hallucinated entity lowers entity precision (it cannot be
  "contradicted": a name is not a wrong value of anything).
- ``relation`` — key ``subject``, ``predicate`` and ``object``; value the object. A claim
  states subject and predicate only (the object is its value), so it is compared with
  every fact sharing them. Closed world: the right subject and predicate with another
  object is a *contradiction*.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from factcov.domain import Domain
from factcov.domains.rag.checker import apply_checker
from factcov.domains.rag.claims import ENTITY, RELATION
from factcov.domains.rag.extractors import RagExtractor
from factcov.domains.rag.lexicon import label_words
from factcov.domains.rag.scoring import METRICS, answer_extras, build_instances
from factcov.extractors.normalize import canonical_entity, is_literal
from factcov.knowledge import Knowledge
from factcov.model import ClaimType, Fact, Generation, Instance
from factcov.scoring import ScoringPolicy

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
MUSEUM_FILE = Path(__file__).with_name("museum.jsonl")
# Undefined for an instance that holds no retrieved passages (not built from an answer).
PASSAGE_METRICS = ("faithfulness", "context_relevance", "citation_support", "citation_precision", "coverage",
                   "gaa_erp_g")
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


class RagDomain(Domain):
    name = "rag"
    description = "RAG answers: entity and relation claims against a reference and the retrieved passages."
    version = "0.1.0"
    languages = ("en",)
    tasks = ("qa", "data-to-text")
    claim_types = (ENTITY_TYPE, RELATION_TYPE)
    default_extractor = "rag-spacy"
    metrics = METRICS
    lists = ("hallucinated_entities",)
    type_weights = {ENTITY: 0.5, RELATION: 0.5}  # GAA-ERP with alpha 0.5

    def __init__(self, grounded: bool = False) -> None:
        # ``gaa`` is GAA-ERP-G (only what the retrieved passages support) when grounded.
        self.grounded = grounded
        self.variant = "grounded" if grounded else ""

    def configure(self, settings: dict[str, Any]) -> RagDomain:
        """The [rag] table: backend and its options, alpha (the GAA weights), grounded."""
        from factcov.domains.rag.settings import settings_of

        if not settings:
            return self
        parsed = settings_of(settings)
        domain = RagDomain(grounded=parsed.grounded)
        domain.default_extractor = parsed.extractor_name()
        domain.extractor_options = parsed.extractor_options()
        domain.type_weights = {ENTITY: parsed.alpha, RELATION: 1.0 - parsed.alpha}
        return domain

    def extra_metrics(self, results, extractor, policy: ScoringPolicy) -> list[dict[str, Any]]:
        """Context relevance, faithfulness, citation support/precision, coverage, GAA-ERP(-G),
        and the entities no retrieved passage supports."""
        if not isinstance(extractor, RagExtractor):
            # The passage metrics read parses (sentences, the instance's entity index) only
            # the rag extractors give; another backend's run leaves them undefined.
            return [{} for _ in results]
        scored = [(r.instance, r.generation, r.verdicts, r.score) for r in results]
        extras = answer_extras(scored, extractor, policy, self.claim_types, grounded=self.grounded)
        apply_checker(extractor, results, extras)  # -X checker=llm: the model's verdicts fill the columns
        out = []
        for result, extra in zip(results, extras):
            if "contexts" in result.instance.context:
                out.append({**extra.metrics, "hallucinated_entities": extra.hallucinated})
            else:  # not an answer with passages (WebNLG data-to-text): nothing was retrieved to check
                metrics = {k: v for k, v in extra.metrics.items() if k not in PASSAGE_METRICS}
                out.append({**metrics, "gaa": extra.metrics["gaa_erp"]})
        return out

    def answer_pairs(self, path, extractor, instances):
        """Answer lines (``factcov.domains.rag.inputs``): one instance per question, one
        generation per (question, system); references parsed a batch at a time."""
        from factcov.domains.rag.inputs import iter_answer_pairs

        return iter_answer_pairs(path, extractor, instances, int(extractor.options.get("batch_size", 256)))

    def knowledge(self, instance: Instance) -> Knowledge:
        return Knowledge(instance.facts, self.claim_types)

    # -- realizer -------------------------------------------------------------------
    def realize(self, facts: Sequence[Fact], language: str, instance: Instance | None = None) -> str:
        """Entities as "We note X." then one sentence per relation.

        An entity fact whose value differs from its name (a perturbed one) renames that
        entity everywhere in the text. Surfaces come from ``context["surfaces"]``.
        """
        self.check_language(language)
        surfaces = dict((instance.context.get("surfaces") or {}) if instance is not None else {})
        for fact in facts:
            if fact.type == ENTITY and fact.value != fact.key["name"]:
                surfaces[str(fact.key["name"])] = self._surface(str(fact.value), surfaces)

        def surface(name: str) -> str:
            return self._surface(name, surfaces)

        sentences = [f"We note {surface(str(f.key['name']))}." for f in facts if f.type == ENTITY]
        # A knowledge-graph predicate ("birthPlace") names its relation with a noun; a
        # predicate read from text ("open on") is a verb lemma with its preposition.
        graph = instance is not None and instance.task == "data-to-text"
        for fact in facts:
            if fact.type == RELATION:
                subject, obj = surface(str(fact.key["subject"])), surface(str(fact.value))
                predicate = str(fact.key["predicate"])
                sentences.append(self._graph_sentence(subject, predicate, obj) if graph
                                 else self._relation_sentence(subject, predicate, obj))
        return " ".join(sentences)

    @staticmethod
    def _graph_sentence(subject: str, predicate: str, obj: str) -> str:
        """'birthPlace' -> "The birth place of S is O." (the first of 'a/b' alternatives)."""
        words = " ".join(label_words(predicate.split("/")[0]))  # "iso6392Code" -> "iso 6392 code"
        return f"The {words} of {subject} is {obj}."

    @staticmethod
    def _surface(name: str, surfaces: dict[str, str]) -> str:
        if name in surfaces:
            return surfaces[name]
        return render_literal(name) if is_literal(name) else name.title()

    @staticmethod
    def _relation_sentence(subject: str, predicate: str, obj: str) -> str:
        words = predicate.split()
        if words[0] == "be":
            rest = words[1:]
            if len(rest) >= 2 and rest[-1] in PREPOSITIONS:
                return f"{subject} is the {' '.join(rest)} {obj}."
            return f"{subject} is {' '.join(rest + [obj])}."
        return f"{subject} {third_person(words[0])} {' '.join(words[1:] + [obj])}."

    def perturb(self, fact: Fact, rng: random.Random, instance: Instance | None = None) -> Fact:
        """Another value no comparator accepts: literals shift, names become a stand-in."""
        current = str(fact.value)
        if is_literal(current):
            return fact.model_copy(update={"value": shifted_literal(current)})
        words = set(current.split())
        choices = [s for s in STAND_INS if canonical_entity(s) not in words]
        return fact.model_copy(update={"value": canonical_entity(rng.choice(choices))})

    # -- examples and demo ------------------------------------------------------------
    def _museum(self):
        from factcov.domains.rag.inputs import iter_answers

        return list(iter_answers(MUSEUM_FILE))

    def example_instances(self) -> list[Instance]:
        """The museum example's reference as an instance (one per distinct reference)."""
        answers = self._museum()
        unique = {a.reference: a for a in answers if a.reference}
        return build_instances(list(unique.values()))

    def demo_instances(self) -> list[Instance]:
        return self.example_instances()[:1]

    def demo_generations(self, instances: Sequence[Instance]) -> list[Generation]:
        """Each museum answer as a system: the terse ones are precise, the complete one covers."""
        generations = []
        for instance in instances:
            for answer in self._museum():
                generations.append(Generation(instance_id=instance.id, system=answer.id, text=answer.answer))
        return generations
