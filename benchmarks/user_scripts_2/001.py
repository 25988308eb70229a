import numpy as np
import warp as wp

from utils import helper_func

wp.init()


@wp.kernel
def saxpy(x: wp.array(dtype=float), y: wp.array(dtype=float), a: float):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def mul_kernel(x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = helper_func(x[i], y[i])


if __name__ == "__main__":
    n = 1024
    x = wp.array(np.arange(n, dtype=np.float32), dtype=float)
    y = wp.zeros(n, dtype=float)
    wp.launch(saxpy, dim=n, inputs=[x, y, 2.0])
    out = wp.zeros(n, dtype=float)
    wp.launch(mul_kernel, dim=n, inputs=[x, y, out])
    print(out.numpy()[:10])
