import numpy as np
import warp as wp


def make_bounce(restitution):
    E = wp.constant(restitution)
    FLOOR = wp.constant(wp.vec3(0.0, 1.0, 0.0))

    @wp.kernel
    def bounce(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        if wp.dot(x[i], FLOOR) < 0.0:
            v[i] = v[i] - (1.0 + E) * wp.dot(v[i], FLOOR) * FLOOR

    return bounce


def make_window(width):
    HALF = wp.constant(width // 2)

    @wp.kernel
    def window_sum(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        acc = float(0.0)
        for k in range(-HALF, HALF + 1):
            acc += a[wp.clamp(i + k, 0, a.shape[0] - 1)]
        out[i] = acc

    return window_sum


x = wp.array(np.array([[0, -1, 0], [0, 1, 0]], dtype=np.float32), dtype=wp.vec3)
v = wp.array(np.array([[0, -2, 0], [0, -2, 0]], dtype=np.float32), dtype=wp.vec3)
wp.launch(make_bounce(0.5), dim=2, inputs=[x, v])
a = wp.array(np.ones(3, dtype=np.float32))
out = wp.zeros(3, dtype=float)
wp.launch(make_window(5), dim=3, inputs=[a, out])
print(v.numpy(), out.numpy())
