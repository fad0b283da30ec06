"""Candidate changes to the rag headline score, measured against WebNLG 2020 Correctness.

`triple_coverage` is a recall: how much of the data a text states. People's Correctness
also punishes what a text says wrongly or without support. This benchmark scores the
precision-side and aggregation variants that were tried to make the headline follow
Correctness more closely, each as Spearman at segment level (all pairs, and *within
entry*: metric and judgment both centred on the entry's mean over the 16 systems, so only
the ranking of texts written from the same input counts) and at system level, on the
tuning half (even sample_id; the only half used to choose) and the held-out half (odd).
It also prints where segment-level agreement comes from: the Spearman of per-entry means
(how hard each input is, by the metric and by people) and the share of the variance of
people's Correctness that lies between entries.

Variants (precision P in 0..1, coverage R = `triple_coverage`):

- `proper-noun precision`: share of the text's proper-noun words and numbers found in
  some triple's subject or object (or predicate label); F-beta of P and R, and R - lam * (1 - P);
- `content-word precision`: share of the text's content words whose stem is a subject's,
  an object's, or one that words a triple's predicate (`lexicon.stems_of`); F-beta and R - lam * (1 - P);
- `repeated trigrams`: share of the text's word trigrams that repeat an earlier one
  ("repeated content"); R * (1 - lam * rep);
- `repeated content words`: the same over content-word unigrams;
- contradicted triples weighted in: R - lam * (share of triples contradicted), a wrong
  relation costing more than a missing one;
- aggregation: mean + 0.5 * min over the triples instead of the mean;
- the coverage weights `NO_EVIDENCE` and `CROSS_SENTENCE` moved off their tuned values;
- issue 11's second round (`coverage@...` columns, each one change to the kept coverage):
  graded name matching by character similarity (`FUZZY`), the weight of an argument's
  optional words (`OPTIONAL`, kept at 0.1; 0 is the coverage before it), "by" as
  evidence for an agent noun's predicate (`AGENT_BY`), a prior for how often a predicate
  never seen in training goes unworded (`unseen implicit`), the contradiction rules
  switched off (`no rival`, `no reversed`), the parser's sentence breaks kept as they are
  (`parser sentences`: the rejoining of unmarked breaks undone), a sentence naming no
  subject linked to the earlier one like a pronoun (`ZERO_ANAPHORA`), and the place / build /
  length synonyms taken out (`without issue-11 synonyms`);
- `stated wrong`: share of triples whose subject and predicate wording share a sentence
  while the object is nowhere in the text (a wrong value rather than an omission),
  as R - lam * share, and `attempted mean`: the mean over the triples the text attempts
  (found at all), blended with R.

    python benchmarks/rag_headline_variants.py [--data ../shared/data/webnlg2020] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HALVES = {"tuning": 0, "held-out": 1}


def features(triples, parsed) -> dict[str, float]:
    """Per-text precision-side features (see module docstring)."""
    from factcov.domains.rag.lexicon import STOPWORDS, default_lexicon, label_words, stem
    from factcov.domains.rag.triple_coverage import _number, _number_matches, argument_of, sentences_of
    from factcov.language import fold

    lexicon = default_lexicon()
    names, name_stems, values, predicate_stems = set(), set(), [], set()
    for subject, predicate, obj in triples:
        for term in (subject, obj):
            argument = argument_of(term)
            names |= set(argument.words) | set(argument.optional) | set(argument.date or ())
            names |= set(re.findall(r"[^\W_]+", fold(term.replace("_", " "))))
            values += [argument.number] if argument.number is not None else []
            values += [float(x) for x in argument.date or ()]
        names |= {fold(w) for w in label_words(predicate)}
        predicate_stems |= set(lexicon.stems_of(predicate))
    name_stems = {stem(w) for w in names}
    proper = proper_unsupported = 0
    for token in parsed.tokens:
        word = fold(token.text)
        value = _number(word.replace(",", "")) if token.pos == "NUM" else None
        if value is not None:
            proper += 1
            proper_unsupported += not _number_matches(value, values) and word not in names
        elif token.pos == "PROPN" and token.text[:1].isupper():
            for w in re.findall(r"[^\W_]+", word):
                if w not in STOPWORDS:
                    proper += 1
                    proper_unsupported += w not in names and stem(w) not in name_stems
    sentences = sentences_of(parsed)
    content = [w for s in sentences for w in s.content if not w.isdigit()]
    content_unsupported = sum(stem(w) not in name_stems | predicate_stems for w in content)
    words = [w for s in sentences for w in s.words]
    trigrams = list(zip(words, words[1:], words[2:]))
    return {
        "stated_wrong": stated_wrong(triples, sentences),
        "proper_precision": 1 - proper_unsupported / max(proper, 1),
        "content_precision": 1 - content_unsupported / max(len(content), 1),
        "repeated_trigrams": 1 - len(set(trigrams)) / len(trigrams) if trigrams else 0.0,
        "repeated_content": 1 - len(set(content)) / len(content) if content else 0.0,
    }


def stated_wrong(triples, sentences) -> float:
    """Share of triples whose subject and the predicate's wording share a sentence while the
    object is found nowhere (see module docstring)."""
    from factcov.domains.rag.lexicon import default_lexicon
    from factcov.domains.rag.triple_coverage import argument_of, find

    lexicon, wrong = default_lexicon(), 0
    for subject, predicate, obj in triples:
        if max((find(argument_of(obj), s) for s in sentences), default=0.0) >= 0.5:
            continue
        wrong += any(find(argument_of(subject), s) >= 0.8
                     and lexicon.evidence_of(predicate, s.content, s.content_stems) >= 0.8 for s in sentences)
    return wrong / len(triples) if triples else 0.0


def f_beta(precision, recall, beta: float):
    return (1 + beta**2) * precision * recall / (beta**2 * precision + recall).clip(lower=1e-9)


def variants(frame) -> dict[str, object]:
    """Each candidate headline as a column expression over ``frame``."""
    r = frame["triple_coverage"]
    out = {"triple_coverage (kept)": r, "chrF++ (needs references)": frame["chrf++"]}
    for name in ("proper", "content"):
        p = frame[f"{name}_precision"]
        for beta in (1, 2, 3):
            out[f"F{beta} of {name} precision and coverage"] = f_beta(p, r, beta)
        for lam in (0.1, 0.3):
            out[f"coverage - {lam} x (1 - {name} precision)"] = r - lam * (1 - p)
    for name in ("repeated_trigrams", "repeated_content"):
        for lam in (0.3, 0.5, 1.0):
            out[f"coverage x (1 - {lam} x {name.replace('_', ' ')})"] = r * (1 - lam * frame[name])
    for lam in (0.5, 1.0):
        out[f"coverage - {lam} x contradicted share"] = r - lam * frame["contradicted"]
    out["mean + 0.5 min over triples"] = frame["triple_mean_min"]
    for lam in (0.25, 0.5, 1.0):
        out[f"coverage - {lam} x stated wrong"] = r - lam * frame["stated_wrong"]
    for a in (0.3, 0.5, 0.7):
        out[f"{a} x coverage + {1 - a:.1f} x attempted mean"] = a * r + (1 - a) * frame["attempted_mean"]
    for column in frame.columns:
        if column.startswith("coverage@"):
            out[column] = frame[column]
    return out


def attempted_mean(verdicts) -> float:
    """Mean score over the triples the text attempts: found at all, or contradicted."""
    scores = [v.score for v in verdicts if v.score > 0 or v.label == "contradicted"]
    return sum(scores) / len(scores) if scores else 0.0


# The synonyms issue 11's second round added (place words, build, length, manufacturer)
# and what "country" had before it.
ISSUE11_ADDED = ("city", "state", "region", "county", "build", "length", "manufacturer")
COUNTRY_BEFORE = ("nation",)


@contextmanager
def _patched(target, name: str, value):
    kept = getattr(target, name)
    setattr(target, name, value)
    _clear_caches()
    try:
        yield
    finally:
        setattr(target, name, kept)
        _clear_caches()


@contextmanager
def _synonyms_before_issue11():
    from factcov.domains.rag import lexicon

    kept = dict(lexicon.SYNONYMS)
    for word in ISSUE11_ADDED:
        lexicon.SYNONYMS.pop(word, None)
    lexicon.SYNONYMS["country"] = COUNTRY_BEFORE
    _clear_caches()
    try:
        yield
    finally:
        lexicon.SYNONYMS.clear()
        lexicon.SYNONYMS.update(kept)
        _clear_caches()


class _UnseenImplicit(dict):
    """``lexicon.implicit`` with a prior for predicates the training data never shows."""

    def __init__(self, learned: dict, weights: dict, prior: float):
        super().__init__(learned)
        self.weights, self.prior = weights, prior

    def get(self, predicate, default=None):
        if predicate in self or predicate in self.weights:
            return super().get(predicate, 0.0 if default is None else default)
        return self.prior


def _clear_caches() -> None:
    from factcov.domains.rag import lexicon

    lexicon._stems_of.cache_clear()


def changes(tc):
    """(label, context manager) of each one-change variant of the kept coverage."""
    from factcov.domains.rag.lexicon import default_lexicon

    lexicon = default_lexicon()
    for name, values in (("NO_EVIDENCE", (0.5, 0.7, 0.8, 0.9)), ("CROSS_SENTENCE", (0.3, 0.7)),
                         ("FUZZY", (0.5, 0.8, 1.0)), ("OPTIONAL", (0.0, 0.05, 0.2, 0.3)),
                         ("AGENT_BY", (0.6, 0.8, 1.0))):
        for value in values:
            yield f"{name}={value}", _patched(tc, name, value)
    for prior in (0.3, 0.5, 1.0):
        yield f"unseen implicit={prior}", _patched(lexicon, "implicit",
                                                   _UnseenImplicit(lexicon.implicit, lexicon.weights, prior))
    yield "ZERO_ANAPHORA=True", _patched(tc, "ZERO_ANAPHORA", True)
    yield "no rival", _patched(tc, "CONTRADICTION_OTHER", 2.0)
    yield "no reversed", _patched(tc, "_reversed", lambda *args: False)
    yield "parser sentences", _patched(tc, "_spans", lambda parsed: list(parsed.sentences))
    yield "without issue-11 synonyms", _synonyms_before_issue11()


def spearman_rows(frame, human, values) -> dict[str, float]:
    from scipy.stats import spearmanr

    table = frame[["system", "instance_id"]].assign(value=values.to_numpy()).merge(human, on=["system", "instance_id"])
    row = {}
    for criterion in ("Correctness", "DataCoverage"):
        row[f"{criterion} segment"] = spearmanr(table["value"], table[criterion]).statistic
        centred = table.groupby("instance_id")[["value", criterion]].transform(lambda x: x - x.mean())
        row[f"{criterion} within entry"] = spearmanr(centred["value"], centred[criterion]).statistic
        means = table.groupby("system")[["value", criterion]].mean()
        row[f"{criterion} system"] = spearmanr(means["value"], means[criterion]).statistic
    return row


def between_entries(frame, human) -> dict[str, float]:
    """Spearman of per-entry means with people's, and the between-entry share of the
    variance of Correctness (see module docstring)."""
    from scipy.stats import spearmanr

    table = frame.merge(human, on=["system", "instance_id"])
    entries = table.groupby("instance_id")[["triple_coverage", "chrf++", "Correctness", "DataCoverage"]].mean()
    out = {f"entry means {m} vs {c}": spearmanr(entries[m], entries[c]).statistic
           for m in ("triple_coverage", "chrf++") for c in ("Correctness", "DataCoverage")}
    entry_mean = table.groupby("instance_id")["Correctness"].transform("mean")
    out["between-entry share of Correctness variance"] = entry_mean.var() / table["Correctness"].var()
    entries["triples"] = table.groupby("instance_id")["triples"].first()
    out["entry triple count vs Correctness"] = spearmanr(entries["triples"], entries["Correctness"]).statistic
    for name in ("repeated_trigrams", "repeated_content"):
        out[f"{name} vs word count"] = spearmanr(table[name], table["words"]).statistic
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "webnlg2020")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args()

    import pandas as pd
    from sacrebleu.metrics import CHRF

    import factcov.domains.rag.triple_coverage as tc
    from factcov.domains.rag import webnlg
    from factcov.plugins import get_extractor
    from factcov.validation.human import load_human_judgments

    judged = webnlg.load_judged(args.data)
    human_file, instances, references, generations = (
        judged.human_file, judged.instances, judged.references, judged.generations)
    by_id = {instance.id: instance for instance in instances.values()}
    triples = [by_id[g.instance_id].context["triples"] for g in generations]
    parsed = get_extractor("rag-spacy", "en").parse([g.text for g in generations])
    chrf = CHRF(word_order=2)
    rows = []
    for generation, entry_triples, parsed_text in zip(generations, triples, parsed):
        result = tc.cover(parsed_text, entry_triples)
        scores = [v.score for v in result.verdicts]
        rows.append({"system": generation.system, "instance_id": generation.instance_id,
                     "triple_coverage": result.coverage, "contradicted": result.contradicted or 0.0,
                     "triple_mean_min": sum(scores) / len(scores) + 0.5 * min(scores),
                     "attempted_mean": attempted_mean(result.verdicts),
                     "triples": len(entry_triples), "words": sum(t.pos != "PUNCT" for t in parsed_text.tokens),
                     "chrf++": chrf.sentence_score(generation.text,
                                                   references[int(generation.instance_id.split(":")[1])]).score,
                     **features(entry_triples, parsed_text)})
    frame = pd.DataFrame(rows)
    for label, change in changes(tc):
        with change:
            frame[f"coverage@{label}"] = [tc.cover(p, t).coverage for t, p in zip(triples, parsed)]

    judgments = load_human_judgments(human_file)
    human = None
    for criterion in ("Correctness", "DataCoverage"):
        part = judgments[judgments["criterion"] == criterion].groupby(["system", "instance_id"], as_index=False)[
            "score"].mean().rename(columns={"score": criterion})
        human = part if human is None else human.merge(part, on=["system", "instance_id"])
    number = frame["instance_id"].str.split(":").str[1].astype(int)
    results: dict = {}
    columns = ("Correctness segment", "Correctness within entry", "Correctness system",
               "DataCoverage segment", "DataCoverage within entry", "DataCoverage system")
    for half, parity in HALVES.items():
        part = frame[number % 2 == parity]
        results[half] = {name: spearman_rows(part, human, values) for name, values in variants(part).items()}
        print(f"\n{half} half (Spearman)\n| variant | " + " | ".join(columns) + " |\n|" + "---|" * (1 + len(columns)))
        for name, row in results[half].items():
            print(f"| {name} | " + " | ".join(f"{row[c]:.3f}" for c in columns) + " |")
        results[f"{half} between entries"] = between = between_entries(part, human)
        print(" ".join(f"{k} {v:.3f};" for k, v in between.items()))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
