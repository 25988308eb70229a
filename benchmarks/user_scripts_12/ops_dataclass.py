from dataclasses import dataclass
from typing import Callable

import warp as wp


@wp.func
def smooth_relu(x: float):
    return wp.log(1.0 + wp.exp(x))


@wp.func
def hard_relu(x: float):
    return wp.max(x, 0.0)


@dataclass
class Ops:
    act: Callable
    scale: float = 1.0


OPS = Ops(act=smooth_relu, scale=0.5)
HARD = Ops(hard_relu)


@wp.kernel
def apply_ops_field(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.static(OPS.act)(a[i]) * wp.static(OPS.scale)


@wp.kernel
def apply_static_field(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.static(HARD.act)(a[i] - 1.0)


if __name__ == "__main__":
    a = wp.array([-1.0, 0.0, 2.0], dtype=float)
    wp.launch(apply_ops_field, dim=3, inputs=[a])
    wp.launch(apply_static_field, dim=3, inputs=[a])
    print(a.numpy())
