"""How often the rag scorer's stemmer splits one word's inflections: for every inflected
word type of the WebNLG training texts (a word spaCy's lemmatizer maps to another form:
"cookies" -> cookie, "named" -> name), whether ``lexicon.stem`` gives the word and its
lemma the same stem. The lexicon is counted over stems and texts are read through them,
so a split is a wording the lexicon never sees.

    python benchmarks/rag_stem_consistency.py [--data ../shared/data/webnlg-train]
    python benchmarks/baseline.py REF benchmarks/rag_stem_consistency.py   # REF's stemmer
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "webnlg-train")
    args = parser.parse_args()

    from rag_build_lexicon import iter_sentence_predicates

    from factcov.domains.rag.lexicon import stem
    from factcov.extractors.spacy_backend import load_pipeline, resolve_model

    counts: Counter[str] = Counter()
    for words, _ in iter_sentence_predicates(args.data / "webnlg-enriched-v2.0-en-train-dev.tar.gz"):
        for word in words:
            word = word.lower().strip("'`\".,;:()")
            if word.isalpha() and len(word) > 2:
                counts[word] += 1
    nlp = load_pipeline(resolve_model())
    vocabulary = sorted(counts)
    lemmas = {word: doc[0].lemma_.lower() for word, doc in zip(vocabulary, nlp.pipe(vocabulary, batch_size=2000))}
    inflected = {word: lemma for word, lemma in lemmas.items() if lemma != word and lemma.isalpha()}
    split = sorted(((counts[w], w, lemma) for w, lemma in inflected.items() if stem(w) != stem(lemma)), reverse=True)
    tokens = sum(counts[w] for w in inflected)
    print(f"{len(inflected)} inflected word types ({tokens} tokens); {len(split)} stem apart from their lemma "
          f"({len(split) / len(inflected):.1%}; {sum(c for c, _, _ in split) / tokens:.1%} of tokens)")
    print("most frequent:", ", ".join(f"{w}/{lemma} ({stem(w)}/{stem(lemma)})" for _, w, lemma in split[:15]))


if __name__ == "__main__":
    main()
