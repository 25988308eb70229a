"""Destination: a build written to an fsspec URL (`s3://bucket/prefix`, `gs://…`, `memory://…`).

The build itself always runs in a local staging folder (shard cache, resume state, the builder's
Parquet pass); the finished dataset files are then copied to the URL, README.md last, so a reader
that sees the card sees complete data. The URL is checked for writing before anything is
generated. Ownership follows `writing`: at the URL we only replace files that its build.json says
we wrote, and refuse when other files sit there.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
from pathlib import Path
from typing import Any

from warp_cuda_ir import writing
from warp_cuda_ir.errors import OutputFolderError, one_line
from warp_cuda_ir.record import BuildRecord, owned_paths

PROBE = ".warp_cuda_ir-write-check"


def is_url(out: str | os.PathLike[str]) -> bool:
    return "://" in str(out) and not str(out).startswith("file://")


def default_staging(url: str) -> Path:
    """Local folder a URL's build is staged in: stable per URL, so a rerun resumes."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "warp_cuda_ir" / "staging" / hashlib.sha256(url.encode()).hexdigest()[:16]


def _filesystem(url: str) -> tuple[Any, str]:
    import fsspec

    try:
        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as e:  # unknown protocol, or its fsspec package is missing
        raise OutputFolderError(f"cannot write to {url}: {one_line(e)}") from None


def check_writable(url: str, identity: dict[str, Any], overwrite: bool) -> None:
    """Fail before generating: the URL must accept a file, and hold nothing we may not replace."""
    fs, root = _filesystem(url)
    try:
        fs.makedirs(root, exist_ok=True)
        probe = posixpath.join(root, PROBE)
        fs.pipe_file(probe, b"")
        fs.rm_file(probe)
    except Exception as e:  # fsspec back ends raise their own types (PermissionError, ClientError, ...)
        raise OutputFolderError(f"cannot write to {url}: {type(e).__name__}: {one_line(e)}") from None
    record = _read_record(fs, root)
    foreign = sorted(_relative_files(fs, root) - owned_paths(record))
    if foreign:
        raise OutputFolderError(f"{url} holds files this tool did not write ({foreign[0]}); choose another URL")
    if record and record.identity != identity and not overwrite:
        raise OutputFolderError(f"{url} already holds a different build; pass --overwrite or choose another URL")


def upload(local: Path, url: str, files: list[str]) -> None:
    """Copy the finished build's `files` (paths relative to `local`) and build.json to the URL."""
    fs, root = _filesystem(url)
    card = posixpath.join(root, writing.CARD)
    if fs.exists(card):
        fs.rm_file(card)  # card first out, last in: its presence means the data is complete
    for rel in owned_paths(_read_record(fs, root)) - {writing.MANIFEST}:
        if rel not in files and fs.exists(posixpath.join(root, rel)):
            fs.rm_file(posixpath.join(root, rel))
    rest = [f for f in files if f != writing.CARD]
    for rel in [*rest, writing.MANIFEST, *([writing.CARD] if writing.CARD in files else [])]:
        target = posixpath.join(root, rel)
        fs.makedirs(posixpath.dirname(target), exist_ok=True)
        fs.put_file(str(local / rel), target)


def remove_staging(local: Path) -> None:
    """Delete the staged build once uploaded (what we wrote only: `--staging` may be a user's folder)."""
    writing.remove_build(local, owned_paths(BuildRecord.load(local)))
    if not any(local.iterdir()):
        local.rmdir()


def _read_record(fs: Any, root: str) -> BuildRecord | None:
    try:
        return BuildRecord.from_json(fs.cat_file(posixpath.join(root, writing.MANIFEST)).decode())
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def _relative_files(fs: Any, root: str) -> set[str]:
    prefix = root.rstrip("/") + "/"
    return {p[len(prefix) :] if p.startswith(prefix) else p for p in fs.find(root)}
