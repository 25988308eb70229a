"""Backward code for kernels whose package compiles forward-only (tests/data/harvest/forward_only/wci_fwd).

`module_off.py` disables backward with `wp.set_module_options`, `kernel_off.py` per kernel with
`@wp.kernel(enable_backward=False)`, and its `bumped` kernel calls a `wp.ref` parameter, whose adjoint Warp 1.19
refuses to generate. The harvest enables backward for code generation only: forward texts stay what the
package's options give, byte for byte; a kernel whose adjoint fails keeps its forward row with the reason.
"""

from __future__ import annotations

import re
import shutil
import signal
import sys
import time
from pathlib import Path

import datasets
import pyarrow as pa
import pytest

from tests.helpers import assert_publishable, cpu_twin_lines
from warp_cuda_ir import extraction, real, rows, synthesis, warp_session, writing
from warp_cuda_ir.harvest import check, harvest
from warp_cuda_ir.shards import BuildSpec
from warp_cuda_ir.standalone import program, program_columns
from warp_cuda_ir.standalone.reference import reference_run

FORWARD_ONLY = Path(__file__).parent / "data" / "harvest" / "forward_only"
CXX = shutil.which("g++")
needs_cxx = pytest.mark.skipif(CXX is None, reason="no g++ on this machine")
FORWARD = ("cuda_forward", "cpu_forward")


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    result = harvest([str(FORWARD_ONLY)], workers=1, import_timeout=120)
    assert result.reasons == []  # the failing adjoint is not a lost kernel
    return {r["qualname"]: r for r in result.records}


def test_backward_is_enabled_here_with_the_switch_that_disabled_it(records):
    assert {q: r["texts"]["backward_origin"] for q, r in records.items()} == {
        "smooth": extraction.ENABLED_MODULE,
        "scale": extraction.ENABLED_KERNEL,
        "bumped": None,
    }
    for name in ("smooth", "scale"):
        texts = records[name]["texts"]
        symbol = texts["kernel_symbol"]
        assert f"{symbol}_cuda_kernel_backward(" in texts["cuda_backward"]
        assert f"{symbol}_cpu_kernel_backward(" in texts["cpu_backward"]
        assert extraction.backward_columns(texts) == {
            "backward_origin": texts["backward_origin"],
            "backward_missing_reason": None,
        }
    # The helper's adjoint, which the backward kernel calls, has its body (forward-only modules stub it).
    assert "reverse mode disabled" not in records["smooth"]["texts"]["cuda_helpers"]
    assert "adj_damp_" in records["smooth"]["texts"]["cuda_backward"]
    # The source keeps the package's switch: `backward_origin` says backward was enabled for codegen only.
    assert "wp.set_module_options({'enable_backward': False})" in records["smooth"]["source"]
    assert "@wp.kernel(enable_backward=False)" in records["scale"]["source"]


def test_forward_texts_are_byte_for_byte_what_the_package_options_give(records):
    as_written = {}
    for name, record in records.items():
        texts = extraction.extract(record["source"], record["kernel_name"], 90, record["block_dim"])
        assert texts.backward_origin is None and texts.backward_missing == extraction.DISABLED_BY_SOURCE
        for part in FORWARD:
            assert record["texts"][part] == getattr(texts, part), (name, part)
        as_written[name] = texts
    # And the same code as Warp's for the kernels in their own package modules. Imported last: a `wp.func`
    # of the same name registered in this process changes the helper numbering of later extractions.
    sys.path.insert(0, str(FORWARD_ONLY))
    try:
        import wci_fwd.kernel_off
        import wci_fwd.module_off
    finally:
        sys.path.remove(str(FORWARD_ONLY))
    for name, kernel in (("smooth", wci_fwd.module_off.smooth), ("scale", wci_fwd.kernel_off.scale)):
        cuda, cpu, symbol, symbols = warp_session.original_module_sources(kernel, 90, 256)
        own = extraction.texts_from_module_sources(cuda, cpu, symbol, name, {}, {})
        assert own.cuda_backward == "" and own.cpu_backward == ""
        assert check.compare(own, as_written[name], symbols) == [], name


def test_a_kernel_whose_adjoint_fails_keeps_its_forward_row_with_the_reason(records):
    bumped = records["bumped"]
    assert bumped["texts"]["cuda_forward"] and bumped["texts"]["cpu_forward"]
    row = real.row_for_record(bumped)
    assert row["cuda_backward"] == row["cpu_backward"] == "" and row["backward_origin"] is None
    assert row["backward_missing_reason"].startswith("Warp cannot generate the adjoint: WarpCodegenError")
    assert "wp.ref" in row["backward_missing_reason"]
    assert not writing.has_backward(row)


def test_time_limit_stops_a_stuck_block_and_leaves_no_alarm():
    started = time.monotonic()
    with pytest.raises(extraction.TimeLimitExceeded), extraction.time_limit(0.2):
        while True:  # what a codegen that never finishes looks like to the limit
            pass
    assert time.monotonic() - started < 5
    with extraction.time_limit(5):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_gradient_verdicts_are_counted_per_source_and_package():
    from warp_cuda_ir.readback import _GradientTally

    tally = _GradientTally()
    tally.add(
        pa.table(
            {
                "source": ["synthetic", "real", "real", "real"],
                "category": ["arith", "newton", "newton", "warp"],
                "adjoint_hazards": [[], [], ["dynamic_loop_mutation:x"], []],
                "gradcheck_status": ["ok", "wrong_adjoint", "wrong_adjoint", "skipped"],
                "gradcheck_skip_reason": [None, None, None, "no backward code"],
                "gradcheck_adjoint_norm": [1.0, 2.0, 1.0, None],
            }
        )
    )
    result = tally.done()
    assert result.by_group == {
        "real: newton": {"wrong_adjoint": 2},
        "real: warp": {"skipped: no backward code": 1},
        "synthetic": {"ok": 1},
    }
    assert result.disagreeing_unflagged == {"real: newton": 1}


def _blank_lines_folded(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text)


def test_translation_unit_is_warps_backward_enabled_module(records):
    """Package forward + enabled backward + helpers: what Warp compiles with backward on, up to blank lines."""
    record = records["smooth"]
    enabled = record["source"].replace("wp.set_module_options({'enable_backward': False})\n", "\n")
    full = extraction.extract(enabled, record["kernel_name"], 90, record["block_dim"])
    assert full.backward_origin == extraction.AS_WRITTEN
    for target in ("cuda", "cpu"):
        mine = extraction.translation_unit(record["texts"], target).replace(record["texts"]["kernel_symbol"], "K")
        theirs = extraction.translation_unit(full, target).replace(full.kernel_symbol, "K")
        assert _blank_lines_folded(mine) == _blank_lines_folded(theirs), target


def _forward_only_row(seed: int) -> dict:
    """A generated row whose source disables backward, with the adjoint enabled here (as a real row's)."""
    row = rows.make_row(seed, list(synthesis.CATEGORIES))
    head, rest = row["python_source"].split("\n", 1)
    assert head == "import warp as wp"
    source = f'{head}\nwp.set_module_options({{"enable_backward": False}})\n{rest}'
    texts = extraction.extract(source, row["kernel_name"], 90, row["block_dim"], force_backward=True)
    assert texts.backward_origin == extraction.ENABLED_MODULE
    row |= {part: getattr(texts, part) for part in ("kernel_symbol", *FORWARD, "cuda_backward", "cpu_backward")}
    row |= {"cuda_helpers": texts.cuda_helpers, "cpu_helpers": texts.cpu_helpers, "python_source": source}
    return row | extraction.backward_columns(texts)


@pytest.mark.slow
@needs_cxx
def test_programs_run_the_backward_enabled_here_and_never_a_missing_one(tmp_path):
    row = _forward_only_row(3)
    with warp_session.loaded_kernel(row["python_source"], row["kernel_name"], backward=True) as (kernel, namespace):
        _, expected = reference_run(row, kernel, namespace)
    assert any(line.startswith("adjoint ") for line in expected)
    assert cpu_twin_lines(row | program_columns(row), tmp_path / "enabled") == expected

    missing = row | {"cuda_backward": "", "cpu_backward": ""}
    columns = program_columns(missing)
    assert "_cpu_backward(" not in columns["cpu_program"].split("int main()")[-1]
    assert "_cuda_kernel_backward" not in columns["cuda_program"].split("int main()")[-1]
    assert program.runs_backward(missing, "cpu") is False
    with warp_session.loaded_kernel(row["python_source"], row["kernel_name"]) as (kernel, namespace):
        _, forward_lines = reference_run(missing, kernel, namespace)
    assert forward_lines == [line for line in expected if line.startswith("output ")]
    assert cpu_twin_lines(missing | columns, tmp_path / "missing") == forward_lines


@pytest.mark.slow
def test_build_keeps_rows_without_backward_out_of_the_backward_configs(tmp_path):
    from warp_cuda_ir.build import run_build
    from warp_cuda_ir.record import BuildOptions

    out = tmp_path / "out"
    spec = BuildSpec(seed=0, seeds_per_shard=8)
    run_build(BuildOptions(out=out, spec=spec, target_mb=0.01, workers=1, real=(str(FORWARD_ONLY),)))
    assert_publishable(out)  # every config's rows as counted from the files; backward configs without empty targets
    assert [p.name for p in (out / "data" / "real" / writing.FORWARD_ONLY_DIR).glob("*.parquet")]
    cache = str(tmp_path / "hf")
    backward = datasets.load_dataset(str(out), "cuda_backward", cache_dir=cache)
    real_rows = [r for split in backward for r in backward[split] if r["source"] == "real"]
    assert sorted(r["backward_origin"] for r in real_rows) == [extraction.ENABLED_KERNEL, extraction.ENABLED_MODULE]
    assert all(r["cuda_backward"] for split in backward for r in backward[split])
    full = datasets.load_dataset(str(out), "real", cache_dir=cache)
    (bumped,) = [r for split in full for r in full[split] if r["kernel_name"] == "bumped"]
    assert bumped["cuda_forward"] and bumped["backward_missing_reason"].startswith("Warp cannot generate the adjoint")
    card = (out / "README.md").read_text()
    assert "real: 1 (Warp cannot generate the adjoint)" in card
    assert f"`{writing.FORWARD_ONLY_DIR}/`" in card
    from warp_cuda_ir.card import leakage_markdown
    from warp_cuda_ir.readback import read_back

    assert leakage_markdown(read_back(out)) in card  # measured on the rows before they were written, real ones too


_GENERIC_FORWARD_ONLY = """from typing import Any

import warp as wp


@wp.kernel(module="unique", enable_backward=False)
def scale(a: wp.array(dtype=Any), b: wp.array(dtype=Any), s: wp.float32):
    i = wp.tid()
    b[i] = a[i] * a.dtype(s)


wp.overload(scale, [wp.array(dtype=wp.float32), wp.array(dtype=wp.float32), wp.float32])
"""


def test_a_generic_forward_only_overload_launches_its_backward_after_its_forward_was_built(tmp_path):
    """The gradient check of a row whose kernel disables its own backward (`enabled_here:kernel`), for a generic
    kernel's overload in a module of its own (newton's solver kernels): its forward-only module is built first
    (the row's CPU run), then the backward is asked for."""
    import warp as wp

    warp_session.init_warp()
    saved, wp.config.kernel_cache_dir = wp.config.kernel_cache_dir, str(tmp_path)
    try:
        a = wp.array([1.0, 2.0], dtype=wp.float32, device="cpu", requires_grad=True)
        b = wp.zeros(2, dtype=wp.float32, device="cpu", requires_grad=True)
        with warp_session.loaded_kernel(_GENERIC_FORWARD_ONLY, "scale") as (kernel, _):
            wp.launch(kernel, dim=2, inputs=[a, b, 3.0], device="cpu")
        with warp_session.loaded_kernel(_GENERIC_FORWARD_ONLY, "scale", backward=True) as (kernel, _):
            b.grad = wp.ones(2, dtype=wp.float32, device="cpu")
            wp.launch(kernel, dim=2, inputs=[a, b, 3.0], adj_inputs=[a.grad, b.grad, 0.0], adjoint=True, device="cpu")
        assert a.grad.numpy().tolist() == [3.0, 3.0]
    finally:
        wp.config.kernel_cache_dir = saved
