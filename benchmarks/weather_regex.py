"""Throughput of the weather-regex extractor, generations per second, per language.

    python benchmarks/weather_regex.py [--periods 3000] [--repeat 3]
    python benchmarks/weather_regex.py --baseline 4e89082   # that commit's code too, same run

Extractor alone, then the whole path through ``Evaluator`` (extract, knowledge,
verify, score) on realized texts of built instances. Texts: for each of the first N periods of the shared responses sample, NWS's own
English ``detailedForecast`` and the realizer's text of the period's facts in en, es and
pt. Each set is extracted ``--repeat`` times; the best run counts (CPU time). Ratios
are to the English realizer texts measured in the same run. "cold" is a fresh
``Evaluator``'s first pass over the instances (every knowledge built, as in a run);
"core only" the warm path with each text's claims read beforehand (knowledge,
verification, scoring and results: what the core adds to the extractor).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
DATA = REPO.parent / "shared" / "data" / "weather" / "nws_forecast_responses_sample.jsonl.gz"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--periods", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", help="also measure this commit's code, in the same run")
    parser.add_argument("--json", action="store_true", help="print the rates as one JSON line")
    args = parser.parse_args(argv)
    before = None
    if args.baseline:
        from baseline import measure_on

        before = measure_on(args.baseline, __file__, "--periods", str(args.periods), "--repeat", str(args.repeat))
    out = sys.stderr if args.json else sys.stdout
    rates = measure(args, out)
    if args.json:
        print(json.dumps(rates))
    if before is not None:
        from baseline import print_side_by_side

        print_side_by_side(before, rates, args.baseline, "generations/s")
    return 0


def measure(args: argparse.Namespace, out) -> dict[str, float]:

    from factcov.domains.weather.extractor import WeatherRegexExtractor
    from factcov.domains.weather.oracle import relevant_facts
    from factcov.domains.weather.periods import iter_file_periods
    from factcov.domains.weather.realizer import realize

    periods = [p for p in itertools.islice(iter_file_periods(DATA), args.periods) if p.detailed_forecast]
    sets = {"nws (en)": ("en", [p.detailed_forecast for p in periods])}
    for language in ("en", "es", "pt"):
        sets[f"realizer ({language})"] = (language, [realize(relevant_facts(p), language) for p in periods])
    rates: dict[str, float] = {}
    extractor_rates: dict[str, float] = {}
    for name, (language, texts) in sets.items():
        extractor = WeatherRegexExtractor(language)
        extractor.extract(texts[0])  # compile outside the clock
        best = float("inf")
        claims = 0
        for _ in range(args.repeat):
            start = time.process_time()
            claims = sum(len(extractor.extract(text)) for text in texts)
            best = min(best, time.process_time() - start)
        extractor_rates[name] = rates[f"extractor, {name}"] = len(texts) / best
        chars = sum(map(len, texts)) / len(texts)
        print(f"{name:16} {len(texts):>6} texts  {chars:5.0f} chars/text  {claims / len(texts):4.1f} claims/text  "
              f"{extractor_rates[name]:>8,.0f} generations/s", file=out)
    # The whole regex path: Evaluator (extract + knowledge + verify + score) on instances.
    from factcov.domains.weather.domain import WeatherDomain
    from factcov.domains.weather.instances import instances_of
    from factcov.evaluate import Evaluator
    from factcov.model import Generation

    domain = WeatherDomain()
    evaluator = Evaluator(domain)
    for language in ("en", "es", "pt"):
        pairs = []
        for period in periods:
            instance = next(instances_of(period, [language]))
            text = realize(list(instance.facts), language)
            pairs.append((instance, Generation(instance_id=instance.id, system="realizer", text=text)))
        fresh = Evaluator(domain)  # every instance's knowledge built, as in a run
        fresh.evaluate(pairs[:1])
        start = time.process_time()
        fresh.evaluate(pairs)
        cold = time.process_time() - start
        evaluator.evaluate(pairs[:10])
        best = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            results = evaluator.evaluate(pairs)
            best = min(best, time.process_time() - start)
        recall = sum(r.score.total.covered for r in results) / max(1, sum(r.score.total.n_facts for r in results))
        rates[f"evaluator ({language})"] = len(pairs) / best
        rates[f"evaluator ({language}) cold"] = len(pairs) / cold
        # The core alone (knowledge, verification, scoring, results): the same warm path
        # with every text's claims read beforehand, so the extractor costs nothing.
        extractor = evaluator.extractor_for(language)
        read = extractor.extract_batch([g.text for _, g in pairs], [i for i, _ in pairs])
        extractor.extract_batch = lambda texts, instances, read=read: read  # shadows the method
        core = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            evaluator.evaluate(pairs)
            core = min(core, time.process_time() - start)
        del extractor.extract_batch
        rates[f"evaluator ({language}) core only"] = len(pairs) / core
        print(f"evaluator ({language})  {len(pairs):>6} instances  recall {recall:.3f}  {len(pairs) / best:>8,.0f} "
              f"generations/s  (cold {len(pairs) / cold:,.0f}; core only {len(pairs) / core:,.0f}, "
              f"{core / len(pairs) * 1e6:.1f} µs per text)", file=out)
    base = extractor_rates["realizer (en)"]
    print("ratios to realizer (en): " + ", ".join(f"{k} {v / base:.2f}" for k, v in extractor_rates.items()), file=out)
    return rates


if __name__ == "__main__":
    sys.exit(main())
