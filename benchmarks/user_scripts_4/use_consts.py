import warp as wp
import numpy as np

import consts as C
from consts import DAMPING, GRAVITY


@wp.kernel
def fall(y: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):
    i = wp.tid()
    v[i] = (v[i] - GRAVITY * dt) * (1.0 - DAMPING)
    y[i] = y[i] + v[i] * dt


@wp.kernel
def newton_sqrt(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i]
    for _ in range(C.MAX_ITERS):
        if wp.abs(x * x - a[i]) < C.TOL:
            break
        x = 0.5 * (x + a[i] / x)
    out[i] = x


@wp.kernel
def project_up(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.dot(v[i], C.UP)


if __name__ == "__main__":
    y = wp.array(np.full(8, 10.0, dtype=np.float32), device="cpu")
    v = wp.zeros(8, dtype=float, device="cpu")
    for _ in range(20):
        wp.launch(fall, dim=8, inputs=[y, v, 0.01], device="cpu")
    a = wp.array(np.arange(1, 9, dtype=np.float32), device="cpu")
    r = wp.zeros(8, dtype=float, device="cpu")
    wp.launch(newton_sqrt, dim=8, inputs=[a, r], device="cpu")
    vv = wp.array(np.random.rand(8, 3).astype(np.float32), dtype=wp.vec3, device="cpu")
    wp.launch(project_up, dim=8, inputs=[vv, r], device="cpu")
    print(y.numpy()[0], r.numpy()[:3])
