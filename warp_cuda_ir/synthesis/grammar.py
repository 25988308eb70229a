"""Typed expression and statement grammar over Warp's language.

`Expressions` builds expressions of a requested type from the catalogue's productions and
the variables in scope, tracking a bound on each value's magnitude so the program stays
finite (`limit`). Statements (assignments, branches, bounded loops, atomics, array reads and
writes) and the kernel source plus its launch record are `kernels.KernelBuilder`'s job.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

from warp_cuda_ir.synthesis import catalogue, probe, typesys
from warp_cuda_ir.synthesis.catalogue import Production

INDENT = "    "
HELPER_ARG = 4.0  # helpers are generated for arguments up to this magnitude
# Built-ins whose result is one value (nearly) everywhere for the finite, random inputs the generator
# makes: nothing is nan or inf, a random float is nonzero, random triangles rarely intersect.
NEARLY_CONSTANT = frozenset({"isnan", "isinf", "isfinite", "nonzero", "intersect_tri_tri"})
# Built-ins that collapse when two arguments are the same expression: `x - x`, `cross(v, v)`,
# `min(x, x)`, `lerp(a, a, t)`, `x ^ x` are zero, or the argument again.
DEGENERATE_ON_EQUAL_ARGS = frozenset(
    {"sub", "bit_xor", "bit_and", "bit_or", "cross", "spatial_cross", "min", "max", "lerp", "atan2", "copysign"}
    | {"clamp"}
)
# Truncation toward zero: of a float within [-1, 1] it is 0 (almost) everywhere.
_TRUNCATING = frozenset({"int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "trunc"})
# Products: zero when an argument is the zero constructor (`wp.vec3()`).
_PRODUCTS = frozenset(
    {"mul", "dot", "cross", "cw_mul", "outer", "ddot", "spatial_dot", "spatial_cross", "spatial_cross_dual", "div"}
    | {"cw_div", "quat_rotate", "quat_rotate_inv", "transform_vector", "skew"}
)
_ZERO_CONSTRUCTOR = re.compile(r"wp\.(" + "|".join(typesys.COMPOSITES) + r")\(\)")


@dataclass(frozen=True)
class Expr:
    text: str
    type: str
    mag: float  # upper bound on |components| given |inputs| <= 1
    varies: bool = False  # differs between threads: reads an input array, the thread index or random numbers


@dataclass
class Var:
    name: str
    type: str
    mag: float
    varies: bool = False  # see Expr.varies


def limit(type_name: str) -> float:
    """Largest magnitude an expression may reach: float16 overflows at 65504, keep far below."""
    t = typesys.parse(type_name)
    if t.scalar == "float16":
        return 50.0
    if t.scalar == "uint32":
        return 1e12  # wraps, well defined
    return 1e4


def _magnitude(p: Production, mags: list[float]) -> float:
    if p.name in catalogue.BOUNDED:
        bound = catalogue.BOUNDED[p.name]
        return min(mags[0], mags[1] + 1) if p.name == "mod" else float(bound)
    if p.name in ("add", "sub", "min", "max", "lerp", "where"):
        return sum(mags)
    if p.name in ("sqrt", "cbrt"):
        return math.sqrt(mags[0]) + 1
    if p.name == "pow":
        return (mags[0] + 1) ** 2.5
    if p.name in ("neg", "abs", "floor", "ceil", "trunc", "round", "rint", "div", "floordiv", "clamp", "invert"):
        return mags[0] + 1
    if p.name == "determinant":
        return mags[0] ** typesys.parse(p.args[0]).size * 24 + 1
    size = max(typesys.parse(a).components for a in p.args)
    return math.prod(max(1.0, m) for m in mags) * size


def _signed(uint32_text: str) -> str:
    """A uint32 value read as int32 before it becomes a float16: an unsigned result that wrapped below
    zero (`wp.uint32(1) - wp.uint32(2)`) is about 4e9, past float16's 65504, but -1 as int32."""
    return f"wp.int32({uint32_text})"


_CALLED = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*\(")  # `wp.sqrt(`, `helper(`: a function, not a value
_READ = re.compile(r"(?<![\w.])[A-Za-z_]\w*")


def values_read(text: str) -> set[str]:
    """The variables an expression's text reads (`x`, `v` of `v[0]`, `cfg` of `cfg.gain`); no function names,
    keywords or constants."""
    return set(_READ.findall(_CALLED.sub("(", text))) - {"and", "or", "not", "True", "False", "float", "int"}


def variable_value(e: Expr) -> Expr:
    """`e` made fit to bind to a new variable: never a bare literal.

    A literal (however signed or parenthesised) makes a Warp constant, which loops may not mutate,
    and casting one (`wp.float64(c)`) retypes it for every later read in Warp 1.19: bind the value
    through the type's constructor instead, which makes an ordinary variable.
    """
    core = e.text.replace("(", "").replace(")", "").replace(" ", "").lstrip("+-")
    if core.replace(".", "", 1).isdigit() or core in ("True", "False"):
        return Expr(f"{typesys.parse(e.type).annotation.removeprefix('wp.')}({e.text})", e.type, e.mag, e.varies)
    return e


@dataclass
class Scope:
    variables: list[Var] = field(default_factory=list)
    hidden: set[str] = field(default_factory=set)  # accumulators of the enclosing loops: not readable
    aliases: dict[str, str] = field(default_factory=dict)  # `d = a`: d -> a (until d is reassigned)

    def readable(self, type_name: str) -> list[Var]:
        return [v for v in self.variables if v.type == type_name and v.name not in self.hidden]

    def same(self, a: Expr, b: Expr) -> bool:
        """The same value: equal text, or two names for one variable."""
        return self.aliases.get(a.text, a.text) == self.aliases.get(b.text, b.text)


class Expressions:
    """Random typed expressions: productions whose result type is the one asked for."""

    def __init__(self, rng: random.Random, types: tuple[str, ...], focus: frozenset[str] = frozenset()) -> None:
        self.rng = rng
        self.types = types  # value types this program uses (drives conversions and leaves)
        self.focus = focus  # built-ins this category favours
        self.scope = Scope()
        self.state: str | None = None  # name of a random-number state, when the kernel has one
        self.extra: list[Production] = []  # generated wp.func helpers, callable like built-ins
        self.helper_bounds: dict[str, float] = {}  # helper -> bound of its result (arguments within HELPER_ARG)
        self.helper_varies: dict[str, bool] = {}  # helper -> whether its result depends on its arguments
        self._choices: dict[tuple[str, int, bool], tuple[list[Production], list[Production]]] = {}

    def production_choices(self, type_name: str) -> list[Production]:
        return self._production_choices(type_name)[0]

    def _production_choices(self, type_name: str) -> tuple[list[Production], list[Production]]:
        """(productions returning `type_name`, those of them in focus), memoised: they change only
        when a helper is added or the random state appears."""
        key = (type_name, len(self.extra), self.state is None)
        if key not in self._choices:
            table = catalogue.by_result().get(type_name, ())
            allowed = [p for p in (*table, *self.extra) if p.result == type_name]
            choices = [p for p in allowed if self.state is not None or p.name not in catalogue.NEEDS_STATE]
            self._choices[key] = (choices, [p for p in choices if p.name in self.focus])
        return self._choices[key]

    def _draw(self, pool: list[Production]) -> Production:
        """The production to try next; generators that weight built-ins override this (`meaning`)."""
        return self.rng.choice(pool)

    where_rate = 0.04  # share of inner expressions drawn as `wp.where(...)` (`meaning` draws fewer)

    def expr(self, type_name: str, depth: int) -> Expr:
        rng = self.rng
        if depth > 0 and rng.random() < self.where_rate:
            return self.where(type_name, depth)
        if depth > 0 and rng.random() < 0.6:
            choices, focused = self._production_choices(type_name)
            for _ in range(3):
                if not choices:
                    break
                p = self._draw(focused if focused and rng.random() < 0.6 else choices)
                e = self.apply(p, depth)
                if e is not None:
                    return e
        return self.leaf(type_name)

    def expr_reading(self, type_name: str, depth: int, tries: int = 4) -> Expr:
        """An expression whose value varies between threads, when a few draws find one; failing
        that, one that reads at least one variable in scope (a result computed from constants
        only teaches nothing)."""
        drawn = []
        for _ in range(tries):
            e = self.expr(type_name, depth)
            if e.varies:
                return e
            drawn.append(e)
        names = {v.name.removeprefix("int(").removesuffix(")") for v in self.scope.variables}
        if names:  # compiled only when needed: it is the costly part
            pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b")
            return next((e for e in drawn if pattern.search(e.text)), drawn[-1])
        return drawn[-1]

    def where(self, type_name: str, depth: int) -> Expr:
        """`wp.where(cond, a, b)`: Warp's branch-free select, for any value type."""
        a, b = self.expr(type_name, depth - 1), self.expr(type_name, depth - 1)
        if self.scope.same(a, b):  # selecting between equal values selects nothing
            return a
        c = self.condition(0)
        return Expr(
            f"wp.where({c.text}, {a.text}, {b.text})", type_name, max(a.mag, b.mag), c.varies or a.varies or b.varies
        )

    def apply(self, p: Production, depth: int) -> Expr | None:
        arg_types = (p.result,) if p.name in catalogue.GUARD_ARGS else p.args
        if p.name in catalogue.NEEDS_STATE:  # the state argument is the kernel's random state, seeded per thread
            args = [Expr(str(self.state), "uint32", 1.0, True), *(self.expr(a, depth - 1) for a in arg_types[1:])]
        else:
            args = [self.expr(a, depth - 1) for a in arg_types]
        if p.name in DEGENERATE_ON_EQUAL_ARGS and len(args) >= 2 and self.scope.same(args[0], args[1]):
            return None
        if p.name in _TRUNCATING and args[0].mag <= 1 and typesys.parse(args[0].type).kind == "float":
            return None
        if p.name in _PRODUCTS and any(_ZERO_CONSTRUCTOR.fullmatch(a.text) for a in args):
            return None
        template = catalogue.GUARDS.get(p.name, "")
        used = {int(k) for k in re.findall(r"\{(\d)\}", template)} if template else range(len(args))
        varies = any(args[k].varies for k in used if k < len(args))  # a guard may not render every argument
        if p.name in self.helper_bounds:
            if any(a.mag > HELPER_ARG for a in args):
                return None
            varies = varies and self.helper_varies.get(p.name, True)
            return Expr(f"{p.name}({', '.join(a.text for a in args)})", p.result, self.helper_bounds[p.name], varies)
        if p.name in NEARLY_CONSTANT:
            varies = False
        elif p.name in ("mod", "clamp"):  # mod(x, |d| + 1) is mostly x; clamp(c, lo, hi) of a constant c
            varies = args[0].varies
        e = Expr(self.render(p, args), p.result, _magnitude(p, [a.mag for a in args]), varies)
        if e.mag > limit(p.result) or any(a.mag > limit(a.type) for a in args):
            return None
        return e

    def render(self, p: Production, args: list[Expr]) -> str:
        texts = [a.text for a in args]
        if p.name in catalogue.OPERATORS:
            return catalogue.OPERATORS[p.name].format(*texts)
        if p.name in ("randi", "randu") and len(texts) == 3:
            # [low, high) must not be empty: Warp takes the draw modulo high - low (0 traps on the CPU)
            low, high = texts[1], texts[2]
            lit = typesys.scalar_literal
            span = f"({high} & {lit(p.result, 255)}) + {lit(p.result, 1)}"
            return f"wp.{p.name}({texts[0]}, {low}, {low} + {span})"
        if p.name in catalogue.GUARDS:
            scalar_of = p.args[-1] if p.name in ("div", "mod") else p.result
            t = typesys.parse(scalar_of if p.name != "inverse" else p.args[0])
            s = t.scalar
            lit = typesys.scalar_literal
            return catalogue.GUARDS[p.name].format(
                *texts,
                eps=lit(s, 0.01 if s in typesys.FLOATS else 1),
                one=lit(s, 1.0),
                p9=lit(s, 0.9),
                p1=lit(s, 0.1),
                zero=lit(s, 0.0),
                hi=lit(s, 3.0),
                c=lit(s, self.rng.choice([0.5, 1.5, 2.0, 2.5])),
                k=lit(s, self.rng.randint(1, 3)),
                n=t.size,
                ones=f"wp.{p.result}({', '.join([lit(s, 1.0)] * typesys.parse(p.result).components)})",
                s=typesys.parse(s).annotation,
            )
        if p.name in ("int", "float"):
            return f"{p.name}({texts[0]})"
        if p.name == "float16" and args[0].type == "uint32":
            return f"wp.float16({_signed(texts[0])})"
        if p.name in typesys.SCALARS:
            return (
                f"{typesys.parse(p.name).annotation}({texts[0]})"
                if p.name in ("float32", "int32") and (self.rng.random() < 0.5)
                else f"wp.{p.name}({texts[0]})"
            )
        return f"wp.{p.name}({', '.join(texts)})"

    def leaf(self, type_name: str) -> Expr:
        rng = self.rng
        t = typesys.parse(type_name)
        variables = self.scope.readable(type_name)
        if variables and rng.random() < 0.8:
            varying = [v for v in variables if v.varies]
            v = rng.choice(varying if varying and rng.random() < 0.6 else variables)
            return Expr(v.name, type_name, v.mag, v.varies)
        if t.kind in ("vec", "quat", "spatial_vector", "mat") and rng.random() < 0.85:
            # built from scalars in scope (cast to the component type) rather than a constant
            scalar = [v for v in self.scope.variables if v.type in typesys.FLOATS and v.name not in self.scope.hidden]
            if scalar:
                parts = [rng.choice(scalar) for _ in range(t.components)]
                texts = [
                    v.name if v.type == t.scalar else f"{typesys.parse(t.scalar).annotation}({v.name})" for v in parts
                ]
                if len({v.name for v in parts}) == 1:
                    # all components equal: a matrix of them has determinant 0, a vector's min is the
                    # value, its argmin 0 ...; make some of them constants
                    for k in rng.sample(range(1, t.components), max(1, (t.components - 1) // 3)):
                        texts[k] = typesys.scalar_literal(t.scalar, rng.uniform(-1.0, 1.0))
                varies = any(v.varies for v in parts)
                return Expr(f"wp.{type_name}({', '.join(texts)})", type_name, max(v.mag for v in parts), varies)
        if t.kind in ("float", "int") and rng.random() < 0.5:
            # a component of a composite value in scope: v[k], m[r, c], v.x
            for v in rng.sample(self.scope.variables, len(self.scope.variables)):
                vt = typesys.parse(v.type)
                if v.name in self.scope.hidden or vt.is_scalar or vt.scalar != type_name:
                    continue
                if vt.kind == "mat":
                    text = f"{v.name}[{rng.randrange(vt.size)}, {rng.randrange(vt.size)}]"
                    return Expr(text, type_name, v.mag, v.varies)
                k = rng.randrange(vt.components)
                text = f"{v.name}.{'xyzw'[k]}" if vt.kind == "vec" and rng.random() < 0.4 else f"{v.name}[{k}]"
                return Expr(text, type_name, v.mag, v.varies)
        if t.kind == "int" and rng.random() < 0.3:
            ints = [v for v in self.scope.readable("int32")]
            if ints and type_name != "int32":
                v = rng.choice(ints)
                return Expr(f"wp.{type_name}({v.name})", type_name, v.mag, v.varies)
        return Expr(typesys.literal(type_name, rng), type_name, 4.0 if t.kind == "int" else 1.0)

    def condition(self, depth: int = 1, tries: int = 3) -> Expr:
        """A condition that differs between threads, when a few draws find one (a condition
        that is the same everywhere makes a branch dead, or a return that ends every thread)."""
        for _ in range(tries):
            e = self._condition(depth)
            if e.varies:
                break
        return e

    def _condition(self, depth: int) -> Expr:
        rng = self.rng
        roll = rng.random()
        if roll < 0.65:
            scalars = [t for t in self.types if typesys.parse(t).kind in ("float", "int")] or ["float32"]
            t = rng.choice(scalars)
            a, b = self.expr_reading(t, depth, tries=3), self.expr(t, max(depth - 1, 0))
            if self.scope.same(a, b):  # `x < x` is decided before it runs
                b = self.leaf(t)
                if self.scope.same(a, b):
                    b = Expr(typesys.literal(t, rng), t, 1.0)
            # floats are almost never equal: `==` / `!=` on them is (nearly) constant
            ops = ["<", ">", "<=", ">=", "!=", "=="] if typesys.parse(t).kind == "int" else ["<", ">", "<=", ">="]
            e = Expr(f"{a.text} {rng.choice(ops)} {b.text}", "bool", 1, a.varies or b.varies)
        else:
            e = self.expr("bool", depth)
        # varying operands can still make a decided comparison (`x - 0.9 > x`, `wp.length(v) <= -0.5`)
        if e.varies and probe.decided(e.text, {v.name: (v.type, v.mag) for v in self.scope.variables}):
            e = Expr(e.text, e.type, e.mag, False)
        if rng.random() < 0.25:
            other = self.condition(0, tries=1)
            # `c and False`, `c or True` are decided before they run; two clauses on one value can imply or
            # contradict each other (`n <= 3 or n >= -2`, `flag or (flag and c)`): one of them could not matter
            if e.varies and other.varies and not (values_read(e.text) & values_read(other.text)):
                e = Expr(f"({e.text}) {rng.choice(['and', 'or'])} ({other.text})", "bool", 1, e.varies)
        return e

    # ---- values that vary between threads -------------------------------------------------
    def varying(self, type_name: str) -> Expr | None:
        """A value of `type_name` computed from a variable that varies between threads (read
        directly, or one of its components converted), or None when no such variable is in scope."""
        rng = self.rng
        direct = [v for v in self.scope.readable(type_name) if v.varies]
        if direct:
            v = rng.choice(direct)
            return Expr(v.name, type_name, v.mag, True)
        hidden = self.scope.hidden
        sources = [v for v in self.scope.variables if v.varies and v.name not in hidden and v.mag <= limit("float16")]
        if not sources:
            return None
        s = self.component(rng.choice(sources))
        t = typesys.parse(type_name)
        if t.is_scalar:
            return self._convert(s, type_name)
        parts = [self._convert(s, t.scalar) for _ in range(t.components)]
        return Expr(f"wp.{type_name}({', '.join(p.text for p in parts)})", type_name, parts[0].mag, True)

    def component(self, v: Var) -> Expr:
        """A scalar (float or int) of the variable: itself, one component, or a bool as +-1."""
        vt = typesys.parse(v.type)
        if vt.kind == "bool":
            return Expr(f"wp.where({v.name}, 1.0, -1.0)", "float32", 1.0, True)
        if vt.is_scalar:
            return Expr(v.name, v.type, v.mag, True)
        if vt.kind == "mat":
            r, c = self.rng.randrange(vt.size), self.rng.randrange(vt.size)
            return Expr(f"{v.name}[{r}, {c}]", vt.scalar, v.mag, True)
        return Expr(f"{v.name}[{self.rng.randrange(vt.components)}]", vt.scalar, v.mag, True)

    def _convert(self, s: Expr, scalar: str) -> Expr:
        """Scalar `s` as type `scalar`, keeping its variation (a float in (-1, 1) is scaled before
        it is truncated to an integer, which would make it 0)."""
        if s.type == scalar:
            return s
        st, target = typesys.parse(s.type), typesys.parse(scalar)
        cast = target.annotation
        if target.kind == "bool":
            return Expr(f"({s.text} > {typesys.scalar_literal(s.type, 0.0)})", "bool", 1.0, True)
        if target.kind == "int" and st.kind == "float":
            scaled = f"{s.text} * {typesys.scalar_literal(s.type, 8.0)}"
            if scalar == "uint32":  # a negative float has no unsigned value
                scaled = f"wp.abs({scaled})"
            return Expr(f"{cast}({scaled})", scalar, s.mag * 8 + 1, True)
        text = _signed(s.text) if s.type == "uint32" and scalar == "float16" else s.text
        return Expr(f"{cast}({text})", scalar, s.mag, True)
