"""Annotations already computed on this machine, for rows of any folder: the machine cache's `validation` entries.

A row's annotations are a function of the row (every column the build wrote), of the pass's settings and tools
(architecture, Warp, schema, GPU, standalone compilers) and of this project's code; the key covers all of them,
so a second build of the same rows into a new folder (the README's first command, run again elsewhere) reuses
the first one's pass instead of paying ~1.5 core-seconds per row again. The code is keyed whole (every module
of the package), not per stage: what a stage computes reaches into launch, standalone, extraction and
warp_session, and a key that missed one of them would serve stale annotations after an upgrade.

Annotations that depend on the moment rather than the row are not stored: a stage cut at its time limit, or
a worker that died (`timeout` / `error`), may come out otherwise on a quieter machine.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from warp_cuda_ir import schema
from warp_cuda_ir.cache import Cache, key_of
from warp_cuda_ir.validation.runner import complete

NAMESPACE = "validation"
_PACKAGE = Path(__file__).resolve().parent.parent
_MOMENTARY = ("timeout", "error")


@functools.cache  # read once: a pass keys every entry with the code it started with
def code_version() -> str:
    """Hash of every module of the package (names and contents)."""
    h = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        h.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def row_digest(row: Mapping[str, Any]) -> str:
    """Hash of a row's columns as the pass reads them (bytes as they are, other values as JSON)."""
    h = hashlib.sha256()
    for name in sorted(row):
        value = row[name]
        data = value if isinstance(value, bytes) else json.dumps(value, sort_keys=True, default=repr).encode()
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


class KnownAnnotations:
    """The machine cache's annotations for the rows of one pass (`pass_key`: what the pass decides them by)."""

    def __init__(self, cache: Cache, pass_key: Mapping[str, Any]) -> None:
        self.cache = cache
        self.pass_key = {**pass_key, "code": code_version()}

    def key(self, row: Mapping[str, Any]) -> str | None:
        """The row's entry name; None when the cache is off."""
        return key_of(self.pass_key, row_digest(row)) if self.cache.enabled else None

    def get(self, key: str | None) -> dict[str, Any] | None:
        columns = self.cache.get(NAMESPACE, key) if key is not None else None
        return columns if isinstance(columns, dict) and complete(columns) else None

    def put(self, key: str | None, columns: Mapping[str, Any]) -> None:
        if key is not None and complete(dict(columns)) and not _momentary(columns):
            self.cache.put(NAMESPACE, key, dict(columns))


def _momentary(columns: Mapping[str, Any]) -> bool:
    return any(columns.get(f"{stage}_status") in _MOMENTARY for stage in schema.STAGES)
