"""What CUDA programs built with nvcc need beside Warp's headers, where nvcc and NVRTC (Warp's compiler) differ.

Functions Warp's tile headers leave without an execution space are the copy of the headers' business
(`device_headers`): it replaced the declarations and tile-stack destructors this module used to write into
each program (against the copy, the PTX of 75 tile rows' programs was byte-identical with and without them,
and the programs build without them). What stays here: the tile macros whose lambdas must be host-device
(their callers are host-device in the copy too, and nvcc compiles them for the host as well), the 64-bit
integer types of the host's <cstdint>, and the CPU runtime functions a row's own tile helpers reach in their
host form.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

from warp_cuda_ir.warp_session import uses_tiles

# Warp's tile macros that wrap an op in a lambda (`tile_unary_map(op, a)` -> `tile_map([](auto x) { return
# op(x);}, a)`; `tile_reduce`, `tile_arg_reduce`, `tile_reduce_axis` alike) pass a lambda written inside the
# kernel to a `CUDA_CALLABLE` (host and device) template. Under NVRTC everything is device code; under nvcc the
# lambda is device-only and a host-device caller may not call it unless the lambda is usable in a constant
# expression: 7 of 24 replayed warp-lang tile-map rows (an op on a vector or matrix, `bit_and`, a constant
# operand) failed "calling a __device__ function ... from a __host__ __device__ function ("tile_map") is not
# allowed", and newton's `compute_shape_local_bounds` (a `tile_reduce` of vec3) the same from
# "tile_reduce_impl". The same macros with the outer lambdas marked `__host__ __device__` (nvcc's
# `--extended-lambda`; an extended lambda may not sit inside a generic lambda, so the inner ones stay as Warp
# writes them and take the outer one's execution space) compile them all; they are read from the installed
# Warp's headers and follow it.
_DEFINE = re.compile(r"^#define (\w+)\(")


def _host_device_outer_lambdas(definition: str) -> str:
    """`definition` with each lambda outside every brace marked `__host__ __device__`."""
    out: list[str] = []
    depth = 0
    position = 0
    while position < len(definition):
        if depth == 0 and definition.startswith("[](", position):
            out.append("[] __host__ __device__ (")
            position += 3
            continue
        char = definition[position]
        depth += (char == "{") - (char == "}")
        out.append(char)
        position += 1
    return "".join(out)


def _definitions(header: str) -> Iterator[str]:
    """Each `#define` of `header`, its continued lines joined into one."""
    lines = iter(header.splitlines())
    for line in lines:
        if not line.startswith("#define"):
            continue
        while line.endswith("\\"):
            line = line[:-1] + " " + next(lines, "").strip()
        yield line


@functools.cache
def _lambda_macros(native_dir: str) -> dict[str, str]:
    """Warp's tile macros that pass a lambda, by name: `#undef` and the definition with host-device lambdas."""
    macros: dict[str, str] = {}
    for header in sorted(Path(native_dir).glob("tile*.h")):
        for definition in _definitions(header.read_text()):
            m = _DEFINE.match(definition)
            if m and m.group(1).startswith(("tile_", "adj_tile_")) and "[](" in definition:
                macros[m.group(1)] = f"#undef {m.group(1)}\n{_host_device_outer_lambdas(definition)}"
    return macros


def map_macros(native_dir: str, cuda_text: str) -> str:
    """The block a CUDA program puts after `#include "aot.h"` when the row's code calls one of Warp's tile
    macros that pass a lambda: those macros with host-device lambdas (see above); empty otherwise."""
    if not uses_tiles(cuda_text):
        return ""
    called = set(re.findall(r"\b((?:adj_)?tile_\w+)\(", cuda_text))
    macros = [text for name, text in _lambda_macros(native_dir).items() if name in called]
    if not macros:
        return ""
    return (
        "// nvcc: Warp's tile macros that wrap an op in a lambda, with their lambdas host-device (--extended-lambda).\n"
        + "\n".join(macros)
        + "\n"
    )


# nvcc compiles Warp's headers against the host's <cstdint>, where (LP64 Linux) int64_t and uint64_t are
# `long` and `unsigned long`; NVRTC, Warp's compiler, gets them from Warp's crt.h as `long long`. CUDA
# declares its 64-bit atomics for `long long` only, so `wp::atomic_min` on an int64 (and add, min, max, and,
# or, xor, exchange, compare-and-swap on a uint64) found no `atomicMin` under nvcc: newton's
# `_match_contacts_kernel` failed to compile. Overloads for `long` that forward to `long long` restore what
# NVRTC sees; they must precede aot.h, whose templates look the names up where they are defined.
_INT64_ATOMICS = (
    ("atomicAdd", False),
    ("atomicMin", True),
    ("atomicMax", True),
    ("atomicAnd", True),
    ("atomicOr", True),
    ("atomicXor", True),
    ("atomicExch", False),
)
# Warp's generated code declares every variable with its type (parameters and locals alike) and passes the
# array or pointer first to an atomic: `wp::atomic_min(var_best, var_0, var_5)`.
_INT64_VARS = re.compile(r"wp::(?:array_t<\s*wp::u?int64\s*>|u?int64\s*\*)\s*&?\s*(\w+)")
_ATOMIC_TARGET = re.compile(r"wp::(?:adj_)?atomic_\w+\s*\(\s*(\w+)")


def int64_atomics(cuda_text: str) -> str:
    """The block a CUDA program puts before `#include "aot.h"` when its code calls an atomic on an int64 or
    uint64 array or pointer; empty otherwise."""
    targets = set(_ATOMIC_TARGET.findall(cuda_text))
    if not targets or targets.isdisjoint(_INT64_VARS.findall(cuda_text)):
        return ""
    lines = [
        "// nvcc: int64/uint64 are long/unsigned long here (long long under NVRTC), and CUDA's 64-bit atomics take",
        "// long long: these forward Warp's 64-bit integer atomics to them.",
        "#ifndef WP_PROGRAM_INT64_ATOMICS",  # once in a batch of programs (definitions, unlike declarations)
        "#define WP_PROGRAM_INT64_ATOMICS",
        'static_assert(sizeof(long) == sizeof(long long), "64-bit long");',
    ]
    for name, signed in _INT64_ATOMICS:
        for t, wide in (("long", "long long"), ("unsigned long", "unsigned long long")):
            if t == "long" and not signed:
                continue  # Warp's int64 atomic_add and atomic_exch go through unsigned long long themselves
            head = f"static __device__ __forceinline__ {t} {name}({t}* a, {t} v)"
            lines.append(f"{head} {{ return ({t}){name}(({wide}*)a, ({wide})v); }}")
    lines.append(
        "static __device__ __forceinline__ unsigned long atomicCAS(unsigned long* a, unsigned long c, unsigned long v) "
        "{ return (unsigned long)atomicCAS((unsigned long long*)a, (unsigned long long)c, (unsigned long long)v); }"
    )
    lines.append("#endif")
    return "\n".join(lines) + "\n"


# A row's `wp.func` helpers are `static CUDA_CALLABLE` functions, which nvcc compiles for the host as well.
# In a helper that uses tiles, the host forms of Warp's tile code call the CPU block runtime and `_wp_assert`,
# which Warp's runtime library defines: without them such a program failed to link (newton's
# `compute_solid_mesh_inertia`: `wp_cpu_get_thread_idx`, `wp_cpu_tile_sync`, `_wp_assert`; every program
# defines the last, in its support code). The host forms never run in the CUDA program; these definitions
# only let it link.
HOST_RUNTIME = """\
// nvcc also compiles the row's tile helpers for the host, whose tile code calls Warp's CPU runtime library;
// these stand-ins let the program link (the host forms never run here).
#ifndef WP_PROGRAM_HOST_RUNTIME
#define WP_PROGRAM_HOST_RUNTIME
extern "C" int wp_cpu_get_thread_idx() { return 0; }
extern "C" int wp_cpu_get_active_count() { return 1; }
extern "C" int wp_cpu_get_first_active_lane() { return 0; }
extern "C" void wp_cpu_tile_sync() {}
#endif
"""


def host_runtime(cuda_helpers: str) -> str:
    """The block a CUDA program puts before `#include "aot.h"` when the row's helpers use tiles; else empty."""
    return HOST_RUNTIME if uses_tiles(cuda_helpers) else ""
