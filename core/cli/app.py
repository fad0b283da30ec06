"""The ``factcov`` command: a typer app assembled from one module per command group.

Errors never reach the user as tracebacks: a ``FactcovError`` becomes one line on
stderr and its exit code (2 for bad input or usage, 1 for a failed gate, 3 for the
environment); an OSError or an unexpected exception is one line with exit 3 (2 when
the path given cannot be used as asked).
"""

from __future__ import annotations

import errno
import importlib
import os
import re
import sys
import traceback
import warnings
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


def _version(context: typer.Context, value: bool) -> None:
    # an eager callback also runs when the command line is parsed only to be looked at
    # (resilient_parsing, factcov.cli.paths): print once, on the real parse
    if value and not context.resilient_parsing:
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
    """Run the CLI and return its exit code (what ``main`` exits with; tests call this).

    Warnings (a plugin skipped because it failed to load) print as one line
    ``factcov: warning: ...``, not with the factcov source line that raised them.
    """
    format_warning = warnings.formatwarning
    warnings.formatwarning = _one_line_warning
    try:
        return _run(argv)
    finally:
        warnings.formatwarning = format_warning


def _one_line_warning(message: Warning | str, category: type[Warning], *args: object, **kwargs: object) -> str:
    return f"factcov: warning: {message}\n"


def _run(argv: Sequence[str] | None = None) -> int:
    """The command line's body; see ``run``.

    0 ok; 1 a failed gate only; 2 bad input or usage; 3 the environment (disk, network,
    a busy OUTDIR) or an internal error; 130 interrupted. Every error is one line on
    stderr; ``FACTCOV_DEBUG=1`` adds the traceback of an unexpected one.
    """
    try:
        app = build_app()
        from factcov.cli.options import hide_flag_types, plain_help, spread_multiple_values

        command = typer.main.get_command(app)
        hide_flag_types(command)
        plain_help(command)
        args = spread_multiple_values(command, list(argv) if argv is not None else sys.argv[1:])
        from factcov.cli.paths import check_command_line

        check_command_line(command, args)
        result = command.main(args=args, prog_name="factcov", standalone_mode=False)
    except FactcovError as error:
        _print_error(str(error))
        return error.exit_code
    except typer.Exit as error:
        return error.exit_code
    except (typer.Abort, KeyboardInterrupt) as error:
        if isinstance(error.__cause__, EOFError):  # click turns any EOFError (a truncated gzip) into Abort
            _debug_traceback()
            _print_error(f"an input ended early (truncated or damaged file): {error.__cause__}; nothing was written")
            return 2
        _print_error("interrupted; outputs already in place are unchanged")
        return 130
    except typer.TyperException as error:
        # Usage errors of the command line (typer's public base of click's exceptions):
        # one line naming the command and the option; a group called bare shows its help.
        if type(error).__name__ == "NoArgsIsHelpError":
            error.show()  # type: ignore[attr-defined]
            return 2
        context = getattr(error, "ctx", None)
        where = f"{context.command_path}: " if context is not None else ""
        _print_error(f"{where}{error.format_message()} (see --help)")  # type: ignore[attr-defined]
        return 2
    except BrokenPipeError:
        _silence_stdout()
        return 141
    except SystemExit as error:
        # click's answer to EPIPE is sys.exit(1), rich's (a table or --help into `| head`)
        # SystemExit(1) from Console.on_broken_pipe: either way a closed stdout, not a gate.
        if type(sys.stdout).__name__ == "PacifyFlushWrapper" or _raised_by_rich_broken_pipe(error):
            _silence_stdout()
            return 141
        raise
    except OSError as error:
        _debug_traceback()
        code, message = describe_os_error(error)
        _print_error(message)
        return code
    except RecursionError:
        _debug_traceback()
        _print_error("input nested too deeply to process (RecursionError); simplify the input")
        return 2
    except MemoryError:
        _print_error("out of memory; score a smaller file or raise the memory limit")
        return 3
    except Exception as error:  # the promise: no traceback, a distinct code for our own bug
        _debug_traceback()
        if isinstance(error, RuntimeError) and str(error).startswith("Symlink loop from "):
            # Python 3.11's Path.resolve says ELOOP this way (3.13 raises OSError(ELOOP)): a path given, not our bug
            where = str(error).removeprefix("Symlink loop from ").strip("'")
            _print_error(f"{where}: too many levels of symbolic links (a symlink loop); give a path that leads "
                         "to a file or folder")
            return 2
        from factcov.cli.blame import describe_unexpected

        _print_error(describe_unexpected(error))
        return 3
    if result == INTERRUPTED:
        # typer turns Ctrl-C inside a command into Exit(130), which click's main (not standalone)
        # returns as a value: the interruption ended the run silently, without its line
        _print_error("interrupted; outputs already in place are unchanged")
    return result if isinstance(result, int) else 0


INTERRUPTED = 130


# errno values that mean the path the user gave cannot be written as asked (usage, 2);
# anything else (full or read-only disk, permissions, I/O) is the environment (3).
_USAGE_ERRNOS = {errno.EISDIR, errno.ENOTDIR, errno.EEXIST, errno.ENAMETOOLONG, errno.ENOTEMPTY, errno.ELOOP}


def describe_os_error(error: OSError) -> tuple[int, str]:
    """Exit code and one line for a file-system or network error, naming the path."""
    where = error.filename if error.filename is not None else None
    reason = error.strerror or str(error) or type(error).__name__
    if error.errno == errno.ENOSPC:
        reason += " (disk full; nothing half-written was left in place)" if where else " (disk full)"
    line = f"{where}: {reason}" if where is not None else reason
    return (2 if error.errno in _USAGE_ERRNOS else 3), line


def _raised_by_rich_broken_pipe(error: SystemExit) -> bool:
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_name == "on_broken_pipe"


def _debug_traceback() -> None:
    if os.environ.get("FACTCOV_DEBUG", "") not in ("", "0"):
        traceback.print_exc()


def _silence_stdout() -> None:
    """A reader closed the pipe (``| head``): point stdout at /dev/null so exit stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Characters of one error line: the file, line and field come first, then the value quoted.
MAX_MESSAGE_CHARS = 2000


def _print_error(message: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    message = " ".join(message.split()) if "\n" in message else message  # one line, always
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")  # a non-UTF-8 file name cannot crash it
    # A value quoted from the input (an id, a system name) is the user's bytes: an escape
    # sequence in it would drive the terminal (recolour, move the cursor, retitle the window)
    # and a carriage return would overwrite the line; shown as \x1b, \r instead.
    message = _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", message)
    if len(message) > MAX_MESSAGE_CHARS:  # a 900,000-character id quoted whole made one line of a megabyte
        head, tail = MAX_MESSAGE_CHARS * 3 // 4, MAX_MESSAGE_CHARS // 4  # where it is, and what to do
        cut = len(message) - head - tail
        message = f"{message[:head]} … ({cut:,} characters left out) … {message[-tail:]}"
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]factcov: error:[/] {escape(message)}")


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM unwinds like an exception, so staging directories are removed and the lock released."""
    from factcov.errors import Terminated, ask_to_stop

    ask_to_stop(128 + signum)
    raise Terminated(128 + signum)


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C, told apart from a plugin's own KeyboardInterrupt (which only skips the plugin)."""
    from factcov.errors import Interrupted, ask_to_stop

    ask_to_stop(130)
    raise Interrupted()


def main() -> None:
    import signal

    from factcov import collector

    collector.fewer_collections_for_the_process()
    _one_blas_thread()

    signal.signal(signal.SIGTERM, _terminated)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where the shell ignores it (`&`)
        signal.signal(signal.SIGINT, _interrupted)
    code = run()
    from factcov.errors import stop_asked

    asked = stop_asked()
    if asked is not None and code != asked:  # the signal's exception was swallowed somewhere
        _print_error("interrupted; outputs already in place are unchanged")
        code = asked
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        code = 141
    collector.leave_to_exit()
    sys.exit(code)


# The variables OpenBLAS reads its thread count from, in its order: a user's own wins.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _one_blas_thread() -> None:
    """OpenBLAS (numpy's) with one thread, unless the user chose a count. Its threads
    start when numpy is imported and busy-wait for work a while before they sleep (~0.03 s
    of CPU per process on two cores, more on more), while the matrices a command gives it
    are a few systems wide (rank correlations, bootstrap quantiles): a second thread never
    speeds them up. Set before numpy is imported (it is imported by the command, not here),
    so it holds for this process and what it starts (``--jobs`` workers)."""
    if not any(name in os.environ for name in BLAS_THREAD_VARIABLES):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
