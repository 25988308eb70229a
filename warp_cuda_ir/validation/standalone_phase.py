"""The standalone stage inside the validation pass: after the workers, over every row not yet done.

Its compilers and programs run as subprocesses with time limits (`standalone.stage`), so it needs no
worker of its own; each finished row is appended to the pass's progress at once (resume).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from warp_cuda_ir import schema
from warp_cuda_ir.standalone import stage
from warp_cuda_ir.validation import dataset
from warp_cuda_ir.validation.runner import PassOptions, Progress

DONE = "standalone_nvcc_status"


def standalone_phase(
    files: list[Path],
    done: dict[str, dict[str, dict[str, Any]]],
    options: PassOptions,
    gpu_reason: str | None,
    work: Path,
    progress: Progress,
) -> None:
    """Add the standalone columns to every row of `done` that lacks them (or, disabled, mark them skipped)."""

    def finished(key: tuple[str, str], columns: dict[str, Any]) -> None:
        merged = done[key[0]][key[1]] | columns
        done[key[0]][key[1]] = merged
        progress.add(key[0], key[1], merged)

    if not options.standalone:
        for name, rows in done.items():
            for row_id, columns in rows.items():
                if columns.get(DONE) is None:
                    finished((name, row_id), stage.skipped_columns(schema.STANDALONE_DISABLED))
        return
    todo = []
    for path in files:
        for row in dataset.read_rows(path):
            columns = done[path.name].get(row["id"])
            if columns is not None and columns.get(DONE) is None:
                reference = columns.get("standalone_reference_digest")
                todo.append(((path.name, row["id"]), row, reference.splitlines() if reference else None))
    if not todo:
        return
    tools = stage.find_tools(options.arch)
    if tools.cxx is None:
        print(
            f"standalone programs: {schema.CXX_NOT_FOUND} (${stage.CXX_ENV} or g++ on PATH); CPU twin skipped",
            file=sys.stderr,
        )
    if tools.nvcc is None:
        print(
            f"standalone programs: {schema.NVCC_NOT_FOUND} (${stage.NVCC_ENV} or nvcc on PATH); nvcc stage skipped",
            file=sys.stderr,
        )
    out = stage.run_stage(todo, work, tools, gpu_reason, options.workers, on_row=finished)
    n = len(out)
    nvcc = sum(c["standalone_nvcc_status"] == "ok" for c in out.values())
    ran = sum(c["standalone_cpu_run_status"] == "ok" for c in out.values())
    equal = sum(c["standalone_cpu_matches_warp"] is True for c in out.values())
    print(
        f"standalone programs: nvcc compiled {nvcc:,}/{n:,}; CPU twin ran {ran:,}/{n:,}, "
        f"printed Warp's CPU digests {equal:,}/{n:,}",
        file=sys.stderr,
    )
