"""The executor: the one way this package fans work out over processes or a Ray cluster.

Every fan-out (build shards, the harvest, capture jobs, replays, validation) is a map of a module-level
function over picklable items::

    with get_executor("local", workers=2) as executor:
        for outcome in executor.map(check_row, rows, time_limit=120):
            if outcome.status == "ok":
                save(outcome.index, outcome.value)     # write as results arrive: a restart resumes
            else:
                blame(outcome.index, outcome.status, outcome.detail)

What an executor promises:

- Isolation. Each item runs in a worker process. An item that runs past `time_limit` seconds is killed
  (`status="timeout"`), one whose worker dies (a segfault, `os._exit`, the OOM killer) is `crashed`, one that
  raises is `error` with the exception on one line; every other item goes on, and a dead worker is replaced.
  With `workers == 1` and no time limit, local items run in the calling process (simplest to debug).
- Laziness. `map` pulls items only as capacity frees up (`ahead` in flight, default twice the workers), and
  asks `wanted(in_flight)` before each pull: a caller that stops consuming, or whose size target is met,
  runs nothing more. Outcomes come back as they finish, not in input order (`Outcome.index` says which).
- Long-lived workers. Workers are reused across items and across `map` calls of one executor, so per-worker
  state (an imported Warp, a warm kernel cache) is paid once; `initializer` runs once in each worker.
- Signals. Local workers lead their own process group, kill that group (every subprocess an item started:
  nvcc, g++, a capture script) when stopped, and die when the parent dies (Linux `PR_SET_PDEATHSIG`), so
  nothing outlives the build. An item whose subprocess needs a group of its own (to kill it, and what it
  started, at the item's own limit) starts it with `engines.local.start_group` and ends it with
  `kill_group`: a stopped worker kills those groups too. Use an executor from a thread that outlives it
  (the main thread): Linux ties a worker's life to the thread that started it. While an executor is open
  in the main thread, SIGTERM raises `KeyboardInterrupt` there as Ctrl-C does; leaving the `with` block
  on an exception stops every worker at once. Finished items stay finished: the same command resumes.

`Resources` matter to Ray only (a GPU stage asks for `gpus=1`); the local executor runs one item per
worker. `submit`/`wait` are the primitives `map` is built on, for schedulers that interleave other work (the
shard feed reports cached shards without running them).
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, Generic, TypeVar

from warp_cuda_ir.errors import UsageError, one_line

ENGINES = ("local", "ray")
T = TypeVar("T")
R = TypeVar("R")
STATUSES = ("ok", "timeout", "crashed", "error")
# A local pool's workers get a temporary folder of their own, removed with the pool (`engines.local`). What
# is made once per machine and shared by every process (the device-header copy, a package folder's link)
# lives in the machine's temporary folder, which this variable names inside a worker.
SHARED_TEMP_ENV = "WARP_CUDA_IR_SHARED_TEMP"


def shared_temp_dir() -> Path:
    """The machine's temporary folder, also from inside a pool's worker."""
    return Path(os.environ.get(SHARED_TEMP_ENV) or tempfile.gettempdir())


def temp_env(folder: str | os.PathLike[str]) -> dict[str, str]:
    """The environment variables that make `folder` a process's temporary folder (Python's `tempfile`,
    Warp's Clang and NVRTC, the compilers it starts all read one of them)."""
    return dict.fromkeys(("TMPDIR", "TEMP", "TMP"), str(folder))


def use_temp_folder(folder: str | os.PathLike[str]) -> None:
    """Make `folder` this process's temporary folder, for Python's `tempfile` and what the process starts."""
    os.environ.update(temp_env(folder))
    tempfile.tempdir = str(folder)


@dataclass(frozen=True)
class Resources:
    """What one item needs. Ray schedules on it (a GPU stage lands on a node with a GPU); the local
    executor runs one item per worker whatever it asks."""

    cpus: float = 1.0
    gpus: float = 0.0


@dataclass(frozen=True)
class Outcome(Generic[R]):
    """How one item ended."""

    index: int  # the item's position in the input
    status: str  # one of STATUSES
    value: R | None  # fn's return value when ok
    detail: str = ""  # one line: why it is not ok
    exit_code: int | None = None  # crashed: the worker's exit code when known (negative: killed by that signal)

    @classmethod
    def timeout(cls, index: int, limit: float | None) -> Outcome[Any]:
        return cls(index, "timeout", None, f"cut at the {limit:g} s limit" if limit is not None else "cut")

    @classmethod
    def crashed(cls, index: int, exit_code: int | None, note: str = "") -> Outcome[Any]:
        """`worker died: exit code -11 (SIGSEGV)`, with what the executor knows of why."""
        code = "unknown" if exit_code is None else str(exit_code)
        if exit_code is not None and exit_code < 0:
            try:
                code += f" ({signal.Signals(-exit_code).name})"
            except ValueError:
                pass
        detail = f"worker died: exit code {code}" + (f": {one_line(note, 300)}" if note else "")
        return cls(index, "crashed", None, detail, exit_code)

    @classmethod
    def error(cls, index: int, error: BaseException) -> Outcome[Any]:
        return cls(index, "error", None, f"{type(error).__name__}: {one_line(error, 500)}")


class Ticket:
    """A submitted item; `Executor.wait` hands it back with its outcome."""

    __slots__ = ("handle", "index", "started", "time_limit", "work")

    def __init__(
        self, index: int, handle: Any, started: float, time_limit: float | None, work: tuple[Any, Any] | None = None
    ) -> None:
        self.index, self.handle, self.started, self.time_limit = index, handle, started, time_limit
        self.work = work  # (fn, item), where an executor may have to run the item again


@contextlib.contextmanager
def working_directory(path: str | os.PathLike[str]) -> Iterator[None]:
    """Run an item in `path` (what it writes to its working directory lands there), then return to where the
    worker was: workers are reused, and the next item's relative paths must mean what they meant.
    (`contextlib.chdir` is Python 3.11+.)"""
    home = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(home)


def always(_: int) -> bool:
    return True


class Executor:
    """Runs a function over items in isolated workers (see the module's docstring). An implementation
    provides `submit`, `wait`, `cancel`, `stop` and `_shutdown`; `map`, the context manager and the signal
    handling are shared."""

    workers: int = 1
    # Whether workers see this machine's files (a shard written by a worker is readable here).
    shares_files: bool = True

    def __init__(self) -> None:
        self._previous_sigterm: Any = None
        self._handling = False

    # ---- to implement ----------------------------------------------------------------------------
    def submit(
        self, fn: Callable[[T], R], item: T, *, index: int, time_limit: float | None, resources: Resources
    ) -> Ticket:
        raise NotImplementedError

    def wait(self, tickets: list[Ticket]) -> list[tuple[Ticket, Outcome[Any]]]:
        raise NotImplementedError

    def stop(self) -> None:
        """Kill every worker now (and what they started); the executor can still be used afterwards."""
        raise NotImplementedError

    def _shutdown(self) -> None:
        """Let idle workers exit on their own (they clean up their temporary files)."""
        raise NotImplementedError

    def cancel(self, tickets: list[Ticket]) -> None:
        """Drop `tickets` that are not wanted any more (running ones are killed)."""
        raise NotImplementedError

    def capacity(self) -> int:
        """How many items run at once (a Ray cluster brings its own CPUs)."""
        return self.workers

    def _default_ahead(self, time_limit: float | None) -> int:
        """Items in flight when `map` is not told: one running and one queued per worker."""
        return 2 * self.capacity()

    # ---- shared ----------------------------------------------------------------------------------
    def map(
        self,
        fn: Callable[[T], R],
        items: Iterable[T],
        *,
        time_limit: float | None = None,
        resources: Resources = Resources(),
        ahead: int | None = None,
        wanted: Callable[[int], bool] = always,
    ) -> Iterator[Outcome[R]]:
        """`fn` over `items`, each outcome as it finishes; at most `ahead` items in flight and a new one
        pulled only while `wanted(in_flight)`. Closing the iterator early cancels what is in flight."""
        capacity = max(1, ahead if ahead is not None else self._default_ahead(time_limit))
        self._handle_signals()
        todo = enumerate(items)
        pending: list[Ticket] = []
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < capacity and wanted(len(pending)):
                    nxt = next(todo, None)
                    if nxt is None:
                        exhausted = True
                    else:
                        pending.append(
                            self.submit(fn, nxt[1], index=nxt[0], time_limit=time_limit, resources=resources)
                        )
                if not pending:
                    return
                for ticket, outcome in self.wait(pending):
                    pending.remove(ticket)
                    yield outcome
        except GeneratorExit:
            raise
        except BaseException:
            self.stop()  # Ctrl-C, SIGTERM or a failing caller: nothing keeps running
            raise
        finally:
            if pending:  # stopped early: what is in flight is not wanted
                self.cancel(pending)

    def _handle_signals(self) -> None:
        """SIGTERM becomes KeyboardInterrupt in the main thread while this executor is open, so one path
        (the `except` in `map`, the `with` block) stops everything on either signal."""
        if self._handling or threading.current_thread() is not threading.main_thread():
            return

        def interrupt(signum: int, frame: FrameType | None) -> None:
            raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")

        self._previous_sigterm = signal.signal(signal.SIGTERM, interrupt)
        self._handling = True

    def _restore_signals(self) -> None:
        if self._handling and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, self._previous_sigterm)
            self._handling = False

    def close(self) -> None:
        """Let the workers finish and exit (idle ones at once), and give the signals back."""
        try:
            self._shutdown()
        finally:
            self._restore_signals()

    def __enter__(self) -> Executor:
        self._handle_signals()  # work done inside the block but outside `map` stops on SIGTERM too
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if kind is not None:
            try:
                self.stop()
            finally:
                self._restore_signals()
        else:
            self.close()


def get_executor(
    engine: str,
    workers: int,
    ray_address: str | None = None,
    *,
    initializer: Callable[[], None] | None = None,
) -> Executor:
    """The executor called `engine` ("local" or "ray"), ready to use (Ray: connected, or
    `EngineUnavailable` within 30 s). `initializer` (module-level, no arguments) runs once per worker."""
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    if engine == "local":
        from warp_cuda_ir.engines.local import LocalExecutor

        return LocalExecutor(workers, initializer=initializer)
    if engine == "ray":
        from warp_cuda_ir.engines.ray import RayExecutor

        return RayExecutor(workers, ray_address, initializer=initializer)
    raise UsageError(f"unknown engine {engine!r}; choose from: {', '.join(ENGINES)}")
