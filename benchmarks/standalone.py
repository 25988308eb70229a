#!/usr/bin/env python
"""Standalone programs: compile and match rates, the stage's cost per row, the size it adds.

    python benchmarks/standalone.py --rows 512 --workers 2 [--pass-rows 32]

On N generated rows (seeds from --seed):
  reference  Warp's own CPU launch, forward and backward, as digest lines (in the pass, the worker runs
             it right after the row's CPU stage, with the module already compiled; here it compiles too)
  stage      the validation pass's standalone stage: programs compiled in batches by nvcc and g++ with the
             Makefile's flags, the CPU twin run, its lines compared with the reference
  pass       today's whole validation pass (--no-standalone) on a --pass-rows build, for the cost per row
CPU time is counted (this process and every child: compilers, programs, pass workers), not wall time, so
other load on the machine moves the figures less. Size: Parquet bytes of the rows with and without the
program columns, with the codec the published files use (`writing.PARQUET_COMPRESSION`) and with Snappy
(what datasets writes).
"""

from __future__ import annotations

import argparse
import io
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyarrow as pa
import pyarrow.parquet as pq

from warp_cuda_ir import rows, schema, warp_session, writing
from warp_cuda_ir.standalone import stage
from warp_cuda_ir.standalone.reference import reference_run
from warp_cuda_ir.synthesis import CATEGORIES

PROGRAM_COLUMNS = [name for name, _, _ in schema.STANDALONE_COLUMNS]


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def parquet_bytes(table: pa.Table, compression: str) -> int:
    sink = io.BytesIO()
    pq.write_table(table, sink, compression=compression)
    return sink.tell()


def measure_pass(n: int, seed: int, workers: int) -> tuple[float, int]:
    """CPU seconds and rows of the validation pass without the standalone stage on an n-row build."""
    from warp_cuda_ir.build import BuildOptions, run_build
    from warp_cuda_ir.shards import BuildSpec
    from warp_cuda_ir.validation.pipeline import validate_dataset
    from warp_cuda_ir.validation.runner import PassOptions

    folder = Path(tempfile.mkdtemp(prefix="standalone_pass_"))
    try:
        out = folder / "ds"
        run_build(BuildOptions(out=out, spec=BuildSpec(seed=seed, seeds_per_shard=n), target_mb=0.01, workers=1))
        start = cpu_seconds()
        result = validate_dataset(out, PassOptions(workers=workers, use_gpu=False, standalone=False))
        return cpu_seconds() - start, result.rows
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=512)
    p.add_argument("--seed", type=int, default=20000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--pass-rows", type=int, default=32, help="rows of the validation-pass comparison (0: skip)")
    args = p.parse_args()
    warp_session.init_warp()

    clock, cpu = time.time(), cpu_seconds()
    made, failed = rows.make_rows(range(args.seed, args.seed + args.rows), list(CATEGORIES))
    print(f"rows: {len(made)} generated ({len(failed)} failed codegen) in {time.time() - clock:.0f} s")

    table = pa.Table.from_pylist(made, schema=schema.ARROW_SCHEMA)
    for codec in (writing.PARQUET_COMPRESSION, "snappy"):
        with_programs = parquet_bytes(table, codec)
        without = parquet_bytes(table.drop_columns(PROGRAM_COLUMNS), codec)
        print(
            f"size ({codec} Parquet): {with_programs / len(made) / 1e3:.1f} kB/row with the programs, "
            f"{without / len(made) / 1e3:.1f} without: +{(with_programs - without) / len(made) / 1e3:.1f} kB/row"
        )

    clock, cpu = time.time(), cpu_seconds()
    items = []
    for row in made:
        try:
            with warp_session.loaded_kernel(row["python_source"], row["kernel_name"]) as (kernel, namespace):
                reference = reference_run(row, kernel, namespace)[1]
        except Exception:
            reference = None
        items.append((row["id"], row, reference))
    reference_cpu = cpu_seconds() - cpu
    print(f"reference: {reference_cpu / len(made):.3f} CPU-s/row ({sum(r is None for *_, r in items)} without)")

    work = Path(tempfile.mkdtemp(prefix="standalone_bench_"))
    tools = stage.find_tools()
    print(f"tools: nvcc {tools.nvcc}, C++ {tools.cxx}; {stage.BATCH_ROWS} programs per batch, in this process")
    clock, cpu = time.time(), cpu_seconds()
    out: dict = {}
    for start in range(0, len(items), 64):  # the CPU time counts every compiler, whatever runs them
        out |= stage.run_stage(items[start : start + 64], work, tools, "no GPU")
        print(f"  {len(out)} rows through the stage, {cpu_seconds() - cpu:.0f} CPU-s", flush=True)
    stage_wall, stage_cpu = time.time() - clock, cpu_seconds() - cpu
    shutil.rmtree(work, ignore_errors=True)
    n = len(out)
    nvcc = Counter(c["standalone_nvcc_status"] for c in out.values())
    cpp = Counter(c["standalone_cpu_compile_status"] for c in out.values())
    run = Counter(c["standalone_cpu_run_status"] for c in out.values())
    match = sum(c["standalone_cpu_matches_warp"] is True for c in out.values())
    print(f"nvcc compile: {nvcc['ok']}/{n} ok ({100 * nvcc['ok'] / n:.2f}%) {dict(nvcc)}")
    print(
        f"CPU twin compile: {cpp['ok']}/{n}; run: {run['ok']}/{n}; digests equal Warp's: {match}/{n} "
        f"({100 * match / n:.2f}%)"
    )
    for key, columns in out.items():
        if columns["standalone_cpu_matches_warp"] is not True or columns["standalone_nvcc_status"] != "ok":
            row = next(r for r in made if r["id"] == key)
            detail = columns["standalone_cpu_run_error"] or columns["standalone_cpu_compile_error"] or ""
            if columns["standalone_cpu_matches_warp"] is False:
                detail = "digest lines differ from Warp's CPU launch"
            nv = (columns["standalone_nvcc_error"] or "")[:200]
            print(
                f"  seed {row['seed']} {row['category']}: nvcc {columns['standalone_nvcc_status']} {nv!r}; "
                f"twin {columns['standalone_cpu_run_status']} {detail[:200]!r}"
            )
    per_row = (stage_cpu + reference_cpu) / n
    print(
        f"stage: {stage_wall:.0f} s wall, {stage_cpu / n:.2f} CPU-s/row compile+run, {per_row:.2f} with the reference"
    )
    if args.pass_rows:
        pass_cpu, pass_n = measure_pass(args.pass_rows, args.seed + args.rows, args.workers)
        print(
            f"validation pass without the stage: {pass_cpu / pass_n:.2f} CPU-s/row ({pass_n} rows); "
            f"stage / pass = {per_row / (pass_cpu / pass_n):.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
