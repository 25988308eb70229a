"""The values a standalone program embeds: the row's inputs exactly as the validation pass makes them
(`launch.prepare`, from the row's launch record), and the seeded output adjoints of the backward launch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from warp_cuda_ir import launch, warp_session

# The adjoint seeds of output arrays come from numpy.random.default_rng([row seed, position, ADJOINT_STREAM]):
# a stream of their own, so they never repeat the inputs' values (streams [seed, position]).
ADJOINT_STREAM = 1

# numpy dtype -> C storage type of one component in the program's data (float16 travels as its bits).
STORAGE: dict[str, str] = {
    "f4": "float",
    "f8": "double",
    "f2": "wp_half_bits",
    "i1": "int8_t",
    "i2": "int16_t",
    "i4": "int32_t",
    "i8": "int64_t",
    "u1": "uint8_t",
    "u2": "uint16_t",
    "u4": "uint32_t",
    "u8": "uint64_t",
    "b1": "uint8_t",
}


@dataclass
class ArgumentValue:
    """One kernel argument's contents before the launch, as the program needs them."""

    name: str
    kind: str  # "array" | "scalar" | "struct" | "none" (an array passed as None)
    role: str  # "in" | "out" | "inout"
    values: np.ndarray  # arrays: shape + component shape; scalars: components; structs: raw bytes (uint8)
    shape: tuple[int, ...] = ()  # arrays only
    adjoint_seed: np.ndarray | None = None  # arrays written by the kernel with a float type

    @property
    def storage(self) -> str:
        return STORAGE[self.values.dtype.str[1:]]

    @property
    def differentiable(self) -> bool:
        return self.values.dtype.kind == "f"


def storage_key(values: np.ndarray) -> str:
    return values.dtype.str[1:]


def adjoint_seed(row: Mapping[str, Any], position: int, like: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng([int(row.get("seed") or 0), position, ADJOINT_STREAM])  # real rows: no seed
    return rng.uniform(-1.0, 1.0, like.shape).astype(like.dtype)


def argument_values(prepared: launch.Launch, row: Mapping[str, Any]) -> list[ArgumentValue]:
    """The inputs `launch.prepare` made (on the CPU), as numpy values, with the adjoint seeds."""
    out: list[ArgumentValue] = []
    # A scalar's bytes are those of the parameter's type in the kernel's code: the captured arguments of a
    # real row name no dtype, and a Python number passed to a generic parameter has no Warp type of its own.
    types = warp_session.launch_types(prepared.kernel, prepared.inputs)
    arguments = zip(prepared.arguments, prepared.inputs, types, strict=True)
    for position, (record, value, declared) in enumerate(arguments):
        kind, role, name = record["kind"], record["role"], record["name"]
        if kind == "none":  # an array argument passed as None: the program's zero-initialised array_t
            out.append(ArgumentValue(name, kind, role, np.zeros(0, dtype=np.uint8)))
        elif kind == "array":
            values = value.numpy().copy()
            seed = None
            if role in ("out", "inout") and values.dtype.kind == "f":
                seed = adjoint_seed(row, position, values)
            out.append(ArgumentValue(name, kind, role, values, tuple(value.shape), seed))
        elif kind == "scalar":
            np_type = launch.scalar_numpy_type(declared)
            components = warp_session.vector_components(value)
            if components is None:
                scalar = warp_session.scalar_value(value)
                components = [value if scalar is None else scalar]
            out.append(ArgumentValue(name, kind, role, np.asarray(components, dtype=np_type)))
        else:
            raw = bytes(value.__ctype__())  # the struct's C layout, which Warp passes to the kernel as is
            out.append(ArgumentValue(name, kind, role, np.frombuffer(raw, dtype=np.uint8).copy()))
    return out
