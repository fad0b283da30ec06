"""Gold error files made by corruption (``factcov validate perturb --write-gold``).

Each instance's complete realized text (system ``realized``, no error) and the same
text with k facts corrupted (system ``corrupted``); every word range the corruption
changed is a gold error typed with the corrupted fact's claim type, found by a word diff
against the complete text and attributed by corrupting each fact alone. Read by
``factcov validate errors`` (``factcov.validation.errors``), so every domain gets an
error-detection check without annotations.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from factcov.domain import Domain
from factcov.model import Fact, Generation, Instance
from factcov.validation.perturb import facts_to_damage

GOLD_SYSTEMS = ("realized", "corrupted")


def _changed_regions(before: str, after: str) -> list[tuple[range, tuple[int, int], tuple[int, int]]]:
    """Where ``after`` differs from ``before``, word by word: (token range in ``before``,
    character span in ``after``, character span in ``before`` it replaces, empty for an
    inserted word). A pure deletion has no span in ``after`` and is left out (a corruption
    replaces a value, it never only deletes)."""
    from difflib import SequenceMatcher

    from factcov.validation.gold import token_spans

    old, new = token_spans(before, "words"), token_spans(after, "words")
    old_words = [before[s:e] for s, e in old]
    new_words = [after[s:e] for s, e in new]
    regions = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_words, new_words, autojunk=False).get_opcodes():
        if tag == "equal" or j1 == j2:
            continue
        if i2 > i1:
            replaced = (old[i1][0], old[i2 - 1][1])
        else:
            at = old[i1][0] if i1 < len(old) else len(before)
            replaced = (at, at)
        regions.append((range(i1, max(i2, i1 + 1)), (new[j1][0], new[j2 - 1][1]), replaced))
    return regions


def _close(gap: str) -> bool:
    """Whether two changed pieces of one fact are one error: at most three words apart
    within a sentence ("laps 4 to 9" whose both ends changed)."""
    from factcov.validation.gold import token_spans

    return len(token_spans(gap, "words")) <= 3 and not any(mark in gap for mark in ".!?;")


def gold_case(
    domain: Domain, instance: Instance, rng: random.Random, k: int | None = None
) -> tuple[str, str, list[dict[str, Any]]] | None:
    """(complete text, the same with k facts corrupted, the corrupted spans as gold rows).

    Each changed region of the corrupted text is typed with the claim type of the fact
    whose corruption alone changes those words of the complete text; two regions of one
    fact a few words apart in one sentence are one error (a multi-token span). ``None`` when no
    fact of the instance can be perturbed or a corruption does not change the text.
    """
    facts = list(instance.facts)
    language = instance.language
    base = domain.realize(facts, language, instance)
    changed: dict[int, Fact] = {}
    for index in rng.sample(range(len(facts)), len(facts)):
        if len(changed) == facts_to_damage(len(facts), k):
            break
        try:
            changed[index] = domain.perturb(facts[index], rng, instance)
        except ValueError:
            continue  # a claim type the domain cannot perturb
    touched: list[tuple[set[int], int]] = []
    for index, wrong in sorted(changed.items()):
        alone = domain.realize([wrong if i == index else f for i, f in enumerate(facts)], language, instance)
        tokens = {t for region, _, _ in _changed_regions(base, alone) for t in region}
        if tokens:
            touched.append((tokens, index))
    if not touched:
        return None
    corrupted = domain.realize([changed.get(i, f) for i, f in enumerate(facts)], language, instance)
    pieces: list[list[Any]] = []  # [fact index or None, start, end, replaced start, replaced end]
    for region, (start, end), (old_start, old_end) in _changed_regions(base, corrupted):
        owner = next((index for tokens, index in touched if tokens & set(region)), None)
        last = pieces[-1] if pieces else None
        if last is not None and owner is not None and last[0] == owner and _close(corrupted[last[2]:start]):
            last[2], last[4] = end, old_end  # one wrong value written in two places, e.g. both ends of a range
        else:
            pieces.append([owner, start, end, old_start, old_end])
    rows = [
        {"instance_id": instance.id, "system": "corrupted",
         "type": facts[owner].type if owner is not None else "unattributed",
         "start": start, "end": end, "text": corrupted[start:end], "correction": base[old_start:old_end]}
        for owner, start, end, old_start, old_end in pieces
    ]
    return (base, corrupted, rows) if rows else None


def write_gold(
    domain: Domain,
    instances: Sequence[Instance],
    directory: str | Path,
    *,
    seed: int = 0,
    k: int | None = None,
    max_instances: int = 50,
) -> dict[str, int]:
    """Write ``instances.jsonl``, ``generations.jsonl`` (each instance's complete text as
    system ``realized``, with no error, and its corrupted text as ``corrupted``) and
    ``errors.jsonl`` (the corrupted spans) into ``directory``, for ``validate errors``.
    The files depend on the domain, the instances and the seed only, not on an extractor."""
    from factcov.jsonl import write_jsonl_atomic

    rng = random.Random(seed)
    chosen, generations, errors = [], [], []
    for instance in [i for i in instances if i.facts][:max_instances]:
        case = gold_case(domain, instance, rng, k)
        if case is None:
            continue
        base, corrupted, rows = case
        chosen.append(instance)
        generations += [Generation(instance_id=instance.id, system="realized", text=base),
                        Generation(instance_id=instance.id, system="corrupted", text=corrupted)]
        errors += rows
    directory = Path(directory)
    write_jsonl_atomic(directory / "instances.jsonl", chosen)
    write_jsonl_atomic(directory / "generations.jsonl", generations)
    write_jsonl_atomic(directory / "errors.jsonl", errors)
    return {"instances": len(chosen), "generations": len(generations), "errors": len(errors)}
