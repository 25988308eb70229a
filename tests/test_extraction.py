"""Extraction: real Warp codegen, exact slices, determinism, no leaks.

These tests also pin the private Warp API we use (ModuleBuilder, codegen_kernel,
codegen_module, the module headers): a Warp upgrade that changes it fails here first.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import ROOT
from warp_cuda_ir import extraction, warp_session
from warp_cuda_ir.errors import ExtractionError

SOURCE = """import warp as wp

@wp.func
def blend(a: float, b: float):
    return a * b + wp.sin(a)

@wp.struct
class Params:
    scale: float
    count: int

@wp.kernel
def integrate(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), p: Params):
    i = wp.tid()
    x[i] = blend(x[i], p.scale) + wp.length(v[i])
"""


def full_module(source: str, target: str, block_dim: int = extraction.CUDA_BLOCK_DIM) -> str:
    """The module text Warp itself generates for a launch of `block_dim` (CPU: Warp's CPU launch uses 1)."""
    from warp._src import context

    kernel, _ = warp_session.load_kernel(source)
    try:
        options = dict(kernel.module.options, output_arch=extraction.DEFAULT_CUDA_ARCH)
        options["block_dim"] = block_dim if target == "cuda" else 1
        builder = context.ModuleBuilder(kernel.module, options, target=target)
        return builder.codegen(target)
    finally:
        warp_session.release()


NO_ARGUMENTS = """import warp as wp

@wp.kernel
def tick():
    i = wp.tid()
    x = wp.sin(float(i))
"""


TILE = """import warp as wp

@wp.func
def soften(x: float, y: float):
    return wp.tanh(x * y + 0.5)

@wp.kernel
def tiles(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), c: wp.array2d(dtype=float), s: wp.array(dtype=float)):
    i, j = wp.tid()
    ta = wp.tile_load(a, shape=(4, 8), offset=(i * 4, j * 8))
    tb = wp.tile_transpose(wp.tile_load(b, shape=(8, 4), offset=(j * 8, i * 4)))
    t = wp.tile_map(soften, ta, tb) - wp.tile_broadcast(wp.tile_max(ta), shape=(4, 8))
    wp.tile_store(c, t, offset=(i * 4, j * 8))
    wp.tile_atomic_add(s, wp.tile_sum(t), offset=0)
"""


# Tiles whose shape is the block's (`wp.tile(x)`: one value per thread), in a helper and in the kernel: Warp
# fixes the shape when it builds the function, so the CPU code (blocks of one thread) needs a build of its own.
BLOCK_TILE = """import warp as wp

@wp.func
def block_total(v: float):
    return wp.tile_sum(wp.tile(v))[0]

@wp.kernel
def totals(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i, lane = wp.tid()
    v = x[i]
    out[i] = block_total(v) + wp.tile_sum(wp.tile(v * 2.0))[0]
"""


@pytest.mark.parametrize(
    ("source", "block_dim"),
    [(SOURCE, 256), (NO_ARGUMENTS, 256), (TILE, 64), (TILE, 128), (BLOCK_TILE, 64)],
    ids=["helpers_and_struct", "no_arguments", "tile_block_64", "tile_block_128", "tile_shaped_by_block"],
)
@pytest.mark.parametrize("target", ["cuda", "cpu"])
def test_row_texts_rebuild_warps_module_exactly(source: str, block_dim: int, target: str) -> None:
    texts = extraction.extract(source, block_dim=block_dim)
    expected = full_module(source, target, block_dim)
    assert extraction.translation_unit(texts, target) == expected
    # A row (a dict) rebuilds it from its own `block_dim` column.
    row = {**texts.__dict__, "block_dim": block_dim}
    assert extraction.translation_unit(row, target) == expected
    assert f"#define WP_TILE_BLOCK_DIM {block_dim if target == 'cuda' else 1}\n" in expected
    assert "kernel_forward" not in texts.cuda_helpers + texts.cpu_helpers


QUOTED = """import warp as wp


@wp.kernel
def scale_quoted(p: "wp.array(dtype=wp.vec3)", s: "float"):
    i = wp.tid()
    p[i] = p[i] * s
"""


def test_a_text_without_future_annotations_loads_as_python_runs_it() -> None:
    """Quoted annotations and no `from __future__ import annotations`, as a user's script writes them: Python
    keeps each string once and Warp reads it. The loader must not lend the text this package's own future
    import, which quoted them again (Warp: "Unrecognized type 'wp.array(dtype=wp.vec3)'")."""
    texts = extraction.extract(QUOTED)
    assert "wp::array_t<wp::vec_t<3, wp::float32>> var_p," in texts.cuda_forward


def test_cuda_module_of_a_tile_kernel_follows_the_block_dim() -> None:
    """Only the CUDA module depends on block_dim: the CPU texts are those of Warp's CPU launch (1)."""
    small, large = extraction.extract(TILE, block_dim=32), extraction.extract(TILE, block_dim=256)
    assert extraction.translation_unit(small, "cuda") != extraction.translation_unit(large, "cuda")
    assert extraction.translation_unit(small, "cpu") == extraction.translation_unit(large, "cpu")
    assert (small.cuda_options["block_dim"], small.cpu_options["block_dim"]) == (32, 1)


def test_texts_are_split_at_function_boundaries() -> None:
    t = extraction.extract(SOURCE)
    assert t.kernel_name == "integrate" and t.kernel_symbol.startswith("integrate_")
    assert t.cuda_forward.lstrip().startswith(f'extern "C" __global__ void {t.kernel_symbol}_cuda_kernel_forward(')
    assert t.cuda_backward.startswith(f'extern "C" __global__ void {t.kernel_symbol}_cuda_kernel_backward(')
    assert "_cuda_kernel_backward" not in t.cuda_forward
    assert t.cpu_backward.startswith("template <bool wp_linear_contiguous>\nstatic void ")
    assert f"WP_API void {t.kernel_symbol}_cpu_forward(" in t.cpu_forward
    assert f"WP_API void {t.kernel_symbol}_cpu_backward(" in t.cpu_backward
    for helpers in (t.cuda_helpers, t.cpu_helpers):
        assert "struct Params_" in helpers and "blend_0(" in helpers and "adj_blend_0(" in helpers
        assert "#include" not in helpers  # the prelude is not part of the row


def test_builtin_helpers_are_included() -> None:
    source = SOURCE.replace("wp.length(v[i])", "wp.norm_l2(v[i])")
    t = extraction.extract(source)
    assert "norm_l2_0(" in t.cuda_helpers and "norm_l2_0(" in t.cuda_forward


def test_helper_names_do_not_depend_on_what_ran_before() -> None:
    first = extraction.extract(SOURCE)
    for _ in range(3):
        extraction.extract(SOURCE.replace("blend", "other"))
    assert extraction.extract(SOURCE) == first


@pytest.mark.slow
def test_output_is_identical_across_processes() -> None:
    code = (
        "import sys, json, hashlib; sys.path.insert(0, sys.argv[1]);"
        "from warp_cuda_ir import extraction;"
        "from tests.test_extraction import SOURCE;"
        "t = extraction.extract(SOURCE);"
        "print(hashlib.sha256(json.dumps(t.__dict__, sort_keys=True).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code, str(ROOT)],
            env={"PYTHONHASHSEED": str(seed), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout.strip()
        for seed in (1, 2)
    }
    t = extraction.extract(SOURCE)
    import hashlib

    here = hashlib.sha256(json.dumps(t.__dict__, sort_keys=True).encode()).hexdigest()
    assert digests == {here}


def test_modules_are_released_after_each_sample() -> None:
    import linecache

    from warp._src import context

    before = len(context.user_modules)
    for i in range(20):
        extraction.extract(SOURCE.replace("integrate", f"integrate{i}"))
    assert len(context.user_modules) == before
    assert warp_session.SOURCE_FILENAME not in linecache.cache
    assert warp_session.MODULE_NAME not in sys.modules


NAMED = """import warp as wp

wp.set_module_options({"enable_backward": False}, module="shared_by_tests")


@wp.kernel(module="shared_by_tests")
def NAME(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = a[i] * FACTOR
"""


def test_a_kernel_in_a_named_module_meets_no_earlier_samples_kernel() -> None:
    """Samples whose kernels declare one module name (warp-lang's cholesky tests share
    `module="test_cholesky_fwd"`): each one's texts are what it gives alone, its backward included, and no
    module of theirs outlives the sample (one row's CUDA held another's kernel, and lost its backward)."""
    from warp._src import context

    first, second = NAMED.replace("NAME", "scale_a").replace("FACTOR", "2.0"), NAMED.replace("NAME", "scale_b")
    second = second.replace("FACTOR", "3.0")
    alone = extraction.extract(second, force_backward=True)
    before = set(context.user_modules)
    extraction.extract(first, force_backward=True)
    after = extraction.extract(second, force_backward=True)
    assert after == alone and "scale_a" not in after.cuda_forward and after.cuda_backward
    assert set(context.user_modules) == before and "shared_by_tests" not in context.user_modules


FILL = """import warp as wp

@wp.kernel
def fill(a: wp.array(dtype=float)):
    a[wp.tid()] = VALUE
"""


@pytest.mark.slow
def test_every_sample_gets_its_own_cpu_code_handle() -> None:
    """Warp names a CPU executable `wp_<module>_<n>`, counting per Module object; our samples all
    share one module name, and an earlier sample's executable, freed late by the collector, unloads
    by that name (the likely cause of rare "Symbols not found" launch failures in long runs)."""
    import warp as wp

    handles = []
    for value in ("1.0", "2.0", "3.0"):
        with warp_session.loaded_kernel(FILL.replace("VALUE", value)) as (kernel, _):
            kernel.module.load(wp.get_device("cpu"), block_dim=extraction.CPU_BLOCK_DIM)
            handles += [e.handle for e in kernel.module.execs.values()]
            out = wp.zeros(4, dtype=float, device="cpu")
            wp.launch(kernel, dim=4, inputs=[out], device="cpu")
            assert out.numpy().tolist() == [float(value)] * 4
    assert len(handles) == len(set(handles)) == 3, handles


def test_released_sample_modules_are_freed() -> None:
    """Warp's own modules a sample calls into keep it in their `dependents` set unless released;
    kept modules made every later sample slower."""
    import gc
    import weakref

    from warp_cuda_ir.synthesis import CATEGORIES, synthesize

    alive = []
    for seed in range(40):
        program = synthesize(seed, CATEGORIES)
        with warp_session.loaded_kernel(program.source, program.kernel_name) as (kernel, namespace):
            alive.append(weakref.ref(kernel.module))
        del kernel, namespace
    gc.collect()
    assert [ref() for ref in alive].count(None) == len(alive)


def test_warps_registry_is_frozen_out_of_the_collector_after_init() -> None:
    import gc

    from warp._src import context

    warp_session.init_warp()
    # Warp's built-ins and their overloads live for the whole process; full collections skip them.
    overloads = sum(len(getattr(f, "overloads", ())) for f in context.builtin_functions.values())
    assert gc.get_freeze_count() > overloads > 0


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("import warp as wp\n", "expected exactly one @wp.kernel"),
        ("this is not python", "source does not execute"),
        (SOURCE.replace("x[i] = blend", "x[i] = undefined_fn"), "Warp codegen failed"),
        (SOURCE.replace("x[i] = blend(x[i], p.scale)", "x[i] = v[i]"), "Warp codegen failed"),
    ],
)
def test_bad_source_raises_extraction_error(source: str, message: str) -> None:
    with pytest.raises(ExtractionError, match=message) as info:
        extraction.extract(source)
    assert "\n" not in str(info.value)
    from warp._src import context

    assert warp_session.MODULE_NAME not in context.user_modules
