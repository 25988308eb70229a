import numpy as np
import warp as wp

# lean kernels everywhere in this file (no grid-stride loops); we never cap blocks
wp.config.default_grid_stride = False
wp.set_module_options({"enable_backward": False, "max_unroll": 2})


@wp.kernel
def lean_saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def unroll_sum(x: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(4):
        s += x[i, j]
    out[i] = s


x = wp.array(np.ones(16, dtype=np.float32))
y = wp.zeros(16, dtype=float)
wp.launch(lean_saxpy, dim=16, inputs=[2.0, x, y])
m = wp.array(np.ones((4, 4), dtype=np.float32))
out = wp.zeros(4, dtype=float)
wp.launch(unroll_sum, dim=4, inputs=[m, out])
print(y.numpy()[:3], out.numpy())
