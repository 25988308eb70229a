"""Extraction: Python kernel source -> the C++ that Warp's code generator emits for it.

No GPU or CUDA driver is needed: code generation is pure Python inside Warp. We use
Warp's private `ModuleBuilder` (pinned minor version, covered by tests/test_extraction.py)
because the public AOT route writes files and compiles everything, which is far slower.

Every extracted text is a verbatim slice of Warp's module source, so
`translation_unit(texts, target)` rebuilds exactly what Warp would compile.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import linecache
import sys
import threading
import time
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import warp as wp

Target = Literal["cuda", "cpu"]

# A fixed pseudo-filename: it appears in `// <file>:N` comments of the generated code,
# so it must not depend on the process, the seed or a temp directory.
SOURCE_FILENAME = "<warp_cuda_ir>"
# A fixed module name: each sample's module is removed from Warp's registry after use,
# so reusing the name never mixes kernels of two samples.
MODULE_NAME = "warp_cuda_ir_sample"

# CUDA: Warp's default launch block size (a row may carry another, e.g. tile kernels);
# CPU: what `wp.launch(device="cpu")` and `wp.launch_tiled(device="cpu")` compile with.
CUDA_BLOCK_DIM = 256
CPU_BLOCK_DIM = 1
DEFAULT_CUDA_ARCH = 90

_lock = threading.RLock()
_initialised = False
_codegen_cpu_s = 0.0  # see codegen_cpu_seconds
_function_key_counts_at_init: dict[str, int] = {}


class ExtractionError(Exception):
    """Warp could not generate code for a sample (the message says why)."""


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


def codegen_cpu_seconds() -> float:
    """CPU seconds this process has spent in `extract` (loading the kernel and Warp's codegen).

    The build benchmark sums it over a build's workers: Warp's share of the build's core time,
    measured inside the build rather than in a separate run on a VM whose speed drifts.
    """
    return _codegen_cpu_s


def init_warp() -> None:
    """Initialise Warp quietly, once per process, and remember the helper-name counters."""
    global _initialised, _function_key_counts_at_init
    with _lock:
        if _initialised:
            return
        wp.config.log_level = wp.LOG_WARNING  # no greeting banner in every worker
        with _silence_fd(2):  # "CUDA driver not found" is expected here, not news
            wp.init()
        from warp._src import context

        _function_key_counts_at_init = dict(context.function_key_counts)
        _freeze_long_lived_objects()
        _initialised = True


def _freeze_long_lived_objects() -> None:
    """Keep the cycle collector from re-scanning Warp's built-in registry on every full collection.

    `wp.init()` leaves ~190k objects (builtins, overloads, signatures) that live as long as the
    process. Codegen allocates heavily, so full collections recur every ~100 rows, and each one
    walked all of them (~0.9 ms/row, measured). Freezing moves what exists now into the permanent
    generation: the collector skips it; nothing created later is affected, and output is unchanged.
    Garbage already present is collected first so that it is not kept forever.
    """
    gc.collect()
    gc.freeze()


@contextlib.contextmanager
def _silence_fd(fd: int):
    import os

    saved = os.dup(fd)
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), fd)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


def normalize_source(source: str) -> str:
    """Formatting- and comment-insensitive form of Python source, used for dedup."""
    return ast.unparse(ast.parse(source))


def module_options(
    target: Target, arch: int = DEFAULT_CUDA_ARCH, block_dim: int = CUDA_BLOCK_DIM, base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Module options (Warp's defaults, or `base`) as used for one target (`block_dim`: the CUDA launch's)."""
    from warp._src import context

    options = dict(context.Module(None, None).options if base is None else base)
    options["block_dim"] = block_dim if target == "cuda" else CPU_BLOCK_DIM
    options["output_arch"] = arch  # needed by tile code even when not compiling
    return options


_cpu_exec_ids = [0]  # the highest CPU executable id any sample module of this process used


def load_kernel(source: str, kernel_name: str | None = None) -> tuple[Any, dict[str, Any]]:
    """Execute kernel source as a fresh Warp module; return (kernel, namespace).

    Warp reads kernel source through `inspect`, which consults `linecache`; registering
    the text there lets us `exec` it without temporary files. Call `release` afterwards.
    """
    init_warp()
    from warp._src import context

    context.user_modules.pop(MODULE_NAME, None)
    context.function_key_counts.clear()
    context.function_key_counts.update(_function_key_counts_at_init)
    linecache.cache[SOURCE_FILENAME] = (len(source), None, source.splitlines(True), SOURCE_FILENAME)
    # A real module in sys.modules: @wp.struct resolves its annotations through it.
    module = types.ModuleType(MODULE_NAME)
    module.__file__ = SOURCE_FILENAME
    sys.modules[MODULE_NAME] = module
    namespace: dict[str, Any] = module.__dict__
    try:
        exec(compile(source, SOURCE_FILENAME, "exec"), namespace)
    except Exception as e:
        release()
        raise ExtractionError(f"source does not execute: {type(e).__name__}: {e}") from e
    sample_module = context.user_modules.get(MODULE_NAME)
    if sample_module is not None:
        # Warp names a loaded CPU module `wp_<module name>_<cpu_exec_id>`, counting per Module object,
        # and every sample's module has the same name. Without a process-wide count, an earlier
        # sample's executable freed later by the garbage collector unloads by a handle this sample
        # reuses: the likely cause of rare "Symbols not found" launch failures in long runs.
        sample_module.cpu_exec_id = _cpu_exec_ids[0]
    kernels = [v for v in namespace.values() if isinstance(v, wp.Kernel)]
    if kernel_name is not None:
        kernels = [k for k in kernels if k.key == kernel_name]
    if len(kernels) != 1:
        release()
        raise ExtractionError(f"expected exactly one @wp.kernel, found {len(kernels)}")
    return kernels[0], namespace


@contextlib.contextmanager
def loaded_kernel(source: str, kernel_name: str | None = None) -> Iterator[tuple[Any, dict[str, Any]]]:
    """`load_kernel` for the duration of a block (e.g. to launch it), then `release`."""
    with _lock:
        kernel, namespace = load_kernel(source, kernel_name)
        try:
            yield kernel, namespace
        finally:
            release()


def release() -> None:
    """Forget the current sample's module so memory stays flat over long builds."""
    from warp._src import context

    module = context.user_modules.pop(MODULE_NAME, None)
    if module is not None:
        _cpu_exec_ids[0] = max(_cpu_exec_ids[0], module.cpu_exec_id)
        module.unload()  # compiled CPU/CUDA code, if it was launched
        # Modules this sample called into (Warp's own @wp.func modules) list it in their `dependents`
        # set: without this the sample module, its kernels and adjoints stay alive, and every
        # later sample got slower (~10% after 3,000 samples, measured).
        module._detach_references()
        for attr in ("kernels", "functions", "structs", "constants"):
            registry = getattr(module, attr, None)
            if hasattr(registry, "clear"):
                registry.clear()
    linecache.cache.pop(SOURCE_FILENAME, None)
    sys.modules.pop(MODULE_NAME, None)


def extract(
    source: str, kernel_name: str | None = None, arch: int = DEFAULT_CUDA_ARCH, block_dim: int = CUDA_BLOCK_DIM
) -> KernelTexts:
    """Generate CUDA (for launches of `block_dim` threads per block) and CPU code for the kernel in `source`."""
    from warp._src import context

    global _codegen_cpu_s
    started = time.process_time()
    with _lock:  # Warp's registries are process-global
        kernel, _ = load_kernel(source, kernel_name)
        try:
            # Options the source set with `wp.set_module_options` (real code does, e.g. enable_backward)
            # count; a source that sets none gets Warp's defaults, as before.
            cuda_options = module_options("cuda", arch, block_dim, base=kernel.module.options)
            cpu_options = module_options("cpu", arch, block_dim, base=kernel.module.options)
            builder = context.ModuleBuilder(kernel.module, cuda_options, target="cuda")
            cuda_source = builder.codegen("cuda")
            builder.options = cpu_options  # one build serves both targets
            cpu_source = builder.codegen("cpu")
            # A generic kernel with one `wp.overload` (a harvested specialisation): that overload's code.
            generated = list(kernel.overloads.values()) if kernel.is_generic else [kernel]
            if len(generated) != 1:
                raise ExtractionError(f"generic kernel with {len(generated)} overloads; expected one")
            symbol = generated[0].get_mangled_name()
        except ExtractionError:
            raise
        except Exception as e:
            raise ExtractionError(f"Warp codegen failed: {type(e).__name__}: {_one_line(e)}") from e
        finally:
            release()
            _codegen_cpu_s += time.process_time() - started

    return texts_from_module_sources(
        cuda_source, cpu_source, symbol, kernel.key, cuda_options, cpu_options, block_dim=block_dim
    )


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


def _one_line(e: BaseException) -> str:
    """Warp's messages span lines; a row's error text is kept to one."""
    return " ".join(line.strip() for line in str(e).strip().splitlines() if line.strip())[:1000]


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (v if isinstance(v, (bool, int, float, str, type(None))) else str(v)) for k, v in sorted(options.items())
    }
