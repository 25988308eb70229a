"""Every private Warp access of the harvest, as small functions (each marked `# -> warp_session`).

Warp 1.19 has no public API for what a harvest needs (is this a user `@wp.func`? its overloads and
custom gradients? the options a module compiles with? codegen of one kernel inside its own module?),
so these read `warp._src`. Keeping them in one file lets them move to `warp_session.py` as a block.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterator
from typing import Any

import warp as wp


def _context():  # -> warp_session
    from warp._src import context

    return context


def _codegen():  # -> warp_session
    from warp._src import codegen

    return codegen


def _types():  # -> warp_session
    from warp._src import types

    return types


def is_user_function(obj: Any) -> bool:  # -> warp_session
    """A `@wp.func` written in Python (not a built-in)."""
    return isinstance(obj, _context().Function) and getattr(obj, "func", None) is not None


def is_struct(obj: Any) -> bool:  # -> warp_session
    return isinstance(obj, _codegen().Struct)


def struct_fields(struct: Any) -> dict[str, Any]:  # -> warp_session
    return {name: var.type for name, var in struct.vars.items()}


def is_warp_type(obj: Any) -> bool:  # -> warp_session
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


def describe_type(t: Any) -> tuple[str, list[tuple[str, Any]]] | None:  # -> warp_session
    """(constructor under `wp.`, keyword arguments) that rebuild an unnamed Warp type."""
    ty = _types()
    if ty.is_array(t):
        # Warp 1.19 annotations are light descriptors (`_ArrayAnnotation`) naming their concrete class.
        concrete = getattr(type(t), "_concrete_cls", type(t))
        kind = {"array": "array", "indexedarray": "indexedarray", "fabricarray": "fabricarray"}.get(concrete.__name__)
        if kind is None:
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


def scalar_value(value: Any) -> Any:  # -> warp_session
    """The Python number inside a Warp scalar instance (`wp.float32(1.5)`), else None."""
    if type(value) in _types().scalar_types:
        return value.value
    return None


def vector_components(value: Any) -> list[Any] | None:  # -> warp_session
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


def function_definitions(func: Any) -> list[tuple[Any, Any]]:  # -> warp_session
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


def function_arg_types(func: Any) -> dict[str, Any]:  # -> warp_session
    return dict(getattr(func, "input_types", {}) or {})


def kernel_arg_types(kernel: Any) -> dict[str, Any]:  # -> warp_session
    return {arg.label: arg.type for arg in kernel.adj.args}


def kernel_module_name(kernel: Any) -> str:  # -> warp_session
    """The `module=` a kernel was declared with: its Warp module's name (`"unique"` for per-kernel modules)."""
    name = kernel.module.name
    if re.fullmatch(re.escape(kernel.key) + r"_[0-9a-f]{8}", name):
        return "unique"
    return name


def is_builtin_function(obj: Any) -> bool:  # -> warp_session
    return isinstance(obj, _context().Function) and getattr(obj, "func", None) is None


def builtin_public_name(func: Any) -> str | None:
    key = getattr(func, "key", None)
    return key if isinstance(key, str) and getattr(wp, key, None) is func else None


def custom_grad_and_replay(func: Any) -> list[Any]:  # -> warp_session
    """Python functions registered with `@wp.func_grad` / `@wp.func_replay` for any overload."""
    out = []
    for f in [func, *getattr(func, "user_overloads", {}).values(), *getattr(func, "user_templates", {}).values()]:
        for extra in (getattr(f, "custom_grad_func", None), getattr(f, "custom_replay_func", None)):
            py = getattr(extra, "func", None)
            if py is not None and py not in out:
                out.append(py)
    return out


def kernel_key_for_text(kernel: Any, pyfunc: Any, ignore_key: bool = False) -> str:  # -> warp_session
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


def kernel_decorator_options(kernel: Any) -> dict[str, Any]:  # -> warp_session
    """The kernel's own options, as `wp.kernel(...)` keyword arguments."""
    return {k: kernel.options[k] for k in _DECORATOR_OPTIONS if k in kernel.options}


@contextlib.contextmanager
def private_registry(names: list[str]) -> Iterator[None]:  # -> warp_session
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
def default_module_options() -> dict[str, Any]:  # -> warp_session
    return dict(_context().Module(None, None).options)


def changed_module_options(kernel: Any) -> dict[str, Any]:
    """Options of the kernel's module that differ from Warp's defaults (block_dim excluded: a launch choice)."""
    module = kernel.module
    from warp._src import module_registry  # -> warp_session

    home = module_registry.resolve_module_name(kernel.func.__module__, kernel.func.__qualname__)
    if module.name != home:
        return {}  # `module="unique"` or a named module: the decorator or its owner sets them
    defaults = default_module_options()
    return {k: v for k, v in module.options.items() if k not in ("block_dim", "output_arch") and defaults.get(k) != v}


def module_block_dim(kernel: Any) -> int:
    return int(kernel.module.options.get("block_dim", 256))


def live_kernels() -> list[Any]:  # -> warp_session
    """Every kernel object registered in any Warp module of this process (generic ones included)."""
    out = []
    for module in list(_context().user_modules.values()):
        out.extend(module._get_live_kernels())
    return out


def original_module_sources(
    kernel: Any, arch: int, block_dim: int
) -> tuple[str, str, str, list[str]]:  # -> warp_session
    """(CUDA source, CPU source, mangled symbol, helper names): Warp's codegen of `kernel` in its own module.

    The builder is restricted to this kernel (its hasher lists only it), so the source holds what the
    kernel needs and nothing else of the module, and one broken kernel does not hide its neighbours.
    """
    context = _context()
    options = dict(kernel.module.options)
    options["block_dim"] = block_dim
    options["output_arch"] = arch
    hasher = context.ModuleHasher([kernel], options)
    builder = context.ModuleBuilder(kernel.module, options, hasher=hasher, target="cuda")
    cuda = builder.codegen("cuda")
    builder.options = dict(options, block_dim=1)  # what `wp.launch(device="cpu")` compiles with
    cpu = builder.codegen("cpu")
    return cuda, cpu, kernel.get_mangled_name(), declared_symbols(builder)


def declared_names(generated: str) -> list[str]:
    """Identifiers Warp declares for user structs and functions in generated code."""
    names = re.findall(r"^struct (\w+)\s*$", generated, flags=re.M)
    names += re.findall(r"^[^\n/]*CUDA_CALLABLE[^\n(]*?\b(\w+)\($", generated, flags=re.M)
    return names


@contextlib.contextmanager
def preserved_function_counters() -> Iterator[None]:  # -> warp_session
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


def declared_symbols(builder: Any) -> list[str]:  # -> warp_session
    """Native names of the user functions and structs a ModuleBuilder generates."""
    names = [f.native_func for f in builder.functions]
    names += [s.native_name for s in builder.structs]
    return names


class ModuleCode:  # -> warp_session
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
        cpu = codegen.codegen_kernel(kernel, "cpu", self.cpu_options) + codegen.codegen_module(
            kernel, "cpu", self.cpu_options
        )
        return macros + cuda, macros + cpu, kernel.get_mangled_name(), self.symbols


def module_signature(module: Any) -> tuple[int, int]:  # -> warp_session
    """Changes when a module gains kernels or overloads (a later import may add them)."""
    kernels = module._get_live_kernels()
    return len(kernels), sum(len(k.overloads) for k in kernels)
