"""Counts of the validation columns, read back from the data files (for the card and the CLI)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from warp_cuda_ir.writing import DATA_DIR

NOT_VALIDATED = (
    "This build has not been validated: every row went through Warp's full code generation "
    "(rows whose codegen failed were left out), but its C++ has not been compiled or run here. "
    "Run `scripts/validate.py` on the folder to annotate each row."
)
STATUS_COLUMNS = ("cuda_compile_status", "cpu_compile_status", "cpu_run_status", "gpu_run_status", "gradcheck_status")


def summary(out: Path) -> dict[str, Any]:
    """Status counts per stage, trivial-output and GPU-match counts, over every row of the folder."""
    files = sorted((Path(out) / DATA_DIR).glob("*.parquet"))
    wanted = [
        *STATUS_COLUMNS,
        "category",
        "trivial_output",
        "nonfinite_output",
        "gpu_matches_reference",
        "cuda_arch",
        "validation_gpu_name",
    ]
    counts: dict[str, Counter[str]] = {c: Counter() for c in STATUS_COLUMNS}
    per_category: dict[str, Counter[str]] = {}  # category -> {"rows": n, status column: rows ok}
    rows = trivial = nonfinite = matches = 0
    archs: set[int] = set()
    gpus: set[str] = set()
    for path in files:
        names = set(pq.read_schema(path).names)
        if not set(wanted) <= names:  # a file written before validation columns existed
            rows += pq.read_metadata(path).num_rows
            for c in STATUS_COLUMNS:
                counts[c]["skipped"] += pq.read_metadata(path).num_rows
            continue
        table = pq.read_table(path, columns=wanted).to_pydict()
        rows += len(table["cpu_run_status"])
        for c in STATUS_COLUMNS:
            counts[c].update(table[c])
        for i, category in enumerate(table["category"]):
            ok = per_category.setdefault(category, Counter())
            ok["rows"] += 1
            ok.update(c for c in STATUS_COLUMNS if table[c][i] == "ok")
        trivial += sum(1 for v in table["trivial_output"] if v)
        nonfinite += sum(1 for v in table["nonfinite_output"] if v)
        matches += sum(1 for v in table["gpu_matches_reference"] if v)
        archs.update(a for a in table["cuda_arch"] if a is not None)
        gpus.update(g for g in table["validation_gpu_name"] if g)
    return {
        "rows": rows,
        "status": {c: dict(sorted(n.items())) for c, n in counts.items()},
        "ok_per_category": {k: dict(v) for k, v in sorted(per_category.items())},
        "trivial_output": trivial,
        "nonfinite_output": nonfinite,
        "gpu_matches_reference": matches,
        "cuda_archs": sorted(archs),
        "gpus": sorted(gpus),
        "validated": rows - counts["cpu_run_status"].get("skipped", 0) if rows else 0,
    }


def _percent(n: int, total: int) -> str:
    return f"{100.0 * n / total:.2f}%" if total else "n/a"


def markdown(out: Path) -> str:
    """A Markdown table of the counts, for the dataset card."""
    s = summary(out)
    total = s["rows"]
    if not s["validated"]:
        return NOT_VALIDATED + "\n"
    lines = [
        "| stage | ok | error | timeout | skipped | mismatch | ok rate |",
        "|---|---|---|---|---|---|---|",
    ]
    for column in STATUS_COLUMNS:
        n = s["status"][column]
        cells = [str(n.get(k, 0)) for k in ("ok", "error", "timeout", "skipped", "mismatch")]
        lines.append(f"| `{column}` | {' | '.join(cells)} | {_percent(n.get('ok', 0), total)} |")
    lines.append("")
    lines.append(
        f"{s['trivial_output']:,} of {total:,} rows have trivial outputs (`trivial_output`), "
        f"{s['nonfinite_output']:,} have NaN or Inf outputs (`nonfinite_output`); "
        f"{s['gpu_matches_reference']:,} match the CPU reference on GPU ({', '.join(s['gpus']) or 'no GPU used'}); "
        f"CUDA arch {', '.join(f'sm_{a}' for a in s['cuda_archs']) or 'n/a'}."
    )
    stages = [c.removesuffix("_status") for c in STATUS_COLUMNS]
    lines += ["", "Rows whose stage passed, per category:", "", f"| category | rows | {' | '.join(stages)} |"]
    lines.append("|---|---|" + "---|" * len(stages))
    for category, ok in s["ok_per_category"].items():
        cells = " | ".join(_percent(ok.get(c, 0), ok["rows"]) for c in STATUS_COLUMNS)
        lines.append(f"| {category} | {ok['rows']:,} | {cells} |")
    return "\n".join(lines) + "\n"


def describe(out: Path) -> list[str]:
    """Short lines for the command line."""
    s = summary(out)
    total = s["rows"]
    if not s["validated"]:
        return [NOT_VALIDATED]
    lines = []
    for column in STATUS_COLUMNS:
        n = s["status"][column]
        detail = ", ".join(f"{k} {v:,}" for k, v in n.items())
        lines.append(f"  {column:<20} {_percent(n.get('ok', 0), total):>8} ok  ({detail})")
    lines.append(f"  trivial_output       {s['trivial_output']:,} rows")
    lines.append(f"  nonfinite_output     {s['nonfinite_output']:,} rows")
    return lines
