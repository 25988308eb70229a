from __future__ import annotations

from typing import TYPE_CHECKING

import warp as wp

if TYPE_CHECKING:
    from warp.context import Device


@wp.kernel
def saxpy_typed(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), a: wp.float32):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.func
def smoothstep(e0: float, e1: float, x: float) -> float:
    t = wp.clamp((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@wp.kernel
def apply_smoothstep(v: wp.array(dtype=float)):
    i = wp.tid()
    v[i] = smoothstep(0.0, 1.0, v[i])


def run(device: Device | str = "cpu") -> None:
    x = wp.ones(4, dtype=wp.float32, device=device)
    y = wp.ones(4, dtype=wp.float32, device=device)
    wp.launch(saxpy_typed, dim=4, inputs=[x, y, 2.0], device=device)
    wp.launch(apply_smoothstep, dim=4, inputs=[y], device=device)
    print(y.numpy())


run()
