import numpy as np
import warp as wp

GRAVITY = wp.constant(wp.vec3(0.0, -9.81, 0.0))
ROT90 = wp.constant(wp.mat22(0.0, -1.0, 1.0, 0.0))
INERTIA = wp.constant(wp.mat33(2.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 4.0))
ORIGIN = wp.constant(wp.vec2(0.5, 0.5))
DT = 1.0 / 60.0


@wp.kernel
def gravity_step(v: wp.array(dtype=wp.vec3), x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = v[i] + GRAVITY * DT
    x[i] = x[i] + v[i] * DT


@wp.kernel
def rotate_about_origin(p: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p[i] = ROT90 @ (p[i] - ORIGIN) + ORIGIN


@wp.kernel
def angular_momentum(w: wp.array(dtype=wp.vec3), L: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    L[i] = INERTIA * w[i]


if __name__ == "__main__":
    n = 8
    v = wp.zeros(n, dtype=wp.vec3)
    x = wp.zeros(n, dtype=wp.vec3)
    for _ in range(10):
        wp.launch(gravity_step, dim=n, inputs=[v, x])
    p = wp.array(np.random.rand(n, 2), dtype=wp.vec2)
    wp.launch(rotate_about_origin, dim=n, inputs=[p])
    L = wp.zeros(n, dtype=wp.vec3)
    wp.launch(angular_momentum, dim=n, inputs=[wp.ones(n, dtype=wp.vec3), L])
    print(x.numpy()[0], L.numpy()[0])
