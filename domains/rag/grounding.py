"""Content units of an answer graded against its reference and its retrieved passages.

- ``unit_recall``: the reference's units (``factcov.domains.rag.units``) graded against
  the answer's, pooled mean; with ``reference_triples`` and no reference text it is
  ``triple_coverage``. Undefined with neither (or a reference with no unit); an empty
  answer scores 0.
- ``unit_precision``: the answer's units graded against the reference's and the
  retrieved passages' units: contradicted where the reference disagrees, else supported
  by either; the product over unit kinds of each kind's mean (``units.kind_product``).
  With ``reference_triples`` and no reference text, the triples' words and values are
  the reference side (``units.triple_units``), so added content stays visible. Undefined when the answer has no
  unit or there is nothing to check against.
- ``faithfulness``: the same against the retrieved passages alone. Undefined when no
  passage was retrieved or the answer has no unit.
- ``unit_f1``: harmonic mean; 0 when recall is 0, undefined when recall is.

Every answer unit the passages do not support is listed (``hallucinated_units``, its
label ``contradicted`` or ``unsupported`` beside the text).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from factcov.domains.rag.units import (
    Graded,
    UnitSet,
    grade,
    grade_unit,
    kind_product,
    mean_score,
    passage_units,
    triple_units,
    units_of,
)
from factcov.extractors.parsed import ParsedText


@dataclass
class UnitScores:
    metrics: dict[str, float | None]
    graded: list[Graded]  # the answer's units against the retrieved passages

    @property
    def hallucinated(self) -> list[str]:
        return sorted({f"{g.unit.text} ({g.label})" for g in self.graded
                       if g.label != "supported" and g.unit.kind != "span"})


def _f1(p: float | None, r: float | None) -> float | None:
    if r is None:
        return None
    if r == 0 or not p:
        return 0.0
    return 2 * p * r / (p + r)


def precision_grades(answer: UnitSet, reference: UnitSet | None, passages: UnitSet | None) -> list[Graded]:
    """Each answer unit: contradicted when the reference disagrees (the reference is the
    truth now; a passage may be outdated), else supported when the reference or a
    passage supports it, else the reference's (or the passages') label."""
    out = []
    for unit in answer.units:
        by_reference = grade_unit(unit, reference) if reference is not None else None
        if by_reference is not None and by_reference.label != "unsupported":
            out.append(by_reference)
            continue
        by_passages = grade_unit(unit, passages) if passages is not None else None
        if by_passages is not None and by_passages.label == "supported":
            out.append(by_passages)
        else:
            out.append(by_reference or by_passages)  # type: ignore[arg-type]
    return out


def unit_scores(parsed_answer: ParsedText, parsed_reference: ParsedText | None,
                parsed_retrieved: Sequence[ParsedText], triple_coverage: float | None = None,
                triples: Sequence[Sequence[str]] = ()) -> UnitScores:
    # each parse's units are read once (``units_of``): passages and references are shared by answers
    answer = units_of(parsed_answer, span=True)
    reference = units_of(parsed_reference, span=True) if parsed_reference is not None else \
        triple_units(triples) if triples else None
    passages = passage_units(parsed_retrieved) if parsed_retrieved else None
    empty = not parsed_answer.text.strip()
    if parsed_reference is not None and reference is not None and reference.units:
        recall = 0.0 if empty else mean_score(grade(reference.units, answer))
    else:
        recall = triple_coverage
    grounded = grade(answer.units, passages) if passages is not None else []
    faithfulness = kind_product(grounded) if passages is not None else None
    checked = answer
    if parsed_reference is None and passages is None and reference is not None:
        # Against triples alone: a verb words a predicate freely ("flew on" for
        # ``mission``), the triples' labels do not, so verbs are not checked.
        checked = UnitSet([u for u in answer.units if u.kind != "verb"])
    precision = kind_product(precision_grades(checked, reference, passages)) \
        if reference is not None or passages is not None else None
    return UnitScores(
        {"unit_precision": precision, "unit_recall": recall, "unit_f1": _f1(precision, recall),
         "faithfulness": faithfulness},
        grounded,
    )
