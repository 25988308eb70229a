"""wp.func default arguments taken from globals: a float, a wp.vec3, a wp.constant."""

import numpy as np
import warp as wp

SOFTNESS = 0.25
ORIGIN = wp.vec3(0.5, 0.5, 0.5)
ITERS = wp.constant(3)


@wp.func
def soft_abs(x: float, eps: float = SOFTNESS):
    return wp.sqrt(x * x + eps * eps)


@wp.func
def dist_to(p: wp.vec3, c: wp.vec3 = ORIGIN):
    return wp.length(p - c)


@wp.func
def newton_recip(a: float, n: int = ITERS):
    x = float(1.0)
    for _ in range(n):
        x = x * (2.0 - a * x)
    return x


@wp.kernel
def soft_dists(p: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = soft_abs(dist_to(p[i])) + soft_abs(1.0, 0.1) + dist_to(p[i], wp.vec3(0.0))


@wp.kernel
def recips(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = newton_recip(a[i]) + newton_recip(a[i], 5)


p = wp.array(np.zeros((3, 3), dtype=np.float32), dtype=wp.vec3)
out = wp.zeros(3, dtype=float)
wp.launch(soft_dists, dim=3, inputs=[p, out])
a = wp.array(np.array([0.5, 0.9], dtype=np.float32))
wp.launch(recips, dim=2, inputs=[a])
print(out.numpy(), a.numpy())
