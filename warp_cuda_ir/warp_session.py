"""The Warp session: every use of Warp's private `warp._src` that is not code generation itself.

Warp 1.19 exposes neither its module registry, nor NVRTC, nor its runtime queries publicly; we
depend on them, pinned to warp-lang 1.19.x (pyproject.toml). This module and `extraction`
(code generation) are the only two that import `warp._src`, so a Warp upgrade touches them alone;
tests/test_extraction.py and tests/test_session.py check the behaviour we rely on.

A process holds one session: `init_warp()` once, then kernel sources are executed one at a time
as a fresh Warp module (`load_kernel` ... `release`, or `loaded_kernel` as a context manager).
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import functools
import gc
import hashlib
import json
import linecache
import os
import re
import shutil
import sys
import tempfile
import threading
import types
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir.cache import atomic_path, atomic_write
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
_modules_before_sample: list[set[str]] = []  # Warp's user modules when the current sample was loaded, if one is


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


def keep_shared_kernel_cache() -> None:
    """Make `wp.clear_kernel_cache()` leave Warp's kernel cache alone in this process.

    Processes that share one kernel cache (the capture's jobs, the harvest's workers) must not clear it for
    each other: Warp's own test files call it when run as scripts, and it removes every module folder there,
    including the build folder of a module another process is compiling at that moment, whose object file
    then cannot be written (that job dies with "LLVM ERROR: IO failure on output stream"; seen in CI). The
    program's modules stay loaded, as they would after Warp rebuilt them from the cleared cache.
    """
    from warp._src import build

    def keep() -> None:
        return None

    wp.clear_kernel_cache = keep
    build.clear_kernel_cache = keep


# Warp's Clang builds its precompiled headers (one `.pch` per block size and optimisation level, named so) in a
# temporary folder of each process, on the process's first CPU compile: ~2.0 CPU-s, against ~0.13 for a small
# module compiled with them. Every capture job was a fresh process, so the default capture's 113 jobs paid it
# 113 times (~18% of their idle job-seconds on this machine). Processes that share a kernel cache copy the ones
# an earlier process left beside it instead; the folder's name holds what the headers are made from, so
# another Warp install never reads them (Clang would refuse them, and Warp then retries every module without).
PRECOMPILED_HEADERS_DIR = "clang-pch"


def _headers_identity() -> str:
    """Warp's version and the sizes and times of its native headers and CPU compiler library."""
    native = Path(wp.__file__).parent / "native"
    parts = [wp.__version__, str(native)]
    for folder in (native, Path(wp.__file__).parent / "bin"):
        with contextlib.suppress(OSError):
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if entry.is_file():
                    stat = entry.stat()
                    parts.append(f"{entry.name}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def share_precompiled_headers(kernel_cache: str | os.PathLike[str]) -> Callable[[], None]:
    """Start this process's CPU compiles from the precompiled headers kept beside `kernel_cache`; returns
    the function that keeps the ones this process built there (call it before the process ends).

    Copies in both directions, never links: a process's own folder is its alone, as Warp keeps it, and a
    header is published by an atomic rename, so processes beside each other only ever read whole files.
    """
    runtime = _context().runtime
    own = runtime.get_clang_pch_dir() if runtime is not None else None
    if own is None:  # no Warp Clang in this install
        return lambda: None
    shared = Path(kernel_cache) / PRECOMPILED_HEADERS_DIR / _headers_identity()
    found: set[str] = set()
    with contextlib.suppress(OSError):
        for header in shared.glob("*.pch"):
            shutil.copyfile(header, Path(own) / header.name)
            found.add(header.name)

    def keep() -> None:
        with contextlib.suppress(OSError):
            for header in Path(own).glob("*.pch"):
                if header.name not in found and not (shared / header.name).exists():
                    shared.mkdir(parents=True, exist_ok=True)
                    with atomic_path(shared / header.name) as tmp:
                        shutil.copyfile(header, tmp)

    return keep


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


_CONFIG_VALUE_TYPES = (bool, int, float, str, type(None))


def config_snapshot() -> dict[str, Any]:
    """Warp's global settings (`wp.config`'s plain values), to put back with `restore_config`."""
    return {k: v for k, v in vars(wp.config).items() if not k.startswith("_") and isinstance(v, _CONFIG_VALUE_TYPES)}


def restore_config(snapshot: Mapping[str, Any]) -> None:
    """Undo what imported code set in `wp.config` since `snapshot` was taken."""
    for key, value in snapshot.items():
        if getattr(wp.config, key, value) != value:
            setattr(wp.config, key, value)


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
    _, namespace = load_kernels(source)
    found = [v for v in namespace.values() if isinstance(v, wp.Kernel) and kernel_name in (None, v.key)]
    if len(found) != 1:
        release()
        raise ExtractionError(f"expected exactly one @wp.kernel, found {len(found)}")
    return found[0], namespace


def load_kernels(source: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """`load_kernel` for a source holding several kernels (one module, compiled once): {name: kernel}."""
    init_warp()
    from warp._src import context

    context.user_modules.pop(MODULE_NAME, None)
    _modules_before_sample[:] = [set(context.user_modules)]
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
        # `dont_inherit`: the text is a module of its own; this file's `from __future__ import annotations` would
        # quote a kernel's quoted annotations (`p: "wp.array(dtype=wp.vec3)"`) again, and Warp refuses a string type.
        exec(compile(source, SOURCE_FILENAME, "exec", dont_inherit=True), namespace)
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
    return {v.key: v for v in namespace.values() if isinstance(v, wp.Kernel)}, namespace


@contextlib.contextmanager
def loaded_kernel(
    source: str, kernel_name: str | None = None, *, backward: bool = False, optimization_level: int | None = None
) -> Iterator[tuple[Any, dict[str, Any]]]:
    """`load_kernel` for the duration of a block (e.g. to launch it), then `release`.

    `backward`: compile the kernel with its adjoint even where the source's options disable it (a row whose
    backward code was enabled for code generation, `backward_origin`), so `adjoint=True` launches run it.
    Without it Warp would launch no backward kernel for such a source.
    `optimization_level`: the module's compilers run at this level (Warp's module option, so it is part of
    the module's hash and its kernel-cache name); None: as the source says, else Warp's defaults.
    """
    with lock:
        kernel, namespace = load_kernel(source, kernel_name)
        try:
            if optimization_level is not None:
                kernel.module.options["optimization_level"] = optimization_level
            if backward:
                kernel.module.options["enable_backward"] = True
                for k in [kernel, *kernel.overloads.values()]:
                    if k.options.get("enable_backward") is False:
                        k.options["enable_backward"] = True
            if backward or optimization_level is not None:
                # Warp hashed the module when `wp.overload` put a generic kernel's overload in it, with the
                # options as written: without a new hash the forward-only object in Warp's kernel cache
                # (the row's own CPU run built it) was loaded, and the backward launch found no symbol.
                kernel.module.mark_modified()
            yield kernel, namespace
        finally:
            release()


@contextlib.contextmanager
def loaded_kernels(source: str) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """`load_kernels` for the duration of a block, then `release`."""
    with lock:
        kernels, namespace = load_kernels(source)
        try:
            yield kernels, namespace
        finally:
            release()


def release() -> None:
    """Forget the current sample's modules so memory stays flat over long builds and samples stay apart.

    A kernel declared `module="name"` (or `"unique"`) registers a module of that name, not the sample's: left
    registered, the next sample naming it joined it, and its code held the earlier sample's kernels too
    (warp-lang's cholesky tests share `module="test_cholesky_fwd"`; one row's CUDA text held another's
    kernel). Such modules are dropped with the sample's; modules of imported files (in `sys.modules`) stay.
    """
    from warp._src import context

    modules = context.user_modules
    before = _modules_before_sample.pop() if _modules_before_sample else set(modules)
    named = [n for n in modules if n not in before and n != MODULE_NAME and n not in sys.modules]
    for name in [MODULE_NAME, *named]:
        module = modules.pop(name, None)
        if module is not None:
            _drop(module)
    linecache.cache.pop(SOURCE_FILENAME, None)
    sys.modules.pop(MODULE_NAME, None)


def _drop(module: Any) -> None:
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


# --- Harvest: reading kernels of real, imported modules (warp_cuda_ir.harvest) ---------------------
#
# Warp 1.19 has no public API for what a harvest needs (is this a user `@wp.func`? its overloads and
# custom gradients? the options a module compiles with? codegen of one kernel inside its own module?).


def _context():
    from warp._src import context

    return context


def _codegen():
    from warp._src import codegen

    return codegen


def _types():
    from warp._src import types

    return types


def is_user_function(obj: Any) -> bool:
    """A `@wp.func` written in Python (not a built-in)."""
    return isinstance(obj, _context().Function) and getattr(obj, "func", None) is not None


def struct_fields(struct: Any) -> dict[str, Any]:
    return {name: var.type for name, var in struct.vars.items()}


def is_warp_type(obj: Any) -> bool:
    """A Warp scalar, vector, matrix, quaternion or transformation type, or an array annotation."""
    t = _types()
    if isinstance(obj, type):
        return (
            obj in t.scalar_types or t.type_is_vector(obj) or t.type_is_matrix(obj) or hasattr(obj, "_wp_scalar_type_")
        )
    return t.is_array(obj)


@functools.cache
def _public_names() -> dict[int, str]:
    names: dict[int, str] = {}
    for name in sorted(dir(wp), key=lambda n: (len(n), n)):  # shortest first: `vec3` rather than `vec3f`
        if name.startswith("_"):
            continue
        obj = getattr(wp, name)
        if isinstance(obj, type):
            names.setdefault(id(obj), name)
    return names


def public_name(t: Any) -> str | None:
    """`wp.<name>` spelling of a type when Warp exports that very object."""
    return _public_names().get(id(t)) if isinstance(t, type) else None


def describe_type(t: Any) -> tuple[str, list[tuple[str, Any]]] | None:
    """(constructor under `wp.`, keyword arguments) that rebuild an unnamed Warp type."""
    ty = _types()
    if ty.is_array(t):
        # Warp 1.19 annotations are light descriptors (`_ArrayAnnotation`) naming their concrete class.
        concrete = getattr(type(t), "_concrete_cls", type(t))
        kind = concrete.__name__
        if kind not in ("array", "indexedarray", "fabricarray", "indexedfabricarray"):
            return None
        return kind, [("dtype", t.dtype), ("ndim", t.ndim)]
    if not isinstance(t, type):
        return None
    scalar = getattr(t, "_wp_scalar_type_", None)
    if scalar is None:
        return None
    if ty.type_is_quaternion(t):
        return "types.quaternion", [("dtype", scalar)]
    if ty.type_is_transformation(t):
        return "types.transformation", [("dtype", scalar)]
    if ty.type_is_matrix(t):
        return "types.matrix", [("shape", tuple(t._shape_)), ("dtype", scalar)]
    if ty.type_is_vector(t):
        return "types.vector", [("length", t._length_), ("dtype", scalar)]
    return None


def scalar_value(value: Any) -> Any:
    """The Python number inside a Warp scalar instance (`wp.float32(1.5)`), else None."""
    if type(value) in _types().scalar_types:
        return value.value
    return None


def vector_components(value: Any) -> list[Any] | None:
    """Flat components of a Warp vector/matrix/quaternion/transform instance, else None."""
    t = type(value)
    if getattr(t, "_wp_scalar_type_", None) is None or not hasattr(value, "__len__"):
        return None
    flat: list[Any] = []
    for item in value:
        if hasattr(item, "__len__"):
            flat.extend(float(x) if isinstance(x, float) else x for x in item)
        else:
            flat.append(item)
    return flat


def function_definitions(func: Any) -> list[tuple[Any, Any]]:
    """(Python function, its Warp Function) behind a `@wp.func` and all its overloads, in source order."""
    seen: dict[int, tuple[Any, Any]] = {}
    candidates = [func, *getattr(func, "user_overloads", {}).values(), *getattr(func, "user_templates", {}).values()]
    for f in candidates:
        py = getattr(f, "func", None)
        if py is not None:
            seen.setdefault(id(py), (py, f))
    defs = list(seen.values())
    defs.sort(key=lambda pair: (pair[0].__code__.co_filename, pair[0].__code__.co_firstlineno))
    return defs


def function_arg_types(func: Any) -> dict[str, Any]:
    return dict(getattr(func, "input_types", {}) or {})


def kernel_arg_types(kernel: Any) -> dict[str, Any]:
    return {arg.label: arg.type for arg in kernel.adj.args}


def kernel_module_name(kernel: Any) -> str:
    """The `module=` a kernel was declared with: its Warp module's name (`"unique"` for per-kernel modules)."""
    name = kernel.module.name
    if re.fullmatch(re.escape(kernel.key) + r"_[0-9a-f]{8}", name):
        return "unique"
    return name


def is_builtin_function(obj: Any) -> bool:
    return isinstance(obj, _context().Function) and getattr(obj, "func", None) is None


def builtin_public_name(func: Any) -> str | None:
    key = getattr(func, "key", None)
    return key if isinstance(key, str) and getattr(wp, key, None) is func else None


def custom_grad_and_replay(func: Any) -> list[Any]:
    """Python functions registered with `@wp.func_grad` / `@wp.func_replay` for any overload."""
    out = []
    for f in [func, *getattr(func, "user_overloads", {}).values(), *getattr(func, "user_templates", {}).values()]:
        for extra in (getattr(f, "custom_grad_func", None), getattr(f, "custom_replay_func", None)):
            py = getattr(extra, "func", None)
            if py is not None and py not in out:
                out.append(py)
    return out


def kernel_key_for_text(kernel: Any, pyfunc: Any, ignore_key: bool = False) -> str:
    """The key the kernel gets when its (dedented) text is run at a module's top level."""
    derived = _codegen().make_full_qualified_name(pyfunc.__qualname__)
    if kernel.key != derived and not ignore_key:  # `@wp.kernel(name=...)`: the decorator sets it either way
        return kernel.key
    return _codegen().make_full_qualified_name(pyfunc.__name__)


_DECORATOR_OPTIONS = (
    "enable_backward",
    "launch_bounds",
    "cuda_max_registers",
    "enable_cuda_smem_spilling",
    "cluster_dim",
    "entry_point_abi",
    "grid_stride",
)


def kernel_decorator_options(kernel: Any) -> dict[str, Any]:
    """The kernel's own options, as `wp.kernel(...)` keyword arguments."""
    return {k: kernel.options[k] for k in _DECORATOR_OPTIONS if k in kernel.options}


@contextlib.contextmanager
def private_registry(names: list[str]) -> Iterator[None]:
    """Run a self-contained source beside the original modules without meeting them.

    A kernel declared with `module="name"` or `module="unique"` would join the original module of that name
    (Warp looks modules up by name, and a unique module's name is its content hash), so the check would
    compare Warp's code with itself, or slice the module's other kernels into the row. The originals are
    set aside for the duration, and whatever the source registered is dropped afterwards.
    """
    modules = _context().user_modules
    before = set(modules)
    saved = {n: modules.pop(n) for n in names if n in modules}
    try:
        yield
    finally:
        for n in set(modules) - before:
            module = modules.pop(n)
            module._detach_references()
        for n in names:
            modules.pop(n, None)
        modules.update(saved)


@functools.cache
def _default_options() -> dict[str, Any]:
    return default_module_options()


def changed_module_options(kernel: Any) -> dict[str, Any]:
    """Options of the kernel's module that differ from Warp's defaults (block_dim excluded: a launch choice).

    For a kernel in its file's module, a named module (`module="name"`, whose owner sets them on the module:
    `wp.get_module("name").options[...] = ...`) or a unique one (`module="unique"`: its decorator's
    `module_options=`, or `wp.set_module_options({...}, module=kernel.module)` after it, as newton's factories do).
    """
    defaults = _default_options()
    return {
        k: v for k, v in kernel.module.options.items() if k not in ("block_dim", "output_arch") and defaults.get(k) != v
    }


def warp_type_of(python_type: Any) -> Any:
    """What Warp reads a Python type as in an annotation or `dtype=` (`float` is float32, `int` int32; others
    as they are): Warp's own `type_to_warp`."""
    from warp._src.types import type_to_warp

    return type_to_warp(python_type)


def named_module(kernel: Any) -> str | None:
    """The name given in `@wp.kernel(module="name")`, None for a kernel in its file's module or a unique one."""
    from warp._src import module_registry

    home = module_registry.resolve_module_name(kernel.func.__module__, kernel.func.__qualname__)
    name = kernel_module_name(kernel)
    return None if name in (home, "unique") else name


def backward_switch(kernel: Any, module_options: dict[str, Any]) -> str | None:
    """What disables the kernel's backward code: `kernel` (its own `enable_backward=False`, which wins in Warp),
    `module` (the module's option), or None when Warp generates it with these options."""
    if kernel.options.get("enable_backward") is False:
        return "kernel"
    if (module_options | kernel.options).get("enable_backward") is False:
        return "module"
    return None


@contextlib.contextmanager
def kernel_options_set(kernel: Any, options: dict[str, Any]) -> Iterator[None]:
    """The kernel's own options (`@wp.kernel(...)`) overridden for the duration of a block, then restored."""
    saved = dict(kernel.options)
    kernel.options.update(options)
    try:
        yield
    finally:
        kernel.options.clear()
        kernel.options.update(saved)


def module_block_dim(kernel: Any) -> int:
    return int(kernel.module.options.get("block_dim", 256))


def live_kernels() -> list[Any]:
    """Every kernel object registered in any Warp module of this process (generic ones included)."""
    out = []
    for module in list(_context().user_modules.values()):
        out.extend(module._get_live_kernels())
    return out


@contextlib.contextmanager
def kernels_kept(into: list[Any]) -> Iterator[list[Any]]:
    """Hold every kernel Warp registers while the block runs in `into`. A Warp module keeps its kernels
    weakly (and the latest one per key strongly): a kernel a script made and dropped (a closure built in a
    cached property of an object the next loop iteration replaced) is otherwise gone before it is read."""
    cls = _context().Module
    original = cls.register_kernel

    def register(self: Any, kernel: Any) -> Any:
        into.append(kernel)
        return original(self, kernel)

    cls.register_kernel = register
    try:
        yield into
    finally:
        cls.register_kernel = original


def module_kernels(modules: Iterable[Any]) -> list[Any]:
    """The live kernels of Warp modules (made with `wp.Module(name)`, which the registry does not list)."""
    return [k for module in modules for k in module._get_live_kernels()]


def unregister_modules(names: Iterable[str]) -> None:
    """Take Warp modules out of the process's registry: the next kernel declared with `module="<name>"`
    starts a new, empty module of that name. Kernels already made keep their module object."""
    modules = _context().user_modules
    for name in names:
        modules.pop(name, None)


# Every kernel declares `wp::tile_shared_storage_t tile_mem;`; a tile row calls a tile function. No leading
# `\b` in the pattern (it kept the regex engine from skipping ahead to `wp::`: 5x slower); `uses_tiles`
# checks the word boundary itself.
_TILE_CALL = re.compile(r"wp::(?:adj_)?tile_\w+\s*[(<]")
_WORD_CHAR = re.compile(r"\w")


def uses_tiles(generated: str) -> bool:
    """Whether Warp's generated code calls its tile functions."""
    return any(
        not m.group(0).startswith("wp::tile_shared_storage_t")
        and (m.start() == 0 or not _WORD_CHAR.match(generated, m.start() - 1))
        for m in _TILE_CALL.finditer(generated)
    )


def module_sources(
    module: Any, options: dict[str, Any], cpu_options: dict[str, Any], hasher: Any
) -> tuple[str, str, Any]:
    """(CUDA source, CPU source, the builder of the CPU one) of a whole module, for `options` and `cpu_options`.

    One build serves both targets, except for code with tiles: Warp fixes a tile's shape when it builds a
    function, from the build's block_dim (`wp.tile(x)` holds one value per thread of the block), so CPU
    code built for the CUDA block sized its tiles for 256 threads where the CPU launch has one (newton's
    `compute_solid_mesh_inertia`: its CPU helpers did not compile against Warp's CPU headers, while Warp's
    own CPU build of the module, made for blocks of one thread, did). Such a module's CPU code gets a
    build of its own.
    """
    context = _context()
    builder = context.ModuleBuilder(module, options, hasher=hasher, target="cuda")
    cuda = builder.codegen("cuda")
    if uses_tiles(cuda) and cpu_options.get("block_dim") != options.get("block_dim"):
        builder = context.ModuleBuilder(module, cpu_options, hasher=hasher, target="cpu")
    else:
        builder.options = cpu_options
    return cuda, builder.codegen("cpu"), builder


def module_sources_with_backward(
    module: Any, kernel: Any, options: dict[str, Any], cpu_options: dict[str, Any], hasher: Any
) -> tuple[tuple[str, str], tuple[str, str], Any]:
    """((CUDA, CPU) as `options` give them, without backward; (CUDA, CPU) with backward enabled for `kernel`; the
    builder of the CPU one), from one build of the module with backward enabled.

    Warp builds a function's forward and reverse blocks whatever `enable_backward` says; the option decides what
    codegen writes of them (the backward kernel, and the helpers' adjoints through `used_by_backward_kernel`). So
    the code as written is the enabled build's codegen with the option off and those marks cleared, as a build
    without backward leaves them. Against a build for each, side by side with the same records: mujoco-warp's
    harvest (every module forward-only) 48.1 -> 39.7 CPU-s, newton's 264.5 -> 251.1, warp-lang's 133.8 -> 128.7.
    """
    on = {"enable_backward": True}
    with kernel_options_set(kernel, on):
        enabled_cuda, enabled_cpu, builder = module_sources(module, options | on, cpu_options | on, hasher)
    if builder.target != "cuda":
        # Tile code, whose CPU build is one of its own: the kernels' adjoints now hold that build (a build
        # writes its state into them), so the code as written needs both builds again, CUDA first.
        cuda, cpu, builder = module_sources(module, options, cpu_options, hasher)
        return (cuda, cpu), (enabled_cuda, enabled_cpu), builder
    for adj in [k.adj for k in builder.kernels] + [f.adj for f in builder.functions]:
        adj.used_by_backward_kernel = False
    builder.options = options
    cuda = builder.codegen("cuda")
    builder.options = cpu_options
    return (cuda, builder.codegen("cpu")), (enabled_cuda, enabled_cpu), builder


def original_module_sources(kernel: Any, arch: int, block_dim: int) -> tuple[str, str, str, list[str]]:
    """(CUDA source, CPU source, mangled symbol, helper names): Warp's codegen of `kernel` in its own module.

    The builder is restricted to this kernel (its hasher lists only it), so the source holds what the
    kernel needs and nothing else of the module, and one broken kernel does not hide its neighbours.
    """
    context = _context()
    options = dict(kernel.module.options)
    options["block_dim"] = block_dim
    options["output_arch"] = arch
    hasher = context.ModuleHasher([kernel], options)
    # block_dim 1: what `wp.launch(device="cpu")` compiles with
    with _as_first_built():
        cuda, cpu, builder = module_sources(kernel.module, options, dict(options, block_dim=1), hasher)
    return cuda, cpu, kernel.get_mangled_name(), declared_symbols(builder)


def declared_names(generated: str) -> list[str]:
    """Identifiers Warp declares for user structs and functions in generated code."""
    names = re.findall(r"^struct (\w+)\s*$", generated, flags=re.M)
    names += re.findall(r"^[^\n/]*CUDA_CALLABLE[^\n(]*?\b(\w+)\($", generated, flags=re.M)
    return names


@contextlib.contextmanager
def preserved_function_counters() -> Iterator[None]:
    """Keep `extract`'s reset of the helper-name counters from reusing names of modules imported later.

    `extraction.load_kernel` restarts Warp's process-wide `@wp.func` name counters so a sample's helper
    names do not depend on history. In a harvest worker, modules imported after that would then reuse
    names their own kernels already see from earlier modules (two different `sq_0` in one build).
    """
    counts = _context().function_key_counts
    saved = dict(counts)
    try:
        yield
    finally:
        for key, value in list(counts.items()):
            saved[key] = max(saved.get(key, 0), value)
        counts.clear()
        counts.update(saved)


def builder_functions(builder: Any) -> list[Any]:
    """The user functions a ModuleBuilder generated (custom gradients and callable specialisations included)."""
    return list(builder.functions)


@dataclasses.dataclass(frozen=True)
class Renaming:
    """History-free native names for the functions of imported modules that one sample's build calls."""

    names: tuple[tuple[Any, str], ...]  # (Function object, its new native name)
    own_adjoints: tuple[Any, ...]  # the sample's own adjoints, to build again as they were built first


def history_free_names(kernel: Any, functions: Iterable[Any]) -> Renaming | None:
    """New native names for the `@wp.func`s of imported modules among `functions` (what the builds of the
    loaded sample `kernel` generated) whose names depend on what this process imported before; None when
    every name already is what it would be here.

    Warp numbers `<key>_<N>` from a process-wide counter when it creates a function. The sample's own
    functions are numbered from the counters of `init_warp` (`load_kernels` resets them), and functions
    created before that (Warp's own, at `import warp`) are numbered below them: both are the same in every
    process. A function of a module imported later (`warp.tests.test_func.cube`, a `warp.fem` helper) got
    its number when the module was first imported here: `cube_1` after another module defining a `cube`,
    `cube_0` without. Such a function is renamed `<key>_<M>`, M counted from the init counter (or past the
    highest number the sample's own functions of that key have in this build), one per function, in the
    order of their (module, qualified name, line; closures of one factory in the order they were made): a
    name no other function of the build has, whatever was imported before. Names that already are so stay.
    Custom gradients share their function's name and are renamed with it; callable specialisations
    (`_callable_<hash>`) Warp derives again from the new names (`renamed`).
    """
    init = _function_key_counts_at_init
    objects: dict[int, Any] = {}
    pending = list(functions)
    while pending:  # the functions and those sharing their names: overloads, instantiations, gradients
        f = pending.pop()
        if f is None or id(f) in objects or getattr(f, "func", None) is None:
            continue
        objects[id(f)] = f
        pending += [f.generic_parent, f.custom_grad_func, f.custom_replay_func]
        pending += [*getattr(f, "user_overloads", {}).values(), *getattr(f, "user_templates", {}).values()]

    def number(f: Any) -> int | None:
        suffix = f.native_func[len(f.key) + 1 :] if f.native_func.startswith(f.key + "_") else ""
        return int(suffix) if suffix.isdigit() else None

    def own(f: Any) -> bool:
        return getattr(f.func, "__module__", None) == MODULE_NAME

    first: dict[str, int] = {}  # key -> past the highest number of the sample's own functions of that key
    late: dict[str, dict[str, tuple[str, str, int, int]]] = {}  # key -> {native name: sort key}
    taken: set[str] = set()  # names of the functions not renamed
    for f in objects.values():
        n = number(f)
        if n is None or own(f) or n < init.get(f.key, 0):
            taken.add(f.native_func)
            if n is not None and own(f):
                first[f.key] = max(first.get(f.key, 0), n + 1)
            continue
        line = getattr(getattr(f.func, "__code__", None), "co_firstlineno", 0)
        order = (str(f.func.__module__), str(getattr(f.func, "__qualname__", "")), line, n)
        names = late.setdefault(f.key, {})
        names[f.native_func] = min(names.get(f.native_func, order), order)
    new: dict[str, str] = {}
    for key, names in late.items():
        m = max(first.get(key, 0), init.get(key, 0))
        for old in sorted(names, key=names.__getitem__):
            while f"{key}_{m}" in taken:
                m += 1
            new[old] = f"{key}_{m}"
            m += 1
    if all(old == name for old, name in new.items()):
        return None
    names = tuple((f, new[f.native_func]) for f in objects.values() if f.native_func in new and not own(f))
    kernels = kernel.module._get_live_kernels()
    adjoints = [k.adj for k in kernels] + [o.adj for k in kernels for o in k.overloads.values()]
    adjoints += [f.adj for f in objects.values() if own(f)]
    return Renaming(names, tuple(adjoints))


@contextlib.contextmanager
def renamed(renaming: Renaming) -> Iterator[None]:
    """Build with `renaming`'s names for the block, then put the old ones back.

    A function's native name is read when a build emits a call to it, so the sample is built again under
    the new names: its own adjoints start as at their first build (Warp omits a line's comment when the
    adjoint's last build ended on that line), and callable specialisations are made anew for the block
    rather than taken from the cache on their function, whose entries carry the old names in their own.
    """
    codegen = _codegen()
    specialize = codegen.specialize_callable_func
    caches: dict[int, dict[Any, Any]] = {}

    def specialize_anew(func: Any, callable_arg_values: Any) -> Any:
        saved = func.__dict__.pop("_callable_specializations", None)
        func._callable_specializations = caches.setdefault(id(func), {})
        try:
            return specialize(func, callable_arg_values)
        finally:
            if saved is None:
                func.__dict__.pop("_callable_specializations", None)
            else:
                func._callable_specializations = saved

    old = [(f, f.native_func) for f, _ in renaming.names]
    for f, name in renaming.names:
        f.native_func = name
    for adj in renaming.own_adjoints:
        adj.lineno = None
    codegen.specialize_callable_func = specialize_anew
    try:
        yield
    finally:
        codegen.specialize_callable_func = specialize
        for f, name in old:
            f.native_func = name


def declared_symbols(builder: Any) -> list[str]:
    """Native names of the user functions and structs a ModuleBuilder generates."""
    names = [f.native_func for f in builder.functions]
    names += [s.native_name for s in builder.structs]
    return names


@contextlib.contextmanager
def _as_first_built() -> Iterator[None]:
    """Build adjoints as Warp's first build of them does.

    Warp writes a statement's source line as a comment above its code only when the line differs from the
    last one it wrote (`Adjoint.set_lineno`), and a rebuild does not forget the last line of the build
    before. A kernel or function whose body is on its `def` line (`def k(a): a[wp.tid()] = 0.0`) thus loses
    that comment once its module was built before in the process (a script's launch from an empty kernel
    cache), while the code Warp compiled, and the self-contained text's, are a first build's.
    """
    adjoint = _codegen().Adjoint
    build = adjoint.build

    def first_build(adj: Any, *args: Any, **kwargs: Any) -> Any:
        adj.lineno = None
        return build(adj, *args, **kwargs)

    adjoint.build = first_build
    try:
        yield
    finally:
        adjoint.build = build


class ModuleCode:
    """Warp's codegen of a kernel's whole Warp module, built once and read per kernel.

    Kernels of one module share their `@wp.func`s; building them once per module rather than once per
    kernel saved 30-50% of this side of the check on newton's VBD solver (measured). Only the kernel's
    own functions (forward, backward, CPU entry points) are read off it: the module's helpers are those
    of all its kernels.
    """

    def __init__(self, module: Any, arch: int) -> None:
        context = _context()
        self.module = module
        self.options = dict(module.options)
        self.options["output_arch"] = arch
        self.cpu_options = dict(self.options, block_dim=1)
        self.signature = module_signature(module)
        with _as_first_built():
            self.builder = context.ModuleBuilder(module, self.options, target="cuda")
        self.built = {id(k) for k in self.builder.kernels}
        self.symbols = declared_symbols(self.builder)

    def kernel_sources(self, kernel: Any) -> tuple[str, str, str, list[str]] | None:
        """(CUDA, CPU, symbol) as `original_module_sources` gives, without helpers; None if not built here."""
        if id(kernel) not in self.built:
            return None  # e.g. a kernel whose hash equals another's: Warp generates that one only
        codegen = _codegen()
        macros = codegen.codegen_cast_macros
        cuda = codegen.codegen_kernel(kernel, "cuda", self.options) + codegen.codegen_module(
            kernel, "cuda", self.options
        )
        if uses_tiles(cuda):
            return None  # its CPU code needs a build of its own (`module_sources`)
        cpu = codegen.codegen_kernel(kernel, "cpu", self.cpu_options) + codegen.codegen_module(
            kernel, "cpu", self.cpu_options
        )
        return macros + cuda, macros + cpu, kernel.get_mangled_name(), self.symbols


def module_signature(module: Any) -> tuple[int, int]:
    """Changes when a module gains kernels or overloads (a later import may add them)."""
    kernels = module._get_live_kernels()
    return len(kernels), sum(len(k.overloads) for k in kernels)


# --- Capture: recording real launches of harvested kernels (warp_cuda_ir.capture) -----------------
#
# Warp 1.19 has no public launch callback. The capture wraps `warp._src.context.launch` (which
# `wp.launch_tiled` calls through its module global) and the `wp.launch` re-export; code that imported
# `launch` by name before the wrap is not seen.


def install_launch_hook(before: Any, after: Any) -> None:
    """Call `before(kernel, dim, args, device, block_dim, tiled)` ahead of each forward launch, `after(token)` after.

    `args` are the inputs followed by the outputs. `tiled` is the `block_dim` the program asked
    `wp.launch_tiled` for (None for `wp.launch`): on the CPU, Warp 1.19 runs a tiled launch with a block of 1
    thread and appends that 1 to `dim`, so a GPU launch needs the requested size instead.
    `before` returns a token (None: nothing to do after); an exception in either callback is swallowed so the
    launched program behaves as without the hook. Backward (`adjoint=True`) launches pass straight through. A
    recorded launch (`record_cmd=True`) runs nothing: its `Launch` object's `launch()` is hooked instead, with
    the arguments it was recorded with, until one of its `set_*` methods changes them.
    """
    import inspect
    import threading

    context = _context()
    original = context.launch
    if getattr(original, "_warp_cuda_ir_hook", False):
        return
    signature = inspect.signature(original)
    original_tiled = context.launch_tiled
    tiled_state = threading.local()

    def launch_tiled(*args: Any, **kwargs: Any) -> Any:
        tiled_state.block_dim = kwargs.get("block_dim")
        try:
            return original_tiled(*args, **kwargs)
        finally:
            tiled_state.block_dim = None

    def observed(call: tuple[Any, ...] | None, run: Any) -> Any:
        """`run()`, with `before(*call)` ahead of it and `after(token)` behind it when there is a call."""
        token = None
        if call is not None:
            try:
                token = before(*call)
            except Exception:
                token = None
        result = run()
        if token is not None:
            with contextlib.suppress(Exception):
                after(token)
        return result

    def launch(*args: Any, **kwargs: Any) -> Any:
        call = recorded = None
        try:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            a = bound.arguments
            if not a["adjoint"]:
                tiled = getattr(tiled_state, "block_dim", None)
                tiled_state.block_dim = None  # one launch per `launch_tiled` call
                inputs = [*a["inputs"], *a["outputs"]]
                call = (a["kernel"], a["dim"], inputs, a["device"], a["block_dim"], tiled)
                if a["record_cmd"]:
                    call, recorded = None, call
        except Exception:
            call = recorded = None
        result = observed(call, lambda: original(*args, **kwargs))
        if recorded is not None and isinstance(result, launch_class):
            with contextlib.suppress(AttributeError):
                result._warp_cuda_ir_call = recorded
        return result

    # `cmd = wp.launch(..., record_cmd=True)` then `cmd.launch()` (Warp's benchmarks, 21 of its files):
    launch_class = context.Launch
    original_run = launch_class.launch

    def run_recorded(self: Any, *args: Any, **kwargs: Any) -> Any:
        return observed(getattr(self, "_warp_cuda_ir_call", None), lambda: original_run(self, *args, **kwargs))

    def forgets_call(method: Any) -> Any:
        def changed(self: Any, *args: Any, **kwargs: Any) -> Any:
            with contextlib.suppress(AttributeError):
                self._warp_cuda_ir_call = None  # the recorded arguments no longer say what runs
            return method(self, *args, **kwargs)

        return changed

    for name in [n for n in vars(launch_class) if n.startswith("set_")]:
        setattr(launch_class, name, forgets_call(getattr(launch_class, name)))
    launch_class.launch = run_recorded

    launch._warp_cuda_ir_hook = True  # type: ignore[attr-defined]
    launch.__doc__ = original.__doc__
    launch_tiled.__doc__ = original_tiled.__doc__
    context.launch = launch
    wp.launch = launch
    context.launch_tiled = launch_tiled
    wp.launch_tiled = launch_tiled


def zero_new_cpu_memory() -> None:
    """From now on, memory Warp allocates on the CPU starts zeroed, as `wp.zeros` leaves it.

    `wp.empty` (and Warp's own scratch arrays: `warp.sparse`, `warp.fem`) hand a launch whatever the heap held,
    and a capture records each array's contents before the launch: two captures of the default packages gave
    different bytes for 448 of 3,397 records, nearly all of it leftover heap (pointer halves, 4.7e-310,
    NaN), which then became those rows' `launch_record` and the input values of their standalone programs. A
    program may not depend on what uninitialised memory holds, so zeros are one of the values it could read.
    """
    context = _context()
    for allocator in (context.CpuDefaultAllocator, context.CpuPinnedAllocator):
        allocate = allocator.allocate
        if getattr(allocate, "_warp_cuda_ir_zeroed", False):
            continue

        def zeroed(self: Any, size_in_bytes: int, _allocate: Any = allocate) -> Any:
            ptr = _allocate(self, size_in_bytes)
            context.runtime.core.wp_memset_host(ptr, 0, size_in_bytes)
            return ptr

        zeroed._warp_cuda_ir_zeroed = True  # type: ignore[attr-defined]
        allocator.allocate = zeroed


def launched_kernel(kernel: Any, args: list[Any]) -> Any:
    """The kernel a launch of `kernel` with `args` ran: the matching overload when `kernel` is generic."""
    if not kernel.is_generic:
        return kernel
    return kernel._add_normalized_overload(kernel.infer_argument_types(args))


def kernel_origin(kernel: Any) -> tuple[Any, str]:
    """(Python function, overload signature or "") that identify a kernel the way the harvest does."""
    parent = getattr(kernel, "generic_parent", None)
    if parent is not None:
        return parent.func, kernel.sig
    return kernel.func, ""


def kernel_params(kernel: Any) -> list[tuple[str, Any]]:
    """(name, declared type) of each kernel parameter, in order."""
    return [(arg.label, arg.type) for arg in kernel.adj.args]


def launch_types(kernel: Any, inputs: list[Any]) -> list[Any]:
    """The type each parameter has in a launch of `kernel` with `inputs`: the declared one, or for a generic
    kernel the one Warp infers from the values (the overload the launch compiles)."""
    declared = [arg.type for arg in kernel.adj.args]
    if not any(is_generic_type(t) for t in declared):
        return declared
    return list(kernel.infer_argument_types(inputs))


def array_class(value: Any) -> str | None:
    """'array', 'indexedarray', 'fabricarray', 'indexedfabricarray', another array class name, or None."""
    if not _types().is_array(value):
        return None
    return type(value).__name__ if type(value).__name__ != "array" else "array"


def struct_type_of(value: Any) -> Any | None:
    """The `@wp.struct` type of a struct instance, else None."""
    if isinstance(value, _codegen().StructInstance):
        return value._cls
    return None


def struct_field_types(struct: Any) -> dict[str, Any]:
    """Field name -> declared Warp type of a `@wp.struct` type (or of an instance's type)."""
    return {name: var.type for name, var in struct.vars.items()}


def new_struct_instance(struct: Any) -> Any:
    """A zero-initialised instance of a `@wp.struct` type."""
    return struct()


def is_array_type(t: Any) -> bool:
    """Whether a declared type (a parameter's, a struct field's) is one of Warp's array types."""
    return bool(_types().is_array(t))


def is_plain_array_type(t: Any) -> bool:
    """`wp.array(dtype=...)` or its annotation form `wp.array[...]`; not an indexed or fabric array."""
    return getattr(t, "_concrete_cls", type(t)) is wp.array


def is_generic_type(t: Any) -> bool:
    return bool(_types().type_is_generic(t))


def forget_compiled_rows(kernel_cache: str | os.PathLike[str]) -> None:
    """Drop the compiled modules of loaded row sources from Warp's kernel cache: one per row, never reused,
    so the cache would otherwise grow with a validation pass. Only ever a cache no other process uses (a
    validation worker's, `own_kernel_cache`): every row module has the same name, so this also removes the
    one another process is building there, whose Clang then dies ("LLVM ERROR", exit 1, no Python error)."""
    for module_dir in Path(kernel_cache).glob(f"wp_{MODULE_NAME}_*"):
        shutil.rmtree(module_dir, ignore_errors=True)


@functools.cache
def _own_kernel_cache_dir() -> str:
    folder = tempfile.mkdtemp(prefix="warp_cuda_ir_kernels_")
    atexit.register(shutil.rmtree, folder, True)
    return folder


@contextlib.contextmanager
def own_kernel_cache() -> Iterator[None]:
    """Warp's kernel cache moved, while the block runs, to a folder of this process alone (made once,
    removed at exit), where `forget_compiled_rows` may clear what the block compiled. Two test processes
    that shared the user's cache crashed each other this way."""
    saved = wp.config.kernel_cache_dir
    wp.config.kernel_cache_dir = _own_kernel_cache_dir()
    try:
        yield
    finally:
        wp.config.kernel_cache_dir = saved


# ---- The gradient check's tape (warp_cuda_ir.validation.gradients) ---------------------------------------


class Tape(wp.Tape):
    """`wp.Tape` whose adjoint of a struct argument keeps an array field left None as None.

    Warp 1.19's `Tape.get_adjoint` reads `.grad` of every array field of a struct and raises AttributeError on
    an optional array a package does not pass (newton's soft-contact filter): the row's check ended `error`.
    The backward kernel reads such a field's adjoint as a null array, as the forward reads the field.
    """

    def get_adjoint(self, a: Any) -> Any:
        if not wp.types.is_struct(a):
            return super().get_adjoint(a)
        adjoint = a._cls()  # scalar fields zero, array fields None
        for name in a._cls.vars:
            value = getattr(a, name)
            if wp.types.is_array(value) and getattr(value, "grad", None) is not None:
                self.gradients[value] = value.grad
                setattr(adjoint, name, value.grad)
            elif wp.types.is_struct(value):
                setattr(adjoint, name, self.get_adjoint(value))
        self.gradients[a] = adjoint
        return adjoint


# ---- CPU modules compiled ahead, many per Clang call (the validation pass) -------------------------------
#
# Warp compiles each module alone with its bundled Clang; part of that time goes to Warp's headers and the
# templates a module instantiates, which the modules of a batch share (measured on generated rows: 0.29-0.37
# core-s per module alone, 0.20-0.32 in one unit of ~58). A module's object file put in Warp's kernel cache
# under the names Warp looks for is loaded from there by Warp's own `Module.load`, as if Warp had compiled it.


@dataclasses.dataclass(frozen=True)
class CpuModule:
    """A loaded kernel's CPU module as Warp would compile it, and where Warp looks for it in its kernel cache."""

    identifier: str  # Warp's kernel-cache folder: module name + content hash
    binary_name: str  # the object file Warp loads from that folder
    meta_name: str
    source: str  # the whole `.cpp` Warp would compile
    meta: dict[str, Any]
    symbols: frozenset[str]  # its extern "C" entry points: two modules declaring one cannot share a unit
    build_args: tuple[tuple[str, Any], ...]  # Clang settings (`warp._src.build.build_cpu`'s keywords)


_ENTRY_POINT = re.compile(r"^WP_API void (\w+)\(", re.MULTILINE)


def cpu_module(kernel: Any, block_dim: int, known: Container[str] = ()) -> CpuModule | None:
    """The CPU module of `kernel` (loaded by `load_kernel`) for launches of `block_dim`; None when its
    identifier is `known`, Warp's kernel cache has it already, or its code generation fails (Warp's own load
    then reports why)."""
    from warp._src import context

    module = kernel.module
    try:
        module.get_module_hash(block_dim)
        options = module.resolved_options[block_dim] | {"output_arch": None}  # as Module._compile for the CPU
        identifier = module.get_module_identifier(block_dim)
        binary_name = module._get_compile_output_name(wp.get_device("cpu"), block_dim=block_dim)
        meta_name = module._get_meta_name(block_dim=block_dim)
        folder = Path(wp.config.kernel_cache_dir) / identifier
        if identifier in known or ((folder / binary_name).exists() and (folder / meta_name).exists()):
            return None
        source, _, meta, _, _ = module._run_codegen(options, True)
    except Exception:
        return None
    opt = options["optimization_level"]
    use_pch = bool(options["use_precompiled_headers"])
    build_args = (
        ("mode", options["mode"]),
        ("verify_fp", options["verify_fp"]),
        ("fast_math", options["fast_math"]),
        ("fuse_fp", options["fuse_fp"]),
        ("extra_flags", options["cpu_compiler_flags"]),
        ("optimization_level", 2 if opt is None else opt),  # Warp's CPU default
        ("use_precompiled_headers", use_pch),
        ("pch_dir", context.runtime.get_clang_pch_dir() if use_pch else None),
        ("block_dim", options["block_dim"]),
        ("enable_tiles_in_stack_memory", options["enable_tiles_in_stack_memory"]),
        ("extra_include_dirs", tuple(options["extra_cpu_include_dirs"] or ())),
    )
    symbols = frozenset(_ENTRY_POINT.findall(source))
    return CpuModule(identifier, binary_name, meta_name, source, meta, symbols, build_args)


def build_cpu_unit(source: str, build_args: tuple[tuple[str, Any], ...], cpp: Path, obj: Path) -> str | None:
    """Compile one `.cpp` with Warp's Clang and these settings; None when it compiled, else Clang's log."""
    from warp._src.build import build_cpu

    cpp.write_text(source)
    with captured_stderr() as log:
        try:
            build_cpu(str(obj), str(cpp), **dict(build_args))
            failed = None
        except Exception as e:
            failed = f"{type(e).__name__}: {e}"
    return None if failed is None else f"{failed}\n{log[0]}"


def add_to_kernel_cache(module: CpuModule, obj: Path) -> None:
    """Put `obj` (an object file holding `module`'s code, maybe beside other modules') where Warp's load finds it."""
    folder = Path(wp.config.kernel_cache_dir) / module.identifier
    folder.mkdir(parents=True, exist_ok=True)
    # Each file appears whole under its name (another worker's Warp may be loading this module), the binary
    # first: Warp takes the folder as complete once the metadata is there too.
    staged = folder / f".{module.binary_name}.{os.getpid()}.tmp"
    staged.unlink(missing_ok=True)
    try:
        os.link(obj, staged)  # one object file shared by a batch's modules: no copies
    except OSError:
        shutil.copyfile(obj, staged)
    os.replace(staged, folder / module.binary_name)
    atomic_write(folder / module.meta_name, json.dumps(module.meta, sort_keys=True).encode())
