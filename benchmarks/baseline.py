"""Run a benchmark against another commit's code, in the same run as the current code.

On a shared machine, figures measured an hour apart are not comparable; a "before" and
an "after" measured side by side are. ``checkout(ref)`` extracts the commit's tree with
``git archive`` into a temporary folder; ``command(ref_tree, ...)`` is a Python command
line that imports ``factcov`` (and its domains and extractors) from that tree instead of
this worktree, with the same interpreter and installed dependencies.

    python benchmarks/baseline.py REF script.py ARGS...   # run a script on REF's code
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = (("factcov", "core"), ("factcov.domains", "domains"), ("factcov.extractors", "extractors"))


def install(tree: Path) -> None:
    """Make ``import factcov`` load from ``tree`` (a source tree laid out like this repository)."""
    for name, folder in PACKAGES:
        spec = importlib.util.spec_from_file_location(
            name, tree / folder / "__init__.py", submodule_search_locations=[str(tree / folder)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)


def checkout(ref: str, into: Path | None = None) -> Path:
    """The tree of commit ``ref`` in a fresh temporary folder (left for the OS to clean)."""
    target = into or Path(tempfile.mkdtemp(prefix=f"factcov-{ref[:12]}-"))
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref], check=True, capture_output=True).stdout
    with tempfile.TemporaryFile() as handle:
        handle.write(archive)
        handle.seek(0)
        with tarfile.open(fileobj=handle) as tar:
            tar.extractall(target, filter="data")
    return target


def command(tree: Path | None, *args: str) -> list[str]:
    """``python`` running ``args`` (a script and its arguments, or ``-c CODE``) on ``tree``'s code.

    ``tree=None`` is this worktree's code (the installed package).
    """
    if tree is None:
        return [sys.executable, *args]
    boot = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import baseline; "
        f"baseline.install(__import__('pathlib').Path({str(tree)!r})); "
    )
    if args[0] == "-c":
        return [sys.executable, "-c", boot + args[1], *args[2:]]
    return [sys.executable, "-c", boot + f"import runpy; sys.argv = {list(args)!r}; "
            f"runpy.run_path(sys.argv[0], run_name='__main__')"]


if __name__ == "__main__":
    tree = checkout(sys.argv[1])
    sys.exit(subprocess.run(command(tree, *sys.argv[2:])).returncode)


def measure_on(ref: str, script: str, *args: str) -> dict:
    """Run ``script --json ARGS`` on ``ref``'s code and return the JSON object it prints last."""
    import json

    tree = checkout(ref)
    done = subprocess.run(command(tree, script, *args, "--json"), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"baseline {ref}: exit {done.returncode}\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_baseline(ref: str | None, script: str) -> dict | None:
    """``measure_on(ref, script, ...)`` with the script's own arguments minus ``--baseline``
    (None when no ``ref`` was given): the "before" of a script's ``--baseline REF``."""
    if not ref:
        return None
    return measure_on(ref, script, *args_without_baseline(sys.argv[1:]))


def args_without_baseline(argv: list[str]) -> list[str]:
    """A script's own arguments minus ``--baseline REF`` / ``--baseline=REF``: what it is
    rerun with on REF's code."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--baseline":
            skip = True
        elif not arg.startswith("--baseline="):
            out.append(arg)
    return out


def print_side_by_side(before: dict, after: dict, ref: str, unit: str) -> None:
    """One line per figure: before (``ref``'s code), after (this worktree's), after/before."""
    import os

    print(f"\nload average {os.getloadavg()[0]:.1f}; {unit}, CPU time; before = {ref}, after = this worktree")
    print(f"{'figure':34} {'before':>10} {'after':>10} {'ratio':>7}")
    for name, value in after.items():
        old = before.get(name)
        ratio = f"{value / old:6.2f}x" if old else "      -"
        print(f"{name:34} {old if old is not None else float('nan'):>10,.0f} {value:>10,.0f} {ratio}")


def compare_lines(ref: str, script: str, lines: list[str], *args: str) -> int:
    """Run ``script ARGS --out FILE`` on ``ref``'s code and compare the lines it writes with
    ``lines`` (this worktree's, read from the same corpus): how many texts read the same
    claims, the first differences, and 1 when any differs (the claim digests' ``--baseline``)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "claims.jsonl"
        subprocess.run(command(checkout(ref), script, *args, "--out", str(other)), check=True, capture_output=True)
        theirs = other.read_text(encoding="utf-8").splitlines()
    differ = [i for i, (a, b) in enumerate(zip(lines, theirs)) if a != b]
    if len(theirs) != len(lines):
        differ.append(min(len(lines), len(theirs)))
    print(f"{ref}: {len(lines) - len(differ)} of {len(lines)} texts read the same claims")
    for index in differ[:5]:
        print(f"DIFFERS line {index + 1}:\n  {ref}: {theirs[index][:400] if index < len(theirs) else '-'}"
              f"\n  here: {lines[index][:400] if index < len(lines) else '-'}")
    return 1 if differ else 0
