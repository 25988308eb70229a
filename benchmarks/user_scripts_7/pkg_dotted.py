# dotted paths into a package, in the kernel itself
import numpy as np
import warp as wp

import physlib.forces
import physlib.integrators as integ


@wp.kernel
def spring_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    f = physlib.forces.spring(x[i], 1.0, 20.0) + physlib.forces.drag(v[i], 0.1) + physlib.forces.GRAVITY
    x_new = integ.symplectic_euler(x[i], v[i], f, 1.0, dt)
    v[i] = (x_new - x[i]) / dt
    x[i] = x_new


@wp.kernel
def gravity_only(v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    v[i] = v[i] + physlib.forces.GRAVITY * dt


def main():
    rng = np.random.default_rng(1)
    x = wp.array(rng.standard_normal((16, 3)).astype(np.float32), dtype=wp.vec3)
    v = wp.zeros(16, dtype=wp.vec3)
    for _ in range(4):
        wp.launch(spring_step, dim=16, inputs=[x, v, 0.01])
    wp.launch(gravity_only, dim=16, inputs=[v, 0.01])
    print(x.numpy()[0])


if __name__ == "__main__":
    main()
