"""A launch record: one real launch of a kernel, stored as self-describing compressed bytes.

The bytes are a NumPy `.npz` archive (zip, deflate) that needs neither Warp nor the package that was
captured to read:
  `meta`          UTF-8 JSON (as uint8): format, kernel key, launch `dim`, `block_dim`, one spec per
                  parameter, which arrays changed, overlapping arguments
  `in/<path>`     each array's and each scalar/vector value's contents before the launch
  `out/<path>`    the contents after the launch of each array that the launch changed
A path is the parameter's position, then struct field names: `3`, `3.velocity`. Arrays keep their shape
with the components of vector/matrix element types as trailing axes (`(n, 3)` for `array(dtype=vec3)`).

Spec of a parameter value (JSON):
  {"t": "scalar", "s": "float32"}                   Warp scalar types by name ("bool", "int32", ...)
  {"t": "py", "s": "float"|"int"|"bool", "v": x}    a plain Python number passed to a generic parameter
  {"t": "vector", "n": 3, "s": ...} | {"t": "matrix", "shape": [3, 3], "s": ...}
  {"t": "quaternion", "s": ...} | {"t": "transformation", "s": ...}
  {"t": "array", "dtype": <value spec>, "shape": [...]} | {"t": "array", "none": true}
  {"t": "array", "same_as": "<path>"}               the very array passed at another position
  {"t": "struct", "name": key, "fields": {name: spec}}
uint64 values are stored as the numbers they are: hash keys, bit masks and counters replay as well as any
integer. Where the kernel hands one to a mesh, BVH, volume or hash-grid query, or makes an array from it, it is
the id or address of an object the record does not hold, and the row's launch is refused instead
(`plan.id_use`, read from the row's generated code).
"""

from __future__ import annotations

import io
import itertools
import json
import zipfile
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import warp as wp
import warp.types as wpt

from warp_cuda_ir import warp_session

FORMAT = "warp_cuda_ir.launch_record/1"
MAX_RECORD_BYTES = 1 << 20  # stored (compressed) bytes per row: 1 MB keeps a row's record small next to its code
MAX_ARRAY_BYTES = 8 << 20  # raw bytes of one array: larger ones are not stored (the launch is not replayable)
MAX_RAW_BYTES = 24 << 20  # raw bytes of all arrays of one launch, before and after
# Clang's optimisation level for the kernels a capture's programs and a replay compile (Warp's default for
# the CPU is 2). A capture's time goes mostly to compiling modules: warp-lang's test_vec_scalar_ops ran in
# 18.9 s at -O0 against 33.4 s at -O2 (quiet machine). Capture and replay use the same level, so a replay
# compares like with like; the validation pass compiles rows at Warp's default.
CPU_OPTIMIZATION_LEVEL = 0

_SCALARS = {
    t.__name__: t
    for t in (
        wp.bool,
        wp.int8,
        wp.uint8,
        wp.int16,
        wp.uint16,
        wp.int32,
        wp.uint32,
        wp.int64,
        wp.uint64,
        wp.float16,
        wp.float32,
        wp.float64,
    )
}


class NotStorable(Exception):
    """An argument value the record cannot hold; the message is the reason (one line)."""


@dataclass
class Snapshot:
    """What the capture took of one launch before running it."""

    specs: list[dict[str, Any]]
    before: dict[str, np.ndarray]  # path -> contents (arrays and values)
    arrays: dict[str, Any]  # path -> the live wp.array, to read the after-state
    overlaps: list[list[str]] = field(default_factory=list)
    raw_bytes: int = 0


def value_type_spec(t: Any) -> dict[str, Any]:
    """Spec of a Warp scalar/vector/matrix/quaternion/transformation type; NotStorable otherwise."""
    if isinstance(t, type) and t.__name__ in _SCALARS and _SCALARS[t.__name__] is t:
        return {"t": "scalar", "s": t.__name__}
    scalar = getattr(t, "_wp_scalar_type_", None)
    if scalar is None:
        raise NotStorable(f"value of type {getattr(t, '__name__', type(t).__name__)}")
    s = scalar.__name__
    if _SCALARS.get(s) is not scalar:  # e.g. bfloat16: numpy has no such type to store it
        raise NotStorable(f"value of type {t.__name__} ({s} components)")
    if wpt.type_is_quaternion(t):
        return {"t": "quaternion", "s": s}
    if wpt.type_is_transformation(t):
        return {"t": "transformation", "s": s}
    if wpt.type_is_matrix(t):
        return {"t": "matrix", "shape": list(t._shape_), "s": s}
    if wpt.type_is_vector(t):
        return {"t": "vector", "n": int(t._length_), "s": s}
    raise NotStorable(f"value of type {t.__name__}")


def type_from_spec(spec: dict[str, Any]) -> Any:
    """The Warp type a value spec names (structs excepted: they come from the kernel's source)."""
    kind = spec["t"]
    if kind == "scalar":
        return _SCALARS[spec["s"]]
    scalar = _SCALARS[spec["s"]]
    if kind == "vector":
        return wpt.vector(spec["n"], scalar)
    if kind == "matrix":
        return wpt.matrix(tuple(spec["shape"]), scalar)
    if kind == "quaternion":
        return wpt.quaternion(scalar)
    if kind == "transformation":
        return wpt.transformation(scalar)
    raise ValueError(f"not a value spec: {spec}")


def component_shape(spec: dict[str, Any]) -> tuple[int, ...]:
    kind = spec["t"]
    if kind == "vector":
        return (spec["n"],)
    if kind == "matrix":
        return tuple(spec["shape"])
    if kind == "quaternion":
        return (4,)
    if kind == "transformation":
        return (7,)
    return ()


def numpy_scalar(spec: dict[str, Any]) -> Any:
    return wp.dtype_to_numpy(_SCALARS[spec["s"]])


def snapshot(params: list[tuple[str, Any]], args: list[Any]) -> Snapshot:
    """Spec and contents of every argument before a launch; raises NotStorable with the first reason."""
    snap = Snapshot([], {}, {})
    seen: dict[tuple, str] = {}  # (ptr, shape, strides, dtype) -> path of the first array passed
    extents: list[tuple[int, int, str]] = []
    for position, ((name, declared), value) in enumerate(zip(params, args, strict=True)):
        try:
            snap.specs.append(_take(str(position), declared, value, snap, seen, extents))
        except NotStorable as e:
            raise NotStorable(f"argument {name!r}: {e}") from None
    extents.sort()
    for (_, end_a, path_a), (start_b, _, path_b) in itertools.pairwise(extents):
        if start_b < end_a:
            snap.overlaps.append([path_a, path_b])
    return snap


def _take(path: str, declared: Any, value: Any, snap: Snapshot, seen: dict, extents: list) -> dict[str, Any]:
    array_class = warp_session.array_class(value)
    if array_class is not None:
        if array_class != "array":
            raise NotStorable(f"{array_class} (only plain arrays are stored)")
        return _take_array(path, value, snap, seen, extents)
    if value is None:
        if wpt.type_is_array(declared) or warp_session.array_class(declared) is not None or wpt.is_array(declared):
            return {"t": "array", "none": True}
        raise NotStorable("None for a value parameter")
    struct = warp_session.struct_type_of(value)
    if struct is not None:
        fields = {}
        declared_fields = warp_session.struct_field_types(struct)
        for fname, ftype in declared_fields.items():
            fields[fname] = _take(f"{path}.{fname}", ftype, getattr(value, fname), snap, seen, extents)
        return {"t": "struct", "name": struct.key, "fields": fields}
    if isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
        concrete = declared if not warp_session.is_generic_type(declared) else None
        if concrete is None:
            # A generic parameter: Warp infers the type from the Python value itself; keep it as is.
            return {"t": "py", "s": type(value).__name__, "v": value}
        spec = value_type_spec(concrete)
        if spec["t"] != "scalar":
            raise NotStorable(f"Python {type(value).__name__} for a {concrete.__name__} parameter")
        return _take_value(path, spec, [value], snap)
    t = type(value)
    if isinstance(value, np.generic):
        t = warp_session_numpy_to_warp(value.dtype)
    elif warp_session.is_generic_type(declared) is False and not hasattr(t, "_wp_scalar_type_"):
        t = declared
    spec = value_type_spec(t)
    if spec["t"] == "scalar":
        raw = getattr(value, "value", value)
        return _take_value(path, spec, [raw], snap)
    flat = np.asarray(value, dtype=numpy_scalar(spec)).reshape(component_shape(spec))
    return _take_value(path, spec, flat, snap)


def warp_session_numpy_to_warp(dtype: np.dtype) -> Any:
    try:
        return wp.dtype_from_numpy(dtype)
    except Exception as e:
        raise NotStorable(f"numpy value of dtype {dtype}") from e


def _take_value(path: str, spec: dict[str, Any], values: Any, snap: Snapshot) -> dict[str, Any]:
    data = np.asarray(values, dtype=numpy_scalar(spec)).reshape(component_shape(spec))
    snap.before[path] = data
    return spec


def _take_array(path: str, array: Any, snap: Snapshot, seen: dict, extents: list) -> dict[str, Any]:
    if not array.device.is_cpu:
        raise NotStorable(f"array on {array.device}")
    dtype = array.dtype
    if warp_session.is_struct(dtype):
        raise NotStorable(f"array of structs ({dtype.key})")
    spec_dtype = value_type_spec(dtype)
    key = (array.ptr, tuple(array.shape), tuple(array.strides), spec_dtype["s"], json.dumps(spec_dtype))
    if array.ptr and key in seen:
        return {"t": "array", "same_as": seen[key]}
    nbytes = array.size * wpt.type_size_in_bytes(dtype)
    if nbytes > MAX_ARRAY_BYTES:
        raise NotStorable(f"array of {nbytes} bytes (over the {MAX_ARRAY_BYTES >> 20} MB cap)")
    snap.raw_bytes += 2 * nbytes
    if snap.raw_bytes > MAX_RAW_BYTES:
        raise NotStorable(f"arrays over {MAX_RAW_BYTES >> 20} MB in all")
    if array.ptr:
        seen[key] = path
        if array.size:
            extent = sum((n - 1) * s for n, s in zip(array.shape, array.strides, strict=True))
            extents.append((array.ptr, array.ptr + extent + wpt.type_size_in_bytes(dtype), path))
    snap.before[path] = _contents(array)
    snap.arrays[path] = array
    return {"t": "array", "dtype": spec_dtype, "shape": list(array.shape)}


def _contents(array: Any) -> np.ndarray:
    return np.array(array.numpy(), copy=True)


def after_state(snap: Snapshot) -> dict[str, np.ndarray]:
    """Arrays whose contents the launch changed (bitwise), read after it."""
    changed = {}
    for path, array in snap.arrays.items():
        now = _contents(array)
        if now.tobytes() != snap.before[path].tobytes():
            changed[path] = now
    return changed


def pack(meta: dict[str, Any], before: dict[str, np.ndarray], after: dict[str, np.ndarray]) -> bytes:
    """The record's bytes (an `.npz` archive, deflate-compressed)."""
    entries = {"meta": np.frombuffer(json.dumps({"format": FORMAT, **meta}).encode(), dtype=np.uint8)}
    entries.update({f"in/{p}": a for p, a in before.items()})
    entries.update({f"out/{p}": a for p, a in after.items()})
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **entries)
    return buffer.getvalue()


@dataclass
class LaunchRecord:
    meta: dict[str, Any]
    before: dict[str, np.ndarray]
    after: dict[str, np.ndarray]  # arrays the launch changed; the others ended as they began

    def final(self, path: str) -> np.ndarray:
        return self.after.get(path, self.before[path])


def unpack(data: bytes) -> LaunchRecord:
    """Read a record's bytes (no Warp needed: meta, then arrays by path)."""
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        meta = json.loads(z["meta"].tobytes().decode())
        if meta.get("format") != FORMAT:
            raise ValueError(f"not a launch record of format {FORMAT}: {meta.get('format')!r}")
        before = {k[3:]: z[k] for k in z.files if k.startswith("in/")}
        after = {k[4:]: z[k] for k in z.files if k.startswith("out/")}
    return LaunchRecord(meta, before, after)


def is_record(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return "meta.npy" in z.namelist()
    except zipfile.BadZipFile:
        return False
