"""Text of a row's standalone programs: Warp's generated code plus a host `main()`, and the Makefile.

The CUDA program is `#include "aot.h"` (Warp's header for C++ programs that include generated code),
the row's whole CUDA module (helpers, forward, backward: `extraction.translation_unit`), the row's
input values as C arrays, and a `main()` that allocates every argument, launches the forward kernel,
prints a digest of every output, launches the backward kernel with seeded output adjoints and prints
a digest of every input adjoint (`digest.py` defines the lines). The CPU twin is the same over the
row's CPU module, built with the system C++ compiler: it defines the two symbols Warp's runtime
library would otherwise provide (`_wp_assert`, `wp_cpu_run_block`) and calls the CPU entry points.

Argument types are never spelled out here: the CUDA program takes them from the kernel's own
signature (`decltype`), the CPU one from Warp's argument struct, so structs, vectors and matrices
need no mapping from Python types to C++ ones. Values travel as bytes of their storage type, checked
against the C++ type's size at compile time.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from warp_cuda_ir import extraction
from warp_cuda_ir.standalone import device_headers, device_shim
from warp_cuda_ir.standalone.digest import CPP_DIGEST
from warp_cuda_ir.standalone.values import SEED_FORMULA, ArgumentValue, seeds_by_formula
from warp_cuda_ir.warp_session import uses_tiles

CUDA_FILE = "program.cu"
CPU_FILE = "program.cpp"
# Compiler flags, in the Makefile and in the validation pass. The CPU twin is built without optimisation:
# measured, it compiles in ~1.1 CPU-s instead of ~2.2 at -O2, and g++ -O2 changed one row's results of the
# first 40 (seed 10: its `state` output differs from Warp's CPU launch, while -O0 and -O1 agree with it).
# nvcc: what Warp's own NVRTC compile implies for this code. Warp compiles with
# --device-as-default-execution-space, under which the constexpr lambdas of tile kernels are device code;
# nvcc needs --expt-relaxed-constexpr for them (without it, every tile row failed), and --extended-lambda for
# the host-device lambdas of the tile-map macros (`device_shim.map_macros`); tile rows compile against a copy
# of Warp's headers (`device_headers`). NDEBUG as in Warp's release builds; 177/550 are the "declared/set but
# never used" warnings Warp silences too.
NVCCFLAGS: tuple[str, ...] = (
    "-std=c++17",
    "-arch=sm_$(ARCH)",
    "--expt-relaxed-constexpr",
    "--extended-lambda",
    "-DNDEBUG",
    "--diag-suppress=177,550",
)
# NDEBUG for the CPU twin too: Warp's Clang compiles its CPU kernels with it outside debug mode, so their array
# bounds asserts are off; without it, 11 of 420 replayed real rows' twins stopped at an assert (SIGILL) that
# Warp's own CPU launch of the same kernel never evaluates (newton `_fill_adjacent_tris` then printed the
# reference digest exactly).
# No g++ option made the twins of warp-lang's 20 spinlock tests end as Warp's CPU backward does (their programs now
# leave that backward out: `runs_backward`, the `spin_wait` hazard): that backward replays the acquire loop without
# its release, so in one thread the loop spins for ever, and Warp's Clang drops the spin (a loop without side effects
# may be assumed to end: its object code holds one compare and store per task). g++ 12 keeps it: at -O1 all 20 twins
# spin, -ffinite-loops or not (it lets GCC delete a loop that has an exit and no side effects; after jump threading
# the spin is `jmp .`, with neither); -O2 happens to drop it in the 12 integer-typed tests only, -O3 in the 8
# floating-point ones only, so no level ends them all; and a batch of 32 real rows' twins costs 2.5 CPU-s to compile
# at -O0, 8.5 at -O1, 11.6 at -O2.
CXXFLAGS: tuple[str, ...] = ("-std=c++17", "-O0", "-DNDEBUG")


def warp_native_dir() -> str:
    """Warp's native headers, found as the Makefile finds them (the installed warp-lang package)."""
    import warp

    return os.path.join(os.path.dirname(warp.__file__), "native")


_MAKEFILE = """\
# Builds a warp-cuda-ir row's standalone programs: `make` (both), `make run-cpu`, `make run-cuda`.
# Warp's native headers are found the way Warp's own C++ examples find them (warp/examples/cpp):
# from the installed warp-lang package, or set WARP_PATH=/path/to/warp (the folder holding native/).
PYTHON ?= python3
WARP_PATH ?= $(shell $(PYTHON) -c "import warp, os; print(os.path.dirname(warp.__file__))")
NVCC ?= nvcc
CXX ?= g++
ARCH ?= 90
NVCCFLAGS ?= {nvccflags}
CXXFLAGS ?= {cxxflags}

all: program_cuda program_cpu
cuda: program_cuda
cpu: program_cpu

program_cuda: program.cu{cuda_needs}
\t$(NVCC) $(NVCCFLAGS) -isystem {cuda_headers} -o $@ $<

program_cpu: program.cpp
\t$(CXX) $(CXXFLAGS) -isystem $(WARP_PATH)/native -o $@ $<

run-cuda: program_cuda
\t./program_cuda

run-cpu: program_cpu
\t./program_cpu
{rules}
clean:
\t{clean}

.PHONY: all cuda cpu run-cuda run-cpu clean
"""
_FLAGS = {"nvccflags": " ".join(NVCCFLAGS), "cxxflags": " ".join(CXXFLAGS)}
MAKEFILE = _MAKEFILE.format(
    **_FLAGS, cuda_needs="", cuda_headers="$(WARP_PATH)/native", rules="", clean="rm -f program_cuda program_cpu"
)


@functools.cache
def _tile_makefile(native_dir: str) -> str:
    rule = device_headers.makefile_rule(native_dir)
    return _MAKEFILE.format(
        **_FLAGS,
        cuda_needs=" wp_native/aot.h",
        cuda_headers="wp_native",
        rules=f"\n{rule}",
        clean="rm -rf program_cuda program_cpu wp_native",
    )


def makefile(row: Mapping[str, Any]) -> str:
    """The row's Makefile: `MAKEFILE`, and for a row whose CUDA code calls Warp's tile functions, nvcc pointed at
    the copy of Warp's headers it needs (`device_headers`), which the Makefile makes first."""
    if calls_tiles(row):
        return _tile_makefile(warp_native_dir())
    return MAKEFILE


def calls_tiles(row: Mapping[str, Any]) -> bool:
    """Whether the row's CUDA code (its kernels or its helpers) calls Warp's tile functions."""
    return any(uses_tiles(row.get(column) or "") for column in ("cuda_forward", "cuda_backward", "cuda_helpers"))


COMMON = r"""
// Element type of a Warp array argument.
template <class P> struct wp_pointee;
template <class T> struct wp_pointee<T*> { using type = T; };
template <class A> using wp_elem = typename wp_pointee<decltype(A::data)>::type;
"""

# Two pieces of Warp's runtime library that both programs' host code may call: `_wp_assert` (Warp's headers call
# it on the host, e.g. `slice_assert_step_nonzero`, reached by 4 mujoco-warp helpers under nvcc) and the
# bfloat16 conversions (a bfloat16 constant converted on the host: 2 warp-lang rows failed nvcc's link without
# them). With Warp's own software conversions, as its CPU code converts.
HOST_ASSERT = r"""extern "C" void _wp_assert(const char* message, const char* file, unsigned int line) {
    printf("assertion failed: %s (%s:%u)\n", message, file, line);
    __builtin_trap();
}
"""
HOST_BFLOAT16 = r"""#ifndef WP_NO_BFLOAT16
extern "C" uint16_t wp_float_to_bfloat16_bits(float x) { return wp::wp_float_to_bfloat16_bits_sw(x); }
extern "C" float wp_bfloat16_bits_to_float(uint16_t u) { return wp::wp_bfloat16_bits_to_float_sw(u); }
#endif
"""

CPU_RUNTIME = (
    r"""
// What Warp's runtime library provides to its JIT-compiled CPU code, for a program without it.
"""
    + HOST_ASSERT
    + r"""extern "C" int _wp_isfinite(double x) { return __builtin_isfinite(x); }
extern "C" int _wp_isnan(double x) { return __builtin_isnan(x); }
extern "C" int _wp_isinf(double x) { return __builtin_isinf(x) != 0; }
// float -> float16 bits. Warp's CPU kernels are compiled by Clang, where builtin.h converts with Clang's
// _Float16 (IEEE round to nearest even), not with its runtime library's routine (which rounds differently:
// it changed 1 of the first 40 rows' float16 outputs); g++ 12 has _Float16 on x86-64 with the same rounding.
extern "C" uint16_t wp_float_to_half_bits(float x) {
    _Float16 h = (_Float16)x;
    uint16_t bits;
    memcpy(&bits, &h, 2);
    return bits;
}
extern "C" float wp_half_bits_to_float(uint16_t u) { return wp_half_to_float_exact(u); }
"""
    + HOST_BFLOAT16
    + r"""typedef void (*wp_cpu_block_lane_fn)(void* dim, size_t block_id, int lane, void* args);
extern "C" int wp_cpu_run_block(int block_dim, int active_count, wp_cpu_block_lane_fn kernel_fn, void* dim,
                                size_t block_id, void* args) {
    // CPU launches use one thread per block (block_dim 1), so lanes run one after the other.
    for (int lane = 0; lane < active_count; ++lane) kernel_fn(dim, block_id, lane, args);
    return 1;
}
"""
)

CUDA_SUPPORT = (
    r"""
// Host code of a kernel with float16 values (e.g. a constant converted on the host) calls these two, which
// Warp's runtime library provides (1 of 639 programs, seed 100,678, failed to link without them). IEEE
// round to nearest even, as the CPU twin's _Float16 (nvcc's host front end has no _Float16).
extern "C" uint16_t wp_float_to_half_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, mag = x & 0x7fffffffu;
    if (mag >= 0x7f800000u) return (uint16_t)(sign | (mag > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (mag >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  // from 65520 up: infinity
    if (mag < 0x38800000u) {  // below 2^-14: a subnormal half or zero
        if (mag < 0x33000000u) return (uint16_t)sign;
        uint32_t e = mag >> 23, m = (mag & 0x7fffffu) | 0x800000u, shift = 126 - e;
        uint32_t r = m >> shift, rem = m & ((1u << shift) - 1), tie = 1u << (shift - 1);
        if (rem > tie || (rem == tie && (r & 1u))) ++r;
        return (uint16_t)(sign | r);
    }
    uint32_t r = mag - 0x38000000u, out = r >> 13, rem = r & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (out & 1u))) ++out;
    return (uint16_t)(sign | out);
}
extern "C" float wp_half_bits_to_float(uint16_t u) {
    uint32_t sign = (uint32_t)(u & 0x8000u) << 16, e = (u >> 10) & 0x1fu, m = u & 0x3ffu, x;
    if (e == 0x1fu) x = sign | 0x7f800000u | (m << 13);
    else if (e) x = sign | ((e + 112u) << 23) | (m << 13);
    else {
        float v = (float)m * 5.9604644775390625e-8f;  // m * 2^-24
        memcpy(&x, &v, 4);
        x |= sign;
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}
"""
    + HOST_ASSERT
    + HOST_BFLOAT16
    + r"""// The kernel's parameter types, taken from its signature: (launch bounds, arguments...).
template <class F> struct wp_kernel_params;
template <int N, class... A> struct wp_kernel_params<void (*)(wp::launch_bounds_t<N>, A...)> {
    using type = std::tuple<A...>;
};
"""
)

_BOUNDS = re.compile(r"launch_bounds_t<(\d)>")
_C_KEYWORDS_SAFE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def launch_bounds(row: Mapping[str, Any], target: str) -> tuple[int, list[int], int, int]:
    """(N of launch_bounds_t<N>, shape, size, coord_mult) as Warp's launch fills them."""
    match = _BOUNDS.search(row[f"{target}_forward"])
    ndim = int(match.group(1)) if match else 1
    dim = [int(d) for d in row["launch_dim"]]
    if row.get("launch_tiled"):
        dim.append(int(row.get("block_dim") or extraction.CUDA_BLOCK_DIM) if target == "cuda" else 1)
    padded = dim + [1] * max(0, ndim - len(dim))
    kept, extras = padded[:ndim], padded[ndim:]
    coord_mult = math.prod(extras) if extras else 1
    return ndim, kept, math.prod(kept) * coord_mult, coord_mult


def _literal(values: np.ndarray) -> str:
    """Components as a C initializer list, exact (float32 with 9 significant digits, float64 with 17)."""
    flat = values.reshape(-1)
    key = values.dtype.str[1:]
    if key == "f2":
        items = [f"{{0x{b:04x}}}" for b in flat.view(np.uint16).tolist()]
    elif key in ("f4", "f8"):
        suffix, form = ("f", "%.9g") if key == "f4" else ("", "%.17g")
        items = []
        for x in flat.tolist():
            if math.isnan(x):
                items.append("NAN")
            elif math.isinf(x):
                items.append("INFINITY" if x > 0 else "-INFINITY")
            elif x == 0 and math.copysign(1.0, x) < 0:  # "-0" alone is the int 0: +0.0 once converted
                items.append("-0.0" + suffix)
            else:
                text = form % x
                items.append(text + suffix if ("." in text or "e" in text or suffix == "") else text + ".0f")
    elif key == "b1":
        items = [str(int(x)) for x in flat.tolist()]
    else:
        suffix = {"i8": "LL", "u8": "ULL"}.get(key, "")
        items = [f"{x}{suffix}" for x in flat.tolist()]
    lines = [", ".join(items[i : i + 8]) for i in range(0, len(items), 8)]
    return "{\n    " + ",\n    ".join(lines) + "\n}" if lines else "{}"


# In the data of a program whose inputs are written as runs (`values.progression_runs`; only programs over the
# cap on literals, so every other program's text stays as it was).
EXPAND_RUNS = r"""// Inputs written as runs of arithmetic progressions: (count, first, step) in unsigned words of the
// values' width, one component column after the other (`rows` elements of `stride` components each).
template <class W> void wp_expand_runs(void* out, const W* runs, size_t nruns, size_t rows, size_t stride) {
    W* words = (W*)out;
    size_t k = 0;
    for (size_t r = 0; r < nruns; ++r) {
        W value = runs[3 * r + 1];
        for (W t = 0; t < runs[3 * r]; ++t, ++k, value = (W)(value + runs[3 * r + 2]))
            words[(k % rows) * stride + k / rows] = value;
    }
}"""

# The declaration of an input array a program embeds: (storage type, argument's C name, components). Listed
# (`static const T wp_in_x[n] = {...};`) or expanded from runs at the start of `main()` (`static T wp_in_x[n];`).
INPUT_DATA = re.compile(r"^static (?:const )?(\w+) wp_in_(\w+)\[(\d+)\](?: = |;)", re.M)


def _array_data(name: str, values: np.ndarray, storage: str) -> str:
    """One static array of values, copied into place by `memcpy`. Floats holding a NaN are written as their
    bits: a C `NAN` is one quiet NaN, while captured memory holds others (mujoco-warp's scratch arrays came
    from `wp.empty` holding 0xffffffff, which a kernel left in place), and the digest hashes the bytes."""
    key = values.dtype.str[1:]
    if key in ("f4", "f8") and bool(np.isnan(values).any()):
        ctype, width = ("uint32_t", 8) if key == "f4" else ("uint64_t", 16)
        words = [
            f"0x{x:0{width}x}{'u' if key == 'f4' else 'ULL'}" for x in values.reshape(-1).view(ctype[:-2]).tolist()
        ]
        lines = [", ".join(words[i : i + 8]) for i in range(0, len(words), 8)]
        return f"static const {ctype} {name}[{values.size}] = {{\n    " + ",\n    ".join(lines) + "\n};"
    return f"static const {storage} {name}[{values.size}] = {_literal(values)};"


def data(values: Sequence[ArgumentValue]) -> str:
    """The inputs (and output adjoint seeds) as static arrays; all-zero arrays get none (zero-filled). The same
    text in both of a row's programs: made once per row, it is most of their cost (float formatting)."""
    parts: list[str] = [EXPAND_RUNS] if any(v.runs is not None for v in with_fields(values)) else []
    for v in with_fields(values):
        if v.runs is not None:
            word = f"uint{8 * v.values.dtype.itemsize}_t"
            parts.append(f"static const {word} wp_runs_{v.var}[{v.runs.size}] = {_literal(v.runs)};")
            parts.append(f"static {v.storage} wp_in_{v.var}[{v.values.size}];")
        elif _has_data(v):
            parts.append(_array_data(f"wp_in_{v.var}", v.values, v.storage))
        elif v.zeroed:
            parts.append(
                f"// `{v.name}` starts zeroed: the kernel only writes it, and its captured values are too many"
            )
        if v.adjoint_seed is not None and not seeds_by_formula(v.adjoint_seed):
            parts.append(_array_data(f"wp_seed_{v.var}", v.adjoint_seed, v.storage))
    return "\n".join(parts)


def with_fields(values: Sequence[ArgumentValue]) -> list[ArgumentValue]:
    """The arguments, each struct followed by the arrays it holds."""
    return [w for v in values for w in (v, *v.fields)]


def literal_count(values: Sequence[ArgumentValue]) -> int:
    """Values the program's data writes out as literals: all-zero arrays are calloc'd and cost no text, large
    seed arrays are computed (`values.SEED_FORMULA`)."""
    return sum(
        (v.runs.size if v.runs is not None else v.values.size if _has_data(v) else 0)
        + (0 if v.adjoint_seed is None or seeds_by_formula(v.adjoint_seed) else v.adjoint_seed.size)
        for v in with_fields(values)
    )


def _expand_runs(values: Sequence[ArgumentValue]) -> list[str]:
    """The lines at the start of `main()` that expand the inputs written as runs into their `wp_in_` arrays."""
    lines = []
    for v in with_fields(values):
        if v.runs is not None:
            elements = math.prod(v.shape) if v.shape else 1
            word = f"uint{8 * v.values.dtype.itemsize}_t"
            lines.append(
                f"    wp_expand_runs<{word}>(wp_in_{v.var}, wp_runs_{v.var}, {v.runs.size // 3}, {elements}, "
                f"{v.values.size // elements});"
            )
    return lines


def _has_data(v: ArgumentValue) -> bool:
    """Whether the program writes the value out (the memory of an array passed twice is written once)."""
    return v.alias is None and bool(v.values.size) and bool(np.any(v.values.view(np.uint8) != 0))


def _host_array(v: ArgumentValue) -> tuple[str, list[str]]:
    """Host memory `p_<var>` holding an array's inputs, its own or that of the array it is passed as again:
    (the line declaring it, the lines filling it)."""
    if v.alias is not None:
        return f"    void* p_{v.var} = p_{v.alias.replace('.', '__')};", []
    fill = [f"    memcpy(p_{v.var}, wp_in_{v.var}, {v.values.nbytes});"] if _has_data(v) else []
    return f"    void* p_{v.var} = calloc({max(v.values.nbytes, 1)}, 1);", fill


def _seed_fill(v: ArgumentValue) -> str:
    """The line putting an output array's adjoint seeds into its host adjoint memory `g_<var>`."""
    assert v.adjoint_seed is not None
    if seeds_by_formula(v.adjoint_seed):
        cast = f"({v.storage}*)g_{v.var}"
        return (
            f"    // {v.name}'s adjoint seeds: too many to list, so computed (multiples of 1/32 in [-0.98, 0.98]).\n"
            f"    for (size_t i = 0; i < {v.adjoint_seed.size}; ++i) ({cast})[i] = ({v.storage})({SEED_FORMULA});"
        )
    return f"    memcpy(g_{v.var}, wp_seed_{v.var}, {v.values.nbytes});"


def _element_check(v: ArgumentValue) -> str:
    count = math.prod(v.shape)
    return f'    static_assert(sizeof(wp_elem<T_{v.var}>) * {count} == {v.values.nbytes}, "{v.name}: element size");'


def _cuda_device_array(v: ArgumentValue) -> list[str]:
    """Device memory `d_<var>` holding what `p_<var>` holds (shared with the array it is passed as again)."""
    if v.alias is not None:
        return [f"    void* d_{v.var} = d_{v.alias.replace('.', '__')};"]
    nbytes = max(v.values.nbytes, 1)
    return [
        f"    void* d_{v.var} = nullptr;",
        f"    CHECK_CUDA(cudaMalloc(&d_{v.var}, {nbytes}));",
        f"    CHECK_CUDA(cudaMemcpy(d_{v.var}, p_{v.var}, {nbytes}, cudaMemcpyHostToDevice));",
    ]


def _bounds_code(row: Mapping[str, Any], target: str) -> tuple[int, str]:
    ndim, shape, size, coord_mult = launch_bounds(row, target)
    lines = [f"    wp::launch_bounds_t<{ndim}> dim = {{}};"]
    lines += [f"    dim.shape[{i}] = {d};" for i, d in enumerate(shape)]
    lines += [f"    dim.size = {size};", f"    dim.coord_mult = {coord_mult};"]
    return size, "\n".join(lines)


def _array_ctor(expr_type: str, pointer: str, shape: Sequence[int]) -> str:
    dims = ", ".join(str(d) for d in shape)
    return f"{expr_type}((wp_elem<{expr_type}>*){pointer}, {dims})"


def _header(row: Mapping[str, Any], target: str) -> str:
    what = "CUDA program (nvcc)" if target == "cuda" else "CPU twin (C++ compiler)"
    return (
        f"// Standalone {what} for the Warp kernel `{row['kernel_name']}` (warp-cuda-ir row {row['id']}, "
        f"seed {row['seed']}).\n"
        "// Warp's generated code for the kernel, then a main() that fills its arguments with the row's inputs,\n"
        "// runs the forward kernel, prints a digest of each output, runs the backward kernel with seeded output\n"
        "// adjoints and prints a digest of each input adjoint. Build: see the row's `makefile`.\n"
        + ("" if runs_backward(row, target) else f"// {_no_backward(row, target)}: only the forward kernel runs.\n")
    )


def _no_backward(row: Mapping[str, Any], target: str) -> str:
    if not row.get(f"{target}_backward"):
        return "The row has no backward code"
    flagged = ", ".join(h for h in row.get("adjoint_hazards") or () if h.startswith(UNDEFINED_BACKWARD))
    return f"The row's backward never ends or touches memory it should not (adjoint_hazards: {flagged})"


def _c_string(text: str) -> str:
    return "".join(c if c.isprintable() and c not in '"\\' else f"\\x{ord(c):02x}" for c in text)


NOT_RUN = 'printf("not run: '  # what a program that launches nothing prints first


def _no_record_main(reason: str) -> str:
    return f'int main() {{\n    {NOT_RUN}{_c_string(reason)}\\n");\n    return 0;\n}}\n'


def launches(program_text: str) -> bool:
    """Whether a program launches the kernel (it was made with the row's inputs), as opposed to saying why not."""
    return NOT_RUN not in program_text


CPU_INCLUDES = "// No system header: the generated code defines WP_NO_CRT and declares the C library it uses itself.\n"
CUDA_INCLUDES = "#include <cmath>\n#include <cstdint>\n#include <cstdio>\n#include <cstring>\n#include <tuple>\n"


def support(target: str) -> str:
    """What every program of `target` defines after Warp's headers: digest, runtime stand-ins, type traits."""
    if target == "cpu":
        return "\n".join([COMMON, CPP_DIGEST, CPU_RUNTIME])
    return "\n".join([CUDA_SUPPORT, COMMON, CPP_DIGEST])


def program(
    row: Mapping[str, Any],
    values: Sequence[ArgumentValue] | None,
    target: str,
    reason: str | None = None,
    data_text: str | None = None,
) -> str:
    """The whole program for `target` ("cuda" or "cpu"): `values` None compiles the kernel, prints `reason`.
    `data_text`: `data(values)`, when the caller made it already."""
    unit = extraction.translation_unit(row, target)
    if target == "cuda":
        block_dim = int(row.get("block_dim") or extraction.CUDA_BLOCK_DIM)
        shim = device_shim.int64_atomics(unit) + device_shim.host_runtime(row.get("cuda_helpers") or "")
        prefix = f'{CUDA_INCLUDES}#define WP_TILE_BLOCK_DIM {block_dim}\n{shim}#include "aot.h"\n{after_aot(unit)}'
    else:
        prefix = CPU_INCLUDES
    return "\n".join(
        [
            _header(row, target),
            prefix,
            unit,
            support(target),
            *row_part(row, values, target, reason, data_text),
        ]
    )


def after_aot(cuda_unit: str) -> str:
    """What a CUDA program of this module puts right after `#include "aot.h"`: Warp's tile macros that pass a
    lambda, with host-device lambdas, for those the module calls (`device_shim.map_macros`)."""
    return device_shim.map_macros(warp_native_dir(), cuda_unit)


def row_part(
    row: Mapping[str, Any],
    values: Sequence[ArgumentValue] | None,
    target: str,
    reason: str | None = None,
    data_text: str | None = None,
) -> list[str]:
    """The row's data and `main()` (what follows Warp's code and the support code)."""
    if values is None:
        return [_no_record_main(reason or "no launch record")]
    main = _cuda_main(row, values) if target == "cuda" else _cpu_main(row, values)
    return [data(values) if data_text is None else data_text, main]


def _cpu_main(row: Mapping[str, Any], values: Sequence[ArgumentValue]) -> str:
    symbol = row["kernel_symbol"]
    _, bounds = _bounds_code(row, "cpu")
    body = [
        "int main() {",
        *_expand_runs(values),
        bounds,
        f"    wp_args_{symbol} args{{}};",
        f"    wp_args_{symbol} adj{{}};",
    ]
    for v in values:
        n, nbytes = v.name, v.values.nbytes
        if v.kind == "array":
            body.append(f"    using T_{n} = decltype(args.{n});")
            declare, fill = _host_array(v)
            body += [declare, f"    void* g_{n} = calloc({max(nbytes, 1)}, 1);", *fill]
            if v.adjoint_seed is not None:
                body.append(_seed_fill(v))
            body.append(_element_check(v))
            body.append(f"    args.{n} = {_array_ctor(f'T_{n}', f'p_{n}', v.shape)};")
            body.append(f"    adj.{n} = {_array_ctor(f'T_{n}', f'g_{n}', v.shape)};")
        elif v.kind != "none":  # an array passed as None stays the null array_t `args{}` holds
            body.append(f'    static_assert(sizeof(args.{n}) == {nbytes}, "{n}: size");')
            if _has_data(v):
                body.append(f"    memcpy((void*)&args.{n}, wp_in_{n}, {nbytes});")
            for f in v.fields:  # a struct's arrays: the program's copies (its adjoint struct stays zero)
                declare, fill = _host_array(f)
                body += [f"    using T_{f.var} = decltype(args.{f.name});", declare, *fill]
                body.append(_element_check(f))
                body.append(f"    args.{f.name} = {_array_ctor(f'T_{f.var}', f'p_{f.var}', f.shape)};")
    body.append(f"    {symbol}_cpu_forward(&dim, &args);")
    body += _print_lines(values, "output", "p")
    if runs_backward(row, "cpu"):
        body.append(f"    {symbol}_cpu_backward(&dim, &args, &adj);")
        body += _print_lines(values, "adjoint", "g")
    body += ["    return 0;", "}", ""]
    return "\n".join(body)


# Hazards under which a backward kernel's run means nothing: it never ends (`spin_wait`: it takes a lock it never
# releases, and spins for ever on a GPU), or what it prints is whatever memory held (`atomic_result`: it reads
# the result of an atomic it does not replay; of 28 such replayed real rows, the twins of 25 printed Warp's digest
# in one run, which ones varying from run to run, and warp-lang's `counter_kernel` crashed), or it indexes past
# an array (`index_ahead`: Warp's own CPU backward of two such real rows aborted and segfaulted).
UNDEFINED_BACKWARD: tuple[str, ...] = ("spin_wait:", "atomic_result:", "index_ahead:")


def runs_backward(row: Mapping[str, Any], target: str) -> bool:
    """Whether the row's `target` program launches its backward kernel after the forward one: when the row holds
    that code (a program launches no kernel its row does not contain) and its run means something (no hazard of
    `UNDEFINED_BACKWARD`). The reference digest leaves out the same adjoint lines."""
    hazards = row.get("adjoint_hazards") or ()
    return bool(row.get(f"{target}_backward")) and not any(h.startswith(UNDEFINED_BACKWARD) for h in hazards)


def _print_lines(values: Sequence[ArgumentValue], kind: str, prefix: str) -> list[str]:
    """Digest calls: outputs are arrays the kernel writes, adjoints those of arrays it reads."""
    lines = []
    for v in printed(values, kind):
        lines.append(f'    wp_digest<{v.storage}>("{kind}", "{v.name}", {prefix}_{v.var}, {v.values.size});')
    return lines


def printed(values: Sequence[ArgumentValue], kind: str) -> list[ArgumentValue]:
    """Arrays a program prints a `kind` line for, in argument order: outputs include the arrays a struct
    holds that the launch wrote; adjoints are those of array arguments (a struct's adjoint stays zero).

    A launch that wrote no array (a real row's captured launch where no thread passed the kernel's guard) has
    every array as an output: that the program leaves them as Warp's launch did is all it can show, and a
    program printing nothing matched Warp's empty digest whatever it computed (3 of 157 newton rows)."""
    if kind == "output":
        arrays = [v for v in with_fields(values) if v.kind == "array"]
        return [v for v in arrays if v.role in ("out", "inout")] or arrays
    return [v for v in values if v.kind == "array" and v.role in ("in", "inout") and v.differentiable]


def deterministic_args(row: Mapping[str, Any], direction: str) -> list[str]:
    """Trailing launch arguments of a CUDA kernel Warp generated in deterministic mode (a module option):
    such a kernel takes a phase, a debug flag, an overflow counter and one buffer per atomic target after its
    own arguments (`_wp_det_phase`, ...), and nvcc rejects a launch without them ("too few arguments"). The
    program passes what Warp's CPU kernels declare for themselves (phase 1, no buffers): with a null buffer,
    an atomic whose result is unused falls back to the plain atomic, as on the CPU; an atomic whose result
    is used (a counter target) reads 0 on the GPU without Warp's two-pass launch, so such a kernel's CUDA
    digest may differ from Warp's while it still compiles."""
    # The parameters: from the kernel's name to the first `)` before a `{` (found with `str.find`: a lazy
    # regular expression over the whole text took ~0.4 ms per row).
    text = row.get(f"cuda_{direction}") or ""
    marker = f"{row['kernel_symbol']}_cuda_kernel_{direction}("
    start = text.find(marker)
    end = _PARAMETERS_END.search(text, start + len(marker)) if start >= 0 else None
    if end is None:
        return []
    parameters = text[start + len(marker) : end.start()]
    if "int _wp_det_phase" not in parameters:
        return []
    # One buffer per target, named by its type (a buffer's value type may hold a comma: `vec_t<3, float32>`).
    buffers = re.findall(r"\bwp::det_(?:scatter|counter)_buf_t\b", parameters)
    return ["1", "0", "nullptr", *(["{}"] * len(buffers))]


_PARAMETERS_END = re.compile(r"\)\s*\{")


def _cuda_main(row: Mapping[str, Any], values: Sequence[ArgumentValue]) -> str:
    symbol = row["kernel_symbol"]
    block_dim = int(row.get("block_dim") or extraction.CUDA_BLOCK_DIM)
    size, bounds = _bounds_code(row, "cuda")
    body = [
        "int main() {",
        *_expand_runs(values),
        bounds,
        f"    using P = wp_kernel_params<decltype(&{symbol}_cuda_kernel_forward)>::type;",
    ]
    args, adjs = [], []
    for i, v in enumerate(values):
        n, nbytes = v.name, v.values.nbytes
        body.append(f"    using T_{n} = std::tuple_element_t<{i}, P>;")
        if v.kind == "array" and v.alias is None:
            body.append(f"    void* p_{n} = calloc({max(nbytes, 1)}, 1);")
            body.append(f"    void* g_{n} = calloc({max(nbytes, 1)}, 1);")
            body.append(f"    void *d_{n} = nullptr, *dg_{n} = nullptr;")
            body.append(f"    CHECK_CUDA(cudaMalloc(&d_{n}, {max(nbytes, 1)}));")
            body.append(f"    CHECK_CUDA(cudaMalloc(&dg_{n}, {max(nbytes, 1)}));")
            if _has_data(v):
                body.append(f"    memcpy(p_{n}, wp_in_{n}, {nbytes});")
            if v.adjoint_seed is not None:
                body.append(_seed_fill(v))
            body.append(f"    CHECK_CUDA(cudaMemcpy(d_{n}, p_{n}, {max(nbytes, 1)}, cudaMemcpyHostToDevice));")
            body.append(f"    CHECK_CUDA(cudaMemcpy(dg_{n}, g_{n}, {max(nbytes, 1)}, cudaMemcpyHostToDevice));")
        elif v.kind == "array":  # an array passed again: its memory, an adjoint of its own
            declare, fill = _host_array(v)
            body += [declare, *fill, *_cuda_device_array(v)]
            body.append(f"    void* g_{n} = calloc({max(nbytes, 1)}, 1);")
            body.append(f"    void* dg_{n} = nullptr;")
            body.append(f"    CHECK_CUDA(cudaMalloc(&dg_{n}, {max(nbytes, 1)}));")
            if v.adjoint_seed is not None:
                body.append(_seed_fill(v))
            body.append(f"    CHECK_CUDA(cudaMemcpy(dg_{n}, g_{n}, {max(nbytes, 1)}, cudaMemcpyHostToDevice));")
        if v.kind == "array":
            body.append(_element_check(v))
            body.append(f"    T_{n} a_{n} = {_array_ctor(f'T_{n}', f'd_{n}', v.shape)};")
            body.append(f"    T_{n} j_{n} = {_array_ctor(f'T_{n}', f'dg_{n}', v.shape)};")
        elif v.kind == "none":  # an array passed as None: a null array_t
            body.append(f"    T_{n} a_{n}{{}};")
            body.append(f"    T_{n} j_{n}{{}};")
        else:
            body.append(f'    static_assert(sizeof(T_{n}) == {nbytes}, "{n}: size");')
            body.append(f"    T_{n} a_{n}{{}};")
            body.append(f"    T_{n} j_{n}{{}};")
            if _has_data(v):
                body.append(f"    memcpy((void*)&a_{n}, wp_in_{n}, {nbytes});")
            for f in v.fields:  # a struct's arrays: device copies (its adjoint struct stays zero)
                declare, fill = _host_array(f)
                body += [f"    using T_{f.var} = decltype(a_{f.name});", declare, *fill, *_cuda_device_array(f)]
                body.append(_element_check(f))
                body.append(f"    a_{f.name} = {_array_ctor(f'T_{f.var}', f'd_{f.var}', f.shape)};")
        args.append(f"a_{n}")
        adjs.append(f"j_{n}")
    grid = max(1, -(-size // block_dim))
    launch_ok = "    CHECK_CUDA(cudaGetLastError());\n    CHECK_CUDA(cudaDeviceSynchronize());"
    forward_args = ", ".join(["dim", *args, *deterministic_args(row, "forward")])
    backward_args = ", ".join(["dim", *args, *adjs, *deterministic_args(row, "backward")])
    smem = "0"
    directions = ("forward", "backward") if runs_backward(row, "cuda") else ("forward",)
    if row.get("launch_tiled") or calls_tiles(row):
        # Tiles live in dynamic shared memory, sized by Warp at launch from its adjoint analysis, which the
        # row does not record: offer each kernel all the device allows beside its static shared memory.
        # Warp does so for every launch of a kernel that uses tiles, `wp.launch` too: offered only to tiled
        # launches, 21 of 31 failing tile programs on an H200 wrote past their shared memory (memcheck).
        smem = "wp_smem"
        body.append("    int wp_optin = 0;")
        body.append("    CHECK_CUDA(cudaDeviceGetAttribute(&wp_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));")
        body.append("    size_t wp_smem = 0;")
        for direction in directions:
            kernel = f"{symbol}_cuda_kernel_{direction}"
            body.append(f"    {{ cudaFuncAttributes a{{}}; CHECK_CUDA(cudaFuncGetAttributes(&a, {kernel}));")
            body.append("      size_t free_bytes = (size_t)wp_optin - a.sharedSizeBytes;")
            body.append("      wp_smem = wp_smem == 0 || free_bytes < wp_smem ? free_bytes : wp_smem; }")
        for direction in directions:
            kernel = f"{symbol}_cuda_kernel_{direction}"
            body.append(
                f"    CHECK_CUDA(cudaFuncSetAttribute({kernel}, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                "(int)wp_smem));"
            )
    body.append(f"    {symbol}_cuda_kernel_forward<<<{grid}, {block_dim}, {smem}>>>({forward_args});")
    body.append(launch_ok)
    for v in printed(values, "output"):
        body.append(f"    CHECK_CUDA(cudaMemcpy(p_{v.var}, d_{v.var}, {v.values.nbytes}, cudaMemcpyDeviceToHost));")
    body += _print_lines(values, "output", "p")
    if "backward" in directions:
        body.append(f"    {symbol}_cuda_kernel_backward<<<{grid}, {block_dim}, {smem}>>>({backward_args});")
        body.append(launch_ok)
        for v in printed(values, "adjoint"):
            body.append(
                f"    CHECK_CUDA(cudaMemcpy(g_{v.name}, dg_{v.name}, {v.values.nbytes}, cudaMemcpyDeviceToHost));"
            )
        body += _print_lines(values, "adjoint", "g")
    body += ["    return 0;", "}", ""]
    return "\n".join(body)
