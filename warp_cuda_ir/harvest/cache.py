"""A harvest cached in the machine cache (`harvest/`): one entry per target, written once and atomically.

The key covers what decides the result: the target as named, where it resolved to, the package version
and a hash of its Python files (and of the data files its scripts read by a relative path), Warp's version
and this harvester's own code. A build killed during a harvest keeps the targets already finished and
harvests the rest when run again; a finished harvest is read back, so two builds, into any folders, give
the same records (records are sorted and exact duplicates removed in `run.harvest`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir.cache import Cache, key_of
from warp_cuda_ir.harvest import discover
from warp_cuda_ir.harvest.paths import data_files
from warp_cuda_ir.harvest.reasons import Reason, TargetError
from warp_cuda_ir.harvest.run import harvest

_CODE = Path(__file__).resolve().parent
# The modules the records' texts come from besides the harvester's own: a change to how Warp's code is
# generated (a CPU build of its own for tile code) must not be served from harvests cached before it.
_TEXTS = (_CODE.parent / "extraction.py", _CODE.parent / "warp_session.py")
NAMESPACE = "harvest"


@functools.cache  # read once: a build keys every entry with the code it started with
def code_version() -> str:
    """Hash of the harvester's source and of the code generating its texts: a change invalidates cached harvests."""
    h = hashlib.sha256()
    for path in [*sorted(_CODE.glob("*.py")), *_TEXTS]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def files_digest(root: Path) -> str:
    """Hash of the Python files under `root` (names and contents): an edited folder is harvested again."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()[:20]


def data_digest(target: discover.Target) -> str:
    """Hash of the data files its scripts read by a relative path (`paths.data_files` of each script's folder):
    an edited `params.json` changes the constants a script's kernels read."""
    h = hashlib.sha256()
    for folder in sorted({os.path.dirname(os.path.abspath(job.path)) for job in target.jobs if job.path}):
        for rel in data_files(folder):
            try:
                data = (Path(folder) / rel).read_bytes()
            except OSError:
                continue
            h.update(f"{folder}/{rel.as_posix()}".encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()[:20]


def _key(target: discover.Target, arch: int) -> str:
    return key_of(
        {
            "spec": target.spec,
            "root": str(target.root),
            "version": target.version,
            "files": files_digest(Path(target.root)),
            "data": data_digest(target),
            "warp": wp.config.version,
            "arch": arch,
            "code": code_version(),
        }
    )


def cached_harvest(
    specs: Sequence[str],
    cache: Cache | str | os.PathLike[str] | None,
    workers: int = 2,
    arch: int = 90,
    progress: Callable[[str, int, int], None] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """Harvest each target once (cached per target in `cache`, the machine cache or a folder for one).
    Returns records, reasons, per-target summaries, errors."""
    store = cache if isinstance(cache, Cache) else Cache(cache)
    out: dict[str, Any] = {"records": [], "reasons": [], "targets": [], "target_errors": []}
    for spec in specs:
        try:
            target = discover.resolve(spec, 0)
        except TargetError as e:
            out["target_errors"].append(str(e))
            continue
        key = _key(target, arch)
        data = store.get(NAMESPACE, key)
        if not isinstance(data, dict):
            report = None if progress is None else (lambda done, total, s=spec: progress(s, done, total))
            result = harvest([spec], workers=workers, arch=arch, progress=report, **kwargs)
            data = {
                "target": {
                    "spec": spec,
                    "package": target.package,
                    "version": target.version,
                    "license": target.license,
                    "notices": target.notices,
                },
                "records": result.records,
                "reasons": [r.to_dict() for r in result.reasons],
                "summary": result.summary(),
                "target_errors": result.target_errors,
            }
            # JSON-shaped, as a cached entry reads back: a fresh harvest and a cached one give the same rows
            data = json.loads(json.dumps(data, sort_keys=True))
            store.put(NAMESPACE, key, data)
        out["records"] += data["records"]
        out["reasons"] += [Reason(**r) for r in data["reasons"]]
        out["targets"].append({**data["target"], "summary": data["summary"]["packages"]})
        out["target_errors"] += data["target_errors"]
    return out
