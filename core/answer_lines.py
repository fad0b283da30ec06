"""Answer lines: one file holding both the questions and several systems' answers to them.

The usual shape of a RAG evaluation export: one JSON line per (question, system) answer,
each repeating the question's own fields (question, passages, reference). A domain that
reads such lines (``Domain.answer_pairs``; rag does) builds one instance per question
and one generation per answer, so ``factcov score -d DOMAIN -i answers.jsonl`` (no
``-g``) scores them like an instance file and a generations file.

``QuestionLines`` is the bookkeeping every such reader needs, kept here so no domain
writes it again: two answers of one system to one question are an error, and a
question's own fields given on a later line must equal the ones its first line gave (a
later line may leave them out). Memory stays bounded by the questions, not the answers:
per question a digest of each of its fields and the line it started on, and one bit per
(question, system) (``SeenPairs``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from factcov.errors import InputError
from factcov.inputs import SeenPairs
from factcov.model import Generation, Instance


def _digest(value: Any) -> bytes:
    return hashlib.blake2b(json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode(),
                           digest_size=16).digest()


class QuestionLines:
    """Checks the lines of an answer file as they are read.

    ``question_fields`` are the fields that belong to the question (the same for every
    system's answer to it); ``add`` returns True for a question's first line.
    """

    def __init__(self, path: str | Path, question_fields: Sequence[str]) -> None:
        self.path = path
        self.question_fields = tuple(question_fields)
        self._first: dict[str, tuple[int, tuple[bytes, ...]]] = {}
        self._seen = SeenPairs()

    def add(self, line: int, question_id: str, system: str, fields: Mapping[str, Any],
            given: set[str] | frozenset[str], duplicate_field: str = "system") -> bool:
        """Record one answer line; ``fields`` holds the question's fields (defaults
        included), ``given`` the names the line wrote itself. A second answer of the
        same system to the same question is an error on ``duplicate_field``."""
        if not self._seen.add(question_id, system):
            raise InputError(
                f"a second answer of system '{system}' to question '{question_id}' (first on "
                f"{self._line_of(question_id, system)}); each system answers a question once",
                path=self.path, line=line, field=duplicate_field,
            )
        digests = tuple(_digest(fields[name]) for name in self.question_fields)
        first = self._first.get(question_id)
        if first is None:
            self._first[question_id] = (line, digests)
            return True
        first_line, first_digests = first
        for name, digest, first_digest in zip(self.question_fields, digests, first_digests):
            if name in given and digest != first_digest:
                raise InputError(
                    f"differs from question '{question_id}' as its first line (line {first_line}) gave it; "
                    f"a question's {', '.join(self.question_fields)} are the same for every system: "
                    "repeat them unchanged or leave them out after the first line",
                    path=self.path, line=line, field=name,
                )
        return False

    def first_line(self, question_id: str) -> int | None:
        first = self._first.get(question_id)
        return first[0] if first else None

    def _line_of(self, question_id: str, system: str) -> str:
        """The line of an earlier answer, found by reading the file again (only an error needs it)."""
        line = find_answer_line(self.path, question_id, system)
        return f"line {line}" if line is not None else "an earlier line"


def find_answer_line(path: str | Path, question_id: str, system: str) -> int | None:
    """The first line of ``path`` holding the answer of ``system`` to ``question_id``
    (lines that name it with ``question_id``, or ``id`` when they have none)."""
    from factcov.jsonl import iter_json_lines

    if not Path(path).is_file():
        return None  # a pipe cannot be read a second time
    for number, record in iter_json_lines(path):
        if not isinstance(record, dict):
            continue
        key = record.get("question_id", record.get("id"))
        if key == question_id and record.get("system", "answer") == system:
            return number
    return None


class AnswerLineError(InputError):
    """An error found while an answer was scored (not while its line was read): it names
    the question and the system, and the command finds the line."""

    def __init__(self, message: str, *, question_id: str, system: str, field: str) -> None:
        self.question_id = question_id
        self.system = system
        super().__init__(message, field=field)


def located(error: InputError, path: str | Path) -> InputError:
    """``error`` with the answer file's path and, for an ``AnswerLineError``, its line."""
    if error.path is not None:
        return error
    line = error.line
    if line is None and isinstance(error, AnswerLineError):
        line = find_answer_line(path, error.question_id, error.system)
    return InputError(error.message, path=path, line=line, field=error.field)


def score_answer_file(
    domain: Any,
    path: str | Path,
    outdir: str | Path,
    *,
    extractor: Any = None,
    extractor_options: dict[str, Any] | None = None,
    policy: Any = None,
    **run_options: Any,
) -> Any:
    """``factcov score`` of a file of answer lines: the domain's ``answer_pairs`` build the
    instances (with the run's extractor: rag parses the references) and the core runner
    scores them. Errors found while scoring name the answer's line."""
    from factcov.evaluate import Evaluator
    from factcov.runner import input_name, score_run

    if not domain.reads_answer_lines():
        raise InputError(
            f"domain '{domain.name}' reads no answer lines; give its instances with -i and the "
            "generations with -g", path=path,
        )
    evaluator = Evaluator(domain, extractor=extractor, policy=policy, extractor_options=extractor_options)
    built = evaluator.extractor_for(domain.languages[0])
    instances: dict[str, Instance] = {}
    pairs: Iterator[tuple[Instance, Generation]] = domain.answer_pairs(path, built, instances)
    factory = evaluator.factory
    if not run_options.get("dask"):  # here or in forked workers: the extractor that read the questions scores
        def factory(language: str) -> Any:  # the answers (what it parsed then, it keeps); a cluster builds its own
            return evaluator.extractor_for(language)
    try:
        return score_run(
            domain, instances, pairs, outdir, inputs={"answers": input_name(path)},
            extractor=factory if extractor is None or isinstance(extractor, str) else extractor,
            extractor_options=extractor_options, policy=evaluator.policy, empty_input=path, **run_options,
        )
    except InputError as error:
        raise located(error, path) from None
