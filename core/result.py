"""One scored generation: what the evaluator returns and every writer reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from factcov.model import Generation, Instance, Verdict
from factcov.scoring import GenerationScore, ScoringPolicy


@dataclass
class Result:
    """One scored generation, with the policy it was scored under, so its finished
    metrics need no policy passed around (``result.metrics``)."""

    instance: Instance
    generation: Generation
    verdicts: list[Verdict]
    score: GenerationScore
    policy: ScoringPolicy = field(default_factory=ScoringPolicy)
    extraction_error: str | None = None  # the extractor could not read the text (see FailedExtraction)

    @property
    def language(self) -> str:
        return self.generation.language or self.instance.language

    @cached_property
    def metrics(self) -> dict[str, float | None]:
        """precision, recall, f1 and weighted_f1 under the evaluator's policy."""
        return self.score.metrics(self.policy)

    def describe(self) -> str:
        """'precision 1.0, recall 0.111, f1 0.2': the metrics rounded for people."""
        return self.score.describe(self.policy)
