"""Kernels a script's function makes from its own arguments and locals (a factory), made without running it.

    def make_axpy(dtype):
        @wp.kernel
        def axpy(x: wp.array(dtype=dtype), y: wp.array(dtype=dtype), a: dtype): ...
        return axpy

    for dtype in (wp.float32, wp.float64):
        kernel = make_axpy(dtype)        # in main(), a test, a method, under `if __name__ == "__main__":`

Loading a script runs only its top level, so such a kernel exists only for the calls the top level made. Its
code is a function of the values it captures, so the harvest makes it for the values the script's own calls
give, without running the function or the code around the call:

- `plans`: for each `@wp.kernel` written directly in a function's body that reads names the function binds,
  the statements of that body the kernel's definition needs (the assignments and `@wp.func`/`@wp.struct`
  definitions of the names it captures, and theirs in turn), and the function's parameters they read.
- `Resolver.bindings`: values for those parameters, read off the script's calls of the function: an argument
  that is a literal or an expression of module-level names, a loop variable over such a sequence, a local
  assigned such an expression, a parameter's default, an enclosing function's parameter given by its own
  callers, an `argparse` option's default (scripts load with no arguments); calls by name, through a name
  it was looked up under, or handing the function on with keywords for it (`add_function_test(..., dtype=d)`);
  and for a kernel defined in a `for` loop of the function, the loop's values. Nothing else is evaluated.
- `make`: a function of the factory's name with only those statements and the kernel's definition, compiled
  at the script's own line numbers (Warp reads the kernel's text from the file) and called with the values.

Every call these evaluations make, in an argument or in the statements kept, goes through a guard that
allows only what cannot act on the world: Python's pure built-ins, `math`, finite `itertools`, Warp's types,
type constructors and decorators, array types as annotations (`is_allowed` from the worker). Anything else (a
launch, an allocation, I/O, a call of another of the script's functions), a kept statement that changes an
object in place or reads a special attribute, and a module-level value of a class the script wrote (its
methods would run) stop that kernel, which keeps a reason.
"""

from __future__ import annotations

import ast
import builtins
import copy
import dataclasses
import inspect
import itertools
import math
import symtable
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from warp_cuda_ir.harvest.scripts import (
    child_table,
    compiled,
    definition_time_names,
    function_definitions,
    future_flags,
)

# Distinct argument values tried per kernel definition: the first of each loop's values first (see
# `_spread`). On Warp 1.19's examples a factory is called over at most 2 dtypes x 16 tile lengths.
MAX_INSTANCES = 8
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
    itertools.chain, itertools.zip_longest, itertools.islice,
)  # fmt: skip


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
MAX_ITEMS = 100_000


def _bounded(value: Any) -> Any:
    """`value`, or its first items as a tuple for an iterator; Unresolved past `MAX_ITEMS` items."""
    if isinstance(value, (str, bytes)):
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
class Plan:
    kernel: ast.FunctionDef  # the kernel's definition, decorators included
    qualname: str  # the `__qualname__` the factory's call gives it
    first_line: int  # of its decorator: the line Python and Warp know the kernel by
    factory: ast.FunctionDef
    factory_qualname: str
    statements: tuple[ast.stmt, ...]  # of the factory's body, in order, that the kernel's definition needs
    params: tuple[str, ...]  # the factory's parameters they (or the definition) read, in signature order
    problem: str | None = None  # why the kernel cannot be made, whatever the values
    # `for` loops around the definition whose variables it reads: the statements hold `<target> =
    # __wci_loop_<i>__` where the loop `i` of this tuple binds them
    loops: tuple[ast.For, ...] = ()
    # A method's `self` when the kept statements read its attributes (`self.n = n`, then `h = self.n // 2`):
    # they run on a fresh empty object of the harvest's, never on an instance of the script's class
    instance: str | None = None
    # The qualified name of the function that defines the kernel and the statements' definitions, where it
    # is not the factory's: a method `__init__` calls (`self.kernel = self._make_kernel()`)
    defined_in: str | None = None


@dataclass(frozen=True)
class Binding:
    values: dict[str, Any]  # parameter -> value
    call: str  # how the harvest called the factory, for the row's provenance


def plans(tree: ast.Module, text: str, path: str, is_kernel_decorator: Callable[[ast.expr], bool]) -> list[Plan]:
    """A plan per `@wp.kernel` defined in a function that captures names the function binds (those that
    capture nothing are `scripts.inner_kernels`'), in source order; `problem` set where no values can help."""
    out: list[Plan] = []
    definitions = function_definitions(tree, text, path)
    tables = {id(d.node): d.table for d in definitions}
    methods: dict[int, list[tuple[ast.FunctionDef, symtable.SymbolTable]]] = {}  # id(method) -> its class's
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef):
            found = [(f, tables[id(f)]) for f in cls.body if isinstance(f, ast.FunctionDef) and id(f) in tables]
            for f, _ in found:
                methods[id(f)] = found
    for d in definitions:
        if not d.functions:
            continue
        factory = d.functions[-1]
        directly = d.scope == [*factory[2], factory[0].name, "<locals>"]  # no class in between
        if (
            directly
            and isinstance(d.node, ast.FunctionDef)
            and d.node.decorator_list
            and is_kernel_decorator(d.node.decorator_list[-1])
        ):
            captured = _captured(d.node, d.table, factory[1])
            if captured:
                out.append(_plan(d.node, d.scope, factory, captured, methods.get(id(factory[0]), [])))
    return out


def _captured(kernel: ast.FunctionDef, table: symtable.SymbolTable, factory: symtable.SymbolTable) -> set[str]:
    """Names the kernel's definition reads that the enclosing function binds (body and definition time), and
    those its body reads from a function further out (which `_plan` refuses)."""
    names = set(table.get_frees()) | definition_time_names(kernel)
    return {n for n in names if _is_bound(factory, n)} | {n for n in table.get_frees() if not _is_bound(factory, n)}


def _is_bound(table: symtable.SymbolTable, name: str) -> bool:
    try:
        symbol = table.lookup(name)
    except KeyError:
        return False
    return symbol.is_local() or symbol.is_parameter()


def _plan(
    kernel: ast.FunctionDef,
    scope: list[str],
    factory: Any,
    captured: set[str],
    methods: list[tuple[ast.FunctionDef, symtable.SymbolTable]],
) -> Plan:
    """`methods`: the methods of the factory's class, when it is a method (with their symbol tables)."""
    node, table, outer = factory
    qualname = ".".join([*outer, node.name, "<locals>", kernel.name])
    factory_qualname = ".".join([*outer, node.name])
    first = min([kernel.lineno, *(d.lineno for d in kernel.decorator_list)])
    base = Plan(kernel, qualname, first, node, factory_qualname, (), ())
    params = _parameters(node)
    instance = _instance_name(node, outer, params)
    outside = sorted(n for n in captured if not _is_bound(table, n))
    if outside:  # captured from a function around the factory
        return _with_problem(base, f"captures {', '.join(outside)} from a function around {node.name}")
    preceding = _preceding(node.body, kernel)
    if preceding is None:
        return _with_problem(base, f"defined inside a `while` or a loop's `else` of {node.name}")
    walked = _walk(preceding, set(captured), table, instance, node.name)
    if isinstance(walked, str):
        return _with_problem(base, walked)
    kept, loops, needed = walked
    unset = sorted(n for n in needed if "." in n)
    if unset and instance is not None and not (needed - set(unset)) - {instance}:
        # `self.kernel = self._make_kernel()` in `__init__`: the attributes come from the method that calls it
        caller = _through_caller(base, node, instance, set(unset), methods, outer)
        if caller is not None:
            return caller if caller.problem else _with_body(caller, kept, loops, factory_qualname)
    return _planned(base, node, kept, loops, needed, instance, "before the kernel")


def _planned(
    plan: Plan,
    func: ast.FunctionDef,
    kept: list[ast.stmt],
    loops: list[ast.For],
    needed: set[str],
    instance: str | None,
    where: str,
) -> Plan:
    """`plan` with the statements `kept` (last first) and the parameters of `func` they read, or with why
    the names they still need are not such parameters."""
    unset = sorted(n for n in needed if "." in n)
    if unset:
        return _with_problem(plan, f"{unset[0]} is not set in {func.name} {where}")
    problem = _parameters_problem(func, needed, instance)
    if problem:
        return _with_problem(plan, problem)
    sets_instance = instance is not None and any(_attributes_set(stmt, instance) for stmt in kept)
    return dataclasses.replace(
        plan,
        statements=tuple(reversed(kept)),
        params=tuple(p for p in _parameters(func) if p in needed),
        loops=tuple(loops),
        instance=instance if sets_instance else None,
    )


def _parameters(func: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)]


def _parameters_problem(func: ast.FunctionDef, needed: set[str], instance: str | None) -> str | None:
    """Why the names a plan still needs are not all parameters of `func` it can be given, or None."""
    if instance is not None and instance in needed:
        return f"reads {instance} itself, not only its attributes"
    missing = sorted(needed - set(_parameters(func)))
    if missing:
        return f"{missing[0]} is bound in {func.name} after the kernel or in a block"
    if func.args.vararg is not None and func.args.vararg.arg in needed:
        return f"reads *{func.args.vararg.arg}"
    if func.args.kwarg is not None and func.args.kwarg.arg in needed:
        return f"reads **{func.args.kwarg.arg}"
    return None


def _walk(
    preceding: list[Any], needed: set[str], table: symtable.SymbolTable, instance: str | None, where: str
) -> tuple[list[ast.stmt], list[ast.For], set[str]] | str:
    """(statements kept, last first; loops whose variables are read; names still needed) going back from
    a kernel's definition (or a call) over the statements run before it, or why it cannot be planned."""
    kept: list[ast.stmt] = []
    loops: list[ast.For] = []
    for stmt in reversed(preceding):
        if isinstance(stmt, _Loop):  # the variables of a loop around the definition: one value per instance
            names = _target_names(stmt.loop.target)
            if names & needed:
                variable = ast.Name(f"__wci_loop_{len(loops)}__", ast.Load())
                kept.append(ast.copy_location(ast.Assign([copy.deepcopy(stmt.loop.target)], variable), stmt.loop))
                loops.append(stmt.loop)
                needed -= names
            continue
        bound = _bound_by(stmt)
        if bound is None:  # a compound statement: the names it binds depend on its run
            assigned = _assigned_anywhere(stmt)
            if instance is not None:
                assigned |= {a for n in ast.walk(stmt) if isinstance(n, ast.stmt) for a in _attributes_set(n, instance)}
            hit = sorted(assigned & needed)
            if hit:
                return f"{hit[0]} is bound inside a block of {where}"
            continue
        mutated = _mutated_by(stmt, instance)
        if instance is not None and instance in mutated and any(n.startswith(f"{instance}.") for n in needed):
            # `self.setup()`, `setattr(self, ...)`: any attribute may change
            return f"{instance} is changed in place: {ast.unparse(stmt)[:80]}"
        if mutated & needed:
            # `x.attr = v`, `x[k] = v`, `x.append(v)`: it may reach anything (`f.__globals__[...] = ...` does
            # in Warp's tests), so the harvest does not run it, and the kernel's values are not known.
            return f"{sorted(mutated & needed)[0]} is changed in place: {ast.unparse(stmt)[:80]}"
        if instance is not None:
            bound |= _attributes_set(stmt, instance)
        if not bound & needed:
            continue
        if _dunder(stmt):
            return f"reads a special attribute: {ast.unparse(stmt)[:80]}"
        kept.append(stmt)
        if not isinstance(stmt, ast.AugAssign):
            needed -= bound
        if isinstance(stmt, ast.Assign) and _parser_of(stmt.value) is not None:
            continue  # `args = parser.parse_args()`: the options' defaults, read from the text (see `make`)
        needed |= {n for n in _reads(stmt, table, instance) if _is_bound(table, n) or "." in n}
    return kept, loops, needed


def _through_caller(
    base: Plan,
    method: ast.FunctionDef,
    instance: str,
    attributes: set[str],
    methods: list[tuple[ast.FunctionDef, symtable.SymbolTable]],
    outer: list[str],
) -> Plan | None:
    """A plan whose factory is the method of the same class that calls `method` on its instance (`__init__`
    first), keeping that caller's statements before the call that set `attributes`; None when no method
    calls it so."""
    ordered = sorted(methods, key=lambda m: m[0].name != "__init__")
    for caller, table in ordered:
        params = _parameters(caller)
        if caller is method or not params or params[0] != instance or caller.decorator_list:
            continue
        call = next(
            (
                stmt
                for stmt in caller.body
                if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Expr))  # not in a block: run once, in order
                and any(
                    isinstance(n, ast.Call) and _is_instance_attribute(n.func, instance) and n.func.attr == method.name  # type: ignore[attr-defined]
                    for n in ast.walk(stmt)
                )
            ),
            None,
        )
        if call is None:
            continue
        caller_qualname = ".".join([*outer, caller.name])
        on_call = Plan(base.kernel, base.qualname, base.first_line, caller, caller_qualname, (), (), None, (), instance)
        walked = _walk(caller.body[: caller.body.index(call)], set(attributes), table, instance, caller.name)
        if isinstance(walked, str):
            return _with_problem(on_call, walked)
        kept, _, needed = walked  # no loops: the statements before the call are those of the method's body
        return _planned(on_call, caller, kept, [], needed, instance, f"before it calls {method.name}")
    return None


def _with_body(caller: Plan, kept: list[ast.stmt], loops: list[ast.For], defined_in: str) -> Plan:
    """`caller`'s plan followed by the statements the kernel's own method keeps (`kept`, last first)."""
    return dataclasses.replace(
        caller, statements=(*caller.statements, *reversed(kept)), loops=tuple(loops), defined_in=defined_in
    )


def _instance_name(func: ast.FunctionDef, scope: list[str], params: list[str]) -> str | None:
    """The name of a method's instance (its first parameter) when `func` is written in a class body."""
    in_class = bool(scope) and scope[-1] != "<locals>"
    plain = not any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in func.decorator_list)
    return params[0] if in_class and plain and params else None


def _attributes_set(stmt: ast.stmt, instance: str) -> set[str]:
    """`self.n` for each `self.n = ...` target of an assignment (as dotted names)."""
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return set()
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    out = set()
    for t in targets:
        for node in [t, *(t.elts if isinstance(t, (ast.Tuple, ast.List)) else [])]:
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == instance:
                out.add(f"{instance}.{node.attr}")
    return out


@dataclass(frozen=True)
class _Loop:
    """In `_preceding`'s list: here the loop `loop` binds its variables."""

    loop: ast.For


def _preceding(body: list[ast.stmt], kernel: ast.FunctionDef) -> list[Any] | None:
    """The statements run before `kernel`'s definition on the way to it: those before it in its block, and
    before each block around it (`with self.assertRaises(...):`, a branch, a `try`, a `for` loop, which
    appears as a `_Loop` where it binds its variables), outermost first. None when a `while` loop or a loop's
    `else` is on the way, or `kernel` is not under `body`."""
    for i, stmt in enumerate(body):
        if stmt is kernel:
            return body[:i]
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if not any(n is kernel for n in ast.walk(stmt)):
            continue
        if isinstance(stmt, ast.For) and any(n is kernel for s in stmt.body for n in ast.walk(s)):
            inner = _preceding(stmt.body, kernel)
            return None if inner is None else [*body[:i], _Loop(stmt), *inner]
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            return None
        blocks: list[list[ast.stmt]] = []
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            blocks = [stmt.body]
        elif isinstance(stmt, ast.If):
            blocks = [stmt.body, stmt.orelse]
        elif isinstance(stmt, ast.Try):
            blocks = [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
        for block in blocks:
            inner = _preceding(block, kernel)
            if inner is not None:
                return body[:i] + inner
        return None
    return None


def _with_problem(plan: Plan, problem: str) -> Plan:
    return Plan(plan.kernel, plan.qualname, plan.first_line, plan.factory, plan.factory_qualname, (), (), problem, ())


def _bound_by(stmt: ast.stmt) -> set[str] | None:
    """Names a simple statement binds, or None for a compound one (or one that binds by side effect)."""
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        return {n for t in targets for n in _target_names(t)}
    if isinstance(stmt, (ast.Expr, ast.Pass, ast.Assert)):
        return set()
    return None


def _dunder(node: ast.AST) -> bool:
    """Whether code reads a special attribute (`f.__globals__`): the way out of what the guard sees."""
    return any(isinstance(n, ast.Attribute) and n.attr.startswith("__") for n in ast.walk(node))


def _mutated_by(stmt: ast.stmt, instance: str | None = None) -> set[str]:
    """Names whose object a simple statement changes: `x.a = v`, `x[i] += v`, `x.append(v)`.

    With a method's `instance` (`self`), setting its attribute `self.a = v` binds `self.a` (see
    `_attributes_set`) and changes nothing here; `self.a[i] = v` and `self.a.append(v)` change `self.a`,
    and a call of its method (or of `super()`'s) anywhere in the statement, `self.setup()`, changes `self`
    (any attribute)."""
    if instance is not None and any(
        isinstance(n, ast.Call) and (_is_instance_attribute(n.func, instance) or _is_super_call(n.func))
        for n in ast.walk(stmt)
    ):
        return {instance}
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        targets = [stmt.value.func]
    else:
        return set()
    out = set()
    for t in targets:
        for node in ast.walk(t):
            if not isinstance(node, (ast.Attribute, ast.Subscript)):
                continue
            if instance is not None and _is_instance_attribute(node, instance):
                if node is not t and not (isinstance(t, (ast.Tuple, ast.List)) and node in t.elts):
                    out.add(f"{instance}.{node.attr}")  # type: ignore[attr-defined]
                continue
            root = node.value
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                if instance is not None and _is_instance_attribute(root, instance):
                    break
                root = root.value
            if isinstance(root, ast.Name):
                out.add(root.id)
            elif instance is not None and _is_instance_attribute(root, instance):
                out.add(f"{instance}.{root.attr}")  # type: ignore[attr-defined]
    return out


def _is_super_call(func: ast.expr) -> bool:
    """`super().__init__` (any method of `super()`): it may set any attribute of the instance."""
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    )


def _is_instance_attribute(node: ast.AST, instance: str) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == instance


def _assigned_anywhere(stmt: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} | {
        n.name for n in ast.walk(stmt) if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n is not stmt
    }


def _reads(stmt: ast.stmt, table: symtable.SymbolTable, instance: str | None = None) -> set[str]:
    """Names a kept statement reads: a nested definition's definition-time names and its closure. With a
    method's `instance`, `self.n` read as a value is the dotted name `self.n` (a bare `self` stays `self`)."""
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        inner = child_table(table, stmt)
        frees = set(_all_frees(inner)) if inner is not None else set()
        if isinstance(stmt, ast.FunctionDef):
            return definition_time_names(stmt) | frees
        outside = [*stmt.decorator_list, *stmt.bases, *(k.value for k in stmt.keywords)]
        return {n.id for e in outside for n in ast.walk(e) if isinstance(n, ast.Name)} | frees
    if instance is None:
        return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    out: set[str] = set()
    through: set[int] = set()  # the `self` of each `self.n` read
    for node in ast.walk(stmt):
        if _is_instance_attribute(node, instance) and isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
            out.add(f"{instance}.{node.attr}")  # type: ignore[attr-defined]
            through.add(id(node.value))  # type: ignore[attr-defined]
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            through.add(id(node.value))  # `self.n = ...` sets, it does not read
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in through:
            out.add(node.id)
    if isinstance(stmt, ast.AugAssign):
        out |= _attributes_set(stmt, instance)  # `self.n += 1` reads it too
    return out


def _all_frees(table: symtable.SymbolTable) -> Iterator[str]:
    for symbol in table.get_symbols():
        if symbol.is_free():
            yield symbol.get_name()
    for child in table.get_children():
        yield from _all_frees(child)


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
        rows_per_decorator: list[list[dict[str, Any]]] = []
        line = None
        for decorator in plan.factory.decorator_list:
            if not (
                isinstance(decorator, ast.Call)
                and _called_attribute(decorator.func) == "parametrize"
                and len(decorator.args) >= 2
            ):
                continue
            names = _parametrized_names(decorator.args[0])
            line = line or decorator.lineno
            rows = []
            for listed in self.values(decorator.args[1], plan.factory, 0):
                for item in _items(listed):
                    if len(names) == 1:
                        rows.append({names[0]: item})
                    elif isinstance(item, (tuple, list)) and len(item) == len(names):
                        rows.append(dict(zip(names, item, strict=True)))
                    else:
                        raise Unresolved(f"{describe(item)} does not give {', '.join(names)}")
            rows_per_decorator.append(rows)
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

    def _calls_of(self, func: ast.FunctionDef) -> Iterator[tuple[ast.Call, int]]:
        """Calls of `func` in the script, with how many of its parameters the call does not pass (`self`):
        by its name, or (a top-level function) through a local name it was looked up under
        (`create = CREATORS[ndim]`)."""
        owner = self.parent.get(id(func))
        for node in self.calls:
            if isinstance(owner, ast.Module) and _hands_on(node, func):
                yield node, _HANDED
            elif isinstance(owner, ast.Module) and isinstance(node.func, ast.Name):
                if node.func.id == func.name or self._calls_through(node, func):
                    yield node, 0
            elif isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) and isinstance(node.func, ast.Name):
                # A factory inside a function (a test's `make`): called by name in that function's body.
                if node.func.id == func.name and self._enclosing(node, _FUNCTIONS) is owner:
                    yield node, 0
            elif isinstance(owner, ast.ClassDef) and self.parent.get(id(owner)) is self.tree:
                static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in func.decorator_list)
                shift = 0 if static else 1
                if func.name == "__init__" and isinstance(node.func, ast.Name) and node.func.id == owner.name:
                    yield node, 1
                elif isinstance(node.func, ast.Attribute) and node.func.attr == func.name and func.name != "__init__":
                    yield node, shift

    def _call_bindings(self, plan: Plan, call: ast.Call, shift: int) -> list[Binding]:
        unpacked = [k.value for k in call.keywords if k.arg is None] if shift != _HANDED else []
        if len(unpacked) > 1:
            raise Unresolved("passes **kwargs twice")
        # `make(**cfg)`: each dict `cfg` may be (`for cfg in CONFIGS.values()`) gives the parameters it names
        mappings: list[dict[str, Any]] = [{}]
        if unpacked:
            mappings = self.values(unpacked[0], call, 0)
            if not all(isinstance(m, dict) and all(isinstance(k, str) for k in m) for m in mappings):
                raise Unresolved(f"passes **{ast.unparse(unpacked[0])[:40]}, not a dict of names")
        exprs = self._argument_exprs(plan.factory, call, shift)
        out: list[Binding] = []
        for mapping in mappings:
            lists = []
            for p in plan.params:
                if p in mapping:
                    lists.append([mapping[p]])
                    continue
                if p not in exprs:
                    raise Unresolved(f"does not pass {p}")
                expr, where = exprs[p]
                lists.append(self.values(expr, where, 0))
            for combo in _spread(lists, MAX_INSTANCES):
                values = dict(zip(plan.params, combo, strict=True))
                out.append(Binding(values, _describe_call(plan.factory_qualname, values, call.lineno)))
        return out[:MAX_INSTANCES]

    def _argument_exprs(self, func: ast.FunctionDef, call: ast.Call, shift: int) -> dict[str, tuple[ast.expr, ast.AST]]:
        """parameter -> (expression, where it is evaluated): the call's argument, else the default. `shift`
        `_HANDED`: `call` hands the function on with keywords for it (only those that name its parameters)."""
        out: dict[str, tuple[ast.expr, ast.AST]] = {}
        if shift == _HANDED:
            out = {name: (d, func) for name, d in _arguments(func).items() if d is not None}
            return out | {k.arg: (k.value, call) for k in call.keywords if k.arg in _arguments(func)}
        if any(isinstance(a, ast.Starred) for a in call.args):
            raise Unresolved("passes *args")
        positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)][shift:]
        if len(call.args) > len(positional):
            raise Unresolved("more arguments than parameters")
        for name, default in _arguments(func).items():
            if default is not None:
                out[name] = (default, func)
        for name, arg in zip(positional, call.args, strict=False):
            out[name] = (arg, call)
        for k in call.keywords:
            if k.arg is not None:  # `**cfg`: see `_call_bindings`
                out[k.arg] = (k.value, call)
        return out

    # --- values of an expression -----------------------------------------------------------------

    def values(self, expr: ast.expr, at: ast.AST, depth: int) -> list[Any]:
        """The values `expr` may have where `at` is (several when it reads a loop variable)."""
        if depth > MAX_DEPTH:
            raise Unresolved("its values come from too far")
        if isinstance(at, ast.FunctionDef) and expr in _defaults(at):
            at = self.parent.get(id(at), self.tree)  # a default is evaluated where the def statement runs
        if _dunder(expr):
            raise Unresolved(f"reads a special attribute: {ast.unparse(expr)[:80]}")
        parsed = self._parsed_arguments(expr, at, depth)
        if parsed is not None:
            return [parsed]
        names = sorted(_free_names(expr))
        lists = [self._name_values(n, at, depth) for n in names]
        out: list[Any] = []
        for combo in _spread(lists, MAX_INSTANCES):
            value = self._evaluate(expr, dict(zip(names, combo, strict=True)))
            if not any(_same(value, v) for v in out):
                out.append(value)
        return out

    def _first(self, expr: ast.expr, at: ast.AST, depth: int) -> Any:
        return self.values(expr, at, depth)[0]

    def _evaluate(self, expr: ast.expr, bound: dict[str, Any]) -> Any:
        guarded = _Guard().visit(copy.deepcopy(ast.Expression(expr)))
        ast.fix_missing_locations(guarded)
        scope = {**self.namespace, **bound, "__wci_call__": self.guard}
        try:
            return eval(compiled(guarded, self.path, "eval", self.flags), scope)
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
        pure = pure or _generated_dataclass(func) or _reading_method(func)
        if func is getattr or func is hasattr:  # `getattr(dtype, "_wp_scalar_type_", dtype)`: data and types only
            pure = bool(args) and _plain(args[0]) and not str(args[1:2] and args[1]).startswith("__")
        if not (pure or self.is_allowed(func, args, kwargs)):
            raise Unresolved(f"calls {getattr(func, '__qualname__', None) or type(func).__name__}, which may act")
        # A script's `list(range(10**9))` in `main()` is its run's business: the harvest's worker shares the
        # machine's memory, so a built-in is not handed more than `MAX_ITEMS` items.
        args = tuple(_bounded(a) for a in args)
        return func(*args, **kwargs)

    def _name_values(self, name: str, at: ast.AST, depth: int) -> list[Any]:
        if isinstance(at, ast.ClassDef):  # a method's default, `def __init__(self, width=WIDTH)`: the class body's
            assigned = [
                s
                for s in at.body
                if isinstance(s, (ast.Assign, ast.AnnAssign))
                and any(name in _target_names(t) for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))
            ]
            if assigned:
                return self._assigned_values(name, assigned[-1], depth)
        function = self._enclosing(at, _FUNCTIONS)
        for loop in self._loops(at, function):
            if name in _target_names(loop.target):
                iterables = self.values(loop.iter, loop, depth)
                return [_unpack(loop.target, item, name) for it in iterables for item in _items(it)]
        assignment = self._last_assignment(name, at, function)
        if assignment is not None:
            return self._assigned_values(name, assignment, depth)
        if isinstance(function, ast.FunctionDef):
            args = _arguments(function)
            if name in args:
                return self._parameter_values(function, name, args[name], depth)
            if _binds_locally(function, name):
                raise Unresolved(f"{name} is bound in {function.name} other than by an assignment")
        if name in self.namespace:
            return [self.plain(name, self.namespace[name])]
        if hasattr(builtins, name):
            return [getattr(builtins, name)]
        raise Unresolved(f"{name} has no value the harvest can read")

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
        if not out and default is not None:
            out = self.values(default, func, depth)
        if not out:
            raise Unresolved(why)
        return out[:MAX_INSTANCES]

    def _assigned_values(self, name: str, stmt: ast.stmt, depth: int) -> list[Any]:
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
        parser = _parser_of(value)
        if parser is None:
            return None
        function = self._enclosing(at, (ast.FunctionDef, ast.AsyncFunctionDef))
        options: dict[str, Any] = {}
        for node in _walk_body(function or self.tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == parser
            ):
                continue
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
                    default = {"store_true": False, "store_false": True}.get(action)
                if isinstance(default, str) and "type" in keywords:
                    convert = self._first(keywords["type"], node, depth)
                    default = self.guard(convert, default)
            except Unresolved:
                continue
            options[dest] = default
        return _Parsed(options)

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

    def _last_assignment(self, name: str, at: ast.AST, function: Any) -> ast.stmt | None:
        line = getattr(at, "lineno", 0)
        found = None
        for node in _walk_body(function or self.tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.lineno < line:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(name in _target_names(t) for t in targets) and (found is None or node.lineno > found.lineno):
                    found = node
        if found is not None and function is None and name in self.namespace and self._runs_at_load(found):
            return None  # the script's load ran it: its value is in the namespace
        return found

    def _runs_at_load(self, stmt: ast.stmt) -> bool:
        return any(stmt is s for s in self.tree.body)


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
    body: list[ast.stmt] = []
    parsed: dict[str, Any] = {}  # `args = parser.parse_args()` runs as `args = <its options' defaults>`
    for stmt in [*plan.statements, plan.kernel]:
        if isinstance(stmt, ast.Assign) and _parser_of(stmt.value) is not None:
            name = f"__wci_parsed_{len(parsed)}__"
            parsed[name] = resolver._parsed_arguments(stmt.value, stmt, 0)
            body.append(ast.copy_location(ast.Assign(stmt.targets, ast.Name(name, ast.Load())), stmt))
            continue
        node = _Guard().visit(copy.deepcopy(stmt))
        if stmt in definitions or stmt is plan.kernel:
            qualname = f"{plan.defined_in or plan.factory_qualname}.<locals>.{stmt.name}"
            node.decorator_list = _defined_as(node.decorator_list, qualname)
        body.append(node)
    body.append(ast.Return(ast.Name(plan.kernel.name, ast.Load())))
    params = ["__wci_call__", "__wci_define__", *plan.params, *(f"__wci_loop_{i}__" for i in range(len(plan.loops)))]
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
        return scope[plan.factory.name](resolver.guard, define, **binding.values, **instance, **parsed)
    except Unresolved:
        raise
    except Exception as e:
        raise Unresolved(f"{binding.call}: {type(e).__name__}: {e}") from e


def _defined_as(decorators: list[ast.expr], qualname: str) -> list[ast.expr]:
    """The innermost decorator wrapped as `__wci_define__(qualname, decorator)`, at its own line."""
    if not decorators:
        return decorators
    inner = decorators[-1]
    call = ast.Call(ast.Name("__wci_define__", ast.Load()), [ast.Constant(qualname), inner], [])
    return [*decorators[:-1], ast.copy_location(call, inner)]


class _Guard(ast.NodeTransformer):
    """`f(a, k=b)` -> `__wci_call__(f, a, k=b)` wherever the statement runs it (not in nested bodies, which
    Warp compiles rather than Python running them)."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(
            ast.Call(ast.Name("__wci_call__", ast.Load()), [node.func, *node.args], node.keywords), node
        )

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self.visit(node.args)
        if node.returns is not None:
            node.returns = self.visit(node.returns)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.bases = [self.visit(b) for b in node.bases]
        node.body = [self.visit(s) if isinstance(s, ast.AnnAssign) else s for s in node.body]
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node


_HANDED = -1  # `_calls_of`: a call that hands the function on, with keywords for it


def _hands_on(call: ast.Call, func: ast.FunctionDef) -> bool:
    """`register(Test, "name", func, dtype=wp.float16)`, `functools.partial(func, dtype=...)`: the function
    passed by name to another call with keywords that name some of its parameters (Warp's tests register
    each test function so, with its types)."""
    passed = any(isinstance(a, ast.Name) and a.id == func.name for a in call.args)
    params = _arguments(func)
    return passed and any(k.arg in params for k in call.keywords)


def _parser_of(value: ast.expr) -> str | None:
    """`parser` when `value` is `parser.parse_args()` or `parser.parse_known_args()[0]`."""
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and value.slice.value == 0:
        value = value.value
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in ("parse_args", "parse_known_args")
        and isinstance(value.func.value, ast.Name)
        and not value.args
    ):
        return value.func.value.id
    return None


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


def _items(iterable: Any) -> list[Any]:
    """The first `MAX_INSTANCES` items a loop over `iterable` takes (a set's in a fixed order)."""
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


def _walk_body(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under `node` but those of nested function and class bodies."""
    for child in ast.iter_child_nodes(node):
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            yield from _walk_body(child)


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


def _target_names(target: ast.AST) -> set[str]:
    """Names an assignment target binds (`a, (b, c)`; not `args` in `args.m = ...`)."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return {n for e in target.elts for n in _target_names(e)}
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return set()


def _unpack(target: ast.AST, value: Any, name: str) -> Any:
    """The part of `value` that `name` gets when assigned to `target` (`a, (b, c) = value`)."""
    if isinstance(target, ast.Name):
        return value
    if isinstance(target, (ast.Tuple, ast.List)):
        if not isinstance(value, (tuple, list)) or len(value) != len(target.elts):
            raise Unresolved(f"cannot unpack {type(value).__name__} into {ast.unparse(target)}")
        for element, item in zip(target.elts, value, strict=True):
            if name in _target_names(element):
                return _unpack(element, item, name)
    raise Unresolved(f"{name} is assigned through {ast.unparse(target)}")


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


_PLAIN_TYPES = (type(None), bool, int, float, complex, str, bytes, range, slice, type(Ellipsis))


def _plain(value: Any, depth: int = 0) -> bool:
    """Data, modules, classes and functions, Warp's and NumPy's objects: what evaluating with runs no method
    the script wrote (containers checked a few levels deep)."""
    if isinstance(value, _PLAIN_TYPES) or isinstance(value, (type, types.ModuleType, types.FunctionType)):
        return True
    if isinstance(value, (types.BuiltinFunctionType, _Parsed)):
        return True
    if isinstance(value, (tuple, list, set, frozenset)):
        return depth < 4 and all(_plain(v, depth + 1) for v in itertools.islice(value, 256))
    if isinstance(value, dict):
        return depth < 4 and all(
            _plain(k, depth + 1) and _plain(v, depth + 1) for k, v in itertools.islice(value.items(), 256)
        )
    if _generated_dataclass(type(value)):
        return depth < 4 and all(_plain(getattr(value, f.name, None), depth + 1) for f in dataclasses.fields(value))
    module = type(value).__module__ or ""
    return module.split(".")[0] in ("warp", "numpy", "math", "builtins")


_DEFAULT_FACTORIES = (list, dict, set, tuple, frozenset)
# Methods of the built-in containers and strings that only read (`CONFIGS.items()`, `"a,b".split(",")`).
_READING_METHODS = {
    "items", "keys", "values", "get", "count", "index", "copy", "join", "split", "rsplit", "strip", "lower",
    "upper", "replace", "startswith", "endswith", "format", "union", "intersection", "difference", "issubset",
}  # fmt: skip


def _reading_method(func: Any) -> bool:
    owner = getattr(func, "__self__", None)
    return (
        isinstance(func, types.BuiltinMethodType)
        and type(owner) in (dict, list, tuple, str, set, frozenset)
        and func.__name__ in _READING_METHODS
    )


def _generated_dataclass(cls: Any) -> bool:
    """Whether `cls` is a dataclass whose methods are all the ones `@dataclass` generated (a script's
    `SimConfig(n=16)`): making one, comparing or reading its fields runs none of the script's code. One
    with a method the script wrote (`__post_init__`, a property) or a `default_factory` that may act is not."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        return False
    for klass in cls.__mro__[:-1]:
        if not dataclasses.is_dataclass(klass):
            return False
        for member in vars(klass).values():
            if isinstance(member, (staticmethod, classmethod, property)):
                return False
            if isinstance(member, types.FunctionType) and inspect.unwrap(member).__code__.co_filename[:1] != "<":
                return False  # written in a file, not generated
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING and f.default_factory not in _DEFAULT_FACTORIES:
            return False
        if f.default is not dataclasses.MISSING and not _plain(f.default, 3):
            return False
    return True


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
