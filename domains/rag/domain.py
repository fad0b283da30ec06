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

The domain in the common shape: claim types and claim building in ``claims``, the
oracle (answers -> instances whose facts are the reference's claims) in ``oracle``, the
parser-backed extractors in ``extractor``, the realizer in ``realizer``, the museum demo
in ``demo``; content units and their grading in ``units`` and ``grounding``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from factcov.domain import Domain
from factcov.domains.rag import demo, realizer
from factcov.domains.rag.checker import apply_checker
from factcov.domains.rag.claims import ENTITY, ENTITY_TYPE, RELATION, RELATION_TYPE
from factcov.domains.rag.demo import MUSEUM_FILE  # noqa: F401  (imported from here before)
from factcov.domains.rag.extractor import RagExtractor
from factcov.domains.rag.realizer import render_literal, shifted_literal, third_person  # noqa: F401
from factcov.domains.rag.scoring import METRICS, answer_extras, headline
from factcov.knowledge import Knowledge
from factcov.model import Fact, Generation, Instance
from factcov.scoring import ScoringPolicy

# Undefined for an instance that holds no retrieved passages (not built from an answer).
PASSAGE_METRICS = ("faithfulness", "context_relevance", "citation_support", "citation_precision", "coverage",
                   "gaa_erp_g")


class RagDomain(Domain):
    name = "rag"
    description = "RAG answers: entity and relation claims against a reference and the retrieved passages."
    version = "0.1.0"
    languages = ("en",)
    tasks = ("qa", "data-to-text")
    claim_types = (ENTITY_TYPE, RELATION_TYPE)
    default_extractor = "rag-spacy"
    metrics = METRICS
    lists = ("hallucinated_entities", "hallucinated_units")
    type_weights = {ENTITY: 0.5, RELATION: 0.5}  # GAA-ERP with alpha 0.5
    # precision/recall/f1 are the graded content units (``grounding``); the entity and
    # relation claim counts stay as claim_precision/claim_recall/claim_f1
    graded_scores = True

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
            # the rag extractors give; another backend's run leaves them undefined, and its
            # headline is the claim counts' (no graded units to replace it with).
            return [{f"claim_{name}": r.metrics[name] for name in ("precision", "recall", "f1")} for r in results]
        scored = [(r.instance, r.generation, r.verdicts, r.score) for r in results]
        extras = answer_extras(scored, extractor, policy, self.claim_types, grounded=self.grounded)
        apply_checker(extractor, results, extras)  # -X checker=llm: the model's verdicts fill the columns
        out = []
        for result, extra in zip(results, extras):
            extra.metrics.update(headline(extra.metrics, result.metrics))  # a checker's units now
            if "contexts" in result.instance.context:
                out.append({**extra.metrics, "hallucinated_entities": extra.hallucinated,
                            "hallucinated_units": extra.hallucinated_units})
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

    # -- realizer (factcov.domains.rag.realizer) ----------------------------------------
    def realize(self, facts: Sequence[Fact], language: str, instance: Instance | None = None) -> str:
        self.check_language(language)
        return realizer.realize(facts, instance)

    def perturb(self, fact: Fact, rng: random.Random, instance: Instance | None = None) -> Fact:
        return realizer.perturb(fact, rng)

    # -- examples and demo (factcov.domains.rag.demo) -----------------------------------
    def example_instances(self) -> list[Instance]:
        return demo.example_instances()

    def demo_instances(self) -> list[Instance]:
        return self.example_instances()[:1]

    def demo_generations(self, instances: Sequence[Instance]) -> list[Generation]:
        return demo.demo_generations(instances)
