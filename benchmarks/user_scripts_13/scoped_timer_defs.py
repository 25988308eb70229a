import contextlib
import os

import warp as wp

with wp.ScopedTimer("define kernels", print=False):

    @wp.kernel
    def timed_axpy(x: wp.array(dtype=float), y: wp.array(dtype=float), alpha: float):
        i = wp.tid()
        y[i] = alpha * x[i] + y[i]


with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):

    @wp.kernel
    def quiet_negate(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = -x[i]


if __name__ == "__main__":
    x = wp.ones(4, dtype=float)
    y = wp.zeros(4, dtype=float)
    wp.launch(timed_axpy, dim=4, inputs=[x, y, 2.0])
    wp.launch(quiet_negate, dim=4, inputs=[y])
    print(y.numpy())
