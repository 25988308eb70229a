"""The `tile` category: Warp tile programming, launched with `wp.launch_tiled`.

Each program loads tiles from its input arrays (one tile per launch index, sizes that divide
the arrays, so every access is in bounds), composes a few tile operations (element-wise
arithmetic, `tile_map` over built-ins or a generated `wp.func`, reductions broadcast back,
constant tiles, transposes, scans) and stores tiles and reductions to its outputs. Only
self-contained operations: nothing that links MathDx objects (`tile_matmul`, Cholesky, FFT).
Per-thread tiles (`wp.tile(x)`/`wp.untile`) are left out on purpose: their shape follows the
block size, so a CPU launch (block size 1) and a GPU launch would compute different things.
Magnitudes are tracked as in `grammar`; a tile that grows too large is squashed with tanh.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from dataclasses import dataclass

from warp_cuda_ir.synthesis import typesys
from warp_cuda_ir.synthesis.grammar import HELPER_ARG, INDENT, Expr, Expressions, Var, variable_value
from warp_cuda_ir.synthesis.kernels import KernelBuilder
from warp_cuda_ir.synthesis.program import KernelProgram

TILE_TYPES = ("float32", "float64")
BLOCK_DIMS = (32, 64, 128, 256)
SQUASH_ABOVE = 8.0  # larger tiles go through tanh before the next operation
UNARY = {"sin": 1.0, "cos": 1.0, "tanh": 1.0, "abs": None}  # bound of the result (None: the argument's)
# Operation -> weight. `scan`: 1-D float32 only, and Warp 1.19 has no adjoint for it (gradcheck says so).
OPERATIONS = {
    "binary": 3.0,
    "scale": 1.5,
    "unary": 2.0,
    "helper": 1.5,
    "reduce_broadcast": 1.5,
    "reduce_scale": 0.7,
    "constant": 0.8,
    "transpose": 0.6,
    "scan": 0.4,
}
_TILE_NAMES = ("ta", "tb", "tc", "td", "tx", "ty", "tz", "tw")
_HELPER_NAMES = ("shape_fn", "activate", "soften", "mix", "warp_value", "response")


@dataclass
class Tile:
    name: str
    mag: float
    transposed: bool = False  # shape reversed (2-D tiles only)
    loaded: bool = False  # straight from an input array


@dataclass
class _TileKernel:
    b: KernelBuilder
    dtype: str
    tile: tuple[int, ...]
    pool: list[Tile]
    used: set[str]
    tuple_1d: bool = False  # 1-D shapes and offsets spelled `(n,)`: Warp needs both spelled alike

    @property
    def rng(self) -> random.Random:
        return self.b.rng

    # ---- text ----------------------------------------------------------------------------
    def shape_text(self, transposed: bool = False) -> str:
        shape = self.tile[::-1] if transposed else self.tile
        if len(shape) == 1:
            return f"({shape[0]},)" if self.tuple_1d else str(shape[0])
        return f"({', '.join(map(str, shape))})"

    def offset_text(self, transposed: bool = False) -> str:
        parts = [f"{tid} * {size}" for tid, size in zip(self.b.tids, self.tile, strict=True)]
        parts = parts[::-1] if transposed else parts
        if len(parts) == 1:
            return f"({parts[0]},)" if self.tuple_1d else parts[0]
        return f"({', '.join(parts)})"

    def literal(self, low: float, high: float) -> str:
        return typesys.scalar_literal(self.dtype, self.rng.uniform(low, high))

    @property
    def annotation(self) -> str:
        return typesys.parse(self.dtype).annotation

    def define(self, text: str, mag: float, transposed: bool = False) -> Tile:
        tile = Tile(self.b.fresh(_TILE_NAMES), mag, transposed)
        self.b.emit(f"{tile.name} = {text}")
        self.pool.append(tile)
        return tile

    # ---- operands ------------------------------------------------------------------------
    def operand(self, bound: float = SQUASH_ABOVE, exclude: Tile | None = None, transposed: bool | None = None) -> Tile:
        """A tile of the pool, unused ones and recent ones first, squashed if larger than `bound`."""
        choices = [t for t in self.pool if t is not exclude and (transposed is None or t.transposed == transposed)]
        fresh = [t for t in choices if t.name not in self.used]
        tile = self.rng.choice(fresh) if fresh and self.rng.random() < 0.7 else self.rng.choice(choices[-3:])
        if tile.mag > bound:
            tile = self.define(f"wp.tile_map(wp.tanh, {tile.name})", 1.0, tile.transposed)
        self.used.add(tile.name)
        return tile

    # ---- operations ----------------------------------------------------------------------
    def op_binary(self) -> None:
        x = self.operand()
        partners = [t for t in self.pool if t is not x and t.transposed == x.transposed]
        if not partners:  # `x - x` would be a constant: scale instead
            return self.op_scale()
        y = self.operand(exclude=x, transposed=x.transposed)
        kind = self.rng.choice(("+", "-", "mul", "min", "max"))
        if kind in ("+", "-"):
            self.define(f"{x.name} {kind} {y.name}", x.mag + y.mag, x.transposed)
        else:
            mag = x.mag * y.mag if kind == "mul" else max(x.mag, y.mag)
            self.define(f"wp.tile_map(wp.{kind}, {x.name}, {y.name})", mag, x.transposed)
        return None

    def op_scale(self) -> None:
        x = self.operand()
        scale = self.literal(0.25, 2.0) if self.rng.random() < 0.5 else self.literal(-2.0, -0.25)
        text = f"{x.name} * {scale}" if self.rng.random() < 0.6 else f"{scale} * {x.name}"
        self.define(text, x.mag * 2.0, x.transposed)

    def op_unary(self) -> None:
        x = self.operand()
        name = self.rng.choice(list(UNARY))
        self.define(f"wp.tile_map(wp.{name}, {x.name})", UNARY[name] or x.mag, x.transposed)

    def op_helper(self) -> None:
        """`tile_map` of a generated `wp.func` over one or two tiles (same shape)."""
        x = self.operand(bound=HELPER_ARG)
        partners = [t for t in self.pool if t is not x and t.transposed == x.transposed]
        args = [x]
        if partners and self.rng.random() < 0.5:
            args.append(self.operand(bound=HELPER_ARG, exclude=x, transposed=x.transposed))
        name, mag = self.helper(len(args))
        self.define(f"wp.tile_map({name}, {', '.join(t.name for t in args)})", mag, x.transposed)

    def helper(self, arity: int) -> tuple[str, float]:
        rng = self.rng
        name = self.b.fresh(_HELPER_NAMES)
        params = "xy"[:arity]
        inner = Expressions(rng, (self.dtype,))
        inner.scope.variables = [Var(p, self.dtype, HELPER_ARG) for p in params]
        lines = ["@wp.func", f"def {name}({', '.join(f'{p}: {self.annotation}' for p in params)}):"]
        if rng.random() < 0.5:
            e = self.helper_expr(inner, params)
            lines.append(f"{INDENT}v0 = {e.text}")
            inner.scope.variables.append(Var("v0", self.dtype, e.mag))
        e = self.helper_expr(inner, (*params, "v0"))
        # The grammar can draw a constant-valued function (atan2(x, x), a zero vector's norm ...): adding
        # an argument keeps the mapped tile dependent on its input, so stored outputs are never constant.
        half = typesys.scalar_literal(self.dtype, 0.5)
        pattern = rng.choice(("{p} + {e}", "{e} - {p}", "{p} - {e}", "({p} + {e}) * {half}"))
        text, mag = pattern.format(p=rng.choice(params), e=e.text, half=half), e.mag + HELPER_ARG
        if mag > SQUASH_ABOVE:
            text, mag = f"wp.tanh({text})", 1.0
        lines.append(f"{INDENT}return {text}")
        self.b.prelude.append("\n".join(lines))
        return name, mag

    def helper_expr(self, inner: Expressions, names: tuple[str, ...] | str) -> Expr:
        """An expression reading the helper's values that is more than one of them (no identity map)."""
        reads = re.compile(r"\b(" + "|".join(names) + r")\b")
        for _ in range(6):
            e = variable_value(inner.expr_reading(self.dtype, 2))
            # Not a bare value nor a cast of one (`float(x)`): the helper would be the identity.
            if reads.search(e.text) and not re.fullmatch(r"(wp\.)?(float\d*\()?\w+\)?", e.text):
                return e
        return Expr(f"wp.sin({names[0]})", self.dtype, 1.0)  # a constant map would make a constant tile

    def reduction(self, x: Tile) -> tuple[str, float]:
        """A one-element tile reducing `x`, and its bound."""
        size = math.prod(self.tile)
        kind = self.rng.choice(("sum", "max", "min", "add", "max_r", "min_r"))
        if kind in ("sum", "max", "min"):
            text = f"wp.tile_{kind}({x.name})"
        else:
            text = f"wp.tile_reduce(wp.{kind.removesuffix('_r')}, {x.name})"
        return text, x.mag * size if kind in ("sum", "add") else x.mag

    def op_reduce_broadcast(self) -> None:
        """`x -/+ broadcast(reduce(x))`: e.g. centre a tile on its mean or its maximum."""
        x = self.operand()
        reduced, mag = self.reduction(x)
        r = self.b.fresh(("r", "red", "peak", "total_t"))
        self.b.emit(f"{r} = {reduced}")
        shape = self.tile[::-1] if x.transposed else self.tile
        sign = self.rng.choice(("-", "+"))
        self.define(f"{x.name} {sign} wp.tile_broadcast({r}, shape=({', '.join(map(str, shape))},))", x.mag + mag,
                    x.transposed)  # fmt: skip

    def op_reduce_scale(self) -> None:
        """Scale a tile by a scalar read out of a reduction (`tile_extract`)."""
        x = self.operand()
        y = self.operand(bound=1.0) if len(self.pool) > 1 and self.rng.random() < 0.5 else x
        kind = self.rng.choice(("max", "min"))
        s = self.b.fresh(("s", "peak", "lo", "hi"))
        self.b.emit(f"{s} = wp.tile_extract(wp.tile_{kind}({y.name}), 0)")
        self.define(f"{x.name} * {s}", x.mag * y.mag, x.transposed)

    def op_constant(self) -> None:
        x = self.operand()
        shape = self.shape_text(x.transposed)
        if self.rng.random() < 0.5:
            self.define(f"{x.name} + wp.tile_ones(shape={shape}, dtype={self.annotation})", x.mag + 1, x.transposed)
        else:
            value = self.literal(-1.0, 1.0)
            text = f"wp.tile_full(shape={shape}, value={value}, dtype={self.annotation})"
            self.define(f"{x.name} {self.rng.choice(('+', '-'))} {text}", x.mag + 1, x.transposed)

    def op_transpose(self) -> None:
        if len(self.tile) != 2:
            return self.op_unary()
        x = self.operand()
        self.define(f"wp.tile_transpose({x.name})", x.mag, not x.transposed)
        return None

    def op_scan(self) -> None:
        if len(self.tile) != 1 or self.dtype != "float32":  # Warp scans 1-D float32/int tiles only
            return self.op_binary()
        x = self.operand()
        kind = self.rng.choice(("inclusive", "exclusive"))
        self.define(f"wp.tile_scan_{kind}({x.name})", x.mag * self.tile[0])
        return None


def _sizes(rng: random.Random, ndim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(tile shape, tile grid): tiles of at most 256 elements, a few tiles per array."""
    if ndim == 1:
        return (rng.choice((8, 16, 32, 64, 128, 256)),), (rng.choice((1, 2, 3, 4, 8)),)
    while True:
        tile = (rng.choice((2, 4, 8, 16)), rng.choice((2, 4, 8, 16)))
        if tile[0] * tile[1] <= 256:
            return tile, (rng.choice((1, 2, 3)), rng.choice((1, 2, 3)))


def tile_program(rng: random.Random, kernel_name: str) -> KernelProgram:
    dtype = rng.choice(TILE_TYPES)
    tile, grid = _sizes(rng, rng.choice((1, 2)))
    shape = tuple(g * t for g, t in zip(grid, tile, strict=True))
    b = KernelBuilder(rng, Expressions(rng, (dtype,)), kernel_name, grid)
    k = _TileKernel(b, dtype, tile, [], set(), tuple_1d=rng.random() < 0.3)
    b.emit(f"{', '.join(b.tids)} = wp.tid()")

    for _ in range(rng.randint(1, 3)):
        transposed = len(tile) == 2 and rng.random() < 0.25  # stored the other way round
        spec = b.add_array(dtype, "in", shape[::-1] if transposed else shape)
        load = f"wp.tile_load({spec.name}, shape={k.shape_text(transposed)}, offset={k.offset_text(transposed)})"
        if transposed:
            load = f"wp.tile_transpose({load})"
        k.pool.append(Tile(b.fresh(_TILE_NAMES), 1.0, loaded=True))
        b.emit(f"{k.pool[-1].name} = {load}")
    if rng.random() < 0.3:  # a scalar parameter scaling one input
        param = b.add_scalar_param(dtype, round(rng.uniform(0.5, 2.0), 3))
        x = k.operand()
        k.define(f"{x.name} * {param.name}", x.mag * param.mag)

    for _ in range(rng.randint(2, 4)):
        kind = rng.choices(list(OPERATIONS), list(OPERATIONS.values()))[0]
        getattr(k, f"op_{kind}")()
    final = k.pool[-1]
    if final.transposed:
        final = k.define(f"wp.tile_transpose({final.name})", final.mag)

    out = b.add_array(dtype, "out", shape)
    b.emit(f"wp.tile_store({out.name}, {final.name}, offset={k.offset_text()})")
    others = [t for t in k.pool if not t.loaded and t is not final and t is not k.pool[-1]]
    if others and rng.random() < 0.35:  # a second output, stored as it is (transposed or not)
        other = rng.choice(others)
        spec = b.add_array(dtype, "out", shape[::-1] if other.transposed else shape)
        b.emit(f"wp.tile_store({spec.name}, {other.name}, offset={k.offset_text(other.transposed)})")
    roll = rng.random()
    if roll < 0.3:  # one reduction per tile, at the tile's linear index
        linear = b.tids[0] if len(grid) == 1 else f"{b.tids[0]} * {grid[1]} + {b.tids[1]}"
        reduced, _ = k.reduction(final)
        spec = b.add_array(dtype, "out", (math.prod(grid),))
        b.emit(f"wp.tile_store({spec.name}, {reduced}, offset={linear})")
    elif roll < 0.55:  # every tile adds into one total
        spec = b.add_array(dtype, "inout", (1,), {"dist": "zeros"})
        b.emit(f"wp.tile_atomic_add({spec.name}, wp.tile_sum({final.name}), offset=0)")
    program = b.program("tile")
    return dataclasses.replace(program, block_dim=rng.choice(BLOCK_DIMS), launch_tiled=True)
