#!/usr/bin/env python
"""GPU runs of a validated folder: does the GPU agree with Warp's CPU reference, per category and package?

    python benchmarks/gpu_agreement.py sample dist/warp_cuda_ir /tmp/real_sample --rows 700
    python benchmarks/gpu_agreement.py sample dist/warp_cuda_ir /tmp/s --every warp-lang=12,newton=3,mujoco-warp=2
    python benchmarks/gpu_agreement.py sample dist/warp_cuda_ir /tmp/s --ids 71a86b0fc03d993e,a0d29f0a591b3c65
    python benchmarks/gpu_agreement.py report /tmp/real_sample [/tmp/gen ...] [--json out.json]

`sample` copies a build folder keeping only every k-th real row whose captured launch replayed (`equal` or
`close`), so a few hundred real rows that run travel to a machine with a GPU (the folder stays a build:
manifest, licenses, the same files with fewer rows). Validate it there with `scripts/validate.py`.
`--every PACKAGE=K,...` keeps every K-th replayed row of each package instead (in file order; a package not
named keeps none).

`report` reads the folders' annotations (the final Parquet, or the progress of a pass that was cut short)
and prints, per category of generated rows and per package of real rows, two agreements with the CPU:
  gpu_run             Warp launches the row's kernel on cuda:0 with its inputs; arrays compared with the CPU
                      launch (`validation.gpu.TOLERANCE`)
  standalone_gpu_run  the row's standalone CUDA program, built by nvcc, prints digest lines compared with
                      Warp's CPU launch (`standalone.stage.digests_agree`)
and lists every row that ran and differed, or failed, with its reason. Nothing in the folders is changed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import writing

REPLAYED = ("equal", "close")
KEYS = ("id", "source", "category", "kernel_name", "provenance")
STAGES: dict[str, str | None] = {  # stage -> its verdict column (None: the status is the verdict)
    "gpu_run": "gpu_matches_reference",
    "standalone_nvcc": None,
    "standalone_gpu_run": "standalone_gpu_matches_reference",
    "standalone_cpu_run": "standalone_cpu_matches_warp",
}


def sample(
    build: Path, dest: Path, rows: int, every: dict[str, int] | None = None, ids: set[str] | None = None
) -> None:
    """`dest`: `build` with only `rows` replayed real rows, spread over its files (every k-th), or with every
    `every[package]`-th replayed row of each package, or with the rows whose `id` is in `ids` (any source)."""
    if dest.exists():
        sys.exit(f"error: {dest} exists; choose a new folder")
    files = writing.all_data_files(build)
    replayed = []
    for path in files:
        table = pq.read_table(path, columns=["id", "source", "launch_replay", "category"])
        replay = pc.is_in(table["launch_replay"], value_set=pa.array(REPLAYED))
        keep = pc.and_(pc.equal(table["source"], "real"), replay)
        if ids is not None:
            keep = pc.is_in(table["id"], value_set=pa.array(sorted(ids)))
        packages = table["category"].to_pylist()
        replayed += [(path, i, packages[i]) for i, k in enumerate(keep.to_pylist()) if k]
    if ids is not None:
        picked = replayed
    elif every is None:
        step = max(1, len(replayed) // max(1, rows))
        picked = replayed[::step][:rows]
    else:
        seen: dict[str, int] = defaultdict(int)
        picked = []
        for item in replayed:
            position, seen[item[2]] = seen[item[2]], seen[item[2]] + 1
            if item[2] in every and position % every[item[2]] == 0:
                picked.append(item)
    chosen: dict[Path, list[int]] = defaultdict(list)
    for path, i, _ in picked:
        chosen[path].append(i)
    shutil.copytree(build, dest, ignore=shutil.ignore_patterns(writing.WORK_DIR, "*.parquet"))
    # datasets cannot read a Parquet file of no rows ("BatchSize must be greater than 0"): such files are left
    # out, and out of the file list of the copy's build.json, which the pass checks.
    left_out = {path.relative_to(build).as_posix() for path in files if not chosen.get(path)}
    manifest = json.loads((dest / writing.MANIFEST).read_text())
    manifest["files"] = [f for f in manifest["files"] if f not in left_out]
    (dest / writing.MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    for path in files:
        if not chosen.get(path):
            continue
        table = pq.read_table(path).take(pa.array(chosen[path], type=pa.int64()))
        target = dest / path.relative_to(build)
        target.parent.mkdir(parents=True, exist_ok=True)
        writing.write_parquet(table, target)
    print(f"{dest}: {sum(len(v) for v in chosen.values())} replayed real rows of {len(replayed)}")


def _rows(folder: Path) -> Iterator[dict[str, Any]]:
    """Each row's keys and annotations: the Parquet's, or for rows not annotated there the pass's progress."""
    progress: dict[str, dict[str, Any]] = {}
    for log in sorted((folder / writing.WORK_DIR / "validation" / "progress").glob("*.jsonl")):
        for line in log.read_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by the interruption
            if isinstance(entry, dict) and "id" in entry:
                progress[entry.pop("id")] = entry
    columns = [*KEYS, *(f"{s}_{c}" for s in STAGES for c in ("status", "error", "skip_reason"))]
    columns += [v for v in STAGES.values() if v]
    columns += ["gpu_max_abs_diff", "gpu_max_rel_diff", "validation_gpu_name"]
    for path in writing.all_data_files(folder):
        for row in pq.read_table(path, columns=columns).to_pylist():
            if row["id"] in progress:  # a pass cut short: its rows are in the progress, not yet the files
                row |= {k: v for k, v in progress[row["id"]].items() if k in columns}
            yield row


def _group(row: dict[str, Any]) -> str:
    if row["source"] == "real":
        return f"real/{(row['provenance'] or {}).get('package')}"
    return f"generated/{row['category']}"


def report(folders: list[Path]) -> dict[str, Any]:
    tally: dict[str, dict[str, Counter]] = {s: defaultdict(Counter) for s in STAGES}
    differing: list[dict[str, Any]] = []
    gpus: Counter = Counter()
    rows = 0
    for folder in folders:
        for row in _rows(folder):
            rows += 1
            gpus[row["validation_gpu_name"]] += 1
            group = _group(row)
            for stage, verdict in STAGES.items():
                status = row[f"{stage}_status"]
                if status == "ok" and (verdict is None or row[verdict] is not None):
                    outcome = "agrees" if verdict is None or row[verdict] else "differs"
                elif status == "skipped":
                    outcome = f"skipped: {row[f'{stage}_skip_reason']}"
                else:
                    outcome = "ran, no reference" if status == "ok" else str(status)
                tally[stage][group][outcome] += 1
                if outcome not in ("agrees",) and not outcome.startswith("skipped"):
                    differing.append(
                        {
                            "stage": stage,
                            "group": group,
                            "kernel": row["kernel_name"],
                            "id": row["id"],
                            "outcome": outcome,
                            "error": (row[f"{stage}_error"] or "")[:300],
                            "max_abs": row["gpu_max_abs_diff"] if stage == "gpu_run" else None,
                            "max_rel": row["gpu_max_rel_diff"] if stage == "gpu_run" else None,
                        }
                    )
    result = {
        "rows": rows,
        "gpus": dict(gpus),
        "stages": {s: {g: dict(c) for g, c in sorted(t.items())} for s, t in tally.items()},
        "not_agreeing": differing,
    }
    print(f"{rows} rows; GPU: {dict(gpus)}")
    for stage, groups in result["stages"].items():
        print(f"\n{stage}: {'agrees / compared' if STAGES[stage] else 'ok / ran'}, per group")
        totals: Counter = Counter()
        for group, counts in groups.items():
            totals.update(counts)
            compared = counts.get("agrees", 0) + counts.get("differs", 0)
            other = {k: v for k, v in counts.items() if k not in ("agrees", "differs")}
            print(f"  {group:34} {counts.get('agrees', 0):5} / {compared:<5} {other if other else ''}")
        compared = totals.get("agrees", 0) + totals.get("differs", 0)
        print(f"  {'all':34} {totals.get('agrees', 0):5} / {compared:<5}")
    print(f"\nnot agreeing: {len(differing)}")
    for d in differing[:60]:
        print(f"  {d['stage']:19} {d['group']:30} {d['kernel']:40} {d['outcome']:10} {d['error'][:120]}")
    return result


def _steps(text: str) -> dict[str, int]:
    try:
        steps = {name: int(k) for name, _, k in (part.partition("=") for part in text.split(","))}
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected PACKAGE=K,...; got {text!r}") from None
    if any(k < 1 for k in steps.values()):
        raise argparse.ArgumentTypeError(f"each K must be at least 1; got {text!r}")
    return steps


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="a build folder with only some replayed real rows")
    s.add_argument("build", type=Path)
    s.add_argument("dest", type=Path)
    s.add_argument("--rows", type=int, default=700)
    s.add_argument("--every", type=_steps, help="PACKAGE=K,...: every K-th replayed row of each package named")
    s.add_argument("--ids", type=lambda text: set(text.split(",")), help="ID,...: these rows, whatever their source")
    r = sub.add_parser("report", help="GPU-versus-CPU agreement of validated folders")
    r.add_argument("folders", type=Path, nargs="+")
    r.add_argument("--json", type=Path, help="also write the figures and the rows that did not agree here")
    args = p.parse_args(argv)
    if args.command == "sample":
        sample(args.build, args.dest, args.rows, args.every, args.ids)
    else:
        result = report(args.folders)
        if args.json:
            args.json.write_text(json.dumps(result, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
