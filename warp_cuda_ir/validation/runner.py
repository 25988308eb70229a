"""The validation pass's driver: batches of rows go to the executor's workers; results are kept as they arrive.

Each batch runs every step of the pass (`stages.validate_batch`). Isolation: a batch whose worker was
cut (past its time limit) or died is looked up in its trail (`stages`): the row and stage it was on get
`timeout` / `error`, the stages of that step that needed it are skipped (`row.failed_execution`), what
finished before is kept, and the rest of the batch runs again in a fresh worker. A batch without a trail
(a worker on another machine) is split in halves until the row is alone. Resume: every finished row is
appended to `<out>/.build/validation/progress/<data file>.jsonl` at once, so a rerun, with either engine,
validates only what is missing (a torn last line is ignored).
"""

from __future__ import annotations

import json
import shutil
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warp_cuda_ir import extraction, schema, writing
from warp_cuda_ir.engines import Executor, Outcome, Resources, Ticket
from warp_cuda_ir.errors import WorkerStartError
from warp_cuda_ir.validation import row as row_columns
from warp_cuda_ir.validation.stages import Batch, Settings, steps, validate_batch

__all__ = ["Batch", "PassOptions", "Progress", "Settings", "StageTimes", "complete", "run_pass"]

STARTUP_S = 300.0  # a fresh worker starts Warp and precompiles NVRTC's and Clang's headers
PROGRAMS_S_PER_ROW = 60.0  # the standalone programs' compiles and runs (each has its own limit)


@dataclass(frozen=True)
class PassOptions:
    arch: int = 90
    workers: int = 1
    # Rows per batch: one NVRTC module, one Clang, nvcc and g++ translation unit. 64 instead of 32 measured no
    # cheaper (128 rows side by side: programs 0.52 core-s/row either way). A row's annotations do not depend
    # on its batch (`compile_cuda.forward_ptx` numbers its PTX as the only function of its text).
    chunk_size: int = 32
    stage_timeout_s: float = 120.0  # each of a row's stages (CPU compile, CPU run, GPU run, gradient check)
    compile_timeout_s: float = 60.0  # plus 10 s per row in the batch
    use_gpu: bool = True
    standalone: bool = True  # standalone programs: compile with nvcc / g++, run the CPU twin
    engine: str = "local"  # "local" or "ray" (engines.get_executor)
    ray_address: str | None = None
    # The machine cache (`cache.Cache.from_options`): annotations of rows validated before, in any folder.
    cache_dir: str | None = None
    no_cache: bool = False


@dataclass
class StageTimes:
    """CPU seconds spent per step of the pass (workers and their compilers, summed), and rows validated."""

    seconds: dict[str, float] = field(default_factory=dict)
    rows: int = 0


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


def complete(columns: dict[str, Any]) -> bool:
    """Every stage of the pass has its status."""
    return all(f"{stage}_status" in columns for stage in schema.STAGES)


@dataclass
class _Work:
    """Rows of one batch as the driver tracks them."""

    keys: list[str]  # progress key (data file name) of each row
    rows: list[dict[str, Any]]
    done: list[dict[str, Any]]
    retried: bool = False  # ran again once already after its worker died before leaving a trail


def run_pass(
    work: list[tuple[str, dict[str, Any], dict[str, Any]]],
    options: PassOptions,
    settings: Settings,
    executor: Executor,
    on_row: Callable[[str, str, dict[str, Any]], None],
    times: StageTimes,
) -> None:
    """Validate each (progress key, row, columns already known) of `work`; `on_row(key, row id, columns)` as
    each row is finished."""
    # Batches as large as asked, but never so few that a worker sits idle. Rows of one block size go
    # together: NVRTC and nvcc take one block size per module, and each call pays Warp's headers again
    # (nvcc ~4.5 CPU-s), so a batch of mixed sizes paid them once per size.
    size = max(1, min(options.chunk_size, -(-len(work) // executor.capacity())))
    work = sorted(work, key=lambda item: int(item[1].get("block_dim") or extraction.CUDA_BLOCK_DIM))
    queue: deque[_Work] = deque(_chunks(work, size))
    running: dict[int, tuple[Ticket, _Work, Batch]] = {}
    serial = 0
    resources = Resources(cpus=1.0, gpus=1.0 if settings.gpu_skip_reason is None else 0.0)
    with_trail = settings.trail is not None
    while queue or running:
        while queue and len(running) < 2 * executor.capacity():
            part = queue.popleft()
            serial += 1
            batch = Batch(settings, f"b{serial}", part.rows, part.done)
            if with_trail:
                (Path(settings.trail) / f"{batch.name}.jsonl").unlink(missing_ok=True)
            limit = _time_limit(settings, len(part.rows))
            ticket = executor.submit(validate_batch, batch, index=serial, time_limit=limit, resources=resources)
            running[serial] = (ticket, part, batch)
        for ticket, outcome in executor.wait([t for t, _, _ in running.values()]):
            _, part, batch = running.pop(ticket.index)
            if outcome.status == "ok" and outcome.value is not None:
                for step, seconds in outcome.value["seconds"].items():
                    times.seconds[step] = times.seconds.get(step, 0.0) + seconds
                for key, row, columns in zip(part.keys, part.rows, outcome.value["columns"], strict=True):
                    times.rows += 1
                    on_row(key, row["id"], columns)
            else:
                queue.extendleft(reversed(_after_failure(part, batch, outcome, options)))


def _time_limit(settings: Settings, rows: int) -> float:
    """The executor's backstop for a batch; stages are cut sooner by the worker's own watchdog."""
    row_stages = sum(len(stages) for step, stages in steps() if step == "row")
    return (
        STARTUP_S
        + settings.batch_compile_limit(rows)
        + rows * row_stages * settings.stage_timeout_s
        + rows * PROGRAMS_S_PER_ROW
    )


def _chunks(work: list[tuple[str, dict[str, Any], dict[str, Any]]], size: int) -> Iterator[_Work]:
    for start in range(0, len(work), max(1, size)):
        part = work[start : start + size]
        yield _Work([k for k, _, _ in part], [r for _, r, _ in part], [dict(d) for _, _, d in part])


def _read_trail(batch: Batch) -> list[dict[str, Any]]:
    if batch.settings.trail is None:
        return []
    path = Path(batch.settings.trail) / f"{batch.name}.jsonl"
    records = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                break  # torn by the worker's death
        path.unlink(missing_ok=True)
    return records


def _after_failure(part: _Work, batch: Batch, outcome: Outcome[Any], options: PassOptions) -> list[_Work]:
    """The work left after a batch whose worker was cut or died, with the culprit row's stage marked."""
    records = _read_trail(batch)
    if outcome.status == "error" and not records:
        # Stages catch what a row raises; an exception before any row is the worker's own (it cannot start).
        raise WorkerStartError(f"a validation worker failed before its first row: {outcome.detail}")
    if not records and not part.retried:
        # No trail: the worker died before the batch began, or on a machine whose files the driver cannot
        # read (a Ray node that died takes its tasks with it). Once more, elsewhere, before blaming a row.
        return [_Work(part.keys, part.rows, part.done, retried=True)]
    done = [dict(d) for d in part.done]
    where: dict[str, Any] | None = None
    why = f"timed out: {outcome.detail}" if outcome.status == "timeout" else f"worker {outcome.detail}"
    for record in records:
        if "columns" in record:
            done[record["row"]] = record["columns"]
        elif "timeout" in record:  # the worker's watchdog cut the stage
            why = f"timed out after {record['after']:.0f} s"
        else:
            where = record  # a step or a row's stage starting
    status = "timeout" if why.startswith("timed out") else "error"
    if where is not None and "stage" in where:  # a row's stage: blame it, run the rest again
        i = where["row"]
        so_far = where["so_far"] or row_columns.skipped_gpu(batch.settings.gpu_skip_reason or schema.NOT_REACHED)
        done[i] = done[i] | row_columns.failed_execution(status, why, where["stage"], so_far)
        return [_Work(part.keys, part.rows, done)]
    step = where["step"] if where is not None else None
    if len(part.rows) > 1:  # a whole-batch step (or no trail): split until the row stands alone
        half = len(part.rows) // 2
        return [
            _Work(part.keys[:half], part.rows[:half], done[:half]),
            _Work(part.keys[half:], part.rows[half:], done[half:]),
        ]
    first = next((s for s in schema.PASS if f"{s.name}_status" not in done[0]), None)
    if first is None:
        return [_Work(part.keys, part.rows, done)]
    step = step or first.run
    if step == "cuda":
        done[0] |= row_columns.cuda_columns(None, options.arch, None, status, f"NVRTC {why}")
    elif step == "row":
        so_far = row_columns.skipped_gpu(batch.settings.gpu_skip_reason or schema.NOT_REACHED)
        done[0] |= row_columns.failed_execution(status, why, first.name, so_far)
    else:
        done[0] |= row_columns.failed_programs(status, why, done[0])
    return [_Work(part.keys, part.rows, done)]
