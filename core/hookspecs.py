"""The hooks a factcov plugin can implement.

The ``register_*`` hooks receive a ``register`` callback (or the CLI app) and return
nothing; the host owns the registries. ``render_prompt`` returns an answer; the first
plugin that gives one wins. Implementations may accept fewer arguments than a spec, so
hooks only ever gain keyword arguments. Implement them with ``@factcov.hookimpl``.

The ``register_*`` hooks only register classes. What a domain does at scoring time — its knowledge,
realizer, perturbations and extra per-text metrics (``Domain.metrics`` and
``Domain.extra_metrics``, which the core runner calls on every chunk) — lives on its
:class:`factcov.domain.Domain` subclass (docs/plugins.md lists them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("factcov")
hookimpl = pluggy.HookimplMarker("factcov")


@hookspec
def register_domains(register: Callable[[type], None]) -> None:
    """Register domain classes: call ``register(DomainSubclass)`` once per domain.

    :param register: takes a :class:`factcov.domain.Domain` subclass with a unique
        ``name``; a name already registered by another plugin is a ``PluginError``
        naming both plugins.

    Added in 0.1.
    """


@hookspec
def register_extractors(register: Callable[[type], None]) -> None:
    """Register extractor classes: call ``register(ExtractorSubclass)`` once per backend.

    :param register: takes a :class:`factcov.extractor.Extractor` subclass with a
        unique ``name``, its ``domains`` and ``languages``; duplicates are errors as above.

    Added in 0.1.
    """


@hookspec
def register_commands(app: Any) -> None:
    """Add a command group to the ``factcov`` command line.

    :param app: the root ``typer.Typer``; call ``app.add_typer(group, name=...)`` or
        ``app.command()``. Import heavy libraries inside the commands, not here.

    Added in 0.1.
    """


@hookspec(firstresult=True)
def render_prompt(domain: str, instance: Any) -> list[dict[str, str]] | None:
    """Chat messages that ask a model to write the text for one instance (``factcov generate``).

    :param domain: the instance's domain name; return ``None`` for domains you do not render.
    :param instance: the :class:`factcov.model.Instance` (its ``prompt``, ``context``, ``language``).
    :returns: ``[{"role": "system", "content": ...}, {"role": "user", "content": ...}]`` or
        ``None``; the first non-``None`` answer wins, and without one the core's default
        (the instance's prompt followed by the domain's ``prompt_context``, or its context
        as JSON) is used.

    Added in 0.2.
    """
