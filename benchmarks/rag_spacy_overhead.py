"""spaCy-backed rag scoring vs raw `nlp.pipe` (the floor) and a naive per-text pipeline.

Texts: WebNLG 2020 system outputs (the first N of every team's file, real answers with
complete fact sets). Three timings in one run, after one warm-up, as CPU time of this
process (`time.process_time`: one process, so it is the work done, and other jobs on
the machine do not distort it; wall time is printed beside it):

- floor: `list(nlp.pipe(texts))`, parsing only;
- factcov: parse once in batches + entity/relation claims + verify + score (what
  `factcov rag score` and the WebNLG validation do);
- naive: `nlp(text)` per text, twice (once read for entities, once for relations),
  then the same claims, verification and scoring.

    python benchmarks/rag_spacy_overhead.py [--per-system 200] [--n-process 1]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "webnlg2020")
    parser.add_argument("--per-system", type=int, default=200, help="texts per team (16 teams)")
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()

    from factcov.domains.rag import webnlg
    from factcov.domains.rag.claims import ENTITY, RELATION, extract_claims
    from factcov.domains.rag.domain import RagDomain
    from factcov.extractors.spacy_backend import to_parsed
    from factcov.plugins import get_extractor
    from factcov.scoring import score_generation
    from factcov.verifier import Verifier

    def clock() -> float:
        return time.process_time()

    numbers = range(1, args.per_system + 1)
    instances = webnlg.load_instances(args.data / "test-en.xml", numbers)
    generations = webnlg.load_generations(args.data / "submissions", numbers)
    texts = [g.text for g in generations]
    extractor = get_extractor("rag-spacy", "en", batch_size=args.batch_size)
    nlp = extractor.parser.nlp
    list(nlp.pipe(texts[:200], batch_size=args.batch_size))  # warm-up

    walls = []
    wall = time.perf_counter()
    started = clock()
    docs = list(nlp.pipe(texts, batch_size=args.batch_size))
    floor = clock() - started
    walls.append(time.perf_counter() - wall)
    tokens = sum(len(d) for d in docs)
    del docs

    wall = time.perf_counter()
    started = clock()
    scores = webnlg.score_generations(instances, generations, extractor)
    factcov = clock() - started
    walls.append(time.perf_counter() - wall)

    domain, verifier = RagDomain(), Verifier()
    by_id = {i.id: i for i in instances.values()}
    wall = time.perf_counter()
    started = clock()
    naive_scores = []
    for generation in generations:
        instance = by_id[generation.instance_id]
        index = extractor.index(instance)
        entities = [c for c in extract_claims(to_parsed(nlp(generation.text)), index, "naive") if c.type == ENTITY]
        relations = [c for c in extract_claims(to_parsed(nlp(generation.text)), index, "naive") if c.type == RELATION]
        verdicts = verifier.verify_all(entities + relations, domain.knowledge(instance))
        naive_scores.append(score_generation(instance.facts, verdicts).total.covered)
    naive = clock() - started
    walls.append(time.perf_counter() - wall)
    assert naive_scores == [int(round(r * n)) for r, n in zip(
        scores["recall"].fillna(0), [len(by_id[g.instance_id].facts) for g in generations])], "same results"

    print(f"{len(texts)} texts ({tokens} tokens), spaCy {extractor.parser.signature()}, batch {args.batch_size}")
    print(f"CPU s; wall s beside. raw nlp.pipe (floor): {floor:7.2f} s ({walls[0]:.1f})  {len(texts) / floor:5.0f} texts/s")
    print(f"factcov rag scoring:       {factcov:7.2f} s ({walls[1]:.1f})  {len(texts) / factcov:5.0f} texts/s")
    print(f"naive (nlp per text, x2):  {naive:7.2f} s ({walls[2]:.1f})  {len(texts) / naive:5.0f} texts/s")
    print(f"factcov overhead over the floor: {factcov / floor:.2f}x ({(factcov - floor) / floor:+.0%})")
    print(f"naive / factcov:                 {naive / factcov:.2f}x")


if __name__ == "__main__":
    main()
