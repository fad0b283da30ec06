"""Contract tests every domain gets for free: ``check_domain(domain)``.

For each example instance (or the ones given) and each language:

1. realize every oracle fact, extract, verify: precision 1 and recall 1;
2. realize the facts with one value perturbed: that claim is contradicted (closed-world
   types) or at least not supported (open-world types), and recall drops;
3. drop facts one at a time from the end: recall falls strictly and precision stays 1;
4. the perturbations of ``factcov validate perturb`` (drop, corrupt, add unsupported,
   duplicate; ``factcov.validation.perturb``) on the same instances: no metric moves
   the wrong way. One contract, whether a domain author runs it in pytest or a user runs
   it on the command line.
5. every claim the extractor reads on the way has a claim type of the domain, key slots of
   that type and a value of its ``value_kind`` (a slip there would only ever be counted
   unverifiable);
6. optionally, hand-written ``examples`` (an instance, a text in real phrasing, the
   claims it must yield): the extractor reads exactly those claims (type, key, value and
   whether out of scope), which the realizer's one-sentence-per-fact text cannot show.

A claim type the domain cannot perturb (the default ``Domain.perturb`` handles numbers,
bools, ranges, lists and types with ``choices``, not free text such as a player's name)
fails up front with one message naming every such type and how to fix it; or pass its
name in ``skip_perturb``.

Raises ``AssertionError`` with the text, the claims and the missed facts on failure,
so it reads well inside pytest.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from factcov.domain import Domain
from factcov.evaluate import Evaluator, Result
from factcov.language import fold
from factcov.model import Claim, Instance, canonical_json, key_id
from factcov.scoring import ScoringPolicy
from factcov.validation.perturb import run_perturbations

if TYPE_CHECKING:
    from factcov.extractors.patterns import TableExtractor


@dataclass(frozen=True)
class Example:
    """A hand-written text of an instance and exactly the claims it must yield."""

    instance: Instance
    text: str
    claims: tuple[Claim, ...] | list[Claim]


@dataclass
class ContractReport:
    instances: int = 0
    texts: int = 0
    perturbations: int = 0
    examples: int = 0
    languages: set[str] = field(default_factory=set)
    checks: int = 0  # checks of `validate perturb` run, all passed
    # table patterns (claim_type[index]: pattern) that matched none of the texts checked
    # (a failure with strict_patterns=True)
    unmatched_patterns: list[str] = field(default_factory=list, repr=False)


def _check_claims(domain: Domain, result: Result) -> None:
    """Every claim the extractor read is one the domain can verify: a claim type it has, key
    slots of that type and a value of its kind. Anything else would only ever be counted
    unverifiable, which looks like a wrong oracle rather than the extractor's slip."""
    types = {ct.name: ct for ct in domain.claim_types}
    for verdict in result.verdicts:
        claim = verdict.claim
        where = f"extractor read {claim.type} {claim.key} = {claim.value!r} from {claim.text!r} [{result.instance.id}]"
        assert claim.type in types, (
            f"{where}: domain '{domain.name}' has no claim type '{claim.type}' (claim types: {', '.join(types)})"
        )
        claim_type = types[claim.type]
        unknown = sorted(set(claim.key) - set(claim_type.key_slots))
        assert not unknown, (
            f"{where}: claim type '{claim.type}' has no key slot(s) {', '.join(unknown)} "
            f"(key slots: {', '.join(claim_type.key_slots) or 'none'})"
        )
        # the rule instance files are held to: only a declared value_kind is checked
        assert claim_type.misfit(claim.value) is None, (
            f"{where}: claim type '{claim.type}' has value_kind '{claim_type.value_kind}', "
            f"the extractor gave a {type(claim.value).__name__}"
        )


def _explain(result: Result, what: str) -> str:
    lines = [f"{what} [{result.instance.id}]", f"text: {result.generation.text!r}"]
    for verdict in result.verdicts:
        expected = f" expected={verdict.expected!r}" if verdict.label == "contradicted" else ""
        lines.append(
            f"  {verdict.label:12} {verdict.claim.type} {verdict.claim.key} = {verdict.claim.value!r}"
            f" <- {verdict.claim.text!r}{expected}"
        )
    lines.append(f"  missed facts: {result.score.missed_ids}")
    return "\n".join(lines)


def check_domain(
    domain: Domain,
    instances: Iterable[Instance] | None = None,
    *,
    extractor: str | None = None,
    languages: Iterable[str] | None = None,
    max_perturbations: int = 5,
    seed: int = 0,
    examples: Iterable[Example] = (),
    skip_perturb: Iterable[str] = (),
    strict_patterns: bool = False,
) -> ContractReport:
    """Run the contract checks; return counts of what was checked.

    A ``TableExtractor`` pattern with a placeholder that is no slot (``{{number}}`` in a
    plain ``r"..."`` string, ``{team}`` without a ``team`` slot: literal braces, which never
    match) fails, named. Patterns that match none of the texts read (the realized complete
    texts and ``examples``) are listed in ``unmatched_patterns``, and fail with
    ``strict_patterns=True`` (every phrasing then needs an ``Example``)."""
    evaluator = Evaluator(domain, extractor=extractor, policy=ScoringPolicy())
    wanted = set(languages) if languages is not None else set(domain.languages)
    rng = random.Random(seed)
    report = ContractReport()
    skipped = set(skip_perturb)
    chosen = [i for i in (instances if instances is not None else domain.example_instances())
              if i.language in wanted and i.facts]
    _check_table(domain, evaluator.extractor_name)
    examples = list(examples)
    first = chosen[0] if chosen else examples[0].instance if examples else None
    if first is not None:  # before any text: a pattern that cannot match fails deep in the checks
        _check_table_slots(evaluator, first)
    _check_perturbable(domain, chosen, skipped, seed)
    read: list[tuple[Instance, str]] = []  # texts every table pattern is looked for in
    for instance in chosen:
        report.instances += 1
        report.languages.add(instance.language)
        facts = list(instance.facts)

        complete = domain.realize(facts, instance.language, instance)
        read.append((instance, complete))
        full = evaluator.evaluate_text(instance, complete)
        _check_claims(domain, full)
        report.texts += 1
        metrics = full.metrics
        assert metrics["precision"] == 1.0 and metrics["recall"] == 1.0, _explain(
            full, f"realized complete text must score P=1 R=1, got {metrics}"
        )

        perturbable = [i for i, f in enumerate(facts) if f.type not in skipped]
        for index in rng.sample(perturbable, min(max_perturbations, len(perturbable))):
            original = facts[index]
            wrong = domain.perturb(original, rng, instance)
            text = domain.realize([*facts[:index], wrong, *facts[index + 1 :]], instance.language, instance)
            result = evaluator.evaluate_text(instance, text)
            _check_claims(domain, result)
            report.texts += 1
            report.perturbations += 1
            about = [v for v in result.verdicts if v.claim.type == original.type and v.label != "supported"]
            closed = domain.claim_type(original.type).closed_world
            if closed:
                assert any(v.label == "contradicted" for v in about), _explain(
                    result, f"perturbed {original.id}: {original.value!r} -> {wrong.value!r} must be contradicted"
                )
            assert original.id in result.score.missed_ids, _explain(
                result, f"perturbed {original.id} must not count as covered"
            )

        previous = 1.0
        for keep in range(len(facts) - 1, -1, -1):
            text = domain.realize(facts[:keep], instance.language, instance)
            result = evaluator.evaluate_text(instance, text)
            report.texts += 1
            current = result.metrics
            assert current["recall"] is not None and current["recall"] < previous, _explain(
                result, f"dropping facts to {keep}/{len(facts)} must lower recall below {previous}"
            )
            assert keep == 0 or current["precision"] == 1.0, _explain(
                result, f"a subset of true facts must keep precision 1, got {current['precision']}"
            )
            previous = current["recall"]
    for example in examples:
        _check_example(domain, evaluator, example)
        read.append((example.instance, example.text))
        report.examples += 1
    report.unmatched_patterns = _unmatched_patterns(evaluator, read)
    assert not (strict_patterns and report.unmatched_patterns), (
        f"domain '{domain.name}': {len(report.unmatched_patterns)} table pattern(s) matched none of the "
        f"{len(read)} texts checked (the realized texts and the examples): " + "; ".join(report.unmatched_patterns)
        + ". Add an Example in each phrasing, or fix the pattern"
    )
    assert report.instances or report.examples, f"domain '{domain.name}' gave no instance with facts to check"
    if chosen:
        outcome = run_perturbations(domain, chosen, extractor=extractor, seed=seed, max_instances=len(chosen))
        assert not outcome.violations, "\n".join(
            f"validate perturb: {v.instance_id} {v.kind} ({v.detail}): {v.metric} expected {v.expected}, "
            f"{v.before} -> {v.after}\n  text: {v.text!r}"
            for v in outcome.violations[:5]
        )
        report.checks = len(outcome.checks)
    return report


def _unmatched_patterns(evaluator: Evaluator, texts: list[tuple[Instance, str]]) -> list[str]:
    """``claim_type[index]: pattern`` of every table pattern that matches none of ``texts``."""
    from factcov.extractors.patterns import TableExtractor, compile_table

    unmatched: dict[tuple[str, int], str] | None = None
    for instance, text in texts:
        extractor = evaluator.extractor_for(instance.language)
        if not isinstance(extractor, TableExtractor):
            return []
        if unmatched is None:
            unmatched = {(t, i): p for t, group in extractor.patterns.items() for i, p in enumerate(group)}
        grammar = compile_table(extractor.patterns, _table_slots(extractor, instance))
        folded = fold(text)
        for (claim_type, index) in list(unmatched):
            if grammar[claim_type][index].search(folded):
                del unmatched[(claim_type, index)]
        if not unmatched:
            break
    return [f"patterns[{t!r}][{i}]: {p!r}" for (t, i), p in (unmatched or {}).items()]


# "{{number}}", "{team}" (not "{2}", "{1,3}", "\\{"): a placeholder left as literal braces
_PLACEHOLDER = re.compile(r"(?<!\\)\{\{?\s*([A-Za-z_]\w*)\s*\}?\}")


def _table_slots(extractor: TableExtractor, instance: Instance) -> dict[str, str]:
    return {**extractor.slots(instance), extractor.entity_slot: extractor.lexicon(instance).pattern}


def _check_table_slots(evaluator: Evaluator, instance: Instance) -> None:
    """Every ``{placeholder}`` of a table pattern is a slot, written with single braces."""
    from factcov.extractors.patterns import TableExtractor

    extractor = evaluator.extractor_for(instance.language)
    if not isinstance(extractor, TableExtractor):
        return
    slots, owner = _table_slots(extractor, instance), type(extractor).__name__
    for claim_type, group in extractor.patterns.items():
        for index, pattern in enumerate(group):
            _check_placeholders(owner, claim_type, index, pattern, slots)


def _check_placeholders(owner: str, claim_type: str, index: int, pattern: str, slots: dict[str, str]) -> None:
    for match in _PLACEHOLDER.finditer(pattern):
        written, name = match.group(0), match.group(1)
        if written == "{" + name + "}" and name in slots:
            continue
        fix = (f"write {{{name}}} (doubled braces are only for an rf\"...\" string, where Python halves them)"
               if name in slots else f"there is no slot '{name}' (slots: {', '.join(sorted(slots))}; "
               "add one in slots(instance))")
        raise AssertionError(
            f"{owner}.patterns[{claim_type!r}][{index}] has {written}, which stays literal braces and never "
            f"matches: {fix}. Pattern: {pattern!r}")


def _check_table(domain: Domain, extractor_name: str) -> None:
    """A ``TableExtractor``'s table, before any text: each pattern names its entity group and
    belongs to a claim type of the domain (otherwise a text fails deep in the extractor)."""
    from factcov.extractors.patterns import TableExtractor
    from factcov.plugins import extractors

    cls = extractors.get(extractor_name)
    if not issubclass(cls, TableExtractor):
        return
    types = {ct.name for ct in domain.claim_types}
    slot = cls.entity_slot
    for claim_type, patterns in cls.patterns.items():
        assert claim_type in types, (
            f"{cls.__name__}.patterns has claim type '{claim_type}', which domain '{domain.name}' does not "
            f"define (claim types: {', '.join(sorted(types))})"
        )
        for pattern in patterns:
            assert f"(?P<{slot}>" in pattern or f"(?P<{slot}s>" in pattern, (
                f"{cls.__name__}.patterns['{claim_type}'] has a pattern without the entity group "
                f"(?P<{slot}>...) or (?P<{slot}s>...): {pattern!r}. Every table pattern names its entity; read "
                "a claim that names none in an extract() override (docs/extractors.md)"
            )


def _check_perturbable(domain: Domain, instances: list[Instance], skipped: set[str], seed: int) -> None:
    """One clear failure naming every claim type whose facts ``perturb`` cannot corrupt."""
    from factcov.validation.perturb import unperturbable_types

    failures = {t: why for t, why in unperturbable_types(domain, instances, seed).items() if t not in skipped}
    assert not failures, (
        f"domain '{domain.name}' cannot perturb claim type(s) " + "; ".join(failures.values())
        + ". The default Domain.perturb corrupts numbers, bools, ranges, lists and types with `choices`. "
        "Give the claim type `choices`, or override `perturb(self, fact, rng, instance=None)` in the domain to "
        "return the fact with a wrong value (e.g. another name from the instance's context), or pass "
        f"check_domain(..., skip_perturb={sorted(failures)!r}) to leave these types out of the perturbation check."
    )


def _claim_identity(claim: Claim) -> tuple[str, str, bool]:
    return key_id(claim.type, claim.key), canonical_json(claim.value), bool(claim.out_of_scope)


def _check_example(domain: Domain, evaluator: Evaluator, example: Example) -> None:
    result = evaluator.evaluate_text(example.instance, example.text, system="example")
    _check_claims(domain, result)
    read = sorted(_claim_identity(v.claim) for v in result.verdicts)
    expected = sorted(_claim_identity(c) for c in example.claims)
    missing = [c for c in expected if c not in read]
    extra = [c for c in read if c not in expected]

    def show(rows: list[tuple[str, str, bool]]) -> str:
        return ", ".join(f"{k} = {v}" + (" (out of scope)" if oos else "") for k, v, oos in rows) or "none"

    assert not missing and not extra, _explain(
        result, f"hand-written example must yield exactly its claims; missing: {show(missing)}; "
        f"not expected: {show(extra)}"
    )
