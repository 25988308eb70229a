#!/usr/bin/env python
"""Standalone programs of a build's real rows with a replayed launch: nvcc, CPU twin, reference digest.

    python benchmarks/real_programs.py /tmp/build --per-package 150 --workers 2 --json /tmp/real_programs.json

Takes the real rows whose captured launch replayed `equal` or `close` (every k-th in file order, at most
--per-package of each package; all with --per-package 0), makes Warp's own CPU launch of each as the
digest lines its programs must print (`standalone.reference_columns`, what the validation pass's worker
writes), and runs the validation pass's standalone stage on them (`standalone.stage.run_stage`: the
programs compiled in batches by nvcc and g++ with the Makefile's flags, the CPU twin run, its lines
compared with the reference). The programs are the rows' own columns, or with --remake the ones the
checkout's writer makes from the rows' other columns. Prints per package: nvcc compiles, CPU twin runs,
CPU twin prints the reference digest, then every failure by kernel and reason; a twin that does not print
the reference is built again with Warp's array bounds asserts on, to tell a kernel that indexes outside its
arrays under the captured launch (its digest is then undefined for Warp's launch as well) from our faults.
--export DIR writes each row's program.cu, program.cpp, Makefile and expected.txt (the reference lines) into
DIR/<row id>/, to build and run elsewhere (on a GPU machine: `make run-cuda`, compared with expected.txt by
`standalone.stage.digests_agree`). Nothing in the build folder is changed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyarrow.parquet as pq

REPLAYED = ("equal", "close")


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def replayed_rows(folder: Path, per_package: int) -> list[dict[str, Any]]:
    """The real rows with a replayed launch, every k-th of each package so the sample spreads over files."""
    by_package: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in sorted((folder / "data" / "real").rglob("*.parquet")):
        for row in pq.read_table(path).to_pylist():
            if row["launch_replay"] in REPLAYED and row["launch_record"] is not None:
                by_package[row["category"]].append(row)
    out = []
    for package in sorted(by_package):
        found = by_package[package]
        step = max(1, len(found) // per_package) if per_package else 1
        out += found[::step][: per_package or None]
    return out


def _measure(rows: list[dict[str, Any]], remake: bool) -> tuple[list[dict[str, Any]], float]:
    """(per-row results, CPU seconds) for one worker's share: reference digests, then the stage in batches."""
    from warp_cuda_ir import standalone, warp_session
    from warp_cuda_ir.standalone import stage

    warp_session.init_warp()
    started = cpu_seconds()
    items = []
    fork = multiprocessing.get_context("fork")
    for row in rows:
        if remake:
            row = row | standalone.program_columns(row)
        # Warp's own launch of a kernel we did not write, in a child of its own: one corrupted this process's
        # heap ("free(): invalid next size"), as the validation pass's workers expect of real kernels.
        with ProcessPoolExecutor(1, mp_context=fork) as pool:
            try:
                reference = pool.submit(_reference, row).result(timeout=600)
            except Exception:  # the child crashed or hung: no reference, as when the pass's worker dies
                reference = None
        items.append((row["id"], row, reference.splitlines() if reference is not None else None))
    tools = stage.find_tools()
    found: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="real_programs_") as work:
        for start in range(0, len(items), 32):
            found |= stage.run_stage(items[start : start + 32], Path(work), tools, "no GPU")
    out = []
    for key, row, reference in items:
        c = found[key]
        checked = None
        if c["standalone_cpu_matches_warp"] is not True and c["standalone_cpu_compile_status"] == "ok":
            checked = _bounds_checked(row["cpu_program"], tools)
        out.append(
            {
                "id": key,
                "package": row["category"],
                "kernel": row["kernel_name"],
                "file": row["provenance"]["file"],
                "replay": row["launch_replay"],
                "launches": standalone.program.launches(row["cpu_program"]),
                "not_run": _not_run(row["cpu_program"]),
                "reference": reference,
                "nvcc": c["standalone_nvcc_status"],
                "nvcc_error": (c["standalone_nvcc_error"] or "")[-600:],
                "cpu_compile": c["standalone_cpu_compile_status"],
                "cpu_compile_error": (c["standalone_cpu_compile_error"] or "")[-600:],
                "cpu_run": c["standalone_cpu_run_status"],
                "cpu_run_error": (c["standalone_cpu_run_error"] or "")[-300:],
                "cpu_run_skip_reason": c["standalone_cpu_run_skip_reason"],
                "matches": c["standalone_cpu_matches_warp"],
                "bounds_check": checked,
                "programs": {k: row[k] for k in ("cuda_program", "cpu_program", "makefile")},
            }
        )
    return out, cpu_seconds() - started


def _bounds_checked(cpu_program: str, tools: Any) -> str:
    """The twin of a row it did not match, built again with Warp's array bounds asserts on (no NDEBUG) and
    run: whether the kernel's own code indexes outside its arrays under this launch. Where it does, Warp's
    CPU launch reads or writes memory beyond its arrays too (it builds without the asserts), so neither its
    digest nor the twin's is defined by the row: the failure is the kernel's, not the program's."""
    import subprocess

    from warp_cuda_ir.standalone.program import CXXFLAGS
    from warp_cuda_ir.standalone.stage import RUN_TIMEOUT_S

    with tempfile.TemporaryDirectory(prefix="bounds_") as work:
        source, binary = Path(work) / "program.cpp", Path(work) / "program"
        source.write_text(cpu_program)
        flags = [f for f in CXXFLAGS if f != "-DNDEBUG"]
        built = subprocess.run(
            [str(tools.cxx), *flags, "-isystem", tools.warp_native, "-o", str(binary), str(source)],
            capture_output=True,
        )
        if built.returncode != 0:
            return "not built"
        try:
            # stdbuf: the assert's message is printed just before the trap, which would lose a pipe's buffer.
            done = subprocess.run(["stdbuf", "-o0", str(binary)], capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "no assert (timeout)"
    failed = [line for line in done.stdout.splitlines() if line.startswith("assertion failed")]
    if failed:
        where = "backward" if any(line.startswith("output ") for line in done.stdout.splitlines()) else "forward"
        return f"out of bounds in the {where} launch"
    return "no assert" if done.returncode == 0 else f"no assert (exit status {done.returncode})"


def _reference(row: dict[str, Any]) -> str | None:
    from warp_cuda_ir import standalone

    return standalone.reference_columns(row)["standalone_reference_digest"]


def _not_run(program: str) -> str | None:
    from warp_cuda_ir.standalone.program import NOT_RUN

    at = program.find(NOT_RUN)
    return None if at < 0 else program[at + len(NOT_RUN) : program.index('\\n");', at)]


def _reason(r: dict[str, Any]) -> str:
    if r["not_run"] is not None:
        return f"launches nothing: {r['not_run']}"
    if (r["bounds_check"] or "").startswith("out of bounds"):
        return f"the kernel indexes an array {r['bounds_check']} (bounds asserts on): Warp's launch is undefined too"
    if r["reference"] is None:
        return "no reference digest (Warp's own CPU launch failed)"
    if r["cpu_compile"] != "ok":
        return f"CPU twin does not compile: {r['cpu_compile_error'][-300:]}"
    if r["cpu_run"] != "ok":
        return f"CPU twin run {r['cpu_run']}: {r['cpu_run_error'] or r['cpu_run_skip_reason']}"
    return "CPU twin's digest lines differ from Warp's CPU launch"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", type=Path, help="a built dataset folder (scripts/build.py --out)")
    p.add_argument("--per-package", type=int, default=150, help="rows per package at most (0: all)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--remake", action="store_true", help="programs from this checkout's writer, not the columns")
    p.add_argument("--json", type=Path, help="write the per-row results here")
    p.add_argument("--export", type=Path, help="write each row's programs, Makefile and expected lines here")
    args = p.parse_args()
    if not (args.folder / "data" / "real").is_dir():
        print(f"error: {args.folder} holds no real rows (data/real/)", file=sys.stderr)
        return 2

    rows = replayed_rows(args.folder, args.per_package)
    print(f"rows: {len(rows)} replayed real rows {dict(Counter(r['category'] for r in rows))}", flush=True)
    clock = time.time()
    shares = [rows[k :: args.workers] for k in range(args.workers)]
    results: list[dict[str, Any]] = []
    worker_cpu = 0.0
    with ProcessPoolExecutor(args.workers) as pool:
        for out, cpu in pool.map(_measure, shares, [args.remake] * len(shares)):
            results += out
            worker_cpu += cpu
    print(f"measured in {time.time() - clock:.0f} s wall, {worker_cpu:.0f} CPU-s (workers and their compilers)")

    by_package: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        by_package[r["package"]].append(r)
    print("package        rows  nvcc ok  twin runs  twin prints the reference digest")
    for package in [*sorted(by_package), "all"]:
        rs = results if package == "all" else by_package[package]
        n = len(rs)
        nvcc = sum(r["nvcc"] == "ok" for r in rs)
        runs = sum(r["cpu_run"] == "ok" for r in rs)
        match = sum(r["matches"] is True for r in rs)
        print(f"{package:<13} {n:>5} {nvcc:>8} {runs:>10} {match:>8} ({100 * match / max(n, 1):.2f}%)")
    print("failures:")
    for r in sorted(results, key=lambda r: (r["package"], r["kernel"])):
        if r["nvcc"] != "ok":
            print(f"  {r['package']} {r['kernel']} ({r['file']}): nvcc: {r['nvcc_error'][-300:]!r}")
        if r["matches"] is not True:
            print(f"  {r['package']} {r['kernel']} ({r['file']}): {_reason(r)!r}")

    if args.export:
        for r in results:
            folder = args.export / r["id"]
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            (folder / "program.cu").write_text(r["programs"]["cuda_program"])
            (folder / "program.cpp").write_text(r["programs"]["cpu_program"])
            (folder / "Makefile").write_text(r["programs"]["makefile"])
            (folder / "expected.txt").write_text("\n".join(r["reference"] or []) + "\n")
    if args.json:
        for r in results:
            r.pop("programs")
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
