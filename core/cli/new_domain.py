"""`factcov new-domain NAME`: write a domain plugin package that installs and passes its tests."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    app.command("new-domain")(new_domain)


def _taken_names(ctx: typer.Context) -> dict[str, str]:
    """Names a new domain would clash with: the built-in domains (an entry point of the same
    name is refused as a hijack) and the commands of the running ``factcov`` (``factcov
    NAME ...`` is a domain's command group), read from the root command."""
    from factcov.plugins import DEFAULT_PLUGINS

    taken = {module.split(".")[2]: "a built-in domain" for module in DEFAULT_PLUGINS
             if module.startswith("factcov.domains.")}
    root = ctx.find_root()
    for command in root.command.list_commands(root):  # type: ignore[attr-defined]  # the root is a group
        taken.setdefault(command.replace("-", "_"), "a factcov command")
    return taken


def new_domain(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Domain name: lowercase letters, digits and '_'."),
    destination: Path = typer.Option(Path("."), "--out", "-o", help="Folder to write factcov-NAME/ into.",
                                     file_okay=False),
) -> None:
    """Write factcov-NAME/: pyproject with the entry point, claim types, oracle, extractor, tests."""
    from factcov.errors import InputError
    from factcov.scaffold import write_domain_package

    why = _taken_names(ctx).get(name)
    if why is not None:
        raise InputError(f"'{name}' is {why}; choose another domain name")
    root = write_domain_package(name, destination)
    # A bare "factcov-x" would make pip look for a distribution of that name on PyPI.
    path = root.as_posix() if root.is_absolute() or root.as_posix().startswith(".") else f"./{root.as_posix()}"
    # -e (editable): the author edits the package, and every edit counts without reinstalling
    typer.echo(f"wrote {path}/ — next: pip install -e {path} && python -m pytest {path}/tests", err=True)
