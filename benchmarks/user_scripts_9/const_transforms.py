"""wp.constant of a transform, a quaternion, small integer types and a custom vector type."""

import math

import numpy as np
import warp as wp

vec5 = wp.types.vector(length=5, dtype=wp.float32)

BODY_TO_WORLD = wp.constant(wp.transform(wp.vec3(1.0, 0.0, 0.0), wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), math.pi / 2.0)))
TILT = wp.constant(wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), 0.1))
MASK = wp.constant(wp.uint8(7))
BIG = wp.constant(wp.int64(1 << 40))
WEIGHTS5 = wp.constant(vec5(0.1, 0.2, 0.4, 0.2, 0.1))


@wp.kernel
def to_world(p: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.quat_rotate(TILT, wp.transform_point(BODY_TO_WORLD, p[i]))


@wp.kernel
def packed_weights(codes: wp.array(dtype=wp.uint8), vals: wp.array(dtype=vec5), out: wp.array(dtype=float), ids: wp.array(dtype=wp.int64)):
    i = wp.tid()
    out[i] = wp.dot(vals[i], WEIGHTS5) * float(codes[i] & MASK)
    ids[i] = BIG + wp.int64(i)


p = wp.array(np.ones((3, 3), dtype=np.float32), dtype=wp.vec3)
out = wp.zeros(3, dtype=wp.vec3)
wp.launch(to_world, dim=3, inputs=[p, out])
codes = wp.array(np.array([1, 15, 255], dtype=np.uint8), dtype=wp.uint8)
vals = wp.array(np.ones((3, 5), dtype=np.float32), dtype=vec5)
o = wp.zeros(3, dtype=float)
ids = wp.zeros(3, dtype=wp.int64)
wp.launch(packed_weights, dim=3, inputs=[codes, vals, o, ids])
print(out.numpy()[0], o.numpy(), ids.numpy())
