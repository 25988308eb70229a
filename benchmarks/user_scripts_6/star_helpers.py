# `from helpers import *` with an __all__ in the helper
import numpy as np
import warp as wp
from helpers import *  # noqa: F403


@wp.kernel
def smooth_step_all(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = smoothstep(0.2, 0.8, x[i])


@wp.kernel
def remap(x: wp.array(dtype=float), lo: float, hi: float):
    i = wp.tid()
    x[i] = remap01(x[i], lo, hi)


x = wp.array(np.linspace(0, 1, 11, dtype=np.float32))
y = wp.zeros_like(x)
wp.launch(smooth_step_all, dim=11, inputs=[x, y])
wp.launch(remap, dim=11, inputs=[y, 0.0, 2.0])
wp.launch(helpers_reset, dim=11, inputs=[x])
print(y.numpy())
