#!/usr/bin/env python
"""Measure the evaluator on a validated build: the dataset's own targets, planted wrong candidates, throughput.

    python benchmarks/evaluation.py DATASET_FOLDER [--workers 2] [--out /tmp/evaluation_benchmark]

1. Every row's own `cpu_forward`, `cpu_backward`, `cuda_forward`, `cuda_backward` as predictions: the share
   judged `correct` per target among rows with a reference digest (cuda_* without a GPU: the share that
   compiles, "compiles; no GPU to run").
2. Planted wrong candidates (`evaluation/plants.py`) for cpu_forward and cpu_backward: the share judged
   anything but `correct`, per kind, over the rows whose reference arrays are not already of that kind
   (a zeros plant cannot be wrong where the reference's judged arrays are all zeros).
3. Throughput of (1)'s cpu_* run: candidates per CPU-second (the evaluator and every child it started),
   next to wall time and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyarrow.parquet as pq

from warp_cuda_ir.evaluation import judge, plants
from warp_cuda_ir.standalone.digest import parse_line
from warp_cuda_ir.validation.dataset import data_files

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ("id", "cpu_forward", "cpu_backward", "cuda_forward", "cuda_backward", "cpu_program")


def _evaluate(folder: Path, lines: list[dict], out: Path, name: str, workers: int) -> tuple[list[dict], dict]:
    predictions = out / f"{name}.jsonl"
    predictions.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = out / f"{name}.verdicts.jsonl"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.time()
    command = [sys.executable, str(ROOT / "scripts" / "evaluate.py"), "--dataset", str(folder)]
    command += ["--predictions", str(predictions), "--report", str(report), "--workers", str(workers)]
    subprocess.run(command, check=True, capture_output=True)
    wall = time.time() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    records = [json.loads(line) for line in report.read_text().splitlines()]
    timing = {"candidates": len(lines), "cpu_s": round(cpu, 1), "wall_s": round(wall, 1), "load": os.getloadavg()}
    timing["candidates_per_cpu_s"] = round(len(lines) / cpu, 2) if cpu else None
    return records, timing


def _eligible(row: dict, column: str, kind: str) -> bool:
    """Whether a `kind` plant can be wrong for this row: some judged reference array is not already so."""
    wanted = "output" if column.endswith("forward") else "adjoint"
    lines = [parse_line(line) for line in row["standalone_reference_digest"].splitlines()]
    judged = [d for d in lines if d[0] == wanted]
    if kind == "zeros":
        return any(not judge._zeros(d) for d in judged)
    if kind == "constant":
        return any(not judge._constant(d) for d in judged)
    return bool(judged)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("/tmp/evaluation_benchmark"))
    p.add_argument("--cuda-rows", type=int, default=None, help="cuda_* run on the first N rows only (nvcc: slow)")
    p.add_argument("--parts", default="own_cpu,own_cuda,planted", help="which measurements (comma-separated)")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for path in data_files(args.dataset):
        rows += pq.read_table(path, columns=[*COLUMNS, "standalone_reference_digest"]).to_pylist()
    rows = [r for r in rows if r["standalone_reference_digest"]]
    result: dict = {"rows_with_reference": len(rows)}

    parts = set(args.parts.split(","))
    for group in (("cpu_forward", "cpu_backward"), ("cuda_forward", "cuda_backward")):
        if "own_" + group[0].split("_")[0] not in parts:
            continue
        some = rows[: args.cuda_rows] if group[0].startswith("cuda") else rows
        lines = [{"id": r["id"], "column": c, "prediction": r[c]} for r in some for c in group if r[c]]
        if not lines:
            continue
        records, timing = _evaluate(args.dataset, lines, args.out, "own_" + group[0].split("_")[0], args.workers)
        result["timing_own_" + group[0].split("_")[0]] = timing
        for column in group:
            mine = [r for r in records if r["column"] == column]
            tally: dict[str, int] = {}
            for r in mine:
                tally[r["verdict"]] = tally.get(r["verdict"], 0) + 1
            result[f"own_{column}"] = {"candidates": len(mine), "verdicts": tally}
            result[f"own_{column}_not_correct"] = [r for r in mine if r["verdict"] != "correct"][:5]

    lines, kinds = [], []
    for r in rows if "planted" in parts else []:
        for column in ("cpu_forward", "cpu_backward"):
            for kind in plants.PLANTS:
                text = plants.plant(r, column, kind, seed=len(lines))
                if text is not None and _eligible(r, column, kind):
                    lines.append({"id": r["id"], "column": column, "prediction": text})
                    kinds.append((kind, column))
    records, timing = _evaluate(args.dataset, lines, args.out, "planted", args.workers) if lines else ([], {})
    result["timing_planted"] = timing
    for kind in plants.PLANTS:
        for column in ("cpu_forward", "cpu_backward"):
            mine = [rec for rec, k in zip(records, kinds, strict=True) if k == (kind, column)]
            tally = {}
            for rec in mine:
                tally[rec["verdict"]] = tally.get(rec["verdict"], 0) + 1
            caught = sum(rec["verdict"] != "correct" for rec in mine)
            result[f"planted_{kind}_{column}"] = {
                "candidates": len(mine),
                "caught": caught,
                "rate": round(caught / len(mine), 4) if mine else None,
                "verdicts": tally,
            }
    (args.out / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
