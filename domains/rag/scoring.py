"""Score rag answers: GAA-ERP through the core verifier and scorer, plus the RAG metrics.

Per chunk of answers every text (references, answers, passages, required facts) is
parsed in one batch, then claims are built against each answer's instance, so each
text is parsed exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from factcov.domains.rag.claims import ENTITY, RELATION, InstanceIndex, extract_claims, facts_of
from factcov.domains.rag.domain import RagDomain
from factcov.domains.rag.extractors import RagExtractor
from factcov.domains.rag.inputs import Answer, check_citation_targets
from factcov.domains.rag.metrics import Grounding, rag_metrics
from factcov.extractors.parsed import ParsedText
from factcov.jsonl import chunked
from factcov.knowledge import Knowledge
from factcov.model import Claim, Generation, Instance, Verdict
from factcov.scoring import GenerationScore, ScoringPolicy, score_generation
from factcov.verifier import Verifier

METRICS = (
    "gaa", "entity_precision", "entity_recall", "entity_f1", "relation_precision", "relation_recall",
    "relation_f1", "faithfulness", "context_relevance", "citation_support", "citation_precision", "coverage",
    "triple_coverage", "entity_coverage", "triple_contradicted",
)


def gaa_policy(alpha: float) -> ScoringPolicy:
    """GAA = alpha*F1_entity + (1-alpha)*F1_relation, as the core's weighted per-type F1."""
    if not 0.0 <= alpha <= 1.0:
        from factcov.errors import InputError

        raise InputError(f"alpha must be between 0 and 1, got {alpha}", field="alpha")
    return ScoringPolicy(type_weights={ENTITY: alpha, RELATION: 1.0 - alpha})


def to_instance(answer: Answer, reference_claims: Sequence[Claim]) -> Instance:
    """An answer's oracle: the reference's entities and relations are its complete fact set."""
    surfaces = {str(c.value): c.text for c in reference_claims if c.type == ENTITY}
    return Instance(
        id=answer.id,
        domain="rag",
        task="qa",
        language="en",
        prompt=answer.question,
        context={
            "contexts": [c.model_dump() for c in answer.contexts],
            "citations": [c.model_dump(exclude_none=True) for c in answer.citations],
            "required_facts": list(answer.required_facts),
            "reference": answer.reference,
            "surfaces": surfaces,
        },
        facts=facts_of(reference_claims),
    )


def to_generation(answer: Answer) -> Generation:
    return Generation(instance_id=answer.id, system=answer.system, text=answer.answer, language="en")


@dataclass
class AnswerResult:
    answer: Answer
    instance: Instance
    verdicts: list[Verdict]
    score: GenerationScore
    grounded_verdicts: list[Verdict]
    grounded_score: GenerationScore
    metrics: dict[str, float | None]
    hallucinated: list[str]
    sentence_of_claim: list[int]


def _parse_all(extractor: RagExtractor, answers: Sequence[Answer]) -> list[dict[str, object]]:
    """Parse every text of the chunk in one batch; return each answer's parsed pieces."""
    texts: list[str] = []
    slots: list[dict[str, object]] = []
    for answer in answers:
        slot: dict[str, object] = {"reference": None, "answer": len(texts)}
        texts.append(answer.answer)
        if answer.reference:
            slot["reference"] = len(texts)
            texts.append(answer.reference)
        slot["contexts"] = list(range(len(texts), len(texts) + len(answer.contexts)))
        texts.extend(c.text for c in answer.contexts)
        slot["required"] = list(range(len(texts), len(texts) + len(answer.required_facts)))
        texts.extend(answer.required_facts)
        slots.append(slot)
    parsed = extractor.parse(texts)
    out = []
    for slot in slots:
        out.append({
            "answer": parsed[slot["answer"]],  # type: ignore[index]
            "reference": parsed[slot["reference"]] if slot["reference"] is not None else None,  # type: ignore[index]
            "contexts": [parsed[i] for i in slot["contexts"]],  # type: ignore[union-attr]
            "required": [parsed[i] for i in slot["required"]],  # type: ignore[union-attr]
        })
    return out


def build_instances(answers: Sequence[Answer], extractor: RagExtractor | None = None) -> list[Instance]:
    """Instances of answers (facts from their references), parsing the references only."""
    extractor = extractor or _default_extractor()
    with_reference = [a.reference or "" for a in answers]
    parsed = extractor.parse(with_reference)
    empty = InstanceIndex.of((), extractor.aliases)
    return [to_instance(a, extract_claims(p, empty, extractor.name)) for a, p in zip(answers, parsed)]


def _default_extractor() -> RagExtractor:
    from factcov.plugins import get_extractor

    return get_extractor("rag-spacy", "en")


def score_answers(
    answers: Iterable[Answer],
    extractor: RagExtractor,
    alpha: float = 0.5,
    grounded: bool = False,
    chunk_size: int = 256,
) -> Iterator[AnswerResult]:
    """Results in input order, chunk by chunk (the file is never held whole)."""
    domain = RagDomain()
    policy = gaa_policy(alpha)
    verifier = Verifier()
    empty = InstanceIndex.of((), extractor.aliases)
    for chunk in chunked(answers, chunk_size):
        for answer, pieces in zip(chunk, _parse_all(extractor, chunk)):
            reference: ParsedText | None = pieces["reference"]  # type: ignore[assignment]
            reference_claims = extract_claims(reference, empty, extractor.name) if reference else []
            instance = to_instance(answer, reference_claims)
            index = extractor.index(instance)
            claims = extract_claims(pieces["answer"], index, extractor.name)  # type: ignore[arg-type]
            context_facts = {
                context.id: facts_of(extract_claims(parsed, index, extractor.name))
                for context, parsed in zip(answer.contexts, pieces["contexts"])  # type: ignore[arg-type]
            }
            required = [extract_claims(p, index, extractor.name) for p in pieces["required"]]  # type: ignore[union-attr]
            verdicts = verifier.verify_all(claims, domain.knowledge(instance))
            score = score_generation(instance.facts, verdicts)
            grounding = Grounding(
                answer=answer,
                knowledge={cid: Knowledge(facts, domain.claim_types) for cid, facts in context_facts.items()},
                verifier=verifier,
            )
            grounded_relevant = [f for f in instance.facts if grounding.fact_retrieved(f)]
            grounded_verdicts = [grounding.ground(v) for v in verdicts]
            grounded_score = score_generation(grounded_relevant, grounded_verdicts)
            parsed_answer: ParsedText = pieces["answer"]  # type: ignore[assignment]
            sentence_of_claim = [parsed_answer.sentence_of(c.span[0]) if c.span else 0 for c in claims]
            check_citation_targets(answer, len(parsed_answer.sentences), len(claims))
            metrics = rag_metrics(
                answer=answer, instance=instance, claims=claims, score=score, grounded_score=grounded_score,
                policy=policy, grounding=grounding, required=required, answer_knowledge=Knowledge(
                    facts_of(claims), domain.claim_types), sentence_of_claim=sentence_of_claim,
                grounded=grounded, parsed_answer=parsed_answer,
            )
            hallucinated = sorted({str(c.value) for c in claims if c.type == ENTITY and not grounding.retrieved_supports(c)})
            yield AnswerResult(answer, instance, verdicts, score, grounded_verdicts, grounded_score, metrics,
                               hallucinated, sentence_of_claim)
