"""Statements and whole kernels: what the grammar's expressions are written into.

A `KernelBuilder` owns the kernel's arguments (arrays with their shapes, scalar parameters,
structs), its `wp.func` helpers and its body lines; `program()` returns the source plus the
launch record. Every array access uses indices inside the declared shape, every loop has a
known trip count, and loop accumulators are never read inside their loop, so the
magnitude bounds of `grammar` hold.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from warp_cuda_ir.synthesis import typesys
from warp_cuda_ir.synthesis.grammar import INDENT, Expr, Expressions, Var, limit, variable_value
from warp_cuda_ir.synthesis.program import Argument, KernelProgram

TID_NAMES = (("i",), ("i", "j"), ("i", "j", "k"), ("i", "j", "k", "l"))
_WORDS = (
    "pos", "vel", "force", "mass", "rho", "phi", "grid", "field", "src", "dst", "weights", "coeffs", "signal",
    "values", "points", "normals", "frames", "rot", "xform", "energy", "flux", "heat", "density", "state",
    "alpha", "beta", "gain", "bias", "offsets", "scale", "samples", "table", "counts", "hist", "result",
)  # fmt: skip
_CONSTANT = re.compile(r"[\s()\-~+.\d]+")
_CAST_OF_NAME = re.compile(r"(?:wp\.\w+|float|int)\((\w+)\)")
_LOCALS = ("t", "u", "w", "d", "r", "s", "h", "g", "p", "q", "e", "m", "n", "z", "c", "f", "a", "b")


@dataclass
class ArraySpec:
    name: str
    dtype: str
    shape: tuple[int, ...]
    role: str
    init: dict[str, object]


@dataclass
class KernelBuilder:
    rng: random.Random
    expressions: Expressions
    kernel_name: str
    launch_dim: tuple[int, ...]
    lines: list[str] = field(default_factory=list)
    arguments: list[tuple[str, str, Argument]] = field(default_factory=list)  # (name, annotation, record)
    prelude: list[str] = field(default_factory=list)  # structs and wp.func helpers, in order
    weights: dict[str, float] = field(default_factory=dict)  # statement kind -> weight (category profile)
    tuple_helpers: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    depth: int = 1
    loop_depth: int = 0
    _names: set[str] = field(default_factory=set)
    _copies: set[str] = field(default_factory=set)  # variables holding an input element unchanged

    # ---- names and arguments -------------------------------------------------------------
    def fresh(self, pool: tuple[str, ...] = _LOCALS) -> str:
        base = self.rng.choice(pool)
        name, k = base, 0
        while name in self._names or name in ("i", "j", "k", "l", "wp"):
            k += 1
            name = f"{base}{k}"
        self._names.add(name)
        return name

    @property
    def tids(self) -> tuple[str, ...]:
        return TID_NAMES[len(self.launch_dim) - 1]

    def array_name(self, dtype: str, role: str) -> str:
        """A fresh name for an array argument of `dtype` and `role` (in, out, ...)."""
        return self.fresh(_WORDS)

    def param_name(self, dtype: str, role: str) -> str:
        """A fresh name for a scalar parameter of `dtype` and `role` (param, count, seed)."""
        return self.fresh(_WORDS)

    def add_array(
        self, dtype: str, role: str, shape: tuple[int, ...] | None = None, init: dict | None = None
    ) -> ArraySpec:
        shape = shape or self.launch_dim
        name = self.array_name(dtype, role)
        if init is None:
            init = {"dist": "zeros"} if role == "out" else typesys.input_recipe(dtype, self.rng)
        spec = ArraySpec(name, dtype, shape, role, init)
        annotation = typesys.array_annotation(dtype, len(shape), self.rng)
        self.arguments.append((name, annotation, Argument(name, "array", dtype, shape, role, init)))
        return spec

    def add_scalar_param(self, dtype: str, value: object | None = None, role: str = "param") -> Var:
        """A scalar kernel parameter; `role` (param, count, seed) lets subclasses name it."""
        name = self.param_name(dtype, role)
        value = typesys.scalar_value(dtype, self.rng) if value is None else value
        self.arguments.append(
            (name, typesys.parse(dtype).annotation, Argument(name, "scalar", dtype, (), "in", {"value": value}))
        )
        mag = max(abs(float(x)) for x in value) if isinstance(value, list) else abs(float(value))
        return Var(name, dtype, max(mag, 1.0))

    # ---- lines ---------------------------------------------------------------------------
    def emit(self, text: str) -> None:
        self.lines.append(INDENT * self.depth + text)

    def declare(self, e: Expr, name: str | None = None) -> Var:
        name = name or self.fresh()
        e = variable_value(e)
        self.emit(f"{name} = {e.text}")
        v = Var(name, e.type, e.mag, e.varies)
        if e.text in self._copies:
            self._copies.add(name)
        if any(e.text == u.name for u in self.expressions.scope.variables):
            self.expressions.scope.aliases[name] = self.expressions.scope.aliases.get(e.text, e.text)
        self.expressions.scope.variables.append(v)
        return v

    def index(self, spec: ArraySpec, neighbour: bool = False) -> str:
        """Thread indices into an array of the launch shape (optionally a wrapped neighbour)."""
        parts = list(self.tids[: len(spec.shape)])
        if neighbour:
            axis = self.rng.randrange(len(parts))
            n, step = spec.shape[axis], self.rng.choice([1, -1, 2])
            parts[axis] = (
                f"({parts[axis]} + {step % n}) % {n}"
                if self.rng.random() < 0.5
                else f"wp.min(wp.max({parts[axis]} + {step}, 0), {n - 1})"
            )
        return ", ".join(parts)

    def read(self, spec: ArraySpec, neighbour: bool = False) -> Var:
        mag = 5.0 if spec.init.get("dist") == "randint" else 1.0
        v = self.declare(Expr(f"{spec.name}[{self.index(spec, neighbour)}]", spec.dtype, mag, True))
        if not neighbour:
            self._copies.add(v.name)
        return v

    def write(self, spec: ArraySpec, e: Expr | None = None) -> None:
        """`out[tid] = e`, where e differs between threads and is not just a copy of an input."""
        if e is None:
            for _ in range(3):
                e = self.expressions.expr_reading(spec.dtype, self.rng.randint(1, 3))
                if e.varies and not self.is_copy(e):
                    break
            assert e is not None
            if not e.varies or self.is_copy(e):
                e = self.vary(e)
        self.emit(f"{spec.name}[{self.index(spec)}] = {e.text}")

    def is_copy(self, e: Expr) -> bool:
        """`e` is an input element unchanged: `x` or `wp.float64(x)` of a variable holding one."""
        cast = _CAST_OF_NAME.fullmatch(e.text)
        return e.text in self._copies or (cast is not None and cast.group(1) in self._copies)

    def branch_condition(self, depth: int = 1) -> Expr:
        """A grammar condition, or a split of an input (see `split_condition`) when a few draws
        find none that differs between threads: a branch taken by all threads or none is dead code."""
        cond = self.expressions.condition(depth)
        if not cond.varies:
            split = self.split_condition()
            if split is not None:
                return Expr(split, "bool", 1.0, True)
        return cond

    def vary(self, e: Expr) -> Expr:
        """`e` combined with a value that varies between threads, so an output never holds one
        constant or an input unchanged (a copy combined with itself is twice the input)."""
        other = self.expressions.varying(e.type)
        if other is None:
            return e
        if e.type == "bool":  # bools do not add
            # a constant != x is x or not x: negate, so that it cannot be an input unchanged
            text = f"(not {other.text})" if not e.varies or e.text == other.text else f"({e.text} != {other.text})"
            return Expr(text, "bool", 1.0, True)
        if e.mag + other.mag > limit(e.type):
            return other
        return Expr(f"({e.text} + {other.text})", e.type, e.mag + other.mag, True)

    # ---- blocks --------------------------------------------------------------------------
    def block(self, statements: int) -> None:
        """A nested block: its new variables go out of scope at the end, outer variables keep
        their type (Warp requires it) and get the larger of the bounds of both paths."""
        scope = self.expressions.scope
        before = len(scope.variables)
        self.depth += 1
        start = len(self.lines)
        for _ in range(statements):
            self.statement()
        if len(self.lines) == start:
            self.emit("pass")
        self.depth -= 1
        del scope.variables[before:]

    def statement(self) -> None:
        """One random statement, drawn with the category's weights."""
        rng = self.rng
        kind = rng.choices(list(self.weights), list(self.weights.values()))[0]
        getattr(self, f"stmt_{kind}")()

    def pick_type(self) -> str:
        return self.rng.choice(self.expressions.types)

    def stmt_assign(self) -> None:
        t, depth = self.pick_type(), self.rng.choice((1, 2, 2))
        e = self.expressions.expr_reading(t, depth)
        if any(e.text == v.name for v in self.expressions.scope.variables):
            e = self.expressions.expr_reading(t, depth)  # an alias `d = a` invites `d <= a`, `d - a`
        self.declare(e)

    def stmt_update(self) -> None:
        """Reassign or augment a variable of the current block level (never a loop accumulator)."""
        scope = self.expressions.scope
        candidates = [v for v in scope.variables if v.name not in scope.hidden and typesys.parse(v.type).kind != "bool"]
        if not candidates or self.loop_depth:
            return self.stmt_assign()
        v = self.rng.choice(candidates)
        e = self.expressions.expr_reading(v.type, self.rng.randint(1, 2), tries=2)
        if e.text.strip("()-") == v.name:  # `v = v`, `v -= v`, `v += (-v)`: nothing, or zero
            return self.stmt_assign()
        t = typesys.parse(v.type)
        self._copies.discard(v.name)
        self.expressions.scope.aliases.pop(v.name, None)
        if t.kind in ("float", "int", "vec", "spatial_vector") and self.rng.random() < 0.5:
            op = self.rng.choice(["+=", "-="])
            if e.mag + v.mag > limit(v.type):
                return None
            self.emit(f"{v.name} {op} {e.text}")
            v.mag = v.mag + e.mag
            v.varies = v.varies or e.varies
        else:
            # in a branch the old value survives on the other path; at the top level it is replaced
            v.varies = e.varies or (v.varies and self.depth > 1)
            text = e.text
            if t.kind in ("float", "int") and _CONSTANT.fullmatch(text):
                # Warp types a folded constant like `(-4)` as int64 when branches merge: keep the type
                text = f"{t.annotation.removeprefix('wp.') if t.name in ('float32', 'int32') else t.annotation}({text})"
            self.emit(f"{v.name} = {text}")
            v.mag = max(v.mag, e.mag)
        return None

    def loop(
        self,
        header: str,
        counter: str,
        trips: int,
        while_counter: bool = False,
        cast: bool = False,
        varying_trips: bool = False,
    ) -> None:
        """`for`/`while` with a known trip count; accumulators are summed, never read inside."""
        rng = self.rng
        scope = self.expressions.scope
        acc_type = rng.choice([t for t in self.expressions.types if typesys.parse(t).kind != "bool"] or ["float32"])
        acc = self.declare(Expr(typesys.zero(acc_type), acc_type, 0.0), self.fresh(("acc", "total", "s", "sum_")))
        self.emit(header)
        self.depth += 1
        before = len(scope.variables)
        scope.hidden.add(acc.name)
        # An unrolled range's counter is a Warp constant: typed int64 for range(start, stop[, step]),
        # and retyped by any cast of it (`wp.int64(kk)`, Warp 1.19). Read it as int(counter).
        scope.variables.append(Var(f"int({counter})" if cast else counter, "int32", float(trips + 4)))
        self.loop_depth += 1
        for _ in range(rng.randint(0, 2)):
            self.statement()
        cond = self.branch_condition(1) if rng.random() < 0.3 else None
        if cond is not None and cond.varies:  # a decided test would break every time or never
            varying_trips = True
            self.emit(f"if {cond.text}:")
            self.depth += 1
            self.emit(rng.choice(["break", "continue"]) if not while_counter else "break")
            self.depth -= 1
        term = self.expressions.expr_reading(acc_type, rng.randint(1, 2), tries=2)
        bound = limit(acc_type) / max(trips, 1) / 2
        if term.mag > bound:
            term = self.expressions.leaf(acc_type)
        op = rng.choice(["+=", "-="]) if term.mag <= bound else "+="
        self.emit(f"{acc.name} {op} {term.text}")
        if while_counter:
            self.emit(f"{counter} += 1")
        self.loop_depth -= 1
        scope.hidden.discard(acc.name)
        del scope.variables[before:]
        self.depth -= 1
        acc.mag = term.mag * trips
        acc.varies = term.varies or varying_trips

    def stmt_for(self) -> None:
        rng = self.rng
        counter = self.fresh(("it", "n", "step", "kk", "m", "q"))
        # Warp unrolls constant ranges: nested constant loops multiply the generated code
        roll = 1.0 if self.loop_depth else rng.random()
        param = None
        if roll < 0.4:
            trips = rng.randint(2, 6)
            header = f"for {counter} in range({trips}):"
        elif roll < 0.6:
            lo = rng.randint(0, 2)
            trips = rng.randint(1, 5)
            header = f"for {counter} in range({lo}, {lo + trips}):"
        elif roll < 0.75:
            trips = rng.randint(2, 5)
            header = f"for {counter} in range({trips}, 0, -1):"
        else:  # dynamic trip count from a kernel parameter
            trips = rng.randint(1, 6)
            param = self.add_scalar_param("int32", trips, role="count")
            header = f"for {counter} in range({param.name}):"
        if self.loop_depth >= 2:
            return self.stmt_assign()
        self.loop(header, counter, trips, cast=param is None)
        return None

    def stmt_while(self) -> None:
        if self.loop_depth >= 2:
            return self.stmt_assign()
        counter = self.fresh(("it", "count", "iters"))
        trips = self.rng.randint(2, 8)
        self.emit(f"{counter} = int(0)")
        cond, varies = "", False
        if self.rng.random() < 0.5:
            c = self.branch_condition(1)
            if c.varies:  # `it < 3 and wp.isfinite(v)`: a decided clause joined to the count cannot matter
                cond, varies = f" and ({c.text})", True
        self.loop(f"while {counter} < {trips}{cond}:", counter, trips, while_counter=True, varying_trips=varies)
        return None

    def stmt_return(self) -> None:
        if self.loop_depth or self.depth > 1:
            return self.stmt_assign()
        cond = self.split_condition()
        if cond is None:
            return self.stmt_assign()
        self.emit(f"if {cond}:")
        self.depth += 1
        self.emit("return")
        self.depth -= 1
        return None

    def split_condition(self) -> str | None:
        """A condition true in some threads and false in others, for a branch or an early `return` (one
        true everywhere leaves every output unwritten); None when there is none. The generator's builder
        (`meaning.MeaningBuilder`) splits the thread's own inputs; this one draws none."""
        return None

    def stmt_tuple(self) -> None:
        """Built-ins and helpers returning several values: `a, b = f(...)`."""
        rng = self.rng
        options = self.tuple_helpers
        pool = [
            ("svd3", ("mat33",), ("mat33", "vec3", "mat33")),
            ("svd2", ("mat22",), ("mat22", "vec2", "mat22")),
            ("qr3", ("mat33",), ("mat33", "mat33")),
            ("eig3", ("mat33",), ("mat33", "vec3")),
        ]
        if options and rng.random() < 0.7:
            name, args, results = rng.choice(options)
            values = [self.expressions.expr(a, 1) for a in args]
            call = f"{name}({', '.join(v.text for v in values)})"
            mags = [4.0 * len(results)] * len(results)
        else:
            name, args, results = rng.choice(pool)
            m = self.expressions.expr(args[0], 1)
            values = [m]
            call = f"wp.{name}({m.text})"
            if name == "eig3":  # eig3 assumes a symmetric matrix
                call = f"wp.{name}({m.text} + wp.transpose({m.text}))"
            elif name == "svd2":  # Warp's svd2 returns NaN singular values for nearly singular matrices
                call = f"wp.{name}({m.text} * wp.transpose({m.text}) + wp.identity(n=2, dtype=float))"
            mags = [max(m.mag, 1.0) * 3] * len(results)
        targets = [self.fresh() for _ in results]
        self.emit(f"{', '.join(targets)} = {call}")
        varies = any(v.varies for v in values)
        for t, r, mag in zip(targets, results, mags, strict=True):
            self.expressions.scope.variables.append(Var(t, r, mag, varies))

    # ---- assembly ------------------------------------------------------------------------
    def program(self, category: str) -> KernelProgram:
        params = ", ".join(f"{name}: {annotation}" for name, annotation, _ in self.arguments)
        parts = ["import warp as wp", ""]
        for chunk in self.prelude:
            parts += ["", chunk.rstrip("\n"), ""]
        parts += ["", "@wp.kernel", f"def {self.kernel_name}({params}):", *self.lines]
        source = "\n".join(parts).replace("\n\n\n\n", "\n\n\n") + "\n"
        source = source.replace("import warp as wp\n\n\n\n", "import warp as wp\n\n\n")
        return KernelProgram(category, self.kernel_name, source, self.launch_dim, tuple(a for *_, a in self.arguments))
