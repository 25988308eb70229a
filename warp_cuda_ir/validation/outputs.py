"""What a launch produced: a digest of the arrays, and whether the outputs are trivial."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


def digest(arrays: Mapping[str, np.ndarray]) -> str:
    """SHA-256 over every array (in argument order): name, dtype, shape, bytes."""
    h = hashlib.sha256()
    for name, values in arrays.items():
        h.update(f"{name}|{values.dtype.str}|{values.shape}|".encode())
        h.update(np.ascontiguousarray(values).tobytes())
    return h.hexdigest()


def output_names(arguments: Sequence[Mapping[str, Any]]) -> list[str]:
    """Arrays the kernel writes; when the record marks none, every array counts."""
    arrays = [a for a in arguments if a["kind"] == "array"]
    written = [a["name"] for a in arrays if a["role"] in ("out", "inout")]
    return written or [a["name"] for a in arrays]


def nonfinite(after: Mapping[str, np.ndarray], outputs: Sequence[str]) -> bool:
    """Whether any output element is NaN or Inf (integer outputs never are)."""
    return any(after[n].dtype.kind in "fc" and not np.all(np.isfinite(after[n])) for n in outputs)


def trivial_reason(
    before: Mapping[str, np.ndarray], after: Mapping[str, np.ndarray], outputs: Sequence[str]
) -> str | None:
    """'name: pattern; ...' when every output is all zero, constant, or equal to an input; else None."""
    reasons = []
    for name in outputs:
        values = after[name]
        if values.size and not np.any(values):
            reasons.append(f"{name}: all_zero")
        elif values.size > 1 and np.all(values == values.reshape(-1)[0]):  # one element is no pattern
            reasons.append(f"{name}: constant")
        else:
            same = [n for n, v in before.items() if v.shape == values.shape and np.array_equal(v, values)]
            if not same:
                return None
            reasons.append(f"{name}: equal_to_input {same[0]}")
    return "; ".join(reasons) if reasons else None
