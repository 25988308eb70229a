"""Does each output carry information? Statistics of every output array after the CPU launch.

Replaces `trivial.py`/`trivial_output`, which flagged a row only when every output was all zero,
constant or an exact, unshifted copy of an input (17 of 384 rows in an audit of generated rows, while 111 of 735
outputs were degenerate and 47 more took two values). Here each output is judged on its own, and a
row says how many of its outputs are degenerate.

An output is degenerate when a reader would say the kernel computed nothing new in it:

- `all_zero`: every element is 0 (an output the kernel never wrote, from a zero-initialised array);
- `constant`: at least 2 elements, all equal (a fill);
- `copy`: element for element equal to an input array, its own value before the launch included
  (an `inout` array the kernel left alone), compared as float64 over the flattened elements;
- `shifted_copy`: an input plus one non-zero constant (`out = in + c`: `value_shift` holds c), or an
  input displaced by a non-zero number of elements (`out[i] = in[i + k]` wherever `i + k` is in range,
  over at least half the elements, which hold at least 3 distinct values: `index_shift` holds k).
  Both move data without computing on it.
  A scaled copy (`out = 2 * in`) is not flagged: a multiply by a non-trivial factor is the smallest real
  computation a kernel does (saxpy), and flagging it would flag most elementwise kernels;
- `permuted_copy`: the same multiset of values as an input, in another order (a gather or reversal);
- `two_valued`: at least 4 elements taking exactly two distinct values (a mask or a branch whose
  inputs never reach the computed side): checked last, so a copy of a two-valued input is a `copy`.

Kinds are tried in that order and the first that holds is recorded. Range, spread and distinct
count are kept for every output, degenerate or not, so users can set their own threshold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

DEGENERATE_KINDS = ("all_zero", "constant", "copy", "shifted_copy", "permuted_copy", "two_valued")
MIN_TWO_VALUED = 4  # an output of 2 or 3 elements takes two values too easily to mean anything
MAX_SHIFT_CANDIDATES = 8  # index offsets tried per direction (positions matching the first element)
MIN_SHIFT_DISTINCT = 3


@dataclass(frozen=True)
class OutputStats:
    """One element of the `output_stats` column."""

    name: str
    dtype: str  # numpy scalar type of the elements (vector types: their components)
    elements: int  # scalar components (a vec3 array of 16 has 48)
    degenerate: str | None  # one of DEGENERATE_KINDS, None when the output carries information
    input: str | None  # the input a copy, shifted or permuted copy comes from
    value_shift: float | None  # c of a `shifted_copy` `out = in + c`
    index_shift: int | None  # k of a `shifted_copy` `out[i] = in[i + k]`
    min: float | None  # over finite elements; None when there are none
    max: float | None
    std: float | None
    distinct: int | None  # distinct element values (NaN counted once); None for struct arrays

    def to_row(self) -> dict[str, Any]:
        return asdict(self)


def _flat(values: np.ndarray) -> np.ndarray:
    return np.asarray(values).reshape(-1)


def _tolerance(a: np.ndarray, b: np.ndarray, dtype: np.dtype) -> float:
    """Rounding slack of `a - b` for values stored in `dtype` (0 for integers)."""
    if dtype.kind != "f":
        return 0.0
    scale = max(1.0, float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)))
    return 4.0 * float(np.finfo(dtype).eps) * scale


def _value_shift(out: np.ndarray, source: np.ndarray, dtype: np.dtype) -> float | None:
    """c when `out == source + c` for one c != 0, else None (both float64, finite)."""
    if out.size < 2 or not (np.all(np.isfinite(out)) and np.all(np.isfinite(source))):
        return None
    diff = out - source
    c = float(np.median(diff))
    slack = _tolerance(out, source, dtype)
    if abs(c) <= slack or float(np.max(np.abs(diff - c))) > slack:
        return None
    if np.ptp(source) <= slack:  # a constant input shifted is a constant output: already `constant`
        return None
    return c


def _index_shift(out: np.ndarray, source: np.ndarray) -> int | None:
    """k != 0 with `out[i] == source[i + k]` over the overlap (at least half of the elements)."""
    n = out.size
    if n < 4 or source.size != n:
        return None
    candidates = [int(j) for j in np.flatnonzero(source == out[0])[:MAX_SHIFT_CANDIDATES] if j]  # k = j > 0
    candidates += [-int(i) for i in np.flatnonzero(out == source[0])[:MAX_SHIFT_CANDIDATES] if i]  # k = -i
    for k in candidates:
        if abs(k) > n // 2:
            continue
        overlap = out[: n - k] if k > 0 else out[-k:]
        # Mostly-zero arrays (an atomic into one slot) match each other at any offset: the overlap must
        # carry at least 3 distinct values to count as moved data (seen in a 128-row build).
        if np.unique(overlap).size < MIN_SHIFT_DISTINCT:
            continue
        if np.array_equal(overlap, source[k:] if k > 0 else source[: n + k]):
            return k
    return None


def describe(name: str, after: np.ndarray, before: Mapping[str, np.ndarray]) -> OutputStats:
    """Statistics of output `name` (`after`) given every array before the launch."""
    flat = _flat(after)
    dtype = flat.dtype
    if dtype.kind not in "fiub":  # struct arrays: no numeric judgement
        return OutputStats(name, dtype.name, int(flat.size), None, None, None, None, None, None, None, None)
    values = flat.astype(np.float64)
    finite = values[np.isfinite(values)]
    distinct = int(np.unique(values).size) if values.size else 0
    stats: dict[str, Any] = {
        "min": float(np.min(finite)) if finite.size else None,
        "max": float(np.max(finite)) if finite.size else None,
        "std": float(np.std(finite)) if finite.size else None,
        "distinct": distinct,
    }
    kind, source_name, value_shift, index_shift = _kind(values, dtype, distinct, before)
    return OutputStats(name, dtype.name, int(flat.size), kind, source_name, value_shift, index_shift, **stats)


def _kind(
    values: np.ndarray, dtype: np.dtype, distinct: int, before: Mapping[str, np.ndarray]
) -> tuple[str | None, str | None, float | None, int | None]:
    if values.size and not np.any(values):
        return "all_zero", None, None, None
    if values.size > 1 and distinct == 1:
        return "constant", None, None, None
    sources = {
        n: _flat(v).astype(np.float64) for n, v in before.items() if v.size == values.size and v.dtype.kind in "fiub"
    }
    for n, source in sources.items():
        if np.array_equal(values, source, equal_nan=True):
            return "copy", n, None, None
    for n, source in sources.items():
        c = _value_shift(values, source, dtype)
        if c is not None:
            return "shifted_copy", n, c, None
        k = _index_shift(values, source)
        if k is not None:
            return "shifted_copy", n, None, k
    if values.size > 1:
        ordered = np.sort(values)
        for n, source in sources.items():
            if np.array_equal(ordered, np.sort(source), equal_nan=True):
                return "permuted_copy", n, None, None
    if values.size >= MIN_TWO_VALUED and distinct == 2:
        return "two_valued", None, None, None
    return None, None, None, None


def output_stats(
    before: Mapping[str, np.ndarray], after: Mapping[str, np.ndarray], outputs: Sequence[str]
) -> list[OutputStats]:
    """One `OutputStats` per output, in argument order."""
    return [describe(name, after[name], before) for name in outputs]


def degenerate_count(stats: Sequence[OutputStats]) -> int:
    return sum(1 for s in stats if s.degenerate is not None)
