"""Why something discovered did not become a record: a fixed list of categories, each with a detail line.

Every kernel found in a harvested file, and every file that could not be imported, ends as a record or
as one `Reason`; `summarise` groups them for `build.json` (category -> count, examples).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from typing import Any

# Files
IMPORT_FAILED = "import failed"  # the module raised (or needs a GPU, a missing optional package, ...)
IMPORT_EXITED = "import called sys.exit"
IMPORT_TIMEOUT = "import timed out"
WORKER_DIED = "worker process died"
NOT_IMPORTABLE = "file name is not an importable module name"
# Kernels
GENERIC_WITHOUT_OVERLOADS = "generic kernel without overloads"  # Warp generates no code for it either
WARP_CODEGEN_FAILED = "Warp cannot generate code for it"  # in its own module: not counted as ours
NO_SOURCE = "kernel source not available"  # made from a string or by a code transformer
SELF_CONTAINED_UNSUPPORTED = "self-contained source cannot be written"
SELF_CONTAINED_EXTRACT_FAILED = "self-contained source does not generate"
SELF_CONTAINED_MISMATCH = "self-contained code differs from Warp's"
KERNEL_TIMEOUT = "kernel timed out"
# A script's function makes the kernel from its arguments, and no call of it gives values the harvest can
# read without running the script (`call_values`).
FACTORY_NOT_MADE = "made by a function the harvest cannot call"
DUPLICATE = "duplicate self-contained source"  # not a loss: the same text is already a record

CATEGORIES = (
    IMPORT_FAILED,
    IMPORT_EXITED,
    IMPORT_TIMEOUT,
    WORKER_DIED,
    NOT_IMPORTABLE,
    GENERIC_WITHOUT_OVERLOADS,
    WARP_CODEGEN_FAILED,
    NO_SOURCE,
    SELF_CONTAINED_UNSUPPORTED,
    SELF_CONTAINED_EXTRACT_FAILED,
    SELF_CONTAINED_MISMATCH,
    KERNEL_TIMEOUT,
    FACTORY_NOT_MADE,
    DUPLICATE,
)
# Categories that say Warp itself produces no code: excluded from "kernels Warp generates code for".
NOT_GENERATED_BY_WARP = {GENERIC_WITHOUT_OVERLOADS, WARP_CODEGEN_FAILED}
FILE_CATEGORIES = {IMPORT_FAILED, IMPORT_EXITED, IMPORT_TIMEOUT, WORKER_DIED, NOT_IMPORTABLE}


class TargetError(Exception):
    """A `--real` target that names nothing harvestable (not installed, no folder, no .py files)."""


@dataclass(frozen=True)
class Reason:
    category: str
    detail: str  # one line
    package: str
    file: str  # inside the package / folder
    kernel: str | None = None  # qualified name (+ overload signature), None for a file
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarise(reasons: list[Reason], examples: int = 5) -> dict[str, Any]:
    """{category: {"count": n, "by_package": {...}, "details": {detail: n}, "examples": [...]}}, stable order."""
    groups: dict[str, list[Reason]] = defaultdict(list)
    for r in reasons:
        groups[r.category].append(r)
    out: dict[str, Any] = {}
    for category in sorted(groups, key=lambda c: (-len(groups[c]), c)):
        items = sorted(groups[category], key=lambda r: (r.package, r.file, r.line or 0, r.kernel or ""))
        details = Counter(_short(r.detail) for r in items)
        out[category] = {
            "count": len(items),
            "by_package": dict(sorted(Counter(r.package for r in items).items())),
            "details": dict(details.most_common(20)),
            "examples": [
                {"package": r.package, "file": r.file, "line": r.line, "kernel": r.kernel, "detail": r.detail}
                for r in items[:examples]
            ],
        }
    return out


def _short(detail: str) -> str:
    return detail if len(detail) <= 160 else detail[:157] + "..."
