"""Writing: the dataset folder users load and push, and the one place that knows its layout.

    <out>/README.md        card with YAML `configs:` (rendered last: its presence means complete)
    <out>/build.json       the run record (`record.BuildRecord`): identity, versions, files we wrote
    <out>/data/<split>-NNNNN-of-MMMMM.parquet
    <out>/.build/          shard cache and staging (resume state; never uploaded)

We only ever delete files that build.json says we wrote.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from warp_cuda_ir import schema
from warp_cuda_ir.errors import OutputFolderError

MANIFEST = "build.json"
WORK_DIR = ".build"
DATA_DIR = "data"
CARD = "README.md"
ARGS_FILE = "args.json"  # in WORK_DIR: the identity of the build it holds


def data_files(out: Path) -> dict[str, list[Path]]:
    """The folder's Parquet data files per split, in name order (splits without files: empty lists)."""
    return {split: sorted((Path(out) / DATA_DIR).glob(f"{split}-*.parquet")) for split in schema.SPLITS}


def all_data_files(out: Path) -> list[Path]:
    return [path for paths in data_files(out).values() for path in paths]


def prepare_output(out: Path, identity: dict[str, Any], owned: Collection[str], overwrite: bool) -> bool:
    """Check `out` is ours to write; return True when it holds a resumable run of the same build.

    `owned`: the paths (relative to `out`) the folder's build.json says we wrote, build.json included.
    A folder holding a finished or interrupted build of another identity is replaced only with
    `overwrite`; files we did not write are never touched, and if one sits where we must write,
    we refuse even with `overwrite`.
    """
    if out.exists() and not out.is_dir():
        raise OutputFolderError(f"--out {out} exists and is not a folder")
    state = out / WORK_DIR / ARGS_FILE
    earlier = json.loads(state.read_text()) if state.exists() else None
    if earlier == identity:
        return True
    ours = set(owned) | ({WORK_DIR} if state.exists() else set())
    entries = [p.name for p in out.iterdir() if p.name != DATA_DIR] if out.is_dir() else []
    entries += [f"{DATA_DIR}/{p.name}" for p in (out / DATA_DIR).glob("*")]
    foreign = [name for name in entries if name not in ours]
    clashing = [name for name in foreign if name in (CARD, MANIFEST, WORK_DIR) or name.startswith(f"{DATA_DIR}/")]
    if clashing:
        raise OutputFolderError(
            f"--out {out} holds files this tool did not write ({clashing[0]}); choose another folder"
        )
    if (foreign or ours) and not overwrite:
        what = "a different build" if ours else "other files"
        if earlier and _versions(earlier) != _versions(identity):
            what = "a build from another schema or Warp version"
        raise OutputFolderError(f"--out {out} already holds {what}; pass --overwrite or choose an empty folder")
    remove_build(out, owned)
    try:
        state.parent.mkdir(parents=True)
    except OSError as e:
        raise OutputFolderError(f"cannot create --out {out}: {e.strerror or e}") from None
    state.write_text(json.dumps(identity, sort_keys=True, indent=1))
    return False


def _versions(identity: dict[str, Any]) -> tuple[Any, Any]:
    shards = identity.get("shards") or {}
    return shards.get("schema"), shards.get("warp")


def remove_build(out: Path, owned: Collection[str]) -> None:
    """Delete what an earlier build of ours wrote (`owned`, build.json included), and nothing else."""
    for rel in owned:
        (out / rel).unlink(missing_ok=True)
    if (out / WORK_DIR / ARGS_FILE).exists():  # only a work folder we made
        shutil.rmtree(out / WORK_DIR)
    if (out / DATA_DIR).is_dir() and not any((out / DATA_DIR).iterdir()):
        (out / DATA_DIR).rmdir()


def publish_parquet(out: Path, prepared: Path, dataset_name: str) -> list[str]:
    """Move the builder's Parquet files into `data/` with Hub-style names; return their paths.

    Files without rows are dropped: `load_dataset` refuses a split that has no data.
    """
    moved: list[str] = []
    (out / DATA_DIR).mkdir(exist_ok=True)
    for src in sorted(prepared.glob(f"{dataset_name}-*.parquet")):
        if pq.read_metadata(src).num_rows == 0:
            continue
        stem = src.name[len(dataset_name) + 1 : -len(".parquet")]  # "train" or "train-00000-of-00002"
        name = stem if "-of-" in stem else f"{stem}-00000-of-00001"
        os.replace(src, out / DATA_DIR / f"{name}.parquet")
        moved.append(f"{DATA_DIR}/{name}.parquet")
    return moved


def write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
