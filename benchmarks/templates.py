"""The first generator, retired: ten parameterised kernel families, randomised by seed.

Kept for `benchmarks/generator.py`, which compares generators' cost on the build's row path.

Each family picks names, operators, constants and sizes from a seeded RNG. Inputs are
kept inside the domains of the operations used (positive for sqrt/log, bounded indices).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from warp_cuda_ir.synthesis.program import Argument, KernelProgram

GENERATOR_VERSION = "templates-1"

UNIFORM = {"dist": "uniform", "low": -1.0, "high": 1.0}
POSITIVE = {"dist": "uniform", "low": 0.1, "high": 2.0}
ZEROS = {"dist": "zeros"}

_NAMES = ["a", "b", "x", "y", "u", "w", "p", "q", "src", "dst", "inp", "out", "vals", "data", "field", "buf"]
_KERNEL_VERBS = ["compute", "apply", "update", "eval", "step", "transform", "accumulate", "process", "blend", "map"]
_UNARY_SAFE = ["wp.sin", "wp.cos", "wp.abs", "wp.tanh", "wp.exp"]  # defined on [-1, 1]-ish inputs
_UNARY_POS = ["wp.sqrt", "wp.log"]  # need positive inputs
_BINOPS = ["+", "-", "*"]


def _names(rng: random.Random, n: int) -> list[str]:
    return rng.sample(_NAMES, n)


def _kernel_name(rng: random.Random, category: str) -> str:
    return f"{rng.choice(_KERNEL_VERBS)}_{category}_{rng.randint(0, 999)}"


def _const(rng: random.Random) -> str:
    return repr(round(rng.uniform(0.1, 4.0), rng.choice([1, 2, 3])))


def _n(rng: random.Random) -> int:
    return rng.choice([16, 32, 64, 100, 128, 256])


def _source(name: str, params: str, body: list[str], prefix: str = "") -> str:
    lines = ["import warp as wp", "", prefix.rstrip() + "\n" if prefix else "", "@wp.kernel", f"def {name}({params}):"]
    lines += [f"    {line}" for line in body]
    return "\n".join(lines).replace("\n\n\n@", "\n\n@") + "\n"


def _arith(rng: random.Random) -> KernelProgram:
    a, b, c = _names(rng, 3)
    n, name = _n(rng), _kernel_name(rng, "arith")
    ops = [rng.choice(_BINOPS) for _ in range(rng.randint(1, 3))]
    expr = f"{a}[i]"
    for op in ops:
        expr = f"({expr} {op} {rng.choice([f'{b}[i]', _const(rng)])})"
    body = ["i = wp.tid()", f"{c}[i] = {expr}"]
    params = f"{a}: wp.array(dtype=float), {b}: wp.array(dtype=float), {c}: wp.array(dtype=float)"
    return KernelProgram(
        "arithmetic",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(a, "array", "float32", (n,), "in", UNIFORM),
            Argument(b, "array", "float32", (n,), "in", UNIFORM),
            Argument(c, "array", "float32", (n,), "out", ZEROS),
        ),
    )


def _math(rng: random.Random) -> KernelProgram:
    a, c = _names(rng, 2)
    n, name = _n(rng), _kernel_name(rng, "math")
    f1, f2 = rng.choice(_UNARY_POS), rng.choice(_UNARY_SAFE)
    body = ["i = wp.tid()", f"t = {f1}({a}[i])", f"{c}[i] = {f2}(t) * {_const(rng)}"]
    params = f"{a}: wp.array(dtype=float), {c}: wp.array(dtype=float)"
    return KernelProgram(
        "math",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(a, "array", "float32", (n,), "in", POSITIVE),
            Argument(c, "array", "float32", (n,), "out", ZEROS),
        ),
    )


def _vector(rng: random.Random) -> KernelProgram:
    a, b, c = _names(rng, 3)
    n, name = _n(rng), _kernel_name(rng, "vec")
    reducer = rng.choice(
        ["wp.dot({a}[i], {b}[i])", "wp.length({a}[i] + {b}[i])", "wp.length(wp.cross({a}[i], {b}[i]))"]
    )
    body = ["i = wp.tid()", f"{c}[i] = {reducer.format(a=a, b=b)} * {_const(rng)}"]
    params = f"{a}: wp.array(dtype=wp.vec3), {b}: wp.array(dtype=wp.vec3), {c}: wp.array(dtype=float)"
    return KernelProgram(
        "vector",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(a, "array", "vec3", (n,), "in", UNIFORM),
            Argument(b, "array", "vec3", (n,), "in", UNIFORM),
            Argument(c, "array", "float32", (n,), "out", ZEROS),
        ),
    )


def _matrix(rng: random.Random) -> KernelProgram:
    m, v, c = _names(rng, 3)
    n, name = _n(rng), _kernel_name(rng, "mat")
    expr = rng.choice(["{m}[i] * {v}[i]", "wp.transpose({m}[i]) * {v}[i]", "({m}[i] * {m}[i]) * {v}[i]"])
    body = ["i = wp.tid()", f"{c}[i] = {expr.format(m=m, v=v)}"]
    params = f"{m}: wp.array(dtype=wp.mat33), {v}: wp.array(dtype=wp.vec3), {c}: wp.array(dtype=wp.vec3)"
    return KernelProgram(
        "matrix",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(m, "array", "mat33", (n,), "in", UNIFORM),
            Argument(v, "array", "vec3", (n,), "in", UNIFORM),
            Argument(c, "array", "vec3", (n,), "out", ZEROS),
        ),
    )


def _control_flow(rng: random.Random) -> KernelProgram:
    a, c = _names(rng, 2)
    n, name = _n(rng), _kernel_name(rng, "branch")
    t = round(rng.uniform(-0.5, 0.5), 2)
    body = [
        "i = wp.tid()",
        f"v = {a}[i]",
        f"if v > {t}:",
        f"    {c}[i] = v * {_const(rng)}",
        "else:",
        f"    {c}[i] = {rng.choice(_UNARY_SAFE)}(v)",
    ]
    params = f"{a}: wp.array(dtype=float), {c}: wp.array(dtype=float)"
    return KernelProgram(
        "control_flow",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(a, "array", "float32", (n,), "in", UNIFORM),
            Argument(c, "array", "float32", (n,), "out", ZEROS),
        ),
    )


def _atomic(rng: random.Random) -> KernelProgram:
    a, c = _names(rng, 2)
    n, name = _n(rng), _kernel_name(rng, "atomic")
    op = rng.choice(["wp.atomic_add", "wp.atomic_max", "wp.atomic_min"])
    body = ["i = wp.tid()", f"{op}({c}, 0, {a}[i] * {_const(rng)})"]
    params = f"{a}: wp.array(dtype=float), {c}: wp.array(dtype=float)"
    return KernelProgram(
        "atomic",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(a, "array", "float32", (n,), "in", UNIFORM),
            Argument(c, "array", "float32", (1,), "inout", ZEROS),
        ),
    )


def _nested_loop(rng: random.Random) -> KernelProgram:
    a, c = _names(rng, 2)
    n, name = _n(rng), _kernel_name(rng, "loops")
    k1, k2 = rng.randint(2, 6), rng.randint(2, 6)
    body = [
        "i = wp.tid()",
        "s = float(0.0)",
        f"for j in range({k1}):",
        f"    for k in range({k2}):",
        f"        s += {a}[(i + j * {k2} + k) % {n}] * float(j {rng.choice(_BINOPS)} k)",
        f"{c}[i] = s",
    ]
    params = f"{a}: wp.array(dtype=float), {c}: wp.array(dtype=float)"
    return KernelProgram(
        "nested_loop",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(a, "array", "float32", (n,), "in", UNIFORM),
            Argument(c, "array", "float32", (n,), "out", ZEROS),
        ),
    )


def _multi_condition(rng: random.Random) -> KernelProgram:
    a, c = _names(rng, 2)
    n, name = _n(rng), _kernel_name(rng, "cond")
    lo, hi = sorted(round(rng.uniform(-0.8, 0.8), 2) for _ in range(2))
    body = [
        "i = wp.tid()",
        f"v = {a}[i]",
        f"if v < {lo}:",
        f"    {c}[i] = v * {_const(rng)}",
        f"elif v < {hi} and i % {rng.randint(2, 5)} == 0:",
        f"    {c}[i] = {rng.choice(_UNARY_SAFE)}(v)",
        "else:",
        f"    {c}[i] = v {rng.choice(_BINOPS)} {_const(rng)}",
    ]
    params = f"{a}: wp.array(dtype=float), {c}: wp.array(dtype=float)"
    return KernelProgram(
        "multi_condition",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(a, "array", "float32", (n,), "in", UNIFORM),
            Argument(c, "array", "float32", (n,), "out", ZEROS),
        ),
    )


def _combined(rng: random.Random) -> KernelProgram:
    p, v, c = _names(rng, 3)
    n, name = _n(rng), _kernel_name(rng, "combo")
    helper = f"scale_{rng.randint(0, 99)}"
    prefix = f"@wp.func\ndef {helper}(x: wp.vec3, s: float):\n    return x * s\n"
    body = [
        "i = wp.tid()",
        f"d = {helper}({v}[i], {_const(rng)})",
        "if wp.length(d) > 1.0:",
        "    d = wp.normalize(d)",
        f"{p}[i] = {p}[i] + d",
        f"wp.atomic_add({c}, 0, wp.length(d))",
    ]
    params = f"{p}: wp.array(dtype=wp.vec3), {v}: wp.array(dtype=wp.vec3), {c}: wp.array(dtype=float)"
    return KernelProgram(
        "combined",
        name,
        _source(name, params, body, prefix),
        (n,),
        (
            Argument(p, "array", "vec3", (n,), "inout", UNIFORM),
            Argument(v, "array", "vec3", (n,), "in", UNIFORM),
            Argument(c, "array", "float32", (1,), "inout", ZEROS),
        ),
    )


def _scalar_param(rng: random.Random) -> KernelProgram:
    a, c = _names(rng, 2)
    n, name = _n(rng), _kernel_name(rng, "scalar")
    alpha, beta = round(rng.uniform(-2, 2), 3), round(rng.uniform(-2, 2), 3)
    body = ["i = wp.tid()", f"{c}[i] = alpha * {a}[i] {rng.choice(_BINOPS)} beta"]
    params = f"{a}: wp.array(dtype=float), {c}: wp.array(dtype=float), alpha: float, beta: float"
    return KernelProgram(
        "scalar_param",
        name,
        _source(name, params, body),
        (n,),
        (
            Argument(a, "array", "float32", (n,), "in", UNIFORM),
            Argument(c, "array", "float32", (n,), "out", ZEROS),
            Argument("alpha", "scalar", "float32", (), "in", {"value": alpha}),
            Argument("beta", "scalar", "float32", (), "in", {"value": beta}),
        ),
    )


FAMILIES: dict[str, Callable[[random.Random], KernelProgram]] = {
    "arithmetic": _arith,
    "math": _math,
    "vector": _vector,
    "matrix": _matrix,
    "control_flow": _control_flow,
    "atomic": _atomic,
    "nested_loop": _nested_loop,
    "multi_condition": _multi_condition,
    "combined": _combined,
    "scalar_param": _scalar_param,
}
CATEGORIES: tuple[str, ...] = tuple(FAMILIES)


def generate(seed: int, categories: tuple[str, ...]) -> KernelProgram:
    rng = random.Random(f"warp_cuda_ir/{GENERATOR_VERSION}/{seed}")  # str seeds hash stably
    return FAMILIES[rng.choice(categories)](rng)
