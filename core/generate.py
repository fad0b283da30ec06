"""``factcov generate``: one generation per instance from a chat model, resumable.

Instances already in the output are not asked again (after an interruption, kill -9
included); instances whose request failed (timeouts, 429/5xx after every retry, a
truncated or empty answer) are listed with the reason in ``<out>.errors.jsonl`` and
asked again by the next run. Each line records the model and its token counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factcov.chat import ChatAnswer, ChatClient, ChatError
from factcov.cli.console import progress
from factcov.errors import InputError
from factcov.inputs import load_instances
from factcov.jsonl import write_jsonl_atomic
from factcov.model import Instance
from factcov.plugins import get_domain
from factcov.prompts import prompt_messages
from factcov.resumable import ResumableJsonl


@dataclass
class GenerateOutcome:
    out: Path
    total: int
    written: int = 0
    resumed: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def errors_path(self) -> Path:
        return errors_path(self.out)


def errors_path(out: Path) -> Path:
    name = out.name[:-len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(f"{name}.errors.jsonl")


def generation_record(instance: Instance, system: str, model: str, answer: ChatAnswer) -> dict[str, Any]:
    return {
        "instance_id": instance.id, "system": system, "language": instance.language,
        "text": answer.content.strip(), "model": model, "usage": answer.usage,
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
    if out.suffix == ".gz":  # lines are appended as answers arrive: a gzip stream cannot resume
        raise InputError("generate writes plain JSON lines (appended as answers arrive); drop '.gz'", path=out)
    outcome = GenerateOutcome(out=out, total=len(chosen))
    created = not out.exists()
    try:
        _ask(chosen, out, client, system, parameters or {}, quiet, outcome)
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


def _ask(chosen: list[Instance], out: Path, client: ChatClient, system: str, parameters: dict[str, Any],
         quiet: bool, outcome: GenerateOutcome) -> None:
    with ResumableJsonl(out, key=lambda r: (r["instance_id"], r["system"])) as sink:
        todo = [i for i in chosen if (i.id, system) not in sink]
        outcome.resumed = len(chosen) - len(todo)
        by_id = {i.id: i for i in todo}
        jobs = ((i.id, prompt_messages(i)) for i in todo)
        with progress(f"generate {system}", "texts", enabled=not quiet and bool(todo)) as advance:
            advance(total=len(todo))
            for instance_id, answer in client.complete_many(jobs, **parameters):
                if isinstance(answer, ChatError):
                    # A failure is not progress: the bar counts texts written, failures beside it.
                    outcome.failed[instance_id] = str(answer)
                    advance(description=f"({len(outcome.failed)} failed)")
                    continue
                sink.append(generation_record(by_id[instance_id], system, client.model, answer))
                outcome.written += 1
                outcome.prompt_tokens += answer.usage.get("prompt_tokens", 0)
                outcome.completion_tokens += answer.usage.get("completion_tokens", 0)
                advance(1)
        if not outcome.failed:
            sink.finish([(i.id, system) for i in chosen])
