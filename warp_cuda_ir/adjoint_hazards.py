"""Constructs in a kernel's Python source for which Warp 1.19's backward code is known to be wrong.

Static analysis of the source (no launch, no validation machinery): the `adjoint_hazards` column,
written at build time for every row. Each flag names the construct:

- `dynamic_loop_mutation:<var>`: `<var>` is assigned inside a dynamic loop (a `while`, a `for` over a
  `range` whose bounds are not literal integers or whose trip count exceeds Warp's `max_unroll`, or a
  loop with `break`/`continue`) and read after the loop. Warp's backward pass replays the forward
  without running such a loop's body, so the value it uses after the loop is stale (its codegen logs
  "detected mutated variable ... may not be a differentiable operation" at debug level only).
- `index_ahead:<var>`: a dynamic loop's body indexes an array or vector with `<var>` and then assigns it
  (`frc += cfrc_int_in[w, rootid]` then `rootid += body_subtreenum[rootid]`). Warp's backward replays the body's
  assignments before the body's adjoints, so each adjoint lands at the next iteration's index, and the last one
  past the range the loop guarded: Warp's own CPU backward of mujoco-warp's `_cfrc_world` aborts and newton's
  `scatter_particle_body_contact_force_and_hessian` segfaults (the gradient check's worker died, and with it both
  rows' reference digests); in range, `while k < n: s += a[k] * a[k]; k += 1` gives a[k + 1] the gradient of a[k]
  (checked with `wp.Tape` on the CPU). The row's standalone programs run its forward kernel only.
- `noise_after_draw:<state>`: `noise`/`pnoise`/`curlnoise` on an RNG state that a later draw
  (`randf`, `randi`, `randn`, `sample_*`, `poisson` ...) advances: the noise adjoint, run in the backward
  pass after the whole forward replay, reads the advanced state.
- `missing_adjoint:<builtin>`: a call of a built-in whose every adjoint in Warp's own native headers
  is marked `MISSINGADJOINT`, except where the header says the gradient is zero almost everywhere
  (floor, sign, step ...: an empty adjoint is then the right one). Read from `warp/native/*.h` of
  the installed Warp, once per process. Also `missing_adjoint:grad`: `wp.grad(f)(x)` in the kernel, whose
  adjoint would be a second derivative, which Warp does not generate (warp-lang's `grad_kernel`:
  zero_adjoint, no flag).
- `inplace_overwrite:<array>`: a float array parameter the kernel overwrites (`a[i] = ...`, `a[i] *= ...`,
  `atomic_min/max/exch/cas`) and whose earlier values it also reads: Warp's tape keeps array adjoints
  accumulating in place, so the gradient with respect to the overwritten values is wrong (only
  additive updates, `+=`, `-=`, `atomic_add/sub`, differentiate correctly in place).
- `partial_adjoint:<builtin>`: a call of a built-in whose scalar adjoint in Warp's `builtin.h` is defined
  but gives some argument no adjoint, with a non-literal expression in that argument: `mod(a, b)`'s
  adjoint is `adj_a += adj_ret` only, while d mod(a, b)/db = -trunc(a/b) (found by a wrong_adjoint row of a
  2,000-row build that carried no flag: seed 100,070). Read from the header, once per process.
- `singular_decomposition:<builtin>`: `qr3`, `svd3`, `svd2` or `eig3` of a matrix that is singular by
  construction (a constructor with two equal rows or columns or one repeated value, `outer`, `skew`, or a
  product with such a matrix, directly or through one local name): Warp's adjoints of these divide by R's
  diagonal or by differences of singular values or eigenvalues, which such a matrix makes zero (found by
  wrong_adjoint rows that carried no flag: seeds 100,598 and 5,004, `qr3` of `mat33(e, e, e, e, e, e, c, c, c)`).
- `component_assignment:<var>`: a store into one component of a local vector or matrix (`v.y = v.y + e`,
  `v.x = e`, `v.z += e`, `v[1] = e`, `v[1] *= e`, `m[0, 2] = e`): Warp 1.19's backward code for it is wrong
  (`v = a[i]; v.y = v.y + 2.0 * b[i]; out[i] = dot(v, v)` gives twice the right gradient for `a[i].y`, and the
  `v[1]` spellings the same, checked with `wp.Tape` against finite differences on the CPU; found by 12 unflagged
  wrong_adjoint rows of 25 meaning-3 rows with such stores, seeds 20,000-20,319, and the subscript spellings
  by two unflagged wrong_adjoint real rows: newton's `_merge_inv_mass_matrix_kernel`, `block[0] = v[0]`, and
  mujoco-warp's `_subtree_vel_forward`, `dv[0] *= ...`).
- `atomic_result:<array>`: the value an atomic returns is used (`slot = wp.atomic_add(counter, 0, 1)`): Warp 1.19's
  backward code leaves the replayed atomic out (`// var_3 = wp::atomic_add(...)`) and reads its result, an
  uninitialised local, so the adjoint lands at an undefined index (warp-lang's `counter_kernel`: wrong_adjoint, no
  flag; newton's `_update_col_major_contact_jacobians`: its twin read other garbage than Warp's build). The row's
  standalone programs run its forward kernel only (`standalone.program.runs_backward`).
- `zero_adjoint:randf_bounds`: `randf(state, low, high)`: Warp registers `randf` as not differentiable
  (read from its built-in registry), so the bounds, which the value depends on linearly, get no adjoint.
- `custom_adjoint:<func>`: the source writes `<func>`'s adjoint by hand (`@wp.func_grad(func)`) or its
  replay (`@wp.func_replay(func)`): the backward runs that code, not an adjoint Warp derived, and is as right
  as its author made it (warp-lang's `custom_adjoint_backward_access_kernel` writes a deliberately partial
  one: wrong_adjoint, no flag).
- `pointer_array:<var>`: an array the kernel makes from a raw pointer (`wp.array(ptr=a.ptr, ...)`): it has no
  adjoint array, so nothing written or read through it reaches the adjoint of the array the pointer came
  from (warp-lang's `kernel_array_from_ptr`: wrong_adjoint, no flag).
- `spin_wait:<func>`: a `while` loop in the `wp.func` `<func>` whose condition uses an `atomic_cas`/`atomic_exch`
  result, directly or through a local name, and whose body cannot leave it (a lock's acquire, `while
  wp.atomic_cas(lock, 0, 0, 1) == 1: pass`). The function's adjoint replays its forward, so the backward kernel
  takes the lock again after its forward replay released it, and never releases it: the next thread spins for ever.
  On an H200 the CUDA programs of warp-lang's 24 spinlock tests ran to their time limit in the backward, where
  Warp's own forward launch of the same rows ended and agreed with the CPU; Warp's CPU backward ends only because
  its Clang drops the side-effect-free spin (undefined behaviour). The row's standalone programs run its forward
  kernel only (`standalone.program.runs_backward`).

A `wp.func` is analysed like the kernel (its body runs in the kernel's backward pass too). A real row's captured
launch can add `aliased_overwrite:<param>` (`real.aliased_overwrites`: one array passed as two parameters and
changed by the launch), which no reading of the source can see.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import warp as wp

from warp_cuda_ir import syntax, warp_session

NOISE = frozenset({"noise", "pnoise", "curlnoise"})
# Draws that advance an RNG state passed as their first argument (Warp's rand.h: `uint32& state`).
_DRAW = re.compile(r"^(rand[a-z]*|sample_[a-z_]+|poisson)$")
_ADJ_DEF = re.compile(r"\badj_([A-Za-z_]\w*)\s*\(")
# Header comments that say an empty adjoint is the right one.
_ZERO_A_E = "zero almost everywhere"


@functools.cache
def missing_adjoints() -> frozenset[str]:
    """Built-ins whose every adjoint definition in Warp's native headers is marked MISSINGADJOINT.

    A marker belongs to the nearest `adj_<name>(` definition above it. A name with one real adjoint
    among its overloads (e.g. `mod`: scalars have one, vectors do not) is left out: the type of the
    call cannot be told from the source alone.
    """
    native = Path(wp.__file__).parent / "native"
    defined: dict[str, int] = {}
    missing: dict[str, int] = {}
    for header in sorted(native.glob("*.h")):
        text = header.read_text(errors="replace")
        definitions = [(m.start(), m.group(1)) for m in _ADJ_DEF.finditer(text)]
        for _, name in definitions:
            defined[name] = defined.get(name, 0) + 1
        for marker in re.finditer(r"MISSINGADJOINT:?([^\n]*)", text):
            before = [name for start, name in definitions if start < marker.start()]
            if before and _ZERO_A_E not in marker.group(1):
                missing[before[-1]] = missing.get(before[-1], 0) + 1
    offered = set(warp_session.builtin_functions())
    names = set()
    for name, count in missing.items():
        if count < defined[name]:
            continue
        # `adj_tile_reduce_axis` is the axis overload of the Python built-in `tile_reduce`.
        python = name if name in offered else name.removesuffix("_axis")
        if python in offered:
            names.add(python)
    return frozenset(names)


# builtin.h's per-scalar-type adjoints, one line each inside a macro: `void adj_mod(T a, T b, T& adj_a, T& adj_b,
# T adj_ret){ adj_a += adj_ret; }`.
_SCALAR_ADJ = re.compile(r"void\s+adj_(\w+)\s*\(((?:\s*T\s*&?\s*\w+\s*,?)+)\)\s*\{([^{}]*)\}")


@functools.cache
def partial_adjoints() -> dict[str, frozenset[int]]:
    """Built-ins whose scalar adjoint in Warp's `builtin.h` leaves arguments without adjoint: name -> positions.

    Only definitions with a body that is plain code (no comment: Warp comments the deliberate ones, e.g.
    `copysign`'s "d/dy is 0 almost everywhere") and only differentiable built-ins count.
    """
    text = (Path(wp.__file__).parent / "native" / "builtin.h").read_text(errors="replace").replace("\\\n", "\n")
    offered = warp_session.builtin_functions()
    found: dict[str, set[int]] = {}
    for m in _SCALAR_ADJ.finditer(text):
        name, params, body = m.group(1), m.group(2), m.group(3)
        if not body.strip() or "//" in body or "/*" in body or name not in offered:
            continue
        if not any(o.is_differentiable for o in offered[name].overloads):
            continue
        names = [p.split()[-1].lstrip("&") for p in params.split(",") if p.strip()]
        inputs = [n for n in names if not n.startswith("adj_")]
        for position, arg in enumerate(inputs):
            if f"adj_{arg}" in names and not re.search(rf"\badj_{arg}\b", body):
                found.setdefault(name, set()).add(position)
    return {name: frozenset(positions) for name, positions in found.items()}


@functools.cache
def _randf_differentiable() -> bool:
    return any(o.is_differentiable for o in warp_session.builtin_functions()["randf"].overloads)


def _called_builtin(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "wp":
        return func.attr
    return None


def _is_dynamic(loop: ast.For | ast.While, max_unroll: int) -> bool:
    if isinstance(loop, ast.While):
        return True
    if any(isinstance(n, ast.Break | ast.Continue) for n in _own_nodes(loop.body)):
        return True
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
        return False  # iterating a vector, matrix or tile: Warp unrolls it
    if not it.args or it.keywords:
        return True  # not a plain range(...) Warp could unroll
    bounds = []
    for arg in it.args:
        value = arg.operand if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub) else None
        if isinstance(arg, ast.Constant) and type(arg.value) is int:
            bounds.append(arg.value)
        elif isinstance(value, ast.Constant) and type(value.value) is int:
            bounds.append(-value.value)
        else:
            return True  # a runtime bound
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds, 1)[:3]
    trips = len(range(start, stop, step)) if step else 0
    return trips > max_unroll


def _own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """Nodes of `body` outside nested loops (a nested loop's break belongs to it)."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, ast.For | ast.While):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _stored_names(body: list[ast.stmt], arrays: frozenset[str]) -> set[str]:
    """Local variables a loop body assigns, whole or in part (`v[0] = ...`, `p.x = ...`)."""
    names: set[str] = set()
    for node in (n for stmt in body for n in syntax.walk(stmt)):
        target = None
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            target = node.id
        elif isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, ast.Subscript | ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id not in arrays:
                target = base.id
        if target is not None:
            names.add(target)
    return names


# `wp.array(dtype=wp.int32)`, and the subscript spelling `wp.array[wp.int32]`, `wp.array2d[int]` (newton, mujoco-warp).
_INTEGER_DTYPE = re.compile(
    r"(?:dtype\s*=\s*|array(?:[1-4]d)?\[\s*)(?:wp\.)?(?:bool|int|u?int(?:8|16|32|64)|vec[234](?:i|ui|b|ub|s|us|l|ul))\b"
)


@dataclass(frozen=True)
class _Function:
    """One function of the source, read once: its nodes (`ast.walk` order) and its array parameters."""

    node: ast.FunctionDef
    nodes: list[ast.AST]
    arrays: frozenset[str]  # parameters annotated as arrays
    float_arrays: frozenset[str]  # of those, the ones whose elements are not integers or booleans

    @classmethod
    def of(cls, function: ast.FunctionDef) -> _Function:
        annotations = {a.arg: ast.unparse(a.annotation) for a in function.args.args if a.annotation is not None}
        arrays = {name for name, text in annotations.items() if "array" in text}
        # Integer data has no gradient.
        floats = {name for name in arrays if not _INTEGER_DTYPE.search(annotations[name])}
        return cls(function, syntax.walk(function), frozenset(arrays), frozenset(floats))


def _loop_hazards(function: _Function, max_unroll: int) -> set[str]:
    flags: set[str] = set()
    loads: list[tuple[int, str]] | None = None  # (line, name) of every read, gathered at the first dynamic loop
    for loop in function.nodes:
        if isinstance(loop, ast.For | ast.While) and _is_dynamic(loop, max_unroll):
            if loads is None:
                loads = [
                    (n.lineno, n.id) for n in function.nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                ]
            end = loop.end_lineno or loop.lineno
            mutated = _stored_names(loop.body, function.arrays)
            flags.update(f"dynamic_loop_mutation:{v}" for v in mutated & {name for line, name in loads if line > end})
            flags.update(f"index_ahead:{v}" for v in _indexes_ahead(loop, function))
    return flags


def _indexes_ahead(loop: ast.For | ast.While, function: _Function) -> set[str]:
    """Names a dynamic loop's body uses in an index before it first assigns them (`s += a[k]`, then `k += 1`).

    Such a name carries its value from one iteration to the next, and Warp's backward replays the body's
    assignment of it before the body's adjoints, so each adjoint of that element uses the index's next value.
    A use after the body's first assignment reads that assignment's value in both passes (Warp's code names each
    assignment apart), so a `for i in range(3)` the body repeats is no hazard. Integer arrays have no adjoint to
    land anywhere and are left out."""
    integers = function.arrays - function.float_arrays
    stored: dict[str, tuple[int, int]] = {}  # name -> position of its first assignment in the body
    indexing: dict[str, tuple[int, int]] = {}  # name -> position of its first use in an index
    for node in (n for stmt in loop.body for n in syntax.walk(stmt)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            at = (node.lineno, node.col_offset)
            stored[node.id] = min(stored.get(node.id, at), at)
        elif isinstance(node, ast.Subscript) and not (isinstance(node.value, ast.Name) and node.value.id in integers):
            for n in ast.walk(node.slice):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                    at = (n.lineno, n.col_offset)
                    indexing[n.id] = min(indexing.get(n.id, at), at)
    return {name for name, at in indexing.items() if name in stored and at < stored[name]}


_OVERWRITING_ATOMICS = frozenset({"atomic_min", "atomic_max", "atomic_exch", "atomic_cas"})


def _inplace_hazards(function: _Function) -> set[str]:
    arrays = function.float_arrays
    read: set[str] = set()
    overwritten: set[str] = set()
    additive: set[str] = set()  # `a[i] += v` / `a[i] -= v` targets (any array)
    plain_stores: set[str] = set()  # `a[i] = v` targets
    atomic_targets: set[str] = set()  # first arguments of overwriting atomics
    for node in function.nodes:
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Name) and node.value.id in arrays:
                (read if isinstance(node.ctx, ast.Load) else overwritten).add(node.value.id)
        elif isinstance(node, ast.AugAssign):
            base = node.target.value if isinstance(node.target, ast.Subscript) else None
            if isinstance(base, ast.Name):
                if base.id in arrays:
                    read.add(base.id)  # `a[i] += v` reads a[i]; only a non-additive update overwrites it
                    if not isinstance(node.op, ast.Add | ast.Sub):
                        overwritten.add(base.id)
                if isinstance(node.op, ast.Add | ast.Sub):
                    additive.add(base.id)
        elif isinstance(node, ast.Assign):
            plain_stores.update(
                t.value.id for t in node.targets if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
            )
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
            if _called_builtin(node) in _OVERWRITING_ATOMICS:
                target = node.args[0].id
                atomic_targets.add(target)
                if target in arrays:
                    read.add(target)
                    overwritten.add(target)
    # An AugAssign's target is a Store subscript too: `+=` alone must not count as an overwrite.
    overwritten -= additive - plain_stores - atomic_targets
    return {f"inplace_overwrite:{a}" for a in overwritten & read}


def _atomic_result_hazards(function: _Function) -> set[str]:
    bare = {id(n.value) for n in function.nodes if isinstance(n, ast.Expr)}  # statements whose value is dropped
    flags = set()
    for node in function.nodes:
        if isinstance(node, ast.Call) and (_called_builtin(node) or "").startswith("atomic_") and id(node) not in bare:
            target = node.args[0].id if node.args and isinstance(node.args[0], ast.Name) else _called_builtin(node)
            flags.add(f"atomic_result:{target}")
    return flags


def _rng_hazards(function: _Function) -> set[str]:
    """noise on a state, then a draw on that state: later in the source or anywhere in a loop around both."""
    if not any(isinstance(n, ast.Call) and _called_builtin(n) in NOISE for n in function.nodes):
        return set()
    calls: list[tuple[ast.Call, list[ast.AST]]] = []  # in source order, with the loops around each

    def visit(node: ast.AST, loops: list[ast.AST]) -> None:
        inner = [*loops, node] if isinstance(node, ast.For | ast.While) else loops
        for child in ast.iter_child_nodes(node):
            visit(child, inner)
        if isinstance(node, ast.Call):  # after its arguments: the order they run in
            calls.append((node, loops))

    visit(function.node, [])
    flags: set[str] = set()
    for i, (call, loops) in enumerate(calls):
        name = _called_builtin(call)
        if name not in NOISE or not call.args or not isinstance(call.args[0], ast.Name):
            continue
        state = call.args[0].id
        for j, (other, other_loops) in enumerate(calls):
            other_name = _called_builtin(other)
            if other_name is None or not _DRAW.match(other_name) or other_name == "rand_init":
                continue
            if not other.args or not isinstance(other.args[0], ast.Name) or other.args[0].id != state:
                continue
            shared_loop = any(loop in other_loops for loop in loops)
            if j > i or shared_loop:
                flags.add(f"noise_after_draw:{state}")
    return flags


def _literal(node: ast.expr) -> bool:
    """A number as written (`0.7`, `-2.0`, `wp.float32(0.7)`): nothing there to differentiate."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float)


def _builtin_hazards(nodes: list[ast.AST]) -> set[str]:
    missing = missing_adjoints()
    partial = partial_adjoints()
    flags: set[str] = set()
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        name = _called_builtin(node)
        if name in missing:
            flags.add(f"missing_adjoint:{name}")
        ignored = partial.get(name or "", frozenset())
        if any(i < len(node.args) and not _literal(node.args[i]) for i in ignored):
            flags.add(f"partial_adjoint:{name}")
        # Built-ins passed as functions (`wp.tile_reduce(wp.max, t)`) are not the hazard; the call is.
        if name == "randf" and len(node.args) + len(node.keywords) >= 3 and not _randf_differentiable():
            flags.add("zero_adjoint:randf_bounds")
    return flags


_DECOMPOSITIONS = frozenset({"qr3", "svd3", "svd2", "eig3"})
_MATRIX_CONSTRUCTORS = re.compile(r"^(mat(22|33|44)[dfh]?|matrix)$")
_RANK_DEFICIENT = frozenset({"outer", "skew"})


def _singular_by_construction(node: ast.expr, names: dict[str, ast.expr], depth: int = 0) -> bool:
    """A matrix expression that is singular whatever the values: equal rows or columns, `outer`, `skew` ..."""
    if depth > 4:
        return False
    if isinstance(node, ast.Name) and node.id in names:
        return _singular_by_construction(names[node.id], names, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # a product with a singular matrix
        return any(_singular_by_construction(n, names, depth + 1) for n in (node.left, node.right))
    if not isinstance(node, ast.Call):
        return False
    name = _called_builtin(node) or ""
    if name in _RANK_DEFICIENT:
        return True
    if name == "transpose" and node.args:
        return _singular_by_construction(node.args[0], names, depth + 1)
    if not _MATRIX_CONSTRUCTORS.match(name) or node.keywords or not node.args:
        return False
    cells = [ast.dump(a) for a in node.args]
    if len(cells) == 1:  # a literal fills every cell; a matrix is copied (a scalar variable: unknown, not flagged)
        return _literal(node.args[0]) or _singular_by_construction(node.args[0], names, depth + 1)
    n = round(len(cells) ** 0.5)
    if n * n == len(cells) and n > 1:  # scalars, row-major: compare rows and columns
        rows = [tuple(cells[r * n : (r + 1) * n]) for r in range(n)]
        cols = [tuple(cells[c::n]) for c in range(n)]
        return len(set(rows)) < n or len(set(cols)) < n
    return len(set(cells)) < len(cells)  # vectors: a repeated row or column vector


def _decomposition_hazards(function: _Function) -> set[str]:
    # One binding per local name: a name assigned twice is not followed (its value depends on the path).
    assigned: dict[str, list[ast.expr]] = {}
    decompositions: list[ast.Call] = []
    for node in function.nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.Call) and (_called_builtin(node) or "") in _DECOMPOSITIONS and node.args:
            decompositions.append(node)
    names = {name: values[0] for name, values in assigned.items() if len(values) == 1}
    return {
        f"singular_decomposition:{_called_builtin(node)}"
        for node in decompositions
        if _singular_by_construction(node.args[0], names)
    }


def _component_hazards(function: _Function) -> set[str]:
    flags = set()
    # Loop variables of `range(<constant>)` loops: `v[k] = ...` in such a loop stores one component per pass.
    unrolled = {
        node.target.id
        for node in function.nodes
        if isinstance(node, ast.For)
        and isinstance(node.target, ast.Name)
        and isinstance(node.iter, ast.Call)
        and isinstance(node.iter.func, ast.Name)
        and node.iter.func.id == "range"
        and all(isinstance(a, ast.Constant) for a in node.iter.args)
    }
    # Locals that hold an array or a tile (a fixed-size `wp.zeros(...)`, `wp.tile_*(...)`, an array's alias):
    # their elements are not a vector's components.
    containers = set(function.arrays)
    for node in function.nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            called = value.func.attr if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) else ""
            if called.startswith("tile") or called in _CONTAINER_CALLS:
                containers.add(node.targets[0].id)
            elif isinstance(value, ast.Name) and value.id in containers:
                containers.add(node.targets[0].id)
    for node in function.nodes:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        )
        for t in targets:
            if not isinstance(t, (ast.Attribute, ast.Subscript)) or not isinstance(t.value, ast.Name):
                continue
            if t.value.id in containers:
                continue
            if isinstance(t, ast.Attribute) and t.attr in ("x", "y", "z", "w"):
                flags.add(f"component_assignment:{t.value.id}")
            elif isinstance(t, ast.Subscript) and _component_index(t.slice, unrolled):
                flags.add(f"component_assignment:{t.value.id}")
    return flags


_CONTAINER_CALLS = frozenset({"zeros", "ones", "full", "empty", "zeros_like", "empty_like", "full_like", "array"})


def _component_index(index: ast.expr, unrolled: set[str]) -> bool:
    """`v[1]`, `m[0, 2]`, `v[k]` with `k` a constant-range loop's variable: the index of a vector's or matrix's
    component. An array's element is indexed by thread or runtime values, which this leaves out (a local
    alias of an array indexed by a constant would be flagged too: none seen in real or generated kernels)."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return all(
        (isinstance(p, ast.Constant) and isinstance(p.value, int)) or (isinstance(p, ast.Name) and p.id in unrolled)
        for p in parts
    )


_LOCKING_ATOMICS = frozenset({"atomic_cas", "atomic_exch"})


def _spin_wait_hazards(function: _Function) -> set[str]:
    """A `wp.func` that spins on a lock: a `while` whose condition reads an `atomic_cas`/`atomic_exch` result,
    called there or held in a local name (`taken = wp.atomic_cas(...)`, `while taken == 1:`), and whose body
    cannot leave the loop (no `break` or `return`: a retry loop that can give up, as newton's contact reducer's
    `atomic_add` reservation, ends when replayed). Its adjoint replays the wait."""
    named = (d.func if isinstance(d, ast.Call) else d for d in function.node.decorator_list)
    if not any(isinstance(d, ast.Attribute) and d.attr == "func" for d in named):
        return set()  # in the kernel itself, the backward's forward replay reaches the release too

    def locking(node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and _called_builtin(node) in _LOCKING_ATOMICS

    results = {
        t.id
        for n in function.nodes
        if isinstance(n, ast.Assign) and any(locking(v) for v in ast.walk(n.value))
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    for loop in function.nodes:
        if not isinstance(loop, ast.While) or any(
            isinstance(n, ast.Break | ast.Return) for stmt in loop.body for n in ast.walk(stmt)
        ):
            continue
        if any(locking(n) or (isinstance(n, ast.Name) and n.id in results) for n in ast.walk(loop.test)):
            return {f"spin_wait:{function.node.name}"}
    return set()


_HAND_WRITTEN = frozenset({"func_grad", "func_replay"})


def _underived_adjoint_hazards(function: _Function) -> set[str]:
    """Adjoints Warp does not derive: written by hand (a decorator handing Warp another function's adjoint or
    replay), absent (an array made from a pointer), or a second derivative (`wp.grad` in the kernel)."""
    flags = set()
    for decorator in function.node.decorator_list:
        if isinstance(decorator, ast.Call) and _called_builtin(decorator) in _HAND_WRITTEN and decorator.args:
            flags.add(f"custom_adjoint:{ast.unparse(decorator.args[0])}")
    for node in function.nodes:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and _called_builtin(node.value) == "array":
            if any(k.arg == "ptr" for k in node.value.keywords):
                flags.update(f"pointer_array:{t.id}" for t in node.targets if isinstance(t, ast.Name))
        if isinstance(node, ast.Call) and _called_builtin(node) == "grad":
            flags.add("missing_adjoint:grad")  # a derivative's adjoint is a second derivative, which Warp never makes
    return flags


def adjoint_hazards(source: str, max_unroll: int | None = None, tree: ast.Module | None = None) -> list[str]:
    """Sorted flags for the constructs in `source` whose Warp 1.19 adjoint is known wrong or missing.

    `tree`: `ast.parse(source)`, when the caller has it already. Each function's nodes are walked once
    and shared by the checks (each walking them on its own made this ~2 ms per row, as much as a
    quarter of Warp's codegen of the row).
    """
    limit = int(wp.config.max_unroll if max_unroll is None else max_unroll)
    nodes = syntax.walk(ast.parse(source) if tree is None else tree)
    flags = _builtin_hazards(nodes)
    for node in nodes:
        if isinstance(node, ast.FunctionDef):
            function = _Function.of(node)
            flags |= _loop_hazards(function, limit) | _rng_hazards(function) | _inplace_hazards(function)
            flags |= _decomposition_hazards(function) | _component_hazards(function)
            flags |= _atomic_result_hazards(function) | _underived_adjoint_hazards(function)
            flags |= _spin_wait_hazards(function)
    return sorted(flags)
