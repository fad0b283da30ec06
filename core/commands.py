"""What a domain's own commands (``factcov f1 …``, ``factcov rag score``) use of the command line.

Domains import this module, never ``factcov.cli``: the command line's modules are free to
move, and this short list is what they promise. ``factcov.cli`` imports the domains'
commands, so a domain reaching into it would tie the two packages both ways.

- ``options``: the shared typer options (``FAIL_UNDER``, ``SEED``, ...) and the policy,
  gates and output folder they build (``build_policy``, ``gates``, ``output_dir``, ...);
- ``progress``: the counter long work shows on stderr;
- ``fmt``, ``console``: how numbers and tables are printed;
- ``validated``: a domain's settings from its factcov.toml table, options on top;
- ``gate_metrics``, ``check_gates``: ``--fail-under`` (exit 1 when a score is below);
- ``print_outcome``: the tables ``factcov score`` prints after a run;
- ``default_chat_cache``: where model answers are cached unless told otherwise (``generate``'s).
"""

from __future__ import annotations

from factcov.cli import options
from factcov.cli.config import validated
from factcov.cli.console import console, fmt
from factcov.cli.gate import check_gates, gate_metrics
from factcov.cli.generate import default_cache as default_chat_cache
from factcov.cli.score import print_outcome
from factcov.progress import progress

__all__ = ["check_gates", "console", "default_chat_cache", "fmt", "gate_metrics", "options", "print_outcome", "progress", "validated"]
