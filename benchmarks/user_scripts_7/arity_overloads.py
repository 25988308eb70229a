# one helper name, several signatures
from typing import Any

import numpy as np
import warp as wp


@wp.func
def blend(a: float, b: float):
    return 0.5 * (a + b)


@wp.func
def blend(a: float, b: float, t: float):
    return a + (b - a) * t


@wp.func
def blend(a: wp.vec3, b: wp.vec3, t: float):
    return a + (b - a) * t


@wp.func
def describe(x: Any):
    return x * x


@wp.func
def describe(x: int):
    return x + 1


@wp.kernel
def blend_all(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = blend(a[i], b[i]) + blend(a[i], b[i], 0.25)


@wp.kernel
def blend_points(p: wp.array(dtype=wp.vec3), q: wp.array(dtype=wp.vec3), counts: wp.array(dtype=int),
                 out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    t = describe(0.5)
    out[i] = blend(p[i], q[i], t) * float(describe(counts[i]))


n = 8
a = wp.array(np.arange(n, dtype=np.float32))
b = wp.array(np.ones(n, dtype=np.float32))
o = wp.zeros(n, dtype=float)
wp.launch(blend_all, dim=n, inputs=[a, b, o])
p = wp.zeros(n, dtype=wp.vec3)
q = wp.array(np.ones((n, 3), dtype=np.float32), dtype=wp.vec3)
c = wp.array(np.arange(n, dtype=np.int32))
r = wp.zeros(n, dtype=wp.vec3)
wp.launch(blend_points, dim=n, inputs=[p, q, c, r])
print(o.numpy()[:3], r.numpy()[1])
