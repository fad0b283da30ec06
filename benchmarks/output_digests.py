"""sha256 of every output file of the reference runs, to show that a change kept the bytes.

Reference runs: the f1, weather and rag demos (`factcov demo`), the weather fixtures
(`demo_instances.jsonl` with NWS's own texts `demo_nws.jsonl`) through `factcov score`,
and the rag museum example through `factcov rag score`. The weather fixtures also run
with `--jobs 2` and with `--dask local`, which must give the same bytes as one process.

Every file is compared whole, `report.html` and `manifest.json` included, and every
reference run is made twice, into two different directories (the OUTDIR's own name is
the same, `out`): a file that differs between the two, or between a `--jobs 2` or
`--dask` run and its one-process twin, is reported as not reproducible and fails
`--check`. (`report.html` once named the run's staging folder, `.out.staging-PID-XXXX`,
so it and the manifest listing it differed between identical runs; the digests left
both out and could not see it.)

    python benchmarks/output_digests.py                          # print the digests
    python benchmarks/output_digests.py --write benchmarks/output_digests.sha256
    python benchmarks/output_digests.py --check benchmarks/output_digests.sha256
    python benchmarks/output_digests.py --code main --check FILE   # another commit's code

The committed `output_digests.sha256` was written by the code before the performance
work of issue 12 (commit 4e89082) and re-checked after it; when main's own changes moved
outputs (issue 9's oracle rules changed the f1 demo), it was rewritten from main's code
(`--code main --write`) and the merged code checked against it. A change that
deliberately changes outputs (a grammar, an oracle rule) rewrites it in the same commit,
saying why.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

REPO = Path(__file__).resolve().parents[1]
CLI = "from factcov.cli.app import main; main()"
WEATHER = REPO / "domains" / "weather"

FIXTURES = ["score", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"),
            "-g", str(WEATHER / "demo_nws.jsonl"), "-o", "{out}", "-q"]
RUNS: dict[str, list[str]] = {
    "demo-f1": ["demo", "f1", "--quiet", "-o", "{out}"],
    "demo-weather": ["demo", "weather", "--quiet", "-o", "{out}"],
    "demo-rag": ["demo", "rag", "--quiet", "-o", "{out}"],
    "weather-fixtures": [*FIXTURES, "--no-report"],
    "weather-fixtures-jobs2": [*FIXTURES, "--no-report", "--jobs", "2"],
    "weather-fixtures-report": FIXTURES,
    "weather-fixtures-report-jobs2": [*FIXTURES, "--jobs", "2"],
    "weather-fixtures-report-dask": [*FIXTURES, "--dask", "local"],
    "rag-museum": ["rag", "score", "-i", str(REPO / "domains" / "rag" / "museum.jsonl"), "-o", "{out}"],
}
# A run whose files must be the same bytes as another's (its twin in one process).
TWINS = {"weather-fixtures-jobs2": "weather-fixtures", "weather-fixtures-report-jobs2": "weather-fixtures-report",
         "weather-fixtures-report-dask": "weather-fixtures-report"}


def _run_all(tree: Path | None, root: Path) -> dict[str, bytes]:
    """Every reference run into ``root``; the bytes of each output file by ``run/relative path``."""
    from baseline import command

    found: dict[str, bytes] = {}
    root.mkdir(parents=True, exist_ok=True)
    for name, args in RUNS.items():
        out = root / name / "out"
        run = command(tree, "-c", CLI, *(a.replace("{out}", str(out)) for a in args))
        done = subprocess.run(run, capture_output=True, text=True, cwd=root)
        if done.returncode != 0:
            raise SystemExit(f"{name}: exit {done.returncode}\n{done.stderr[-2000:]}")
        for path in sorted(p for p in out.rglob("*") if p.is_file()):
            found[f"{name}/{path.relative_to(out)}"] = path.read_bytes()
    return found


def not_reproducible(first: dict[str, bytes], second: dict[str, bytes]) -> list[str]:
    """Files that differ between two sets of the same runs, or from their one-process twin."""
    differ = [name for name in sorted(first.keys() | second.keys()) if first.get(name) != second.get(name)]
    for name, twin in TWINS.items():
        for key, data in first.items():
            if key.startswith(f"{name}/") and first.get(f"{twin}/{key[len(name) + 1:]}") != data:
                differ.append(f"{key} (differs from {twin})")
    return differ


def digests(tree: Path | None = None) -> tuple[dict[str, str], list[str]]:
    """Digests of the reference runs' outputs, with this worktree's code or ``tree``'s, and
    the files that were not the same bytes in two directories or across ``--jobs``/``--dask``."""
    with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
        first = _run_all(tree, Path(one))
        second = _run_all(tree, Path(two) / "elsewhere")
    found = {name: hashlib.sha256(data).hexdigest() for name, data in first.items()}
    return found, not_reproducible(first, second)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--check", type=Path)
    parser.add_argument("--code", help="a commit whose code to run instead of this worktree's")
    args = parser.parse_args(argv)
    if args.code:
        from baseline import checkout

        found, unstable = digests(checkout(args.code))
    else:
        found, unstable = digests()
    for name in unstable:
        print(f"NOT REPRODUCIBLE {name}")
    lines = [f"{digest}  {name}" for name, digest in sorted(found.items())]
    if args.write:
        args.write.write_text("\n".join(lines) + "\n")
    if args.check:
        expected = dict(reversed(line.split("  ", 1)) for line in args.check.read_text().splitlines() if line)
        differ = sorted(n for n in expected.keys() | found.keys() if expected.get(n) != found.get(n))
        for name in differ:
            print(f"DIFFERS {name}: expected {expected.get(name, '-')[:12]} got {found.get(name, '-')[:12]}")
        print(f"{len(found) - len(differ)} of {len(expected.keys() | found.keys())} files byte-identical; "
              f"{len(unstable)} not reproducible across directories, --jobs and --dask")
        return 1 if differ or unstable else 0
    print("\n".join(lines))
    return 1 if unstable else 0


if __name__ == "__main__":
    sys.exit(main())
