"""The standalone stage of the validation pass: compile every row's programs, run the CPU twin, compare.

Programs are compiled in batches (`batch.py`: one translation unit per batch, Warp's headers parsed
once) by the tools the row's Makefile uses, with its flags; a batch that fails is split in halves until
the failing programs stand alone, and those are compiled exactly as their column holds them, so the
error log is the program's own. The CPU batch binary runs one row per process (`./batch <k>`), under a
time limit: a program that crashes or hangs marks only its row. Its lines are compared with the digest
lines of Warp's own CPU launch (`standalone_reference_digest`, written by the pass's worker).

Tools: `nvcc` and `g++` from PATH, or the paths in WARP_CUDA_IR_NVCC / WARP_CUDA_IR_CXX. A tool that is
not there skips its stages with one reason ("nvcc not found", "C++ compiler not found"); the rest goes on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from warp_cuda_ir import extraction, schema
from warp_cuda_ir.errors import one_line
from warp_cuda_ir.standalone import batch
from warp_cuda_ir.standalone.device_headers import device_headers
from warp_cuda_ir.standalone.digest import digest_lines, parse_line
from warp_cuda_ir.standalone.program import CXXFLAGS, NVCCFLAGS, launches, warp_native_dir

NVCC_ENV = "WARP_CUDA_IR_NVCC"
CXX_ENV = "WARP_CUDA_IR_CXX"
BATCH_ROWS = 64  # programs per compiler invocation at most (the pass hands it batches of --chunk-size)
# Per batch, plus COMPILE_TIMEOUT_PER_ROW_S per program in it. A program alone gets 260 s: nvcc took 3 min 9 s on
# mujoco-warp's `_island_dsu` alone (674 kB of generated CUDA), past the 140 s it got with a base of 120 s.
COMPILE_TIMEOUT_S = 240.0
COMPILE_TIMEOUT_PER_ROW_S = 20.0
RUN_TIMEOUT_S = 20.0  # one program run
LOG_LIMIT = 4000  # characters of a compiler log kept in a column
GPU_TOLERANCE = (1e-3, 1e-3)  # (rtol, atol per component) for the sums of a GPU run's digest
# A twin cut at its time limit after printing exactly Warp's forward lines: what stopped is the backward launch.
# Warp's own backward of such a kernel (a spin wait the `spin_wait` hazard does not see: the replayed acquire
# without its release) ends only because Clang, building Warp's CPU code, may assume a loop without side effects
# ends and drop it.
BACKWARD_DID_NOT_END = "its forward's digest lines equal Warp's; the backward launch did not end"
# The same stop in a row whose backward prints nothing (no float array, as in warp-lang's integer spinlock tests): the
# twin printed every line of Warp's digest before it.
SILENT_BACKWARD_DID_NOT_END = (
    "its digest lines equal Warp's, every one; the backward launch, which prints none, did not end"
)
# The same where the twin crashed (warp-lang's `counter_kernel`: SIGSEGV, storing an adjoint at an index its backward
# reads uninitialised, `ATOMIC_RESULT`).
BACKWARD_CRASHED = "its forward's digest lines equal Warp's; the backward launch crashed"
SILENT_BACKWARD_CRASHED = "its digest lines equal Warp's, every one; the backward launch, which prints none, crashed"

# A twin that ended and printed other lines than Warp's: its run is `ok`, `standalone_cpu_matches_warp` false, and
# the error column says which lines differ.
DIFFERENT_LINES = "its digest lines differ from Warp's"
# ... where only input adjoints differ in a row whose backward uses an atomic's result: Warp's backward leaves the
# atomic out and reads the result, an uninitialised local, so each compiler's code reads its own garbage (newton's
# `_update_col_major_contact_jacobians`, warp-lang's `counter_kernel`).
ATOMIC_RESULT = "Warp's backward reads the result of an atomic it does not replay, an uninitialised local"


@dataclass(frozen=True)
class Tools:
    nvcc: str | None
    cxx: str | None
    warp_native: str
    arch: int = 90


def _tool(env: str, default: str) -> str | None:
    name = os.environ.get(env) or default
    return shutil.which(name)


def find_tools(arch: int = 90) -> Tools:
    return Tools(_tool(NVCC_ENV, "nvcc"), _tool(CXX_ENV, "g++"), warp_native_dir(), arch)


@dataclass
class Item:
    """One program to compile (and run): `row` holds its text under `cpu_program` or `cuda_program`."""

    key: Any
    row: Mapping[str, Any]
    reference: list[str] | None
    columns: dict[str, Any] = field(default_factory=dict)


def _stage(columns: dict[str, Any], stage: str, status: str, error: str | None = None, skip: str | None = None):
    columns[f"{stage}_status"] = status
    columns[f"{stage}_error"] = error
    columns[f"{stage}_skip_reason"] = skip


def skipped_columns(reason: str) -> dict[str, Any]:
    """Every standalone stage skipped for `reason` (e.g. --no-standalone)."""
    columns: dict[str, Any] = {}
    for stage in schema.STANDALONE_STAGES:
        _stage(columns, stage, "skipped", skip=reason)
    return columns | {"standalone_cpu_matches_warp": None, "standalone_gpu_matches_reference": None}


def _compile_command(tools: Tools, target: str, source: Path, output: Path) -> list[str]:
    if target == "cuda":
        flags = [f.replace("$(ARCH)", str(tools.arch)) for f in NVCCFLAGS]
        # Against the copy of Warp's headers a tile row's Makefile makes (`device_headers`); the rows without
        # tiles build the same against either (measured on an H200, benchmarks/README.md).
        native = device_headers(tools.warp_native)
        return [str(tools.nvcc), *flags, "-isystem", native, "-o", str(output), str(source)]
    return [str(tools.cxx), *CXXFLAGS, "-isystem", tools.warp_native, "-o", str(output), str(source)]


def _compile(
    tools: Tools, target: str, text: str, folder: Path, name: str, rows: int, limits: Callable[[], None] | None = None
) -> tuple[str, str | None]:
    """(status, log) of compiling `text` into `folder/name` (`limits`: run in the compiler's process first)."""
    source = folder / (name + (".cu" if target == "cuda" else ".cpp"))
    source.write_text(text)
    timeout = COMPILE_TIMEOUT_S + COMPILE_TIMEOUT_PER_ROW_S * rows
    try:
        done = subprocess.run(
            _compile_command(tools, target, source, folder / name),
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=limits,
        )
    except subprocess.TimeoutExpired:
        return "timeout", f"compile did not finish in {timeout:.0f} s"
    if done.returncode != 0:
        log = (done.stderr + done.stdout).strip()
        return "error", log[-LOG_LIMIT:] or f"exit status {done.returncode}"
    return "ok", None


def compile_items(
    tools: Tools,
    target: str,
    items: Sequence[Item],
    folder: Path,
    name: str,
    limits: Callable[[], None] | None = None,
) -> list[tuple[str, str | None, Path | None, int]]:
    """Per item: (status, log, binary, index in the binary); a failed batch is split until programs stand alone.

    `limits` runs in each compiler process before it starts (resource limits for untrusted code)."""
    column = "cuda_program" if target == "cuda" else "cpu_program"
    if len(items) == 1:
        status, log = _compile(tools, target, items[0].row[column], folder, name, 1, limits)
        return [(status, log, folder / name if status == "ok" else None, -1)]
    try:
        text = batch.batch_from_programs([i.row[column] for i in items], target)
    except ValueError:
        text = None  # a program not in the shape `program.program` writes: compile each alone
    if text is not None:
        status, _ = _compile(tools, target, text, folder, name, len(items), limits)
        if status == "ok":
            return [("ok", None, folder / name, k) for k in range(len(items))]
    half = len(items) // 2
    return compile_items(tools, target, items[:half], folder, name + "a", limits) + compile_items(
        tools, target, items[half:], folder, name + "b", limits
    )


def run_program(binary: Path, index: int) -> tuple[str, str | None, list[str]]:
    """(status, error, digest lines); a run cut at its limit keeps the lines it printed (stdout line buffered
    under `stdbuf` where there is one: a pipe's buffer would lose them with the process)."""
    command = [str(binary)] + ([str(index)] if index >= 0 else [])
    stdbuf = shutil.which("stdbuf")
    if stdbuf is not None:
        command = [stdbuf, "-oL", *command]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        printed = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", f"did not finish in {RUN_TIMEOUT_S:.0f} s", digest_lines(printed)
    if done.returncode != 0:
        tail = one_line((done.stderr or done.stdout).strip()[-500:]) if (done.stderr or done.stdout) else ""
        return "error", f"exit status {done.returncode}" + (f": {tail}" if tail else ""), digest_lines(done.stdout)
    return "ok", None, digest_lines(done.stdout)


def _where_it_stopped(lines: list[str], reference: list[str] | None, row: Mapping[str, Any], status: str) -> str | None:
    """Why a twin cut at its time limit (`status` "timeout") or crashed ("error") stopped in its backward launch:
    it printed Warp's forward lines, all of them, and no adjoint line; None when its lines say otherwise. A crash
    in a row whose backward reads an atomic's result says that too."""
    if not reference or not lines or not row.get("cpu_backward"):  # no backward code: nothing to stop in
        return None
    forward = [line for line in reference if line.startswith("output ")]
    if lines != forward:
        return None
    silent = len(forward) == len(reference)
    if status == "timeout":
        return SILENT_BACKWARD_DID_NOT_END if silent else BACKWARD_DID_NOT_END
    return (SILENT_BACKWARD_CRASHED if silent else BACKWARD_CRASHED) + _atomic_result(row)


def how_it_differs(lines: Sequence[str], reference: Sequence[str], row: Mapping[str, Any]) -> str:
    """What a twin that ended printed other than Warp's digest lines: which lines differ, and for a row whose
    backward reads an atomic's result (`adjoint_hazards` `atomic_result:`, and only adjoint lines differ) why."""
    ours, theirs = dict(_by_array(lines)), dict(_by_array(reference))
    if list(ours) != list(theirs):
        return f"{DIFFERENT_LINES}: it printed {', '.join(ours) or 'none'}, Warp's launch {', '.join(theirs) or 'none'}"
    differ = [key for key in theirs if ours[key] != theirs[key]]
    text = f"{DIFFERENT_LINES}: {', '.join(differ)}"
    return text + (_atomic_result(row) if all(key.startswith("adjoint ") for key in differ) else "")


def _atomic_result(row: Mapping[str, Any]) -> str:
    """`ATOMIC_RESULT` with the row's `atomic_result:` flags, for a row that has some ("" otherwise)."""
    flagged = [h for h in row.get("adjoint_hazards") or () if h.startswith("atomic_result:")]
    return f"; {ATOMIC_RESULT} ({', '.join(flagged)})" if flagged else ""


def _by_array(lines: Sequence[str]) -> list[tuple[str, str]]:
    """(kind and array name, the rest) of each digest line."""
    out = []
    for line in lines:
        kind, name, rest = line.split(" ", 2)
        out.append((f"{kind} {name}", rest))
    return out


def digests_agree(reference: Sequence[str], actual: Sequence[str], tolerance=GPU_TOLERANCE) -> bool:
    """Same arrays and counts, and each line's sums equal within `tolerance` (exact hashes need not match)."""
    if len(reference) != len(actual):
        return False
    rtol, atol = tolerance
    for want, got in zip(reference, actual, strict=True):
        w, g = parse_line(want), parse_line(got)
        if w[:3] != g[:3]:
            return False
        if w[3] == g[3]:
            continue
        scale = atol * max(1, w[2])
        if not np.allclose(g[4:], w[4:], rtol=rtol, atol=scale, equal_nan=True):
            return False
    return True


def _group_batches(items: Sequence[Item], target: str) -> list[list[Item]]:
    groups: dict[int, list[Item]] = {}
    for item in items:
        key = int(item.row.get("block_dim") or extraction.CUDA_BLOCK_DIM) if target == "cuda" else 0
        groups.setdefault(key, []).append(item)
    return [g[i : i + BATCH_ROWS] for g in groups.values() for i in range(0, len(g), BATCH_ROWS)]


def run_stage(
    rows: Sequence[tuple[Any, Mapping[str, Any], list[str] | None]],
    work: Path,
    tools: Tools,
    gpu_skip_reason: str | None,
) -> dict[Any, dict[str, Any]]:
    """Standalone columns for each (key, row, reference digest lines or None), compiled and run in this process
    (the validation pass spreads batches of rows over its executor's workers)."""
    items = [Item(key, row, reference) for key, row, reference in rows]
    for item in items:
        item.columns = skipped_columns(schema.NOT_VALIDATED)
    work.mkdir(parents=True, exist_ok=True)
    nvcc_missing = tools.nvcc is None
    cxx_missing = tools.cxx is None

    def cpu_job(group: list[Item], folder: Path) -> None:
        for item, (status, log, binary, index) in zip(
            group, compile_items(tools, "cpu", group, folder, "cpu"), strict=True
        ):
            c = item.columns
            _stage(c, "standalone_cpu_compile", status, log)
            if status != "ok":
                _stage(c, "standalone_cpu_run", "skipped", skip=schema.DID_NOT_COMPILE)
            elif not launches(item.row["cpu_program"]):
                _stage(c, "standalone_cpu_run", "skipped", skip=_why_not_launched(item.row["cpu_program"]))
            elif item.reference is None:  # nothing to compare its lines with (a twin like that hung 20 s)
                _stage(c, "standalone_cpu_run", "skipped", skip=schema.NO_REFERENCE)
            else:
                run_status, error, lines = run_program(binary, index)
                stopped = _where_it_stopped(lines, item.reference, item.row, run_status) if run_status != "ok" else None
                if stopped is not None:
                    error = f"{error}: {stopped}"
                if run_status == "ok":
                    c["standalone_cpu_matches_warp"] = lines == item.reference
                    error = None if lines == item.reference else how_it_differs(lines, item.reference, item.row)
                _stage(c, "standalone_cpu_run", run_status, error)

    def cuda_job(group: list[Item], folder: Path) -> None:
        for item, (status, log, binary, index) in zip(
            group, compile_items(tools, "cuda", group, folder, "cuda"), strict=True
        ):
            c = item.columns
            _stage(c, "standalone_nvcc", status, log)
            if status != "ok":
                _stage(c, "standalone_gpu_run", "skipped", skip=schema.DID_NOT_COMPILE)
            elif gpu_skip_reason is not None:
                reason = gpu_skip_reason if gpu_skip_reason in schema.SKIP_REASONS else schema.NO_GPU
                _stage(c, "standalone_gpu_run", "skipped", skip=reason)
            elif not launches(item.row["cuda_program"]):
                _stage(c, "standalone_gpu_run", "skipped", skip=_why_not_launched(item.row["cuda_program"]))
            else:
                run_status, error, lines = run_program(binary, index)
                _stage(c, "standalone_gpu_run", run_status, error)
                if run_status == "ok" and item.reference is not None:
                    c["standalone_gpu_matches_reference"] = digests_agree(item.reference, lines)

    jobs: list[tuple[Callable[[list[Item], Path], None], list[Item]]] = []
    for item in items:
        c = item.columns
        if cxx_missing:
            _stage(c, "standalone_cpu_compile", "skipped", skip=schema.CXX_NOT_FOUND)
            _stage(c, "standalone_cpu_run", "skipped", skip=schema.CXX_NOT_FOUND)
        if nvcc_missing:
            _stage(c, "standalone_nvcc", "skipped", skip=schema.NVCC_NOT_FOUND)
            _stage(c, "standalone_gpu_run", "skipped", skip=schema.NVCC_NOT_FOUND)
    if not cxx_missing:
        jobs += [(cpu_job, g) for g in _group_batches(items, "cpu")]
    if not nvcc_missing:
        jobs += [(cuda_job, g) for g in _group_batches(items, "cuda")]

    def run_job(job: Callable[[list[Item], Path], None], group: list[Item]) -> None:
        folder = Path(tempfile.mkdtemp(dir=work, prefix="batch_"))
        try:
            job(group, folder)
        except Exception as e:  # an unexpected failure marks the batch's rows, never the pass
            for item in group:
                for stage in schema.STANDALONE_STAGES:
                    if item.columns[f"{stage}_skip_reason"] == schema.NOT_VALIDATED:
                        _stage(item.columns, stage, "error", f"{type(e).__name__}: {one_line(e)}")
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    for job, group in jobs:
        run_job(job, group)
    return {item.key: item.columns for item in items}


def _why_not_launched(program: str) -> str:
    """The skip reason of a program that launches nothing: no record, or inputs too large to write out."""
    return schema.INPUTS_TOO_LARGE if schema.INPUTS_TOO_LARGE in program else schema.NO_LAUNCH_RECORD
