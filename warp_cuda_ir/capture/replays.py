"""Replay verdicts for a build: cached per record, computed in child processes under a time limit.

A replay compiles a real kernel with Clang and runs it: code we did not write, doing whatever it does.
A warp-lang test kernel that prints ended a build's own process (`LLVM ERROR: IO failure on output
stream`) after ~1,000 replays in it. So the build never replays in its own process: `replay_all` hands
the records whose verdict is not cached to `workers` child processes (`python -m
warp_cuda_ir.capture.replays BATCH CACHE`), each writing one verdict file per record as it goes, in
order. A child that dies, or makes no progress for `time_limit` seconds, is killed with its process
group; the record it was on gets an `error` verdict that says so, and a new child goes on with the rest.

Verdicts are keyed by what decides them (source, kernel name, record bytes, `REPLAY_VERSION`): a
rebuild replays nothing it replayed before.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from warp_cuda_ir.capture import jobs, replay
from warp_cuda_ir.errors import WorkerStartError

REPLAY_VERSION = "2"  # bump when the replay or its tolerances change: cached verdicts are then redone
# A replay is one Clang compile (forward only, -O0) and one launch: ~0.2-5 s, the slowest newton kernels
# ~40 s at load 8. A child that finishes nothing for this long is stuck on its record.
DEFAULT_TIME_LIMIT_S = 120.0

Item = tuple[str, str, bytes]  # (self-contained source, kernel name, launch record bytes)


class ReplayCache:
    """Replay verdicts, one small JSON file each, keyed by what decides them."""

    def __init__(self, folder: str | os.PathLike[str] | None) -> None:
        # Absolute: the replay children run in scratch folders of their own and write verdicts here.
        self.folder = None if folder is None else Path(folder).absolute()
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)

    def _path(self, source: str, kernel_name: str, data: bytes) -> Path | None:
        if self.folder is None:
            return None
        key = hashlib.sha256(f"{REPLAY_VERSION}\0{source}\0{kernel_name}\0".encode() + data).hexdigest()[:24]
        return self.folder / f"{key}.json"

    def get(self, source: str, kernel_name: str, data: bytes) -> replay.Fidelity | None:
        path = self._path(source, kernel_name, data)
        if path is None or not path.exists():
            return None
        return replay.Fidelity(**json.loads(path.read_text()))

    def put(self, source: str, kernel_name: str, data: bytes, fidelity: replay.Fidelity) -> None:
        path = self._path(source, kernel_name, data)
        if path is None:
            return
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".partial")
        with os.fdopen(fd, "w") as f:
            json.dump(fidelity.__dict__, f)
        os.replace(tmp, path)

    def verdict(self, source: str, kernel_name: str, data: bytes) -> replay.Fidelity:
        """The cached verdict, else a replay in this process (the child's loop; tests)."""
        got = self.get(source, kernel_name, data)
        if got is None:
            got = replay.replay(source, kernel_name, data)
            self.put(source, kernel_name, data, got)
        return got


def replay_all(
    items: Iterable[Item],
    cache: ReplayCache,
    workers: int = 2,
    time_limit: float = DEFAULT_TIME_LIMIT_S,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Fill `cache` with a verdict for every item, replaying the missing ones in child processes."""
    if cache.folder is None:
        raise ValueError("replay_all needs a cache folder: the children hand their verdicts back through it")
    todo, seen = [], set()
    for item in items:
        key = cache._path(*item)
        if key not in seen and cache.get(*item) is None:
            seen.add(key)
            todo.append(item)
    if not todo:
        return
    lock, done = threading.Lock(), [0]

    def advanced(n: int) -> None:
        with lock:
            done[0] += n
            if progress is not None:
                progress(done[0], len(todo))

    streams = [todo[i :: max(1, workers)] for i in range(max(1, workers))]
    with concurrent.futures.ThreadPoolExecutor(len(streams)) as pool:
        for fut in [pool.submit(_run_stream, s, cache, time_limit, advanced) for s in streams if s]:
            fut.result()


def _run_stream(items: list[Item], cache: ReplayCache, time_limit: float, advanced: Callable[[int], None]) -> None:
    """One child after another over `items`, until each has a verdict."""
    assert cache.folder is not None
    position = 0
    while position < len(items):
        with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_replay_") as scratch:
            batch, log_path = Path(scratch) / "batch.pickle", Path(scratch) / "stderr.txt"
            with open(batch, "wb") as f:
                pickle.dump(items[position:], f, protocol=pickle.HIGHEST_PROTOCOL)
            with open(log_path, "wb") as log:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "warp_cuda_ir.capture.replays", str(batch), str(cache.folder)],
                    cwd=scratch,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,  # replayed kernels may print (warp-lang's print tests)
                    stderr=log,
                    env=jobs.child_env(),
                    start_new_session=True,
                )
                last_progress = time.monotonic()
                code: int | None = None
                try:
                    while code is None:
                        try:
                            code = proc.wait(timeout=1.0)
                        except subprocess.TimeoutExpired:
                            if time.monotonic() - last_progress > time_limit:
                                break
                        moved = position
                        while position < len(items) and cache.get(*items[position]) is not None:
                            position += 1
                        if position > moved:
                            advanced(position - moved)
                            last_progress = time.monotonic()
                finally:
                    if proc.poll() is None:
                        jobs.kill_group(proc)
            if position < len(items) and not (Path(scratch) / "ready").exists():
                # Not a record's fault: the child could not start (a broken install, no Warp). Every new
                # child would fail the same way, one record each: stop with what it said instead.
                raise WorkerStartError(
                    f"replay process failed before its first replay (exit code {code}): "
                    f"{jobs.last_error_line(log_path)}"
                )
            if position < len(items):  # the child ended, or was cut, on this record
                if code is None:
                    why = f"replay cut at the {time_limit:g} s limit"
                else:
                    why = f"the replay process ended with exit code {code}: {jobs.last_error_line(log_path)}"
                cache.put(*items[position], replay.Fidelity("error", why[:500]))
                position += 1
                advanced(1)


def main() -> None:
    """The child: replay every item of a batch in order, each verdict written to the cache as it is known."""
    from warp_cuda_ir import warp_session

    batch, folder = sys.argv[1], sys.argv[2]
    with open(batch, "rb") as f:
        items: list[Item] = pickle.load(f)
    warp_session.init_warp()
    Path(batch).with_name("ready").touch()  # from here on, a death is the record's doing
    cache = ReplayCache(folder)
    for item in items:
        cache.verdict(*item)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # a replayed kernel's module may leave threads or atexit hooks behind


if __name__ == "__main__":
    main()
