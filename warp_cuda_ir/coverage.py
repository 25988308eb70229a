"""What a row's program does on its own inputs: blocks never executed, degenerate outputs.

`measure(row)` runs an instrumented copy of the row's kernel once on the CPU with the row's launch
record: every block of the kernel (if/elif/else bodies, loop bodies) starts with
`wp.atomic_add(<counter array>, k, 1)`, so after the launch a zero counter is a block no thread
entered. The same launch gives the outputs, which are checked for being degenerate: all zero,
one constant, unchanged (an `inout` array left as it came in), or a copy of an input array,
exact, shifted by a few elements along an axis, or offset by a constant.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import launch, warp_session

COUNTER = "coverage_counts_"  # a name no generated or real kernel uses


@dataclass
class Coverage:
    blocks: int = 0
    never_executed: int = 0
    outputs: int = 0
    degenerate: list[str] = field(default_factory=list)  # "name: why" per degenerate output
    error: str | None = None  # the launch failed
    nonfinite: bool = False  # some floating-point output holds NaN or infinity


class _Instrument(ast.NodeTransformer):
    def __init__(self) -> None:
        self.blocks = 0

    def counter(self) -> ast.stmt:
        k = self.blocks
        self.blocks += 1
        return ast.parse(f"wp.atomic_add({COUNTER}, {k}, 1)").body[0]

    def body(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        return [self.counter(), *(self.visit(s) for s in stmts)]

    def visit_If(self, node: ast.If) -> ast.If:
        node.body = self.body(node.body)
        if node.orelse and not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)):
            node.orelse = self.body(node.orelse)  # `else:` (an elif is its own If)
        else:
            node.orelse = [self.visit(s) for s in node.orelse]
        return node

    def visit_For(self, node: ast.For) -> ast.For:
        node.body = self.body(node.body)
        return node

    def visit_While(self, node: ast.While) -> ast.While:
        node.body = self.body(node.body)
        return node


def instrument(source: str, kernel_name: str) -> tuple[str, int]:
    """The source with one counter per block of `kernel_name`, and how many blocks it has."""
    tree = ast.parse(source)
    kernel = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == kernel_name)
    ins = _Instrument()
    kernel.body = [ins.visit(s) for s in kernel.body]
    kernel.args.args.append(ast.arg(COUNTER, ast.parse("wp.array(dtype=wp.int32)", mode="eval").body))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n", ins.blocks


def _degenerate(name: str, after: np.ndarray, before: Mapping[str, np.ndarray], role: str) -> str | None:
    a = after.astype(np.float64, copy=False) if after.dtype != np.bool_ else after.astype(np.float64)
    if a.size and not np.any(a):
        return f"{name}: all zero"
    flat = a.reshape(a.shape[0], -1) if a.ndim else a.reshape(1, -1)
    if a.ndim and a.shape[0] > 1 and np.all(flat == flat[:1]):  # one element (a single atomic bin) is no pattern
        return f"{name}: constant"
    for other, b in before.items():
        if b.shape != after.shape:
            continue
        bf = b.astype(np.float64) if b.dtype != np.float64 else b
        if np.array_equal(a, bf):
            return f"{name}: {'unchanged' if other == name else 'copy of ' + other}"
        diff = a - bf
        if a.size > 1 and np.all(diff == diff.flat[0]):
            return f"{name}: {other} plus a constant"
        for axis in range(min(after.ndim, 3)):
            for shift in (-2, -1, 1, 2):
                if np.array_equal(a, np.roll(bf, shift, axis=axis)):
                    return f"{name}: {other} shifted"
    return None


def measure(row: Mapping[str, Any]) -> Coverage:
    """Blocks never executed and degenerate outputs of `row` on its own inputs (one CPU launch)."""
    return measure_many([row])[0]


def _renamed(source: str, suffix: str) -> tuple[list[str], str, set[str]]:
    """`source` with every top-level definition renamed `<name><suffix>`: its import lines, the rest, the names."""
    tree = ast.parse(source)
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
            node.name += suffix
        elif isinstance(node, ast.Name) and node.id in names:
            node.id += suffix
    imports = [ast.unparse(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    rest = [ast.unparse(n) for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    return imports, "\n\n\n".join(rest), names


def measure_many(rows: list[Mapping[str, Any]]) -> list[Coverage]:
    """`measure` for several rows with one CPU compile: their instrumented kernels (top-level names
    suffixed per row) in one module, as the validation pass batches its NVRTC compiles. A batch that
    does not load or compile is measured row by row (a row alone gets its own error)."""
    results = [Coverage() for _ in rows]
    imports: dict[str, None] = {}
    bodies, plans = [], []
    for k, row in enumerate(rows):
        source, blocks = instrument(row["python_source"], row["kernel_name"])
        results[k].blocks = blocks
        suffix = f"__r{k}" if len(rows) > 1 else ""
        head, body, names = _renamed(source, suffix)
        imports.update(dict.fromkeys(head))
        bodies.append(body)
        counter = {"name": COUNTER, "kind": "array", "dtype": "int32", "shape": [max(blocks, 1)], "role": "out"}
        counter["init"] = json.dumps({"dist": "zeros"})
        plans.append((dict(row, arguments=[*row["arguments"], counter]), row["kernel_name"] + suffix, names, suffix))
    # forward code only: the measure launches once and never differentiates (Clang's time halves)
    options = 'wp.set_module_options({"enable_backward": False, "optimization_level": 0})'
    source = "\n".join([*imports, options]) + "\n\n\n" + "\n\n\n".join(bodies) + "\n"
    try:
        with warp_session.loaded_kernels(source) as (kernels, namespace):
            if len(rows) > 1:  # compile the whole module now: a failure here is the batch's, not a row's
                kernels[plans[0][1]].module.load(wp.get_device("cpu"), block_dim=launch.block_dim(rows[0], "cpu"))
            for (row, key, names, suffix), cov in zip(plans, results, strict=True):
                view = {**namespace, **{n: namespace[n + suffix] for n in names if n + suffix in namespace}}
                try:
                    prepared = launch.prepare(row, kernels[key], view, "cpu")
                    before = {n: a.numpy().copy() for n, a in prepared.arrays().items() if n != COUNTER}
                    after = launch.run(prepared, "cpu")
                except Exception as e:  # a launch failure is a finding, reported with the row
                    cov.error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
                    continue
                _findings(cov, row, before, after)
    except Exception as e:
        if len(rows) == 1:
            results[0].error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            return results
        return [measure(row) for row in rows]
    return results


def _findings(cov: Coverage, row: Mapping[str, Any], before: dict, after: dict) -> None:
    cov.never_executed = int(np.count_nonzero(after[COUNTER][: cov.blocks] == 0))
    cov.nonfinite = any(a.dtype.kind == "f" and not np.isfinite(a).all() for a in after.values())
    roles = {a["name"]: a["role"] for a in row["arguments"] if a["name"] != COUNTER}
    for name, role in roles.items():
        if role not in ("out", "inout") or name not in after:
            continue
        cov.outputs += 1
        inputs = {k: v for k, v in before.items() if roles.get(k) != "out"}
        why = _degenerate(name, after[name], inputs, role)
        if why is not None:
            cov.degenerate.append(why)
