"""The generator: deterministic by seed, every category reachable, every kernel extractable and runnable."""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from warp_cuda_ir import extraction, launch, rows, source_facts, warp_session
from warp_cuda_ir.errors import ExtractionError, UsageError
from warp_cuda_ir.synthesis import CATEGORIES, catalogue, check_categories, synthesize, typesys
from warp_cuda_ir.synthesis.catalogue import Production
from warp_cuda_ir.synthesis.grammar import Expr, Expressions

SEEDS = range(300)
NEW_CATEGORIES = {"functions", "structs", "quaternion_transform", "multi_dim", "random", "reduction", "idioms", "tile"}


@pytest.fixture(scope="module")
def programs() -> list:
    return [synthesize(s) for s in SEEDS]


def test_same_seed_same_program(programs: list) -> None:
    assert [synthesize(s) for s in range(50)] == programs[:50]


def test_same_program_in_another_process(programs: list) -> None:
    code = (
        "from warp_cuda_ir.synthesis import synthesize; print(repr(synthesize(3).source), repr(synthesize(77).source))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=".").stdout
    assert out.strip() == f"{programs[3].source!r} {programs[77].source!r}"


def test_every_category_is_sampled(programs: list) -> None:
    counts = Counter(p.category for p in programs)
    assert set(counts) == set(CATEGORIES) and NEW_CATEGORIES | {"arithmetic", "atomic", "matrix"} <= set(CATEGORIES)


def test_category_selection_is_respected() -> None:
    assert {synthesize(s, ("matrix", "idioms")).category for s in range(60)} == {"matrix", "idioms"}


@pytest.mark.slow
def test_every_program_generates_code(programs: list) -> None:
    failures = []
    for seed, program in zip(SEEDS, programs, strict=True):
        try:
            texts = extraction.extract(program.source, program.kernel_name)
            assert texts.kernel_name == program.kernel_name
        except ExtractionError as e:
            failures.append((seed, str(e)[:200]))
    assert failures == []


def test_launch_record_matches_kernel_signature(programs: list) -> None:
    for program in programs:
        tree = ast.parse(program.source)
        kernel = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == program.kernel_name)
        assert [a.arg for a in kernel.args.args] == [a.name for a in program.arguments]
        assert program.launch_dim and all(d > 0 for d in program.launch_dim)
        tid = next(n for n in ast.walk(kernel) if isinstance(n, ast.Assign) and "wp.tid()" in ast.unparse(n.value))
        targets = tid.targets[0]
        assert (len(targets.elts) if isinstance(targets, ast.Tuple) else 1) == len(program.launch_dim)
        for arg in program.arguments:
            assert arg.kind in ("array", "scalar", "struct") and arg.role in ("in", "out", "inout")
            if arg.kind == "array":
                assert arg.shape and all(n > 0 for n in arg.shape) and "dist" in arg.init
            elif arg.kind == "scalar":
                assert "value" in arg.init and typesys.parse(arg.dtype)
            else:
                assert "fields" in arg.init


def test_programs_use_many_builtins_and_dtypes(programs: list) -> None:
    used = set().union(*(source_facts.analyse(p.source).builtins for p in programs))
    dtypes = {a.dtype for p in programs for a in p.arguments}
    assert len(used) >= 100, sorted(used)
    assert {"float64", "int64", "uint32", "bool", "vec3", "mat33", "quat", "transform"} <= dtypes
    # float16 buffers are rare, as in real kernels (5 rows in 1,000, from seed 508)
    assert any(a.dtype == "float16" for s in range(500, 720) for a in synthesize(s).arguments)


@pytest.mark.slow
def test_kernels_run_on_cpu_with_finite_outputs() -> None:
    bad = []
    for seed in range(36):  # ~1 s each: Warp compiles every kernel with Clang
        row = rows.make_row(seed, CATEGORIES)
        outputs = launch.run_row(row)
        if any(a.dtype.kind == "f" and not np.isfinite(a).all() for a in outputs.values()):
            bad.append((seed, row["category"]))
    assert bad == []


# CPU faults an earlier generator's programs had (seeds 8,197 and 7,446 of 0-9,999, `benchmarks/validity.py`),
# and the grammar's fix of each: `wp.svd2` of a matrix made positive definite (of a nearly singular matrix it
# gives NaN singular values), and a uint32 read as int32 before it becomes float16 (one wrapped below zero is
# about 4e9, past float16's range: inf).
SVD2_SEED = 295  # the first seed with an svd2


def test_svd2_programs_run_finite() -> None:
    row = rows.row_for_program(SVD2_SEED, synthesize(SVD2_SEED))
    assert "wp.svd2(" in row["python_source"] and "wp.identity(n=2, dtype=float))" in row["python_source"]
    outputs = launch.run_row(row)
    assert all(np.isfinite(a).all() for a in outputs.values() if a.dtype.kind == "f")


def test_uint32_becomes_float16_through_int32() -> None:
    ex = Expressions(random.Random(0), ("float32", "uint32", "float16"))
    wrapped = Expr("wp.uint32(1) - wp.uint32(2)", "uint32", 2.0)
    text = ex.render(Production("float16", ("uint32",), "float16"), [wrapped])
    assert text == f"wp.float16(wp.int32({wrapped.text}))"


# The third fault (seed 9,580 of that generator) is Warp's: its CPU JIT lacks `__truncdfhf2`, which this float16
# kernel needs. Only in a fresh process: after some other kernels, the same kernel links. Strict: when a
# Warp release fixes it, this fails, and the limitation in `card.limitations_markdown` can go.
WARP_HALF_LINK_BUG = """import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.float16), b: wp.array(dtype=wp.float16)):
    i = wp.tid()
    f = wp.erfinv(wp.clamp(a[i], -wp.float16(0.9), wp.float16(0.9)))
    b[i] = wp.copysign(wp.float16(-0.5), f)
"""
RUN_IN_FRESH_PROCESS = """
import json, sys
from warp_cuda_ir import launch
argument = {"kind": "array", "dtype": "float16", "shape": [4], "init": '{"dist": "zeros"}'}
row = {"python_source": sys.stdin.read(), "kernel_name": "k", "seed": 0, "launch_dim": [4],
       "arguments": [{**argument, "name": "a", "role": "in"}, {**argument, "name": "b", "role": "out"}]}
try:
    launch.run_row(row)
except RuntimeError as e:
    sys.exit(f"failed: {e}")
"""


@pytest.mark.slow
def test_warp_cpu_jit_still_cannot_link_this_float16_kernel() -> None:
    run = lambda source: subprocess.run(  # noqa: E731
        [sys.executable, "-c", RUN_IN_FRESH_PROCESS], input=source, capture_output=True, text=True, cwd="."
    )
    benign = run(WARP_HALF_LINK_BUG.replace("wp.copysign(wp.float16(-0.5), f)", "f * f"))
    assert benign.returncode == 0, benign.stderr[-500:]  # the harness works: only the kernel differs
    bug = run(WARP_HALF_LINK_BUG)
    assert bug.returncode != 0 and "Failed to find forward kernel" in bug.stderr, "Warp links it now: see above"


# Outputs that do not depend on the inputs teach a model nothing. Trivial programs among
# seeds 0-511 (then benchmarks/trivial.py, every output all zero, constant or an input): typed-2 127
# (24.8%), typed-3 17 (3.3%), 1 of them in 0-47. The bound leaves room for a few unlucky programs,
# not for a lost fix (typed-2 would expect ~12). `output_stats` now also finds shifted and
# permuted copies and two-valued outputs (benchmarks/degenerate.py); this test keeps the three kinds below.
TRIVIAL_KINDS = {"all_zero", "constant", "copy"}
TRIVIAL_SEEDS = range(48)  # ~1 s each: a CPU compile and launch
TRIVIAL_BOUND = 3


@pytest.mark.slow
def test_few_programs_have_trivial_outputs() -> None:
    from warp_cuda_ir.validation.execute import program_output_stats

    trivial = {}
    for seed in TRIVIAL_SEEDS:
        kinds = [s.degenerate for s in program_output_stats(synthesize(seed), seed)]
        if kinds and all(k in TRIVIAL_KINDS for k in kinds):
            trivial[seed] = kinds
    assert len(trivial) <= TRIVIAL_BOUND, trivial


def test_a_programs_stats_leave_the_shared_kernel_cache_alone(tmp_path, monkeypatch) -> None:
    """Every row module has one name, so another process's module (being built, or loaded) sits in Warp's
    kernel cache under the same pattern this one forgets: it stays. Two test processes sharing the cache
    killed each other's Clang this way ("LLVM ERROR", exit 1, nothing on the Python side)."""
    import warp as wp

    from warp_cuda_ir.validation.execute import program_output_stats

    program = synthesize(0)
    warp_session.init_warp()  # after `wp.init`, Warp uses the folder as set (before, it adds its version)
    monkeypatch.setattr(wp.config, "kernel_cache_dir", str(tmp_path))
    other = tmp_path / f"wp_{warp_session.MODULE_NAME}_0123abc"
    other.mkdir()
    assert program_output_stats(program, 0)
    assert other.is_dir() and wp.config.kernel_cache_dir == str(tmp_path)


def test_catalogue_is_read_from_warp() -> None:
    builtins = warp_session.builtin_functions()
    assert catalogue.offered_builtins() == {k for k in builtins if not k.startswith("_")}
    assert len(catalogue.signatures()) >= 100 and not (set(catalogue.signatures()) & catalogue.DENY)


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        (["nope"], "unknown category 'nope'"),
        ([], "no category selected"),
        (["math", "tile_matmul"], "unknown category 'tile_matmul'"),
    ],
)
def test_bad_categories_are_rejected(chosen: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        check_categories(chosen)
    with pytest.raises(UsageError, match=message):
        synthesize(0, chosen)


# Warp 1.19 retypes a compile-time constant that is cast (`wp.int64(kk)` of an unrolled loop counter,
# `wp.float64(c)` of `c = (--0.93)`) for all its later reads, which broke codegen on 5 of 16,384 seeds of
# generator typed-1. So no generated variable may be constant-valued.
def test_no_variable_holds_a_compile_time_constant() -> None:
    literal = re.compile(r"^\s*(\w+) = [\s()+-]*(\d+(\.\d*)?|True|False)[\s()]*$")
    unrolled = re.compile(r"^\s*for (\w+) in range\([\d, -]+\):$")
    loops = 0
    for seed in range(300):
        lines = synthesize(seed).source.splitlines()
        for n, line in enumerate(lines):
            assert not literal.match(line), f"seed {seed}: {line.strip()}"
            match = unrolled.match(line)
            trips = len(range(*map(int, line.split("range(")[1].rstrip("):").split(",")))) if match else 0
            if match and trips <= extraction.module_options("cuda")["max_unroll"]:  # Warp unrolls it
                loops += 1
                counter = match.group(1)
                # a read of the counter not inside int(...), and not a keyword argument of that name
                bare = re.compile(rf"(?<![\w.])(?<!int\(){counter}\b(?!\s*=(?!=))")
                assert not [x for x in lines[n + 1 :] if bare.search(x)], f"seed {seed}: counter {counter} read bare"
    assert loops > 20  # the property was exercised


# ---- the tile category -----------------------------------------------------------------------
TILE_SEEDS = range(300)
TILE_CALLS = ("tile_load", "tile_store", "tile_atomic_add")


@pytest.fixture(scope="module")
def tile_programs() -> list:
    return [synthesize(s, ("tile",)) for s in TILE_SEEDS]


def _tile_accesses(program) -> list[tuple[str, str, list[int], tuple[int, ...]]]:
    """(call, array, end of the access at the largest tile index, array shape) of every tile access.

    A load's extent is its `shape=`; a store's is that of the tile it stores: one element for a
    reduction, else the tile shape as laid out in that array, i.e. the factor of each offset term.
    """
    shapes = {a.name: a.shape for a in program.arguments if a.kind == "array"}
    tree = ast.parse(program.source)
    kernel = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == program.kernel_name)
    tids = kernel.body[0].targets[0]
    names = [t.id for t in tids.elts] if isinstance(tids, ast.Tuple) else [tids.id]
    last = {name: n - 1 for name, n in zip(names, program.launch_dim, strict=True)}
    calls = [
        n
        for n in ast.walk(kernel)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in TILE_CALLS
    ]
    loaded = {tuple(sorted(_ints(eval(ast.unparse(k.value))))) for c in calls for k in c.keywords if k.arg == "shape"}
    assert len(loaded) == 1, loaded  # one tile shape per program (some tiles transposed)
    accesses = []
    for node in calls:
        keywords = {k.arg: k.value for k in node.keywords}
        array = node.args[0].id
        offset_node = keywords["offset"]
        offset = _ints(eval(ast.unparse(offset_node), {}, last))  # the far corner
        if node.func.attr == "tile_load":
            extent = _ints(eval(ast.unparse(keywords["shape"])))
        elif isinstance(node.args[1], ast.Call):  # a reduction: one element
            extent = [1] * len(offset)
        else:
            terms = offset_node.elts if isinstance(offset_node, ast.Tuple) else [offset_node]
            extent = [t.right.value for t in terms]  # `i * 16`: tiles of 16 along this axis
            assert tuple(sorted(extent)) in loaded, (ast.unparse(node), loaded)
        assert len(extent) == len(offset) == len(shapes[array]), ast.unparse(node)
        accesses.append((node.func.attr, array, [o + e for o, e in zip(offset, extent, strict=True)], shapes[array]))
    return accesses


def _ints(value: int | tuple[int, ...]) -> list[int]:
    return [value] if isinstance(value, int) else list(value)


@pytest.mark.slow
def test_tile_programs_generate_code_and_stay_in_bounds(tile_programs: list) -> None:
    """Codegen for each program's own block_dim; every tile access lies inside its array."""
    failures, ops = [], Counter()
    for seed, program in zip(TILE_SEEDS, tile_programs, strict=True):
        assert program.category == "tile" and program.launch_tiled and program.block_dim in (32, 64, 128, 256)
        try:
            texts = extraction.extract(program.source, program.kernel_name, block_dim=program.block_dim)
        except ExtractionError as e:
            failures.append((seed, str(e)[:200]))
            continue
        assert f"#define WP_TILE_BLOCK_DIM {program.block_dim}\n" in extraction.translation_unit(texts, "cuda")
        accesses = _tile_accesses(program)
        assert {"tile_load", "tile_store"} <= {call for call, *_ in accesses}
        for call, array, end, shape in accesses:
            assert all(e <= n for e, n in zip(end, shape, strict=True)), (seed, call, array, end, shape)
        ops.update(re.findall(r"wp\.(tile_\w+)\(", program.source))
    assert failures == []
    assert {"tile_map", "tile_reduce", "tile_sum", "tile_broadcast", "tile_transpose", "tile_extract"} <= set(ops)
    assert not {"tile_matmul", "tile_cholesky", "tile_fft", "tile"} & set(ops)  # self-contained code only
    assert len({p.block_dim for p in tile_programs}) == 4 and len({len(p.launch_dim) for p in tile_programs}) == 2


@pytest.mark.slow
def test_tile_kernels_compile_with_nvrtc_and_run_on_cpu(tmp_path) -> None:
    """A sample of tile rows: one NVRTC batch per block_dim, then CPU launches with finite, input-dependent outputs."""
    from warp_cuda_ir.validation import compile_cuda, execute

    sample = [rows.make_row(s, ("tile",)) for s in range(8)]
    assert len({r["block_dim"] for r in sample}) > 1  # the batch is split by block_dim
    results = compile_cuda.compile_rows(sample, extraction.DEFAULT_CUDA_ARCH, tmp_path)
    assert [r.status for r in results] == ["ok"] * len(sample), [r.log for r in results if r.log]
    for row in sample[:2]:  # ~3-6 s each: Clang compiles Warp's tile headers
        run = execute.validate_cpu(row)
        assert (run.compile_status, run.run_status) == ("ok", "ok"), run.error
        assert all(np.isfinite(v).all() for v in run.results.values())
        assert not all(s.degenerate for s in run.output_stats), (row["seed"], run.output_stats)
