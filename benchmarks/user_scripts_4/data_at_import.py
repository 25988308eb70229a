# reads params.json from the working directory (run me from this folder)
import json

import numpy as np
import warp as wp

with open("params.json") as f:
    PARAMS = json.load(f)

STIFFNESS = wp.constant(PARAMS["stiffness"])
RESTITUTION = wp.constant(PARAMS["restitution"])
LO, HI = PARAMS["bounds"]


@wp.kernel
def bounce(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p = x[i]
    u = v[i]
    for d in range(2):
        if p[d] < wp.static(LO):
            p[d] = wp.static(LO)
            u[d] = -u[d] * RESTITUTION
        elif p[d] > wp.static(HI):
            p[d] = wp.static(HI)
            u[d] = -u[d] * RESTITUTION
    x[i] = p
    v[i] = u


@wp.kernel
def pull_to_center(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), dt: float):
    i = wp.tid()
    v[i] = v[i] - x[i] * STIFFNESS * dt
    x[i] = x[i] + v[i] * dt


x = wp.array(np.random.uniform(-2, 2, (32, 2)).astype(np.float32), dtype=wp.vec2, device="cpu")
v = wp.zeros_like(x)
for _ in range(PARAMS["substeps"]):
    wp.launch(pull_to_center, dim=32, inputs=[x, v, 0.001], device="cpu")
    wp.launch(bounce, dim=32, inputs=[x, v], device="cpu")
print(np.abs(x.numpy()).max())
