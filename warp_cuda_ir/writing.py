"""Writing: the dataset folder users load and push.

    <out>/README.md        card with YAML `configs:` (rendered last: its presence means complete)
    <out>/build.json       arguments, tool versions, counts, and the list of files we wrote
    <out>/data/<split>-NNNNN-of-MMMMM.parquet
    <out>/.build/          shard cache and staging (resume state; never uploaded)

We only ever delete files that build.json says we wrote.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

TOOL = "warp-cuda-ir"
MANIFEST = "build.json"
WORK_DIR = ".build"
DATA_DIR = "data"
CARD = "README.md"
ARGS_FILE = "args.json"  # in WORK_DIR: the arguments of the build it holds


class OutputFolderError(Exception):
    """The output folder cannot be used as asked (message is one line for the user)."""


def read_manifest(out: Path) -> dict[str, Any] | None:
    path = out / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None
    return manifest if isinstance(manifest, dict) and manifest.get("tool") == TOOL else None


def prepare_output(out: Path, build_args: dict[str, Any], overwrite: bool) -> bool:
    """Check `out` is ours to write; return True when it holds a resumable run of the same build.

    A folder holding a finished or interrupted build of *other* arguments is replaced
    only with `overwrite`; files we did not write are never touched, and if one sits
    where we must write, we refuse even with `overwrite`.
    """
    if out.exists() and not out.is_dir():
        raise OutputFolderError(f"--out {out} exists and is not a folder")
    state = out / WORK_DIR / ARGS_FILE
    earlier = json.loads(state.read_text()) if state.exists() else None
    if earlier == build_args:
        return True
    manifest = read_manifest(out)
    ours = _owned_paths(manifest) | ({MANIFEST} if manifest else set()) | ({WORK_DIR} if state.exists() else set())
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
        if earlier and earlier.get("versions") != build_args.get("versions"):
            what = "a build from another schema or Warp version"
        raise OutputFolderError(f"--out {out} already holds {what}; pass --overwrite or choose an empty folder")
    remove_build(out, manifest)
    try:
        state.parent.mkdir(parents=True)
    except OSError as e:
        raise OutputFolderError(f"cannot create --out {out}: {e.strerror or e}") from None
    state.write_text(json.dumps(build_args, sort_keys=True, indent=1))
    return False


def remove_build(out: Path, manifest: dict[str, Any] | None) -> None:
    """Delete what an earlier build of ours wrote, and nothing else."""
    for rel in _owned_paths(manifest):
        (out / rel).unlink(missing_ok=True)
    if (out / WORK_DIR / ARGS_FILE).exists():  # only a work folder we made
        shutil.rmtree(out / WORK_DIR)
    if manifest:
        (out / MANIFEST).unlink(missing_ok=True)
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


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    write_text_atomic(out / MANIFEST, json.dumps({"tool": TOOL, **manifest}, indent=1, sort_keys=True) + "\n")


def _owned_paths(manifest: dict[str, Any] | None) -> set[str]:
    return set(manifest.get("files", [])) if manifest else set()
