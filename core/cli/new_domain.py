"""`factcov new-domain NAME`: write a domain plugin package that installs and passes its tests."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    _APPS.append(app)
    app.command("new-domain")(new_domain)


_APPS: list[typer.Typer] = []  # the root app: its commands are names a domain cannot take


def _taken_names() -> dict[str, str]:
    """Names a new domain would clash with: the built-in domains (an entry point of the same
    name is refused as a hijack) and factcov's commands (``factcov NAME ...`` is a domain's
    command group)."""
    from factcov.plugins import DEFAULT_PLUGINS

    taken = {module.split(".")[2]: "a built-in domain" for module in DEFAULT_PLUGINS
             if module.startswith("factcov.domains.")}
    for app in _APPS:
        for command in app.registered_commands:
            taken.setdefault((command.name or command.callback.__name__).replace("-", "_"), "a factcov command")
        for group in app.registered_groups:
            if group.name:
                taken.setdefault(group.name.replace("-", "_"), "a factcov command")
    return taken


def new_domain(
    name: str = typer.Argument(..., help="Domain name: lowercase letters, digits and '_'."),
    destination: Path = typer.Option(Path("."), "--out", "-o", help="Folder to write factcov-NAME/ into.",
                                     file_okay=False),
) -> None:
    """Write factcov-NAME/: pyproject with the entry point, claim types, oracle, extractor, tests."""
    from factcov.scaffold import write_domain_package

    from factcov.errors import InputError

    why = _taken_names().get(name)
    if why is not None:
        raise InputError(f"'{name}' is {why}; choose another domain name")
    root = write_domain_package(name, destination)
    # A bare "factcov-x" would make pip look for a distribution of that name on PyPI.
    path = root.as_posix() if root.is_absolute() or root.as_posix().startswith(".") else f"./{root.as_posix()}"
    typer.echo(f"wrote {path}/ — next: pip install {path} && python -m pytest {path}/tests", err=True)
