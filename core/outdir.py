"""An output directory that changes all at once, or not at all, and one run at a time.

``transaction(OUTDIR)`` takes a lock on OUTDIR (a second run into it fails at once with
``OutdirBusy``), yields a fresh staging directory beside it, and when the block ends
without an error writes ``manifest.json`` (every file's size and SHA-256) into the
staging directory and swaps it with OUTDIR in one ``renameat2(RENAME_EXCHANGE)``. A run
that fails or is killed before that call leaves OUTDIR exactly as it was; its staging
directory is removed by the next run into the same OUTDIR (its process is gone).

Where the atomic exchange is impossible (a file system without it, an OUTDIR that is the
current directory or holds it, a parent directory we may not write) the files are staged
inside OUTDIR and renamed in one by one, the old manifest removed first and the new one
written last: a reader then sees a complete set or no manifest, never a silent mix.

Readers (``compare``, ``report``, ``validate``) call ``verify`` before trusting a run.
Files in OUTDIR that are not ours (a user's notes) are carried over by hard link.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from factcov import temporaries
from factcov.errors import EnvironmentFailure, InputError, OutdirBusy, raise_if_stop_asked

MANIFEST = "manifest.json"
# What a scoring run writes; an older copy is never carried into a new run.
RUN_OUTPUTS = ("claims.parquet", "scores.parquet", "systems.csv", "summary.json", "report.html", MANIFEST)
# Files a reader relies on; report.html may be rewritten by `factcov report -o OUTDIR/report.html`.
_VERIFIED_EXEMPT = {"report.html"}
_RENAME_EXCHANGE = 2


def umask() -> int:
    """The process umask (read by setting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def apply_umask(path: Path, directory: bool = False) -> None:
    """Give a temp file or directory (created 0600/0700) the mode a plain create would have."""
    os.chmod(path, (0o777 if directory else 0o666) & ~umask())


def sweep_temporaries(folder: Path, name: str | None = None) -> int:
    """Remove what killed factcov runs provably left in ``folder`` (``factcov.temporaries.sweep``).

    ``name`` limits the sweep of sibling staging directories to one OUTDIR's.
    """
    return temporaries.sweep(folder, name)


def check_output_dir(path: Path) -> Path:
    """An OUTDIR path that can be a directory: not an existing file, not under one."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise InputError("output exists and is not a directory", path=path)
    check_no_file_above(path)
    return path


def check_no_file_above(path: Path) -> None:
    """InputError when the nearest existing ancestor of ``path`` is a file (``-o notes.txt/out``)."""
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"cannot write under '{parent}', which is a file", path=path)
            return


@contextlib.contextmanager
def _locked(outdir: Path) -> Iterator[None]:
    """An exclusive, non-blocking flock on OUTDIR itself (released when the process dies)."""
    for _ in range(5):
        fd = os.open(outdir, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutdirBusy(
                "another factcov run is writing this OUTDIR; wait for it or choose another --out", path=outdir
            ) from None
        # The directory may have been swapped between open and flock: lock what the path names now.
        if os.fstat(fd).st_ino == os.stat(outdir).st_ino:
            break
        os.close(fd)
    else:  # pragma: no cover - five swaps in a row
        raise OutdirBusy("OUTDIR keeps changing under us; is another run writing it?", path=outdir)
    try:
        yield
    finally:
        os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2); False when this system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EBUSY):  # a mount point
        return False
    raise OSError(code, os.strerror(code), str(b))


def _holds_cwd(outdir: Path) -> bool:
    try:
        cwd = Path.cwd().resolve()
    except OSError:
        return False
    resolved = outdir.resolve()
    return cwd == resolved or resolved in cwd.parents


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# Digests already computed in this process, by what identifies a file's bytes: device,
# inode, size, and the modification and status-change times in nanoseconds. A write
# changes mtime and ctime, and ctime cannot be set back (``os.utime`` restoring mtime
# moves it), so a changed file is hashed again; an unchanged one is not, however often it
# is read (a run's manifest, then the report reading the run, then compare). Renaming
# a run's staging directory into place changes none of them.
DIGEST_CACHE_SIZE = 1024
_digests: dict[tuple[int, int, int, int, int], str] = {}


def file_digest(path: Path, stat: os.stat_result | None = None) -> str:
    """SHA-256 of a file, computed once per version of the file in this process."""
    stat = stat or path.stat()
    key = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    digest = _digests.get(key)
    if digest is None:
        digest = _sha256(path)
        if len(_digests) >= DIGEST_CACHE_SIZE:
            _digests.pop(next(iter(_digests)))
        after = path.stat()  # a file written while it was read is not remembered
        if (after.st_size, after.st_mtime_ns, after.st_ctime_ns) == key[2:]:
            _digests[key] = digest
    return digest


def write_manifest(folder: Path) -> None:
    """``manifest.json``: size and SHA-256 of every file of the run, written last."""
    files = {
        entry.name: {"bytes": entry.stat().st_size, "sha256": file_digest(Path(entry.path), entry.stat())}
        for entry in sorted(os.scandir(folder), key=lambda e: e.name)
        if entry.is_file() and entry.name not in (MANIFEST, temporaries.MARKER)
        and not temporaries.TEMP_FILE.match(entry.name)
    }
    path = folder / MANIFEST
    path.write_text(json.dumps({"files": files}, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    apply_umask(path)


def listed_files(outdir: Path) -> set[str]:
    """The names OUTDIR's manifest lists (none when it has no readable manifest)."""
    try:
        files = json.loads((Path(outdir) / MANIFEST).read_text(encoding="utf-8"))["files"]
        return {str(name) for name in files}
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return set()


def verify(outdir: Path) -> None:
    """InputError unless OUTDIR holds a complete run whose files match its manifest."""
    outdir = Path(outdir)
    path = outdir / MANIFEST
    if not path.is_file():
        raise InputError(
            f"no {MANIFEST}: the run did not finish (or was written by an older factcov); re-run `factcov score`",
            path=outdir,
        )
    try:
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
        listed = {str(name): (int(meta["bytes"]), str(meta["sha256"])) for name, meta in files.items()}
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise InputError("damaged manifest; re-run `factcov score`", path=path) from None
    for name, (size, digest) in listed.items():
        if name in _VERIFIED_EXEMPT:
            continue
        member = outdir / name
        if not member.is_file():
            raise InputError(f"missing {name} listed in {MANIFEST}; re-run `factcov score`", path=member)
        stat = member.stat()
        if stat.st_size != size or file_digest(member, stat) != digest:
            raise InputError(
                f"{name} does not match {MANIFEST} (changed or half-written); re-run `factcov score`", path=member
            )


def _carry_over(old: Path, new: Path, outputs: tuple[str, ...]) -> None:
    """Hard-link what a user keeps in OUTDIR (anything not a run output) into the new one."""
    for entry in os.scandir(old):
        # a live writer's temporary (`report -o OUTDIR/report.html` meanwhile) is carried like a user's
        # file: the hard link is the inode it writes and then renames; dead ones were swept already
        if entry.name in outputs or entry.name == temporaries.MARKER or temporaries.INNER_STAGING.match(entry.name):
            continue
        target = new / entry.name
        if entry.is_symlink():
            os.symlink(os.readlink(entry.path), target)
        elif entry.is_dir():
            shutil.copytree(entry.path, target, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry.path, target)


def _link_or_copy(source: str, target: str | Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _fault(step: str) -> None:
    """Test hook: FACTCOV_FAULT=STEP kills this process with SIGKILL at that step;
    FACTCOV_FAULT=sleep:STEP holds it there for a minute (to send it a signal)."""
    wanted = os.environ.get("FACTCOV_FAULT")
    if wanted == step:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)
    elif wanted == f"sleep:{step}":
        import time

        time.sleep(60)


fault = _fault


class RunDirectory:
    """OUTDIR opened for one run: locked, with a staging directory to write into.

    ``commit()`` makes the staging directory OUTDIR; ``close()`` (always) unlocks and
    removes what is left of staging. Use ``transaction`` where a ``with`` block fits.

    The staging directory sits beside OUTDIR, to be exchanged with it in one call, unless
    OUTDIR is a mount point or holds one (a volume at OUT, a tmpfs at OUT/data): the
    exchange cannot move a mount point, and moving a folder that holds one would carry the
    mount under the staging name, where removing the old run would delete inside it. Then
    the staging directory is made inside OUTDIR, on OUTDIR's own file system, and the
    files are renamed in one by one (the previous run stays whole until the new one is
    complete; see ``_commit_in_place``).
    """

    def __init__(self, outdir: str | Path, outputs: tuple[str, ...] = RUN_OUTPUTS) -> None:
        self.outputs = (*outputs, MANIFEST)
        self.outdir = check_output_dir(Path(outdir))
        if self.outdir.is_symlink():  # swap the directory it points to; the user's link stays a link
            self.outdir = self.outdir.resolve()
        self._created = not self.outdir.exists()  # a run that fails removes the OUTDIR it made
        self.outdir.mkdir(parents=True, exist_ok=True)
        if not os.access(self.outdir, os.W_OK):  # a read-only OUTDIR is kept, not swapped for a writable one
            raise EnvironmentFailure("OUTDIR is not writable (read-only); nothing was changed", path=self.outdir)
        self._lock = _locked(self.outdir)
        self._lock.__enter__()
        self._marker_fds: list[int] = []
        self.staging: Path | None = None
        try:
            temporaries.remove_stray_marker(self.outdir)
            sweep_temporaries(self.outdir.parent, self.outdir.name)
            sweep_temporaries(self.outdir)
            self._sibling = not _holds_cwd(self.outdir) and not temporaries.mounts_within(self.outdir)
            self.committed = False
            self.staging = self._make_staging()
        except BaseException:  # SIGTERM may land between mkdtemp and the assignment
            self._remove_own_staging()
            self._release_markers()
            self._lock.__exit__(None, None, None)
            raise

    def _make_staging(self) -> Path:
        staging = None
        if self._sibling:
            try:
                staging, fd = temporaries.make_staging(self.outdir.parent, self.outdir.name)
                self._marker_fds.append(fd)
            except PermissionError:
                self._sibling = False
        if staging is None:
            staging, fd = temporaries.make_staging(self.outdir, None)
            self._marker_fds.append(fd)
        apply_umask(staging, directory=True)
        return staging

    def commit(self) -> None:
        assert self.staging is not None
        _fault("before-manifest")
        write_manifest(self.staging)
        _fault("before-commit")
        raise_if_stop_asked()  # a signal whose exception was swallowed still keeps the old run
        if self._sibling:  # the old run, once swapped out under the staging name, is marked as ours too
            self._marker_fds.append(temporaries.mark(self.outdir))
        if self._sibling and _commit_by_exchange(self.staging, self.outdir, self.outputs):
            self.committed = True
            with contextlib.suppress(FileNotFoundError):  # the staging's marker, now in OUTDIR
                os.unlink(self.outdir / temporaries.MARKER)
        else:
            staging = self.staging
            if self._sibling:  # the exchange was refused: stage again inside OUTDIR, on its file system
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.outdir / temporaries.MARKER)
                staging = self._restage_inside()
            _commit_in_place(staging, self.outdir, self.outputs)
            self.committed = True
        _fault("after-commit")

    def _restage_inside(self) -> Path:
        inner, fd = temporaries.make_staging(self.outdir, None)
        apply_umask(inner, directory=True)
        self._marker_fds.append(fd)
        old, self.staging = self.staging, inner
        assert old is not None
        for name in self.outputs:
            if (old / name).exists():
                shutil.move(old / name, inner / name)  # a copy when OUTDIR is another file system
        temporaries.remove_tree(old)
        return inner

    def close(self) -> None:
        try:
            if self.staging is not None:
                temporaries.remove_tree(self.staging)
            self._remove_own_staging()
            if self._created and not self.committed:
                with contextlib.suppress(OSError):  # only if still empty: nothing of anyone's is removed
                    self.outdir.rmdir()
        finally:
            self._release_markers()
            self._lock.__exit__(None, None, None)

    def _release_markers(self) -> None:
        while self._marker_fds:
            os.close(self._marker_fds.pop())

    def _remove_own_staging(self) -> None:
        """Every staging directory this process made for this OUTDIR, tracked or not."""
        for folder, prefix in ((self.outdir.parent, temporaries.staging_prefix(self.outdir.name)),
                               (self.outdir, temporaries.staging_prefix(None))):
            with contextlib.suppress(OSError):
                for entry in os.scandir(folder):
                    if entry.name.startswith(prefix) and entry.is_dir(follow_symlinks=False):
                        temporaries.remove_tree(Path(entry.path))


@contextlib.contextmanager
def transaction(outdir: str | Path, outputs: tuple[str, ...] = RUN_OUTPUTS) -> Iterator[Path]:
    """Lock OUTDIR, yield a staging directory, and on success make it OUTDIR in one step.

    ``outputs``: the names a run writes; older copies of them are never carried over."""
    run = RunDirectory(outdir, outputs)
    try:
        assert run.staging is not None
        yield run.staging
        run.commit()
    finally:
        run.close()


def _commit_by_exchange(staging: Path, outdir: Path, outputs: tuple[str, ...]) -> bool:
    _carry_over(outdir, staging, outputs)
    if _exchange(staging, outdir):
        return True  # staging now holds the old run; the caller removes it
    for entry in os.scandir(staging):  # undo the carry-over before staging inside OUTDIR
        if entry.name not in outputs:
            with contextlib.suppress(OSError):
                temporaries.remove_tree(Path(entry.path)) if entry.is_dir(follow_symlinks=False) else os.unlink(entry.path)
    return False


def _commit_in_place(staging: Path, outdir: Path, outputs: tuple[str, ...]) -> None:
    """Rename files in one by one: manifest out first, in last, so a reader never trusts a mix.

    Every rename is checked possible first (staging on OUTDIR's file system): a rename
    that fails with "Invalid cross-device link" after the old manifest went would leave
    the previous run unreadable."""
    if os.stat(staging).st_dev != os.stat(outdir).st_dev:
        raise EnvironmentFailure("the staging directory is not on OUTDIR's file system; nothing was changed",
                                 path=outdir)
    for name in outputs:
        target = outdir / name
        if target.is_dir() and not target.is_symlink():
            raise EnvironmentFailure(f"{name} in OUTDIR is a folder; move it away and run again; nothing was changed",
                                     path=target)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(outdir / MANIFEST)
    _fault("in-place-manifest-removed")
    for name in outputs:
        if name == MANIFEST:
            continue
        source = staging / name
        if source.exists():
            os.replace(source, outdir / name)
            _fault(f"in-place-{name}")
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(outdir / name)
    os.replace(staging / MANIFEST, outdir / MANIFEST)
