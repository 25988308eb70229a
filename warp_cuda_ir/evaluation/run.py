"""Evaluate a predictions file against a validated dataset: one verdict per candidate, then the summary.

For each candidate: its program (`candidate.py`) is compiled with the row's own tools and flags, batched
16 to a compiler call like the validation pass (`standalone/stage.py`: a failing batch is split until the
failing program stands alone; text that could reach past its namespace is compiled alone), each binary runs
one candidate per child process under limits (`sandbox.py`), and its digest lines are judged against the
row's `standalone_reference_digest` (`judge.py`). `cpu_*` run on the CPU twin (g++); `cuda_*` compile with
nvcc everywhere and run where a CUDA device is present (else `not_checkable`, "compiles; no GPU to run").
"""

from __future__ import annotations

import functools
import json
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from warp_cuda_ir import extraction
from warp_cuda_ir.cache import atomic_write
from warp_cuda_ir.errors import DatasetFolderError, UsageError, one_line
from warp_cuda_ir.evaluation import judge, passk, sandbox
from warp_cuda_ir.evaluation.candidate import (
    TARGET_COLUMNS,
    CandidateError,
    batch_safe,
    candidate_program,
    program_column,
    target_of,
)
from warp_cuda_ir.evaluation.predictions import Bad, Candidate, read_predictions
from warp_cuda_ir.standalone import stage
from warp_cuda_ir.standalone.program import launches, runs_backward
from warp_cuda_ir.validation.dataset import data_files

VERDICTS: tuple[str, ...] = (
    "correct",
    "wrong_output",
    "degenerate",
    "does_not_compile",
    "crashed",
    "timeout",
    "not_checkable",
    "bad_input",
)
REFERENCE = "standalone_reference_digest"
# What a candidate's evaluation reads of its row (the programs are the bulk; other columns are not loaded).
ROW_COLUMNS: tuple[str, ...] = (
    "id",
    "source",
    "category",
    "provenance",
    "kernel_name",
    "kernel_symbol",
    "python_source",
    "block_dim",
    *(f"{t}_{part}" for t in ("cpu", "cuda") for part in ("helpers", "forward", "backward", "program")),
    REFERENCE,
)


@dataclass(frozen=True)
class Options:
    dataset: str  # a dataset folder, or a Hub dataset repo id
    predictions: Path
    report: Path
    workers: int = 1
    time_limit: float = 10.0  # seconds of wall clock (and of CPU) per candidate run
    memory_mb: int = 2048  # address space of a CPU candidate's run
    splits: tuple[str, ...] | None = None  # None: every split
    gpu: bool = True  # run cuda_* candidates when a CUDA device is present
    arch: int = 90


def summary_path(report: Path) -> Path:
    """`verdicts.jsonl` -> `verdicts.summary.json`, beside the report."""
    return report.with_name(report.stem + ".summary.json")


def dataset_folder(dataset: str) -> Path:
    """A local dataset folder as given, or a Hub dataset repo downloaded to the Hugging Face cache."""
    path = Path(dataset)
    if path.exists() or dataset.startswith((".", "/", "~")) or dataset.count("/") != 1:
        return path.expanduser()
    from huggingface_hub import snapshot_download

    try:
        return Path(snapshot_download(repo_id=dataset, repo_type="dataset"))
    except Exception as e:  # the Hub's errors are many; the user needs the one line
        raise DatasetFolderError(f"could not download dataset {dataset!r} from the Hub: {one_line(e)}") from None


def load_rows(folder: Path, ids: set[str], splits: Sequence[str] | None) -> dict[str, dict[str, Any]]:
    """The rows of `ids` (only ROW_COLUMNS); raises DatasetFolderError when the dataset has no reference digests."""
    files = data_files(folder)
    if splits is not None:
        files = [f for f in files if f.name.split("-", 1)[0] in splits]
        if not files:
            raise UsageError(f"{folder} has no rows in split(s) {', '.join(splits)}")
    rows: dict[str, dict[str, Any]] = {}
    any_reference = False
    for path in files:
        if REFERENCE not in pq.read_schema(path).names:
            continue
        table = pq.read_table(path, columns=["id", REFERENCE])
        any_reference |= table.column(REFERENCE).null_count < table.num_rows
        wanted = pc.is_in(table.column("id"), value_set=pa.array(sorted(ids), type=pa.string()))
        if pc.any(wanted).as_py():
            table = pq.read_table(path, columns=list(ROW_COLUMNS)).filter(wanted)
            rows.update({r["id"]: r for r in table.to_pylist()})
    if not any_reference:
        raise DatasetFolderError(
            f"{folder} has no reference digests ({REFERENCE}): validate it first (python scripts/validate.py {folder})"
        )
    return rows


@dataclass
class _Job:
    index: int  # position in the report
    row: Mapping[str, Any]
    column: str
    prediction: str
    program: str


def _groups(row: Mapping[str, Any], column: str) -> dict[str, str]:
    provenance = row.get("provenance") or {}
    return {
        "column": column,
        "source": row.get("source") or "?",
        "category": row.get("category") or "?",
        "package": provenance.get("package") or "(generated)",
    }


def _first_error(log: str | None) -> str:
    lines = (log or "").splitlines()
    errors = [line for line in lines if "error" in line]
    return one_line((errors or lines or ["compiler failed"])[0], 400)


def fan_out(
    batches: Sequence[list[_Job]], judge_batch: Callable[[list[_Job]], list[tuple[str, str]]], workers: int
) -> list[list[tuple[str, str]]]:
    """`judge_batch` over `batches` on the package's executor, results in order. The untrusted work inside
    (compiler, candidate runs) is child processes with their own limits; a batch whose worker itself fails
    marks each of its candidates with the executor's one-line reason."""
    from warp_cuda_ir.engines import get_executor

    results: list[list[tuple[str, str]]] = [[] for _ in batches]
    with get_executor("local", workers=max(1, workers)) as executor:
        for outcome in executor.map(judge_batch, batches):
            if outcome.status == "ok" and outcome.value is not None:
                results[outcome.index] = outcome.value
            else:
                verdict = "timeout" if outcome.status == "timeout" else "crashed"
                detail = f"evaluator worker {outcome.status}: {outcome.detail}"
                results[outcome.index] = [(verdict, detail)] * len(batches[outcome.index])
    return results


def evaluate(options: Options) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(report records in input order, summary); writes the report and the summary beside it."""
    try:
        entries = read_predictions(options.predictions)
    except OSError as e:
        raise UsageError(f"cannot read predictions {options.predictions}: {e.strerror or e}") from None
    folder = dataset_folder(options.dataset)
    rows = load_rows(folder, {e.id for e in entries if e.id is not None}, options.splits)
    needs_gpu = any((e.column or "").startswith("cuda") for e in entries)
    gpu_reason = _gpu_reason(options) if needs_gpu else None
    records, groups = judge_entries(entries, rows, options, gpu_reason)
    summary = passk.summarize(records, groups)
    # Why cuda_* candidates were compiled only; "present" when they ran; None when there were none.
    summary["gpu"] = (gpu_reason or "present") if needs_gpu else None
    _write(options.report, "".join(json.dumps(r) + "\n" for r in records))
    _write(summary_path(options.report), json.dumps(summary, indent=2) + "\n")
    return records, summary


def judge_entries(
    entries: Sequence[Candidate | Bad],
    rows: Mapping[str, Mapping[str, Any]],
    options: Options,
    gpu_reason: str | None,
    tools: stage.Tools | None = None,
) -> tuple[list[dict[str, Any]], dict[tuple[str, str], dict[str, str]]]:
    """(one record per entry, in order; the summary groups of each (id, column) of the dataset's rows).

    `gpu_reason`: why cuda_* candidates cannot run here (None: they run). `tools`: default from PATH."""
    tools = tools or stage.find_tools(options.arch)
    records: list[dict[str, Any]] = []
    groups: dict[tuple[str, str], dict[str, str]] = {}
    jobs: list[_Job] = []
    for entry in entries:
        record = {"id": entry.id, "column": entry.column, "verdict": "", "detail": ""}
        records.append(record)
        row = rows.get(entry.id) if entry.id is not None else None
        if row is not None and entry.column in TARGET_COLUMNS and row.get(entry.column):
            groups[(entry.id, entry.column)] = _groups(row, entry.column)
        if isinstance(entry, Bad):
            record.update(verdict="bad_input", detail=entry.reason)
            continue
        if row is None:
            unknown = f"line {entry.line}: unknown id {entry.id!r} (not a row of the dataset)"
            record.update(verdict="bad_input", detail=unknown)
            continue
        problem = _not_evaluable(entry, row, tools)
        if problem is not None:
            record.update(verdict=problem[0], detail=problem[1])
            continue
        try:
            program = candidate_program(row, entry.column, entry.prediction)
        except CandidateError as e:
            record.update(verdict="not_checkable", detail=str(e))
            continue
        jobs.append(_Job(len(records) - 1, row, entry.column, entry.prediction, program))

    limits = sandbox.Limits(options.memory_mb << 20, int(options.time_limit) + 1)
    batches = _batches(jobs)
    work = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_evaluate_"))

    judge_batch = functools.partial(
        _judge_batch, tools=tools, limits=limits, time_limit=options.time_limit, gpu_reason=gpu_reason, work=work
    )
    try:
        for batch, verdicts in zip(batches, fan_out(batches, judge_batch, options.workers), strict=True):
            for job, (verdict, detail) in zip(batch, verdicts, strict=True):
                records[job.index].update(verdict=verdict, detail=detail)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return records, groups


def _gpu_reason(options: Options) -> str | None:
    if not options.gpu:
        return "GPU runs disabled (--no-gpu)"
    from warp_cuda_ir.validation.gpu import unavailable_reason

    return unavailable_reason()


def _not_evaluable(entry: Candidate, row: Mapping[str, Any], tools: stage.Tools) -> tuple[str, str] | None:
    """(verdict, detail) of a candidate of a known row that cannot be compiled and run, or None."""
    if not row.get(entry.column):
        return "bad_input", f"line {entry.line}: row {entry.id} has no {entry.column} (the kernel has no such code)"
    if row.get(REFERENCE) is None:
        why = "its program launches nothing" if not launches(row[program_column(entry.column)]) else "not validated"
        return "not_checkable", f"the row has no reference digest ({why})"
    target = target_of(entry.column)
    if entry.column.endswith("_backward") and not any(
        line.startswith("adjoint ") for line in row[REFERENCE].splitlines()
    ):  # any backward that compiles would pass: nothing it computes is compared
        why = (
            "the programs leave out a backward that never ends or prints what memory held"
            if row.get(f"{target}_backward") and not runs_backward(row, target)
            else "its backward prints no input adjoint"
        )
        return "not_checkable", f"the row's reference has no adjoint line to judge a backward by ({why})"
    if target == "cpu" and tools.cxx is None:
        return "not_checkable", "C++ compiler not found (g++ on PATH or WARP_CUDA_IR_CXX)"
    if target == "cuda" and tools.nvcc is None:
        return "not_checkable", "nvcc not found (on PATH or WARP_CUDA_IR_NVCC)"
    return None


def _batches(jobs: Sequence[_Job]) -> list[list[_Job]]:
    """Jobs that share a compiler call: one target (and CUDA block_dim), batch-safe text, up to BATCH_ROWS.

    Two candidates of one kernel never share a batch: Warp's entry points are `extern "C"`, so namespaces do
    not keep them apart (measured: two samples of one row made the batch fail to assemble, and the split
    that followed compiled them one by one)."""
    open_batches: dict[tuple[str, int], list[tuple[set[str], list[_Job]]]] = {}
    done: list[list[_Job]] = []
    for job in jobs:
        target = target_of(job.column)
        if not batch_safe(job.prediction):
            done.append([job])
            continue
        block_dim = int(job.row.get("block_dim") or extraction.CUDA_BLOCK_DIM) if target == "cuda" else 0
        symbol = job.row["kernel_symbol"]
        batches = open_batches.setdefault((target, block_dim), [])
        slot = next((b for b in batches if symbol not in b[0]), None)
        if slot is None:
            slot = (set(), [])
            batches.append(slot)
        slot[0].add(symbol)
        slot[1].append(job)
        if len(slot[1]) == stage.BATCH_ROWS:
            batches.remove(slot)
            done.append(slot[1])
    return [b for batches in open_batches.values() for _, b in batches] + done


def _judge_batch(
    batch: Sequence[_Job],
    tools: stage.Tools,
    limits: sandbox.Limits,
    time_limit: float,
    gpu_reason: str | None,
    work: Path,
) -> list[tuple[str, str]]:
    target = target_of(batch[0].column)
    folder = Path(tempfile.mkdtemp(dir=work, prefix="batch_"))
    column = f"{target}_program"
    items = [stage.Item(k, {column: job.program}, None) for k, job in enumerate(batch)]
    compile_limits = sandbox.Limits(
        sandbox.COMPILE_MEMORY_BYTES, int(stage.COMPILE_TIMEOUT_S), file_bytes=sandbox.COMPILE_FILE_BYTES
    )
    try:
        compiled = stage.compile_items(tools, target, items, folder, target, compile_limits.preexec())
        out: list[tuple[str, str]] = []
        for job, (status, log, binary, index) in zip(batch, compiled, strict=True):
            no_gpu = target == "cuda" and gpu_reason is not None
            prefix = passk.NOT_RUN_NO_GPU if no_gpu else ""
            if status == "timeout":
                out.append(("timeout", f"{prefix}compile: {log}"))
            elif status != "ok" or binary is None:
                out.append(("does_not_compile", prefix + _first_error(log)))
            elif no_gpu:
                out.append(("not_checkable", f"{passk.COMPILES} ({gpu_reason})"))
            else:
                run_limits = limits if target == "cpu" else sandbox.Limits(None, limits.cpu_seconds)
                command = [str(binary)] + ([str(index)] if index >= 0 else [])
                result = sandbox.run(command, folder, time_limit, run_limits)
                if result.status != "ok":
                    out.append((result.status, result.detail))
                else:
                    out.append(judge.judge(job.row[REFERENCE].splitlines(), result.stdout, exact=target == "cpu"))
        return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _write(path: Path, text: str) -> None:
    """Write `path` whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text.encode())
