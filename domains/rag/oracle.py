"""The rag oracle: an answer's complete fact set is its reference's entities and relations.

The adapter from answers to the core's instances and generations: an answer becomes one
instance (id = the answer's id; facts = the reference's entity and relation claims;
context = the passages, citations, required facts, reference and reference triples) and
one generation (the answer text, its system). References are parsed in one batch per
chunk, and their parses kept for the content units read when the answers are scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from factcov.domains.rag.claims import ENTITY, facts_of
from factcov.domains.rag.extractor import RagExtractor
from factcov.domains.rag.inputs import Answer
from factcov.jsonl import chunked
from factcov.model import Claim, Generation, Instance


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
    references = [a.reference for a in answers if a.reference]
    parses = extractor.parse(references)
    # The content units of the references are read when the answers are scored: kept, not re-parsed.
    extractor.reference_parses = dict(zip(references, parses))
    parsed = iter(parses)
    empty = extractor.index(None)  # references read with no index: one (parse, index) read once
    return [
        to_instance(a, extractor.claims_with(next(parsed), empty) if a.reference else [])
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


def _default_extractor() -> RagExtractor:
    from factcov.plugins import get_extractor

    return get_extractor("rag-spacy", "en")
