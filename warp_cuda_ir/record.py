"""The run record: how a build is asked for (`BuildOptions`) and what it wrote (`BuildRecord`, build.json).

`identity()` is the one description of "the same build": the shards' cache key (spec, generator,
schema and Warp versions) plus the size target and the largest file. A folder is resumed only
under the same identity, and `build.json` stores it once; everything else a reader needs (the
spec, the generator version) is derived from it.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warp_cuda_ir.shards import BuildSpec
from warp_cuda_ir.writing import MANIFEST, write_text_atomic

TOOL = "warp-cuda-ir"


@dataclass(frozen=True)
class BuildOptions:
    """Everything `run_build` needs: what to build, where, and with which engine."""

    out: str | Path  # a local folder, or an fsspec URL
    spec: BuildSpec = field(default_factory=BuildSpec)
    target_mb: float = 200.0  # stop once the Parquet files reach this size (within one shard)
    workers: int = 1
    overwrite: bool = False  # replace an earlier build of other arguments (never foreign files)
    max_shard_mb: int = 256  # largest Parquet file written (uncompressed Arrow bytes)
    engine: str = "local"  # "local" | "ray"
    ray_address: str | None = None
    staging: Path | None = None  # where a URL `out` is built before the copy

    def identity(self) -> dict[str, Any]:
        return build_identity(self.spec, self.target_mb, self.max_shard_mb)


def build_identity(spec: BuildSpec, target_mb: float, max_shard_mb: int) -> dict[str, Any]:
    """What makes two builds the same build: resumable from each other's shards, equal rows."""
    return {"shards": spec.cache_key(), "target_mb": target_mb, "max_shard_mb": max_shard_mb}


@dataclass(frozen=True)
class ValidationRecord:
    """What the validation pass records about itself in build.json."""

    arch: int
    cuda_toolkit: str
    gpu: str | None
    gpu_skip_reason: str | None
    warp: str
    summary: dict[str, Any]  # the status counts the pass found (see `readback.ValidationCounts`)


@dataclass(frozen=True)
class BuildRecord:
    """build.json: the identity of the build, the tool versions, what failed, and every file written."""

    identity: dict[str, Any]
    num_shards: int
    versions: dict[str, str]  # datasets, pyarrow, python, warp_cuda_ir (Warp's is part of the identity)
    codegen_failures: dict[str, int]  # Warp's reason -> seeds left out for it
    files: tuple[str, ...]  # paths relative to the folder; the only files we ever replace or delete
    validation: ValidationRecord | None = None

    @property
    def spec(self) -> BuildSpec:
        return BuildSpec.from_dict(self.identity["shards"]["spec"])

    @property
    def generator_version(self) -> str:
        return str(self.identity["shards"]["spec"]["generator"])

    @property
    def warp_version(self) -> str:
        return str(self.identity["shards"]["warp"])

    @property
    def target_mb(self) -> float:
        return float(self.identity["target_mb"])

    def to_json(self) -> str:
        data = {"tool": TOOL, **dataclasses.asdict(self), "files": list(self.files)}
        if self.validation is None:
            del data["validation"]
        return json.dumps(data, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> BuildRecord | None:
        """The record, or None when the text is not a build.json of this tool (of this layout)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return None
        if not isinstance(data, dict) or data.get("tool") != TOOL:
            return None
        try:
            validation = data.get("validation")
            return cls(
                identity=data["identity"],
                num_shards=int(data["num_shards"]),
                versions=dict(data["versions"]),
                codegen_failures=dict(data["codegen_failures"]),
                files=tuple(data["files"]),
                validation=ValidationRecord(**validation) if validation else None,
            )
        except (KeyError, TypeError, ValueError):
            return None

    @classmethod
    def load(cls, out: Path) -> BuildRecord | None:
        """The folder's build.json, or None when it has none of ours."""
        try:
            return cls.from_json((out / MANIFEST).read_text())
        except (OSError, UnicodeDecodeError):
            return None

    def save(self, out: Path) -> None:
        write_text_atomic(out / MANIFEST, self.to_json())

    def owned(self) -> set[str]:
        """The paths we wrote (build.json included): the only ones a later build may replace."""
        return {*self.files, MANIFEST}


def owned_paths(record: BuildRecord | None) -> set[str]:
    return record.owned() if record else set()
