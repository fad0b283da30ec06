"""Core throughput: claims verified and scored per second, and a 1,000,000-claim scoring run.

Claims come from real oracle facts (a domain's demo instances, built from ../shared/data):
each fact is stated once correctly, once with a perturbed value (contradicted) and once
about a key the data does not hold (unverifiable), so the verifier meets every path.
Extraction is left out on purpose: this measures the core alone.

    python benchmarks/core_throughput.py --domain f1 --claims 1000000
    python benchmarks/core_throughput.py --domain f1 --claims 1000000 --files

With ``--files`` the same number of claims goes through a whole ``factcov score`` run
instead (realized texts of the demo instances under many system names: extraction,
verification, scoring and the four output files), in a temporary directory.
"""

from __future__ import annotations

import argparse
import random
import resource
import time

from factcov.model import Claim, Fact
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


def run_files(domain, instances, target_claims: int) -> None:
    import json
    import tempfile
    from pathlib import Path

    from factcov.evaluate import Evaluator
    from factcov.runner import score_files

    evaluator = Evaluator(domain)
    texts = {i.id: domain.realize(i.facts, i.language, i) for i in instances}
    claims_per_round = sum(len(evaluator.evaluate_text(i, texts[i.id]).verdicts) for i in instances)
    systems = max(1, target_claims // claims_per_round)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with (root / "instances.jsonl").open("w") as handle:
            for instance in instances:
                handle.write(instance.model_dump_json() + "\n")
        with (root / "generations.jsonl").open("w") as handle:
            for system in range(systems):
                for instance in instances:
                    handle.write(json.dumps({"instance_id": instance.id, "system": f"s{system:04d}", "text": texts[instance.id]}) + "\n")
        start = time.perf_counter()
        outcome = score_files(domain.name, root / "instances.jsonl", root / "generations.jsonl", root / "out", report=False)
        elapsed = time.perf_counter() - start
        n_claims = sum(row["n_claims"] for row in outcome.summary["systems"])
        sizes = {p.name: p.stat().st_size for p in (root / "out").iterdir()}
    generations = outcome.summary["n_generations"]
    print(f"score_files: {generations:,} generations, {n_claims:,} claims in {elapsed:.2f} s "
          f"({n_claims / elapsed:,.0f} claims/s, {generations / elapsed:,.0f} generations/s)")
    print(f"outputs: {', '.join(f'{k} {v / 1e6:.1f} MB' for k, v in sorted(sizes.items()))}")
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="f1")
    parser.add_argument("--claims", type=int, default=1_000_000)
    parser.add_argument("--files", action="store_true", help="a whole score run with output files")
    args = parser.parse_args()

    domain = get_domain(args.domain)
    instances = [i for i in domain.demo_instances() if i.facts]
    if args.files:
        run_files(domain, instances, args.claims)
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
