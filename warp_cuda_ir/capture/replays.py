"""Replay verdicts for a build: cached per record, computed in executor workers under a time limit.

A replay compiles a real kernel with Clang and runs it: code we did not write, doing whatever it does.
A warp-lang test kernel that prints ended a build's own process (`LLVM ERROR: IO failure on output
stream`) after ~1,000 replays in it. So the build never replays in its own process: `replay_all` maps
`replay_one` over the records whose verdict is not cached, one record per item, on the executor. A record
whose replay kills its worker, or runs past `time_limit`, gets an `error` verdict that says so; the others
go on. The driver writes each verdict into the cache as it arrives, so an interrupted build keeps them.
Before the replays, `prebuild` compiles the CPU modules of a chunk of records in one Clang call into Warp's
kernel cache (`cpu_units`): a cold replay is mostly Clang, and a unit pays for Warp's headers once (2,448
records of the default build: 154 CPU-s from a fresh Warp kernel cache; every 8th: 45.8 CPU-s without this
step, 26.0 with it, the same verdicts).

Verdicts are keyed by what decides them (source, kernel name, record bytes, `REPLAY_VERSION`): a
rebuild replays nothing it replayed before, whichever output folder it writes.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from warp_cuda_ir import cpu_units, extraction, warp_session
from warp_cuda_ir.cache import Cache
from warp_cuda_ir.capture import record as rec
from warp_cuda_ir.capture import replay
from warp_cuda_ir.engines import Executor, get_executor, working_directory

REPLAY_VERSION = "2"  # bump when the replay or its tolerances change: cached verdicts are then redone
# A replay is one Clang compile (forward only, -O0) and one launch: ~0.2-5 s, the slowest newton kernels
# ~40 s at load 8.
DEFAULT_TIME_LIMIT_S = 120.0
NAMESPACE = "replays"
# Records whose CPU modules one Clang unit compiles before they are replayed (`prebuild`): 16 and 64 measured
# 15-30% more CPU time than 32 on the sample above.
PREBUILD_RECORDS = 32
PREBUILD_TIME_LIMIT_S = 60.0  # beyond `time_limit`: a unit of heavy newton kernels at load ~8

Item = tuple[str, str, bytes]  # (self-contained source, kernel name, launch record bytes)


class ReplayCache:
    """Replay verdicts in the machine cache (`replays/`), keyed by what decides them; `None`: no cache."""

    def __init__(self, cache: Cache | str | os.PathLike[str] | None) -> None:
        self.cache = cache if isinstance(cache, Cache) else Cache(cache)

    @staticmethod
    def key(source: str, kernel_name: str, data: bytes) -> str:
        return hashlib.sha256(f"{REPLAY_VERSION}\0{source}\0{kernel_name}\0".encode() + data).hexdigest()[:40]

    def get(self, source: str, kernel_name: str, data: bytes) -> replay.Fidelity | None:
        got = self.cache.get(NAMESPACE, self.key(source, kernel_name, data))
        return replay.Fidelity(**got) if got is not None else None

    def put(self, source: str, kernel_name: str, data: bytes, fidelity: replay.Fidelity) -> None:
        self.cache.put(NAMESPACE, self.key(source, kernel_name, data), dict(fidelity.__dict__))

    def verdict(self, source: str, kernel_name: str, data: bytes) -> replay.Fidelity:
        """The cached verdict, else a replay in this process (tests; a record the build did not replay)."""
        got = self.get(source, kernel_name, data)
        if got is None:
            got = replay.replay(source, kernel_name, data)
            self.put(source, kernel_name, data, got)
        return got


@contextmanager
def _scratch() -> Iterator[Path]:
    """Where a worker loads a record's source: a scratch working directory (a kernel's program may write
    files), with the kernel's prints sent to /dev/null (warp-lang's print tests)."""
    with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_replay_") as scratch, working_directory(scratch):
        with warp_session.silenced_fd(1):
            yield Path(scratch)


def replay_one(item: Item) -> replay.Fidelity:
    """One replay in an executor worker."""
    warp_session.init_warp()
    with _scratch():
        return replay.replay(*item)


def prebuild(items: Sequence[Item]) -> int:
    """In an executor worker: the CPU modules these records' replays will load, compiled in one Clang unit
    into Warp's kernel cache (`cpu_units`), so each replay loads its module instead of compiling it. Returns
    how many modules it put there. A record whose module is not put there (it failed, or its launch asks for
    CPU blocks) is compiled by its replay, as without this step: verdicts do not change."""
    warp_session.init_warp()
    found: dict[str, warp_session.CpuModule] = {}
    with _scratch() as scratch:
        for source, kernel_name, data in items:
            try:
                block_dim = rec.unpack(data).meta.get("block_dim")
                if block_dim is not None and block_dim > extraction.CPU_BLOCK_DIM:
                    continue
                with replay.replay_settings(), warp_session.loaded_kernel(source, kernel_name) as (kernel, _):
                    module = warp_session.cpu_module(kernel, extraction.CPU_BLOCK_DIM, found)
            except Exception:
                continue  # its replay says why
            if module is not None:
                found.setdefault(module.identifier, module)
        return cpu_units.compile_into_kernel_cache(list(found.values()), scratch)


def replay_all(
    items: Iterable[Item],
    cache: ReplayCache,
    workers: int = 2,
    time_limit: float = DEFAULT_TIME_LIMIT_S,
    progress: Callable[[str, int, int], None] | None = None,
    executor: Executor | None = None,
) -> None:
    """Fill `cache` with a verdict for every item, replaying the missing ones on `executor` (default: a
    local one with `workers` processes), their CPU modules compiled first, a chunk per Clang call.
    `progress(stage, done, total)`: "compile" per chunk compiled (about half a cold stage's time), then
    "replay" per launch replayed."""
    todo, seen = [], set()
    for item in items:
        key = cache.key(*item)
        if key not in seen and cache.get(*item) is None:
            seen.add(key)
            todo.append(item)
    if not todo:
        return
    with ExitStack() as stack:
        if executor is None:
            executor = stack.enter_context(get_executor("local", workers))
        # Chunks of records, each worker one at a time: a chunk's modules are one Clang unit.
        size = max(2, min(PREBUILD_RECORDS, -(-len(todo) // executor.capacity())))
        chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
        limit = PREBUILD_TIME_LIMIT_S + time_limit
        # A chunk that failed or ran out of time: its replays compile their own modules.
        for done, _ in enumerate(executor.map(prebuild, chunks, time_limit=limit), 1):
            if progress is not None:
                progress("compile", done, len(chunks))
        for done, outcome in enumerate(executor.map(replay_one, todo, time_limit=time_limit), 1):
            if outcome.status == "ok" and outcome.value is not None:
                fidelity = outcome.value
            elif outcome.status == "timeout":
                fidelity = replay.Fidelity("error", f"replay cut at the {time_limit:g} s limit")
            else:
                fidelity = replay.Fidelity("error", f"the replay {outcome.detail}"[:500])
            cache.put(*todo[outcome.index], fidelity)
            if progress is not None:
                progress("replay", done, len(todo))
