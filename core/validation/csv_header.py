"""A CSV header's columns checked before any row is read."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from factcov.errors import InputError


def check_repeated_columns(fieldnames: Sequence[str] | None, columns: Sequence[str], path: Path) -> None:
    """InputError (line 1) when a column this reader uses stands twice in the header:
    ``csv.DictReader`` would keep the last one's values and silently drop the first's."""
    names = list(fieldnames or ())
    repeated = [column for column in columns if names.count(column) > 1]
    if repeated:
        raise InputError(f"column '{repeated[0]}' appears {names.count(repeated[0])} times in the header; "
                         "keep one", path=path, line=1, field=repeated[0])
