"""Values for a factory's parameters (see `factories`), read off the script's own calls, and the kernel made
with them, without running the script's code.

- `Resolver.bindings`: values for a plan's parameters, read off the script's calls of the function: an argument
  that is a literal or an expression of module-level names, a loop variable over such a sequence, a local
  assigned such an expression, a parameter's default, an enclosing function's parameter given by its own
  callers, an `argparse` option's default (scripts load with no arguments); calls by name, through a name
  it was looked up under, or handing the function on with keywords for it (`add_function_test(..., dtype=d)`);
  and for a kernel defined in a `for` loop of the function, the loop's values. Nothing else is evaluated.
- `make`: a function of the factory's name with only the plan's statements and the kernel's definition, compiled
  at the script's own line numbers (Warp reads the kernel's text from the file) and called with the values.
- `main_block_values`: the globals the script's `if __name__ == "__main__":` block assigns, read the same way.

Every call these evaluations make, in an argument or in the statements kept, goes through a guard that
allows only what cannot act on the world: Python's pure built-ins, `math`, finite `itertools`, Warp's types,
type constructors and decorators, array types as annotations (`is_allowed` from the worker). Anything else (a
launch, an allocation, I/O, a call of another of the script's functions), a kept statement that changes an
object in place or reads a special attribute, and a module-level value of a class the script wrote (its
methods would run) stop that kernel, which keeps a reason.
"""

from __future__ import annotations
import __future__

import argparse
import ast
import builtins
import collections
import configparser
import contextlib
import copy
import dataclasses
import enum
import functools
import inspect
import io
import itertools
import json
import math
import os
import pathlib
import shlex
import sys
import textwrap
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from warp_cuda_ir import syntax
from warp_cuda_ir.harvest.factories import (
    Plan,
    command_line_given,
    dataclass_init,
    parser_of,
    reads_special_attribute,
    target_names,
)
from warp_cuda_ir.harvest.scripts import called_name, compiled, future_flags, launch_calls

# Distinct argument values tried per kernel definition: the first of each loop's values first (see
# `_spread`). On Warp 1.19's examples a factory is called over at most 2 dtypes x 16 tile lengths.
MAX_INSTANCES = 8
# How deep the script's own functions may call each other while the harvest computes a value with them (a
# recursion in the script stops there).
MAX_HELPER_DEPTH = 8
# How many callers deep a parameter's value is followed (`main()` -> `run(args)` -> `bench(config)`): a
# recursion in the script stops there.
MAX_DEPTH = 4

_PURE_BUILTINS = {
    abs, all, any, bool, complex, dict, divmod, enumerate, float, frozenset, int, isinstance, issubclass, len,
    list, max, min, pow, range, reversed, round, set, sorted, str, sum, tuple, zip, type,
}  # fmt: skip
# Finite combinatorics over values already in hand (`itertools.count`, `repeat` and `cycle` never end).
_PURE_FUNCTIONS = (
    itertools.product, itertools.permutations, itertools.combinations, itertools.combinations_with_replacement,
    itertools.chain, itertools.zip_longest, itertools.islice, itertools.pairwise,
)  # fmt: skip


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
MAX_ITEMS = 100_000


def _bounded(value: Any) -> Any:
    """`value`, or its first items as a tuple for an iterator; Unresolved past `MAX_ITEMS` items."""
    if isinstance(value, (str, bytes, io.IOBase)):  # a file `_opened` read is read as a file, not iterated
        return value
    if hasattr(value, "__len__"):
        try:
            size = len(value)
        except Exception:
            return value
        if size > MAX_ITEMS:
            raise Unresolved(f"a sequence of {size} items")
        return value
    if hasattr(value, "__next__"):
        items = tuple(itertools.islice(value, MAX_ITEMS + 1))
        if len(items) > MAX_ITEMS:
            raise Unresolved(f"more than {MAX_ITEMS} items")
        return iter(items)
    return value


class Unresolved(Exception):
    """The kernel cannot be made from the script's text alone (the message says why, in one line)."""


@dataclass(frozen=True)
class Binding:
    values: dict[str, Any]  # parameter -> value
    call: str  # how the harvest called the factory, for the row's provenance


# --- values for the factory's parameters, from the script's calls ------------------------------------------


class _Parsed:
    """`parser.parse_args()` of a script loaded with no arguments: each option's default."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)


class Resolver:
    """Values of expressions at a place in the script, from its text and its module-level namespace."""

    def __init__(
        self, tree: ast.Module, path: str, namespace: dict[str, Any], is_allowed: Callable[[Any, tuple, dict], bool]
    ):
        self.tree = tree
        self.path = path
        self.namespace = namespace
        self.is_allowed = is_allowed
        self.flags = future_flags(tree)
        self.parent: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parent[id(child)] = node
        self.calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
        self.defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        self.callees: dict[int, list[Any]] = {}  # id(call) -> what its callee name may be (`_calls_through`)
        # id(a sibling module's factory) -> how this script spells it (`make_scaler`, `ku.make_scaler`), for a
        # factory this script imports and calls where its load does not run (in `main()`).
        self.imported: dict[int, str] = {}
        self.helpers: dict[int, Any] = {}  # id(a script function) -> its guarded copy, or None (`_helper`)
        self.local_code: set[types.CodeType] = set()  # of a made factory's own guarded plain functions (`make`)
        # the `**kwargs` dicts `make` hands a made factory (its own to change), by id; held so no id is reused
        self.owned: dict[int, dict[str, Any]] = {}
        self.helper_depth = 0
        # (id(a partial's call), id(the function)) -> its later calls (`_partial_calls`)
        self.completed: dict[tuple[int, int], list[ast.Call]] = {}
        # id(a dataclass's `__post_init__`) -> the constructor that runs it (`_post_init_constructor`), or None
        self.post_inits: dict[int, ast.FunctionDef | None] = {}

    # --- the calls of a factory ------------------------------------------------------------------

    def _calls_through(self, call: ast.Call, func: ast.FunctionDef) -> bool:
        """Whether `call`'s callee, a name the enclosing code assigns, is the top-level function `func`."""
        key = id(call)
        if key not in self.callees:
            self.callees[key] = []
            name = call.func.id  # type: ignore[attr-defined]
            function = self._enclosing(call, _FUNCTIONS)
            if name not in self.defined and self._last_assignment(name, call, function) is not None:
                try:
                    self.callees[key] = self.values(call.func, call, 0)
                except Unresolved:
                    pass
        target = self.namespace.get(func.name)
        return target is not None and any(v is target for v in self.callees[key])

    def bindings(self, plan: Plan) -> list[Binding]:
        """Distinct parameter values from the script's calls of the factory (the defaults when it calls
        it nowhere), each with a value of every loop variable the kernel reads, at most `MAX_INSTANCES`;
        raises `Unresolved` when no call gives them."""
        found = self._parameter_bindings(plan)
        if plan.method is not None:
            # the constructor's values with each of the method's own calls' (`Maker(2.0)` then `maker(1.0)`)
            on_method = dataclasses.replace(
                plan,
                factory=plan.method,
                factory_qualname=plan.defined_in or plan.factory_qualname,
                params=plan.method_params,
                method=None,
                method_params=(),
            )
            given = self._parameter_bindings(on_method)
            found = [
                Binding({**a.values, **b.values}, f"{a.call}, then {b.call}")
                for a, b in _spread([found, given], MAX_INSTANCES)
            ]
        if not plan.loops:
            return found
        lists: list[list[Any]] = [found]
        for loop in plan.loops:
            lists.append([item for it in self.values(loop.iter, loop, 0) for item in _items(it)])
        out = []
        for binding, *items in _spread(lists, MAX_INSTANCES):
            values = dict(binding.values)
            names = []
            for i, (loop, item) in enumerate(zip(plan.loops, items, strict=True)):
                values[f"__wci_loop_{i}__"] = item
                names.append(f"{ast.unparse(loop.target)}={describe(item)}")
            out.append(Binding(values, f"{binding.call}, in the loop at {', '.join(reversed(names))}"))
        return out

    def _parameter_bindings(self, plan: Plan) -> list[Binding]:
        if plan.problem is not None:
            raise Unresolved(plan.problem)
        if not plan.params:
            return [Binding({}, f"{plan.factory_qualname}()")]
        found: list[Binding] = []
        seen: set[str] = set()
        why = f"{plan.factory.name} is called nowhere in the script with values the harvest can read"
        calls = list(self._calls_of(plan.factory))
        for call, shift in calls:
            try:
                for binding in self._call_bindings(plan, call, shift):
                    if binding.call not in seen:
                        seen.add(binding.call)
                        found.append(binding)
            except Unresolved as e:
                why = f"{plan.factory.name}(...) at line {call.lineno}: {e}"
            if len(found) >= MAX_INSTANCES:
                break
        found = self._dispatched(plan, found)
        if not calls and not found:
            try:
                found += self._parametrized(plan)
            except Unresolved as e:
                why = f"{plan.factory.name}'s parametrize: {e}"
        if not calls and not found:
            args = _arguments(plan.factory)
            if all(p in args and args[p] is not None for p in plan.params):
                values = {p: self._first(args[p], plan.factory, 0) for p in plan.params}
                found.append(Binding(values, _describe_call(plan.factory_qualname, values, None)))
        if not found:
            raise Unresolved(why)
        return found[:MAX_INSTANCES]

    def _parametrized(self, plan: Plan) -> list[Binding]:
        """Values a test runner gives the factory's parameters: `@pytest.mark.parametrize("dtype", [...])`
        (or `"n, dtype"` with tuples), several decorators combined; a parameter none of them names (a
        fixture) keeps its default. Empty when no decorator parametrizes."""
        rows_per_decorator, line = self._parametrize_rows(plan.factory)
        if not rows_per_decorator:
            return []
        args = _arguments(plan.factory)
        out = []
        for combo in _spread(rows_per_decorator, MAX_INSTANCES):
            given = {k: v for row in combo for k, v in row.items()}
            values = {}
            for p in plan.params:
                if p in given:
                    values[p] = given[p]
                elif args.get(p) is not None:
                    values[p] = self._first(args[p], plan.factory, 0)  # type: ignore[arg-type]
                else:
                    raise Unresolved(f"{p} is not parametrized (a fixture)")
            described = ", ".join(f"{k}={describe(v)}" for k, v in values.items())
            out.append(Binding(values, f"{plan.factory_qualname}({described}) (parametrized at line {line})"))
        return out

    def _parametrize_rows(self, func: ast.FunctionDef) -> tuple[list[list[dict[str, Any]]], int | None]:
        """(for each `@pytest.mark.parametrize` of `func`, its rows as parameter -> value; the first one's line).

        pytest's fixtures with `params=[...]` count as such decorators: a fixture's own `request` (its
        `request.param` each value), and a parameter of `func` naming a fixture of the script that hands its
        values on (`def dtype(request): return request.param`)."""
        rows_per_decorator: list[list[dict[str, Any]]] = []
        line = None
        for decorator in [*func.decorator_list, *self._inherited_marks(func)]:
            params = _fixture_params(decorator)
            if params is not None and "request" in _arguments(func):
                line = line or decorator.lineno
                rows_per_decorator.append([{"request": _FixtureRequest(v)} for v in self._listed(params, func)])
                continue
            drawn = _drawn_from(decorator, func)
            if drawn is not None:
                line = line or decorator.lineno
                for name, expr in drawn.items():
                    rows_per_decorator.append([{name: v} for v in self._listed(expr, func)])
                continue
            given = _parametrize_arguments(decorator)
            if given is None:
                continue
            names = _parametrized_names(given[0])
            line = line or decorator.lineno
            rows = []
            for listed in self.values(_param_values(given[1]), func, 0):
                for item in _items(listed):
                    if len(names) == 1:
                        rows.append({names[0]: item})
                    elif isinstance(item, (tuple, list)) and len(item) == len(names):
                        rows.append(dict(zip(names, item, strict=True)))
                    else:
                        raise Unresolved(f"{describe(item)} does not give {', '.join(names)}")
            rows_per_decorator.append(rows)
        named = {name for rows in rows_per_decorator for row in rows for name in row}
        for name in _arguments(func):
            found = self._handing_fixture(name) if name not in named else None
            if found is not None:
                fixture, params = found
                line = line or fixture.lineno
                rows_per_decorator.append([{name: v} for v in self._listed(params, fixture)])
        return rows_per_decorator, line

    def _inherited_marks(self, func: ast.FunctionDef) -> list[ast.expr]:
        """The marks pytest applies to a test besides its own decorators: those of its top-level class
        (`@pytest.mark.parametrize("gain", [...])` on `class TestGain`, the class body's `pytestmark`), and the
        module's `pytestmark = pytest.mark.parametrize(...)` (or a list of marks)."""
        scopes: list[ast.Module | ast.ClassDef] = [self.tree]
        owner = self.parent.get(id(func))
        if isinstance(owner, ast.ClassDef) and self.parent.get(id(owner)) is self.tree:
            scopes.append(owner)
        out: list[ast.expr] = []
        for scope in scopes:
            if isinstance(scope, ast.ClassDef):
                out += scope.decorator_list
            for stmt in scope.body:
                if not (isinstance(stmt, ast.Assign) and [ast.unparse(t) for t in stmt.targets] == ["pytestmark"]):
                    continue
                marks = stmt.value
                out += marks.elts if isinstance(marks, (ast.List, ast.Tuple)) else [marks]
        return out

    def _listed(self, params: ast.expr, at: ast.AST) -> list[Any]:
        """The values of a fixture's `params=` list."""
        return [item for listed in self.values(_param_values(params), at, 0) for item in _items(listed)]

    def _handing_fixture(self, name: str) -> tuple[ast.FunctionDef, ast.expr] | None:
        """The script's top-level fixture `name` whose body is `return request.param`, with its `params=`."""
        for node in self.tree.body:
            if not (isinstance(node, ast.FunctionDef) and node.name == name):
                continue
            params = next((p for p in map(_fixture_params, node.decorator_list) if p is not None), None)
            if params is None:
                return None
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            returned = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
            if returned is not None and ast.unparse(returned) == "request.param" and "request" in _arguments(node):
                return node, params
        return None

    def _calls_of(self, func: ast.FunctionDef) -> Iterator[tuple[ast.Call, int]]:
        """Calls of `func` in the script, with how many of its parameters the call does not pass (`self`):
        by its name, or (a top-level function) through a local name it was looked up under
        (`create = CREATORS[ndim]`)."""
        spelled = self.imported.get(id(func))
        if spelled is not None:
            yield from ((node, 0) for node in self.calls if ast.unparse(node.func) == spelled)
            return
        # a dataclass's generated `__init__` (`factories.dataclass_init`) is in no tree: its class is its owner
        owner = self.parent.get(id(func)) or getattr(func, "synthesized_for", None)
        if not isinstance(owner, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and (
            self._enclosing(func, (*_FUNCTIONS, ast.ClassDef)) is None
        ):
            # A function defined in a top-level block (`if __name__ == "__main__":`, a `try`): a module-level
            # name, called as one.
            owner = self.tree
        registered = self._registered(func) if isinstance(owner, (ast.Module, ast.ClassDef)) else None
        for node in self.calls:
            if registered is not None and isinstance(node.func, ast.Name) and node.func.id == registered[0]:
                yield node, 0  # a call of the `singledispatch` function: `_parameter_bindings` keeps its type's
                continue
            if registered is not None and isinstance(owner, ast.ClassDef):
                if isinstance(node.func, ast.Attribute) and node.func.attr == registered[0]:
                    yield node, 1  # `builder.build(2)` of a `singledispatchmethod`
                continue
            # A call that hands the function on (a map, a starmap, a thread or a pool) counts in its own scope.
            handed = (
                _MAPPED
                if _maps(node, func)
                else _STARMAPPED
                if _starmaps(node, func)
                else _RUN_LATER
                if _runs_later(node, func)
                else None
            )
            if handed is not None and (isinstance(owner, ast.Module) or self._enclosing(node, _FUNCTIONS) is owner):
                yield node, handed
            elif isinstance(owner, ast.Module) and self._partial_calls(node, func):
                yield from ((c, 0) for c in self._partial_calls(node, func))
            elif isinstance(owner, ast.Module) and _hands_on(node, func):
                yield node, _HANDED
            elif isinstance(owner, ast.Module) and isinstance(node.func, ast.Name):
                if node.func.id == func.name or self._calls_through(node, func):
                    yield node, 0
            elif isinstance(owner, ast.Module) and self._looked_up(node, func):
                yield node, 0
            elif isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) and isinstance(node.func, ast.Name):
                # A factory inside a function (a test's `make`): called by name in that function's body.
                if node.func.id == func.name and self._enclosing(node, _FUNCTIONS) is owner:
                    yield node, 0
            elif isinstance(owner, ast.ClassDef) and self.parent.get(id(owner)) is self.tree:
                static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in func.decorator_list)
                shift = 0 if static else 1
                aliased = self._partialmethod_call(node, func, owner)
                if aliased is not None:
                    yield aliased, 1
                elif func.name == "__init__" and isinstance(node.func, ast.Name) and node.func.id == owner.name:
                    yield node, 1
                elif func.name == "__init__" and self._calls_own_class(node, owner):
                    yield node, 1
                elif isinstance(node.func, ast.Attribute) and node.func.attr == func.name and func.name != "__init__":
                    yield node, shift
                elif func.name == "__call__" and self._calls_instance(node, owner):
                    yield node, 1

    def _partialmethod_call(self, call: ast.Call, func: ast.FunctionDef, owner: ast.ClassDef) -> ast.Call | None:
        """`acts.leaky()` where the class body holds `leaky = functools.partialmethod(_make, 0.1)`: the method's
        call `acts._make(0.1)` it is (placed at `call`), else None."""
        if not isinstance(call.func, ast.Attribute) or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        memo = (id(call), id(func))
        if memo not in self.completed:
            self.completed[memo] = []
            for stmt in owner.body:
                value = stmt.value if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
                if not (
                    isinstance(value, ast.Call)
                    and called_name(value.func) == "partialmethod"
                    and value.args
                    and isinstance(value.args[0], ast.Name)
                    and value.args[0].id == func.name
                    and isinstance(stmt.targets[0], ast.Name)  # type: ignore[union-attr]
                    and stmt.targets[0].id == call.func.attr  # type: ignore[union-attr]
                    and not any(isinstance(a, ast.Starred) for a in value.args)
                    and all(k.arg is not None for k in value.keywords)
                ):
                    continue
                direct = ast.Call(
                    ast.Attribute(call.func.value, func.name, ast.Load()),
                    [*value.args[1:], *call.args],
                    [*value.keywords, *call.keywords],
                )
                direct = ast.fix_missing_locations(ast.copy_location(direct, call))
                self.parent[id(direct)] = self.parent[id(call)]
                self.completed[memo] = [direct]
        found = self.completed[memo]
        return found[0] if found else None

    def _partial_calls(self, call: ast.Call, func: ast.FunctionDef) -> list[ast.Call]:
        """For `p = functools.partial(make, offset=2.0)` (or a partial kept in a dict, `{"shift": partial(...)}`)
        and its calls in the same function (`p(1.0)`, `builders["shift"](1.0)`), each as the direct call of
        `make` it is (`make(1.0, offset=2.0)`, placed at the later call); empty for any other hand-on."""
        memo = (id(call), id(func))
        if memo in self.completed:
            return self.completed[memo]
        self.completed[memo] = []
        first = call.args[0] if call.args else None
        if called_name(call.func) != "partial" or not (isinstance(first, ast.Name) and first.id == func.name):
            return []
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return []
        holder, key = self.parent.get(id(call)), None
        if isinstance(holder, ast.Dict):
            keys = [k for k, v in zip(holder.keys, holder.values, strict=True) if v is call]
            if not (keys and isinstance(keys[0], ast.Constant)):
                return []
            key, holder = keys[0].value, self.parent.get(id(holder))
        if not (
            isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name)
        ):
            return []
        name, scope = holder.targets[0].id, self._enclosing(call, _FUNCTIONS)
        out = []
        for later in self.calls:
            callee = later.func
            if key is not None and isinstance(callee, ast.Subscript) and isinstance(callee.slice, ast.Constant):
                callee = callee.value if callee.slice.value == key else None
            elif key is not None:
                callee = None
            if not (isinstance(callee, ast.Name) and callee.id == name) or later.lineno <= holder.lineno:
                continue
            if self._enclosing(later, _FUNCTIONS) is not scope or any(isinstance(a, ast.Starred) for a in later.args):
                continue
            direct = ast.Call(
                ast.Name(func.name, ast.Load()), [*call.args[1:], *later.args], [*call.keywords, *later.keywords]
            )
            direct = ast.fix_missing_locations(ast.copy_location(direct, later))
            self.parent[id(direct)] = self.parent[id(later)]
            out.append(direct)
        self.completed[memo] = out
        return out

    def _calls_instance(self, call: ast.Call, owner: ast.ClassDef) -> bool:
        """Whether `call` calls an instance of the class `owner` (so its `__call__`): `Maker(2.0)(1.0)`, or
        `maker(1.0)` where the last assignment of `maker` before it is `maker = Maker(...)`."""
        callee = call.func
        if isinstance(callee, ast.Name):
            made = self._last_assignment(callee.id, call, self._enclosing(call, _FUNCTIONS))
            cls = self.namespace.get(owner.name)
            if made is None and isinstance(cls, type) and isinstance(self.namespace.get(callee.id), cls):
                return True  # `MAKER = Maker(2.0)` at the top level, `MAKER(1.0)` in `main()`
            callee = made.value if isinstance(made, ast.Assign) and len(made.targets) == 1 else None
        return isinstance(callee, ast.Call) and isinstance(callee.func, ast.Name) and callee.func.id == owner.name

    def _looked_up(self, call: ast.Call, func: ast.FunctionDef) -> bool:
        """Whether `call`'s callee, a lookup in a table (`BUILDERS[name](p)`, `BUILDERS.get(name, make_identity)(p)`),
        may be the top-level function `func`, by the values the lookup may have where the call is."""
        callee = call.func
        if not (
            isinstance(callee, ast.Subscript)
            or (isinstance(callee, ast.Call) and isinstance(callee.func, ast.Attribute) and callee.func.attr == "get")
        ):
            return False
        key = id(call)
        if key not in self.callees:
            self.callees[key] = []
            try:
                self.callees[key] = self.values(callee, call, 0)
            except Unresolved:
                pass
        target = self.namespace.get(func.name)
        return target is not None and any(v is target for v in self.callees[key])

    def _registered(self, func: ast.FunctionDef) -> tuple[str, ast.expr] | None:
        """(the script's `@functools.singledispatch` function, the type expression) when `func` is registered
        on it (`@build.register(int)`, or `@build.register` and the type its first parameter's annotation)."""
        owner = self.parent.get(id(func))
        method = isinstance(owner, ast.ClassDef)  # `@functools.singledispatchmethod` in a class body
        for decorator in func.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if not (isinstance(target, ast.Attribute) and target.attr == "register"):
                continue
            if not isinstance(target.value, ast.Name):
                continue
            body = owner.body if method else self.tree.body  # type: ignore[union-attr]
            base = next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == target.value.id), None)
            kind = "singledispatchmethod" if method else "singledispatch"
            if base is None or not any(called_name(d) == kind for d in base.decorator_list):
                continue
            positional = [*func.args.posonlyargs, *func.args.args][int(method) :]
            if isinstance(decorator, ast.Call) and len(decorator.args) == 1:
                return base.name, decorator.args[0]
            if not isinstance(decorator, ast.Call) and positional and positional[0].annotation is not None:
                annotation = positional[0].annotation
                if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                    annotation = ast.copy_location(ast.parse(annotation.value, mode="eval").body, annotation)
                return base.name, annotation
        return None

    def _dispatched(self, plan: Plan, found: list[Binding]) -> list[Binding]:
        """The bindings of a `singledispatch` registration's calls whose first argument dispatches to it."""
        registered = self._registered(plan.factory)
        if registered is None:
            return found
        skip = int(isinstance(self.parent.get(id(plan.factory)), ast.ClassDef))  # a method's `self`
        first = [a.arg for a in (*plan.factory.args.posonlyargs, *plan.factory.args.args)][skip : skip + 1]
        if not first or first[0] not in plan.params:
            raise Unresolved(f"{plan.factory.name} is dispatched on {first[:1]}, which its kernel does not read")
        kind = self._first(registered[1], plan.factory, 0)
        if not isinstance(kind, type):
            raise Unresolved(f"{plan.factory.name} is registered for {ast.unparse(registered[1])[:40]}, not a type")
        return [b for b in found if isinstance(b.values[first[0]], kind)]

    def _calls_own_class(self, call: ast.Call, owner: ast.ClassDef) -> bool:
        """Whether `call` is `cls(...)` in a `@classmethod` of `owner` (`return cls(**cfg)` in `from_config`):
        a call of the class, so of its `__init__`."""
        method = self._enclosing(call, _FUNCTIONS)
        if not (
            isinstance(method, ast.FunctionDef)
            and self.parent.get(id(method)) is owner
            and any(isinstance(d, ast.Name) and d.id == "classmethod" for d in method.decorator_list)
        ):
            return False
        first = [a.arg for a in (*method.args.posonlyargs, *method.args.args)][:1]
        return isinstance(call.func, ast.Name) and [call.func.id] == first

    def _call_bindings(self, plan: Plan, call: ast.Call, shift: int) -> list[Binding]:
        unpacked = [k.value for k in call.keywords if k.arg is None] if shift not in _INDIRECT else []
        if len(unpacked) > 1:
            raise Unresolved("passes **kwargs twice")
        # `make(**cfg)`: each dict `cfg` may be (`for cfg in CONFIGS.values()`) gives the parameters it names
        mappings: list[dict[str, Any]] = [{}]
        if unpacked:
            mappings = self.values(unpacked[0], call, 0)
            if not all(isinstance(m, dict) and all(isinstance(k, str) for k in m) for m in mappings):
                raise Unresolved(f"passes **{ast.unparse(unpacked[0])[:40]}, not a dict of names")
        exprs = self._argument_exprs(plan.factory, call, shift)
        kwarg = plan.factory.args.kwarg
        if unpacked and kwarg is not None and kwarg.arg in plan.params:
            raise Unresolved(f"passes **{ast.unparse(unpacked[0])[:40]} on to **{kwarg.arg}")
        out: list[Binding] = []
        for mapping in mappings:
            missing = [p for p in plan.params if p not in mapping and p not in exprs]
            if missing:
                raise Unresolved(f"does not pass {missing[0]}")
            # The call's own arguments read together (`Smoother(r, w)` in `for r, w in PAIRS`: the pairs, not
            # every r with every w); one by one where they cannot be (then each says why).
            at_call = [p for p in plan.params if p not in mapping and exprs[p][1] is call]
            joint = self._joint_values([exprs[p][0] for p in at_call], call) if len(at_call) > 1 else None
            groups: list[tuple[list[str], list[tuple[Any, ...]]]] = []
            if joint is not None:
                groups.append((at_call, joint))
            for p in plan.params:
                if p in mapping:
                    groups.append(([p], [(mapping[p],)]))
                elif joint is None or p not in at_call:
                    expr, where = exprs[p]
                    groups.append(([p], [(v,) for v in self.values(expr, where, 0)]))
            for found in _spread_groups(groups):
                values = {p: found[p] for p in plan.params}
                out.append(Binding(values, _describe_call(plan.factory_qualname, values, call.lineno)))
        return out[:MAX_INSTANCES]

    def _joint_values(self, exprs: list[ast.expr], at: ast.AST) -> list[tuple[Any, ...]] | None:
        """The values `exprs` take together where `at` is, or None where they cannot be read together."""
        first = exprs[0]
        if isinstance(first, _EachItem) and all(
            isinstance(e, _EachItem) and e.index is not None and e.iterable is first.iterable for e in exprs
        ):
            # A starmap's arguments: each item gives them all (`(1.0, 2.0)`, not every first with every second).
            try:
                items = self.values(ast.copy_location(_EachItem(first.iterable), first), at, 0)
            except Unresolved:
                return None
            if not all(isinstance(i, (tuple, list)) and len(i) > max(e.index for e in exprs) for i in items):  # type: ignore[attr-defined]
                return None
            return [tuple(item[e.index] for e in exprs) for item in items]  # type: ignore[attr-defined]
        together = ast.Tuple(elts=exprs, ctx=ast.Load())
        ast.copy_location(together, exprs[0])
        try:
            return [tuple(v) for v in self.values(together, at, 0)]
        except Unresolved:
            return None

    def _argument_exprs(self, func: ast.FunctionDef, call: ast.Call, shift: int) -> dict[str, tuple[ast.expr, ast.AST]]:
        """parameter -> (expression, where it is evaluated): the call's argument, else the default. `shift`
        `_HANDED`: `call` hands the function on with keywords for it (only those that name its parameters)."""
        out: dict[str, tuple[ast.expr, ast.AST]] = {}
        if shift == _HANDED:
            out = {name: (d, func) for name, d in _arguments(func).items() if d is not None}
            return out | {k.arg: (k.value, call) for k in call.keywords if k.arg in _arguments(func)}
        if shift == _MAPPED:
            # `executor.map(run_case, CASES)`: each positional parameter takes each item of its iterable in turn
            # (the map's own keywords, `chunksize=`, `timeout=`, are not the function's).
            out = {name: (d, func) for name, d in _arguments(func).items() if d is not None}
            positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
            iterables = call.args[1:]
            if len(iterables) > len(positional) or any(isinstance(a, ast.Starred) for a in iterables):
                raise Unresolved("maps over more iterables than parameters")
            return out | {name: (_EachItem(it), call) for name, it in zip(positional, iterables, strict=False)}
        if shift == _STARMAPPED:
            # `itertools.starmap(run, JOBS)`, `pool.starmap(run, JOBS)`: each item of JOBS is one call's arguments.
            out = {name: (d, func) for name, d in _arguments(func).items() if d is not None}
            positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
            return out | {name: (_EachItem(call.args[1], i), call) for i, name in enumerate(positional)}
        args, keywords = call.args, call.keywords
        if shift == _RUN_LATER:
            args, keywords = _handed_arguments(call)
            shift = 0
        first = [a.arg for a in (*func.args.posonlyargs, *func.args.args)][:1]
        if shift == 1 and first and isinstance(call.func, ast.Attribute) and _is_classmethod(func):
            out[first[0]] = (call.func.value, call)  # `force.build()`: `cls` is what it is called on
        if any(isinstance(a, ast.Starred) for a in args):
            args = self._unstarred(args, call)
        positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)][shift:]
        if len(args) > len(positional) and func.args.vararg is None:
            raise Unresolved("more arguments than parameters")
        for name, default in _arguments(func).items():
            if default is not None:
                out[name] = (default, func)
        for name, arg in zip(positional, args, strict=False):
            out[name] = (arg, call)
        named = _arguments(func)
        for k in keywords:
            if k.arg is not None and (k.arg in named or func.args.kwarg is None):  # `**cfg`: see `_call_bindings`
                out[k.arg] = (k.value, call)
        # `def make_chain(*funcs)` called as `make_chain(square, negate)`, `def make_fast(**kw)` as
        # `make_fast(gain=2.0)`: the tuple of the extra positional arguments, the dict of the extra keywords
        if func.args.vararg is not None:
            extra = ast.Tuple(elts=list(args[len(positional) :]), ctx=ast.Load())
            out[func.args.vararg.arg] = (ast.fix_missing_locations(ast.copy_location(extra, call)), call)
        if func.args.kwarg is not None and all(k.arg is not None for k in keywords):  # not with `**cfg` too
            given = [k for k in keywords if k.arg not in named]
            extra = ast.Dict(keys=[ast.Constant(k.arg) for k in given], values=[k.value for k in given])
            out[func.args.kwarg.arg] = (ast.fix_missing_locations(ast.copy_location(extra, call)), call)
        return out

    def _unstarred(self, args: list[ast.expr], call: ast.Call) -> list[ast.expr]:
        """A call's positional arguments with each `*seq` spread as `seq[0], seq[1], ...` (`make(*sorted(LIMITS))`,
        `make(*cfg)` in `for cfg in CONFIGS`), where every value `seq` may have there has the same length."""
        out: list[ast.expr] = []
        for a in args:
            if not isinstance(a, ast.Starred):
                out.append(a)
                continue
            try:
                found = self.values(a.value, call, 0)
            except Unresolved:
                found = []
            # indexable sequences only: a set or an iterator spreads in an order `seq[i]` cannot give
            lengths = {len(v) for v in found if isinstance(v, (tuple, list, range))}
            if len(lengths) != 1 or not all(isinstance(v, (tuple, list, range)) for v in found):
                raise Unresolved("passes *args")
            for i in range(lengths.pop()):
                item = ast.Subscript(a.value, ast.Constant(i), ast.Load())
                out.append(ast.fix_missing_locations(ast.copy_location(item, a)))
        return out

    # --- values of an expression -----------------------------------------------------------------

    def values(self, expr: ast.expr, at: ast.AST, depth: int) -> list[Any]:
        """The values `expr` may have where `at` is (several when it reads a loop variable)."""
        if depth > MAX_DEPTH:
            raise Unresolved("its values come from too far")
        if isinstance(expr, _EachItem):
            items = [item for it in self.values(expr.iterable, at, depth) for item in _items(it)]
            if expr.index is None:
                return items
            if not all(isinstance(item, (tuple, list)) and len(item) > expr.index for item in items):
                raise Unresolved(f"an item of {ast.unparse(expr.iterable)[:40]} gives no argument {expr.index + 1}")
            return [item[expr.index] for item in items]
        if isinstance(at, ast.FunctionDef) and expr in _defaults(at):
            at = self.parent.get(id(at), self.tree)  # a default is evaluated where the def statement runs
        if reads_special_attribute(expr):
            raise Unresolved(f"reads a special attribute: {ast.unparse(expr)[:80]}")
        parsed = self._parsed_arguments(expr, at, depth)
        if parsed is not None:
            return [parsed]
        if (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id == "vars"
            and len(expr.args) == 1
            and not expr.keywords
        ):
            # `main(**vars(parser.parse_args()))`, `vars(args)`: the parsed options as a dict (only a parse's
            # defaults; `vars` of anything else may read a script object's attributes, left unresolved).
            inner = self.values(expr.args[0], at, depth)
            if inner and all(isinstance(v, _Parsed) for v in inner):
                return [dict(vars(v)) for v in inner]
        groups = self._name_groups(sorted(_free_names(expr)), at, depth)
        out: list[Any] = []
        for bound in _spread_groups(groups):
            value = self._evaluate(expr, bound)
            if not any(_same(value, v) for v in out):
                out.append(value)
        return out

    def _name_groups(self, names: list[str], at: ast.AST, depth: int) -> list[tuple[list[str], list[tuple[Any, ...]]]]:
        """The values of `names` where `at` is, as (names, their values together): the names one `for`
        target binds (`for r, w in [(1, 1.0), (2, 0.5)]`) go together, each item giving all of them (not
        every r with every w); every other name alone."""
        together: dict[str, ast.For | ast.comprehension] = {}
        if not isinstance(at, ast.ClassDef):  # a class body's names: see `_name_values`
            function = self._enclosing(at, _FUNCTIONS)
            loops = list(self._loops(at, function))
            for n in names:
                loop = next((lp for lp in loops if n in target_names(lp.target)), None)
                if loop is not None and sum(n2 in target_names(loop.target) for n2 in names) > 1:
                    together[n] = loop
        groups: list[tuple[list[str], list[tuple[Any, ...]]]] = []
        done: set[int] = set()
        for n in names:
            loop = together.get(n)
            if loop is None:
                groups.append(([n], [(v,) for v in self._name_values(n, at, depth)]))
            elif id(loop) not in done:
                done.add(id(loop))
                group = [m for m in names if together.get(m) is loop]
                items = [item for it in self.values(loop.iter, loop, depth) for item in _items(it)]
                groups.append((group, [tuple(_unpack(loop.target, item, m) for m in group) for item in items]))
        return groups

    def _first(self, expr: ast.expr, at: ast.AST, depth: int) -> Any:
        return self.values(expr, at, depth)[0]

    def _evaluate(self, expr: ast.expr, bound: dict[str, Any]) -> Any:
        guarded = _Guard().visit(copy.deepcopy(ast.Expression(expr)))
        ast.fix_missing_locations(guarded)
        scope = {**self.namespace, **bound, "__wci_call__": self.guard}
        try:
            code = compiled(guarded, self.path, "eval", self.flags)
            self.local_code.update(_lambda_codes(code))
            with script_argv(self.path):
                return eval(code, scope)
        except Unresolved:
            raise
        except Exception as e:
            raise Unresolved(f"{ast.unparse(expr)}: {type(e).__name__}: {e}") from e

    def plain(self, name: str, value: Any) -> Any:
        """`value`, a module-level name's, if evaluating with it runs none of the script's own code (an
        instance of a class the script defines may run its methods on `==`, `len`, `str`); else Unresolved."""
        if not _plain(value):
            raise Unresolved(f"{name} is a {type(value).__name__} object, whose methods the harvest does not run")
        return value

    def guard(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        """Every call the harvest evaluates: only pure built-ins, `math`, and what `is_allowed` allows."""
        pure = any(func is f for f in (*_PURE_BUILTINS, *_PURE_FUNCTIONS)) or getattr(func, "__module__", None) in (
            "math",
            "_operator",
        )
        pure = pure or _generated_dataclass(func) or _reading_method(func) or _small_numpy_range(func, args, kwargs)
        pure = pure or (isinstance(func, types.FunctionType) and func.__code__ in self.local_code)
        owner = getattr(func, "__self__", None)
        if type(owner) is dict and id(owner) in self.owned and getattr(func, "__name__", "") in _KWARGS_METHODS:
            pure = True  # `opts.pop("gain", 1.0)` on the made factory's own `**opts`
        if func is os.getenv or (getattr(func, "__self__", None) is os.environ and func.__name__ == "get"):
            # `os.environ.get("OP", "square")` in `main()`: read as the script's load reads it at its top level
            pure = True
        if func is dataclasses.asdict or func is dataclasses.astuple:
            # `make(**asdict(cfg))`: the fields of settings the harvest could make, copied (no `dict_factory`)
            pure = len(args) == 1 and not kwargs and _generated_dataclass(type(args[0])) and _plain(args[0])
        if func is dataclasses.fields:  # `{f.name for f in dataclasses.fields(cls)}` of such settings
            pure = (
                len(args) == 1
                and not kwargs
                and _generated_dataclass(args[0] if isinstance(args[0], type) else type(args[0]))
            )
        if func is dataclasses.replace:
            # `make_gain(dataclasses.replace(CFG, gain=3.0))`: a copy of such settings, made by its generated `__init__`
            pure = len(args) == 1 and _generated_dataclass(type(args[0])) and _plain([args[0], *kwargs.values()])
        if func is getattr or func is hasattr:  # `getattr(dtype, "_wp_scalar_type_", dtype)`: data and types only
            pure = bool(args) and _plain(args[0]) and not str(args[1:2] and args[1]).startswith("__")
        if _parses_text(func):
            # `json.loads(DEFAULTS_JSON)`, `shlex.split(DEFAULT_CMD)` in `main()`: settings the script keeps as
            # text, parsed; with no keywords (`object_hook=` would run the script's code)
            pure = not kwargs and all(isinstance(a, (str, bytes)) for a in args)
        if _named_tuple_method(func) or _named_tuple_class(func):
            # `Params._make([0.1, 4])`, `make(**p._asdict())`, `p._replace(dt=0.2)`, `Limits(hi=2.0)`
            pure = _plain([*args, *kwargs.values()])
        if _settings_class(func) or _settings_method(func):
            # `SolverSettings(omega=0.9)` (pydantic), `Material()` (attrs), `solver.model_dump()`: settings
            # classes whose every method the library generated, over plain values
            pure = _plain([*args, *kwargs.values()])
        if any(func is f for f in _settings_functions()):  # `attrs.evolve(water, viscosity=10.0)`, `attrs.asdict`
            pure = len(args) == 1 and _settings_class(type(args[0])) and _plain([args[0], *kwargs.values()])
        if func is types.SimpleNamespace or func is argparse.Namespace:
            # `SimpleNamespace(**{"lo": -1.0, "hi": 1.0})`, `argparse.Namespace(gain=2.0)` written by hand in
            # `main()`: a record of plain values
            pure = not args and all(_plain(v, 1) for v in kwargs.values())
        if typing.is_typeddict(func):  # `SpringCfg(k=4.0, rest=1.0)`: a `TypedDict` call makes a plain dict
            pure = _plain([*args, *kwargs.values()])
        if _config_parser(func) or _reads_config(func):
            # `ini = ConfigParser()` then `ini.read_string(DEFAULTS_INI)` and `ini.getfloat("clamp", "lo")` in `main()`:
            # a plain parser made, filled from text (on the harvest's own copy, `_edited`) and read
            pure = _plain([*args, *kwargs.values()])
        if getattr(func, "__name__", "") in _CONFIG_FILLING and type(getattr(func, "__self__", None)) in _CONFIG_TYPES:
            pure = id(func.__self__) in self.owned and _plain([*args, *kwargs.values()])
        if getattr(func, "__name__", "") == "read" and type(getattr(func, "__self__", None)) in _CONFIG_TYPES:
            # `cfg.read(Path(__file__).with_name("settings.ini"))` in `main()`: filled from the script's own files
            files = args[0] if args and isinstance(args[0], (list, tuple)) else args[:1]
            pure = (
                id(func.__self__) in self.owned
                and len(args) == 1
                and set(kwargs) <= {"encoding"}
                and all(self._own_file(f) for f in files)
            )
        if func is open:
            # `with open(os.path.join(HERE, "material.json")) as fh: json.load(fh)`: a file of the script's folder,
            # read whole into memory (a mode that writes, or another folder's file, stays refused)
            return self._opened(args, kwargs)
        if _path_question(func, args, kwargs):
            pure = True
        if _reads_path(func):  # `Path(__file__).with_name("params.json").read_text()`
            pure = self._own_file(func.__self__) and set(kwargs) <= {"encoding", "errors"} and not args
        if _parses_file(func) and not pure:  # `json.load(fh)` of what `_opened` read
            pure = not kwargs and len(args) == 1 and isinstance(args[0], (io.StringIO, io.BytesIO))
        if getattr(func, "__module__", None) == "statistics":
            # `statistics.mean(SAMPLES)` in `main()`: arithmetic of plain numbers (a script's own number type
            # would run its methods)
            pure = _plain([*args, *kwargs.values()])
        if func is vars:
            # `make_damp(**vars(cfg))` of settings made in `main()`: the fields of a record the harvest made
            pure = (
                len(args) == 1
                and not kwargs
                and (
                    type(args[0]) in (types.SimpleNamespace, argparse.Namespace) or _generated_dataclass(type(args[0]))
                )
                and hasattr(args[0], "__dict__")
                and _plain(args[0])
            )
        if func is iter:  # `next(iter(cfg["omegas"]))`: one argument (`iter(f, sentinel)` would call `f`)
            pure = len(args) == 1 and not kwargs and _plain(args[0])
        if func is next:  # of an iterator over a container's items (a generator would run its body)
            pure = bool(args) and type(args[0]) in _CONTAINER_ITERATORS and _plain(list(args[1:]))
        if not (pure or self.is_allowed(func, args, kwargs)):
            helper = self._helper(func) or self._class_helper(func) or self._record_maker(func)
            if helper is not None:
                return self._call_helper(helper, args, kwargs)
            raise Unresolved(f"calls {getattr(func, '__qualname__', None) or type(func).__name__}, which may act")
        # A script's `list(range(10**9))` in `main()` is its run's business: the harvest's worker shares the
        # machine's memory, so a built-in is not handed more than `MAX_ITEMS` items.
        args = tuple(_bounded(a) for a in args)
        return func(*args, **kwargs)

    def _own_file(self, path: Any) -> bool:
        """Whether `path` (a string or a path) names a file under the script's own folder."""
        if not isinstance(path, (str, os.PathLike)):
            return False
        folder = os.path.dirname(os.path.realpath(self.path))
        found = os.path.realpath(os.fspath(path))
        return found.startswith(folder + os.sep) and os.path.isfile(found)

    def _opened(self, args: tuple, kwargs: dict[str, Any]) -> io.StringIO | io.BytesIO:
        """`open(path)` / `open(path, "rb", encoding=...)` of a file of the script's folder, as an in-memory copy
        of its text or bytes (the harvest holds no file open); Unresolved for any other."""
        mode = args[1] if len(args) > 1 else kwargs.get("mode", "r")
        given = set(kwargs) - {"mode", "encoding", "errors"}
        if not args or len(args) > 2 or given or not isinstance(mode, str) or set(mode) - {"r", "b", "t"}:
            raise Unresolved("opens a file other than for reading")
        if not self._own_file(args[0]):
            raise Unresolved(f"opens {describe(args[0])}, no file of the script's folder")
        path = os.fspath(args[0])
        if "b" in mode:
            with open(path, "rb") as f:
                return io.BytesIO(f.read())
        with open(path, encoding=kwargs.get("encoding"), errors=kwargs.get("errors")) as f:
            return io.StringIO(f.read())

    def _helper(self, func: Any) -> Any:
        """The script's own top-level function `func`, guarded, when its body only computes: `cfl_dt(dx, 2.0)`,
        `gauss_weights(2)` in a factory's arguments. Its calls go through `guard` as the harvest's own do; it
        may not declare `global`/`nonlocal`, loop with `while`, catch, import, `del`, yield or await, store
        into an attribute or an item, or read a special attribute, and the module-level names it reads are
        plain values. None for anything else."""
        if not isinstance(func, types.FunctionType) or func.__qualname__ != func.__name__ or func.__closure__:
            return None
        if self.namespace.get(func.__name__) is not func or func.__code__.co_filename != self.path:
            return None
        if id(func) in self.helpers:
            return self.helpers[id(func)]
        self.helpers[id(func)] = None
        node = next((n for n in self.tree.body if isinstance(n, ast.FunctionDef) and n.name == func.__name__), None)
        if node is None or node.decorator_list:
            return None
        return self._guarded_copy(func, node)

    def _class_helper(self, method: Any) -> Any:
        """A `@classmethod` of the script's top-level class that only computes (`def coeff(cls): return cls.K *
        2.0`, called on a subclass as `cls.coeff()`), bound to its class and guarded as `_helper`'s; else None."""
        func, cls = getattr(method, "__func__", None), getattr(method, "__self__", None)
        if not (isinstance(func, types.FunctionType) and isinstance(cls, type)) or func.__closure__:
            return None
        owner, _, name = func.__qualname__.partition(".")
        defining = self.namespace.get(owner)
        if not isinstance(defining, type) or "." in name or func.__code__.co_filename != self.path:
            return None
        declared = vars(defining).get(name)
        if not (isinstance(declared, classmethod) and declared.__func__ is func):
            return None
        if id(func) not in self.helpers:
            self.helpers[id(func)] = None
            body = next((n.body for n in self.tree.body if isinstance(n, ast.ClassDef) and n.name == owner), [])
            node = next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == name), None)
            if node is not None and [called_name(d) for d in node.decorator_list] == ["classmethod"]:
                plain = copy.deepcopy(node)
                plain.decorator_list = []
                self._guarded_copy(func, plain)
        helper = self.helpers[id(func)]
        if helper is None:
            return None

        def bound(*args: Any, **kwargs: Any) -> Any:
            return helper(cls, *args, **kwargs)

        bound.__name__ = helper.__name__
        return bound

    def _record_maker(self, cls: Any) -> Any:
        """For a plain settings class of the script (a top-level class of no base but `object`, whose `__init__`
        only computes and sets attributes of `self`: `SolverCfg()`, `Sim()` holding one), a function making
        what it makes as a namespace: its plain class attributes, then what the guarded `__init__` sets. The
        script's methods are not on it (calling or reading one stops the kernel), so comparing or reading it
        runs none of the script's code. Else None."""
        if not isinstance(cls, type) or cls.__bases__ != (object,) or self.namespace.get(cls.__name__) is not cls:
            return None
        node = next((n for n in self.tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__), None)
        if node is None or node.decorator_list or node.keywords:
            return None
        init = vars(cls).get("__init__")
        defined = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if defined is not None and not (isinstance(init, types.FunctionType) and _sets_attributes_only(defined)):
            return None
        if defined is not None and id(init) not in self.helpers:
            self.helpers[id(init)] = None
            self._guarded_copy(init, defined, _sets_attributes_only)
        guarded = self.helpers.get(id(init)) if defined is not None else None
        if defined is not None and guarded is None:
            return None
        data = {
            k: v
            for k, v in vars(cls).items()
            if not k.startswith("__") and not callable(v) and not isinstance(v, _PROPERTIES) and _plain(v, 1)
        }
        # `@property def dx(self): return self.length / (self.n - 1)` (or a `functools.cached_property`): computed
        # on the record by its guarded copy when read (`make_coords(grid.dx)`); the `property` object itself
        # is no value of it. One the harvest cannot copy (it acts, has a setter) is left out: reading it stops.
        computed: dict[str, property] = {}
        for k, v in vars(cls).items():
            getter = v.fget if isinstance(v, property) else v.func if isinstance(v, functools.cached_property) else None
            if getter is None or (isinstance(v, property) and (v.fset or v.fdel)):
                continue
            defined_at = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == k), None)
            if defined_at is None or [called_name(d) for d in defined_at.decorator_list] not in _PROPERTY_DECORATORS:
                continue
            if id(getter) not in self.helpers:
                self.helpers[id(getter)] = None
                undecorated = copy.deepcopy(defined_at)
                undecorated.decorator_list = []
                self._guarded_copy(getter, undecorated)
            if self.helpers[id(getter)] is not None:
                computed[k] = property(self.helpers[id(getter)])
        kind = type(cls.__name__, (types.SimpleNamespace,), computed) if computed else types.SimpleNamespace

        def made(*args: Any, **kwargs: Any) -> types.SimpleNamespace:
            record = kind(**data)
            if guarded is not None:
                guarded(record, *args, **kwargs)
            elif args or kwargs:
                raise TypeError(f"{cls.__name__}() takes no arguments")
            return record

        made.__name__ = cls.__name__
        return made

    def _guarded_copy(
        self, func: Any, node: ast.FunctionDef, computes: Callable[[ast.FunctionDef], bool] | None = None
    ) -> Any:
        """`node` (the definition of `func`) compiled with its calls guarded, when its body only computes
        (`computes`, `_computes_only` by default) and the module-level names it reads are plain values; else
        None. Kept in `helpers` by `func`."""
        if not (computes or _computes_only)(node):
            return None
        if any(
            isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any(called_name(d) == "kernel" for d in n.decorator_list)
            for n in ast.walk(node)
            if n is not node
        ):
            # a factory (`k, dtype = make_axpy("f64")` read for a launch's types): run as the harvest's function,
            # the kernel it defines came out under that function's name (`__wci_helper__.<locals>.make_axpy...`)
            # and took the place of the one its plan makes
            return None
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in self.namespace:
                if not _plain(self.namespace[n.id]):
                    return None
        lazy = bool(self.flags & __future__.annotations.compiler_flag)
        guarded = copy.deepcopy(node)
        guarded.body = [_Guard(lazy).visit(stmt) for stmt in guarded.body]
        guarded.args = _Guard(lazy)._arguments(guarded.args)
        wrapper = ast.FunctionDef(
            name="__wci_helper__",
            args=ast.arguments(
                posonlyargs=[], args=[ast.arg("__wci_call__")], kwonlyargs=[], kw_defaults=[], defaults=[]
            ),
            body=[guarded, ast.Return(ast.Name(node.name, ast.Load()))],
            decorator_list=[],
            returns=None,
            type_params=[],
        )
        ast.copy_location(wrapper, node)
        scope: dict[str, Any] = {}
        try:
            with script_argv(self.path):
                exec(
                    compiled(
                        ast.fix_missing_locations(ast.Module([wrapper], type_ignores=[])), self.path, "exec", self.flags
                    ),
                    self.namespace,
                    scope,
                )
                self.helpers[id(func)] = scope["__wci_helper__"](self.guard)
                self.local_code.update(_lambda_codes(self.helpers[id(func)].__code__))
        except Exception:
            return None
        return self.helpers[id(func)]

    def _call_helper(self, helper: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
        if self.helper_depth >= MAX_HELPER_DEPTH:
            raise Unresolved(f"{helper.__name__} calls the script's functions too deep")
        self.helper_depth += 1
        try:
            return helper(*(_bounded(a) for a in args), **kwargs)
        except Unresolved:
            raise
        except Exception as e:
            raise Unresolved(f"{helper.__name__}(...): {type(e).__name__}: {e}") from e
        finally:
            self.helper_depth -= 1

    def _name_values(self, name: str, at: ast.AST, depth: int) -> list[Any]:
        if isinstance(at, ast.ClassDef):  # a method's default, `def __init__(self, width=WIDTH)`: the class body's
            assigned = [
                s
                for s in at.body
                if isinstance(s, (ast.Assign, ast.AnnAssign))
                and any(name in target_names(t) for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))
            ]
            if assigned:
                return self._assigned_values(name, assigned[-1], depth)
        function = self._enclosing(at, _FUNCTIONS)
        for loop in self._loops(at, function):
            if name in target_names(loop.target):
                iterables = self.values(loop.iter, loop, depth)
                return [_unpack(loop.target, item, name) for it in iterables for item in _items(it)]
        assignment = self._last_assignment(name, at, function)
        if assignment is not None:
            values = self._assigned_values(name, assignment, depth)
            edits = self._edits_between(name, assignment, at) if function is not None else []
            return [self._edited(name, v, edits, depth) for v in values] if edits else values
        if isinstance(function, ast.Lambda) and _arguments(function).get(name) is not None:
            # `"square": lambda p=2: make_pow(p)` in a table of builders: its default, evaluated where the lambda
            # is written (who calls the lambda, `BUILDERS[name]()`, the harvest does not follow)
            return self.values(_arguments(function)[name], self.parent.get(id(function), self.tree), depth)  # type: ignore[arg-type]
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):  # `async def asyncSetUp(self)` too
            args = _arguments(function)
            if name in args and _is_constructor_self(function, name, self.parent.get(id(function))):
                return self._constructed_so_far(function, name, at, depth)
            constructor = self._post_init_constructor(function, name)
            if constructor is not None:
                return self._constructed_so_far(constructor, name, at, depth)
            if name in args:
                return self._parameter_values(function, name, args[name], depth)
            if name in [s.arg for s in (function.args.vararg, function.args.kwarg) if s is not None]:
                return self._parameter_values(function, name, None, depth)  # `*args` / `**kwargs` forwarded on
            if _binds_locally(function, name):
                raise Unresolved(f"{name} is bound in {function.name} other than by an assignment")
        if name in self.namespace:
            return [self.plain(name, self.namespace[name])]
        if hasattr(builtins, name):
            return [getattr(builtins, name)]
        raise Unresolved(f"{name} has no value the harvest can read")

    def _constructed_so_far(self, init: ast.FunctionDef, name: str, at: ast.AST, depth: int) -> list[Any]:
        """`self` in `__init__` where `at` is, as the attributes the statements before it set
        (`self.sim_dt = self.frame_dt / self.sim_substeps`, then `make_drag(drag, self.sim_dt)`), one namespace
        per combination of their values: Warp's examples size their kernels so. Only plain top-level assignments
        `self.x = ...` may come before: a method call on `self`, `super()`, or an attribute set inside a block
        may set what the harvest would not see."""
        placed: Any = at
        while placed is not None and not hasattr(placed, "lineno"):  # a comprehension's clause has no line
            placed = self.parent.get(id(placed))
        line = getattr(placed, "lineno", 0)
        before = [stmt for stmt in init.body if stmt.end_lineno is not None and stmt.end_lineno < line]
        assigned: dict[str, ast.Assign | ast.AnnAssign] = {}
        for stmt in before:
            targets = (
                stmt.targets
                if isinstance(stmt, ast.Assign)
                else [stmt.target]
                if isinstance(stmt, ast.AnnAssign)
                else []
            )
            own = [
                t
                for t in targets
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == name
            ]
            if own and len(own) == len(targets) and stmt.value is not None:
                assigned.update({t.attr: stmt for t in own})
                continue
            for node in ast.walk(stmt):
                acts = isinstance(node, ast.Call) and (
                    (isinstance(node.func, ast.Attribute) and ast.unparse(node.func.value) in (name, "super()"))
                    or ast.unparse(node.func) in ("setattr", "vars")
                )
                stores = (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, ast.Store)
                    and ast.unparse(node.value) == name
                )
                if acts or stores:
                    raise Unresolved(
                        f"{name} is set in __init__ other than by plain assignments: {ast.unparse(stmt)[:80]}"
                    )
        # Only the attributes the statement at `at` reads (evaluating another, `self.v = wp.zeros(n)`, would be
        # refused or, `self.k = make_k(...)`, make a kernel nobody asked for).
        statement = placed
        while statement is not None and self.parent.get(id(statement)) is not init:
            statement = self.parent.get(id(statement))
        read = {
            n.attr
            for n in ast.walk(statement if statement is not None else at)
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and ast.unparse(n.value) == name
        }
        attributes = [a for a in assigned if a in read]
        lists = [self._assigned_attribute(assigned[a], a, depth) for a in attributes]
        return [
            types.SimpleNamespace(**dict(zip(attributes, combo, strict=True)))
            for combo in _spread(lists, MAX_INSTANCES)
        ]

    def _post_init_constructor(self, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> Any:
        """For `self` of the `__post_init__` of a top-level `@dataclass` that writes no `__init__` (`def
        __post_init__(self): self.kernel = make_gain(self.gain)`), the `__init__` the dataclass runs: the generated
        one (`factories.dataclass_init`: the fields set from the construction's arguments) with `__post_init__`'s
        body after it, as `__init__` calls it last. The fields' statements are the class's own lines, before the
        method's, so `_constructed_so_far` reads them and what `__post_init__` set before the statement. None for
        any other function or parameter."""
        owner = self.parent.get(id(func))
        positional = [*func.args.posonlyargs, *func.args.args]
        if not (
            isinstance(func, ast.FunctionDef)
            and func.name == "__post_init__"
            and isinstance(owner, ast.ClassDef)
            and self.parent.get(id(owner)) is self.tree
            and [a.arg for a in positional] == [name]
            and not func.decorator_list
            and not any(isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in owner.body)
        ):
            return None
        key = id(func)
        if key not in self.post_inits:
            generated = dataclass_init(owner)
            if generated is None:
                self.post_inits[key] = None
            else:
                init = generated[0]
                for stmt in init.body:  # the generated statements are in no tree: placed in the constructor
                    for node in ast.walk(stmt):
                        for child in ast.iter_child_nodes(node):
                            self.parent[id(child)] = node
                    self.parent[id(stmt)] = init
                self.parent[id(init)] = owner
                self.post_inits[key] = init
                init.body = [*init.body, *func.body]
        return self.post_inits[key]

    def _assigned_attribute(self, stmt: ast.Assign | ast.AnnAssign, attribute: str, depth: int) -> list[Any]:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
        if isinstance(stmt, ast.Assign) and len(stmt.targets) > 1:
            target = next(t for t in stmt.targets if isinstance(t, ast.Attribute) and t.attr == attribute)
        if not isinstance(target, ast.Attribute):
            raise Unresolved(f"self.{attribute} is bound other than by an assignment")
        return self.values(stmt.value, stmt, depth)  # type: ignore[arg-type]

    def _parameter_values(self, func: ast.FunctionDef, name: str, default: ast.expr | None, depth: int) -> list[Any]:
        out: list[Any] = []
        why = f"{name}, a parameter of {func.name}, has no default and no caller"
        for call, shift in self._calls_of(func):
            try:
                expr, where = self._argument_exprs(func, call, shift).get(name, (None, None))
                if expr is None:
                    continue
                for value in self.values(expr, where, depth + 1):
                    if not any(_same(value, v) for v in out):
                        out.append(value)
            except Unresolved as e:
                why = str(e)
        if not out and name == "request" and _is_fixture(func):
            # `@pytest.mark.parametrize("threshold", [...], indirect=["threshold"])` on a test: pytest hands
            # each value to the fixture `threshold` as its `request.param`
            for value in self._indirect_values(func.name):
                if not any(_same(value, v.param) for v in out):
                    out.append(_FixtureRequest(value))
        if not out:
            # A test's parameter its runner gives (`@pytest.mark.parametrize("dtype", [...])`).
            for rows in self._parametrize_rows(func)[0]:
                for row in rows:
                    if name in row and not any(_same(row[name], v) for v in out):
                        out.append(row[name])
        if not out and default is None and (_is_fixture(func) or func.name.startswith("test")):
            # pytest gives a fixture's or a test's parameter the value of the script's fixture of that name
            # (`def kernel(level): return make(level)` with `@pytest.fixture def level(): return 0.75`).
            returned = self._fixture_return(name)
            if returned is not None:
                out = self.values(returned.value, returned, depth + 1)  # type: ignore[arg-type]
        if (
            not out
            and default is None
            and (func.name.startswith("test") or func.name in _FIXTURE_METHODS or _is_fixture(func))
        ):
            # `for lo, hi in self.BOUNDS:` in a test method its runner calls, `make_damp(self.RATE)` in `setUp`
            # or in a fixture method of a test class: the class's data attributes, and those of each subclass
            # case the script defines (which the runner runs too, with the attributes it overrides)
            out = self._test_instance_data(func, name)
        if not out and default is None:
            # `@click.option("--gain", default=1.5, type=float)` on `def cli(gain, steps)`: what the command gets
            # run with no arguments, as `parse_args()` gives argparse's defaults
            out = self._click_default(func, name, depth)
        if not out and default is not None:
            out = self.values(default, func, depth)
        if not out:
            raise Unresolved(why)
        return out[:MAX_INSTANCES]

    def _click_default(self, func: ast.FunctionDef, name: str, depth: int) -> list[Any]:
        """The value a `click` command's parameter `name` gets from its `@click.option(...)` (or `@option`)
        decorator when the command line gives none: its `default=` (converted by a built-in `type=`, as click
        converts it), `False` for a flag, None without one; `[]` when no option of the function names it (or
        one whose default the harvest cannot read: a callable, `multiple=`, a prompt)."""
        names = [called_name(d.func) for d in func.decorator_list if isinstance(d, ast.Call)]
        if not any(n in ("command", "group") for n in names):
            return []
        for decorator in func.decorator_list:
            if not (isinstance(decorator, ast.Call) and called_name(decorator.func) in ("option", "argument")):
                continue
            decls = [a.value for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if _click_name(decls) != name:
                continue
            given = {k.arg: k.value for k in decorator.keywords}
            if set(given) & {"multiple", "prompt", "callback", "nargs", "envvar", "default_map"}:
                return []
            at = self.parent.get(id(func), self.tree)
            if "default" not in given:
                flag = given.get("is_flag")
                return [False] if isinstance(flag, ast.Constant) and flag.value is True else [None]
            kind = self._first(given["type"], at, depth) if "type" in given else None
            out = []
            for value in self.values(given["default"], at, depth):
                if callable(value):
                    return []  # `default=lambda: ...`: click calls it
                if kind in (int, float, str, bool) and value is not None:
                    value = kind(value)
                out.append(value)
            return out
        return []

    def _test_instance_data(self, method: ast.FunctionDef, name: str) -> list[types.SimpleNamespace]:
        """For `self` of a test method (or `setUp`, or `cls` of `setUpClass`) of a top-level class, the class's
        plain data attributes (`BOUNDS = [...]`) as a namespace: what `self.BOUNDS` reads; then one for each
        top-level subclass of it (`class TestDampStrong(TestDamp): RATE = 0.9`). Those a method sets on the
        instance (`self.x = ...` in `setUp`) are left out, since a run reads the instance's value; methods too
        (the harvest runs none)."""
        owner = self.parent.get(id(method))
        params = _parameters_of(method)
        if not (isinstance(owner, ast.ClassDef) and self.parent.get(id(owner)) is self.tree and params[:1] == [name]):
            return []
        allowed = [
            d for d in method.decorator_list if not (method.name == "setUpClass" and called_name(d) == "classmethod")
        ]
        if allowed and not all(_is_test_decorator(d) for d in allowed):
            return []
        cls = self.namespace.get(owner.name)
        if not isinstance(cls, type):
            return []
        out: list[types.SimpleNamespace] = []
        for node in self.tree.body:
            case = self.namespace.get(node.name) if isinstance(node, ast.ClassDef) else None
            if isinstance(case, type) and issubclass(case, cls):
                data = self._case_data(case, owner, name)
                if not any(_same(data, d) for d in out):
                    out.append(data)
        return out[:MAX_INSTANCES]

    def _case_data(self, cls: type, owner: ast.ClassDef, name: str) -> types.SimpleNamespace:
        """`cls`'s plain data attributes, but those `owner`'s methods set on `name` (`self` / `cls`)."""
        set_on_instance = {
            t.attr
            for n in ast.walk(owner)
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
            for target in (n.targets if isinstance(n, ast.Assign) else [n.target])
            for t in ast.walk(target)
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == name
        }
        data = {}
        for attr in dir(cls):
            if attr.startswith("_") or attr in set_on_instance:
                continue
            value = inspect.getattr_static(cls, attr)
            if not isinstance(value, (types.FunctionType, staticmethod, classmethod, property)) and _plain(value):
                data[attr] = value
        return types.SimpleNamespace(**data)

    def _indirect_values(self, fixture: str) -> list[Any]:
        """The values the script's tests parametrize the fixture `fixture` with indirectly (`indirect=True`,
        or a list naming it), in order."""
        out: list[Any] = []
        for test in ast.walk(self.tree):
            if not isinstance(test, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for decorator in test.decorator_list:
                given = _parametrize_arguments(decorator)
                if given is None or not _indirect_to(decorator, fixture):  # type: ignore[arg-type]
                    continue
                names = _parametrized_names(given[0])
                if fixture not in names:
                    continue
                at = names.index(fixture)
                for listed in self.values(_param_values(given[1]), test, 0):
                    for item in _items(listed):
                        if len(names) == 1:
                            out.append(item)
                        elif isinstance(item, (tuple, list)) and len(item) == len(names):
                            out.append(item[at])
                        else:
                            raise Unresolved(f"{describe(item)} does not give {', '.join(names)}")
        return out

    def _fixture_return(self, name: str) -> ast.Return | None:
        """The `return` of the script's top-level fixture `name` without `params=` whose body is that one
        statement (after a docstring); None for any other (its value is what its run computes)."""
        for node in self.tree.body:
            if not (isinstance(node, ast.FunctionDef) and node.name == name):
                continue
            if not _is_fixture(node) or any(_fixture_params(d) is not None for d in node.decorator_list):
                return None
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
                return body[0]
        return None

    def _edits_between(self, name: str, assignment: ast.stmt, at: ast.AST) -> list[ast.stmt]:
        """The statements after `assignment`, in its own block and before the one `at` is in, that edit `name`'s
        value in place: `cfg["gain"] = 3.0`, `sim.cfg.dt = 0.02`, `cfg.update(bias=0.5)`,
        `opts.setdefault("iters", 2)` (an edit inside a nested block is not followed)."""
        block = next(
            (b for b in _blocks(self.parent.get(id(assignment))) if any(s is assignment for s in b)),
            [],
        )
        placed: Any = at
        while placed is not None and not any(s is placed for s in block):
            placed = self.parent.get(id(placed))
        if placed is None:
            return []
        start = next(i for i, s in enumerate(block) if s is assignment) + 1
        stop = next(i for i, s in enumerate(block) if s is placed)
        functions = {n.name for n in self.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        # An edit calling the script's own function (`cfg["kernel"] = make_kernel(...)`) is not run: the call may
        # make a kernel, or act; the value is read as before it.
        return [
            s
            for s in block[start:stop]
            if _edits(s, name)
            and not any(called_name(c.func) in functions for c in ast.walk(s) if isinstance(c, ast.Call))
        ]

    def _edited(self, name: str, value: Any, edits: list[ast.stmt], depth: int) -> Any:
        """A copy of `value` with `edits` run on it (their calls guarded; a dict's or a list's own editing
        methods allowed on the copy), other names at their values where each edit is."""
        try:
            value = copy.deepcopy(value)
        except Exception as e:
            raise Unresolved(f"{name} is edited in place and cannot be copied: {type(e).__name__}") from e
        for stmt in edits:
            names = sorted(_free_names_of_statement(stmt) - {name})
            bound = next(iter(_spread_groups(self._name_groups(names, stmt, depth))), {})
            for owned in _containers(value):
                self.owned[id(owned)] = owned
            guarded = _Guard().visit(copy.deepcopy(ast.Module([stmt], type_ignores=[])))
            scope = {**self.namespace, **bound, name: value, "__wci_call__": self.guard}
            try:
                with script_argv(self.path):
                    exec(compiled(ast.fix_missing_locations(guarded), self.path, "exec", self.flags), scope)
            except Unresolved:
                raise
            except Exception as e:
                raise Unresolved(f"{ast.unparse(stmt)[:80]}: {type(e).__name__}: {e}") from e
        return value

    def _assigned_values(self, name: str, stmt: ast.stmt | ast.NamedExpr, depth: int) -> list[Any]:
        if isinstance(stmt, ast.NamedExpr):
            return [_unpack(stmt.target, v, name) for v in self.values(stmt.value, stmt, depth)]
        if isinstance(stmt, ast.With):
            # `with open(path) as fh:`: the file `_opened` read, which is its own context value; the value any
            # other context manager's `__enter__` gives is the script's run's
            item = next(i for i in stmt.items if i.optional_vars is not None and name in target_names(i.optional_vars))
            values = self.values(item.context_expr, stmt, depth)
            if not all(isinstance(v, (io.StringIO, io.BytesIO)) for v in values):
                raise Unresolved(f"{name} is bound by a with statement other than over an opened file")
            return [_unpack(item.optional_vars, v, name) for v in values]
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        if value is None:
            raise Unresolved(f"{name} is bound other than by an assignment")
        parsed = self._parsed_arguments(value, stmt, depth)
        if parsed is not None:
            return [parsed]
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
        return [_unpack(target, v, name) for v in self.values(value, stmt, depth)]

    def _parsed_arguments(self, value: ast.expr, at: ast.AST, depth: int) -> _Parsed | None:
        """`parser.parse_args()` / `parser.parse_known_args()[0]`: the defaults of `parser`'s options, as a
        script loaded with no arguments gets them (an option whose default is not a plain value is left out)."""
        parser = parser_of(value)
        if parser is None:
            return None
        given = command_line_given(value)
        argv = None  # a command line the script writes itself (`parse_args(["--gain", "2.5"])` in a notebook)
        if given is not None and not self._own_command_line(given, at, depth):
            argv = self._written_command_line(given, at, depth)
            if argv is None:
                raise Unresolved(f"{parser} parses {ast.unparse(given)[:60]}, not the script's own command line")
        scope: ast.AST = self._enclosing(at, (ast.FunctionDef, ast.AsyncFunctionDef)) or self.tree
        if scope is not self.tree and not _assigns(scope, parser):
            scope = self.tree  # `parser` built at the top level, parsed in `main()`: its options are the top level's
        if parser.endswith("()"):
            built = self._built_parser(parser[:-2])
            if built is None:
                raise Unresolved(f"{parser} returns no parser the script builds in it")
            scope, parser = built
        names = _parser_names(scope, parser)
        if argv is not None:
            return self._replayed_parse(scope, parser, names, argv, depth)
        options: dict[str, Any] = {}
        set_later: dict[str, Any] = {}
        for node, method in _method_calls(scope, names):
            if method == "set_defaults" and node.func.value.id == parser:
                # `parser.set_defaults(gain=2.0)`: argparse gives these over any option's own default
                for k in node.keywords:
                    if k.arg is not None:
                        try:
                            set_later[k.arg] = self._first(k.value, node, depth)
                        except Unresolved:
                            set_later.pop(k.arg, None)
                continue
            if method not in ("add_argument", "add_option"):
                continue
            # `add_option` is optparse's (`opts, rest = parser.parse_args()`): an option without a default is
            # None whatever its action, and its `type` is a name ("float"), not a callable.
            optparse = method == "add_option"
            flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            keywords = {k.arg: k.value for k in node.keywords if k.arg}
            dest = _option_dest(flags, keywords)
            if dest is None:
                continue
            action = keywords.get("action")
            action = action.value if isinstance(action, ast.Constant) else None
            try:
                if "default" in keywords:
                    default = self._first(keywords["default"], node, depth)
                else:
                    default = None if optparse else {"store_true": False, "store_false": True}.get(action)
                if isinstance(default, str) and _one_parameter_lambda(keywords.get("type")):
                    # `type=lambda s: tuple(float(v) for v in s.split(","))`: its body, guarded, on the default
                    # (the harvest does not call a function the script wrote, but it evaluates its expressions)
                    convert = keywords["type"]
                    groups = self._name_groups(sorted(_free_names(convert)), node, depth)
                    bound = next(iter(_spread_groups(groups)))
                    default = self._evaluate(convert.body, {**bound, convert.args.args[0].arg: default})  # type: ignore[attr-defined]
                elif isinstance(default, str) and "type" in keywords:
                    convert = self._first(keywords["type"], node, depth)
                    if optparse and isinstance(convert, str):
                        convert = _OPTPARSE_TYPES.get(convert, convert)
                    default = self.guard(convert, default)
            except Unresolved:
                continue
            options[dest] = default
        return _Parsed(options | set_later)

    def _written_command_line(self, given: ast.expr, at: ast.AST, depth: int) -> list[str] | None:
        """The command line `given` evaluates to where it is one list of strings the script writes
        (`["--gain", "2.5"]`, `shlex.split(DEFAULT_CMD)`), else None."""
        try:
            found = self.values(given, at, depth + 1)
        except Unresolved:
            return None
        if len(found) != 1 or not isinstance(found[0], (list, tuple)):
            return None
        return list(found[0]) if all(isinstance(a, str) for a in found[0]) else None

    def _replayed_parse(self, scope: ast.AST, parser: str, names: set[str], argv: list[str], depth: int) -> _Parsed:
        """`parser.parse_args(argv)` of a command line the script writes: its `add_argument` calls replayed on
        a fresh `argparse.ArgumentParser` (each keyword's value read as the harvest reads values; a `type`
        converts through the guard, an inline `lambda s: ...` as its body evaluated), then `argv` parsed."""
        replay = argparse.ArgumentParser(prog=os.path.basename(self.path), add_help=False, exit_on_error=False)
        for node, method in _method_calls(scope, names):
            if method not in ("add_argument", "set_defaults"):
                continue
            if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                raise Unresolved(f"{parser}'s options are given by * or **")
            flags = [self._first(a, node, depth) for a in node.args]
            keywords: dict[str, Any] = {}
            for k in node.keywords:
                if k.arg == "type":
                    keywords["type"] = self._converter(k.value, node, depth)
                else:
                    keywords[k.arg] = self._first(k.value, node, depth)  # type: ignore[index]
            if keywords.get("action") is not None and not isinstance(keywords["action"], str):
                raise Unresolved(f"{parser} has an option of its own action class")
            if method == "set_defaults":
                replay.set_defaults(**keywords)
            else:
                replay.add_argument(*flags, **keywords)
        try:
            parsed = replay.parse_args(argv)
        except Unresolved:
            raise
        except (Exception, SystemExit) as e:
            raise Unresolved(f"{parser} cannot parse {argv}: {type(e).__name__}: {e}") from e
        return _Parsed(vars(parsed))

    def _converter(self, expr: ast.expr, at: ast.AST, depth: int) -> Callable[[str], Any]:
        """An option's `type=`, as a function of the argument's text whose calls the guard checks."""
        if _one_parameter_lambda(expr):
            groups = self._name_groups(sorted(_free_names(expr)), at, depth)
            bound = next(iter(_spread_groups(groups)))
            param = expr.args.args[0].arg  # type: ignore[attr-defined]
            return lambda text: self._evaluate(expr.body, {**bound, param: text})  # type: ignore[attr-defined]
        convert = self._first(expr, at, depth)
        return lambda text: self.guard(convert, text)

    def _built_parser(self, name: str) -> tuple[ast.FunctionDef, str] | None:
        """(the script's top-level function `name`, the local it returns) when it builds an argument parser
        (`p = argparse.ArgumentParser(...)`, options added, `return p`), else None."""
        func = next((n for n in self.tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
        if func is None:
            return None
        made = {
            t.id
            for n in _walk_body(func)
            if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call)
            and called_name(n.value.func) in _PARSER_CLASSES
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        returned = [n.value.id for n in _walk_body(func) if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)]
        return (func, returned[0]) if len(returned) == 1 and returned[0] in made else None

    def _own_command_line(self, given: ast.expr, at: ast.AST, depth: int) -> bool:
        """Whether `parse_args(given)` parses the script's own command line, which is empty as the harvest
        loads it: `sys.argv[1:]`, `None` (argparse then reads `sys.argv`), or a name whose values are all
        `None` (`def main(argv=None)` called as `main()`)."""
        if ast.unparse(given) == "sys.argv[1:]":
            return True
        if isinstance(given, ast.Constant):
            return given.value is None
        if not isinstance(given, ast.Name):
            return False
        function = self._enclosing(at, (ast.FunctionDef, ast.AsyncFunctionDef))
        if isinstance(function, ast.FunctionDef) and given.id in _arguments(function):
            # `def main(argv=None)` called as `main(sys.argv[1:])` under `__main__` (or `main()`): each caller's
            # argument is the script's own command line, read by its text, since its value here is the harvest's
            default = _arguments(function)[given.id]
            seen = False
            for call, shift in self._calls_of(function):
                expr = self._argument_exprs(function, call, shift).get(given.id, (default, function))[0]
                seen = True
                if expr is None or not self._own_command_line(expr, call, depth + 1):
                    return False
            if seen:
                return True
        return all(v is None for v in self.values(given, at, depth + 1))

    # --- where a node is -------------------------------------------------------------------------

    def _enclosing(self, node: ast.AST, kinds: tuple[type, ...]) -> Any:
        cur = self.parent.get(id(node))
        while cur is not None and not isinstance(cur, kinds):
            cur = self.parent.get(id(cur))
        return cur

    def _loops(self, node: ast.AST, function: Any) -> Iterator[ast.For | ast.comprehension]:
        """`for` statements around `node` (innermost first) whose body holds it, inside `function`, and the
        `for` clauses of comprehensions around it (`[make_op(op) for op in OPS]`; an `if` clause is not
        applied: each value of the sequence counts)."""
        child, cur = node, self.parent.get(id(node))
        while cur is not None and cur is not function:
            if isinstance(cur, ast.For) and any(child is s for s in cur.body):
                yield cur
            elif isinstance(cur, _COMPREHENSIONS):
                # The clauses before the one `node` is in (all of them from the element), innermost first.
                inside = next((i for i, g in enumerate(cur.generators) if g is child), len(cur.generators))
                yield from reversed(cur.generators[:inside])
            child, cur = cur, self.parent.get(id(cur))

    def _last_assignment(self, name: str, at: ast.AST, function: Any) -> ast.stmt | ast.NamedExpr | None:
        line = getattr(at, "lineno", 0)
        found = None
        for node in _walk_body(function or self.tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.lineno < line:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(name in target_names(t) for t in targets) and (found is None or node.lineno > found.lineno):
                    found = node
            elif (
                isinstance(node, ast.With)
                and function is not None
                and node.lineno < line
                and any(i.optional_vars is not None and name in target_names(i.optional_vars) for i in node.items)
            ):
                if found is None or node.lineno > found.lineno:
                    found = node  # type: ignore[assignment]  # `with open(path) as fh:` (see `_assigned_values`)
            elif (
                isinstance(node, ast.NamedExpr)
                and function is not None
                and node.lineno < line
                and self._always_evaluated(node)
            ):
                # `if (g := cfg.get("gain")) is not None:` then `make_gain(g)` in its body (in a function: the top
                # level's are in the namespace)
                if name in target_names(node.target) and (found is None or node.lineno > found.lineno):
                    found = node  # type: ignore[assignment]
        if found is not None and function is None and name in self.namespace and self._runs_at_load(found):
            return None  # the script's load ran it: its value is in the namespace
        return found

    def _always_evaluated(self, node: ast.expr) -> bool:
        """Whether `node` runs whenever its statement does: no `and` / `or`, conditional expression or
        comprehension between them may skip it."""
        cur = self.parent.get(id(node))
        while isinstance(cur, ast.expr):
            if isinstance(cur, (ast.BoolOp, ast.IfExp, ast.Lambda, *_COMPREHENSIONS)):
                return False
            cur = self.parent.get(id(cur))
        return True

    def _runs_at_load(self, stmt: ast.stmt) -> bool:
        return any(stmt is s for s in self.tree.body)


# --- the types a script launches a generic kernel with ------------------------------------------------------


def launches(tree: ast.Module) -> Iterator[tuple[ast.Call, ast.expr, list[ast.expr]]]:
    """(call, kernel expression, argument expressions) of every launch (`scripts.launch_calls`: `wp.launch(kernel,
    dim, inputs=[...], outputs=[...])`, `launch_tiled`) whose inputs and outputs are written out as lists."""
    for call, kernel in launch_calls(tree):
        keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
        lists = [
            call.args[i] if len(call.args) > i else keywords.get(name) for i, name in ((2, "inputs"), (3, "outputs"))
        ]
        if kernel is None or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        if not all(x is None or isinstance(x, (ast.List, ast.Tuple)) for x in lists):
            continue
        args = [e for x in lists if x is not None for e in x.elts]  # type: ignore[attr-defined]
        if not any(isinstance(e, ast.Starred) for e in args):
            yield call, kernel, args


def dtype_expression(resolver: Resolver, expr: ast.expr, at: ast.AST) -> ast.expr | None:
    """The expression that gives the Warp type of a launch argument `expr` where `at` is: the `dtype=` of
    the call that made it (`wp.zeros(n, dtype=dt)`, `wp.array(data, dtype=vt)`), else the callee of that
    call (`dt(2.0)`, a value of a type), through a name's last assignment before `at`; None where there is none."""
    for _ in range(MAX_DEPTH):
        if isinstance(expr, ast.Call):
            dtype = next((k.value for k in expr.keywords if k.arg == "dtype"), None)
            return dtype if dtype is not None else expr.func
        if not isinstance(expr, ast.Name):
            return None
        assignment = resolver._last_assignment(expr.id, at, resolver._enclosing(at, _FUNCTIONS))
        if not isinstance(assignment, ast.Assign) or [ast.unparse(t) for t in assignment.targets] != [expr.id]:
            return None
        expr = assignment.value
    return None


def joint_values(resolver: Resolver, exprs: list[ast.expr], at: ast.AST) -> list[tuple[Any, ...]]:
    """The values `exprs` take together where `at` is (the items of one loop go together), at most
    `MAX_INSTANCES`; none where they cannot be read."""
    return (resolver._joint_values(exprs, at) or [])[:MAX_INSTANCES]


def main_block_values(tree: ast.Module, resolver: Resolver) -> dict[str, Any]:
    """Names the script's `if __name__ == "__main__":` blocks assign exactly once, by a plain statement of
    the block (`N = 64`, `DT = 1.0 / 60.0`, `args = parser.parse_args()`), with the one value the harvest reads
    for each. `python script.py` runs the block before its launches, so a kernel that reads such a global (one
    of the top level, or one the block defines) has it when Warp makes its code; loading the script does not."""
    blocks = [n for n in tree.body if isinstance(n, ast.If) and _is_main_guard(n.test)]
    assigned: dict[str, int] = {}
    for block in blocks:
        for node in ast.walk(block):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                assigned[node.id] = assigned.get(node.id, 0) + 1
    out: dict[str, Any] = {}
    for block in blocks:
        for stmt in block.body:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
                continue
            name = stmt.targets[0].id
            if assigned[name] != 1 or name in resolver.namespace:
                continue
            try:
                values = resolver.values(stmt.value, stmt, 0)
                if len(values) == 1:
                    out[name] = resolver.plain(name, values[0])
            except Unresolved:
                continue
    return out


def _is_main_guard(test: ast.expr) -> bool:
    """`__name__ == "__main__"`, either way round."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    return any(isinstance(x, ast.Name) and x.id == "__name__" for x in sides) and any(
        isinstance(x, ast.Constant) and x.value == "__main__" for x in sides
    )


def make(
    plan: Plan,
    binding: Binding,
    resolver: Resolver,
    define: Callable[[str, Any], Any],
) -> Any:
    """The kernel `plan` describes, made with `binding`: a function of the factory's name holding the kept
    statements and the kernel's definition, compiled at their lines, called with the values.
    `define(qualname, decorator)`: applies a definition's own decorator (checked by the caller) under the
    qualified name the factory's call would give it."""
    definitions = [s for s in plan.statements if isinstance(s, (ast.FunctionDef, ast.ClassDef))]
    lazy_annotations = bool(resolver.flags & __future__.annotations.compiler_flag)
    body: list[ast.stmt] = []
    parsed: dict[str, Any] = {}  # `args = parser.parse_args()` runs as `args = <its options' defaults>`
    helpers: set[str] = set()  # the factory's own plain functions its kept statements call (`def g(x): ...`)
    for stmt in [*plan.statements, plan.kernel]:
        if isinstance(stmt, ast.Assign) and parser_of(stmt.value) is not None:
            name = f"__wci_parsed_{len(parsed)}__"
            parsed[name] = resolver._parsed_arguments(stmt.value, stmt, 0)
            body.append(ast.copy_location(ast.Assign(stmt.targets, ast.Name(name, ast.Load())), stmt))
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            # `import math` in the factory: a name bound to a module the script's load already imported (importing
            # another would run its code)
            modules = [stmt.module or ""] if isinstance(stmt, ast.ImportFrom) else [a.name for a in stmt.names]
            missing = [m for m in modules if m not in sys.modules or getattr(stmt, "level", 0)]
            if missing:
                raise Unresolved(f"{binding.call}: imports {missing[0] or '.'}, which the script's load did not")
        node = _Bounded().visit(_Guard(lazy_annotations).visit(copy.deepcopy(stmt)))  # its own calls unguarded
        if isinstance(stmt, ast.FunctionDef) and not stmt.decorator_list and _computes_only(stmt):
            # its body runs guarded, as the script's own top-level helpers do (`_helper`)
            node.body = [_Guard(lazy_annotations).visit(b) for b in node.body]
            helpers.add(stmt.name)
        if stmt in definitions or stmt is plan.kernel:
            qualname = f"{plan.defined_in or plan.factory_qualname}.<locals>.{stmt.name}"
            node.decorator_list = _defined_as(node.decorator_list, qualname)
        body.append(node)
    body.append(ast.Return(ast.Name(plan.kernel.name, ast.Load())))
    params = ["__wci_call__", "__wci_define__", *plan.params, *plan.method_params]
    params += [f"__wci_loop_{i}__" for i in range(len(plan.loops))]
    instance = {} if plan.instance is None else {plan.instance: types.SimpleNamespace()}
    params += [*instance, *parsed]
    function = ast.FunctionDef(
        name=plan.factory.name,
        args=ast.arguments(
            posonlyargs=[], args=[ast.arg(p) for p in params], kwonlyargs=[], kw_defaults=[], defaults=[]
        ),
        body=body,
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    ast.copy_location(function, plan.factory)
    module = ast.fix_missing_locations(ast.Module([function], type_ignores=[]))
    for stmt in plan.statements:  # the module-level values the kept statements compute with
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in resolver.namespace:
                resolver.plain(node.id, resolver.namespace[node.id])
    scope: dict[str, Any] = {}
    try:
        exec(compiled(module, resolver.path, "exec", resolver.flags), resolver.namespace, scope)
        for const in scope[plan.factory.name].__code__.co_consts:
            if isinstance(const, types.CodeType) and const.co_name in helpers:
                resolver.local_code.add(const)
        resolver.local_code.update(_lambda_codes(scope[plan.factory.name].__code__))
        values = dict(binding.values)
        kwarg = plan.factory.args.kwarg
        if kwarg is not None and isinstance(values.get(kwarg.arg), dict):
            # `**opts` is a dict of the call's own, which the factory may empty (`gain = opts.pop("gain", 1.0)`):
            # a copy the guard lets it change, so the binding's value stays as it was
            values[kwarg.arg] = dict(values[kwarg.arg])
            resolver.owned[id(values[kwarg.arg])] = values[kwarg.arg]
        with script_argv(resolver.path):
            return scope[plan.factory.name](resolver.guard, define, **values, **instance, **parsed)
    except Unresolved:
        raise
    except Exception as e:
        raise Unresolved(f"{binding.call}: {type(e).__name__}: {e}") from e


@contextlib.contextmanager
def script_argv(path: str) -> Iterator[None]:
    """`sys.argv` as the script's own run without arguments has it (`[path]`), while the harvest evaluates its
    expressions (`int(sys.argv[1]) if len(sys.argv) > 1 else 3` under `__main__`): the worker's own
    command line is not the script's."""
    argv, sys.argv = sys.argv, [path]
    try:
        yield
    finally:
        sys.argv = argv


def _defined_as(decorators: list[ast.expr], qualname: str) -> list[ast.expr]:
    """The innermost decorator wrapped as `__wci_define__(qualname, decorator)`, at its own line."""
    if not decorators:
        return decorators
    inner = decorators[-1]
    call = ast.Call(ast.Name("__wci_define__", ast.Load()), [ast.Constant(qualname), inner], [])
    return [*decorators[:-1], ast.copy_location(call, inner)]


# Passes a factory's kept `while` loop may make (`while width < n: width *= 2`); one that has not ended by then
# stops the kernel with a reason. Loops that size a kernel end within tens of passes.
MAX_WHILE_PASSES = 10_000


class _Bounded(ast.NodeTransformer):
    """`while c: body` -> `for _ in range(MAX_WHILE_PASSES): if not c: break; body` with an `else` raising:
    a kept loop whose condition reads values the harvest chose may never end."""

    def visit_While(self, node: ast.While) -> ast.AST:
        self.generic_visit(node)
        stop = ast.If(ast.UnaryOp(ast.Not(), node.test), [ast.Break()], [])
        endless = ast.Raise(
            ast.Call(ast.Name("RuntimeError", ast.Load()), [ast.Constant("the loop ran MAX_WHILE_PASSES passes")], [])
        )
        bounded = ast.For(
            target=ast.Name("__wci_pass__", ast.Store()),
            iter=ast.Call(ast.Name("range", ast.Load()), [ast.Constant(MAX_WHILE_PASSES)], []),
            body=[stop, *node.body],
            orelse=[endless],
        )
        return ast.fix_missing_locations(ast.copy_location(bounded, node))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a nested body is not a kept statement's: Warp compiles a kernel's, the guard refuses others'


class _Guard(ast.NodeTransformer):
    """`f(a, k=b)` -> `__wci_call__(f, a, k=b)` wherever the statement runs it (not in nested bodies, which
    Warp compiles rather than Python running them).

    `lazy_annotations`: the script has `from __future__ import annotations`, so a def's annotations are
    strings Python never runs; Warp evaluates them itself, in the kernel's globals and closure, where
    `__wci_call__` is not (a factory's `a: wp.array(dtype=dtype)` failed with a NameError). They stay as
    written; defaults, which Python does run, are guarded."""

    def __init__(self, lazy_annotations: bool = False) -> None:
        self.lazy_annotations = lazy_annotations

    def _arguments(self, args: ast.arguments) -> ast.arguments:
        if not self.lazy_annotations:
            return self.visit(args)
        args.defaults = [self.visit(d) for d in args.defaults]
        args.kw_defaults = [None if d is None else self.visit(d) for d in args.kw_defaults]
        return args

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(
            ast.Call(ast.Name("__wci_call__", ast.Load()), [node.func, *node.args], node.keywords), node
        )

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self._arguments(node.args)
        if node.returns is not None and not self.lazy_annotations:
            node.returns = self.visit(node.returns)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.bases = [self.visit(b) for b in node.bases]
        node.body = [self.visit(s) if isinstance(s, ast.AnnAssign) else s for s in node.body]
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        # Its body's calls guarded too: a lambda an evaluation makes (`make_lut(lambda t: t * t, 5)`) may be
        # called where the guard allows the harvest's own lambdas (`Resolver.local_code`, `_lambda_codes`).
        self.generic_visit(node)
        return node


# The methods a test runner calls on a case before its tests, with the case's data attributes as theirs.
_FIXTURE_METHODS = ("setUp", "setUpClass", "asyncSetUp")
_HANDED = -1  # `_calls_of`: a call that hands the function on, with keywords for it
_MAPPED = -2  # `_calls_of`: a call that maps the function over iterables (`pool.map(run_case, CASES)`)
_STARMAPPED = -3  # `_calls_of`: a map over argument tuples (`itertools.starmap(run, JOBS)`)
_RUN_LATER = -4  # `_calls_of`: a call handing the function and its arguments on (`Thread(target=f, args=(...))`)
_INDIRECT = (_HANDED, _MAPPED, _STARMAPPED, _RUN_LATER)  # a `**cfg` of these calls is not the function's
# The names a map over a function goes by: the built-in `map`, and the method of `concurrent.futures`
# executors and `multiprocessing` pools (`executor.map(f, xs)`, `pool.imap_unordered(f, xs)`).
_MAP_NAMES = ("map", "imap", "imap_unordered")


def _maps(call: ast.Call, func: ast.FunctionDef) -> bool:
    """`map(func, xs)`, `executor.map(func, xs, ys)`, `pool.imap(func, xs)`: `func` by name, then its iterables."""
    first = call.args[0] if call.args else None
    return (
        called_name(call.func) in _MAP_NAMES
        and len(call.args) >= 2
        and isinstance(first, ast.Name)
        and first.id == func.name
    )


# The names of a map whose items are each a call's arguments: `itertools.starmap(f, JOBS)`, `pool.starmap(f,
# JOBS)`, `pool.starmap_async(f, JOBS)`.
_STARMAP_NAMES = ("starmap", "starmap_async")


def _starmaps(call: ast.Call, func: ast.FunctionDef) -> bool:
    """`starmap(func, JOBS)`: `func` by name, then one iterable of argument tuples."""
    first = call.args[0] if call.args else None
    return (
        called_name(call.func) in _STARMAP_NAMES
        and len(call.args) == 2
        and isinstance(first, ast.Name)
        and first.id == func.name
    )


def _runs_later(call: ast.Call, func: ast.FunctionDef) -> bool:
    """Whether `call` hands `func` and its arguments on for another thread, process or pool to call it with:
    `Thread(target=func, args=(...), kwargs={...})` (and `multiprocessing.Process`), `executor.submit(func, a,
    k=b)`, `pool.apply_async(func, (a,), {...})` / `pool.apply(...)`."""
    first = call.args[0] if call.args else None
    by_name = isinstance(first, ast.Name) and first.id == func.name
    target = next((k.value for k in call.keywords if k.arg == "target"), None)
    return (isinstance(target, ast.Name) and target.id == func.name) or (
        by_name and called_name(call.func) in ("submit", "apply", "apply_async")
    )


def _handed_arguments(call: ast.Call) -> tuple[list[ast.expr], list[ast.keyword]]:
    """The positional and keyword arguments of a `_runs_later` call, as a direct call would pass them."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    if "target" in keywords:
        args, kwargs = keywords.get("args"), keywords.get("kwargs")
    elif called_name(call.func) == "submit":
        return list(call.args[1:]), list(call.keywords)
    else:
        args = call.args[1] if len(call.args) > 1 else keywords.get("args")
        kwargs = call.args[2] if len(call.args) > 2 else keywords.get("kwds")
    if args is not None and not isinstance(args, (ast.Tuple, ast.List)):
        raise Unresolved(f"hands on the arguments {ast.unparse(args)[:40]}, not written out")
    if kwargs is None:
        named = []
    elif isinstance(kwargs, ast.Dict) and all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) for k in kwargs.keys
    ):
        named = [ast.keyword(k.value, v) for k, v in zip(kwargs.keys, kwargs.values, strict=True)]  # type: ignore[union-attr]
    else:
        raise Unresolved(f"hands on the keywords {ast.unparse(kwargs)[:40]}, not written out")
    return ([] if args is None else list(args.elts)), named


class _EachItem(ast.expr):
    """Where a mapped function's parameter comes from: each item of `iterable`, or (a starmap) the argument
    `index` of each item (see `Resolver.values`)."""

    _fields = ("iterable",)

    def __init__(self, iterable: ast.expr, index: int | None = None) -> None:
        super().__init__()
        self.iterable = iterable
        self.index = index
        ast.copy_location(self, iterable)


def _hands_on(call: ast.Call, func: ast.FunctionDef) -> bool:
    """`register(Test, "name", func, dtype=wp.float16)`, `functools.partial(func, dtype=...)`: the function
    passed by name to another call with keywords that name some of its parameters (Warp's tests register
    each test function so, with its types)."""
    passed = any(isinstance(a, ast.Name) and a.id == func.name for a in call.args)
    params = _arguments(func)
    return passed and any(k.arg in params for k in call.keywords)


class _FixtureRequest:
    """pytest's `request` given to a fixture with `params=[...]`, as far as a fixture's body reads it."""

    def __init__(self, param: Any) -> None:
        self.param = param

    def __repr__(self) -> str:
        return f"request(param={describe(self.param)})"


def _param_values(listed: ast.expr) -> ast.expr:
    """A parametrize list written out (`[pytest.param("f32", id="f32", marks=...), ...]`) with each
    `pytest.param(...)` replaced by the values it gives: one value, or the tuple of several. pytest hands a
    test those values; calling `param` to read them would be refused (it may act, as far as the harvest knows)."""
    if not isinstance(listed, (ast.List, ast.Tuple)):
        return listed
    elts = []
    for elt in listed.elts:
        if (
            isinstance(elt, ast.Call)
            and called_name(elt.func) == "param"
            and elt.args
            and not any(isinstance(a, ast.Starred) for a in elt.args)
        ):
            value = elt.args[0] if len(elt.args) == 1 else ast.Tuple(elts=list(elt.args), ctx=ast.Load())
            elt = ast.copy_location(value, elt)
        elts.append(elt)
    return ast.copy_location(type(listed)(elts=elts, ctx=ast.Load()), listed)


def _parametrize_arguments(decorator: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """(argnames, argvalues) of `@pytest.mark.parametrize(...)`, given by position or by keyword
    (`parametrize(argnames="power", argvalues=[2, 3], ids=[...])`)."""
    if not (isinstance(decorator, ast.Call) and _called_attribute(decorator.func) == "parametrize"):
        return None
    keywords = {k.arg: k.value for k in decorator.keywords if k.arg is not None}
    given = [
        *decorator.args[:2],
        *(keywords[k] for k in ("argnames", "argvalues")[len(decorator.args[:2]) :] if k in keywords),
    ]
    return (given[0], given[1]) if len(given) == 2 else None


# hypothesis strategies whose examples are a list written in the script: `sampled_from([0.5, 2.0])` draws each
# of them, `just(x)` only x, `booleans()` both (the harvest makes a kernel per value, as the test's examples do).
_LISTED_STRATEGIES = ("sampled_from", "just", "booleans")


def _drawn_from(decorator: ast.expr, func: ast.FunctionDef) -> dict[str, ast.expr] | None:
    """parameter -> a list expression of its examples for hypothesis's `@given(st.sampled_from([...]), k=st.just(
    2))`: positional strategies fill the test's last parameters, as `given` fills them; None when `decorator`
    is no `given`. A strategy of values the harvest cannot list (`floats()`: a run draws them) raises."""
    if not (isinstance(decorator, ast.Call) and called_name(decorator.func) == "given"):
        return None
    if not all(isinstance(a, ast.Call) for a in [*decorator.args, *(k.value for k in decorator.keywords)]):
        return None  # another library's `given` (pytest-bdd's takes a step's text), not hypothesis's
    params = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    if len(decorator.args) > len(params) or any(isinstance(a, ast.Starred) for a in decorator.args):
        raise Unresolved("given more strategies than parameters")
    strategies = dict(zip(params[len(params) - len(decorator.args) :], decorator.args, strict=True))
    strategies |= {k.arg: k.value for k in decorator.keywords if k.arg is not None}
    out: dict[str, ast.expr] = {}
    for name, strategy in strategies.items():
        kind = called_name(strategy.func) if isinstance(strategy, ast.Call) else None
        if kind not in _LISTED_STRATEGIES or strategy.keywords:  # type: ignore[union-attr]
            raise Unresolved(f"{name} is drawn from {ast.unparse(strategy)[:40]}, values only a run knows")
        args = strategy.args  # type: ignore[union-attr]
        if kind == "booleans":
            listed: ast.expr = ast.List(elts=[ast.Constant(False), ast.Constant(True)], ctx=ast.Load())
        elif kind == "just" and len(args) == 1:
            listed = ast.List(elts=[args[0]], ctx=ast.Load())
        elif kind == "sampled_from" and len(args) == 1:
            listed = args[0]
        else:
            raise Unresolved(f"{name} is drawn from {ast.unparse(strategy)[:40]}")
        out[name] = ast.copy_location(listed, strategy)
    return out


_NOT_COMPUTING = (
    ast.Global, ast.Nonlocal, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.AsyncFor, ast.Import, ast.ImportFrom,
    ast.Delete, ast.Yield, ast.YieldFrom, ast.Await, ast.ClassDef, ast.Lambda,
)  # fmt: skip


def _computes_only(func: ast.FunctionDef) -> bool:
    """Whether a function's body (nested definitions' bodies aside, which it only defines) holds none of
    `_NOT_COMPUTING` (a lambda's body is not guarded), no store into an attribute or an item, and no special
    attribute."""
    for node in _walk_body(func):
        if isinstance(node, _NOT_COMPUTING):
            return False
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            return False
    return not any(reads_special_attribute(d) for d in _walk_body(func) if isinstance(d, ast.expr))


def _sets_attributes_only(init: ast.FunctionDef) -> bool:
    """Whether an `__init__` only computes (`_computes_only`, but for stores) and sets attributes of `self`
    (`self.dt = dt`), reading `self` only by its attributes."""
    positional = [*init.args.posonlyargs, *init.args.args]
    if not positional or init.decorator_list:
        return False
    me = positional[0].arg
    parents = {id(child): node for node in ast.walk(init) for child in ast.iter_child_nodes(node)}
    for node in _walk_body(init):
        if isinstance(node, _NOT_COMPUTING) or (isinstance(node, ast.expr) and reads_special_attribute(node)):
            return False
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False  # a kernel `__init__` defines is made by the plans through it, under its own name
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            return False
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if not (isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) and node.value.id == me):
                return False
        if isinstance(node, ast.Name) and node.id == me:
            if not isinstance(node.ctx, ast.Load) or not isinstance(parents.get(id(node)), ast.Attribute):
                return False
        if isinstance(node, ast.Call) and syntax.root_name(node.func) == me:  # `self.reset()`: the script's method
            return False
    return True


def _blocks(node: ast.AST | None) -> list[list[ast.stmt]]:
    """The statement lists a node holds (`body`, `orelse`, `finalbody`, a handler's or a case's body)."""
    if node is None:
        return []
    out = [getattr(node, f) for f in ("body", "orelse", "finalbody") if isinstance(getattr(node, f, None), list)]
    return [b for b in out if b and isinstance(b[0], ast.stmt)]


def _edits(stmt: ast.stmt, name: str) -> bool:
    """Whether `stmt` is an in-place edit of `name` the harvest follows: an item or attribute store under it,
    or one of a dict's or a list's own editing methods called on it."""
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        # `cfg["gain"] = ...`, `sim.cfg.dt = ...` (a store under the name; `cfg = ...` rebinds it)
        under = [isinstance(t, (ast.Attribute, ast.Subscript)) and syntax.root_name(t) == name for t in targets]
        return bool(targets) and all(under) and stmt.value is not None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        return (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == name
            and func.attr in _EDITING_METHODS
        )
    return False


def _free_names_of_statement(stmt: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _containers(value: Any, depth: int = 0) -> Iterator[Any]:
    """`value` and the dicts in it (a copy `_edited` may change with their own methods)."""
    if depth > 4:
        return
    if type(value) is dict or type(value) in _CONFIG_TYPES:
        yield value
    items = value.values() if type(value) is dict else value if type(value) is list else ()
    if type(value) is types.SimpleNamespace:
        items = vars(value).values()
    for item in items:
        yield from _containers(item, depth + 1)


def _parameters_of(func: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*func.args.posonlyargs, *func.args.args)]


def _is_test_decorator(decorator: ast.expr) -> bool:
    """`@unittest.skipUnless(...)`, `@unittest.expectedFailure`, `@pytest.mark.slow`: decorators that leave a
    test method a method its runner calls on an instance."""
    text = ast.unparse(decorator.func if isinstance(decorator, ast.Call) else decorator)
    return text.split(".")[0] in ("unittest", "pytest", "skip", "skipIf", "skipUnless", "expectedFailure", "mark")


def _indirect_to(decorator: ast.Call, fixture: str) -> bool:
    """Whether a `parametrize(...)` call hands its values for `fixture` to the fixture (`indirect=True`, or
    `indirect=["fixture", ...]`) rather than to the test."""
    indirect = next((k.value for k in decorator.keywords if k.arg == "indirect"), None)
    if isinstance(indirect, ast.Constant):
        return indirect.value is True
    if isinstance(indirect, (ast.List, ast.Tuple)):
        return any(isinstance(e, ast.Constant) and e.value == fixture for e in indirect.elts)
    return False


def _fixture_params(decorator: ast.expr) -> ast.expr | None:
    """The `params=` of `@pytest.fixture(params=...)` / `@fixture(params=...)`."""
    if not isinstance(decorator, ast.Call):
        return None
    callee = decorator.func
    name = callee.attr if isinstance(callee, ast.Attribute) else callee.id if isinstance(callee, ast.Name) else None
    if name != "fixture":
        return None
    return next((k.value for k in decorator.keywords if k.arg == "params"), None)


def _is_fixture(func: ast.FunctionDef) -> bool:
    """Whether `func` is decorated `@pytest.fixture`, `@fixture`, or either called (`@pytest.fixture(scope=...)`)."""
    for decorator in func.decorator_list:
        callee = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (isinstance(callee, ast.Attribute) and callee.attr == "fixture") or (
            isinstance(callee, ast.Name) and callee.id == "fixture"
        ):
            return True
    return False


def _called_attribute(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else None


def _parametrized_names(node: ast.expr) -> list[str]:
    """`"n, dtype"` or `("n", "dtype")` -> ["n", "dtype"]."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [n.strip() for n in node.value.split(",") if n.strip()]
    if isinstance(node, (ast.Tuple, ast.List)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    raise Unresolved(f"parametrizes {ast.unparse(node)[:40]}")


# What a loop may also go over: a dict's views, and the finite iterators of the pure built-ins above
# (`enumerate(SIZES)`, `zip(A, B)`, `itertools.product(...)`), made from values already in hand.
_VIEWS = (type({}.items()), type({}.keys()), type({}.values()), enumerate, zip, *_PURE_FUNCTIONS)


def _named_tuple_method(func: Any) -> bool:
    """A `_make` / `_asdict` / `_replace` of a `collections.namedtuple` (or `typing.NamedTuple`) class or record:
    `collections`' own code, building or reading plain tuples."""
    owner = getattr(func, "__self__", None)
    cls = owner if isinstance(owner, type) else type(owner)
    code = getattr(getattr(func, "__func__", None), "__code__", None)
    return (
        isinstance(cls, type)
        and issubclass(cls, tuple)
        and hasattr(cls, "_fields")
        and getattr(func, "__name__", None) in ("_make", "_asdict", "_replace")
        and code is not None
        and code.co_filename == collections.__file__
    )


def _library_code(func: Any) -> bool:
    """Whether a function's code was generated (`<attrs generated methods ...>`) or is `attrs`' or pydantic's own."""
    code = getattr(inspect.unwrap(func), "__code__", None)
    if code is None:
        return False
    roots = [os.path.dirname(m.__file__) + os.sep for m in map(sys.modules.get, ("attr", "pydantic")) if m]
    return code.co_filename.startswith("<") or any(code.co_filename.startswith(r) for r in roots)


def _settings_class(cls: Any) -> bool:
    """An `attrs` class or a pydantic model whose methods are all generated by the library, without validators,
    converters, serializers or computed fields, and with plain defaults: making one, or reading its fields, runs
    none of the script's code."""
    if not isinstance(cls, type):
        return False
    attr, pydantic = sys.modules.get("attr"), sys.modules.get("pydantic")
    if attr is not None and attr.has(cls):
        base: type = object
        fields = list(attr.fields(cls))
        if any(f.validator is not None or f.converter is not None for f in fields):
            return False
        defaults = [f.default.factory if isinstance(f.default, attr.Factory) else f.default for f in fields]
        missing: Any = attr.NOTHING
    elif pydantic is not None and issubclass(cls, pydantic.BaseModel) and cls is not pydantic.BaseModel:
        base = pydantic.BaseModel
        kinds = ("validators", "field_validators", "root_validators", "model_validators")
        if any(getattr(cls.__pydantic_decorators__, k, None) for k in (*kinds, "field_serializers", "computed_fields")):
            return False
        defaults = [f.default_factory or f.default for f in cls.model_fields.values()]
        missing = _pydantic_undefined()
    else:
        return False
    for klass in cls.__mro__:
        if klass is base:
            break
        for member in vars(klass).values():
            if isinstance(member, (staticmethod, classmethod, property)) or (
                isinstance(member, types.FunctionType) and not _library_code(member)
            ):
                return False
    return all(d is missing or (isinstance(d, type) and d in _DEFAULT_FACTORIES) or _plain(d, 3) for d in defaults)


def _pydantic_undefined() -> Any:
    """pydantic's marker of a field without a default."""
    core = sys.modules.get("pydantic_core")
    return getattr(core, "PydanticUndefined", None)


def _settings_method(func: Any) -> bool:
    """`model_dump()` / `model_copy()` of such a pydantic model."""
    owner = getattr(func, "__self__", None)
    return _settings_class(type(owner)) and getattr(func, "__name__", None) in ("model_dump", "model_copy", "dict")


def _settings_functions() -> list[Any]:
    attr = sys.modules.get("attr")
    return [attr.evolve, attr.asdict, attr.astuple] if attr is not None else []


def _named_tuple_class(cls: Any) -> bool:
    """A `collections.namedtuple` / `typing.NamedTuple` class whose `__new__` is the one `collections` generated."""
    new = getattr(getattr(cls, "__new__", None), "__code__", None)
    return (
        isinstance(cls, type)
        and issubclass(cls, tuple)
        and hasattr(cls, "_fields")
        and new is not None
        and new.co_filename == "<string>"
        and str(getattr(cls.__new__, "__module__", "")).startswith("namedtuple_")
    )


def _click_name(decls: list[str]) -> str | None:
    """The parameter name click gives an option declared with `decls` (`"--time-step", "-t"` -> `time_step`): a
    declaration without dashes names it; else the first long name, else the first short one."""
    plain = [d for d in decls if d.isidentifier()]
    if plain:
        return plain[0]
    long = [d for d in decls if d.startswith("--")]
    chosen = long[0] if long else decls[0] if decls else None
    if chosen is None:
        return None
    return chosen.split("/")[0].lstrip("-").replace("-", "_").lower()


# Paths computed (`Path(__file__).with_name("settings.ini")`): strings, at most a look at the file system.
_PATH_METHODS = frozenset(
    {"with_name", "with_suffix", "with_stem", "joinpath", "absolute", "resolve", "as_posix", "exists", "is_file"}
)


def _path_question(func: Any, args: tuple, kwargs: dict[str, Any]) -> bool:
    """A `pathlib` path made or combined, or a function of `os.path`, of strings and paths."""
    given = [*args, *kwargs.values()]
    if not all(isinstance(a, (str, bytes, os.PathLike, bool)) for a in given):
        return False
    if isinstance(func, type) and issubclass(func, pathlib.PurePath):
        return not kwargs
    if isinstance(getattr(func, "__self__", None), pathlib.PurePath):
        return getattr(func, "__name__", "") in _PATH_METHODS
    return getattr(func, "__module__", None) in ("posixpath", "ntpath", "genericpath")


def _reads_path(func: Any) -> bool:
    return isinstance(getattr(func, "__self__", None), pathlib.Path) and func.__name__ in ("read_text", "read_bytes")


def _imported(*names: tuple[str, str]) -> list[Any]:
    """The functions `module.name` of those modules the script imported (`tomllib`, Python 3.11 on; PyYAML): a
    script that parses TOML or YAML has imported its parser."""
    found = []
    for module, name in names:
        loaded = sys.modules.get(module)
        if loaded is not None and hasattr(loaded, name):
            found.append(getattr(loaded, name))
    return found


def _parses_file(func: Any) -> bool:
    """`json.load`, `tomllib.load`, `yaml.safe_load` of an opened file."""
    parsers = [json.load, *_imported(("tomllib", "load"), ("yaml", "safe_load"))]
    return any(func is f for f in parsers)


def _parses_text(func: Any) -> bool:
    """`json.loads`, `tomllib.loads`, `yaml.safe_load`, `ast.literal_eval`, `shlex.split`: functions of their
    text alone (`yaml.load` with a loader may build the script's objects; only the safe loader here)."""
    parsers = [json.loads, ast.literal_eval, shlex.split, *_imported(("tomllib", "loads"), ("yaml", "safe_load"))]
    return any(func is f for f in parsers)


def _small_numpy_range(func: Any, args: tuple, kwargs: dict[str, Any]) -> bool:
    """`np.arange(2, 4)`, `np.linspace(0.0, 1.0, 3)` (`logspace`, `geomspace`) of plain numbers making at most
    `MAX_ITEMS` values: a sweep's values, computed (a larger one is an allocation the harvest does not make)."""
    np = sys.modules.get("numpy")
    if np is None or not any(func is f for f in (np.arange, np.linspace, np.logspace, np.geomspace)):
        return False
    if not all(isinstance(v, (int, float)) for v in (*args, *(v for k, v in kwargs.items() if k != "dtype"))):
        return False
    if func is np.arange:
        given = dict(zip(("start", "stop", "step"), args if len(args) > 1 else (0, *args), strict=False))
        start, stop, step = (kwargs.get(k, given.get(k, d)) for k, d in (("start", 0), ("stop", None), ("step", 1)))
        if stop is None or step == 0:
            return False
        size = math.ceil((stop - start) / step)
    else:
        size = args[2] if len(args) > 2 else kwargs.get("num", 50)
    return isinstance(size, int) and size <= MAX_ITEMS


def _items(iterable: Any) -> list[Any]:
    """The first `MAX_INSTANCES` items a loop over `iterable` takes (a set's in a fixed order, a numpy
    array's rows)."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(iterable, np.ndarray) and iterable.ndim >= 1:
        return list(iterable[:MAX_INSTANCES])
    if type(iterable) is enum.EnumMeta:
        # `for mode in Blend:` over an `Enum` class: its members, as `EnumMeta.__iter__` lists them (a class of a
        # metaclass the script wrote may run its own `__iter__`, left out)
        return list(itertools.islice(iterable, MAX_INSTANCES))
    if not isinstance(iterable, (list, tuple, range, dict, set, frozenset, *_VIEWS)):
        raise Unresolved(f"loops over a {type(iterable).__name__}")
    items = sorted(iterable, key=repr) if isinstance(iterable, (set, frozenset)) else iterable
    return list(itertools.islice(items, MAX_INSTANCES))


def _arguments(func: ast.FunctionDef) -> dict[str, ast.expr | None]:
    """parameter -> its default expression (None: no default), `*args`/`**kwargs` left out."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = {a.arg: d for a, d in zip(positional, defaults, strict=True)}
    out.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)})
    return out


def _defaults(func: ast.FunctionDef) -> list[ast.expr]:
    return [d for d in (*func.args.defaults, *func.args.kw_defaults) if d is not None]


def _binds_locally(func: ast.FunctionDef, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in _walk_body(func)
    ) or any(isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Import)) and getattr(n, "name", None) == name
             for n in _walk_body(func))  # fmt: skip


def _assigns(scope: ast.AST, name: str) -> bool:
    """Whether `scope`'s own body (not nested functions) binds `name` by an assignment."""
    return any(
        isinstance(n, (ast.Assign, ast.AnnAssign)) and any(name in target_names(t) for t in _targets_of(n))
        for n in _walk_body(scope)
    )


def _targets_of(stmt: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]


def _walk_body(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under `node` but those of nested function and class bodies."""
    for child in ast.iter_child_nodes(node):
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            yield from _walk_body(child)


def _method_calls(scope: ast.AST, names: set[str]) -> Iterator[tuple[ast.Call, str]]:
    """Each call `x.method(...)` in `scope`'s own body on a name `x` in `names`, with the method's name."""
    for node in _walk_body(scope):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in names
        ):
            yield node, node.func.attr


def _is_classmethod(func: ast.FunctionDef) -> bool:
    return any(called_name(d) == "classmethod" for d in func.decorator_list)


def _one_parameter_lambda(expr: ast.expr | None) -> bool:
    """`lambda s: ...`: one plain positional parameter, no default."""
    if not isinstance(expr, ast.Lambda):
        return False
    a = expr.args
    return len(a.args) == 1 and not (a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults)


def _is_constructor_self(func: ast.FunctionDef, name: str, owner: Any) -> bool:
    """Whether `name` is `self` of the `__init__` of a class (not a static or class method)."""
    positional = [*func.args.posonlyargs, *func.args.args]
    return (
        func.name == "__init__"
        and isinstance(owner, ast.ClassDef)
        and bool(positional)
        and positional[0].arg == name
        and not any(called_name(d) in ("staticmethod", "classmethod") for d in func.decorator_list)
    )


def _lambda_codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """The code of the lambdas in `code` (compiled from a `_Guard`ed tree, so their calls are guarded)."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == "<lambda>":
                yield const
            yield from _lambda_codes(const)


def _free_names(expr: ast.expr) -> set[str]:
    """Names `expr` reads from around it (comprehension and lambda variables left out)."""
    bound = {
        n.id
        for c in ast.walk(expr)
        if isinstance(c, ast.comprehension)
        for n in ast.walk(c.target)
        if isinstance(n, ast.Name)
    }
    bound |= {
        a.arg
        for lam in ast.walk(expr)
        if isinstance(lam, ast.Lambda)
        for a in ast.walk(lam.args)
        if isinstance(a, ast.arg)
    }
    return {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound


def _unpack(target: ast.AST, value: Any, name: str) -> Any:
    """The part of `value` that `name` gets when assigned to `target` (`a, (b, c) = value`)."""
    if isinstance(target, ast.Name):
        return value
    if isinstance(target, (ast.Tuple, ast.List)):
        if isinstance(value, (zip, enumerate, reversed, *_CONTAINER_ITERATORS)):
            # `los, his = zip(*BOUNDS)`: the unpacking takes the iterator's items (of values already in hand)
            value = tuple(itertools.islice(value, len(target.elts) + 1))
        if not isinstance(value, (tuple, list)) or len(value) != len(target.elts):
            raise Unresolved(f"cannot unpack {type(value).__name__} into {ast.unparse(target)}")
        for element, item in zip(target.elts, value, strict=True):
            if name in target_names(element):
                return _unpack(element, item, name)
    raise Unresolved(f"{name} is assigned through {ast.unparse(target)}")


# optparse's option types by name, as it converts a default given as a string.
_OPTPARSE_TYPES: dict[str, Any] = {"int": int, "long": int, "float": float, "complex": complex, "string": str}


_PARSER_CLASSES = {"ArgumentParser", "OptionParser"}
_GROUP_METHODS = {"add_argument_group", "add_mutually_exclusive_group", "add_option_group"}


def _parser_names(scope: ast.AST, parser: str) -> set[str]:
    """`parser` and the names of its groups in `scope` (`phys = parser.add_argument_group("physics")`,
    `mode = parser.add_mutually_exclusive_group()`, groups of groups): options added to a group are the
    parser's own."""
    names = {parser}
    assignments = [
        n
        for n in _walk_body(scope)
        if isinstance(n, ast.Assign)
        and len(n.targets) == 1
        and isinstance(n.targets[0], ast.Name)
        and isinstance(n.value, ast.Call)
        and isinstance(n.value.func, ast.Attribute)
        and n.value.func.attr in _GROUP_METHODS
        and isinstance(n.value.func.value, ast.Name)
    ]
    grown = True
    while grown:
        grown = False
        for n in assignments:
            if n.value.func.value.id in names and n.targets[0].id not in names:  # type: ignore[attr-defined]
                names.add(n.targets[0].id)  # type: ignore[attr-defined]
                grown = True
    return names


def _option_dest(flags: list[str], keywords: dict[str, ast.expr]) -> str | None:
    dest = keywords.get("dest")
    if isinstance(dest, ast.Constant) and isinstance(dest.value, str):
        return dest.value
    longs = [f for f in flags if f.startswith("--")]
    chosen = longs[0] if longs else (flags[0] if flags else None)
    return None if chosen is None else chosen.lstrip("-").replace("-", "_")


def _spread(lists: list[list[Any]], limit: int) -> Iterator[tuple[Any, ...]]:
    """Combinations of one value per list, the first values of each list first: all combinations of the
    first two values of each before any third value, and so on; at most `limit`."""
    if not lists:
        yield ()
        return
    count = 0
    for top in range(max(len(v) for v in lists)):
        for combo in itertools.product(*(range(min(len(v), top + 1)) for v in lists)):
            if max(combo) != top:
                continue
            yield tuple(v[i] for v, i in zip(lists, combo, strict=True))
            count += 1
            if count >= limit:
                return


def _spread_groups(groups: list[tuple[list[str], list[tuple[Any, ...]]]]) -> Iterator[dict[str, Any]]:
    """`_spread` over groups of names that take their values together: name -> value, per combination."""
    for combo in _spread([values for _, values in groups], MAX_INSTANCES):
        yield {n: v for (names, _), vs in zip(groups, combo, strict=True) for n, v in zip(names, vs, strict=True)}


_PLAIN_TYPES = (type(None), bool, int, float, complex, str, bytes, range, slice, type(Ellipsis))


def _plain(value: Any, depth: int = 0) -> bool:
    """Data, modules, classes and functions, Warp's and NumPy's objects: what evaluating with runs no method
    the script wrote (containers checked a few levels deep)."""
    if isinstance(value, _PLAIN_TYPES) or isinstance(value, (type, types.ModuleType, types.FunctionType)):
        return True
    if isinstance(value, (types.BuiltinFunctionType, _Parsed, pathlib.PurePath)):
        return True
    if type(value) in (types.SimpleNamespace, argparse.Namespace):
        return depth < 4 and all(_plain(v, depth + 1) for v in itertools.islice(vars(value).values(), 256))
    if isinstance(value, (tuple, list, set, frozenset)):
        return depth < 4 and all(_plain(v, depth + 1) for v in itertools.islice(value, 256))
    if isinstance(value, dict):
        return depth < 4 and all(
            _plain(k, depth + 1) and _plain(v, depth + 1) for k, v in itertools.islice(value.items(), 256)
        )
    if _generated_dataclass(type(value)):
        return depth < 4 and all(_plain(getattr(value, f.name, None), depth + 1) for f in dataclasses.fields(value))
    if not isinstance(value, type) and _settings_class(type(value)):
        attr = sys.modules.get("attr")
        names = (
            [f.name for f in attr.fields(type(value))] if attr and attr.has(type(value)) else type(value).model_fields
        )
        return depth < 4 and all(_plain(getattr(value, n, None), depth + 1) for n in names)
    module = type(value).__module__ or ""
    return module.split(".")[0] in ("warp", "numpy", "math", "builtins")


_DEFAULT_FACTORIES = (list, dict, set, tuple, frozenset)
_PROPERTIES = (property, functools.cached_property)
_PROPERTY_DECORATORS = (["property"], ["cached_property"])
# A `configparser` parser of the standard interpolations, made, filled from text or a dict, and read.
_CONFIG_TYPES = (configparser.ConfigParser, configparser.RawConfigParser)
_CONFIG_FILLING = ("read_string", "read_dict")
_CONFIG_READING = (
    "get", "getint", "getfloat", "getboolean", "sections", "has_section", "has_option", "options", "items", "keys",
    "values", "defaults",
)  # fmt: skip


def _config_parser(func: Any) -> bool:
    """`configparser.ConfigParser` (or `RawConfigParser`) itself: making one runs none of the script's code
    (its `interpolation=` and `converters=` are checked plain by the guard)."""
    return any(func is t for t in _CONFIG_TYPES)


def _reads_config(func: Any) -> bool:
    """A reading method of such a parser, or of one of its sections, with a standard interpolation."""
    if type(func) is functools.partial and set(func.keywords) == {"_impl"}:
        # a section's `getfloat`: `partial(section.get, _impl=parser.getfloat)`
        impl = func.keywords["_impl"]
        return _reads_config(func.func) and _reads_config(impl) and getattr(func.func, "__self__", None) is not None
    owner = getattr(func, "__self__", None)
    parser = owner.parser if type(owner) is configparser.SectionProxy else owner
    return (
        type(parser) in _CONFIG_TYPES
        and getattr(func, "__name__", "") in _CONFIG_READING
        and type(getattr(parser, "_interpolation", None))
        in (configparser.Interpolation, configparser.BasicInterpolation, configparser.ExtendedInterpolation)
    )


# The iterators `iter` makes over the built-in containers: `next` of one only reads the container.
_CONTAINER_ITERATORS = tuple(
    {type(iter(c)) for c in ((), [], {}, set(), frozenset(), "", b"", range(0))}
    | {type(iter({}.keys())), type(iter({}.values())), type(iter({}.items()))}
)
# Methods of the built-in containers and strings that only read (`CONFIGS.items()`, `"a,b".split(",")`).
_READING_METHODS = {
    "items", "keys", "values", "get", "count", "index", "copy", "join", "split", "rsplit", "strip", "lower",
    "upper", "replace", "startswith", "endswith", "format", "union", "intersection", "difference", "issubset",
    "partition", "rpartition", "lstrip", "rstrip", "splitlines", "removeprefix", "removesuffix", "isdigit",
}  # fmt: skip


# What a factory does with its own `**kwargs` dict besides reading it: take options out of it.
# The same for a copy of a local value `main()` edits in place (`Resolver._edited`): `cfg.update(bias=0.5)`.
_KWARGS_METHODS = ("pop", "setdefault", "popitem", "update")
# The editing calls `_edits` follows (a list's `append` may hold a factory's call, which is not run to edit)
_EDITING_METHODS = ("update", "setdefault", "read_string", "read_dict", "read")


def _reading_method(func: Any) -> bool:
    owner = getattr(func, "__self__", None)
    return (
        isinstance(func, types.BuiltinMethodType)
        and type(owner) in (dict, list, tuple, str, set, frozenset)
        and func.__name__ in _READING_METHODS
    )


def _generated_dataclass(cls: Any, seen: frozenset[int] = frozenset()) -> bool:
    """Whether `cls` is a dataclass whose methods are all the ones `@dataclass` generated (a script's
    `SimConfig(n=16)`): making one, comparing or reading its fields runs none of the script's code. One
    with a method the script wrote (`__post_init__`, a property) or a `default_factory` that may act is not."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        return False
    for klass in cls.__mro__[:-1]:
        if not dataclasses.is_dataclass(klass):
            return False
        for member in vars(klass).values():
            # a `@classmethod from_dict` or a `@staticmethod` runs only where it is called (each call guarded)
            if isinstance(member, property):
                return False
            if isinstance(member, (staticmethod, classmethod)):
                continue
            if isinstance(member, types.FunctionType) and inspect.unwrap(member).__code__.co_filename[:1] != "<":
                if inspect.unwrap(member).__code__.co_filename == dataclasses.__file__:
                    continue  # `slots=True, frozen=True` adds `dataclasses`' own `__getstate__` / `__setstate__`
                if not (member is vars(klass).get("__post_init__") and _derives_fields(member)):
                    return False  # written in a file, not generated
    for f in dataclasses.fields(cls):
        factory = f.default_factory
        if factory is not dataclasses.MISSING and factory not in _DEFAULT_FACTORIES:
            # `field(default_factory=SolverCfg)`: settings nested in settings make their default the same way
            if id(factory) in seen or not _generated_dataclass(factory, seen | {id(cls)}):
                return False
        if f.default is not dataclasses.MISSING and not _plain(f.default, 3):
            return False
    return True


_DERIVING_CALLS = frozenset({"float", "int", "bool", "abs", "min", "max", "round", "len", "sum", "tuple"})
_deriving: dict[types.CodeType, bool] = {}


def _derives_fields(post_init: types.FunctionType) -> bool:
    """Whether a dataclass's `__post_init__` only sets fields from others (`self.dt_sub = self.dt /
    self.substeps`): each statement `self.<field> = <expression>` whose calls are of pure built-ins by name or
    of `math`, reading `self`'s fields, `math` and plain module-level values. Running it runs nothing else."""
    code = post_init.__code__
    if code not in _deriving:
        _deriving[code] = False
        try:
            node = ast.parse(textwrap.dedent(inspect.getsource(post_init))).body[0]
        except (OSError, TypeError, SyntaxError, IndexError):
            return False
        if not isinstance(node, ast.FunctionDef) or not node.args.args:
            return False
        this = node.args.args[0].arg
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        names: set[str] = set()
        for stmt in body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
            if not (
                isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == this
            ):
                return False
            for n in ast.walk(stmt.value):  # type: ignore[union-attr]
                if isinstance(n, ast.Call) and not (
                    (isinstance(n.func, ast.Name) and n.func.id in _DERIVING_CALLS)
                    or (isinstance(n.func, ast.Attribute) and ast.unparse(n.func.value) == "math")
                ):
                    return False
                if isinstance(n, (ast.Lambda, ast.NamedExpr)) or reads_special_attribute(n):
                    return False
                if isinstance(n, ast.Name) and n.id != this:
                    names.add(n.id)
        scope = post_init.__globals__
        _deriving[code] = all(
            n in _DERIVING_CALLS or (n == "math" and scope.get(n) is math) or (n in scope and _plain(scope[n]))
            for n in names
        )
    return _deriving[code]


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _describe_call(qualname: str, values: dict[str, Any], line: int | None) -> str:
    args = ", ".join(f"{k}={describe(v)}" for k, v in values.items())
    where = f" (the call at line {line})" if line is not None else " (its defaults)"
    return f"{qualname}({args}){where}"


def describe(value: Any) -> str:
    """A value as a person reads it: names for types and functions, literals for the rest (short)."""
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return repr(value)
    name = getattr(value, "__name__", None) if (isinstance(value, type) or callable(value)) else None
    if name is None:
        name = getattr(value, "key", None) if not isinstance(value, (str, bytes)) else None
    text = name if isinstance(name, str) else repr(value)
    if " at 0x" in text:
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."
