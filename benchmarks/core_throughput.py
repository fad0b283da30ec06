"""Core throughput: claims verified and scored per second, and a 1,000,000-claim scoring run.

Claims come from real oracle facts (a domain's demo instances, built from ../shared/data):
each fact is stated once correctly, once with a perturbed value (contradicted) and once
about a key the data does not hold (unverifiable), so the verifier meets every path.
Extraction is left out on purpose: this measures the core alone.

    python benchmarks/core_throughput.py --domain f1 --claims 1000000
    python benchmarks/core_throughput.py --domain f1 --claims 1000000 --files

With ``--files`` the same number of claims goes through a whole ``factcov score`` run
instead (realized texts of the demo instances under many system names: extraction,
verification, scoring and the four output files), in a temporary directory. The files
are written first (their CPU time is printed apart); the run itself is a fresh process
that reports its own CPU time split into extraction, verification and the rest, and
what it would take with extraction at ``--texts-per-s`` (default 5,000):

    python benchmarks/core_throughput.py --domain f1 --claims 1000000 --files --baseline main

``--baseline REF`` scores the same files with REF's code too, in the same run, and
checks that both runs wrote the same bytes. ``--jobs N`` also scores them with
``--jobs N`` (after each code's one-process run): wall time, the parent's and the
workers' CPU (``RUSAGE_CHILDREN``), the wall-time speed-up over the same code's one
process and whether the bytes are the same. An extraction-bound run for ``--jobs``: its
extraction share of one process's CPU is printed.

    python benchmarks/core_throughput.py --domain f1 --claims 1000000 --files --jobs 2 --baseline main
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factcov.model import Claim, Fact  # noqa: E402
from factcov.plugins import get_domain
from factcov.scoring import ScoringPolicy, score_generation
from factcov.verifier import Verifier


def claims_for(domain, facts: list[Fact], rng: random.Random) -> list[Claim]:
    claims = []
    for fact in facts:
        claims.append(Claim(type=fact.type, key=fact.key, value=fact.value))
        try:
            claims.append(Claim(type=fact.type, key=fact.key, value=domain.perturb(fact, rng).value))
        except ValueError:
            pass
        claims.append(Claim(type=fact.type, key={**fact.key, "absent_slot": "x"}, value=fact.value))
    return claims


# The scoring run, in a fresh process (this worktree's code or --baseline's): its own CPU
# time, and where it went. Extraction is timed around the extractor's ``extract_batch``,
# verification around ``Verifier.verify_all`` and the knowledge built for it; the rest is
# everything else the run does (reading and validating both files, rows, Parquet, totals,
# signature, summary). A few hundred thousand timer calls cost well under 1% of the run.
RUN = """
import json, resource, sys, time
from factcov.evaluate import Evaluator
from factcov.plugins import extractors, get_domain, load_plugins
from factcov.runner import score_files
from factcov.verifier import Verifier

spent = {"extraction": 0.0, "verification": 0.0}

def timed(owner, name, part):
    inner = getattr(owner, name)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[part] += time.process_time() - start
    setattr(owner, name, wrapper)

load_plugins()
timed(extractors.get(get_domain(sys.argv[4]).default_extractor), "extract_batch", "extraction")
timed(Verifier, "verify_all", "verification")
timed(Evaluator, "knowledge_of", "verification")
start, wall = time.process_time(), time.perf_counter()
outcome = score_files(sys.argv[4], sys.argv[1], sys.argv[2], sys.argv[3], report=False, jobs=int(sys.argv[5]))
cpu, wall = time.process_time() - start, time.perf_counter() - wall
children = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"cpu": cpu, "wall": wall, **spent, "generations": outcome.summary["n_generations"],
                  "workers": children.ru_utime + children.ru_stime,
                  "claims": sum(row["n_claims"] for row in outcome.summary["systems"]),
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def write_files(domain, instances, target_claims: int, folder) -> int:
    """instances.jsonl and generations.jsonl: the realized text of every instance under
    as many system names as it takes to reach ``target_claims``; returns the systems."""
    import json

    from factcov.evaluate import Evaluator

    evaluator = Evaluator(domain)
    texts = {i.id: domain.realize(i.facts, i.language, i) for i in instances}
    claims_per_round = sum(len(evaluator.evaluate_text(i, texts[i.id]).verdicts) for i in instances)
    systems = max(1, target_claims // claims_per_round)
    with (folder / "instances.jsonl").open("w") as handle:
        for instance in instances:
            handle.write(instance.model_dump_json() + "\n")
    with (folder / "generations.jsonl").open("w") as handle:
        for system in range(systems):
            for instance in instances:
                handle.write(json.dumps({"instance_id": instance.id, "system": f"s{system:04d}",
                                         "text": texts[instance.id]}) + "\n")
    return systems


def score_in_process(tree, folder, domain_name: str, name: str, jobs: int = 1) -> dict:
    import json
    import subprocess

    from baseline import command

    out = folder / f"out-{name}"
    done = subprocess.run(command(tree, "-c", RUN, str(folder / "instances.jsonl"), str(folder / "generations.jsonl"),
                                  str(out), domain_name, str(jobs)), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{name}: {done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["rest"] = result["cpu"] - result["extraction"] - result["verification"]
    result["outputs"] = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
    return result


def run_files(domain, instances, target_claims: int, baseline: str | None, texts_per_s: float, jobs: int = 1) -> None:
    import os
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.process_time()
        systems = write_files(domain, instances, target_claims, folder)
        build = time.process_time() - start
        print(f"inputs: {len(instances)} instances x {systems} systems, built in {build:.1f} s CPU "
              f"(not part of the run); load average {os.getloadavg()[0]:.1f}")
        trees = [("this worktree", None)]
        if baseline:
            from baseline import checkout

            trees.insert(0, (baseline, checkout(baseline)))
        results, parallel = {}, {}
        for name, tree in trees:  # each code's one process and --jobs run back to back, under the same load
            results[name] = score_in_process(tree, folder, domain.name, name.replace(" ", "-"))
            if jobs > 1:
                parallel[name] = score_in_process(tree, folder, domain.name, name.replace(" ", "-") + "-jobs", jobs)
    print(f"{'code':14} {'texts':>9} {'claims':>10} {'run CPU s':>10} {'extraction':>11} {'verification':>13} "
          f"{'rest':>7} {'wall s':>7} {'peak MiB':>9} {'at ' + format(texts_per_s, ',.0f') + ' texts/s':>16}")
    for name, r in results.items():
        projected = r["cpu"] - r["extraction"] + r["generations"] / texts_per_s
        print(f"{name:14} {r['generations']:>9,} {r['claims']:>10,} {r['cpu']:>10.1f} {r['extraction']:>11.1f} "
              f"{r['verification']:>13.1f} {r['rest']:>7.1f} {r['wall']:>7.1f} {r['peak_mib']:>9,.0f} {projected:>15.1f}s")
    if baseline:
        before, after = results[baseline], results["this worktree"]
        same = before["outputs"] == after["outputs"]
        print(f"after/before: run CPU {after['cpu'] / before['cpu']:.2f}x, rest {after['rest'] / before['rest']:.2f}x; "
              f"output files byte-identical: {same}")
    if parallel:
        print(f"\n{'code':14} {'jobs':>4} {'wall s':>7} {'CPU s':>7} {'workers CPU s':>14} {'speed-up':>9} "
              f"{'extraction share (1 process)':>29} {'same bytes':>10}")
        for name, r in parallel.items():
            one = results[name]
            print(f"{name:14} {1:>4} {one['wall']:7.1f} {one['cpu']:7.1f} {'-':>14} {1:8.2f}x "
                  f"{one['extraction'] / one['cpu']:28.0%} {'-':>10}")
            print(f"{name:14} {jobs:>4} {r['wall']:7.1f} {r['cpu']:7.1f} {r['workers']:14.1f} "
                  f"{one['wall'] / r['wall']:8.2f}x {'':>29} {str(r['outputs'] == one['outputs']):>10}")
    print(f"load average after: {os.getloadavg()[0]:.1f}; 'at N texts/s' = the run with extraction at that "
          "rate and everything else as measured")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="f1")
    parser.add_argument("--claims", type=int, default=1_000_000)
    parser.add_argument("--files", action="store_true", help="a whole score run with output files")
    parser.add_argument("--baseline", help="with --files: also run the score with this commit's code, same inputs")
    parser.add_argument("--jobs", type=int, default=1,
                        help="with --files: also score with --jobs N, wall and CPU beside one process")
    parser.add_argument("--texts-per-s", type=float, default=5000.0,
                        help="with --files: project the run's CPU with extraction at this many texts/s")
    args = parser.parse_args()

    domain = get_domain(args.domain)
    instances = [i for i in domain.demo_instances() if i.facts]
    if args.files:
        run_files(domain, instances, args.claims, args.baseline, args.texts_per_s, args.jobs)
        return
    rng = random.Random(0)
    prepared = [(instance, domain.knowledge(instance), claims_for(domain, instance.facts, rng)) for instance in instances]
    per_round = sum(len(c) for _, _, c in prepared)
    rounds = max(1, args.claims // per_round)
    verifier, policy = Verifier(), ScoringPolicy()

    start = time.perf_counter()
    verified = scored = 0
    for _ in range(rounds):
        for instance, knowledge, claims in prepared:
            verdicts = verifier.verify_all(claims, knowledge)
            score_generation(instance.facts, verdicts).metrics(policy)
            verified += len(verdicts)
            scored += 1
    elapsed = time.perf_counter() - start
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"domain {args.domain}: {len(instances)} instances, {per_round} claims per round, {rounds} rounds")
    print(f"verified and scored {verified:,} claims in {scored:,} generations: {elapsed:.2f} s")
    print(f"throughput: {verified / elapsed:,.0f} claims/s, {scored / elapsed:,.0f} generations/s")
    print(f"peak memory (max RSS): {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
