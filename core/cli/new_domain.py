"""`factcov new-domain NAME`: write a domain plugin package that installs and passes its tests."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    app.command("new-domain")(new_domain)


def new_domain(
    name: str = typer.Argument(..., help="Domain name: lowercase letters, digits and '_'."),
    destination: Path = typer.Option(Path("."), "--out", "-o", help="Folder to write factcov-NAME/ into.",
                                     file_okay=False),
) -> None:
    """Write factcov-NAME/: pyproject with the entry point, claim types, oracle, extractor, tests."""
    from factcov.scaffold import write_domain_package

    root = write_domain_package(name, destination)
    # A bare "factcov-x" would make pip look for a distribution of that name on PyPI.
    path = root.as_posix() if root.is_absolute() or root.as_posix().startswith(".") else f"./{root.as_posix()}"
    typer.echo(f"wrote {path}/ — next: pip install {path} && python -m pytest {path}/tests", err=True)
