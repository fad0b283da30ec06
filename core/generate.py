"""``factcov generate``: one generation per instance from a chat model, resumable.

Instances already in the output are not asked again (after an interruption, kill -9
included); instances whose request failed (timeouts, 429/5xx after every retry, a
truncated or empty answer) are listed with the reason in ``<out>.errors.jsonl`` and
asked again by the next run. Each line records the model and its token counts, and in
``meta`` the prompt variant, the prompt's token count (the server's), the finish reason
and whether the answer was cut off (``finish_reason == "length"``: ``on_truncated`` keeps
it flagged, drops it or stops the run). A reasoning model's thinking is never part of the
text; ``keep_reasoning`` keeps it in meta.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factcov.chat import ChatAnswer, ChatClient, ChatError
from factcov.errors import InputError
from factcov.inputs import load_instances
from factcov.jsonl import write_jsonl_atomic
from factcov.model import Instance
from factcov.plugins import get_domain
from factcov.progress import progress
from factcov.prompts import NEUTRAL, PromptTemplate, prompt_messages, variant_name
from factcov.reasoning import split_reasoning
from factcov.resumable import ResumableJsonl

ON_TRUNCATED = ("keep", "drop", "fail")


@dataclass
class GenerateOutcome:
    out: Path
    total: int
    written: int = 0
    resumed: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # prompt tokens of each request the server counted (mean/max in the summary line)
    prompt_counts: list[int] = field(default_factory=list)
    truncated: int = 0
    dropped: list[str] = field(default_factory=list)

    @property
    def errors_path(self) -> Path:
        return errors_path(self.out)


def errors_path(out: Path) -> Path:
    name = out.name[:-len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(f"{name}.errors.jsonl")


def is_truncated(answer: ChatAnswer) -> bool:
    return answer.finish_reason == "length"


def generation_record(instance: Instance, system: str, model: str, answer: ChatAnswer, *,
                      prompt: str = NEUTRAL, keep_reasoning: bool = False) -> dict[str, Any]:
    text, reasoning = split_reasoning(answer.content, answer.reasoning)
    meta: dict[str, Any] = {"prompt": prompt, "prompt_tokens": answer.usage.get("prompt_tokens"),
                            "finish_reason": answer.finish_reason, "truncated": is_truncated(answer)}
    if reasoning is not None:
        meta["reasoning_chars"] = len(reasoning)
        if keep_reasoning:
            meta["reasoning"] = reasoning
    return {
        "instance_id": instance.id, "system": system, "language": instance.language,
        "text": text, "model": model, "usage": answer.usage, "meta": meta,
    }


def select(instances: dict[str, Instance], split: str | None, limit: int | None) -> list[Instance]:
    chosen = [i for i in instances.values() if split is None or i.split == split]
    return chosen[:limit] if limit is not None else chosen


def generate_file(
    domain_name: str,
    instances_path: str | Path,
    out: str | Path,
    client: ChatClient,
    *,
    system: str | None = None,
    split: str | None = None,
    limit: int | None = None,
    parameters: dict[str, Any] | None = None,
    quiet: bool = True,
    prompt: str | PromptTemplate = NEUTRAL,
    on_truncated: str = "keep",
    keep_reasoning: bool = False,
) -> GenerateOutcome:
    domain = get_domain(domain_name)
    chosen = select(load_instances(instances_path, domain), split, limit)
    if not chosen:
        raise InputError("no instance to generate for" + (f" in split '{split}'" if split else ""),
                         path=instances_path)
    system = system or client.model
    out = Path(out)
    if out.is_dir():
        raise InputError("is a directory, expected the generations file to write", path=out)
    if on_truncated not in ON_TRUNCATED:
        raise InputError(f"--on-truncated must be one of {', '.join(ON_TRUNCATED)}, got {on_truncated!r}")
    if out.suffix == ".gz":  # lines are appended as answers arrive: a gzip stream cannot resume
        raise InputError("generate writes plain JSON lines (appended as answers arrive); drop '.gz'", path=out)
    outcome = GenerateOutcome(out=out, total=len(chosen))
    created = not out.exists()
    try:
        settings = _Settings(prompt, on_truncated, keep_reasoning)
        _ask(chosen, out, client, system, {"max_tokens": domain.answer_tokens, **(parameters or {})}, quiet,
             outcome, settings)
    finally:  # a run that wrote nothing (a dead server, Ctrl-C) leaves no empty file behind
        if created and out.exists() and out.stat().st_size == 0:
            out.unlink()
    errors = outcome.errors_path
    if outcome.failed:
        write_jsonl_atomic(errors, ({"instance_id": k, "system": system, "error": v}
                                    for k, v in sorted(outcome.failed.items())))
    else:
        errors.unlink(missing_ok=True)
    return outcome


@dataclass(frozen=True)
class _Settings:
    prompt: str | PromptTemplate
    on_truncated: str
    keep_reasoning: bool


def _ask(chosen: list[Instance], out: Path, client: ChatClient, system: str, parameters: dict[str, Any],
         quiet: bool, outcome: GenerateOutcome, settings: _Settings) -> None:
    with ResumableJsonl(out, key=lambda r: (r["instance_id"], r["system"])) as sink:
        todo = [i for i in chosen if (i.id, system) not in sink]
        outcome.resumed = len(chosen) - len(todo)
        by_id = {i.id: i for i in todo}
        jobs = ((i.id, prompt_messages(i, settings.prompt)) for i in todo)
        prompt_name = variant_name(settings.prompt)
        with progress(f"generate {system}", "texts", enabled=not quiet and bool(todo)) as advance:
            advance(total=len(todo))
            for instance_id, answer in client.complete_many(jobs, **parameters):
                if isinstance(answer, ChatError):
                    # A failure is not progress: the bar counts texts written, failures beside it.
                    outcome.failed[instance_id] = str(answer)
                    advance(description=f"({len(outcome.failed)} failed)")
                    continue
                if "prompt_tokens" in answer.usage:
                    outcome.prompt_counts.append(answer.usage["prompt_tokens"])
                if is_truncated(answer):
                    outcome.truncated += 1
                    if settings.on_truncated == "fail":
                        raise ChatError(f"{instance_id}: the answer was cut off at --max-tokens "
                                        f"({parameters.get('max_tokens')}; finish_reason 'length'); raise --max-tokens "
                                        "or choose --on-truncated keep|drop; answers so far are kept")
                    if settings.on_truncated == "drop":  # not written; the next run asks it again
                        outcome.dropped.append(instance_id)
                        advance(description=f"({len(outcome.dropped)} truncated, dropped)")
                        continue
                record = generation_record(by_id[instance_id], system, client.model, answer, prompt=prompt_name,
                                           keep_reasoning=settings.keep_reasoning)
                if not record["text"]:
                    outcome.failed[instance_id] = "the answer holds only the model's reasoning, no text"
                    continue
                sink.append(record)
                outcome.written += 1
                outcome.prompt_tokens += answer.usage.get("prompt_tokens", 0)
                outcome.completion_tokens += answer.usage.get("completion_tokens", 0)
                advance(1)
        if not outcome.failed:
            dropped = set(outcome.dropped)
            sink.finish([(i.id, system) for i in chosen if i.id not in dropped])
