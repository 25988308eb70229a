"""Running untrusted programs: a child process per candidate, with resource limits, in a scratch folder.

Limits are set in the child before it executes (`preexec_fn`): address space (RLIMIT_AS: a huge
allocation fails instead of swapping the machine), CPU seconds (RLIMIT_CPU: SIGXCPU), written file size
(RLIMIT_FSIZE: stdout goes to a file, so a program printing without end is stopped by SIGXFSZ) and no core
files. Each child leads a process group of its own (`engines.local.start_group`), killed whole when it exits
or runs past the wall-clock limit, and dies with the evaluator, so a program that forks, or an evaluation
stopped with Ctrl-C, leaves nothing behind. The evaluator never loads candidate code.

CUDA programs run without RLIMIT_AS: the CUDA driver reserves far more address space than it uses.
"""

from __future__ import annotations

import resource
import signal
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from warp_cuda_ir.engines.local import kill_group, start_group
from warp_cuda_ir.errors import one_line

OUTPUT_LIMIT = 4 << 20  # bytes a run may write to stdout (and to stderr); digests are a few lines
# A compiler gets more room than a program: g++ -O0 on a 16-program batch peaked at ~0.9 GB resident here.
COMPILE_MEMORY_BYTES = 8 << 30
# and larger files: nvcc writes the preprocessed program (`.ii`) to disk, 4.6 MB for one small generated row
# (4.1 MB before `--extended-lambda`) and ~6 MB of source alone for a batch of real rows, past the 4 MiB a
# program's output may take; every candidate then failed as "File size limit exceeded".
COMPILE_FILE_BYTES = 1 << 30


@dataclass(frozen=True)
class Limits:
    memory_bytes: int | None  # RLIMIT_AS; None: not limited (CUDA programs)
    cpu_seconds: int
    file_bytes: int = OUTPUT_LIMIT

    def preexec(self) -> Callable[[], None]:
        """The function a child runs before it executes (only `setrlimit` calls: safe after fork)."""
        memory, cpu, size = self.memory_bytes, self.cpu_seconds, self.file_bytes

        def apply() -> None:
            if memory is not None:
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

        return apply


@dataclass(frozen=True)
class RunResult:
    status: str  # "ok" | "crashed" | "timeout"
    detail: str
    stdout: str


_SIGNALS: dict[int, str] = {
    signal.SIGXFSZ: "wrote more than its output limit",
    signal.SIGSEGV: "segmentation fault",
    signal.SIGBUS: "bus error",
    signal.SIGABRT: "aborted (e.g. an allocation over the memory limit)",
    signal.SIGFPE: "arithmetic exception",
    signal.SIGILL: "illegal instruction (e.g. a trap)",
    signal.SIGTRAP: "trap (e.g. a failed assertion)",
    signal.SIGKILL: "killed (CPU hard limit or out of memory)",
}


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _read(path: Path) -> str:
    with open(path, "rb") as f:
        return f.read(OUTPUT_LIMIT).decode("utf-8", errors="replace")


def run(command: list[str], folder: Path, time_limit: float, limits: Limits) -> RunResult:
    """Run `command` in a new scratch folder in `folder` under `limits` and a wall-clock `time_limit`.

    Never raises for what the program does: every outcome is a RunResult."""
    scratch = Path(tempfile.mkdtemp(dir=folder, prefix="run_"))
    out, err = scratch / "stdout", scratch / "stderr"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        child = start_group(
            command, before=limits.preexec(), cwd=scratch, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr
        )
        try:
            code = child.wait(timeout=time_limit)
        except subprocess.TimeoutExpired:
            kill_group(child)
            return RunResult("timeout", f"did not finish in {time_limit:g} s (wall clock)", _read(out))
        finally:
            kill_group(child)  # whatever it started
    text, log = _read(out), _read(err)
    tail = one_line(log.strip()[-300:], 300) if log.strip() else ""
    if code == 0:
        return RunResult("ok", "", text)
    if code < 0:
        name = _signal_name(-code)
        if -code == signal.SIGXCPU:
            return RunResult("timeout", f"used its {limits.cpu_seconds} s of CPU time ({name})", text)
        why = _SIGNALS.get(-code, "killed")
        return RunResult("crashed", f"{why} ({name})" + (f": {tail}" if tail else ""), text)
    return RunResult("crashed", f"exit status {code}" + (f": {tail}" if tail else ""), text)
