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

from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictBool, StrictInt, model_validator

from factcov.errors import InputError
from factcov.jsonl import iter_models
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

    id: NonBlankStr
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


def check_answer(answer: Answer, path: str | Path, line: int) -> None:
    """Cross-field checks pydantic cannot place on a field: unique ids, cited ids exist."""
    seen: set[str] = set()
    for index, context in enumerate(answer.contexts):
        if context.id in seen:
            raise InputError(f"duplicate context id '{context.id}'", path=path, line=line,
                             field=f"contexts.{index}.id")
        seen.add(context.id)
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
    """Validated answers of a JSONL file; ids must be unique."""
    first_line: dict[str, int] = {}
    for line, answer in iter_models(path, Answer):
        check_answer(answer, path, line)
        if answer.id in first_line:
            raise InputError(f"duplicate answer id '{answer.id}' (first on line {first_line[answer.id]})",
                             path=path, line=line, field="id")
        first_line[answer.id] = line
        answer._line = line
        yield answer


class CitationError(InputError):
    """A citation past the answer's sentences or claims, found while scoring (where the answer
    may have been rebuilt from its instance): carries the answer's id so the command names its line."""

    def __init__(self, message: str, *, answer_id: str, line: int | None, field: str) -> None:
        self.answer_id = answer_id
        super().__init__(message, line=line, field=field)


def check_citation_targets(answer: Answer, n_sentences: int, n_claims: int) -> None:
    """A citation must point at a sentence the answer has and a claim read from it;
    one past the end is an error in the input, not a citation that supports nothing."""
    for index, citation in enumerate(answer.citations):
        if citation.sentence is not None and citation.sentence >= n_sentences:
            raise CitationError(
                f"answer '{answer.id}' cites sentence {citation.sentence}, but it has {n_sentences} "
                "sentence(s) (0-based)", answer_id=answer.id, line=answer._line, field=f"citations.{index}.sentence",
            )
        if citation.claim is not None and citation.claim >= n_claims:
            raise CitationError(
                f"answer '{answer.id}' cites claim {citation.claim}, but {n_claims} claim(s) were read from it "
                "(0-based)", answer_id=answer.id, line=answer._line, field=f"citations.{index}.claim",
            )
