"""Score a metric's flagged claims against annotated error spans (``validate errors``).

A *prediction* is a claim the metric flags as wrong (``contradicted`` by default;
``unverifiable`` too when asked) and not out of the oracle's scope; its span is the
claim's value span, or its statement span (``span="statement"``: the extractor's
``statement_span``, else the sentence around the value span). A prediction and a gold
error *match* when their character spans overlap.

Two matchings, per generation:

- **lenient**: a gold error is recalled when any prediction overlaps it; a prediction is
  correct when it overlaps any gold error (one claim may recall two errors).
- **strict** (how the INLG 2021 accuracy shared task scores submissions): overlapping
  predictions are first merged into one; gold errors, in text order, each take the
  first unused merged prediction that overlaps them; precision is matched predictions
  over merged predictions.

Precision is also given per claim type of the flagged claims (lenient: which claim types
raise false alarms). A flagged claim without a span cannot match and is counted apart
(``flagged_without_span``).

Every gold error that is not recalled gets one cause, the first that applies among the
claims (of any verdict) whose span overlaps it: ``out of scope`` (a claim the extractor
marked outside the oracle's scope), ``taken by another error`` (strict only: a flagged
claim that overlaps, consumed by an earlier error), ``unverifiable``, ``claim supported``,
else ``no claim read``.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from factcov.model import Verdict
from factcov.validation.gold import GoldError

SpanChoice = Literal["value", "statement"]
CAUSES = ("no claim read", "claim supported", "unverifiable", "out of scope", "taken by another error")
MODES = ("lenient", "strict")
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")

Span = tuple[int, int]


def overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def sentence_around(text: str, span: Span) -> Span:
    """The sentence holding ``span``'s start: from after the previous ``. ! ?`` + space
    to the next one (the fallback statement span)."""
    start = 0
    for match in SENTENCE_BREAK.finditer(text):
        if match.end() <= span[0]:
            start = match.end()
        elif match.start() >= span[1]:
            return start, match.start()
    return start, len(text.rstrip())


def claim_span(verdict: Verdict, text: str, choice: SpanChoice) -> Span | None:
    claim = verdict.claim
    if claim.span is None:
        return claim.statement_span if choice == "statement" else None
    if choice == "value":
        return claim.span
    return claim.statement_span or sentence_around(text, claim.span)


def merge_spans(spans: Iterable[Span]) -> list[Span]:
    """Overlapping spans merged into one (touching ones stay apart), sorted."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


@dataclass
class TextMatch:
    """The matching of one generation's predictions and gold errors, in one mode."""

    recalled: list[bool]
    predictions: int
    correct_predictions: int


def match_lenient(gold: Sequence[Span], predictions: Sequence[Span]) -> TextMatch:
    recalled = [any(overlaps(g, p) for p in predictions) for g in gold]
    correct = sum(any(overlaps(p, g) for g in gold) for p in predictions)
    return TextMatch(recalled, len(predictions), correct)


def match_strict(gold: Sequence[Span], predictions: Sequence[Span]) -> TextMatch:
    merged = merge_spans(predictions)
    used: set[int] = set()
    recalled = [False] * len(gold)
    for index in sorted(range(len(gold)), key=lambda i: gold[i]):
        for j, prediction in enumerate(merged):
            if j not in used and overlaps(gold[index], prediction):
                used.add(j)
                recalled[index] = True
                break
    return TextMatch(recalled, len(merged), len(used))


@dataclass
class ModeTotals:
    errors: Counter = field(default_factory=Counter)
    recalled: Counter = field(default_factory=Counter)
    missed: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    predictions: int = 0
    correct_predictions: int = 0

    def as_dict(self) -> dict[str, Any]:
        n_errors = sum(self.errors.values())
        n_recalled = sum(self.recalled.values())
        return {
            "errors": n_errors,
            "recalled": n_recalled,
            "recall": n_recalled / n_errors if n_errors else None,
            "predictions": self.predictions,
            "correct_predictions": self.correct_predictions,
            "precision": self.correct_predictions / self.predictions if self.predictions else None,
            "missed": {cause: sum(c[cause] for c in self.missed.values()) for cause in CAUSES},
            "by_type": {
                type_: {
                    "errors": n,
                    "recalled": self.recalled[type_],
                    "recall": self.recalled[type_] / n,
                    "missed": {cause: self.missed[type_][cause] for cause in CAUSES},
                }
                for type_, n in sorted(self.errors.items())
            },
        }


@dataclass
class ErrorValidation:
    """The outcome of matching flagged claims against gold errors over many texts."""

    span: SpanChoice
    flagged: tuple[str, ...]
    generations: int = 0
    out_of_scope_claims: int = 0
    unlocated: int = 0
    flagged_by_type: Counter = field(default_factory=Counter)
    correct_by_type: Counter = field(default_factory=Counter)
    totals: dict[str, ModeTotals] = field(default_factory=lambda: {m: ModeTotals() for m in MODES})
    misses: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "span": self.span,
            "flagged": list(self.flagged),
            "generations": self.generations,
            "out_of_scope_claims": self.out_of_scope_claims,
            "flagged_without_span": self.unlocated,
            **{mode: self.totals[mode].as_dict() for mode in MODES},
            "precision_by_claim_type": {
                type_: {"flagged": n, "correct": self.correct_by_type[type_],
                        "precision": self.correct_by_type[type_] / n}
                for type_, n in sorted(self.flagged_by_type.items())
            },
            "misses": self.misses,
        }


def _cause(gold: Span, spans: list[tuple[Span, Verdict]], flagged: tuple[str, ...]) -> str:
    about = [v for s, v in spans if overlaps(s, gold)]
    if any(v.claim.out_of_scope for v in about):
        return "out of scope"
    if any(v.label in flagged for v in about):
        return "taken by another error"
    if any(v.label == "unverifiable" for v in about):
        return "unverifiable"
    if any(v.label == "supported" for v in about):
        return "claim supported"
    return "no claim read"


def add_text(
    outcome: ErrorValidation, text: str, verdicts: Sequence[Verdict], gold: Sequence[GoldError],
    *, instance_id: str = "", system: str = "", max_misses: int = 200,
) -> None:
    """Match one generation's flagged claims against its gold errors and add the counts."""
    spans = [(s, v) for v in verdicts if (s := claim_span(v, text, outcome.span)) is not None]
    flagged = [(s, v) for s, v in spans if v.label in outcome.flagged and not v.claim.out_of_scope]
    predictions = [s for s, _ in flagged]
    gold_spans = [(g.start, g.end) for g in gold]
    outcome.generations += 1
    outcome.out_of_scope_claims += sum(1 for v in verdicts if v.claim.out_of_scope)
    outcome.unlocated += sum(1 for v in verdicts if v.label in outcome.flagged and not v.claim.out_of_scope
                             and claim_span(v, text, outcome.span) is None)
    for span, verdict in flagged:  # which claim types raise false alarms (lenient: a claim keeps its type)
        outcome.flagged_by_type[verdict.claim.type] += 1
        outcome.correct_by_type[verdict.claim.type] += any(overlaps(span, g) for g in gold_spans)
    for mode, matcher in (("lenient", match_lenient), ("strict", match_strict)):
        result = matcher(gold_spans, predictions)
        totals = outcome.totals[mode]
        totals.predictions += result.predictions
        totals.correct_predictions += result.correct_predictions
        for error, hit in zip(gold, result.recalled):
            totals.errors[error.type] += 1
            if hit:
                totals.recalled[error.type] += 1
                continue
            cause = _cause((error.start, error.end), spans, outcome.flagged)
            totals.missed[error.type][cause] += 1
            if mode == "strict" and len(outcome.misses) < max_misses:
                outcome.misses.append({
                    "instance_id": instance_id, "system": system, "type": error.type,
                    "span": [error.start, error.end], "text": error.text, "cause": cause,
                })


def validate_errors(
    domain_name: str,
    instances_path,
    generations_path,
    gold_path,
    *,
    extractor: str | None = None,
    extractor_options: dict[str, Any] | None = None,
    span: SpanChoice = "value",
    flagged: Sequence[str] = ("contradicted",),
    gold_format: str = "auto",
    tokenization: str = "whitespace",
    system: str | None = None,
) -> tuple[ErrorValidation, str]:
    """Score every generation of ``generations_path`` (each taken as annotated: a text
    with no gold row has no error; only ``system``'s when given) against the gold file;
    return the outcome and the scoring signature."""
    from factcov.evaluate import Evaluator
    from factcov.inputs import iter_generations, load_instances
    from factcov.jsonl import chunked
    from factcov.plugins import get_domain
    from factcov.validation.gold import read_gold

    domain = get_domain(domain_name)
    evaluator = Evaluator(domain, extractor=extractor, extractor_options=extractor_options)
    instances = load_instances(instances_path, domain)
    pairs = [(i, g) for i, g in iter_generations(generations_path, instances, domain)
             if system is None or g.system == system]
    if not pairs:
        from factcov.errors import InputError

        raise InputError(f"no generation{'' if system is None else f' of system {system!r}'} to check",
                         path=generations_path)
    by_pair = {(g.instance_id, g.system): g for _, g in pairs}
    gold_by_pair: dict[tuple[str, str], list[GoldError]] = defaultdict(list)
    for error in read_gold(gold_path, by_pair, format=gold_format, tokenization=tokenization,  # type: ignore[arg-type]
                           only_system=system):
        gold_by_pair[(error.instance_id, error.system)].append(error)
    outcome = ErrorValidation(span=span, flagged=tuple(flagged))
    for chunk in chunked(pairs, 500):
        for result in evaluator.evaluate(chunk):
            generation = result.generation
            add_text(outcome, generation.text, result.verdicts, gold_by_pair.get((generation.instance_id, generation.system), []),
                     instance_id=generation.instance_id, system=generation.system)
    return outcome, evaluator.signature()
