"""A fork server for capture jobs: Python, Warp, the capture and the targets' packages imported once, and each
job forked from that, instead of a fresh interpreter importing them again for every job.

Measured on the 2-core VM, idle: a job's process spent 4.0 CPU-s before its program started when the package
was newton (Python, Warp, the capture's modules, `import newton`), 3.8 for mujoco_warp and 1.2 for a warp-lang
test. Forked, with its modules in the kernel cache: warp's `test_launch` 0.15 CPU-s against 0.88 fresh,
newton's `test_tendon_builder` 1.94 against 4.98 (`benchmarks/job_start.py`); the default capture's jobs
953 -> 831 CPU-s from empty caches (the servers' own imports apart: ~5-8 CPU-s each, once per worker and
backward setting).

The server (`python -m warp_cuda_ir.capture.forkserver REQUESTS RESPONSES SPEC`) runs `child.prepare` for its
targets, so the launch hook is in place before a package binds Warp's launch by name, and imports each target
that is a package. Warp is not initialised before the fork: each job does that itself, as a fresh process
would. Requests and answers are JSON lines on two pipes; one job runs at a time. A forked job leads its own
process group, dies with the server, has its CPU time limited and its output sent to its log, and runs in its
own working directory, environment and CPUs, as `start_group` gives a fresh one. The server answers with the
job's pid, then with its wait status and CPU time (its own and that of the processes it waited for). It exits
when its requests end (the process that started it died or closed it) or after `IDLE_S` without one.

`ForkServer` is the other end, one per (targets, backward setting, environment) in each process that runs jobs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import importlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from warp_cuda_ir.capture import child, keys
from warp_cuda_ir.engines.local import die_with_parent, kill_group, owned_group, start_group

# A worker's jobs alternate between the two backward settings, each with its server: with 60 s, the default
# capture started servers again ~5 times (~7 CPU-s of imports each). A server holds ~250 MB (newton,
# mujoco_warp and Warp imported) until then, or until its worker stops.
IDLE_S = 600.0
START_S = 300.0  # importing newton took 33 s of wall time at load 14; a server silent this long is stuck


class ServerGone(Exception):
    """The server did not answer: it died, or could not start."""


def _packages(targets: Sequence[keys.Target]) -> list[str]:
    """The import names of the targets that are packages on their `sys_path` (a folder of scripts is none; a
    package folder is there through the link `keys.resolve` made)."""
    names = []
    for t in targets:
        root = Path(t.root)
        on_path = Path(t.sys_path) / root.name
        if (root / "__init__.py").is_file() and on_path.exists() and on_path.resolve() == root.resolve():
            names.append(root.name)
    return names


class ForkServer:
    """The requesting end: starts the server, hands it one job at a time."""

    def __init__(self, targets: Sequence[keys.Target], no_backward: bool, env: dict[str, str]) -> None:
        spec = {"targets": [list(dataclasses.astuple(t)) for t in targets], "no_backward": no_backward}
        requests_r, self._requests = os.pipe()
        self._answers, answers_w = os.pipe()
        self._buffer = b""
        try:
            self.proc = start_group(
                [sys.executable, "-m", __name__, str(requests_r), str(answers_w), json.dumps(spec)],
                pass_fds=(requests_r, answers_w),
                cwd="/",
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        finally:
            os.close(requests_r)
            os.close(answers_w)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        for fd in (self._requests, self._answers):
            with contextlib.suppress(OSError):
                os.close(fd)
        kill_group(self.proc)

    def run(self, request: dict[str, Any], wall_limit: float) -> tuple[int, float, bool]:
        """Run one job: (its exit code as `Popen.returncode` gives it, its CPU seconds, whether it was killed at
        `wall_limit` seconds). `request`: the child's `config`, its `cwd`, `log`, `env` and `cpu_limit`.
        Raises `ServerGone` when the server did not take the job (nothing of it ran)."""
        request = {**request, "cpus": sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None}
        try:
            os.write(self._requests, (json.dumps(request) + "\n").encode())
        except OSError as e:
            raise ServerGone(f"the fork server does not take jobs ({e.strerror or e})") from e
        started = self._read(START_S)
        if started is None or "pid" not in started:
            raise ServerGone("the fork server did not start the job")
        pid = started["pid"]
        with owned_group(pid):  # a stopped worker kills it with the groups it started
            ended = self._read(wall_limit)
            killed = ended is None
            if killed:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                ended = self._read(START_S)
            if ended is None or "status" not in ended:  # the server died with its job (which dies with it)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                return -signal.SIGKILL, 0.0, killed
            return os.waitstatus_to_exitcode(ended["status"]), float(ended["cpu"]), killed

    def _read(self, timeout: float) -> dict[str, Any] | None:
        """The server's next answer; None after `timeout` seconds or when its end of the pipe closed."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                return None
            chunk = os.read(self._answers, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)


# --- the server ------------------------------------------------------------------------------------


def _forked(request: dict[str, Any], server: int, cwd: str) -> None:
    """In the forked job: make it a process of its own, run it, exit with its code. Never returns."""
    code = 1
    try:
        os.setsid()  # its own process group, as `start_group` gives: a kill of the group ends its helpers too
        if die_with_parent() and os.getppid() != server:
            os._exit(1)  # the server died before the signal was set
        child.limit_cpu(float(request["cpu_limit"]))
        if request.get("cpus"):
            os.sched_setaffinity(0, request["cpus"])  # the CPUs of the process that asked, as a fresh one inherits
        os.chdir(request["cwd"])
        if cwd in sys.path:  # `python -m` put the server's folder on the path, as a fresh one puts the job's
            sys.path[sys.path.index(cwd)] = request["cwd"]
        null = os.open(os.devnull, os.O_RDONLY)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        os.environ.update(request["env"])
        tempfile.tempdir = None  # read again from the job's TMPDIR
        code = child.run(request["config"])
    except BaseException:
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def main() -> None:
    requests_fd, answers_fd, spec = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
    targets = [keys.Target(*t) for t in spec["targets"]]
    child.prepare(targets, bool(spec["no_backward"]))
    for name in [*_packages(targets), "unittest", "pytest"]:
        with contextlib.suppress(BaseException):  # a package that fails to import fails in its jobs, as before
            importlib.import_module(name)
    # What the imports made stays as it is: without this, a job's first full collection would traverse the
    # ~900k objects it shares with the server and copy every page they are on.
    gc.collect()
    gc.freeze()
    cwd = os.getcwd()
    server = os.getpid()
    requests = os.fdopen(requests_fd, "rb")
    while select.select([requests], [], [], IDLE_S)[0]:
        line = requests.readline()
        if not line:
            break
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()
            os.close(answers_fd)
            _forked(request, server, cwd)
        os.write(answers_fd, (json.dumps({"pid": pid}) + "\n").encode())
        _, status, usage = os.wait4(pid, 0)
        cpu = usage.ru_utime + usage.ru_stime
        os.write(answers_fd, (json.dumps({"status": status, "cpu": cpu}) + "\n").encode())
    os._exit(0)


if __name__ == "__main__":
    main()
