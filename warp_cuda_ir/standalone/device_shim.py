"""Device forms of Warp's host-only tile functions, for CUDA programs built with nvcc.

Warp compiles its generated CUDA with NVRTC and `--device-as-default-execution-space`, so its tile headers
(`warp/native/tile*.h`) define many functions with no execution space at all (`tile_sum`, `tile_min`,
`tile_extract`, `adj_tile_reduce`, `tile_coord`, ...). nvcc has no such option: those functions are
host-only there, and a kernel calling one fails ("calling a __host__ function from a __global__ function").
Measured: 1 of 96 rows of the default generator, and 2 of the first 6 `tile` rows, failed that way.

The fix leaves Warp's files alone. CUDA lets a function's first declaration carry the execution space
and a later definition omit it (checked with nvcc 13.0: a template declared `__host__ __device__` then
defined bare is callable from a kernel). So the program declares those functions `__host__ __device__`
in namespace `wp` before `#include "aot.h"`; Warp's own definitions then complete them. The declarations
are read from Warp's headers at build time (like the MISSINGADJOINT list in `adjoint_hazards`), not from
a hand list, so they follow the installed Warp. A declaration can only be written before `aot.h` when it
names no Warp type, so only heads whose parameters are spelled with template parameters and built-in
types are taken; heads with default arguments are left out (a default may be given once only).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from warp_cuda_ir.warp_session import uses_tiles

# Regions of the headers that nvcc's device pass does not see: the CPU branches of `#if defined(__CUDA_ARCH__)`.
_IF = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# A function definition head at the start of a line: optional template list, return type auto/void/int or a
# reference to a template parameter (`TileX& tile_cholesky_solve(...)`, checked against the template's names).
_HEAD = re.compile(
    r"^(?P<template>template\s*<(?P<tparams>[^<>{};]*(?:<[^<>{};]*>[^<>{};]*)*)>\s*)?"
    r"(?P<spec>(?:inline\s+|static\s+)*)(?P<ret>(?:auto|void|int)\s+|[A-Za-z_]\w*\s*&\s*)"
    r"(?P<name>\w+)\s*\((?P<params>[^(){};]*)\)\s*\{",
    re.M,
)
_ANNOTATED = re.compile(r"CUDA_CALLABLE|__device__|__host__|__global__|__forceinline__")
_IDENT = re.compile(r"[A-Za-z_]\w*")
# Words a parameter may use besides its template's parameter names: C++ built-in types and qualifiers.
_BUILTIN_WORDS = frozenset(
    "typename const volatile unsigned signed int bool float double char short long size_t".split()
)


def _device_visible(text: str) -> str:
    """The header without comments and without its host-only branches (`#if !defined(__CUDA_ARCH__)` ...)."""
    kept: list[str] = []
    stack: list[str | None] = []  # "host", "cuda" or None per open #if
    for line in _COMMENT.sub("", text).split("\n"):
        m = _IF.match(line)
        if m:
            word, cond = m.group(1), m.group(2).replace(" ", "")
            if word in ("if", "ifdef", "ifndef"):
                negated = word == "ifndef" or "!defined(__CUDA_ARCH__)" in cond
                stack.append(("host" if negated else "cuda") if "__CUDA_ARCH__" in cond else None)
            elif word in ("else", "elif") and stack:
                stack[-1] = {"host": "cuda", "cuda": "host"}.get(stack[-1] or "", None)
            elif word == "endif" and stack:
                stack.pop()
            kept.append("")
            continue
        kept.append("" if "host" in stack else line)
    return "\n".join(kept)


def _template_names(tparams: str) -> set[str] | None:
    """Names the template introduces (`typename T`, `int N`, `int... Dims`); None if it has defaults."""
    if "=" in tparams:
        return None
    names = set()
    for part in tparams.split(","):
        words = _IDENT.findall(part)
        if words:
            names.add(words[-1])
    return names


def _declarable(params: str, names: set[str]) -> bool:
    """Whether the parameters name no type but template parameters and built-ins (nothing of Warp's)."""
    if "=" in params:
        return False
    for param in filter(None, (p.strip() for p in params.split(","))):
        tokens = re.findall(r"::\s*[A-Za-z_]\w*|[A-Za-z_]\w*", param)
        words = [t for t in tokens if not t.startswith("::")]  # members of dependent types are fine
        if len(words) < 2:
            return False
        if any(w not in names and w not in _BUILTIN_WORDS for w in words[:-1]):
            return False
    return True


def declarations(native: Path) -> list[tuple[str, str, bool]]:
    """Per host-only function of Warp's tile headers, in header order: (name, its `__host__ __device__`
    declaration, whether Warp's header code itself calls it)."""
    texts = [_device_visible(h.read_text(encoding="utf-8", errors="replace")) for h in sorted(native.glob("tile*.h"))]
    everything = "\n".join(texts)
    # Searched once for every name: a `\bname\b` regex per name took ~3 s per process (the leading `\b`
    # keeps the regex engine from skipping ahead to the name's first letters).
    words = Counter(_WORD.findall(everything))
    out: list[tuple[str, str, bool]] = []
    for text in texts:
        for m in _HEAD.finditer(text):
            head = m.group(0)
            if _ANNOTATED.search(head):
                continue
            names = _template_names(m.group("tparams") or "") if m.group("template") else set()
            if names is None or not _declarable(m.group("params"), names):
                continue
            ret = "".join(m.group("ret").split())
            if ret not in ("auto", "void", "int") and ret.rstrip("&") not in names:
                continue
            name = m.group("name")
            template = f"template <{' '.join(m.group('tparams').split())}> " if m.group("template") else ""
            params = " ".join(m.group("params").split())
            decl = f"{template}__host__ __device__ {ret} {name}({params});"
            # A helper the headers call (tile_coord in every tile_store, argmax_tracker in tile_argmax) is
            # needed whatever the row calls: its name occurs more often than it is defined.
            definition = re.compile(rf"{name}\s*\([^;{{}}]*\)\s*(?:const\s*)?\{{")
            definitions = sum(1 for d in definition.finditer(everything) if _starts_word(everything, d.start()))
            out.append((name, decl, words[name] > definitions))
    return out


@functools.cache
def _declarations(native_dir: str) -> tuple[tuple[str, str, bool], ...]:
    return tuple(declarations(Path(native_dir)))


def shim(native_dir: str, cuda_text: str) -> str:
    """The block a CUDA program puts before `#include "aot.h"`: declarations of the host-only tile functions
    that the row's code (`cuda_text`) calls or that Warp's headers call; empty for a row without tiles."""
    if not uses_tiles(cuda_text):
        return ""
    # The row's words, once: a `\bname\b` search per declaration took ~60 ms on a tile row's code.
    words = set(_WORD.findall(cuda_text))
    decls = [decl for name, decl, internal in _declarations(native_dir) if internal or name in words]
    if not decls:
        return ""
    return "\n".join(
        [
            "// nvcc: Warp's tile headers leave these functions without an execution space, which NVRTC (Warp's",
            "// compiler, --device-as-default-execution-space) reads as device code and nvcc as host-only.",
            "// Declaring them __host__ __device__ first makes Warp's own definitions below callable in kernels.",
            "namespace wp {",
            *decls,
            "}  // namespace wp",
            "",
        ]
    )


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


_WORD = re.compile(r"\w+")


def _starts_word(text: str, position: int) -> bool:
    """Whether a `\\b` lies before `position` (a match starting with a word character)."""
    return position == 0 or not _WORD.match(text, position - 1)


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


# Warp's `tile_stack_t` (tile.h) defines its destructor without an execution space: host-only under nvcc, so a
# kernel holding a stack failed ("calling a __host__ function("wp::tile_stack_t<int, 64>::~tile_stack_t()")
# from a __global__ function": 20 warp-lang rows, 17 of them with a replayed launch). A member of a class
# template may be explicitly specialised, and the specialisation may carry its own execution space: for each
# stack type the row declares, the program adds the destructor's device form, with the body read from the
# installed Warp's header. These follow `#include "aot.h"` in namespace `wp` (a batch hoists them out of the
# rows' namespaces), so only stacks of Warp's own and built-in types are covered: a stack of the row's own
# struct cannot be named there (3 rows of the default build, none launched).
STACK_DESTRUCTORS = "// nvcc: a device form of Warp's tile_stack_t destructor for each stack type of this row.\n"
_STACK_TYPE = re.compile(r"\btile_stack_t<")
_DESTRUCTOR = re.compile(r"~tile_stack_t\(\)\s*\{")


def _closing(text: str, start: int, open_char: str, close_char: str) -> int:
    """Index just past the bracket that closes the one opened before `start`; -1 when it never closes."""
    depth = 1
    for position in range(start, len(text)):
        depth += (text[position] == open_char) - (text[position] == close_char)
        if depth == 0:
            return position + 1
    return -1


@functools.cache
def _stack_destructor_body(native_dir: str) -> str | None:
    """The statements of Warp's `~tile_stack_t()`, on one line; None when Warp marks it CUDA_CALLABLE already
    (or defines no tile stack): the program then needs nothing."""
    path = Path(native_dir) / "tile.h"
    text = _COMMENT.sub("", path.read_text()) if path.exists() else ""
    m = _DESTRUCTOR.search(text)
    if m is None or _ANNOTATED.search(text[text.rfind("\n", 0, m.start()) : m.start()]):
        return None
    end = _closing(text, m.end(), "{", "}")
    return " ".join(text[m.end() : end - 1].split()) if end > 0 else None


def _stack_types(cuda_text: str) -> list[tuple[str, str]]:
    """(element type, capacity) of each distinct `tile_stack_t<...>` the code names, in order of appearance."""
    found: dict[tuple[str, str], None] = {}
    for m in _STACK_TYPE.finditer(cuda_text):
        end = _closing(cuda_text, m.end(), "<", ">")
        element, _, capacity = cuda_text[m.end() : end - 1].rpartition(",")
        if end > 0 and capacity.strip().isdigit():
            found.setdefault((" ".join(element.split()), capacity.strip()))
    return list(found)


def _names_only_warp_types(element: str) -> bool:
    """Whether a type is spelled with Warp's (`wp::...`) and built-in names only: declared before the row's code."""
    return set(_IDENT.findall(re.sub(r"(?:::)?wp::\w+", "", element))) <= _BUILTIN_WORDS


def stack_destructors(native_dir: str, cuda_text: str) -> str:
    """The block a CUDA program puts right after `#include "aot.h"` when its code declares a tile stack of
    Warp's own types: one explicit specialisation of the destructor per line; empty otherwise."""
    if "tile_stack_t<" not in cuda_text:
        return ""
    body = _stack_destructor_body(native_dir)
    types = [(e, c) for e, c in _stack_types(cuda_text) if _names_only_warp_types(e)]
    if body is None or not types:
        return ""
    lines = [
        f"namespace wp {{ template <> inline CUDA_CALLABLE tile_stack_t<{e}, {c}>::~tile_stack_t() {{ "
        f"using T = {e}; constexpr int Capacity = {c}; {body} }} }}"
        for e, c in types
    ]
    return STACK_DESTRUCTORS + "\n".join(lines) + "\n"


def split_stack_destructors(text: str) -> tuple[list[str], str]:
    """(the specialisation lines `stack_destructors` wrote at the start of `text`, the rest of `text`)."""
    if not text.startswith(STACK_DESTRUCTORS):
        return [], text
    rest = text[len(STACK_DESTRUCTORS) :]
    lines: list[str] = []
    while rest.startswith("namespace wp { template <> inline CUDA_CALLABLE tile_stack_t<"):
        line, _, rest = rest.partition("\n")
        lines.append(line)
    return lines, rest
