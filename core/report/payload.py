"""What the report shows, as one JSON-ready dict built from OUTDIRs.

The explorer holds at most ``per_system`` generations of each system per run (the
first ones by instance id), and at most ``max_generations`` per run (the per-system cap
shrinks to ``max_generations // systems`` when there are many systems), so a large run
still gives a page a browser opens (about 1.5 kB per generation shown); the page says
how many it shows of how many. Each text is embedded up to ``REPORT_TEXT_CHARS``
(``text_chars`` gives its full length; claims past the cut are left out of the page,
never out of claims.parquet). Claim spans are converted from Python character offsets
to the UTF-16 offsets JavaScript strings use.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from pathlib import Path
from typing import Any

import pandas as pd

from factcov import __version__
from factcov.aggregate import headline_average
from factcov.compare import Run, load_run
from factcov.limits import REPORT_TEXT_CHARS

# Generations per system and run in the explorer; everything else is in the Parquet files.
EXPLORER_CAP = 200
EXPLORER_MAX_GENERATIONS = 5000
SYSTEM_FIELDS = (
    "system", "n", "precision", "recall", "f1", "rank_precision", "rank_f1", "rank_change",
    "claims_per_text", "facts_per_instance", "n_claims", "supported", "contradicted", "unverifiable",
    "out_of_scope",
)


def build_payload(
    outdirs: list[Path], per_system: int = EXPLORER_CAP, max_generations: int = EXPLORER_MAX_GENERATIONS,
    names: list[str] | None = None,
) -> dict[str, Any]:
    """``names``: each run's name and shown path instead of its folder's (see ``write_report``)."""
    runs = [load_run(path) for path in outdirs]
    payloads = [_run_payload(run, per_system, max_generations) for run in runs]
    for payload, name in zip(payloads, names or [], strict=False):
        payload["name"] = payload["path"] = name
    return {"factcov_version": __version__, "runs": payloads}


def _clean(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):
        return _clean(value.item())
    return value


def _systems(run: Run) -> list[dict[str, Any]]:
    rows = []
    for record in run.summary.get("systems", []):
        row = {field: _clean(record.get(field)) for field in SYSTEM_FIELDS}
        row["metrics"] = {
            m: {"mean": _clean(record.get(m)), "n_defined": _clean(record.get(f"n_{m}_defined")),
                "ci": _pair(record.get(f"macro_{m}_lo"), record.get(f"macro_{m}_hi"))}
            for m in run.metrics
        }
        for metric in ("precision", "recall", "f1"):
            lo, hi = record.get(f"macro_{metric}_lo"), record.get(f"macro_{metric}_hi")
            use_ci = headline_average(run.summary) == "macro"
            row[f"{metric}_ci"] = [lo, hi] if use_ci and lo is not None and hi is not None else None
        rows.append(row)
    return rows


def _generated(run: Run) -> dict[str, Any]:
    """Per system, how ``factcov generate`` made its texts (prompt variant, answers cut off at
    --max-tokens), when the generations recorded it; else nothing (the page stays as it was)."""
    made = run.summary.get("generations")
    if not isinstance(made, dict) or not made:
        return {}
    return {"generated": {str(system): {"prompt": [str(p) for p in seen.get("prompt", [])],
                                        "truncated": int(seen.get("truncated", 0))}
                          for system, seen in sorted(made.items()) if isinstance(seen, dict)}}


def _pair(lo: Any, hi: Any) -> list[float] | None:
    lo, hi = _clean(lo), _clean(hi)
    return None if lo is None or hi is None else [lo, hi]


def _rounds(path: Path) -> list[dict[str, Any]] | None:
    """The per-round table ``factcov refine`` leaves beside its scoring of every round."""
    table = path / "rounds.json"
    return json.loads(table.read_text(encoding="utf-8")) if table.exists() else None


def _json_cell(cell: Any) -> Any:
    """A JSON text column of the Parquet files; null (None or NaN) stays None."""
    if cell is None or (isinstance(cell, float) and math.isnan(cell)):
        return None
    return json.loads(cell)


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


class _Utf16Offsets:
    """JavaScript string offsets of a Python text in O(log n) each (a character past
    U+FFFF is two UTF-16 units); encoding the prefix per claim was quadratic."""

    def __init__(self, text: str) -> None:
        self._astral = [m.start() for m in _ASTRAL.finditer(text)]

    def __call__(self, offset: int) -> int:
        return offset + bisect.bisect_left(self._astral, offset)


def _utf16(text: str, offset: int) -> int:
    return _Utf16Offsets(text)(offset)


def _claims_by_generation(run: Run, keys: set[tuple[str, str]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    if not keys:
        return {}
    claims = run.claims_of(systems=sorted({system for _, system in keys}), instances=sorted({i for i, _ in keys}))
    claims = claims[~(claims["span_end"] > REPORT_TEXT_CHARS)]  # past the embedded part of any text
    if claims.empty:
        return {}
    wanted = pd.DataFrame(sorted(keys), columns=["instance_id", "system"])
    chosen = claims.merge(wanted, on=["instance_id", "system"]).sort_values(["instance_id", "system", "claim_index"])
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in chosen.itertuples(index=False):
        grouped.setdefault((row.instance_id, row.system), []).append(
            {
                "type": row.type,
                "key": _json_cell(row.key) or {},
                "value": _json_cell(row.value),
                "verdict": row.verdict,
                "expected": _json_cell(row.expected),
                "text": _clean(row.text) or "",
                "start": None if pd.isna(row.span_start) else int(row.span_start),
                "end": None if pd.isna(row.span_end) else int(row.span_end),
                # runs written before out-of-scope claims existed have no such column
                "out_of_scope": _clean(getattr(row, "out_of_scope", None)),
            }
        )
    return grouped


def _by_type(run: Run, scores: pd.DataFrame) -> list[dict[str, Any]]:
    """Precision and recall per claim type and system, pooled over the run's texts (micro):
    which kinds of fact a system gets wrong or leaves out."""
    ignore_unverifiable = run.summary.get("policy", {}).get("unverifiable") == "ignore"
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for system, cell in zip(scores["system"], scores["by_type"]):
        for claim_type, row in (_json_cell(cell) or {}).items():
            total = counts.setdefault((claim_type, str(system)), dict.fromkeys(_TYPE_COUNTS, 0))
            for name in _TYPE_COUNTS:
                total[name] += int(row.get(name) or 0)
    rows = []
    for (claim_type, system), c in sorted(counts.items()):
        judged = c["supported"] + c["contradicted"] + (0 if ignore_unverifiable else c["unverifiable"])
        rows.append({"type": claim_type, "system": system, **c,
                     "precision": c["supported"] / judged if judged else None,
                     "recall": c["covered"] / c["n_facts"] if c["n_facts"] else None})
    return rows


_TYPE_COUNTS = ("supported", "contradicted", "unverifiable", "n_facts", "covered")


class _Sentences:
    """The domain realizer's sentence for a missed fact ("HAM pitted on lap 13."), in the
    text's language; None when the domain is not installed or cannot say the fact alone."""

    def __init__(self, domain_name: str) -> None:
        from factcov.plugins import get_domain

        try:
            self._domain: Any = get_domain(domain_name)
        except Exception:  # a report of a run whose plugin is not installed here
            self._domain = None
        self._said: dict[tuple[str, str], str | None] = {}

    def __call__(self, fact: dict[str, Any], language: str) -> str | None:
        if self._domain is None:
            return None
        cache_key = (json.dumps(fact, sort_keys=True), language)
        if cache_key not in self._said:
            from factcov.model import Fact

            try:
                said = self._domain.realize([Fact(**fact)], language, None).strip()
            except Exception:  # a realizer that needs the instance, or a fact it cannot say alone
                said = None
            self._said[cache_key] = said or None
        return self._said[cache_key]


_LANGUAGE_SUFFIX = re.compile(r":[a-z]{2}$")


def _fold_translations(generations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One card for the same text of one system scored on an instance's translations
    (weather's NWS text on its en, es and pt instances): ids equal but for a trailing
    language, the same claims and verdicts; the others are listed under the first."""
    kept: list[dict[str, Any]] = []
    first: dict[tuple[str, ...], dict[str, Any]] = {}
    for generation in generations:
        base = _LANGUAGE_SUFFIX.sub("", generation["instance_id"])
        if base == generation["instance_id"]:
            kept.append(generation)
            continue
        key = (generation["system"], base, generation["text"], json.dumps(generation["claims"], sort_keys=True),
               json.dumps(generation["missed"], sort_keys=True))
        held = first.get(key)
        if held is None:
            first[key] = generation
            generation["also"] = []
            kept.append(generation)
        else:
            held["also"].append(generation["instance_id"])
    return kept


def _worst_first(generations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The explorer opens on the texts that went worst: lowest F1 first (undefined F1
    first of all), then more contradicted claims, then instance and system."""
    return sorted(generations, key=lambda g: (-1.0 if g["f1"] is None else g["f1"], -g["contradicted"],
                                              g["instance_id"], g["system"]))


def _run_payload(run: Run, per_system: int, max_generations: int) -> dict[str, Any]:
    scores = run.scores.sort_values(["system", "instance_id"], kind="stable")
    per_system = max(1, min(per_system, max_generations // max(1, scores["system"].nunique())))
    shown = scores.groupby("system", sort=True).head(per_system)
    keys = set(zip(shown["instance_id"], shown["system"]))
    claims = _claims_by_generation(run, keys)
    lists = [m for m in run.summary.get("lists", []) if m in scores.columns]
    generations = []
    sentences = _Sentences(run.domain)
    extra_columns = [*run.metrics, *lists]
    # (a frame of no columns gives no records at all, hence the explicit empty dicts)
    extras = shown[extra_columns].to_dict(orient="records") if extra_columns else [{}] * len(shown)
    for row, extra in zip(shown.itertuples(index=False), extras):
        full = _clean(row.text) or ""
        text = full[:REPORT_TEXT_CHARS]  # the report shows a bounded part of each text; claims.parquet has all
        utf16 = _Utf16Offsets(text)
        located = []
        for claim in claims.get((row.instance_id, row.system), []):
            start, end = claim.pop("start"), claim.pop("end")
            if start is not None and end is not None and 0 <= start < end <= len(text):
                claim["span"] = [utf16(start), utf16(end)]
            elif end is not None and end > len(text) and len(full) > len(text):
                continue  # a claim (or its end) in the part of the text not embedded
            else:
                claim["span"] = None
            claim["text"] = (claim.get("text") or "")[:1000]
            located.append(claim)
        generations.append(
            {
                "instance_id": row.instance_id,
                "system": row.system,
                "task": row.task,
                "language": row.language,
                "text": text,
                "text_chars": len(full),
                **{m: _clean(getattr(row, m)) for m in ("precision", "recall", "f1")},
                **{c: int(getattr(row, c)) for c in ("n_claims", "supported", "contradicted", "unverifiable",
                                                      "n_facts", "covered")},
                "missed": [{**fact, "sentence": sentences(fact, row.language)} for fact in _json_cell(row.missed) or []],
                "metrics": {m: _clean(extra[m]) for m in run.metrics},
                "lists": {m: [str(v) for v in extra[m]] for m in lists},
                "claims": located,
            }
        )
    shown_cards = len(generations)
    generations = _worst_first(_fold_translations(generations))
    totals = scores.groupby("system").size()
    penalties = [
        s["precision"] - s["f1"] for s in _systems(run) if s["precision"] is not None and s["f1"] is not None
    ]
    return {
        "name": run.path.name,
        "path": str(run.path),
        "domain": run.domain,
        "signature": run.signature,
        "extraction_failures": run.summary.get("extraction_failures") or {"count": 0},
        "extractor": run.summary.get("extractor"),
        "average": headline_average(run.summary),
        "metrics": run.metrics,
        "n_generations": int(len(scores)),
        "n_instances": int(scores["instance_id"].nunique()),
        "facts_per_instance": float(scores.drop_duplicates("instance_id")["n_facts"].mean()),
        "mean_coverage_penalty": sum(penalties) / len(penalties) if penalties else None,
        "systems": _systems(run),
        "rounds": _rounds(run.path),
        **_generated(run),
        "ranking": run.summary.get("rankings", {}),
        "by_type": _by_type(run, scores),
        "explorer": {
            "shown": shown_cards,
            "cards": len(generations),
            "per_system": per_system,
            "total": int(len(scores)),
            "capped_systems": sorted(str(s) for s, n in totals.items() if n > per_system),
        },
        "generations": generations,
    }
