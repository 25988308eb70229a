"""The local executor: worker processes on this machine, through pebble's `ProcessPool`.

pebble gives what a killable pool needs and what `concurrent.futures` lacks: a per-task time limit that
kills the worker running it, and a dead worker blamed on its own task (`ProcessExpired`) while the pool
replaces it and the other tasks go on. What it does not do is follow a worker's children; `_start_worker`
adds that (process group, group kill on SIGTERM, death with the parent).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

from pebble import ProcessExpired, ProcessPool

from warp_cuda_ir.engines import SHARED_TEMP_ENV, Executor, Outcome, Resources, Ticket, shared_temp_dir, use_temp_folder
from warp_cuda_ir.errors import WorkerStartError, one_line

T = TypeVar("T")
R = TypeVar("R")

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# How often `wait` wakes to let the main thread's signal handlers run (a blocked wait on a Condition is
# interruptible on Linux, but a short tick costs nothing and keeps Ctrl-C prompt everywhere).
WAIT_TICK_S = 0.5
# Idle workers normally exit within a second of `close`; past this they are killed.
CLOSE_TIMEOUT_S = 10.0
# The probe of a broken pool whose workers never finished an item: a worker starts in ~2 s (Warp's import).
START_PROBE_S = 120.0


# Process groups of subprocesses started with `start_group` in this process and not yet reaped.
_owned_groups: set[int] = set()


def _remove_nvrtc_header(pid: int) -> None:
    """NVRTC's precompiled header of process `pid` (~77 MB in the temp folder per process that compiled,
    removed by NVRTC only at a normal exit)."""
    for path in Path(tempfile.gettempdir()).glob(f"__nvrtc_auto_pch_{pid}_*"):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _kill_group(signum: int, frame: FrameType | None) -> None:
    """A stopped worker takes every process it started with it: those in its process group, and the
    groups it started with `start_group`; its NVRTC header goes too."""
    _remove_nvrtc_header(os.getpid())
    for pgid in list(_owned_groups):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    os.killpg(0, signal.SIGKILL)


def _set_death_signal(signum: int) -> bool:
    """Linux: receive `signum` when the parent (the thread that started us) dies, even by SIGKILL."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0


def _die_with_parent(parent: int) -> None:
    if _set_death_signal(signal.SIGTERM) and os.getppid() != parent:  # the parent died first
        _kill_group(signal.SIGTERM, None)


def die_with_parent() -> bool:
    """In a child process: SIGKILL when the process that started it dies (Linux); whether that is set."""
    return _set_death_signal(signal.SIGKILL)


@contextlib.contextmanager
def owned_group(pgid: int) -> Iterator[None]:
    """A process group this process did not start with `start_group` (a fork server's job), killed with the
    groups it did if this worker is stopped during the block."""
    _owned_groups.add(pgid)
    try:
        yield
    finally:
        _owned_groups.discard(pgid)


def start_group(args: list[str], before: Callable[[], None] | None = None, **popen: Any) -> subprocess.Popen[bytes]:
    """Start a subprocess that leads its own process group, so `kill_group` ends it with whatever it
    started (a test runner's helpers), and that cannot outlive this process: a stopped worker kills the
    groups it started, and the subprocess dies with the process that started it. `before` runs in the
    child before it executes (e.g. `setrlimit` calls: only what is safe after a fork)."""

    def prepare() -> None:
        die_with_parent()
        if before is not None:
            before()

    proc = subprocess.Popen(args, start_new_session=True, preexec_fn=prepare, **popen)
    _owned_groups.add(proc.pid)
    return proc


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill a `start_group` subprocess and its group, and reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    _owned_groups.discard(proc.pid)


def _start_worker(initializer: Callable[[], None] | None, parent: int, temp: str, shared: str) -> None:
    """Runs first in every worker (pebble's initializer)."""
    # The pool's temporary folder, for the worker and what it starts: workers end with `os._exit` or are
    # killed, so what they leave behind (Warp's precompiled headers, ~4.5 MB per process that compiled on the
    # CPU) goes when the pool stops instead of piling up in /tmp. What is shared per machine stays in `shared`.
    use_temp_folder(temp)
    os.environ[SHARED_TEMP_ENV] = shared
    os.setpgrp()  # lead a group: Ctrl-C at the terminal reaches the parent only, which stops us
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent's to handle (`_starting_workers`)
    signal.signal(signal.SIGTERM, _kill_group)
    _die_with_parent(parent)
    if initializer is not None:
        initializer()


@contextlib.contextmanager
def _starting_workers() -> Iterator[None]:
    """Ctrl-C ignored in this process while pebble starts the pool's first workers, which inherit it: they
    start in our process group (until `_start_worker` gives them their own), so a Ctrl-C at that moment
    reached them too, and each printed a KeyboardInterrupt traceback from the middle of its imports (5 of 5
    interrupts timed so). A signal mask does not help: the spawned Python starts with none blocked. A Ctrl-C
    within the spawn's few ms is lost (press again); workers pebble starts later, to replace one, are not covered."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is None:
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _is_pebble_timeout(error: BaseException) -> bool:
    # pebble cuts a task with TimeoutError("Task timeout", limit); an item's own TimeoutError carries
    # the remote traceback as its cause.
    return isinstance(error, TimeoutError) and error.args[:1] == ("Task timeout",) and error.__cause__ is None


def outcome_of(ticket: Ticket, future: Future[Any]) -> Outcome[Any]:
    error = future.exception()
    if error is None:
        return Outcome(ticket.index, "ok", future.result())
    if _is_pebble_timeout(error):
        return Outcome.timeout(ticket.index, ticket.time_limit)
    if isinstance(error, ProcessExpired):
        return Outcome.crashed(ticket.index, error.exitcode)
    return Outcome.error(ticket.index, error)


def _broke(future: Future[Any]) -> bool:
    return future.done() and not future.cancelled() and isinstance(future.exception(), BrokenProcessPool)


def _workers_start(_: Any) -> bool:
    """The probe `_after_break` runs: it ends at once wherever a worker starts."""
    return True


def _worker_pids(pool: ProcessPool) -> list[int]:
    """The pids of the pool's live workers (pebble keeps them by pid; not a public attribute)."""
    manager = getattr(getattr(pool, "_pool_manager", None), "worker_manager", None)
    return [pid for pid in getattr(manager, "workers", {}) if isinstance(pid, int)]


class LocalExecutor(Executor):
    """`workers` processes started with `spawn` (a fork of a process that initialised Warp, NVRTC or a
    thread pool is unsafe), created at the first item that needs one and reused until `close`."""

    def __init__(self, workers: int, *, initializer: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.workers = workers
        self.initializer = initializer
        self._pool: ProcessPool | None = None
        self._temp: Path | None = None  # the pool's temporary folder (`_start_worker`)
        self._initialised_here = False
        self._workers_ran = False  # a worker of this executor has finished an item (they can start)

    def _get_pool(self) -> ProcessPool:
        if self._pool is None:
            # Workers (and what they start) hash strings with one fixed seed: Warp orders some generated
            # lines by iterating a set (newton's `_solve_persistent` gave two texts across PYTHONHASHSEED
            # 1-3), and the same inputs must give the same rows on every run. A seed the user set is kept.
            os.environ.setdefault("PYTHONHASHSEED", "0")
            self._temp = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_workers_"))
            self._pool = ProcessPool(
                max_workers=self.workers,
                initializer=_start_worker,
                initargs=(self.initializer, os.getpid(), str(self._temp), str(shared_temp_dir())),
                context=multiprocessing.get_context("spawn"),
            )
        return self._pool

    def submit(
        self, fn: Callable[[T], R], item: T, *, index: int, time_limit: float | None, resources: Resources
    ) -> Ticket:
        if self.workers == 1 and time_limit is None:
            return Ticket(index, self._run_here(fn, item, index), time.time(), None)
        try:
            future = self._schedule(fn, item, time_limit)
        except RuntimeError:  # the pool broke since the last `wait` (`_after_break` runs this item again)
            future = Future()
            future.set_exception(BrokenProcessPool("the pool broke before the item started"))
        return Ticket(index, future, time.time(), time_limit, (fn, item))

    def _schedule(self, fn: Callable[[Any], Any], item: Any, time_limit: float | None) -> Future[Any]:
        with _starting_workers() if self._pool is None else contextlib.nullcontext():
            return self._get_pool().schedule(fn, args=(item,), timeout=time_limit)

    def _run_here(self, fn: Callable[[T], R], item: T, index: int) -> Outcome[R]:
        """One worker and no time limit: the calling process is the worker."""
        if not self._initialised_here and self.initializer is not None:
            self.initializer()
        self._initialised_here = True
        try:
            return Outcome(index, "ok", fn(item))
        except Exception as e:
            return Outcome.error(index, e)

    def wait(self, tickets: list[Ticket]) -> list[tuple[Ticket, Outcome[Any]]]:
        ready = [(t, t.handle) for t in tickets if isinstance(t.handle, Outcome)]
        if ready:
            return ready
        by_future = {t.handle: t for t in tickets}
        while True:
            done, _ = wait_futures(list(by_future), timeout=WAIT_TICK_S, return_when=FIRST_COMPLETED)
            if done:
                if any(_broke(f) for f in done):
                    return self._after_break(tickets)
                finished = sorted((by_future[f] for f in done), key=lambda t: t.index)
                self._workers_ran = True
                return [(t, outcome_of(t, t.handle)) for t in finished]

    def _after_break(self, tickets: list[Ticket]) -> list[tuple[Ticket, Outcome[Any]]]:
        """pebble failed every item in flight: a worker died before pebble saw which item it had taken (seen
        under load, a worker that ends within milliseconds of taking its item), or no worker can start.

        Items that had finished keep their outcomes. If workers never ran an item, a probe tells whether they
        can start at all (`WorkerStartError` if not: not an item's fault, said once). The other items then run
        again one at a time, each alone in a fresh pool, so the item whose worker dies again is the one blamed.
        """
        finished = [t for t in tickets if t.handle.done() and not _broke(t.handle)]
        suspects = sorted((t for t in tickets if t not in finished), key=lambda t: t.index)
        cause = next((t.handle.exception() for t in suspects if t.handle.done()), None)
        self.stop()
        out = [(t, outcome_of(t, t.handle)) for t in finished]
        if finished:
            self._workers_ran = True
        if not self._workers_ran and _broke(self._alone(_workers_start, None, START_PROBE_S)):
            self.stop()
            raise WorkerStartError(f"the worker processes could not start ({one_line(cause or 'no worker')})")
        for t in suspects:
            assert t.work is not None  # every ticket of a pool holds its work (`submit`)
            future = self._alone(*t.work, t.time_limit)
            if _broke(future):
                self.stop()
                out.append((t, Outcome.crashed(t.index, None, "its worker died as it took the item")))
            else:
                self._workers_ran = True
                out.append((t, outcome_of(t, future)))
        return out

    def _alone(self, fn: Callable[[Any], Any], item: Any, time_limit: float | None) -> Future[Any]:
        """Run one item in this executor's pool with nothing beside it; its finished future."""
        future = self._schedule(fn, item, time_limit)
        while not future.done():
            wait_futures([future], timeout=WAIT_TICK_S)
        return future

    def cancel(self, tickets: list[Ticket]) -> None:
        for ticket in tickets:
            if isinstance(ticket.handle, Future):
                ticket.handle.cancel()  # pebble kills the worker of a running task

    def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # Kill the workers' groups from here first: a worker busy in native code (Clang, NVRTC) runs its
        # SIGTERM handler only when the compile returns, and pebble waits 3 s per worker before SIGKILL
        # (a replay stage took 6.8 s to stop at load 14 that way). Their `start_group` children die with
        # them (PR_SET_PDEATHSIG).
        pids = _worker_pids(pool)
        for pid in pids:
            try:
                os.killpg(pid, signal.SIGKILL)  # a worker still starting leads no group yet: pebble stops it
            except (ProcessLookupError, PermissionError):
                pass
        pool.stop()
        pool.join()
        for pid in pids:
            _remove_nvrtc_header(pid)
        self._remove_temp()

    def _shutdown(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.close()
        try:
            pool.join(CLOSE_TIMEOUT_S)
        except TimeoutError:
            pool.stop()
            pool.join()
        self._remove_temp()

    def _remove_temp(self) -> None:
        temp, self._temp = self._temp, None
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
