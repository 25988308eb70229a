"""The validation pass: rows go to worker processes in chunks; results are kept as they arrive.

Isolation: a worker that exceeds its deadline is killed and one that dies is noticed at once
(its pipe closes); either way only the row it was on is marked, on the stage it was in (the
worker reports each stage as it starts: `cpu_compile`, `cpu_run`, `gpu_run`, `gradcheck`; each has
its own time limit), as `timeout` / `error`; the rest of its chunk goes back in the queue, and a
fresh worker takes over. Resume: every finished
row is appended to `<out>/.build/validation/progress/<data file>.jsonl` at once, so a rerun
validates only what is missing (a torn last line is ignored).
"""

from __future__ import annotations

import json
import multiprocessing
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from warp_cuda_ir import schema, writing
from warp_cuda_ir.errors import WorkerStartError
from warp_cuda_ir.validation import row as row_columns
from warp_cuda_ir.validation.worker import WorkerConfig
from warp_cuda_ir.validation.worker import main as worker_main

STARTUP_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class PassOptions:
    arch: int = 90
    workers: int = 1
    chunk_size: int = 16  # rows per NVRTC batch
    stage_timeout_s: float = 120.0  # each of a row's stages (CPU compile, CPU run, GPU run, gradient check)
    compile_timeout_s: float = 60.0  # plus 10 s per row in the batch
    use_gpu: bool = True
    standalone: bool = True  # standalone programs: compile with nvcc / g++, run the CPU twin


@dataclass
class StageTimes:
    """Worker-seconds spent per stage (summed over workers), for kernels/s figures."""

    cuda_compile: float = 0.0
    cuda_rows: int = 0
    execution: dict[str, float] = field(default_factory=dict)
    rows: int = 0


@dataclass
class Chunk:
    rows: list[dict[str, Any]]
    files: list[str]  # progress key (data file name) of each row
    compile: bool = True
    cuda: list[dict[str, Any] | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cuda = self.cuda or [None] * len(self.rows)


class Progress:
    """Finished rows, one JSON line each, per data file."""

    def __init__(self, root: Path, fingerprint: dict[str, Any]) -> None:
        self.root = root / "progress"
        args = root / "args.json"
        if args.exists() and json.loads(args.read_text()) != fingerprint:
            shutil.rmtree(self.root, ignore_errors=True)  # validated with other settings: start over
        self.root.mkdir(parents=True, exist_ok=True)
        writing.write_text_atomic(args, json.dumps(fingerprint, sort_keys=True))
        self._handles: dict[str, Any] = {}

    def load(self, key: str) -> dict[str, dict[str, Any]]:
        done: dict[str, dict[str, Any]] = {}
        path = self.root / f"{key}.jsonl"
        if path.exists():
            for line in path.read_text().splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line torn by a crash: that row runs again
                done[record.pop("id")] = record
        return done

    def add(self, key: str, row_id: str, columns: dict[str, Any]) -> None:
        handle = self._handles.get(key) or self._handles.setdefault(key, (self.root / f"{key}.jsonl").open("a"))
        handle.write(json.dumps({"id": row_id, **columns}) + "\n")
        handle.flush()

    def close(self) -> None:
        for handle in self._handles.values():
            handle.close()


class _Slot:
    """One worker process and what it is doing."""

    def __init__(self, index: int, make_config: Callable[[str], WorkerConfig], scratch_root: Path) -> None:
        self.index = index
        self.scratch = Path(tempfile.mkdtemp(dir=scratch_root, prefix=f"w{index}_"))
        self.config = make_config(str(self.scratch))
        parent, child = multiprocessing.get_context("spawn").Pipe()
        self.process = multiprocessing.get_context("spawn").Process(
            target=worker_main, args=(child, self.config), daemon=True
        )
        self.process.start()
        child.close()
        self.conn: Connection = parent
        self.ready = False
        self.chunk: Chunk | None = None
        self.stage: str | int | None = "startup"  # "startup" | "compile" | row index | None (idle)
        self.next_row = 0
        self.row_stage = "cpu_compile"  # within a row: one of row_columns.ROW_STAGES
        self.so_far: dict[str, Any] = {}  # the row's columns finished before row_stage
        self.deadline = time.monotonic() + STARTUP_TIMEOUT_S
        self.started = time.monotonic()

    def assign(self, chunk: Chunk, options: PassOptions) -> None:
        self.chunk, self.next_row, self.row_stage, self.so_far = chunk, 0, "cpu_compile", {}
        self.conn.send((chunk.rows, chunk.compile))
        self.started = time.monotonic()
        if chunk.compile:
            self.stage = "compile"
            self.deadline = self.started + options.compile_timeout_s + 10.0 * len(chunk.rows)
        else:
            self.stage, self.deadline = -1, self.started + options.stage_timeout_s

    def stop(self, kill: bool) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.process.join(timeout=30)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()
        # The worker's TMPDIR is inside its scratch folder, so this also removes NVRTC's ~77 MB
        # __nvrtc_auto_pch_<pid>_0 and Clang's PCH folder, which a killed process leaves behind.
        shutil.rmtree(self.scratch, ignore_errors=True)


def run_pass(
    chunks: list[Chunk],
    options: PassOptions,
    make_config: Callable[[str], WorkerConfig],
    scratch_root: Path,
    on_row: Callable[[str, str, dict[str, Any]], None],
    times: StageTimes,
) -> None:
    """Validate every row of `chunks`; `on_row(file key, row id, columns)` for each, as it finishes."""
    queue = deque(chunks)
    scratch_root.mkdir(parents=True, exist_ok=True)
    slots = [_Slot(i, make_config, scratch_root) for i in range(min(options.workers, len(chunks)))]
    try:
        while queue or any(s.chunk is not None for s in slots):
            for i, slot in enumerate(slots):
                if slot.ready and slot.chunk is None and queue:
                    if not slot.process.is_alive():  # died while idle: nothing to blame
                        slot.stop(kill=True)
                        slots[i] = slot = _Slot(slot.index, make_config, scratch_root)
                        continue
                    slot.assign(queue.popleft(), options)
            now = time.monotonic()
            waiting = [s for s in slots if s.chunk is not None or not s.ready]
            if not waiting:
                break
            timeout = max(0.0, min(s.deadline for s in waiting) - now)
            for conn in wait([s.conn for s in waiting], timeout=timeout):
                slot = next(s for s in slots if s.conn is conn)
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    code = slot.process.exitcode if slot.process.join(5) is None else None
                    slots[slots.index(slot)] = _fail(
                        slot,
                        "error",
                        f"worker process died (exit code {code})",
                        queue,
                        options,
                        on_row,
                        make_config,
                        scratch_root,
                    )
                    continue
                _handle(slot, message, options, on_row, times)
            now = time.monotonic()
            for i, slot in enumerate(slots):
                if (slot.chunk is not None or not slot.ready) and now > slot.deadline:
                    why = f"timed out after {now - slot.started:.0f} s"
                    slots[i] = _fail(slot, "timeout", why, queue, options, on_row, make_config, scratch_root)
    finally:
        for slot in slots:
            slot.stop(kill=slot.chunk is not None)


def _handle(
    slot: _Slot, message: tuple[Any, ...], options: PassOptions, on_row: Callable[..., None], times: StageTimes
) -> None:
    kind = message[0]
    now = time.monotonic()
    chunk = slot.chunk
    if kind == "ready":
        slot.ready, slot.stage = True, None
        return
    assert chunk is not None
    if kind == "compiled":
        chunk.cuda = message[1]
        chunk.compile = False
        times.cuda_compile += now - slot.started
        times.cuda_rows += len(chunk.rows)
        slot.stage, slot.deadline = -1, now + options.stage_timeout_s
    elif kind == "start":
        slot.stage, slot.started, slot.deadline = message[1], now, now + options.stage_timeout_s
        slot.row_stage, slot.so_far = "cpu_compile", {}
    elif kind == "stage":  # the row goes on to its next stage, which gets its own time limit
        slot.row_stage, slot.so_far = message[2], message[3]
        slot.started, slot.deadline = now, now + options.stage_timeout_s
    elif kind == "done":
        index, columns = message[1], message[2]
        for stage, seconds in columns.pop("_seconds", {}).items():
            times.execution[stage] = times.execution.get(stage, 0.0) + seconds
        times.rows += 1
        on_row(chunk.files[index], chunk.rows[index]["id"], (chunk.cuda[index] or {}) | columns)
        slot.next_row, slot.row_stage, slot.so_far = index + 1, "cpu_compile", {}
        if slot.next_row == len(chunk.rows):
            slot.chunk, slot.stage = None, None
        else:
            slot.deadline = now + options.stage_timeout_s


def _fail(
    slot: _Slot,
    status: str,
    why: str,
    queue: deque[Chunk],
    options: PassOptions,
    on_row: Callable[..., None],
    make_config: Callable[[str], WorkerConfig],
    scratch_root: Path,
) -> _Slot:
    """Blame the row (or compile batch) the worker was on, requeue the rest, start a fresh worker."""
    slot.stop(kill=True)
    chunk, stage = slot.chunk, slot.stage
    if stage == "startup":
        raise WorkerStartError(f"a validation worker could not start: {why}")
    assert chunk is not None
    if stage == "compile":
        if len(chunk.rows) > 1:  # compile each row alone to find the culprit
            for i in reversed(range(len(chunk.rows))):
                queue.appendleft(Chunk([chunk.rows[i]], [chunk.files[i]]))
        else:
            cuda = row_columns.cuda_columns(None, options.arch, None, status, f"NVRTC {why}")
            queue.appendleft(Chunk(chunk.rows, chunk.files, compile=False, cuda=[cuda]))
    else:
        index = slot.next_row
        so_far = slot.so_far or row_columns.skipped_gpu(slot.config.gpu_skip_reason or schema.NOT_REACHED)
        columns = row_columns.failed_execution(status, f"worker {why}", slot.row_stage, so_far)
        on_row(chunk.files[index], chunk.rows[index]["id"], (chunk.cuda[index] or {}) | columns)
        rest = slice(index + 1, None)
        if chunk.rows[rest]:
            queue.appendleft(Chunk(chunk.rows[rest], chunk.files[rest], compile=False, cuda=chunk.cuda[rest]))
    return _Slot(slot.index, make_config, scratch_root)


def chunked(items: list[tuple[str, dict[str, Any]]], size: int) -> Iterator[Chunk]:
    for start in range(0, len(items), size):
        part = items[start : start + size]
        yield Chunk([r for _, r in part], [k for k, _ in part])
