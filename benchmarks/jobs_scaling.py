"""`factcov score` in one process, with `--jobs 2`, and on a 2-process Dask cluster.

An extraction-bound run: the f1 instances of --season (rounds 1..--rounds) in en/es/pt,
two systems (the realizer's text and the hand-varied text of benchmarks/f1_regex.py),
scored by `f1-regex`. Each configuration runs in a fresh process; reported: wall time,
the CPU time of the scoring process and of its worker processes (``RUSAGE_CHILDREN``,
or the Dask workers' own process time), the wall-time speed-up over one process, and
whether the four output files are byte-identical to the one-process run (of this
worktree's code; with --baseline REF every configuration also runs on REF's code, in
the same run, its speed-ups taken against REF's own one process; Dask only on this
worktree's code, whose installed package the Dask worker processes import).

    python benchmarks/jobs_scaling.py [--season 2021] [--rounds 22] [--dask] [--chunk-size 500] [--baseline main]

On a shared machine wall time depends on what else runs: the load average is printed;
"2-core bound" = one-process CPU / the least wall time two free cores allow: the
busiest process's CPU (the parent, or the average worker) or, when the parent works
while the workers do, all their CPU shared over the two cores, whichever is longer.
It ignores the parent's serial start (reading the instances, building what the workers
inherit before forking), so the wall time on two free cores stays below it.

With --repeat N the wall time is the fastest of the N runs and the CPU columns (and the
2-core bound, made of them) their medians: on a loaded machine the fastest run by wall
time is the one that waited least, not the one that worked least, so its CPU figures
swing with the load. The last column gives the bound as earlier rounds took it (from the
CPU of each configuration's fastest run by wall time), to compare with their figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "f1"
OUTPUTS = ("claims.parquet", "scores.parquet", "systems.csv", "summary.json")

RUN = """
import json, resource, sys, time
from factcov.runner import score_files
jobs, dask = int(sys.argv[4]), sys.argv[5] or None
cluster = None
if dask == "cluster":
    from dask.distributed import LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    dask = cluster.scheduler_address
wall, cpu = time.perf_counter(), time.process_time()
score_files("f1", sys.argv[1], sys.argv[2], sys.argv[3], jobs=jobs, dask=dask, chunk_size=int(sys.argv[6]),
            report=False)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
workers = resource.getrusage(resource.RUSAGE_CHILDREN)
workers = workers.ru_utime + workers.ru_stime
if cluster is not None:
    from dask.distributed import Client
    with Client(cluster) as client:
        times = client.run(lambda: __import__("time").process_time())
    workers = sum(times.values())  # includes each worker's start-up
    cluster.close()
print(json.dumps({"wall": wall, "cpu": cpu, "workers": workers}))
"""


def write_inputs(folder: Path, season: int, rounds: int) -> None:
    from f1_regex import varied

    from factcov.domains.f1.build import write_instances
    from factcov.domains.f1.instances import race_instances
    from factcov.domains.f1.source import race
    from factcov.jsonl import write_jsonl_atomic
    from factcov.model import Generation
    from factcov.plugins import get_domain

    domain = get_domain("f1")
    batches = [race_instances(race(DATA, season, r)) for r in range(1, rounds + 1)]
    write_instances(folder / "instances.jsonl", iter(batches))
    generations = []
    for system in ("realized", "varied"):
        for instance in (i for batch in batches for i in batch):
            rng = random.Random(zlib.crc32(instance.id.encode()))
            text = (domain.realize(instance.facts, instance.language, instance) if system == "realized"
                    else varied(instance, rng))
            generations.append(Generation(instance_id=instance.id, system=system, text=text))
    write_jsonl_atomic(folder / "generations.jsonl", generations)


def run(folder: Path, name: str, jobs: int, dask: str, chunk_size: int, tree: Path | None = None) -> dict:
    from baseline import command

    out = folder / name
    done = subprocess.run(
        command(tree, "-c", RUN, str(folder / "instances.jsonl"), str(folder / "generations.jsonl"), str(out),
                str(jobs), dask, str(chunk_size)),
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{name}: {done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["digest"] = hashlib.sha256(b"".join((out / f).read_bytes() for f in OUTPUTS)).hexdigest()
    return result


def summarized(runs: list[dict]) -> dict:
    """A configuration's runs: the fastest wall time, the median CPU of the process and of
    its workers, the digest (every run's must agree), and the fastest run itself."""
    digests = {result["digest"] for result in runs}
    fastest = min(runs, key=lambda result: result["wall"])
    return {"wall": fastest["wall"], "cpu": statistics.median(r["cpu"] for r in runs),
            "workers": statistics.median(r["workers"] for r in runs),
            "digest": fastest["digest"] if len(digests) == 1 else "differs between runs", "fastest": fastest}


def busiest(result: dict) -> float:
    """The least wall time two free cores allow (see the module's docstring)."""
    cpu, workers = result["cpu"], result["workers"]
    return max(cpu, workers / 2, (cpu + workers) / 2) if workers else cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--season", type=int, default=2021)
    parser.add_argument("--rounds", type=int, default=22)
    parser.add_argument("--dask", action="store_true", help="also a 2-worker Dask LocalCluster (scheduler address)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each configuration (wall: the fastest; CPU: the median)")
    parser.add_argument("--chunk-size", type=int, default=500,
                        help="generations per chunk, the same in every configuration (it sets the Parquet row "
                             "groups); small enough that both workers get an even share of a short run")
    parser.add_argument("--baseline", help="also run every configuration on this commit's code, interleaved")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="jobs-scaling-"))
    write_inputs(folder, args.season, args.rounds)
    lines = sum(1 for _ in open(folder / "generations.jsonl"))
    configs = [("one process", 1, ""), ("--jobs 2", 2, "")] + ([("dask, 2 workers", 1, "cluster")] if args.dask else [])
    print(f"{lines:,} generations (f1 {args.season}, rounds 1-{args.rounds}); load average {os.getloadavg()[0]:.1f}")
    trees: list[tuple[str, Path | None]] = [("", None)]
    if args.baseline:
        from baseline import checkout

        trees.insert(0, (f"{args.baseline}: ", checkout(args.baseline)))
        # Dask's worker processes import the installed factcov (this worktree's), not REF's tree
        configs = [(prefix + name, jobs, dask, tree) for prefix, tree in trees for name, jobs, dask in configs
                   if not (tree is not None and dask)]
    else:
        configs = [(name, jobs, dask, None) for name, jobs, dask in configs]
    runs: dict[str, list[dict]] = {}
    for name, jobs, dask, tree in configs * args.repeat:
        runs.setdefault(name, []).append(
            run(folder, name.replace(" ", "_").replace(",", "").replace(":", ""), jobs, dask, args.chunk_size, tree))
    results = {name: summarized(each) for name, each in runs.items()}
    base = results["one process"]
    print(f"{'configuration':26} {'wall s':>7} {'CPU s':>7} {'workers CPU s':>14} {'speed-up':>9} "
          f"{'2-core bound':>13} {'same bytes':>10} {'bound (fastest run)':>20}")
    for name, result in results.items():
        own = results[name.split(": ")[0] + ": one process"] if ": " in name else base  # each code's own one process
        print(f"{name:26} {result['wall']:7.1f} {result['cpu']:7.2f} {result['workers']:14.2f} "
              f"{own['wall'] / result['wall']:8.2f}x {own['cpu'] / busiest(result):12.2f}x "
              f"{str(result['digest'] == base['digest']):>10} "
              f"{own['fastest']['cpu'] / busiest(result['fastest']):19.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
