"""Comments and blank lines between the decorator and the def, a decorator with a trailing comment."""

import numpy as np
import warp as wp


@wp.kernel  # the integrator
# semi-implicit Euler; see notes.md
def euler_gap(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
    i = wp.tid()
    v[i] = v[i] - x[i] * dt
    x[i] = x[i] + v[i] * dt


@wp.kernel(
    enable_backward=False,  # no gradients needed
)

def energy_gap(x: wp.array(dtype=float), v: wp.array(dtype=float), e: wp.array(dtype=float)):  # noqa: E303
    i = wp.tid()
    e[i] = 0.5 * (x[i] * x[i] + v[i] * v[i])


x = wp.array(np.ones(4, dtype=np.float32))
v = wp.zeros(4, dtype=float)
e = wp.zeros(4, dtype=float)
wp.launch(euler_gap, dim=4, inputs=[x, v, 0.1])
wp.launch(energy_gap, dim=4, inputs=[x, v, e])
print(e.numpy())
