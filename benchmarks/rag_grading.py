"""rag's unit grading, its shortcuts (index of where each word stands, grades kept per set)
against the plain scan, in one process, interleaved: the gradings ``grounding.unit_scores``
makes for a question's answers (recall of the reference's units, faithfulness against the
passage, precision against reference then passage), on fresh unit sets each pass so no
kept grade carries over. HaluEval QA (../shared/data/halueval-qa, MIT).

    python benchmarks/rag_grading.py      # 300 questions, seven passes each
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "halueval-qa" / "qa_one-turn_data.json"


def main() -> int:
    import factcov.domains.rag.units as u
    from factcov.plugins import get_extractor

    with open(DATA, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in islice(lines, 300)]
    extractor = get_extractor("rag-spacy", "en")
    parses = extractor.parse([t for r in rows for t in (r["right_answer"], r["hallucinated_answer"], r["knowledge"])])
    questions = [parses[i:i + 3] for i in range(0, len(parses), 3)]

    def fresh(s: u.UnitSet) -> u.UnitSet:
        return u.UnitSet(list(s.units), set(s.stems), set(s.values), set(s.measured), set(s.negated),
                         set(s.asserted), list(s.sentences), list(s.segments))

    read = [(u.read_units(a, span=True), u.read_units(b, span=True), u.text_units([p])) for a, b, p in questions]

    def plain(unit: u.Unit, against: u.UnitSet) -> u.Graded:
        runs = against.sentences + against.segments
        if unit.kind == "entity":
            return u._found(unit, any(u._contiguous(unit.words, s) for s in runs))
        if unit.kind == "link":
            return u._found(unit, any(u._near(unit.words, unit.other, s) for s in runs))
        return u._GRADERS[unit.kind](unit, against)

    def workload(grade) -> float:
        start = time.process_time()
        for right, wrong, passage in read:
            reference, passage = fresh(right), fresh(passage)  # the right answer is its reference
            for answer in (fresh(right), fresh(wrong), fresh(right)):
                for unit in reference.units:
                    grade(unit, answer)
                for unit in answer.units:
                    grade(unit, passage)
                    if grade(unit, reference).label == "unsupported":
                        grade(unit, passage)
        return time.process_time() - start

    plain_cpu, now_cpu = [], []
    for _ in range(7):
        plain_cpu.append(workload(plain))
        now_cpu.append(workload(u.grade_unit))
    a, b = statistics.median(plain_cpu), statistics.median(now_cpu)
    print(f"plain {a * 1000:.0f} ms, now {b * 1000:.0f} ms: {b / a:.2f}x (medians of 7)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
