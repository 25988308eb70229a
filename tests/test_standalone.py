"""Standalone programs: the digest both sides print, the CPU twin against Warp, nvcc, bad input."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tests.helpers import TILE_STACKS, compile_only_row, cpu_twin_lines, make_cuda
from warp_cuda_ir import extraction, rows, schema, synthesis, warp_session
from warp_cuda_ir.standalone import batch, device_headers, device_shim, program, program_columns, stage
from warp_cuda_ir.standalone.digest import CPP_DIGEST, digest_line, digest_lines
from warp_cuda_ir.standalone.reference import reference_run

CXX = shutil.which("g++")
NVCC = shutil.which("nvcc")
needs_cxx = pytest.mark.skipif(CXX is None, reason="no g++ on this machine")
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc not on PATH (the nvidia-cuda-nvcc wheel provides it)")

# Seeds whose rows (generator as of this commit) are a nested loop with vec3, a mat22 kernel, scalar parameters
# with float64, and a tiled float64 kernel.
TWIN_SEEDS = (3, 5, 8, 17)


def _row(seed: int) -> dict:
    return rows.make_row(seed, list(synthesis.CATEGORIES))


def _tools(nvcc: str | None = NVCC, cxx: str | None = CXX) -> stage.Tools:
    return stage.Tools(nvcc, cxx, program.warp_native_dir())


# The C++ digest over arrays chosen for the edge cases: -0.0 first, NaN, infinities, float16
# subnormals, integers, bools, an empty array.
DIGEST_CASES = {
    "negzero": np.array([-0.0], dtype=np.float32),
    "f32": np.array([-0.0, 1.5, -2.25, 3.0e-8, 7.0], dtype=np.float32),
    "nan": np.array([1.0, np.nan, -np.inf, 2.0], dtype=np.float32),
    "inf": np.array([np.inf, 1.0], dtype=np.float64),
    "f64": np.random.default_rng(0).normal(size=37),
    "f16": np.array([0.0, 6.0e-8, -1.0e-5, 65504.0, -0.0], dtype=np.float16),
    "i32": np.array([-3, 0, 2**31 - 1, -(2**31)], dtype=np.int32),
    "i64": np.array([2**40, -7], dtype=np.int64),
    "u8": np.array([0, 1, 1, 0, 1], dtype=np.bool_),
    "empty": np.zeros(0, dtype=np.float32),
    # NaNs with another sign or payload (x86's default NaN is negative; Clang folds sqrt(-1) to another NaN
    # than g++ computes at run time): C++ leaves their bits unspecified, so they digest as numpy's NaN.
    "nanbits32": np.array([0xFFC00000, 0x7FC00001, 0x3F800000], dtype=np.uint32).view(np.float32),
    "nanbits16": np.array([0xFE00, 0x7E01, 0x3C00], dtype=np.uint16).view(np.float16),
    "nanbits64": np.array([0xFFF8000000000000, 0x7FF0000000000001], dtype=np.uint64).view(np.float64),
}
C_TYPES = {"f4": "float", "f8": "double", "f2": "wp_half_bits", "i4": "int32_t", "i8": "int64_t", "b1": "uint8_t"}


@needs_cxx
def test_cpp_digest_prints_what_python_computes(tmp_path: Path) -> None:
    """Both sides of the digest definition, compared on edge cases (quick: no Warp header)."""
    lines = [
        "#include <cmath>",
        "#include <cstdint>",
        "#include <cstdio>",
        "#include <cstring>",
        CPP_DIGEST,
        "int main() {",
    ]
    for name, values in DIGEST_CASES.items():
        c_type = C_TYPES[values.dtype.str[1:]]
        raw = ", ".join(str(b) for b in values.tobytes()) or "0"
        lines.append(f"    static const unsigned char {name}[] = {{{raw}}};")
        lines.append(f'    wp_digest<{c_type}>("output", "{name}", {name}, {values.size});')
    lines.append("    return 0;\n}")
    source = tmp_path / "digest.cpp"
    source.write_text("\n".join(lines))
    subprocess.run([CXX, "-std=c++17", "-O0", "-o", str(tmp_path / "digest"), str(source)], check=True)
    printed = subprocess.run([str(tmp_path / "digest")], capture_output=True, text=True, check=True).stdout
    expected = [digest_line("output", name, values) for name, values in DIGEST_CASES.items()]
    assert printed.splitlines() == expected
    assert expected[0].split()[4:] == ["-0", "0", "0"]  # the sum keeps -0.0, |x| does not
    assert "nan" in expected[2] and "inf" in expected[3]
    canonical = {k: np.where(np.isnan(v), np.nan, v).astype(v.dtype) for k, v in DIGEST_CASES.items() if "bits" in k}
    assert all(digest_line("output", k, v) == digest_line("output", k, DIGEST_CASES[k]) for k, v in canonical.items())


def test_missing_compilers_skip_their_stages_with_one_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(stage.NVCC_ENV, str(tmp_path / "no-such-nvcc"))
    monkeypatch.setenv(stage.CXX_ENV, str(tmp_path / "no-such-g++"))
    tools = stage.find_tools()
    assert tools.nvcc is None and tools.cxx is None
    row = {"kernel_symbol": "k", "launch_dim": [4], "arguments": [], "cuda_program": "", "cpu_program": ""}
    out = stage.run_stage([("a", row, None)], tmp_path / "work", tools, "no GPU")
    columns = out["a"]
    assert columns["standalone_nvcc_status"] == "skipped"
    assert columns["standalone_nvcc_skip_reason"] == schema.NVCC_NOT_FOUND
    assert columns["standalone_gpu_run_skip_reason"] == schema.NVCC_NOT_FOUND
    assert columns["standalone_cpu_compile_skip_reason"] == schema.CXX_NOT_FOUND
    assert columns["standalone_cpu_run_skip_reason"] == schema.CXX_NOT_FOUND
    for name in schema.STANDALONE_STAGES:
        assert columns[f"{name}_skip_reason"] in schema.SKIP_REASONS


def test_what_the_kernel_prints_is_not_compared_with_the_digest() -> None:
    """A kernel's own prints (a failed `wp.expect_eq` in a test kernel of warp-lang) beside the digest lines."""
    line = digest_line("output", "x", np.arange(3, dtype=np.float32))
    printed = f"Error, expect_eq() failed:\n\t Expected: 2\n\t Actual: 0\n{line}\noutput of step 3\n"
    assert digest_lines(printed) == [line]


def test_a_signalling_nan_is_digested_without_a_warning() -> None:
    # An uninitialised float read by Warp's backward can hold a signalling NaN: widening it raised numpy's
    # "invalid value encountered in cast" onto the console of the validation pass.
    signalling = np.array([0x7F800001], dtype=np.uint32).view(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        line = digest_line("adjoint", "x", signalling)
    assert line.split()[2:] == ["1", line.split()[3], "nan", "nan", "nan"]


def test_progression_runs_hold_the_bits_and_give_up_on_noise() -> None:
    """Runs go one component column at a time, in wrapping unsigned words (a float's bits, NaN payloads and -0.0
    kept), a byte's count splits at 255; noise is refused before any loop, by its blocks of equal steps alone."""
    from warp_cuda_ir.standalone.values import progression_runs

    i = np.arange(4096, dtype=np.int32)
    grid = np.stack([i // 256, (i // 16) % 16, i % 16], axis=1)
    runs = progression_runs(grid, 3)
    assert runs is not None and runs.dtype == np.uint32 and runs.size == 3 * (16 + 256 + 256)
    floats = np.full(600, 0.5, dtype=np.float32)
    floats[[3, 4]] = (np.uint32(0x7FC12345).view(np.float32), -0.0)
    words = progression_runs(floats, 1).reshape(-1, 3)
    expanded = np.concatenate([(f + s * np.arange(c, dtype=np.uint64)).astype(np.uint32) for c, f, s in words])
    assert expanded.tobytes() == floats.tobytes()
    assert progression_runs(np.full(600, 7, dtype=np.uint8), 1).tolist() == [255, 7, 0, 255, 7, 0, 90, 7, 0]
    noise = np.random.default_rng(0).random(10_000, dtype=np.float32)
    assert progression_runs(noise, 1, at_most=noise.size - 1) is None


def test_batch_refuses_text_it_did_not_write() -> None:
    with pytest.raises(ValueError):
        batch.batch_from_programs(["int main() { return 0; }"], "cpu")


def test_rows_without_a_launch_record_get_programs_that_say_so() -> None:
    row = dict(_row(3), launch_dim=None, arguments=None)
    columns = program_columns(row)
    assert 'printf("not run: no launch record\\n")' in columns["cpu_program"]
    assert row["kernel_symbol"] + "_cuda_kernel_forward" in columns["cuda_program"]
    assert columns["makefile"] == program.MAKEFILE


@pytest.mark.slow
@needs_cxx
@pytest.mark.parametrize("seed", TWIN_SEEDS)
def test_cpu_twin_built_by_its_makefile_prints_warps_cpu_digests(seed: int, tmp_path: Path) -> None:
    """The row's columns copied out, `make cpu`, run: the lines of Warp's own CPU launch, forward and adjoint."""
    row = _row(seed)
    with warp_session.loaded_kernel(row["python_source"], row["kernel_name"]) as (kernel, namespace):
        _, expected = reference_run(row, kernel, namespace)
    assert any(line.startswith("output ") for line in expected)
    assert cpu_twin_lines(row, tmp_path / "row") == expected


@pytest.mark.slow
@needs_nvcc
@pytest.mark.parametrize(
    ("seed", "categories", "calls"),
    [
        (5, tuple(synthesis.CATEGORIES), ()),  # a plain kernel
        (0, ("tile",), ("tile_load",)),  # a tile kernel (dynamic shared memory launch, tile reductions)
        # Tile kernels calling functions Warp's headers define with no execution space (host-only for nvcc):
        (3, ("tile",), ("tile_sum",)),
        (1, ("tile",), ("tile_min", "tile_extract")),
    ],
)
def test_cuda_program_compiles_with_nvcc(
    seed: int, categories: tuple[str, ...], calls: tuple[str, ...], tmp_path: Path
) -> None:
    row = rows.make_row(seed, list(categories))
    assert all(re.search(rf"\bwp::{name}[(<]", row["cuda_forward"]) for name in calls)
    (tmp_path / "program.cu").write_text(row["cuda_program"])
    (tmp_path / "Makefile").write_text(row["makefile"])
    done = subprocess.run(["make", "-s", "cuda"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "program_cuda").exists()


@pytest.mark.slow
@needs_nvcc
def test_tile_rows_compile_together_in_one_nvcc_batch(tmp_path: Path) -> None:
    """Two tile rows in one batch, compiled as the pass compiles them (against the copy of Warp's headers)."""
    by_block: dict[int, list[dict]] = {}
    for seed in range(12):
        row = rows.make_row(seed, ["tile"])
        by_block.setdefault(row["block_dim"], []).append(row)
    pair = next(group[:2] for group in by_block.values() if len(group) >= 2)
    programs = [r["cuda_program"] for r in pair]
    text = batch.batch_from_programs(programs, "cuda")
    status, log = stage._compile(_tools(), "cuda", text, tmp_path, "batch", len(programs))
    assert status == "ok", log


# Tile maps and reductions nvcc rejected before the lambdas of Warp's tile macros were host-device (as in
# warp-lang's tile tests and newton's `compute_shape_local_bounds`): an op on a vector tile, an integer-vector
# op, a constant operand, a reduction of a vector tile.
TILE_MAPS = """
import warp as wp

vec5 = wp.types.vector(length=5, dtype=wp.float32)


@wp.kernel
def tile_maps(
    a: wp.array(dtype=vec5),
    b: wp.array(dtype=wp.vec3i),
    c: wp.array(dtype=wp.vec3i),
    out: wp.array(dtype=vec5),
    bits: wp.array(dtype=wp.vec3i),
    scaled: wp.array(dtype=wp.vec3),
    lowest: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    t = wp.tile_load(a, shape=(8,), offset=(i * 8,))
    wp.tile_store(out, wp.tile_map(wp.abs, t), offset=(i * 8,))
    tb = wp.tile_load(b, shape=(8,), offset=(i * 8,))
    tc = wp.tile_load(c, shape=(8,), offset=(i * 8,))
    wp.tile_store(bits, wp.tile_map(wp.bit_and, tb, tc), offset=(i * 8,))
    f = wp.tile_ones(shape=(8,), dtype=float)
    s = wp.tile_map(wp.mul, f, wp.vec3(1.0, 2.0, 3.0))
    wp.tile_store(scaled, s, offset=(i * 8,))
    wp.tile_atomic_add(lowest, wp.tile_reduce(wp.min, s))
"""


@pytest.mark.slow
@needs_nvcc
def test_tile_maps_and_reductions_compile_with_nvcc_through_host_device_lambdas(tmp_path: Path) -> None:
    """Warp's tile macros pass lambdas written in the kernel (device code) to tile functions that are host-device
    in the copy of the headers too: the program redefines the macros it calls with host-device lambdas."""
    row = compile_only_row(TILE_MAPS, "tile_maps")
    text = row["cuda_program"]
    macros = device_shim.map_macros(program.warp_native_dir(), extraction.translation_unit(row, "cuda"))
    assert "[] __host__ __device__ (auto x)" in macros and macros in text
    assert "#define tile_reduce(" in macros and "#define tile_reduce_axis(" not in macros  # only what the row calls
    done = make_cuda(tmp_path, text, program.makefile(row))
    assert done.returncode == 0, done.stderr[-2000:]
    without = make_cuda(tmp_path, text.replace(macros, ""), program.makefile(row))
    assert without.returncode != 0 and "tile_map" in without.stderr and "tile_reduce_impl" in without.stderr


SLICES_AND_BFLOAT16 = """
import warp as wp


@wp.struct
class Pair:
    half: wp.bfloat16
    full: wp.float32


@wp.func
def first_two(a: wp.array(dtype=float)):
    s = a[1:3]
    return s[0] + s[1]


@wp.kernel
def sliced(c: wp.array(dtype=float), h: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    p = Pair()
    p.full = first_two(c)
    h[i] = p.half
"""


@pytest.mark.slow
@needs_nvcc
def test_tile_stacks_compile_with_nvcc_alone_and_in_a_batch_against_the_copy(tmp_path: Path) -> None:
    """Warp's `~tile_stack_t()` has no execution space: against Warp's own headers a kernel holding a stack
    fails nvcc; against the copy it builds, alone (its Makefile) and in a batch with other tile rows (the pass),
    a stack of the row's own struct included."""
    row = compile_only_row(TILE_STACKS, "stacks")
    text = row["cuda_program"]
    own = make_cuda(tmp_path, text)
    assert own.returncode != 0 and "~tile_stack_t" in own.stderr
    done = make_cuda(tmp_path, text, program.makefile(row))
    assert done.returncode == 0, done.stderr[-2000:]
    other = TILE_STACKS.replace("def stacks(", "def stacks_again(").replace("capacity=32", "capacity=16")
    plain, again = compile_only_row(TILE_MAPS, "tile_maps", "p"), compile_only_row(other, "stacks_again", "a")
    source = batch.batch_from_programs([text, plain["cuda_program"], again["cuda_program"]], "cuda")
    status, log = stage._compile(_tools(), "cuda", source, tmp_path, "batch", 3)
    assert status == "ok", log


@pytest.mark.slow
@needs_nvcc
def test_host_code_reaching_warps_runtime_library_links_under_nvcc(tmp_path: Path) -> None:
    """A helper slicing an array (host form calls `_wp_assert`) and a struct with a bfloat16 field (its host
    constructor converts through Warp's runtime library): every CUDA program defines both stand-ins."""
    text = compile_only_row(SLICES_AND_BFLOAT16, "sliced", "s", block_dim=256)["cuda_program"]
    done = make_cuda(tmp_path, text)
    assert done.returncode == 0, done.stderr[-2000:]
    without = make_cuda(tmp_path, text.replace(program.HOST_ASSERT + program.HOST_BFLOAT16, ""))
    assert without.returncode != 0
    assert "undefined reference to `_wp_assert'" in without.stderr
    assert "undefined reference to `wp_bfloat16_bits_to_float'" in without.stderr


# Written as Warp's tile headers write code (tile.h): what nvcc must read as device code gets the mark, the rest not.
PLANTED_HEADER = """
namespace wp {
template <int... V> struct tuple_like {
    static constexpr int N = sizeof...(V);
    static constexpr int dim(int i) { return i; }
};
template <typename T> struct holder {
    struct Storage {
        T* ptr;
        Storage(T* p)
            : ptr(p)
        {
        }
    };
    static constexpr int Size = tuple_like<1>::dim(0);
    holder(const holder&) = delete;
    inline CUDA_CALLABLE holder() : data(nullptr) {}
    template <typename Op> void apply(Op op)
    {
        for (int i = 0; i < Size; ++i)
            op(i);
        auto f = [&](int j) { return j; };
        apply([&](int k) { f(k); });
    }
    inline CUDA_CALLABLE ~holder() { apply([](int) {}); }
    Storage data;
};
// a comment: void not_code(int x) {}
inline auto free_function(int i)
{
    return tuple_like<2>::dim(i);
}
inline CUDA_CALLABLE void marked(int i);
}
"""


def test_device_headers_mark_every_unmarked_function_head_and_nothing_else() -> None:
    """The heads nvcc reads as host code (a nested constructor, a static constexpr member function, a member
    template, a free function) get `__host__ __device__`; a variable's initializer, a deleted constructor, calls
    and lambdas inside bodies, marked functions and comments do not. Then Warp's own headers: the three forms
    measured on a GPU are marked, the tuple reads a local array, headers without tiles are unchanged."""
    marked = device_headers.device_form("tile_planted.h", PLANTED_HEADER)
    heads = [line.strip() for line in marked.splitlines() if "__host__ __device__" in line]
    assert heads == [
        "__host__ __device__ static constexpr int dim(int i) { return i; }",
        "__host__ __device__ Storage(T* p)",
        "template <typename Op> __host__ __device__ void apply(Op op)",
        "__host__ __device__ inline auto free_function(int i)",
    ]
    native = Path(program.warp_native_dir())
    tile = device_headers.device_form("tile.h", (native / "tile.h").read_text())
    for head in (
        "template <typename Op> __host__ __device__ void apply(Op op)",
        "__host__ __device__ tile_global_t(array_t<T>& a, const Coord& c)",
        "__host__ __device__ Storage(T* p)",
        "__host__ __device__ ~tile_stack_t()",
        "constexpr int values[N] = { V... }; return values[i];",
    ):
        assert head in tile, head
    assert "__host__ __device__ __host__" not in tile and "__host__ __device__ CUDA_CALLABLE" not in tile
    assert "    static constexpr int Size = Shape::size();" in tile  # a variable stays as it is
    assert tile.count("\n") == (native / "tile.h").read_text().count("\n")  # the Makefile edits by line
    builtin = (native / "builtin.h").read_text()
    assert device_headers.device_form("builtin.h", builtin) == builtin


@pytest.mark.slow
@needs_nvcc
def test_tile_programs_compile_to_working_device_code_against_the_copy(tmp_path: Path) -> None:
    """Against Warp's own headers nvcc turns a tile row's kernel into a `trap` or drops its loads and stores
    (the forward kernel keeps no global store); against the copy the forward stores its outputs and no trap is
    left. The row's Makefile makes the same copy from the installed warp-lang."""
    row = rows.make_row(0, ["tile"])
    native = program.warp_native_dir()
    flags = [f.replace("$(ARCH)", "90") for f in program.NVCCFLAGS]
    (tmp_path / "program.cu").write_text(row["cuda_program"])

    def device_code(headers: str) -> tuple[int, int]:
        done = subprocess.run(
            [NVCC, *flags, "-isystem", headers, "-ptx", "-o", "program.ptx", "program.cu"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        ptx = (tmp_path / "program.ptx").read_text()
        forward = ptx[ptx.index("_cuda_kernel_forward(") : ptx.index("_cuda_kernel_backward(")]
        return len(re.findall(r"^\s*trap;", ptx, re.M)), len(re.findall(r"\bst\.global\.", forward))

    traps, stores = device_code(native)
    assert traps > 0 or stores == 0
    traps, stores = device_code(device_headers.device_headers(native))
    assert traps == 0 and stores > 0
    (tmp_path / "Makefile").write_text(row["makefile"])
    done = subprocess.run(["make", "-s", "program_cuda"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    copy = Path(device_headers.device_headers(native))
    assert all((tmp_path / "wp_native" / h.name).read_bytes() == h.read_bytes() for h in copy.glob("tile*.h"))


def test_a_kernel_using_tiles_gets_dynamic_shared_memory_on_any_launch() -> None:
    """Warp gives a kernel that uses tiles its dynamic shared memory on `wp.launch` as on `wp.launch_tiled`.
    Offered only to tiled launches, the programs of untiled tile kernels (warp-lang's `tile_extract` and
    `tile_assign` tests, newton's bounds kernels) wrote past their shared memory on an H200 (memcheck)."""
    row = rows.make_row(0, ["tile"])
    untiled = program_columns({**row, "launch_tiled": False})["cuda_program"]
    symbol = row["kernel_symbol"]
    for text in (row["cuda_program"], untiled):
        for direction in ("forward", "backward"):
            assert f"cudaFuncSetAttribute({symbol}_cuda_kernel_{direction}, cudaFuncAttributeMaxDynamic" in text
            assert re.search(rf"{symbol}_cuda_kernel_{direction}<<<\d+, \d+, wp_smem>>>", text)
    plain = _row(3)  # no tile function: no dynamic shared memory asked for
    assert not program.calls_tiles(plain) and "wp_smem" not in plain["cuda_program"]


def test_a_tile_rows_makefile_makes_the_copy_and_refuses_other_headers(tmp_path: Path) -> None:
    """The Makefile's own recipe (cp, sha256sum, sed) gives the copy the pass compiles against, byte for byte;
    headers of another Warp stop it with one line and leave no copy behind. Rows without tiles keep the plain
    Makefile."""
    row = rows.make_row(0, ["tile"])
    assert row["makefile"] != program.MAKEFILE and _row(5)["makefile"] == program.MAKEFILE
    native = Path(program.warp_native_dir())
    (tmp_path / "Makefile").write_text(row["makefile"])
    done = subprocess.run(["make", "-s", "wp_native/aot.h"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    copy = Path(device_headers.device_headers(str(native)))
    assert sorted(p.name for p in (tmp_path / "wp_native").iterdir()) == sorted(p.name for p in copy.iterdir())
    assert all((tmp_path / "wp_native" / p.name).read_bytes() == p.read_bytes() for p in copy.glob("*.h"))
    other = tmp_path / "other_warp"
    shutil.copytree(native, other / "native")
    with (other / "native" / "tile_scan.h").open("a") as header:
        header.write("// another version\n")
    shutil.rmtree(tmp_path / "wp_native")
    done = subprocess.run(
        ["make", "-s", "wp_native/aot.h", f"WARP_PATH={other}"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert done.stdout.strip() == "error: these programs need the tile headers of the warp-lang they were made with"
    assert not (tmp_path / "wp_native").exists() and not (tmp_path / "wp_native.tmp").exists()
    # A machine without sha256sum: said so, in one line.
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("cp", "rm", "sed", "mv"):
        (tools / tool).symlink_to(shutil.which(tool))
    done = subprocess.run(
        [shutil.which("make"), "-s", "wp_native/aot.h", f"WARP_PATH={native.parent}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": str(tools)},
    )
    assert done.returncode != 0
    assert done.stdout.strip() == "error: sha256sum (GNU coreutils) is needed to check the headers"


def test_a_twin_that_prints_other_lines_says_which_and_why_where_known() -> None:
    """Only adjoint lines differ in a row whose backward reads an atomic's result: the reason says so."""
    reference = ["output out 2 0123456789abcdef 1 1 1", "adjoint x 2 0123456789abcdef 1 1 1"]
    ours = [reference[0], "adjoint x 2 fedcba9876543210 2 2 2"]
    flagged = {"adjoint_hazards": ["atomic_result:counter"]}
    assert stage.how_it_differs(ours, reference, flagged) == (
        f"{stage.DIFFERENT_LINES}: adjoint x; {stage.ATOMIC_RESULT} (atomic_result:counter)"
    )
    assert stage.how_it_differs(ours, reference, {"adjoint_hazards": []}) == f"{stage.DIFFERENT_LINES}: adjoint x"
    assert stage.how_it_differs(ours[:1], reference, flagged).endswith(
        "it printed output out, Warp's launch output out, adjoint x"
    )


@pytest.mark.slow
@needs_cxx
def test_a_failing_program_marks_only_its_own_row(tmp_path: Path) -> None:
    """One row does not compile, one crashes, one is fine, one has no reference digest, one prints other lines
    than its reference: the batch is split and each row keeps its verdict."""
    good, broken, crashing = _row(3), _row(8), _row(12)
    broken["cpu_program"] = broken["cpu_program"].replace("int main() {", "int main() {\n    this is not C++;", 1)
    crashing["cpu_program"] = crashing["cpu_program"].replace("int main() {", "int main() {\n    __builtin_trap();", 1)
    items = []
    for key, row in (("good", good), ("broken", broken), ("crashing", crashing)):
        with warp_session.loaded_kernel(row["python_source"], row["kernel_name"]) as (kernel, namespace):
            items.append((key, row, reference_run(row, kernel, namespace)[1]))
    items.append(("unreferenced", good, None))  # Warp's own launch gave no digest: nothing to compare with
    call = f"    {good['kernel_symbol']}_cpu_backward(&dim"  # a backward that crashes, in a row flagged atomic_result
    trapped = {**good, "cpu_program": good["cpu_program"].replace(call, "    __builtin_trap();\n" + call, 1)}
    items.append(("backward_crash", trapped | {"adjoint_hazards": ["atomic_result:x"]}, items[0][2]))
    kind, name = items[0][2][-1].split(" ", 2)[:2]
    items.append(("other", good, [*items[0][2][:-1], f"{kind} {name} 0 {'0' * 16} 0 0 0"]))  # one line changed
    out = stage.run_stage(items, tmp_path / "work", _tools(nvcc=None), "no GPU")
    assert out["other"]["standalone_cpu_run_status"] == "ok" and out["other"]["standalone_cpu_matches_warp"] is False
    assert out["other"]["standalone_cpu_run_error"] == f"{stage.DIFFERENT_LINES}: {kind} {name}"
    assert out["good"]["standalone_cpu_run_error"] is None
    crash = out["backward_crash"]["standalone_cpu_run_error"]
    assert crash.endswith(f": {stage.BACKWARD_CRASHED}; {stage.ATOMIC_RESULT} (atomic_result:x)"), crash
    assert out["unreferenced"]["standalone_cpu_compile_status"] == "ok"
    assert out["unreferenced"]["standalone_cpu_run_skip_reason"] == schema.NO_REFERENCE
    assert out["unreferenced"]["standalone_cpu_matches_warp"] is None
    assert out["good"]["standalone_cpu_compile_status"] == "ok"
    assert out["good"]["standalone_cpu_run_status"] == "ok"
    assert out["good"]["standalone_cpu_matches_warp"] is True
    assert out["broken"]["standalone_cpu_compile_status"] == "error"
    assert "this is not C++" in out["broken"]["standalone_cpu_compile_error"]
    assert out["broken"]["standalone_cpu_run_skip_reason"] == schema.DID_NOT_COMPILE
    assert out["crashing"]["standalone_cpu_compile_status"] == "ok"
    assert out["crashing"]["standalone_cpu_run_status"] == "error"
    assert out["crashing"]["standalone_cpu_matches_warp"] is None
    assert out["good"]["standalone_nvcc_skip_reason"] == schema.NVCC_NOT_FOUND


def test_no_standalone_marks_the_stage_skipped_and_keeps_the_rest(tmp_path: Path) -> None:
    """`--no-standalone`: the option reaches the pass, which skips only its own columns, with that reason."""
    import argparse

    from warp_cuda_ir.cli import add_validation_arguments, validation_options
    from warp_cuda_ir.validation import stages
    from warp_cuda_ir.validation.runner import Progress

    parser = argparse.ArgumentParser()
    add_validation_arguments(parser)
    options = validation_options(parser.parse_args(["--no-standalone"]))
    assert options.standalone is False and validation_options(parser.parse_args([])).standalone is True
    settings = stages.Settings(90, schema.NO_GPU, {}, standalone=options.standalone)
    columns = {"cpu_run_status": "ok"}
    worker = SimpleNamespace(note=lambda record: None)  # the step needs no compiler when it is disabled
    stages.RUNS["programs"](worker, settings, [{"id": "a"}], [columns], [0])  # type: ignore[arg-type]
    progress = Progress(tmp_path, {"test": 1})
    try:
        progress.add("train.parquet", "a", columns)
    finally:
        progress.close()
    assert columns["cpu_run_status"] == "ok"
    for name in schema.STANDALONE_STAGES:
        assert columns[f"{name}_status"] == "skipped"
        assert columns[f"{name}_skip_reason"] == schema.STANDALONE_DISABLED
    assert Progress(tmp_path, {"test": 1}).load("train.parquet")["a"] == columns  # resumable


@needs_cxx
def test_cuda_programs_host_half_conversions_round_as_numpy(tmp_path: Path) -> None:
    """The float16 conversions a CUDA program defines for its host code (Warp's runtime library has them; one
    program of 639, seed 100,678 of meaning-1, failed to link without them), against numpy on edge cases."""
    start = program.CUDA_SUPPORT.index('extern "C" uint16_t wp_float_to_half_bits')
    end = program.CUDA_SUPPORT.index(program.HOST_ASSERT)  # the half conversions end where the assert begins
    rng = np.random.default_rng(0)
    edges = [0.0, -0.0, 65504.0, 65519.99, 65520.0, 1e6, np.inf, -np.inf, 2**-25, 2**-24, 3 * 2**-26, 2**-14]
    values = np.concatenate([rng.normal(size=4000) * 10 ** rng.uniform(-9, 6, 4000), edges]).astype(np.float32)
    values.tofile(tmp_path / "in.bin")
    main = (
        "#include <cstdint>\n#include <cstdio>\n#include <cstring>\n"
        + program.CUDA_SUPPORT[start:end]
        + 'int main() { FILE* f = fopen("in.bin", "rb"); float v;\n'
        + "  while (fread(&v, 4, 1, f) == 1) {\n"
        + "    uint16_t h = wp_float_to_half_bits(v); float b = wp_half_bits_to_float(h);\n"
        + '    uint32_t u; memcpy(&u, &b, 4); printf("%u %u\\n", h, u); } }\n'
    )
    (tmp_path / "t.cpp").write_text(main)
    subprocess.run([str(CXX), "-O0", "-o", str(tmp_path / "t"), str(tmp_path / "t.cpp")], check=True)
    out = subprocess.run([str(tmp_path / "t")], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    got = np.array([[int(x) for x in line.split()] for line in out.splitlines()])
    with np.errstate(over="ignore"):
        half = values.astype(np.float16)
    assert (got[:, 0] == half.view(np.uint16)).all()
    assert (got[:, 1] == half.astype(np.float32).view(np.uint32)).all()
