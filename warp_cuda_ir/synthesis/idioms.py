"""Idioms real Warp code uses, as parameterised generators (terms come from the grammar)."""

from __future__ import annotations

import random
from collections.abc import Callable

from warp_cuda_ir.synthesis.grammar import Expressions, Var
from warp_cuda_ir.synthesis.kernels import KernelBuilder
from warp_cuda_ir.synthesis.program import KernelProgram


def _builder(rng: random.Random, name: str, dim: tuple[int, ...], types: tuple[str, ...]) -> KernelBuilder:
    return KernelBuilder(rng, Expressions(rng, types), name, dim)


def _term(b: KernelBuilder, type_name: str, variables: dict[str, str]) -> str:
    """A bounded random term from the grammar over the idiom's variables: each instance differs."""
    b.expressions.scope.variables = [Var(name, t, 1.0) for name, t in variables.items()]
    e = b.expressions.expr(type_name, 2)
    if type_name == "vec3":
        return f"wp.normalize({e.text})"
    return f"wp.clamp({e.text}, -1.0, 1.0)"


def particle_integration(rng: random.Random) -> KernelProgram:
    """Semi-implicit Euler with gravity, damping and an optional ground plane."""
    n = rng.choice((64, 128, 256))
    b = _builder(rng, rng.choice(("integrate_particles", "advance", "euler_step")), (n,), ("float32", "vec3"))
    x, v = b.add_array("vec3", "inout"), b.add_array("vec3", "inout")
    f = b.add_array("vec3", "in") if rng.random() < 0.7 else None
    inv_m = b.add_array("float32", "in", init={"dist": "uniform", "low": 0.1, "high": 2.0})
    dt = b.add_scalar_param("float32", rng.choice((0.001, 0.005, 0.01, 0.016)))
    b.emit("i = wp.tid()")
    g = f"wp.vec3(0.0, {-round(rng.uniform(1.0, 9.81), 2)}, 0.0)"
    acc = f"{f.name}[i] * {inv_m.name}[i] + {g}" if f else g
    b.emit(f"v0 = {v.name}[i]")
    b.emit(f"x0 = {x.name}[i]")
    b.emit(f"v1 = v0 + ({acc} + {_term(b, 'vec3', {'x0': 'vec3', 'v0': 'vec3'})}) * {dt.name}")
    if rng.random() < 0.6:
        b.emit(f"v1 = v1 * {round(rng.uniform(0.9, 0.999), 3)}")
    b.emit(f"x1 = x0 + v1 * {dt.name}")
    if rng.random() < 0.5:
        b.emit(f"if x1[1] < {round(rng.uniform(-1.0, 0.0), 2)}:")
        b.emit(f"    x1 = wp.vec3(x1[0], {round(rng.uniform(-1.0, 0.0), 2)}, x1[2])")
        b.emit(f"    v1 = wp.vec3(v1[0], -v1[1] * {round(rng.uniform(0.1, 0.9), 2)}, v1[2])")
    b.emit(f"{x.name}[i] = x1")
    b.emit(f"{v.name}[i] = v1")
    return b.program("idioms")


def springs(rng: random.Random) -> KernelProgram:
    """Damped springs between particle pairs, forces scattered with atomics."""
    n, s = rng.choice((32, 64, 128)), rng.choice((16, 64, 100))
    b = _builder(rng, rng.choice(("eval_springs", "spring_forces", "apply_springs")), (s,), ("float32", "vec3"))
    x, v = b.add_array("vec3", "in", (n,)), b.add_array("vec3", "in", (n,))
    idx = b.add_array("int32", "in", (s * 2,), {"dist": "randint", "low": 0, "high": n})
    rest = b.add_array("float32", "in", (s,), {"dist": "uniform", "low": 0.1, "high": 1.0})
    f = b.add_array("vec3", "inout", (n,), {"dist": "zeros"})
    ke, kd = b.add_scalar_param("float32", round(rng.uniform(1, 100), 1)), b.add_scalar_param("float32", 0.1)
    b.emit("tid = wp.tid()")
    b.emit(f"a = {idx.name}[tid * 2]")
    b.emit(f"c = {idx.name}[tid * 2 + 1]")
    b.emit(f"d = {x.name}[a] - {x.name}[c]")
    b.emit("l = wp.length(d)")
    b.emit(f"dir = d / (l + {rng.choice(('1e-6', '0.001'))})")
    b.emit(f"dv = {v.name}[a] - {v.name}[c]")
    b.emit(f"fs = dir * ({ke.name} * (l - {rest.name}[tid]) + {kd.name} * wp.dot(dir, dv))")
    if rng.random() < 0.8:
        b.emit(f"fs = fs * (1.0 + 0.5 * {_term(b, 'float32', {'l': 'float32', 'dir': 'vec3', 'dv': 'vec3'})})")
    b.emit(f"wp.atomic_sub({f.name}, a, fs)")
    b.emit(f"wp.atomic_add({f.name}, c, fs)")
    return b.program("idioms")


def stencil(rng: random.Random) -> KernelProgram:
    """A 2-D grid stencil (Laplacian / blur / diffusion step) with clamped or wrapped borders."""
    h, w = rng.choice((8, 16, 32)), rng.choice((8, 16, 32))
    b = _builder(rng, rng.choice(("laplace_2d", "diffuse", "blur_grid", "smooth_field")), (h, w), ("float32",))
    src, dst = b.add_array("float32", "in"), b.add_array("float32", "out")
    b.emit("i, j = wp.tid()")
    wrap = rng.random() < 0.5
    taps = []
    for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if wrap:
            ii, jj = f"(i + {di % h}) % {h}", f"(j + {dj % w}) % {w}"
        else:
            ii, jj = f"wp.clamp(i + {di}, 0, {h - 1})", f"wp.clamp(j + {dj}, 0, {w - 1})"
        taps.append(f"{src.name}[{ii}, {jj}]")
    b.emit(f"nb = {' + '.join(taps)}")
    b.emit(f"c = {src.name}[i, j]")
    c = "c"
    if rng.random() < 0.8:
        b.emit(f"nb = nb + {_term(b, 'float32', {'c': 'float32', 'nb': 'float32'})}")
    alpha = round(rng.uniform(0.05, 0.25), 3)
    b.emit(rng.choice((f"{dst.name}[i, j] = {c} + {alpha} * (nb - 4.0 * {c})", f"{dst.name}[i, j] = 0.2 * (nb + {c})")))
    return b.program("idioms")


def neighbours(rng: random.Random) -> KernelProgram:
    """Brute-force neighbour loop with a cutoff radius (a density or repulsion sum)."""
    n = rng.choice((32, 64, 128))
    b = _builder(rng, rng.choice(("compute_density", "neighbor_sum", "repulsion")), (n,), ("float32", "vec3"))
    x, out = b.add_array("vec3", "in"), b.add_array(rng.choice(("float32", "vec3")), "out")
    r = b.add_scalar_param("float32", round(rng.uniform(0.2, 0.8), 2))
    b.emit("i = wp.tid()")
    vec = out.dtype == "vec3"
    b.emit("acc = wp.vec3()" if vec else "acc = float(0.0)")
    b.emit(f"for j in range({n}):")
    b.emit("    if j == i:")
    b.emit("        continue")
    b.emit(f"    d = {x.name}[i] - {x.name}[j]")
    b.emit("    q = wp.length(d)")
    b.emit(f"    if q < {r.name}:")
    w = rng.choice((f"({r.name} - q) * ({r.name} - q)", f"wp.exp(-q * q / ({r.name} * {r.name}))"))
    if rng.random() < 0.8:
        w = f"{w} * (1.0 + 0.5 * {_term(b, 'float32', {'q': 'float32', 'd': 'vec3'})})"
    b.emit(f"        acc += d * {w}" if vec else f"        acc += {w}")
    b.emit(f"{out.name}[i] = acc")
    return b.program("idioms")


def matrix_assembly(rng: random.Random) -> KernelProgram:
    """Per-element matrices (outer products of gradients) assembled into nodes with atomics."""
    n, e = rng.choice((16, 32, 64)), rng.choice((16, 32, 64))
    b = _builder(rng, rng.choice(("assemble_stiffness", "assemble_mass", "accumulate_inertia")), (e,), ("float32",))
    grads = b.add_array("vec3", "in", (e,))
    nodes = b.add_array("int32", "in", (e,), {"dist": "randint", "low": 0, "high": n})
    k = b.add_array("mat33", "inout", (n,), {"dist": "zeros"})
    b.emit("t = wp.tid()")
    b.emit(f"g = {grads.name}[t]")
    term = rng.choice(
        (
            "wp.outer(g, g)",
            "wp.outer(g, g) + wp.identity(n=3, dtype=float) * 0.01",
            "wp.skew(g) * wp.transpose(wp.skew(g))",
        )
    )
    if rng.random() < 0.8:
        term = f"{term} * (1.0 + 0.5 * {_term(b, 'float32', {'g': 'vec3'})})"
    b.emit(f"wp.atomic_add({k.name}, {nodes.name}[t], {term} * {round(rng.uniform(0.1, 2.0), 2)})")
    return b.program("idioms")


def scan_reduce(rng: random.Random) -> KernelProgram:
    """Block-wise partial sums into bins plus a global max: the reduction-with-atomics idiom."""
    n, bins = rng.choice((64, 128, 256)), rng.choice((4, 8, 16))
    b = _builder(rng, rng.choice(("histogram", "partial_sums", "reduce_bins")), (n,), ("float32",))
    x = b.add_array("float32", "in")
    sums, peak = (
        b.add_array("float32", "inout", (bins,), {"dist": "zeros"}),
        b.add_array("float32", "inout", (1,), {"dist": "zeros"}),
    )
    b.emit("i = wp.tid()")
    b.emit(f"x0 = {x.name}[i]")
    b.emit(f"v = {rng.choice(('wp.abs', 'wp.sin', ''))}(x0)")
    if rng.random() < 0.8:
        b.emit(f"v = v * {_term(b, 'float32', {'x0': 'float32', 'v': 'float32'})}")
    b.emit(f"wp.atomic_add({sums.name}, {rng.choice((f'i % {bins}', f'i // {n // bins}'))}, v)")
    b.emit(f"wp.atomic_max({peak.name}, 0, v)")
    return b.program("idioms")


IDIOMS: list[Callable[[random.Random], KernelProgram]] = [
    particle_integration, springs, stencil, neighbours, matrix_assembly, scan_reduce,
]  # fmt: skip
