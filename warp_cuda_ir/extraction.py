"""Extraction: Python kernel source -> the C++ that Warp's code generator emits for it.

No GPU or CUDA driver is needed: code generation is pure Python inside Warp. We use
Warp's private `ModuleBuilder` (pinned minor version, covered by tests/test_extraction.py)
because the public AOT route writes files and compiles everything, which is far slower.

Every extracted text is a verbatim slice of Warp's module source, so
`translation_unit(texts, target)` rebuilds exactly what Warp would compile.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from warp_cuda_ir import warp_session
from warp_cuda_ir.errors import ExtractionError, one_line

Target = Literal["cuda", "cpu"]

# CUDA: Warp's default launch block size (a row may carry another, e.g. tile kernels);
# CPU: what `wp.launch(device="cpu")` and `wp.launch_tiled(device="cpu")` compile with.
CUDA_BLOCK_DIM = 256
CPU_BLOCK_DIM = 1
DEFAULT_CUDA_ARCH = 90

_codegen_cpu_s = 0.0  # see codegen_cpu_seconds

# `KernelTexts.backward_origin`: the options the source sets generate the adjoint (`AS_WRITTEN`), or they
# disable it and `extract(..., force_backward=True)` enabled it for code generation only, because the
# module disables it (`wp.set_module_options({"enable_backward": False})`) or the kernel itself does
# (`@wp.kernel(enable_backward=False)`, which wins over the module's option in Warp).
AS_WRITTEN = "as_written"
ENABLED_MODULE = "enabled_here:module"
ENABLED_KERNEL = "enabled_here:kernel"
BACKWARD_ORIGINS = (AS_WRITTEN, ENABLED_MODULE, ENABLED_KERNEL)
# `KernelTexts.backward_missing` when the source disables backward and nobody asked to enable it.
DISABLED_BY_SOURCE = "disabled by the source's options (enable_backward=False)"


@dataclass(frozen=True)
class KernelTexts:
    """What Warp generated for one kernel, split at function boundaries."""

    kernel_name: str  # the Python name, e.g. `integrate`
    kernel_symbol: str  # the mangled C name, e.g. `integrate_3f2a1b0c`
    cuda_helpers: str  # structs, wp.func helpers and their adjoints, in Warp's order
    cuda_forward: str
    cuda_backward: str
    cpu_helpers: str
    cpu_forward: str  # includes the CPU argument struct and forward entry points
    cpu_backward: str  # includes the backward entry points
    cuda_options: dict[str, Any]
    cpu_options: dict[str, Any]
    block_dim: int = CUDA_BLOCK_DIM  # the CUDA module's; the CPU module's is always CPU_BLOCK_DIM
    # Where the backward texts come from (`BACKWARD_ORIGINS`); None: there are none, `backward_missing` says why.
    backward_origin: str | None = None
    backward_missing: str | None = None


def codegen_cpu_seconds() -> float:
    """CPU seconds this process has spent loading kernels and in Warp's codegen (`extract`, `generated`).

    The build benchmark sums it over a build's workers: Warp's share of the build's core time,
    measured inside the build rather than in a separate run on a VM whose speed drifts.
    """
    return _codegen_cpu_s


def module_options(
    target: Target, arch: int = DEFAULT_CUDA_ARCH, block_dim: int = CUDA_BLOCK_DIM, base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Module options (Warp's defaults, or `base`) as used for one target (`block_dim`: the CUDA launch's)."""
    options = warp_session.default_module_options() if base is None else dict(base)
    options["block_dim"] = block_dim if target == "cuda" else CPU_BLOCK_DIM
    options["output_arch"] = arch  # needed by tile code even when not compiling
    return options


def extract(
    source: str,
    kernel_name: str | None = None,
    arch: int = DEFAULT_CUDA_ARCH,
    block_dim: int = CUDA_BLOCK_DIM,
    force_backward: bool = False,
    history_free_names: bool = False,
) -> KernelTexts:
    """Generate CUDA (for launches of `block_dim` threads per block) and CPU code for the kernel in `source`.

    `force_backward`: where the source's options disable backward, generate the adjoint all the same (see
    `AS_WRITTEN`); the forward texts stay those of the source's own options, byte for byte.
    `history_free_names`: the `@wp.func`s of modules the source imports get the native names
    `warp_session.history_free_names` gives, rather than those the imports that came first in this process
    gave them (a harvest worker's); the source's own functions are named alike either way.
    """
    with generated(source, kernel_name, arch, block_dim, force_backward, history_free_names) as (texts, _, _):
        return texts


@contextlib.contextmanager
def generated(
    source: str,
    kernel_name: str | None = None,
    arch: int = DEFAULT_CUDA_ARCH,
    block_dim: int = CUDA_BLOCK_DIM,
    force_backward: bool = False,
    history_free_names: bool = False,
) -> Iterator[tuple[KernelTexts, Any, dict[str, Any]]]:
    """`extract`, with the kernel left loaded for the block: yields (texts, kernel, namespace).

    What else a row needs of the loaded kernel (its launch's input values) is made in the block, so
    one Warp load serves every column: loading it again cost ~1 ms per row (exec and Warp's parse).
    """
    global _codegen_cpu_s
    started = time.process_time()
    with warp_session.lock:  # Warp's registries are process-global
        try:
            try:
                kernel, namespace = warp_session.load_kernel(source, kernel_name)
                texts = _generate(kernel, arch, block_dim, force_backward, history_free_names)
            finally:
                _codegen_cpu_s += time.process_time() - started
            yield texts, kernel, namespace
        finally:
            warp_session.release()


def _generate(kernel: Any, arch: int, block_dim: int, force_backward: bool, history_free_names: bool) -> KernelTexts:
    """Warp's code for a loaded kernel, sliced into a row's texts (see `extract`)."""
    built: list[Any] = []
    texts = _generate_as_named(kernel, arch, block_dim, force_backward, built)
    if not history_free_names:
        return texts
    renaming = warp_session.history_free_names(kernel, built)
    if renaming is None:
        # No second build: of the default harvest's 5,850 builds, 18 call a function of a module imported after
        # `init_warp`, and in three harvests (2 workers) none of those needed a new name (measured).
        return texts
    try:
        with warp_session.renamed(renaming):
            return _generate_as_named(kernel, arch, block_dim, force_backward, [])
    except ExtractionError as e:
        raise ExtractionError(f"{e} (with history-free helper names)") from e


def _generate_as_named(kernel: Any, arch: int, block_dim: int, force_backward: bool, built: list[Any]) -> KernelTexts:
    """`_generate` with the functions' native names as they are; `built` gets the functions Warp generated."""
    from warp._src import context

    try:
        # Options the source set with `wp.set_module_options` (real code does, e.g. enable_backward)
        # count; a source that sets none gets Warp's defaults, as before.
        cuda_options = module_options("cuda", arch, block_dim, base=kernel.module.options)
        cpu_options = module_options("cpu", arch, block_dim, base=kernel.module.options)
        # A generic kernel with one `wp.overload` (a harvested specialisation): that overload's code.
        generated = list(kernel.overloads.values()) if kernel.is_generic else [kernel]
        if len(generated) != 1:
            raise ExtractionError(f"generic kernel with {len(generated)} overloads; expected one")
        hasher = context.ModuleHasher(kernel.module._get_live_kernels(), cuda_options)
        switch = warp_session.backward_switch(generated[0], cuda_options)
        origin = {"kernel": ENABLED_KERNEL, "module": ENABLED_MODULE}.get(switch or "")
        enabled: tuple[str, str] | str | None = None
        if origin is not None and force_backward:
            both = _codegen_with_backward(kernel.module, generated[0], hasher, cuda_options, cpu_options, built)
            if isinstance(both, tuple):
                (cuda_source, cpu_source), enabled = both
            else:
                enabled = both
        if not isinstance(enabled, tuple):
            cuda_source, cpu_source = _codegen(kernel.module, hasher, cuda_options, cpu_options, built)
        symbol = generated[0].get_mangled_name()  # after the build, which sets the kernel's hash
    except ExtractionError:
        raise
    except Exception as e:
        raise ExtractionError(f"Warp codegen failed: {type(e).__name__}: {one_line(e)}") from e

    texts = texts_from_module_sources(
        cuda_source, cpu_source, symbol, kernel.key, cuda_options, cpu_options, block_dim=block_dim
    )
    if origin is None:
        return dataclasses.replace(texts, backward_origin=AS_WRITTEN)
    if not force_backward:
        return dataclasses.replace(texts, backward_missing=DISABLED_BY_SOURCE)
    return _with_enabled_backward(texts, enabled, origin)


def backward_columns(texts: KernelTexts | dict[str, Any]) -> dict[str, str | None]:
    """The row's `backward_origin` and `backward_missing_reason` (schema.py) for these texts."""
    get = texts.get if isinstance(texts, dict) else lambda k: getattr(texts, k)
    if get("cuda_backward") and get("cpu_backward"):
        return {"backward_origin": get("backward_origin") or AS_WRITTEN, "backward_missing_reason": None}
    return {"backward_origin": None, "backward_missing_reason": get("backward_missing") or DISABLED_BY_SOURCE}


def _codegen(
    module: Any,
    hasher: Any,
    cuda_options: dict[str, Any],
    cpu_options: dict[str, Any],
    built: list[Any] | None = None,
) -> tuple[str, str]:
    """(CUDA, CPU) sources of the whole module (`warp_session.module_sources`); the functions it generated
    are appended to `built`."""
    cuda_source, cpu_source, builder = warp_session.module_sources(module, cuda_options, cpu_options, hasher)
    if built is not None:
        built += warp_session.builder_functions(builder)
    return cuda_source, cpu_source


def _codegen_with_backward(
    module: Any,
    kernel: Any,
    hasher: Any,
    cuda_options: dict[str, Any],
    cpu_options: dict[str, Any],
    built: list[Any] | None = None,
) -> tuple[tuple[str, str], tuple[str, str]] | str:
    """((CUDA, CPU) as the options give them, (CUDA, CPU) with backward enabled for this build only), from one
    build (`warp_session.module_sources_with_backward`), or why Warp could not generate the backward.

    `hasher` is the one the source's own options gave: kernel names keep their hashes (the kernel's own
    `enable_backward` enters its hash), so the backward code calls the forward's symbols.
    """
    try:
        with time_limit(BACKWARD_CODEGEN_LIMIT_S):
            as_written, enabled, builder = warp_session.module_sources_with_backward(
                module, kernel, cuda_options, cpu_options, hasher
            )
    except TimeLimitExceeded as e:
        return f"Warp's adjoint generation did not finish: {e}"
    except Exception as e:  # whatever Warp raises for this kernel's adjoint (WarpCodegenError, ...)
        return f"Warp cannot generate the adjoint: {type(e).__name__}: {one_line(e)}"[:500]
    if built is not None:
        built += warp_session.builder_functions(builder)
    return as_written, enabled


# The harvest's parent kills a worker after 120 s without an answer for a kernel, losing its forward row too;
# the slowest newton kernel takes ~2 s for both of its codegens (measured), so an adjoint still generating after
# this long is stuck and only its backward is given up.
BACKWARD_CODEGEN_LIMIT_S = 40.0


class TimeLimitExceeded(Exception):
    """`time_limit`'s budget ran out."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeLimitExceeded in the block after `seconds` (SIGALRM: on the main thread only, else no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TimeLimitExceeded(f"over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _with_enabled_backward(texts: KernelTexts, enabled: tuple[str, str] | str | None, origin: str) -> KernelTexts:
    """`texts` (the source's own options, no backward) completed from the backward-enabled build `enabled`.

    Forward texts stay `texts`'; backward texts and helpers (now holding their adjoints' bodies, which the
    backward kernel calls) come from `enabled`. Its forward must be the same code, up to the blank lines
    Warp puts between the functions, or the backward is not the adjoint of this forward and is left out.
    """
    if not isinstance(enabled, tuple):
        return dataclasses.replace(texts, backward_missing=enabled or DISABLED_BY_SOURCE)
    full = texts_from_module_sources(
        *enabled, texts.kernel_symbol, texts.kernel_name, texts.cuda_options, texts.cpu_options, texts.block_dim
    )
    for part in ("cuda_forward", "cpu_forward"):
        if _blank_lines_folded(getattr(full, part)) != _blank_lines_folded(getattr(texts, part)):
            return dataclasses.replace(texts, backward_missing=f"enabling backward changes {part}")
    if not full.cuda_backward or not full.cpu_backward:
        return dataclasses.replace(texts, backward_missing="Warp generated no adjoint with backward enabled")
    return dataclasses.replace(
        texts,
        cuda_helpers=full.cuda_helpers,
        cpu_helpers=full.cpu_helpers,
        cuda_backward=full.cuda_backward,
        cpu_backward=full.cpu_backward,
        backward_origin=origin,
    )


def _blank_lines_folded(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n")


def texts_from_module_sources(
    cuda_source: str,
    cpu_source: str,
    symbol: str,
    kernel_name: str,
    cuda_options: dict[str, Any],
    cpu_options: dict[str, Any],
    block_dim: int = CUDA_BLOCK_DIM,
) -> KernelTexts:
    """Slice Warp's CUDA and CPU sources of a module holding one kernel into a row's texts."""
    # The module is prelude + helpers + the kernel (+ CPU entry points), in that order: cut it
    # at the kernel's first line rather than generating the kernel's text a second time.
    # The line is `extern "C" [__launch_bounds__(...)] __global__ void <symbol>_cuda_kernel_forward(`.
    cuda_helpers, cuda_kernel = _cut_kernel(cuda_source, f" {symbol}_cuda_kernel_forward(")
    args_struct = f"struct wp_args_{symbol} {{"  # absent when the kernel takes no arguments
    if args_struct in cpu_source:
        cpu_helpers, cpu_kernel = _cut_kernel(cpu_source, args_struct)
    else:
        cpu_helpers, cpu_kernel = _cut_kernel(cpu_source, f"{symbol}_cpu_kernel_forward(", line_before=True)
    cpu_kernel, cpu_entry = _cut(cpu_kernel, _cpu_entry_marker(symbol, "forward", leading="\n\n"))
    cuda_fwd, cuda_bwd = _split_at(cuda_kernel, f"{symbol}_cuda_kernel_backward(", line_before=False)
    cpu_fwd, cpu_bwd = _split_at(cpu_kernel, f"{symbol}_cpu_kernel_backward(", line_before=True)
    entry_fwd, entry_bwd = _cut(cpu_entry, _cpu_entry_marker(symbol, "backward"))
    return KernelTexts(
        kernel_name=kernel_name,
        kernel_symbol=symbol,
        cuda_helpers=cuda_helpers,
        cuda_forward=cuda_fwd,
        cuda_backward=cuda_bwd,
        cpu_helpers=cpu_helpers,
        cpu_forward=cpu_fwd + entry_fwd,
        cpu_backward=cpu_bwd + entry_bwd,
        cuda_options=_jsonable(cuda_options),
        cpu_options=_jsonable(cpu_options),
        block_dim=block_dim,
    )


def prelude(module_source: str) -> str:
    """The fixed header Warp puts before a module's own code (macros and includes)."""
    from warp._src import codegen

    end = module_source.index(codegen.codegen_cast_macros) + len(codegen.codegen_cast_macros)
    return module_source[:end]


def translation_unit(texts: KernelTexts | dict[str, Any], target: Target) -> str:
    """Rebuild the complete module source Warp compiles for this kernel on `target`.

    CUDA uses the row's `block_dim` (Warp's default when the row has none); CPU always CPU_BLOCK_DIM.
    """
    from warp._src import codegen

    get = texts.get if isinstance(texts, dict) else lambda k: getattr(texts, k)
    forward, backward = get(f"{target}_forward"), get(f"{target}_backward")
    if target == "cpu":
        # Warp emits both kernel functions before both entry-point blocks; rows keep
        # each entry block with its own function, so put them back in Warp's order.
        symbol = get("kernel_symbol")
        forward, entry_fwd = _cut(forward, _cpu_entry_marker(symbol, "forward", leading="\n\n"))
        backward, entry_bwd = _cut(backward, _cpu_entry_marker(symbol, "backward"))
        backward += entry_fwd + entry_bwd
    body = get(f"{target}_helpers") + forward + backward
    template = codegen.cuda_module_header if target == "cuda" else codegen.cpu_module_header
    block_dim = (get("block_dim") or CUDA_BLOCK_DIM) if target == "cuda" else CPU_BLOCK_DIM
    type_defines = "" if "bfloat16" in body else "#define WP_NO_BFLOAT16\n"
    return type_defines + template.format(block_dim=block_dim) + codegen.codegen_cast_macros + body


def _cut_kernel(module_source: str, marker: str, *, line_before: bool = False) -> tuple[str, str]:
    """(helpers, the kernel and what follows it): the module body cut where the kernel starts."""
    body = module_source[len(prelude(module_source)) :]
    if marker not in body:
        raise ExtractionError(f"Warp's module layout changed: {marker!r} not found")
    return _split_at(body, marker, line_before=line_before)


def _split_at(text: str, marker: str, *, line_before: bool) -> tuple[str, str]:
    """Split generated text at the line holding `marker` (CPU: the template line above it too)."""
    pos = text.find(marker)
    if pos < 0:  # enable_backward=False: no adjoint was generated
        return text, ""
    line_start = text.rfind("\n", 0, pos) + 1
    if line_before:
        line_start = text.rfind("\n", 0, line_start - 1) + 1
    return text[:line_start], text[line_start:]


def _cpu_entry_marker(symbol: str, direction: str, leading: str = "") -> str:
    """Where Warp's CPU entry-point block for one direction begins (see codegen_module)."""
    return f"{leading}template <bool wp_linear_contiguous>\nstatic WP_FORCEINLINE void {symbol}_cpu_{direction}_tasks("


def _cut(text: str, marker: str) -> tuple[str, str]:
    pos = text.find(marker)
    return (text, "") if pos < 0 else (text[:pos], text[pos:])


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (v if isinstance(v, (bool, int, float, str, type(None))) else str(v)) for k, v in sorted(options.items())
    }
