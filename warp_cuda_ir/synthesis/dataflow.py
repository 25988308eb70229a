"""Dataflow over a Warp program's AST: which statements matter, which conditions decide anything.

Used twice: by the `meaning` generator, to drop what does not reach an output (`prune`), and by
`program_analysis`, to count it in any program (synthetic or real). Both see the program the way
Warp runs it, one thread at a time:

- *effects* are stores into array arguments (`out[i] = v`), atomics and other calls made as
  statements, `return` values of `wp.func` helpers, and early `return`s of a kernel (a control
  decision: what the thread writes after it depends on it);
- a statement is *live* when it has an effect or assigns a variable some live statement reads
  later (strong liveness: a dead statement's reads make nothing live, so chains of dead
  assignments are dead as a whole); an `if`/loop is live when its body holds a live statement, and
  then its condition and bounds are read; `break`/`continue` count only inside a live loop.

Loops iterate to a fixpoint (what an iteration reads may come from the previous one).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from warp_cuda_ir import literals, syntax

# Calls that do something besides returning a value: kept even when their value is unused.
_EFFECT_PREFIXES = ("atomic_", "tile_store", "tile_atomic", "printf", "print", "expect_", "array_store")
RANDOM_DRAWS = frozenset(
    {"randf", "randi", "randn", "randu", "poisson", "noise", "pnoise", "curlnoise", "rand_init"}
    | {"sample_unit_sphere", "sample_unit_disk", "sample_unit_cube", "sample_unit_ring", "sample_unit_square"}
    | {"sample_triangle", "sample_unit_hemisphere", "sample_unit_sphere_surface", "sample_unit_hemisphere_surface"}
)


def is_decorated(node: ast.AST, name: str) -> bool:
    """`@wp.<name>` (also `@wp.<name>(...)`) or `@<name>` on a def or class."""
    for d in getattr(node, "decorator_list", ()):
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and target.attr == name:
            return True
        if isinstance(target, ast.Name) and target.id == name:
            return True
    return False


def call_name(node: ast.AST) -> str | None:
    """`f` for `f(...)`, `wp.f(...)` or `a.b.f(...)`; None for anything else."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return None


def referenced_name(node: ast.AST) -> str | None:
    """The name a call calls, or a bare name read (a helper passed as a function)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        return node.id
    return call_name(node)


def reads(node: ast.AST | None) -> set[str]:
    """Names an expression reads."""
    if node is None:
        return set()
    return {n.id for n in syntax.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def has_effect_call(node: ast.AST) -> bool:
    for n in syntax.walk(node):
        name = call_name(n)
        if name is not None and name.startswith(_EFFECT_PREFIXES):
            return True
    return False


def _target_names(target: ast.AST) -> list[ast.AST]:
    return list(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else [target]


@dataclass
class Liveness:
    """Result of one function's analysis: statements by id, what live code reads."""

    function: ast.FunctionDef
    arrays: frozenset[str]  # names whose element stores are effects (array arguments)
    kept: dict[int, bool] = field(default_factory=dict)  # id(stmt) -> live (the final pass decides)
    seen: dict[int, ast.stmt] = field(default_factory=dict)  # local assignments by id (loops visit twice)

    @property
    def assignments(self) -> list[ast.stmt]:
        return list(self.seen.values())

    @property
    def dead_assignments(self) -> list[ast.stmt]:
        return [s for s in self.assignments if not self.kept.get(id(s), False)]

    def live_reads(self) -> set[str]:
        """Names read by live code: values of live statements, conditions and bounds of live blocks."""
        used: set[str] = set()

        def visit(stmts: Iterable[ast.stmt]) -> None:
            for s in stmts:
                if not self.kept.get(id(s), False):
                    continue
                if isinstance(s, ast.If):
                    used.update(reads(s.test))
                    visit(s.body)
                    visit(s.orelse)
                elif isinstance(s, ast.For):
                    used.update(reads(s.iter))
                    visit(s.body)
                elif isinstance(s, ast.While):
                    used.update(reads(s.test))
                    visit(s.body)
                elif isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    used.update(reads(s.value))
                    targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                    for t in targets:
                        for e in _target_names(t):
                            if isinstance(e, (ast.Subscript, ast.Attribute)):
                                # an element store reads its indices, not the array it stores into
                                inner = e
                                while isinstance(inner, (ast.Subscript, ast.Attribute)):
                                    if isinstance(inner, ast.Subscript):
                                        used.update(reads(inner.slice))
                                    inner = inner.value
                                name = syntax.root_name(e)
                                if name is not None and name not in self.arrays:
                                    used.add(name)  # a partial update of a local reads its other parts
                else:
                    used.update(reads(s))

        visit(self.function.body)
        return used


_LEAVES = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)


class Index:
    """Names read and effect calls made under every node of a tree, computed in one post-order pass
    (the analysis asks for them again and again: loops are revisited, expressions nest)."""

    def __init__(self, root: ast.AST) -> None:
        self.names: dict[int, frozenset[str]] = {}
        self.effects: dict[int, bool] = {}
        self._visit(root)

    def _visit(self, node: ast.AST) -> tuple[frozenset[str], bool]:
        found: set[str] = set()
        effect = False
        for name in node._fields:  # `ast.iter_child_nodes`, without its generators (a quarter of the time)
            value = getattr(node, name, None)
            for child in value if isinstance(value, list) else (value,):
                # contexts and operators have nothing below them, and nobody asks about them
                if isinstance(child, ast.AST) and not isinstance(child, _LEAVES):
                    r, e = self._visit(child)
                    found |= r
                    effect = effect or e
        if type(node) is ast.Name and type(node.ctx) is ast.Load:
            found.add(node.id)
        elif type(node) is ast.Call:
            name = call_name(node)
            effect = effect or (name is not None and name.startswith(_EFFECT_PREFIXES))
        result = frozenset(found)
        self.names[id(node)] = result
        self.effects[id(node)] = effect
        return result, effect

    def reads(self, node: ast.AST | None) -> set[str]:
        if node is None:
            return set()
        found = self.names.get(id(node))
        return set(found) if found is not None else reads(node)

    def has_effect(self, node: ast.AST) -> bool:
        found = self.effects.get(id(node))
        return found if found is not None else has_effect_call(node)


class _Analyser:
    def __init__(self, result: Liveness, helper: bool, index: Index | None = None) -> None:
        self.r = result
        self.helper = helper
        self.index = index or Index(result.function)
        self.loops: list[tuple[set[str], set[str], bool]] = []  # (live at exit, live at head, loop is live)

    def reads(self, node: ast.AST | None) -> set[str]:
        return self.index.reads(node)

    def mark(self, s: ast.stmt, live: bool) -> None:
        self.r.kept[id(s)] = live

    def block(self, stmts: list[ast.stmt], live: set[str]) -> tuple[set[str], bool]:
        """Live names before `stmts` given those live after; whether any statement is live."""
        any_kept = False
        for s in reversed(stmts):
            live, kept = self.statement(s, live)
            any_kept = any_kept or kept
        return live, any_kept

    def statement(self, s: ast.stmt, live: set[str]) -> tuple[set[str], bool]:
        if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            return self.assignment(s, live)
        if isinstance(s, ast.If):
            after_body, kept_body = self.block(s.body, set(live))
            after_else, kept_else = self.block(s.orelse, set(live))
            kept = kept_body or kept_else
            self.mark(s, kept)
            return ((after_body | after_else | self.reads(s.test)) if kept else live), kept
        if isinstance(s, (ast.For, ast.While)):
            return self.loop(s, live)
        if isinstance(s, ast.Return):
            self.mark(s, True)
            return set(self.reads(s.value)), True
        if isinstance(s, (ast.Break, ast.Continue)):
            if not self.loops or not self.loops[-1][2]:
                self.mark(s, False)
                return live, False
            exit_live, head_live, _ = self.loops[-1]
            self.mark(s, True)
            return set(exit_live if isinstance(s, ast.Break) else head_live), True
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            self.mark(s, True)
            return live | self.reads(s.value), True
        self.mark(s, False)  # pass, docstrings, bare expressions
        return live, False

    def assignment(self, s: ast.Assign | ast.AnnAssign | ast.AugAssign, live: set[str]) -> tuple[set[str], bool]:
        value = s.value
        targets = s.targets if isinstance(s, ast.Assign) else [s.target]
        elements = [e for t in targets for e in _target_names(t)]
        stores_array = any(
            isinstance(e, (ast.Subscript, ast.Attribute)) and syntax.root_name(e) in self.r.arrays for e in elements
        )
        if stores_array:
            self.mark(s, True)
            needed = set(self.reads(value))
            for e in elements:
                needed |= self.reads(e) - {syntax.root_name(e) or ""}
            return live | needed, True
        self.r.seen[id(s)] = s
        names = {syntax.root_name(e) for e in elements} - {None}
        partial = any(isinstance(e, (ast.Subscript, ast.Attribute)) for e in elements)
        is_live = bool(names & live)
        effect = value is not None and self.index.has_effect(value)
        if not is_live and not effect:
            self.mark(s, False)
            return live, False
        self.mark(s, is_live)  # an atomic whose result is unused: the call lives, the assignment does not
        whole = {syntax.root_name(e) for e in elements if isinstance(e, ast.Name)}
        out = set(live) - whole if not isinstance(s, ast.AugAssign) else set(live)
        out |= self.reads(value)
        if partial or isinstance(s, ast.AugAssign):
            out |= {n for n in names if n is not None}
            for e in elements:
                out |= self.reads(e)
        return out, True

    def loop(self, s: ast.For | ast.While, live: set[str]) -> tuple[set[str], bool]:
        counter = {syntax.root_name(e) for e in _target_names(s.target)} - {None} if isinstance(s, ast.For) else set()
        bounds = self.reads(s.iter) if isinstance(s, ast.For) else self.reads(s.test)
        loop_live = False
        for phase in (0, 1):
            head = set(live)
            while True:
                self.loops.append((set(live), head, loop_live))
                body_in, kept = self.block(s.body, set(head))
                self.loops.pop()
                new_head = set(live) | body_in | (bounds if loop_live else set())
                if new_head <= head:
                    break
                head |= new_head
            if phase == 0:
                if not kept:
                    self.mark(s, False)
                    return live, False
                loop_live = True
        self.mark(s, True)
        return (head - counter) | bounds, True


def analyse_function(function: ast.FunctionDef, arrays: Iterable[str], index: Index | None = None) -> Liveness:
    """Liveness of one kernel or helper. `arrays`: names whose element stores are effects. `index`: of a
    tree holding `function`, when the caller has one (statements removed since do not matter)."""
    arrays = frozenset(arrays)

    def analysed() -> Liveness:
        result = Liveness(function, arrays)
        helper = not is_decorated(function, "kernel")
        _Analyser(result, helper, index or syntax.cached(function, "index", lambda: Index(function))).block(
            function.body, set()
        )
        return result

    # The card's analysis and the category check both ask for the kernel's (`constructs`): made once in a
    # `syntax.unchanging()` block.
    return syntax.cached(function, ("liveness", arrays), analysed)


def array_arguments(function: ast.FunctionDef) -> set[str]:
    """Arguments annotated as arrays (`wp.array(...)`, `wp.array2d(...)`, `wp.indexedarray`...)."""
    found = set()
    for a in function.args.args:
        ann = a.annotation
        target = ann.func if isinstance(ann, ast.Call) else ann
        if isinstance(target, ast.Attribute) and "array" in target.attr:
            found.add(a.arg)
        elif isinstance(target, ast.Name) and "array" in target.id:
            found.add(a.arg)
    return found


def stored_arguments(function: ast.FunctionDef, arrays: set[str]) -> set[str]:
    """Array arguments the kernel writes: element stores and atomic or tile-store targets."""
    out = set()
    for n in syntax.walk(function):
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                for e in _target_names(t):
                    if isinstance(e, (ast.Subscript, ast.Attribute)) and syntax.root_name(e) in arrays:
                        out.add(syntax.root_name(e))
        name = call_name(n)
        if name is not None and name.startswith(("atomic_", "tile_store", "tile_atomic")):
            first = n.args[0] if n.args else None  # type: ignore[attr-defined]
            if isinstance(first, ast.Name) and first.id in arrays:
                out.add(first.id)
    return out


def stored_through_helpers(
    function: ast.FunctionDef, arrays: set[str], functions: dict[str, ast.FunctionDef]
) -> set[str]:
    """Array arguments `function` passes to a helper that writes the parameter they bind to
    (`store_out(out, i, v)` with `dst[i] = v` in `store_out`): outputs, like those it writes itself."""
    out = set()
    for n in syntax.walk(function):
        helper = functions.get(call_name(n) or "")
        if helper is None or helper is function:
            continue
        params = [a.arg for a in helper.args.args]
        written = stored_arguments(helper, array_arguments(helper))
        for k, a in enumerate(n.args):  # type: ignore[attr-defined]
            if isinstance(a, ast.Name) and a.id in arrays and k < len(params) and params[k] in written:
                out.add(a.id)
    return out


# ---- conditions ---------------------------------------------------------------------------
_ORDER = {ast.Lt: {"<"}, ast.LtE: {"<", "="}, ast.Gt: {">"}, ast.GtE: {">", "="}, ast.Eq: {"="}}
_ORDER[ast.NotEq] = {"<", ">"}
_FLIP = {"<": ">", ">": "<", "=": "="}


def conditions(tree: ast.AST) -> list[ast.expr]:
    """Every decision in the program: if/elif/while tests, conditional expressions, `wp.where` selectors."""
    found: list[ast.expr] = []
    for n in syntax.walk(tree):
        if isinstance(n, (ast.If, ast.While, ast.IfExp)):
            found.append(n.test)
        elif call_name(n) == "where" and n.args:  # type: ignore[attr-defined]
            found.append(n.args[0])  # type: ignore[attr-defined]
    return found


def _comparisons(e: ast.expr, op: type) -> list[ast.expr]:
    if isinstance(e, ast.BoolOp) and isinstance(e.op, op):
        return [c for v in e.values for c in _comparisons(v, op)]
    return [e]


def _relation(c: ast.expr) -> tuple[tuple[str, str], set[str]] | None:
    if not (isinstance(c, ast.Compare) and len(c.ops) == 1 and type(c.ops[0]) in _ORDER):
        return None
    left, right = ast.dump(c.left), ast.dump(c.comparators[0])
    allowed = set(_ORDER[type(c.ops[0])])
    if left > right:
        left, right, allowed = right, left, {_FLIP[a] for a in allowed}
    return (left, right), allowed


def _bounds_empty(comparisons: list[ast.expr]) -> bool:
    """Comparisons of one value with constants, all required (`and`), that no value satisfies."""
    bounds: dict[str, list[float]] = {}  # value -> [low, high] (closed; strict bounds nudged inward)
    for c in comparisons:
        if not (isinstance(c, ast.Compare) and len(c.ops) == 1):
            continue
        left, right, op = c.left, c.comparators[0], type(c.ops[0])
        value = literals.number(right)
        if value is None:
            value, left = literals.number(left), right
            op = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}.get(op, op)
        if value is None:
            continue
        lo, hi = bounds.setdefault(ast.dump(left), [-math.inf, math.inf])
        eps = 1e-9 * max(1.0, abs(value))
        if op is ast.Lt:
            hi = min(hi, value - eps)
        elif op is ast.LtE:
            hi = min(hi, value)
        elif op is ast.Gt:
            lo = max(lo, value + eps)
        elif op is ast.GtE:
            lo = max(lo, value)
        elif op is ast.Eq:
            lo, hi = max(lo, value), min(hi, value)
        bounds[ast.dump(left)] = [lo, hi]
        if lo > hi:
            return True
    return False


def self_decided(test: ast.expr) -> bool:
    """A comparison of a value with itself; comparisons of the same two values joined by `and` that
    cannot all hold (`a <= b and a > b`, `x > 0 and x < -1`) or by `or` of which one always holds
    (`a <= b or a > b`); a literal operand of `and`/`or`."""
    for n in syntax.walk(test):
        if isinstance(n, ast.Compare) and any(ast.dump(n.left) == ast.dump(c) for c in n.comparators[:1]):
            return True
        if isinstance(n, ast.BoolOp):
            if any(isinstance(v, ast.Constant) for v in n.values):  # `c and True`, `c or False`
                return True
            relations: dict[tuple[str, str], set[str]] = {}
            conjunction = isinstance(n.op, ast.And)
            if conjunction and _bounds_empty(_comparisons(n, ast.And)):
                return True
            for c in _comparisons(n, type(n.op)):
                rel = _relation(c)
                if rel is None:
                    continue
                key, allowed = rel
                if key not in relations:
                    relations[key] = allowed
                else:
                    relations[key] = relations[key] & allowed if conjunction else relations[key] | allowed
                if (conjunction and not relations[key]) or (not conjunction and relations[key] == {"<", "=", ">"}):
                    return True
    return False


def varying_names(tree: ast.AST, kernel: ast.FunctionDef) -> set[str]:
    """Names whose value can differ between threads, launches or iterations: arguments, `wp.tid()`
    results, random draws, loop counters, anything assigned more than once or inside a loop, and
    whatever is computed from those (a flow-insensitive fixpoint)."""
    varying = {a.arg for a in kernel.args.args}
    for f in syntax.walk(tree):
        if isinstance(f, ast.FunctionDef) and f is not kernel:
            varying.update(a.arg for a in f.args.args)
    definitions: dict[str, list[ast.AST | None]] = {}
    in_loop: set[str] = set()

    def collect(stmts: list[ast.stmt], looping: bool) -> None:
        for s in stmts:
            if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                for t in targets:
                    for e in _target_names(t):
                        name = syntax.root_name(e)
                        if name is None:
                            continue
                        definitions.setdefault(name, []).append(s.value)
                        if looping or isinstance(s, ast.AugAssign) or not isinstance(e, ast.Name):
                            in_loop.add(name)
            elif isinstance(s, ast.For):
                varying.update(r for e in _target_names(s.target) if (r := syntax.root_name(e)))
                collect(s.body, True)
            elif isinstance(s, ast.While):
                collect(s.body, True)
            elif isinstance(s, ast.If):
                collect(s.body, looping)
                collect(s.orelse, looping)
            elif isinstance(s, ast.FunctionDef):
                collect(s.body, False)

    collect(getattr(tree, "body", []), False)
    varying |= in_loop | {n for n, d in definitions.items() if len(d) > 1}
    changed = True
    while changed:
        changed = False
        for name, values in definitions.items():
            if name in varying:
                continue
            if any(v is not None and depends_on(v, varying) for v in values):
                varying.add(name)
                changed = True
    return varying


def depends_on(e: ast.AST, varying: set[str]) -> bool:
    """Reads a varying name, the thread index or a random draw."""
    for n in syntax.walk(e):
        if isinstance(n, ast.Name) and n.id in varying:
            return True
        name = call_name(n)
        if name is not None and (name == "tid" or name in RANDOM_DRAWS):
            return True
    return False


def fixed_conditions(tree: ast.AST, kernel: ast.FunctionDef) -> list[ast.expr]:
    """Conditions decided before the program runs: literal (`if False`, `wp.where(True, ...)`,
    built only from constants), a value compared with itself, or contradictory/tautological."""
    varying = varying_names(tree, kernel)
    return [c for c in conditions(tree) if not depends_on(c, varying) or self_decided(c)]


# ---- what categories promise ---------------------------------------------------------------
_OPERATOR_NAMES = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "div",
    ast.Mod: "mod",
    ast.FloorDiv: "floordiv",
}
_TRANSCENDENTAL = frozenset(
    {"sin", "cos", "tan", "exp", "log", "log2", "log10", "sqrt", "pow", "atan2", "tanh", "sinh", "cosh", "erf"}
    | {"asin", "acos", "atan", "cbrt", "erfc", "erfinv", "smoothstep", "floor", "ceil", "lerp", "step", "sign"}
)
_VECTOR = frozenset({"dot", "cross", "length", "length_sq", "normalize", "cw_mul", "cw_div", "outer", "argmax"})
_VECTOR |= {"argmin", "vec2", "vec3", "vec4", "vec2d", "vec3d", "vec4d", "norm_l2", "norm_l1"}
_MATRIX = frozenset({"transpose", "inverse", "determinant", "trace", "diag", "outer", "identity", "svd3", "qr3"})
_MATRIX |= {"eig3", "svd2", "skew", "mat22", "mat33", "mat44", "mat33d", "mat22d", "mat44d", "matrix_from_cols"}
_MATRIX |= {"matrix_from_rows", "ddot", "get_diag", "inverse_approx", "transform_to_matrix", "quat_to_matrix"}


def constructs(tree: ast.Module, kernel: ast.FunctionDef, need: Iterable[str] | None = None) -> set[str]:
    """The constructs categories promise, as found in the program (one walk over the kernel)."""
    found: set[str] = set()
    helpers = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and is_decorated(n, "func")}
    structs = {n.name for n in tree.body if isinstance(n, ast.ClassDef) and is_decorated(n, "struct")}
    struct_args = {a.arg for a in kernel.args.args if isinstance(a.annotation, ast.Name) and a.annotation.id in structs}
    calls: set[str] = set()
    names: set[str] = set()
    loops: list[ast.AST] = []
    for n in syntax.walk(kernel):
        if isinstance(n, ast.Call):
            c = call_name(n)
            if c is not None:
                calls.add(c)
        elif isinstance(n, ast.Name):
            names.add(n.id)
        elif isinstance(n, (ast.BinOp, ast.AugAssign)) and type(n.op) in _OPERATOR_NAMES:
            calls.add(_OPERATOR_NAMES[type(n.op)])
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in struct_args:
            found.add("struct_field")
        elif isinstance(n, ast.Return):
            found.add("early_return")
        elif isinstance(n, ast.Assign) and call_name(n.value) == "tid" and isinstance(n.targets[0], ast.Tuple):
            found.add("multi_dim")
        if isinstance(n, ast.If):
            found.add("if")
            if n.orelse and isinstance(n.orelse[0], ast.If):
                found.add("elif")
        if isinstance(n, (ast.If, ast.While)) and isinstance(n.test, ast.BoolOp):
            found.add("compound_condition")
        if isinstance(n, (ast.For, ast.While)):
            found.add("loop")
            loops.append(n)
    if len(loops) > 1 and any(m is not n and m in set(syntax.walk(n)) for n in loops for m in loops):
        found.add("nested_loop")
    if (calls | names) & helpers:
        found.add("helper_call")
    if any(c.startswith("atomic_") for c in calls):
        found.add("atomic")
    if "rand_init" in calls and calls & (RANDOM_DRAWS - {"rand_init"}):
        found.add("random")
    arrays = array_arguments(kernel)
    scalars = [a.arg for a in kernel.args.args if a.arg not in arrays and a.arg not in struct_args]
    if (need is None or "scalar_param" in need) and any(a in names for a in scalars):
        live = analyse_function(kernel, arrays).live_reads()
        if any(a in live for a in scalars):
            found.add("scalar_param")
    if calls & {"add", "sub", "mul", "div", "mod", "floordiv"}:
        found.add("arithmetic")
    if calls & _TRANSCENDENTAL:
        found.add("math")
    if calls & _VECTOR or any(c.startswith("vec") for c in calls):
        found.add("vector")
    if calls & _MATRIX:
        found.add("matrix")
    if any(c.startswith(("quat", "transform")) for c in calls):
        found.add("quaternion_transform")
    if any(c.startswith("tile") for c in calls):
        found.add("tile")
    return found


# What each category promises: all of these constructs in every program of it.
CATEGORY_CONSTRUCTS: dict[str, tuple[str, ...]] = {
    "arithmetic": ("arithmetic",),
    "math": ("math",),
    "vector": ("vector",),
    "matrix": ("matrix",),
    "control_flow": ("if",),
    "atomic": ("atomic",),
    "nested_loop": ("nested_loop",),
    "multi_condition": ("if", "compound_condition"),
    "combined": ("helper_call", "atomic"),
    "scalar_param": ("scalar_param",),
    "functions": ("helper_call",),
    "structs": ("struct_field",),
    "quaternion_transform": ("quaternion_transform",),
    "multi_dim": ("multi_dim",),
    "random": ("random",),
    "reduction": ("atomic", "loop"),
    "idioms": (),
    "tile": ("tile",),
}


def category_kept(category: str, tree: ast.Module, kernel: ast.FunctionDef) -> bool:
    """Every construct `category` promises is in the program."""
    need = CATEGORY_CONSTRUCTS.get(category, ())
    if not need:
        return True
    found = constructs(tree, kernel, need)
    return all(c in found for c in need)


# ---- the generator's side: drop what is dead -----------------------------------------------
def prune(tree: ast.Module, kernel_name: str) -> set[str]:
    """Remove every dead statement of the kernel and its helpers, helpers never called, and kernel
    arguments nothing live reads or writes. Edits `tree` in place; returns the removed argument names."""
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    kernel = functions[kernel_name]
    arrays = array_arguments(kernel)
    index = Index(tree)
    last: Liveness | None = None  # the kernel's analysis, when nothing was removed after it
    # Removed nodes are kept alive until the end: the index and the analyses key nodes by `id()`, and a
    # freed node's id reused by a node `_drop` makes (`if not (<test>)`) read the freed node's names
    # (a test's variable was then pruned while the test still read it: Warp codegen failed on it).
    removed_nodes: list[ast.AST] = []
    for _ in range(4):  # removing a statement can kill what fed it only through a loop: repeat
        changed = False
        for f in functions.values():
            # a helper's own array parameters are arrays too: a store into one is an effect (the generator's
            # store helpers; real helpers that write a buffer they are passed)
            result = analyse_function(f, arrays if f is kernel else array_arguments(f), index)
            changed |= _drop(f.body, result, removed_nodes) > 0
            if f is kernel:
                last = result
        if not changed:
            break
    with syntax.unchanging():  # no function is edited until the arguments go: the kernel is walked once
        called = _called_helpers(kernel, functions)
        tree.body = [
            n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n is not kernel and n.name not in called)
        ]
        # dropping uncalled helpers changes nothing the kernel's liveness reads: reuse its last analysis
        result = last if last is not None and not changed else analyse_function(kernel, arrays, index)
        needed = result.live_reads() | stored_arguments(kernel, arrays)
    removed = {a.arg for a in kernel.args.args if a.arg not in needed}
    kernel.args.args = [a for a in kernel.args.args if a.arg in needed]
    return removed


def _called_helpers(kernel: ast.FunctionDef, functions: dict[str, ast.FunctionDef]) -> set[str]:
    called: set[str] = set()
    todo = [kernel]
    while todo:
        f = todo.pop()
        for n in syntax.walk(f):
            name = referenced_name(n)  # a call, or a function passed along (`wp.tile_map(fn, t)`)
            if name in functions and name not in called and name != kernel.name:
                called.add(name)
                todo.append(functions[name])
    return called


def _drop(stmts: list[ast.stmt], result: Liveness, graveyard: list[ast.AST]) -> int:
    """Remove dead statements from `stmts` (recursively, onto `graveyard`); returns how many went."""
    removed = 0
    out: list[ast.stmt] = []
    graveyard.extend(stmts)
    for s in stmts:
        kept = result.kept.get(id(s), False)
        if isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and not kept:
            if s.value is not None and has_effect_call(s.value):
                out.append(ast.Expr(s.value))  # `prev = wp.atomic_add(...)`, prev unused: keep the call
            removed += 1
            continue
        if not kept and not isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            removed += 1
            continue
        if isinstance(s, ast.If):
            removed += _drop(s.body, result, graveyard) + _drop(s.orelse, result, graveyard)
            if not s.body:
                s.test = ast.UnaryOp(ast.Not(), s.test)
                s.body, s.orelse = s.orelse, []
        elif isinstance(s, (ast.For, ast.While)):
            removed += _drop(s.body, result, graveyard)
        out.append(s)
    stmts[:] = out
    return removed
