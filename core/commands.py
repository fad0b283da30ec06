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

import importlib
from typing import Any

# Each name is imported when a command first uses it (PEP 562): a domain's commands module
# imports this one to be listed in `factcov --help`, which needs none of them (factcov.cli.config
# alone imports pydantic).
_WHERE = {
    "options": ("factcov.cli.options", None),
    "validated": ("factcov.cli.config", "validated"),
    "console": ("factcov.cli.console", "console"),
    "fmt": ("factcov.cli.console", "fmt"),
    "check_gates": ("factcov.cli.gate", "check_gates"),
    "gate_metrics": ("factcov.cli.gate", "gate_metrics"),
    "default_chat_cache": ("factcov.cli.generate", "default_cache"),
    "print_outcome": ("factcov.cli.score", "print_outcome"),
    "progress": ("factcov.progress", "progress"),
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'factcov.commands' has no attribute {name!r}")
    module_name, attribute = _WHERE[name]
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value
