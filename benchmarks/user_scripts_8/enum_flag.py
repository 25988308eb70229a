import enum

import numpy as np
import warp as wp


class Forces(enum.IntFlag):
    GRAVITY = enum.auto()
    DRAG = enum.auto()
    WIND = enum.auto()


ACTIVE = Forces.GRAVITY | Forces.WIND


class Axis(enum.Enum):
    X = "x"
    Y = "y"


UP = Axis.Y


@wp.kernel
def accumulate_forces(v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    f = wp.vec3(0.0)
    if wp.static(bool(ACTIVE & Forces.GRAVITY)):
        f += wp.vec3(0.0, -9.8, 0.0)
    if wp.static(bool(ACTIVE & Forces.DRAG)):
        f -= 0.1 * v[i]
    if wp.static(Forces.WIND in ACTIVE):
        f += wp.vec3(1.0, 0.0, 0.0)
    v[i] = v[i] + f * dt


@wp.kernel
def up_component(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    if wp.static(UP == Axis.Y):
        out[i] = v[i][1]
    else:
        out[i] = v[i][0]


v = wp.zeros(4, dtype=wp.vec3)
wp.launch(accumulate_forces, dim=4, inputs=[v, 0.1])
out = wp.zeros(4, dtype=float)
wp.launch(up_component, dim=4, inputs=[v, out])
print(v.numpy()[0], out.numpy())
