"""What a launch produced: a digest of the arrays, which of them are outputs, NaN/Inf (statistics: `output_stats`)."""

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
