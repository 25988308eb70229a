"""The machine's cache (`~/.cache/warp_cuda_ir`) and the one atomic-write helper.

What is slow to compute and decided by its inputs alone (a package's harvest, a capture job's records,
replay verdicts, Warp's compiled kernels) is kept here, outside any output folder, so a build into a new
folder reuses it. The root honours `XDG_CACHE_HOME`; `WARP_CUDA_IR_CACHE` or `--cache-dir` move it,
`--no-cache` turns it off.

Entries live in namespaces (`harvest/`, `capture/`, `replays/`, ...) under a key that hashes everything
that decides them (package name, version and a hash of its files; Warp's version; the code version of
the stage that made them): an entry written by another version of the project is not found rather than
misread. Every write goes to a temporary file in the entry's folder and is renamed into place, so two
builds sharing the cache at once corrupt nothing (the last writer of a key wins, with the same bytes).

Bad cache folders never stop a build: an unwritable or full one gives one warning line and the build
goes on without caching; a truncated or corrupted entry (its checksum does not match) gives one warning
line and is recomputed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from warp_cuda_ir.errors import warn_once

CACHE_ENV = "WARP_CUDA_IR_CACHE"
MAGIC = b"warp_cuda_ir cache 1\n"
_DIGEST = 32  # sha256 of the payload, stored after MAGIC: a truncated or altered entry is detected


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside `path` to write to; renamed over `path` when the block ends without error,
    removed otherwise: a reader sees the old file or the new one, never half.

    The temporary file sits in the same folder (a rename is atomic only within one file system) under a
    unique name, so concurrent writers of one path do not write into each other's file.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `path` all at once (`atomic_path`)."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def default_root() -> Path:
    """`$WARP_CUDA_IR_CACHE`, else `$XDG_CACHE_HOME/warp_cuda_ir`, else `~/.cache/warp_cuda_ir`."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser().absolute()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser().absolute() / "warp_cuda_ir"


def key_of(*parts: Any) -> str:
    """A cache key: the hash of what decides an entry (JSON-able parts; anything else by its repr)."""
    text = json.dumps(parts, sort_keys=True, default=repr, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:40]


class Cache:
    """Entries of this machine's cache, or nothing at all when `root` is None (`--no-cache`).

    Picklable (workers open entries themselves); `warn` is called with one line per problem, once.
    """

    def __init__(self, root: str | os.PathLike[str] | None, warn: Callable[[str], None] = warn_once) -> None:
        self.root = Path(root).absolute() if root is not None else None
        self.warn = warn
        self._warned: set[str] = set()

    @classmethod
    def from_options(cls, cache_dir: str | os.PathLike[str] | None = None, no_cache: bool = False) -> Cache:
        if no_cache:
            return cls(None)
        cache = cls(Path(cache_dir).expanduser() if cache_dir else default_root())
        cache.probe()
        return cache

    def probe(self) -> None:
        """Turn the cache off, with its one warning line, when its root cannot be written: before workers
        get a copy, which would each find every entry unreadable on their own (one line per entry)."""
        if self.root is None:
            return
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            tempfile.NamedTemporaryFile(dir=self.root, prefix=".probe.").close()
        except OSError as e:
            self._unusable(e)

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def __getstate__(self) -> dict[str, Any]:
        return {"root": self.root}  # a worker warns on its own stderr

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.root, self.warn, self._warned = state["root"], warn_once, set()

    def _once(self, line: str) -> None:
        if line not in self._warned:
            self._warned.add(line)
            self.warn(line)

    def path(self, namespace: str, key: str) -> Path | None:
        return self.root / namespace / key[:2] / key if self.root is not None else None

    def folder(self, namespace: str) -> Path | None:
        """A folder of the cache for a tool that keeps its own files there (Warp's kernel cache), or None
        when the cache is off or the folder cannot be made."""
        if self.root is None:
            return None
        folder = self.root / namespace
        try:
            folder.mkdir(parents=True, exist_ok=True)
            probe = tempfile.NamedTemporaryFile(dir=folder, prefix=".probe.")  # writable, not just present
            probe.close()
        except OSError as e:
            self._unusable(e)
            return None
        return folder

    def get(self, namespace: str, key: str) -> Any | None:
        """The entry, or None when missing (also when unreadable: it is then recomputed)."""
        path = self.path(namespace, key)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except NotADirectoryError as e:  # the cache's folders are not folders: no entry can be there
            self._unusable(e)
            return None
        except OSError as e:
            self._once(f"cannot read the cache entry {path} ({e.strerror or e}): recomputing it")
            return None
        payload = data[len(MAGIC) + _DIGEST :]
        if not data.startswith(MAGIC) or data[len(MAGIC) : len(MAGIC) + _DIGEST] != hashlib.sha256(payload).digest():
            self._once(f"the cache entry {path} is truncated or corrupted: recomputing it")
            return None
        try:
            return pickle.loads(payload)
        except Exception as e:  # e.g. a class this version of the project no longer has
            self._once(f"the cache entry {path} cannot be loaded ({type(e).__name__}): recomputing it")
            return None

    def values(self, namespace: str) -> Iterator[Any]:
        """Every readable entry of `namespace`, in key order (a benchmark reading what builds cached)."""
        if self.root is None:
            return
        for path in sorted((self.root / namespace).glob("??/*")):
            if not path.name.startswith("."):
                value = self.get(namespace, path.name)
                if value is not None:
                    yield value

    def put(self, namespace: str, key: str, value: Any) -> None:
        """Store `value` (picklable); a cache that cannot be written is turned off with one warning."""
        path = self.path(namespace, key)
        if path is None:
            return
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, MAGIC + hashlib.sha256(payload).digest() + payload)
        except OSError as e:
            self._unusable(e)

    def _unusable(self, error: OSError) -> None:
        self._once(f"cannot write the cache at {self.root} ({error.strerror or error}): going on without caching")
        self.root = None
