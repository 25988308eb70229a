"""Every error this package raises for a user to read: one family, one-line messages.

Scripts catch `WarpCudaIRError` once and print `error: <message>`; library code raises the
subclass that names the stage that refused. Row-level failures (a kernel Warp rejects, a
launch that fails) are recorded in the row or the build record, not raised to the user. What the
user should know but need not act on is one `warning:` line (`warn_once`).
"""

from __future__ import annotations

import sys


class WarpCudaIRError(Exception):
    """Base class: the message is one line that tells the user what to do."""


class UsageError(WarpCudaIRError):
    """An option or argument cannot be used as given (an unknown category, an arch NVRTC lacks)."""


class OutputFolderError(WarpCudaIRError):
    """The output folder or URL cannot be used as asked."""


class EngineUnavailable(WarpCudaIRError):
    """The engine cannot run (Ray missing, a cluster that does not answer)."""


class DatasetFolderError(WarpCudaIRError):
    """A folder is not a dataset this project built, or its files are unreadable."""


class PublishError(WarpCudaIRError):
    """Publishing cannot go on."""


class ExtractionError(WarpCudaIRError):
    """Warp could not generate code for a kernel source."""


class LaunchError(WarpCudaIRError):
    """A launch record cannot be turned into a launch."""


class WorkerStartError(WarpCudaIRError):
    """A worker process could not start."""


class RealTargetError(WarpCudaIRError):
    """No `--real` target named anything harvestable (not installed, no Python files, no kernels)."""


def one_line(error: BaseException | str, limit: int = 1000) -> str:
    """`error`'s message on one line: its lines joined, blank ones dropped, cut to `limit` characters.

    Warp's and the Hub's messages span lines (the reason is often on the second); a row's
    detail column and an `error:` line both need one line.
    """
    text = " ".join(line.strip() for line in str(error).splitlines() if line.strip())
    if not text:
        return type(error).__name__ if isinstance(error, BaseException) else ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


_warned: set[str] = set()


def warn_once(line: str) -> None:
    """`warning: <line>` on stderr, once per process: a build and its validation pass each open the cache, and
    a build resolves each `--real` target in more than one stage."""
    if line not in _warned:
        _warned.add(line)
        print(f"warning: {line}", file=sys.stderr, flush=True)
