"""Fine-tuning data from the benchmark: chat SFT records and preference pairs.

- ``chat``: ``{"id", "messages": [system, user, assistant]}``; system and user are what
  ``factcov generate`` sends (the domain's prompt rendering), the assistant turn is the
  domain realizer's silver text of every oracle fact: TRL's conversational format, which
  its ``SFTTrainer`` and axolotl's ``chat_template`` datasets read as-is.
- ``preference``: ``{"id", "prompt": [system, user], "chosen": [assistant], "rejected":
  [assistant]}`` (TRL's conversational preference format, for DPO/ORPO): chosen is the
  silver text, rejected the silver text of the same facts with a third of them given a
  wrong value by the domain's ``perturb`` (or, where no value can be perturbed, with
  half of them left out).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from factcov.domain import Domain
from factcov.inputs import load_instances
from factcov.jsonl import write_jsonl_atomic
from factcov.model import Fact, Instance
from factcov.plugins import get_domain
from factcov.prompts import prompt_messages


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["system", "user", "assistant"]
    content: str = Field(min_length=1)


class SFTRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    messages: list[ChatMessage] = Field(min_length=3, max_length=3)


class PreferenceRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    prompt: list[ChatMessage] = Field(min_length=2, max_length=2)
    chosen: list[ChatMessage] = Field(min_length=1, max_length=1)
    rejected: list[ChatMessage] = Field(min_length=1, max_length=1)


@dataclass
class ExportOutcome:
    out: Path
    written: int
    selected: int
    skipped: dict[str, str]


def silver_text(domain: Domain, instance: Instance, facts: list[Fact] | None = None) -> str:
    return domain.realize(instance.facts if facts is None else facts, instance.language, instance).strip()


def damaged_facts(domain: Domain, instance: Instance, rng: random.Random) -> list[Fact]:
    """The instance's facts with a third (at least one) given a wrong value; if none can be, half dropped."""
    facts = list(instance.facts)
    wanted = max(1, len(facts) // 3)
    order = list(range(len(facts)))
    rng.shuffle(order)
    changed = 0
    for index in order:
        if changed == wanted:
            break
        try:
            facts[index] = domain.perturb(facts[index], rng, instance)
        except ValueError:
            continue
        changed += 1
    if changed:
        return facts
    keep = sorted(order[: len(facts) // 2])
    return [facts[i] for i in keep]


def records(domain: Domain, instances: list[Instance], form: str, seed: int,
            skipped: dict[str, str]) -> Iterator[dict]:
    for instance in instances:
        if not instance.facts:
            skipped[instance.id] = "no oracle facts: nothing to say"
            continue
        prompt = prompt_messages(instance)
        chosen = silver_text(domain, instance)
        if not chosen:
            skipped[instance.id] = "the realizer gave an empty text"
            continue
        if form == "chat":
            yield SFTRecord.model_validate(
                {"id": instance.id, "messages": [*prompt, {"role": "assistant", "content": chosen}]}
            ).model_dump()
            continue
        rejected = silver_text(domain, instance, damaged_facts(domain, instance, random.Random(f"{seed}:{instance.id}")))
        if not rejected or rejected == chosen:
            skipped[instance.id] = "the perturbed text equals the silver text"
            continue
        yield PreferenceRecord.model_validate({
            "id": instance.id, "prompt": prompt,
            "chosen": [{"role": "assistant", "content": chosen}],
            "rejected": [{"role": "assistant", "content": rejected}],
        }).model_dump()


def export_sft(domain_name: str, instances_path: str | Path, out: str | Path, *, split: str | None = None,
               form: str = "chat", seed: int = 0) -> ExportOutcome:
    from factcov.errors import InputError

    if form not in ("chat", "preference"):
        raise InputError(f"--format must be 'chat' or 'preference', got '{form}'")
    if Path(out).is_dir():
        raise InputError("is a directory, expected the JSONL file to write", path=out)
    domain = get_domain(domain_name)
    chosen = [i for i in load_instances(instances_path, domain).values() if split is None or i.split == split]
    if not chosen:
        raise InputError(f"no instance of split '{split}'", path=instances_path, field="split")
    skipped: dict[str, str] = {}
    written = write_jsonl_atomic(out, records(domain, chosen, form, seed, skipped), nothing=(
        f"no {form} record to export (every instance was skipped); nothing written (the existing file is as it was)"))
    return ExportOutcome(Path(out), written, len(chosen), skipped)
