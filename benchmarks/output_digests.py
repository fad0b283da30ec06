"""sha256 of every output file of the reference runs, to show that a speed change kept the bytes.

Reference runs: the f1, weather and rag demos (`factcov demo`), the weather fixtures
(`demo_instances.jsonl` with NWS's own texts `demo_nws.jsonl`) through `factcov score`,
and the rag museum example through `factcov rag score`. Each also runs with `--jobs 2`,
which must give the same bytes as one process.

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
`report.html` is left out: it is a view of the other files (and not the same bytes from
run to run), and so is `manifest.json`, which lists the files with report.html's digest.
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

RUNS: dict[str, list[str]] = {
    "demo-f1": ["demo", "f1", "--quiet", "-o", "{out}"],
    "demo-weather": ["demo", "weather", "--quiet", "-o", "{out}"],
    "demo-rag": ["demo", "rag", "--quiet", "-o", "{out}"],
    "weather-fixtures": ["score", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"),
                         "-g", str(WEATHER / "demo_nws.jsonl"), "-o", "{out}", "--no-report"],
    "weather-fixtures-jobs2": ["score", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"),
                               "-g", str(WEATHER / "demo_nws.jsonl"), "-o", "{out}", "--no-report",
                               "--jobs", "2"],
    "rag-museum": ["rag", "score", "-i", str(REPO / "domains" / "rag" / "museum.jsonl"), "-o", "{out}"],
}


def digests(tree: Path | None = None) -> dict[str, str]:
    """Digests of the reference runs' outputs, with this worktree's code or ``tree``'s."""
    from baseline import command

    found: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in RUNS.items():
            out = Path(tmp) / name
            run = command(tree, "-c", CLI, *(a.replace("{out}", str(out)) for a in args))
            done = subprocess.run(run, capture_output=True, text=True, cwd=tmp)
            if done.returncode != 0:
                raise SystemExit(f"{name}: exit {done.returncode}\n{done.stderr[-2000:]}")
            for path in sorted(p for p in out.rglob("*") if p.is_file() and p.name not in ("report.html", "manifest.json")):
                found[f"{name}/{path.relative_to(out)}"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path)
    parser.add_argument("--check", type=Path)
    parser.add_argument("--code", help="a commit whose code to run instead of this worktree's")
    args = parser.parse_args(argv)
    if args.code:
        from baseline import checkout

        found = digests(checkout(args.code))
    else:
        found = digests()
    lines = [f"{digest}  {name}" for name, digest in sorted(found.items())]
    if args.write:
        args.write.write_text("\n".join(lines) + "\n")
    if args.check:
        expected = dict(reversed(line.split("  ", 1)) for line in args.check.read_text().splitlines() if line)
        differ = sorted(n for n in expected.keys() | found.keys() if expected.get(n) != found.get(n))
        for name in differ:
            print(f"DIFFERS {name}: expected {expected.get(name, '-')[:12]} got {found.get(name, '-')[:12]}")
        print(f"{len(found) - len(differ)} of {len(expected.keys() | found.keys())} files byte-identical")
        return 1 if differ else 0
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
