from typing import Any

import numpy as np
import warp as wp


@wp.func
def sq_norm(v: Any):
    return wp.dot(v, v)


@wp.kernel
def normalize_all(v: wp.array(dtype=Any), eps: Any):
    i = wp.tid()
    n = wp.sqrt(sq_norm(v[i]))
    if n > eps:
        v[i] = v[i] / n


@wp.kernel
def axpy_generic(a: Any, x: wp.array(dtype=Any), y: wp.array(dtype=Any)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


# explicit overloads for the dtypes I use, kept in a dict by dtype
AXPY = {
    dt: wp.overload(axpy_generic, {"a": dt, "x": wp.array(dtype=dt), "y": wp.array(dtype=dt)})
    for dt in (wp.float32, wp.float64)
}

if __name__ == "__main__":
    wp.set_device("cpu")
    for vt, st in ((wp.vec3, wp.float32), (wp.vec3d, wp.float64), (wp.vec4, wp.float32)):
        v = wp.array(np.random.rand(5, vt._length_) + 0.1, dtype=vt)
        wp.launch(normalize_all, dim=5, inputs=[v, st(1e-6)])
    for dt, k in AXPY.items():
        x = wp.ones(5, dtype=dt)
        y = wp.zeros(5, dtype=dt)
        wp.launch(k, dim=5, inputs=[dt(2.0), x, y])
        print(dt.__name__, y.numpy()[0])
    # int32 goes through the generic path, specialised at launch
    xi = wp.ones(5, dtype=wp.int32)
    yi = wp.zeros(5, dtype=wp.int32)
    wp.launch(axpy_generic, dim=5, inputs=[wp.int32(3), xi, yi])
    print(yi.numpy())
