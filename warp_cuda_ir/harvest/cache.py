"""A harvest cached like a work shard: one file per target, written once and atomically.

The key covers what decides the result: the target as named, where it resolved to, the package version,
Warp's version and this harvester's own code. A build killed during a harvest keeps the targets already
finished and harvests the rest when run again; a finished harvest is read back, so two builds give the
same records (records are sorted and exact duplicates removed in `run.harvest`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir.harvest import discover
from warp_cuda_ir.harvest.reasons import Reason, TargetError
from warp_cuda_ir.harvest.run import harvest

_CODE = Path(__file__).resolve().parent


def code_version() -> str:
    """Hash of the harvester's own source: a change to it invalidates cached harvests."""
    h = hashlib.sha256()
    for path in sorted(_CODE.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def _key(target: discover.Target, arch: int) -> str:
    payload = {
        "spec": target.spec,
        "root": str(target.root),
        "version": target.version,
        "warp": wp.config.version,
        "arch": arch,
        "code": code_version(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:20]


def cached_harvest(
    specs: Sequence[str],
    cache_dir: str | os.PathLike[str],
    workers: int = 2,
    arch: int = 90,
    progress: Callable[[str, int, int], None] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """Harvest each target once (cached per target). Returns records, reasons, per-target summaries, errors."""
    cache = Path(cache_dir).absolute()
    cache.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {"records": [], "reasons": [], "targets": [], "target_errors": []}
    for spec in specs:
        try:
            target = discover.resolve(spec, 0)
        except TargetError as e:
            out["target_errors"].append(str(e))
            continue
        path = cache / f"{_key(target, arch)}.json.gz"
        if not path.exists():
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
            _atomic_write(path, data)
        with gzip.open(path, "rt") as f:
            data = json.load(f)
        out["records"] += data["records"]
        out["reasons"] += [Reason(**r) for r in data["reasons"]]
        out["targets"].append({**data["target"], "summary": data["summary"]["packages"]})
        out["target_errors"] += data["target_errors"]
    return out


def _atomic_write(path: Path, data: dict[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".partial")
    try:
        with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            f.write(json.dumps(data, sort_keys=True).encode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
