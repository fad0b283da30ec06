"""The model-based checker of rag answers (``-X checker=llm``): a chat model splits and judges.

For each answer, one request to any OpenAI-compatible server (vLLM, Ollama, llama.cpp's
server, hosted APIs) through ``factcov.chat.ChatClient`` (its retries and its on-disk
cache keyed by the request: a rerun asks nothing it has an answer for). The model is
given the question, the retrieved passages, the reference and the answer, and asked for
JSON: the answer split into claims, each judged against the reference and against the
passages (``supported`` / ``contradicted`` / ``unsupported``), and the reference split
into claims, each ``covered`` by the answer or not. From these per-unit verdicts the
checker computes the rule-based scorer's columns itself:

- ``precision``: answer claims supported / answer claims. A claim's verdict is the
  reference's when the reference decides (supported or contradicted), else the passages'
  (the reference is the ground truth; a passage may be outdated). Undefined for an answer
  with no claim, or with neither a reference nor a passage to check against.
- ``recall``: covered reference claims / reference claims; undefined without a reference
  claim; an empty answer covers nothing (0).
- ``f1``: their harmonic mean (0 when recall is 0; undefined when recall is).
- ``faithfulness``: answer claims the passages support / answer claims; undefined
  without passages or claims.
- ``hallucinated``: each answer claim with its final verdict when not supported.

Bounded: passages and texts are cut to ``MAX_TEXT_CHARS``, at most ``MAX_CLAIMS`` claims
a side are read, and an answer the model did not give as the JSON asked for (or whose
whose claims are not the lists asked for) is a *failure of that answer*: it is counted and its
columns are undefined, never a crash and never a fabricated score. A server that gives no
answer after every retry is an environment failure (``ChatError``, exit 3), as for the
``llm`` extractor: nothing is written.

Where the columns go is ``COLUMNS`` and ``HALLUCINATED`` (rag's scorer names): the one
place to rename when the scorer's columns change.
"""

from __future__ import annotations

import json
import math
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from factcov.errors import InputError

Label = Literal["supported", "contradicted", "unsupported"]
MAX_TEXT_CHARS = 8000
MAX_PASSAGES = 20
MAX_CLAIMS = 100
# checker column -> the rag scorer's column it fills (unit_* are the content-unit scorer's)
COLUMNS = {"precision": "unit_precision", "recall": "unit_recall", "f1": "unit_f1", "faithfulness": "faithfulness"}
HALLUCINATED = "hallucinated_units"
# -X keys of the rag extractors that set the checker (the model is checker_model: -X model is spaCy's)
OPTION_TYPES: dict[str, type] = {"checker": str, "checker_url": str, "checker_model": str, "checker_cache": str,
                                 "checker_timeout": float}
UNSIGNED_OPTIONS = frozenset({"checker_url", "checker_cache", "checker_timeout"})  # where and how fast, not what

SYSTEM_PROMPT = (
    "You check an answer of a question-answering system. Split the ANSWER into short, self-contained factual "
    "claims and judge each against the REFERENCE (the correct answer) and against the PASSAGES (what was "
    "retrieved): 'supported' if it says so, 'contradicted' if it says otherwise, 'unsupported' if it says "
    "nothing about it. Split the REFERENCE into claims too and say for each whether the ANSWER covers it. "
    "Return only JSON: {\"answer_claims\": [{\"claim\": str, \"reference\": label, \"passages\": label}], "
    "\"reference_claims\": [{\"claim\": str, \"covered\": true|false}]}. With no reference, use 'unsupported' "
    "for 'reference' and an empty 'reference_claims'; with no passages, 'unsupported' for 'passages'."
)
REQUEST_PARAMETERS = {"temperature": 0, "response_format": {"type": "json_object"}}


class AnswerClaim(BaseModel):
    model_config = ConfigDict(extra="ignore")

    claim: str
    reference: Label = "unsupported"
    passages: Label = "unsupported"

    @field_validator("reference", "passages", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value


class ReferenceClaim(BaseModel):
    model_config = ConfigDict(extra="ignore")

    claim: str
    covered: bool


class ModelVerdicts(BaseModel):
    model_config = ConfigDict(extra="ignore")

    answer_claims: list[AnswerClaim] = []
    reference_claims: list[ReferenceClaim] = []


@dataclass(frozen=True)
class UnitVerdict:
    """One claim the model read: from the answer (its final verdict) or the reference (covered or not)."""

    side: Literal["answer", "reference"]
    text: str
    verdict: str  # answer: supported/contradicted/unsupported; reference: covered/missed
    passages: str | None = None  # answer claims: the passages' verdict


@dataclass
class CheckedAnswer:
    units: list[UnitVerdict] = field(default_factory=list)
    metrics: dict[str, float | None] = field(default_factory=dict)
    hallucinated: list[str] = field(default_factory=list)
    failure: str | None = None  # why the model's answer was unusable (then every column is undefined)


@dataclass(frozen=True)
class CheckRequest:
    """What the model sees of one answer."""

    answer: str
    question: str = ""
    reference: str | None = None
    passages: tuple[str, ...] = ()

    def messages(self) -> list[dict[str, str]]:
        passages = "\n".join(f"[{n}] {_cut(text)}" for n, text in enumerate(self.passages[:MAX_PASSAGES], 1))
        user = (f"QUESTION:\n{_cut(self.question)}\n\nPASSAGES:\n{passages or '(none)'}\n\n"
                f"REFERENCE:\n{_cut(self.reference) if self.reference else '(none)'}\n\nANSWER:\n{_cut(self.answer)}")
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS] + " …"


def final_verdict(claim: AnswerClaim, has_reference: bool) -> str:
    """The reference decides when it says something; otherwise the passages do."""
    if has_reference and claim.reference != "unsupported":
        return claim.reference
    return claim.passages


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def judged(request: CheckRequest, content: str) -> CheckedAnswer:
    """The columns of one answer from the model's JSON (a failure when it is not the JSON asked for)."""
    try:
        verdicts = ModelVerdicts.model_validate(json.loads(content))
    except (ValueError, ValidationError, RecursionError, TypeError) as error:
        kind = "not JSON" if isinstance(error, json.JSONDecodeError) else "not the JSON asked for"
        return CheckedAnswer(failure=f"the model's answer is {kind}: {content[:80]!r}")
    has_reference = bool(request.reference and request.reference.strip())
    claims = verdicts.answer_claims[:MAX_CLAIMS] if request.answer.strip() else []
    references = verdicts.reference_claims[:MAX_CLAIMS] if has_reference else []
    units = [UnitVerdict("answer", c.claim, final_verdict(c, has_reference), c.passages) for c in claims]
    units += [UnitVerdict("reference", c.claim, "covered" if c.covered else "missed") for c in references]
    hallucinated = sorted({f"{u.text} ({u.verdict})" for u in units if u.side == "answer" and u.verdict != "supported"})
    return CheckedAnswer(units, _judged_metrics(request, units, claims, references), hallucinated)


def _judged_metrics(request: CheckRequest, units: list[UnitVerdict], claims: list[Any],
                    references: list[Any]) -> dict[str, float | None]:
    """Precision, recall, F1 and faithfulness of one checked answer (None: not measurable)."""
    has_reference = bool(request.reference and request.reference.strip())
    has_passages = bool(request.passages)
    supported = sum(u.verdict == "supported" for u in units if u.side == "answer")
    precision = _ratio(supported, len(claims)) if (has_reference or has_passages) else None
    recall = (0.0 if not request.answer.strip() and references
              else _ratio(sum(u.verdict == "covered" for u in units), len(references)))
    faithfulness = _ratio(sum(c.passages == "supported" for c in claims), len(claims)) if has_passages else None
    f1 = None if recall is None else 0.0 if recall == 0 or not precision else 2 * precision * recall / (precision + recall)
    return {"precision": precision, "recall": recall, "f1": f1, "faithfulness": faithfulness}


class LLMChecker:
    """Checks answers with a chat model; ``failures`` counts the answers it could not check."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.failures = 0

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> LLMChecker | None:
        """The checker the rag extractor's options ask for (``-X checker=llm``), or None."""
        from factcov.chat import ChatClient

        kind = options.get("checker")
        if kind in (None, "", "rules"):
            return None
        if kind != "llm":
            raise InputError(f"unknown checker '{kind}'; use llm (a chat model) or rules (the default)",
                             field="checker")
        url = str(options.get("checker_url") or os.environ.get("FACTCOV_LLM_BASE_URL", "")).rstrip("/")
        model = str(options.get("checker_model") or os.environ.get("FACTCOV_LLM_MODEL", ""))
        if not url or not model:
            raise InputError("-X checker=llm needs a server and a model: -X checker_url=URL (an OpenAI-compatible "
                             "/v1 URL) and -X checker_model=NAME, or FACTCOV_LLM_BASE_URL and FACTCOV_LLM_MODEL",
                             field="checker")
        timeout = float(options.get("checker_timeout") or os.environ.get("FACTCOV_LLM_TIMEOUT") or 120)
        if not (math.isfinite(timeout) and timeout > 0):
            raise InputError(f"-X checker_timeout must be seconds above 0, got {timeout}", field="checker_timeout")
        return cls(ChatClient(url, model, cache_dir=cls.cache_of(options), timeout=timeout))

    @staticmethod
    def cache_of(options: dict[str, Any]) -> Path | None:
        """``-X checker_cache=DIR``; ``none`` for no cache; by default ``factcov generate``'s
        (``$FACTCOV_LLM_CACHE`` or ``~/.cache/factcov/chat``)."""
        from factcov.commands import default_chat_cache

        chosen = str(options.get("checker_cache") or "").strip()
        if chosen.lower() == "none":
            return None
        return Path(chosen) if chosen else default_chat_cache()

    def check(self, requests: Sequence[CheckRequest]) -> list[CheckedAnswer]:
        """One checked answer per request, in order; requests in flight ``concurrency`` at a time.
        An empty answer needs no model: it claims nothing and covers nothing."""
        from factcov.chat import ChatError

        out: dict[int, CheckedAnswer] = {}
        jobs = []
        for n, request in enumerate(requests):
            if request.answer.strip():
                jobs.append((n, request.messages()))
            else:
                out[n] = judged(request, '{"answer_claims": [], "reference_claims": []}')
        for n, answer in self.client.complete_many(jobs, **REQUEST_PARAMETERS):
            if isinstance(answer, ChatError):
                raise answer  # the server failed after every retry: the environment (exit 3), as the llm extractor
            out[n] = judged(requests[n], answer.content)
        checked = [out[n] for n in range(len(requests))]
        self.failures += sum(c.failure is not None for c in checked)
        return checked


def scorer_columns(checked: CheckedAnswer) -> dict[str, Any]:
    """The checked answer as the rag scorer's columns (undefined, never invented, on a failure)."""
    columns: dict[str, Any] = {COLUMNS[name]: checked.metrics.get(name) for name in COLUMNS}
    columns[HALLUCINATED] = checked.hallucinated
    return columns


def check_request(instance: Any, generation: Any) -> CheckRequest:
    """What the checker asks about one scored answer: its question, retrieved passages and reference
    (the reference text, else the reference triples one per line)."""
    context = instance.context or {}
    reference = context.get("reference")
    if not reference and context.get("reference_triples"):
        reference = "\n".join(" | ".join(map(str, triple)) for triple in context["reference_triples"])
    passages = tuple(str(c.get("text", "")) for c in context.get("contexts") or ()
                     if isinstance(c, dict) and c.get("retrieved", True))
    return CheckRequest(generation.text, instance.prompt or "", reference, passages)


_NOT_BUILT = object()


def checker_of(extractor: Any) -> LLMChecker | None:
    """The checker an extractor's options ask for, built once per extractor."""
    checker = getattr(extractor, "_rag_checker", _NOT_BUILT)
    if checker is _NOT_BUILT:
        checker = LLMChecker.from_options(dict(getattr(extractor, "options", {}) or {}))
        extractor._rag_checker = checker
    return checker  # type: ignore[return-value]


def apply_checker(extractor: Any, results: Sequence[Any], extras: Sequence[Any]) -> None:
    """The seam in rag's scorer: with ``-X checker=llm``, the model's verdicts replace the
    rule-based columns of each answer's extras (``metrics`` and ``hallucinated_units``).
    Answers the model could not check are counted and warned about; their columns are undefined."""
    checker = checker_of(extractor)
    if checker is None:
        return
    checked = checker.check([check_request(r.instance, r.generation) for r in results])
    for extra, answer in zip(extras, checked):
        columns = scorer_columns(answer)
        extra.hallucinated_units = columns.pop(HALLUCINATED)
        extra.metrics.update(columns)
    failed = [c.failure for c in checked if c.failure is not None]
    if failed:
        warnings.warn(f"the checker model gave no usable verdicts for {len(failed)} of {len(checked)} answer(s) "
                      f"(first: {failed[0]}); their checker columns are undefined", RuntimeWarning, stacklevel=2)
