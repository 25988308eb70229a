"""Where a file sits inside a harvest target, as the rows' `provenance.file` names it, and the data files a
script of a folder reads by a relative path."""

from __future__ import annotations

import os
from pathlib import Path


def file_in_target(root: str | Path, base: str | Path, path: str) -> str | None:
    """`path` relative to the target's `base` (its package folder's parent for a package), or None outside `root`.

    Symlinks are resolved first: a folder harvested through a link of its own must name the same files.
    """
    try:
        rel = Path(os.path.realpath(path)).relative_to(root)
    except ValueError:
        return None
    return (Path(os.path.relpath(root, base)) / rel).as_posix().removeprefix("./")


# What a script's working directory holds of its own folder: `python load.py` is run from the script's folder,
# and scripts open their data by a relative path at import (`open("params.json")`). Data files only (no Python,
# nothing hidden), the small ones: parameters and point lists are kilobytes, Warp's examples' assets (3.5 MB of
# meshes, their largest 1.3 MB) are read from `warp.examples.get_asset_directory()`, not the working directory.
DATA_FILE_MAX_BYTES = 4 << 20
DATA_FOLDER_MAX_BYTES = 32 << 20
DATA_FOLDER_DEPTH = 3


def data_files(folder: str | Path) -> list[Path]:
    """The data files under `folder` a script of it finds in its working directory (the constants above),
    relative to `folder`, in a fixed order."""
    source = Path(folder)
    out: list[Path] = []
    budget = DATA_FOLDER_MAX_BYTES
    for here, dirs, files in os.walk(source):
        rel = Path(here).relative_to(source)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        if len(rel.parts) >= DATA_FOLDER_DEPTH:
            dirs.clear()
        for name in sorted(files):
            path = Path(here) / name
            if name.startswith(".") or path.suffix in (".py", ".pyc") or path.is_symlink() or not path.is_file():
                continue
            size = path.stat().st_size
            if size <= DATA_FILE_MAX_BYTES and size <= budget:
                budget -= size
                out.append(rel / name)
    return out
