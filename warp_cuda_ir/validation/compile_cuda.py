"""CUDA compile of rows with NVRTC (no GPU or driver needed), batched, with failing batches bisected.

Rows cannot simply be concatenated into one `.cu`: every row defines its own `wp.func` helpers
(`helper_1`, ...) and structs, so names clash. Each row's helpers and kernels are wrapped in their
own C++ namespace instead; kernels are `extern "C"` with content-hashed names, so their PTX entry
names stay those of the row. One NVRTC call then pays the header and process costs once for the
whole batch (measured ~2.8x faster per row than compiling each row's module alone, see
benchmarks/validation.py). Forward and backward kernels sit in namespaces of their own, the backward's
with its helpers out of line (`batch_source`). A batch that fails is split in halves until the culprit
rows are alone; a row that fails alone is compiled with its exact module source
(`extraction.translation_unit`), so each bad row gets Warp's own compiler log and no good row is blamed.
`WP_TILE_BLOCK_DIM` is set once per module, so only rows of equal `block_dim` share a batch."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warp_cuda_ir import extraction, warp_session
from warp_cuda_ir.errors import UsageError

LOG_LIMIT = 20_000  # characters of compiler log kept per row


@dataclass(frozen=True)
class CudaCompile:
    status: str  # "ok" | "error"
    log: str | None
    ptx: str | None  # the forward kernel's PTX


def check_arch(arch: int) -> None:
    """Raise UsageError when this NVRTC cannot target `arch`."""
    warp_session.init_warp()
    archs = warp_session.supported_archs()
    if arch not in archs:
        raise UsageError(f"NVRTC {warp_session.toolkit_version()} does not support arch {arch}; supported: {archs}")


def batch_source(rows: Sequence[Mapping[str, Any]]) -> str:
    """One `.cu` holding every row's helpers and kernels, each row in its own namespace (equal block_dim).

    Forward kernels come first, with the row's helpers as Warp emits them: their PTX is the row's `ptx`.
    Backward kernels follow, each with its own copy of the row's helpers, compiled with every generated
    helper `__noinline__` (`_OUT_OF_LINE`). The backward's PTX is kept nowhere, only NVRTC's verdict on it,
    and the front end checks the same text either way; what inlining costs is NVVM inlining each
    helper's adjoint into the backward kernel and optimising the result. On 128 replayed real rows in
    batches of 32, 1.31 / 1.28 CPU-s/row in Warp's module form against 0.67 / 0.62 in this one; one
    mujoco-warp kernel alone 73.5 s against 9.1 s, 7.4 of it its forward (`benchmarks/validation.py
    --backward-forms`, benchmarks/README.md).
    """
    block_dims = {r.get("block_dim") or extraction.CUDA_BLOCK_DIM for r in rows}
    if len(block_dims) > 1:
        raise ValueError(f"rows of one batch need one block_dim, got {sorted(block_dims)}")
    forward = _namespaces(rows, "warp_cuda_ir_row", "cuda_forward")
    backward = _namespaces(rows, "warp_cuda_ir_adjoint", "cuda_backward")
    body = forward + (_OUT_OF_LINE + backward if backward else "")
    # The module prelude (headers, macros, bfloat16 switch) is exactly the one a row gets.
    unit = {"cuda_helpers": body, "cuda_forward": "", "cuda_backward": "", "block_dim": block_dims.pop()}
    return extraction.translation_unit(unit, "cuda")


def _namespaces(rows: Sequence[Mapping[str, Any]], prefix: str, kernel: str) -> str:
    """Each row's helpers and its `kernel` column in a namespace of its own (rows without that kernel: none)."""
    return "".join(
        f"\nnamespace {prefix}_{i} {{\n{r['cuda_helpers']}{r[kernel]}\n}}\n" for i, r in enumerate(rows) if r[kernel]
    )


# Warp's generated functions and struct members are declared `CUDA_CALLABLE` (`__host__ __device__`, from
# Warp's `builtin.h`). A helper written `inline=True` keeps its `always_inline` too, which NVRTC accepts.
_OUT_OF_LINE = "\n#undef CUDA_CALLABLE\n#define CUDA_CALLABLE __host__ __device__ __noinline__\n"


def forward_ptx(ptx: str, symbol: str) -> str | None:
    """The PTX of `<symbol>_cuda_kernel_forward` alone, from a module's PTX (`forward_ptxs`)."""
    return forward_ptxs(ptx, [symbol])[0]


def forward_ptxs(ptx: str, symbols: Sequence[str]) -> list[str | None]:
    """For each symbol, the `.entry` of `<symbol>_cuda_kernel_forward` from a module's PTX, after the module's
    header and the module-scope declarations and functions it uses (shared tile storage, `printf`'s format
    strings and `vprintf`, ...), in the module's order: PTX that ptxas assembles alone. The module is read
    once for all of them (a batch's PTX runs to megabytes)."""
    ptx = ptx.rstrip("\x00")
    header_end = ptx.find("\n\n", ptx.find(".address_size"))
    if header_end < 0:
        return [None] * len(symbols)
    items = _module_items(ptx[header_end + 2 :])
    names = {name: k for k, (name, _) in enumerate(items) if name}
    return [
        _with_what_it_uses(ptx[: header_end + 2], items, names, names.get(f"{s}_cuda_kernel_forward")) for s in symbols
    ]


def _with_what_it_uses(
    header: str, items: list[tuple[str | None, str]], names: Mapping[str, int], entry: int | None
) -> str | None:
    if entry is None:
        return None
    used, todo = {entry}, [entry]
    while todo:  # what the entry names, what that names, ...
        for token in _TOKEN.findall(items[todo.pop()][1]):
            k = names.get(token)
            if k is not None and k not in used:
                used.add(k)
                todo.append(k)
    declarations = "".join(items[k][1] for k in sorted(used - {entry}))
    text = _FUNCTION_ORDINAL.sub(r"\g<1>0", declarations + ("\n" if declarations else "") + items[entry][1])
    calls: dict[str, str] = {}
    text = _CALL_SEQUENCE.sub(lambda m: m[1] + calls.setdefault(m[2], str(len(calls))), text)
    strings: dict[str, str] = {}
    text = _STRING.sub(lambda m: strings.setdefault(m[0], "$str" + (f"${len(strings)}" if strings else "")), text)
    return header + text


def _module_items(body: str) -> list[tuple[str | None, str]]:
    """A PTX module's top-level items after its header, each (the symbol it defines or None, its lines): a
    declaration ends with `;` outside braces, a function with the brace that closes its body."""
    items: list[tuple[str | None, str]] = []
    lines: list[str] = []
    depth = 0
    for line in body.splitlines(keepends=True):
        if not lines and (not line.strip() or line.lstrip().startswith("//")):
            continue  # blank lines and `// .globl` comments between items
        lines.append(line)
        depth += line.count("{") - line.count("}")
        code = line.split("//", 1)[0].rstrip()
        if depth == 0 and (code.endswith(";") or code.endswith("}")):
            text = "".join(lines)
            found = _DEFINES.search(text)
            items.append((found and (found[1] or found[2]), text))
            lines = []
    if lines:
        items.append((None, "".join(lines)))
    return items


_TOKEN = re.compile(r"[A-Za-z_$][\w$]*")
# What an item defines: a function or entry (its name, after an optional return parameter list), or a variable
# (the name before its `[size]`, initialiser or `;`).
_DEFINES = re.compile(
    r"^[^\n]*?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)"
    r"|^[^\n]*?\.(?:global|shared|const)\s[^\n=;\[]*?([A-Za-z_$][\w$]*)\s*(?:\[[^\]]*\])?\s*(?:=|;)"
)


# NVVM numbers a function's branch labels and local depot by the function's place in the module
# (`$L__BB62_18`, `__local_depot62`), and its call sequences (`// callseq 542`, around each call such as
# `printf`'s) and string constants (`$str$3`, a format string) on one count over the module, so the same
# kernel compiled in another batch would get other names: numbered as the only function of its text, a
# row's PTX depends on the row alone.
_FUNCTION_ORDINAL = re.compile(r"(\$L__BB|__local_depot)\d+")
_CALL_SEQUENCE = re.compile(r"(// callseq )(\d+)")
_STRING = re.compile(r"\$str(?:\$\d+)?")


def assemble(ptx: str, arch: int, workdir: Path) -> subprocess.CompletedProcess[str]:
    """ptxas (from PATH) on a row's `ptx` alone. A ptxas older than Warp's NVRTC (nvcc 13.0's reads PTX 9.0,
    NVRTC 13.4 writes 9.4) gets the text declared at the version it names, which it assembles only if the
    kernel uses nothing newer."""
    path = workdir / "row.ptx"
    for _ in range(2):
        path.write_text(ptx)
        done = subprocess.run(
            ["ptxas", f"-arch=sm_{arch}", str(path), "-o", os.devnull], capture_output=True, text=True
        )
        older = re.search(r"Unsupported \.version [\d.]+; current version is '([\d.]+)'", done.stderr)
        if not older:
            break
        ptx = re.sub(r"^\.version [\d.]+$", f".version {older[1]}", ptx, count=1, flags=re.MULTILINE)
    return done


def compile_source(source: str, arch: int, workdir: Path, name: str) -> tuple[str | None, str]:
    """(PTX or None, compiler log) for one `.cu` text."""
    cu = workdir / f"{name}.cu"
    cu.write_text(source)
    out = workdir / f"{name}.ptx"
    with warp_session.captured_stderr() as log:
        try:
            warp_session.build_cuda(cu, arch, out, workdir / "pch")
            ok = True
        except Exception:
            ok = False
    ptx = out.read_text(errors="replace") if ok and out.exists() else None
    return ptx, log[0]


def compile_rows(rows: Sequence[Mapping[str, Any]], arch: int, workdir: Path) -> list[CudaCompile]:
    """Compile rows in one batch; bisect on failure. Results are in row order."""
    warp_session.init_warp()
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "pch").mkdir(exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=workdir, prefix="batch_"))
    groups: dict[int, list[int]] = {}  # block_dim -> positions of its rows
    for position, row in enumerate(rows):
        groups.setdefault(row.get("block_dim") or extraction.CUDA_BLOCK_DIM, []).append(position)
    results: list[CudaCompile | None] = [None] * len(rows)
    try:
        for positions in groups.values():
            for position, result in zip(positions, _compile([rows[p] for p in positions], arch, scratch), strict=True):
                results[position] = result
        return [r for r in results if r is not None]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _compile(rows: list[Mapping[str, Any]], arch: int, scratch: Path) -> list[CudaCompile]:
    ptx, _ = compile_source(batch_source(rows), arch, scratch, "batch")
    if ptx is not None:
        return [CudaCompile("ok", None, text) for text in forward_ptxs(ptx, [r["kernel_symbol"] for r in rows])]
    if len(rows) > 1:
        half = len(rows) // 2
        return _compile(rows[:half], arch, scratch) + _compile(rows[half:], arch, scratch)
    # A row that fails alone is judged by its exact module, as Warp compiles it: its log is the one a Warp
    # user sees, and a row Warp compiles is never blamed for the batch's form.
    ptx, log = compile_source(extraction.translation_unit(dict(rows[0]), "cuda"), arch, scratch, "row")
    if ptx is None:
        return [CudaCompile("error", (log.strip() or "NVRTC failed without a log")[-LOG_LIMIT:], None)]
    return [CudaCompile("ok", None, forward_ptx(ptx, rows[0]["kernel_symbol"]))]
