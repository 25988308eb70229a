"""What a script's source says about kernels its import does not settle, read without running it.

A script is written to be run: the `__main__` block and the functions it calls make some kernels and
choose their launches. Loading the script runs only its top level, so two facts are read from the text:

- `launch_block_dims`: the `block_dim=` the script launches a kernel with. A tile kernel's code is a
  function of its block size (`wp.tile_fft` spreads the FFT over the block's threads, `wp.tile(x)` makes a
  tile one column per thread), and `wp.launch_tiled` has no default block size, so the module's 256 may give
  no code at all where the script's own launch does.
- `inner_kernels`: `@wp.kernel` definitions inside a function (a `main()`, an `Example.__init__`) that
  capture nothing from it. Such a kernel is the same kernel whatever the function's arguments, so it can be
  defined at the script's top level (names looked up in the script's globals, as its body would) without
  calling the function. Definitions at the top level itself are listed too: one under
  `if __name__ == "__main__":` is not run when the script is loaded.
"""

from __future__ import annotations
import __future__

import ast
import symtable
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import CodeType
from typing import Any

_LAUNCHES = {"launch", "launch_tiled"}
# Expressions a `block_dim=` is evaluated from: constants and module-level names combined arithmetically
# (`BLOCK_DIM`, `TILE * 2`, `wp.constant(64)` is not one). Nothing that calls or subscripts.
_PLAIN = (ast.Expression, ast.Constant, ast.Name, ast.Load, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop)


def launch_calls(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.expr | None]]:
    """(call, kernel expression or None) of every launch in `tree`: `<anything>.launch(kernel, ...)` or
    `.launch_tiled(...)` (or the bare names), the kernel given first or as `kernel=`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and called_name(node.func) in _LAUNCHES:
            kernel = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "kernel"), None)
            yield node, kernel


def launch_block_dims(tree: ast.Module, kernel_name: str, namespace: dict[str, Any]) -> list[int]:
    """Distinct positive `block_dim=` values of the launches (`launch_calls`) of `kernel_name` in `tree`, by its
    plain name, in source order. A `block_dim=` that is not a constant expression of names in `namespace` (the
    script's globals) is skipped: it depends on the run.
    """
    out: list[int] = []
    for node, kernel in launch_calls(tree):
        block_dim = next((k.value for k in node.keywords if k.arg == "block_dim"), None)
        if not (isinstance(kernel, ast.Name) and kernel.id == kernel_name and block_dim is not None):
            continue
        value = _evaluate(block_dim, namespace)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0 and value not in out:
            out.append(value)
    return out


def called_name(func: ast.expr) -> str | None:
    """The name a call's function goes by: `f` of `f(...)`, `map` of `pool.map(...)`."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _evaluate(node: ast.expr, namespace: dict[str, Any]) -> Any:
    expression = ast.Expression(node)
    if not all(isinstance(n, _PLAIN) for n in ast.walk(expression)):
        return None
    names = {n.id for n in ast.walk(expression) if isinstance(n, ast.Name)}
    if not names <= namespace.keys():
        return None
    try:
        return eval(compile(expression, "<block_dim>", "eval"), {"__builtins__": {}}, {n: namespace[n] for n in names})
    except Exception:
        return None


@dataclass(frozen=True)
class InnerKernel:
    node: ast.FunctionDef  # the definition, decorators included, at its place in the file
    qualname: str  # the `__qualname__` the enclosing function would give it
    first_line: int  # of its first decorator: the line Python and Warp know the kernel by
    # The enclosing functions' own `import` statements the kernel reads names of (`import warp as wp` inside
    # `def histogram(...)`), in source order: run before the kernel is defined, as the function runs them.
    imports: tuple[ast.Import | ast.ImportFrom, ...] = ()


def inner_kernels(
    tree: ast.Module, text: str, path: str, is_kernel_decorator: Callable[[ast.expr, tuple[ast.stmt, ...]], bool]
) -> list[InnerKernel]:
    """`@wp.kernel` definitions nested in functions that capture nothing from them but the modules those
    functions import, and those at the top level or in a top-level class's body whether or not loading runs
    them; the caller skips what exists (module doc).

    `is_kernel_decorator(expr, imports)`: whether a decorator expression, evaluated in the script's globals
    after the `imports` statements, is `wp.kernel` (bare or called with options). Its options, annotations
    and defaults must name nothing else the enclosing functions bind, since they are evaluated where the
    kernel is defined.
    """
    out: list[InnerKernel] = []
    for d in function_definitions(tree, text, path):
        functions = [table for _, table, _ in d.functions]
        # At the top level, in a function, or in the body of a top-level class (`class Integrator:` with a
        # kernel in each arm of an `if`: the arm its load did not take)
        placed = bool(functions) or "<locals>" not in d.scope
        if not placed or not isinstance(d.node, ast.FunctionDef) or len(d.node.decorator_list) != 1:
            continue
        imported = _imported_modules(d)
        needed = (set(d.table.get_frees()) | definition_time_names(d.node)) & _bound_in(functions)
        if not needed <= imported.keys():
            continue
        imports = tuple(dict.fromkeys(imported[name] for name in sorted(needed, key=lambda n: imported[n].lineno)))
        if is_kernel_decorator(d.node.decorator_list[0], imports):
            first = min(x.lineno for x in d.node.decorator_list)
            out.append(InnerKernel(d.node, ".".join([*d.scope, d.node.name]), first, imports))
    return out


def _imported_modules(d: Definition) -> dict[str, ast.Import | ast.ImportFrom]:
    """Names the functions around `d` bind only by an absolute `import` statement of their own body, run
    before `d` whatever the arguments (not under an `if` or a `try`): the same module on every call. The
    innermost function's statement wins, as Python's scoping has it."""
    out: dict[str, ast.Import | ast.ImportFrom] = {}
    for node, table, _ in d.functions:
        only_imported = {s.get_name() for s in table.get_symbols() if s.is_imported() and not s.is_assigned()}
        for statement in node.body:
            if statement.lineno >= d.node.lineno:
                break
            if isinstance(statement, ast.Import) or (isinstance(statement, ast.ImportFrom) and statement.level == 0):
                for alias in statement.names:
                    name = (alias.asname or alias.name).split(".")[0]
                    if alias.name != "*" and name in only_imported:
                        out[name] = statement
    return out


@dataclass(frozen=True)
class Definition:
    """A function's `def` in a script, with what Python's scoping says of it."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    table: symtable.SymbolTable
    scope: list[str]  # its `__qualname__` before its name (`Simulation`, `main.<locals>`)
    # The functions around it, outermost first: (def, symbol table, scope)
    functions: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, symtable.SymbolTable, list[str]]]


def function_definitions(tree: ast.Module, text: str, path: str) -> list[Definition]:
    """Every function definition of a script, at any depth, in source order (none for a syntax error)."""
    try:
        table = symtable.symtable(text, path, "exec")
    except SyntaxError:
        return []
    out: list[Definition] = []

    def visit(node: ast.AST, scope: list[str], functions: list[Any], where: symtable.SymbolTable) -> None:
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(child, scope, functions, where)
                continue
            inner = child_table(where, child)
            if inner is None:
                continue
            if isinstance(child, ast.ClassDef):
                visit(child, [*scope, child.name], functions, inner)
                continue
            out.append(Definition(child, inner, scope, functions))
            visit(child, [*scope, child.name, "<locals>"], [*functions, (child, inner, scope)], inner)

    visit(tree, [], [], table)
    return out


def child_table(parent: symtable.SymbolTable, node: ast.AST) -> symtable.SymbolTable | None:
    """The symbol table of the def or class `node` directly under `parent`'s scope."""
    lines = {node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))}
    for child in parent.get_children():
        if child.get_name() == node.name and child.get_lineno() in lines:
            return child
    return None


def definition_time_names(node: ast.FunctionDef) -> set[str]:
    """Names Python evaluates where the def statement runs: decorators, annotations, defaults."""
    args = node.args
    exprs: list[ast.AST | None] = [*node.decorator_list, *args.defaults, *args.kw_defaults, node.returns]
    exprs += [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a]
    return {n.id for e in exprs if e is not None for n in ast.walk(e) if isinstance(n, ast.Name)}


def _bound_in(functions: list[symtable.SymbolTable]) -> set[str]:
    """Names a chain of enclosing functions binds (locals, parameters, their own closures)."""
    out: set[str] = set()
    for table in functions:
        for symbol in table.get_symbols():
            if symbol.is_local() or symbol.is_parameter() or symbol.is_free():
                out.add(symbol.get_name())
    return out


def future_flags(tree: ast.Module) -> int:
    """Compiler flags of the script's own `from __future__ import ...` statements."""
    flags = 0
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                feature = getattr(__future__, alias.name, None)
                flags |= getattr(feature, "compiler_flag", 0)
    return flags


def compiled(node: ast.AST, path: str, mode: str, flags: int) -> CodeType:
    """`compile` of a piece of the script as the script's own file compiles it: with its `__future__`
    flags and not the harvester's (its `from __future__ import annotations` made every annotation of a
    script's function a string, which Warp then evaluates without the function's locals: a factory's
    `wp.array(dtype=dtype)` raised NameError)."""
    return compile(node, path, mode, flags=flags, dont_inherit=True)
