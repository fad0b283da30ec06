"""The RAG metrics beside GAA-ERP, each with its own undefined cases (``None``, never 1.0).

- ``context_relevance`` = relevant retrieved passages / retrieved passages; undefined
  when nothing was retrieved, or when a passage's relevance is neither given nor
  derivable (it is derived as "supports at least one reference fact").
- ``faithfulness`` is graded on content units (``factcov.domains.rag.grounding``), not
  here; undefined when nothing was retrieved or the answer has no unit.
- ``citation_support`` = claims whose cited passage is retrieved and supports the claim
  by itself / claims; undefined with no claims or no retrieved passage. An uncited claim
  is unsupported.
- ``citation_precision`` = valid citations / citations; undefined with no citations. A
  citation is valid when its passage was retrieved and supports at least one claim of
  the sentence (or the claim) it is attached to.
- ``coverage`` = required facts the answer states / required facts; undefined with no
  required facts; an empty answer scores 0. A required fact is given as a short text;
  it is stated when every relation it holds (its entities, when it holds no relation)
  is supported by the answer's claims; a text with no claims falls back to appearing
  verbatim (case- and accent-folded) in the answer.
- ``triple_coverage`` = graded coverage of the reference triples
  (``factcov.domains.rag.triple_coverage``): the answer's ``reference_triples`` when
  given, else the relations read from the reference plus the entities it names that no
  relation holds; undefined with neither. ``entity_coverage`` is the same for the
  triples' arguments alone, ``triple_contradicted`` the share of triples the answer
  words as another of the data's relations. The headline for data-to-text and
  "is anything missing" checks: it tracks people's judgments on WebNLG 2020
  (docs/validation.md), where ``gaa`` rewards label-like wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from factcov.domains.rag.claims import ENTITY, RELATION, fact_to_claim
from factcov.domains.rag.inputs import Answer
from factcov.domains.rag.triple_coverage import cover
from factcov.extractors.normalize import surface_fold
from factcov.extractors.parsed import ParsedText
from factcov.knowledge import Knowledge
from factcov.model import Claim, Fact, Instance, Verdict
from factcov.scoring import GenerationScore, ScoringPolicy
from factcov.verifier import Verifier


@dataclass
class Grounding:
    """What each passage supports, by context id."""

    answer: Answer
    knowledge: dict[str, Knowledge]
    verifier: Verifier

    @property
    def retrieved(self) -> list[str]:
        return [c.id for c in self.answer.contexts if c.retrieved]

    def supports(self, claim: Claim, context_id: str) -> bool:
        knowledge = self.knowledge.get(context_id)
        return knowledge is not None and self.verifier.verify(claim, knowledge).label == "supported"

    def retrieved_supports(self, claim: Claim) -> bool:
        return any(self.supports(claim, cid) for cid in self.retrieved)

    def fact_retrieved(self, fact: Fact) -> bool:
        return self.retrieved_supports(fact_to_claim(fact))

    def ground(self, verdict: Verdict) -> Verdict:
        """GAA-ERP-G: a claim the reference supports counts only if a retrieved passage does too."""
        if verdict.label == "supported" and not self.retrieved_supports(verdict.claim):
            return Verdict(claim=verdict.claim, label="unverifiable")
        return verdict


def _type_metrics(score: GenerationScore, type_: str, policy: ScoringPolicy) -> dict[str, float | None]:
    counts = score.by_type.get(type_)
    if counts is None:
        return {"precision": None, "recall": None, "f1": None}
    return counts.metrics(policy)


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def context_relevance(answer: Answer, instance: Instance, grounding: Grounding) -> float | None:
    retrieved = [c for c in answer.contexts if c.retrieved]
    relevant = 0
    for context in retrieved:
        if context.relevant is None:
            if not instance.facts:
                return None
            flag = any(grounding.supports(fact_to_claim(f), context.id) for f in instance.facts)
        else:
            flag = context.relevant
        relevant += flag
    return _ratio(relevant, len(retrieved))


def citation_metrics(
    answer: Answer, claims: Sequence[Claim], sentence_of_claim: Sequence[int], grounding: Grounding
) -> tuple[float | None, float | None]:
    retrieved = set(grounding.retrieved)

    def targets(citation) -> list[int]:
        if citation.claim is not None:
            return [citation.claim] if citation.claim < len(claims) else []
        return [k for k, s in enumerate(sentence_of_claim) if s == citation.sentence]

    cited_by: dict[int, list[str]] = {}
    valid = 0
    for citation in answer.citations:
        claim_ids = targets(citation)
        for k in claim_ids:
            cited_by.setdefault(k, []).append(citation.context_id)
        valid += citation.context_id in retrieved and any(
            grounding.supports(claims[k], citation.context_id) for k in claim_ids
        )
    supported = sum(
        any(cid in retrieved and grounding.supports(claim, cid) for cid in cited_by.get(k, ()))
        for k, claim in enumerate(claims)
    )
    # Nothing retrieved: no citation can be supported, and "0 of n" would be a fabricated zero.
    return (_ratio(supported, len(claims)) if retrieved else None), _ratio(valid, len(answer.citations))


def coverage(answer: Answer, required: Sequence[Sequence[Claim]], answer_knowledge: Knowledge | None,
             verifier: Verifier) -> float | None:
    """Undefined without required facts; ``answer_knowledge`` (what the answer's claims
    support) is read only when there are some."""
    if not answer.required_facts:
        return None
    if answer_knowledge is None:
        raise ValueError("coverage of required facts needs the answer's knowledge")
    if not answer.answer.strip():
        return 0.0
    covered = 0
    for text, claims in zip(answer.required_facts, required):
        needed = [c for c in claims if c.type == RELATION] or [c for c in claims if c.type == ENTITY]
        if needed:
            covered += all(verifier.verify(c, answer_knowledge).label == "supported" for c in needed)
        else:
            covered += surface_fold(text) in surface_fold(answer.answer)
    return covered / len(answer.required_facts)


def reference_triples(answer: Answer, instance: Instance) -> tuple[list[list[str]], list[str]]:
    """The triples (and lone entities) an answer is covered against (see module docstring)."""
    if answer.reference_triples:
        return [list(t) for t in answer.reference_triples], []
    surfaces = instance.context.get("surfaces") or {}
    triples, related = [], set()
    for fact in instance.facts:
        if fact.type == RELATION:
            subject, obj = str(fact.key["subject"]), str(fact.value)
            triples.append([surfaces.get(subject, subject), str(fact.key["predicate"]), surfaces.get(obj, obj)])
            related |= {subject, obj}
    entities = [surfaces.get(str(f.value), str(f.value)) for f in instance.facts
                if f.type == ENTITY and str(f.value) not in related]
    return triples, entities


def triple_metrics(answer: Answer, instance: Instance, parsed_answer: ParsedText | None) -> dict[str, float | None]:
    triples, entities = reference_triples(answer, instance)
    if parsed_answer is None or not (triples or entities):
        return {"triple_coverage": None, "entity_coverage": None, "triple_contradicted": None}
    if not answer.answer.strip():
        return {"triple_coverage": 0.0, "entity_coverage": 0.0, "triple_contradicted": 0.0 if triples else None}
    result = cover(parsed_answer, triples, entities=entities)
    return {"triple_coverage": result.coverage, "entity_coverage": result.entity_coverage,
            "triple_contradicted": result.contradicted}


def rag_metrics(
    *,
    answer: Answer,
    instance: Instance,
    claims: Sequence[Claim],
    score: GenerationScore,
    grounded_score: GenerationScore,
    policy: ScoringPolicy,
    grounding: Grounding,
    required: Sequence[Sequence[Claim]],
    answer_knowledge: Knowledge | None,
    sentence_of_claim: Sequence[int],
    grounded: bool,
    parsed_answer: ParsedText | None = None,
) -> dict[str, float | None]:
    entity = _type_metrics(score, ENTITY, policy)
    relation = _type_metrics(score, RELATION, policy)
    plain, grounded_gaa = score.weighted_f1(policy), grounded_score.weighted_f1(policy)
    support, precision = citation_metrics(answer, claims, sentence_of_claim, grounding)
    return {
        "gaa": grounded_gaa if grounded else plain,
        "entity_precision": entity["precision"],
        "entity_recall": entity["recall"],
        "entity_f1": entity["f1"],
        "relation_precision": relation["precision"],
        "relation_recall": relation["recall"],
        "relation_f1": relation["f1"],
        "context_relevance": context_relevance(answer, instance, grounding),
        "citation_support": support,
        "citation_precision": precision,
        "coverage": coverage(answer, required, answer_knowledge, grounding.verifier),
        **triple_metrics(answer, instance, parsed_answer),
        "gaa_erp": plain,
        "gaa_erp_g": grounded_gaa,
    }
