"""The HTML report: one self-contained file (inline CSS, JS and SVG; no network) per set of runs.

``write_report([outdir, ...], destination)`` reads each OUTDIR of ``factcov score`` and
writes a page with the system table, a precision–recall scatter with F1 isolines, a
slope chart from rank by precision to rank by F1, and a per-generation explorer that
highlights every claim by its verdict and lists the oracle facts the text missed.

The data travels as JSON inside ``<script type="application/json">``, with ``<``, ``>``
and ``&`` written as JSON ``\\u`` escapes so no text can close the script element; the
page builds its DOM with ``textContent`` only, so a generation containing ``<script>``
is shown as text and never runs.
"""

from __future__ import annotations

from pathlib import Path

from factcov.report.payload import EXPLORER_CAP, EXPLORER_MAX_GENERATIONS, build_payload
from factcov.report.render import render_html

__all__ = ["EXPLORER_CAP", "EXPLORER_MAX_GENERATIONS", "build_payload", "render_html", "write_report"]


def write_report(
    outdirs: list[Path] | list[str],
    destination: Path | str,
    per_system: int = EXPLORER_CAP,
    max_generations: int = EXPLORER_MAX_GENERATIONS,
    names: list[str] | None = None,
) -> Path:
    """Write the report of ``outdirs`` to ``destination`` (atomically); return its path.

    ``names``: what to call each run instead of its path (a run's own report, written
    from its staging directory, names the OUTDIR it becomes).

    The explorer shows at most ``per_system`` generations per system and
    ``max_generations`` per run; tables and charts always use every generation.
    """
    from factcov.jsonl import write_text_atomic

    destination = Path(destination)
    html = render_html(build_payload([Path(p) for p in outdirs], per_system, max_generations, names))
    destination.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(destination, html)
    return destination
