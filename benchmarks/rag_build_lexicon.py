"""Build domains/rag/predicate_lexicon.json from the WebNLG training texts (train + dev).

For every lexicalization, its delexicalized template is split into sentences and aligned
with the triples the corpus groups by sentence (``sortedtripleset``); the words of a
sentence (entity tags and stop words dropped, stemmed with ``lexicon.stem``) are counted
for each predicate that sentence states. A sentence stating k predicates counts 1/k for each (its
words are shared). A stem is kept for a predicate when at least 2 of its sentences hold
it, it is in at least 4% of them (weighted) and at least 4 times more frequent there
than in all sentences; its weight is that (weighted) share. The top 20
stems per predicate are written, and for each predicate stated alone in at least 5
sentences the share of those holding none of its stems ("implicit": people write "a
dessert from Mexico" for ``country``, naming no country). Only the enriched WebNLG v2.0 training and development
data are read, never the 2020 test set or its judgments.

    python benchmarks/rag_build_lexicon.py [--data ../shared/data/webnlg-train]
"""

from __future__ import annotations

import argparse
import json
import re
import tarfile
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TAG = re.compile(r"^(AGENT|BRIDGE|PATIENT)-\d+$")
MIN_COUNT, MIN_SHARE, MIN_LIFT, TOP, MIN_ALONE = 2, 0.04, 4.0, 20, 5


def sentences_of(template: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=\s)\.(?:\s|$)", template) if s.strip()]


def iter_sentence_predicates(archive: Path):
    """(words of one template sentence, predicates it states) over train and dev."""
    with tarfile.open(archive) as tar:
        for member in tar:
            if not member.name.endswith(".xml"):
                continue
            root = ET.parse(tar.extractfile(member)).getroot()
            for entry in root.iter("entry"):
                for lex in entry.iter("lex"):
                    template = (lex.findtext("template") or "").strip()
                    groups = [[t.text.split("|")[1].strip() for t in s.iter("striple") if t.text]
                              for s in lex.iter("sentence")]
                    groups = [g for g in groups if g]
                    parts = sentences_of(template)
                    if not template or not groups:
                        continue
                    if len(parts) != len(groups):
                        if len(groups) != 1:
                            continue
                        parts = [template]
                    for part, predicates in zip(parts, groups):
                        words = [w for w in part.split() if not TAG.match(w)]
                        yield words, predicates


def build(archive: Path) -> dict:
    from factcov.domains.rag.lexicon import content_stems

    # A sentence stating k predicates counts 1/k for each: their words are shared.
    per_predicate: dict[str, Counter] = defaultdict(Counter)
    sentences_with: Counter = Counter()
    raw: dict[str, Counter] = defaultdict(Counter)
    overall: Counter = Counter()
    total = 0
    seen: list[tuple[set[str], set[str]]] = []
    for words, predicates in iter_sentence_predicates(archive):
        stems = content_stems(words)
        seen.append((stems, set(predicates)))
        total += 1
        overall.update(stems)
        distinct = set(predicates)
        for predicate in distinct:
            sentences_with[predicate] += 1 / len(distinct)
            raw[predicate].update(stems)
            for s in stems:
                per_predicate[predicate][s] += 1 / len(distinct)
    lexicon = {}
    for predicate, counts in sorted(per_predicate.items()):
        n = sentences_with[predicate]
        kept = {}
        for s, c in counts.items():
            share = c / n
            if raw[predicate][s] >= MIN_COUNT and share >= MIN_SHARE and share / (overall[s] / total) >= MIN_LIFT:
                kept[s] = round(share, 3)
        lexicon[predicate] = dict(sorted(kept.items(), key=lambda kv: -kv[1])[:TOP])
    # How often people state a predicate without any of its words ("a dessert from
    # Mexico" for country): sentences stating it alone that hold none of its stems.
    alone: Counter = Counter()
    silent: Counter = Counter()
    for stems, predicates in seen:
        if len(predicates) == 1:
            (predicate,) = predicates
            alone[predicate] += 1
            silent[predicate] += not (stems & set(lexicon[predicate]))
    implicit = {p: round(silent[p] / alone[p], 3) for p in sorted(alone) if alone[p] >= MIN_ALONE}
    return {
        "source": "WebNLG enriched v2.0 (en) train+dev, github.com/ThiagoCF05/webnlg data/v2.0/en; "
                  "CC BY-NC-SA 4.0; Gardent et al. 2017, Castro Ferreira et al. 2018",
        "built_by": "benchmarks/rag_build_lexicon.py",
        "sentences": total,
        "predicates": lexicon,
        "implicit": implicit,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "webnlg-train")
    parser.add_argument("--out", type=Path, default=REPO / "domains" / "rag" / "predicate_lexicon.json")
    args = parser.parse_args()
    data = build(args.data / "webnlg-enriched-v2.0-en-train-dev.tar.gz")
    args.out.write_text(json.dumps(data, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(data['predicates'])} predicates from {data['sentences']} sentences -> {args.out}")


if __name__ == "__main__":
    main()
