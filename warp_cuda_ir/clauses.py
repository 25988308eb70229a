"""Compound conditions whose clauses cannot all matter, and helpers defined twice: read off the source alone.

A clause of a compound condition (`a and b`, `a or not b`, in an `if`, `elif`, `while`, conditional
expression, `wp.where` selector or any boolean value) *matters* when the condition's outcome on some input
depends on it: it is idle when one constant in its place (True or False) gives the same outcome on every
input. `if val < -0.2599 and val < 0.3602:` has an idle clause (the second is implied by the first), so has
`if r > 0.2089 and (r < -0.0047 or not flag):` (the first contradicts the inner clause on `r`).

This reading is independent of the generator's rules (`synthesis` cannot import it; both read a literal
with `literals`): each clause that compares one value (an *atom*: a name, an element `a[i]`, a component
`v.x`, a call) with a numeric constant is decided, for every value of that atom, by the cell of the number
line it falls in (the constants split it into points and open intervals); an atom's domain narrows the
cells (`wp.length(v)` is never negative; a declared input range, when the caller gives one). Every other
clause is a free boolean, shared by clauses of the same text, unless it takes one value on every one of
`SAMPLES` sampled inputs (`total - 0.97 > total`, `wp.length(v) <= -0.5`, `float(s) > s`): then it is that
constant (`expression_values` evaluates it; a clause it cannot evaluate stays free). The condition is evaluated on every
combination of cells and free booleans, each clause replaced by True and by False. Atoms are taken as
independent and real-valued: an integer atom between two constants one apart, or two atoms with one value,
can hide an idle clause from this reading, never invent one.
"""

from __future__ import annotations

import ast
import itertools
import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from warp_cuda_ir import expression_values, literals, syntax

# Values some built-ins can never leave, whatever their arguments.
_NONNEGATIVE = frozenset({"length", "length_sq", "abs", "sqrt", "norm_l1", "norm_l2", "norm_huber", "ddot_sq"})
_UNIT = frozenset({"sin", "cos", "tanh", "erf", "sign"})  # within [-1, 1]
_UNIT_INTERVAL = frozenset({"randf", "smoothstep", "step", "saturate"})  # within [0, 1] (`randf(state)` alone)
_COMPARISONS: dict[type, Callable[[float, float], bool]] = {
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
}
_MIRROR = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}
# Worlds evaluated per condition at most: conditions past it (many clauses on many atoms) are not judged.
MAX_WORLDS = 1 << 14
_NON_FINITE_TESTS = frozenset({"isfinite", "isnan", "isinf"})
# Sampled inputs per clause that relates two expressions: one that takes both values shows it within a few.
SAMPLES = 200


@dataclass(frozen=True)
class Finding:
    condition: str  # the compound condition's text
    clause: str  # a clause that cannot change its outcome


def _call_name(e: ast.expr) -> str | None:
    if isinstance(e, ast.Call):
        f = e.func
        return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    return None


def _leaves(e: ast.expr) -> Iterator[ast.expr]:
    """The clauses of a boolean expression: operands of `and` / `or`, through `not`."""
    if isinstance(e, ast.BoolOp):
        for v in e.values:
            yield from _leaves(v)
    elif isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        yield from _leaves(e.operand)
    else:
        yield e


def compound_conditions(tree: ast.AST) -> list[ast.BoolOp]:
    """Every outermost `and` / `or` expression, in source order (one inside another, directly or through
    `not`, is part of it)."""
    inner: set[int] = set()
    for n in syntax.walk(tree):
        if isinstance(n, ast.BoolOp):
            todo: list[ast.expr] = list(n.values)
            while todo:
                e = todo.pop()
                if isinstance(e, ast.BoolOp):
                    inner.add(id(e))
                    todo += e.values
                elif isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
                    todo.append(e.operand)
    found = [n for n in syntax.walk(tree) if isinstance(n, ast.BoolOp) and id(n) not in inner]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


@dataclass(frozen=True)
class _Bound:
    """One clause `atom <op> constant` (chained comparisons: all of their parts)."""

    atom: str
    parts: tuple[tuple[type, float], ...]

    def holds(self, x: float) -> bool:
        return all(_COMPARISONS[op](x, c) for op, c in self.parts)


def _bound(e: ast.expr) -> _Bound | None:
    if not isinstance(e, ast.Compare):
        return None
    operands = [e.left, *e.comparators]
    atom: str | None = None
    parts = []
    for (a, b), op in zip(itertools.pairwise(operands), e.ops, strict=True):
        ca, cb = literals.number(a), literals.number(b)
        kind = type(op)
        if kind not in _COMPARISONS:
            return None
        if ca is None and cb is not None:
            side, value = ast.unparse(a), cb
        elif cb is None and ca is not None:
            side, value, kind = ast.unparse(b), ca, _MIRROR[kind]
        else:
            return None
        if atom not in (None, side):
            return None
        atom = side
        parts.append((kind, value))
    return _Bound(atom, tuple(parts)) if atom is not None else None


def _domain(atom: str, ranges: Mapping[str, tuple[float, float]]) -> tuple[float, float]:
    """The values `atom` can take: a declared range (of the atom, or the array it is an element of), else
    the range of the built-in it calls, else the whole line."""
    tree = ast.parse(atom, mode="eval").body
    root = tree
    while isinstance(root, (ast.Subscript, ast.Attribute)):
        root = root.value
    if isinstance(root, ast.Name) and root.id in ranges:
        return ranges[root.id]
    name = _call_name(tree)
    if name in _NONNEGATIVE:
        return (0.0, math.inf)
    if name in _UNIT:
        return (-1.0, 1.0)
    if name in _UNIT_INTERVAL:
        return (0.0, 1.0)
    return (-math.inf, math.inf)


def _cells(constants: list[float], low: float, high: float) -> list[float]:
    """One value per cell of the line that `constants` split, within [low, high]: the constants themselves and
    a point inside each open interval between and around them."""
    points = sorted({c for c in constants if low <= c <= high})
    edges = [low, *points, high]
    out = list(points)
    for a, b in itertools.pairwise(edges):
        if a < b:
            if math.isinf(a) and math.isinf(b):
                out.append(0.0)
            elif math.isinf(a):
                out.append(b - 1.0)
            elif math.isinf(b):
                out.append(a + 1.0)
            else:
                out.append((a + b) / 2)
    if not math.isinf(low):
        out.append(low)
    if not math.isinf(high):
        out.append(high)
    return sorted(set(out))


def _evaluate(e: ast.expr, value: Callable[[ast.expr], bool]) -> bool:
    if isinstance(e, ast.BoolOp):
        results = (_evaluate(v, value) for v in e.values)
        return all(results) if isinstance(e.op, ast.And) else any(results)
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return not _evaluate(e.operand, value)
    return value(e)


def idle_clauses(condition: ast.BoolOp, ranges: Mapping[str, tuple[float, float]] | None = None) -> list[str]:
    """The clauses of `condition` that cannot change its outcome (see the module's docstring); [] also when
    the condition has too many combinations to judge."""
    ranges = ranges or {}
    leaves = list(_leaves(condition))
    texts = {id(leaf): ast.unparse(leaf) for leaf in leaves}
    # a clause may be decided by its form whatever the values (`x - 0.5 > x`, `float(s) > s`,
    # `wp.uint32(c) * wp.uint32(0) <= wp.uint32(1)`): then it is that constant
    decided = {text: _decided(text) for text in set(texts.values())}
    bounds = {id(leaf): None if decided[texts[id(leaf)]] is not None else _bound(leaf) for leaf in leaves}
    atoms: dict[str, list[float]] = {}
    for b in bounds.values():
        if b is not None:
            atoms.setdefault(b.atom, []).extend(c for _, c in b.parts)
    free = sorted({texts[id(leaf)] for leaf in leaves if bounds[id(leaf)] is None and decided[texts[id(leaf)]] is None})
    cells = {atom: _cells(cs, *_domain(atom, ranges)) for atom, cs in atoms.items()}
    worlds = math.prod(len(c) for c in cells.values()) * 2 ** len(free)
    if worlds > MAX_WORLDS:
        return []
    names = list(cells)
    table = []  # per world: each leaf's truth
    for values in itertools.product(*(cells[a] for a in names)):
        at = dict(zip(names, values, strict=True))
        for flags in itertools.product((False, True), repeat=len(free)):
            given = dict(zip(free, flags, strict=True))
            row = {}
            for leaf in leaves:
                b = bounds[id(leaf)]
                text = texts[id(leaf)]
                row[id(leaf)] = b.holds(at[b.atom]) if b is not None else given.get(text, decided[text])
            table.append(row)
    if not table:
        return []
    outcomes = _outcomes(condition, table)
    return [ast.unparse(leaf) for leaf in leaves if any(_outcomes(condition, table, (id(leaf), k)) == outcomes
                                                         for k in (False, True))]  # fmt: skip


class _Element:
    """A value read by index or component (`a[i]`, `m[1, 2]`, `v.x`): one sampled number per index."""

    def __init__(self, rng: random.Random, near: list[float], special: bool) -> None:
        self.rng, self.near, self.special, self.values = rng, near, special, {}

    def __getitem__(self, index: object) -> float:
        if index not in self.values:
            self.values[index] = _number(self.rng, self.near, self.special)
        return self.values[index]

    def __getattr__(self, name: str) -> float:
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]


def _number(rng: random.Random, near: list[float], special: bool = False) -> float:
    """A value on a scale from 1e-2 to 1e3, either sign, a third of them integers (loop counts, indices); or,
    half of the time, one next to a constant of the clause (`d > 1.0e6` must see values on both sides); with
    `special`, now and then an infinity or a NaN."""
    if special and rng.random() < 0.1:
        return rng.choice((math.inf, -math.inf, math.nan))
    if near and rng.random() < 0.5:
        return rng.choice(near)
    x = rng.uniform(-1.0, 1.0) * rng.choice((0.01, 0.1, 1.0, 10.0, 1000.0))
    return float(round(x * 4)) if rng.random() < 1 / 3 else x


def _decided(text: str) -> bool | None:
    """The value a clause takes on every one of `SAMPLES` sampled inputs, or None when it takes both or cannot be
    evaluated here: names read by index get a number per index, other names one number each."""
    tree = ast.parse(text, mode="eval").body
    if any(isinstance(op, (ast.Eq, ast.NotEq)) for n in ast.walk(tree) if isinstance(n, ast.Compare) for op in n.ops):
        return None  # equality of two computed values holds on few inputs, which sampling rarely meets
    indexed = {
        n.value.id
        for n in ast.walk(tree)
        if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.value, ast.Name) and n.value.id != "wp"
    }
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id != "wp"}
    constants = {c for n in ast.walk(tree) if (c := literals.number(n)) is not None and math.isfinite(c)}
    near = sorted({v for c in constants for v in (c, -c, c - 1, c + 1, 2 * c, c / 2, c * 1.01, c * 0.99)})
    # non-finite inputs only where the clause asks about them: any ordered comparison is False on a NaN, so
    # they would make every decided comparison look live
    special = any(_call_name(n) in _NON_FINITE_TESTS for n in ast.walk(tree) if isinstance(n, ast.expr))
    rng = random.Random(text)

    def draw() -> dict[str, object]:
        return {n: _Element(rng, near, special) if n in indexed else _number(rng, near, special) for n in names}

    return expression_values.constant_value(tree, draw, SAMPLES)


def _outcomes(condition: ast.expr, table: list[dict[int, bool]], fixed: tuple[int, bool] | None = None) -> list[bool]:
    """The condition's outcome in each world of `table`, with one clause (by id) fixed to a constant if asked."""
    out = []
    for row in table:
        given = row if fixed is None else {**row, fixed[0]: fixed[1]}
        out.append(_evaluate(condition, lambda leaf, given=given: given[id(leaf)]))
    return out


def _copies(tree: ast.AST, ranges: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Locals that only ever hold an element of an argument with a declared range (`x = a[i]`, assigned once,
    never updated in part): they share its range."""
    writes: dict[str, int] = {}
    source_of: dict[str, str] = {}
    for n in syntax.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(n, ast.Assign):
            targets = n.targets
            if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Subscript):
                root = n.value.value
                if isinstance(root, ast.Name):
                    source_of[n.targets[0].id] = root.id
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For)):
            targets = [n.target]
        elif isinstance(n, ast.arg):
            writes[n.arg] = writes.get(n.arg, 0) + 2  # a helper's parameter: whatever it is passed
        for t in targets:
            for m in syntax.walk(t):
                if isinstance(m, ast.Name) and isinstance(m.ctx, ast.Store):
                    writes[m.id] = writes.get(m.id, 0) + 1
            while isinstance(t, (ast.Subscript, ast.Attribute)):  # `x.y = ...`, `x[0] = ...`: x changes
                t = t.value
                if isinstance(t, ast.Name):
                    writes[t.id] = writes.get(t.id, 0) + 2
    return {
        name: ranges[array]
        for name, array in source_of.items()
        if writes.get(name) == 1 and array in ranges and writes.get(array, 0) <= 2  # the array: its parameter
    }


def findings(source: str, ranges: Mapping[str, tuple[float, float]] | None = None) -> tuple[int, list[Finding]]:
    """(compound conditions in `source`, one finding per idle clause). `ranges`: declared ranges of the
    kernel's arguments (`declared_ranges`); locals that copy an element of one share its range."""
    tree = ast.parse(source)
    conditions = compound_conditions(tree)
    if ranges:
        ranges = {**ranges, **_copies(tree, ranges)}
    found = [Finding(ast.unparse(c), clause) for c in conditions for clause in idle_clauses(c, ranges)]
    return len(conditions), found


def duplicate_helpers(source: str | ast.Module) -> list[tuple[str, str]]:
    """Pairs of `@wp.func` helpers with the same parameter names and body under two names (`source`: its text or
    its parsed tree). Types are left out: `store_a(dst: wp.array(dtype=int), ...)` and `store_b(dst:
    wp.array(dtype=float), ...)` with one body read as one function written twice (Warp's generic parameters
    would make it one); helpers of one name are Warp overloads, not counted."""
    tree = ast.parse(source) if isinstance(source, str) else source
    seen: dict[str, str] = {}
    pairs = []
    for f in tree.body:
        if not isinstance(f, ast.FunctionDef) or not any("func" in ast.unparse(d) for d in f.decorator_list):
            continue
        parameters = [a.arg for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs)]
        key = repr(parameters) + "".join(ast.dump(n) for n in f.body)
        if key in seen and seen[key] != f.name:
            pairs.append((seen[key], f.name))
        else:
            seen[key] = f.name
    return pairs


def declared_ranges(arguments: list[dict]) -> dict[str, tuple[float, float]]:
    """Each argument's declared range from a row's `arguments` (`init` recipes): uniform draws, integer draws,
    zeros, a scalar's value; arguments without one are left out."""
    import json

    out: dict[str, tuple[float, float]] = {}
    for a in arguments:
        init = a["init"] if isinstance(a["init"], dict) else json.loads(a["init"] or "{}")
        dist = init.get("dist")
        if dist == "uniform":
            out[a["name"]] = (float(init["low"]), float(init["high"]))
        elif dist == "randint":
            out[a["name"]] = (float(init["low"]), float(init["high"]) - 1)
        elif dist == "zeros":
            out[a["name"]] = (0.0, 0.0)
        elif "value" in init and isinstance(init["value"], (int, float)) and not isinstance(init["value"], bool):
            out[a["name"]] = (float(init["value"]), float(init["value"]))
    return out
