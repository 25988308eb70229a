import math

import numpy as np
import warp as wp

DEBUG = False


@wp.kernel
def wrap_phase(theta: wp.array(dtype=float)):
    i = wp.tid()
    t = theta[i] * SCALE
    # numpy / math constants straight in the kernel
    while t > np.pi:
        t = t - math.tau
    if DEBUG:
        wp.printf("%d %f\n", i, t)
    theta[i] = t


@wp.kernel
def degrees(theta: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = theta[i] * (180.0 / math.pi)


# defined after the kernels that use it: Warp reads it when it builds
SCALE = 2.0

th = wp.array(np.linspace(0.0, 6.0, 10, dtype=np.float32))
wp.launch(wrap_phase, dim=10, inputs=[th])
d = wp.zeros(10, dtype=float)
wp.launch(degrees, dim=10, inputs=[th, d])
print(d.numpy())
