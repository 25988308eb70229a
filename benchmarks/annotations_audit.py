#!/usr/bin/env python
"""Audit a validated build from its Parquet files alone (annotations, standalone programs).

    python benchmarks/annotations_audit.py /tmp/standalone/b2k [--json out.json] [--progress]

Reads the data files with pyarrow and plain Python; imports nothing of warp_cuda_ir, so the figures do
not come from the code that computed the columns. Where it can, it checks a column against another
record of the same run made by other code: Warp's own CPU launch as digest lines
(`standalone_reference_digest`: `<kind> <name> <count> <hash> <sum> <l1> <max_abs>` per array) against
the gradient verdict and the output statistics.

Prints: rows; per-stage status counts (timeouts and errors per stage, skip reasons); gradient verdicts;
`ok` rows whose adjoint is identically zero (by `gradcheck_adjoint_norm`, and by Warp's adjoint digest
lines); float16 rows judged with float32 steps; wrong/zero-adjoint rows carrying an `adjoint_hazards`
flag; degenerate outputs per kind, and all-zero outputs in Warp's digest that `output_stats` missed;
standalone rates (nvcc compile, CPU twin compile, run, equal to Warp's digests) with the failures.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

STAGES = (
    "cuda_compile",
    "cpu_compile",
    "cpu_run",
    "gpu_run",
    "gradcheck",
    "standalone_nvcc",
    "standalone_cpu_compile",
    "standalone_cpu_run",
    "standalone_gpu_run",
)
COLUMNS = [
    "id",
    "seed",
    "category",
    "arguments",
    "adjoint_hazards",
    "output_stats",
    "degenerate_output",
    "degenerate_output_count",
    "gradcheck_dtype",
    "gradcheck_steps",
    "gradcheck_adjoint_norm",
    "standalone_reference_digest",
    "standalone_cpu_matches_warp",
    "standalone_nvcc_error",
    "standalone_cpu_compile_error",
    "standalone_cpu_run_error",
]
# Half-precision argument types as Warp spells them (float16, half, vec3h, mat22h, quath, transformh...).
HALF = re.compile(r"float16|half|\b(?:vec[234]|mat(?:22|33|44)|quat|transform|spatial_vector)h\b")
FLOAT32_STEPS = (1e-2, 3e-3, 1e-3)  # the float32 steps, as the audit defines "float32 steps"


def read(folder: Path, progress: bool = False) -> list[dict[str, Any]]:
    """The rows' columns; with `progress`, only rows an unfinished pass has done, with the columns it recorded
    (`.build/validation/progress/<file>.jsonl`: what the pass writes into the files when it finishes)."""
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("data/*/*.parquet")):
        names = pq.read_schema(path).names
        wanted = [c for c in COLUMNS if c in names] + [f"{s}_{k}" for s in STAGES for k in ("status", "skip_reason")]
        table = pq.read_table(path, columns=[c for c in wanted if c in names]).to_pylist()
        if progress:
            done: dict[str, dict[str, Any]] = {}
            log = folder / ".build" / "validation" / "progress" / f"{path.name}.jsonl"
            for line in log.read_text().splitlines() if log.exists() else []:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                done[record.pop("id")] = record  # a later line for the same row holds all its columns
            table = [r | done[r["id"]] for r in table if r["id"] in done]
        rows += table
    return rows


def digest(text: str | None) -> list[tuple[str, str, float, float]]:
    """(kind, name, l1, max_abs) per line of a digest."""
    out = []
    for line in (text or "").splitlines():
        parts = line.split()
        if len(parts) == 7:
            out.append((parts[0], parts[1], float(parts[5]), float(parts[6])))
    return out


def pct(a: int, b: int) -> str:
    return f"{a:,}/{b:,} = {100.0 * a / b:.2f}%" if b else f"{a:,}/0"


def audit(rows: list[dict[str, Any]]) -> dict[str, Any]:
    report: dict[str, Any] = {"rows": len(rows)}
    report["stages"] = {
        s: {
            "status": dict(Counter(r.get(f"{s}_status") for r in rows)),
            "skip_reasons": dict(Counter(r.get(f"{s}_skip_reason") for r in rows if r.get(f"{s}_skip_reason"))),
        }
        for s in STAGES
    }
    verdicts = Counter(r["gradcheck_status"] for r in rows)
    report["gradcheck_verdicts"] = dict(verdicts)

    ok = [r for r in rows if r["gradcheck_status"] == "ok"]
    report["ok_with_zero_adjoint_norm"] = [r["id"] for r in ok if r.get("gradcheck_adjoint_norm") == 0]
    # Warp's own backward on the row's inputs: every input adjoint identically zero.
    zero_by_warp = []
    for r in ok:
        adj = [d for d in digest(r.get("standalone_reference_digest")) if d[0] == "adjoint"]
        if adj and all(d[3] == 0 for d in adj):
            zero_by_warp.append(r["id"])
    report["ok_with_all_zero_warp_adjoint_digest"] = zero_by_warp

    half = [r for r in rows if any(HALF.search(a["dtype"] or "") for a in r["arguments"] or [])]
    checked_half = [r for r in half if r.get("gradcheck_steps")]
    report["float16_rows"] = len(half)
    report["float16_rows_checked"] = len(checked_half)
    report["float16_rows_checked_dtype"] = dict(Counter(r["gradcheck_dtype"] for r in checked_half))
    report["float16_rows_with_float32_steps"] = [
        r["id"]
        for r in checked_half
        if r["gradcheck_dtype"] == "float32"
        or all(any(abs(s - f) <= 1e-12 for f in FLOAT32_STEPS) for s in r["gradcheck_steps"])
    ]

    wrong = [r for r in rows if r["gradcheck_status"] in ("wrong_adjoint", "zero_adjoint")]
    flagged = [r for r in wrong if r.get("adjoint_hazards")]
    inconclusive = verdicts.get("inconclusive", 0)
    report["wrong_or_zero_rows"] = len(wrong)
    report["wrong_or_zero_flagged"] = len(flagged)
    report["wrong_or_zero_unflagged"] = [
        (r["id"], r["seed"], r["category"], r["gradcheck_status"]) for r in wrong if not r.get("adjoint_hazards")
    ]
    report["disagreeing_flagged_or_inconclusive"] = (len(flagged) + inconclusive, len(wrong) + inconclusive)
    report["flag_kinds_on_wrong_rows"] = dict(
        Counter(f.split(":")[0] for r in flagged for f in set(r["adjoint_hazards"]))
    )
    report["rows_flagged"] = sum(1 for r in rows if r.get("adjoint_hazards"))

    kinds: Counter[str] = Counter()
    outputs = 0
    missed_zero = []
    for r in rows:
        stats = r.get("output_stats") or []
        outputs += len(stats)
        for o in stats:
            kinds[o["degenerate"] or "none"] += 1
        by_name = {o["name"]: o for o in stats}
        for kind, name, l1, max_abs in digest(r.get("standalone_reference_digest")):
            if kind == "output" and max_abs == 0 and l1 == 0 and name in by_name:
                if by_name[name]["degenerate"] != "all_zero":
                    missed_zero.append((r["id"], name, by_name[name]["degenerate"]))
    report["outputs"] = outputs
    report["output_kinds"] = dict(kinds)
    report["rows_all_outputs_degenerate"] = sum(1 for r in rows if r.get("degenerate_output"))
    report["rows_some_output_degenerate"] = sum(1 for r in rows if (r.get("degenerate_output_count") or 0) > 0)
    report["all_zero_in_warp_digest_not_flagged_all_zero"] = missed_zero

    standalone: dict[str, Any] = {}
    for s in ("standalone_nvcc", "standalone_cpu_compile", "standalone_cpu_run"):
        ran = [r for r in rows if r.get(f"{s}_status") not in (None, "skipped")]
        standalone[s] = pct(sum(1 for r in ran if r[f"{s}_status"] == "ok"), len(ran))
        standalone[s + "_failures"] = [
            (r["id"], r["seed"], r["category"], r[f"{s}_status"], (r.get(f"{s}_error") or "")[:300])
            for r in ran
            if r[f"{s}_status"] != "ok"
        ]
    compared = [r for r in rows if r.get("standalone_cpu_matches_warp") is not None]
    standalone["cpu_twin_matches_warp"] = pct(
        sum(1 for r in compared if r["standalone_cpu_matches_warp"]), len(compared)
    )
    # Rows the stage reached (an unfinished pass has not) that have Warp's digest to compare with.
    reached = [r for r in rows if r.get("standalone_cpu_compile_skip_reason") != "not validated"]
    standalone["rows_reached"] = len(reached)
    twin_rows = [r for r in reached if r.get("standalone_reference_digest")]
    standalone["cpu_twin_compile_run_match_over_rows_with_warp_digest"] = pct(
        sum(1 for r in twin_rows if r.get("standalone_cpu_matches_warp") is True), len(twin_rows)
    )
    standalone["mismatching"] = [
        (r["id"], r["seed"], r["category"]) for r in compared if not r["standalone_cpu_matches_warp"]
    ]
    report["standalone"] = standalone
    return report


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", type=Path)
    p.add_argument("--json", type=Path, default=None, help="also write the report here")
    p.add_argument("--progress", action="store_true", help="an unfinished pass: the rows its progress log holds")
    args = p.parse_args()
    report = audit(read(args.folder, args.progress))
    text = json.dumps(report, indent=1, default=str)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
