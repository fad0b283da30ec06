"""rag through the core runner: what the one pipeline costs over scoring the answers in memory.

Answers: the museum example (domains/rag/museum.jsonl), each answer repeated with a new
id (``--copies``; every copy's system is the original id, so the run has six systems).
Two timings in one run, after a warm-up, as CPU time of this process
(``time.process_time``; wall time beside it):

- in memory: ``score_answers`` (adapter -> evaluator -> the domain's RAG metrics hook);
- run: ``factcov rag score`` without the report (the same, then claims.parquet,
  scores.parquet, systems.csv and summary.json with bootstrap CIs of 18 metrics).

The script asserts that both give every answer the same metrics.

    python benchmarks/rag_pipeline.py [--copies 100]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=100)
    args = parser.parse_args()

    import pandas as pd

    from factcov.cli.app import run
    from factcov.domains.rag.answers import score_answers
    from factcov.domains.rag.inputs import iter_answers
    from factcov.plugins import get_extractor

    rows = [json.loads(line) for line in (REPO / "domains" / "rag" / "museum.jsonl").read_text().splitlines() if line]
    with tempfile.TemporaryDirectory() as tmp:
        answers_path = Path(tmp) / "answers.jsonl"
        answers_path.write_text("".join(
            json.dumps({**row, "id": f"{row['id']}-{k}", "system": row["id"]}) + "\n"
            for k in range(args.copies) for row in rows
        ))
        extractor = get_extractor("rag-spacy", "en")
        list(score_answers(list(iter_answers(answers_path))[:12], extractor))  # warm-up: load the model
        assert run(["rag", "score", "-i", str(answers_path), "-o", str(Path(tmp) / "warm"), "-q", "--no-report"]) == 0

        cpu, wall = time.process_time(), time.perf_counter()
        results = list(score_answers(iter_answers(answers_path), extractor))
        memory = time.process_time() - cpu, time.perf_counter() - wall

        cpu, wall = time.process_time(), time.perf_counter()
        assert run(["rag", "score", "-i", str(answers_path), "-o", str(Path(tmp) / "out"), "-q", "--no-report"]) == 0
        on_disk = time.process_time() - cpu, time.perf_counter() - wall

        scores = pd.read_parquet(Path(tmp) / "out" / "scores.parquet").set_index("instance_id")
        for result in results:
            row = scores.loc[result.answer.id]
            for name, value in result.metrics.items():
                assert (value is None and pd.isna(row[name])) or value == row[name], (result.answer.id, name)
    n = len(results)
    print(f"{n} answers ({args.copies} copies of the museum's six)")
    print(f"in memory (score_answers): {memory[0]:6.2f} s CPU ({memory[1]:.1f} s wall)  {n / memory[0]:5.0f} answers/s")
    print(f"run (factcov rag score):   {on_disk[0]:6.2f} s CPU ({on_disk[1]:.1f} s wall)  {n / on_disk[0]:5.0f} answers/s")
    print(f"run / in memory: {on_disk[0] / memory[0]:.2f}x; every answer's metrics are the same")


if __name__ == "__main__":
    main()
