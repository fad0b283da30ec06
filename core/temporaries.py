"""Temporary files and staging directories that only factcov removes, and only its own.

A run writes beside its destination (``.NAME.factcov-TAG-PID-XXXXXXXX.tmp``, a staging
directory ``.NAME.staging-factcov-TAG-PID-XXXXXXXX`` holding a ``.factcov-staging``
marker) and holds an ``flock`` on the temporary file or the marker while it lives. A
killed run cannot remove them, so the next write into the same folder sweeps them. The
sweep deletes an entry only when all of these hold:

- its name has the exact shape above (a user's ``.notes.2023.jan.tmp`` or
  ``.out.staging-4000000-keep`` has not);
- a staging directory holds the marker file, and is not a mount point;
- ``TAG`` is this process's writer tag: a digest of the boot id and the PID namespace. A
  PID says nothing about a process in another PID namespace (a second container on a
  shared volume) or on another machine, so their temporaries are never judged by it;
- no process holds the entry's lock (the lock follows the open file, whatever namespace
  holds it) and the PID is not running.

Removal never crosses into another file system (a mount inside a staging directory is
left as it is). Names stay short for long destinations: a name past ``LONG_NAME`` bytes is
replaced by a digest of itself, so a legal 255-byte name still leaves room for the rest.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import stat
import tempfile
from functools import cache
from pathlib import Path

MARKER = ".factcov-staging"
# A destination name longer than this is shown in temporary names by its digest (255 is the limit).
LONG_NAME = 96
_RANDOM = r"[a-z0-9_]{8}"  # what tempfile adds
TEMP_FILE = re.compile(rf"^\.(?P<name>.+)\.factcov-(?P<tag>[0-9a-f]{{10}})-(?P<pid>\d+)-{_RANDOM}\.tmp$")
STAGING = re.compile(rf"^\.(?P<name>.+)\.staging-factcov-(?P<tag>[0-9a-f]{{10}})-(?P<pid>\d+)-{_RANDOM}$")
INNER_STAGING = re.compile(rf"^\.staging-factcov-(?P<tag>[0-9a-f]{{10}})-(?P<pid>\d+)-{_RANDOM}$")


@cache
def writer_tag() -> str:
    """Who may judge our PIDs: the same kernel boot and the same PID namespace."""
    parts = []
    for source in ("/proc/sys/kernel/random/boot_id",):
        with contextlib.suppress(OSError):
            parts.append(Path(source).read_text(encoding="ascii").strip())
    with contextlib.suppress(OSError):
        namespace = os.stat("/proc/self/ns/pid")
        parts.append(f"{namespace.st_dev}:{namespace.st_ino}")
    if len(parts) < 2:  # no /proc: the host name at least tells machines apart
        parts.append(os.uname().nodename)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:10]


def short_name(name: str) -> str:
    """``name``, or its digest when it is too long to carry a temporary's prefix and suffix."""
    if len(os.fsencode(name)) <= LONG_NAME:
        return name
    return "h" + hashlib.sha256(os.fsencode(name)).hexdigest()[:20]


def temp_prefix(destination_name: str) -> str:
    return f".{short_name(destination_name)}.factcov-{writer_tag()}-{os.getpid()}-"


def staging_prefix(outdir_name: str | None) -> str:
    """The prefix of a staging directory beside OUTDIR (``outdir_name``) or inside it (None)."""
    head = "" if outdir_name is None else f".{short_name(outdir_name)}"
    return f"{head}.staging-factcov-{writer_tag()}-{os.getpid()}-"


def hold(fd: int) -> None:
    """Take the lock that tells every sweeper, in any namespace, that this entry is alive."""
    fcntl.flock(fd, fcntl.LOCK_EX)


def make_staging(folder: Path, outdir_name: str | None) -> tuple[Path, int]:
    """A staging directory with its marker; returns it and the marker's open, locked fd
    (keep it open while the directory is in use; closing it releases the lock)."""
    staging = Path(tempfile.mkdtemp(prefix=staging_prefix(outdir_name), dir=folder))
    try:
        return staging, mark(staging)
    except BaseException:
        os.rmdir(staging)
        raise


def mark(folder: Path) -> int:
    """Write this process's marker into ``folder``; returns its open, locked fd."""
    fd = os.open(folder / MARKER, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        hold(fd)
        os.write(fd, json.dumps({"tag": writer_tag(), "pid": os.getpid()}).encode() + b"\n")
    except BaseException:
        os.close(fd)
        os.unlink(folder / MARKER)
        raise
    return fd


def remove_stray_marker(folder: Path) -> None:
    """A marker left in OUTDIR by a run killed around its exchange (the caller holds
    OUTDIR's lock, so no live run owns it)."""
    marker = folder / MARKER
    try:
        with open(marker, "rb", opener=lambda p, f: os.open(p, f | os.O_NOFOLLOW | os.O_NONBLOCK)) as handle:
            written = json.loads(handle.read(4096))
    except (OSError, ValueError):
        return
    if isinstance(written, dict) and set(written) == {"tag", "pid"} and _lock_is_free(str(marker)):
        with contextlib.suppress(OSError):
            os.unlink(marker)


def pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _lock_is_free(path: str) -> bool:
    """True when no process holds the entry's lock (the probe's own lock is released at once)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True
    finally:
        os.close(fd)


def _provably_ours_and_dead(match: re.Match[str]) -> bool:
    return match["tag"] == writer_tag() and not pid_alive(int(match["pid"]))


def sweep(folder: Path, name: str | None = None) -> int:
    """Remove what killed factcov runs left in ``folder`` (see the module's rules).

    ``name`` limits the sweep of staging directories beside an OUTDIR to that OUTDIR's."""
    removed = 0
    try:
        entries = list(os.scandir(folder))
        folder_device = os.stat(folder).st_dev
    except OSError:
        return 0
    for entry in entries:
        with contextlib.suppress(OSError):
            if (match := TEMP_FILE.match(entry.name)) is not None:
                if entry.is_file(follow_symlinks=False) and _provably_ours_and_dead(match) and _lock_is_free(entry.path):
                    os.unlink(entry.path)
                    removed += 1
                continue
            match = STAGING.match(entry.name) or INNER_STAGING.match(entry.name)
            if match is None or (name is not None and match.groupdict().get("name") not in (None, short_name(name))):
                continue
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_dev != folder_device:
                continue  # not a directory of this file system: a mount point is never entered
            marker = os.path.join(entry.path, MARKER)
            if _provably_ours_and_dead(match) and _marker_names(marker, match) and _lock_is_free(marker):
                remove_tree(Path(entry.path))
                removed += 1
    return removed


def _marker_names(marker: str, match: re.Match[str]) -> bool:
    try:
        with open(marker, "rb", opener=lambda p, f: os.open(p, f | os.O_NOFOLLOW | os.O_NONBLOCK)) as handle:
            written = json.loads(handle.read(4096))
        return written == {"tag": match["tag"], "pid": int(match["pid"])}
    except (OSError, ValueError):
        return False


def remove_tree(path: Path) -> None:
    """``rm -r`` that stays on ``path``'s file system: a mount below it (and what it holds)
    is left in place, and so are the folders holding it."""
    try:
        device = os.stat(path, follow_symlinks=False).st_dev
    except OSError:
        return
    _remove_below(str(path), device, frozenset(_mount_points()))
    with contextlib.suppress(OSError):
        os.rmdir(path)


def _remove_below(path: str, device: int, mounts: frozenset[str]) -> None:
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for entry in entries:
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                if entry.stat(follow_symlinks=False).st_dev != device or os.path.realpath(entry.path) in mounts:
                    continue
                _remove_below(entry.path, device, mounts)
                os.rmdir(entry.path)
            else:
                os.unlink(entry.path)


def _mount_points() -> list[str]:
    """Every mount point this process sees (``/proc/self/mountinfo``; empty without /proc)."""
    try:
        text = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return []
    points = []
    for line in text.splitlines():
        fields = line.split(" ")
        if len(fields) > 4:  # octal escapes (\040 for a space) as the kernel writes them
            points.append(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), fields[4]))
    return points


def is_mount_point(path: Path) -> bool:
    """A mount point, bind mounts of the same file system included (``os.path.ismount`` misses those)."""
    try:
        if os.path.ismount(path):
            return True
        resolved = os.path.realpath(path)
    except OSError:
        return False
    return resolved in _mount_points()


def mounts_within(path: Path) -> list[str]:
    """Mount points at or below ``path``."""
    resolved = os.path.realpath(path)
    inside = [p for p in _mount_points() if p == resolved or p.startswith(resolved.rstrip("/") + "/")]
    if not inside and os.path.ismount(path):
        inside.append(resolved)
    return inside
