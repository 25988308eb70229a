#!/usr/bin/env python
"""Score a model's code against a validated warp_cuda_ir dataset: compile, run and compare each candidate.

    python scripts/evaluate.py --dataset dist/warp_cuda_ir --predictions preds.jsonl --report verdicts.jsonl
    python scripts/evaluate.py --dataset dist/warp_cuda_ir --prompts prompts.jsonl --columns cuda_forward

Predictions: JSON Lines, exactly {"id": row id, "column": cpu_forward | cpu_backward | cuda_forward |
cuda_backward, "prediction": the candidate text, in the form of that column}; several lines per row and
column are samples for pass@k. Each candidate replaces the row's own code in the row's standalone program
(CPU twin for cpu_*, CUDA program for cuda_*), is compiled, run in a child process under time and memory
limits, and its digest lines are compared with the row's reference (forward: outputs; backward: input
adjoints). Verdicts: correct, wrong_output, degenerate, does_not_compile, crashed, timeout, not_checkable
(cuda_* without a GPU: compile-only, "compiles; no GPU to run"), bad_input. The report has one line per
prediction in order; the summary (pass@k by column, source, category, package) is printed and written
beside it (verdicts.summary.json).

--prompts FILE writes instead, for every row (of --split) and each of --columns, the prompt view
(Python kernel, helpers, the signatures the answer must have, a ready prompt text) as JSON Lines.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from warp_cuda_ir.cli import fail

COLUMNS = ("cpu_forward", "cpu_backward", "cuda_forward", "cuda_backward")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", required=True, help="dataset folder (scripts/build.py --validate) or Hub repo id")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--predictions", type=Path, help="JSON Lines of {id, column, prediction}")
    mode.add_argument("--prompts", type=Path, help="write the prompt views to this JSON Lines file instead")
    p.add_argument("--report", type=Path, help="verdicts, JSON Lines (required with --predictions)")
    p.add_argument("--workers", type=int, default=1, help="compile/run batches at once (default: 1)")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds per candidate run (default: 10)")
    p.add_argument("--memory-mb", type=int, default=2048, help="address space of a CPU run (default: 2048)")
    p.add_argument("--split", action="append", help="only rows of this split (repeatable; default: all)")
    p.add_argument("--columns", default=",".join(COLUMNS), help="--prompts: target columns (comma-separated)")
    p.add_argument("--no-gpu", action="store_true", help="compile cuda_* candidates only, even with a GPU")
    p.add_argument("--arch", type=int, default=90, help="CUDA arch nvcc compiles for (default: 90)")
    args = p.parse_args(argv)
    if args.predictions is not None and args.report is None:
        p.error("--report is required with --predictions")
    if args.workers < 1 or args.time_limit <= 0 or args.memory_mb < 64:
        p.error("--workers must be >= 1, --time-limit > 0 and --memory-mb >= 64")
    return args


def _rate(scores: dict) -> str:
    passes = "  ".join(f"{k} {v:.3f}" for k, v in scores.items() if k.startswith("pass@") and "_" not in k)
    return f"{scores['problems']:>5} problems {scores['samples']:>6} samples  {passes}"


def print_summary(summary: dict) -> None:
    print(f"{summary['candidates']} candidates: " + ", ".join(f"{k} {v}" for k, v in summary["verdicts"].items()))
    only = summary["compile_only"]
    if only["candidates"]:
        print(f"compile-only (no GPU: {summary['gpu']}): {only['compiles']} of {only['candidates']} cuda_* compile")
    print(f"overall         {_rate(summary['overall'])}")
    for group in ("column", "source", "category", "package"):
        for name, scores in summary[f"by_{group}"].items():
            print(f"{group:<8} {name:<22} {_rate(scores)}")


def write_prompts(args: argparse.Namespace) -> int:
    from warp_cuda_ir.evaluation.prompts import prompt_views
    from warp_cuda_ir.evaluation.run import dataset_folder

    columns = [c.strip() for c in args.columns.split(",") if c.strip()]
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown or not columns:
        return fail(f"--columns: {', '.join(unknown) or 'none given'}: expected some of {', '.join(COLUMNS)}")
    views = prompt_views(dataset_folder(args.dataset), columns, args.split)
    args.prompts.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with open(args.prompts, "w") as out:
        for view in views:
            out.write(json.dumps(view) + "\n")
            count += 1
    print(f"wrote {count} prompt views to {args.prompts}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from warp_cuda_ir.errors import WarpCudaIRError
    from warp_cuda_ir.evaluation.run import Options, evaluate, summary_path

    try:
        if args.prompts is not None:
            return write_prompts(args)
        options = Options(
            dataset=args.dataset,
            predictions=args.predictions,
            report=args.report,
            workers=args.workers,
            time_limit=args.time_limit,
            memory_mb=args.memory_mb,
            splits=tuple(args.split) if args.split else None,
            gpu=not args.no_gpu,
            arch=args.arch,
        )
        _, summary = evaluate(options)
    except WarpCudaIRError as e:
        return fail(str(e))
    print_summary(summary)
    print(f"report: {args.report}\nsummary: {summary_path(args.report)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
