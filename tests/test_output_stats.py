"""Output statistics: each degenerate kind planted in a real Warp kernel, run on the CPU."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_validation import UNIFORM, ZEROS, row_for
from warp_cuda_ir.validation import execute
from warp_cuda_ir.validation import row as row_columns
from warp_cuda_ir.validation.output_stats import output_stats

# One kernel, one output per kind (a CPU compile costs ~1 s): `zero` is never written. (An argument
# named `const` breaks Warp 1.19's CPU code: it is a C++ keyword.)
PLANTED = """import warp as wp

@wp.kernel
def planted(
    a: wp.array(dtype=float),
    zero: wp.array(dtype=float),
    fill: wp.array(dtype=float),
    two: wp.array(dtype=float),
    copy: wp.array(dtype=float),
    shifted: wp.array(dtype=float),
    rolled: wp.array(dtype=float),
    reversed: wp.array(dtype=float),
    healthy: wp.array(dtype=float),
):
    i = wp.tid()
    n = a.shape[0]
    fill[i] = 3.0
    two[i] = wp.where(a[i] > 0.5, 1.0, -1.0)
    copy[i] = a[i]
    shifted[i] = a[i] + 0.25
    if i + 3 < n:
        rolled[i] = a[i + 3]
    reversed[i] = a[n - 1 - i]
    healthy[i] = wp.sin(a[i]) * a[i]
"""
OUTPUTS = ("zero", "fill", "two", "copy", "shifted", "rolled", "reversed", "healthy")
EXPECTED = {
    "zero": "all_zero",
    "fill": "constant",
    "two": "two_valued",
    "copy": "copy",
    "shifted": "shifted_copy",
    "rolled": "shifted_copy",
    "reversed": "permuted_copy",
    "healthy": None,
}


def old_trivial_output(before: dict[str, np.ndarray], after: dict[str, np.ndarray], outputs: list[str]) -> bool:
    """Schema 1.2's `trivial_output`, restated: every output all zero, constant or exactly equal to an input."""
    for name in outputs:
        values = after[name]
        if values.size and not np.any(values):
            continue
        if values.size > 1 and np.all(values == values.reshape(-1)[0]):
            continue
        if any(v.shape == values.shape and np.array_equal(v, values) for v in before.values()):
            continue
        return False
    return True


@pytest.fixture(scope="module")
def planted_run() -> tuple[dict, execute.CpuRun]:
    args = [("a", "float32", "in", UNIFORM)] + [(name, "float32", "out", ZEROS) for name in OUTPUTS]
    row = row_for(PLANTED, "planted", args, n=32)
    run = execute.validate_cpu(row)
    assert (run.compile_status, run.run_status) == ("ok", "ok"), run.error
    return row, run


@pytest.mark.parametrize("name", OUTPUTS)
def test_each_planted_kind_is_found_where_the_old_flag_was_blind(
    planted_run: tuple[dict, execute.CpuRun], name: str
) -> None:
    _, run = planted_run
    stats = {s.name: s for s in run.output_stats}
    assert stats[name].degenerate == EXPECTED[name], stats[name]
    # The old row-level flag needed every output trivial: one healthy output hid them all.
    assert not old_trivial_output(run.inputs, run.results, list(OUTPUTS))
    # ... and judged alone, it missed the shifted, permuted and two-valued kinds too.
    alone = old_trivial_output(run.inputs, run.results, [name])
    assert alone == (EXPECTED[name] in ("all_zero", "constant", "copy")), name


def test_shift_figures_and_statistics_are_the_arrays(planted_run: tuple[dict, execute.CpuRun]) -> None:
    _, run = planted_run
    stats = {s.name: s for s in run.output_stats}
    a = run.inputs["a"].astype(np.float64)
    assert stats["shifted"].input == "a" and stats["shifted"].value_shift == pytest.approx(0.25, abs=1e-6)
    assert stats["rolled"].input == "a" and stats["rolled"].index_shift == 3
    assert stats["reversed"].input == "a" and stats["copy"].input == "a"
    healthy = np.sin(a) * a
    assert stats["healthy"].min == pytest.approx(healthy.min(), rel=1e-5)
    assert stats["healthy"].max == pytest.approx(healthy.max(), rel=1e-5)
    assert stats["healthy"].std == pytest.approx(healthy.std(), rel=1e-4)
    assert stats["healthy"].distinct == len(set(healthy.round(5).tolist()))
    assert stats["two"].distinct == 2 and stats["zero"].distinct == 1 and stats["fill"].max == 3.0


def test_row_columns_count_degenerate_outputs(planted_run: tuple[dict, execute.CpuRun]) -> None:
    row, _ = planted_run
    columns = row_columns.execution_columns(row, "no GPU", {})
    assert columns["degenerate_output"] is False  # `healthy` carries information
    assert columns["degenerate_output_count"] == 7
    assert [o["degenerate"] for o in columns["output_stats"]] == [EXPECTED[n] for n in OUTPUTS]


def test_every_output_degenerate_flags_the_row_and_healthy_kinds_are_not_flagged() -> None:
    rng = np.random.default_rng(3)
    a = rng.uniform(0.1, 1.0, 64).astype(np.float32)
    before = {"a": a, "b": np.zeros(64, np.float32)}
    after = {"a": a, "b": a + np.float32(0.5)}
    assert [s.degenerate for s in output_stats(before, after, ["b"])] == ["shifted_copy"]
    # Computed outputs: a scaled copy (documented as computation), a running sum, a square.
    for computed in (a * np.float32(2.0), np.cumsum(a), a * a):
        after = {"a": a, "b": computed.astype(np.float32)}
        assert output_stats(before, after, ["b"])[0].degenerate is None
    # A mask output of 3 elements is too small to call two-valued; an inout array left alone is a copy of itself.
    small = {"m": np.array([0, 1, 1], np.int32)}
    assert output_stats({"x": np.arange(3)}, small, ["m"])[0].degenerate is None
    state = rng.normal(size=(8, 3))
    assert output_stats({"s": state}, {"s": state.copy()}, ["s"])[0].degenerate == "copy"


def test_mostly_zero_outputs_are_not_index_shifts_of_each_other() -> None:
    # Seen in a 128-row build: an atomic into one slot of a zeroed array "matched" another zeroed array at offset 3.
    grid = np.zeros(8, np.float32)
    grid[5] = 2.0
    table = np.zeros(8, np.float32)
    table[1] = -384.0
    stats = output_stats({"grid": grid, "table": np.zeros(8, np.float32)}, {"table": table}, ["table"])
    assert stats[0].degenerate == "two_valued" and stats[0].index_shift is None
