"""Right vs hallucinated answers of HaluEval QA, scored against their passages (no reference).

Data: ``../shared/data/halueval-qa/`` (both files: the same 500 questions, a right answer
and a different hallucinated answer in each, so 1,000 right and 1,000 hallucinated
answers). Each answer is scored by ``factcov.domains.rag.answers.score_answers`` with the
question's ``knowledge`` as its one retrieved passage and no reference, as a user runs
``factcov rag score`` on such lines. Reported per score:

- **ROC AUC** right (positive) vs hallucinated: the chance that a random right answer
  scores above a random hallucinated one, ties half; an undefined score counts as 0.5;
- **pairwise accuracy** on the pairs (same question, same file) whose answers' lengths in
  words are within 1.5x of each other: the share where the right answer scores higher,
  ties half. Right answers are short spans and hallucinated ones often full sentences, so
  length alone separates them; these pairs show what a score sees beyond length.

rag's scores: ``precision`` (the headline: the answer's graded content units against the
passage), ``faithfulness`` (the same against the retrieved passages alone; equal here)
and ``claim_precision`` (the entity/relation claim counts, the headline before issue 25).
Beside them: **token overlap** (the share of the answer's word tokens, case
folded, that the passage has) and **shortness** (minus the answer's length in words).

The questions are split by their order: the first half is the only one the scoring was
tuned on; the second half is the generalization figure. Both halves and the whole set
are reported.

    python benchmarks/rag_halueval.py [--limit N] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "halueval-qa"
FILES = ("qa_one-turn_data.json", "qa_multi-turn_data.json")
RAG_SCORES = ("precision", "faithfulness", "claim_precision")  # precision: the graded units' (the headline)
WORD = re.compile(r"\w+")
LENGTH_RATIO = 1.5


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def token_overlap(answer: str, passage: str) -> float | None:
    tokens = words(answer)
    if not tokens:
        return None
    known = set(words(passage))
    return sum(t in known for t in tokens) / len(tokens)


def value(score: float | None) -> float:
    """An undefined score counts as 0.5 (the issue's convention)."""
    return 0.5 if score is None or (isinstance(score, float) and math.isnan(score)) else float(score)


def roc_auc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    from scipy.stats import mannwhitneyu

    if not positives or not negatives:
        return float("nan")
    statistic = mannwhitneyu(positives, negatives, alternative="two-sided").statistic
    return float(statistic) / (len(positives) * len(negatives))


def pairwise(pairs: Sequence[tuple[float, float]]) -> float:
    if not pairs:
        return float("nan")
    return sum(1.0 if r > h else 0.5 if r == h else 0.0 for r, h in pairs) / len(pairs)


def load(limit: int | None) -> list[dict]:
    rows = []
    for name in FILES:
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        for q, line in enumerate(lines[:limit]):
            item = json.loads(line)
            for label, key in ((1, "right_answer"), (0, "hallucinated_answer")):
                rows.append({"file": name, "question": q, "label": label, "answer": item[key].strip(),
                             "knowledge": item["knowledge"], "query": item["question"]})
    return rows


def score_rows(rows: list[dict]) -> None:
    from factcov.domains.rag.answers import score_answers
    from factcov.domains.rag.inputs import Answer
    from factcov.plugins import get_extractor

    extractor = get_extractor("rag-spacy", "en")
    answers = [Answer.model_validate({"id": f"{r['file']}:{r['question']}:{r['label']}", "question": r["query"],
                                      "answer": r["answer"],
                                      "contexts": [{"id": "knowledge", "text": r["knowledge"]}]})
               for r in rows]
    for row, result in zip(rows, score_answers(answers, extractor)):
        row.update({name: result.metrics.get(name) for name in RAG_SCORES})
        row["token_overlap"] = token_overlap(row["answer"], row["knowledge"])
        row["shortness"] = -len(words(row["answer"]))


def figures(rows: list[dict], scores: Sequence[str]) -> dict[str, dict[str, float]]:
    by_pair: dict[tuple[str, int], dict[int, dict]] = {}
    for row in rows:
        by_pair.setdefault((row["file"], row["question"]), {})[row["label"]] = row
    similar = [p for p in by_pair.values() if len(p) == 2 and _similar(p[1]["answer"], p[0]["answer"])]
    out: dict[str, dict[str, float]] = {}
    for name in scores:
        positives = [value(r.get(name)) for r in rows if r["label"] == 1]
        negatives = [value(r.get(name)) for r in rows if r["label"] == 0]
        out[name] = {
            "roc_auc": roc_auc(positives, negatives),
            "pairwise_similar_length": pairwise([(value(p[1].get(name)), value(p[0].get(name))) for p in similar]),
            "undefined_right": sum(r.get(name) is None for r in rows if r["label"] == 1) / max(len(positives), 1),
        }
    out["_counts"] = {"answers": len(rows), "similar_length_pairs": len(similar)}
    return out


def _similar(a: str, b: str) -> bool:
    la, lb = max(len(words(a)), 1), max(len(words(b)), 1)
    return max(la, lb) / min(la, lb) <= LENGTH_RATIO


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="questions per file (default: all 500)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here too")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"{DATA}: not found (the shared data sits beside the repository)", file=sys.stderr)
        return 3
    rows = load(args.limit)
    start = time.process_time()
    score_rows(rows)
    n_questions = max(r["question"] for r in rows) + 1
    half = (n_questions + 1) // 2
    scores = (*RAG_SCORES, "token_overlap", "shortness")
    report = {
        "all": figures(rows, scores),
        "tuning half": figures([r for r in rows if r["question"] < half], scores),
        "held-out half": figures([r for r in rows if r["question"] >= half], scores),
    }
    print(f"{len(rows)} answers scored in {time.process_time() - start:.1f} s CPU")
    for part, table in report.items():
        counts = table["_counts"]
        print(f"\n{part}: {counts['answers']} answers, {counts['similar_length_pairs']} similar-length pairs")
        print(f"{'score':<18} {'ROC AUC':>8} {'pairwise':>9} {'undef. right':>13}")
        for name in scores:
            f = table[name]
            print(f"{name:<18} {f['roc_auc']:>8.3f} {f['pairwise_similar_length']:>9.3f} {f['undefined_right']:>13.3f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
