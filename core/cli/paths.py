"""Output paths checked before any command runs: an output never destroys an input or a device.

Every command writes its file outputs by renaming a temporary file over the destination
(``factcov.jsonl.atomic_path``). Renamed over one of the command's own inputs
(``extract -i x.jsonl -o x.jsonl``), the input is gone; renamed over a device or a
pipe (``-o /dev/stdout``, ``-o /dev/full``) the device node itself is replaced by a
regular file (as root, for every later user of the machine). An empty ``-o ''`` means the
current directory to ``pathlib``, into which ``score`` would then write. These checks
run once, on the parsed command line of every command, plugin commands included: an
option spelled ``--out``/``--output`` (or ``--write-gold``, ``--nws-generations``) is an
output, any other option or argument holding a path is an input.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from factcov.errors import InputError

OUTPUT_OPTIONS = frozenset({"--out", "--output", "--write-gold", "--nws-generations"})
# Where a rename replaces what the system itself provides (/dev/shm is an ordinary tmpfs).
SYSTEM_TREES = (Path("/dev"), Path("/proc"), Path("/sys"))
WRITABLE_UNDER_SYSTEM_TREES = (Path("/dev/shm"),)


def check_command_line(command: Any, args: list[str]) -> None:
    """Refuse (exit 2) an output path that is empty, a device/pipe/socket, under /dev,
    /proc or /sys, or the same file as one of the command's inputs. Parsing problems are
    left to the real parse, which names them."""
    context = _subcommand_context(command, args)
    if context is None:
        return
    command_path = context.command_path
    spellings = {param.name: _spelling(param) for param in context.command.params}
    output_names = {name for name, option in spellings.items() if option in OUTPUT_OPTIONS}
    _check_not_empty(context, args, output_names, spellings)
    values = list(_path_values(context.params, output_names))
    outputs = [(name, value) for name, value in values if name in output_names]
    inputs = [value for name, value in values if name not in output_names]
    written: dict[Path, str] = {}
    for name, value in outputs:
        option = spellings[name]
        text = os.fspath(value)
        _check_utf8_name(text, option, command_path)
        _check_not_a_system_path(Path(text), option, command_path)
        target = _absolute(Path(text))
        if target in written and written[target] != option:
            raise InputError(f"{command_path}: {option} and {written[target]} name the same file; the second "
                             "write would replace the first, so give each its own path", path=text)
        written[target] = option
        _check_not_a_run_file(Path(text), option, command_path)
        for source in inputs:
            if _same_file(Path(text), Path(os.fspath(source))):
                raise InputError(
                    f"{command_path}: {option} is also an input of this command; writing it would "
                    "destroy the input, so choose another output", path=text)


def _check_not_a_run_file(path: Path, option: str, command_path: str) -> None:
    """An output onto a file of a scored run (``report OUT -o OUT/summary.json``, ``-o
    OUT/scores.parquet``) replaced the run's data, which its manifest then no longer
    matched. Only ``report`` may rewrite a run's ``report.html`` (a view, not data)."""
    from factcov.outdir import MANIFEST, RUN_OUTPUTS, listed_files

    folder = _absolute(path).parent
    if not (folder / MANIFEST).is_file() and not any((folder / name).is_file() for name in RUN_OUTPUTS):
        return
    if path.name == "report.html" and command_path.split()[-1] == "report":
        return
    if path.name in RUN_OUTPUTS or path.name in listed_files(folder):
        raise InputError(f"{command_path}: {option} names {path.name} of the scored run in {folder}; writing it "
                         "would replace the run's own data, so choose a path outside the run", path=path)


def _check_utf8_name(text: str, option: str, command_path: str) -> None:
    """An output whose name is not UTF-8 (bytes the shell passed through, held as lone
    surrogates) cannot be handed to Parquet or written into summary.json: it was an
    internal error after the whole run had been scored."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise InputError(f"{command_path}: {option} is not a UTF-8 name; choose a name in UTF-8", path=shown) from None


def _absolute(path: Path) -> Path:
    """The path with its folders' links resolved (the last part kept: it may not exist yet)."""
    try:
        return path.absolute().parent.resolve() / path.name
    except (OSError, RuntimeError):
        return path.absolute()


def _check_not_a_system_path(path: Path, option: str, command_path: str) -> None:
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        mode = None  # not there yet (the usual case), or unreachable: the command's own write names it
    special = mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):  # a symlink loop: the command's own open names it
        resolved = path.absolute()
    absolute = path.absolute()
    in_system_tree = any(_under(p, SYSTEM_TREES) and not _under(p, WRITABLE_UNDER_SYSTEM_TREES)
                         for p in (absolute, resolved))
    if special or in_system_tree:
        raise InputError(
            f"{command_path}: {option} must be a regular file or folder, not a device, pipe or system "
            "path: the output is written by renaming a new file over it (for standard output, leave -o out "
            "where the command allows it)", path=path)


def _under(path: Path, trees: tuple[Path, ...]) -> bool:
    return any(path == tree or tree in path.parents for tree in trees)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _spelling(param: Any) -> str:
    """The option's long name (``--out``), or the argument's name."""
    opts = [opt for opt in getattr(param, "opts", []) if opt.startswith("--")]
    output = [opt for opt in opts if opt in OUTPUT_OPTIONS]
    return (output or opts or [str(param.name)])[0]


def _check_not_empty(context: Any, args: list[str], output_names: set[str], spellings: dict[str, str]) -> None:
    """``-o ''`` (a path option to Path('') is '.', the current directory): refused as written."""
    flags = {opt: param.name for param in context.command.params if param.name in output_names
             for opt in getattr(param, "opts", [])}
    for index, token in enumerate(args):
        name, eq, value = token.partition("=")
        if token in flags and index + 1 < len(args):
            name, value = token, args[index + 1]
        elif not (eq and name in flags and name.startswith("--")):
            continue
        if not value.strip():
            raise InputError(f"{context.command_path}: {spellings[flags[name]]} is empty; name a file or folder to write")


def _subcommand_context(command: Any, args: list[str]) -> Any:
    """The parsed context of the subcommand the args name (callbacks not run), or None."""
    try:
        context = command.make_context("factcov", list(args), resilient_parsing=True)
        while getattr(context.command, "commands", None) is not None:
            rest = [*getattr(context, "_protected_args", getattr(context, "protected_args", [])), *context.args]
            if not rest:
                return None
            name, sub, remaining = context.command.resolve_command(context, rest)
            if sub is None:
                return None
            context = sub.make_context(name, remaining, parent=context, resilient_parsing=True)
    except Exception:  # a usage error: the real parse reports it with its own message
        return None
    return context


def _path_values(params: dict[str, Any], output_names: set[str]) -> Iterator[tuple[str, Any]]:
    for name, value in params.items():
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, os.PathLike) or (isinstance(item, str) and name in output_names):
                yield name, item
