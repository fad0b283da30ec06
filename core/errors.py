"""Every error a user of factcov can see.

The CLI prints ``str(error)`` on one line and exits with ``error.exit_code``; no
traceback reaches the user. Messages say what went wrong *and* what to do next.

Exit codes: 0 ok; 1 only a failed ``--fail-under`` gate; 2 bad input or usage; 3 the
environment (disk, network, a busy OUTDIR) or an internal error; 130 interrupted.
"""

from __future__ import annotations

import re
from pathlib import Path


class FactcovError(Exception):
    """Base class: an error the user can act on."""

    exit_code = 2


class InputError(FactcovError):
    """Bad input data: names the file, the line and the field when known."""

    def __init__(
        self,
        message: str,
        *,
        path: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.field = field
        self.message = message
        super().__init__(self._render())

    def _render(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        field = f"field '{self.field}': " if self.field else ""
        return f"{where}{field}{self.message}"


class UnknownNameError(FactcovError):
    """A domain, extractor, claim type, language or metric name that is not registered."""

    def __init__(self, kind: str, name: str, available: list[str] | tuple[str, ...]) -> None:
        self.kind = kind
        self.name = name
        self.available = sorted(available)
        choices = ", ".join(self.available) if self.available else "(none registered)"
        # "extractor for domain 'f1'" + "x" reads "unknown extractor 'x' for domain 'f1'":
        # the name right after what it names, the qualifier after it.
        noun, qualifier = _split_kind(kind)
        super().__init__(f"unknown {noun} '{name}'{qualifier}; available: {choices}")


def _split_kind(kind: str) -> tuple[str, str]:
    """``"option of extractor 'x' (-X)"`` -> ``("option", " of extractor 'x' (-X)")``."""
    match = re.match(r"(.+?)( (?:of|for|in) .+)$", kind)
    return (match.group(1), match.group(2)) if match else (kind, "")


class PluginError(FactcovError):
    """A plugin that cannot load, or two plugins registering the same name."""


class ModelNotFoundError(FactcovError):
    """An NLP model (spaCy pipeline, stanza model) that is not installed."""


class GateFailed(FactcovError):
    """A ``--fail-under`` gate: the run worked, a metric was below its threshold."""

    exit_code = 1


class EnvironmentFailure(FactcovError):
    """The machine, not the input: a full or read-only disk, the network, a missing resource.

    Exit code 3, distinct from bad input (2) and a failed gate (1).
    """

    exit_code = 3

    def __init__(self, message: str, *, path: str | Path | None = None) -> None:
        self.path = str(path) if path is not None else None
        super().__init__(f"{self.path}: {message}" if self.path else message)


class ExtractionFailed(EnvironmentFailure):
    """An extractor could not read one text (a model server's answer that is not the
    JSON asked for, too large, too slow). The text counts as an extraction failure."""


class OutdirBusy(EnvironmentFailure):
    """Another run holds the lock of the OUTDIR this run would write."""


class LimitExceeded(InputError):
    """An input past a documented limit (text length, line length, bootstrap resamples)."""


class Terminated(SystemExit):
    """SIGTERM (exit 143) arrived: it unwinds like an error, and no ``except BaseException``
    that shields factcov from a plugin (an import, a hook) may swallow it."""


class Interrupted(KeyboardInterrupt):
    """SIGINT (Ctrl-C; exit 130) arrived, as told apart from a plugin raising KeyboardInterrupt."""


# What a signal raises; code that catches everything to survive a broken plugin re-raises these.
SIGNALLED = (Terminated, Interrupted)

# The exit code of a signal that asked this process to stop, remembered by the handler as well
# as raised: Python prints and drops an exception raised inside a weakref callback or
# ``__del__`` (an import lock's, say), and the work would go on to commit. Commit points ask
# ``raise_if_stop_asked`` before replacing anything, and the command's exit code follows it.
_stop_asked: int | None = None


def ask_to_stop(code: int) -> None:
    global _stop_asked
    _stop_asked = code


def stop_asked() -> int | None:
    return _stop_asked


def raise_if_stop_asked() -> None:
    """Raise what the signal raised, if one arrived (even if its exception was swallowed)."""
    if _stop_asked is None:
        return
    raise Interrupted() if _stop_asked == 130 else Terminated(_stop_asked)
