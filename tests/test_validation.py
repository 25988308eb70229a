"""The validation pass on real builds: NVRTC, Warp's CPU backend, wp.Tape, Parquet, load_dataset."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.helpers import ROOT, assert_publishable, build, compile_only_row
from warp_cuda_ir import extraction, launch, schema, warp_session, writing
from warp_cuda_ir.card import validation_markdown
from warp_cuda_ir.readback import read_back
from warp_cuda_ir.record import BuildRecord
from warp_cuda_ir.shards import BuildSpec
from warp_cuda_ir.validation import compile_cuda, execute, gpu, gradients, outputs
from warp_cuda_ir.validation import row as row_columns
from warp_cuda_ir.validation.pipeline import ValidationResult, validate_dataset
from warp_cuda_ir.validation.runner import PassOptions, StageTimes, run_pass
from warp_cuda_ir.validation.stages import Settings

VALIDATE = [sys.executable, str(ROOT / "scripts" / "validate.py")]
TINY_SPEC = BuildSpec(seed=5000, seeds_per_shard=10)
OPTIONS = PassOptions(workers=2, chunk_size=4)
GPU_MISSING = gpu.unavailable_reason()


def row_for(source: str, kernel: str, arguments: list[tuple[str, str, str, dict]], n: int = 16) -> dict:
    """A hand-written row with Warp's real generated code: arrays of length n (name, dtype, role, init)."""
    texts = extraction.extract(source, kernel)
    return {
        **{k: getattr(texts, k) for k in ("kernel_symbol", "cuda_helpers", "cuda_forward", "cuda_backward")},
        **{k: getattr(texts, k) for k in ("cpu_helpers", "cpu_forward", "cpu_backward")},
        "id": hashlib.sha256(source.encode()).hexdigest()[:16],
        "seed": 11,
        "kernel_name": kernel,
        "python_source": source,
        "launch_dim": [n],
        "arguments": [
            {"name": a, "kind": "array", "dtype": d, "shape": [n], "role": r, "init": json.dumps(i)}
            for a, d, r, i in arguments
        ],
    }


UNIFORM = {"dist": "uniform", "low": 0.1, "high": 1.0}
ZEROS = {"dist": "zeros"}


def digest_files(out: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((out / "data").rglob("*.parquet"))}


@pytest.fixture(scope="module")
def tiny_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tiny") / "warp_cuda_ir"
    build(out, TINY_SPEC, 0.01, workers=2)
    return out


@pytest.fixture(scope="module")
def interrupted_then_resumed(tiny_build: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """scripts/validate.py interrupted (SIGINT) after a few rows, then the pass run again to the end."""
    out = tmp_path_factory.mktemp("validated") / "warp_cuda_ir"
    shutil.copytree(tiny_build, out)
    before = digest_files(out)
    # A machine cache of its own: rows another test validated earlier in this session would come from the
    # session's cache, and the pass would end before it could be interrupted.
    machine_cache = tmp_path_factory.mktemp("machine_cache")
    progress = out / writing.WORK_DIR / "validation" / "progress"
    # Ctrl-C's default action in the child, whatever the caller inherited: a shell's background job (`cmd &`
    # without job control) ignores SIGINT, Python then installs no KeyboardInterrupt handler, and the pass
    # ran to the end (exit 0) with this test reading a pass that was never interrupted.
    proc = subprocess.Popen(
        [*VALIDATE, str(out), "--workers", "2", "--chunk-size", "2", "--cache-dir", str(machine_cache)],
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if sum(len(p.read_text().splitlines()) for p in progress.glob("*.jsonl")) >= 3:
            break
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    interrupted = {"code": proc.returncode, "stderr": stderr.decode(), "untouched": digest_files(out) == before}
    started: list[int] = []
    options = dataclasses.replace(OPTIONS, cache_dir=str(machine_cache))
    result = validate_dataset(out, options, on_start=lambda total, done, _: started.append(done))
    return {
        "out": out,
        "interrupted": interrupted,
        "resumed_from": started[0],
        "result": result,
        "machine_cache": machine_cache,
    }


@pytest.mark.slow
def test_interrupted_pass_leaves_data_untouched_and_resumes(interrupted_then_resumed: dict) -> None:
    interrupted = interrupted_then_resumed["interrupted"]
    assert interrupted["code"] == 130 and "error: interrupted" in interrupted["stderr"]
    assert interrupted["untouched"]
    result: ValidationResult = interrupted_then_resumed["result"]
    assert interrupted_then_resumed["resumed_from"] == result.resumed >= 3
    assert result.validated_now == result.rows - result.resumed > 0


@pytest.mark.slow
def test_a_second_folder_of_the_same_rows_takes_its_annotations_from_the_machine_cache(
    interrupted_then_resumed: dict, tiny_build: Path, tmp_path: Path
) -> None:
    first: Path = interrupted_then_resumed["out"]
    options = dataclasses.replace(OPTIONS, cache_dir=str(interrupted_then_resumed["machine_cache"]))
    second = tmp_path / "elsewhere" / "warp_cuda_ir"
    shutil.copytree(tiny_build, second)
    result = validate_dataset(second, options)
    assert (result.validated_now, result.from_cache) == (0, result.rows)
    assert digest_files(second) == digest_files(first)
    # An entry damaged on disk is recomputed (the cache warns once); the others still serve.
    entries = sorted((interrupted_then_resumed["machine_cache"] / "validation").glob("??/*"))
    assert len(entries) == result.rows
    entries[0].write_bytes(entries[0].read_bytes()[:-7])
    third = tmp_path / "third" / "warp_cuda_ir"
    shutil.copytree(tiny_build, third)
    result = validate_dataset(third, options)
    assert (result.validated_now, result.from_cache) == (1, result.rows - 1)
    assert digest_files(third) == digest_files(first)


@pytest.mark.slow
def test_pass_annotates_every_row_end_to_end_on_cpu(interrupted_then_resumed: dict) -> None:
    out: Path = interrupted_then_resumed["out"]
    table = pq.read_table(sorted((out / "data").rglob("*.parquet")))
    assert table.schema.equals(schema.FEATURES.arrow_schema, check_metadata=False)
    rows = table.to_pylist()
    assert len(rows) == interrupted_then_resumed["result"].rows >= 10
    for row in rows:
        assert row["cuda_compile_status"] == "ok" and row["cuda_arch"] == 90 and row["cuda_toolkit_version"]
        assert f".entry {row['kernel_symbol']}_cuda_kernel_forward(" in row["ptx"] and ".target sm_90" in row["ptx"]
        assert (row["cpu_compile_status"], row["cpu_run_status"]) == ("ok", "ok"), row["cpu_run_error"]
        assert row["nonfinite_output"] is False, row["seed"]
        # The gradient check ran on every row; a wrong adjoint is tolerated only on a row flagged at build time.
        assert row["gradcheck_status"] not in ("error", "timeout", "skipped"), row["gradcheck_error"]
        if row["gradcheck_status"] in ("wrong_adjoint", "zero_adjoint"):
            assert row["adjoint_hazards"], row["seed"]
        assert row["validation_warp_version"] == "1.19.0"
        if GPU_MISSING:
            assert row["gpu_run_status"] == "skipped" and row["gpu_run_skip_reason"] == schema.NO_GPU
        assert_stage_columns_consistent(row)
    # The stored digest is the digest of the arrays the row's kernel really produces.
    assert rows[0]["output_digest"] == outputs.digest(launch.run_row(rows[0]))
    # The float64 route works (how many rows widen depends on what the seeds drew: 2 of 7 checked in typed-3).
    checked = [r for r in rows if r["gradcheck_status"] != "skipped"]
    assert any(r["gradcheck_dtype"] == "float64" for r in checked)
    counts = read_back(out).validation
    assert counts.status["cuda_compile"] == {"ok": len(rows)}
    record = BuildRecord.load(out)
    assert record is not None and record.validation is not None and record.validation.summary == counts.to_dict()
    card_text = (out / "README.md").read_text()  # the card was re-rendered with the results
    assert validation_markdown(read_back(out)) in card_text and "has not been validated" not in card_text
    for category in {r["category"] for r in rows}:  # every row compiled: 100% in the CUDA column
        n = sum(1 for r in rows if r["category"] == category)
        assert f"| {category} | {n:,} | 100.00% of {n:,} |" in card_text
    assert_card_states_the_rows(card_text, rows)
    assert_publishable(out)
    # datasets caches local folders by name and file names, not content: a private cache, or
    # another build folder called warp_cuda_ir in this session answers instead.
    cache = str(out.parent / "hf_cache")
    ptx = datasets.load_dataset(str(out), "cuda_ptx", cache_dir=cache)["train"]
    assert ptx.column_names == list(schema.CONFIGS_BY_NAME["cuda_ptx"].columns) and ptx[0]["ptx"]
    full = datasets.load_dataset(str(out), "full", cache_dir=cache)["train"]
    assert full.features == schema.FEATURES


@pytest.mark.parametrize("part", ["cuda_forward", "cuda_backward"])
def test_broken_cuda_source_is_reported_with_its_compiler_log(tiny_build: Path, tmp_path: Path, part: str) -> None:
    # The batch compiles forward and backward kernels apart (`compile_cuda.batch_source`): either one broken
    # blames its row alone, with NVRTC's log of the row's own module.
    rows = pq.read_table(sorted((tiny_build / "data").rglob("*.parquet"))).to_pylist()[:4]
    assert rows[1][part]
    broken = dict(rows[1], **{part: rows[1][part].replace("{", "{ undeclared_thing_42 = 1;", 1)})
    results = compile_cuda.compile_rows([rows[0], broken, rows[2], rows[3]], 90, tmp_path)
    assert [r.status for r in results] == ["ok", "error", "ok", "ok"]
    assert "undeclared_thing_42" in results[1].log and "error" in results[1].log and results[1].ptx is None
    assert f".entry {rows[3]['kernel_symbol']}_cuda_kernel_forward(" in results[3].ptx


FORCED_INLINE = """import warp as wp

@wp.func(inline=True)
def smooth(x: float):
    return wp.sin(x) * wp.exp(-x * x)

@wp.func
def blend(x: float, y: float):
    return smooth(x) + wp.cos(y) * smooth(y)

@wp.kernel
def mix(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = blend(a[i], b[i]) * smooth(a[i] + b[i])
"""


def test_a_rows_ptx_is_its_forward_kernel_with_the_helpers_inlined_as_warp_compiles_it(
    tiny_build: Path, tmp_path: Path
) -> None:
    # Backward kernels are compiled with their helpers out of line (`__noinline__`, far cheaper for NVVM on real
    # kernels); forward kernels, whose PTX is the row's `ptx`, with the helpers as Warp emits them. These rows'
    # PTX is that of their whole module; in some large real kernels NVVM inlines a helper the forward and the
    # backward both call differently with the backward beside it (register numbering: 2 of 128 real rows).
    rows = pq.read_table(sorted((tiny_build / "data").rglob("*.parquet"))).to_pylist()
    rows = [r for r in rows if r["block_dim"] == 256 and "static CUDA_CALLABLE" in r["cuda_helpers"]][:3]
    forced = compile_only_row(FORCED_INLINE, "mix", block_dim=256)
    assert "WP_FORCEINLINE" in forced["cuda_helpers"] and len(rows) == 3
    for row in [forced, *rows]:
        ptx, log = compile_cuda.compile_source(compile_cuda.batch_source([row]), 90, tmp_path, "batch")
        assert ptx is not None, log  # a forced-inline helper compiles in the backward's out-of-line copy too
    batched = compile_cuda.compile_rows([*rows, forced], 90, tmp_path / "batch")
    for row, result in zip([*rows, forced], batched, strict=True):
        own, _ = compile_cuda.compile_source(extraction.translation_unit(row, "cuda"), 90, tmp_path, "own")
        assert own is not None and result.ptx == compile_cuda.forward_ptx(own, row["kernel_symbol"])
        assert "\tcall" not in result.ptx  # every helper inlined into the forward kernel


PRINTS = """import warp as wp

@wp.kernel
def report(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    if a[i] > 0.5:
        wp.printf("%d: %f\\n", i, a[i])
    out[i] = a[i] * 2.0
    print(out[i])
"""


def test_a_rows_ptx_does_not_depend_on_its_batch(tiny_build: Path, tmp_path: Path) -> None:
    # NVVM numbers branch labels by the function's place in the module, and calls (`printf`'s) and string
    # constants (their formats, here another per row) on one count over the module: the row's text shows none.
    rows = pq.read_table(sorted((tiny_build / "data").rglob("*.parquet"))).to_pylist()
    branchy = [r for r in rows if r["block_dim"] == 256][:6]
    printing = [
        compile_only_row(PRINTS.replace("report", f"r{k}").replace("%d:", f"row {k} %d:"), f"r{k}", block_dim=256)
        for k in range(2)
    ]
    alone = compile_cuda.compile_rows([printing[1]], 90, tmp_path / "alone")[0].ptx
    batched = compile_cuda.compile_rows([*branchy, *printing], 90, tmp_path / "batch")
    assert alone and "// callseq 0" in alone and "$str$1" in alone and "$L__BB0_" in batched[5].ptx
    assert alone == batched[-1].ptx
    assert batched[5].ptx == compile_cuda.compile_rows(branchy[-1:], 90, tmp_path / "alone")[0].ptx


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not on PATH")
def test_a_rows_ptx_assembles_alone(tiny_build: Path, tmp_path: Path) -> None:
    # Every Warp kernel uses the module's shared tile storage (`smem_base`), a printing one `vprintf` and its
    # format strings: the row's PTX carries their declarations, or ptxas stops at an unknown symbol.
    rows = pq.read_table(sorted((tiny_build / "data").rglob("*.parquet"))).to_pylist()
    rows = [*[r for r in rows if r["block_dim"] == 256][:4], compile_only_row(PRINTS, "report", block_dim=256)]
    for row, result in zip(rows, compile_cuda.compile_rows(rows, 90, tmp_path / "nvrtc"), strict=True):
        assert "smem_base[" in result.ptx.split(".entry", 1)[0]
        done = compile_cuda.assemble(result.ptx, 90, tmp_path)
        assert done.returncode == 0, (row["kernel_name"], done.stderr)
    assert ".extern .func" in result.ptx and "$str$1[" in result.ptx  # the printing row's
    entry_only = re.sub(r"\n\.(shared|global|extern)[^;]*;", "", result.ptx)
    assert (
        compile_cuda.assemble(entry_only, 90, tmp_path).returncode != 0
    )  # the check itself catches a missing declaration


WRITES_NOTHING = """import warp as wp

@wp.kernel
def idle(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 2.0
"""
COPIES = WRITES_NOTHING.replace("    x = a[i] * 2.0", "    b[i] = a[i]")
SCALES = WRITES_NOTHING.replace("    x = a[i] * 2.0", "    b[i] = a[i] * 2.0")


@pytest.mark.parametrize(
    ("source", "kind"),
    [(WRITES_NOTHING, "all_zero"), (COPIES, "copy"), (SCALES, None)],
    ids=["writes_nothing", "copies_input", "scales"],
)
def test_kernel_that_does_nothing_is_flagged_degenerate(source: str, kind: str | None) -> None:
    row = row_for(source, "idle", [("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS)])
    run = execute.validate_cpu(row)
    assert run.run_status == "ok" and [s.degenerate for s in run.output_stats] == [kind]


def test_nan_and_inf_outputs_are_flagged() -> None:
    logs = WRITES_NOTHING.replace("    x = a[i] * 2.0", "    b[i] = wp.log(a[i] - 2.0)")  # a < 1: NaN
    run = execute.validate_cpu(row_for(logs, "idle", [("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS)]))
    assert run.run_status == "ok" and run.nonfinite is True
    scales = execute.validate_cpu(
        row_for(SCALES, "idle", [("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS)])
    )
    assert scales.nonfinite is False


HANGS = WRITES_NOTHING.replace("    x = a[i] * 2.0", "    while a[i] > 0.0:\n        b[i] = b[i] + 1.0")
CRASHES = WRITES_NOTHING.replace("    x = a[i] * 2.0", "    b[i * 100000000 + 100000000] = 1.0")
# Runs in float32 (x + 1e-9 rounds back to x) but loops forever once the gradient check widens it to float64.
HANGS_IN_GRADCHECK = WRITES_NOTHING.replace(
    "    x = a[i] * 2.0", "    b[i] = a[i] * 2.0\n    while a[i] + 1.0e-9 != a[i]:\n        b[i] = b[i] + 1.0"
)


def run_rows(rows: list[dict], tmp_path: Path, stage_timeout_s: float, chunk_size: int) -> dict[str, dict]:
    """The pass's driver on the local executor (2 workers) over hand-written rows: columns by row id."""
    from warp_cuda_ir.engines import get_executor

    for folder in ("trail", "workers"):
        (tmp_path / folder).mkdir()
    settings = Settings(90, schema.NO_GPU, {}, standalone=False, stage_timeout_s=stage_timeout_s)
    settings = dataclasses.replace(settings, trail=str(tmp_path / "trail"), scratch=str(tmp_path / "workers"))
    results: dict[str, dict] = {}
    options = PassOptions(workers=2, chunk_size=chunk_size, stage_timeout_s=stage_timeout_s, standalone=False)
    with get_executor("local", 2) as executor:
        work = [("f", row, {}) for row in rows]
        run_pass(
            work, options, settings, executor, lambda key, i, columns: results.setdefault(i, columns), StageTimes()
        )
    return results


@pytest.mark.slow
def test_hanging_or_crashing_kernel_marks_only_its_row_and_stage(tmp_path: Path) -> None:
    args = [("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS)]
    good, copies, hangs, crashes, grad_hangs = (
        row_for(s, "idle", args) for s in (SCALES, COPIES, HANGS, CRASHES, HANGS_IN_GRADCHECK)
    )
    results = run_rows([crashes, good, hangs, copies, grad_hangs], tmp_path, stage_timeout_s=10.0, chunk_size=2)
    crashed, hung, grad_hung = results[crashes["id"]], results[hangs["id"]], results[grad_hangs["id"]]
    assert (crashed["cpu_compile_status"], crashed["cpu_run_status"]) == ("ok", "error")
    assert "died" in crashed["cpu_run_error"] and crashed["cpu_compile_error"] is None
    assert (hung["cpu_compile_status"], hung["cpu_run_status"]) == ("ok", "timeout")
    assert "timed out" in hung["cpu_run_error"]
    assert hung["gpu_run_skip_reason"] == schema.NO_GPU
    assert (hung["gradcheck_status"], hung["gradcheck_skip_reason"]) == ("skipped", schema.DID_NOT_RUN_CPU)
    assert hung["gradcheck_dtype"] is None and hung["output_stats"] is None
    # The gradient check's hang is the gradient check's timeout; the CPU run before it stands.
    assert (grad_hung["cpu_run_status"], grad_hung["gradcheck_status"]) == ("ok", "timeout")
    assert "timed out" in grad_hung["gradcheck_error"] and grad_hung["output_stats"] is not None
    assert results[good["id"]]["cpu_run_status"] == results[copies["id"]]["cpu_run_status"] == "ok"
    assert all(r["cuda_compile_status"] == "ok" for r in results.values())
    for columns in results.values():
        assert_stage_columns_consistent(columns)


# Warp generates its code; Warp's Clang rejects it (the native snippet names nothing declared).
BROKEN_IN_CLANG = """import warp as wp

@wp.func_native("return undeclared_thing_42 * x;")
def broken(x: float) -> float: ...

@wp.kernel
def idle(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = broken(a[i])
"""


@pytest.mark.slow
def test_a_batch_of_cpu_modules_compiles_in_one_unit_and_a_broken_one_stays_its_rows(tmp_path: Path) -> None:
    import warp as wp

    from warp_cuda_ir.validation import cpu_batch

    args = [("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS)]
    good, broken, copies = (row_for(s, "idle", args) for s in (SCALES, BROKEN_IN_CLANG, COPIES))
    cache = wp.config.kernel_cache_dir
    wp.config.kernel_cache_dir = str(tmp_path / "kernel_cache")
    try:

        def annotate() -> list[dict]:
            found = [row_columns.execution_columns(r, schema.NO_GPU, {}) for r in (good, broken, copies)]
            warp_session.forget_compiled_rows(wp.config.kernel_cache_dir)
            return [{k: v for k, v in c.items() if k != "_seconds"} for c in found]

        alone = annotate()
        # Each good row: its own module (Warp's -O2) and the gradient check's (widened to float64, at -O0). The
        # broken row's modules fail in their unit: Clang's log points at them, the rest compile again without them.
        levels = {m.identifier: dict(m.build_args)["optimization_level"] for m in cpu_batch.modules_of([good], False)}
        assert sorted(levels.values()) == [0, 2]
        assert cpu_batch.prebuild([good, broken, copies], False, tmp_path / "clang") == 4
        binaries = list((tmp_path / "kernel_cache").glob("*/*.o"))
        assert len(binaries) == 4 and len({b.stat().st_ino for b in binaries}) == 2  # one object file per level
        inodes = {b: b.stat().st_ino for b in binaries}
        checked = gradients.expose_parameters(gradients.widen_row(good))[0]["python_source"]
        for source, backward, level in ((good["python_source"], False, None), (checked, True, 0)):
            with warp_session.loaded_kernel(source, "idle", backward=backward, optimization_level=level) as (k, _):
                assert execute.load_module(k, "cpu", good) is None
                assert next(iter(k.module.execs.values())).binary_path in {str(b) for b in binaries}
        assert all(b.stat().st_ino == inode for b, inode in inodes.items())  # loaded, not compiled again
        batched = annotate()
    finally:
        wp.config.kernel_cache_dir = cache
    assert batched == alone
    assert batched[0]["cpu_run_status"] == "ok" and batched[0]["gradcheck_status"] == "ok"
    assert batched[1]["cpu_compile_status"] == "error" and "undeclared_thing_42" in batched[1]["cpu_compile_error"]


def test_a_hung_cpu_compile_is_a_compile_timeout() -> None:
    columns = row_columns.failed_execution("timeout", "worker timed out after 120 s", "cpu_compile", {})
    assert (columns["cpu_compile_status"], columns["cpu_compile_error"]) == ("timeout", "worker timed out after 120 s")
    assert (columns["cpu_run_status"], columns["cpu_run_skip_reason"]) == ("skipped", schema.DID_NOT_COMPILE_CPU)
    assert columns["cpu_run_error"] is None and columns["gradcheck_skip_reason"] == schema.DID_NOT_RUN_CPU
    assert columns["gpu_run_skip_reason"] == schema.NOT_REACHED
    assert_stage_columns_consistent(columns)


def test_a_gpu_fault_keeps_the_cpu_results_of_its_row() -> None:
    so_far = {"cpu_run_status": "ok", "output_digest": "abc", **row_columns.skipped_gpu(schema.NOT_REACHED)}
    columns = row_columns.failed_execution("error", "worker process died (exit code -6)", "gpu_run", so_far)
    assert (columns["cpu_run_status"], columns["output_digest"]) == ("ok", "abc")
    assert (columns["gpu_run_status"], columns["gpu_run_error"]) == ("error", "worker process died (exit code -6)")
    assert (columns["gradcheck_status"], columns["gradcheck_skip_reason"]) == ("skipped", schema.NOT_REACHED)
    # Exactly the columns of the stages Warp runs in the worker, and the environment's: the other steps' stages
    # (NVRTC, the standalone programs) are theirs to fill.
    row_step = [s for s in schema.PASS if s.run == "row"]
    expected = {n for s in row_step for n in (*(c for c, _, _ in s.columns), *s.result_names)}
    assert columns.keys() == expected | {n for n, _, _ in schema.ENVIRONMENT_COLUMNS}


def test_a_source_that_does_not_load_fails_its_cpu_compile_and_skips_the_rest() -> None:
    row = {"id": "x", "seed": 1, "python_source": "import warp as wp\n\ndef broken(:\n", "kernel_name": "k"}
    columns = row_columns.execution_columns(row, None, {})
    assert columns["cpu_compile_status"] == "error" and columns["cpu_compile_error"]
    for stage in ("cpu_run", "gpu_run", "gradcheck"):
        assert (columns[f"{stage}_status"], columns[f"{stage}_skip_reason"]) == ("skipped", schema.SOURCE_DOES_NOT_LOAD)
    assert columns["gradcheck_dtype"] is None and columns["degenerate_output"] is None
    assert_stage_columns_consistent(columns)


def test_the_reference_digest_is_made_before_the_gradient_check_and_kept_by_its_blame() -> None:
    """The trail line of the gradient check holds the reference digest: a backward that kills the worker there
    (mujoco-warp's `_cfrc_world`, Warp's own CPU backward aborting) no longer takes the digest with it."""
    from warp_cuda_ir import standalone

    row = row_for(SCALES, "idle", [("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS)])
    seen: dict[str, dict] = {}
    columns = row_columns.execution_columns(
        row,
        schema.NO_GPU,
        {},
        lambda stage, so_far: seen.setdefault(stage, so_far),
        lambda: standalone.reference_columns(row),
    )
    digest = columns["standalone_reference_digest"]
    assert digest and digest.startswith("output b ") and "\nadjoint a " in digest
    assert seen["gradcheck"]["standalone_reference_digest"] == digest
    # Blamed on the gradient check, the row keeps its CPU run and that digest.
    failed = row_columns.failed_execution("error", "worker process died (exit code -6)", "gradcheck", seen["gradcheck"])
    assert (failed["cpu_run_status"], failed["gradcheck_status"]) == ("ok", "error")
    assert failed["standalone_reference_digest"] == digest


def test_a_row_without_a_launch_record_compiles_and_skips_what_needs_a_launch() -> None:
    row = row_for(SCALES, "idle", [("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS)])
    row["launch_dim"] = None
    columns = row_columns.execution_columns(row, None, {})
    assert columns["cpu_compile_status"] == "ok"
    for stage in ("cpu_run", "gpu_run", "gradcheck"):
        assert (columns[f"{stage}_status"], columns[f"{stage}_skip_reason"]) == ("skipped", schema.NO_LAUNCH_RECORD)
    assert columns["output_stats"] is None and columns["nonfinite_output"] is None
    assert_stage_columns_consistent(columns)


def test_messages_print_values_not_numpy_reprs() -> None:
    import numpy as np

    message = f"coeffs[{np.int64(196)!r}]: adjoint {np.float32(0.5)!r}, flag {np.bool_(True)!r}"
    assert "np." in message  # what numpy 2 prints, the case this guards against
    assert row_columns.plain(message) == "coeffs[196]: adjoint 0.5, flag True"
    assert row_columns.stage("gradcheck", "error", message)["gradcheck_error"] == "coeffs[196]: adjoint 0.5, flag True"
    with pytest.raises(ValueError, match="SKIP_REASONS"):
        row_columns.stage("gpu_run", "skipped", skip_reason="no CUDA device on the validating machine")


GRADIENT_VERDICTS = ("wrong_adjoint", "zero_adjoint", "inconclusive", "nothing_to_check", "not_applicable")


def assert_stage_columns_consistent(columns: dict) -> None:
    """Every stage: a status from the shared vocabulary; a skip reason from the fixed list iff skipped;
    an error iff `error`/`timeout`; no numpy repr in any message."""
    for stage in schema.STAGES:
        if f"{stage}_status" not in columns:
            continue
        status, error, reason = (columns[f"{stage}_{k}"] for k in ("status", "error", "skip_reason"))
        assert status in (*schema.STAGE_STATUSES, *GRADIENT_VERDICTS), (stage, status)
        assert (reason is not None) == (status == "skipped") and (reason is None or reason in schema.SKIP_REASONS)
        assert (error is not None) == (status in ("error", "timeout")), (stage, status, error)
        assert error is None or "np." not in error
    if columns.get("gradcheck_status") in ("skipped", "error", "timeout", "not_applicable"):
        assert columns["gradcheck_dtype"] is None and columns["gradcheck_rel_error"] is None
    for stage in schema.PASS:  # a stage that ran had every stage it needs succeed
        if columns.get(f"{stage.name}_status") not in (None, "skipped"):
            assert all(columns.get(f"{need}_status") == "ok" for need in stage.needs), stage.name


def assert_card_states_the_rows(card_text: str, rows: list[dict]) -> None:
    """The card's stage table and degenerate counts, against counts made here from the rows themselves."""
    for stage in schema.STAGES:
        statuses = [r[f"{stage}_status"] for r in rows]
        ran = sum(1 for s in statuses if s != "skipped")
        ok = statuses.count("ok")
        rate = f"{100.0 * ok / ran:.2f}%" if ran else "n/a"
        cells = f"| {ran:,} | {ok:,} | {statuses.count('error'):,} | {statuses.count('timeout'):,} |"
        assert f"| `{stage}` {cells}" in card_text and f"| {rate} | {statuses.count('skipped'):,} |" in card_text
        for reason in {r[f"{stage}_skip_reason"] for r in rows} - {None}:
            n = sum(1 for r in rows if r[f"{stage}_skip_reason"] == reason)
            assert f"| `{stage}` | {reason} | {n:,} |" in card_text
    described = [r for r in rows if r["output_stats"] is not None]
    every = sum(1 for r in described if all(o["degenerate"] for o in r["output_stats"]) and r["output_stats"])
    outputs = sum(len(r["output_stats"]) for r in described)
    degenerate = sum(1 for r in described for o in r["output_stats"] if o["degenerate"])
    assert f"{every:,} of the {len(described):,} rows that ran on the CPU" in card_text
    assert f"{degenerate:,} of {outputs:,} outputs" in card_text


def expect_refusal(argv: list[str], capsys: pytest.CaptureFixture[str], message: str) -> None:
    spec = importlib.util.spec_from_file_location("validate_script", ROOT / "scripts" / "validate.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err


def test_folder_that_is_not_our_dataset_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    expect_refusal([str(tmp_path)], capsys, "not a dataset built by warp-cuda-ir")
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_truncated_parquet_and_foreign_schema_are_refused(
    tiny_build: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "copy"
    shutil.copytree(tiny_build, out)
    data = sorted((out / "data").rglob("*.parquet"))[0]
    original = data.read_bytes()
    data.write_bytes(original[: len(original) // 2])
    expect_refusal([str(out)], capsys, "not a readable Parquet file")
    assert data.read_bytes() == original[: len(original) // 2]
    pq.write_table(pa.table({"id": ["x"], "text": ["hello"]}), data)
    foreign = data.read_bytes()
    expect_refusal([str(out)], capsys, "foreign schema")
    assert data.read_bytes() == foreign and not (out / writing.WORK_DIR / "validation").exists()


def old_schema_folder(out: Path) -> Path:
    """A folder as schema 1.2 left it: build.json says 1.2, its Parquet holds 1.2's validation columns."""
    (out / "data").mkdir(parents=True)
    table = pa.table(
        {
            "id": ["0123456789abcdef"],
            "seed": [1],
            "category": ["math"],
            "python_source": ["import warp as wp\n"],
            "cpu_run_status": ["ok"],
            "cpu_error": [None],
            "trivial_output": [False],
            "trivial_reason": [None],
            "cpu_kernel_ms": [0.025],
        }
    ).replace_schema_metadata({"warp_cuda_ir.schema": "1.2"})
    pq.write_table(table, out / "data" / "train-00000-of-00001.parquet")
    identity = {"shards": {"spec": {}, "schema": "1.2", "warp": "1.19.0"}, "target_mb": 1.0, "max_shard_mb": 256}
    BuildRecord(identity, 1, {}, {}, ("data/train-00000-of-00001.parquet",)).save(out)
    return out


def test_a_folder_of_an_older_schema_is_refused_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = old_schema_folder(tmp_path / "old")
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    expect_refusal([str(out)], capsys, f"built with schema 1.2, this warp-cuda-ir reads {schema.SCHEMA_VERSION}")
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before and not (out / writing.WORK_DIR).exists()


def test_unsupported_arch_is_refused_before_touching_data(tiny_build: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = digest_files(tiny_build)
    expect_refusal([str(tiny_build), "--arch", "52"], capsys, "does not support arch 52")
    assert digest_files(tiny_build) == before


@pytest.mark.skipif(GPU_MISSING is not None, reason=f"needs a CUDA device: {GPU_MISSING}")
def test_gpu_outputs_match_the_cpu_reference() -> None:
    row = row_for(SCALES, "idle", [("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS)])
    with warp_session.loaded_kernel(row["python_source"], "idle") as (kernel, namespace):
        cpu = execute.run_cpu(row, kernel, namespace)
        result = gpu.run_gpu(row, kernel, namespace, cpu.results)
    assert result.status == "ok" and result.matches and result.max_abs < 1e-6


def test_gpu_comparison_uses_per_dtype_tolerance() -> None:
    import numpy as np

    ref = {"b": np.array([1.0, 2.0], np.float32), "n": np.array([1, 2], np.int32)}
    close = {"b": np.array([1.00001, 2.0], np.float32), "n": np.array([1, 2], np.int32)}
    off = {"b": np.array([1.1, 2.0], np.float32), "n": np.array([1, 3], np.int32)}
    assert gpu.compare(ref, close)[0] and not gpu.compare(ref, off)[0]
    assert gpu.compare(ref, off)[1] == pytest.approx(1.0)


def test_the_stage_list_orders_needs_and_owns_every_validation_column() -> None:
    names = [stage.name for stage in schema.PASS]
    for stage in schema.PASS:
        assert all(names.index(need) < names.index(stage.name) for need in stage.needs), stage.name
        assert all(schema.STAGES_BY_NAME[need].unmet in schema.SKIP_REASONS for need in stage.needs), stage.name
    owned = [c for stage in schema.PASS for c in (*stage.columns, *stage.results)]
    assert sorted(owned + list(schema.ENVIRONMENT_COLUMNS)) == sorted(schema.VALIDATION_COLUMNS)
    from warp_cuda_ir.validation.stages import RUNS

    assert {stage.run for stage in schema.PASS} == set(RUNS), "every step of the list has its runner"


def test_a_failed_stage_skips_what_needs_it_and_leaves_the_rest_not_reached() -> None:
    so_far = {"standalone_nvcc_status": "ok", "standalone_nvcc_error": None, "standalone_nvcc_skip_reason": None}
    columns = row_columns.failed_step("timeout", "timed out after 20 s", "standalone_cpu_compile", so_far)
    assert columns["standalone_cpu_compile_status"] == "timeout" and columns["standalone_nvcc_status"] == "ok"
    assert columns["standalone_cpu_run_skip_reason"] == schema.DID_NOT_COMPILE  # needs the compile
    assert columns["standalone_gpu_run_skip_reason"] == schema.NOT_REACHED  # needs nvcc, which was fine
    assert "cpu_run_status" not in columns, "a step's failure writes that step's columns only"
    assert_stage_columns_consistent(columns)
    # A skip that carries over: no launch record upstream is no launch record downstream.
    passed = {"cpu_run_status": "skipped", "cpu_run_skip_reason": schema.NO_LAUNCH_RECORD}
    assert row_columns.skip_reason(schema.STAGES_BY_NAME["gradcheck"], passed) == schema.NO_LAUNCH_RECORD


def test_the_build_validates_by_default_and_no_validate_builds_only() -> None:
    spec = importlib.util.spec_from_file_location("build_script", ROOT / "scripts" / "build.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    default = script.parse_args([])
    assert default.validate is None and default.capture is True  # None: on, where the folder is local
    assert script.parse_args(["--no-validate"]).validate is False
    assert script.parse_args(["--validate"]).validate is True


def test_annotations_of_the_moment_are_not_kept_in_the_machine_cache(tmp_path: Path) -> None:
    """A stage cut at its limit or a dead worker may come out otherwise on a quieter machine: not stored."""
    from warp_cuda_ir.cache import Cache
    from warp_cuda_ir.validation.known import KnownAnnotations

    known = KnownAnnotations(Cache(tmp_path), {"arch": 90})
    complete = {f"{stage}_status": "ok" for stage in schema.STAGES}
    for status, kept in [("ok", True), ("skipped", True), ("timeout", False), ("error", False)]:
        row = {"id": status, "python_source": "x"}
        known.put(known.key(row), complete | {"gradcheck_status": status})
        assert (known.get(known.key(row)) is not None) == kept, status
    # The key covers every column of the row, and the pass's settings.
    row = {"id": "ok", "python_source": "x"}
    assert known.get(known.key(row | {"python_source": "y"})) is None
    assert KnownAnnotations(Cache(tmp_path), {"arch": 80}).key(row) != known.key(row)
    assert KnownAnnotations(Cache(None), {"arch": 90}).key(row) is None


KERNEL_PRINTS = """
import os
from warp_cuda_ir.validation import stages


class Worker:
    trail = None

    def note(self, record):
        pass

    def limit(self, seconds, what=""):
        pass


def kernel_prints(worker, settings, rows, columns, todo):
    os.write(1, b"Error, expect_eq() failed\\n")  # what a Warp kernel's printf does: a native write to fd 1
    columns[0]["said"] = "ok"


stages._worker = Worker()
stages.steps = lambda: [("say", ["a stage"])]
stages.missing = lambda stage, columns: "said" not in columns
stages.RUNS["say"] = kernel_prints
settings = stages.Settings(90, None, {}, False, 60.0, 60.0)
print(stages.validate_batch(stages.Batch(settings, "b", [{}]))["columns"], flush=True)
"""


def test_a_kernels_own_prints_stay_off_the_pass_console(tmp_path: Path) -> None:
    """Warp's tests print from their kernels ("Error, expect_eq() failed"); the pass's workers would write that
    between its progress lines. The batch runs with its native stdout sent nowhere, and gets it back after."""
    script = tmp_path / "prints.py"
    script.write_text(KERNEL_PRINTS)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "expect_eq" not in done.stdout
    assert "[{'said': 'ok'}]" in done.stdout  # the worker's own stdout is back once the batch is done


_WORKER_START = """
import tempfile
from pathlib import Path
import warp as wp
from warp_cuda_ir import warp_session
from warp_cuda_ir.validation import stages
wp.config.kernel_cache_dir = tempfile.mkdtemp()
warp_session.init_warp()
own = Path(wp._src.context.runtime.get_clang_pch_dir())
state = lambda: {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in own.glob("*.pch")}
share, copied = warp_session.share_precompiled_headers, {}
def spy(folder):
    keep = share(folder)
    copied.update(state())  # what the worker holds before its first compile
    return keep
warp_session.share_precompiled_headers = spy
stages._warm_up()
print(repr((copied, state())))
"""


def test_a_validation_worker_starts_from_the_precompiled_header_an_earlier_one_left(tmp_path: Path) -> None:
    """Each worker of each pass built Warp's Clang header before its first row (~2 CPU-s; 0.2 from a copy). The
    first worker leaves it in the machine's temporary folder; the next compiles against its copy, which Clang
    does not build again (same inode and mtime after the warm-up's compile)."""

    def worker_start() -> tuple[dict, dict]:
        env = {**os.environ, "WARP_CUDA_IR_SHARED_TEMP": str(tmp_path / "shared"), "TMPDIR": str(tmp_path)}
        done = subprocess.run(
            [sys.executable, "-c", _WORKER_START], capture_output=True, text=True, env=env, timeout=240
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return eval(done.stdout.strip().splitlines()[-1])

    copied, built = worker_start()
    assert copied == {} and built
    shared = sorted(p.name for p in (tmp_path / "shared").glob(f"*/{warp_session.PRECOMPILED_HEADERS_DIR}/*/*.pch"))
    assert shared == sorted(built)
    copied, after = worker_start()
    assert sorted(copied) == shared and after == copied
