"""CPU time of reading JSON lines that are mostly blank, per MiB, by block and line by line.

`factcov.jsonl.read_lines` skips a stretch of blank lines with one C scan per block; it
used to take a `readline`, a decode and a `strip` per line, which made 8 MiB of blank
lines cost 24 s on a busy machine (about 50 minutes a GiB). Both are timed here on the
same files (the line-by-line reader is kept below as the reference), at two sizes, so the
growth shows too:

    python benchmarks/jsonl_blank_lines.py            # 8 and 32 MiB of blank lines
    python benchmarks/jsonl_blank_lines.py --mib 64
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from factcov.jsonl import iter_json_lines, open_binary


def line_by_line(path: Path) -> int:
    """The reader before: one readline, decode and strip per line."""
    count = 0
    with open_binary(path) as handle:
        while raw := handle.readline(16 * 1024 * 1024 + 1):
            if raw.decode("utf-8").strip():
                count += 1
    return count


def by_block(path: Path) -> int:
    return sum(1 for _ in iter_json_lines(path))


def cpu(function, path: Path) -> float:
    start = time.process_time()
    assert function(path) == 1
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, nargs="+", default=[8, 32])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for mib in args.mib:
            for kind, blank in (("\\n", b"\n"), ("'  \\r\\n'", b"  \r\n")):
                path = Path(tmp) / "blank.jsonl"
                path.write_bytes(blank * ((mib << 20) // len(blank)) + b'{"a": 1}\n')
                old, new = cpu(line_by_line, path), cpu(by_block, path)
                print(f"{mib:>4} MiB of {kind:<9} line by line {old:7.2f} s CPU ({old / mib * 1024 / 60:6.1f} min/GiB)"
                      f"   by block {new:6.3f} s CPU ({new / mib * 1024:6.1f} s/GiB)   {old / new:6.0f}x")


if __name__ == "__main__":
    main()
