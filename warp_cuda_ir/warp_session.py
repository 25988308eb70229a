"""The Warp session: every use of Warp's private `warp._src` that is not code generation itself.

Warp 1.19 exposes neither its module registry, nor NVRTC, nor its runtime queries publicly; we
depend on them, pinned to warp-lang 1.19.x (pyproject.toml). This module and `extraction`
(code generation) are the only two that import `warp._src`, so a Warp upgrade touches them alone;
tests/test_extraction.py and tests/test_session.py check the behaviour we rely on.

A process holds one session: `init_warp()` once, then kernel sources are executed one at a time
as a fresh Warp module (`load_kernel` ... `release`, or `loaded_kernel` as a context manager).
"""

from __future__ import annotations

import contextlib
import gc
import linecache
import os
import sys
import tempfile
import threading
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir.errors import ExtractionError, one_line

# A fixed pseudo-filename: it appears in `// <file>:N` comments of the generated code,
# so it must not depend on the process, the seed or a temp directory.
SOURCE_FILENAME = "<warp_cuda_ir>"
# A fixed module name: each sample's module is removed from Warp's registry after use,
# so reusing the name never mixes kernels of two samples.
MODULE_NAME = "warp_cuda_ir_sample"

# Warp's registries are process-global: one sample module at a time.
lock = threading.RLock()
_initialised = False
_function_key_counts_at_init: dict[str, int] = {}
_cpu_exec_ids = [0]  # the highest CPU executable id any sample module of this process used


def init_warp() -> None:
    """Initialise Warp quietly, once per process, and remember the helper-name counters."""
    global _initialised, _function_key_counts_at_init
    with lock:
        if _initialised:
            return
        wp.config.log_level = wp.LOG_WARNING  # no greeting banner in every worker
        with silenced_fd(2):  # "CUDA driver not found" is expected here, not news
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
def silenced_fd(fd: int) -> Iterator[None]:
    """Send native writes to `fd` (Warp's C++ and NVRTC write there directly) to /dev/null."""
    saved = os.dup(fd)
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), fd)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


@contextlib.contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """Capture native file descriptor 2 (NVRTC writes its log there, not into the exception)."""
    sys.stderr.flush()
    box: list[str] = []
    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            yield box
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            box.append(tmp.read().decode("utf-8", "replace"))


def default_module_options() -> dict[str, Any]:
    """Warp's default options of a module (a copy)."""
    from warp._src import context

    return dict(context.Module(None, None).options)


def load_kernel(source: str, kernel_name: str | None = None) -> tuple[Any, dict[str, Any]]:
    """Execute kernel source as a fresh Warp module; return (kernel, namespace).

    Warp reads kernel source through `inspect`, which consults `linecache`; registering
    the text there lets us `exec` it without temporary files. Call `release` afterwards.
    """
    init_warp()
    from warp._src import context

    context.user_modules.pop(MODULE_NAME, None)
    # `wp.func` helper names come from a process-wide counter: restore it so names depend on the sample only.
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
        raise ExtractionError(f"source does not execute: {type(e).__name__}: {one_line(e)}") from e
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
    with lock:
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


def is_struct(value: Any) -> bool:
    """Whether `value` is a `@wp.struct` type."""
    from warp._src.codegen import Struct

    return isinstance(value, Struct)


def builtin_functions() -> Mapping[str, Any]:
    """Warp's registry of kernel built-ins: name -> function (with its overloads)."""
    from warp._src import context

    return context.builtin_functions


# ---- NVRTC and the CUDA runtime ------------------------------------------------------------


def toolkit_version() -> str:
    """Version of the CUDA toolkit whose NVRTC Warp ships, e.g. "13.4"."""
    init_warp()
    from warp._src.context import runtime

    major, minor = runtime.toolkit_version
    return f"{major}.{minor}"


def supported_archs() -> list[int]:
    """CUDA architectures this NVRTC can compile for."""
    init_warp()
    from warp._src.context import runtime

    return sorted(runtime.nvrtc_supported_archs)


def driver_version() -> str | None:
    """The CUDA driver's version, or None when there is no driver."""
    init_warp()
    from warp._src.context import runtime

    if not runtime.driver_version:
        return None
    major, minor = runtime.driver_version
    return f"{major}.{minor}"


def build_cuda(cu_path: Path, arch: int, out_path: Path, pch_dir: Path) -> None:
    """Compile a `.cu` file to PTX with Warp's NVRTC (no driver or GPU needed); raises on failure.

    NVRTC's log goes to native stderr only (capture fd 2 to read it).
    """
    from warp._src.build import build_cuda as warp_build_cuda

    warp_build_cuda(str(cu_path), arch, str(out_path), pch_dir=str(pch_dir))
