"""Stream forecast files into instance (and NWS generation) files, atomically."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from factcov.progress import progress as console_progress
from factcov.domains.weather.instances import LANGUAGES, instances_of
from factcov.domains.weather.periods import iter_periods
from factcov.errors import InputError
from factcov.jsonl import atomic_path


@dataclass
class BuildCounts:
    periods: int = 0
    instances: int = 0
    duplicates: int = 0


def build_instances(
    forecasts: Iterable[Path],
    languages: tuple[str, ...],
    out: Path,
    nws_out: Path | None = None,
    progress: bool = False,
) -> BuildCounts:
    """Write instances of every period (a period seen twice, e.g. the same issue in two
    files, is written once). NWS's texts go to ``nws_out`` as system ``nws``, language en."""
    unknown = [code for code in languages if code not in LANGUAGES]
    if unknown or not languages:
        raise InputError(f"unknown language(s) {', '.join(unknown) or '(none given)'}; weather supports {', '.join(LANGUAGES)}")
    counts = BuildCounts()
    seen: set[str] = set()
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(atomic_path(out, keep_empty=False))
        handle = stack.enter_context(tmp.open("w", encoding="utf-8"))
        nws = None
        if nws_out is not None:
            nws = stack.enter_context(stack.enter_context(atomic_path(nws_out, keep_empty=False)).open("w", encoding="utf-8"))
        bar = stack.enter_context(console_progress("weather build", "periods", progress))
        for period in iter_periods(forecasts):
            if period.instance_key in seen:
                counts.duplicates += 1
                continue
            seen.add(period.instance_key)
            counts.periods += 1
            for instance in instances_of(period, languages):
                handle.write(instance.model_dump_json() + "\n")
                counts.instances += 1
                if nws is not None and period.detailed_forecast:
                    nws.write(json.dumps({"instance_id": instance.id, "system": "nws", "text": period.detailed_forecast,
                                          "language": "en"}, ensure_ascii=False) + "\n")
            bar(1)
    return counts
