"""Validate rag scoring against people on WebNLG 2020 (English).

Scores the 16 systems' outputs for the 178 human-judged entries (each entry's triples are
its complete fact set), correlates the scores with the human Correctness and
DataCoverage at system and segment level (Spearman, Kendall; `factcov.validation.human`),
with sentence BLEU and chrF++ (sacrebleu) against the references as baselines and the
agreement of one annotator with the others as the ceiling.

The judged entries are split by sample_id, fixed before any tuning: even sample_ids are
the tuning half (the only 2020 judgments any setting of the rag scorer was chosen on),
odd ones the held-out half. Besides the system and segment levels, "within entry" is
the segment level with the metric and the judgment each centred on the entry's mean over
the systems (`centred`), so only the ranking of texts written from the same input
counts: a score that tracks how hard an input is (a reference-based one does, through
the references) gains nothing there. The table is printed for all entries, then for each half,
then the system ranking of the template baselines (FORGE2017, FORGE2020) against the
people's best neural systems (bt5, OSU_Neural_NLG) by the headline score, GAA and people.

"Missing information": the closest proxy here for a set with binary human labels. A
text is labelled ``missing`` when most of its annotators scored its DataCoverage below
the scale's maximum (100), else ``complete``; as a second cut, the averaged DataCoverage
below 90. The ROC AUC of each metric for ``complete`` (with its bootstrap interval over
texts) comes from ``factcov.validation.labels.discriminate``, what ``factcov validate
human`` reports for a label CSV (``--labels-csv`` writes the labels in that format);
beside the headline: GAA's recall and a naive string match (the share of the entry's
triple arguments found verbatim, case- and accent-folded, in the text).

    python benchmarks/rag_webnlg_validation.py [--data ../shared/data/webnlg2020] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CRITERIA = ("Correctness", "DataCoverage")
LEVELS = ("system", "segment", "within entry")
HEADLINE = "triple_coverage"
HALVES = {"all": None, "tuning (even sample_id)": 0, "held-out (odd sample_id)": 1}
RANKED = ("Baseline-FORGE2017", "Baseline-FORGE2020", "bt5", "OSU_Neural_NLG")
ROWS = ("triple_coverage", "recall", "precision", "f1", "entity_coverage", "gaa", "relation_precision", "relation_recall",
        "entity_precision", "entity_recall", "claim_f1", "bleu", "chrf++")
AUC_ROWS = ("triple_coverage", "entity_coverage", "recall", "claim_recall", "relation_recall", "naive_match", "chrf++")
FULL = 100.0  # the DataCoverage scale's maximum


def naive_match(text: str, triples) -> float:
    """Share of the triples' distinct arguments found verbatim (case- and accent-folded) in the text."""
    from factcov.language import fold

    folded = fold(text)
    arguments = {term.replace("_", " ").strip().strip('"').strip() for t in triples for term in (t[0], t[2])}
    return sum(fold(a) in folded for a in arguments) / len(arguments) if arguments else 0.0


def missing_information_labels(human_dir, systems, averaged):
    """Binary DataCoverage labels per text, by two cuts (see module docstring): ``majority``
    (most annotators below the maximum) and ``mean below 90``."""
    from factcov.validation.human import load_annotations

    files = [human_dir / f"{system}.json" for system in sorted(systems)]
    annotations = load_annotations(files)
    coverage = annotations[annotations["criterion"] == "DataCoverage"]
    below = coverage.assign(below=coverage["score"] < FULL).groupby(["system", "instance_id"])["below"].mean()
    majority = below.gt(0.5).map({True: "missing", False: "complete"}).rename("label").reset_index()
    means = averaged[averaged["criterion"] == "DataCoverage"].groupby(["system", "instance_id"])["score"].mean()
    cut = means.lt(90).map({True: "missing", False: "complete"}).rename("label").reset_index()
    return {name: frame.assign(criterion="DataCoverage")[["system", "instance_id", "criterion", "label"]]
            for name, frame in (("majority of annotators below 100", majority), ("mean below 90", cut))}


def baselines(generations, references, instances):
    import pandas as pd
    from sacrebleu.metrics import BLEU, CHRF

    bleu, chrf = BLEU(effective_order=True), CHRF(word_order=2)
    rows = []
    for g in generations:
        number = int(g.instance_id.split(":")[1])
        refs = references[number]
        rows.append({"system": g.system, "instance_id": g.instance_id,
                     "bleu": bleu.sentence_score(g.text, refs).score,
                     "chrf++": chrf.sentence_score(g.text, refs).score,
                     "naive_match": naive_match(g.text, instances[number].context["triples"])})
    return pd.DataFrame(rows)


def centred(metric_df, human_df):
    """The pairs both scored and judged, metric value and judgment each minus its entry's
    mean: the "within entry" level (see module docstring)."""
    human = human_df.groupby(["system", "instance_id"], as_index=False)["score"].mean()
    pairs = metric_df.merge(human, on=["system", "instance_id"]).dropna(subset=["value", "score"])
    means = pairs.groupby("instance_id")[["value", "score"]].transform("mean")
    pairs = pairs.assign(value=pairs["value"] - means["value"], score=pairs["score"] - means["score"])
    return pairs[["system", "instance_id", "value"]], pairs[["system", "instance_id", "score"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "webnlg2020")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--alpha", type=float, default=0.5)
    parser.add_argument("--labels-csv", type=Path, default=None,
                        help="also write the 'missing information' labels (majority cut) as a factcov label CSV")
    args = parser.parse_args()

    from factcov.domains.rag import webnlg
    from factcov.plugins import get_extractor
    from factcov.validation.human import annotator_agreement, correlate, load_human_judgments

    judged = webnlg.load_judged(args.data)
    human_file, instances, references, generations = (
        judged.human_file, judged.instances, judged.references, judged.generations)
    started = time.perf_counter()
    scores = webnlg.score_generations(instances, generations, get_extractor("rag-spacy", "en"), alpha=args.alpha)
    seconds = time.perf_counter() - started
    scores = scores.merge(baselines(generations, references, instances), on=["system", "instance_id"])
    human = load_human_judgments(human_file)
    human = human[human["system"].isin(set(scores["system"]))]

    results: dict = {"n_texts": len(generations), "n_systems": scores["system"].nunique(),
                     "n_instances": len(instances), "scoring_seconds": round(seconds, 1), "halves": {}}
    print(f"{results['n_texts']} texts, {results['n_systems']} systems, {results['n_instances']} entries; "
          f"factcov scoring {seconds:.1f} s")
    for half_name, parity in HALVES.items():
        numbers = scores["instance_id"].str.split(":").str[1].astype(int)
        part = scores if parity is None else scores[numbers % 2 == parity]
        table = results["halves"][half_name] = {}
        for metric in ROWS:
            metric_df = part[["system", "instance_id", metric]].rename(columns={metric: "value"}).dropna()
            for criterion in CRITERIA:
                judged = human[human["criterion"] == criterion]
                for level in LEVELS:
                    if level == "within entry":
                        r = correlate(*centred(metric_df, judged), level="segment", n_boot=args.n_boot)
                    else:
                        r = correlate(metric_df, judged, level=level, n_boot=args.n_boot)
                    table[f"{metric}|{criterion}|{level}"] = {k: r[k] for k in ("spearman", "kendall", "spearman_ci", "n")}
        if parity is None:
            for criterion in CRITERIA:
                for level in LEVELS[:2]:
                    # The 16 systems scored here (the reference texts' file is left out).
                    files = [args.data / "human" / f"{system}.json" for system in sorted(set(scores["system"]))]
                    r = annotator_agreement(files, criterion, level=level, n_boot=args.n_boot)
                    table[f"ceiling|{criterion}|{level}"] = {k: r[k] for k in ("spearman", "kendall", "spearman_ci", "n")}
        print(f"\n{half_name}: {part['instance_id'].nunique()} entries, {len(part)} texts; Spearman [95% CI] / Kendall")
        print("| metric | " + " | ".join(f"{c} {lvl}" for c in CRITERIA for lvl in LEVELS) + " |")
        print("|" + "---|" * (1 + len(CRITERIA) * len(LEVELS)))
        for metric in (*ROWS, "ceiling"):
            if f"{metric}|{CRITERIA[0]}|{LEVELS[0]}" not in table:
                continue
            cells = []
            for criterion in CRITERIA:
                for level in LEVELS:
                    r = table.get(f"{metric}|{criterion}|{level}")
                    if r is None:
                        cells.append("")
                        continue
                    ci = r["spearman_ci"]
                    interval = f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""
                    cells.append(f"{r['spearman']:.3f}{interval} / {r['kendall']:.3f}")
            print(f"| {metric} | " + " | ".join(cells) + " |")
    missing_information(args, scores, human, results)
    ranks = {}
    means = scores.groupby("system")[[HEADLINE, "gaa", "chrf++"]].mean()
    for column in means:
        ranks[column] = means[column].rank(ascending=False, method="min").astype(int).to_dict()
    for criterion in CRITERIA:
        people = human[human["criterion"] == criterion].groupby("system")["score"].mean()
        ranks[f"people {criterion}"] = people.rank(ascending=False, method="min").astype(int).to_dict()
    results["ranks"] = ranks
    print("\nsystem rank (1 = best of 16) | " + " | ".join(RANKED))
    for column, by_system in ranks.items():
        print(f"{column} | " + " | ".join(str(by_system.get(system, "-")) for system in RANKED))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def missing_information(args, scores, human, results) -> None:
    """ROC AUC for "complete" against "missing information" (see module docstring)."""
    from factcov.validation.labels import discriminate

    cuts = missing_information_labels(args.data / "human", set(scores["system"]), human)
    if args.labels_csv:
        cuts["majority of annotators below 100"].to_csv(args.labels_csv, index=False)
    out = results["missing_information"] = {}
    numbers = scores["instance_id"].str.split(":").str[1].astype(int)
    for cut, labels in cuts.items():
        print(f"\nmissing information ({cut}): ROC AUC for 'complete' [95% CI]")
        print("| metric | " + " | ".join(HALVES) + " |\n|" + "---|" * (1 + len(HALVES)))
        for metric in AUC_ROWS:
            cells = []
            for half_name, parity in HALVES.items():
                part = scores if parity is None else scores[numbers % 2 == parity]
                metric_df = part[["system", "instance_id", metric]].rename(columns={metric: "value"}).dropna()
                r = discriminate(metric_df, labels, positive="complete", n_boot=args.n_boot)
                out[f"{cut}|{metric}|{half_name}"] = {k: r[k] for k in ("auc", "auc_ci", "n", "labels")}
                ci = r["auc_ci"]
                counts = f" (n {r['n']}, missing {r['labels'].get('missing', 0)})" if metric == AUC_ROWS[0] else ""
                cells.append(f"{r['auc']:.3f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "") + counts)
            print(f"| {metric} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
