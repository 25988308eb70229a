import math

import numpy as np
import warp as wp

GRAVITY = wp.vec3(0.0, -9.81, 0.0)


def make_integrator(damping: float, use_gravity: bool = True):
    @wp.kernel
    def integrate(
        x: wp.array(dtype=wp.vec3),
        v: wp.array(dtype=wp.vec3),
        dt: float,
    ):
        tid = wp.tid()
        vel = v[tid]
        if wp.static(use_gravity):
            vel = vel + GRAVITY * dt
        vel = vel * damping
        v[tid] = vel
        x[tid] = x[tid] + vel * dt

    return integrate


@wp.kernel
def floor_collision(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    p = x[tid]
    if p[1] < 0.0:
        x[tid] = wp.vec3(p[0], 0.0, p[2])
        v[tid] = wp.vec3(v[tid][0], -0.5 * v[tid][1], v[tid][2])


class ParticleSystem:
    def __init__(self, n, damping=0.99):
        self.x = wp.array(np.random.rand(n, 3), dtype=wp.vec3)
        self.v = wp.zeros(n, dtype=wp.vec3)
        self.integrate = make_integrator(damping)
        self.n = n

    def step(self, dt):
        wp.launch(self.integrate, dim=self.n, inputs=[self.x, self.v, dt])
        wp.launch(floor_collision, dim=self.n, inputs=[self.x, self.v])


if __name__ == "__main__":
    ps = ParticleSystem(1000)
    for _ in range(100):
        ps.step(1.0 / 60.0)
    print(ps.x.numpy().mean(axis=0))
