"""Precision, recall and F1 of one generation, per claim type and overall.

Undefined is explicit (``None``), never a fabricated number:

- precision of a text with no countable claims is ``None``;
- recall of an instance with no relevant facts is ``None``; a text that covers none of
  the relevant facts (an empty text included) has recall 0;
- F1 is 0 when recall is 0 (whatever the precision: saying nothing covers nothing),
  ``None`` when recall is undefined, else the harmonic mean.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from factcov.limits import MAX_BOOTSTRAP
from factcov.model import Fact, Verdict, canonical_json, encode_json_str


class ScoringPolicy(BaseModel):
    """The choices that change numbers; all of them enter the score signature.

    ``unverifiable``: ``count`` (default) puts unverifiable claims in precision's
    denominator, since a claim the data cannot check is no evidence of faithfulness;
    ``ignore`` leaves them out (precision = supported / (supported + contradicted)).
    ``average``: which system average is the headline (``macro``: the mean of
    per-generation scores; ``micro``: scores of the pooled counts); both are reported.
    ``type_weights``: per-claim-type weights of ``weighted_f1`` (GAA-ERP's
    ``alpha*F1_entity + (1-alpha)*F1_relation`` is ``{"entity": a, "relation": 1-a}``).
    ``out_of_scope``: ``exclude`` (the only policy so far, and signed so that another
    can be added without two runs looking comparable) leaves claims an extractor marked
    outside the oracle's scope (``Claim.out_of_scope``) out of precision's numerator and
    denominator and out of coverage: the oracle cannot know them, so they are neither
    evidence of faithfulness nor of its lack. They are counted (``out_of_scope``) per
    text and per claim type, so the oracle's blind spots stay visible.
    """

    model_config = ConfigDict(frozen=True)

    unverifiable: Literal["count", "ignore"] = "count"
    average: Literal["macro", "micro"] = "macro"
    type_weights: dict[str, Annotated[float, Field(ge=0, allow_inf_nan=False)]] | None = None
    bootstrap_samples: int = Field(default=1000, ge=0, le=MAX_BOOTSTRAP)
    seed: int = Field(default=0, ge=0)
    out_of_scope: Literal["exclude"] = "exclude"

    def signature(self) -> str:
        weights = (
            ",".join(f"{k}={v:g}" for k, v in sorted(self.type_weights.items()))
            if self.type_weights
            else "none"
        )
        return (f"unverifiable:{self.unverifiable}|average:{self.average}|weights:{weights}"
                f"|out_of_scope:{self.out_of_scope}")


def precision(supported: int, contradicted: int, unverifiable: int, policy: ScoringPolicy) -> float | None:
    denominator = supported + contradicted + (unverifiable if policy.unverifiable == "count" else 0)
    return supported / denominator if denominator else None


def recall(covered: int, n_facts: int) -> float | None:
    return covered / n_facts if n_facts else None


def f1(p: float | None, r: float | None) -> float | None:
    if r is None:
        return None
    if r == 0 or p is None or p == 0:
        return 0.0
    return 2 * p * r / (p + r)


@dataclass(slots=True)  # one per claim type of every scored text: no instance dict
class Counts:
    n_claims: int = 0
    supported: int = 0
    contradicted: int = 0
    unverifiable: int = 0
    n_facts: int = 0
    covered: int = 0
    out_of_scope: int = 0

    def add(self, other: Counts) -> None:
        self.n_claims += other.n_claims
        self.supported += other.supported
        self.contradicted += other.contradicted
        self.unverifiable += other.unverifiable
        self.n_facts += other.n_facts
        self.covered += other.covered
        self.out_of_scope += other.out_of_scope

    def metrics(self, policy: ScoringPolicy) -> dict[str, float | None]:
        p = precision(self.supported, self.contradicted, self.unverifiable, policy)
        r = recall(self.covered, self.n_facts)
        return {"precision": p, "recall": r, "f1": f1(p, r)}

    def as_dict(self, policy: ScoringPolicy) -> dict[str, int | float | None]:
        return {
            "n_claims": self.n_claims,
            "supported": self.supported,
            "contradicted": self.contradicted,
            "unverifiable": self.unverifiable,
            "n_facts": self.n_facts,
            "covered": self.covered,
            "out_of_scope": self.out_of_scope,
            **self.metrics(policy),
        }

    def json_key(self, policy: ScoringPolicy) -> tuple:
        """What ``as_json`` encodes: the counts and the policy's ``unverifiable`` (the only
        part of the policy the metrics read)."""
        return (self.n_claims, self.supported, self.contradicted, self.unverifiable, self.n_facts, self.covered,
                self.out_of_scope, policy.unverifiable)

    def as_json(self, policy: ScoringPolicy) -> str:
        """``canonical_json(self.as_dict(policy))``, remembered: a run writes these for every
        claim type of every generation, and a few thousand distinct counts cover millions."""
        key = self.json_key(policy)
        text = _COUNTS_JSON.get(key)
        if text is None:
            text = canonical_json(self.as_dict(policy))
            if len(_COUNTS_JSON) >= COUNTS_JSON_CACHE_SIZE:
                _COUNTS_JSON.clear()
            _COUNTS_JSON[key] = text
        return text


COUNTS_JSON_CACHE_SIZE = 100_000
_COUNTS_JSON: dict[tuple, str] = {}


def counts_json(by_type: dict[str, Counts], policy: ScoringPolicy) -> str:
    """``canonical_json({type: counts.as_dict(policy)})`` built from the remembered parts:
    each ``"type":{counts}`` entry is remembered by the type and the counts it encodes."""
    entries = []
    for type_ in sorted(by_type):
        counts = by_type[type_]
        key = (type_, counts.json_key(policy))
        entry = _TYPE_ENTRY_JSON.get(key)
        if entry is None:
            entry = f"{encode_json_str(type_)}:{counts.as_json(policy)}"
            if len(_TYPE_ENTRY_JSON) >= COUNTS_JSON_CACHE_SIZE:
                _TYPE_ENTRY_JSON.clear()
            _TYPE_ENTRY_JSON[key] = entry
        entries.append(entry)
    return "{" + ",".join(entries) + "}"


_TYPE_ENTRY_JSON: dict[tuple, str] = {}


@dataclass
class GenerationScore:
    """The score of one text: totals, per claim type, and which facts it covered."""

    total: Counts
    by_type: dict[str, Counts]
    covered_ids: list[str] = field(default_factory=list)
    missed_ids: list[str] = field(default_factory=list)

    def metrics(self, policy: ScoringPolicy) -> dict[str, float | None]:
        total = self.total.metrics(policy)
        # without weights the weighted F1 is the overall F1: computed once (every text's scores row)
        return {**total, "weighted_f1": self.weighted_f1(policy) if policy.type_weights else total["f1"]}

    def describe(self, policy: ScoringPolicy) -> str:
        """'precision 1.0, recall 0.111, f1 0.2': the metrics rounded to three decimals for people."""
        return ", ".join(f"{name} {'n/a' if value is None else round(value, 3)}"
                         for name, value in self.total.metrics(policy).items())

    def weighted_f1(self, policy: ScoringPolicy) -> float | None:
        """Weighted mean of per-type F1 over the weighted types whose F1 is defined.

        Without weights it equals the overall F1.
        """
        if not policy.type_weights:
            return self.total.metrics(policy)["f1"]
        total_weight = 0.0
        weighted = 0.0
        for type_, weight in policy.type_weights.items():
            counts = self.by_type.get(type_)
            value = counts.metrics(policy)["f1"] if counts is not None else None
            if value is not None:
                weighted += weight * value
                total_weight += weight
        return weighted / total_weight if total_weight else None


def covered_facts(relevant: Sequence[Fact], verdicts: Iterable[Verdict]) -> list[Fact]:
    """Relevant facts stated by a supported claim.

    A claim whose partial key is true of several facts covers the first of them not
    already covered, so "he pitted on lap 13" and "he pitted on lap 28" cover two stops.
    """
    relevant_by_id = {fact.id: fact for fact in relevant}
    covered: dict[str, Fact] = {}
    for verdict in verdicts:
        if verdict.label != "supported":
            continue
        for fact_id in verdict.matches:
            if fact_id in relevant_by_id and fact_id not in covered:
                covered[fact_id] = relevant_by_id[fact_id]
                break
    return [fact for fact in relevant if fact.id in covered]


class RelevantFacts:
    """An instance's relevant facts prepared once for scoring every text written for it:
    their ids in order, how many facts each id and each claim type has."""

    __slots__ = ("facts", "ids", "type_of", "repeats", "n_by_type", "n_by_sorted_type")

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts = facts
        self.ids = [fact.id for fact in facts]
        self.type_of = {fact.id: fact.type for fact in facts}
        self.repeats = {}  # ids held by more than one fact (each fact counts)
        if len(self.type_of) < len(self.ids):
            for fact_id in self.ids:
                self.repeats[fact_id] = self.repeats.get(fact_id, 0) + 1
        self.n_by_type: dict[str, int] = {}
        for fact in facts:
            self.n_by_type[fact.type] = self.n_by_type.get(fact.type, 0) + 1
        self.n_by_sorted_type = sorted(self.n_by_type.items())  # the order of a score's ``by_type``


def score_generation(relevant: Sequence[Fact] | RelevantFacts, verdicts: Sequence[Verdict]) -> GenerationScore:
    """Count claims by verdict and relevant facts by coverage, overall and per claim type.

    Out-of-scope claims are counted apart and neither verdict-counted nor covering
    (``ScoringPolicy.out_of_scope``). Coverage is ``covered_facts``'s, computed in the
    same single pass over the verdicts. This runs once per generation of every run, so
    each verdict adds to its type's counts only (the totals are their sums), and a caller
    scoring many texts of one instance passes its ``RelevantFacts``, prepared once."""
    prepared = relevant if isinstance(relevant, RelevantFacts) else RelevantFacts(relevant)
    type_of = prepared.type_of
    repeats = prepared.repeats
    # Every relevant type's counts first, in name order (``by_type``'s order): a covered
    # fact's type is then always there, and only a claim of a type no relevant fact has
    # calls for sorting again.
    # (Counts' fields given by position, here and below: half the cost of keywords)
    by_type = {type_: Counts(0, 0, 0, 0, n) for type_, n in prepared.n_by_sorted_type}  # n_facts=n
    n_relevant_types = len(by_type)
    covered: set[str] = set()
    supported = contradicted = unverifiable = out_of_scope = 0  # the totals, counted alongside
    for verdict in verdicts:
        # the models' fields read from the dicts pydantic keeps them in, as ``factcov.trusted.fields_of``
        # reads them, written out (see ``Verifier.verify_all``)
        fields = verdict.__dict__
        claim_fields = fields["claim"].__dict__
        type_ = claim_fields["type"]
        counts = by_type.get(type_)
        if counts is None:
            counts = by_type[type_] = Counts()
        if claim_fields["out_of_scope"]:
            counts.out_of_scope += 1
            out_of_scope += 1
            continue
        counts.n_claims += 1
        label = fields["label"]
        if label == "supported":
            counts.supported += 1
            supported += 1
            for fact_id in fields["matches"]:  # the first relevant fact not already covered
                if fact_id in type_of and fact_id not in covered:
                    covered.add(fact_id)
                    by_type[type_of[fact_id]].covered += repeats.get(fact_id, 1) if repeats else 1
                    break
        elif label == "contradicted":
            counts.contradicted += 1
            contradicted += 1
        else:
            counts.unverifiable += 1
            unverifiable += 1
    if len(by_type) > n_relevant_types:
        by_type = dict(sorted(by_type.items()))
    ids = prepared.ids
    if not covered:
        covered_ids, missed_ids = [], list(ids)
    elif len(covered) == len(ids):  # every fact covered (so no id is repeated)
        covered_ids, missed_ids = list(ids), []
    else:
        covered_ids = [fact_id for fact_id in ids if fact_id in covered]
        missed_ids = [fact_id for fact_id in ids if fact_id not in covered]
    total = Counts(supported + contradicted + unverifiable, supported, contradicted, unverifiable, len(ids),
                   len(covered), out_of_scope)
    return GenerationScore(total, by_type, covered_ids, missed_ids)
