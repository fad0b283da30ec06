"""spaCy-backed rag scoring vs raw `nlp.pipe` (the floor) and a naive per-text pipeline.

Texts: WebNLG 2020 system outputs (the first N of every team's file, real answers with
complete fact sets). Three timings in one run, as CPU time of this process
(`time.process_time`: one process, so it is the work done, and other jobs on the machine
do not distort it; wall time is printed beside it). Each path is warmed up first, so
neither pays a one-off cost: the floor parses the first 200 texts (spaCy's model is
loaded before), factcov scores the 16 texts of entry N+1, which is not measured (so the
first call's imports -- pandas for the result table -- are not counted against factcov,
as spaCy's import and load are not counted against the floor, and no measured text is
in factcov's caches). The floor and factcov run the same loaded pipeline (all its
components: factcov reads tags, lemmas, the parse and the entities) with the same batch
size and number of processes; the script prints the components and checks this.

- floor: `list(nlp.pipe(texts))`, parsing only;
- factcov: parse once in batches + entity/relation claims + verify + score (what
  `factcov rag score` and the WebNLG validation do);
- naive: `nlp(text)` per text, twice (once read for entities, once for relations),
  then the same claims, verification and scoring;
- content units: read from each text's parse and graded against the entry's triples
  (``unit_precision``'s work), timed on parses made beforehand and added to factcov's side.

    python benchmarks/rag_spacy_overhead.py [--per-system 200] [--batch-size 256] [--n-process 1]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "webnlg2020")
    parser.add_argument("--per-system", type=int, default=200, help="texts per team (16 teams)")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--n-process", type=int, default=1)
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
    instances = webnlg.load_instances(args.data / "test-en.xml", [*numbers, args.per_system + 1])
    generations = webnlg.load_generations(args.data / "submissions", numbers)
    warm_up = webnlg.load_generations(args.data / "submissions", [args.per_system + 1])
    texts = [g.text for g in generations]
    extractor = get_extractor("rag-spacy", "en", batch_size=args.batch_size, n_process=args.n_process)
    nlp = extractor.parser.nlp
    # A fair floor: factcov parses with this very pipeline, batch size and process count.
    assert (extractor.parser.batch_size, extractor.parser.n_process) == (args.batch_size, args.n_process)
    list(nlp.pipe(texts[:200], batch_size=args.batch_size, n_process=args.n_process))  # warm-ups
    webnlg.score_generations(instances, warm_up, extractor)
    instances = {n: instances[n] for n in numbers}

    walls = []
    wall = time.perf_counter()
    started = clock()
    docs = list(nlp.pipe(texts, batch_size=args.batch_size, n_process=args.n_process))
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

    # Content units (issue 25): read from each text's parse and graded against the entry's
    # triples, as `factcov rag score` does for answers with reference_triples. Timed on
    # parses made beforehand (not timed), then added to factcov's side.
    from factcov.domains.rag.grounding import precision_grades
    from factcov.domains.rag.units import kind_product, read_units, triple_units

    parsed = extractor.parse(texts)
    wall = time.perf_counter()
    started = clock()
    for parse, generation in zip(parsed, generations):
        kind_product(precision_grades(read_units(parse, span=True),
                                      triple_units(by_id[generation.instance_id].context["triples"]), None))
    units = clock() - started
    walls.append(time.perf_counter() - wall)
    del parsed

    print(f"{len(texts)} texts ({tokens} tokens), spaCy {extractor.parser.signature()} "
          f"({', '.join(nlp.pipe_names)}), batch {args.batch_size}, {args.n_process} process(es); "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"CPU s; wall s beside. raw nlp.pipe (floor): {floor:7.2f} s ({walls[0]:.1f})  {len(texts) / floor:5.0f} texts/s")
    print(f"factcov rag scoring:       {factcov:7.2f} s ({walls[1]:.1f})  {len(texts) / factcov:5.0f} texts/s")
    print(f"naive (nlp per text, x2):  {naive:7.2f} s ({walls[2]:.1f})  {len(texts) / naive:5.0f} texts/s")
    print(f"factcov overhead over the floor: {factcov / floor:.2f}x ({(factcov - floor) / floor:+.0%})")
    print(f"naive / factcov:                 {naive / factcov:.2f}x")
    print(f"content units (read + graded):   {units:7.2f} s ({walls[3]:.1f}); with them over the floor: "
          f"{(factcov + units) / floor:.2f}x")


if __name__ == "__main__":
    main()
