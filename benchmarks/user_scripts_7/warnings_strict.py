# strict mode while developing: any warning is an error
import warnings

warnings.simplefilter("error")

import numpy as np  # noqa: E402

np.seterr(all="raise")

import warp as wp  # noqa: E402


@wp.kernel
def safe_div(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    d = b[i]
    if wp.abs(d) < 1.0e-8:
        out[i] = 0.0
    else:
        out[i] = a[i] / d


@wp.kernel
def log_safe(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.log(wp.max(a[i], 1.0e-12))


a = wp.array(np.arange(6, dtype=np.float32))
b = wp.array(np.array([0, 1, 2, 0, 4, 5], dtype=np.float32))
o = wp.zeros(6, dtype=float)
wp.launch(safe_div, dim=6, inputs=[a, b, o])
wp.launch(log_safe, dim=6, inputs=[o])
print(o.numpy())
