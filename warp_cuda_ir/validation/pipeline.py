"""`validate_dataset`: check the folder, run the pass (resuming), rewrite the Parquet, update the card.

Nothing in the folder changes until every row has its annotations: the pass writes only under
`<out>/.build/validation/`; then each data file is replaced atomically, the manifest records the
pass, and the README is rendered again from the files.
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir import card, engines, schema, warp_session, writing
from warp_cuda_ir.cache import Cache
from warp_cuda_ir.readback import Readback, read_back
from warp_cuda_ir.record import BuildRecord, ValidationRecord
from warp_cuda_ir.standalone import stage as programs
from warp_cuda_ir.validation import compile_cuda, dataset, gpu
from warp_cuda_ir.validation.known import KnownAnnotations
from warp_cuda_ir.validation.runner import PassOptions, Progress, StageTimes, complete, run_pass
from warp_cuda_ir.validation.stages import Settings

VALIDATION_DIR = "validation"


@dataclass
class ValidationResult:
    rows: int
    validated_now: int
    resumed: int
    gpu_skip_reason: str | None
    seconds: float
    readback: Readback  # the folder as the pass left it
    times: StageTimes = field(default_factory=StageTimes)
    from_cache: int = 0  # rows whose annotations the machine cache held (counted in `resumed`)


def check_inputs(out: Path, arch: int) -> list[Path]:
    """The folder's data files; raises DatasetFolderError / UsageError before anything is written."""
    files = dataset.data_files(out)
    compile_cuda.check_arch(arch)
    return files


def validate_dataset(
    out: Path,
    options: PassOptions,
    on_start: Callable[[int, int, str | None], None] = lambda total, done, gpu_reason: None,
    on_row: Callable[[dict[str, Any]], None] = lambda columns: None,
) -> ValidationResult:
    """Annotate every row of the dataset folder `out`."""
    started = time.time()
    out = Path(out).absolute()  # workers and compilers run in scratch folders of their own
    files = check_inputs(out, options.arch)
    warp_session.init_warp()
    gpu_reason = gpu.unavailable_reason() if options.use_gpu else "GPU execution disabled (--no-gpu)"
    environment = gpu.environment() if gpu_reason is None else {"gpu_name": None, "driver_version": None}
    work = out / writing.WORK_DIR / VALIDATION_DIR
    fingerprint = {
        "arch": options.arch,
        "warp": wp.config.version,
        "schema": schema.SCHEMA_VERSION,
        "gpu": environment["gpu_name"],
    }
    progress = Progress(work, fingerprint)
    done: dict[str, dict[str, dict[str, Any]]] = {f.name: progress.load(f.name) for f in files}
    known = KnownAnnotations(
        Cache.from_options(options.cache_dir, options.no_cache),
        {
            **fingerprint,
            "environment": environment,
            "toolkit": warp_session.toolkit_version(),
            "standalone": options.standalone and dataclasses.astuple(programs.find_tools(options.arch)),
        },
    )
    entries: dict[tuple[str, str], str | None] = {}  # (data file, row id) -> its machine-cache entry
    todo: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    total = from_cache = 0
    for path in files:
        for row in dataset.read_rows(path):
            total += 1
            so_far = done[path.name].get(row["id"])
            if so_far is not None and complete(so_far):
                continue
            entry = entries[path.name, row["id"]] = known.key(row)
            cached = known.get(entry)
            if cached is not None:
                progress.add(path.name, row["id"], cached)
                done[path.name][row["id"]] = cached
                from_cache += 1
            else:  # a row of an older pass may lack later stages
                todo.append((path.name, row, so_far or {}))
    resumed = total - len(todo)
    on_start(total, resumed, gpu_reason)
    if options.standalone and todo:
        _note_missing_compilers(options.arch)

    def add(key: str, row_id: str, columns: dict[str, Any]) -> None:
        progress.add(key, row_id, columns)
        known.put(entries.get((key, row_id)), columns)
        done[key][row_id] = columns
        on_row(columns)

    times = StageTimes()

    # The row's skip reason is one of schema.SKIP_REASONS; the full text goes to build.json and the console.
    gpu_skip = None if gpu_reason is None else (schema.GPU_DISABLED if not options.use_gpu else schema.NO_GPU)
    (work / "trail").mkdir(parents=True, exist_ok=True)
    (work / "workers").mkdir(parents=True, exist_ok=True)
    settings = Settings(
        options.arch,
        gpu_skip,
        environment,
        options.standalone,
        options.stage_timeout_s,
        options.compile_timeout_s,
        trail=str(work / "trail"),
        scratch=str(work / "workers"),
    )
    try:
        if todo:
            workers = max(1, min(options.workers, -(-len(todo) // max(1, options.chunk_size))))
            with engines.get_executor(options.engine, workers, options.ray_address) as executor:
                run_pass(todo, options, settings, executor, add, times)
    finally:
        progress.close()
        # The workers' TMPDIR is inside these, so this also removes NVRTC's ~77 MB __nvrtc_auto_pch_<pid>_0
        # and Clang's PCH folders, which a killed worker leaves behind.
        shutil.rmtree(work / "workers", ignore_errors=True)
        shutil.rmtree(work / "trail", ignore_errors=True)

    for path in files:
        dataset.rewrite(path, done[path.name])
    readback = read_back(out)
    summary = readback.validation.to_dict()
    record = BuildRecord.load(out)
    assert record is not None  # checked by dataset.data_files before the pass
    record = dataclasses.replace(
        record,
        validation=ValidationRecord(
            arch=options.arch,
            cuda_toolkit=warp_session.toolkit_version(),
            gpu=environment["gpu_name"] or None,
            gpu_skip_reason=gpu_reason,
            warp=wp.config.version,
            summary=summary,
        ),
    )
    record.save(out)
    writing.write_text_atomic(out / writing.CARD, card.render(record, readback))
    return ValidationResult(
        total, len(todo), resumed, gpu_reason, time.time() - started, readback, times, from_cache=from_cache
    )


def _note_missing_compilers(arch: int) -> None:
    """One line per standalone compiler this machine lacks: its stages are skipped with that reason."""
    tools = programs.find_tools(arch)
    if tools.cxx is None:
        print(
            f"standalone programs: {schema.CXX_NOT_FOUND} (${programs.CXX_ENV} or g++ on PATH); CPU twin skipped",
            file=sys.stderr,
        )
    if tools.nvcc is None:
        print(
            f"standalone programs: {schema.NVCC_NOT_FOUND} (${programs.NVCC_ENV} or nvcc on PATH); nvcc stage skipped",
            file=sys.stderr,
        )
