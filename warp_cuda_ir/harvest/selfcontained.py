"""One kernel -> a self-contained Python module text that defines it and everything it reaches.

A real kernel lives in a package: it calls `@wp.func`s of other modules, takes `@wp.struct`s, reads
`wp.constant`s and values captured by the factory that made it. A training row needs Python that fully
determines its CUDA, so we write one module holding the kernel and, transitively, what it refers to:

- each definition (kernel, `@wp.func` with all its overloads and custom grad/replay functions,
  `@wp.struct`, plain Python helpers used in `wp.static`) is copied with its upstream formatting
  (only dedented when it was nested in a factory);
- constants and captured closure values become assignments of Python literals (`n = 3`,
  `AXIS = wp.vec3f(0.0, 1.0, 0.0)`);
- Warp itself, the standard library and numpy are imported (`import warp as wp`); a module of the
  harvested code used as a namespace (`utils.sq(x)`) becomes a class holding what is used (Warp reads
  attributes of modules and classes at codegen time), so
  the kernel's text, which Warp copies into comments of the generated code, stays as written;
- a generic kernel's overload becomes one `wp.overload(kernel, [...])` call; non-default module
  options one `wp.set_module_options({...})` call.

Names are resolved the way Warp resolves them (closure first, then the defining module's globals).
What cannot be written faithfully raises `Unsupported` with the reason, and the harvest records it.
"""

from __future__ import annotations

import array
import ast
import builtins
import collections
import decimal
import enum
import fractions
import functools
import inspect
import linecache
import math
import numbers
import operator
import symtable
import sys
import textwrap
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import warp as wp

from warp_cuda_ir import warp_session


class Unsupported(Exception):
    """The kernel's dependencies cannot be written as a self-contained module (the message says why)."""


# Modules a self-contained text may import: Warp (the language), the standard library, numpy.
_IMPORTABLE_ROOTS = {"warp", "numpy"} | set(getattr(sys, "stdlib_module_names", ()))


def _importable(module: types.ModuleType) -> bool:
    return module.__name__.split(".")[0] in _IMPORTABLE_ROOTS


@dataclass
class _Entry:
    """One top-level statement group of the output: a definition, an assignment or a namespace."""

    name: str
    text: str
    deps: list[str]
    order: tuple[str, int]  # (file, line) of the upstream definition: tie-break for a stable layout
    is_def: bool


@dataclass
class _Writer:
    imports: dict[str, str] = field(default_factory=dict)  # bound name -> import line
    bindings: dict[str, Any] = field(default_factory=dict)  # bound name -> object
    entries: dict[str, _Entry] = field(default_factory=dict)
    emitted_functions: dict[int, str] = field(default_factory=dict)  # id(python function) -> bound name
    namespaces: dict[str, set[tuple[str, ...]]] = field(default_factory=dict)  # module name -> paths used
    class_members: dict[str, dict[str, str]] = field(default_factory=dict)  # class name -> member literals
    prelude: list[str] = field(default_factory=list)
    future_annotations: bool = False

    # --- names -----------------------------------------------------------------------------------

    def bind(self, name: str, obj: Any) -> bool:
        """Claim `name` for `obj`; False if already bound to it. Two objects under one name cannot be written."""
        if name in self.bindings:
            if _same(self.bindings[name], obj):
                return False
            raise Unsupported(f"name clash: {name!r} refers to two different objects")
        self.bindings[name] = obj
        return True

    def add_import(self, name: str, line: str, obj: Any) -> None:
        if self.bind(name, obj):
            self.imports[name] = line

    def add_entry(self, entry: _Entry) -> None:
        self.entries[entry.name] = entry

    # --- requirements ----------------------------------------------------------------------------

    def require(self, name: str, obj: Any, paths: frozenset[tuple[str, ...]] = frozenset()) -> None:
        """Make `name` refer to `obj` in the output (with the attribute `paths` used on it)."""
        if isinstance(obj, types.ModuleType):
            self._require_module(name, obj, paths)
        elif isinstance(obj, wp.Kernel):
            raise Unsupported(f"refers to another kernel ({name})")
        elif warp_session.is_user_function(obj):
            self._require_function(name, obj)
        elif warp_session.is_builtin_function(obj):
            public = warp_session.builtin_public_name(obj)
            if public is None:
                raise Unsupported(f"{name} is a Warp built-in without a public name")
            self._wp()
            if self.bind(name, obj):
                self.add_entry(_Entry(name, f"{name} = wp.{public}", ["wp"], ("", 0), False))
        elif warp_session.is_struct(obj):
            self._require_struct(name, obj)
        elif getattr(obj, "__module__", None) == "typing" and _typing_name(obj) is not None:
            public = _typing_name(obj)
            self.add_import(name, f"from typing import {public}" + ("" if name == public else f" as {name}"), obj)
        # (`is`, not `in`: a numpy array compares elementwise, and its truth value raises)
        elif warp_session.is_warp_type(obj) or any(obj is t for t in (int, float, bool)):
            self._require_type(name, obj)
        elif isinstance(obj, type) and (
            issubclass(obj, enum.Enum) or (_is_constant_class(obj) and all(len(p) <= 1 for p in paths))
        ):
            self._require_class(name, obj, paths)
        elif isinstance(obj, type) and paths and all(len(p) > 0 for p in paths):
            # A class used as a namespace (`Gaussian.Data`), also a class of constants reached through to a
            # nested class's (`Tuning.Limits.LO`): its members are written one by one, the nested class too.
            self._require_namespace(name, obj, paths)
        elif isinstance(obj, types.FunctionType) and getattr(wp, obj.__name__, None) is obj:
            # Warp's own decorators and helpers taken by name, `from warp import kernel, func` (then `@kernel`)
            line = f"from warp import {obj.__name__}" + ("" if name == obj.__name__ else f" as {name}")
            self.add_import(name, line, obj)
        elif isinstance(obj, types.FunctionType) and _warp_decorator(obj) is not None:
            expr = self._decorator_expr(obj)  # `my_func = wp.func(inline=False)` upstream
            if self.bind(name, obj):
                self.add_entry(_Entry(name, f"{name} = {expr}", ["wp"], ("", 0), False))
        elif isinstance(obj, types.FunctionType):
            self._require_python_function(name, obj)
        elif isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType)) or (
            callable(obj) and getattr(obj, "__module__", None) in ("builtins", "math", "numpy")
        ):
            self._require_importable_attr(name, obj)
        elif _function_table(obj):
            self._require_function_table(name, obj)
        elif (public := _warp_public_name(name, obj)) is not None:
            # Any other public object of Warp taken by name, as `from warp import *` binds them (`array`).
            self.add_import(name, f"from warp import {public}" + ("" if name == public else f" as {name}"), obj)
        elif _is_named_tuple(obj) and paths and all(len(p) > 0 for p in paths):
            # A `NamedTuple` read by field (`wp.static(p.stiffness)`): a tuple literal would lose the field
            # names, so a class holding the fields used, as for a settings object.
            self._require_namespace(name, obj, paths)
        elif _attribute_dict(obj) and paths and all(len(p) > 0 for p in paths):
            # An "easydict" (`class AttrDict(dict): __getattr__ = dict.__getitem__`) read by attribute
            # (`wp.static(CFG.dt)`): a dict literal has no such attributes, a class of the keys used does.
            self._require_namespace(name, obj, paths)
        elif _user_enum_member(obj):
            # Kept a member of its enum, not its value: `wp.static(Forces.WIND in ACTIVE)` needs a flag (`in` on
            # an int raises), and `wp.static(UP == Axis.Y)` was False with `UP = "y"` (the kernel took the
            # other branch).
            expr = self._enum_member_expr(obj)
            if self.bind(name, obj):
                self.add_entry(_Entry(name, f"{name} = {expr}", _names_in(expr), ("", 0), False))
        else:
            try:
                literal = self.literal(obj)
            except Unsupported as e:
                settings = _is_settings_object(obj) or warp_session.struct_type_of(obj) is not None
                if settings and paths and all(len(p) > 0 for p in paths):
                    # A settings object read for its fields (`wp.static(SETTINGS.mode == Mode.FAST)`, a
                    # dataclass instance, a `wp.struct` instance filled host-side and read as `wp.static(P.dt)`):
                    # a class holding the fields used, as Warp and `wp.static` read attributes the same way
                    # off a class.
                    self._require_namespace(name, obj, paths)
                    return
                raise Unsupported(f"{name}: {e}") from e
            if self.bind(name, obj):
                self.add_entry(_Entry(name, f"{name} = {literal}", _names_in(literal), ("", 0), False))

    def _require_module(self, name: str, module: types.ModuleType, paths: frozenset[tuple[str, ...]]) -> None:
        if _importable(module):
            full = module.__name__
            if full == "warp._src" or full.startswith("warp._src."):
                pass  # private Warp modules are imported as they are named upstream
            if name == full:
                line = f"import {full}"
            elif "." in full:
                parent, _, leaf = full.rpartition(".")
                line = f"from {parent} import {leaf}" if leaf == name else f"import {full} as {name}"
            else:
                line = f"import {full} as {name}"
            self.add_import(name, line, module)
            return
        # A module of the harvested code used as a namespace: `name.attr...` for each used path.
        if not paths or any(len(p) == 0 for p in paths):
            raise Unsupported(f"module {module.__name__} used as a value ({name})")
        self._require_namespace(name, module, paths)

    def _require_namespace(self, name: str, module: Any, paths: frozenset[tuple[str, ...]]) -> None:
        self.bind(name, module)
        known = self.namespaces.setdefault(name, set())
        new = set(paths) - known
        known |= new
        self._require_members(name, module, frozenset(new))

    def _require_members(self, label: str, obj: Any, paths: frozenset[tuple[str, ...]]) -> None:
        for attr, rest in sorted(_heads(paths).items()):
            if not hasattr(obj, attr):
                raise Unsupported(f"{label}.{attr} does not exist")
            value = getattr(obj, attr)
            if _is_namespace(value, rest):
                if not rest or any(len(p) == 0 for p in rest):
                    raise Unsupported(f"module {value.__name__} used as a value ({label}.{attr})")
                self._require_members(f"{label}.{attr}", value, rest)
            elif _user_enum_member(value):
                # Kept a member of its enum: `SETTINGS.boundary is Boundary.WRAP` must stay true.
                self._enum_member_expr(value)
            else:
                self.require(self._name_for(value, attr), value, rest)

    def _namespace(
        self, name: str, obj: Any, paths: frozenset[tuple[str, ...]], indent: str = ""
    ) -> tuple[str, list[str]]:
        """`class name:` holding what `paths` reach from module `obj` (Warp reads attributes of classes and
        modules at codegen time, not of other objects, so a namespace must be a class)."""
        lines, deps = [f"{indent}class {name}:"], []
        for attr, rest in sorted(_heads(paths).items()):
            value = getattr(obj, attr)
            if _is_namespace(value, rest):
                text, sub = self._namespace(attr, value, rest, indent + "    ")
                lines.append(text)
                deps += sub
                continue
            if _user_enum_member(value):
                lines.append(f"{indent}    {attr} = {self._enum_member_expr(value)}")
                deps.append(type(value).__name__)
                continue
            target = self._name_for(value, attr)
            lines.append(f"{indent}    {attr} = {target}")
            deps.append(target)
        return "\n".join(lines), deps

    def _enum_member_expr(self, member: enum.Enum) -> str:
        """`Mode.FAST` for a member of a user enum (its class written with the members used); a combination
        of flags with no name of its own (`Forces.GRAVITY | Forces.WIND`) as the members it combines."""
        cls = type(member)
        name = cls.__name__
        if member.name in cls.__members__:
            self.require(name, cls, frozenset({(member.name,)}))
            return f"{name}.{member.name}"
        parts = [m for m in cls if isinstance(member, enum.Flag) and m in member and m.value]
        if parts and functools.reduce(operator.or_, parts) == member:
            self.require(name, cls, frozenset((m.name,) for m in parts))
            return " | ".join(f"{name}.{m.name}" for m in parts)
        self.require(name, cls, frozenset({()}))  # `Forces(0)`, or a value no members make: the whole class
        return f"{name}({self.literal(member.value)})"

    def _name_for(self, value: Any, attr: str) -> str:
        """The top-level name a namespace member gets: its own definition name when it has one."""
        if warp_session.is_user_function(value):
            return value.func.__name__
        if warp_session.is_struct(value):
            return value.cls.__name__
        if isinstance(value, types.FunctionType) or isinstance(value, type):
            return value.__name__
        return attr

    def _require_function_table(self, name: str, table: list[Any] | tuple[Any, ...] | dict[Any, Any]) -> None:
        """A list, tuple or dict of `@wp.func`s a kernel picks from in `wp.static(OPS[k])`: each function
        under its own name, a Warp built-in as `wp.<name>`, then the table of those names."""
        items = table.values() if isinstance(table, dict) else table
        names = []
        for func in items:
            if warp_session.is_builtin_function(func):
                self._wp()
                names.append(f"wp.{warp_session.builtin_public_name(func)}")
                continue
            names.append(func.func.__name__)
            self.require(names[-1], func)
        if isinstance(table, dict):
            text = "{" + ", ".join(f"{self.literal(k)}: {n}" for k, n in zip(table, names, strict=True)) + "}"
        elif isinstance(table, tuple):
            text = f"({names[0]},)" if len(names) == 1 else f"({', '.join(names)})"
        else:
            text = f"[{', '.join(names)}]"
        if self.bind(name, table):
            deps = sorted({n.partition(".")[0] for n in names})
            self.add_entry(_Entry(name, f"{name} = {text}", deps, ("", 0), False))

    def _require_function(self, name: str, func: Any) -> None:
        # All overloads of a `@wp.func` live under one name; custom grad/replay functions come after them.
        if not self.bind(name, func):
            return
        defs = warp_session.function_definitions(func)
        if not defs:
            raise Unsupported(f"@wp.func {name} has no Python source (built in or generated)")
        texts, deps, order = [], [], None
        def_name = defs[0][0].__name__
        for pyfunc, overload in defs:
            text, d, where = self._definition(
                pyfunc, skip={def_name}, resolved=warp_session.function_arg_types(overload), function=overload
            )
            if not _decorated_by_warp(text, _scope_of(pyfunc)):
                # `relu = wp.func(_relu)` on a plain def (at the top, or as a class attribute called `Ops.relu`):
                # the def alone would be a Python function Warp cannot call, so the text makes it the same way.
                # The def's own decorators go: Warp made the function from the def they were given (`@op` that
                # files `wp.func(fn)` in a table and returns `fn`), and kept they would run the user's code
                # (filling the table, whose text is written from these functions: NameError).
                self._wp()
                text = _without_decorators(text) + f"\n\n\n{pyfunc.__name__} = wp.func({pyfunc.__name__})"
            texts.append(text)
            deps += d
            order = order or where
            self.emitted_functions[id(pyfunc)] = def_name
        extra = warp_session.custom_grad_and_replay(func)
        for pyfunc in extra:
            if id(pyfunc) in self.emitted_functions:
                continue
            text, d, _ = self._definition(pyfunc, skip={def_name, pyfunc.__name__})
            texts.append(text)
            deps += [x for x in d if x != def_name]
            self.emitted_functions[id(pyfunc)] = pyfunc.__name__
        if def_name != name:
            self.bind(def_name, func)
            self.add_entry(_Entry(def_name, "\n\n\n".join(texts), deps, order, True))
            self.add_entry(_Entry(name, f"{name} = {def_name}", [def_name], order, False))
        else:
            self.add_entry(_Entry(name, "\n\n\n".join(texts), deps, order, True))

    def _require_struct(self, name: str, struct: Any) -> None:
        if not self.bind(name, struct):
            return
        cls = struct.cls
        text, deps, order = self._definition(cls, skip={cls.__name__}, struct=struct)
        if not _decorated_by_warp(text, _scope_of(cls)):
            # `Particle = wp.struct(ParticleDef)` on a plain class: the class alone is no struct to Warp (an
            # array of it is refused), so the text makes it the same way, under the class's name.
            self._wp()
            text += f"\n\n\n{cls.__name__} = wp.struct({cls.__name__})"
        if cls.__name__ != name:
            self.bind(cls.__name__, struct)
            self.add_entry(_Entry(cls.__name__, text, deps, order, True))
            self.add_entry(_Entry(name, f"{name} = {cls.__name__}", [cls.__name__], order, False))
        else:
            self.add_entry(_Entry(name, text, deps, order, True))

    def _require_type(self, name: str, t: Any) -> None:
        public = warp_session.public_name(t)
        if t in (int, float, bool):
            if name == t.__name__:
                return
            expr = t.__name__
        elif public is not None and public == name:
            self.add_import(name, f"from warp import {name}", t)
            return
        else:
            expr = self.type_expr(t)
        if self.bind(name, t):
            self.add_entry(_Entry(name, f"{name} = {expr}", _names_in(expr), ("", 0), False))

    def _require_class(self, name: str, cls: Any, paths: frozenset[tuple[str, ...]]) -> None:
        """An enum, or a plain class used for its attributes (`GeoType.BOX`): the members used, as literals.

        Enums stay enums (Warp turns `IntEnum`/`IntFlag` members into ints, and `Member.value` must work)."""
        is_enum = issubclass(cls, enum.Enum)
        if any(len(p) > 1 and not is_enum for p in paths):
            raise Unsupported(f"class {name} used other than for its attributes")
        self.bind(name, cls)
        members = self.class_members.setdefault(name, {})
        wanted = {p[0] for p in paths if p}
        if not paths or any(len(p) == 0 for p in paths):  # used as a whole (a type, a value): all members
            wanted |= (
                set(cls.__members__)
                if is_enum
                else {
                    k
                    for k, v in vars(cls).items()
                    if not k.startswith("_")
                    and not callable(v)
                    and not isinstance(v, (classmethod, staticmethod, property))
                }
            )
        for m in wanted:
            if m not in members:
                value = getattr(cls, m, None)
                if isinstance(value, enum.Enum):
                    if not is_enum or value.__class__ is not cls:
                        raise Unsupported(f"{name}.{m} is a member of another enum")
                    value = value.value
                members[m] = self.literal(value)

    def _decorator_expr(self, wrapper: types.FunctionType) -> str:
        """`wp.func(...)` / `wp.kernel(...)` with the arguments the upstream call gave (read off its closure)."""
        decorator = _warp_decorator(wrapper)
        params = inspect.signature(getattr(wp, decorator)).parameters
        cells = dict(zip(wrapper.__code__.co_freevars, wrapper.__closure__ or (), strict=False))
        args = []
        for pname, param in params.items():
            if pname not in cells or param.kind is not inspect.Parameter.KEYWORD_ONLY:
                continue
            value = cells[pname].cell_contents
            if value != param.default:
                args.append(f"{pname}={self.literal(value)}")
        self._wp()
        return f"wp.{decorator}({', '.join(args)})"

    def _require_python_function(self, name: str, pyfunc: types.FunctionType) -> None:
        # Plain Python (e.g. called inside `wp.static(...)`): copied like a wp.func.
        if not self.bind(name, pyfunc):
            return
        text, deps, order = self._definition(pyfunc, skip={pyfunc.__name__})
        if pyfunc.__name__ != name:
            self.bind(pyfunc.__name__, pyfunc)
            self.add_entry(_Entry(pyfunc.__name__, text, deps, order, True))
            self.add_entry(_Entry(name, f"{name} = {pyfunc.__name__}", [pyfunc.__name__], order, False))
        else:
            self.add_entry(_Entry(name, text, deps, order, True))

    def _require_importable_attr(self, name: str, obj: Any) -> None:
        module = getattr(obj, "__module__", None)
        qual = getattr(obj, "__name__", None)
        if module is None or qual is None or module.split(".")[0] not in _IMPORTABLE_ROOTS:
            raise Unsupported(f"cannot write {name} ({type(obj).__name__})")
        line = f"from {module} import {qual}" if qual == name else f"from {module} import {qual} as {name}"
        self.add_import(name, line, obj)

    # --- definitions -----------------------------------------------------------------------------

    def _definition(
        self,
        obj: Any,
        skip: set[str],
        struct: Any = None,
        resolved: dict[str, Any] | None = None,
        kernel: Any = None,
        function: Any = None,
    ) -> tuple[str, list[str], tuple[str, int]]:
        """Upstream text of a def/class (dedented) and the names it needs; requires each of them.

        `kernel` / `function`: the Warp kernel or function the def made, which keeps what its decorator's
        arguments were (a nested def's decorator ran in its factory's frame, which is gone)."""
        lines, lineno, filename = source_lines(obj)
        text = textwrap.dedent("".join(lines)).rstrip() + "\n"
        scope = _scope_of(obj)
        if kernel is not None:
            text = _kernel_decorators_only(text, scope)
        needed, annotation_only, annotation_names = _names_read(text)
        deps: list[str] = []
        for name, paths in sorted(needed.items()):
            if name in skip:
                continue
            value = scope.get(name, _MISSING)
            nested = "<locals>" in getattr(obj, "__qualname__", "")
            closure = getattr(getattr(obj, "__code__", None), "co_freevars", ())
            if resolved and nested and name not in closure and name in annotation_names:
                # A nested def's annotations were evaluated in its factory's frame, which is gone (and a module
                # global of the same name is another object): Warp's resolved argument types say what it was.
                found = _annotation_value(text, name, resolved)
                builtin = vars(builtins).get(name, _MISSING)
                kept = value is _MISSING and isinstance(builtin, type) and warp_session.warp_type_of(builtin) is found
                if found is not _MISSING and not kept:
                    value = found  # (Python's own `float` there is what Warp read as float32: keep the builtin)
            if value is _MISSING and name in vars(builtins):
                continue  # Python resolves it
            if value is _MISSING and struct is not None:
                value = _struct_annotation_value(struct, text, name)
            if value is _MISSING and resolved:
                value = _annotation_value(text, name, resolved)
            if value is _MISSING and (kernel is not None or function is not None):
                value = _decorator_argument(text, name, kernel, function)
            if value is _MISSING:
                if hasattr(wp, name):
                    continue  # Warp resolves a bare `vec3` itself (see `Adjoint.resolve_path`)
                raise Unsupported(f"{getattr(obj, '__qualname__', '?')} refers to {name!r}, not found")
            try:
                self.require(name, value, frozenset(paths))
            except Unsupported:
                # Upstream wrote `from __future__ import annotations`, so a name used only in annotations
                # (a typing-only import) was never evaluated there: keep it that way here.
                if name in annotation_only and _future_annotations(scope):
                    self.future_annotations = True
                    continue
                raise
            deps.append(name)
        return text.rstrip("\n"), deps, (filename, lineno)

    # --- expressions -----------------------------------------------------------------------------

    def type_expr(self, t: Any) -> str:
        """Python expression for a Warp type (as in an annotation or `wp.overload` list)."""
        if t in (int, float, bool):
            return t.__name__
        if t is typing.Any:
            self.add_import("Any", "from typing import Any", typing.Any)
            return "Any"
        if warp_session.is_struct(t):
            name = t.cls.__name__
            self.require(name, t)
            return name
        public = warp_session.public_name(t)
        if public is not None:
            self._wp()
            return f"wp.{public}"
        described = warp_session.describe_type(t)
        if described is None:
            raise Unsupported(f"cannot write type {t!r}")
        kind, params = described
        self._wp()
        args = ", ".join(f"{k}={v if isinstance(v, (int, tuple)) else self.type_expr(v)}" for k, v in params)
        return f"wp.{kind}({args})"

    def literal(self, value: Any) -> str:
        """Python literal for a constant or captured value (Warp inlines these into the generated code)."""
        if value is None or isinstance(value, (bool, str)):
            return repr(value)
        if isinstance(value, enum.Enum):
            cls = type(value)
            if warp_session.public_name(cls) is not None:  # e.g. wp.DeterministicMode.RUN_TO_RUN: Warp checks the type
                self._wp()
                return f"wp.{warp_session.public_name(cls)}.{value.name}"
            return self.literal(value.value)
        if isinstance(value, int):
            return repr(int(value))
        if isinstance(value, float):
            if math.isfinite(value):
                return repr(float(value))
            return f'float("{value}")'
        if isinstance(value, (tuple, list)):
            items = ", ".join(self.literal(v) for v in value)
            if isinstance(value, tuple):
                return f"({items},)" if len(value) == 1 else f"({items})"
            return f"[{items}]"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self.literal(k)}: {self.literal(v)}" for k, v in value.items()) + "}"
        if isinstance(value, (set, frozenset)):
            # Read by `wp.static(c in ACTIVE)`. A set's iteration order follows its elements' hashes, which
            # vary between runs for strings: sorted by their literal text, so one set always reads the same.
            items = ", ".join(sorted(self.literal(v) for v in value))
            if isinstance(value, frozenset):
                return f"frozenset({{{items}}})" if value else "frozenset()"
            return f"{{{items}}}" if value else "set()"
        np = sys.modules.get("numpy")
        if np is not None and isinstance(value, np.void) and value.dtype.names:
            # One record of a structured array (`STEEL = MATERIALS[1]`, read as `STEEL["E"]`): the record of a
            # one-row array of its dtype.
            return f"{self._numpy_array(np.array([value], dtype=value.dtype))}[0]"
        if np is not None and isinstance(value, np.generic):
            self.add_import("np", "import numpy as np", np)
            return f"np.{type(value).__name__}({self.literal(value.item())})"
        if np is not None and isinstance(value, np.ndarray):
            return self._numpy_array(value)
        scalar = warp_session.scalar_value(value)
        if scalar is not None:
            return f"{self.type_expr(type(value))}({self.literal(scalar)})"
        components = warp_session.vector_components(value)
        if components is not None:
            return f"{self.type_expr(type(value))}({', '.join(self.literal(c) for c in components)})"
        other = self._other_literal(value)
        if other is not None:
            return other
        raise Unsupported(f"cannot write a {type(value).__module__}.{type(value).__qualname__} value as a literal")

    def _other_literal(self, value: Any) -> str | None:
        """Built-in and standard-library values a kernel reads only through `wp.static(...)` (a table, a range of
        offsets, exact coefficients): written so that the same Python expression gives the same value."""
        if isinstance(value, range):
            return f"range({value.start}, {value.stop}, {value.step})"
        if isinstance(value, bytes):
            return repr(value)
        if isinstance(value, bytearray):
            return f"bytearray({bytes(value)!r})"
        if isinstance(value, complex):
            return f"complex({self.literal(value.real)}, {self.literal(value.imag)})"
        if isinstance(value, array.array):
            self.add_import("array", "import array", array)
            return f"array.array({value.typecode!r}, {self.literal(value.tolist())})"
        if isinstance(value, collections.deque):
            self.add_import("collections", "import collections", collections)
            maxlen = "" if value.maxlen is None else f", maxlen={value.maxlen}"
            return f"collections.deque({self.literal(list(value))}{maxlen})"
        if isinstance(value, collections.ChainMap):
            # Overrides over defaults: each map in its place, so a key reads from the first map holding it.
            self.add_import("collections", "import collections", collections)
            return f"collections.ChainMap({', '.join(self.literal(m) for m in value.maps)})"
        if isinstance(value, types.MappingProxyType):
            self.add_import("types", "import types", types)
            return f"types.MappingProxyType({self.literal(dict(value))})"
        if isinstance(value, decimal.Decimal):
            self.add_import("Decimal", "from decimal import Decimal", decimal.Decimal)
            return f"Decimal({str(value)!r})"
        if isinstance(value, numbers.Rational):
            # A `Fraction`, or another library's exact number registered as one (sympy's `Rational`, `Integer`,
            # `One` from `sympy.series` coefficients): an exact fraction reads back the same under `float(...)`,
            # and its arithmetic stays exact as theirs does (the generated code is compared with Warp's anyway).
            num, den = int(value.numerator), int(value.denominator)
            if den == 1 and not isinstance(value, fractions.Fraction):
                return repr(num)
            self.add_import("Fraction", "from fractions import Fraction", fractions.Fraction)
            return f"Fraction({num}, {den})"
        return None

    def _numpy_array(self, value: Any) -> str:
        """`np.array([...], dtype=np.float32)` for a module-level numpy array a kernel reads through
        `wp.static(float(WEIGHTS[k]))` (Warp takes no array as a constant, so only `wp.static` reads one)."""
        np = sys.modules["numpy"]
        if value.dtype.names and value.size <= _MAX_ARRAY_LITERAL and _plain_record_dtype(value.dtype):
            # A structured (record) array of numbers, `MATERIALS["E"][1]`: its rows as tuples, its dtype as
            # the list of (field, type code) pairs numpy gives back (`dtype.descr`).
            self.add_import("np", "import numpy as np", np)
            fields = [(name, value.dtype.fields[name][0].str) for name in value.dtype.names]
            return f"np.array({self.literal(value.tolist())}, dtype={self.literal(fields)})"
        if value.dtype.kind not in "biuf" or value.size > _MAX_ARRAY_LITERAL:
            raise Unsupported(f"cannot write a numpy array of {value.size} {value.dtype} values as a literal")
        self.add_import("np", "import numpy as np", np)
        # `tolist()` gives Python numbers whose repr reads back to the same values of the array's dtype.
        return f"np.array({self.literal(value.tolist())}, dtype=np.{value.dtype.type.__name__})"

    def _wp(self) -> None:
        if "wp" not in self.imports:
            self.add_import("wp", "import warp as wp", wp)


_MISSING = object()

# The text carries every element of a numpy array a kernel reads: a table of coefficients is small, and a
# mesh or an image (100,000s of values) would make a row of megabytes of literal, so those stay refused.
_MAX_ARRAY_LITERAL = 4096


def _plain_record_dtype(dtype: Any) -> bool:
    """Whether a structured dtype holds only number fields, one value each (no nested records, no subarrays,
    no padding): a list of (name, type code) pairs writes it back."""
    fields = [dtype.fields[name] for name in dtype.names]
    offsets = sum(f[0].itemsize for f in fields) == dtype.itemsize
    return offsets and all(f[0].kind in "biuf" and not f[0].shape and f[0].names is None for f in fields)


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        return type(a) is type(b) and not callable(a) and bool(a == b)
    except Exception:
        return False


def _is_namespace(value: Any, rest: frozenset[tuple[str, ...]]) -> bool:
    """A member reached through to its own attributes: a module of the harvested code, or a plain class."""
    if isinstance(value, types.ModuleType):
        return not _importable(value)
    return (
        isinstance(value, type)
        and not issubclass(value, enum.Enum)
        and not _is_constant_class(value)
        and not warp_session.is_warp_type(value)
        and bool(rest)
        and all(len(p) > 0 for p in rest)
    )


def _user_enum_member(value: Any) -> bool:
    """A member of an enum of the harvested code (not one of Warp's, which `literal` writes by its public name)."""
    return isinstance(value, enum.Enum) and warp_session.public_name(type(value)) is None


def _attribute_dict(value: Any) -> bool:
    """A dict of a class the harvested code wrote that serves its keys as attributes (`__getattr__`)."""
    cls = type(value)
    return (
        isinstance(value, dict)
        and cls.__module__ not in ("builtins", "collections", "typing", "types")
        and any("__getattr__" in vars(klass) for klass in cls.__mro__[:-2])
    )


def _is_settings_object(value: Any) -> bool:
    """An instance of a class of the harvested code (a dataclass, a plain object holding settings): not a
    type, function, module, Warp value or built-in value."""
    cls = type(value)
    return (
        not isinstance(value, (type, types.ModuleType, enum.Enum))
        and not callable(value)
        and cls.__module__ not in ("builtins", "typing", "numpy")
        # Warp's own modules, not this package's (`warp_cuda_ir`): the options a parser's defaults stand for
        # (`call_values._Parsed`) are settings like the `argparse.Namespace` they stand for.
        and cls.__module__.partition(".")[0] != "warp"
        and not warp_session.is_warp_type(cls)
        # Fields in `__dict__`, or in slots: `attrs.frozen` / `attrs.define` classes and dataclasses with
        # `slots=True` have no `__dict__`, and their fields read the same way.
        and (hasattr(value, "__dict__") or _slot_names(cls) != ())
    )


def _slot_names(cls: type) -> tuple[str, ...]:
    """The slots declared by `cls` and its bases of the harvested code (`object` and built-ins declare none)."""
    names: list[str] = []
    for base in cls.__mro__:
        if base.__module__ == "builtins":
            continue
        slots = vars(base).get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [n for n in slots if n not in ("__dict__", "__weakref__")]
    return tuple(names)


def _is_named_tuple(value: Any) -> bool:
    """An instance of a `typing.NamedTuple` / `collections.namedtuple` class."""
    return isinstance(value, tuple) and isinstance(getattr(type(value), "_fields", None), tuple)


def _enum_base(cls: type) -> str | None:
    for base in ("IntFlag", "IntEnum", "Flag", "Enum"):
        if issubclass(cls, getattr(enum, base)):
            return base
    return None


def _member_order(cls: type, member: str) -> tuple[int, str]:
    """Upstream order of enum members (definition order), other attributes by name."""
    names = list(getattr(cls, "__members__", {}))
    return (names.index(member), member) if member in names else (len(names), member)


def _typing_name(obj: Any) -> str | None:
    """`Any`, `Tuple`, ...: the name under which `typing` exports this very object."""
    for candidate in (getattr(obj, "_name", None), getattr(obj, "__name__", None)):
        if isinstance(candidate, str) and getattr(typing, candidate, None) is obj:
            return candidate
    return None


def _heads(paths: frozenset[tuple[str, ...]]) -> dict[str, frozenset[tuple[str, ...]]]:
    heads: dict[str, set[tuple[str, ...]]] = {}
    for p in paths:
        if p:
            heads.setdefault(p[0], set()).add(p[1:])
    return {k: frozenset(v) for k, v in heads.items()}


def _is_constant_class(cls: type) -> bool:
    """A plain class holding constants (`class GeoType: BOX = 1`), not a Warp type or a data class."""
    return (
        cls.__module__ not in ("builtins", "typing")
        and not warp_session.is_warp_type(cls)
        and cls.__init__ is object.__init__
        and any(isinstance(v, (int, float, bool)) for k, v in vars(cls).items() if not k.startswith("_"))
    )


def _names_in(expr: str) -> list[str]:
    return sorted({n.id for n in ast.walk(ast.parse(expr)) if isinstance(n, ast.Name)})


def _scope_of(obj: Any) -> dict[str, Any]:
    """Names as Warp resolves them for this definition: closure cells over module globals."""
    if isinstance(obj, types.FunctionType):
        scope = dict(obj.__globals__)
        if obj.__closure__:
            for name, cell in zip(obj.__code__.co_freevars, obj.__closure__, strict=True):
                try:
                    scope[name] = cell.cell_contents
                except ValueError:  # an empty cell: the factory had not bound it yet
                    pass
        return scope
    module = sys.modules.get(getattr(obj, "__module__", ""), None)
    return dict(vars(module)) if module is not None else {}


def _struct_annotation_value(struct: Any, text: str, name: str) -> Any:
    """A struct made inside a factory names local types: take the field's type from Warp's own struct."""
    tree = ast.parse(text)
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef)), None)
    if cls is None:
        return _MISSING
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            ann = stmt.annotation
            if isinstance(ann, ast.Name) and ann.id == name:
                var = warp_session.struct_fields(struct).get(stmt.target.id)
                if var is not None:
                    return var
    return _MISSING


_SOURCE_CACHE: dict[str, dict[str, tuple[int, int]]] = {}


def source_lines(obj: Any) -> tuple[list[str], int, str]:
    """(lines with decorators, first line, file) of a function or class, as `inspect.getsourcelines` gives.

    `inspect` finds a class by parsing its whole file on every call and a function after scanning every
    loaded module (~25 ms each in a worker that imported newton, measured); one AST index per file is enough.
    """
    code = getattr(obj, "__code__", None)
    filename = code.co_filename if code is not None else getattr(sys.modules.get(obj.__module__), "__file__", None)
    lines = linecache.getlines(filename) if filename else []
    if not lines:
        raise Unsupported(f"no source for {getattr(obj, '__qualname__', obj)!r}")
    index = _SOURCE_CACHE.get(filename)
    if index is None:
        index = _SOURCE_CACHE[filename] = _index_definitions("".join(lines))
    span = index.get(obj.__qualname__)
    if code is not None and (span is None or span[0] != code.co_firstlineno):
        # A def whose qualified name is not unique in the file (redefined, or an overload): by line.
        span = next((sp for sp in index.values() if sp[0] == code.co_firstlineno), None)
    if span is None:
        raise Unsupported(f"no source for {obj.__qualname__!r} in {filename}")
    first, last = span
    return lines[first - 1 : last], first, filename


def _index_definitions(text: str) -> dict[str, tuple[int, int]]:
    """qualified name -> (first line including decorators, last line) for every def and class of a file."""
    out: dict[str, tuple[int, int]] = {}
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return out

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                qual = prefix + child.name
                span = (first, child.end_lineno or child.lineno)
                out.setdefault(qual, span)
                out[f"{qual}@{first}"] = span
                inner = qual + (".<locals>." if not isinstance(child, ast.ClassDef) else ".")
                visit(child, inner)
            else:
                visit(child, prefix)

    visit(tree, "")
    return out


def _annotation_value(text: str, name: str, resolved: dict[str, Any]) -> Any:
    """A name in an argument annotation that only the factory's scope knew: read it off Warp's resolved type."""
    node = ast.parse(text).body[0]
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _MISSING
    for arg in node.args.args + node.args.kwonlyargs:
        if arg.annotation is not None and arg.arg in resolved:
            value = _match_annotation(arg.annotation, resolved[arg.arg], name)
            if value is not _MISSING:
                return value
    return _MISSING


def _match_annotation(node: ast.AST, t: Any, name: str) -> Any:
    if isinstance(node, ast.Name) and node.id == name:
        return t
    dtype = getattr(t, "dtype", _MISSING)
    if dtype is _MISSING:
        return _MISSING
    if isinstance(node, ast.Subscript):  # wp.array[dtype], wp.array2d[dtype]
        inner = node.slice
        return _match_annotation(inner, dtype, name)
    if isinstance(node, ast.Call):  # wp.array(dtype=dtype, ndim=2)
        for kw in node.keywords:
            if kw.arg == "dtype":
                return _match_annotation(kw.value, dtype, name)
        if node.args:
            return _match_annotation(node.args[0], dtype, name)
    return _MISSING


# `@wp.func_native(snippet, adj_snippet, replay_snippet)`: where the function keeps each argument.
_SNIPPETS = {"snippet": "native_snippet", "adj_snippet": "adj_native_snippet", "replay_snippet": "replay_snippet"}


def _decorator_calls(text: str) -> list[ast.Call]:
    """The decorators of the definition `text` holds that are calls (`@wp.kernel(module="unique")`)."""
    node = ast.parse(text).body[0]
    return [d for d in getattr(node, "decorator_list", []) if isinstance(d, ast.Call)]


def _decorator_argument(text: str, name: str, kernel: Any, function: Any) -> Any:
    """A decorator argument a factory computed, as the kernel or function it made kept it, else _MISSING:
    `@wp.kernel(module=module_name)` the module's name, `@wp.kernel(grid_stride=g)` the kernel's option,
    `@wp.func_native(snippet, adj_snippet)` the function's snippets."""
    options = warp_session.kernel_decorator_options(kernel) if kernel is not None else {}
    for dec in _decorator_calls(text):
        native = (
            dec.func.attr if isinstance(dec.func, ast.Attribute) else getattr(dec.func, "id", "")
        ) == "func_native"
        keywords = [kw.arg for kw in dec.keywords if isinstance(kw.value, ast.Name) and kw.value.id == name]
        if native:
            keywords += [
                k for k, a in zip(_SNIPPETS, dec.args, strict=False) if isinstance(a, ast.Name) and a.id == name
            ]
        for keyword in keywords:
            if kernel is not None and keyword == "module":
                return warp_session.kernel_module_name(kernel)
            if keyword in options:
                return options[keyword]
            if function is not None and native and keyword in _SNIPPETS:
                value = getattr(function, _SNIPPETS[keyword], None)
                if value is not None:
                    return value
        # `@wp.kernel(module="unique" if unique else None)`, `enable_backward=not nograd`: a switch inside the
        # option's expression, the value of it that gives what the kernel kept (tried in turn, none called)
        for kw in dec.keywords:
            if kernel is None or kw.arg is None or isinstance(kw.value, ast.Name):
                continue
            if not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(kw.value)):
                continue
            kept = warp_session.kernel_module_name(kernel) if kw.arg == "module" else options.get(kw.arg, _MISSING)
            if kept is _MISSING or not all(isinstance(n, _SWITCH_NODES) for n in ast.walk(kw.value)):
                continue
            if {n.id for n in ast.walk(kw.value) if isinstance(n, ast.Name)} != {name}:
                continue
            code = compile(ast.Expression(kw.value), "<decorator>", "eval")
            for candidate in (True, False, None):
                if eval(code, {"__builtins__": {}}, {name: candidate}) == kept:
                    return candidate
    return _MISSING


# The parts of a decorator option's expression `_decorator_argument` evaluates with a switch's candidate values.
_SWITCH_NODES = (
    ast.IfExp, ast.UnaryOp, ast.Not, ast.BoolOp, ast.And, ast.Or, ast.Compare, ast.Is, ast.IsNot, ast.Eq, ast.NotEq,
    ast.Constant, ast.Name, ast.Load,
)  # fmt: skip


def _function_table(value: Any) -> bool:
    """Whether `value` is a non-empty list, tuple or dict (plain keys) of `@wp.func`s or Warp built-ins with a
    public name (`[wp.sin, wp.cos, my_func]`)."""
    if isinstance(value, dict):
        keys_plain = all(isinstance(k, (str, int)) for k in value)
        return bool(value) and keys_plain and all(_table_function(v) for v in value.values())
    return isinstance(value, (list, tuple)) and bool(value) and all(_table_function(v) for v in value)


def _table_function(value: Any) -> bool:
    if warp_session.is_builtin_function(value):
        return warp_session.builtin_public_name(value) is not None
    return warp_session.is_user_function(value)


def _decorator_value(dec: ast.expr, scope: dict[str, Any]) -> Any:
    """What a decorator names (`wp.kernel`, `jit`, the `register` of `@register("abs")`), or _MISSING where
    the scope does not say (a nested def's decorators ran in its factory's frame, which is gone). A decorator
    that is an expression (`@DECORATORS["kernel"]`, `@(wp.kernel(enable_backward=False) if FAST else wp.kernel)`)
    is read as far as names, attributes, constant subscripts and conditionals go, without calling anything."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    if isinstance(target, ast.Name):
        return scope.get(target.id, vars(builtins).get(target.id, _MISSING))
    if isinstance(target, ast.Attribute):
        value = _decorator_value(target.value, scope)
        return getattr(value, target.attr, _MISSING) if value is not _MISSING else _MISSING
    if isinstance(target, ast.Constant):
        return target.value
    if isinstance(target, ast.Subscript):
        container, key = _decorator_value(target.value, scope), _decorator_value(target.slice, scope)
        if isinstance(container, (dict, list, tuple)) and key is not _MISSING:
            try:
                return container[key]
            except (KeyError, IndexError, TypeError):
                return _MISSING
        return _MISSING
    if isinstance(target, ast.IfExp):
        test = _decorator_value(target.test, scope)
        if test is _MISSING or not isinstance(test, (bool, int, float, str, type(None))):
            return _MISSING
        return _decorator_value(target.body if test else target.orelse, scope)
    return _MISSING


def _plain_decorator(dec: ast.expr) -> bool:
    """`@name`, `@a.b`, or a call of one: the spellings a definition's text can keep as they are."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    while isinstance(target, ast.Attribute):
        target = target.value
    return isinstance(target, ast.Name)


def _is_kernel_decorator(dec: ast.expr, scope: dict[str, Any]) -> bool:
    """`@wp.kernel`, `@wp.kernel(...)`, or Warp's `kernel` under another name (`jit = wp.kernel`, `from warp
    import kernel as warp_kernel`); by its spelling where the scope does not say what it is."""
    value = _decorator_value(dec, scope)
    if value is not _MISSING:
        return value is wp.kernel
    target = dec.func if isinstance(dec, ast.Call) else dec
    return (isinstance(target, ast.Attribute) and target.attr == "kernel") or (
        isinstance(target, ast.Name) and target.id == "kernel"
    )


def _kernel_decorators_only(text: str, scope: dict[str, Any]) -> str:
    """A kernel's text with only Warp's kernel decorator kept. The kernel is made from the undecorated
    function, so any other decorator only wrapped that call: `@staticmethod` in a class body (at the top of
    a module a staticmethod object Warp does not see as a kernel), or the user's own `@register("abs")` that
    calls `wp.kernel` and files the kernel in a table (a table of kernels cannot be written out). A decorator
    the scope does not name is kept. (A `wp.func` keeps its decorators: reached through its class,
    `Joint.f`, a staticmethod gives the function.)"""
    # A decorator expression (`@DECORATORS["kernel"]`, `@(a if FAST else b)`) goes even when it is Warp's
    # kernel: the kernel is then made after the definition, with the options Warp kept (`wp.kernel(f, ...)`),
    # rather than the table or the condition written out.
    return _without_decorators(
        text,
        lambda d: (
            _decorator_value(d, scope) is not _MISSING
            and (not _is_kernel_decorator(d, scope) or not _plain_decorator(d))
        ),
    )


def _without_decorators(text: str, dropped: Callable[[ast.expr], bool] = lambda d: True) -> str:
    """A definition's text without the lines of its decorators `dropped` picks (all of them by default)."""
    node = ast.parse(text).body[0]
    drop = {
        line
        for d in getattr(node, "decorator_list", [])
        if dropped(d)
        for line in range(d.lineno, (d.end_lineno or d.lineno) + 1)
    }
    if not drop:
        return text
    return "".join(line for i, line in enumerate(text.splitlines(keepends=True), 1) if i not in drop)


def _warp_public_name(name: str, obj: Any) -> str | None:
    """The name `warp` exports the class or callable `obj` under (`name` itself first), or None. Values are
    left to `literal`: a small int is one object wherever it comes from (`COUNT = 4` is no `wp.TIMING_...`)."""
    if not callable(obj):
        return None
    if getattr(wp, name, None) is obj:
        return name
    return next((k for k, v in vars(wp).items() if v is obj and not k.startswith("_")), None)


def _warp_decorator(obj: types.FunctionType) -> str | None:
    """`func` / `kernel` / `struct` when `obj` is what `wp.func(...)` etc. return when called with options."""
    if not obj.__module__.startswith("warp.") or not obj.__qualname__.endswith(".<locals>.wrapper"):
        return None
    name = obj.__qualname__.split(".")[0]
    return name if name in ("func", "kernel", "struct") else None


def _future_annotations(scope: dict[str, Any]) -> bool:
    import __future__

    return scope.get("annotations") is __future__.annotations


@functools.lru_cache(maxsize=8192)
def _names_read(text: str) -> tuple[dict[str, set[tuple[str, ...]]], set[str], set[str]]:
    """`free_names`, `_annotation_only_names` and `_annotation_names` of a definition's text (read-only).

    A `wp.func` is read again for every kernel that calls it, and newton's kernels share many: these three
    readings were 38 s of a profile of the default harvest's ~550 worker-seconds (py-spy), most of them again."""
    return free_names(text), _annotation_only_names(text), _annotation_names(text)


def _annotation_names(text: str) -> set[str]:
    """Names occurring in the argument annotations of the definition."""
    node = ast.parse(text).body[0]
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    args = node.args
    anns = [a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a.annotation]
    return {n.id for ann in anns for n in ast.walk(ann) if isinstance(n, ast.Name)}


def _annotation_only_names(text: str) -> set[str]:
    """Names that occur only inside annotations of the definition (arguments, returns, fields)."""
    tree = ast.parse(text)
    in_annotations: set[int] = set()
    for node in ast.walk(tree):
        anns = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            anns = [a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a.annotation]
            anns += [a.annotation for a in (args.vararg, args.kwarg) if a is not None and a.annotation]
            if node.returns is not None:
                anns.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            anns = [node.annotation]
        for ann in anns:
            in_annotations.update(id(n) for n in ast.walk(ann))
    inside = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) in in_annotations}
    outside = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in in_annotations}
    return inside - outside


def _symtable_text(text: str) -> str:
    """`text` for `symtable`, with a def or class named `top` renamed: Python 3.11's `symtable` takes a table
    of that name for the module's (`SymbolTable.lookup` tests `name == "top"`), so a kernel `def top(a)`
    had its argument `a` read as a global (measured: "top refers to 'a', not found")."""
    tree = ast.parse(text)
    renamed = False
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == "top":
            node.name = "_wci_top_"
            renamed = True
    return ast.unparse(tree) if renamed else text


def free_names(text: str) -> dict[str, set[tuple[str, ...]]]:
    """Names a top-level def/class text reads from outside, with the attribute paths used on each.

    `symtable` gives Python's own scoping (decorators, annotations and defaults are evaluated
    outside the function, its body's free names are globals once it is at top level).
    """
    table = symtable.symtable(_symtable_text(text), "<definition>", "exec")
    names: set[str] = set()

    def visit(t: symtable.SymbolTable, top: bool) -> None:
        for sym in t.get_symbols():
            if sym.is_referenced() and (not sym.is_assigned() if top else sym.is_global()):
                names.add(sym.get_name())
        for child in t.get_children():
            visit(child, False)

    visit(table, True)
    paths: dict[str, set[tuple[str, ...]]] = {n: set() for n in names}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Name) and node.id in paths:
            paths[node.id].add(())
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Attribute):
            chain: list[str] = []
            cur: ast.AST = node
            while isinstance(cur, ast.Attribute):
                chain.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name) and cur.id in paths:
                paths[cur.id].add(tuple(reversed(chain)))
    # A path that is the prefix of a longer one is the same use seen from its inner node.
    for name, ps in paths.items():
        longest = {p for p in ps if not any(q != p and q[: len(p)] == p for q in ps)}
        paths[name] = longest
    return paths


def _decorated_by_warp(text: str, scope: dict[str, Any]) -> bool:
    """Whether one of the definition's decorators is Warp's (`@wp.func`, `@wp.func(...)`, `@wp.func_native(...)`,
    an alias of one), or one the scope does not name (kept as written)."""
    node = ast.parse(text).body[0]
    for dec in getattr(node, "decorator_list", []):
        value = _decorator_value(dec, scope)
        if value is _MISSING:
            return True
        if isinstance(value, types.FunctionType) and (
            getattr(wp, value.__name__, None) is value or _warp_decorator(value) is not None
        ):
            return True
    return False


def _decorated_as_kernel(text: str, scope: dict[str, Any]) -> bool:
    node = ast.parse(text).body[0]
    return any(_is_kernel_decorator(dec, scope) for dec in getattr(node, "decorator_list", []))


def _names_itself(text: str) -> bool:
    """Whether the definition's decorators pass `name=` (`@wp.kernel(name="k")` sets the key itself)."""
    return any(k.arg == "name" for d in _decorator_calls(text) for k in d.keywords)


def _definition_name(text: str) -> str:
    node = ast.parse(text).body[0]
    return getattr(node, "name", "")


@dataclass(frozen=True)
class SelfContained:
    source: str
    kernel_name: str  # the kernel's key in `source` (what `extract(source, kernel_name)` looks up)


def self_contained_source(kernel: Any, module_options: dict[str, Any] | None = None) -> SelfContained:
    """The module text for `kernel` (a kernel, or one overload of a generic kernel).

    `module_options`: options of the kernel's Warp module that differ from Warp's defaults; written as
    `wp.set_module_options(...)` so the text compiles as the original module did.
    """
    generic = getattr(kernel, "generic_parent", None)
    root = generic if generic is not None else kernel
    writer = _Writer()
    writer._wp()
    pyfunc = root.func
    text, _deps, _ = writer._definition(
        pyfunc, skip={pyfunc.__name__}, resolved=warp_session.kernel_arg_types(root), kernel=root
    )
    key = warp_session.kernel_key_for_text(root, pyfunc)
    if pyfunc.__name__ in writer.bindings:
        raise Unsupported(f"name clash: {pyfunc.__name__!r} is the kernel and one of its dependencies")
    tail = []
    if not _decorated_as_kernel(text, _scope_of(pyfunc)):
        # `wp.kernel(f)` / `wp.Kernel(f, key=...)` called on a plain def (Warp's own tests do): say so.
        args = [pyfunc.__name__]
        if key != warp_session.kernel_key_for_text(root, pyfunc, ignore_key=True):
            args.append(f"name={key!r}")
        args += [f"{k}={writer.literal(v)}" for k, v in warp_session.kernel_decorator_options(root).items()]
        tail.append(f"{pyfunc.__name__} = wp.kernel({', '.join(args)})")
    elif key != warp_session.kernel_key_for_text(root, pyfunc, ignore_key=True) and not _names_itself(text):
        # Renamed after its decorator made it (`kernel.key = f"box_filter_{name}"`, a factory telling its
        # kernels apart): the text renames it the same way, so its key, and Warp's code, are the original's.
        tail.append(f"{pyfunc.__name__}.key = {key!r}")
    if generic is not None:
        types_ = [writer.type_expr(arg.type) for arg in kernel.adj.args]
        tail.append(f"wp.overload({pyfunc.__name__}, [{', '.join(types_)}])")
    if warp_session.kernel_module_name(root) == "unique":
        # The decorator's `module_options=` is kept with its text; options set on the module after it
        # (`wp.set_module_options({...}, module=kernel.module)`) are set the same way after the definition.
        set_here = _decorator_module_options(text)
        after = {k: v for k, v in (module_options or {}).items() if k not in set_here}
        if after:
            options = writer.literal(dict(sorted(after.items())))
            tail.append(f"wp.set_module_options({options}, module={pyfunc.__name__}.module)")
    elif module_options:
        # A named module's options are the module's, set apart from the kernel: name it, since the call
        # alone would set those of the text's own module, which the kernel does not live in.
        named = warp_session.named_module(root)
        where = f", module={named!r}" if named is not None else ""
        writer.prelude.append(f"wp.set_module_options({writer.literal(dict(sorted(module_options.items())))}{where})")
    return SelfContained(_assemble(writer, text, tail), key)


def _decorator_module_options(text: str) -> set[str]:
    """The option names a kernel's decorator sets with `module_options={...}`."""
    for dec in _decorator_calls(text):
        for kw in dec.keywords:
            if kw.arg == "module_options" and isinstance(kw.value, ast.Dict):
                return {k.value for k in kw.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return set()


def _assemble(writer: _Writer, kernel_text: str, tail: list[str]) -> str:
    for name, paths in writer.namespaces.items():
        text, deps = writer._namespace(name, writer.bindings[name], frozenset(paths))
        writer.add_entry(_Entry(name, text, deps, ("~", 0), True))
    for name, members in writer.class_members.items():
        cls = writer.bindings[name]
        base = _enum_base(cls)
        if base is not None:
            writer.add_import("enum", "import enum", enum)
        body = "\n".join(f"    {m} = {v}" for m, v in sorted(members.items(), key=lambda kv: _member_order(cls, kv[0])))
        header = f"class {name}(enum.{base}):" if base else f"class {name}:"
        writer.add_entry(_Entry(name, f"{header}\n{body}", [], ("", 0), True))
    order = _toposort(writer.entries)
    imports = sorted(writer.imports.values(), key=_import_sort_key)
    if writer.future_annotations:
        imports.insert(0, "from __future__ import annotations")
    blocks: list[str] = ["\n".join(imports)]
    if writer.prelude:
        blocks.append("\n".join(writer.prelude))
    run: list[str] = []
    for entry in order:
        if entry.is_def:
            if run:
                blocks.append("\n".join(run))
                run = []
            blocks.append(entry.text)
        else:
            run.append(entry.text)
    if run:
        blocks.append("\n".join(run))
    blocks.append(kernel_text)
    if tail:
        blocks.append("\n".join(tail))
    return "\n\n\n".join(b for b in blocks if b) + "\n"


def _import_sort_key(line: str) -> tuple[int, str]:
    # stdlib, then numpy, then warp: the grouping a linter would ask for
    mod = line.split()[1]
    root = mod.split(".")[0]
    return (2 if root == "warp" else 1 if root == "numpy" else 0, line)


def _toposort(entries: dict[str, _Entry]) -> list[_Entry]:
    """Dependencies first (decorators, annotations and namespaces run at import); upstream order otherwise."""
    done: set[str] = set()
    out: list[_Entry] = []

    def visit(name: str, stack: set[str]) -> None:
        if name in done or name in stack or name not in entries:
            return
        stack.add(name)
        for dep in sorted(entries[name].deps, key=lambda d: entries[d].order if d in entries else ("", 0)):
            visit(dep, stack)
        stack.discard(name)
        done.add(name)
        out.append(entries[name])

    for name in sorted(entries, key=lambda n: (entries[n].order, n)):
        visit(name, set())
    return out
