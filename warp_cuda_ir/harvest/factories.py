"""Kernels a script's function makes from its own arguments and locals (a factory): which, and what each needs.

    def make_axpy(dtype):
        @wp.kernel
        def axpy(x: wp.array(dtype=dtype), y: wp.array(dtype=dtype), a: dtype): ...
        return axpy

    for dtype in (wp.float32, wp.float64):
        kernel = make_axpy(dtype)        # in main(), a test, a method, under `if __name__ == "__main__":`

Loading a script runs only its top level, so such a kernel exists only for the calls the top level made. Its
code is a function of the values it captures, so the harvest makes it for the values the script's own calls
give, without running the function or the code around the call. This module plans it:

- `plans`: for each `@wp.kernel` written directly in a function's body that reads names the function binds,
  the statements of that body the kernel's definition needs (the assignments and `@wp.func`/`@wp.struct`
  definitions of the names it captures, and theirs in turn), and the function's parameters they read.

`call_values` reads the values of those parameters off the script's calls (`Resolver.bindings`) and makes
the kernel with them (`make`).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import symtable
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from warp_cuda_ir.harvest.scripts import called_name, child_table, definition_time_names, function_definitions


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
    # A method planned through its class's `__init__` that also reads its own parameters (`Maker(2.0)(1.0)`,
    # `smoother.kernel_for(2)`): the method, and those parameters, whose values its own calls give
    method: ast.FunctionDef | None = None
    method_params: tuple[str, ...] = ()


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
            generated = None if any(f.name == "__init__" for f, _ in found) else dataclass_init(cls)
            if generated is not None:
                found.append(generated)
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


def dataclass_init(cls: ast.ClassDef) -> tuple[ast.FunctionDef, symtable.SymbolTable] | None:
    """The `__init__` `@dataclass` generates for a class of no base written `@dataclass` (or
    `@dataclasses.dataclass(...)`, not `init=False`), as the script would write it (`def __init__(self, lo,
    hi=1.0): self.lo = lo; self.hi = hi`, at the fields' lines; a `field(init=False)` is no parameter and is
    set only to its default), with its symbol table; None for any other class, or fields it cannot write
    (`InitVar`, a `default_factory`). A method's kernel
    reading the fields (`Band(0.0, 0.5).kernel()`) is then planned through it as through a written one; the
    definition is marked with the class (`synthesized_for`), which holds no such function."""
    decorators = [d for d in cls.decorator_list if _decorator_name(d) == "dataclass"]
    if len(decorators) != 1 or cls.bases or cls.keywords:
        return None
    options = decorators[0].keywords if isinstance(decorators[0], ast.Call) else []
    if any(k.arg == "init" and not (isinstance(k.value, ast.Constant) and k.value.value) for k in options):
        return None
    args: list[ast.arg] = [ast.arg("self")]
    defaults: list[ast.expr] = []
    body: list[ast.stmt] = []
    for stmt in cls.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        annotation = ast.unparse(stmt.annotation)
        kind = annotation.split("[")[0].split(".")[-1]
        if kind == "InitVar":
            return None
        if kind == "ClassVar":
            continue
        default = stmt.value
        if isinstance(default, ast.Call) and _decorator_name(default) == "field":
            given = {k.arg: k.value for k in default.keywords}
            if set(given) - {"default", "repr", "compare", "hash", "metadata", "kw_only", "init"}:
                return None  # `default_factory=`
            default = given.get("default")
            if "init" in given:
                if not isinstance(given["init"], ast.Constant) or given["init"].value not in (True, False):
                    return None
                if given["init"].value is False:
                    # `kernel: wp.Kernel = field(init=False)`: no parameter; `__init__` sets its default if any
                    # (`__post_init__` usually sets it)
                    if default is not None:
                        store = ast.Attribute(ast.Name("self", ast.Load()), stmt.target.id, ast.Store())
                        body.append(ast.copy_location(ast.Assign([store], default), stmt))
                    continue
        if default is None and defaults:
            return None  # a field without a default after one with: `@dataclass` itself refuses the class
        name = stmt.target.id
        args.append(ast.arg(name))
        if default is not None:
            defaults.append(default)
        store = ast.Attribute(ast.Name("self", ast.Load()), name, ast.Store())
        body.append(ast.copy_location(ast.Assign([store], ast.Name(name, ast.Load())), stmt))
    if len(args) == 1:
        return None
    init = ast.FunctionDef(
        name="__init__",
        args=ast.arguments(posonlyargs=[], args=args, kwonlyargs=[], kw_defaults=[], defaults=defaults),
        body=body,
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    init = ast.fix_missing_locations(ast.copy_location(init, cls))
    table = symtable.symtable(ast.unparse(init), "<dataclass>", "exec")
    init.synthesized_for = cls  # type: ignore[attr-defined]
    return init, table.get_children()[0]


def _decorator_name(node: ast.expr) -> str | None:
    """`dataclass` of `@dataclass`, `@dataclasses.dataclass(frozen=True)`; `field` of `field(default=1.0)`."""
    return called_name(node.func if isinstance(node, ast.Call) else node)


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
        return _with_problem(base, f"defined inside a `while`, a loop's `else` or a capturing `case` of {node.name}")
    walked = _walk(preceding, set(captured), table, instance, node.name)
    if isinstance(walked, str):
        return _with_problem(base, walked)
    kept, loops, needed = walked
    unset = sorted(n for n in needed if "." in n)
    own = (needed - set(unset)) - {instance}  # the method's own parameters it reads besides the attributes
    if unset and instance is not None and own <= set(_parameters(node, stars=True)[1:]):
        # `self.kernel = self._make_kernel()` in `__init__`: the attributes come from the method that calls it
        caller = None if own else _through_caller(base, node, instance, set(unset), methods, outer)
        if caller is None:
            caller = _through_constructor(base, node, instance, set(unset), methods, outer)
        if caller is not None:
            if caller.problem:
                return caller
            planned = _with_body(caller, kept, loops, factory_qualname)
            if own:
                params = tuple(p for p in _parameters(node, stars=True) if p in own)
                planned = dataclasses.replace(planned, method=node, method_params=params)
            return planned
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
        params=tuple(p for p in _parameters(func, stars=True) if p in needed),
        loops=tuple(loops),
        instance=instance if sets_instance else None,
    )


def _parameters(func: ast.FunctionDef, stars: bool = False) -> list[str]:
    """The parameters' names in signature order; with `stars`, `*args` and `**kwargs` too (the tuple and the
    dict a call gives them: `call_values` reads them off the call's extra arguments)."""
    a = func.args
    star = [s.arg for s in (a.vararg, a.kwarg) if s is not None] if stars else []
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)] + star


def _parameters_problem(func: ast.FunctionDef, needed: set[str], instance: str | None) -> str | None:
    """Why the names a plan still needs are not all parameters of `func` it can be given, or None."""
    if instance is not None and instance in needed:
        return f"reads {instance} itself, not only its attributes"
    missing = sorted(needed - set(_parameters(func, stars=True)))
    if missing:
        return f"{missing[0]} is bound in {func.name} after the kernel or in a block"
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
            names = target_names(stmt.loop.target)
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
            if hit and instance is None and _assignments_block(stmt):
                # `if dtype is None: dtype = wp.float32`, `for w in weights: total += w`: kept whole, run as
                # written (its calls guarded); a name it may not bind is still needed from before it
                inner = [n for n in ast.walk(stmt) if isinstance(n, ast.stmt) and n is not stmt]
                changed = sorted({m for n in inner for m in _mutated_by(n)} & (needed | assigned))
                if changed:
                    return f"{changed[0]} is changed in place inside a block of {where}"
                if reads_special_attribute(stmt):
                    return f"reads a special attribute: {ast.unparse(stmt)[:80]}"
                kept.append(stmt)
                needed -= _surely_bound([stmt]) or set()
                loop_variables = target_names(stmt.target) if isinstance(stmt, ast.For) else set()
                needed |= {n for n in _reads(stmt, table) - loop_variables if _is_bound(table, n)}
                continue
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
        if reads_special_attribute(stmt):
            return f"reads a special attribute: {ast.unparse(stmt)[:80]}"
        kept.append(stmt)
        if not isinstance(stmt, ast.AugAssign):
            needed -= bound
        if isinstance(stmt, ast.Assign) and parser_of(stmt.value) is not None:
            continue  # `args = parser.parse_args()`: the options' defaults, read from the text (`call_values.make`)
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


def _through_constructor(
    base: Plan,
    method: ast.FunctionDef,
    instance: str,
    attributes: set[str],
    methods: list[tuple[ast.FunctionDef, symtable.SymbolTable]],
    outer: list[str],
) -> Plan | None:
    """A plan whose factory is the class's `__init__`, keeping its statements that set `attributes`, for a
    method that reads only attributes `__init__` sets and that no method of the class calls: the script
    calls it on an instance it made (`Rescaler(-1.0, 1.0).kernel()`, `r = Rescaler(...)` then `r.kernel()`),
    so the constructor's calls give the values. None when the class has no plain `__init__`."""
    init = next(((f, t) for f, t in methods if f.name == "__init__"), None)
    if init is None or method.name == "__init__":
        return None
    node, table = init
    params = _parameters(node)
    if not params or params[0] != instance or node.decorator_list:
        return None
    for other, _ in methods:
        calls = (n for n in ast.walk(other) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute))
        if any(n.func.attr == method.name for n in calls):  # type: ignore[attr-defined]
            return None  # called by the class itself: `_through_caller`'s, where it can say why not
        # A setter (`def gain(self, g): self._gain = g; return self`, chained before `.build()`) changes them
        # after construction: `__init__`'s values would make a kernel the script never makes.
        if other is not node and any(_attributes_set(n, instance) & attributes for n in ast.walk(other)):
            return None
    qualname = ".".join([*outer, node.name])
    on_init = Plan(base.kernel, base.qualname, base.first_line, node, qualname, (), (), None, (), instance)
    walked = _walk(list(node.body), set(attributes), table, instance, node.name)
    if isinstance(walked, str):
        return _with_problem(on_init, walked)
    kept, _, needed = walked
    return _planned(on_init, node, kept, [], needed, instance, "in __init__")


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
    appears as a `_Loop` where it binds its variables, a `match` arm), outermost first. None when a `while`
    loop, a loop's `else` or a `case` whose pattern binds names is on the way, or `kernel` is not under `body`."""
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
        elif isinstance(stmt, ast.Match):
            # a `case` arm is a branch; an arm whose pattern binds names (`case other:`) may rebind a name
            # the kernel captures, which the walk back from the definition cannot see, so it is refused
            blocks = [c.body for c in stmt.cases if not _pattern_binds(c.pattern)]
        for block in blocks:
            inner = _preceding(block, kernel)
            if inner is not None:
                return body[:i] + inner
        return None
    return None


def _pattern_binds(pattern: ast.pattern) -> bool:
    """Whether a `case` pattern binds a name (a capture, `as`, `*rest` or `**rest`)."""
    for node in ast.walk(pattern):
        if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name is not None:
            return True
        if isinstance(node, ast.MatchMapping) and node.rest is not None:
            return True
    return False


def _with_problem(plan: Plan, problem: str) -> Plan:
    return Plan(plan.kernel, plan.qualname, plan.first_line, plan.factory, plan.factory_qualname, (), (), problem, ())


def _assignments_block(stmt: ast.stmt) -> bool:
    """Whether `stmt` is an `if`, a `for` over a name or a literal sequence (values the harvest holds, so
    the loop ends) or a `while` (run with a bound on its passes) whose bodies only assign names, raise or pass,
    at any depth of such blocks."""
    if isinstance(stmt, ast.If):
        parts = [*stmt.body, *stmt.orelse]
    elif isinstance(stmt, ast.For) and not stmt.orelse and isinstance(stmt.iter, (ast.Name, ast.Tuple, ast.List)):
        parts = stmt.body
    elif isinstance(stmt, ast.While) and not stmt.orelse:
        # `while width < n: width *= 2`: `call_values.make` runs it for at most `MAX_WHILE_PASSES` passes
        parts = stmt.body
    else:
        return False
    simple = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Pass, ast.Raise)
    return all(
        _assignments_block(s)
        or (
            isinstance(s, simple)
            and all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred)) for n in _targets(s))
        )
        for s in parts
    )


def _targets(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, ast.Assign):
        return stmt.targets
    return [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []


def _surely_bound(stmts: list[ast.stmt]) -> set[str] | None:
    """Names a run of `stmts` (of `_assignments_block`s) binds whichever way it goes; None when it always
    raises. `if x is None: x = 1` binds nothing for sure, `if c: y = 1` / `else: y = 2` binds `y`."""
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, ast.Raise):
            return None
        if isinstance(s, ast.If):
            body, orelse = _surely_bound(s.body), _surely_bound(s.orelse)
            if body is None and orelse is None:
                return None
            out |= orelse if body is None else body if orelse is None else body & orelse  # type: ignore[operator]
        elif not isinstance(s, (ast.For, ast.While)):
            out |= {n for t in _targets(s) for n in target_names(t)}
    return out


def _bound_by(stmt: ast.stmt) -> set[str] | None:
    """Names a simple statement binds, or None for a compound one (or one that binds by side effect)."""
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        return {n for t in targets for n in target_names(t)}
    if isinstance(stmt, (ast.Expr, ast.Pass, ast.Assert)):
        return set()
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):  # `import math` in a factory (`call_values.make` checks it)
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    return None


def reads_special_attribute(node: ast.AST) -> bool:
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


def parser_of(value: ast.expr) -> str | None:
    """`parser` when `value` is `parser.parse_args()` or `parser.parse_known_args()[0]`, or either given one
    command line (`parse_args(argv)` in `def main(argv=None)`: `call_values` takes it for the script's own,
    empty, command line only where it is `None` or `sys.argv[1:]`)."""
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and value.slice.value == 0:
        value = value.value
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in ("parse_args", "parse_known_args")
        and len(value.args) + len(value.keywords) <= 1
        and all(k.arg == "args" for k in value.keywords)  # `parse_args(args=[])`
    ):
        return None
    owner = value.func.value
    if isinstance(owner, ast.Name):
        return owner.id
    if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and not owner.args and not owner.keywords:
        # `build_parser().parse_args(argv)`: the parser a function of the script builds and returns, named
        # `build_parser()` (`call_values` reads its options in that function's body)
        return f"{owner.func.id}()"
    return None


def command_line_given(value: ast.expr) -> ast.expr | None:
    """The command line `parser.parse_args(argv)` is given (None for `parse_args()`)."""
    if isinstance(value, ast.Subscript):
        value = value.value
    if not isinstance(value, ast.Call):
        return None
    return value.args[0] if value.args else value.keywords[0].value if value.keywords else None


def target_names(target: ast.AST) -> set[str]:
    """Names an assignment target binds (`a, (b, c)`; not `args` in `args.m = ...`)."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return {n for e in target.elts for n in target_names(e)}
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return set()
