"""The predictions file: JSON Lines, one `{"id", "column", "prediction"}` object per line.

Several lines may answer one row and column (samples for pass@k). A line that is not such an object is
a `Bad` record (one report line saying why); the others are evaluated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from warp_cuda_ir.errors import one_line
from warp_cuda_ir.evaluation.candidate import TARGET_COLUMNS

FIELDS = frozenset({"id", "column", "prediction"})


@dataclass(frozen=True)
class Candidate:
    line: int  # 1-based line of the predictions file
    id: str
    column: str
    prediction: str


@dataclass(frozen=True)
class Bad:
    line: int
    id: str | None  # as given, when readable
    column: str | None
    reason: str


def parse_line(number: int, raw: bytes) -> Candidate | Bad:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return Bad(number, None, None, f"line {number}: not UTF-8 ({one_line(e, 200)})")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        return Bad(number, None, None, f"line {number}: not JSON ({e.msg} at column {e.colno})")
    if not isinstance(record, dict):
        return Bad(number, None, None, f"line {number}: not a JSON object")
    ident, column = record.get("id"), record.get("column")
    ident = ident if isinstance(ident, str) else None
    column = column if isinstance(column, str) else None
    missing, extra = sorted(FIELDS - record.keys()), sorted(record.keys() - FIELDS)
    if missing or extra:
        what = ", ".join([f"missing field {m!r}" for m in missing] + [f"extra field {x!r}" for x in extra])
        return Bad(number, ident, column, f"line {number}: {what} (expected exactly id, column, prediction)")
    if ident is None or column is None or not isinstance(record["prediction"], str):
        return Bad(number, ident, column, f"line {number}: id, column and prediction must be strings")
    if column not in TARGET_COLUMNS:
        return Bad(number, ident, column, f"line {number}: column {column!r} is not one of {', '.join(TARGET_COLUMNS)}")
    if not record["prediction"].strip():
        return Bad(number, ident, column, f"line {number}: empty prediction")
    return Candidate(number, ident, column, record["prediction"])


def read_predictions(path: Path) -> list[Candidate | Bad]:
    """Every non-blank line of `path`, in order (raises OSError when the file cannot be read)."""
    entries: list[Candidate | Bad] = []
    for number, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
        if raw.strip():
            entries.append(parse_line(number, raw.rstrip(b"\r")))
    return entries
