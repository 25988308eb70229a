"""The generator: typed programs in which every statement counts, in real kernels' mix.

It draws a program with the typed grammar (`grammar`, `kernels`, `categories`), with these changes:

- names fit the value's type and role (`positions: wp.array(dtype=wp.vec3)`, `dt: float`,
  `num_iters: int`, `rot: wp.mat33`) instead of one word list;
- values computed but not read by the end of the kernel are summed into an output (`sink`), and
  then `dataflow.prune` removes whatever still reaches no output, atomic or condition, helpers
  never called and arguments nothing reads;
- branch and loop-exit conditions split the thread's own inputs (an input element against a
  threshold inside the range its recipe draws from), so each side is taken by some threads; a
  nested test never splits an input an enclosing test, an early return or a `while` test already
  split (it would be decided), and two names of one value count as one input; the clauses of a compound
  test read different values, or bound one input to an interval (`x > lo and x < hi`, `x < lo or x > hi`),
  so that each clause can change the outcome (`val < -0.26 and val < 0.36` could not);
- outputs, sinks, add/sub atomics and reduction totals are anchored on the thread's own input element
  (`w * in[i]`, a vector of input elements, `in[i] * I`, a split of a numeric input for a bool): a drawn
  value can be constant in practice though the grammar believes it varies (`wp.isfinite(...)`, an
  identity's off-diagonal, a saturating clamp, `int(False) * n`);
- atomics combine into buffers whose start values are inputs where the operation needs them (`or`,
  `xor`, `min`, `max`), binned by thread;
- early returns as real kernels write them: `if i >= num_items: return` (a count below the launch size)
  and `if <split of an input>: return`;
- the mix follows real kernels (`real_weights.json`): built-ins drawn in proportion to their real counts
  times a frozen per-built-in factor (`CALIBRATION`, `benchmarks/calibrate.py`), so that the built-ins
  used, not the productions drawn, follow real counts; outputs written through store helpers some of the
  time (`store_out(out, i, v)`, a `@wp.func` that writes the buffer it is passed; outputs of one type share
  one, `store_float32`, never two helpers with one body); vector component
  updates (`v.y = v.y + e`); casts spelled `wp.int32(x)` / `wp.float32(x)` and updates spelled
  `x = x + (e)` as often as real code does; few float64 values, `wp.where` selects and atomics;
- each category's defining construct is built in (a helper call in `functions`, a loop in a loop
  in `nested_loop`, ...); a draw that still misses it, or has a condition decided before it runs,
  is drawn again from a sub-stream of the seed (`<stream>/retry<k>`), so changing one category's
  rules leaves other programs alone.
"""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

from warp_cuda_ir import syntax
from warp_cuda_ir.synthesis import categories, dataflow, typesys
from warp_cuda_ir.synthesis.catalogue import Production
from warp_cuda_ir.synthesis.grammar import INDENT, Expr, Expressions, Var, limit
from warp_cuda_ir.synthesis.kernels import ArraySpec, KernelBuilder
from warp_cuda_ir.synthesis.program import Argument, KernelProgram

# a draw that misses its category's construct or decides a condition is drawn again up to this often:
# `matrix` seeds can miss their construct in nine draws in a row (2 of 10,000)
RETRIES = 23

# Array names by value type, as real kernels name their buffers.
_ARRAY_NAMES = {
    "vec3": ("positions", "velocities", "forces", "normals", "points", "particle_x", "particle_v", "offsets"),
    "vec3d": ("positions", "velocities", "torques", "points", "displacements"),
    "vec2": ("uvs", "coords", "flow", "grad", "samples2d"),
    "vec2d": ("coords", "flow", "grad"),
    "vec4": ("colors", "weights4", "plane", "rgba"),
    "vec4d": ("colors", "coeffs4"),
    "float32": ("masses", "densities", "pressure", "weights", "temperature", "sdf", "phi", "radii", "energy"),
    "float64": ("masses", "energy", "pressure", "potential", "lengths"),
    "float16": ("heights", "intensity", "weights_h", "mask"),
    "int32": ("indices", "labels", "cell_ids", "counts", "flags", "neighbors"),
    "int64": ("keys", "ids", "hashes"),
    "uint32": ("bits", "masks", "seeds", "hash_keys"),
    "bool": ("active", "inside", "fixed", "contact"),
    "mat22": ("stress2d", "jacobians", "basis2"),
    "mat33": ("rotations", "inertia", "stress", "deformation", "covariance"),
    "mat44": ("transforms44", "projection", "model_matrices"),
    "quat": ("orientations", "body_q_rot", "rotations_q"),
    "transform": ("body_q", "poses", "xforms", "shape_X"),
    "spatial_vector": ("body_qd", "twists", "wrenches"),
}
_OUT_PREFIX = ("out_", "new_", "result_", "")
_PARAM_NAMES = {
    "float32": ("dt", "gain", "scale", "stiffness", "damping", "alpha", "radius", "threshold", "kd", "ke"),
    "float64": ("dt", "tolerance", "scale", "alpha"),
    "float16": ("gain_h", "scale_h"),
    "int32": ("num_items", "offset", "stride", "mode", "level"),
    "int64": ("offset64", "base"),
    "uint32": ("mask_bits", "salt"),
    "bool": ("enabled", "flip"),
}
_ROLE_NAMES = {"count": ("num_iters", "num_steps", "substeps", "count", "n_inner"), "seed": ("seed", "rng_seed")}
_ROLE_NAMES["bound"] = ("num_items", "num_points", "num_particles", "n", "count")
# Local names by kind of value.
_LOCAL_NAMES = {
    "float": ("s", "w", "r", "t", "h", "mag", "dist", "val", "e", "phi", "theta", "a", "c", "f"),
    "int": ("idx", "n", "cell", "bin_", "k_", "off", "slot"),
    "bool": ("inside", "active", "hit", "flag"),
    "vec": ("d", "dir", "p", "v", "delta", "n_hat", "axis", "x", "u"),
    "mat": ("R", "A", "M", "J", "F", "S"),
    "quat": ("q", "rot", "qr"),
    "transform": ("X", "tf", "pose"),
    "spatial_vector": ("twist", "wrench", "sv"),
}
_KIND = {"float": "float", "int": "int", "bool": "bool", "vec": "vec", "mat": "mat", "quat": "quat"}
_KIND |= {"transform": "transform", "spatial_vector": "spatial_vector"}


class MeaningBuilder(KernelBuilder):
    """A `KernelBuilder` whose names fit their values and whose branches split the inputs."""

    last_split: str | None = None  # the variable the last split condition read
    must_reach: tuple[str, ...] = ()  # the category construct's results: the sink writes these first
    guarded: tuple[str, ...] = ()  # inputs an early return already split: later tests would be decided
    enclosing: tuple[str, ...] = ()  # inputs the enclosing tests split: not split again inside
    split_vars: tuple[str, ...] = ()  # the variables the last split condition read

    def array_name(self, dtype: str, role: str) -> str:
        pool = _ARRAY_NAMES.get(dtype, ("values",))
        if role == "out":
            pool = tuple(f"{self.rng.choice(_OUT_PREFIX)}{p}" for p in pool)
        return self.fresh(pool)

    def param_name(self, dtype: str, role: str) -> str:
        return self.fresh(_ROLE_NAMES.get(role) or _PARAM_NAMES.get(dtype) or ("param",))

    def declare(self, e: Expr, name: str | None = None) -> Var:
        if name is None:
            name = self.fresh(_LOCAL_NAMES[_KIND[typesys.parse(e.type).kind]])
        return super().declare(e, name)

    def fresh(self, pool: tuple[str, ...] = _LOCAL_NAMES["float"]) -> str:
        return super().fresh(pool)

    def block(self, statements: int) -> None:
        """A branch body whose first statement updates a variable the kernel goes on with."""
        scope = self.expressions.scope
        outer = [v for v in scope.variables if v.name not in scope.hidden and v.varies and "(" not in v.name
                 and typesys.parse(v.type).kind in ("float", "int", "vec")]  # fmt: skip
        if not outer or self.loop_depth:
            return super().block(statements)
        before = len(scope.variables)
        _branch_update(self, self.expressions, self.rng.choice(outer))
        self.depth += 1
        for _ in range(statements - 1):
            self.statement()
        self.depth -= 1
        del scope.variables[before:]
        return None

    def is_copy(self, e: Expr) -> bool:
        return super().is_copy(e) or e.text in self.guarded

    @staticmethod
    def anchor_types(types: list[str]) -> list[str]:
        """The types among `types` an anchor can be read from."""
        return [t for t in types if typesys.parse(t).kind in ("float", "int", "vec")]

    def inputs_of_launch_shape(self) -> list[Argument]:
        """Input arrays indexed by the thread's own indices, of a type with numeric components."""
        return [a for _, _, a in self.arguments if a.kind == "array" and a.role == "in" and a.shape == self.launch_dim
                and self.anchor_types([a.dtype])]  # fmt: skip

    def anchor(self, scalar: str, continuous: bool = False) -> Expr | None:
        """One scalar of this thread's own input element, as type `scalar`: a value that differs
        between threads whatever the drawn expression turned out to be (`wp.isfinite(...)`, the
        off-diagonal of a scaled identity, a clamp that saturates are constant in practice).
        `continuous`: from a floating-point input only (the extreme of small integers over a bin's
        threads is the same in every bin)."""
        inputs = self.inputs_of_launch_shape()
        if continuous:
            inputs = [a for a in inputs if typesys.parse(a.dtype).scalar in typesys.FLOATS]
        if not inputs:
            return None
        a = self.rng.choice(inputs)
        t = typesys.parse(a.dtype)
        text = f"{a.name}[{', '.join(self.tids[: len(a.shape)])}]"
        if t.kind == "vec":
            text += f"[{self.rng.randrange(t.components)}]"
        mag = 5.0 if a.init.get("dist") == "randint" else 1.0
        return self.expressions._convert(Expr(text, t.scalar, mag, True), scalar)

    def anchor_vector(self, dtype: str) -> str:
        """A vector of `dtype` whose components are this thread's input elements (drawn one by one, so
        they differ: a vector of one repeated value is a copy of that value three times over)."""
        t = typesys.parse(dtype)
        parts = [self.anchor(t.scalar) for _ in range(t.components)]
        # scaled apart: with a single numeric input the components would otherwise all be equal
        # typed literals: a float32 literal times a float64 value does not type-check in Warp
        scales = ["", *(f"{typesys.scalar_literal(t.scalar, c)} * " for c in (-0.5, 0.25, -2.0))]
        return f"wp.{dtype}({', '.join(f'{scales[k]}{p.text}' for k, p in enumerate(parts) if p is not None)})"

    def write(self, spec: ArraySpec, e: Expr | None = None) -> None:
        """An output that carries information: the drawn value combined with this thread's own input
        element. A bool output is a split of a numeric input (a test on constants is all True or all
        False); a number adds or subtracts `w * anchor` (w != 1: never an input plus a constant); a
        vector, matrix or quaternion is scaled by one or adds an input of its own type."""
        if e is not None:
            return super().write(spec, e)
        rng = self.rng
        t = typesys.parse(spec.dtype)
        if t.kind == "bool":
            anchor = self.anchor("float32")
            if anchor is not None:
                split = f"{anchor.text} {rng.choice(['<', '>'])} {round(rng.uniform(-0.4, 0.4), 2)}"
                self.emit(f"{spec.name}[{self.index(spec)}] = {split}")
                return None
            return super().write(spec)
        for _ in range(3):  # an input element unchanged, scaled by the anchor below, is a copy of it
            e = self.expressions.expr_reading(spec.dtype, rng.randint(1, 3))
            if e.varies and not self.is_copy(e):
                break
        if not e.varies or self.is_copy(e):
            e = self.vary(e)
        weight = rng.choice((0.35, 0.65, 0.8, 1.35, 1.7))  # not 1, nor a round factor the grammar draws
        text = None
        if t.kind in ("float", "int"):
            anchor = self.anchor(spec.dtype)
            if anchor is not None and e.mag + 2 * anchor.mag <= limit(spec.dtype):
                w = typesys.scalar_literal(spec.dtype, weight if t.kind == "float" else rng.choice((3, 5)))
                text = f"{e.text} {rng.choice(['+', '-'])} {w} * {anchor.text}"
            elif anchor is not None and spec.dtype == "float32":
                # too large to add to as it is (a sum over nested loops): clamped, else that output was the
                # bare sum, all zero when its loops never ran
                w = typesys.scalar_literal(spec.dtype, weight)
                text = f"wp.clamp({e.text}, -1000.0, 1000.0) {rng.choice(['+', '-'])} {w} * {anchor.text}"
        elif t.kind in ("vec", "mat", "quat") and t.scalar in ("float32", "float64"):
            # added, not multiplied: a drawn value that is zero for every thread would zero the product
            same = [a for a in self.inputs_of_launch_shape() if a.dtype == spec.dtype]
            w = typesys.scalar_literal(t.scalar, weight)
            sign = rng.choice(["+", "-"])
            if same and rng.random() < 0.5:
                text = f"{e.text} {sign} {w} * {rng.choice(same).name}[{self.index(spec)}]"
            elif t.kind == "vec":
                text = f"{e.text} {sign} {w} * {self.anchor_vector(spec.dtype)}" if self.anchor(t.scalar) else None
            elif t.kind == "mat" and (anchor := self.anchor(t.scalar)) is not None:
                eye = f"wp.identity(n={t.size}, dtype={'float' if t.scalar == 'float32' else 'wp.float64'})"
                text = f"{e.text} {sign} {anchor.text} * {eye}"
            elif (anchor := self.anchor(t.scalar)) is not None and e.mag * 2 <= limit(spec.dtype):
                text = f"({e.text}) * {anchor.text}"
        if text is None:
            e = self.vary(e) if self.is_copy(e) else e
            text = e.text
        self.emit(f"{spec.name}[{self.index(spec)}] = {text}")
        return None

    def index(self, spec: ArraySpec, neighbour: bool = False) -> str:
        """A neighbour index wrapped with the array's own `shape`, as real kernels do."""
        text = super().index(spec, neighbour)
        if not neighbour:
            return text
        for axis, n in enumerate(spec.shape):
            text = text.replace(f") % {n}", f") % {spec.name}.shape[{axis}]", 1)
            text = text.replace(f", {n - 1})", f", {spec.name}.shape[{axis}] - 1)", 1)
        return text

    def stmt_update(self) -> None:
        """Some updates set one component of a vector (`v.y = v.y + e`, `v.x = e`): real kernels store to an
        attribute in 0.9% of their statements."""
        if self.rng.random() < COMPONENT_UPDATE and self._component_update():
            return None
        return super().stmt_update()

    def _component_update(self, v: Var | None = None) -> bool:
        """`v.<c> = v.<c> +- e` or `v.<c> = e` for a vector `v` (drawn when not given); False when none fits."""
        scope = self.expressions.scope
        vectors = [v] if v is not None else [
            v for v in scope.variables
            if v.name not in scope.hidden and "(" not in v.name and "." not in v.name
            and typesys.parse(v.type).kind == "vec" and typesys.parse(v.type).scalar in ("float32", "float64")
        ]  # fmt: skip
        if not vectors or self.loop_depth:
            return False
        v = vectors[0] if len(vectors) == 1 else self.rng.choice(vectors)
        t = typesys.parse(v.type)
        c = "xyzw"[self.rng.randrange(min(t.components, 4))]
        e = self.expressions.expr_reading(t.scalar, self.rng.randint(1, 2), tries=2)
        if e.mag + v.mag > limit(v.type) or f"{v.name}." in e.text or e.text.strip("()-") == v.name:
            return False
        self._copies.discard(v.name)
        scope.aliases.pop(v.name, None)
        if e.varies and self.rng.random() < 0.4:
            self.emit(f"{v.name}.{c} = {e.text}")
        else:
            self.emit(f"{v.name}.{c} = {v.name}.{c} {self.rng.choice(['+', '-'])} {e.text}")
        v.mag = v.mag + e.mag
        v.varies = v.varies or e.varies
        return True

    def loop(self, header: str, *args: object, **kwargs: object) -> None:
        """A `while` test's inputs count as enclosing splits inside its body (`while it < 4 and
        active1:` then `if not active1: break` never breaks)."""
        if not header.startswith("while"):
            return super().loop(header, *args, **kwargs)  # type: ignore[arg-type]
        outer = self.enclosing
        self.enclosing = (*outer, *_NAME.findall(header.split(" and ", 1)[1] if " and " in header else ""))
        try:
            return super().loop(header, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            self.enclosing = outer

    def bounds_guard(self) -> None:
        """`if i >= num_items: return`: real kernels launched over more threads than items skip the rest.
        The count is below the launch size, so some threads take the return and most go on."""
        size = self.launch_dim[0]
        if size < 4:
            return
        n = self.add_scalar_param("int32", size - self.rng.randint(1, max(1, size // 4)), role="bound")
        self.emit(f"if {self.tids[0]} >= {n.name}:")
        self.emit(f"{INDENT}return")

    def early_return(self, keep: int = 1) -> None:
        """`if <split of an input>: return`, as real kernels skip inactive or out-of-range items; the
        input it splits is left out of later tests (those would be decided for the threads still here),
        so it is only drawn when `keep` inputs are left for them."""
        split = self.split_condition()
        if split is None or len(self._copies) - len(self.split_vars) < keep:
            return
        self.emit(f"if {split}:")
        self.emit(f"{INDENT}return")
        self.guarded = (*self.guarded, *self.split_vars)
        self._copies.difference_update(self.split_vars)

    def branch_condition(self, depth: int = 1) -> Expr:
        """Mostly an input split (some threads each way); else a grammar condition that varies."""
        if self.rng.random() < 0.9:
            split = self.split_condition()
            if split is not None:
                return Expr(split, "bool", 1.0, True)
        # a grammar test reads no input an early return or an enclosing test already split
        # (`if val > -0.13: return` ... `if val < -0.05:` held for every thread left)
        scope = self.expressions.scope
        hidden = set(scope.hidden)
        scope.hidden |= set(self.guarded) | set(self.enclosing)
        try:
            return super().branch_condition(depth)
        finally:
            scope.hidden = hidden

    def split_condition(self, avoid: str | None = None, exclude: tuple[str, ...] = ()) -> str | None:
        """An input element against a threshold inside the range its recipe draws from (about half the
        threads each way), sometimes joined with a split of another input (`and`: a quarter of them).
        Grammar conditions are left out here: `x > t and wp.length(v) < -0.5` never holds. `avoid`: an
        input to leave out when there is another; `exclude`: inputs (and their other names) never split."""
        rng = self.rng
        scope = self.expressions.scope
        copies = [v for v in scope.variables if v.name in self._copies and v.name not in scope.hidden]
        # inside `if x < 0.2:`, a test `x > 0.3` is decided
        copies = [v for v in copies if v.name not in self.enclosing]
        # `a = phi` makes two names for one value: `a > 0.25 and phi < -0.24` never holds
        root = scope.aliases.get
        taken = {root(n, n) for n in (*self.enclosing, *self.guarded, *exclude)}
        copies = [v for v in copies if root(v.name, v.name) not in taken]
        copies = list({root(v.name, v.name): v for v in copies}.values())
        if avoid is not None and len(copies) > 1:
            copies = [v for v in copies if v.name != avoid] or copies
        if not copies:
            return None
        picked = rng.sample(copies, 2 if len(copies) > 1 and rng.random() < 0.3 else 1)
        self.split_vars = tuple(v.name for v in picked)
        parts = []
        for v in picked:
            self.last_split = v.name
            if v.type == "bool":
                parts.append(v.name if rng.random() < 0.5 else f"not {v.name}")
                continue
            x = self.expressions.component(v)
            if typesys.parse(x.type).kind == "int":
                threshold: float = rng.randint(1, 3) if x.type == "uint32" else rng.randint(-2, 1)
            else:
                threshold = rng.uniform(-0.4, 0.4)
            parts.append(f"{x.text} {rng.choice(['<', '>'])} {typesys.scalar_literal(x.type, threshold)}")
        return f"{parts[0]} {rng.choice(['and', 'or'])} {parts[1]}" if len(parts) == 2 else parts[0]

    def interval(self, name: str, join: str) -> str | None:
        """Two bounds on one numeric input that both count: inside an interval (`x > lo and x < hi`) or
        outside it (`x < lo or x > hi`), lo < hi within the range its recipe draws from; None for a bool."""
        rng = self.rng
        v = next(v for v in self.expressions.scope.variables if v.name == name)
        if v.type == "bool":
            return None
        x = self.expressions.component(v)
        if typesys.parse(x.type).kind == "int":  # inputs draw from [-4, 4] ([0, 4] unsigned): lo + 1 < hi
            lo: float = rng.randint(0, 1) if x.type == "uint32" else rng.randint(-3, 0)
            hi: float = lo + rng.randint(2, 3)
        else:
            lo, hi = sorted((rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4)))
            hi = max(hi, lo + 0.1)
        low, high = typesys.scalar_literal(x.type, lo), typesys.scalar_literal(x.type, hi)
        return f"{x.text} > {low} and {x.text} < {high}" if join == "and" else f"{x.text} < {low} or {x.text} > {high}"

    def stmt_if(self) -> None:
        """if [elif] [else]: each test splits another input where there is one, so that a later test
        is not already decided by an earlier one on the same value."""
        if self.depth >= 4:
            return self.stmt_assign()
        self.last_split = None
        self.split_vars = ()
        first = self.branch_condition(1)
        first_var = self.last_split
        outer = self.enclosing
        # every name the test reads, a grammar test's too (`if n > -2:` on a neighbour read, then
        # `if n != 3:` inside its else held for every thread there)
        read = tuple(_NAME.findall(first.text))
        self.enclosing = (*outer, *self.split_vars, *read)
        self.emit(f"if {first.text}:")
        self.block(self.rng.randint(1, 2))
        if self.rng.random() < 0.3:
            self.enclosing = outer
            split = self.split_condition(avoid=first_var)
            # the same input again may already be decided by the first test (`x < 0.2` ... `elif x < 0.1`)
            if split is not None and (first_var is None or self.last_split != first_var):
                self.enclosing = (*outer, *self.split_vars, first_var or "", *read)
                self.emit(f"elif {split}:")
                self.block(1)
        if self.rng.random() < 0.5:
            self.enclosing = (*outer, *self.split_vars, first_var or "", *read)
            self.emit("else:")
            self.block(self.rng.randint(1, 2))
        self.enclosing = outer
        return None


# Built-ins whose result takes few values on the generator's inputs (|x| <= 1): a sign, a rounding, a
# test, an index. Fine inside an expression; as the value an output holds they make it (nearly)
# constant, so their results count as not varying and the grammar looks further.
LOW_INFORMATION = frozenset(
    {"sign", "step", "ceil", "floor", "rint", "round", "trunc", "bit_count", "argmax", "argmin", "isfinite"}
    | {"isnan", "isinf", "nonzero", "int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"}
    | {"uint64", "erfc", "heaviside", "frac"}
)


# How often real kernels use each built-in (a snapshot of `real_reference.json`'s counts, frozen with the
# generator so that regenerating the reference does not change its programs): each production is drawn in
# proportion to (count + 3), so the rarely used built-ins keep a chance (variety).
_WEIGHTS_FILE = json.loads((Path(__file__).with_name("real_weights.json")).read_text())
_REAL_COUNTS: dict[str, int] = _WEIGHTS_FILE["builtins"]
# A production's share of the draws is not its share of the uses: pools are per result type, and drawn
# values are rejected or retried. These frozen factors correct that, one per built-in: (real share /
# uncalibrated share) ** 0.7, clipped to [0.15, 8], fitted over seeds 0-1,999 by `benchmarks/calibrate.py`
# (frozen with the generator, so a new reference does not change its programs).
CALIBRATION: dict[str, float] = _WEIGHTS_FILE["calibration_meaning3"]


def _weight(name: str) -> float:
    return float(_REAL_COUNTS.get(name, 0) + 3) * CALIBRATION.get(name, 1.0)


class MeaningExpressions(Expressions):
    """The typed grammar drawing built-ins as often as real kernels use them."""

    where_rate = 0.015  # `wp.where` is 0.63% of real kernels' built-in uses

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._weights: dict[tuple[int, int], list[float]] = {}

    def _draw(self, pool: list[Production]) -> Production:
        key = (id(pool), len(pool))
        weights = self._weights.get(key)
        if weights is None:
            weights = self._weights[key] = [_weight(p.name) for p in pool]
        return self.rng.choices(pool, weights)[0]

    def apply(self, p: Production, depth: int) -> Expr | None:
        e = super().apply(p, depth)
        if e is not None and p.name in _BIT_OPERATIONS and _BAD_BIT_OPERAND.search(e.text):
            return None
        if e is not None and p.name in LOW_INFORMATION and e.varies:
            return Expr(e.text, e.type, e.mag, False)
        return e


# Bit operations are about 1% of real kernels' built-in uses: one with a literal 0 or a negative literal is
# constant or sign junk (`-(0 & bin_)` leaves a later test decided)
_BIT_OPERATIONS = frozenset({"bit_and", "bit_or", "bit_xor", "lshift", "rshift"})
_BIT = r"(?:[&|^]|<<|>>)"
_ZERO_OR_NEGATIVE = r"(?<![\w.])\(*(?:wp\.\w+\()?(?:0\b|\(?-)"  # `0`, `wp.uint32(0)`, `-2`, `(-2)`
_BAD_BIT_OPERAND = re.compile(rf"{_BIT}\s*{_ZERO_OR_NEGATIVE}|{_ZERO_OR_NEGATIVE}[\w.()]*?\)*\s*{_BIT}")


# ---- making values reach an output ---------------------------------------------------------
_NAME = re.compile(r"[A-Za-z_]\w*")


def _unread(b: KernelBuilder) -> list[Var]:
    """Variables in scope at the top level whose last value no later line reads (written after their
    last read, or never read): what would be dead without a `sink`."""
    out = []
    for v in b.expressions.scope.variables:
        if "(" in v.name or "." in v.name or v.name in b.expressions.scope.hidden or not v.varies:
            continue
        name = re.escape(v.name)
        write = re.compile(rf"^\s*{name}\s*[-+*/]?=(?!=)")
        read = re.compile(rf"(?<![\w.]){name}(?!\w)")
        last_write = last_read = -1
        for n, line in enumerate(b.lines):
            if write.match(line):
                last_write = n
                line = line.split("=", 1)[1]
            if read.search(line) and (n != last_write or not re.match(r"^\s*\S+\s*[-+*/]=", b.lines[n])):
                last_read = n
        if last_write >= last_read:
            out.append(v)
    return out


def _as_scalar(b: KernelBuilder, v: Var, scalar: str) -> Expr | None:
    """`v` reduced to one scalar of type `scalar`: itself, a component, a norm; None for huge values."""
    t = typesys.parse(v.type)
    if v.mag > 1e4:
        return None
    if t.kind == "bool":
        one, minus = typesys.scalar_literal(scalar, 1.0), typesys.scalar_literal(scalar, -1.0)
        return Expr(f"wp.where({v.name}, {one}, {minus})", scalar, 1.0, True)
    if t.kind == "vec" and b.rng.random() < 0.5:
        e = Expr(f"wp.length({v.name})", t.scalar, v.mag * 2, True)
    elif t.kind == "mat" and b.rng.random() < 0.5:
        e = Expr(f"wp.trace({v.name})", t.scalar, v.mag * t.size, True)
    else:
        e = b.expressions.component(v)
    if e.type == scalar:
        return e
    cast = typesys.parse(scalar).annotation
    return Expr(f"{cast}({e.text})", scalar, e.mag, True)


def sink(b: MeaningBuilder, spec: ArraySpec) -> bool:
    """Write `spec[tid]` from the values nothing reads yet (at most four). False when there are none."""
    scalar = spec.dtype
    unread = _unread(b)
    first = [v for v in unread if v.name in b.must_reach]
    chosen = first + [v for v in unread if v not in first][-(4 - min(len(first), 4)) :] if len(first) < 4 else first
    terms = [e for v in chosen if (e := _as_scalar(b, v, scalar)) is not None]
    if not terms:
        return False
    weights = [typesys.scalar_literal(scalar, round(b.rng.uniform(0.25, 2.0), 2)) for _ in terms]
    parts = [e.text if k == 0 else f"{w} * {e.text}" for k, (e, w) in enumerate(zip(terms, weights, strict=True))]
    # the values nothing read can all be constant in practice (a sum over a loop that never runs for any
    # thread, a cast of a small float to int): this thread's own input element keeps it informative
    anchor = b.anchor(scalar)
    if anchor is not None:
        parts.append(f"{typesys.scalar_literal(scalar, b.rng.choice((0.25, 0.5, 0.75, 1.5, 2.0)))} * {anchor.text}")
        terms.append(anchor)
    text = parts[0] + "".join(f" {b.rng.choice(['+', '-'])} {part}" for part in parts[1:])  # real code subtracts too
    if sum(e.mag for e in terms) * 2 > limit(scalar):
        text = f"wp.tanh({text})" if scalar != "float16" else f"wp.float16(wp.tanh(float({text})))"
    # `out[i] += v` into a zeroed output, as real kernels accumulate forces (a fifth of sinks)
    op = "+=" if spec.init.get("dist") == "zeros" and b.rng.random() < 0.2 else "="
    b.emit(f"{spec.name}[{b.index(spec)}] {op} {text}")
    return True


# ---- category constructs ---------------------------------------------------------------------
def _helper_call(b: MeaningBuilder, ex: Expressions) -> None:
    """`h = helper(args)` with arguments that vary between threads: the `functions` promise."""
    helpers = [p for p in ex.extra if p.name in ex.helper_bounds]
    if helpers:
        p = b.rng.choice(helpers)
        args = [ex.varying(a) or ex.leaf(a) for a in p.args]
        args = [_within(a, 4.0) for a in args]
        if any(a.mag > 4.0 for a in args):
            # never skip the call: a `combined` program could then have none after all its redraws
            args = [a if a.mag <= 4.0 else ex.leaf(a.type) for a in args]
        v = b.declare(Expr(f"{p.name}({', '.join(a.text for a in args)})", p.result, ex.helper_bounds[p.name], True))
        _must_reach(b, v)
    elif b.tuple_helpers:
        b.stmt_tuple()


def _must_reach(b: MeaningBuilder, v: Var) -> None:
    b.must_reach = (*b.must_reach, v.name)


def _reduce_loop(b: MeaningBuilder, ex: Expressions) -> None:
    """A per-thread sum over a loop, added atomically into bins: the `reduction` promise."""
    rng = b.rng
    scope = ex.scope
    t = rng.choice([x for x in ex.types if x in ("float32", "float64")] or ["float32"])
    acc = b.declare(Expr(typesys.zero(t), t, 0.0), b.fresh(("acc", "total", "partial", "sum_")))
    k = b.fresh(("k_", "it", "step"))
    if rng.random() < 0.5:
        trips = rng.randint(2, 6)
        b.emit(f"for {k} in range({trips}):")
        counter = Var(f"int({k})", "int32", float(trips + 4), True)
    else:
        trips = rng.randint(2, 6)
        n = b.add_scalar_param("int32", trips, role="count")
        b.emit(f"for {k} in range({n.name}):")
        counter = Var(k, "int32", float(trips + 4), True)
    b.depth += 1
    before = len(scope.variables)
    scope.hidden.add(acc.name)
    scope.variables.append(counter)
    term = ex.expr_reading(t, 2, tries=3)
    if term.mag > limit(t) / 20 or not term.varies:
        term = ex.varying(t) or ex.leaf(t)
    b.emit(f"{acc.name} += {term.text}")
    b.depth -= 1
    del scope.variables[before:]
    scope.hidden.discard(acc.name)
    bins = rng.choice((1, 4, 8, 16))
    target = b.add_array(t, "inout", (bins,), {"dist": "zeros"})
    idx = "0" if bins == 1 else f"{b.tids[0]} % {bins}"
    total = acc.name
    if (anchor := b.anchor(t)) is not None:
        total = f"{acc.name} + {anchor.text}"  # a loop sum can be zero for every thread (terms that cancel)
    b.emit(f"wp.atomic_add({target.name}, {idx}, {total})")


def _within(a: Expr, bound: float) -> Expr:
    """`a` clamped to [-bound, bound] when it may exceed it (floats only)."""
    if a.mag <= bound or typesys.parse(a.type).kind != "float":
        return a
    b = typesys.scalar_literal(a.type, bound)
    return Expr(f"wp.clamp({a.text}, -{b}, {b})", a.type, bound, a.varies)


def _nested_loop(b: MeaningBuilder, ex: Expressions) -> None:
    """`acc` summed over a loop inside a loop, reading both counters and the thread's inputs."""
    rng = b.rng
    scope = ex.scope
    acc_type = rng.choice([t for t in ex.types if typesys.parse(t).kind in ("float", "vec")] or ["float32"])
    acc = b.declare(Expr(typesys.zero(acc_type), acc_type, 0.0), b.fresh(("acc", "total", "sum_", "accum")))
    outer, inner = b.fresh(("a", "p", "row", "it")), b.fresh(("b", "q", "col", "jt"))
    trips_outer = rng.randint(2, 4)
    n_inner = b.add_scalar_param("int32", rng.randint(2, 5), role="count")
    b.emit(f"for {outer} in range({trips_outer}):")
    b.depth += 1
    scope.hidden.add(acc.name)
    before = len(scope.variables)
    scope.variables.append(Var(f"int({outer})", "int32", float(trips_outer + 4), True))
    b.loop_depth += 1
    if rng.random() < 0.5:
        b.statement()
    b.emit(f"for {inner} in range({n_inner.name}):")
    b.depth += 1
    scope.variables.append(Var(inner, "int32", 10.0, True))
    term = ex.expr_reading(acc_type, 2, tries=3)
    bound = limit(acc_type) / 40
    if term.mag > bound or not term.varies:
        term = ex.varying(acc_type) or ex.leaf(acc_type)
    s = typesys.parse(acc_type).scalar
    # the outer range is unrolled: its counter is a Warp constant, read through int() (see kernels.loop)
    k_outer = f"float(int({outer}))" if s == "float32" else f"{typesys.parse(s).annotation}(int({outer}))"
    k_inner = f"float({inner})" if s == "float32" else f"{typesys.parse(s).annotation}({inner})"
    b.emit(f"{acc.name} += {term.text} * ({k_outer} + {typesys.scalar_literal(s, 1.0)}) / ({k_inner} + "
           f"{typesys.scalar_literal(s, 2.0)})")  # fmt: skip
    b.depth -= 2
    b.loop_depth -= 1
    del scope.variables[before:]
    scope.hidden.discard(acc.name)
    acc.mag = max(term.mag, 1.0) * trips_outer * 10
    acc.varies = True
    _must_reach(b, acc)


def _compound_if(b: MeaningBuilder, ex: Expressions) -> None:
    """`w = ...; if <split> and/or <split>: w = ... [else: w += ...]`: the branches decide a value the
    kernel goes on with (`sink` writes it out when nothing else reads it)."""
    first = b.split_condition()
    # the second split reads other inputs: two splits of one input imply or contradict each other
    # (`val < -0.26 and val < 0.36`); with no other input left, two bounds of an interval on that one
    second = b.split_condition(exclude=b.split_vars) if first is not None else None
    join = b.rng.choice(["and", "or"])
    if first is not None and second is None and len(b.split_vars) == 1:
        condition = b.interval(b.split_vars[0], join)
    else:
        condition = f"({first}) {join} ({second})" if first is not None and second is not None else None
    if condition is None:
        b.stmt_if()
        return
    t = b.rng.choice([x for x in ex.types if typesys.parse(x).kind in ("float", "vec")] or ["float32"])
    w = b.declare(ex.expr_reading(t, 1))
    _must_reach(b, w)
    b.emit(f"if {condition}:")
    _branch_update(b, ex, w)
    if b.rng.random() < 0.6:
        b.emit("else:")
        _branch_update(b, ex, w)


def _branch_update(b: MeaningBuilder, ex: Expressions, w: Var) -> None:
    t = typesys.parse(w.type)
    b._copies.discard(w.name)  # no longer the input it was read from: a split of it is no input split
    if t.kind == "vec" and t.scalar in ("float32", "float64") and b.rng.random() < COMPONENT_UPDATE:
        b.depth += 1
        done = b._component_update(w)
        b.depth -= 1
        if done:
            return
    b.depth += 1
    e = ex.expr_reading(w.type, b.rng.randint(1, 2), tries=3)
    if e.mag + w.mag > limit(w.type) or e.text == w.name:
        e = ex.varying(w.type) or ex.leaf(w.type)
    op = b.rng.choice(["=", "+=", "-="])
    if e.text == w.name or e.text.strip("()-") == w.name:  # `w = w`, `w -= w`: nothing, or zero
        op, e = (
            "=",
            Expr(f"{w.name} * {typesys.scalar_literal(typesys.parse(w.type).scalar, 1.5)}", w.type, w.mag * 1.5),
        )
    b.emit(f"{w.name} {op} {e.text}")
    w.mag = w.mag + e.mag
    w.varies = True
    b.depth -= 1


# ---- the whole program -----------------------------------------------------------------------
def _draw(rng: random.Random, category: str) -> KernelProgram:
    if category in ("idioms", "tile"):
        return categories.generate(rng, category)
    profile = categories.PROFILES[category]
    drawn = rng.sample(profile.types, min(len(profile.types), rng.randint(1, 3)))
    # real kernels use float64 and float16 rarely (0.31% and 0.08% of their built-in uses; a float64 value
    # brings `wp.float64(...)` casts with it)
    keep = {"float64": 0.06, "float16": 0.2}
    scalars = {t: typesys.parse(t).scalar for t in drawn}
    drawn = [t for t in drawn if scalars[t] not in keep or rng.random() < keep[scalars[t]]]
    drawn = drawn or ["float32"]
    types = tuple(dict.fromkeys(["float32", *profile.required, *drawn]))
    ex = MeaningExpressions(rng, types, profile.focus)
    dims = rng.choice(profile.dims)
    b = MeaningBuilder(rng, ex, categories._kernel_name(rng, category), categories._launch_shape(rng, dims),
                       weights=dict(profile.weights))  # fmt: skip
    b.weights["if"] = b.weights.get("if", 0.0) * IF_WEIGHT
    extra_helper = rng.random() < (0.35 if category not in ("functions", "combined") else 0.15)
    # a `combined` row's helper call is its promise: a single-result helper (a tuple helper's call can be pruned)
    single = ("functions", "combined")
    for _ in range(profile.helpers + extra_helper):
        categories._helper(b, ex, tuple_result=rng.random() < 0.2 and category not in single)
    b.emit(f"{', '.join(b.tids)} = wp.tid()")
    # real kernels: `if` is 10.6% and `return` 8.4% of statements
    if rng.random() < 0.4:
        b.bounds_guard()
    input_types = []
    for _ in range(rng.randint(1, 3)):
        input_types.append(rng.choice(types))
        spec = b.add_array(input_types[-1], "in")
        b.read(spec, neighbour=rng.random() < 0.2)
    if not b.anchor_types(input_types):  # a numeric input of the thread's own: outputs and splits read it
        b.read(b.add_array("float32", "in"))
    for _ in range(profile.params + (1 if rng.random() < 0.2 else 0)):
        ex.scope.variables.append(b.add_scalar_param(rng.choice(types)))
    if rng.random() < 0.6:
        b.early_return(keep=2 if category in ("multi_condition", "control_flow") else 1)
    if profile.struct:
        categories._struct(b, ex)
    if profile.random or rng.random() < 0.05:
        categories._random_values(b, ex)
    statements = rng.randint(*profile.statements)
    construct = {
        "functions": _helper_call,
        "combined": _helper_call,
        "nested_loop": _nested_loop,
        "multi_condition": _compound_if,
        "reduction": _reduce_loop,
    }.get(category)
    if construct is None and extra_helper:
        construct = _helper_call  # the extra helper is called, not pruned
    at = rng.randrange(statements + 1)
    for k in range(statements + 1):
        if k == at and construct is not None:
            construct(b, ex)
        elif k < statements:
            b.statement()
    if category == "control_flow" and not any(line.lstrip().startswith("if ") for line in b.lines):
        b.stmt_if()
    # real kernels: 1.0% of statements are atomics: one in an `atomic` row, one more now and then in a
    # `combined` row; a reduction's loop has its own
    extra_atomic = rng.random() < 0.1
    if category == "atomic":
        rng.randint(1, 2)  # unused, drawn to keep the random stream (and so every later draw) as it was
    atomics = {"atomic": 1, "combined": profile.atomics + extra_atomic}.get(category, 0)
    for _ in range(atomics):
        _atomic(b, ex)
    sink_types = [t for t in types if t in ("float32", "float64")] or ["float32"]
    sink_type = rng.choice(sink_types) if rng.random() < 0.3 else "float32"
    for _ in range(rng.randint(0, 1)):
        b.write(b.add_array(rng.choice(types), "out"))
    spec = b.add_array(sink_type, "out")
    if not sink(b, spec):
        b.write(spec)
    b.lines = _spell_out_updates(b.lines)
    b.lines = _spell_casts(rng, b.lines)
    _store_helpers(b)
    return b.program(category)


# Real kernels spell a cast `wp.int32(x)` 1.22% and `wp.float32(x)` 0.65% of their built-in uses, `int(x)`
# 1.79% and `float(x)` 2.30%. A cast of a value (never of a literal: `float(0.0)` binds a variable, a cast
# literal is a Warp constant) is spelled Warp's way this often.
_CAST = re.compile(r"(?<![\w.])(int|float)\((?![-+\d.]+\))")
CAST_SPELLING = {"int": ("wp.int32", 0.5), "float": ("wp.float32", 0.3)}


def _spell_casts(rng: random.Random, lines: list[str]) -> list[str]:
    # an unrolled loop's counter is read as `int(k)`: a Warp cast of it would retype the constant (see `kernels`)
    counters = {m.group(1) for line in lines if (m := _LOOP_COUNTER.match(line))}

    def spell(m: re.Match[str]) -> str:
        name, share = CAST_SPELLING[m.group(1)]
        inner = m.string[m.end() :].split(")", 1)[0]
        if inner in counters:
            return m.group(0)
        return f"{name}(" if rng.random() < share else m.group(0)

    return [_CAST.sub(spell, line) for line in lines]


_LOOP_COUNTER = re.compile(r"^\s*for (\w+) in range\(")


# Real kernels' statements are 6.6% bare calls (helpers called for what they write, tile stores, checks):
# outputs are written through a helper that stores into the buffer it is passed, as real helpers do; each
# output store becomes one with this chance.
STORE_HELPER_SHARE = 0.55
COMPONENT_UPDATE = 0.7  # share of updates that set one component of a vector (real: 0.9% of statements)
IF_WEIGHT = 1.5  # `if` is 10.6% of real kernels' statements
_STORE_LINE = re.compile(r"^(\s*)([A-Za-z_]\w*)\[([\w, ]+)\] = (.+)$")


def _store_helpers(b: MeaningBuilder) -> None:
    """`out[i] = e` -> `store_out(out, i, e)` with `@wp.func def store_out(dst, i, value): dst[i] = value`
    (for some of the stores into each output array). Only stores into `out` arrays at the thread's own
    index: the value reaches the output as before, through the helper. Outputs of one type share one helper
    (named for the type then, `store_vec3`), and outputs of another type keep their plain store: two helpers
    with one body, even for two types, would read as one function defined twice."""
    rng = b.rng
    outputs = {name: (annotation, a) for name, annotation, a in b.arguments if a.kind == "array" and a.role == "out"}
    helpers: dict[str, str] = {}  # output array -> its helper
    by_definition: dict[str, tuple[str, int, str]] = {}  # parameters and body -> helper, its prelude chunk, dtype
    for n, line in enumerate(b.lines):
        m = _STORE_LINE.match(line)
        if m is None or m.group(2) not in outputs:
            continue
        indent, name, index, value = m.groups()
        annotation, arg = outputs[name]
        if index != ", ".join(b.tids[: len(arg.shape)]) or rng.random() >= STORE_HELPER_SHARE:
            continue
        if name not in helpers:
            indices = [f"{t}: int" for t in b.tids[: len(arg.shape)]]
            value_type = typesys.parse(arg.dtype).annotation
            parameters = f"dst: {annotation}, {', '.join(indices)}, value: {value_type}"
            definition = f"({parameters}):\n{INDENT}dst[{index}] = value"
            if definition in by_definition:
                helpers[name] = by_definition[definition][0]
            elif any(d.endswith(f"\n{INDENT}dst[{index}] = value") for d in by_definition):
                continue  # another type's helper has this body: a second would read as one function written twice
            else:
                stem = name.removeprefix("out_").removeprefix("new_").removeprefix("result_")
                helper = helpers[name] = f"{rng.choice(('store', 'write', 'set'))}_{stem}"
                by_definition[definition] = (helper, len(b.prelude), arg.dtype)
                b.prelude.append(f"@wp.func\ndef {helper}{definition}")
        b.lines[n] = f"{indent}{helpers[name]}({name}, {index}, {value})"
    for helper, chunk, dtype in by_definition.values():
        if sum(h == helper for h in helpers.values()) > 1:
            shared = f"{helper.split('_', 1)[0]}_{dtype}"
            call = re.compile(rf"\b{helper}\(")
            b.prelude[chunk] = call.sub(f"{shared}(", b.prelude[chunk])
            b.lines = [call.sub(f"{shared}(", line) for line in b.lines]


def _atomic(b: MeaningBuilder, ex: Expressions) -> None:
    """An atomic whose result depends on the inputs: sums into zeros, min/max/bitwise into inputs."""
    rng = b.rng
    dtype = rng.choice(("float32", "int32", "uint32", "float64", "vec3"))
    if dtype == "float64":
        dtype = "float32"  # float64 values are 0.31% of real kernels' built-in uses
    ops = {"float32": ("add", "sub", "min", "max"), "float64": ("add", "max", "min"), "vec3": ("add", "sub"),
           "int32": ("add", "sub", "min", "max", "or", "xor"),
           "uint32": ("add", "max", "or", "xor")}[dtype]  # fmt: skip
    # no `and`: AND-ing the small values the grammar makes into random bits clears them (all zero)
    op = rng.choice(ops)
    if dtype in ("int32", "uint32") and op in ("min", "max"):
        op = "add"  # the extreme of a bin's small integers is the same in every bin (all -4, or all zero)
    bins = rng.choice((1, 4, 8, 16))
    init = {"dist": "zeros"} if op in ("add", "sub") else typesys.input_recipe(dtype, rng)
    if op in ("and", "or", "xor"):
        init = {"dist": "randint", "low": 0, "high": 1 << 12}
    spread = op in ("min", "max")
    if op in ("min", "max") and not b.anchor(dtype, continuous=True):
        op = "add"  # no floating-point input to make each bin's extreme its own
        spread = False
    if spread:
        # start values near zero, so a bin's extreme is past them (uniform(-1, 1) start values can leave a
        # whole buffer unchanged)
        bins = rng.choice((4, 8, 16))
        init = {"dist": "zeros"} if dtype in ("int32", "uint32") else {"dist": "uniform", "low": -0.1, "high": 0.1}
    target = b.add_array(dtype, "inout", (bins,), init)
    # binned by thread: a drawn index can be one constant (`wp.abs(int(wp.int64(2))) % 8`)
    idx = "0" if bins == 1 else f"{b.tids[0]} % {bins}"
    value = ex.varying(dtype) if rng.random() < 0.3 else None
    value = value or ex.expr_reading(dtype, 2)
    if not value.varies:
        value = ex.varying(dtype) or value
    if value.mag * 4096 > 1e8 and dtype in ("float32", "float64", "vec3") and op in ("add", "sub"):
        value = ex.varying(dtype) or ex.leaf(dtype)
    if dtype == "vec3" and b.anchor("float32"):
        # `wp.vec3(c, c, c)` from one value: a sum of such is one number three times (a single bin)
        value = Expr(f"{value.text} + {b.anchor_vector('vec3')}", dtype, value.mag + 5.0, True)
    elif op in ("min", "max", "add", "sub"):
        # a drawn value can be constant in practice (`int(False) * idx`, a select whose test never holds),
        # and the extreme over a bin's threads of one that saturates (a clamp, a tanh) is the same in every
        # bin: this thread's own input element makes each bin's sum or extreme its own
        anchor = b.anchor(dtype, continuous=op in ("min", "max"))
        if anchor is not None and value.mag + anchor.mag <= limit(dtype):
            if op in ("add", "sub"):
                # `slot = -1 - slot` then `slot + cell_ids[i]` is -1 for every thread: weighted
                w = typesys.scalar_literal(dtype, b.rng.choice((0.65, 1.7)) if dtype == "float32" else 2)
                value = Expr(f"{value.text} + {w} * {anchor.text}", dtype, value.mag + 2 * anchor.mag, True)
            else:
                value = Expr(f"{value.text} + {anchor.text}", dtype, value.mag + anchor.mag, True)
    if op in ("and", "or", "xor") and dtype == "int32":
        value = Expr(f"wp.abs({value.text})", dtype, value.mag, value.varies)
    b.emit(f"wp.atomic_{op}({target.name}, {idx}, {value.text})")


def _format(tree: ast.Module) -> str:
    parts = []
    for node in tree.body:
        text = ast.unparse(node)
        parts.append(text)
    head = [p for p in parts if p.startswith(("import", "from"))]
    rest = [p for p in parts if not p.startswith(("import", "from"))]
    return "\n".join(head) + "\n\n\n" + "\n\n\n".join(rest) + "\n"


_UPDATE = re.compile(r"^(\s*)([A-Za-z_]\w*) ([-+*])= (.*)$")


def _spell_out_updates(lines: list[str]) -> list[str]:
    """`x += e` -> `x = x + (e)` for every other update of a local: real kernels write 2.2% of their
    statements as augmented assignments to a local; Warp generates the same code for both.
    On the builder's lines, before the one parse (an AST pass here cost 7% of the generation time)."""
    out, seen = [], 0
    for line in lines:
        m = _UPDATE.match(line)
        if m is not None:
            seen += 1
            if seen % 2:
                indent, name, op, value = m.groups()
                line = f"{indent}{name} = {name} {op} ({value})"
        out.append(line)
    return out


def finish(program: KernelProgram) -> tuple[KernelProgram, bool]:
    """`program` with its dead code pruned, and whether it keeps its category's promise and decides
    every condition at run time."""
    tree = ast.parse(program.source)
    removed = dataflow.prune(tree, program.kernel_name)
    source = _format(tree)
    arguments = tuple(a for a in program.arguments if a.name not in removed)
    kernel = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == program.kernel_name)
    with syntax.unchanging():  # the pruned tree is final: both checks walk it, each node once
        ok = any(a.role in ("out", "inout") for a in arguments)
        ok = ok and dataflow.category_kept(program.category, tree, kernel)
        ok = ok and not dataflow.fixed_conditions(tree, kernel)
    return KernelProgram(program.category, program.kernel_name, source, program.launch_dim, arguments,
                         program.block_dim, program.launch_tiled), ok  # fmt: skip


def generate(stream: str, rng: random.Random, category: str) -> KernelProgram:
    """The program of `category` for the seed whose stream `rng` draws from."""
    program, ok = finish(_draw(rng, category))
    for k in range(RETRIES):
        if ok:
            break
        program, ok = finish(_draw(random.Random(f"{stream}/retry{k}"), category))
    return program


__all__ = ["INDENT", "MeaningBuilder", "Production", "generate"]
