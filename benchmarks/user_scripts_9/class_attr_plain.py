"""Plain class attributes (a float, a nested class, a wp.vec3) read directly in kernels (no wp.static, no wp.constant)."""

import numpy as np
import warp as wp


class Params:
    DT = 0.005
    DRAG = 0.02
    MAX_ITERS = 3


class Tuning:
    class Limits:
        LO = -0.5
        HI = 2.5

    GAIN = 1.5
    UP = wp.vec3(0.0, 1.0, 0.0)


@wp.kernel
def drag_step(v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    for _ in range(Params.MAX_ITERS):
        v[i] = v[i] * (1.0 - Params.DRAG * Params.DT)


@wp.kernel
def gain_offset(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.clamp(Tuning.GAIN * x[i], Tuning.Limits.LO, Tuning.Limits.HI) + Tuning.UP[1]


v = wp.array(np.ones((4, 3), dtype=np.float32), dtype=wp.vec3)
wp.launch(drag_step, dim=4, inputs=[v])
x = wp.array(np.arange(4, dtype=np.float32))
wp.launch(gain_offset, dim=4, inputs=[x])
print(v.numpy()[0], x.numpy())
