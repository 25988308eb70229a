"""The upstream LICENSE/NOTICE texts a dataset folder of real kernels must carry (Apache-2.0, section 4)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any


def write_notices(targets: Iterable[dict[str, Any]], folder: str | os.PathLike[str]) -> list[str]:
    """Write each harvested package's license files to `<folder>/LICENSES/<package>/...`; return their paths.

    `targets`: dicts with `package` and `notices` (file name -> text), as `cache.cached_harvest` returns.
    """
    written = []
    root = Path(folder) / "LICENSES"
    for target in targets:
        for name, text in sorted(target.get("notices", {}).items()):
            rel = PurePosixPath(target["package"]) / PurePosixPath(name)
            if ".." in rel.parts or rel.is_absolute():
                continue  # a file name from package metadata never leaves the folder
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            written.append(str(PurePosixPath("LICENSES") / rel))
    return written
