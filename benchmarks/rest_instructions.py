"""The f1 path's rest (verification, scoring, results) in instructions, not seconds: a
figure the other jobs on a shared machine cannot move.

CPU seconds of the rest are the difference of two timings of ~300 µs per text, and on a
loaded two-core machine they swing by ±20 µs per text from one run to the next (the
caches are shared). Here each region runs once under valgrind's callgrind (cache
simulation on, its last level set to a 1 MiB L2 like this machine's), instrumented only
while the region runs: one warm `Evaluator.evaluate` pass over the realized texts of one
language ("full"), the extractor alone on the same texts ("alone"), and nothing ("none",
subtracted from both: the switching itself). "rest" is full minus alone, per text, in
thousands of instructions (kIr) and of estimated cycles (Ir + 10 per L1 miss + 100 per
last-level miss; an estimate, but the same one for both codes).

    python benchmarks/rest_instructions.py [--lang en] [--rounds 2] [--baseline main] [--frozen-gc]

The collector's walks of the old generations fall where the allocations of the code
measured make them fall: two codes a few calls apart can differ by ~0.5% of the
extractor's count for that alone (measured on issue 28's f1 rules: ranks flipped between
runs with and without it). ``--frozen-gc`` freezes every object set up before a region
(``gc.freeze``), so only the young objects are walked; compare codes with it and more
--rounds when the difference sought is under 1%.

Needs valgrind (`callgrind_control` included); ~30 s per region (six with --baseline).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
REPO = Path(__file__).resolve().parents[1]

REGIONS = ("none", "full", "alone")
# Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw, as callgrind prints them at exit
COLLECTED = re.compile(r"Collected : ((?:\d+ ?){9})")


def region(data: Path, language: str, rounds: int, name: str, frozen: bool = False) -> None:
    """Run under callgrind (--instr-atstart=no): set up, then instrument only ``name``."""
    from factcov.domains.f1.instances import race_instances
    from factcov.domains.f1.source import race
    from factcov.evaluate import Evaluator
    from factcov.model import Generation
    from factcov.plugins import get_domain

    domain = get_domain("f1")
    instances = [i for r in range(1, rounds + 1) for i in race_instances(race(data, 2021, r)) if i.language == language]
    pairs = [(i, Generation(instance_id=i.id, system="r", text=domain.realize(i.facts, language, i))) for i in instances]
    evaluator = Evaluator(domain)
    results = evaluator.evaluate(pairs)
    results = evaluator.evaluate(pairs)  # warm, and the previous pass's results alive, as in f1_regex.py
    extractor = evaluator.extractor_for(language)
    texts, held = [g.text for _, g in pairs], [i for i, _ in pairs]

    def instrument(state: str) -> None:
        subprocess.run(["callgrind_control", f"--instr={state}", str(os.getpid())], check=True, capture_output=True)

    if frozen:  # every object set up so far left out of the collector's walks (see --frozen-gc)
        gc.collect()
        gc.freeze()
    instrument("on")
    if name == "full":
        results = evaluator.evaluate(pairs)
    elif name == "alone":
        extractor.extract_batch(texts, held)
    instrument("off")
    print(f"texts {len(pairs)} {len(results)}")


def measure(tree: Path | None, data: Path, language: str, rounds: int, frozen: bool = False) -> dict[str, float]:
    """Per-text kIr and estimated kcycles of full, alone and rest on ``tree``'s code."""
    import baseline

    counts: dict[str, tuple[int, int]] = {}
    texts = 0
    with tempfile.TemporaryDirectory() as folder:
        for name in REGIONS:
            command = baseline.command(tree, __file__, "--region", name, "--lang", language,
                                      "--rounds", str(rounds), "--data", str(data), *(["--frozen-gc"] if frozen else []))
            done = subprocess.run(
                ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--cache-sim=yes", "--LL=1048576,16,64",
                 f"--callgrind-out-file={folder}/{name}.out", *command],
                capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
            )
            found = COLLECTED.search(done.stderr)
            if done.returncode != 0 or found is None:
                raise SystemExit(f"region {name}: exit {done.returncode}\n{done.stderr[-2000:]}")
            ir, _, _, i1, d1r, d1w, llr_i, llr_d, llw = map(int, found.group(1).split())
            counts[name] = ir, ir + 10 * (i1 + d1r + d1w) + 100 * (llr_i + llr_d + llw)
            texts = int(done.stdout.split()[1])
    per_text = {f"{name} {unit}": (counts[name][k] - counts["none"][k]) / texts / 1000
                for name in ("full", "alone") for k, unit in ((0, "kIr"), (1, "kcycles"))}
    for unit in ("kIr", "kcycles"):
        per_text[f"rest {unit}"] = per_text[f"full {unit}"] - per_text[f"alone {unit}"]
    return per_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en", choices=["en", "es", "pt"])
    parser.add_argument("--rounds", type=int, default=2, help="rounds of 2021 whose instances are read")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--baseline", help="also measure this commit's code, for a before/after")
    parser.add_argument("--frozen-gc", action="store_true",
                        help="freeze the objects set up before each region (gc.freeze): the collector's walks "
                             "over them, which fall at other points for other code, leave the count")
    parser.add_argument("--region", choices=REGIONS, help=argparse.SUPPRESS)  # the run under valgrind
    args = parser.parse_args()
    if args.region:
        region(args.data, args.lang, args.rounds, args.region, args.frozen_gc)
        return
    import baseline

    codes = [(args.baseline, baseline.checkout(args.baseline))] if args.baseline else []
    codes.append(("this worktree", None))
    figures = {label: measure(tree, args.data, args.lang, args.rounds, args.frozen_gc) for label, tree in codes}
    names = list(next(iter(figures.values())))
    print(f"f1 realized texts, {args.lang}, 2021 rounds 1-{args.rounds}; per text, thousands")
    print(f"{'code':16}" + "".join(f"{name:>15}" for name in names))
    for label, values in figures.items():
        print(f"{label:16}" + "".join(f"{values[name]:15.1f}" for name in names))
    if args.baseline:
        before, after = figures[args.baseline], figures["this worktree"]
        print(f"{'after/before':16}" + "".join(f"{after[name] / before[name]:14.2f}x" for name in names))


if __name__ == "__main__":
    main()
