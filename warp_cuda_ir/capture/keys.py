"""Kernel identity shared with the harvest, so a captured launch finds its harvest record.

The harvest names a kernel `<target>|<file>|<line>|<qualname>|<overload signature>|<closure digest>`
(`harvest/worker.py`); the target index depends on how the harvest was called, so both sides key on the
package name instead: `<package>|<file>|<line>|<qualname>|<signature>|<digest>`. The signature is the
generic kernel's overload that actually ran (Warp resolves it from the arguments), "" for plain kernels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warp_cuda_ir import warp_session
from warp_cuda_ir.harvest import discover
from warp_cuda_ir.harvest.identity import kernel_digest
from warp_cuda_ir.harvest.paths import file_in_target


def record_key(record: dict[str, Any]) -> str:
    """The key of a harvest record (`harvest(...).records` item or a row's provenance with `ident`).

    The harvest appends `#2`, `#3`, ... to kernels whose idents collide; that suffix is not part of the key.
    """
    return record["package"] + "|" + re.sub(r"#\d+$", "", record["ident"].split("|", 1)[1])


def match(records: dict[str, Any], harvest_record: dict[str, Any]) -> Any | None:
    """The entry of `records` (keyed `<kernel key>|<Warp key>`) for a harvest record.

    The Warp key decides between kernels that share a kernel key (a factory's kernels told apart by
    `key=` and their annotations). When it matches none of them, a single captured kernel whose Warp key
    ends with the record's kernel name still matches: Warp prefixes the keys of kernels defined in a class
    (`NodePartition___scatter_partition_indices` for `_scatter_partition_indices`, warp.fem). Any other
    kernel of the same key is another overload: its record does not fit this row (a float16 record
    replayed with an int64 kernel reads its bytes as int64, and may even compare equal).
    """
    base = record_key(harvest_record)
    name = harvest_record["kernel_name"]
    exact = records.get(f"{base}|{name}")
    if exact is not None:
        return exact
    candidates = [v for k, v in records.items() if k.rsplit("|", 1)[0] == base and k.endswith(f"_{name}")]
    return candidates[0] if len(candidates) == 1 else None


@dataclass(frozen=True)
class Target:
    package: str
    version: str
    root: str  # the package folder
    base: str  # what the harvest's `file` paths are relative to
    sys_path: str  # on sys.path so the target's modules import by name

    def relpath(self, path: str) -> str | None:
        return file_in_target(self.root, self.base, path)


def resolve(spec: str) -> Target:
    """The installed package (or folder) the way the harvest resolves it."""
    t = discover.resolve(spec, 0)
    return Target(t.package, t.version, str(Path(t.root).resolve()), str(Path(t.base).resolve()), t.sys_path)


def kernel_key(kernel: Any, targets: list[Target]) -> str | None:
    """Key of a launched kernel (the overload that ran), or None when it is not in any target."""
    func, sig = warp_session.kernel_origin(kernel)
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    for t in targets:
        rel = t.relpath(code.co_filename)
        if rel is not None:
            return f"{t.package}|{rel}|{code.co_firstlineno}|{func.__qualname__}|{sig}|{kernel_digest(func)}"
    return None
