"""Score rag answers in Python: the core evaluator plus the RAG metrics, per answer.

``score_answers`` is what ``factcov rag score`` runs, without the files: the same
adapter, evaluator and domain hook, returning each answer's verdicts against the
reference and against the retrieved passages.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from factcov.domains.rag.domain import RagDomain
from factcov.domains.rag.extractor import RagExtractor
from factcov.domains.rag.inputs import Answer
from factcov.domains.rag.oracle import build_instances, to_generation
from factcov.domains.rag.scoring import answer_extras, gaa_policy
from factcov.evaluate import Evaluator
from factcov.jsonl import chunked
from factcov.model import Instance, Verdict
from factcov.scoring import GenerationScore


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
    hallucinated_units: list[str]


def score_answers(
    answers: Iterable[Answer],
    extractor: RagExtractor,
    alpha: float = 0.5,
    grounded: bool = False,
    chunk_size: int = 256,
) -> Iterator[AnswerResult]:
    """Results in input order, chunk by chunk (the file is never held whole)."""
    domain = RagDomain(grounded=grounded)
    evaluator = Evaluator(domain, extractor=lambda language: extractor, policy=gaa_policy(alpha))
    for chunk in chunked(answers, chunk_size):
        instances = build_instances(chunk, extractor)
        results = evaluator.evaluate([(i, to_generation(a)) for a, i in zip(chunk, instances)])
        scored = [(r.instance, r.generation, r.verdicts, r.score) for r in results]
        extras = answer_extras(scored, extractor, evaluator.policy, domain.claim_types, grounded=grounded)
        for answer, result, extra in zip(chunk, results, extras):
            yield AnswerResult(answer, result.instance, result.verdicts, result.score, extra.grounded_verdicts,
                               extra.grounded_score, extra.metrics, extra.hallucinated, extra.sentence_of_claim,
                               extra.hallucinated_units)
