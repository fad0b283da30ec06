"""Score every period of nws_periods.jsonl.gz as system ``nws`` in one streaming run.

    python benchmarks/weather_scale.py [--data ../shared/data/weather/nws_periods.jsonl.gz]
                                       [--limit N] [--out weather_scale.json]

No instance file: each period's facts, knowledge, claims, verdicts and score are built on
the fly (core ``Verifier`` and ``score_generation``) and folded into running totals,
fixed-size histograms and capped counters, chunk by chunk, so memory stays bounded.
Prints throughput (periods/s, wall and CPU), peak memory (max RSS), the P/R/F1
distribution, and the most common unverifiable and contradicted claim kinds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "weather" / "nws_periods.jsonl.gz"
CHUNK = 5_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=None, help="Score only the first N periods.")
    parser.add_argument("--out", type=Path, default=None, help="Write the summary JSON here (atomically).")
    args = parser.parse_args(argv)

    from factcov.domains.weather.nws_scoring import NWSReport, NWSScorer
    from factcov.domains.weather.periods import iter_file_periods
    from factcov.jsonl import chunked, write_text_atomic

    scorer = NWSScorer()
    report = NWSReport(keep_contradictions=20)
    periods = iter_file_periods(args.data)
    if args.limit is not None:
        periods = itertools.islice(periods, args.limit)
    wall, cpu = time.perf_counter(), time.process_time()
    seen = 0
    for chunk in chunked(periods, CHUNK):
        scorer.run(chunk, report)
        seen += len(chunk)
        if seen % 50_000 == 0:
            elapsed = time.perf_counter() - wall
            print(f"  {seen:>9,} periods  {seen / elapsed:,.0f}/s", file=sys.stderr, flush=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    summary = report.summary(scorer.policy)
    summary["throughput"] = {
        "periods": seen,
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "periods_per_second_wall": round(seen / wall),
        "periods_per_second_cpu": round(seen / cpu),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    summary["contradiction_examples"] = [c.__dict__ for c in report.contradictions]
    if args.out is not None:
        write_text_atomic(args.out, json.dumps(summary, indent=1, ensure_ascii=False, default=str))
    _print(summary)
    return 0


def _print(summary: dict) -> None:
    t = summary["throughput"]
    print(f"periods scored: {summary['periods_scored']:,} (empty texts skipped: {summary['empty_texts_skipped']:,})")
    print(f"throughput: {t['periods_per_second_wall']:,}/s wall ({t['wall_seconds']} s), "
          f"{t['periods_per_second_cpu']:,}/s CPU ({t['cpu_seconds']} s); peak RSS {t['peak_rss_mb']} MB")
    for name in ("macro", "micro"):
        m = summary[name]
        print(f"{name}: P={m['precision']:.3f} R={m['recall']:.3f} F1={m['f1']:.3f}")
    c = summary["counts"]
    print(f"claims {c['n_claims']:,}: supported {c['supported']:,}, contradicted {c['contradicted']:,}, "
          f"unverifiable {c['unverifiable']:,}; facts {c['n_facts']:,}, covered {c['covered']:,}")
    for metric, counts in summary["histograms"].items():
        total = sum(counts) or 1
        cells = " ".join(f"{100 * n / total:4.1f}" for n in counts)
        print(f"{metric:>9} % per decile [0,.1)…[.9,1]: {cells}  (=1.0: {summary['perfect'].get(metric, 0):,})")
    print("unverifiable:", ", ".join(f"{k} {v:,}" for k, v in summary["unverifiable_kinds"][:10]))
    print("contradicted:", ", ".join(f"{k} {v:,}" for k, v in summary["contradicted_kinds"][:12]))


if __name__ == "__main__":
    sys.exit(main())
