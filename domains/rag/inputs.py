"""The rag input: one JSON line per answer, validated with pydantic.

```
{"id": "...", "question": "...", "answer": "...", "reference": "...",
 "reference_triples": [["Louvre", "location", "Paris"], ["Louvre", "openingYear", "1793"]],
 "contexts": [{"id": "c1", "text": "...", "retrieved": true, "relevant": true}],
 "citations": [{"sentence": 0, "context_id": "c1"}, {"claim": 3, "context_id": "c2"}],
 "required_facts": ["The museum opens at 10 am."]}
```

``reference_triples`` is the complete fact set as ``[subject, predicate, object]``
(knowledge-graph style: names as in the data, ``_`` for spaces allowed, predicates as
labels such as ``birthPlace``); when given, ``triple_coverage`` scores the answer against
them, otherwise against the relations read from ``reference``.
``retrieved`` defaults to true (a listed passage was retrieved unless said otherwise);
``relevant`` is optional (derived from the reference when absent). A citation names an
answer sentence (0-based) or a claim (0-based position in the answer's claims) and a
context id that must exist.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictBool, StrictInt, model_validator

from factcov.answer_lines import AnswerLineError, QuestionLines
from factcov.errors import InputError
from factcov.jsonl import chunked, iter_models
from factcov.model import NonBlankStr


class Context(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    # strict: pydantic would read "yes", "no", 1 or 0 as booleans and true as sentence 1
    retrieved: StrictBool = True
    relevant: StrictBool | None = None


class Citation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    context_id: str
    sentence: StrictInt | None = Field(default=None, ge=0)
    claim: StrictInt | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _one_target(self) -> Citation:
        if (self.sentence is None) == (self.claim is None):
            raise ValueError("give exactly one of 'sentence' or 'claim'")
        return self


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The question: ``question_id``, else ``id``. With both, ``id`` is this answer's own id
    # (kept in the outputs as ``generation_id``).
    id: NonBlankStr | None = None
    question_id: NonBlankStr | None = None
    question: str = ""
    answer: str
    reference: str | None = None
    contexts: list[Context] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    required_facts: list[str] = Field(default_factory=list)
    reference_triples: list[tuple[str, str, str]] | None = None
    system: str = "answer"
    # The answer's line in its file, so checks made while scoring (citation targets) name it.
    _line: int | None = PrivateAttr(default=None)
    _first: bool = PrivateAttr(default=True)  # the first line of its question (``iter_answers``)

    @property
    def question_key(self) -> str:
        """The id of the question this answers: its instance's id (``check_answer`` makes sure there is one)."""
        return self.question_id or self.id or ""


# What belongs to the question (its instance): the same for every system's answer to it.
QUESTION_FIELDS = ("question", "reference", "reference_triples", "contexts", "required_facts")


def check_answer(answer: Answer, path: str | Path, line: int, question_contexts: Sequence[str] | None = None) -> None:
    """Cross-field checks pydantic cannot place on a field: a question id, unique context ids,
    cited ids exist."""
    if answer.id is None and answer.question_id is None:
        raise InputError("missing required field: the question's id ('question_id', with the answering 'system'; "
                         "or 'id')", path=path, line=line, field="question_id")
    seen: set[str] = set()
    for index, context in enumerate(answer.contexts):
        if context.id in seen:
            raise InputError(f"duplicate context id '{context.id}'", path=path, line=line,
                             field=f"contexts.{index}.id")
        seen.add(context.id)
    if question_contexts is not None and "contexts" not in answer.model_fields_set:
        seen = set(question_contexts)  # a later answer to a question whose first line gave its passages
    for index, citation in enumerate(answer.citations):
        if citation.context_id not in seen:
            raise InputError(
                f"cites context '{citation.context_id}', which is not among this answer's contexts "
                f"({', '.join(sorted(seen)) or 'none'})",
                path=path, line=line, field=f"citations.{index}.context_id",
            )
    for index, triple in enumerate(answer.reference_triples or ()):
        for slot, part in zip(("subject", "predicate", "object"), triple):
            if not part.strip():
                raise InputError(f"empty {slot} in reference triple", path=path, line=line,
                                 field=f"reference_triples.{index}")
    for index, fact in enumerate(answer.required_facts):
        if not fact.strip():
            raise InputError("empty required fact", path=path, line=line, field=f"required_facts.{index}")


def iter_answers(path: str | Path) -> Iterator[Answer]:
    """Validated answers of a JSONL file, one per (question, system).

    Several systems' answers to one question share its ``question_id`` (or its ``id``);
    the question's fields (``QUESTION_FIELDS``), when a later line repeats them, must
    equal its first line's. ``first_of_question`` is set on a question's first line.
    """
    questions = QuestionLines(path, QUESTION_FIELDS)
    passages: dict[str, tuple[str, ...]] = {}  # a question's context ids, for its later answers' citations
    for line, answer in iter_models(path, Answer):
        check_answer(answer, path, line, passages.get(answer.question_key))
        # a line naming no system is blamed on its id: without systems, ids are the answers'
        duplicate = "system" if "system" in answer.model_fields_set else ("question_id" if answer.question_id else "id")
        answer._line = line
        answer._first = questions.add(line, answer.question_key, answer.system,
                                      answer.model_dump(include=set(QUESTION_FIELDS)), answer.model_fields_set,
                                      duplicate_field=duplicate)
        if answer._first and answer.contexts:
            passages[answer.question_key] = tuple(c.id for c in answer.contexts)
        yield answer


def iter_answer_pairs(
    path: str | Path, extractor: Any, instances: dict[str, Any], chunk_size: int = 256
) -> Iterator[tuple[Any, Any]]:
    """(instance, generation) per answer line, in file order: one instance per question,
    built from its first line (references parsed one batch per chunk), added to
    ``instances``; every later answer to it shares it. An answer citing other passages
    or sentences than the question's first answer gets a copy carrying its own citations."""
    from factcov.domains.rag.scoring import build_instances, to_generation

    for chunk in chunked(iter_answers(path), chunk_size):
        firsts = [a for a in chunk if a._first]
        for answer, instance in zip(firsts, build_instances(firsts, extractor)):
            instances[answer.question_key] = instance
        for answer in chunk:
            instance = instances[answer.question_key]
            citations = [c.model_dump(exclude_none=True) for c in answer.citations]
            if not answer._first and citations != instance.context["citations"]:
                instance = instance.model_copy(update={"context": {**instance.context, "citations": citations}})
            yield instance, to_generation(answer)


class CitationError(AnswerLineError):
    """A citation past the answer's sentences or claims, found while scoring (where the answer
    was rebuilt from its instance and generation): names the question and the system, so the
    command finds the answer's line."""

    def __init__(self, message: str, *, answer: Answer, field: str) -> None:
        super().__init__(message, question_id=answer.question_key, system=answer.system, field=field)
        self.line = answer._line


def check_citation_targets(answer: Answer, n_sentences: int, n_claims: int) -> None:
    """A citation must point at a sentence the answer has and a claim read from it;
    one past the end is an error in the input, not a citation that supports nothing."""
    for index, citation in enumerate(answer.citations):
        if citation.sentence is not None and citation.sentence >= n_sentences:
            raise CitationError(
                f"answer '{answer.id}' cites sentence {citation.sentence}, but it has {n_sentences} "
                "sentence(s) (0-based)", answer=answer, field=f"citations.{index}.sentence",
            )
        if citation.claim is not None and citation.claim >= n_claims:
            raise CitationError(
                f"answer '{answer.id}' cites claim {citation.claim}, but {n_claims} claim(s) were read from it "
                "(0-based)", answer=answer, field=f"citations.{index}.claim",
            )
