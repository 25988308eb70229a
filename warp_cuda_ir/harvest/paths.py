"""Where a file sits inside a harvest target, as the rows' `provenance.file` names it."""

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
