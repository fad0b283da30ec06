"""Which installed plugin an unexpected error came from, so the one line names it.

An exception raised inside a third-party plugin (its extractor, oracle or realizer)
reaches the command line as an internal error; "report it" should go to that plugin's
authors, with the file and line to look at, not to factcov's.
"""

from __future__ import annotations

import re
import traceback

from factcov.plugins import DEFAULT_PLUGINS, pm


def plugin_packages() -> dict[str, str]:
    """Top-level package -> plugin name, for the third-party plugins registered."""
    packages = {}
    for name, module in pm.list_name_plugin():
        if name in DEFAULT_PLUGINS:
            continue
        package = getattr(module, "__name__", "").split(".")[0]
        if package and package != "factcov":
            packages[package] = name
    return packages


def plugin_origin(error: BaseException) -> str | None:
    """``"plugin 'football' (factcov_football/extractor.py:106, in extract)"`` for the
    innermost frame of a third-party plugin in the error's traceback, or None.

    A worker process's error (``--jobs``) carries its traceback as text in ``__cause__``."""
    packages = plugin_packages()
    if not packages:
        return None
    frames = [(frame.filename, frame.lineno, frame.name) for frame in traceback.extract_tb(error.__traceback__)]
    remote = str(error.__cause__) if error.__cause__ is not None else ""
    frames += [(path, int(line), where) for path, line, where in re.findall(r'File "([^"]+)", line (\d+), in (\S+)', remote)]
    for path, line, where in reversed(frames):
        parts = path.replace("\\", "/").split("/")
        for package, plugin in packages.items():
            if package in parts[:-1] or parts[-1] == f"{package}.py":  # a package, or a one-file module
                inside = "/".join(parts[parts.index(package):]) if package in parts[:-1] else parts[-1]
                return f"plugin '{plugin}' ({inside}:{line}, in {where})"
    return None


def describe_unexpected(error: BaseException) -> str:
    """The one line of an unexpected error: where it came from, then what to do."""
    notes = "".join(f" ({note})" for note in getattr(error, "__notes__", ()))
    head = f"{type(error).__name__}: {error}"[:400] + notes
    origin = plugin_origin(error)
    if origin is not None:
        return (f"error in {origin}: {head}; the plugin failed on this input: check the instance against what "
                "the plugin expects, or rerun with FACTCOV_DEBUG=1 for the traceback and report it to the plugin's "
                "authors")
    return f"internal error: {head}; rerun with FACTCOV_DEBUG=1 for the traceback and report it"
