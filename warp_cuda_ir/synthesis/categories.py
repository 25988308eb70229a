"""Categories: what each sampling target emphasises, and the idioms real Warp code uses.

Every category runs the same typed grammar with its own `Profile` (value types, favoured
built-ins, statement mix, launch dimensionality, features such as helpers, structs, random
numbers, atomics). `idioms` are parameterised generators of common physics/grid patterns
whose terms still come from the grammar.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from warp_cuda_ir.synthesis import typesys
from warp_cuda_ir.synthesis.catalogue import Production
from warp_cuda_ir.synthesis.grammar import HELPER_ARG, INDENT, Expr, Expressions, Var, variable_value
from warp_cuda_ir.synthesis.kernels import KernelBuilder
from warp_cuda_ir.synthesis.program import Argument, KernelProgram

BASE_WEIGHTS = {"assign": 5.0, "update": 2.0, "if": 1.5, "for": 1.0, "while": 0.4, "return": 0.2, "tuple": 0.2}
VEC = ("vec2", "vec3", "vec4", "vec3d", "vec2d", "vec4d")
MAT = ("mat22", "mat33", "mat44", "mat33d", "mat22d", "mat44d")
QTS = ("quat", "quatd", "transform", "transformd", "spatial_vector", "spatial_vectord")


@dataclass(frozen=True)
class Profile:
    types: tuple[str, ...] = ("float32",)  # drawn from for this program (float32 always added)
    focus: frozenset[str] = frozenset()
    weights: dict[str, float] = field(default_factory=lambda: dict(BASE_WEIGHTS))
    dims: tuple[int, ...] = (1,)
    statements: tuple[int, int] = (2, 3)
    helpers: int = 0
    struct: bool = False
    random: bool = False
    atomics: int = 0
    params: int = 0
    required: tuple[str, ...] = ()  # value types every program of the category uses


def _w(**changes: float) -> dict[str, float]:
    return {**BASE_WEIGHTS, **changes}


PROFILES: dict[str, Profile] = {
    "arithmetic": Profile(("float32", "float64", "float16", "int32"), frozenset({"add", "sub", "mul", "div", "neg"})),
    "math": Profile(
        ("float32", "float64", "float16"),
        frozenset({"sin", "cos", "sqrt", "log", "exp", "pow", "atan2", "tanh", "erf", "cbrt", "floor", "lerp"}),
    ),
    "vector": Profile(VEC, frozenset({"dot", "cross", "length", "normalize", "cw_mul", "cw_div", "argmax", "outer"})),
    "matrix": Profile(MAT + VEC[:2], frozenset({"mul", "transpose", "inverse", "determinant", "trace", "diag"})),
    "control_flow": Profile(("float32", "int32", "bool"), weights=_w(**{"if": 4.0, "return": 1.0})),
    "atomic": Profile(("float32", "int32", "uint32"), atomics=3),
    "nested_loop": Profile(("float32", "float64", "vec3"), weights=_w(**{"for": 4.0, "while": 1.5})),
    "multi_condition": Profile(("float32", "int32", "bool", "int64"), weights=_w(**{"if": 4.0})),
    "combined": Profile(("float32", "vec3", "mat33", "int32", "quat"), helpers=1, atomics=1, statements=(3, 6)),
    "scalar_param": Profile(("float32", "float64", "int32", "vec3"), params=3),
    "functions": Profile(("float32", "vec3", "float64", "vec2"), helpers=2, weights=_w(tuple=2.0)),
    "structs": Profile(("float32", "vec3", "int32", "mat22"), struct=True),
    "quaternion_transform": Profile(
        (*QTS, "vec3", "vec3d", "mat33"),
        frozenset({"quat_rotate", "quat_rotate_inv", "transform_point", "transform_vector", "transform_multiply"})
        | {"quat_slerp", "spatial_cross", "spatial_dot", "transform_inverse", "quat_to_matrix"},
        required=("quat", "transform"),
    ),
    "multi_dim": Profile(("float32", "float64", "vec2", "int32"), dims=(2, 3, 4)),
    "random": Profile(("float32", "vec3", "vec2", "uint32"), random=True),
    "reduction": Profile(("float32", "int32", "float64"), atomics=2, weights=_w(**{"for": 2.0})),
    "idioms": Profile(("float32", "vec3")),
    "tile": Profile(("float32", "float64")),  # see `tiles`: its own generator, launched with launch_tiled
}


def _kernel_name(rng: random.Random, category: str) -> str:
    verbs = ("compute", "apply", "update", "eval", "step", "integrate", "accumulate", "solve", "project", "blend")
    nouns = ("field", "state", "grid", "bodies", "particles", "signal", "frames", "values", "forces", "weights")
    return f"{rng.choice(verbs)}_{rng.choice(nouns)}" + (f"_{rng.randint(0, 99)}" if rng.random() < 0.3 else "")


def _launch_shape(rng: random.Random, dims: int) -> tuple[int, ...]:
    sizes = {1: (16, 32, 64, 100, 128, 256), 2: (4, 8, 12, 16, 24), 3: (2, 4, 6, 8), 4: (2, 3, 4)}[dims]
    return tuple(rng.choice(sizes) for _ in range(dims))


def _helper(b: KernelBuilder, ex: Expressions, tuple_result: bool) -> None:
    """A `@wp.func` over a few typed parameters, returning one value or several."""
    rng = b.rng
    name = b.fresh(("smooth", "kernel_w", "blend", "project", "weight", "reflect", "falloff", "combine"))
    args = tuple(rng.choice(ex.types) for _ in range(rng.randint(1, 3)))
    results = tuple(rng.choice(ex.types) for _ in range(2 if tuple_result else 1))
    inner = Expressions(rng, ex.types, ex.focus)
    params = [f"{p}: {typesys.parse(t).annotation}" for p, t in zip("xyz", args, strict=False)]
    # "varies" inside a helper: depends on its arguments
    inner.scope.variables = [Var(p, t, HELPER_ARG, True) for p, t in zip("xyz", args, strict=False)]
    lines = ["@wp.func", f"def {name}({', '.join(params)}):"]
    for k in range(rng.randint(0, 2)):
        e = variable_value(inner.expr_reading(rng.choice(ex.types), 2))
        lines.append(f"{INDENT}v{k} = {e.text}")
        inner.scope.variables.append(Var(f"v{k}", e.type, e.mag, e.varies))
    outs = [inner.expr_reading(r, 2) for r in results]
    lines.append(f"{INDENT}return {', '.join(e.text for e in outs)}")
    b.prelude.append("\n".join(lines))
    if tuple_result:
        b.tuple_helpers.append((name, args, results))
    else:
        ex.extra.append(Production(name, args, results[0]))
        ex.helper_bounds[name] = outs[0].mag
        ex.helper_varies[name] = outs[0].varies


def _struct(b: KernelBuilder, ex: Expressions) -> None:
    rng = b.rng
    name = rng.choice(("Params", "Material", "SimConfig", "Body", "Settings", "Coeffs"))
    fields = {b.fresh(("gain", "stiffness", "damping", "offset", "axis", "count", "dt", "radius")): rng.choice(ex.types)
              for _ in range(rng.randint(2, 4))}  # fmt: skip
    b.prelude.append(
        "\n".join(
            [
                "@wp.struct",
                f"class {name}:",
                *(f"{INDENT}{f}: {typesys.parse(t).annotation}" for f, t in fields.items()),
            ]
        )
    )
    arg = b.fresh(("params", "cfg", "material", "body"))
    values = {f: {"value": typesys.scalar_value(t, rng)} for f, t in fields.items() if t != "bool"}
    b.arguments.append((arg, name, Argument(arg, "struct", name, (), "in", {"fields": values})))
    for f, t in fields.items():
        if t != "bool":
            b.declare(Expr(f"{arg}.{f}", t, 1.0))


def _random_values(b: KernelBuilder, ex: Expressions) -> None:
    rng = b.rng
    seed = b.add_scalar_param("int32", rng.randint(0, 10_000), role="seed")
    state = b.fresh(("state", "rng", "rs"))
    offset = " + ".join(b.tids) if len(b.tids) > 1 else b.tids[0]
    b.emit(
        f"{state} = wp.rand_init({seed.name}, {offset})"
        if rng.random() < 0.7
        else f"{state} = wp.rand_init({seed.name} + {offset})"
    )
    ex.state = state
    draws = [
        ("wp.randf({s})", "float32", 1.0),
        ("wp.randf({s}, -1.0, 1.0)", "float32", 1.0),
        ("wp.randn({s})", "float32", 6.0),
        ("wp.randi({s}, 0, 8)", "int32", 8.0),
        ("wp.noise({s}, {f})", "float32", 2.0),
        ("wp.noise({s}, {v3})", "float32", 2.0),
        ("wp.pnoise({s}, {v2}, 4, 4)", "float32", 2.0),
        ("wp.curlnoise({s}, {v3})", "vec3", 8.0),
        ("wp.sample_unit_sphere({s})", "vec3", 1.0),
        ("wp.sample_unit_disk({s})", "vec2", 1.0),
    ]  # fmt: skip
    for text, t, mag in rng.sample(draws, rng.randint(2, 4)):
        f, v2, v3 = (ex.expr(x, 1).text for x in ("float32", "vec2", "vec3"))
        b.declare(Expr(text.format(s=state, f=f, v2=v2, v3=v3), t, mag, True))  # the state is seeded per thread


def generate(rng: random.Random, category: str) -> KernelProgram:
    """The categories with generators of their own: `idioms` (parameterised real patterns) and `tile`."""
    from warp_cuda_ir.synthesis import idioms, tiles

    if category == "idioms":
        return rng.choice(idioms.IDIOMS)(rng)
    if category == "tile":
        return tiles.tile_program(rng, _kernel_name(rng, category))
    raise ValueError(f"category {category!r} has no generator of its own")


CATEGORIES: tuple[str, ...] = tuple(PROFILES)
