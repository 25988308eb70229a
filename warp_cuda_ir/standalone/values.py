"""The values a standalone program embeds: the row's inputs exactly as the validation pass makes them
(`launch.prepare`, from the row's launch record), and the seeded output adjoints of the backward launch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
    # structs: their array fields (names are C member paths, `body.mass`), whose pointers a program sets
    fields: list[ArgumentValue] = field(default_factory=list)
    alias: str | None = None  # arrays: the earlier argument or field that is this very array (its memory)
    # arrays of a program over the cap on literals: the inputs as `progression_runs`, which the program expands
    runs: np.ndarray | None = None
    # arrays the kernel only writes, started zeroed because their captured values would not fit (`fit_inputs`)
    zeroed: bool = False

    @property
    def var(self) -> str:
        """The name as part of a C identifier (`body.mass` -> `body__mass`)."""
        return self.name.replace(".", "__")

    @property
    def storage(self) -> str:
        return STORAGE[self.values.dtype.str[1:]]

    @property
    def differentiable(self) -> bool:
        return self.values.dtype.kind == "f"


def storage_key(values: np.ndarray) -> str:
    return values.dtype.str[1:]


# A program writes each seed out as a literal, up to SEED_LITERALS_AT_MOST components per array; a larger
# float32 or float64 array (a 64^3 field a kernel fills: 262,144 seeds, 3 MB of text) gets seeds a loop in the
# program computes instead, `SEED_FORMULA` of the component index: odd multiples of 1/64 in [-0.73, 1.23], exact
# in either type, so the program's loop and numpy here give the same bits. 8 of the 13 replayed real rows whose
# programs were too large to launch (the default build's inputs and seeds over MAX_PROGRAM_VALUES) now fit.
# Their mean is 1/4, not 0: an input every element reads (`radius[0]` in warp-lang's `sphere_corner_values_kernel`)
# gets the sum of the seeds as its adjoint, and seeds centred on zero summed to exactly 0 over every 64 of them,
# so the digest printed 0 for it whatever the backward did.
SEED_LITERALS_AT_MOST = 4096
_SEED_STEP, _SEED_OFFSET, _SEED_PERIOD, _SEED_CENTRE = 37, 11, 64, 23.5  # k = (37 i + 11) mod 64
SEED_FORMULA = (  # seed = (k - 23.5) / 32, in C for `size_t i`
    f"((double)((i * {_SEED_STEP}u + {_SEED_OFFSET}u) % {_SEED_PERIOD}u) - {_SEED_CENTRE}) / 32.0"
)


def seeds_by_formula(like: np.ndarray) -> bool:
    """Whether the program computes this array's adjoint seeds (`SEED_FORMULA`) rather than listing them."""
    return like.dtype.str[1:] in ("f4", "f8") and like.size > SEED_LITERALS_AT_MOST


def adjoint_seed(row: Mapping[str, Any], position: int, like: np.ndarray) -> np.ndarray:
    if seeds_by_formula(like):
        k = (np.arange(like.size, dtype=np.uint64) * _SEED_STEP + _SEED_OFFSET) % _SEED_PERIOD
        return ((k.astype(np.float64) - _SEED_CENTRE) / 32.0).astype(like.dtype).reshape(like.shape)
    rng = np.random.default_rng([int(row.get("seed") or 0), position, ADJOINT_STREAM])  # real rows: no seed
    return rng.uniform(-1.0, 1.0, like.shape).astype(like.dtype)


def argument_values(prepared: launch.Launch, row: Mapping[str, Any]) -> list[ArgumentValue]:
    """The inputs `launch.prepare` made (on the CPU), as numpy values, with the adjoint seeds."""
    out: list[ArgumentValue] = []
    # A scalar's bytes are those of the parameter's type in the kernel's code: the captured arguments of a
    # real row name no dtype, and a Python number passed to a generic parameter has no Warp type of its own.
    types = warp_session.launch_types(prepared.kernel, prepared.inputs)
    arguments = zip(prepared.arguments, prepared.inputs, types, strict=True)
    seen: dict[int, str] = {}  # id of an array already written out -> its name (one array passed twice)
    for position, (record, value, declared) in enumerate(arguments):
        kind, role, name = record["kind"], record["role"], record["name"]
        if kind == "none":  # an array argument passed as None: the program's zero-initialised array_t
            out.append(ArgumentValue(name, kind, role, np.zeros(0, dtype=np.uint8)))
        elif kind == "array":
            values = value.numpy().copy()
            seed = None
            if role in ("out", "inout") and values.dtype.kind == "f":
                seed = adjoint_seed(row, position, values)
            out.append(_array_value(name, role, value, values, seen, seed))
        elif kind == "scalar":
            np_type = launch.scalar_numpy_type(declared)
            components = warp_session.vector_components(value)
            if components is None:
                scalar = warp_session.scalar_value(value)
                # A plain number for a vector, matrix, quaternion or transform parameter: Warp fills every
                # component with it (deprecated, still accepted; warp-lang's `test_launch` passes `True`).
                components = [value if scalar is None else scalar] * (getattr(declared, "_length_", 0) or 1)
            out.append(ArgumentValue(name, kind, role, np.asarray(components, dtype=np_type)))
        else:
            # The struct's C layout, which Warp passes to the kernel as is, with its array fields (pointers
            # into this process) zeroed: the program points them at its own copies of the arrays.
            raw = bytes(_without_arrays(value))
            fields = _struct_arrays(name, value, seen, set(record.get("changed", ())))
            out.append(ArgumentValue(name, kind, role, np.frombuffer(raw, dtype=np.uint8).copy(), fields=fields))
    return out


def _array_value(
    name: str, role: str, array: Any, values: np.ndarray, seen: dict[int, str], seed: np.ndarray | None = None
) -> ArgumentValue:
    alias = seen.setdefault(id(array), name)
    return ArgumentValue(name, "array", role, values, tuple(array.shape), seed, alias=None if alias == name else alias)


def _struct_arrays(path: str, instance: Any, seen: dict[int, str], changed: set[str]) -> list[ArgumentValue]:
    """The arrays a struct instance holds, as values named by their C member path (`changed`: the paths,
    below the struct, of those the launch wrote: their role is `inout`, as a written argument's)."""
    out = []
    for name, array in struct_arrays(path, instance):
        role = "inout" if name.partition(".")[2] in changed else "in"
        out.append(_array_value(name, role, array, array.numpy().copy(), seen))
    return out


def struct_arrays(path: str, instance: Any) -> list[tuple[str, Any]]:
    """(C member path, array) of each array a struct instance holds, nested structs' too, in field order."""
    out: list[tuple[str, Any]] = []
    struct = warp_session.struct_type_of(instance)
    for name, declared in warp_session.struct_field_types(struct).items():
        value = getattr(instance, name)
        if value is None:
            continue
        if warp_session.is_struct(declared):
            out += struct_arrays(f"{path}.{name}", value)
        elif warp_session.array_class(value) == "array":
            out.append((f"{path}.{name}", value))
        elif warp_session.array_class(value) is not None:
            raise ValueError(f"struct field {path}.{name}: a program cannot hold a {warp_session.array_class(value)}")
    return out


def live_arrays(prepared: launch.Launch) -> dict[str, Any]:
    """The launch's arrays by the names `argument_values` gives them: arguments, and the arrays structs hold."""
    arrays = prepared.arrays()
    for record, value in zip(prepared.arguments, prepared.inputs, strict=True):
        if record["kind"] == "struct":
            arrays |= dict(struct_arrays(record["name"], value))
    return arrays


def _without_arrays(instance: Any) -> Any:
    """A copy of a struct instance's ctypes value whose array fields (nested structs' too) are null arrays."""
    ctype = instance.__ctype__()
    copy = type(ctype).from_buffer_copy(ctype)
    _null_arrays(copy, warp_session.struct_type_of(instance))
    return copy


def _null_arrays(ctype: Any, struct: Any) -> None:
    for name, declared in warp_session.struct_field_types(struct).items():
        if warp_session.is_struct(declared):
            _null_arrays(getattr(ctype, name), declared)  # a view into the enclosing copy
        elif warp_session.is_array_type(declared):
            setattr(ctype, name, type(getattr(ctype, name))())


# Inputs of a program over the cap on literal values (`standalone.MAX_PROGRAM_VALUES`) are written as runs of
# arithmetic progressions where that takes fewer literals: each run is (count, first, step) in the unsigned
# integer of the storage type's width, so the program's expansion (`program.EXPAND_RUNS`, wrapping unsigned
# arithmetic) gives back the same bytes, floats and NaNs included. Captured real inputs are often index-like:
# newton's marching-cubes tables (prefix sums, flags over a 31^3 grid) took 102,641 literals as a list and
# 45,232 as runs, a dense grid's cell coordinates (`vec3i`, one progression per component) 98,304 and 6,336.
# Runs follow one component of the elements at a time (`stride`: components per element).
_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def word_type(values: np.ndarray) -> type:
    """The unsigned integer a program expands `values`' runs in (the width of its storage type)."""
    return _WORDS[values.dtype.itemsize]


def progression_runs(values: np.ndarray, stride: int, at_most: int | None = None) -> np.ndarray | None:
    """(count, first, step) of each run, flat, in `word_type(values)`: component column after column (component
    j of every element, then j + 1), each split greedily into the longest runs of a constant step. None when
    that would take more than `at_most` words (a run takes in at most two blocks of equal steps: counted first,
    so captured noise costs no loop)."""
    word = word_type(values)
    longest = int(np.iinfo(word).max)  # a run's count is a word too
    flat = np.ascontiguousarray(values).reshape(-1).view(word)
    out: list[tuple[int, int, int]] = []
    for column in range(stride):
        words = flat[column::stride]
        steps = words[1:] - words[:-1]  # wrapping
        # ends[b]: where the block of equal steps holding position b of `steps` ends (exclusive)
        ends = np.append(np.flatnonzero(steps[1:] != steps[:-1]) + 1, steps.size)
        least = 3 * (len(out) + (ends.size + 1) // 2)
        if at_most is not None and least > at_most:
            return None
        start = 0
        while start < words.size:
            if start == words.size - 1:
                out.append((1, int(words[start]), 0))
                break
            end = int(ends[np.searchsorted(ends, start, side="right")])  # the run: words[start .. end]
            count = min(end - start + 1, longest)
            out.append((count, int(words[start]), int(steps[start])))
            start += count
            if at_most is not None and 3 * len(out) > at_most:
                return None
    return np.array(out, dtype=word).reshape(-1)


def with_runs(values: list[ArgumentValue]) -> None:
    """Marks each input array that runs (`progression_runs`) write in fewer literals than a list does."""
    for v in values:
        for array in (v, *v.fields):
            if array.kind != "array" or array.alias is not None or not np.any(array.values.view(np.uint8)):
                continue  # an array passed again, or all zeros: no literals to save
            elements = int(np.prod(array.shape)) if array.shape else 1
            runs = progression_runs(array.values, array.values.size // max(elements, 1), array.values.size - 1)
            if runs is not None and runs.size < array.values.size:
                array.runs = runs
