"""Warp is imported by setup() into the module's globals."""

import numpy as np

wp = None


def setup():
    global wp
    import warp as wp

    wp.config.quiet = True
    wp.init()


setup()


@wp.kernel
def ramp(a: wp.array(dtype=float), slope: float):
    i = wp.tid()
    a[i] = slope * float(i)


@wp.kernel
def cumsum_serial(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    s = float(0.0)
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s


a = wp.zeros(6, dtype=float)
out = wp.zeros(6, dtype=float)
wp.launch(ramp, dim=6, inputs=[a, 0.5])
wp.launch(cumsum_serial, dim=1, inputs=[a, out])
print(out.numpy(), np.allclose(out.numpy()[-1], 7.5))
