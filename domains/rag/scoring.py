"""rag answers through the core pipeline: the adapter to instances and generations, and
the RAG metrics the core runner asks the domain for (``RagDomain.extra_metrics``).

An answer becomes one instance (id = the answer's id; its complete fact set is the
reference's entities and relations; its context holds the retrieved passages, the
citations and the required facts) and one generation (the answer text, its system).
The core scores P/R/F1 and GAA-ERP (``weighted_f1`` with the entity/relation weights
of ``gaa_policy``); this module adds the metrics that need the passages.

Each text is parsed once: references when instances are built, answers by the
extractor during scoring (it keeps the parses of its last batch), passages and
required facts in one batch per chunk here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from factcov.domains.rag.claims import ENTITY, RELATION, facts_of
from factcov.domains.rag.extractor import RagExtractor
from factcov.domains.rag.grounding import unit_scores
from factcov.domains.rag.inputs import Answer, check_citation_targets
from factcov.domains.rag.metrics import Grounding, rag_metrics, reference_triples
from factcov.domains.rag.oracle import answer_of, build_instances, iter_pairs, to_generation, to_instance  # noqa: F401
from factcov.errors import InputError
from factcov.extractors.parsed import ParsedText
from factcov.knowledge import Knowledge
from factcov.model import Claim, ClaimType, Generation, Instance, Verdict
from factcov.scoring import GenerationScore, ScoringPolicy, score_generation
from factcov.verifier import Verifier

METRICS = (
    "gaa", "entity_precision", "entity_recall", "entity_f1", "relation_precision", "relation_recall",
    "relation_f1", "faithfulness", "context_relevance", "citation_support", "citation_precision", "coverage",
    "gaa_erp", "gaa_erp_g", "triple_coverage", "entity_coverage", "triple_contradicted",
    "unit_precision", "unit_recall", "unit_f1", "claim_precision", "claim_recall", "claim_f1",
)


def headline(metrics: dict[str, float | None], counted: dict[str, float | None]) -> dict[str, float | None]:
    """The core's headline (``Domain.graded_scores``): ``precision``/``recall``/``f1`` are
    the graded content units' (``unit_*``, ``factcov.domains.rag.grounding``), and the
    entity/relation claim counts' figures ``counted`` stay as ``claim_*``."""
    return {"precision": metrics["unit_precision"], "recall": metrics["unit_recall"], "f1": metrics["unit_f1"],
            "claim_precision": counted["precision"], "claim_recall": counted["recall"], "claim_f1": counted["f1"]}


def gaa_policy(alpha: float, **fields: Any) -> ScoringPolicy:
    """GAA = alpha*F1_entity + (1-alpha)*F1_relation, as the core's weighted per-type F1."""
    if not 0.0 <= alpha <= 1.0:
        raise InputError(f"alpha must be between 0 and 1, got {alpha}", field="alpha")
    return ScoringPolicy(type_weights={ENTITY: alpha, RELATION: 1.0 - alpha}, **fields)


# -- the RAG metrics of scored answers ----------------------------------------------
@dataclass
class AnswerExtras:
    """What the passages add to one scored answer."""

    metrics: dict[str, float | None]
    grounded_verdicts: list[Verdict]
    grounded_score: GenerationScore
    hallucinated: list[str]
    sentence_of_claim: list[int]
    hallucinated_units: list[str]


class _AnswerParses:
    """Each answer's texts parsed once, in one batch: the answer (unless the extractor kept
    its parse from scoring), its passages, its required facts and its reference (unless
    kept from building the instances)."""

    def __init__(self, answers: Sequence[Answer], extractor: RagExtractor) -> None:
        self.recent = getattr(extractor, "recent_parses", {})
        self.references = getattr(extractor, "reference_parses", {})
        texts: list[str] = []
        for answer in answers:
            if answer.answer not in self.recent:
                texts.append(answer.answer)
            texts.extend(c.text for c in answer.contexts)
            texts.extend(answer.required_facts)
            if answer.reference and answer.reference not in self.references:
                texts.append(answer.reference)
        self.parsed = iter(extractor.parse(texts) if texts else [])

    def next(self, answer: Answer) -> tuple[ParsedText, list[ParsedText], list[ParsedText], ParsedText | None]:
        parsed = self.parsed
        parsed_answer = self.recent[answer.answer] if answer.answer in self.recent else next(parsed)
        contexts = [next(parsed) for _ in answer.contexts]
        required = [next(parsed) for _ in answer.required_facts]
        reference = None
        if answer.reference:
            reference = self.references.get(answer.reference) or next(parsed)
        return parsed_answer, contexts, required, reference


def answer_extras(
    scored: Sequence[tuple[Instance, Generation, list[Verdict], GenerationScore]],
    extractor: RagExtractor,
    policy: ScoringPolicy,
    claim_types: Sequence[ClaimType],
    grounded: bool = False,
) -> list[AnswerExtras]:
    """The RAG metrics of scored answers; passages and required facts parsed in one batch."""
    answers = [answer_of(instance, generation) for instance, generation, _, _ in scored]
    parses = _AnswerParses(answers, extractor)
    verifier = Verifier()
    # A passage's claims are read once per index (``claims_with``: one list for the answers
    # sharing it), and so is its Knowledge built once per list (read, never changed: lookups
    # only). Keyed by the list's identity, the entry holding the list.
    built: dict[int, tuple[list[Claim], Knowledge]] = {}

    def knowledge_of(claims: list[Claim]) -> Knowledge:
        held = built.get(id(claims))
        if held is None or held[0] is not claims:
            held = built[id(claims)] = (claims, Knowledge(facts_of(claims), claim_types))
        return held[1]

    out = []
    for answer, (instance, _, verdicts, score) in zip(answers, scored):
        parsed_answer, parsed_contexts, parsed_required, parsed_reference = parses.next(answer)
        index = extractor.index(instance)
        claims = [v.claim for v in verdicts]
        grounding = Grounding(
            answer=answer,
            knowledge={
                context.id: knowledge_of(extractor.claims_with(p, index))
                for context, p in zip(answer.contexts, parsed_contexts)
            },
            verifier=verifier,
        )
        grounded_relevant = [f for f in instance.facts if grounding.fact_retrieved(f)]
        grounded_verdicts = [grounding.ground(v) for v in verdicts]
        grounded_score = score_generation(grounded_relevant, grounded_verdicts)
        sentence_of_claim = [parsed_answer.sentence_of(c.span[0]) if c.span else 0 for c in claims]
        check_citation_targets(answer, len(parsed_answer.sentences), len(claims))
        metrics = rag_metrics(
            answer=answer, instance=instance, claims=claims, score=score, grounded_score=grounded_score,
            policy=policy, grounding=grounding,
            required=[extractor.claims_with(p, index) for p in parsed_required],
            # what the answer supports, asked only of required facts: built for an answer that has some
            answer_knowledge=Knowledge(facts_of(claims), claim_types) if answer.required_facts else None,
            sentence_of_claim=sentence_of_claim,
            grounded=grounded, parsed_answer=parsed_answer,
        )
        retrieved = [p for context, p in zip(answer.contexts, parsed_contexts) if context.retrieved]
        # the triples the answer is covered against: its reference_triples, else the
        # instance's relation facts (a data-to-text instance, WebNLG's, has no reference text)
        triples = reference_triples(answer, instance)[0] if parsed_reference is None else ()
        units = unit_scores(parsed_answer, parsed_reference, retrieved, metrics["triple_coverage"], triples)
        metrics.update(units.metrics)
        metrics.update(headline(metrics, score.metrics(policy)))
        hallucinated = sorted({str(c.value) for c in claims if c.type == ENTITY and not grounding.retrieved_supports(c)})
        out.append(AnswerExtras(metrics, grounded_verdicts, grounded_score, hallucinated, sentence_of_claim,
                                units.hallucinated))
    return out
