"""spaCy's pipe as `factcov rag score` runs it (the attribute ruler and the lemmatizer by
look-up, `extractors/spacy_rules.py`) against spaCy's own pipe: CPU, component by component.

The texts are ``end_to_end.py``'s rag input: the distinct texts of ``--questions``
HaluEval QA questions (passages, right and hallucinated answers; 1,941 for 500). In one
process, ``--rounds`` rounds; in each, both pipelines are loaded afresh (a run's cold
caches: the lemmatizer's, the vocabulary's), then the texts are parsed in chunks of 64,
each chunk by both (``nlp.pipe``, every component), the two in alternating order: on a
shared machine, whose load drifts by the minute, CPU time (``time.process_time``) taken
chunk by chunk, interleaved, compares the two; whole runs one after the other differ by
more than the difference measured. Then one pass each, component by component (every
text through a component before the next: the same work, split), and a check that every
annotation is the same.

    python benchmarks/rag_spacy_rules.py --rounds 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

COLUMNS = ["ORTH", "TAG", "POS", "MORPH", "LEMMA", "DEP", "HEAD", "ENT_IOB", "ENT_TYPE", "SENT_START"]


def distinct_texts(questions: int) -> list[str]:
    import tempfile

    from end_to_end import build_rag

    _, distinct, _, _ = build_rag(Path(tempfile.mkdtemp(prefix="rag-spacy-rules-")), questions)
    return json.loads(distinct.read_text(encoding="utf-8"))


def pipelines() -> dict[str, object]:
    import spacy

    from factcov.extractors.spacy_backend import resolve_model
    from factcov.extractors.spacy_rules import indexed

    model = resolve_model()
    return {"spaCy's own": spacy.load(model), "factcov's (rules by look-up)": indexed(spacy.load(model))}


CHUNK = 64


def interleaved(loaded: list[tuple[str, object]], texts: list[str]) -> tuple[dict[str, float], bool]:
    """Each pipeline's CPU over ``texts``, chunk by chunk, alternating which goes first;
    whether the two annotate every text the same."""
    spent = {name: 0.0 for name, _ in loaded}
    same = True
    for number, start in enumerate(range(0, len(texts), CHUNK)):
        chunk, arrays = texts[start:start + CHUNK], []
        for name, nlp in loaded[::-1] if number % 2 else loaded:
            begin = time.process_time()
            docs = list(nlp.pipe(chunk, batch_size=256))
            spent[name] += time.process_time() - begin
            arrays.append([doc.to_array(COLUMNS).tolist() for doc in docs])
        same = same and arrays[0] == arrays[1]
    return spent, same


def by_component(nlp, texts: list[str]) -> dict[str, float]:
    docs = [nlp.make_doc(text) for text in texts]
    spent = {}
    for name, component in nlp.pipeline:
        start = time.process_time()
        docs = list(component.pipe(docs, batch_size=256))
        spent[name] = time.process_time() - start
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    texts = distinct_texts(args.questions)
    runs: dict[str, list[float]] = {}
    same = True
    for _ in range(args.rounds):
        spent, alike = interleaved(list(pipelines().items()), texts)
        same = same and alike
        for name, cpu in spent.items():
            runs.setdefault(name, []).append(cpu)
    print(f"{len(texts):,} distinct texts of {args.questions} HaluEval questions; nlp.pipe in chunks of {CHUNK}, "
          f"interleaved; median of {args.rounds} rounds, CPU s")
    for name, found in runs.items():
        print(f"  {name:30} {statistics.median(found):6.2f}  {[round(c, 2) for c in found]}")
    saved = [a - b for a, b in zip(*runs.values())]
    print(f"  saved: {[round(s, 2) for s in saved]} ({statistics.median(saved) / statistics.median(next(iter(runs.values()))):.0%})")
    split = {name: by_component(nlp, texts) for name, nlp in pipelines().items()}
    names = list(next(iter(split.values())))
    print("component by component, CPU s:  " + "  ".join(f"{n:>15}" for n in names))
    for name, spent in split.items():
        print(f"  {name:30}" + "  ".join(f"{spent[n]:15.2f}" for n in names))
    print(f"every annotation the same ({', '.join(COLUMNS)}): {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
