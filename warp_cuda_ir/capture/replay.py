"""Replay a launch record with a row's self-contained source on the CPU, and judge its fidelity.

`arguments(record, kernel, namespace)` turns a record into what `wp.launch` takes (fresh CPU arrays, Warp
values, struct instances of the source's own struct types); `replay(source, kernel_name, data)` launches
it and compares every array with the captured after-state:
  "equal"    every array bitwise as captured
  "close"    floats within tolerance (rtol 1e-5, atol 1e-6), integers and booleans equal
  "differs"  anything else; the detail names the first arrays that differ, and why that may be (the
             capture ran on the same CPU device, which runs a launch's threads one after another, so a
             difference comes from memory the record did not hold: overlapping arguments, reads past an
             array's end, or state the kernel reached outside its arguments)
  "error"    the record does not fit the kernel, or the launch raised
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import warp_session
from warp_cuda_ir.capture import record as rec
from warp_cuda_ir.errors import WarpCudaIRError, one_line

RTOL = 1e-5
ATOL = 1e-6


class ReplayError(WarpCudaIRError):
    """A launch record that does not fit the kernel it is replayed with."""


@dataclass
class Replayed:
    dim: list[int]
    block_dim: int | None
    inputs: list[Any]
    arrays: dict[str, Any]  # path -> wp.array passed (struct fields included)


def arguments(
    r: rec.LaunchRecord, kernel: Any, namespace: dict[str, Any], device: str = "cpu", requires_grad: bool = False
) -> Replayed:
    """Build the launch's arguments from a record (for the validation pass, a standalone program, a user)."""
    if not r.meta.get("replayable"):
        raise ReplayError(f"launch not replayable: {r.meta.get('reason')}")
    params = warp_session.kernel_params(kernel)
    specs = r.meta["args"]
    if len(params) != len(specs):
        raise ReplayError(f"record has {len(specs)} arguments, kernel {kernel.key} takes {len(params)}")
    arrays: dict[str, Any] = {}
    inputs = [
        _build(str(i), spec, declared, r, arrays, namespace, device, requires_grad)
        for i, (spec, (_, declared)) in enumerate(zip(specs, params, strict=True))
    ]
    return Replayed(list(r.meta["dim"]), r.meta.get("block_dim"), inputs, arrays)


def _build(
    path: str,
    spec: dict[str, Any],
    declared: Any,
    r: rec.LaunchRecord,
    arrays: dict[str, Any],
    namespace: dict[str, Any],
    device: str,
    requires_grad: bool,
) -> Any:
    kind = spec["t"]
    if kind == "array":
        if spec.get("none"):
            return None
        if "same_as" in spec:
            return arrays[spec["same_as"]]
        dtype = rec.type_from_spec(spec["dtype"])
        declared_dtype = getattr(declared, "dtype", None)
        if declared_dtype is not None and not warp_session.is_generic_type(declared_dtype):
            dtype = declared_dtype  # the source's own type object (same layout as the recorded one)
        values = r.before[path]
        array = wp.array(values, dtype=dtype, shape=tuple(spec["shape"]), device=device, requires_grad=requires_grad)
        arrays[path] = array
        return array
    if kind == "struct":
        struct = declared if warp_session.is_struct(declared) else namespace.get(spec["name"])
        if not warp_session.is_struct(struct):
            raise ReplayError(f"struct {spec['name']} of argument {path} not found in the source")
        instance = warp_session.new_struct_instance(struct)
        field_types = warp_session.struct_field_types(struct)
        for name, fspec in spec["fields"].items():
            value = _build(f"{path}.{name}", fspec, field_types.get(name), r, arrays, namespace, device, requires_grad)
            setattr(instance, name, value)
        return instance
    if kind == "py":
        return spec["v"]
    t = rec.type_from_spec(spec)
    values = r.before[path]
    if kind == "scalar":
        return t(values.item())
    return t(*values.reshape(-1).tolist())


@dataclass
class Fidelity:
    verdict: str  # equal | close | differs | error
    detail: str = ""
    max_abs_diff: float | None = None


def launch(kernel: Any, replayed: Replayed, device: str = "cpu") -> None:
    wp.launch(kernel, dim=replayed.dim, inputs=replayed.inputs, block_dim=replayed.block_dim, device=device)
    wp.synchronize_device(device)


def compare(r: rec.LaunchRecord, arrays: dict[str, Any]) -> Fidelity:
    """The replay's arrays against the captured after-state."""
    differing, worst, exact = [], 0.0, True
    for path, array in arrays.items():
        want = r.final(path)
        got = np.asarray(array.numpy()).reshape(want.shape)
        if got.tobytes() == want.tobytes():
            continue
        exact = False
        if np.issubdtype(want.dtype, np.floating):
            both_nan = np.isnan(got) & np.isnan(want)
            with np.errstate(invalid="ignore", over="ignore"):
                diff = np.where(both_nan, 0.0, np.abs(got.astype(np.float64) - want.astype(np.float64)))
            diff = np.where(np.isnan(diff), np.inf, diff)  # NaN on one side only: as far apart as can be
            worst = max(worst, float(np.max(diff)) if diff.size else 0.0)
            if np.allclose(got, want, rtol=RTOL, atol=ATOL, equal_nan=True):
                continue
            n = int(np.count_nonzero(~np.isclose(got, want, rtol=RTOL, atol=ATOL, equal_nan=True)))
        else:
            n = int(np.count_nonzero(got != want))
            worst = max(worst, float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))))
        differing.append(f"{_name(r, path)} ({n} of {want.size} elements)")
    if not differing:
        return Fidelity("equal" if exact else "close", "", None if exact else worst)
    if r.meta.get("overlaps"):
        why = "overlapping arguments " + str(r.meta["overlaps"])
    elif not r.meta.get("changed"):
        why = "the captured launch changed nothing (it did not run when launched, e.g. deferred by a graph capture)"
    else:
        why = "memory the record did not hold (reads past an array's end or outside the arguments)"
    return Fidelity("differs", f"{', '.join(differing[:4])}; likely cause: {why}", worst)


def _name(r: rec.LaunchRecord, path: str) -> str:
    head, _, rest = path.partition(".")
    params = r.meta.get("params") or []
    name = params[int(head)] if int(head) < len(params) else head
    return name + (f".{rest}" if rest else "")


def replay(source: str, kernel_name: str | None, data: bytes, device: str = "cpu") -> Fidelity:
    """Load `source`, launch its kernel from the record on the CPU, compare with the captured after-state."""
    try:
        r = rec.unpack(data)
    except Exception as e:
        return Fidelity("error", f"unreadable record: {type(e).__name__}: {one_line(e)}")
    if not r.meta.get("replayable"):
        return Fidelity("error", f"not replayable: {r.meta.get('reason')}")
    try:
        with replay_settings(), warp_session.loaded_kernel(source, kernel_name) as (kernel, namespace):
            replayed = arguments(r, kernel, namespace, device)
            launch(kernel, replayed, device)
            return compare(r, replayed.arrays)
    except Exception as e:
        return Fidelity("error", f"{type(e).__name__}: {one_line(e)}"[:500])


@contextmanager
def replay_settings() -> Iterator[None]:
    """Warp's settings a replay loads its kernel with (and `replays.prebuild` compiles it with)."""
    saved = wp.config.enable_backward, wp.config.optimization_level
    wp.config.enable_backward = False  # the forward is what is compared: half the CPU compile time
    wp.config.optimization_level = rec.CPU_OPTIMIZATION_LEVEL  # as the capture compiled it
    try:
        yield
    finally:
        wp.config.enable_backward, wp.config.optimization_level = saved
