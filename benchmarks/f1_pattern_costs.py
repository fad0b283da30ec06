"""Cost of each compiled pattern of the f1 grammar (domains/f1/lexicon.py), per sentence.

Every pattern of a language's ``Lexicon`` scans every sentence of the benchmark's texts
(``pattern.finditer(folded, start, end)``, ungated: what a scan costs where its anchors
stand), realized and hand-varied texts of the first --rounds rounds of --season (the texts
of ``benchmarks/f1_regex.py``). Patterns the rules only ``match`` at one offset are listed
too: their cost here is an upper bound of no consequence.

    python benchmarks/f1_pattern_costs.py [--languages en es pt] [--top 20] [--repeat 3]
    python benchmarks/f1_pattern_costs.py --baseline main   # and on main's code, same run, side by side
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import f1_regex  # noqa: E402  (the benchmark's texts)

from factcov.domains.f1.instances import race_instances  # noqa: E402
from factcov.domains.f1.lexicon import lexicon  # noqa: E402
from factcov.domains.f1.source import race  # noqa: E402
from factcov.extractors.spans import bounded_sentence_ends  # noqa: E402
from factcov.language import fold  # noqa: E402
from factcov.plugins import get_domain  # noqa: E402


def texts(language: str, season: int, rounds: int, data: Path) -> list[str]:
    domain = get_domain("f1")
    out = []
    for number in range(1, rounds + 1):
        for instance in race_instances(race(data, season, number)):
            if instance.language != language:
                continue
            out.append(domain.realize(instance.facts, language, instance))
            out.append(f1_regex.varied(instance, random.Random(zlib.crc32(instance.id.encode()))))
    return out


def patterns(language: str) -> dict[str, object]:
    lex = lexicon(language)
    out = {}
    for field in dataclasses.fields(lex):
        value = getattr(lex, field.name)
        if hasattr(value, "finditer"):
            out[field.name] = value
        elif isinstance(value, tuple) and value and all(hasattr(p, "finditer") for p in value):
            out.update({f"{field.name}[{i}]": p for i, p in enumerate(value)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["en", "es", "pt"])
    parser.add_argument("--season", type=int, default=2021)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--data", type=Path, default=f1_regex.REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--baseline", help="also measure this commit's code, in the same run")
    parser.add_argument("--json", action="store_true", help="print the costs as one JSON line")
    args = parser.parse_args()
    from baseline import measure_baseline

    before = measure_baseline(args.baseline, __file__)
    after = measure(args)
    if args.json:
        print(json.dumps(after))
        return
    print(f"µs per sentence, CPU time, best of {args.repeat}; load average {os.getloadavg()[0]:.1f}"
          + (f"; before = {args.baseline}, after = this worktree" if before else ""))
    for language in args.languages:
        costs = {k.split(" ", 1)[1]: v for k, v in after.items() if k.startswith(f"{language} ")}
        old = {k.split(" ", 1)[1]: v for k, v in (before or {}).items() if k.startswith(f"{language} ")}
        total = sum(costs.values())
        print(f"{language}: all {len(costs)} patterns {total:.1f}" + (f" (before {sum(old.values()):.1f})" if old else ""))
        for name, cost in sorted(costs.items(), key=lambda kv: -kv[1])[: args.top]:
            was = f"{old[name]:8.2f} -> " if name in old else ""
            ratio = f"  {old[name] / cost:5.2f}x" if name in old and cost else ""
            print(f"  {name:24} {was}{cost:6.2f}{ratio}")


def measure(args: argparse.Namespace) -> dict[str, float]:
    """µs per sentence of each pattern, keyed "language field"."""
    out = {}
    for language in args.languages:
        folded = [fold(t) for t in texts(language, args.season, args.rounds, args.data)]
        spans = [(f, s, e) for f in folded for s, e in _sentences(f, lexicon(language).sentence_end)]
        for name, pattern in patterns(language).items():
            best = float("inf")
            for _ in range(args.repeat):
                t = time.process_time_ns()
                for f, s, e in spans:
                    for _m in pattern.finditer(f, s, e):
                        pass
                best = min(best, time.process_time_ns() - t)
            out[f"{language} {name}"] = best / len(spans) / 1000
    return out


def _sentences(folded: str, sentence_end) -> list[tuple[int, int]]:
    start, out = 0, []
    for end in bounded_sentence_ends(folded, sentence_end):
        out.append((start, end))
        start = end
    return out


if __name__ == "__main__":
    main()
