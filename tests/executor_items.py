"""Module-level functions the executor tests run in worker processes (spawned workers import them)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def square(x: int) -> int:
    return x * x


def behave(item: tuple[str, int]) -> int:
    """`("ok", n)` -> n; "hang" sleeps past any limit; "segv" and "exit" kill the worker; "raise" raises."""
    kind, n = item
    if kind == "hang":
        time.sleep(600)
    elif kind == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif kind == "exit":
        os._exit(3)
    elif kind == "raise":
        raise ValueError(f"bad item {n}\nsecond line")
    return n


class DiesAsTaken:
    """An item whose worker dies while it unpickles it, before telling pebble it took it: the state pebble
    reaches, under load, when a worker ends within milliseconds of taking its item (it then fails every item
    in flight with "All workers expired")."""

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return os._exit, (5,)


def broken_start() -> None:
    raise RuntimeError("this worker cannot start")


def deaf_hang(marker: str) -> None:
    """Block SIGTERM (as a worker busy in a native compile effectively does), say so, and hang."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    with open(f"{marker}.{os.getpid()}", "w"):
        pass
    time.sleep(600)


def worker_pid(_: object) -> int:
    return os.getpid()


def string_hash(text: str) -> int:
    return hash(text)


def start_grandchild(marker: str) -> int:
    """Start `sleep` with `marker` on its command line, then hang: only a group kill ends the sleep."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", marker])
    time.sleep(600)
    return 0


def write_cache_entry(item: tuple[str, int]) -> None:
    """Write one large entry under a key every item shares, many times (the concurrent-writers test)."""
    from warp_cuda_ir.cache import Cache

    root, _ = item
    for _ in range(5):
        Cache(root).put("capture", "shared", list(range(200_000)))


def start_marked(command: list[str], marker: str, **popen: object) -> subprocess.Popen[bytes]:
    """Start `command` with `marker` in its environment (so every process it starts can be found) and
    Ctrl-C's default action (a background job may inherit SIGINT ignored); stderr is a pipe."""
    return subprocess.Popen(  # type: ignore[call-overload]
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "WARP_CUDA_IR_TEST_MARKER": marker},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **popen,
    )


def marked_processes(marker: str, part: str = "cmdline") -> list[int]:
    """Pids of processes whose command line (or `part="environ"`: environment, which every process a
    build starts inherits) holds `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/{part}", "rb") as f:
                    if marker.encode() in f.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


def interrupt_while_workers_start() -> None:
    """Ctrl-C at the terminal while the pool's workers are still starting: SIGINT to this process's whole
    group, as a terminal sends it, as soon as a worker runs Python (it is then still importing what its first
    task needs); exit 130 as the build does."""
    import threading

    from warp_cuda_ir.engines import get_executor

    def runs_python(pid: str) -> bool:  # the spawned worker has become Python: it is importing
        try:
            return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False

    def interrupt_at_first_child() -> None:
        children = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
        deadline = time.time() + 60
        while not any(runs_python(pid) for pid in children.read_text().split()) and time.time() < deadline:
            time.sleep(0.001)
        time.sleep(0.05)  # into its imports: 5 of 5 runs printed a worker's KeyboardInterrupt before the fix
        os.killpg(os.getpgrp(), signal.SIGINT)

    threading.Thread(target=interrupt_at_first_child, daemon=True).start()
    try:
        with get_executor("local", 2) as executor:
            for _ in executor.map(behave, [("hang", 0)] * 2):
                pass
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__" and sys.argv[1] == "--interrupt-start":
    interrupt_while_workers_start()
elif __name__ == "__main__":  # a driver the signal tests start and then interrupt
    from warp_cuda_ir.engines import get_executor

    mark = sys.argv[1]
    with get_executor("local", 2) as executor:
        print("started", flush=True)
        for _ in executor.map(start_grandchild, [mark, mark, mark]):
            pass


def leave_temporary_files(item: tuple[str, str]) -> str:
    """Leave a temporary folder behind, as Warp's precompiled headers are left (a worker ends with `os._exit`);
    `("die", marker)` writes the folder's path to `marker`, then kills the worker."""
    import tempfile

    kind, marker = item
    left = tempfile.mkdtemp(prefix="left_")
    if kind == "die":
        with open(marker, "w") as f:
            f.write(left)
        os._exit(3)
    return left


def shared_temp(_: object) -> str:
    from warp_cuda_ir.engines import shared_temp_dir

    return str(shared_temp_dir())
