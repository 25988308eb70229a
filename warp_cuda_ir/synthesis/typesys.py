"""The Warp value types the generator knows: names, annotations, literals, input recipes.

A type is named the way the launch record and `wp.<name>` spell it (`float32`, `vec3d`,
`mat33`, `quat`, `transform`, `spatial_vector` ...); `parse` turns a name into its shape.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

FLOATS = ("float32", "float64", "float16")
INTS = ("int32", "int64", "uint32")
SCALARS = (*FLOATS, *INTS, "bool")
# Composite types over float32 ("") and float64 ("d") components.
SUFFIX_SCALAR = {"": "float32", "d": "float64"}
COMPOSITES = tuple(
    f"{base}{suffix}"
    for suffix in SUFFIX_SCALAR
    for base in ("vec2", "vec3", "vec4", "mat22", "mat33", "mat44", "quat", "transform", "spatial_vector")
)
ALL_TYPES = SCALARS + COMPOSITES
_LENGTH = {"quat": 4, "transform": 7, "spatial_vector": 6}


@dataclass(frozen=True)
class WarpType:
    name: str
    kind: str  # "float" | "int" | "bool" | "vec" | "mat" | "quat" | "transform" | "spatial_vector"
    scalar: str  # component scalar type (the type itself for scalars)
    size: int  # number of components (1 for scalars); matrices: rows (square)

    @property
    def is_scalar(self) -> bool:
        return self.kind in ("float", "int", "bool")

    @property
    def annotation(self) -> str:
        return {"float32": "float", "int32": "int"}.get(self.name, f"wp.{self.name}")

    @property
    def components(self) -> int:
        return self.size * self.size if self.kind == "mat" else self.size


@cache
def parse(name: str) -> WarpType:
    if name in FLOATS:
        return WarpType(name, "float", name, 1)
    if name in INTS:
        return WarpType(name, "int", name, 1)
    if name == "bool":
        return WarpType(name, "bool", name, 1)
    base, suffix = (name[:-1], "d") if name.endswith("d") else (name, "")
    scalar = SUFFIX_SCALAR[suffix]
    if base in _LENGTH:
        return WarpType(name, base, scalar, _LENGTH[base])
    if base.startswith("vec"):
        return WarpType(name, "vec", scalar, int(base[3:]))
    if base.startswith("mat"):
        return WarpType(name, "mat", scalar, int(base[3]))
    raise ValueError(f"unknown Warp type {name!r}")


def with_scalar(name: str, scalar: str) -> str:
    """`vec3` over float64 is `vec3d`; scalars are replaced."""
    t = parse(name)
    if t.is_scalar:
        return scalar
    base = name[:-1] if name.endswith("d") else name
    return base + ("d" if scalar == "float64" else "")


def scalar_literal(scalar: str, value: float) -> str:
    """A literal of exactly this scalar type (Warp does not mix float32 with float64 implicitly)."""
    if scalar == "bool":
        return "True" if value else "False"
    if scalar in INTS:
        text = str(int(value))
        return text if scalar == "int32" else f"wp.{scalar}({text})"
    text = repr(round(float(value), 4))
    return text if scalar == "float32" else f"wp.{scalar}({text})"


def literal(name: str, rng: random.Random, low: float = -1.0, high: float = 1.0) -> str:
    """A random constant of type `name` (components in [low, high])."""
    t = parse(name)
    if t.kind == "bool":
        return rng.choice(["True", "False"])
    if t.kind == "int":
        lo = 0 if name == "uint32" else int(low * 4)
        return scalar_literal(name, rng.randint(lo, max(lo + 1, int(high * 4))))
    if t.is_scalar:
        return scalar_literal(name, rng.uniform(low, high))
    if t.kind == "quat" and rng.random() < 0.5:
        return "wp.quat_identity()" if t.scalar == "float32" else "wp.quat_identity(dtype=wp.float64)"
    if t.kind == "mat" and rng.random() < 0.3:
        return f"wp.identity(n={t.size}, dtype={parse(t.scalar).annotation})"
    if rng.random() < 0.3 and t.kind in ("vec", "spatial_vector"):
        return f"wp.{name}()"  # zero vector
    parts = ", ".join(scalar_literal(t.scalar, rng.uniform(low, high)) for _ in range(t.components))
    return f"wp.{name}({parts})"


def zero(name: str) -> str:
    t = parse(name)
    if t.is_scalar:
        return {"float32": "float(0.0)", "int32": "int(0)", "bool": "False"}.get(name, f"wp.{name}(0)")
    if t.kind == "quat":
        return "wp.quat_identity()" if t.scalar == "float32" else "wp.quat_identity(dtype=wp.float64)"
    if t.kind == "transform":
        return "wp.transform_identity()" if t.scalar == "float32" else "wp.transform_identity(dtype=wp.float64)"
    return f"wp.{name}()"


def array_annotation(dtype: str, ndim: int, rng: random.Random) -> str:
    """Both spellings Warp accepts: `wp.array(dtype=..., ndim=2)` and `wp.array2d(dtype=...)`."""
    ann = parse(dtype).annotation
    if ndim == 1:
        return f"wp.array(dtype={ann})"
    return f"wp.array{ndim}d(dtype={ann})" if rng.random() < 0.6 else f"wp.array(dtype={ann}, ndim={ndim})"


def input_recipe(dtype: str, rng: random.Random) -> dict[str, object]:
    """Seeded input values inside the domain every generated expression assumes: |x| <= 1."""
    t = parse(dtype)
    if t.kind == "bool":
        return {"dist": "bool"}
    if t.kind == "int":
        return {"dist": "randint", "low": 0 if dtype == "uint32" else -4, "high": 5}
    if rng.random() < 0.2:
        return {"dist": "normal", "mean": 0.0, "std": 0.3}
    return {"dist": "uniform", "low": -1.0, "high": 1.0}


def scalar_value(dtype: str, rng: random.Random) -> object:
    """A launch-record value for a scalar/composite kernel parameter."""
    t = parse(dtype)
    if t.kind == "bool":
        return rng.random() < 0.5
    if t.kind == "int":
        return rng.randint(0 if dtype == "uint32" else -3, 4)
    if t.is_scalar:
        return round(rng.uniform(-1.0, 1.0), 3)
    return [round(rng.uniform(-1.0, 1.0), 3) for _ in range(t.components)]
