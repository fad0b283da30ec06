"""``compile_fast``'s programs kept on disk between runs (``extractors/fast_regex.py``; its
``compile_cached`` keeps ``re.compile``'s own programs the same way, and ``extractors/anchors.py``
its analyses of patterns, in a file of its own).

Writing a pattern's program means parsing the pattern again (``re._parser``) and compiling
the rewritten tree: for the f1 grammar, a few hundred patterns, tens of milliseconds of every
``factcov score`` run. The program depends only on the pattern's source and flags and on the
code that writes it: this interpreter (its version and the engine's program format,
``re._constants.MAGIC``), the source of ``re._parser``, ``re._compiler`` and of
``fast_regex`` itself. Those are the cache file's key (its name, and checked again inside
it); each entry is keyed by (source, flags).

Safe by construction: a file whose checksum or key does not match, that cannot be read or
decoded, is ignored (and rewritten); a program the engine refuses (``_sre.compile`` validates
every program) is written anew; ``fast_regex``'s feature test compiles its probe patterns
through this cache and compares their matches with plain ones, so a cache that gave other
matches would turn the programs off altogether. New entries are written at exit, atomically
(a temporary file renamed over the old one), merged with what the file held, under the
file's lock (``NAME-KEY.lock`` beside it). Each entry is kept in the file as its own
marshal bytes and decoded when a run first reads it (``Entries``): the file holds every
domain's programs (f1's few hundred, weather's, rag's), of which a run reads its own
grammar's (weather: 34 of ~500, 0.2 of 2.2 MB; decoding them all was ~10 ms of its start). The folder:
``$FACTCOV_CACHE_DIR``, else ``$XDG_CACHE_HOME/factcov``, else ``~/.cache/factcov``;
``FACTCOV_CACHE_DIR=off`` keeps nothing on disk.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import marshal
import os
import sys
import tempfile
import weakref
from pathlib import Path
from types import ModuleType
from typing import Any

from factcov.parallel import at_worker_start

CACHE_VARIABLE = "FACTCOV_CACHE_DIR"
FORMAT = 2  # this file's own layout (2: each entry its own marshal bytes)
MAX_ENTRIES = 20_000  # past this, a file keeps only the entries the last run used
MISSING = object()


def cache_dir() -> Path | None:
    """Where the caches live (None: ``FACTCOV_CACHE_DIR=off``)."""
    chosen = os.environ.get(CACHE_VARIABLE, "")
    if chosen.lower() in ("off", "0", "none"):
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "factcov"


def code_key(*modules: ModuleType, extra: str = "") -> str | None:
    """A digest of this interpreter and of the source of ``modules`` (None: a module
    without a readable source file, then nothing is cached)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{FORMAT}\0{sys.version}\0{sys.implementation.cache_tag}\0{extra}".encode())
    for module in modules:
        try:
            digest.update(Path(module.__file__ or "").read_bytes())
        except (OSError, TypeError):
            return None
    return digest.hexdigest()


class Entries(dict):
    """A cache file's entries: key -> the entry's marshal bytes, each decoded the first time it
    is read (and kept decoded); an entry set is encoded at once. ``encoded()`` is what the file
    holds. A dict of the keys: ``in``, ``len``, ``keys()`` see every entry, decoded or not."""

    def __init__(self, encoded: dict[tuple[Any, ...], bytes] | None = None) -> None:
        super().__init__(encoded or {})
        self.decoded: dict[tuple[Any, ...], Any] = {}

    def __getitem__(self, key: tuple[Any, ...]) -> Any:
        try:
            return self.decoded[key]
        except KeyError:
            entry = self.decoded[key] = marshal.loads(dict.__getitem__(self, key))
            return entry

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:  # type: ignore[override]
        return self[key] if key in self else default

    def __setitem__(self, key: tuple[Any, ...], entry: Any) -> None:
        dict.__setitem__(self, key, marshal.dumps(entry))
        self.decoded[key] = entry

    def encoded(self) -> dict[tuple[Any, ...], bytes]:
        return dict(self.items())


class ProgramCache:
    """Entries (source, flags) -> a program (marshal-able), loaded from and saved to one file.

    ``name`` (the file's prefix) lets another analysis of patterns keep its results the same
    way (``extractors/anchors.py``: "regex-anchors", entries keyed by (kind, source, flags,
    ...)); an entry's key is any tuple of marshal-able values."""

    def __init__(self, key: str | None, folder: Path | None, name: str = "regex-programs") -> None:
        self.key = key
        self.name = name
        self.path = None if key is None or folder is None else folder / f"{name}-{key}.marshal"
        self.entries = self._load()
        self.used: set[tuple[Any, ...]] = set()  # the keys this process read or added
        self.added = False
        self.dirty = False  # entries added since the file was last written by this process
        if self.path is not None:
            _OPEN.add(self)

    def _load(self) -> Entries:
        if self.path is None:
            return Entries()
        try:
            layout, key, checksum, payload = marshal.loads(self.path.read_bytes())
            if layout != FORMAT or key != self.key or checksum != hashlib.blake2b(payload, digest_size=16).digest():
                return Entries()
            entries = marshal.loads(payload)
            if not isinstance(entries, dict) or not all(type(entry) is bytes for entry in entries.values()):
                return Entries()
            return Entries(entries)
        except Exception:  # noqa: BLE001 - any damage: as if there were no file
            return Entries()

    def get(self, *key: Any) -> Any:
        """The entry of ``key`` (``MISSING`` when none)."""
        if key not in self.entries:
            return MISSING
        try:
            entry = self.entries[key]
        except Exception:  # noqa: BLE001 - an entry that does not decode: as if it were not there
            return MISSING
        self.used.add(key)
        return entry

    def put(self, *key_and_entry: Any) -> None:
        """``put(*key, entry)``: keep ``entry`` for ``key`` (written at exit)."""
        *key, entry = key_and_entry
        self.entries[tuple(key)] = entry
        self.used.add(tuple(key))
        self.dirty = True
        if not self.added and self.path is not None:
            self.added = True
            atexit.register(self.save)

    def save(self) -> None:
        """Write the entries (merged with the file's, which another process may have grown),
        atomically, holding the file's lock: processes saving at once (the workers of a
        ``--jobs`` run, as each ends) each merge with what the others wrote, none replaces it."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock = os.open(self.path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # a read-only or full disk: the next run compiles again
            return
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self._write_merged()
        finally:
            os.close(lock)  # releases the lock

    def _write_merged(self) -> None:
        entries = {**self._load().encoded(), **self.entries.encoded()}
        if len(entries) > MAX_ENTRIES:
            entries = {key: entries[key] for key in self.used}
        try:
            payload = marshal.dumps(entries)
            data = marshal.dumps((FORMAT, self.key, hashlib.blake2b(payload, digest_size=16).digest(), payload))
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.name}-")
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, self.path)
            self.dirty = False
        except (OSError, ValueError):  # a read-only or full disk: the next run compiles again
            try:
                os.unlink(temporary)  # type: ignore[possibly-undefined]
            except (OSError, NameError):
                pass


# The caches of this process that keep a file (``save_in_worker`` saves those a worker grew).
_OPEN: weakref.WeakSet[ProgramCache] = weakref.WeakSet()


@at_worker_start
def save_in_worker() -> None:
    """Called in a forked worker process as it starts (``factcov.parallel.at_worker_start``): a worker
    ends by ``os._exit``, running no ``atexit`` handler, so what it added (a race's driver
    anchors, worked out where the race is read) would be worked out again in every run.
    What it inherited is the parent's to write; what it adds is written when it ends
    (by multiprocessing's finalizers, which a worker's exit does run)."""
    from multiprocessing import util

    for cache in list(_OPEN):
        cache.dirty = False
    util.Finalize(None, _save_dirty, exitpriority=10)


def _save_dirty() -> None:
    for cache in list(_OPEN):
        if cache.dirty:
            cache.save()
