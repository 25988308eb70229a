"""Warp's built-in catalogue, read from Warp itself, and which parts the generator may use.

`signatures()` walks Warp's built-in registry (`warp_session.builtin_functions()`): every overload whose argument
and result types are all types the generator knows (see `typesys`) becomes a production
`name(args) -> result`. A curated deny list removes built-ins with side effects or that need
objects we do not create (meshes, volumes ...); `GUARDS` keeps arguments inside their domains.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from warp_cuda_ir import warp_session
from warp_cuda_ir.synthesis import typesys

# Not usable in a self-contained expression: side effects, debugging, or handled as statements.
DENY = frozenset(
    {
        "print", "printf", "breakpoint", "expect_eq", "expect_neq", "expect_near", "tid", "range", "index",
        "slice", "rand_init", "assign", "assign_inplace", "assign_copy", "address", "store", "load", "bool",
        "atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor",
        "atomic_exch", "atomic_cas", "pos", "quat_twist", "closest_point_edge_edge", "noise", "pnoise", "curlnoise",
        "quat_to_euler", "quat_from_euler",
    }
)  # fmt: skip
# Operators: Warp implements them as built-ins, the source spells them as Python operators.
OPERATORS = {
    "add": "({0} + {1})",
    "sub": "({0} - {1})",
    "mul": "({0} * {1})",
    "neg": "(-{0})",
    "bit_and": "({0} & {1})",
    "bit_or": "({0} | {1})",
    "bit_xor": "({0} ^ {1})",
    "invert": "(~{0})",
    "unot": "(not {0})",
}
# Domain guards: a template over the arguments ({0}, {1} ...) and typed constants
# ({eps}, {one}, {lo}, {hi}, {c}) of the result's scalar type. Values stay finite for |inputs| <= limit.
GUARDS = {
    "sqrt": "wp.sqrt(wp.abs({0}) + {eps})",
    "log": "wp.log(wp.abs({0}) + {eps})",
    "log2": "wp.log2(wp.abs({0}) + {eps})",
    "log10": "wp.log10(wp.abs({0}) + {eps})",
    "acos": "wp.acos(wp.clamp({0}, -{one}, {one}))",
    "asin": "wp.asin(wp.clamp({0}, -{one}, {one}))",
    "exp": "wp.exp(wp.clamp({0}, -{hi}, {hi}))",
    "sinh": "wp.sinh(wp.clamp({0}, -{hi}, {hi}))",
    "cosh": "wp.cosh(wp.clamp({0}, -{hi}, {hi}))",
    "tan": "wp.tan(wp.clamp({0}, -{one}, {one}))",
    "pow": "wp.pow(wp.abs({0}) + {eps}, {c})",
    "div": "({0} / (wp.abs({1}) + {one}))",
    "mod": "wp.mod({0}, wp.abs({1}) + {one})",
    "floordiv": "({0} // {k})",
    "lshift": "({0} << {k})",
    "rshift": "({0} >> {k})",
    "inverse": "wp.inverse({0} * wp.transpose({0}) + wp.identity(n={n}, dtype={s}))",
    "quat_slerp": "wp.quat_slerp(wp.normalize({0}), wp.normalize({1}), wp.clamp({2}, {zero}, {one}))",
    "quat_from_matrix": "wp.quat_from_matrix(wp.quat_to_matrix(wp.normalize({0})))",
    "smoothstep": "wp.smoothstep({zero}, {one}, {0})",
    "erfinv": "wp.erfinv(wp.clamp({0}, -{p9}, {p9}))",
    "erfcinv": "wp.erfcinv(wp.clamp({0}, {p1}, {one} + {p9}))",
    "div_approx": "wp.div_approx({0}, wp.abs({1}) + {one})",
    "inverse_approx": "wp.inverse_approx({0} * wp.transpose({0}) + wp.identity(n={n}, dtype={s}))",
    "transformation": "wp.transformation({0}, wp.normalize({1}))",
    "transform_compose": "wp.transform_compose({0}, wp.normalize({1}), {2})",
    "cw_div": "wp.cw_div({0}, wp.cw_mul({1}, {1}) + {ones})",
    "poisson": "wp.poisson({0}, wp.abs({1}) + 0.5)",
    "transform_from_matrix": "wp.transform_from_matrix(wp.transform_to_matrix({0}))",
}
GUARD_ARGS = frozenset({"quat_from_matrix", "transform_from_matrix"})  # the argument is of the result type
# Result magnitude where it does not grow with the arguments (|x| <= 1 inputs assumed).
BOUNDED = {
    "sin": 1, "cos": 1, "tanh": 1, "erf": 1, "erfc": 2, "sign": 1, "step": 1, "nonzero": 1, "smoothstep": 1,
    "frac": 1, "normalize": 1, "erfinv": 2, "erfcinv": 2, "inverse_approx": 1,
    "atan": 2, "atan2": 4, "acos": 4, "asin": 2, "exp": 60, "sinh": 30, "cosh": 30,
    "tan": 2, "inverse": 1, "quat_slerp": 1, "quat_from_matrix": 1, "isfinite": 1, "isnan": 1, "isinf": 1,
    "argmax": 6, "argmin": 6, "bit_count": 64, "randu": 1e9, "poisson": 50, "sample_unit_sphere": 1,
    "sample_unit_cube": 1, "sample_unit_disk": 1, "sample_unit_ring": 1, "sample_unit_square": 1,
    "sample_triangle": 1, "sample_unit_hemisphere": 1, "sample_unit_sphere_surface": 1,
    "sample_unit_hemisphere_surface": 1, "rshift": 1e9, "quat_from_axis_angle": 1, "quat_rpy": 1,
    "smooth_normalize": 1, "log": 8, "log2": 10, "log10": 4, "mod": 0,
}  # fmt: skip
# Results carrying random state: usable only where a `rng` state exists.
NEEDS_STATE = frozenset(n for n in BOUNDED if n.startswith("sample_")) | {"randu", "poisson", "randf", "randi", "randn"}
_WARP_NAMES = {
    **{f"{b}{s}": f"{b}{m}" for s, m in (("f", ""), ("d", "d")) for b in ("quat", "transform", "spatial_vector")},
    **{f"vec{n}{s}": f"vec{n}{m}" for s, m in (("f", ""), ("d", "d")) for n in (2, 3, 4)},
    **{f"mat{n}{n}{s}": f"mat{n}{n}{m}" for s, m in (("f", ""), ("d", "d")) for n in (2, 3, 4)},
    **{t: t for t in typesys.SCALARS},
    "float": "float32",
    "int": "int32",
}


@dataclass(frozen=True)
class Production:
    name: str
    args: tuple[str, ...]
    result: str


@cache
def offered_builtins() -> frozenset[str]:
    """Every built-in Warp offers to kernels (public names), read from Warp once per process."""
    return frozenset(k for k in warp_session.builtin_functions() if not k.startswith("_"))


def _type_name(t: object) -> str | None:
    return _WARP_NAMES.get(getattr(t, "__name__", ""))


@cache
def signatures() -> dict[str, tuple[Production, ...]]:
    """Concrete productions per built-in, from Warp's overloads (result types via `value_func`)."""
    warp_session.init_warp()
    found: dict[str, list[Production]] = defaultdict(list)
    for name, function in warp_session.builtin_functions().items():
        if name in DENY:
            continue
        for overload in getattr(function, "overloads", None) or [function]:
            args = tuple(_type_name(t) for t in overload.input_types.values())
            if not args or None in args:
                continue
            result_type = overload.value_type
            if result_type is None and overload.value_func is not None:
                try:
                    result_type = overload.value_func(dict(overload.input_types), {})
                except Exception:  # generic signatures that need argument values: not productions
                    continue
            result = _type_name(result_type)
            if result is None or (name, args) in {(p.name, p.args) for p in found[name]}:
                continue
            found[name].append(Production(name, args, result))  # type: ignore[arg-type]
    return {k: tuple(v) for k, v in sorted(found.items())}


def _extra_productions() -> list[Production]:
    """Generic built-ins whose result Warp computes from argument values: listed here, and
    kept only when this Warp version offers them."""
    extra: list[Production] = []
    for suffix, scalar in typesys.SUFFIX_SCALAR.items():
        v3, q = f"vec3{suffix}", f"quat{suffix}"
        extra += [
            Production("transformation", (v3, q), f"transform{suffix}"),
            Production("quaternion", (v3, scalar), q),
            Production("vector", (scalar, scalar, scalar), v3),
            Production("transform_compose", (v3, q, v3), f"mat44{suffix}"),
            Production("div_approx", (scalar, scalar), scalar),
        ]
        for n in (2, 3, 4):
            v, m = f"vec{n}{suffix}", f"mat{n}{n}{suffix}"
            if scalar == "float32":  # Warp implements the norms as float32 wp.func helpers
                norms = ("norm_l1", "norm_l2", "norm_huber", "norm_pseudo_huber")
                extra += [Production(name, (v,), scalar) for name in norms]
                extra.append(Production("smooth_normalize", (v,), v))
            extra += [Production(name, (v,) * n, m) for name in ("matrix_from_cols", "matrix_from_rows")]
            extra.append(Production("inverse_approx", (m,), m))
    offered = offered_builtins()
    return [p for p in extra if p.name in offered]


@cache
def by_result() -> dict[str, tuple[Production, ...]]:
    """Productions indexed by the type they return: the grammar's view of the catalogue."""
    table: dict[str, list[Production]] = defaultdict(list)
    for productions in (*signatures().values(), _extra_productions()):
        for p in productions:
            if p.name in ("div", "mod") and typesys.parse(p.args[-1]).kind != "float":
                continue  # divide only by a guarded float scalar
            if p.name in ("floordiv", "lshift", "rshift") and typesys.parse(p.result).kind != "int":
                continue
            if p.name == "uint32" and typesys.parse(p.args[0]).kind == "float":
                continue  # negative float -> unsigned is undefined behaviour in C++
            if p.name in typesys.SCALARS and p.args[0] == "bool":
                continue  # Warp 1.19 emits `Truell` for wp.int64(True)
            table[p.result].append(p)
    return {k: tuple(v) for k, v in table.items()}
