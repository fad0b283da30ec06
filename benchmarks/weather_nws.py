"""NWS's own texts scored as system ``nws`` on the 22 forecast files and the responses sample.

    python benchmarks/weather_nws.py [--out weather_nws.json]

Prints P/R/F1 (macro and micro), per-claim-type counts, the unverifiable claim kinds
(facts NWS takes from its grid data) and every contradiction found in the forecast files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WEATHER = REPO.parent / "shared" / "data" / "weather"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)

    from factcov.domains.weather.nws_scoring import NWSReport, NWSScorer
    from factcov.domains.weather.periods import iter_periods
    from factcov.jsonl import write_text_atomic

    scorer = NWSScorer()
    results = {}
    for name, paths, keep in (
        ("forecast files", [WEATHER / "forecasts"], 1000),
        ("responses sample", [WEATHER / "nws_forecast_responses_sample.jsonl.gz"], 0),
    ):
        report = scorer.run(iter_periods(paths), NWSReport(keep_contradictions=keep))
        summary = report.summary(scorer.policy)
        summary["contradictions"] = [c.__dict__ for c in report.contradictions]
        results[name] = summary
        print(f"== {name}: {summary['periods_scored']:,} periods")
        for average in ("macro", "micro"):
            m = summary[average]
            print(f"  {average}: P={m['precision']:.3f} R={m['recall']:.3f} F1={m['f1']:.3f}")
        print("  type               claims  supp  contr  unver   facts covered")
        for type_, c in summary["by_type"].items():
            print(f"  {type_:18} {c['n_claims']:>7} {c['supported']:>5} {c['contradicted']:>6} {c['unverifiable']:>6}"
                  f" {c['n_facts']:>7} {c['covered']:>7}")
        print("  unverifiable kinds:", ", ".join(f"{k} {v:,}" for k, v in summary["unverifiable_kinds"]))
        print("  contradicted kinds:", ", ".join(f"{k} {v:,}" for k, v in summary["contradicted_kinds"][:10]))
        for c in summary["contradictions"]:
            print(f"    {c['instance']}: {c['claim_type']} '{c['text']}' = {c['claimed']} vs record {c['expected']}")
    if args.out is not None:
        write_text_atomic(args.out, json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
