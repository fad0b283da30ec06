"""Comparing scoring runs: P/R/F1 per system with CIs, precision rank vs F1 rank, and,
across domains, the coverage penalty (precision − F1) against the facts per instance.

A run is an OUTDIR written by ``factcov score`` (see ``factcov.outputs``). Runs of the
same domain are pooled into one system table (they must share a scoring signature);
runs of different domains are compared side by side. Runs that differ only in the prompt
variant their generations were asked with (``factcov generate --prompt``, the part
``|prompt:...`` of the run signature) are pooled too: that is the paper's prompt study
(Table 3), one system per variant, named ``SYSTEM [VARIANT]`` when a system is in both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from factcov.aggregate import ranking_summary, system_table
from factcov.errors import InputError, UnknownNameError
from factcov.outdir import verify
from factcov.provenance import PROMPT_PART, split_signature
from factcov.scoring import ScoringPolicy
from factcov.statistics import spearman

RUN_FILES = ("summary.json", "scores.parquet")


@dataclass
class Run:
    """One OUTDIR read back: its summary, its per-generation scores and (lazily) its claims."""

    path: Path
    summary: dict[str, Any]
    scores: pd.DataFrame

    @property
    def domain(self) -> str:
        return str(self.summary.get("domain", "?"))

    @property
    def signature(self) -> str:
        return str(self.summary.get("signature", ""))

    def prompts_of(self, system: str) -> list[str]:
        """The prompt variants ``system``'s generations were asked with (generate's meta), or []."""
        seen = (self.summary.get("generations") or {}).get(system) or {}
        return [str(p) for p in seen.get("prompt", [])]

    @property
    def metrics(self) -> list[str]:
        """The domain's own metrics, columns of scores.parquet (rag's faithfulness, ...)."""
        return [m for m in self.summary.get("metrics", []) if m in self.scores.columns]

    def policy(self) -> ScoringPolicy:
        return ScoringPolicy(**self.summary.get("policy", {}))

    @property
    def systems(self) -> pd.DataFrame:
        """One row per system: P, R, F1 (the policy's average), CIs, micro scores, counts, ranks."""
        path = self.path / "systems.csv"
        if path.is_file():
            return pd.read_csv(path)
        return pd.DataFrame(self.summary.get("systems", []))

    @property
    def claims(self) -> pd.DataFrame:
        """One row per claim: instance, system, type, key, value, span, text, verdict, expected."""
        return self.claims_of()

    def claims_of(self, systems: list[str] | None = None, instances: list[str] | None = None) -> pd.DataFrame:
        """The claims, optionally only those of some systems and instances (filtered while reading).

        A system or instance the run does not have is an error naming those it has (a typo
        would otherwise give an empty frame, read as "no claims")."""
        path = self.path / "claims.parquet"
        if not path.is_file():
            raise InputError("missing claims.parquet; re-run `factcov score`", path=self.path)
        for kind, column, asked in (("system", "system", systems), ("instance", "instance_id", instances)):
            if isinstance(asked, str):
                raise InputError(f"claims_of({kind}s=...) takes a list of names, got the string {asked!r}")
            unknown = sorted(set(asked or ()) - set(self.scores[column].astype(str)))
            if unknown:
                known = sorted(set(self.scores[column].astype(str)))
                shown = known if len(known) <= 20 else [*known[:20], f"... ({len(known)} in all)"]
                raise UnknownNameError(f"{kind} of this run", unknown[0], shown)
        filters = [(column, "in", values) for column, values in (("system", systems), ("instance_id", instances))
                   if values is not None]
        try:
            return pd.read_parquet(path, filters=filters or None)
        except Exception as exc:  # pyarrow raises several types for a damaged file
            raise InputError(f"cannot read Parquet: {exc}", path=path) from None


def load_run(outdir: str | Path) -> Run:
    """Read an OUTDIR; InputError naming the missing or unreadable file."""
    outdir = Path(outdir)
    if not outdir.is_dir():
        raise InputError("not a directory; expected the OUTDIR of `factcov score`", path=outdir)
    for name in RUN_FILES:
        if not (outdir / name).is_file():
            raise InputError(f"missing {name}; is this the OUTDIR of `factcov score`?", path=outdir / name)
    verify(outdir)  # a complete run, each file as the run wrote it (factcov.outdir)
    try:
        summary = json.loads((outdir / "summary.json").read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise InputError(f"not valid JSON: {exc}", path=outdir / "summary.json") from None
    if not isinstance(summary, dict):
        raise InputError("not a run summary (expected a JSON object)", path=outdir / "summary.json")
    try:
        scores = pd.read_parquet(outdir / "scores.parquet")
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise InputError(f"cannot read Parquet: {exc}", path=outdir / "scores.parquet") from None
    for column in ("instance_id", "system", "precision", "recall", "f1", "n_facts"):
        if column not in scores.columns:
            raise InputError("missing column", path=outdir / "scores.parquet", field=column)
    return Run(outdir, summary, scores)


def _domain_scores(runs: list[Run]) -> tuple[pd.DataFrame, dict[str, str | None]]:
    """Pool the scores of runs of one domain; a system present in two runs is named by run."""
    signatures = sorted({split_signature(run.signature)[0] for run in runs})  # prompt variants may differ
    if len(signatures) > 1:
        raise InputError(
            f"runs of domain '{runs[0].domain}' were scored differently and cannot be pooled "
            f"({' vs '.join(signatures)}); compare two scorings with `factcov validate agreement`",
            path=runs[1].path,
        )
    seen: dict[str, int] = {}
    for run in runs:
        for system in run.scores["system"].unique():
            seen[system] = seen.get(system, 0) + 1
    frames = []
    prompts: dict[str, str | None] = {}  # pooled system name -> its generations' prompt variant(s)
    for run in runs:
        frame = run.scores.copy()
        names = {s: _pooled_name(s, run, runs) if seen[s] > 1 else s for s in frame["system"].unique()}
        frame["system"] = frame["system"].map(names)
        prompts.update({name: ",".join(run.prompts_of(s)) or None for s, name in names.items()})
        frames.append(frame)
    return pd.concat(frames, ignore_index=True), prompts


def _pooled_name(system: str, run: Run, runs: list[Run]) -> str:
    """A system found in several runs: named by its prompt variant when that tells the runs
    apart (the prompt study), else by the run's folder."""
    prompts = run.prompts_of(system)
    others = [other.prompts_of(system) for other in runs if other is not run and system in set(other.scores["system"])]
    if len(prompts) == 1 and all(prompts != other for other in others):
        return f"{system} [{prompts[0]}]"
    return f"{system}@{run.path.name}"


def _pooled_signature(runs: list[Run]) -> str:
    scoring = split_signature(runs[0].signature)[0]
    prompts = sorted({p for run in runs for p in split_signature(run.signature)[1]})
    return scoring + (PROMPT_PART + ",".join(prompts) if prompts else "")


def compare_runs(outdirs: list[str | Path], bootstrap: int | None = None, seed: int | None = None) -> dict[str, Any]:
    """Everything ``factcov compare`` shows, as JSON-ready data."""
    if not outdirs:
        raise InputError("give at least one OUTDIR")
    runs = [load_run(path) for path in outdirs]
    by_domain: dict[str, list[Run]] = {}
    for run in runs:
        by_domain.setdefault(run.domain, []).append(run)
    domains = []
    penalty_rows = []
    for domain, group in sorted(by_domain.items()):
        updates = {k: v for k, v in (("bootstrap_samples", bootstrap), ("seed", seed)) if v is not None}
        policy = group[0].policy().model_copy(update=updates)
        scores, prompts = _domain_scores(group)
        metrics = [m for m in group[0].metrics if all(m in run.metrics for run in group)]
        graded = all(run.summary.get("graded_scores", False) for run in group)  # ``Domain.graded_scores``
        table = system_table(scores, policy, metrics, graded)
        ranking = ranking_summary(table)
        facts_per_instance = float(scores.drop_duplicates("instance_id")["n_facts"].mean())
        systems = []
        for _, row in table.sort_values(["rank_f1", "system"]).iterrows():
            record = {
                "system": row["system"],
                # generate's prompt variant, when the generations recorded one (other runs' JSON is unchanged)
                **({"prompt": prompts[row["system"]]} if prompts.get(row["system"]) else {}),
                "n": int(row["n"]),
                **{m: _num(row[m]) for m in ("precision", "recall", "f1")},
                **{
                    f"{m}_ci": _ci(row, m) if policy.average == "macro" or graded else None
                    for m in ("precision", "recall", "f1")
                },
                "rank_precision": float(row["rank_precision"]),
                "rank_f1": float(row["rank_f1"]),
                "rank_change": float(row["rank_change"]),
                "claims_per_text": float(row["claims_per_text"]),
                "out_of_scope": int(row.get("out_of_scope", 0)),
                "facts_per_instance": float(row["facts_per_instance"]),
                "metrics": {
                    m: {"mean": _num(row[m]), "n_defined": int(row[f"n_{m}_defined"]), "ci": _ci(row, m)}
                    for m in metrics
                },
            }
            record["coverage_penalty"] = _penalty(record["precision"], record["f1"])
            systems.append(record)
            penalty_rows.append({"domain": domain, "system": record["system"],
                                 "facts_per_instance": record["facts_per_instance"],
                                 "precision": record["precision"], "f1": record["f1"],
                                 "coverage_penalty": record["coverage_penalty"]})
        penalties = [s["coverage_penalty"] for s in systems if s["coverage_penalty"] is not None]
        domains.append(
            {
                "domain": domain,
                "runs": [str(run.path) for run in group],
                "signature": _pooled_signature(group),
                "average": "macro" if graded else policy.average,
                "metrics": metrics,
                "n_generations": len(scores),
                "n_instances": int(scores["instance_id"].nunique()),
                "facts_per_instance": facts_per_instance,
                "mean_coverage_penalty": sum(penalties) / len(penalties) if penalties else None,
                "systems": systems,
                "ranking": ranking,
            }
        )
    return {"domains": domains, "coverage_penalty": _penalty_summary(domains, penalty_rows)}


def _num(value: Any) -> float | None:
    if value is None or pd.isna(value):
        return None
    return float(value)


def _ci(row: pd.Series, metric: str) -> list[float] | None:
    lo, hi = _num(row.get(f"macro_{metric}_lo")), _num(row.get(f"macro_{metric}_hi"))
    return None if lo is None or hi is None else [lo, hi]


def _penalty(precision: float | None, f1: float | None) -> float | None:
    return None if precision is None or f1 is None else precision - f1


def _penalty_summary(domains: list[dict[str, Any]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Does the coverage penalty grow with the number of facts a text should cover?"""
    points = [r for r in rows if r["coverage_penalty"] is not None]
    return {
        "by_domain": [
            {"domain": d["domain"], "facts_per_instance": d["facts_per_instance"],
             "mean_coverage_penalty": d["mean_coverage_penalty"]}
            for d in sorted(domains, key=lambda d: d["facts_per_instance"])
        ],
        "systems": points,
        # Over systems of every domain; None with fewer than two distinct domains (then the
        # facts per instance barely vary and the correlation says nothing).
        "spearman_facts_vs_penalty": (
            spearman([p["facts_per_instance"] for p in points], [p["coverage_penalty"] for p in points])
            if len(domains) > 1 else None
        ),
    }
