"""The gradient check over whole adjoints and the known-wrong backward code flags, on planted kernels.

Every kernel here goes through Warp's real codegen, Clang and `wp.Tape`; each verdict asserted is one
the earlier 4-samples-per-input check (`gradcheck.py`) could not give.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from tests.helpers import SPINLOCK
from tests.test_validation import run_rows
from warp_cuda_ir import adjoint_hazards, extraction, schema
from warp_cuda_ir.readback import _GradientTally
from warp_cuda_ir.validation import gradients

N = 16
UNIFORM = {"dist": "uniform", "low": 0.1, "high": 1.0}
SIGNED = {"dist": "uniform", "low": -1.0, "high": 1.0}
ZEROS = {"dist": "zeros"}

Arg = tuple[str, str, str, str, dict[str, Any]]  # name, kind, dtype, role, init


def make_row(source: str, kernel: str, arguments: list[Arg], seed: int = 11) -> dict[str, Any]:
    """A row with Warp's real generated code; arrays have N elements."""
    texts = extraction.extract(source, kernel)
    return {
        **{k: getattr(texts, k) for k in ("kernel_symbol", "cuda_helpers", "cuda_forward", "cuda_backward")},
        **{k: getattr(texts, k) for k in ("cpu_helpers", "cpu_forward", "cpu_backward")},
        "id": f"planted-{kernel}-{abs(hash(source)) % 10**8}",
        "seed": seed,
        "kernel_name": kernel,
        "python_source": source,
        "launch_dim": [N],
        "arguments": [
            {
                "name": name,
                "kind": kind,
                "dtype": dtype,
                "shape": [N] if kind == "array" else [],
                "role": role,
                "init": json.dumps(init),
            }
            for name, kind, dtype, role, init in arguments
        ],
    }


def arrays(*specs: tuple[str, str, str, dict[str, Any]]) -> list[Arg]:
    return [(name, "array", dtype, role, init) for name, dtype, role, init in specs]


IN_OUT = arrays(("a", "float32", "in", UNIFORM), ("b", "float32", "out", ZEROS))


def kernel(body: str, params: str = "a: wp.array(dtype=float), b: wp.array(dtype=float)", head: str = "") -> str:
    return f"import warp as wp\n{head}\n@wp.kernel\ndef k({params}):\n    i = wp.tid()\n{body}"


# ---- the wrong-adjoint constructs: flagged at build time, judged wrong by the check ----

DYNAMIC_LOOP = kernel(
    "    x = a[i]\n    for j in range(n):\n        x = x * 1.5 + wp.sin(x)\n    b[i] = x * x\n",
    "a: wp.array(dtype=float), n: int, b: wp.array(dtype=float)",
)
NOISE_THEN_DRAW = kernel(
    "    s = wp.rand_init(42, i)\n    v = wp.noise(s, a[i] * 3.0)\n    r = wp.randf(s)\n    b[i] = v + r\n"
)
FRAC = kernel("    b[i] = wp.frac(a[i] * 3.0) + a[i]\n")
INPLACE = kernel("    wp.atomic_max(b, 0, a[i] * 0.5)\n")
# mod's scalar adjoint gives the divisor none (d mod(a, b)/db = -trunc(a/b)): seed 100,070 of the 2,000-row build.
MOD_DIVISOR = kernel("    b[i] = wp.mod(a[i] * 3.0, a[i] + 0.5)\n")
# Two equal rows: R's last diagonal entry is zero and Warp's qr3 adjoint divides by it (seeds 5,004, 100,598).
SINGULAR_QR = kernel(
    "    e = a[i]\n    c = a[(i + 1) % a.shape[0]]\n"
    "    q, r = wp.qr3(0.2 * wp.mat33(e, e, e, e, e, e, c, c, c))\n    b[i] = r[0, 0] + r[1, 1] + q[2, 0]\n"
)

# A store into one component of a local vector: Warp 1.19 doubles the gradient that flows through the old component
# (meaning-3's component updates: 12 unflagged wrong_adjoint rows of 25, seeds 20,000-20,319).
COMPONENT = kernel("    v = wp.vec3(a[i], 0.5 * a[i], 1.0)\n    v.y = v.y + 2.0 * a[i]\n    b[i] = wp.dot(v, v)\n")
# The same store spelled with an index (newton's `block[0] = v[0]`, mujoco-warp's `dv[0] *= ...`: two unflagged
# wrong_adjoint real rows).
COMPONENT_INDEXED = kernel("    v = wp.vec3(a[i], 0.5 * a[i], 1.0)\n    v[1] *= 2.0 * a[i]\n    b[i] = wp.dot(v, v)\n")

# A dynamic loop's body indexes with `k`, then advances it: Warp's backward replays the advance before the adjoints,
# so a[k + 1] gets a[k]'s gradient (mujoco-warp's `_cfrc_world` and newton's contact scatter: their backward ran
# past the array and crashed Warp's own CPU backward).
INDEX_AHEAD = kernel(
    "    s = float(0.0)\n    k = int(0)\n    while k < n:\n        s += a[k] * a[k]\n        k += 1\n    b[i] = s\n",
    "a: wp.array(dtype=float), n: int, b: wp.array(dtype=float)",
)


@pytest.mark.parametrize(
    ("source", "args", "flag"),
    [
        (INDEX_AHEAD, [IN_OUT[0], ("n", "scalar", "int32", "in", {"value": 3}), IN_OUT[1]], "index_ahead:k"),
        (DYNAMIC_LOOP, [IN_OUT[0], ("n", "scalar", "int32", "in", {"value": 3}), IN_OUT[1]], "dynamic_loop_mutation:x"),
        (NOISE_THEN_DRAW, IN_OUT, "noise_after_draw:s"),
        (FRAC, IN_OUT, "missing_adjoint:frac"),
        (INPLACE, arrays(("a", "float32", "in", UNIFORM), ("b", "float32", "inout", SIGNED)), "inplace_overwrite:b"),
        (MOD_DIVISOR, IN_OUT, "partial_adjoint:mod"),
        (SINGULAR_QR, IN_OUT, "singular_decomposition:qr3"),
        (COMPONENT, IN_OUT, "component_assignment:v"),
        (COMPONENT_INDEXED, IN_OUT, "component_assignment:v"),
    ],
    ids=[
        "index_ahead",
        "dynamic_loop",
        "noise_after_draw",
        "frac",
        "inplace_overwrite",
        "mod_divisor",
        "singular_qr",
        "component",
        "component_indexed",
    ],
)
def test_each_known_wrong_construct_is_flagged_and_judged_wrong(source: str, args: list[Arg], flag: str) -> None:
    assert flag in adjoint_hazards.adjoint_hazards(source)
    result = gradients.check(make_row(source, "k", args))
    # qr3 of this singular matrix: Warp's adjoint comes out identically zero while R's diagonal moves.
    assert result.status == ("zero_adjoint" if flag.startswith("singular_") else "wrong_adjoint"), result
    assert result.rel_error is not None and result.rel_error > 0.05
    assert result.fd_spread is not None and result.fd_spread < result.rel_error / 3


def test_flags_are_not_raised_by_the_safe_twins_of_each_construct() -> None:
    static_loop = DYNAMIC_LOOP.replace("range(n)", "range(3)")
    used_in_loop_only = kernel(
        "    x = a[i]\n    for j in range(n):\n        b[i] = x * float(j)\n",
        "a: wp.array(dtype=float), n: int, b: wp.array(dtype=float)",
    )
    draw_then_noise = NOISE_THEN_DRAW.replace(
        "    v = wp.noise(s, a[i] * 3.0)\n    r = wp.randf(s)\n",
        "    r = wp.randf(s)\n    v = wp.noise(s, a[i] * 3.0)\n",
    )
    additive = kernel("    wp.atomic_add(b, 0, a[i])\n    b[i] += a[i]\n")
    integers = kernel("    wp.atomic_max(c, 0, c[i])\n", "c: wp.array(dtype=wp.int32)")  # no gradient to be wrong
    integers_subscripted = kernel("    wp.atomic_max(c, 0, c[i])\n", "c: wp.array[wp.int32]")  # newton's spelling
    literal_divisor = MOD_DIVISOR.replace("a[i] + 0.5", "-wp.float32(1.5)")  # nothing to differentiate there
    singular_matrix = "mat33(e, e, e, e, e, e, c, c, c)"
    regular_qr = SINGULAR_QR.replace(singular_matrix, "mat33(e, c, 1.0, c, e, 2.0, 0.5, 0.25, e * c)")
    singular_sources = ("outer(wp.vec3(e, c, 1.0), wp.vec3(c, e, 2.0))", "mat33(e, c, 1.0, e, c, 1.0, c, e, 2.0)")
    for singular in singular_sources:  # rank one; two equal rows
        twin = SINGULAR_QR.replace(singular_matrix, singular)
        assert adjoint_hazards.adjoint_hazards(twin) == ["singular_decomposition:qr3"], singular
    # Elements of an array, a tile or a fixed-size local array are no vector's components.
    array_store = kernel("    b[i] = a[i]\n    c = b\n    c[0] = a[i]\n")
    local_array = kernel("    t = wp.zeros(shape=3, dtype=float)\n    t[1] = a[i]\n    b[i] = t[1]\n")
    safe = (static_loop, used_in_loop_only, draw_then_noise, additive, integers, literal_divisor, regular_qr)
    safe += (array_store, local_array, integers_subscripted)
    for source in safe:
        assert adjoint_hazards.adjoint_hazards(source) == [], source
    # A loop is dynamic when Warp does not unroll it: a runtime bound, while, break/continue, > max_unroll trips.
    long_loop = DYNAMIC_LOOP.replace("range(n)", "range(40)")
    assert adjoint_hazards.adjoint_hazards(long_loop, max_unroll=16) == ["dynamic_loop_mutation:x"]
    assert adjoint_hazards.adjoint_hazards(long_loop, max_unroll=64) == []
    # Negative bounds: a literal one unrolls, a negated runtime one does not (`-n` crashed a default build).
    assert adjoint_hazards.adjoint_hazards(DYNAMIC_LOOP.replace("range(n)", "range(-3, 0)")) == []
    negated = DYNAMIC_LOOP.replace("range(n)", "range(-n, 0)")
    assert adjoint_hazards.adjoint_hazards(negated) == ["dynamic_loop_mutation:x"]


def test_an_index_a_loop_advances_after_using_it_is_flagged_and_one_advanced_first_is_not() -> None:
    args = [IN_OUT[0], ("n", "scalar", "int32", "in", {"value": 3}), IN_OUT[1]]
    advanced_first = INDEX_AHEAD.replace("k = int(0)", "k = int(-1)").replace(
        "    while k < n:\n        s += a[k] * a[k]\n        k += 1\n",
        "    while k < n - 1:\n        k += 1\n        s += a[k] * a[k]\n",
    )
    assert not any(f.startswith("index_ahead") for f in adjoint_hazards.adjoint_hazards(advanced_first))
    # The same sum, the index advanced before its use: the replay then indexes as the forward did.
    assert gradients.check(make_row(advanced_first, "k", args)).status == "ok"
    # Integer arrays have no adjoint to misplace (mujoco-warp's `rootid += body_subtreenum[rootid]`).
    params = "a: wp.array(dtype=float), step: wp.array(dtype=wp.int32), n: int, b: wp.array(dtype=float)"
    hops = kernel("    k = int(0)\n    while k < n:\n        k += step[k]\n    b[i] = a[k]\n", params)
    assert not any(f.startswith("index_ahead") for f in adjoint_hazards.adjoint_hazards(hops))
    runtime_range = kernel(
        "    s = float(0.0)\n    j = int(0)\n    for t in range(n):\n"
        "        s += a[j] * float(t + 1)\n        j = j + 2\n    b[i] = s\n",
        "a: wp.array(dtype=float), n: int, b: wp.array(dtype=float)",
    )
    assert "index_ahead:j" in adjoint_hazards.adjoint_hazards(runtime_range)
    unrolled = runtime_range.replace("range(n)", "range(3)")
    assert not any(f.startswith("index_ahead") for f in adjoint_hazards.adjoint_hazards(unrolled))


def test_an_atomics_returned_value_used_is_flagged() -> None:
    # Warp's backward code leaves the replayed atomic out and reads `slot` uninitialised (warp-lang's counter_kernel:
    # an unflagged wrong_adjoint). A dropped result (`wp.atomic_add(b, 0, x)` as a statement) is the plain atomic.
    params = "a: wp.array(dtype=float), c: wp.array(dtype=wp.int32), b: wp.array(dtype=float)"
    slot = kernel("    slot = wp.atomic_add(c, 0, 1)\n    b[slot] = a[i]\n", params)
    assert adjoint_hazards.adjoint_hazards(slot) == ["atomic_result:c"]
    inline = kernel("    b[wp.atomic_add(c, 0, 1)] = a[i]\n", params)
    assert adjoint_hazards.adjoint_hazards(inline) == ["atomic_result:c"]
    assert adjoint_hazards.adjoint_hazards(kernel("    wp.atomic_add(c, 0, 1)\n    b[i] = a[i]\n", params)) == []


def test_a_func_that_spins_on_an_atomic_is_flagged_and_a_kernels_own_loop_is_not() -> None:
    # The func's adjoint replays the acquire after the backward's forward replay released the lock (the spinlock
    # programs' backward never ended on an H200); in the kernel itself, that forward replay also releases it.
    flags = adjoint_hazards.adjoint_hazards(SPINLOCK)
    assert "spin_wait:acquire" in flags
    named = SPINLOCK.replace(
        "    while wp.atomic_cas(lock, 0, 0, 1) == 1:\n        pass\n",
        "    taken = wp.atomic_cas(lock, 0, 0, 1)\n    while taken == 1:\n        taken = wp.atomic_exch(lock, 0, 1)\n",
    )
    assert "spin_wait:acquire" in adjoint_hazards.adjoint_hazards(named)
    kernel_only = SPINLOCK[SPINLOCK.index("@wp.kernel") :]
    inline = kernel_only.replace("    acquire(lock)\n", "    while wp.atomic_cas(lock, 0, 0, 1) == 1:\n        pass\n")
    assert not any(f.startswith("spin_wait") for f in adjoint_hazards.adjoint_hazards(inline))
    counted = SPINLOCK.replace("wp.atomic_cas(lock, 0, 0, 1) == 1", "lock[0] < 3")  # a plain read
    giving_up = SPINLOCK.replace("        pass\n", "        return\n")  # a retry that can leave: it ends replayed
    for safe in (counted, giving_up):
        assert not any(f.startswith("spin_wait") for f in adjoint_hazards.adjoint_hazards(safe)), safe


@pytest.mark.slow
def test_a_backward_that_spins_keeps_warps_level_where_the_check_compiles_at_O0(tmp_path: Path) -> None:
    # The check's modules compile at -O0, where this backward (the acquire replayed without its release) spins for
    # ever in one thread: without the exception its check ran into the stage's time limit (checked). Warp's -O2
    # deletes the spin, so a `spin_wait` row's check ends with a verdict, as it did before the -O0.
    source = SPINLOCK.replace("import warp as wp\n", "import warp as wp\n\nCOUNTER = wp.float32\n", 1)
    lock = arrays(("counter", "float32", "inout", UNIFORM), ("lock", "int32", "inout", ZEROS))
    spins = make_row(source, "count", lock) | {"adjoint_hazards": adjoint_hazards.adjoint_hazards(source)}
    smooth = make_row(kernel("    b[i] = wp.sin(a[i]) * a[i]\n"), "k", IN_OUT)
    results = run_rows([spins, smooth], tmp_path, stage_timeout_s=30.0, chunk_size=2)
    assert results[spins["id"]]["gradcheck_status"] not in ("timeout", "error", "skipped"), results[spins["id"]]
    assert results[smooth["id"]]["gradcheck_status"] == "ok"


HAND_WRITTEN = """
import warp as wp

from tests.helpers import SPINLOCK


@wp.func
def double(x: float):
    return 2.0 * x


@wp.func_grad(double)
def adj_double(x: float, adj_ret: float):
    wp.adjoint[x] += adj_ret


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array2d(dtype=float)):
    i = wp.tid()
    view = wp.array(ptr=b.ptr, shape=(2, 3), dtype=float)
    view[0, i] = double(a[i])
"""


def test_hand_written_adjoints_and_arrays_made_from_pointers_are_flagged() -> None:
    # Both gave wrong_adjoint rows with no flag in the default build (warp-lang's
    # custom_adjoint_backward_access_kernel and kernel_array_from_ptr): the backward runs the author's adjoint,
    # and an array made from a pointer has no adjoint array to carry the gradient back.
    assert adjoint_hazards.adjoint_hazards(HAND_WRITTEN) == ["custom_adjoint:double", "pointer_array:view"]
    plain = HAND_WRITTEN.replace("@wp.func_grad(double)", "@wp.func").replace("ptr=b.ptr, ", "")
    assert adjoint_hazards.adjoint_hazards(plain) == []
    # A derivative taken in the kernel: its adjoint is a second derivative, which Warp does not generate.
    second = plain.replace("view[0, i] = double(a[i])", "view[0, i] = wp.grad(double)(a[i])")
    assert adjoint_hazards.adjoint_hazards(second) == ["missing_adjoint:grad"]


def test_missing_adjoints_are_read_from_warps_headers(tmp_path: Path) -> None:
    names = adjoint_hazards.missing_adjoints()
    # Warp 1.19's headers mark these MISSINGADJOINT; floor and sign are marked too, but their headers say the
    # gradient is zero almost everywhere, so an empty adjoint is right for them.
    assert {"frac", "tile_max", "tile_min", "tile_reduce", "tile_scan_inclusive"} <= names
    assert not {"floor", "sign", "step", "sin", "mod"} & names
    # mod's scalar adjoint exists but ignores the divisor; copysign's ignores y on purpose (its comment says so).
    assert adjoint_hazards.partial_adjoints() == {"mod": frozenset({1})}


# ---- verdicts the old check could not give ----

KINK = kernel("    b[i] = wp.abs(a[i]) + wp.where(a[i] > 0.0, 1.0, 0.0)\n")


def test_a_correct_kernel_at_a_kink_is_inconclusive_not_wrong() -> None:
    # Every input sits on the kink and the jump (a = 0): central differences are stable there but say nothing.
    row = make_row(KINK, "k", arrays(("a", "float32", "in", ZEROS), ("b", "float32", "out", ZEROS)))
    result = gradients.check(row)
    assert result.status == "inconclusive", result
    assert adjoint_hazards.adjoint_hazards(KINK) == []


TIE = kernel(
    "    c[i] = wp.max(a[i], b[i])\n", "a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float)"
)


def test_inputs_at_a_tie_of_max_are_inconclusive_not_wrong() -> None:
    # Equal inputs of a max (newton's triangle bounds over a flat grid's shared coordinates): along a direction
    # the central difference is the mean of the two one-sided slopes, while the adjoint gives the whole of
    # either; stable across steps, it was judged wrong_adjoint. One-sided slopes that differ show the kink.
    half = {"dist": "full", "value": 0.5}
    args = arrays(("a", "float32", "in", half), ("b", "float32", "in", half), ("c", "float32", "out", ZEROS))
    result = gradients.check(make_row(TIE, "k", args))
    assert result.status == "inconclusive", result
    apart = arrays(("a", "float32", "in", half), ("b", "float32", "in", UNIFORM), ("c", "float32", "out", ZEROS))
    assert gradients.check(make_row(TIE, "k", apart)).status == "ok"


HALF = kernel(
    "    s = wp.rand_init(7, i)\n    b[i] = wp.float16(wp.noise(s, float(a[i]))) * a[i] + a[i]\n",
    "a: wp.array(dtype=wp.float16), b: wp.array(dtype=wp.float16)",
)


def test_a_float16_kernel_is_checked_with_float16_steps() -> None:
    # noise has no float64 overload, so the kernel does not widen and is checked in its own precision.
    row = make_row(HALF, "k", arrays(("a", "float16", "in", UNIFORM), ("b", "float16", "out", ZEROS)))
    result = gradients.check(row)
    assert (result.status, result.dtype) == ("ok", "float16"), result
    assert result.steps == list(gradients.SETTINGS["float16"][0])
    assert min(result.steps) > max(gradients.SETTINGS["float32"][0])


def test_an_adjoint_identically_zero_is_not_ok() -> None:
    # randf is registered as not differentiable: its bounds get no adjoint though the value moves with them.
    source = kernel("    s = wp.rand_init(3, i)\n    b[i] = wp.randf(s, a[i], a[i] + 2.0)\n")
    result = gradients.check(make_row(source, "k", IN_OUT))
    assert result.status == "zero_adjoint" and result.adjoint_norm == 0.0, result
    assert "zero_adjoint:randf_bounds" in adjoint_hazards.adjoint_hazards(source)
    constant = kernel("    b[i] = wp.floor(a[i] * 0.0) + 2.0\n")
    assert gradients.check(make_row(constant, "k", IN_OUT)).status == "nothing_to_check"
    # A step function: its zero adjoint is right, and checks nothing; where a step lands on the jump the
    # differences are unstable. Never `ok` (the earlier check called it ok: adjoint 0, differences 0).
    steps = kernel("    b[i] = wp.sign(a[i] - 0.5)\n")
    signed = arrays(
        ("a", "float32", "in", {"dist": "uniform", "low": 0.4995, "high": 0.5005}),
        ("b", "float32", "out", ZEROS),
    )
    assert gradients.check(make_row(steps, "k", signed)).status in ("nothing_to_check", "inconclusive")


def test_a_correct_smooth_kernel_is_ok_in_float64() -> None:
    source = kernel("    b[i] = wp.sin(a[i]) * a[i] + wp.exp(0.5 * a[i])\n")
    result = gradients.check(make_row(source, "k", IN_OUT))
    assert (result.status, result.dtype, result.input_sets) == ("ok", "float64", 3), result
    assert result.rel_error is not None and result.rel_error < 1e-6 and result.adjoint_norm > 0


PARAMS = """
@wp.struct
class Params:
    k: float
    c: wp.vec3

@wp.func
def scale(g: float):
    return g * g

@wp.func_grad(scale)
def adj_scale(g: float, adj_ret: float):
    wp.adjoint[g] += FACTOR * g * adj_ret
"""
WITH_PARAMS = kernel(
    "    b[i] = scale(gain) * wp.sin(a[i]) + p.k * a[i] * a[i] + p.c[1] * a[i]\n",
    "a: wp.array(dtype=float), gain: float, p: Params, b: wp.array(dtype=float)",
    PARAMS,
)
PARAM_ARGS: list[Arg] = [
    IN_OUT[0],
    ("gain", "scalar", "float32", "in", {"value": 0.7}),
    ("p", "struct", "Params", "in", {"fields": {"k": {"value": 1.3}, "c": {"value": [0.5, -2.0, 0.25]}}}),
    IN_OUT[1],
]


@pytest.mark.parametrize(("factor", "status"), [("2.0", "ok"), ("3.0", "wrong_adjoint")])
def test_scalar_parameters_and_struct_fields_are_differentiated(factor: str, status: str) -> None:
    result = gradients.check(make_row(WITH_PARAMS.replace("FACTOR", factor), "k", PARAM_ARGS))
    assert result.inputs == ["a", "gain", "p.k", "p.c"]
    assert (result.status, result.dtype) == (status, "float64"), result
    if status == "wrong_adjoint":  # the wrong custom adjoint touches only the scalar parameter
        assert result.worst_input == "gain"


OPTIONAL_FIELD = kernel(
    "    b[i] = p.k * a[i] * a[i]\n",
    "a: wp.array(dtype=float), p: Optional, b: wp.array(dtype=float)",
    "@wp.struct\nclass Optional:\n    k: float\n    w: wp.array(dtype=float)\n",
)


def test_a_struct_with_an_array_field_left_none_gets_a_verdict() -> None:
    # An optional array a package leaves unset (newton's contact filter); `wp.Tape.backward` reads `.grad` of
    # every array field of a struct argument and raised AttributeError on None: the row's check ended `error`.
    args: list[Arg] = [IN_OUT[0], ("p", "struct", "Optional", "in", {"fields": {"k": {"value": 1.3}}}), IN_OUT[1]]
    result = gradients.check(make_row(OPTIONAL_FIELD, "k", args))
    assert (result.status, result.inputs) == ("ok", ["a", "p.k"]), result


def test_an_empty_input_array_is_left_out_of_the_check() -> None:
    # newton passes a zero-length array for a kind of endpoint a launch has none of: its random direction has
    # no element, and dividing by its length raised ZeroDivisionError (the check ended `error`).
    params = "a: wp.array(dtype=float), c: wp.array(dtype=float), b: wp.array(dtype=float)"
    source = kernel("    b[i] = a[i] * a[i]\n", params)
    row = make_row(source, "k", [IN_OUT[0], ("c", "array", "float32", "in", UNIFORM), IN_OUT[1]])
    row["arguments"][1]["shape"] = [0]
    result = gradients.check(row)
    assert (result.status, result.inputs) == ("ok", ["a"]), result


def test_gradient_columns_match_the_schema() -> None:
    columns = gradients.check(make_row(FRAC, "k", IN_OUT)).numbers()
    assert set(columns) <= set(schema.VALIDATION_COLUMN_NAMES) and columns["gradcheck_dtype"] == "float64"
    assert gradients.skipped(schema.NO_BACKWARD).numbers()["gradcheck_dtype"] is None
    # No float input: nothing was checked, so no precision either.
    no_float_input = kernel("    b[i] = float(c[i]) * 2.0\n", "c: wp.array(dtype=int), b: wp.array(dtype=float)")
    result = gradients.check(
        make_row(
            no_float_input,
            "k",
            arrays(("c", "int32", "in", {"dist": "randint", "low": 0, "high": 5}), ("b", "float32", "out", ZEROS)),
        )
    )
    assert result.status == "not_applicable" and result.numbers()["gradcheck_dtype"] is None


def test_agreement_counts_flags_and_verdicts() -> None:
    table = pa.table(
        {
            "adjoint_hazards": [["missing_adjoint:frac"], [], ["dynamic_loop_mutation:x"], [], ["noise_after_draw:s"]],
            "gradcheck_status": ["wrong_adjoint", "wrong_adjoint", "inconclusive", "ok", "ok"],
            "gradcheck_adjoint_norm": [1.0, 2.0, 1.0, 0.0, 3.0],
        }
    )
    tally = _GradientTally()
    tally.add(table)
    g = tally.done()
    assert (g.flagged_rows, g.disagreeing, g.disagreeing_flagged, g.inconclusive) == (3, 2, 1, 1)
    assert (g.ok_flagged, g.ok_zero_adjoint) == (1, 1)
    assert g.explained == pytest.approx(2 / 3)
    assert g.flags == {"missing_adjoint": 1, "dynamic_loop_mutation": 1, "noise_after_draw": 1}


# ---- a hang in the gradient stage marks only that stage ----

# The condition reads the array on every trip: a loop on a local that never changes is undefined behaviour in
# C++ (no side effect the compiler must keep), and Clang removes it.
HANGS_WHEN_MOVED = kernel("    while a[i] != 0.5:\n        b[i] = b[i] + 1.0\n    b[i] = b[i] + a[i] * a[i]\n")


@pytest.mark.slow
def test_a_hang_in_the_gradient_check_is_that_stages_timeout(tmp_path: Path) -> None:
    # Inputs are exactly 0.5: the CPU run ends; the first finite-difference step never does.
    full = {"dist": "full", "value": 0.5}
    hangs = make_row(HANGS_WHEN_MOVED, "k", arrays(("a", "float32", "in", full), ("b", "float32", "out", ZEROS)))
    results = run_rows([hangs], tmp_path, stage_timeout_s=40.0, chunk_size=1)
    columns = results[hangs["id"]]
    assert (columns["cpu_compile_status"], columns["cpu_run_status"]) == ("ok", "ok")
    assert columns["gradcheck_status"] == "timeout" and "timed out" in columns["gradcheck_error"], columns
    assert columns["cuda_compile_status"] == "ok"
