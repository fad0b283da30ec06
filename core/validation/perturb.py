"""Controlled perturbations: does each metric move the way it must when a text is damaged?

Start from the realized text of every oracle fact (complete and correct: P = R = 1) and
damage it in one known way at a time:

- ``drop``: leave out k facts (not ones the other facts' text states anyway, see
  ``_implied``). Recall and F1 fall; precision and contradictions stay.
- ``corrupt``: state k facts with a wrong value (``Domain.perturb``). Precision, recall
  and F1 fall; contradictions rise (when a corrupted type is closed-world).
- ``add_unsupported``: append claims the data does not support: a fact of another
  instance that this instance's data does not support, or, when no such fact reads as
  a claim, a wrong-valued copy of one of the instance's own facts beside the right one.
  Precision falls; recall stays.
- ``duplicate``: repeat k facts. Recall, precision and contradictions stay.

Every (instance, perturbation, metric) is one check; a metric that moves the wrong way
is a violation, and ``factcov validate perturb`` exits 1 on any violation.

The realized text itself is checked first (``baseline``: precision and recall must be
1, shown as "before" 1 → "after" the measured value). Facts the extractor does not read
back from it are left out of the perturbations: damaging a fact the pipeline never saw
cannot move a metric, and would blame the metric for the extractor's miss (which the
baseline row already reports).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from factcov.domain import Domain
from factcov.evaluate import Evaluator, Result
from factcov.language import fold
from factcov.model import Fact, Generation, Instance

Direction = Literal["down", "up", "same"]
KINDS = ("baseline", "drop", "corrupt", "add_unsupported", "duplicate")
EXPECTATIONS: dict[str, tuple[tuple[str, Direction], ...]] = {
    # "before" is the ideal (1.0), "after" what the realized complete text scored.
    "baseline": (("precision", "same"), ("recall", "same")),
    "drop": (("recall", "down"), ("f1", "down"), ("precision", "same"), ("contradicted", "same")),
    "corrupt": (("precision", "down"), ("recall", "down"), ("f1", "down"), ("contradicted", "up")),
    "add_unsupported": (("precision", "down"), ("recall", "same"), ("f1", "down")),
    "duplicate": (("recall", "same"), ("precision", "same"), ("contradicted", "same")),
}
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Check:
    instance_id: str
    kind: str
    metric: str
    expected: Direction
    before: float | None
    after: float | None
    detail: str
    text: str

    @property
    def ok(self) -> bool:
        return moved(self.before, self.after) == self.expected


@dataclass
class PerturbationOutcome:
    domain: str
    extractor: str
    seed: int
    instances: int = 0
    checks: list[Check] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    unperturbable: dict[str, str] = field(default_factory=dict)

    @property
    def violations(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def summary(self) -> list[dict[str, Any]]:
        """One row per (perturbation, metric): mean before/after, checks, violations."""
        rows = []
        for kind in KINDS:
            for metric, expected in EXPECTATIONS[kind]:
                mine = [c for c in self.checks if c.kind == kind and c.metric == metric]
                if not mine:
                    continue
                rows.append(
                    {
                        "perturbation": kind,
                        "metric": metric,
                        "expected": expected,
                        "before": _mean(c.before for c in mine),
                        "after": _mean(c.after for c in mine),
                        "checks": len(mine),
                        "violations": sum(not c.ok for c in mine),
                    }
                )
        return rows


def unperturbable_types(domain: Domain, instances: Iterable[Instance], seed: int = 0) -> dict[str, str]:
    """Claim types of the instances' facts that ``perturb`` cannot corrupt, each with an
    example value and the error (e.g. a free-text name without ``choices``)."""
    failures: dict[str, str] = {}
    rng = random.Random(seed)
    for instance in instances:
        for fact in instance.facts:
            if fact.type in failures:
                continue
            try:
                domain.perturb(fact, rng, instance)
            except ValueError as exc:
                failures[fact.type] = f"{fact.type} (e.g. {fact.value!r}: {exc})"
    return failures


def moved(before: float | None, after: float | None) -> Direction | None:
    """How a metric moved; None when it is undefined on either side."""
    if before is None or after is None:
        return None
    if after < before - TOLERANCE:
        return "down"
    if after > before + TOLERANCE:
        return "up"
    return "same"


def _mean(values: Iterable[float | None]) -> float | None:
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None


@dataclass
class _Case:
    instance: Instance
    kind: str
    text: str
    detail: str
    closed_world_hit: bool = True


def run_perturbations(
    domain: Domain,
    instances: Sequence[Instance] | None = None,
    *,
    extractor: str | None = None,
    seed: int = 0,
    k: int | None = None,
    max_instances: int = 50,
    extractor_options: dict[str, Any] | None = None,
) -> PerturbationOutcome:
    """Perturb the realized texts of ``instances`` (default: the domain's examples) and check."""
    evaluator = Evaluator(domain, extractor=extractor, extractor_options=extractor_options)
    pool = list(instances if instances is not None else domain.example_instances())
    outcome = PerturbationOutcome(domain.name, evaluator.extractor_name, seed)
    rng = random.Random(seed)
    chosen = [i for i in pool if i.facts][:max_instances]
    outcome.skipped = [i.id for i in pool if not i.facts]
    outcome.unperturbable = unperturbable_types(domain, chosen, seed)
    bases = [(instance, domain.realize(list(instance.facts), instance.language, instance)) for instance in chosen]
    base_results = _evaluate(evaluator, bases)
    outcome.instances = len(chosen)
    cases: list[_Case] = []
    for (instance, base), result in zip(bases, base_results):
        measured = _metrics(result, evaluator)
        for metric, expected in EXPECTATIONS["baseline"]:
            outcome.checks.append(
                Check(instance.id, "baseline", metric, expected, 1.0, measured[metric],
                      "realized every oracle fact; missed: " + (", ".join(result.score.missed_ids) or "none"), base)
            )
        read_back = set(result.score.covered_ids)
        cases.extend(_cases(domain, evaluator, instance, base, read_back, pool, rng, k))
    base_by_id = {r.instance.id: r for r in base_results}
    for case, result in zip(cases, _evaluate(evaluator, [(c.instance, c.text) for c in cases])):
        before = _metrics(base_by_id[case.instance.id], evaluator)
        after = _metrics(result, evaluator)
        for metric, expected in EXPECTATIONS[case.kind]:
            if metric == "contradicted" and case.kind == "corrupt" and not case.closed_world_hit:
                continue  # an open-world value that is wrong is unverifiable, not contradicted
            outcome.checks.append(
                Check(case.instance.id, case.kind, metric, expected, before[metric], after[metric], case.detail, case.text)
            )
    return outcome


def _evaluate(evaluator: Evaluator, pairs: list[tuple[Instance, str]]) -> list[Result]:
    generations = [
        (instance, Generation(instance_id=instance.id, system="perturbed", text=text)) for instance, text in pairs
    ]
    return evaluator.evaluate(generations)


def _metrics(result: Result, evaluator: Evaluator) -> dict[str, float | None]:
    values: dict[str, float | None] = dict(result.metrics)
    values["contradicted"] = float(result.score.total.contradicted)
    values["unverifiable"] = float(result.score.total.unverifiable)
    return values


def facts_to_damage(n: int, k: int | None) -> int:
    """How many of n facts a perturbation drops, corrupts or repeats: k, else a third (at least one)."""
    return max(1, min(k if k is not None else max(1, n // 3), n))


def _cases(
    domain: Domain,
    evaluator: Evaluator,
    instance: Instance,
    base: str,
    read_back: set[str],
    pool: Sequence[Instance],
    rng: random.Random,
    k: int | None,
) -> list[_Case]:
    facts = list(instance.facts)
    seen = [i for i, f in enumerate(facts) if f.id in read_back]  # facts the baseline covered
    language = instance.language
    cases: list[_Case] = []
    if not seen:
        return cases
    droppable = [i for i in seen if not _implied(domain, facts, i, instance)]
    if len(facts) >= 2 and droppable:  # dropping every fact leaves no claim: precision undefined
        dropped = set(rng.sample(droppable, min(facts_to_damage(len(facts), k), len(droppable), len(facts) - 1)))
        kept = [f for i, f in enumerate(facts) if i not in dropped]
        names = ", ".join(facts[i].id for i in sorted(dropped))
        cases.append(_Case(instance, "drop", domain.realize(kept, language, instance), f"dropped {names}"))

    corrupted = _corrupt(domain, instance, seen, rng, facts_to_damage(len(facts), k))
    if corrupted is not None:
        changed, wrong_facts, closed = corrupted
        detail = "; ".join(f"{f.id}: {f.value!r} -> {w.value!r}" for f, w in changed)
        cases.append(
            _Case(instance, "corrupt", domain.realize(wrong_facts, language, instance), detail, closed)
        )

    extra = _unsupported_sentence(domain, evaluator, instance, pool, rng)
    if extra is not None:
        sentence, detail = extra
        cases.append(_Case(instance, "add_unsupported", f"{base} {sentence}", detail))

    repeated = [facts[i] for i in rng.sample(seen, min(facts_to_damage(len(facts), k), len(seen)))]
    cases.append(
        _Case(
            instance,
            "duplicate",
            f"{base} {domain.realize(repeated, language, instance)}",
            "repeated " + ", ".join(f.id for f in repeated),
        )
    )
    return cases


def _implied(domain: Domain, facts: list[Fact], index: int, instance: Instance) -> bool:
    """Whether the other facts' text states this one anyway: every key slot and the value
    appear in it (case- and accent-folded), e.g. an entity named in a relation's sentence.
    Dropping such a fact does not remove it from the text, so recall rightly stays."""
    others = fold(domain.realize([f for i, f in enumerate(facts) if i != index], instance.language, instance))
    fact = facts[index]
    parts = [*fact.key.values(), *(fact.value if isinstance(fact.value, list) else [fact.value])]
    return all(fold(str(part)) in others for part in parts if part is not None)


def _corrupt(
    domain: Domain, instance: Instance, seen: list[int], rng: random.Random, k: int
) -> tuple[list[tuple[Fact, Fact]], list[Fact], bool] | None:
    facts = list(instance.facts)
    order = rng.sample(seen, len(seen))
    changed: dict[int, Fact] = {}
    for index in order:
        if len(changed) == k:
            break
        try:
            changed[index] = domain.perturb(facts[index], rng, instance)
        except ValueError:
            continue  # a claim type the domain cannot perturb (e.g. free text)
    if not changed:
        return None
    wrong = [changed.get(i, f) for i, f in enumerate(facts)]
    closed = any(domain.claim_type(facts[i].type).closed_world for i in changed)
    return [(facts[i], changed[i]) for i in sorted(changed)], wrong, closed


def _unsupported_sentence(
    domain: Domain,
    evaluator: Evaluator,
    instance: Instance,
    pool: Sequence[Instance],
    rng: random.Random,
) -> tuple[str, str] | None:
    """A sentence whose claims this instance's data does not support, checked by scoring it alone."""
    own = set(instance.facts)
    others = [o for o in pool if o.id != instance.id and o.language == instance.language and o.facts]
    for other in rng.sample(others, min(8, len(others))):
        fact = rng.choice(other.facts)
        if fact in own:
            continue
        sentence = domain.realize([fact], instance.language, other)
        if _reads_unsupported(evaluator, instance, sentence):
            return sentence, f"fact of {other.id}: {fact.id} = {fact.value!r}"
    for fact in rng.sample(list(instance.facts), len(instance.facts)):
        try:
            wrong = domain.perturb(fact, rng, instance)
        except ValueError:
            continue
        sentence = domain.realize([wrong], instance.language, instance)
        if _reads_unsupported(evaluator, instance, sentence):
            return sentence, f"wrong copy of {fact.id}: {wrong.value!r} (right value kept)"
    return None


def _reads_unsupported(evaluator: Evaluator, instance: Instance, sentence: str) -> bool:
    result = _evaluate(evaluator, [(instance, sentence)])[0]
    total = result.score.total
    return total.n_claims > 0 and total.supported == 0
