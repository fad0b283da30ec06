"""The ``factcov`` command: a typer app assembled from one module per command group.

Errors never reach the user as tracebacks: a ``FactcovError`` becomes one line on
stderr and its exit code (2 for bad input or usage, 1 for a failed gate).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

import typer

from factcov import __version__
from factcov.errors import FactcovError

# Each module exposes ``register(app)``; domain plugins add theirs through the
# ``register_commands`` hook.
COMMAND_MODULES: tuple[str, ...] = (
    "factcov.cli.listing",
    "factcov.cli.extract",
    "factcov.cli.score",
    "factcov.cli.demo",
    "factcov.cli.compare",
    "factcov.cli.validate",
    "factcov.cli.report",
    "factcov.cli.new_domain",
    "factcov.cli.generate",
    "factcov.cli.refine",
    "factcov.cli.export",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"factcov {__version__}")
        raise typer.Exit()


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="factcov",
        help="Coverage-aware evaluation of grounded text: precision against the data, "
        "recall against a complete oracle.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    @app.callback()
    def root(
        version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
    ) -> None:
        """factcov: precision, recall and F1 of claims against a complete oracle."""

    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(app)
    from factcov.plugins import add_commands

    add_commands(app)
    return app


def run(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (what ``main`` exits with; tests call this)."""
    try:
        app = build_app()
        from factcov.cli.options import hide_flag_types, spread_multiple_values

        command = typer.main.get_command(app)
        hide_flag_types(command)
        args = spread_multiple_values(command, list(argv) if argv is not None else sys.argv[1:])
        result = command.main(args=args, prog_name="factcov", standalone_mode=False)
    except FactcovError as error:
        _print_error(str(error))
        return error.exit_code
    except typer.Exit as error:
        return error.exit_code
    except typer.Abort:
        _print_error("aborted")
        return 130
    except typer.TyperException as error:
        # Usage errors of the command line (typer's public base of click's exceptions):
        # each shows itself (a missing argument, or the help of a group called bare).
        error.show()  # type: ignore[attr-defined]
        return 2
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0


def _print_error(message: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]factcov: error:[/] {escape(message)}")


def main() -> None:
    sys.exit(run())
