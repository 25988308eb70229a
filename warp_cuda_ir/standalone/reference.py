"""Warp's own CPU launch of a row, forward then backward, as the digest lines its programs must print."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import launch
from warp_cuda_ir.standalone.digest import digest_line
from warp_cuda_ir.standalone.program import printed, runs_backward
from warp_cuda_ir.standalone.values import ArgumentValue, argument_values, live_arrays


def _zero_like(value: Any) -> Any:
    try:
        return type(value)()
    except TypeError:
        return 0


def reference_run(
    row: Mapping[str, Any], kernel: Any, namespace: Mapping[str, Any]
) -> tuple[list[ArgumentValue], list[str]]:
    """(the inputs a program embeds, the lines it must print) from Warp's CPU launch of the loaded kernel.

    The forward launch is `launch.start` (what the validation pass runs); the backward launch gets the
    same arrays, as they are after the forward one, with adjoint arrays holding the seeds for outputs
    and zeros elsewhere: exactly what a program does. A row whose programs run no backward (`runs_backward`):
    the forward lines only.
    `kernel` must be loaded with its backward (`loaded_kernel(..., backward=True)`) when the row has one.
    """
    from warp_cuda_ir.standalone import fit_inputs

    prepared = launch.prepare(row, kernel, namespace, "cpu")
    values = argument_values(prepared, row)  # before the launch changes the arrays
    fit_inputs(values, row)  # the program's inputs: outputs over the cap on literals start zeroed
    for v, value in zip(values, prepared.inputs, strict=True):
        if v.zeroed:
            value.zero_()
    launch.start(prepared, "cpu")
    wp.synchronize_device("cpu")
    arrays = live_arrays(prepared)
    lines = [digest_line("output", v.name, arrays[v.name].numpy()) for v in printed(values, "output")]
    if not runs_backward(row, "cpu"):  # the programs launch no backward kernel either
        return values, lines
    adjoints: list[Any] = []
    for v, value in zip(values, prepared.inputs, strict=True):
        if v.kind == "array":
            start = v.adjoint_seed if v.adjoint_seed is not None else np.zeros_like(v.values)
            adjoints.append(wp.array(start, dtype=value.dtype, shape=value.shape, device="cpu"))
        else:
            adjoints.append(_zero_like(value))
    launch_fn = wp.launch_tiled if prepared.tiled else wp.launch
    launch_fn(
        kernel,
        dim=prepared.dim,
        inputs=prepared.inputs,
        adj_inputs=adjoints,
        adjoint=True,
        block_dim=prepared.block_dim,
        device="cpu",
    )
    wp.synchronize_device("cpu")
    by_name = {v.name: a for v, a in zip(values, adjoints, strict=True)}
    lines += [digest_line("adjoint", v.name, by_name[v.name].numpy()) for v in printed(values, "adjoint")]
    return values, lines
