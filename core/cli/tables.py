"""Rich rendering of a system table (score, demo and compare print the same way)."""

from __future__ import annotations

import math

import pandas as pd

from factcov.cli.console import fmt as _fmt


def _interval(row: pd.Series, metric: str, average: str) -> str:
    value = _fmt(row[metric])
    if average == "macro":
        lo, hi = row.get(f"macro_{metric}_lo"), row.get(f"macro_{metric}_hi")
        if lo is not None and hi is not None and not (isinstance(lo, float) and math.isnan(lo)):
            return f"{value} [{lo:.3f}, {hi:.3f}]"
    return value


def print_system_table(table: pd.DataFrame, title: str, average: str = "macro", signature: str | None = None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    rich_table = Table(title=title, caption=signature)
    for column in ("system", "n", "claims/text", "facts/inst", "precision", "recall", "F1",
                   "rank P", "rank F1", "change"):
        rich_table.add_column(column, justify="left" if column == "system" else "right")
    for _, row in table.sort_values(["rank_f1", "system"]).iterrows():
        change = row["rank_change"]
        arrow = "=" if change == 0 else (f"↑{change:g}" if change > 0 else f"↓{-change:g}")
        rich_table.add_row(
            escape(str(row["system"])), str(row["n"]), f"{row['claims_per_text']:.1f}", f"{row['facts_per_instance']:.1f}",
            _interval(row, "precision", average), _interval(row, "recall", average), _interval(row, "f1", average),
            f"{row['rank_precision']:g}", f"{row['rank_f1']:g}", arrow,
        )
    console = Console()
    if not console.is_terminal:  # piped or captured: room for the intervals
        console = Console(width=170)
    console.print(rich_table)
    note = out_of_scope_note(table)
    if note:
        console.print(note, markup=False, highlight=False)


def print_domain_metrics(table: pd.DataFrame, metrics: tuple[str, ...] | list[str]) -> None:
    """The domain's own metrics (mean over the texts where defined, and on how many)."""
    if not metrics or table.empty:
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    rich_table = Table(title="domain metrics (mean over texts where defined; n)")
    rich_table.add_column("metric")
    systems = sorted(table["system"])
    for system in systems:
        rich_table.add_column(escape(str(system)), justify="right")
    rows = table.set_index("system")
    for metric in metrics:
        cells = [f"{_fmt(rows.loc[s, metric])} ({int(rows.loc[s, f'n_{metric}_defined'])})" for s in systems]
        rich_table.add_row(metric, *cells)
    console = Console()
    if not console.is_terminal:
        console = Console(width=170)
    console.print(rich_table)


def out_of_scope_note(table: pd.DataFrame | list[dict]) -> str:
    """One line naming the systems with claims outside the oracle's scope, or ''."""
    rows = table.to_dict("records") if isinstance(table, pd.DataFrame) else table
    counts = [(str(r["system"]), int(r.get("out_of_scope") or 0)) for r in rows]
    marked = [f"{system} {n}" for system, n in sorted(counts) if n]
    if not marked:
        return ""
    return "claims outside the oracle's scope (counted, left out of P/R/F1): " + ", ".join(marked)
