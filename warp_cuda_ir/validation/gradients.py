"""Gradient check over the whole adjoint: `wp.Tape` on the CPU against central finite differences.

The loss is sum(w * out) over every float output with random weights w. For each differentiable
input (float arrays read or updated by the kernel, float scalar parameters, float fields of struct
parameters) a random direction d over ALL its elements is drawn, and the change of the loss
between x + h*d and x - h*d is compared with what the adjoint predicts, g . (x+ - x-), at three
step sizes h, on three input sets (the row's seed and two more). The displacement used is the one
the array actually received after rounding to its precision, so float16 inputs are judged fairly.

Scalar parameters and struct fields get no gradient from `wp.Tape` (Warp discards a by-value
parameter's adjoint), so the check reads them from one-element arrays instead: `s: float` becomes
`s__grad: wp.array(dtype=float)` with `s = s__grad[0]` as the kernel's first statement, and `p.k`
reads become `p__k__grad[0]`. The adjoint code of everything downstream is Warp's own for the row.

Precision: float64 when the kernel still compiles with every float type widened (float -> float64,
vec3 -> vec3d, literals wrapped); otherwise the row's own precision, float16 steps for a kernel with
float16 data and float32 steps else (never float32 steps on float16 data).

Verdicts (`gradcheck_status`), per (input set, input) pair first:
- flat: neither the loss nor the adjoint's prediction moves beyond rounding noise;
- agree: the adjoint's prediction matches finite differences within the precision's tolerance at
  some step;
- wrong: it matches at no step while the finite differences agree with each other across steps
  much better than with the adjoint (error > 3 x spread);
- unstable: otherwise (the step crosses a kink, branch or discontinuity), or the input sits on a kink: the
  one-sided differences disagree by as much at every step (a tie of `max`/`min`: the central difference is
  the mean of the two sides' slopes, the adjoint either side's whole, and neither is the derivative).
Then for the row: `wrong_adjoint` when an input is wrong on at least two input sets (a disagreement
that does not repeat on another input set is an artefact of where the step landed: `inconclusive`),
`zero_adjoint` if the adjoint was identically zero at the same time; `inconclusive` when any pair is
wrong or unstable; `ok` when some pair agreed; `nothing_to_check` when every pair is flat;
`not_applicable` when the kernel has no float input to differentiate or no float output.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import launch, schema, warp_session
from warp_cuda_ir.errors import one_line
from warp_cuda_ir.standalone.program import UNDEFINED_BACKWARD
from warp_cuda_ir.warp_session import captured_stderr

INPUT_SETS = 3
# Per precision: step sizes (relative to max(1, |x|) per element), tolerance on the relative error of
# the loss change, and the machine epsilon that sets the rounding-noise floor.
# float64: central differences at 1e-4..1e-6 are good to ~1e-8 on smooth kernels; 1e-5 leaves room
# for curvature at the largest step. float32 (eps 1.2e-7): ~1e-3 steps, 2e-2 tolerance, as before.
# float16 (eps 9.8e-4): a 1e-3 step is one ulp, so steps of 0.1..0.025 and a 0.1 tolerance.
SETTINGS: dict[str, tuple[tuple[float, ...], float, float]] = {
    "float64": ((1e-4, 1e-5, 1e-6), 1e-5, float(np.finfo(np.float64).eps)),
    "float32": ((1e-2, 3e-3, 1e-3), 2e-2, float(np.finfo(np.float32).eps)),
    "float16": ((1e-1, 5e-2, 2.5e-2), 1e-1, float(np.finfo(np.float16).eps)),
}
NOISE_ULPS = 32.0  # rounding noise of the loss: this many epsilons of sum(|w * out|)
STABLE_FACTOR = 3.0  # "wrong" needs the adjoint's error to exceed the finite differences' spread this much
WRONG_INPUT_SETS = 2  # ... on at least this many input sets

_WIDER = {
    "float32": "float64",
    "float16": "float64",
    **{f"vec{n}": f"vec{n}d" for n in (2, 3, 4)},
    **{f"vec{n}f": f"vec{n}d" for n in (2, 3, 4)},
    **{f"vec{n}h": f"vec{n}d" for n in (2, 3, 4)},
    **{f"mat{n}{n}": f"mat{n}{n}d" for n in (2, 3, 4)},
    **{f"mat{n}{n}f": f"mat{n}{n}d" for n in (2, 3, 4)},
    **{f"mat{n}{n}h": f"mat{n}{n}d" for n in (2, 3, 4)},
    "quat": "quatd",
    "quatf": "quatd",
    "quath": "quatd",
    "transform": "transformd",
    "transformf": "transformd",
    "transformh": "transformd",
    "spatial_vector": "spatial_vectord",
    "spatial_matrix": "spatial_matrixd",
}
_FLOAT_KINDS = (np.float16, np.float32, np.float64)
_FLOAT_TYPE = re.compile(
    r"^(?:wp\.)?(float|float16|float32|float64|half|vec[234][dfh]?|mat(?:22|33|44)[dfh]?|quat[dfh]?"
    r"|transform[dfh]?|spatial_(?:vector|matrix)[dfh]?)$"
)
_HALF = re.compile(r"(float16|half|vec[234]h|mat(?:22|33|44)h|quath|transformh)")
SUFFIX = "__grad"


@dataclass
class GradientCheck:
    status: str  # a verdict (see the module text), error, timeout or skipped
    dtype: str | None = None
    rel_error: float | None = None
    fd_spread: float | None = None
    adjoint_norm: float | None = None
    input_sets: int | None = None
    steps: list[float] | None = None
    inputs: list[str] = field(default_factory=list)
    worst_input: str | None = None
    error: str | None = None  # what failed (status `error`)
    skip_reason: str | None = None  # one of schema.SKIP_REASONS (status `skipped`)

    def numbers(self) -> dict[str, Any]:
        """The check's own columns (all but the stage's status, error and skip reason): null when no check ran."""
        ran = self.status not in ("error", "skipped", "timeout", "not_applicable")
        return {
            "gradcheck_dtype": self.dtype if ran else None,
            "gradcheck_rel_error": self.rel_error,
            "gradcheck_fd_spread": self.fd_spread,
            "gradcheck_adjoint_norm": self.adjoint_norm,
            "gradcheck_input_sets": self.input_sets,
            "gradcheck_steps": self.steps,
            "gradcheck_inputs": self.inputs or None,
            "gradcheck_worst_input": self.worst_input,
        }


def skipped(reason: str) -> GradientCheck:
    if reason not in schema.SKIP_REASONS:
        raise ValueError(f"skip reason {reason!r} is not in schema.SKIP_REASONS")
    return GradientCheck("skipped", skip_reason=reason)


# ---- source transforms -------------------------------------------------------------------------


class _Widen(ast.NodeTransformer):
    """float32/float16 types -> float64 ones, float literals -> wp.float64(literal)."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return _wp_attr("float64") if node.id == "float" else node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == "wp" and node.attr in _WIDER:
            return _wp_attr(_WIDER[node.attr])
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, float):
            return ast.Call(_wp_attr("float64"), [node], [])
        return node


def _wp_attr(name: str) -> ast.Attribute:
    return ast.Attribute(ast.Name("wp", ast.Load()), name, ast.Load())


def _wider(dtype: str) -> str:
    return _WIDER.get("float32" if dtype == "float" else dtype, dtype)


def widen_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """The row with its source and launch record moved to float64."""
    tree = _Widen().visit(ast.parse(row["python_source"]))
    source = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    arguments = [dict(a, dtype=_wider(a["dtype"])) for a in row["arguments"]]
    return dict(row, python_source=source, arguments=arguments)


def _is_float_type(annotation: str) -> bool:
    return bool(_FLOAT_TYPE.match(annotation.strip()))


def _struct_fields(tree: ast.Module) -> dict[str, dict[str, str]]:
    """{struct class name: {field: annotation text}} of every `@wp.struct` in the module."""
    structs: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any("struct" in ast.unparse(d) for d in node.decorator_list):
            structs[node.name] = {
                s.target.id: ast.unparse(s.annotation)
                for s in node.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            }
    return structs


class _FieldReads(ast.NodeTransformer):
    """`p.k` (a load of a struct parameter's field) -> `p__k__grad[0]`."""

    def __init__(self, fields: Mapping[tuple[str, str], str]) -> None:
        self.fields = fields

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and isinstance(node.ctx, ast.Load):
            array = self.fields.get((node.value.id, node.attr))
            if array is not None:
                return ast.Subscript(ast.Name(array, ast.Load()), ast.Constant(0), ast.Load())
        return self.generic_visit(node)


def expose_parameters(row: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The row with float scalar parameters and struct fields read from one-element arrays.

    Returns (row, {array argument name: the parameter it stands for, `s` or `p.k`}). Arguments
    whose value cannot be put in an array (no recipe value) and struct fields the kernel assigns
    are left as they are.
    """
    tree = ast.parse(row["python_source"])
    structs = _struct_fields(tree)
    kernel = next(
        (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == row.get("kernel_name")), None
    )
    if kernel is None:
        return dict(row), {}
    params = {a.arg: a for a in kernel.args.args}
    stored = {
        (n.value.id, n.attr)
        for n in ast.walk(kernel)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and not isinstance(n.ctx, ast.Load)
    }
    arguments: list[dict[str, Any]] = []
    extra: list[dict[str, Any]] = []
    exposed: dict[str, str] = {}
    prologue: list[ast.stmt] = []
    field_arrays: dict[tuple[str, str], str] = {}
    for arg in row["arguments"]:
        init = json.loads(arg["init"]) if isinstance(arg["init"], str) else (arg["init"] or {})  # real rows: None
        name, param = arg["name"], params.get(arg["name"])
        if arg["kind"] == "scalar" and param is not None and _is_float_type(arg["dtype"]) and "value" in init:
            array = name + SUFFIX
            param.arg = array
            param.annotation = ast.parse(f"wp.array(dtype={ast.unparse(param.annotation)})", mode="eval").body
            prologue.append(ast.parse(f"{name} = {array}[0]").body[0])
            arguments.append(dict(arg, name=array, kind="array", shape=[1], init={"value": init["value"]}))
            exposed[array] = name
            continue
        arguments.append(arg)
        if arg["kind"] == "struct" and param is not None and arg["dtype"] in structs:
            recipes = init.get("fields", {})
            for field_name, annotation in structs[arg["dtype"]].items():
                # A field without a recipe value (a real row's captured struct) stays as launched: its array
                # would be one argument more than the launch record holds.
                if not _is_float_type(annotation) or (name, field_name) in stored:
                    continue
                if "value" not in recipes.get(field_name, {}):
                    continue
                array = f"{name}__{field_name}{SUFFIX}"
                kernel.args.args.append(ast.arg(array, ast.parse(f"wp.array(dtype={annotation})", mode="eval").body))
                value = recipes[field_name]["value"]
                dtype = annotation.removeprefix("wp.")
                extra.append(
                    {
                        "name": array,
                        "kind": "array",
                        "dtype": dtype,
                        "shape": [1],
                        "role": "in",
                        "init": {"value": value},
                    }
                )
                field_arrays[(name, field_name)] = array
                exposed[array] = f"{name}.{field_name}"
    if not exposed:
        return dict(row), {}
    if field_arrays:
        kernel.body = [_FieldReads(field_arrays).visit(s) for s in kernel.body]
    docstring = 1 if kernel.body and isinstance(kernel.body[0], ast.Expr) else 0
    kernel.body[docstring:docstring] = prologue
    source = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    return dict(row, python_source=source, arguments=arguments + extra), exposed


def _materialise(row: Mapping[str, Any], namespace: Mapping[str, Any]) -> dict[str, Any]:
    """One-element array recipes from `expose_parameters` as `full` recipes of the right shape."""
    arguments = []
    for arg in row["arguments"]:
        init = json.loads(arg["init"]) if isinstance(arg["init"], str) else (arg["init"] or {})  # real rows: None
        if arg["kind"] == "array" and set(init) == {"value"}:
            dtype = launch.resolve_dtype(arg["dtype"], namespace)
            value = np.asarray(init["value"], dtype=np.float64).reshape(launch.component_shape(dtype)).tolist()
            init = {"dist": "full", "value": value}
        arguments.append(dict(arg, init=init))
    return dict(row, arguments=arguments)


# ---- the check ---------------------------------------------------------------------------------


def _is_float(array: Any) -> bool:
    return launch.scalar_numpy_type(array.dtype) in _FLOAT_KINDS


def _fallback_precision(row: Mapping[str, Any]) -> str:
    return "float16" if any(_HALF.search(a["dtype"]) for a in row["arguments"]) else "float32"


# The check's modules are its own instrument (the row's source widened, its parameters exposed), not the row's
# code, and most of their compile was Clang's optimiser: Warp's Clang compiles them at -O0, not at Warp's -O2.
# Clang on 32 generated rows' check modules: 2.6 CPU-s at -O0, ~15 at -O2; the pass's row step ~0.07 core-s/row
# cheaper; every annotation of 128 generated rows, and of 247 of 248 replayed real rows (the 248th below), the
# same at either level (benchmarks/README.md, "The gradient check's modules at -O0"). Real rows gain little:
# their cost is their own modules, which stay at Warp's level.
# The exception is a backward whose behaviour is undefined (`UNDEFINED_BACKWARD`): what it does depends on the
# optimiser. At -O0 a spin on a lock the backward never releases does not end (Warp's -O2 deletes it); newton's
# contact scatter, which reads past its contacts, gives whatever memory holds (NaN at -O0; at -O2 a crash in one
# pass, a finite adjoint in another). Such a check keeps Warp's level, as Warp's own build runs it.
OPTIMIZATION_LEVEL = 0


def optimization_level(row: Mapping[str, Any]) -> int | None:
    """The level Warp compiles the row's gradient-check modules at (None: Warp's default)."""
    undefined = any(h.startswith(UNDEFINED_BACKWARD) for h in row.get("adjoint_hazards") or ())
    return None if undefined else OPTIMIZATION_LEVEL


def check(row: Mapping[str, Any]) -> GradientCheck:
    """Gradient check of the row's kernel on the CPU, float64 if the kernel allows."""
    if not row.get("cuda_backward") or not row.get("cpu_backward"):
        return skipped(schema.NO_BACKWARD)
    try:
        # Clang prints its errors for a source that does not widen; they are expected, not news.
        with captured_stderr():
            return _check(widen_row(row), "float64")
    except Exception:
        pass  # the kernel does not compile or launch in float64 (int casts, float32-only built-ins)
    precision = _fallback_precision(row)
    try:
        return _check(row, precision)
    except Exception as e:
        return GradientCheck("error", error=f"{type(e).__name__}: {one_line(e)}")


@dataclass
class _Pair:
    """One input on one input set, at every step."""

    input: str
    flat: bool
    rel_error: float  # best step's |dL_fd - dL_adj| / max(|dL_fd|, |dL_adj|, noise)
    spread: float  # range of the finite-difference slopes across steps, relative to the largest slope

    @property
    def verdict(self) -> str:
        if self.flat:
            return "flat"
        if self.rel_error <= self.tolerance:
            return "agree"
        if np.isfinite(self.spread) and self.rel_error > STABLE_FACTOR * self.spread and not self.kink:
            return "wrong"
        return "unstable"

    tolerance: float = 0.0
    # The one-sided differences disagree beyond the tolerance at every step, not shrinking with the step (curvature's
    # asymmetry shrinks in proportion to it, a kink's stays): no derivative to compare with.
    kink: bool = False


class _Loss:
    """sum(w * out) of one input set's launch, with one input moved; every array reset first."""

    def __init__(self, fresh: launch.Launch, start: dict[str, np.ndarray], weights: dict[str, Any], eps: float):
        self.fresh, self.start, self.weights, self.eps = fresh, start, weights, eps
        # CPU arrays: numpy() is a view; an array passed twice is reset once, under the name `start` holds
        self.views = {n: a.numpy() for n, a in fresh.arrays().items() if n in start}

    def at(self, name: str, delta: np.ndarray) -> tuple[float, float, np.ndarray]:
        """(loss, its rounding noise, the displacement the input actually got) with `name` moved by `delta`."""
        for n, view in self.views.items():
            view[...] = self.start[n]
        self.views[name][...] = self.start[name] + delta  # rounded to the array's precision here
        moved = self.views[name].astype(np.float64) - self.start[name].astype(np.float64)
        launch.start(self.fresh, "cpu")
        wp.synchronize_device("cpu")
        terms = [self.views[n].astype(np.float64) * w for n, w in self.weights.items()]
        total = float(sum(np.sum(t) for t in terms))
        noise = NOISE_ULPS * self.eps * float(sum(np.sum(np.abs(t)) for t in terms))
        return total, noise, moved


def _check(row: Mapping[str, Any], precision: str) -> GradientCheck:
    steps, tolerance, eps = SETTINGS[precision]
    exposed_row, exposed = expose_parameters(row)
    source = exposed_row["python_source"]
    # backward=True: a real row's package may disable backward; its row's backward code was enabled for codegen
    level = optimization_level(row)
    with warp_session.loaded_kernel(source, row.get("kernel_name"), backward=True, optimization_level=level) as loaded:
        kernel, namespace = loaded
        base = _materialise(exposed_row, namespace)
        pairs: list[_Pair] = []
        norms: list[float] = []
        adjoint_zero = True
        inputs: list[str] = []
        row_seed = int(row.get("seed") or 0)  # real rows have no seed: their inputs are a captured launch
        for k in range(INPUT_SETS):
            seeded = dict(base, seed=row_seed + 1_000_003 * k)
            taped = launch.prepare(seeded, kernel, namespace, "cpu", requires_grad=True)
            # One name per array: a captured launch may pass one array as two arguments (an update in place), and
            # the loss weighed it under both names while the backward took one name's seed.
            named: dict[int, str] = {}
            arrays = {n: a for n, a in taped.arrays().items() if named.setdefault(id(a), n) == n}
            roles = {a["name"]: a["role"] for a in taped.arguments}
            # An empty array (a launch with none of some kind of element) has nothing to move.
            ins = [n for n, a in arrays.items() if roles[n] in ("in", "inout") and _is_float(a) and a.size > 0]
            outs = [n for n, a in arrays.items() if roles[n] in ("out", "inout") and _is_float(a)]
            if not ins or not outs:
                return GradientCheck("not_applicable")
            inputs = [exposed.get(n, n) for n in ins]
            start = {n: a.numpy().copy() for n, a in arrays.items()}
            rng = np.random.default_rng([row_seed, k, 2_718_281])
            weights = {n: rng.uniform(0.5, 1.5, start[n].shape) * rng.choice((-1.0, 1.0), start[n].shape) for n in outs}
            tape = warp_session.Tape()
            with tape:
                launch.start(taped, "cpu")
            tape.backward(
                grads={
                    arrays[n]: wp.array(weights[n], dtype=arrays[n].dtype, shape=arrays[n].shape, device="cpu")
                    for n in outs
                }
            )
            adjoint = {n: arrays[n].grad.numpy().astype(np.float64) for n in ins}
            norms.append(float(np.sqrt(sum(np.sum(g * g) for g in adjoint.values()))))
            adjoint_zero = adjoint_zero and not any(np.any(g != 0) for g in adjoint.values())

            loss = _Loss(launch.prepare(seeded, kernel, namespace, "cpu"), start, weights, eps)
            here, noise_here, _ = loss.at(ins[0], np.zeros(start[ins[0]].shape))

            for name in ins:
                x = start[name].astype(np.float64)
                direction = rng.standard_normal(x.shape) * np.maximum(1.0, np.abs(x))
                errors, slopes, asymmetry, flat = [], [], [], True
                for h in steps:
                    up, noise_up, moved_up = loss.at(name, h * direction)
                    down, noise_down, moved_down = loss.at(name, -h * direction)
                    fd = up - down
                    apart, size = abs((up - here) - (here - down)), abs(up - here) + abs(here - down)
                    asymmetry.append(apart / max(size, noise_up + noise_down + noise_here, np.finfo(float).tiny))
                    predicted = float(np.sum(adjoint[name] * (moved_up - moved_down)))
                    noise = noise_up + noise_down
                    flat = flat and abs(fd) <= noise and abs(predicted) <= noise
                    # A step where neither side moves beyond rounding is no evidence of agreement (a step function's
                    # zero adjoint "agreed" with its zero differences away from the jump: an `ok` with nothing checked).
                    moving = abs(fd) > noise or abs(predicted) > noise
                    error = abs(fd - predicted) / max(abs(fd), abs(predicted), noise, np.finfo(float).tiny)
                    errors.append(error if moving else np.inf)
                    # the slope along the direction, per unit of the displacement actually applied
                    length = float(np.sum((moved_up - moved_down) * direction)) / float(np.sum(direction * direction))
                    slopes.append(fd / length if length else np.nan)
                slopes_arr = np.asarray(slopes)
                scale = max(float(np.nanmax(np.abs(slopes_arr))) if np.any(np.isfinite(slopes_arr)) else 0.0, 1e-300)
                spread = float(np.ptp(slopes_arr)) / scale if np.all(np.isfinite(slopes_arr)) else np.inf
                best = float(np.nanmin(errors)) if np.any(np.isfinite(errors)) else np.inf
                kink = min(asymmetry) > tolerance and asymmetry[-1] > 0.5 * asymmetry[0]
                pairs.append(_Pair(exposed.get(name, name), flat, best, spread, tolerance, kink))
    return _verdict(pairs, precision, list(steps), norms, adjoint_zero, inputs)


def _verdict(
    pairs: list[_Pair], precision: str, steps: list[float], norms: list[float], adjoint_zero: bool, inputs: list[str]
) -> GradientCheck:
    moving = [p for p in pairs if not p.flat]
    worst = max(moving, key=lambda p: p.rel_error if np.isfinite(p.rel_error) else np.inf, default=None)
    result = GradientCheck(
        "ok",
        dtype=precision,
        rel_error=_finite(worst.rel_error) if worst else None,
        fd_spread=_finite(max((p.spread for p in moving), default=np.nan)) if moving else None,
        adjoint_norm=max(norms, default=0.0),
        input_sets=INPUT_SETS,
        steps=steps,
        inputs=inputs,
        worst_input=worst.input if worst else None,
    )
    verdicts = [p.verdict for p in pairs]
    wrong_sets: dict[str, int] = {}
    for p, v in zip(pairs, verdicts, strict=True):
        if v == "wrong":
            wrong_sets[p.input] = wrong_sets.get(p.input, 0) + 1
    if any(n >= WRONG_INPUT_SETS for n in wrong_sets.values()):
        result.status = "zero_adjoint" if adjoint_zero else "wrong_adjoint"
    elif any(v in ("wrong", "unstable") for v in verdicts):
        result.status = "inconclusive"
    elif any(v == "agree" for v in verdicts):
        result.status = "ok"
    else:
        result.status = "nothing_to_check"
    return result


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None
