"""The rag demo and examples: the museum's six answers (``museum.jsonl``, see docs/domains/rag.md)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from factcov.model import Generation, Instance

MUSEUM_FILE = Path(__file__).with_name("museum.jsonl")


def museum_answers() -> list:
    from factcov.domains.rag.inputs import iter_answers

    return list(iter_answers(MUSEUM_FILE))


def example_instances() -> list[Instance]:
    """The museum example's reference as an instance (one per distinct reference)."""
    from factcov.domains.rag.oracle import build_instances

    answers = museum_answers()
    unique = {a.reference: a for a in answers if a.reference}
    return build_instances(list(unique.values()))


def demo_generations(instances: Sequence[Instance]) -> list[Generation]:
    """Each museum answer as a system: the terse ones are precise, the complete one covers."""
    generations = []
    for instance in instances:
        for answer in museum_answers():
            generations.append(Generation(instance_id=instance.id, system=answer.id, text=answer.answer))
    return generations
