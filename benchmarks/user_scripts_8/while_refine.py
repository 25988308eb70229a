"""Halve the step until the explicit update is stable; each step size gets its own kernel."""

import numpy as np
import warp as wp


def make_step(dt):
    @wp.kernel
    def step(u: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        n = u.shape[0]
        lap = u[(i + 1) % n] - 2.0 * u[i] + u[(i + n - 1) % n]
        out[i] = u[i] + dt * 300.0 * lap

    return step


u0 = np.random.default_rng(6).random(32).astype(np.float32)
dt = 0.01
while True:
    u = wp.array(u0)
    out = wp.zeros_like(u)
    kern = make_step(dt)
    for _ in range(20):
        wp.launch(kern, dim=32, inputs=[u, out])
        u, out = out, u
    if np.abs(u.numpy()).max() <= 1.0:
        break
    dt *= 0.5
print("stable dt", dt)
