import os

import numpy as np
import warp as wp

N = int(os.environ.get("SIM_N", "64"))
USE_DOUBLE = os.environ.get("SIM_DOUBLE", "0") == "1"
DEVICE = os.environ.get("SIM_DEVICE", "cpu")
ITERS = int(os.getenv("SIM_ITERS") or 3)

Real = wp.float64 if USE_DOUBLE else wp.float32
Vec = wp.vec3d if USE_DOUBLE else wp.vec3f

wp.config.mode = os.environ.get("WARP_MODE", "release")


@wp.kernel
def harmonic(x: wp.array(dtype=Real), v: wp.array(dtype=Real), k: Real, dt: Real):
    i = wp.tid()
    v[i] = v[i] - k * x[i] * dt
    x[i] = x[i] + v[i] * dt


@wp.kernel
def kinetic(v: wp.array(dtype=Vec), m: Real, e: wp.array(dtype=Real)):
    i = wp.tid()
    wp.atomic_add(e, 0, Real(0.5) * m * wp.dot(v[i], v[i]))


x = wp.array(np.linspace(-1, 1, N), dtype=Real, device=DEVICE)
v = wp.zeros(N, dtype=Real, device=DEVICE)
for _ in range(ITERS):
    wp.launch(harmonic, dim=N, inputs=[x, v, Real(4.0), Real(0.01)], device=DEVICE)
vel = wp.array(np.ones((N, 3)), dtype=Vec, device=DEVICE)
e = wp.zeros(1, dtype=Real, device=DEVICE)
wp.launch(kinetic, dim=N, inputs=[vel, Real(2.0), e], device=DEVICE)
print(f"N={N} double={USE_DOUBLE} E={e.numpy()[0]}")
