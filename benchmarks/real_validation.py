#!/usr/bin/env python
"""Validate a sample of a build's real rows: NVRTC compile (with PTX) and CPU compile, as the validation pass.

    python benchmarks/real_validation.py /tmp/realbuild --sample 500 --workers 2
    python benchmarks/real_validation.py /tmp/realbuild --sample 300 --replayed   # rows that run

The sample is every k-th real row (in file order, all splits) so it spreads over packages and files;
`--replayed` samples only rows whose captured launch replayed `equal` or `close`, which the pass runs from
their launch record (CPU run, digest, output statistics, gradient check).
Each worker compiles its share with `validation.compile_cuda.compile_rows` (batched, bisected on failure)
and `validation.row.execution_columns` (Warp's Clang; rows without a launch record stop after the
compile): the very functions the pass calls. Prints the figures and the failures; nothing in the folder is changed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _validate(rows: list[dict[str, Any]], arch: int, log: str | None = None) -> list[dict[str, Any]]:
    from warp_cuda_ir import schema, warp_session
    from warp_cuda_ir.validation import compile_cuda, row

    warp_session.init_warp()
    toolkit = warp_session.toolkit_version()
    out = []
    with tempfile.TemporaryDirectory(prefix="real_validation_") as scratch:
        for start in range(0, len(rows), 16):  # batches as the pass's chunks
            batch = rows[start : start + 16]
            compiled = compile_cuda.compile_rows(batch, arch, Path(scratch) / "nvrtc")
            for r, c in zip(batch, compiled, strict=True):
                cuda = row.cuda_columns(c, arch, toolkit)
                cpu = row.execution_columns(r, schema.NO_GPU, {})
                out.append(
                    {
                        "package": r["provenance"]["package"],
                        "file": r["provenance"]["file"],
                        "kernel": r["kernel_name"],
                        "cuda": cuda["cuda_compile_status"],
                        "ptx": bool(cuda["ptx"]),
                        "cuda_error": (cuda["cuda_compile_error"] or "")[-300:],
                        "cpu": cpu["cpu_compile_status"],
                        "cpu_error": (cpu["cpu_compile_error"] or "")[-300:],
                        "run": cpu["cpu_run_status"],
                        "run_error": (cpu["cpu_run_error"] or "")[-300:],
                        "run_skip_reason": cpu["cpu_run_skip_reason"],
                        "digest": bool(cpu.get("output_digest")),
                        "gradcheck": cpu["gradcheck_status"],
                        "gradcheck_error": (cpu["gradcheck_error"] or "")[-300:],
                        "gradcheck_skip_reason": cpu["gradcheck_skip_reason"],
                    }
                )
                if log:  # one line per row as it finishes: a long run can be read while it goes
                    with open(log, "a") as f:
                        f.write(json.dumps(out[-1]) + "\n")
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", type=Path)
    p.add_argument("--sample", type=int, default=500)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--arch", type=int, default=90)
    p.add_argument("--log", default=None, help="append one JSON line per validated row to this file")
    p.add_argument("--replayed", action="store_true", help="sample only rows with a usable replayed launch")
    args = p.parse_args()

    import pyarrow as pa
    import pyarrow.parquet as pq

    from warp_cuda_ir import writing

    files = [path for paths in writing.data_files(args.folder, "real").values() for path in paths]
    table = pq.read_table(files)
    if args.replayed:
        import pyarrow.compute as pc

        table = table.filter(pc.is_in(table["launch_replay"], value_set=pa.array(["equal", "close"])))
    step = max(1, table.num_rows // args.sample)
    rows = table.take(list(range(0, table.num_rows, step))[: args.sample]).to_pylist()
    started = time.time()
    shares = [rows[i :: args.workers] for i in range(args.workers)]
    with ProcessPoolExecutor(args.workers) as pool:
        n = len(shares)
        results = [r for part in pool.map(_validate, shares, [args.arch] * n, [args.log] * n) for r in part]
    seconds = time.time() - started
    n = len(results)
    both = sum(1 for r in results if r["cuda"] == "ok" and r["cpu"] == "ok")
    summary = {
        "real_rows": table.num_rows,
        "sample": n,
        "every_kth": step,
        "cuda_ok": sum(r["cuda"] == "ok" for r in results),
        "ptx": sum(r["ptx"] for r in results),
        "cpu_compile_ok": sum(r["cpu"] == "ok" for r in results),
        "both_ok": both,
        "both_ok_rate": round(both / n, 4) if n else None,
        "cpu_run_status": dict(Counter(r["run"] for r in results)),
        "output_digest": sum(r["digest"] for r in results),
        "gradcheck_status": dict(Counter(r["gradcheck"] for r in results)),
        "cpu_run_skip_reason": dict(Counter(r["run_skip_reason"] for r in results)),
        "gradcheck_skip_reason": dict(Counter(r["gradcheck_skip_reason"] for r in results)),
        "per_package": dict(Counter(r["package"] for r in results)),
        "seconds": round(seconds, 1),
    }
    print(json.dumps(summary, indent=1))
    for r in results:
        if r["cuda"] != "ok" or r["cpu"] != "ok" or r["run"] in ("error", "timeout"):
            print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
