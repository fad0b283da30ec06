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

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from factcov.domains.rag.claims import ENTITY, RELATION, InstanceIndex, extract_claims, facts_of
from factcov.domains.rag.extractors import RagExtractor
from factcov.domains.rag.inputs import Answer, check_citation_targets
from factcov.domains.rag.metrics import Grounding, rag_metrics
from factcov.errors import InputError
from factcov.extractors.parsed import ParsedText
from factcov.jsonl import chunked
from factcov.knowledge import Knowledge
from factcov.model import Claim, ClaimType, Generation, Instance, Verdict
from factcov.scoring import GenerationScore, ScoringPolicy, score_generation
from factcov.verifier import Verifier

METRICS = (
    "gaa", "entity_precision", "entity_recall", "entity_f1", "relation_precision", "relation_recall",
    "relation_f1", "faithfulness", "context_relevance", "citation_support", "citation_precision", "coverage",
    "gaa_erp", "gaa_erp_g", "triple_coverage", "entity_coverage", "triple_contradicted",
)


def gaa_policy(alpha: float, **fields: Any) -> ScoringPolicy:
    """GAA = alpha*F1_entity + (1-alpha)*F1_relation, as the core's weighted per-type F1."""
    if not 0.0 <= alpha <= 1.0:
        raise InputError(f"alpha must be between 0 and 1, got {alpha}", field="alpha")
    return ScoringPolicy(type_weights={ENTITY: alpha, RELATION: 1.0 - alpha}, **fields)


# -- the adapter: answers -> instances + generations ---------------------------------
def to_instance(answer: Answer, reference_claims: Sequence[Claim]) -> Instance:
    """An answer's oracle: the reference's entities and relations are its complete fact set."""
    surfaces = {str(c.value): c.text for c in reference_claims if c.type == ENTITY}
    return Instance(
        id=answer.question_key,
        domain="rag",
        task="qa",
        language="en",
        prompt=answer.question,
        context={
            "contexts": [c.model_dump() for c in answer.contexts],
            "citations": [c.model_dump(exclude_none=True) for c in answer.citations],
            "required_facts": list(answer.required_facts),
            "reference": answer.reference,
            "reference_triples": [list(t) for t in answer.reference_triples] if answer.reference_triples else None,
            "surfaces": surfaces,
        },
        facts=facts_of(reference_claims),
    )


def to_generation(answer: Answer) -> Generation:
    # with a question_id, id is the answer's own (kept as generation_id); without, it is the question's
    return Generation(instance_id=answer.question_key, system=answer.system, text=answer.answer, language="en",
                      id=answer.id if answer.question_id else None)


def answer_of(instance: Instance, generation: Generation) -> Answer:
    """The answer an (instance, generation) pair of the adapter came from."""
    context = instance.context
    return Answer.model_validate({
        "id": instance.id, "question": instance.prompt, "answer": generation.text,
        "reference": context.get("reference"), "contexts": context.get("contexts", []),
        "citations": context.get("citations", []), "required_facts": context.get("required_facts", []),
        "reference_triples": context.get("reference_triples"),
        "system": generation.system,
    })


def build_instances(answers: Sequence[Answer], extractor: RagExtractor | None = None) -> list[Instance]:
    """Instances of answers (facts from their references), parsing the references in one batch."""
    extractor = extractor or _default_extractor()
    parsed = iter(extractor.parse([a.reference for a in answers if a.reference]))
    empty = InstanceIndex.of((), extractor.aliases)
    return [
        to_instance(a, extract_claims(next(parsed), empty, extractor.name) if a.reference else [])
        for a in answers
    ]


def iter_pairs(
    answers: Iterable[Answer], extractor: RagExtractor, chunk_size: int = 256
) -> Iterator[tuple[Instance, Generation]]:
    """(instance, generation) per answer, in input order, building instances a chunk at a time."""
    for chunk in chunked(answers, chunk_size):
        for answer, instance in zip(chunk, build_instances(chunk, extractor)):
            yield instance, to_generation(answer)


def _default_extractor() -> RagExtractor:
    from factcov.plugins import get_extractor

    return get_extractor("rag-spacy", "en")


# -- the RAG metrics of scored answers ----------------------------------------------
@dataclass
class AnswerExtras:
    """What the passages add to one scored answer."""

    metrics: dict[str, float | None]
    grounded_verdicts: list[Verdict]
    grounded_score: GenerationScore
    hallucinated: list[str]
    sentence_of_claim: list[int]


def answer_extras(
    scored: Sequence[tuple[Instance, Generation, list[Verdict], GenerationScore]],
    extractor: RagExtractor,
    policy: ScoringPolicy,
    claim_types: Sequence[ClaimType],
    grounded: bool = False,
) -> list[AnswerExtras]:
    """The RAG metrics of scored answers; passages and required facts parsed in one batch."""
    answers = [answer_of(instance, generation) for instance, generation, _, _ in scored]
    recent = getattr(extractor, "recent_parses", {})
    texts: list[str] = []
    for answer in answers:
        if answer.answer not in recent:
            texts.append(answer.answer)
        texts.extend(c.text for c in answer.contexts)
        texts.extend(answer.required_facts)
    parsed = iter(extractor.parse(texts) if texts else [])
    verifier = Verifier()
    out = []
    for answer, (instance, _, verdicts, score) in zip(answers, scored):
        parsed_answer: ParsedText = recent[answer.answer] if answer.answer in recent else next(parsed)
        parsed_contexts = [next(parsed) for _ in answer.contexts]
        parsed_required = [next(parsed) for _ in answer.required_facts]
        index = extractor.index(instance)
        claims = [v.claim for v in verdicts]
        grounding = Grounding(
            answer=answer,
            knowledge={
                context.id: Knowledge(facts_of(extract_claims(p, index, extractor.name)), claim_types)
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
            required=[extract_claims(p, index, extractor.name) for p in parsed_required],
            answer_knowledge=Knowledge(facts_of(claims), claim_types), sentence_of_claim=sentence_of_claim,
            grounded=grounded, parsed_answer=parsed_answer,
        )
        hallucinated = sorted({str(c.value) for c in claims if c.type == ENTITY and not grounding.retrieved_supports(c)})
        out.append(AnswerExtras(metrics, grounded_verdicts, grounded_score, hallucinated, sentence_of_claim))
    return out
