#!/usr/bin/env python
"""Validation pass throughput: CUDA compile vs `wp.compile_aot_module` per kernel, and kernels/s per stage.

    python benchmarks/validation.py --rows 64 --workers 2
    python benchmarks/validation.py --side-by-side OLD_CHECKOUT [--rounds 2] [--no-standalone]   # old vs new
    python benchmarks/validation.py --stages --rows 64 [--old OLD_CHECKOUT [--old-chunk-size N]] [--keep DIR]
        # core-s/row per step of the pass, and floors
    python benchmarks/validation.py --backward-forms BUILD [--rows 128] [--chunk-size 32]
        # NVRTC on a folder's rows: Warp's module form against the pass's (backward helpers out of line)
    python benchmarks/validation.py --assemble VALIDATED_FOLDER   # how many rows' `ptx` ptxas assembles alone

`--stages` builds --rows generated rows, validates a copy with this checkout's `scripts/validate.py --no-gpu`
(and with OLD_CHECKOUT's, one after the other, for the before figure), and prints CPU seconds per row (the
pass and every process it started) in total and per step of the pass, next to each step's floor: the tool
alone on the same code with its best batching, in this process (NVRTC on one module of every row, Warp's
Clang on every row's CPU modules in one translation unit per setting, the row's own at -O2 and the gradient
check's at -O0, as the pass compiles them; nvcc and g++ on one translation unit of every row's program per
block size).

`--backward-forms` compiles the first --rows rows of a built folder (e.g. a sample of real rows,
`benchmarks/gpu_agreement.py sample`) in batches of --chunk-size, in one process, twice in each of two
forms, alternating: `module`, each row's helpers, forward and backward in one namespace, as Warp's own
module has them; `pass`, `compile_cuda.batch_source`, whose backward kernels get a copy of the helpers out
of line. Prints CPU seconds per row of each round, and in how many rows the forward PTX of the two
forms is equal.

`--assemble` runs `ptxas -arch=sm_<cuda_arch>` on each row's `ptx` of a validated folder, alone, and counts
the rows it assembles, with the first line of each kind of error. A ptxas older than the NVRTC that wrote the
PTX (nvcc 13.0's reads PTX 9.0, NVRTC 13.4 writes 9.4) gets the text at the version it names.

`--side-by-side` measures the whole pass (`scripts/validate.py --no-gpu`) in rows/s on a 128-seed
build, for an older checkout of this repository (e.g. `git archive <commit> | tar -x -C OLD`) and for
this one, both passes running at the same time (each with --workers processes) so both see the same
machine load; each side validates a fresh copy of a folder built by its own code (same seeds). Prints
each run and the median per side. Do not change either checkout while it runs.

Both compile routes run on the same N generated rows in one run and produce PTX for --arch:
  baseline  each kernel alone through Warp's public AOT route (`wp.compile_aot_module`, one process)
  pass      the validation pass's compile stage: rows batched per NVRTC call (`--chunk-size`),
            chunks spread over `--workers` processes (`compile_cuda.compile_rows`, as the workers run it)
Each side pays its one-time NVRTC header precompile before the clock starts. The baseline also
runs Warp's codegen for each kernel (the pass reads generated code from the rows), as a user
compiling kernels one by one would. Timings on a shared machine are noisy: rerun on a quiet one.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import cpu_units, extraction, rows, warp_session
from warp_cuda_ir.cli import default_workers
from warp_cuda_ir.errors import ExtractionError
from warp_cuda_ir.synthesis import CATEGORIES
from warp_cuda_ir.validation import compile_cuda, cpu_batch, execute, gradients

_scratch: Path | None = None


def _start_worker(root: str, arch: int, warm_row: dict[str, Any]) -> None:
    """Pool initializer: own scratch + TMPDIR (NVRTC's PCH), Warp started, headers precompiled."""
    global _scratch
    _scratch = Path(tempfile.mkdtemp(dir=root))
    os.environ["TMPDIR"] = str(_scratch)
    tempfile.tempdir = str(_scratch)
    compile_cuda.compile_rows([warm_row], arch, _scratch / "nvrtc")  # same folder: Warp's PCH is reused


def _compile_chunk(args: tuple[list[dict[str, Any]], int]) -> list[str]:
    chunk, arch = args
    assert _scratch is not None
    return [r.status for r in compile_cuda.compile_rows(chunk, arch, _scratch / "nvrtc")]


def _noop(_: int) -> None:
    time.sleep(0.2)  # keeps each worker busy long enough that every worker takes one


def baseline_seconds(sample: list[dict[str, Any]], arch: int, root: Path) -> float:
    import warp as wp

    def compile_one(row: dict[str, Any], module_dir: Path) -> None:
        with warp_session.loaded_kernel(row["python_source"], row["kernel_name"]) as (kernel, _):
            wp.compile_aot_module(kernel.module, arch=arch, module_dir=str(module_dir), use_ptx=True)

    compile_one(sample[0], root / "warm")  # one-time header precompile, as the pass's workers do
    start = time.perf_counter()
    for i, row in enumerate(sample):
        compile_one(row, root / f"aot{i}")  # a fresh folder each: the AOT route skips existing output
    return time.perf_counter() - start


def pass_seconds(sample: list[dict[str, Any]], arch: int, workers: int, chunk_size: int, root: Path) -> float:
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_start_worker, initargs=(str(root), arch, sample[0])) as pool:
        pool.map(_noop, range(workers), chunksize=1)  # every worker started and warmed up
        chunks = [(sample[i : i + chunk_size], arch) for i in range(0, len(sample), chunk_size)]
        start = time.perf_counter()
        statuses = [s for part in pool.map(_compile_chunk, chunks, chunksize=1) for s in part]
        seconds = time.perf_counter() - start
    if statuses.count("ok") != len(sample):
        print(f"  note: {len(sample) - statuses.count('ok')} rows failed to compile")
    return seconds


def single_process_seconds(sample: list[dict[str, Any]], arch: int, chunk_size: int, root: Path) -> tuple[float, float]:
    """(each row's module alone, rows batched) through NVRTC in this process: the batching gain alone."""
    compile_cuda.compile_rows(sample[:1], arch, root / "nvrtc")
    start = time.perf_counter()
    for row in sample:
        compile_cuda.compile_rows([row], arch, root / "nvrtc")
    alone = time.perf_counter() - start
    start = time.perf_counter()
    for i in range(0, len(sample), chunk_size):
        compile_cuda.compile_rows(sample[i : i + chunk_size], arch, root / "nvrtc")
    return alone, time.perf_counter() - start


def stage_rates(sample: list[dict[str, Any]]) -> dict[str, float]:
    """Kernels/s of the per-row CPU stages in one process (Clang compile + launch; gradient check)."""
    execute.validate_cpu(sample[0])  # Clang header precompile
    start = time.perf_counter()
    for row in sample:
        execute.validate_cpu(row)
    cpu = time.perf_counter() - start
    start = time.perf_counter()
    for row in sample:
        gradients.check(row)
    grad = time.perf_counter() - start
    return {"cpu compile + launch": len(sample) / cpu, "gradient check": len(sample) / grad}


def _build_side(checkout: Path, root: Path, seed: int, workers: int, extra: list[str]) -> dict[str, Any]:
    """Per side: build the folder once, then a list of validation runs (each on a fresh copy)."""
    built = root / f"built_{checkout.name}" / "warp_cuda_ir"
    _build_with(checkout, built, 128, seed, workers)
    return {
        "checkout": checkout,
        "built": built,
        "env": dict(os.environ, PYTHONPATH=str(checkout)),
        "runs": [],
        "extra": extra,
    }


def _start_validation(side: dict[str, Any], root: Path, workers: int) -> tuple[Any, Path]:
    import subprocess

    copy = root / f"run_{side['checkout'].name}_{len(side['runs'])}" / "warp_cuda_ir"
    shutil.copytree(side["built"], copy)
    command = [sys.executable, str(side["checkout"] / "scripts" / "validate.py"), str(copy), "--no-gpu"]
    command += ["--workers", str(workers), *side["extra"]]
    proc = subprocess.Popen(command, env=side["env"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc, copy


def _rate(proc: Any, copy: Path, side: dict[str, Any]) -> float:
    import re

    stdout, stderr = proc.communicate()
    found = re.search(r"validated .*: ([\d,]+) rows \(([\d,]+) now, ([\d.]+) rows/s\)", stdout)
    if proc.returncode != 0 or found is None:
        raise RuntimeError(f"{side['checkout']}: validate.py failed: {(stderr or stdout)[-800:]}")
    rate = float(found.group(3))
    side["runs"].append(rate)
    shutil.rmtree(copy.parent, ignore_errors=True)
    return rate


def side_by_side(old: Path, seed: int, workers: int, rounds: int, no_standalone: bool = False) -> None:
    """Both sides' passes run at the same time (each with `workers` processes), so they share the load.

    `no_standalone`: this checkout's pass without its standalone stage (which older checkouts lack),
    so the two passes do the same stages."""
    import statistics

    root = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_sbs_"))
    here = Path(__file__).resolve().parent.parent
    try:
        sides = {
            "old": _build_side(old.resolve(), root, seed, workers, []),
            "new": _build_side(here, root, seed, workers, ["--no-standalone"] if no_standalone else []),
        }
        for r in range(rounds):
            running = {name: _start_validation(side, root, workers) for name, side in sides.items()}
            for name, (proc, copy) in running.items():
                print(f"  round {r + 1} {name}: {_rate(proc, copy, sides[name]):.2f} rows/s", flush=True)
        for name, side in sides.items():
            print(f"{name} ({side['checkout']}): median {statistics.median(side['runs']):.2f} rows/s over {rounds}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cpu_of_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _validate_cost(checkout: Path, folder: Path, workers: int, chunk_size: int) -> tuple[float, float, str]:
    """(CPU seconds of the whole pass and its children, wall seconds, its output) for one checkout."""
    import subprocess

    command = [sys.executable, str(checkout / "scripts" / "validate.py"), str(folder), "--no-gpu"]
    command += ["--workers", str(workers), "--chunk-size", str(chunk_size)]
    # Empty caches for each pass: the machine cache keeps a pass's annotations (a second pass of the same rows
    # reads them back: 0.04 core-s/row), and Warp's kernel cache its compiled modules.
    caches = Path(tempfile.mkdtemp(prefix="caches_", dir=folder.parent))
    env = dict(os.environ, PYTHONPATH=str(checkout), WARP_CUDA_IR_CACHE=str(caches / "machine"))
    env["WARP_CACHE_PATH"] = str(caches / "warp")
    before, clock = _cpu_of_children(), time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        if "was built with schema" in done.stderr:
            raise SchemaMismatch(done.stderr.strip())
        raise RuntimeError(f"{checkout}: validate.py failed: {(done.stderr or done.stdout)[-800:]}")
    return _cpu_of_children() - before, time.perf_counter() - clock, done.stdout


class SchemaMismatch(Exception):
    """The checkout's `validate.py` cannot read a folder another checkout built."""


def _build_with(checkout: Path, folder: Path, rows_wanted: int, seed: int, workers: int | None = None) -> int:
    """Build `rows_wanted` generated rows from `seed` with `checkout`'s own build.py into `folder`, unvalidated; its
    row count. Older checkouts have no `--real` or `--no-validate`: they built generated rows only, unvalidated."""
    import subprocess

    import pyarrow.parquet as pq

    script = checkout / "scripts" / "build.py"
    options = script.read_text()
    command = [sys.executable, str(script), "--out", str(folder), "--target-mb", "0.01"]
    command += ["--seeds-per-shard", str(rows_wanted), "--seed", str(seed)]
    command += ["--workers", str(workers)] if workers is not None else []
    command += ["--real", "none"] if "--real" in options else []
    command += ["--no-validate"] if "--no-validate" in options else []
    subprocess.run(command, check=True, capture_output=True, env=dict(os.environ, PYTHONPATH=str(checkout)))
    return sum(pq.read_metadata(f).num_rows for f in (folder / "data").rglob("*.parquet"))


def _floors(rows: list[dict[str, Any]], arch: int, root: Path) -> dict[str, float]:
    """CPU seconds per row of each tool alone on the rows' code, batched as far as it goes."""
    import warp as wp

    from warp_cuda_ir.standalone import batch, stage

    n = len(rows)
    floors: dict[str, float] = {}
    wp.config.kernel_cache_dir = str(root / "kernel_cache")
    warp_session.init_warp()
    compile_cuda.compile_rows(rows[:1], arch, root / "warm")  # NVRTC's header precompile, as workers pay once
    execute.validate_cpu(rows[0])  # Clang's
    by_block: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_block.setdefault(r.get("block_dim") or extraction.CUDA_BLOCK_DIM, []).append(r)
    clock = _cpu_of_self()
    for group in by_block.values():
        ptx, _ = compile_cuda.compile_source(compile_cuda.batch_source(group), arch, root, "floor")
        if ptx is None:
            print(f"  note: the NVRTC floor's module of {len(group)} rows failed; its figure is too low")
    floors["cuda"] = (_cpu_of_self() - clock) / n

    # Clang: the modules the pass compiles per row (`cpu_batch.modules_of`: the row's own, at Warp's -O2; the
    # gradient check's, at its own level), in as few units as their settings allow, every row at once. A fresh
    # kernel cache: the warm-up's module is not left out.
    wp.config.kernel_cache_dir = str(root / "kernel_cache_floor")
    modules = cpu_batch.modules_of(rows, standalone=True)
    clock = _cpu_of_self()
    for k, unit in enumerate(cpu_units.units(modules)):
        source, _ = cpu_units.unit_source(unit)
        if warp_session.build_cpu_unit(source, unit[0].build_args, root / f"floor{k}.cpp", root / f"floor{k}.o"):
            print(f"  note: a Clang floor unit of {len(unit)} modules failed; the figure is too low")
    floors["row (Clang)"] = (_cpu_of_self() - clock) / n

    tools = stage.find_tools(arch)
    for target, name in (("cuda", "programs (nvcc)"), ("cpu", "programs (g++)")):
        if (tools.nvcc if target == "cuda" else tools.cxx) is None:
            continue
        column = "cuda_program" if target == "cuda" else "cpu_program"
        groups: dict[int, list[str]] = {}
        for r in rows:
            key = int(r.get("block_dim") or extraction.CUDA_BLOCK_DIM) if target == "cuda" else 0
            groups.setdefault(key, []).append(r[column])
        clock = _cpu_of_children()
        for k, programs in enumerate(groups.values()):
            stage._compile(
                tools, target, batch.batch_from_programs(programs, target), root, f"{target}{k}", len(programs)
            )
        floors[name] = (_cpu_of_children() - clock) / n
    return floors


def stages_report(
    rows_wanted: int,
    seed: int,
    workers: int,
    chunk_size: int,
    arch: int,
    old: Path | None,
    keep: Path | None = None,
    old_chunk_size: int | None = None,
) -> None:
    import re

    import pyarrow.parquet as pq

    here = Path(__file__).resolve().parent.parent
    root = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_stages_"))
    try:
        built = root / "built"
        _build_with(here, built, rows_wanted, seed)
        rows = [r for f in sorted((built / "data").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
        n = len(rows)
        print(f"{n} generated rows, {workers} workers, batches of {chunk_size}, load {os.getloadavg()[0]:.1f}")
        sides = [("new", here, chunk_size)]
        if old is not None:
            sides.append(("old", old.resolve(), old_chunk_size or chunk_size))
        for name, checkout, chunk in sides:
            folder = root / name
            shutil.copytree(built, folder)
            try:
                cpu, wall, out = _validate_cost(checkout, folder, workers, chunk)
                side_rows = n
            except SchemaMismatch:
                # An older checkout reads only its own schema: it validates the rows its own code builds for the
                # same seeds (its generator's programs, so the figures compare passes, not identical rows).
                shutil.rmtree(folder)
                side_rows = _build_with(checkout, folder, rows_wanted, seed)
                print(f"  {name}: reads an older schema; validating its own build of the same seeds ({side_rows} rows)")
                cpu, wall, out = _validate_cost(checkout, folder, workers, chunk)
            print(
                f"  {name} pass ({checkout}, batches of {chunk}): {cpu / side_rows:.3f} core-s/row ({cpu:.0f} CPU s, "
                f"{wall:.0f} s wall, load {os.getloadavg()[0]:.1f})"
            )
            found = re.search(r"core-seconds per row, by step of the pass: (.*)", out)
            if found:
                print(f"    per step: {found.group(1)}")
            if keep is not None:  # the validated folder, to compare the two passes' annotations
                shutil.rmtree(keep / name, ignore_errors=True)
                shutil.move(folder, keep / name)
            shutil.rmtree(folder, ignore_errors=True)
        print("  floors (the tool alone, one batch of every row), core-s/row:")
        for step, value in _floors(rows, arch, root / "floors").items():
            print(f"    {step}: {value:.3f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _module_form(rows: list[dict[str, Any]]) -> str:
    """A batch as Warp's module has each row: its helpers, forward and backward in one namespace, inlined."""
    body = "".join(
        f"\nnamespace warp_cuda_ir_row_{i} {{\n{r['cuda_helpers']}{r['cuda_forward']}{r['cuda_backward']}\n}}\n"
        for i, r in enumerate(rows)
    )
    return extraction.translation_unit(
        {"cuda_helpers": body, "cuda_forward": "", "cuda_backward": "", "block_dim": rows[0].get("block_dim")}, "cuda"
    )


def backward_forms(folder: Path, n: int, chunk_size: int, arch: int) -> None:
    """NVRTC's CPU seconds per row for the module form and the pass's form of the same batches."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = [pq.read_table(f) for f in sorted((folder / "data").rglob("*.parquet"))]
    table = pa.concat_tables(tables, promote_options="permissive")
    sample = [r for r in table.to_pylist() if r["cuda_forward"]][:n]
    by_block: dict[int, list[dict[str, Any]]] = {}
    for r in sample:
        by_block.setdefault(r.get("block_dim") or extraction.CUDA_BLOCK_DIM, []).append(r)
    batches = [g[i : i + chunk_size] for g in by_block.values() for i in range(0, len(g), chunk_size)]
    root = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_bench_"))
    forms = {"module": _module_form, "pass": compile_cuda.batch_source}
    try:
        warp_session.init_warp()
        compile_cuda.compile_rows(sample[:1], arch, root)  # NVRTC's header precompile, outside the clock
        ptx: dict[str, list[str | None]] = {}
        for round_ in (1, 2):
            for name, form in forms.items():
                clock, ptx[name] = _cpu_of_self(), []
                for batch in batches:
                    text, log = compile_cuda.compile_source(form(batch), arch, root, name)
                    if text is None:
                        print(f"  note: a {name} batch of {len(batch)} rows failed: {log.strip()[-300:]}")
                    symbols = [r["kernel_symbol"] for r in batch]
                    ptx[name] += compile_cuda.forward_ptxs(text, symbols) if text else [None] * len(batch)
                print(f"  round {round_}, {name:6}: {(_cpu_of_self() - clock) / len(sample):.3f} CPU-s/row")
        same = sum(a is not None and a == b for a, b in zip(ptx["module"], ptx["pass"], strict=True))
        print(f"{len(sample)} rows in {len(batches)} batches: forward PTX equal in {same} of {len(sample)}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def assemble(folder: Path) -> None:
    """ptxas on each row's `ptx` alone: how many assemble, and the first line of each kind of error."""
    import collections
    import re

    import pyarrow.parquet as pq

    errors: collections.Counter[str] = collections.Counter()
    done = 0
    with tempfile.TemporaryDirectory() as scratch:
        for f in sorted((folder / "data").rglob("*.parquet")):
            for row in pq.read_table(f, columns=["ptx", "cuda_arch"]).to_pylist():
                if row["ptx"]:
                    done += 1
                    run = compile_cuda.assemble(row["ptx"], row["cuda_arch"], Path(scratch))
                    if run.returncode:
                        first = (run.stderr.strip().splitlines() or ["no message"])[0]
                        errors[re.sub(r"^ptxas \S+, line \d+; ", "", first)] += 1
    print(f"{done - sum(errors.values())} of {done} rows' PTX assembles alone")
    for message, count in errors.most_common(10):
        print(f"  {count}: {message}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--arch", type=int, default=90)
    p.add_argument("--workers", type=int, default=default_workers())
    p.add_argument("--chunk-size", type=int, default=16)
    p.add_argument("--stage-rows", type=int, default=16, help="rows for the CPU stage rates (default: 16)")
    p.add_argument("--side-by-side", type=Path, default=None, help="older checkout: whole pass, old vs this one")
    p.add_argument("--rounds", type=int, default=2, help="validation runs per side with --side-by-side")
    p.add_argument(
        "--no-standalone", action="store_true", help="with --side-by-side: this checkout's pass, standalone stage off"
    )
    p.add_argument("--stages", action="store_true", help="core-s/row per step of the pass, and each step's floor")
    p.add_argument("--old", type=Path, default=None, help="with --stages: an older checkout's pass, for comparison")
    p.add_argument("--old-chunk-size", type=int, default=None, help="with --old: its batches (default: --chunk-size)")
    p.add_argument(
        "--keep", type=Path, default=None, help="with --stages: keep the validated folders (KEEP/new, KEEP/old)"
    )
    p.add_argument(
        "--backward-forms", type=Path, default=None, help="a built folder: NVRTC on its rows in two batch forms"
    )
    p.add_argument("--assemble", type=Path, default=None, help="a validated folder: ptxas on each row's ptx")
    args = p.parse_args()
    if args.assemble is not None:
        assemble(args.assemble)
        return 0
    if args.backward_forms is not None:
        backward_forms(args.backward_forms, args.rows, args.chunk_size, args.arch)
        return 0
    if args.stages:
        (Path(tempfile.gettempdir())).mkdir(exist_ok=True)
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
        stages_report(
            args.rows, args.seed, args.workers, args.chunk_size, args.arch, args.old, args.keep, args.old_chunk_size
        )
        return 0
    if args.side_by_side is not None:
        side_by_side(args.side_by_side, args.seed, args.workers, args.rounds, args.no_standalone)
        return 0

    root = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_bench_"))
    import warp as wp

    wp.config.kernel_cache_dir = str(root / "kernel_cache")  # a cold cache: no CPU module is reused
    warp_session.init_warp()
    sample = []
    seed = args.seed
    while len(sample) < args.rows:
        try:
            sample.append(rows.make_row(seed, CATEGORIES, args.arch))
        except ExtractionError:
            pass
        seed += 1
    try:
        n = len(sample)
        print(
            f"{n} rows, arch {args.arch}, {args.workers} workers, chunks of {args.chunk_size}, {os.cpu_count()} cores"
        )
        base = baseline_seconds(sample, args.arch, root)
        print(f"  wp.compile_aot_module, each kernel alone: {base:7.2f} s  {n / base:7.1f} kernels/s")
        ours = pass_seconds(sample, args.arch, args.workers, args.chunk_size, root)
        print(f"  validation pass compile stage:            {ours:7.2f} s  {n / ours:7.1f} kernels/s")
        print(f"  ratio (baseline / pass): {base / ours:.2f}x")
        alone, batched = single_process_seconds(sample, args.arch, args.chunk_size, root)
        print(f"  one process, NVRTC per row alone: {n / alone:.1f} kernels/s; batched: {n / batched:.1f} kernels/s")
        for stage, rate in stage_rates(sample[: args.stage_rows]).items():
            print(f"  one process, {stage}: {rate:.1f} kernels/s")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
