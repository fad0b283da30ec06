"""rag's own CPU time in `factcov rag score`, the parse left out: what the domain adds to spaCy.

The input is ``end_to_end.py``'s rag input (HaluEval QA, ``--questions`` questions, three
answers each). Each configuration runs in a process of its own: a first
``score_answer_file`` parses every distinct text (kept in one parse cache for the
process), then ``--runs`` runs with every cache of the rag domain emptied (its units,
claims and ``lru_cache``s, as a new process has them) but the parses kept, so what is
timed (``time.process_time``) is the domain's own work and the core's around it:
reading the answer lines, claims, units, grading, the RAG metrics, scoring and the output
files. Configurations: this code, and with ``--baseline REF`` REF's code; each with
PyStemmer and without (snowballstemmer's pure-Python stemmers). ``--rounds`` rounds,
interleaved; the best and the median of each configuration's runs, and the output digest
(the same four files as ``end_to_end.py``).

    python benchmarks/rag_own_cpu.py --baseline main --rounds 2     # ~4 min of CPU
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

OUTPUTS = ("claims.parquet", "scores.parquet", "systems.csv", "summary.json")


def _clear_rag_caches() -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith("factcov.domains.rag") or name in ("factcov.language", "factcov.extractors.normalize"):
            for value in list(vars(module).values()):
                if hasattr(value, "cache_clear"):
                    value.cache_clear()
    units = sys.modules.get("factcov.domains.rag.units")
    if units is not None and hasattr(units, "_UNITS"):
        units._UNITS.clear()


def child(answers: Path, runs: int, out: Path) -> dict:
    """In this process: one run that parses, then ``runs`` runs with the parses kept."""
    import gc
    from collections import OrderedDict

    import factcov.extractors.spacy_backend as backend
    from factcov.answer_lines import score_answer_file
    from factcov.commands import options
    from factcov.domains.rag.domain import RagDomain
    from factcov.domains.rag.settings import load_settings

    parses: OrderedDict = OrderedDict()
    build = backend.SpacyParser.__init__

    def shared_cache(self, *args, **kwargs) -> None:  # every extractor of this process reads one parse cache
        build(self, *args, **kwargs)
        self._parses, self.cache_size = parses, 1 << 30

    backend.SpacyParser.__init__ = shared_cache

    def run() -> tuple[float, str]:
        settings = load_settings(backend=None, alpha=None, grounded=None, model=None, n_process=None, stanza_dir=None)
        domain = RagDomain().configure(settings.model_dump())
        policy = options.build_policy(None, None, None, None, None, default_weights=domain.type_weights)
        shutil.rmtree(out, ignore_errors=True)
        start = time.process_time()
        score_answer_file(domain, answers, out, policy=policy, extractor_options={}, progress=False, report=False)
        cpu = time.process_time() - start
        return cpu, hashlib.sha256(b"".join((out / name).read_bytes() for name in OUTPUTS)).hexdigest()[:16]

    run()
    found = []
    for _ in range(runs):
        _clear_rag_caches()
        gc.collect()
        found.append(run())
    stems = type(__import__("snowballstemmer").stemmer("english")).__module__
    return {"cpu": [round(cpu, 3) for cpu, _ in found], "digest": found[0][1], "stemmer": stems}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3, help="timed runs per process")
    parser.add_argument("--rounds", type=int, default=2, help="processes per configuration, interleaved")
    parser.add_argument("--baseline", help="also REF's code")
    parser.add_argument("--child", nargs=3, metavar=("ANSWERS", "RUNS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        if os.environ.get("FACTCOV_BENCH_NO_PYSTEMMER"):
            sys.modules["Stemmer"] = None  # snowballstemmer falls back to its pure-Python stemmers
        print(json.dumps(child(Path(args.child[0]), int(args.child[1]), Path(args.child[2]))))
        return 0

    from baseline import checkout, command
    from end_to_end import build_rag

    folder = Path(tempfile.mkdtemp(prefix="rag-own-"))
    answers, _distinct, count, _parsed = build_rag(folder, args.questions)
    trees: list[tuple[str, Path | None]] = [("this code", None)]
    if args.baseline:
        trees.insert(0, (args.baseline, checkout(args.baseline)))
    configurations = [(f"{label}, {stems}", tree, stems == "pure Python") for label, tree in trees
                      for stems in ("PyStemmer", "pure Python")]
    print(f"load average {os.getloadavg()[0]:.1f}; {count:,} answers")
    results: dict[str, list[float]] = {name: [] for name, _, _ in configurations}
    digests: dict[str, str] = {}
    for _ in range(args.rounds):
        for name, tree, pure in configurations:
            env = {k: v for k, v in os.environ.items() if k != "FACTCOV_BENCH_NO_PYSTEMMER"}
            if pure:
                env["FACTCOV_BENCH_NO_PYSTEMMER"] = "1"
            line = command(tree, __file__, "--child", str(answers), str(args.runs), str(folder / "out"))
            done = subprocess.run(line, capture_output=True, text=True, env=env)
            if done.returncode != 0:
                raise SystemExit(f"{name}: exit {done.returncode}\n{done.stderr[-3000:]}")
            found = json.loads(done.stdout.strip().splitlines()[-1])
            results[name] += found["cpu"]
            digests[name] = f"{found['digest']} ({found['stemmer']})"
    print(f"{'configuration':34} {'best s':>7} {'median s':>9}  outputs")
    for name, cpus in results.items():
        print(f"{name:34} {min(cpus):7.2f} {statistics.median(cpus):9.2f}  {digests[name]}  {cpus}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
