"""A module-level wp.struct instance read with wp.static(P.field), and a struct with a vec field set host-side."""

import numpy as np
import warp as wp


@wp.struct
class SimParams:
    dt: float
    substeps: int
    gravity: wp.vec3


P = SimParams()
P.dt = 0.01
P.substeps = 2
P.gravity = wp.vec3(0.0, -9.8, 0.0)


@wp.kernel
def fall_static(v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    for _ in range(wp.static(P.substeps)):
        v[i] = v[i] + wp.static(P.gravity) * wp.static(P.dt)


@wp.kernel
def fall_by_value(v: wp.array(dtype=wp.vec3), p: SimParams):
    i = wp.tid()
    for _ in range(p.substeps):
        v[i] = v[i] + p.gravity * p.dt


v = wp.zeros(4, dtype=wp.vec3)
wp.launch(fall_static, dim=4, inputs=[v])
wp.launch(fall_by_value, dim=4, inputs=[v, P])
print(v.numpy()[0])
