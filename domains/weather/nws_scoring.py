"""NWS as a real system: score each period's own ``detailedForecast`` against its record.

Streaming and memory-bounded: each period is scored on the fly (facts, knowledge,
extraction, verification, score) with the core ``Verifier`` and ``score_generation``;
only running totals, fixed-size histograms and capped counters are kept. No instance
file is written. Used by ``benchmarks/weather_scale.py`` and the docs' figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from factcov.domains.weather.extractor import WeatherRegexExtractor
from factcov.domains.weather.oracle import period_knowledge, relevant_facts
from factcov.domains.weather.periods import Period
from factcov.model import Verdict
from factcov.scoring import Counts, GenerationScore, ScoringPolicy, score_generation
from factcov.verifier import Verifier

BINS = 10
_MAX_KINDS = 10_000  # distinct contradiction kinds kept; bounds memory on any corpus


def _bin(value: float) -> int:
    return min(int(value * BINS), BINS - 1)


@dataclass
class Contradiction:
    instance: str
    claim_type: str
    claimed: Any
    expected: Any
    text: str


@dataclass
class NWSReport:
    periods: int = 0
    empty_texts: int = 0
    total: Counts = field(default_factory=Counts)
    by_type: dict[str, Counts] = field(default_factory=dict)
    sums: dict[str, float] = field(default_factory=lambda: {"precision": 0.0, "recall": 0.0, "f1": 0.0})
    defined: Counter = field(default_factory=Counter)
    histograms: dict[str, list[int]] = field(default_factory=lambda: {m: [0] * BINS for m in ("precision", "recall", "f1")})
    perfect: Counter = field(default_factory=Counter)
    unverifiable_kinds: Counter = field(default_factory=Counter)
    contradicted_kinds: Counter = field(default_factory=Counter)
    contradictions: list[Contradiction] = field(default_factory=list)
    keep_contradictions: int = 50

    def add(self, period: Period, verdicts: list[Verdict], score: GenerationScore, policy: ScoringPolicy) -> None:
        self.periods += 1
        self.total.add(score.total)
        for type_, counts in score.by_type.items():
            self.by_type.setdefault(type_, Counts()).add(counts)
        for metric, value in score.total.metrics(policy).items():
            if value is None:
                continue
            self.defined[metric] += 1
            self.sums[metric] += value
            self.histograms[metric][_bin(value)] += 1
            self.perfect[metric] += value == 1.0
        for verdict in verdicts:
            claim = verdict.claim
            if verdict.label == "unverifiable":
                kind = f"{claim.type}({claim.key['kind']})" if claim.type == "precip_amount" else claim.type
                self.unverifiable_kinds[kind] += 1
            elif verdict.label == "contradicted":
                kind = f"{claim.type}: {_short(claim.value)} vs {_short(verdict.expected)}"
                if kind in self.contradicted_kinds or len(self.contradicted_kinds) < _MAX_KINDS:
                    self.contradicted_kinds[kind] += 1
                self.contradicted_kinds[f"{claim.type} (all)"] += 1
                if len(self.contradictions) < self.keep_contradictions:
                    self.contradictions.append(Contradiction(
                        f"weather:{period.source}:{period.number}", claim.type, claim.value, verdict.expected, claim.text))

    def summary(self, policy: ScoringPolicy) -> dict[str, Any]:
        macro = {m: (self.sums[m] / self.defined[m] if self.defined[m] else None) for m in self.sums}
        return {
            "periods_scored": self.periods,
            "empty_texts_skipped": self.empty_texts,
            "macro": macro,
            "micro": self.total.metrics(policy),
            "counts": self.total.as_dict(policy),
            "defined": dict(self.defined),
            "perfect": dict(self.perfect),
            "histograms": self.histograms,
            "by_type": {t: c.as_dict(policy) for t, c in sorted(self.by_type.items())},
            "unverifiable_kinds": self.unverifiable_kinds.most_common(15),
            "contradicted_kinds": self.contradicted_kinds.most_common(25),
        }


def _short(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


class NWSScorer:
    """Scores NWS texts period by period with the core verifier and scorer."""

    def __init__(self, policy: ScoringPolicy | None = None) -> None:
        self.policy = policy or ScoringPolicy()
        self.extractor = WeatherRegexExtractor("en")
        self.verifier = Verifier()

    def score(self, period: Period) -> tuple[list[Verdict], GenerationScore]:
        facts = relevant_facts(period)
        knowledge = period_knowledge(period, facts)
        claims = self.extractor.extract(period.detailed_forecast)
        verdicts = self.verifier.verify_all(claims, knowledge)
        return verdicts, score_generation(facts, verdicts)

    def run(self, periods: Iterable[Period], report: NWSReport | None = None) -> NWSReport:
        report = report or NWSReport()
        for period in periods:
            if not period.detailed_forecast.strip():
                report.empty_texts += 1
                continue
            verdicts, score = self.score(period)
            report.add(period, verdicts, score, self.policy)
        return report
