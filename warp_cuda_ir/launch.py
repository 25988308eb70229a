"""Launch a row's kernel again from its launch record: seeded inputs, run, outputs.

The recipe language (an argument's `init`, JSON in the row):
  arrays   {"dist": "uniform", "low": a, "high": b}   floats, every component
           {"dist": "normal", "mean": m, "std": s}
           {"dist": "randint", "low": a, "high": b}   integers in [a, b)
           {"dist": "bool"}                            random True/False
           {"dist": "zeros"} | {"dist": "full", "value": v}
  scalars  {"value": v}                                a number, a bool, or a list for vector/matrix types
  structs  {"fields": {name: scalar recipe, ...}}
Values come from `numpy.random.default_rng([row seed, argument position])`, so any
machine rebuilds the same inputs. Array element types with components (vec3, mat33,
quat, transform ...) get shape + the type's component shape.

The launch itself: `wp.launch_tiled` when the row says `launch_tiled` (then `launch_dim`
counts tiles), else `wp.launch`; CUDA with the row's `block_dim`, the CPU with 1 (what the
row's CPU code was generated for, whatever `wp.config.enable_cpu_blocks` says).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import extraction, warp_session
from warp_cuda_ir.capture import columns
from warp_cuda_ir.errors import LaunchError


@dataclass
class Launch:
    kernel: Any  # wp.Kernel
    dim: tuple[int, ...]
    inputs: list[Any]  # what wp.launch receives, in argument order
    arguments: list[dict[str, Any]]  # the row's argument records, init decoded
    block_dim: int = extraction.CUDA_BLOCK_DIM  # CUDA threads per block
    tiled: bool = False  # wp.launch_tiled: `dim` counts tiles, each a block of threads

    def arrays(self) -> dict[str, Any]:
        return {a["name"]: v for a, v in zip(self.arguments, self.inputs, strict=True) if a["kind"] == "array"}


def block_dim(row: Mapping[str, Any], device: str) -> int:
    """Threads per block a launch of `row` on `device` uses (rows from before schema 1.2: the default)."""
    if wp.get_device(device).is_cpu:
        return extraction.CPU_BLOCK_DIM
    return int(row.get("block_dim") or extraction.CUDA_BLOCK_DIM)


def resolve_dtype(name: str, namespace: Mapping[str, Any]) -> Any:
    """A dtype string from the launch record -> the Warp type (structs come from the source)."""
    if warp_session.is_struct(namespace.get(name)):
        return namespace[name]
    if name == "float":
        return wp.float32
    if name == "int":
        return wp.int32
    dtype = getattr(wp, name, None)
    if dtype is None:
        raise LaunchError(f"unknown dtype {name!r}")
    return dtype


def component_shape(dtype: Any) -> tuple[int, ...]:
    return tuple(getattr(dtype, "_shape_", ()))


def scalar_numpy_type(dtype: Any) -> Any:
    return wp.dtype_to_numpy(getattr(dtype, "_wp_scalar_type_", dtype))


def sample(recipe: Mapping[str, Any], shape: tuple[int, ...], np_type: Any, rng: np.random.Generator) -> np.ndarray:
    dist = recipe.get("dist", "zeros")
    if dist == "uniform":
        values = rng.uniform(recipe.get("low", -1.0), recipe.get("high", 1.0), shape)
    elif dist == "normal":
        values = rng.normal(recipe.get("mean", 0.0), recipe.get("std", 1.0), shape)
    elif dist == "randint":
        values = rng.integers(recipe.get("low", 0), recipe.get("high", 2), shape)
    elif dist == "bool":
        values = rng.integers(0, 2, shape).astype(bool)
    elif dist == "zeros":
        values = np.zeros(shape)
    elif dist == "full":
        values = np.full(shape, recipe["value"])
    else:
        raise LaunchError(f"unknown distribution {dist!r}")
    return values.astype(np_type)


def _scalar_value(recipe: Mapping[str, Any], dtype: Any) -> Any:
    if "value" not in recipe:
        raise LaunchError(f"scalar recipe needs a value, got {recipe}")
    value = recipe["value"]
    return dtype(*value) if isinstance(value, list) else dtype(value)


def _struct_value(recipe: Mapping[str, Any], struct_type: Any, namespace: Mapping[str, Any]) -> Any:
    instance = struct_type()
    fields = struct_type.vars if hasattr(struct_type, "vars") else {}
    for name, field_recipe in recipe.get("fields", {}).items():
        if name not in fields:
            raise LaunchError(f"struct {struct_type.key} has no field {name!r}")
        setattr(instance, name, _scalar_value(field_recipe, fields[name].type))
    return instance


def has_launch_record(row: Mapping[str, Any]) -> bool:
    """Whether the row says how to launch its kernel: synthetic rows always, real rows once a launch was captured."""
    return bool(row.get("launch_dim")) and row.get("arguments") is not None


def prepare(
    row: Mapping[str, Any],
    kernel: Any,
    namespace: Mapping[str, Any],
    device: str = "cpu",
    requires_grad: bool = False,
    float_override: Any = None,
) -> Launch:
    """Materialise inputs for `kernel` from the row's launch record on `device`."""
    if row.get("launch_record") is not None and row.get("launch_dim") is not None:
        return _prepare_captured(row, kernel, namespace, device, requires_grad)
    arguments = [
        dict(a, init=json.loads(a["init"]) if isinstance(a["init"], str) else a["init"]) for a in row["arguments"]
    ]
    inputs: list[Any] = []
    for position, arg in enumerate(arguments):
        rng = np.random.default_rng([int(row["seed"]), position])
        dtype = resolve_dtype(arg["dtype"], namespace)
        kind = arg["kind"]
        try:
            if kind == "array":
                shape = tuple(arg["shape"])
                values = sample(arg["init"], shape + component_shape(dtype), scalar_numpy_type(dtype), rng)
                inputs.append(wp.array(values, dtype=dtype, shape=shape, device=device, requires_grad=requires_grad))
            elif kind == "scalar":
                inputs.append(_scalar_value(arg["init"], dtype))
            elif kind == "struct":
                inputs.append(_struct_value(arg["init"], dtype, namespace))
            else:
                raise LaunchError(f"unknown argument kind {kind!r}")
        except LaunchError:
            raise
        except Exception as e:
            raise LaunchError(f"argument {arg['name']!r}: {type(e).__name__}: {e}") from e
    return Launch(
        kernel,
        tuple(row["launch_dim"]),
        inputs,
        arguments,
        block_dim(row, device),
        bool(row.get("launch_tiled") or False),
    )


def _prepare_captured(
    row: Mapping[str, Any], kernel: Any, namespace: Mapping[str, Any], device: str, requires_grad: bool
) -> Launch:
    """A real row whose captured launch replays faithfully: its recorded grid and argument values."""
    try:
        captured = columns.launch_from_record(row["launch_record"], kernel, dict(namespace), device, requires_grad)
    except Exception as e:
        raise LaunchError(f"launch record: {type(e).__name__}: {e}") from e
    if row.get("launch_tiled"):
        # Captured from `wp.launch_tiled` on the CPU: the record's `dim` ends with the CPU's block of one
        # thread; launching the tile grid tiled gives each tile the device's block (`block_dim`) instead.
        return Launch(
            kernel, tuple(row["launch_dim"]), captured.inputs, captured.arguments, block_dim(row, device), True
        )
    return Launch(kernel, captured.dim, captured.inputs, captured.arguments, block_dim(row, device), False)


def start(launch: Launch, device: str = "cpu") -> None:
    """Launch once, asynchronously, as the row's launch record says (tiled or not, its block size)."""
    launch_fn = wp.launch_tiled if launch.tiled else wp.launch
    launch_fn(launch.kernel, dim=launch.dim, inputs=launch.inputs, block_dim=launch.block_dim, device=device)


def run(launch: Launch, device: str = "cpu") -> dict[str, np.ndarray]:
    """Launch once and return every array argument's contents after the launch."""
    start(launch, device)
    wp.synchronize_device(device)
    return {name: array.numpy().copy() for name, array in launch.arrays().items()}


def run_row(row: Mapping[str, Any], device: str = "cpu") -> dict[str, np.ndarray]:
    """Load the row's Python source, launch it with its seeded inputs, return the arrays after."""
    with warp_session.loaded_kernel(row["python_source"], row.get("kernel_name")) as (kernel, namespace):
        return run(prepare(row, kernel, namespace, device), device)
