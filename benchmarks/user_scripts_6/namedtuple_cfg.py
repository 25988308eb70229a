# a typing.NamedTuple of parameters closed over by a kernel factory
from typing import NamedTuple

import warp as wp


class Spring(NamedTuple):
    stiffness: float
    damping: float


def make_spring_kernel(p: Spring):
    @wp.kernel
    def spring_force(x: wp.array(dtype=float), v: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        f[i] = -wp.static(p.stiffness) * x[i] - wp.static(p.damping) * v[i]

    return spring_force


soft = make_spring_kernel(Spring(10.0, 0.1))
stiff = make_spring_kernel(Spring(stiffness=1000.0, damping=5.0))
x = wp.full(4, 0.1, dtype=float)
v = wp.zeros(4, dtype=float)
f = wp.zeros(4, dtype=float)
for k in (soft, stiff):
    wp.launch(k, dim=4, inputs=[x, v, f])
    print(f.numpy())
