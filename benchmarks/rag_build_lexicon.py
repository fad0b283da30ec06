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
dessert from Mexico" for ``country``, naming no country), and the direction of each
(predicate, connecting word) pair when at least 90% of at least 5 sentences agree on
whether the subject is the doer ("X was born in Y", "Y published X"; ``agent_is_subject``). Only the enriched WebNLG v2.0 training and development
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
DIRECT_SPAN, MIN_DIRECTED = 6, 5  # as triple_coverage.DIRECT_SPAN


def sentences_of(template: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=\s)\.(?:\s|$)", template) if s.strip()]


def iter_sentence_triples(archive: Path):
    """(one template sentence, the triples it states, tag of each entity) over train and dev."""
    with tarfile.open(archive) as tar:
        for member in tar:
            if not member.name.endswith(".xml"):
                continue
            root = ET.parse(tar.extractfile(member)).getroot()
            for entry in root.iter("entry"):
                tags = {}
                for entity in entry.iter("entity"):
                    tag, _, name = (entity.text or "").partition("|")
                    tags[name.strip()] = tag.strip()
                for lex in entry.iter("lex"):
                    template = (lex.findtext("template") or "").strip()
                    groups = [[tuple(p.strip() for p in t.text.split("|")) for t in s.iter("striple") if t.text]
                              for s in lex.iter("sentence")]
                    groups = [g for g in groups if g]
                    parts = sentences_of(template)
                    if not template or not groups:
                        continue
                    if len(parts) != len(groups):
                        if len(groups) != 1:
                            continue
                        parts = [template]
                    for part, triples in zip(parts, groups):
                        yield part, triples, tags


def iter_sentence_predicates(archive: Path):
    """(words of one template sentence, predicates it states) over train and dev."""
    for part, triples, _ in iter_sentence_triples(archive):
        yield [w for w in part.split() if not TAG.match(w)], [t[1] for t in triples]


def agent_is_subject(part: str, triple: tuple[str, str, str], tags: dict[str, str]) -> tuple[bool, list[str]] | None:
    """Whether the triple's subject does what its sentence says ("AGENT-1 was born in
    PATIENT-1": yes; "PATIENT-1 published AGENT-1": no), read as ``triple_coverage``
    reads a text: the earlier argument, or the one after "by"; with the words between
    them. None when the two are not joined directly (far apart, another entity or an
    "of"/"'s" between)."""
    words = part.split()
    subject, obj = tags.get(triple[0]), tags.get(triple[2])
    if subject not in words or obj not in words:
        return None
    i, j = words.index(subject), words.index(obj)
    low, high = sorted((i, j))
    between = words[low + 1:high]
    if len(between) > DIRECT_SPAN or {"of", "'s"} & set(between) or any(TAG.match(w) for w in between):
        return None
    passive = "by" in between[-2:]
    return (i < j) != passive, between


def directions(archive: Path) -> dict[str, int]:
    """Per "predicate|stem": +1 / -1 when, in at least 90% of at least 5 sentences stating
    the predicate alone with that past form ("located", not "director") between its arguments, the subject is (is not) the
    doer ("located" for location: +1; "published" for publisher: -1)."""
    from factcov.domains.rag.lexicon import content_stems, is_verbal

    counts: dict[str, Counter] = defaultdict(Counter)
    for part, triples, tags in iter_sentence_triples(archive):
        if len(triples) == 1:
            read = agent_is_subject(part, triples[0], tags)
            if read is not None:
                for s in content_stems(w for w in read[1] if is_verbal(w)):
                    counts[f"{triples[0][1]}|{s}"][read[0]] += 1
    out = {}
    for key, c in sorted(counts.items()):
        n = c[True] + c[False]
        if n >= MIN_DIRECTED and c[True] / n >= 0.9:
            out[key] = 1
        elif n >= MIN_DIRECTED and c[False] / n >= 0.9:
            out[key] = -1
    return out


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
        "direction": directions(archive),
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
